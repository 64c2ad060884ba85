//! `zermelo balance FAMILY`: the balance map of a family of boards of any game that
//! solves ([`zermelo::balance_map::map`]), as a table, JSON, CSV (one row per
//! member) and an SVG heatmap per pair of keys.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde_json::json;
use zermelo::balance_map::{BalanceMap, MapRow, Status};
use zermelo::session::{bytes_text, quantity, FactValue, Options};
use zermelo::Class;

use crate::commands::cancel_on_ctrl_c;
use crate::progress;
use crate::report::Report;

/// The first player's result in words: "win", "draw", "loss", or why there is none.
fn result(row: &MapRow) -> &'static str {
    match (row.status, row.verdict.value) {
        (Status::Solved, Some(Class::Win)) => "win",
        (Status::Solved, Some(Class::Lose)) => "loss",
        (Status::Solved, Some(Class::Draw)) => "draw",
        (Status::Solved, _) => "solved",
        (Status::Skipped, _) => "skipped",
        (Status::Refused, _) => "refused",
    }
}

/// How the result is reached: "in 15 moves", "by 3", or nothing.
fn how(row: &MapRow) -> String {
    match (row.verdict.margin, row.verdict.remoteness) {
        (Some(0), _) => String::new(),
        (Some(m), _) => format!("by {}", m.abs()),
        (None, Some(r)) if row.verdict.value != Some(Class::Draw) => format!("in {r} moves"),
        _ => String::new(),
    }
}

/// A cell's short label on the heatmap: "W 15", "L 8", "D", "+3", "?".
fn cell(row: &MapRow) -> String {
    match row.status {
        Status::Skipped => "?".into(),
        Status::Refused => String::new(),
        Status::Solved => match (row.verdict.margin, row.verdict.value, row.verdict.remoteness) {
            (Some(m), _, _) => format!("{m:+}"),
            (None, Some(Class::Win), Some(r)) => format!("W{r}"),
            (None, Some(Class::Lose), Some(r)) => format!("L{r}"),
            (None, Some(Class::Draw), _) => "D".into(),
            _ => String::new(),
        },
    }
}

