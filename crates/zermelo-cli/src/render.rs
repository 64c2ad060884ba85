//! Text and JSON of the library's typed results, the same for every game.

use serde_json::json;
use zermelo::analysis::selfplay::Estimate;
use zermelo::analysis::stats::Share;
use zermelo::catalog;
use zermelo::session::saved::{DbCheck, DbInfo, DbList, DbMerge, DbPart};
use zermelo::session::{quantity, Counts, Fact, GameRecord, PositionView, Solution, Standings, Tally};

use crate::report::{document, Report};

fn facts_text(facts: &[Fact]) -> String {
    facts
        .iter()
        .map(|f| format!("{}: {}\n", f.label, f.value))
        .collect()
}

/// `zermelo solve`: from a given position, `SPEC at POSITION: ...`.
pub fn solution(s: &Solution) -> Report {
    let (at, who) = match &s.position {
        Some(p) => (format!(" at {p}"), "to move"),
        None => (String::new(), "who moves first"),
    };
    let text = format!(
        "{}{at}: {} for {}, {who} ({}, {}, {:.3} s)\n{}",
        s.game,
        s.verdict.words(),
        s.to_move,
        quantity(s.positions, "position"),
        s.solver,
        s.seconds,
        facts_text(&s.details)
    );
    Report {
        text,
        json: document("solve", s),
    }
}

/// `zermelo moves`.
pub fn position(v: &PositionView) -> Report {
    let mut text = v.board.clone();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text += &facts_text(&v.details);
    if let Some(points) = &v.points {
        let shown: Vec<String> = points.iter().map(i32::to_string).collect();
        text += &format!("points: {}\n", shown.join(" - "));
    }
    match &v.result {
        Some(result) => text += &format!("game over: {result}\n"),
        None => text += &format!("{} to move: {}\n", v.to_move, v.verdict.words()),
    }
    for m in &v.moves {
        let best = if m.best { "  best" } else { "" };
        let note = m.note.as_ref().map_or(String::new(), |n| format!("  ({n})"));
        text += &format!("  {:<10} {}{best}{note}\n", m.notation, m.verdict.words());
    }
    let listed = v.moves.len() as u128;
    if v.moves_total.0 > listed {
        text += &format!(
            "  ... {} more ({} in all; --all lists every one)\n",
            quantity(v.moves_total.0 - listed, "move"),
            v.moves_total
        );
    }
    Report {
        text,
        json: document("moves", v),
    }
}

fn tally_text(what: &str, t: &Tally, ended: &str) -> String {
    format!(
        "{what}: {} ({ended} {}: first player wins {}, second player wins {}, draws {})\n",
        t.total, t.terminal, t.first_wins, t.second_wins, t.draws
    )
}

/// `zermelo count`.
pub fn counts(c: &Counts) -> Report {
    let mut text = String::new();
    if let Some(g) = &c.games {
        text += &format!(
            "complete games: {} (first player wins {}, second player wins {}, draws {})\n",
            g.total, g.first_wins, g.second_wins, g.draws
        );
    }
    if let Some(p) = &c.positions {
        let up_to = if c.symmetry { " up to symmetry" } else { "" };
        text += &tally_text(&format!("positions{up_to}"), p, "terminal");
    }
    text += &facts_text(&c.details);
    Report {
        text,
        json: document("count", c),
    }
}

/// A share with its interval in percent: `50.0%` and `29.9-70.1%`.
fn share_text(s: &Share) -> (String, String) {
    (
        format!("{:.1}%", 100.0 * s.share),
        format!("{:.1}-{:.1}%", 100.0 * s.low, 100.0 * s.high),
    )
}

/// `zermelo tournament`: a row per player (wins, shared wins, draws and losses add up to
/// the games played; points with their 95 % interval), then a row per seat and per player
/// in each seat, then the players' ratings where there are more than two seats.
pub fn standings(s: &Standings) -> Report {
    let mut text = format!("{} of {}\n", quantity(s.games, "game"), s.game);
    if let Some(p) = &s.position {
        text += &format!("from the position {p}\n");
    }
    text += &facts_text(&s.details);
    let longest = s
        .players
        .iter()
        .map(|r| r.player.chars().count())
        .max()
        .unwrap_or(0);
    let width = longest.max(14);
    text += &format!(
        "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>7} {:>14}\n",
        "player", "wins", "shared", "draws", "losses", "win %", "points", "95 % interval"
    );
    for r in &s.players {
        let (points, interval) = share_text(&r.points_share);
        text += &format!(
            "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>6.1}% {:>7} {:>14}\n",
            r.player, r.wins, r.shared, r.draws, r.losses, r.win_pct, points, interval
        );
    }
    for r in s.players.iter().filter(|r| r.forfeits > 0) {
        let reasons: Vec<String> = r
            .forfeit_reasons
            .iter()
            .map(|f| format!("{} ({})", f.why, f.games))
            .collect();
        text += &format!(
            "{} lost {} by forfeit: {}\n",
            r.player,
            quantity(r.forfeits, "game"),
            reasons.join("; ")
        );
    }
    let seat_width = s
        .seats
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let width = longest.max(6);
    text += &format!(
        "\n{:<seat_width$} {:<width$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>14}\n",
        "seat", "player", "wins", "shared", "draws", "losses", "points", "95 % interval"
    );
    for seat in &s.seats {
        let all = std::iter::once(("(all)", &seat.results));
        let each = seat.players.iter().map(|p| (p.player.as_str(), &p.results));
        for (player, r) in all.chain(each) {
            let (points, interval) = share_text(&r.points_share);
            text += &format!(
                "{:<seat_width$} {:<width$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>14}\n",
                seat.name, player, r.wins, r.shared, r.draws, r.losses, points, interval
            );
        }
    }
    if let Some(ratings) = &s.ratings {
        text += "\nBradley-Terry ratings (Elo scale, mean 0) with standard errors\n";
        for r in ratings {
            text += &format!("{:<width$} {:>+6.0} ± {:.0}\n", r.player, r.elo, r.error);
        }
    }
    Report {
        text,
        json: document("tournament", s),
    }
}

