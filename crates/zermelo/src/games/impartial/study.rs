//! The heap games' study: the Grundy sequence of a single-heap game (subtraction, octal)
//! by heap size, with its proven preperiod, period and pattern, as text, JSON and a plot.

use std::time::Duration;

use plotters::prelude::*;

use super::grundy::{GrundyReport, RuleReport, MAX_TO, SHOWN};
use super::grundy_report;
use super::values::GrundyValues;
use crate::chart::{self, Frame};
use crate::limits::Seconds;
use crate::picture::palette;
use crate::session::study::{document, Study, StudyArgs, StudyReport, PLOT};
use crate::session::Options;
use crate::solve::grundy::Periodicity;
use crate::spec::{Key, Preset, Values};
use crate::{Error, Spec};

/// The most heap sizes a plot shows; longer ranges are thinned.
const PLOT_POINTS: usize = 4_000;

/// The last heap size valued.
const TO: Key = Key {
    name: "to",
    values: Values::Int {
        lo: 0,
        hi: MAX_TO,
        default: Preset::Else("grow until a period is proven"),
    },
    also: None,
    help: "the last heap size valued",
};

/// How often an octal game's values computed with `to` are saved.
const SAVE_EVERY: Key = Key {
    name: "save_every",
    values: Values::Real {
        lo: Seconds::SAVE.least(),
        hi: Seconds::SAVE.most(),
        default: 300.0,
    },
    also: None,
    help: "octal games with `to`: seconds between saves of the values computed",
};

/// The study `zermelo grundy` runs.
pub const GRUNDY: Study = Study {
    name: "grundy",
    summary: "the Grundy sequence of a heap game by heap size, with its proven period",
    keys: &[TO, SAVE_EVERY],
    takes: |spec| spec.parse::<Spec>().is_ok(),
    run,
};

/// The Grundy report of `spec` (reading saved values from the data folder of `opts`, and
/// with `to`, saving an octal game's values there every `save_every`, when stopped and at
/// the end), with its plot when `plot` is given.
fn run(spec: &str, args: &StudyArgs, opts: &Options) -> Result<StudyReport, Error> {
    let spec: Spec = spec.parse()?;
    let to = args.int_given(&TO)?;
    let every = args.real(&SAVE_EVERY)?;
    let report = match grundy_report(&spec, to, Some(Duration::from_secs_f64(every)), opts) {
        Err(Error::Cancelled) if opts.save => {
            return Err(Error::Unsupported(
                "stopped before the end: the values computed are saved in the data folder, and the same command goes on from them".into(),
            ))
        }
        report => report?,
    };
    let mut text = rule_text(&report) + &computed_text(&report);
    let svg = match args.text(&PLOT) {
        Some(file) => {
            text += &format!("plot: {file}\n");
            let s = &report.series;
            Some(draw(&s.title, &s.values, s.shape, s.what)?)
        }
        None => None,
    };
    text += &format!("time: {:.3} s\n", report.seconds);
    let s = &report.series;
    Ok(StudyReport {
        text,
        json: document(GRUNDY.name, &report)?,
        csv: None,
        svg,
        series: Some(serde_json::json!({
            "title": s.title,
            "values": s.values.head(s.values.len()),
            "what": s.what,
        })),
    })
}

/// The lines of the report that its kind of rule adds.
fn rule_text(report: &GrundyReport) -> String {
    match &report.rule {
        RuleReport::Subtraction(s) => {
            let mut text = format!("{} ({} play)\n", report.game, s.rule);
            text += &format!("outcomes n = 0..{}: {}\n", s.outcomes.len() - 1, s.outcomes);
            text += &shape_text(
                "win/loss table",
                shape(report.preperiod, report.period),
                report.computed_to,
                &report.proof,
            );
            if let Some(p) = &s.pattern {
                let more = if p.len() > SHOWN {
                    format!(" … ({} letters)", p.len())
                } else {
                    String::new()
                };
                text += &format!("pattern: {}{more}\n", &p[..p.len().min(SHOWN)]);
            }
            if let Some(g) = &s.grundy {
                text += &format!("Grundy values: {}\n", show(&g.start, g.grundy_computed_to + 1));
                text += &shape_text(
                    "Grundy sequence",
                    shape(g.grundy_preperiod, g.grundy_period),
                    g.grundy_computed_to,
                    &report.proof,
                );
                if let Some(p) = &g.grundy_pattern {
                    text += &format!("Grundy pattern: {}\n", show(p, p.len()));
                }
            }
            text
        }
        RuleReport::Octal(o) => {
            let name = o.name.map_or(String::new(), |n| format!(" ({n})"));
            let mut text = format!("octal game {}{name}\n", o.code);
            text += &format!("Grundy values: {}\n", show(&o.start, report.computed_to + 1));
            text += &shape_text(
                "sequence",
                shape(report.preperiod, report.period),
                report.computed_to,
                &report.proof,
            );
            if let Some(p) = &o.pattern {
                text += &format!("pattern: {}\n", show(p, p.len()));
            }
            if let Some(r) = &o.rare {
                let heaps: Vec<String> = r.first.iter().map(|a| a.to_string()).collect();
                let more = if r.count > r.first.len() { " …" } else { "" };
                text += &format!(
                    "rare heaps: {} ({}{more}); value mask {}{}\n",
                    r.count,
                    heaps.join(" "),
                    r.split.mask,
                    if r.split.parity { " and heap parity" } else { "" }
                );
            }
            text
        }
    }
}

