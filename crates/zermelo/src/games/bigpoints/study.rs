//! The Big Points study: every arrangement of reduced boards solved ([`super::sweep`]),
//! and how often the first player wins, draws or loses; as text, JSON, CSV (one row per
//! board) and an SVG chart.

use std::fmt::Write as _;

use plotters::prelude::*;

use super::sweep::{is_sweep, Choice, FamilySweep, SweepPlan, MAX_LISTED};
use crate::chart::{self, Frame};
use crate::picture::palette;
use crate::session::study::{Study, StudyArgs, StudyReport, PLOT};
use crate::session::{quantity, Options};
use crate::spec::{Key, Preset, Values};
use crate::Error;

/// A whole number of at least 1, given or not.
const fn count(name: &'static str, default: &'static str, help: &'static str) -> Key {
    Key {
        name,
        values: Values::Int {
            lo: 1,
            hi: MAX_LISTED as u64,
            default: Preset::Else(default),
        },
        also: None,
        help,
    }
}

/// Several configurations at once.
const CONFIGS: Key = Key {
    name: "configs",
    values: Values::Text {
        form: "COLORSxDISCS comma-separated, e.g. 2x2,3x2",
        default: Preset::Else("the spec's colors and discs"),
    },
    also: None,
    help: "several configurations (the spec then gives only the other keys)",
};

/// Every board rather than one per class.
const EVERY_BOARD: Key = Key {
    name: "every_board",
    values: Values::Flag(false),
    also: None,
    help: "solve every board, not one per colour-relabelling class",
};

/// A sample of the boards.
const SAMPLE: Key = count(
    "sample",
    "every board",
    "solve only N boards (classes) evenly spaced through each family: an estimate",
);

/// The file of solved boards a sweep goes on from.
const CHECKPOINT: Key = Key {
    name: "checkpoint",
    values: Values::Text {
        form: "a file",
        default: Preset::Else("none"),
    },
    also: None,
    help: "record solved boards in this file batch by batch; run again, the sweep goes on from the last batch recorded",
};

/// Boards per batch.
const BATCH: Key = count(
    "batch",
    "64 with a checkpoint, else a sixteenth of each process's share (at most 256)",
    "boards per batch: recorded at a time with a checkpoint, handed to a process at a time",
);

/// The study `zermelo balance` runs on a Big Points family.
pub const SWEEP: Study = Study {
    name: "balance",
    summary: "every arrangement of reduced Big Points boards solved: how often each player wins",
    keys: &[CONFIGS, EVERY_BOARD, SAMPLE, CHECKPOINT, BATCH],
    takes: is_sweep,
    run,
};

/// Sweeps the families of `spec` (and `configs`), across the processes of `opts`'
/// partition, its threads sharing a table of `opts`' memory when given.
fn run(spec: &str, args: &StudyArgs, opts: &Options) -> Result<StudyReport, Error> {
    let count = |key: &Key| Ok::<_, Error>(args.int_given(key)?.map(|n| n as usize));
    let choice = Choice {
        every_board: args.flag(&EVERY_BOARD)?,
        sample: count(&SAMPLE)?,
    };
    let configs: Vec<String> = args
        .text(&CONFIGS)
        .into_iter()
        .flat_map(|t| t.split(','))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect();
    let mut plan = SweepPlan::new(spec, &configs, choice)?;
    if let Some(bytes) = opts.budget.memory {
        plan = plan.with_table_bytes(bytes);
    }
    let checkpoint = args.text(&CHECKPOINT).map(std::path::Path::new);
    let result = plan.run(
        checkpoint,
        count(&BATCH)?,
        opts.partition.as_ref(),
        opts.progress.as_ref(),
    )?;
    // A process that only solved boards for the leader reports nothing.
    let Some(result) = result else {
        return Ok(StudyReport::default());
    };
    let sweeps = &result.configs;
    let svg = args.has(&PLOT).then(|| plot(sweeps)).transpose()?;
    let json = serde_json::json!({
        "command": SWEEP.name,
        "configs": serde_json::to_value(sweeps).map_err(|e| Error::Io(e.to_string()))?,
        "seconds": result.seconds,
    });
    Ok(StudyReport {
        text: text(sweeps, choice.every_board),
        json,
        csv: Some(csv(sweeps)),
        svg,
        series: None,
    })
}

/// The table of the sweeps, one line per family, and what the shares stand for.
fn text(sweeps: &[FamilySweep], every_board: bool) -> String {
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
    if !every_board {
        let mut colors: Vec<u64> = sweeps.iter().map(|s| s.colors as u64).collect();
        colors.sort_unstable();
        colors.dedup();
        let factorial = |n: u64| (1..=n).product::<u64>();
        let boards = match colors[..] {
            [n] => format!(
                "the {n}! = {} its colours relabel into",
                quantity(factorial(n), "board")
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
    text
}

/// A family's label in the table and the chart: `(3,3)`, `(3,3)+1w+1k`.
fn label(s: &FamilySweep) -> String {
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
fn percentages(s: &FamilySweep) -> [f64; 3] {
    [s.first_wins_pct, s.draws_pct, s.second_wins_pct]
}

/// One CSV line per board of every sweep, under a header.
fn csv(sweeps: &[FamilySweep]) -> String {
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

/// A chart of first-win, draw and second-win percentages per configuration (stacked bars),
/// in the outcome colours of [`palette`].
fn plot(sweeps: &[FamilySweep]) -> Result<String, Error> {
    // Room on the right of the bars for the legend.
    let legend_room = 2.0;
    let width = 160 + (90.0 * (sweeps.len() as f64 + legend_room)) as u32;
    let rule = sweeps.first().map_or("study", |s| s.rule);
    let title = format!("Big Points, reduced games: who wins ({rule} rule)");
    let frame = Frame {
        size: (width.max(480), 420),
        title: &title,
        title_size: 18,
        legend: SeriesLabelPosition::UpperRight,
        legend_opacity: 0.85,
    };
    frame.svg(0f64..sweeps.len() as f64 + legend_room, 0f64..100f64, |chart| {
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
            .draw()?;
        let parts = [
            ("first player wins", chart::colour(palette::WIN.ink)),
            ("draw", chart::colour(palette::DRAW.fill)),
            ("second player wins", chart::colour(palette::LOSE.ink)),
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
                .draw_series(bars)?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
        }
        Ok(())
    })
}