/// `zermelo play`.
pub fn record(r: &GameRecord) -> Report {
    let points = r.points.as_ref().map_or(String::new(), |p| {
        let shown: Vec<String> = p.iter().map(i32::to_string).collect();
        format!(", points {}", shown.join(" - "))
    });
    let forfeit = r.forfeit.as_ref().map_or(String::new(), |f| format!("{f}\n"));
    Report {
        text: format!(
            "{forfeit}{} after {}{}{points}\n",
            r.result,
            quantity(r.moves.len(), "move"),
            r.position
                .as_ref()
                .map_or(String::new(), |p| format!(" from {p}"))
        ),
        json: document("play", r),
    }
}

/// `zermelo games`: every catalog entry with its keys, players and solvers.
pub fn games() -> Report {
    let mut text = String::new();
    let mut list = Vec::new();
    for entry in catalog::entries() {
        let g = entry.describe();
        text += &format!("{:<12} {}\n", g.name, g.summary);
        for k in g.keys {
            text += &format!(
                "    {:<10} {} (default {}, range {})\n",
                k.name,
                k.help,
                k.default_text(),
                k.range_text()
            );
        }
        let names: Vec<&str> = g.players.iter().map(|p| p.name).collect();
        text += &format!("    players: {}\n", names.join(", "));
        if !g.solvers.is_empty() {
            text += &format!("    solvers: {}\n", g.solvers.join(", "));
        }
        for s in &g.studies {
            text += &format!("    study {}: {}\n", s.name, s.summary);
            for k in &s.keys {
                text += &format!(
                    "        {:<12} {} ({}; default {}, range {})\n",
                    k.name, k.help, k.kind, k.default, k.range
                );
            }
        }
        text += &format!("    e.g. {}\n", g.examples.join("  "));
        list.push(g);
    }
    Report {
        text,
        json: json!({"command": "games", "games": list}),
    }
}

/// Bytes as "1983 B", "6.5 MiB", "4.5 GiB".
fn size_text(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut size = bytes as f64;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < units.len() {
        size /= 1024.0;
        unit += 1;
    }
    match unit {
        0 => format!("{bytes} B"),
        _ => format!("{size:.1} {}", units[unit]),
    }
}

fn db_line(d: &DbInfo) -> String {
    format!(
        "{}: {}{} ({}, {}, {:.2} bits per position)\n",
        d.path,
        d.spec,
        d.part.as_ref().map_or(String::new(), part_text),
        size_text(d.bytes),
        quantity(d.positions, "position"),
        d.bits_per_position
    )
}

/// `, part 2 of 3 of solve 0123456789abcdef`.
fn part_text(p: &DbPart) -> String {
    format!(", part {} of {} of solve {}", p.number, p.count, p.solve)
}

/// `zermelo db list`.
pub fn db_list(l: &DbList) -> Report {
    let mut text = match l.databases.len() {
        0 => format!("no databases in {}\n", l.dir),
        n => format!("{} in {}\n", quantity(n, "database"), l.dir),
    };
    for d in &l.databases {
        text += &db_line(d);
    }
    for e in &l.unreadable {
        text += &format!("unreadable: {e}\n");
    }
    for u in &l.unfinished {
        text += &format!("unfinished solve (the same solve goes on from it): {u}\n");
    }
    Report {
        text,
        json: document("db list", l),
    }
}