/// The periodicity a report's preperiod and period describe.
fn shape(preperiod: Option<usize>, period: Option<usize>) -> Option<Periodicity> {
    Some(Periodicity {
        preperiod: preperiod?,
        period: period?,
    })
}

/// The first [`SHOWN`] of a sequence of `len` values joined by spaces, with an ellipsis
/// for the rest.
fn show(values: &[u32], len: usize) -> String {
    let shown: Vec<String> = values.iter().take(SHOWN).map(u32::to_string).collect();
    let more = if len > SHOWN {
        format!(" … ({len} values)")
    } else {
        String::new()
    };
    shown.join(" ") + &more
}

/// The "computed to" line: how far the values go, and how many came from the recurrence;
/// where they came from, and where they were saved.
fn computed_text(report: &GrundyReport) -> String {
    let last = report.computed_to;
    let computed = if report.recurrence_to == last {
        format!("computed to: n = {last}\n")
    } else {
        format!(
            "computed to: n = {last} (n <= {} by the recurrence, the rest from the proven period)\n",
            report.recurrence_to
        )
    };
    let source = match report.resumed_from {
        Some(from) => format!(
            "{} (n <= {} read, the rest computed now)",
            report.source,
            from - 1
        ),
        None => report.source.to_string(),
    };
    let saved = report
        .saved
        .as_ref()
        .map_or(String::new(), |path| format!("saved: {path}\n"));
    format!("{computed}source: {source}\n{saved}")
}

/// A line saying what was proven, over heaps up to `last`.
fn shape_text(what: &str, shape: Option<Periodicity>, last: usize, why: &str) -> String {
    match shape {
        Some(s) => format!(
            "{what}: preperiod {}, period {} (proven: {why})\n",
            s.preperiod, s.period
        ),
        None => format!("{what}: not periodic up to n = {last}\n"),
    }
}

/// `values` against the heap size as SVG, one period after the preperiod shaded.
fn draw(title: &str, values: &GrundyValues, shape: Option<Periodicity>, what: &str) -> Result<String, Error> {
    let end = match shape {
        Some(s) => (s.preperiod + 3 * s.period).max(60),
        None => values.len(),
    }
    .min(values.len());
    // Long ranges are thinned to every `stride`-th heap.
    let stride = end.div_ceil(PLOT_POINTS).max(1);
    let shown = values.iter().take(end);
    // Headroom above the values for the legend.
    let top = f64::from(shown.clone().max().unwrap_or(0)) * 1.3 + 1.5;
    let frame = Frame {
        size: (1200, 500),
        title,
        title_size: 22,
        legend: SeriesLabelPosition::UpperLeft,
        legend_opacity: 0.8,
    };
    frame.svg(-0.5f64..end as f64 - 0.5, 0f64..top, |chart| {
        chart
            .configure_mesh()
            .x_desc("heap size n")
            .y_desc(what)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()?;
        if let Some(s) = shape {
            let (from, to) = (s.preperiod as f64 - 0.5, (s.preperiod + s.period) as f64 - 0.5);
            let shade = chart::colour(palette::PERIOD);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(from, 0.0), (to.min(end as f64 - 0.5), top)],
                    shade.filled(),
                )))?
                .label(format!(
                    "one period ({} values) after the preperiod ({})",
                    s.period, s.preperiod
                ))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], shade.filled()));
        }
        let points = shown
            .enumerate()
            .step_by(stride)
            .map(|(n, g)| (n as f64, f64::from(g)));
        let ink = chart::colour(palette::SERIES);
        chart.draw_series(LineSeries::new(points.clone(), ink.mix(0.4)))?;
        chart
            .draw_series(points.map(|p| Circle::new(p, 2, ink.filled())))?
            .label(what)
            .legend(move |(x, y)| Circle::new((x + 7, y), 3, ink.filled()));
        Ok(())
    })
}
