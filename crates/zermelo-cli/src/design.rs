//! `zermelo report`: a designer's report as text, as JSON, and as one self-contained page.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};
use zermelo::analysis::report::{forgiveness_svg, Certificate, Forgiveness};
use zermelo::analysis::stats::Share;
use zermelo::session::strength::{SeatsReport, Strength};
use zermelo::session::{quantity, Compensation, DesignReport, FirstMove, MoveTally, Verdict};
use zermelo::Class;

use crate::report::{document, Report};

/// How many reply lines a first move shows in text.
const REPLIES_SHOWN: usize = 8;

/// "3 win, 5 draw, 1 lose".
fn tally_text(t: &MoveTally) -> String {
    format!("{} win, {} draw, {} lose", t.wins, t.draws, t.losses)
}

/// A share as a percentage.
fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// The text and JSON of `r`.
pub fn render(r: &DesignReport) -> Report {
    Report {
        text: text(r),
        json: document("report", r),
    }
}

/// The text and JSON of the report of a game of more than two seats.
pub fn render_seats(r: &SeatsReport) -> Report {
    let mut t = format!("{}: {} seats\n", r.game, r.seats);
    if let Some(scores) = &r.scores {
        let each: Vec<String> = scores.iter().map(i32::to_string).collect();
        let _ = writeln!(t, "exact scores under best play, by seat: {}", each.join(" to "));
    }
    for n in &r.notes {
        let _ = writeln!(t, "{n}");
    }
    t += "self-play: ";
    t += &crate::render::estimate_text(&r.selfplay);
    Report {
        text: t,
        json: document("report", r),
    }
}

fn text(r: &DesignReport) -> String {
    let mut t = format!(
        "{}: {} for {}, who moves first ({})\n",
        r.game,
        r.verdict.words(),
        r.to_move,
        r.solver
    );
    let f = &r.first_moves;
    let _ = writeln!(
        t,
        "first moves: {} ({})",
        quantity(f.tally.total, "move"),
        tally_text(&f.tally)
    );
    if let Some(w) = &f.warning {
        let _ = writeln!(t, "warning: {w}");
    }
    for m in &f.moves {
        t += &first_move_text(m);
    }
    let s = &r.swap;
    let moves = if s.fairest.len() == 1 { "move" } else { "moves" };
    let fairest = if s.fairest.is_empty() {
        "not known".to_string()
    } else if s.exact_draw {
        format!("fairest first {moves} {} (an exact draw)", s.fairest.join(", "))
    } else {
        format!(
            "no first move draws; the closest to even: {}",
            s.fairest.join(", ")
        )
    };
    let _ = writeln!(
        t,
        "swap rule: {fairest}; the first player's value: {}",
        s.value.words()
    );
    if let Some(fg) = &r.forgiveness {
        t += &forgiveness_text(fg);
    }
    if let Some(c) = &r.certificate {
        t += &certificate_text(c);
    }
    if let Some(c) = &r.compensation {
        t += &compensation_text(c);
    }
    if let Some(s) = &r.strengths {
        t += &strengths_text(s);
    }
    for n in &r.notes {
        let _ = writeln!(t, "note: {n}");
    }
    t
}

/// A share and its interval: "61.0 % (58.0–64.0 %)".
fn share_text(s: &Share) -> String {
    format!(
        "{:.1} % ({:.1}–{:.1} %)",
        100.0 * s.share,
        100.0 * s.low,
        100.0 * s.high
    )
}

fn strengths_text(rows: &[Strength]) -> String {
    let mut t = "self-play, the same player in both seats (points shares, 95 % intervals):\n".to_string();
    for s in rows {
        let _ = writeln!(
            t,
            "  {:<13} {} games: first seat {}, second {}, draws {}",
            s.player,
            s.games,
            share_text(&s.first),
            share_text(&s.second),
            share_text(&s.draws)
        );
    }
    t
}