/// `zermelo db info`.
pub fn db_info(d: &DbInfo) -> Report {
    let mut text = db_line(d);
    text += &format!(
        "format version {}, solver {}, {}, {}, compression ratio {:.1}\n",
        d.format,
        d.solver,
        quantity(d.ranks, "rank"),
        quantity(d.bytes, "byte"),
        d.compression_ratio
    );
    if let Some(p) = &d.part {
        let held: u64 = p.ranges.iter().map(|[a, b]| b - a).sum();
        text += &format!(
            "part {} of {} of solve {}: {held} of the table's {}, in {}\n",
            p.number,
            p.count,
            p.solve,
            quantity(p.table_ranks, "rank"),
            quantity(p.ranges.len(), "range")
        );
    }
    for c in &d.counts {
        text += &format!("{}: {}\n", c.name, c.value);
    }
    for l in &d.layers {
        text += &format!(
            "layer {}: {} a rank, {}, {} raw, {} stored\n",
            l.name,
            quantity(l.bits, "bit"),
            quantity(l.blocks, "block"),
            size_text(l.raw_bytes),
            size_text(l.stored_bytes)
        );
    }
    Report {
        text,
        json: document("db info", d),
    }
}

/// `zermelo db verify`.
pub fn db_check(c: &DbCheck) -> Report {
    let sampled = match &c.part {
        Some(_) => "positions are re-solved once the parts are merged".to_string(),
        None => format!(
            "{} re-solved from their children",
            quantity(c.sampled, "sampled position")
        ),
    };
    let certificate = c.certificate.as_ref().map_or(String::new(), |c| {
        format!(
            "certificate: {} ({} won, {} drawn, {} lost by the player to move, by {})\n  sha256 {}\n",
            quantity(c.positions, "position"),
            c.wins,
            c.draws,
            c.losses,
            c.order,
            c.sha256
        )
    });
    Report {
        text: format!(
            "{}: sound ({}{}; {} checked, {sampled}, {:.2} s)\n{certificate}",
            c.path,
            c.spec,
            c.part.as_ref().map_or(String::new(), part_text),
            quantity(c.blocks, "block"),
            c.seconds
        ),
        json: document("db verify", c),
    }
}

/// `zermelo db merge`.
pub fn db_merge(m: &DbMerge) -> Report {
    Report {
        text: format!(
            "merged {} in {:.2} s\n",
            quantity(m.parts.len(), "part"),
            m.seconds
        ) + &db_line(&m.info),
        json: document("db merge", m),
    }
}

/// A share in percent with its interval: `52.3 [50.1, 54.5]`.
fn pct_interval(s: &Share) -> String {
    format!(
        "{:.1} [{:.1}, {:.1}]",
        100.0 * s.share,
        100.0 * s.low,
        100.0 * s.high
    )
}

/// The estimate as a table, one row per seat, and its summary lines.
pub fn estimate_text(e: &Estimate) -> String {
    let every = e.players.iter().all(|p| *p == e.players[0]);
    let who = if every {
        format!("{} in every seat", e.players[0])
    } else {
        e.players.join(", ")
    };
    let last = e.seed.wrapping_add(e.games - 1);
    let mut text = format!(
        "{} of {}, {who} (seeds {} to {last})\n",
        quantity(e.games, "game"),
        e.game,
        e.seed
    );
    let width = e.players.iter().map(String::len).max().unwrap_or(0).max(6);
    let row = |cells: [&str; 6]| {
        let [seat, player, win, draw, shared, points] = cells;
        let line = format!("{seat:<4}  {player:<width$}  {win:<18}  {draw:<18}  {shared:<18}  {points}");
        line.trim_end().to_string() + "\n"
    };
    text += &row(["seat", "player", "win %", "draw %", "shared win %", "points %"]);
    for s in &e.seats {
        let cells = [
            pct_interval(&s.win),
            pct_interval(&s.draw),
            pct_interval(&s.shared_win),
            pct_interval(&s.points),
        ];
        let [win, draw, shared, points] = cells.each_ref().map(String::as_str);
        text += &row([&(s.seat + 1).to_string(), &s.player, win, draw, shared, points]);
    }
    text += "(95 % intervals; points: 1 a win, 1/k a win shared by k, 1/seats a draw)\n";
    text += &format!("draws: {} %\n", pct_interval(&e.draws));
    text += &format!("game length: {:.1} plies (sd {:.1})\n", e.plies.mean, e.plies.sd);
    if let Some(m) = &e.margin {
        text += &format!(
            "winner's margin: {:.2} points (sd {:.2}) over the next best\n",
            m.mean, m.sd
        );
    }
    if let Some(a) = &e.first_move_advantage {
        text += &format!(
            "first-move advantage: {:+.2} points [{:+.2}, {:+.2}] (sd {:.2}), seat 1's points minus the mean of the others'\n",
            a.mean, a.low, a.high, a.sd
        );
    }
    if let (Some(w), Some(reached)) = (e.until, e.reached) {
        let widest = e.seats.iter().map(|s| s.points.width()).fold(0.0, f64::max);
        text += &if reached {
            format!(
                "every seat's points interval is narrower than {:.1} % (widest {:.1} %)\n",
                100.0 * w,
                100.0 * widest
            )
        } else {
            format!(
                "stopped at --games {}: the widest points interval is {:.1} %, not narrower than {:.1} %\n",
                e.most_games,
                100.0 * widest,
                100.0 * w
            )
        };
    }
    text += &format!("{:.2} games/s ({:.1} s)\n", e.games_per_second, e.seconds);
    text
}