/// Every first move's value for the first player, short: `4:W41 3:D 1:L40`, best first
/// (`?` where a move was not valued within the member's time).
fn move_values(row: &MapRow) -> String {
    let short = |m: &zermelo::session::MoveValue| {
        let v = &m.verdict;
        match (v.value, v.margin, v.remoteness) {
            (None, _, _) => "?".to_string(),
            (_, Some(margin), _) => format!("{margin:+}"),
            (Some(Class::Win), None, Some(r)) => format!("W{r}"),
            (Some(Class::Lose), None, Some(r)) => format!("L{r}"),
            (Some(c), ..) => c.word()[..1].to_ascii_uppercase(),
        }
    };
    row.first_moves
        .iter()
        .map(|m| format!("{}:{}", m.notation, short(m)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first moves that keep a member's value over its first moves (`1/7`), when they
/// were valued.
fn best_moves(row: &MapRow) -> Option<String> {
    let valued = row.first_moves.iter().all(|m| m.verdict.value.is_some());
    (valued && !row.first_moves.is_empty()).then(|| {
        let best = row.first_moves.iter().filter(|m| m.best).count();
        format!("{best}/{}", row.first_moves.len())
    })
}

/// What colours a family's heatmap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColourBy {
    /// The first player's result: win, draw or loss.
    Result,
    /// The outcome class a member's solve gives (its `class` fact): L, R, N or P.
    Class,
}

/// Where a map's rows and heatmap go, and what colours the heatmap.
pub struct Files<'a> {
    /// The CSV file, when asked for.
    pub csv: Option<&'a Path>,
    /// The heatmap's SVG file, when asked for.
    pub plot: Option<&'a Path>,
    /// What colours the heatmap.
    pub colour_by: ColourBy,
    /// Add every solved member's report, and mark where the result flips.
    pub report: bool,
}

/// `zermelo balance FAMILY`: every member solved within `seconds`, rendered.
pub fn run(family: &str, seconds: f64, files: Files<'_>, mut opts: Options, json: bool) -> Result<Report> {
    let Files {
        csv,
        plot,
        colour_by,
        report,
    } = files;
    // A member's own progress would flash by; the map shows one bar of members.
    opts.progress = std::sync::Arc::new(());
    opts.budget.cancel = Some(cancel_on_ctrl_c());
    let bar = progress::bar(!json, 0, "members");
    let map = zermelo::balance_map::map(family, &opts, seconds, &mut |i, n, row| {
        bar.set_length(n as u64);
        bar.set_position(i as u64 + 1);
        bar.set_message(row.game.clone());
    });
    let mut map = map?;
    if report {
        bar.set_position(0);
        zermelo::balance_map::add_reports(&mut map, &opts, seconds, &mut |i, _, row| {
            bar.set_position(i as u64 + 1);
            bar.set_message(format!("report of {}", row.game));
        })?;
    }
    bar.finish_and_clear();
    if let Some(path) = csv {
        std::fs::write(path, to_csv(&map)).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = plot {
        heatmap(&map, path, colour_by, report)?;
    }
    let mut text = table(&map);
    if report {
        let pairs = quantity(flips(&map).len() as u64, "pair");
        let _ = writeln!(text, "the result flips between {pairs} of neighbouring members");
    }
    if let Some(path) = plot {
        let _ = writeln!(text, "heatmap: {}", path.display());
    }
    let json = json!({"command": "balance", "map": serde_json::to_value(&map)?});
    Ok(Report { text, json })
}

/// The map as a table, one line per member, then the tally.
pub(crate) fn table(map: &BalanceMap) -> String {
    let mut text = String::new();
    let keys: Vec<&str> = match map.keys.is_empty() {
        true => vec![],
        false => map.keys.iter().map(String::as_str).collect(),
    };
    let width = |k: &str| {
        map.members
            .iter()
            .filter_map(|r| r.keys.get(k).map(String::len))
            .max()
            .unwrap_or(0)
            .max(k.len())
    };
    let widths: Vec<usize> = keys.iter().map(|k| width(k)).collect();
    for (k, w) in keys.iter().zip(&widths) {
        let _ = write!(text, "{k:<w$} ");
    }
    let reported = map.members.iter().any(|r| r.report.is_some());
    let extra = |cells: [&str; 3]| match reported {
        true => format!("{:<11} {:<13} {:<12}  ", cells[0], cells[1], cells[2]),
        false => String::new(),
    };
    let _ = writeln!(
        text,
        "{:<8} {:<12} {:>14} {:>9}  {}note",
        "result",
        "",
        "positions",
        "seconds",
        extra(["keep/moves", "safe % seats", "sha256"])
    );
    for row in &map.members {
        for (k, w) in keys.iter().zip(&widths) {
            let _ = write!(text, "{:<w$} ", row.keys.get(*k).map_or("", String::as_str));
        }
        let positions = row.positions.map_or_else(String::new, |p| p.to_string());
        let note = match (&row.reason, &row.estimate) {
            (Some(why), Some(cost)) if cost.seconds > 0.0 && !why.contains("would take") => {
                format!(
                    "{why} (estimate {:.0} s, {})",
                    cost.seconds,
                    bytes_text(cost.bytes)
                )
            }
            (Some(why), _) => why.clone(),
            (None, _) if keys.is_empty() => row.game.clone(),
            (None, _) => String::new(),
        };
        let [keep, safe, sha] = report_cells(row);
        let line = format!(
            "{:<8} {:<12} {:>14} {:>9.2}  {}{note}",
            result(row),
            how(row),
            positions,
            row.seconds,
            extra([&keep, &safe, &sha])
        );
        let _ = writeln!(text, "{}", line.trim_end());
    }
    let _ = writeln!(
        text,
        "{} members: {} first-player wins, {} draws, {} second-player wins, {} skipped (over {} s or {} a member), {} refused; {:.1} s",
        map.members.len(),
        map.first_wins,
        map.draws,
        map.second_wins,
        map.skipped,
        map.member_seconds,
        bytes_text(map.member_bytes),
        map.refused,
        map.seconds
    );
    text
}

/// A member's report as text cells: first moves keeping the value of all ("2/3"), its
/// seats' mean shares of safe moves ("65.7/46.3") and the start of its certificate's
/// SHA-256; empty where there is none.
fn report_cells(row: &MapRow) -> [String; 3] {
    let Some(r) = &row.report else {
        return Default::default();
    };
    let keep = match r.first_moves {
        0 => String::new(),
        n => format!("{}/{n}", r.keeping),
    };
    let safe = r.safe.as_ref().map_or_else(String::new, |s| {
        s.iter()
            .map(|x| format!("{:.1}", 100.0 * x))
            .collect::<Vec<_>>()
            .join("/")
    });
    let sha = r.sha256.as_deref().map_or("", |h| &h[..12.min(h.len())]);
    [keep, safe, sha.to_string()]
}

/// The pairs of neighbouring members (by index) whose results differ, both solved:
/// members whose keys differ in one key only, by one step along its values, that key
/// given with them.
fn flips(map: &BalanceMap) -> Vec<(usize, usize, &str)> {
    let order = |k: &str| {
        let mut v: Vec<&str> = Vec::new();
        for r in &map.members {
            let x = r.keys.get(k).map_or("", String::as_str);
            if !v.contains(&x) {
                v.push(x);
            }
        }
        v
    };
    let orders: Vec<(&str, Vec<&str>)> = map.keys.iter().map(|k| (k.as_str(), order(k))).collect();
    let solved = |r: &MapRow| r.status == Status::Solved && r.verdict.value.is_some();
    let mut found = Vec::new();
    for (i, a) in map.members.iter().enumerate().filter(|(_, r)| solved(r)) {
        for (j, b) in map
            .members
            .iter()
            .enumerate()
            .skip(i + 1)
            .filter(|(_, r)| solved(r))
        {
            let differing: Vec<&(&str, Vec<&str>)> = orders
                .iter()
                .filter(|(k, _)| a.keys.get(*k) != b.keys.get(*k))
                .collect();
            let [(key, values)] = differing[..] else {
                continue;
            };
            let at = |r: &MapRow| {
                values
                    .iter()
                    .position(|v| Some(*v) == r.keys.get(*key).map(String::as_str))
            };
            let adjacent = matches!((at(a), at(b)), (Some(x), Some(y)) if x.abs_diff(y) == 1);
            if adjacent && result(a) != result(b) {
                found.push((i, j, *key));
            }
        }
    }
    found
}

/// One CSV line per member: the varying keys, the spec, and the solve's fields.
fn to_csv(map: &BalanceMap) -> String {
    let mut out = String::new();
    for k in &map.keys {
        out += k;
        out.push(',');
    }
    out += "game,status,to_move,value,remoteness,margin,positions,solver,seconds,estimate_seconds,estimate_bytes,reason,first_move_values";
    let reported = map.members.iter().any(|r| r.report.is_some());
    if reported {
        out += ",first_moves,keeping,safe,sha256";
    }
    out.push('\n');
    let quote = |t: &str| match t.contains([',', '"', '\n']) {
        true => format!("\"{}\"", t.replace('"', "\"\"")),
        false => t.to_string(),
    };
    let opt = |v: Option<String>| v.unwrap_or_default();
    for r in &map.members {
        for k in &map.keys {
            out += &quote(r.keys.get(k).map_or("", String::as_str));
            out.push(',');
        }
        let status = serde_json::to_value(r.status).ok();
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{:.3},{},{},{},{}",
            quote(&r.game),
            status.as_ref().and_then(|s| s.as_str()).unwrap_or(""),
            opt(r.to_move.clone()),
            opt(r.verdict.value.map(|c| c.word().to_string())),
            opt(r.verdict.remoteness.map(|v| v.to_string())),
            opt(r.verdict.margin.map(|v| v.to_string())),
            opt(r.positions.map(|v| v.to_string())),
            opt(r.solver.clone()),
            r.seconds,
            opt(r.estimate.map(|c| format!("{:.1}", c.seconds))),
            opt(r.estimate.map(|c| c.bytes.to_string())),
            quote(r.reason.as_deref().unwrap_or("")),
            quote(&move_values(r))
        );
        if reported {
            out.pop();
            let rep = r.report.as_ref();
            let safe = rep
                .and_then(|x| x.safe.as_ref())
                .map(|s| s.iter().map(|x| format!("{x:.4}")).collect::<Vec<_>>().join("/"));
            let _ = writeln!(
                out,
                ",{},{},{},{}",
                opt(rep
                    .filter(|x| x.first_moves > 0)
                    .map(|x| x.first_moves.to_string())),
                opt(rep.filter(|x| x.first_moves > 0).map(|x| x.keeping.to_string())),
                opt(safe),
                opt(rep.and_then(|x| x.sha256.clone()))
            );
        }
    }
    out
}

/// The colour of a member's cell, in the outcome colours of
/// [`zermelo::picture::palette`]: blue first-player win, grey draw, vermillion
/// second-player win, white skipped or refused.
fn colour(row: &MapRow) -> RGBColor {
    use zermelo::picture::palette::{DRAW, LOSE, WIN};
    let tint = match (row.status, row.verdict.value) {
        (Status::Solved, Some(Class::Win)) => WIN.ink,
        (Status::Solved, Some(Class::Lose)) => LOSE.ink,
        (Status::Solved, _) => DRAW.fill,
        _ => return WHITE,
    };
    zermelo::chart::colour(tint)
}

/// The letter of a member's outcome class (its `class` fact), when its solve gave one.
fn class(row: &MapRow) -> Option<char> {
    row.details
        .iter()
        .find(|f| f.key == "class")
        .and_then(|f| match &f.value {
            FactValue::Text(t) => t.chars().next(),
            _ => None,
        })
}

/// The colour of a member's outcome class, from [`zermelo::picture::palette::CLASSES`];
/// white for none.
fn class_colour(row: &MapRow) -> RGBColor {
    let letter = class(row);
    zermelo::picture::palette::CLASSES
        .iter()
        .find(|(c, _)| Some(*c) == letter)
        .map_or(WHITE, |(_, hex)| zermelo::chart::colour(hex))
}

/// The heatmap: the first two varying keys as rows and columns (one key: one row), one
/// panel per combination of the others' values; every cell coloured by the first
/// player's result and labelled with its remoteness or margin ("?" for skipped members).
/// With `flips`, a thick line between neighbouring cells whose results differ.
fn heatmap(map: &BalanceMap, path: &Path, colour_by: ColourBy, flips_marked: bool) -> Result<()> {
    if colour_by == ColourBy::Class && !map.members.iter().any(|r| class(r).is_some()) {
        bail!(
            "no member of {} has an outcome class to colour by; colour by result",
            map.family
        );
    }
    let fail = |e: &dyn std::fmt::Display| anyhow!("drawing {}: {e}", path.display());
    let values = |k: &str| {
        let mut v: Vec<&str> = Vec::new();
        for r in &map.members {
            let x = r.keys.get(k).map_or("", String::as_str);
            if !v.contains(&x) {
                v.push(x);
            }
        }
        v
    };
    let (row_key, col_key) = match &map.keys[..] {
        [] => (None, None),
        [only] => (None, Some(only.as_str())),
        [a, b, ..] => (Some(a.as_str()), Some(b.as_str())),
    };
    let rows = row_key.map_or(vec![""], values);
    let cols = col_key.map_or(vec![""], values);
    let rest: Vec<&str> = map.keys.iter().skip(2).map(String::as_str).collect();
    let mut panels: BTreeMap<Vec<String>, Vec<&MapRow>> = BTreeMap::new();
    let mut order: Vec<Vec<String>> = Vec::new();
    let panel_of =
        |r: &MapRow| -> Vec<String> { rest.iter().map(|k| format!("{k}={}", r.keys[*k])).collect() };
    for r in &map.members {
        let key = panel_of(r);
        if !panels.contains_key(&key) {
            order.push(key.clone());
        }
        panels.entry(key).or_default().push(r);
    }
    const CELL: i32 = 44;
    const MARGIN: i32 = 60;
    let panel_w = MARGIN + CELL * cols.len() as i32 + 20;
    let panel_h = MARGIN + CELL * rows.len() as i32 + 30;
    let across = order.len().min(3) as i32;
    let down = order.len().div_ceil(3) as i32;
    let size = (
        (panel_w * across).max(560) as u32,
        (40 + panel_h * down + 50) as u32,
    );
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let title = match colour_by {
        ColourBy::Result => format!("{}: the first player's result", map.family),
        ColourBy::Class => format!("{}: the outcome class", map.family),
    };
    let centred = |size: i32| {
        ("sans-serif", size)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Center))
    };
    root.draw(&Text::new(title, (size.0 as i32 / 2, 18), centred(16)))
        .map_err(|e| fail(&e))?;
    for (p, key) in order.iter().enumerate() {
        let (px, py) = ((p as i32 % 3) * panel_w, 40 + (p as i32 / 3) * panel_h);
        if !key.is_empty() {
            let label = key.join(", ");
            root.draw(&Text::new(
                label,
                (px + MARGIN + CELL * cols.len() as i32 / 2, py + 10),
                centred(13),
            ))
            .map_err(|e| fail(&e))?;
        }
        let (x0, y0) = (px + MARGIN, py + 30);
        for (j, c) in cols.iter().enumerate() {
            let x = x0 + CELL * j as i32 + CELL / 2;
            root.draw(&Text::new(
                c.to_string(),
                (x, y0 + CELL * rows.len() as i32 + 12),
                centred(12),
            ))
            .map_err(|e| fail(&e))?;
        }
        for (i, r) in rows.iter().enumerate() {
            let y = y0 + CELL * i as i32 + CELL / 2;
            root.draw(&Text::new(r.to_string(), (x0 - 14, y), centred(12)))
                .map_err(|e| fail(&e))?;
        }
        if let Some(k) = col_key {
            let at = (
                x0 + CELL * cols.len() as i32 / 2,
                y0 + CELL * rows.len() as i32 + 28,
            );
            root.draw(&Text::new(k.to_string(), at, centred(12)))
                .map_err(|e| fail(&e))?;
        }
        if let Some(k) = row_key {
            root.draw(&Text::new(
                k.to_string(),
                (px + 16, y0 + CELL * rows.len() as i32 / 2),
                centred(12),
            ))
            .map_err(|e| fail(&e))?;
        }
        for member in &panels[key] {
            let at = |k: Option<&str>, axis: &[&str]| {
                k.map_or(0, |k| axis.iter().position(|v| *v == member.keys[k]).unwrap_or(0)) as i32
            };
            let (i, j) = (at(row_key, &rows), at(col_key, &cols));
            let (x, y) = (x0 + CELL * j, y0 + CELL * i);
            let fill = match colour_by {
                ColourBy::Result => colour(member),
                ColourBy::Class => class_colour(member),
            };
            root.draw(&Rectangle::new(
                [(x, y), (x + CELL - 2, y + CELL - 2)],
                fill.filled(),
            ))
            .map_err(|e| fail(&e))?;
            root.draw(&Rectangle::new(
                [(x, y), (x + CELL - 2, y + CELL - 2)],
                RGBColor(120, 120, 120),
            ))
            .map_err(|e| fail(&e))?;
            let label = match colour_by {
                ColourBy::Result => cell(member),
                ColourBy::Class => class(member).map(String::from).unwrap_or_else(|| cell(member)),
            };
            if !label.is_empty() {
                let ink = if member.status == Status::Solved {
                    WHITE
                } else {
                    BLACK
                };
                let font = ("sans-serif", 13)
                    .into_font()
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center));
                // The first moves that keep the value, small, under the result.
                let best = best_moves(member);
                let high = if best.is_some() { CELL / 3 } else { CELL / 2 - 1 };
                root.draw(&Text::new(label, (x + CELL / 2 - 1, y + high), font))
                    .map_err(|e| fail(&e))?;
                if let Some(best) = best {
                    let small = ("sans-serif", 10)
                        .into_font()
                        .color(&ink)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    root.draw(&Text::new(best, (x + CELL / 2 - 1, y + 3 * CELL / 4 - 2), small))
                        .map_err(|e| fail(&e))?;
                }
            }
        }
        let marked = flips(map)
            .into_iter()
            .filter(|_| flips_marked)
            .map(|(a, b, k)| (&map.members[a], &map.members[b], k));
        for (a, b, k) in marked.filter(|(a, _, _)| panel_of(a) == *key) {
            let at = |m: &MapRow, k: Option<&str>, axis: &[&str]| {
                k.map_or(0, |k| axis.iter().position(|v| *v == m.keys[k]).unwrap_or(0)) as i32
            };
            let (i, j) = (
                at(a, row_key, &rows).max(at(b, row_key, &rows)),
                at(a, col_key, &cols).max(at(b, col_key, &cols)),
            );
            let (x, y) = (x0 + CELL * j, y0 + CELL * i);
            let edge = match Some(k) {
                k if k == col_key => [(x - 1, y), (x - 1, y + CELL - 2)],
                k if k == row_key => [(x, y - 1), (x + CELL - 2, y - 1)],
                _ => continue,
            };
            root.draw(&PathElement::new(edge.to_vec(), BLACK.stroke_width(4)))
                .map_err(|e| fail(&e))?;
        }
    }
    let legend = match colour_by {
        ColourBy::Result if flips_marked => [
            "blue: the first player wins, grey: draw, orange: the second player wins; a thick line: the result flips",
            "W n, L n: in n moves; +n, -n: the margin; ?: over its budget; blank: no such game",
        ],
        ColourBy::Result => [
            "blue: the first player wins, grey: draw, orange: the second player wins",
            "W n, L n: in n moves; +n, -n: the margin; ?: over its budget; blank: no such game",
        ],
        ColourBy::Class => [
            "L blue: Left (the first seat) wins whoever starts, R orange: Right does,",
            "N green: whoever starts wins, P purple: whoever starts loses; ?: over its budget",
        ],
    };
    for (i, line) in legend.into_iter().enumerate() {
        let at = (size.0 as i32 / 2, size.1 as i32 - 32 + 16 * i as i32);
        root.draw(&Text::new(line, at, centred(11)))
            .map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