fn compensation_text(c: &Compensation) -> String {
    let mut t = format!(
        "compensation along {} ({}{}):\n",
        c.key,
        quantity(c.settings, "setting"),
        if c.bisected {
            ", bisected on the result"
        } else {
            ""
        }
    );
    for s in &c.solved {
        let _ = writeln!(
            t,
            "  {}={:<8} {} for {}",
            c.key,
            s.setting,
            s.verdict.words(),
            s.to_move
        );
    }
    let change = c
        .changes_at
        .as_ref()
        .map_or("the result never changes".to_string(), |at| {
            format!("the result first changes at {}={at}", c.key)
        });
    let fairest: Vec<String> = c.fairest.iter().map(|s| format!("{}={s}", c.key)).collect();
    let draws = c
        .solved
        .iter()
        .any(|s| c.fairest.contains(&s.setting) && s.verdict.value == Some(Class::Draw));
    let fairest = if draws {
        format!("the fairest (a draw): {}", fairest.join(", "))
    } else {
        format!("no setting draws; the closest to even: {}", fairest.join(", "))
    };
    let _ = writeln!(t, "  {change}; {fairest}");
    t
}

fn first_move_text(m: &FirstMove) -> String {
    let mut t = format!("  {:<8} {}\n", m.notation, m.verdict.words());
    if let Some(r) = &m.replies {
        let shown: Vec<String> = r
            .moves
            .iter()
            .take(REPLIES_SHOWN)
            .map(|m| format!("{} {}", m.notation, m.verdict.words()))
            .collect();
        let more = r.moves.len().saturating_sub(REPLIES_SHOWN);
        let _ = writeln!(
            t,
            "           replies of {}: {}: {}{}",
            r.to_move,
            tally_text(&r.tally),
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    t
}

fn forgiveness_text(f: &Forgiveness) -> String {
    let moving: u64 = f.seats.iter().map(|s| s.positions).sum();
    let mut t = format!(
        "forgiveness along perfect play ({}; the {} where the game is over are in no row):\n",
        quantity(f.positions, "position"),
        f.positions.saturating_sub(moving)
    );
    for s in &f.seats {
        let _ = writeln!(
            t,
            "  {}: {} of its moves keep the value on average, over {}; {}",
            s.name,
            pct(s.safe),
            quantity(s.positions, "position"),
            quantity(s.critical, "critical position")
        );
    }
    let wide = f
        .seats
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let _ = writeln!(
        t,
        "  ply  {:<wide$}  positions    keep  one step     more",
        "seat"
    );
    for row in &f.by_ply {
        let name = f.seats.get(usize::from(row.seat)).map_or("", |s| s.name.as_str());
        let _ = writeln!(
            t,
            "  {:>3}  {:<wide$}  {:>9}  {:>7}  {:>7}  {:>7}",
            row.ply,
            name,
            row.positions,
            pct(row.keep),
            pct(row.one_step),
            pct(row.more)
        );
    }
    if f.critical > 0 {
        let _ = writeln!(
            t,
            "critical positions (one move keeps the value): {}; the first: {}",
            f.critical,
            f.critical_positions.join("  ")
        );
    }
    t
}

fn certificate_text(c: &Certificate) -> String {
    let terminal = c.terminal.map_or(String::new(), |n| format!(", {n} terminal"));
    format!(
        "certificate: {}{terminal}; {} won, {} drawn, {} lost by the player to move (by {})\n  sha256 {}\n",
        quantity(c.positions, "position"),
        c.wins,
        c.draws,
        c.losses,
        c.order,
        c.sha256
    )
}

/// Writes `r` as one self-contained HTML page at `path`, its plots inline SVG.
pub fn write_page(r: &DesignReport, path: &Path) -> Result<()> {
    std::fs::write(path, page(r)?).with_context(|| format!("writing {}", path.display()))
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The report as one self-contained HTML page: [`fragment`] in a document of its own.
pub fn page(r: &DesignReport) -> Result<String> {
    Ok(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}: a designer's report</title>\
         <style>body{{margin:0;background:#fff}}</style></head><body>\n{}</body></html>\n",
        esc(&r.game),
        fragment(r)?
    ))
}

/// The page's style, every rule under `.zr` so that the report keeps its looks inside
/// another page (a notebook). Tables scroll sideways on a narrow screen rather than wrap a
/// row; printing drops the buttons and lets the tables run full width.
fn style() -> String {
    use zermelo::picture::palette::{DRAW, LOSE, UNKNOWN, WIN};
    format!(
        ".zr{{font-family:system-ui,sans-serif;color:#222;max-width:60rem;margin:0 auto;\
         padding:0.5rem 1rem 2rem;line-height:1.4}}\
         .zr h1{{font-size:1.5rem;margin:0.6rem 0 0.3rem}}\
         .zr h2{{font-size:1.15rem;margin:1.6rem 0 0.4rem;border-bottom:1px solid #ddd;\
         padding-bottom:0.15rem}}\
         .zr .lead{{font-size:1.1rem;margin:0.2rem 0 0.8rem}}\
         .zr .scroll{{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:0.4rem 0}}\
         .zr table{{border-collapse:collapse;font-variant-numeric:tabular-nums}}\
         .zr th,.zr td{{border-bottom:1px solid #e3e3e3;padding:0.2rem 0.7rem;\
         white-space:nowrap;text-align:left;vertical-align:top}}\
         .zr th{{background:#f5f5f2;font-weight:600}}\
         .zr .n{{text-align:right}}\
         .zr td.replies{{white-space:normal;padding-bottom:0.5rem}}.zr tr:has(+tr>td.replies)>td{{border-bottom:none}}.zr td.replies .v{{margin:0 0.2rem 0.2rem 0;font-size:0.9em}}\
         .zr .v{{display:inline-block;padding:0 0.45rem;border-radius:0.6rem;\
         white-space:nowrap}}\
         .zr .win{{background:{wf};color:#0b2d47}}.zr .draw{{background:{df}}}\
         .zr .lose{{background:{lf};color:#4a2000}}.zr .unknown{{background:{uf}}}\
         .zr .iv{{color:#666;font-size:0.85em}}\
         .zr .warn{{color:{li};font-weight:600}}\
         .zr .hint{{color:#555;font-size:0.9rem}}\
         .zr code{{font-family:ui-monospace,monospace;font-size:0.92em}}\
         .zr svg{{max-width:100%;height:auto;display:block}}\
         .zr .cert{{border:1px solid #bbb;border-radius:6px;background:#f8f8f5;\
         padding:0.5rem 0.7rem;margin:0.4rem 0;position:relative}}\
         .zr .cert pre{{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;\
         font-family:ui-monospace,monospace;font-size:0.88rem;user-select:all}}\
         .zr .cert button{{float:right;margin:0 0 0.3rem 0.5rem;font:inherit;\
         font-size:0.85rem;padding:0.1rem 0.6rem;border:1px solid #999;\
         border-radius:5px;background:#fff;cursor:pointer}}\
         .zr .critical{{overflow-wrap:anywhere}}\
         @media print{{.zr{{max-width:none;padding:0}}.zr .cert button{{display:none}}\
         .zr .scroll{{overflow:visible}}.zr h2{{break-after:avoid}}\
         .zr tr,.zr svg{{break-inside:avoid}}}}",
        wf = WIN.fill,
        df = DRAW.fill,
        lf = LOSE.fill,
        uf = UNKNOWN.fill,
        li = LOSE.ink,
    )
}

/// A value in words on its outcome's colour.
fn chip(v: &Verdict) -> String {
    format!(
        "<span class=\"v {}\">{}</span>",
        v.value.map_or("unknown", Class::word),
        esc(&v.words())
    )
}

/// An HTML table, `head` its header row (a heading starting with `#` over a column of
/// numbers, aligned right) and each row's cells already HTML (a cell of numbers made by
/// [`num`]), in a box that scrolls sideways where the screen is narrower than the table.
fn table(head: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut h = String::from("<div class=\"scroll\"><table><thead><tr>");
    for cell in head {
        match cell.strip_prefix('#') {
            Some(cell) => write!(h, "<th class=\"n\">{cell}</th>"),
            None => write!(h, "<th>{cell}</th>"),
        }
        .expect("writing to a string");
    }
    h += "</tr></thead><tbody>\n";
    for row in rows {
        h += "<tr>";
        for cell in row {
            if cell.starts_with("<td") {
                h += &cell;
            } else {
                let _ = write!(h, "<td>{cell}</td>");
            }
        }
        h += "</tr>\n";
    }
    h + "</tbody></table></div>\n"
}

/// A cell of numbers, aligned right.
fn num(text: impl std::fmt::Display) -> String {
    format!("<td class=\"n\">{text}</td>")
}

/// A share and its interval as table cell HTML: "61.0 % 58.0–64.0".
fn share_cell(s: &Share) -> String {
    format!(
        "<td class=\"n\">{:.1} % <span class=\"iv\">{:.1}–{:.1}</span>",
        100.0 * s.share,
        100.0 * s.low,
        100.0 * s.high
    ) + "</td>"
}

/// The report as HTML to place in a page (or a notebook): its style, then its sections,
/// every table a real table and every chart inline SVG.
pub fn fragment(r: &DesignReport) -> Result<String> {
    let mut h = format!(
        "<div class=\"zr\"><style>{}</style>\n<h1>{}</h1>\n\
         <p class=\"lead\">{} for {}, who moves first <span class=\"hint\">({})</span></p>\n",
        style(),
        esc(&r.game),
        chip(&r.verdict),
        esc(&r.to_move),
        esc(&r.solver)
    );
    h += &first_moves_html(r);
    let s = &r.swap;
    let moves = s
        .fairest
        .iter()
        .map(|m| format!("<code>{}</code>", esc(m)))
        .collect::<Vec<_>>()
        .join(", ");
    let fairest = if s.fairest.is_empty() {
        "The fairest first move is not known".to_string()
    } else if s.exact_draw {
        let which = if s.fairest.len() == 1 { "move" } else { "moves" };
        format!("The fairest first {which}: {moves} (an exact draw)")
    } else {
        format!("No first move draws; the closest to even: {moves}")
    };
    let _ = writeln!(
        h,
        "<h2>The swap rule</h2>\n<p>After the first move the second player may take over \
         the first player's side. {fairest}; the first player's value: {}.</p>",
        chip(&s.value)
    );
    if let Some(fg) = &r.forgiveness {
        h += &forgiveness_html(&r.game, fg)?;
    }
    if let Some(s) = &r.strengths {
        h += &strengths_html(s);
    }
    if let Some(c) = &r.compensation {
        h += &compensation_html(c);
    }
    if let Some(c) = &r.certificate {
        h += &certificate_html(c);
    }
    for n in &r.notes {
        let _ = writeln!(h, "<p class=\"hint\">{}</p>", esc(n));
    }
    h += "</div>\n";
    Ok(h)
}

fn first_moves_html(r: &DesignReport) -> String {
    let f = &r.first_moves;
    let mut h = format!(
        "<h2>First moves</h2>\n<p>{} ({}), for {}, best first.</p>\n",
        quantity(f.tally.total, "move"),
        tally_text(&f.tally),
        esc(&r.to_move)
    );
    if let Some(w) = &f.warning {
        let _ = writeln!(h, "<p class=\"warn\">{}</p>", esc(w));
    }
    let replied = f.moves.iter().any(|m| m.replies.is_some());
    // With replies, each move's replies take a row of their own under it, so that a
    // narrow screen shows them whole.
    let rows = f.moves.iter().flat_map(|m| {
        let mut row = vec![format!("<code>{}</code>", esc(&m.notation)), chip(&m.verdict)];
        let mut under = None;
        if replied {
            row.push(m.replies.as_ref().map_or(String::new(), |r| {
                format!("{} {}", esc(&r.to_move), tally_text(&r.tally))
            }));
            under = m.replies.as_ref().map(|r| {
                vec![format!(
                    "<td></td><td colspan=\"2\" class=\"replies\">{}</td>",
                    replies_html(r)
                )]
            });
        }
        std::iter::once(row).chain(under)
    });
    if replied {
        h += &table(&["move", "value", "replies, best first"], rows);
    } else {
        h += &table(&["move", "value"], rows);
        let _ = writeln!(
            h,
            "<p class=\"hint\">The replies to each first move: <code>zermelo report {} --depth 2</code>.</p>",
            esc(&r.game)
        );
    }
    h
}

/// The replies to a first move, the best first, each on its value's colour.
fn replies_html(r: &zermelo::session::Replies) -> String {
    let shown: Vec<String> = r
        .moves
        .iter()
        .take(REPLIES_SHOWN)
        .map(|m| {
            format!(
                "<span class=\"v {}\"><code>{}</code> {}</span>",
                m.verdict.value.map_or("unknown", Class::word),
                esc(&m.notation),
                esc(&m.verdict.words())
            )
        })
        .collect();
    let more = r.moves.len().saturating_sub(REPLIES_SHOWN);
    shown.join(" ")
        + &if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
}

fn forgiveness_html(game: &str, f: &Forgiveness) -> Result<String> {
    let mut h = format!(
        "<h2>Forgiveness along perfect play</h2>\n<p>How many of a player's moves keep the \
         value, on average over the positions perfect play reaches ({}).</p>\n",
        quantity(f.positions, "position")
    );
    h += &table(
        &[
            "seat",
            "#positions",
            "#moves that keep the value",
            "#critical positions",
        ],
        f.seats
            .iter()
            .map(|s| vec![esc(&s.name), num(s.positions), num(pct(s.safe)), num(s.critical)]),
    );
    h += &forgiveness_svg(&format!("{game}: moves that keep the value"), f)?;
    h += "\n<p>By ply: the share of the mover's moves that keep the value, lose one step \
          (a win to a draw, a draw to a loss) or lose more.</p>\n";
    h += &table(
        &["#ply", "seat", "#positions", "#keep", "#one step", "#more"],
        f.by_ply.iter().map(|row| {
            let name = f.seats.get(usize::from(row.seat)).map_or("", |s| s.name.as_str());
            vec![
                num(row.ply),
                esc(name),
                num(row.positions),
                num(pct(row.keep)),
                num(pct(row.one_step)),
                num(pct(row.more)),
            ]
        }),
    );
    if f.critical > 0 {
        let _ = writeln!(
            h,
            "<p class=\"critical\">Critical positions (only one move keeps the value): {}; the first: {}</p>",
            f.critical,
            f.critical_positions
                .iter()
                .map(|p| format!("<code>{}</code>", esc(p)))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Ok(h)
}

fn strengths_html(rows: &[Strength]) -> String {
    "<h2>Players good but not perfect</h2>\n<p>Self-play, the same player in both seats: \
     each seat's share of the points and the draws, with 95 % intervals.</p>\n"
        .to_string()
        + &table(
            &["player", "#games", "#first seat", "#second seat", "#draws"],
            rows.iter().map(|s| {
                vec![
                    format!("<code>{}</code>", esc(&s.player)),
                    num(s.games),
                    share_cell(&s.first),
                    share_cell(&s.second),
                    share_cell(&s.draws),
                ]
            }),
        )
}

fn compensation_html(c: &Compensation) -> String {
    let mut h = format!(
        "<h2>Compensation along {}</h2>\n<p>The game's value for the first player as {} \
         changes ({}{}): a bar up where the first player wins (the longer, the sooner or by \
         more), down where it loses, a flat mark for a draw.</p>\n",
        esc(&c.key),
        esc(&c.key),
        quantity(c.settings, "setting"),
        if c.bisected {
            ", bisected on the result: only the settings solved are shown"
        } else {
            ""
        }
    );
    h += &compensation_svg(c);
    h += &table(
        &[&esc(&c.key), "value for the first player", "who moves first"],
        c.solved.iter().map(|s| {
            vec![
                format!("<code>{}</code>", esc(&s.setting)),
                chip(&s.verdict),
                esc(&s.to_move),
            ]
        }),
    );
    let _ = writeln!(
        h,
        "<p>{}</p>",
        match &c.changes_at {
            Some(at) => format!(
                "The result first changes at <code>{}={}</code>.",
                esc(&c.key),
                esc(at)
            ),
            None => "The result never changes.".to_string(),
        }
    );
    h
}

/// The settings of a key as a small bar chart: up for a first-player win, down for a loss,
/// a mark on the line for a draw; a quick win (or a large margin) a long bar.
fn compensation_svg(c: &Compensation) -> String {
    use zermelo::picture::palette::outcome;
    let n = c.solved.len().max(1);
    let (col, top, mid) = (44.0, 8.0, 60.0);
    let width = (col * n as f64 + 16.0).max(200.0);
    let height = 2.0 * mid - top + 18.0;
    let widest = c
        .solved
        .iter()
        .filter_map(|s| s.verdict.lead(0))
        .map(i32::unsigned_abs)
        .max()
        .unwrap_or(1)
        .max(1);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" \
         role=\"img\" aria-label=\"the value along {key}\" font-family=\"system-ui,sans-serif\" font-size=\"11\">\
         <line x1=\"4\" y1=\"{mid}\" x2=\"{}\" y2=\"{mid}\" stroke=\"#888\"/>",
        width - 4.0,
        key = esc(&c.key)
    );
    for (i, s) in c.solved.iter().enumerate() {
        let v = &s.verdict;
        let strength = match (v.lead(0), v.remoteness) {
            (Some(m), _) => 0.25 + 0.75 * f64::from(m.unsigned_abs()) / f64::from(widest),
            (None, Some(r)) => 1.0 / (1.0 + 0.08 * f64::from(r)),
            (None, None) => 1.0,
        };
        // A first-player win rises (SVG counts y downwards), a loss falls.
        let sign = v.value.map_or(0.0, |c| -f64::from(c.sign()));
        let tint = outcome(v.value);
        let x = 8.0 + col * i as f64;
        let len = (mid - top) * strength;
        let (y, h) = if sign < 0.0 {
            (mid - len, len)
        } else if sign > 0.0 {
            (mid, len)
        } else {
            (mid - 4.0, 8.0)
        };
        let _ = write!(
            svg,
            "<g><title>{key}={setting}: {words}</title><rect x=\"{x}\" y=\"{y:.1}\" width=\"{w}\" \
             height=\"{h:.1}\" fill=\"{fill}\" stroke=\"{ink}\"/>\
             <text x=\"{cx}\" y=\"{ty}\" text-anchor=\"middle\">{setting}</text></g>",
            key = esc(&c.key),
            setting = esc(&s.setting),
            words = esc(&v.words()),
            w = col - 10.0,
            fill = tint.fill,
            ink = tint.ink,
            cx = x + (col - 10.0) / 2.0,
            ty = height - 8.0,
        );
    }
    svg + "</svg>\n"
}

fn certificate_html(c: &Certificate) -> String {
    let text = certificate_text(c);
    format!(
        "<h2>Certificate</h2>\n<p>The counts of the solved values and a SHA-256 over them in \
         a canonical order: anyone who solves the game again can compare.</p>\n\
         <div class=\"cert\"><button type=\"button\" onclick=\"navigator.clipboard&&\
         navigator.clipboard.writeText(this.nextElementSibling.textContent)\
         .then(()=>{{this.textContent='copied'}})\">copy</button><pre>{}</pre></div>\n",
        esc(text.trim_end())
    )
}
