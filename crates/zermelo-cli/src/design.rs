//! `zermelo report`: the designer's report the library makes ([`zermelo::design`]) as
//! text and as JSON.

use std::fmt::Write as _;

use zermelo::analysis::report::Forgiveness;
use zermelo::analysis::stats::Share;
use zermelo::design::page::{certificate_text, pct, tally_text, REPLIES_SHOWN};
use zermelo::session::strength::{SeatsReport, Strength};
use zermelo::session::{quantity, Compensation, DesignReport, FirstMove};
use zermelo::Class;

use crate::report::{document, Report};

/// The text and JSON of `r`.
pub fn render(r: &zermelo::design::Report) -> Report {
    let text = match r {
        zermelo::design::Report::Two(r) => text(r),
        zermelo::design::Report::Seats(r) => seats_text(r),
    };
    Report {
        text,
        json: document("report", r),
    }
}

/// The text of the report of a game of more than two seats.
fn seats_text(r: &SeatsReport) -> String {
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
    t
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
