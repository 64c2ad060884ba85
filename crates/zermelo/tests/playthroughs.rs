//! Golden playthroughs: for every example spec of the catalog, a seeded game with every
//! position's notation, picture, value, and each legal move with its value, compared with
//! the copy kept in `tests/data/playthroughs/`. A change of notation, picture or value
//! anywhere shows here as a diff. `scripts/playthroughs` writes them anew
//! (`ZERMELO_BLESS=1`) after a change that is meant.

use std::fmt::Write as _;
use std::path::PathBuf;

use zermelo::catalog;
use zermelo::session::{Options, PositionView};

/// Games of each example: each a different seed.
const GAMES: u64 = 2;
/// Moves played at most in one game.
const MOST_MOVES: usize = 40;

/// The file keeping the playthroughs of `spec`.
fn golden_path(spec: &str) -> PathBuf {
    let name: String = spec
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '=' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/playthroughs")
        .join(format!("{name}.txt"))
}

/// The lines of one position: its notation, who moves, its value, its picture and every
/// listed move with its value.
fn describe(view: &PositionView, out: &mut String) {
    writeln!(out, "position {}", view.position).unwrap();
    match &view.result {
        Some(result) => writeln!(out, "over: {result}").unwrap(),
        None => writeln!(out, "{} to move: {}", view.to_move, view.verdict.words()).unwrap(),
    }
    if let Some(points) = &view.points {
        writeln!(out, "points {points:?}").unwrap();
    }
    for line in view.board.lines() {
        writeln!(out, "  | {}", line.trim_end()).unwrap();
    }
    writeln!(out, "moves ({} listed of {})", view.moves.len(), view.moves_total).unwrap();
    for m in &view.moves {
        let best = if m.best { " *" } else { "" };
        let note = m.note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
        writeln!(out, "  {}: {}{best}{note}", m.notation, m.verdict.words()).unwrap();
    }
}

/// A small generator of the moves to play, the same on every machine.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

/// The playthroughs of `spec`: `GAMES` seeded games, every position described.
fn playthroughs(spec: &str) -> String {
    let session = catalog::open(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let opts = Options {
        data_dir: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("playthroughs-no-tables"),
        save: false,
        ..Options::default()
    };
    let mut out = format!("# {spec}\n");
    for seed in 1..=GAMES {
        writeln!(out, "\n## game {seed}").unwrap();
        let mut state = seed;
        let mut moves: Vec<String> = Vec::new();
        loop {
            let view = session
                .position(&moves, &opts)
                .unwrap_or_else(|e| panic!("{spec} {moves:?}: {e}"));
            writeln!(out, "\nafter [{}]", moves.join(" ")).unwrap();
            describe(&view, &mut out);
            if view.terminal || view.moves.is_empty() || moves.len() == MOST_MOVES {
                break;
            }
            let pick = next(&mut state) as usize % view.moves.len();
            moves.push(view.moves[pick].notation.clone());
        }
    }
    out
}

#[test]
fn every_example_plays_through_as_kept() {
    let bless = std::env::var_os("ZERMELO_BLESS").is_some();
    let mut changed = Vec::new();
    for entry in catalog::entries() {
        for spec in entry.examples {
            let now = playthroughs(spec);
            let path = golden_path(spec);
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &now).unwrap();
                continue;
            }
            let kept = std::fs::read_to_string(&path).unwrap_or_default();
            if kept != now {
                let line = kept.lines().zip(now.lines()).position(|(a, b)| a != b);
                let line = line.unwrap_or(kept.lines().count().min(now.lines().count()));
                let shown = |text: &str| text.lines().nth(line).unwrap_or("(end)").to_string();
                changed.push(format!(
                    "{spec}: line {}: kept `{}`, now `{}`",
                    line + 1,
                    shown(&kept),
                    shown(&now)
                ));
            }
        }
    }
    assert!(
        changed.is_empty(),
        "playthroughs differ from tests/data/playthroughs (if the change is meant, run \
         scripts/playthroughs):\n{}",
        changed.join("\n")
    );
}
