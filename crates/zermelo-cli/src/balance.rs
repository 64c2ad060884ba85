//! `zermelo balance`: every arrangement of reduced Big Points boards solved exactly, in
//! parallel, and how often the first player wins, draws or loses; as text, JSON, CSV
//! (one row per board) and an SVG chart.
//!
//! Relabelling the colours maps a board onto boards with the same reachable positions,
//! result and winner's score (see `zermelo::games::bigpoints::Family`), so by default one
//! board per class is solved and counts for all `colors!` boards of its class. The
//! loser's score under the study rule, and both scores under the margin rule, can depend
//! on the move order; the CSV leaves them empty for boards not solved themselves
//! (`--every-board` solves them all). `--sample N` solves N evenly spaced boards (or
//! classes) of each family, for an estimate of families too big to sweep.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::Hash;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use indicatif::ProgressBar;
use plotters::prelude::*;
use rayon::prelude::*;
use serde_json::{json, Value as Json};
use zermelo::games::bigpoints::{BigPoints, Family, Position, Rule};
use zermelo::solve::scores::{DecisionRule, MarginRule, ScoreSolver, Scores, StudyRule, Table};
use zermelo::{Game, Spec};

use crate::commands::Report;
use crate::progress;

/// The most boards (or classes) a sweep lists, sampled or not.
const MAX_LISTED: u128 = 20_000_000;

/// What `zermelo balance` was asked.
pub struct BalanceArgs {
    /// The family spec, or the keys every configuration shares.
    pub spec: String,
    /// `COLORSxDISCS` configurations, solved one after another.
    pub configs: Vec<String>,
    /// Where to write the CSV.
    pub csv: Option<PathBuf>,
    /// Where to write the SVG chart.
    pub plot: Option<PathBuf>,
    /// Solve every board rather than one per relabelling class.
    pub every_board: bool,
    /// Solve only this many boards, evenly spaced through the family, for an estimate.
    pub sample: Option<usize>,
    /// Show a progress bar.
    pub progress: bool,
}

/// One solved board.
#[derive(Clone, Copy)]
struct Solved {
    scores: Scores,
    positions: usize,
}

/// The sweep of one family.
struct Sweep {
    family: Family,
    /// Boards solved, with their results.
    solved: Vec<(Vec<u8>, Solved)>,
    /// How many boards each solved board stands for.
    weight: u128,
    /// Whether the boards solved are a sample of the family.
    sampled: bool,
    seconds: f64,
}

impl Sweep {
    fn tally(&self) -> [u128; 3] {
        let mut t = [0u128; 3];
        for (_, s) in &self.solved {
            let i = match s.scores[0].cmp(&s.scores[1]) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 2,
            };
            t[i] += self.weight;
        }
        t
    }

    fn boards(&self) -> u128 {
        self.solved.len() as u128 * self.weight
    }

    fn percentages(&self) -> [f64; 3] {
        self.tally().map(|n| 100.0 * n as f64 / self.boards() as f64)
    }

    fn label(&self) -> String {
        let f = &self.family;
        let mut s = format!("({},{})", f.colours, f.discs);
        if f.white > 0 {
            s += &format!("+{}w", f.white);
        }
        if f.black > 0 {
            s += &format!("+{}k", f.black);
        }
        s
    }

    fn json(&self) -> Json {
        let f = &self.family;
        let [first, draws, second] = self.tally();
        let [fp, dp, sp] = self.percentages();
        let positions: Vec<usize> = self.solved.iter().map(|(_, s)| s.positions).collect();
        let max = positions.iter().copied().max().unwrap_or(0);
        let mean = positions.iter().sum::<usize>() as f64 / positions.len().max(1) as f64;
        json!({
            "game": f.spec(), "colors": f.colours, "discs": f.discs, "white": f.white, "black": f.black,
            "rule": f.rule.name(), "boards": big(self.boards()), "solved": self.solved.len(),
            "sampled": self.sampled, "family_boards": big(f.boards()),
            "first_wins": big(first), "draws": big(draws), "second_wins": big(second),
            "first_wins_pct": fp, "draws_pct": dp, "second_wins_pct": sp,
            "positions_max": max, "positions_mean": mean, "seconds": self.seconds,
        })
    }

    /// One CSV row per board of the family, in lexicographic order.
    fn csv_rows(&self, out: &mut String) {
        let f = &self.family;
        let by_board: HashMap<&[u8], &Solved> = self.solved.iter().map(|(b, s)| (b.as_slice(), s)).collect();
        for board in f.all() {
            let class = Family::representative(&board);
            let (s, own) = match (by_board.get(board.as_slice()), by_board.get(class.as_slice())) {
                (Some(s), _) => (*s, true),
                (None, Some(s)) => (*s, false),
                (None, None) => continue, // not in the sample
            };
            let [a, b] = s.scores;
            // Scores a board of the class shares for sure: the winner's under the study rule.
            let known = |mine: i32, other: i32| own || (f.rule == Rule::Study && mine >= other);
            let cell = |v: i32, k: bool| if k { v.to_string() } else { String::new() };
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{}",
                f.colours,
                f.discs,
                f.white,
                f.black,
                Family::format(&board),
                Family::format(&class),
                cell(a, known(a, b)),
                cell(b, known(b, a)),
                result_word(s.scores),
                s.positions
            );
        }
    }
}

