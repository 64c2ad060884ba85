//! `zermelo balance`: every arrangement of reduced Big Points boards solved exactly, in
//! parallel, and how often the first player wins, draws or loses; as text, JSON, CSV
//! (one row per board) and an SVG chart. The sweep itself is
//! [`zermelo::games::bigpoints::balance`]; this module renders it.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use plotters::prelude::*;
use serde_json::json;
use zermelo::games::bigpoints::balance::{Balance, Choice, Plan, Sweep, DEFAULT_BATCH};
use zermelo::solve::levels::Partition;
use zermelo::solve::Progress;

use crate::report::Report;

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
    /// Record solved boards in this file, and go on from what it holds.
    pub checkpoint: Option<PathBuf>,
    /// Boards per batch: what a checkpoint records at a time, what an MPI rank is handed.
    pub batch: Option<usize>,
    /// The size of the table the sweep's threads share, when not the default.
    pub table_bytes: Option<u64>,
    /// Show a progress bar.
    pub progress: bool,
}

/// How the boards of a sweep's plan get solved: on this machine, or across the ranks of
/// an MPI job.
pub trait Driver {
    /// Solves every board of `plan`, going on from `checkpoint` when given and recording
    /// `batch` boards at a time; `None` on a rank that only works for another.
    fn solve(
        &self,
        plan: &Plan,
        checkpoint: Option<&Path>,
        batch: Option<usize>,
        progress: &dyn Progress,
    ) -> Result<Option<Balance>>;

    /// How a level solve is split across processes, when it is.
    fn partition(&self) -> Option<Arc<dyn Partition>> {
        None
    }
}

/// Every board solved in this process, on all its cores.
pub struct Local;

impl Driver for Local {
    fn solve(
        &self,
        plan: &Plan,
        checkpoint: Option<&Path>,
        batch: Option<usize>,
        progress: &dyn Progress,
    ) -> Result<Option<Balance>> {
        let checkpoint = checkpoint.map(|p| (p, batch.unwrap_or(DEFAULT_BATCH)));
        Ok(Some(plan.run(checkpoint, progress)?))
    }
}

/// The boards solved of each family on a bar on stderr (hidden unless it is a terminal).
struct Bar(ProgressBar);

impl Bar {
    fn new(show: bool) -> Bar {
        if !show || !std::io::stderr().is_terminal() {
            return Bar(ProgressBar::hidden());
        }
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} boards ({eta})")
                .expect("a valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Bar(bar)
    }
}

impl Progress for Bar {
    fn start(&self, what: &str, len: u64) {
        self.0.set_message(what.to_string());
        self.0.set_length(len);
        self.0.set_position(0);
    }

    fn advance(&self, steps: u64) {
        self.0.inc(steps);
    }
}

/// A family's label in the table and the chart: `(3,3)`, `(3,3)+1w+1k`.
fn label(s: &Sweep) -> String {
    let mut text = format!("({},{})", s.colors, s.discs);
    if s.white > 0 {
        text += &format!("+{}w", s.white);
    }
    if s.black > 0 {
        text += &format!("+{}k", s.black);
    }
    text
}

/// The first-win, draw and second-win percentages of a sweep.
fn percentages(s: &Sweep) -> [f64; 3] {
    [s.first_wins_pct, s.draws_pct, s.second_wins_pct]
}

/// One CSV line per board of every sweep, under a header.
fn csv(sweeps: &[Sweep]) -> String {
    let mut out = String::from("colors,discs,white,black,board,class,first,second,result,positions\n");
    let cell = |v: Option<i32>| v.map_or_else(String::new, |v| v.to_string());
    for s in sweeps {
        for r in s.rows() {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{}",
                r.colors,
                r.discs,
                r.white,
                r.black,
                r.board,
                r.class,
                cell(r.first),
                cell(r.second),
                r.result,
                r.positions
            );
        }
    }
    out
}

/// `zermelo balance`, its boards solved by `driver`; `None` on a rank that only works
/// for another.
pub fn run(args: &BalanceArgs, driver: &dyn Driver) -> Result<Option<Report>> {
    let choice = Choice {
        every_board: args.every_board,
        sample: args.sample,
    };
    let mut plan = Plan::new(&args.spec, &args.configs, choice)?;
    if let Some(bytes) = args.table_bytes {
        plan = plan.with_table_bytes(bytes);
    }
    let bar = Bar::new(args.progress);
    let result = driver.solve(&plan, args.checkpoint.as_deref(), args.batch, &bar);
    bar.0.finish_and_clear();
    let Some(result) = result? else {
        return Ok(None);
    };
    let sweeps = &result.configs;
    if let Some(path) = &args.csv {
        std::fs::write(path, csv(sweeps)).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        plot(sweeps, path)?;
    }
    let mut text = format!(
        "{:<12} {:>10} {:>8} {:>8} {:>8} {:>9} {:>13} {:>9}\n",
        "config", "boards", "solved", "first %", "draw %", "second %", "max positions", "seconds"
    );
    for s in sweeps {
        let [fp, dp, sp] = percentages(s);
        text += &format!(
            "{:<12} {:>10} {:>8} {:>8.1} {:>8.1} {:>9.1} {:>13} {:>9.2}\n",
            label(s),
            s.boards.0,
            s.solved,
            fp,
            dp,
            sp,
            s.positions_max,
            s.seconds
        );
    }
    if !args.every_board {
        let mut colors: Vec<u64> = sweeps.iter().map(|s| s.colors as u64).collect();
        colors.sort_unstable();
        colors.dedup();
        let factorial = |n: u64| (1..=n).product::<u64>();
        let boards = match colors[..] {
            [n] => format!(
                "the {n}! = {} its colours relabel into",
                zermelo::session::quantity(factorial(n), "board")
            ),
            _ => {
                let each: Vec<String> = colors
                    .iter()
                    .map(|&n| format!("{n}! = {}", factorial(n)))
                    .collect();
                format!(
                    "the boards its colours relabel into (NC! for NC colours: {})",
                    each.join(", ")
                )
            }
        };
        text += &format!("one board per colour-relabelling class solved; each stands for {boards}\n");
    }
    if sweeps.iter().any(|s| s.sampled) {
        text += "a sample: the shares are estimates from the boards solved\n";
    }
    let json =
        json!({"command": "balance", "configs": serde_json::to_value(sweeps)?, "seconds": result.seconds});
    Ok(Some(Report { text, json }))
}

/// A chart of first-win, draw and second-win percentages per configuration (stacked bars).
fn plot(sweeps: &[Sweep], path: &PathBuf) -> Result<()> {
    // Room on the right of the bars for the legend.
    let legend_room = 2.0;
    let width = 160 + (90.0 * (sweeps.len() as f64 + legend_room)) as u32;
    let root = SVGBackend::new(path, (width.max(480), 420)).into_drawing_area();
    let failed = |e: String| anyhow::anyhow!("drawing {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| failed(e.to_string()))?;
    let rule = sweeps.first().map_or("study", |s| s.rule);
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
    let labels: Vec<String> = sweeps.iter().map(label).collect();
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
                let pct = percentages(s);
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
