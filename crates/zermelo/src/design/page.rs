//! The report as one self-contained HTML page ([`page`]), or as HTML to place in another
//! ([`fragment`], a notebook's): every table a real table, every chart inline SVG.

use std::fmt::Write as _;

use super::chart::{compensation_svg, forgiveness_svg};
use crate::analysis::report::{Certificate, Forgiveness};
use crate::analysis::stats::Share;
use crate::session::report::{quantity, DesignReport, MoveTally, Replies, Verdict};
use crate::session::strength::Strength;
use crate::session::Compensation;
use crate::{Class, Error};

/// How many reply lines a first move shows in text.
pub const REPLIES_SHOWN: usize = 8;

/// "3 win, 5 draw, 1 lose".
pub fn tally_text(t: &MoveTally) -> String {
    format!("{} win, {} draw, {} lose", t.wins, t.draws, t.losses)
}

/// A share as a percentage.
pub fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The report as one self-contained HTML page: [`fragment`] in a document of its own.
pub fn page(r: &DesignReport, deeper: &str) -> Result<String, Error> {
    Ok(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}: a designer's report</title>\
         <style>body{{margin:0;background:#fff}}</style></head><body>\n{}</body></html>\n",
        esc(&r.game),
        fragment(r, deeper)?
    ))
}

/// The page's style, every rule under `.zr` so that the report keeps its looks inside
/// another page (a notebook). Tables scroll sideways on a narrow screen rather than wrap a
/// row; printing drops the buttons and lets the tables run full width.
fn style() -> String {
    use crate::picture::palette::{DRAW, LOSE, ON_LOSE, ON_WIN, UNKNOWN, WIN};
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
         .zr .win{{background:{wf};color:{ON_WIN}}}.zr .draw{{background:{df}}}\
         .zr .lose{{background:{lf};color:{ON_LOSE}}}.zr .unknown{{background:{uf}}}\
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
/// every table a real table and every chart inline SVG. `deeper` says, in the front end's
/// words, how to ask for the replies to each first move when the report left them out.
pub fn fragment(r: &DesignReport, deeper: &str) -> Result<String, Error> {
    let mut h = format!(
        "<div class=\"zr\"><style>{}</style>\n<h1>{}</h1>\n\
         <p class=\"lead\">{} for {}, who moves first <span class=\"hint\">({})</span></p>\n",
        style(),
        esc(&r.game),
        chip(&r.verdict),
        esc(&r.to_move),
        esc(&r.solver)
    );
    h += &first_moves_html(r, deeper);
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

fn first_moves_html(r: &DesignReport, deeper: &str) -> String {
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
            "<p class=\"hint\">The replies to each first move: <code>{}</code>.</p>",
            esc(deeper)
        );
    }
    h
}

/// The replies to a first move, the best first, each on its value's colour.
fn replies_html(r: &Replies) -> String {
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

fn forgiveness_html(game: &str, f: &Forgiveness) -> Result<String, Error> {
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

/// The certificate as text: its counts, then its SHA-256.
pub fn certificate_text(c: &Certificate) -> String {
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