/// Solves every board of `family` (or one per class) in parallel.
fn sweep(family: Family, every_board: bool, sample: Option<usize>, progress: bool) -> Sweep {
    let started = Instant::now();
    let mut boards = if every_board {
        family.all()
    } else {
        family.classes()
    };
    let sampled = sample.is_some_and(|n| n < boards.len());
    if let Some(n) = sample.filter(|_| sampled) {
        let len = boards.len();
        boards = (0..n).map(|i| boards[i * len / n].clone()).collect();
    }
    let bar = progress::bar(progress, boards.len() as u64, "boards");
    bar.set_message(family.spec());
    let solved = match family.rule {
        Rule::Study => solve_all(&family, boards, &StudyRule, &bar),
        Rule::Margin => solve_all(&family, boards, &MarginRule, &bar),
    };
    bar.finish_and_clear();
    Sweep {
        family,
        solved,
        weight: if every_board {
            1
        } else {
            family.class_size() as u128
        },
        sampled,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Solves `boards` on all cores under `rule`, with the most compact position key that fits.
fn solve_all<R: DecisionRule>(
    family: &Family,
    boards: Vec<Vec<u8>>,
    rule: &R,
    bar: &ProgressBar,
) -> Vec<(Vec<u8>, Solved)> {
    let one_word = boards.first().is_some_and(|b| family.game(b).pack64_bits() <= 64);
    if one_word {
        solve_keyed(family, boards, rule, BigPoints::pack64, bar)
    } else {
        solve_keyed(family, boards, rule, BigPoints::pack, bar)
    }
}

/// Solves `boards` on all cores, each thread reusing one table from board to board.
fn solve_keyed<R: DecisionRule, K: Hash + Eq + Send>(
    family: &Family,
    boards: Vec<Vec<u8>>,
    rule: &R,
    key: fn(&BigPoints, &Position) -> K,
    bar: &ProgressBar,
) -> Vec<(Vec<u8>, Solved)> {
    boards
        .into_par_iter()
        .map_init(Table::default, |table, board| {
            let g = family.game(&board);
            let mut solver = ScoreSolver::keyed(&g, rule, key, std::mem::take(table));
            let scores = solver.solve(&g.start());
            let positions = solver.positions();
            *table = solver.into_table();
            bar.inc(1);
            (board, Solved { scores, positions })
        })
        .collect()
}

/// The families to sweep: the spec itself, or the spec's other keys with each config.
fn families(args: &BalanceArgs) -> Result<Vec<Family>> {
    let base: Spec = args.spec.parse()?;
    if base.name != "bigpoints" {
        bail!("balance is for Big Points families, e.g. bigpoints:colors=3,discs=2");
    }
    if args.configs.is_empty() {
        return Ok(vec![Family::from_spec(&base)?]);
    }
    if base.get("colors").is_some() || base.get("discs").is_some() {
        bail!("--configs gives colors and discs; leave them out of the spec");
    }
    let sep = if args.spec.contains(':') { ',' } else { ':' };
    args.configs
        .iter()
        .map(|c| {
            let (nc, nd) = c
                .trim()
                .split_once(['x', 'X'])
                .with_context(|| format!("--configs {c}: expected COLORSxDISCS, e.g. 3x2"))?;
            let spec: Spec = format!("{}{sep}colors={nc},discs={nd}", args.spec.trim()).parse()?;
            Ok(Family::from_spec(&spec)?)
        })
        .collect()
}

/// `zermelo balance`.
pub fn run(args: &BalanceArgs) -> Result<Report> {
    let families = families(args)?;
    let started = Instant::now();
    for f in &families {
        let listed = if args.every_board {
            f.boards()
        } else {
            f.boards() / f.class_size() as u128
        };
        if listed > MAX_LISTED {
            bail!(
                "{} has {listed} boards to list, more than {MAX_LISTED}; choose fewer colours or discs",
                f.spec()
            );
        }
    }
    let sweeps: Vec<Sweep> = families
        .into_iter()
        .map(|f| sweep(f, args.every_board, args.sample, args.progress))
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.csv {
        let mut out = String::from("colors,discs,white,black,board,class,first,second,result,positions\n");
        for s in &sweeps {
            s.csv_rows(&mut out);
        }
        std::fs::write(path, out).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        plot(&sweeps, path)?;
    }
    let mut text = format!(
        "{:<12} {:>10} {:>8} {:>8} {:>8} {:>9} {:>13} {:>9}\n",
        "config", "boards", "solved", "first %", "draw %", "second %", "max positions", "seconds"
    );
    for s in &sweeps {
        let [fp, dp, sp] = s.percentages();
        let max = s.solved.iter().map(|(_, r)| r.positions).max().unwrap_or(0);
        text += &format!(
            "{:<12} {:>10} {:>8} {:>8.1} {:>8.1} {:>9.1} {:>13} {:>9.2}\n",
            s.label(),
            s.boards(),
            s.solved.len(),
            fp,
            dp,
            sp,
            max,
            s.seconds
        );
    }
    if !args.every_board {
        text += "one board per colour-relabelling class solved; each stands for colors! boards\n";
    }
    if sweeps.iter().any(|s| s.sampled) {
        text += "a sample: the shares are estimates from the boards solved\n";
    }
    let json = if args.configs.is_empty() {
        sweeps[0].json()
    } else {
        json!({"configs": sweeps.iter().map(Sweep::json).collect::<Vec<_>>(), "seconds": seconds})
    };
    Ok(Report { text, json })
}

/// A chart of first-win, draw and second-win percentages per configuration (stacked bars).
fn plot(sweeps: &[Sweep], path: &PathBuf) -> Result<()> {
    // Room on the right of the bars for the legend.
    let legend_room = 2.0;
    let width = 160 + (90.0 * (sweeps.len() as f64 + legend_room)) as u32;
    let root = SVGBackend::new(path, (width.max(480), 420)).into_drawing_area();
    let failed = |e: String| anyhow::anyhow!("drawing {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| failed(e.to_string()))?;
    let rule = sweeps.first().map_or("study", |s| s.family.rule.name());
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Big Points, reduced games: who wins ({rule} rule)"),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..sweeps.len() as f64 + legend_room, 0f64..100f64)
        .map_err(|e| failed(e.to_string()))?;
    let labels: Vec<String> = sweeps.iter().map(Sweep::label).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_max_light_lines(1)
        .x_labels(2 * (sweeps.len() + 2) + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - i as f64 - 0.5).abs() < 0.01 && i < labels.len() {
                labels[i].clone()
            } else {
                String::new()
            }
        })
        .x_desc("(colours, discs)")
        .y_desc("boards %")
        .draw()
        .map_err(|e| failed(e.to_string()))?;
    let parts = [
        ("first player wins", RGBColor(46, 110, 180)),
        ("draw", RGBColor(170, 170, 170)),
        ("second player wins", RGBColor(214, 96, 56)),
    ];
    for (k, &(name, colour)) in parts.iter().enumerate() {
        let bars: Vec<Rectangle<(f64, f64)>> = sweeps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let pct = s.percentages();
                let low: f64 = pct[..k].iter().sum();
                let x = i as f64;
                Rectangle::new([(x + 0.2, low), (x + 0.8, low + pct[k])], colour.filled())
            })
            .collect();
        chart
            .draw_series(bars)
            .map_err(|e| failed(e.to_string()))?
            .label(name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| failed(e.to_string()))?;
    root.present().map_err(|e| failed(e.to_string()))?;
    Ok(())
}

/// "win", "draw" or "lose" for the player whose score is first in `s`.
fn result_word(s: Scores) -> &'static str {
    match s[0].cmp(&s[1]) {
        std::cmp::Ordering::Greater => "win",
        std::cmp::Ordering::Equal => "draw",
        std::cmp::Ordering::Less => "lose",
    }
}

/// A count as a JSON number, or as a string of digits when it exceeds 64 bits.
fn big(n: u128) -> Json {
    u64::try_from(n).map_or_else(|_| json!(n.to_string()), Json::from)
}
