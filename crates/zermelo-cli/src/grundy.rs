//! `zermelo grundy`: the Grundy sequence of a heap game by heap size, with its proven
//! preperiod, period and pattern, and a plot.

use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use plotters::prelude::*;
use serde_json::{json, Value as Json};
use zermelo::games::impartial::octal::GrundySequence;
use zermelo::games::impartial::{subtraction, HeapGame, Octal, Rule};
use zermelo::solve::grundy::{find_period, Periodic, Periodicity};
use zermelo::Spec;

use crate::commands::Report;

/// Without `--to`, subtraction tables grow by doubling up to this length.
const SUBTRACTION_CAP: usize = 1 << 24;
/// Without `--to`, octal sequences grow by doubling up to this length...
const OCTAL_CAP: usize = 1 << 20;
/// ...and stop doubling once a step took this long (the next one would take about four
/// times as long when the rare-values method does not apply).
const OCTAL_STEP_BUDGET: Duration = Duration::from_secs(2);
/// The most values `--to` may ask for.
const MAX_TO: u64 = 100_000_000;
/// Values shown at the start of the sequence.
const SHOWN: usize = 100;
/// The most heap sizes a plot shows; longer ranges are thinned.
const PLOT_POINTS: usize = 4_000;

/// A computed sequence and the period it proves, if any.
pub struct Sequence<T> {
    /// The values of heaps `0..values.len()`.
    pub values: Vec<T>,
    /// How many of them the recurrence computed; the rest follow from the proven period.
    pub direct: usize,
    /// The proven periodicity.
    pub shape: Option<Periodicity>,
}

impl<T: Clone> Sequence<T> {
    /// Grows a sequence by doubling from `first` until `step(len)` (which computes `len`
    /// values and looks for a proven period) succeeds, up to `to + 1` values when `to` is
    /// given and to `cap` otherwise (or until a step takes longer than `budget`). With
    /// `to`, the values after a proven period are filled in from it.
    fn grow(
        to: Option<usize>,
        first: usize,
        cap: usize,
        budget: Option<Duration>,
        mut step: impl FnMut(usize) -> (Vec<T>, Option<Periodicity>),
    ) -> Self {
        let limit = to.map_or(cap, |t| t + 1);
        let budget = budget.filter(|_| to.is_none()).unwrap_or(Duration::MAX);
        let mut len = first.min(limit);
        loop {
            let started = Instant::now();
            let (mut values, shape) = step(len);
            if shape.is_some() || len >= limit || started.elapsed() > budget {
                let direct = values.len();
                if let (Some(s), Some(to)) = (shape, to) {
                    let periodic = Periodic::new(&values, s);
                    values.extend((direct..=to).map(|n| periodic.at(n as u64).clone()));
                }
                return Sequence {
                    values,
                    direct,
                    shape,
                };
            }
            len = (2 * len).min(limit);
        }
    }

    /// The proven periodic extension.
    pub fn periodic(&self) -> Option<Periodic<T>> {
        self.shape.map(|s| Periodic::new(&self.values, s))
    }
}

/// The win/loss table of a subtraction game (true: the mover wins) and its period.
pub fn subtraction_outcomes(set: &[u64], misere: bool, to: Option<usize>) -> Sequence<bool> {
    Sequence::grow(to, 64, SUBTRACTION_CAP, None, |len| {
        let values = subtraction::outcomes(set, misere, len);
        let shape = find_period(&values, |pre, p| subtraction::proof_length(set, pre, p));
        (values, shape)
    })
}

/// The Grundy values of a subtraction game and their period.
pub fn subtraction_grundy(set: &[u64], to: Option<usize>) -> Sequence<u32> {
    Sequence::grow(to, 64, SUBTRACTION_CAP, None, |len| {
        let values = subtraction::grundy_values(set, len);
        let shape = find_period(&values, |pre, p| subtraction::proof_length(set, pre, p));
        (values, shape)
    })
}

/// The Grundy values of an octal game and the period Guy–Smith proves.
pub fn octal_grundy(code: &Octal, to: Option<usize>) -> Sequence<u32> {
    let mut values = GrundySequence::new(code, true);
    Sequence::grow(to, 1024, OCTAL_CAP, Some(OCTAL_STEP_BUDGET), |len| {
        values.extend_to(len);
        let shape = find_period(values.values(), |pre, p| code.proof_length(pre, p));
        (values.values().to_vec(), shape)
    })
}

/// "W"/"L" letters of a win/loss table.
pub fn letters(outcomes: &[bool]) -> String {
    outcomes.iter().map(|&w| if w { 'W' } else { 'L' }).collect()
}

/// Values joined by spaces, at most `max` of them, with an ellipsis for the rest.
fn show(values: &[u32], max: usize) -> String {
    let shown: Vec<String> = values.iter().take(max).map(u32::to_string).collect();
    let more = if values.len() > max {
        format!(" … ({} values)", values.len())
    } else {
        String::new()
    };
    shown.join(" ") + &more
}

/// Preperiod and period as JSON fields (null when none is proven).
fn shape_fields(shape: Option<Periodicity>) -> (Json, Json) {
    shape.map_or((Json::Null, Json::Null), |s| {
        (json!(s.preperiod), json!(s.period))
    })
}

/// The "computed to" line: how far the values go, and how many came from the recurrence.
fn computed_text<T>(seq: &Sequence<T>) -> String {
    let last = seq.values.len() - 1;
    if seq.direct == seq.values.len() {
        format!("computed to: n = {last}\n")
    } else {
        format!(
            "computed to: n = {last} (n <= {} by the recurrence, the rest from the proven period)\n",
            seq.direct - 1
        )
    }
}

/// A line saying what was proven.
fn shape_text(what: &str, shape: Option<Periodicity>, len: usize, why: &str) -> String {
    match shape {
        Some(s) => format!(
            "{what}: preperiod {}, period {} (proven: {why})\n",
            s.preperiod, s.period
        ),
        None => format!("{what}: not periodic up to n = {}\n", len - 1),
    }
}

/// The `grundy` report of `spec`, optionally plotted to `plot`.
pub fn report(spec: &Spec, to: Option<u64>, plot: Option<&str>) -> Result<Report> {
    let started = Instant::now();
    let game = HeapGame::from_spec(spec)?;
    if let Some(to) = to {
        if to > MAX_TO {
            bail!("--to {to} is out of range 0..={MAX_TO}");
        }
    }
    let to = to.map(|t| t as usize);
    let [rule] = game.parts() else {
        bail!("grundy needs a single heap game (subtraction or octal), not a sum");
    };
    let mut report = match rule {
        Rule::Subtraction(set) => subtraction_report(spec, set, game.misere(), to, plot)?,
        Rule::Octal(code) => octal_report(spec, code, to, plot)?,
        Rule::Nim => bail!("a Nim heap's Grundy value is its size; grundy needs subtraction or octal"),
    };
    let seconds = started.elapsed().as_secs_f64();
    report.json["seconds"] = json!(seconds);
    report.text += &format!("time: {seconds:.3} s\n");
    Ok(report)
}

fn subtraction_report(
    spec: &Spec,
    set: &[u64],
    misere: bool,
    to: Option<usize>,
    plot: Option<&str>,
) -> Result<Report> {
    let outcomes = subtraction_outcomes(set, misere, to);
    let len = outcomes.values.len();
    let why = format!(
        "two equal windows of {} entries",
        set.last().expect("a set has a move")
    );
    let pattern = outcomes.periodic().map(|p| letters(p.pattern()));
    let (pre, period) = shape_fields(outcomes.shape);
    let rule = if misere { "misere" } else { "normal" };
    let mut text = format!("{spec} ({rule} play)\n");
    text += &format!(
        "outcomes n = 0..{}: {}\n",
        SHOWN.min(len) - 1,
        letters(&outcomes.values[..SHOWN.min(len)])
    );
    text += &shape_text("win/loss table", outcomes.shape, len, &why);
    if let Some(p) = &pattern {
        let more = if p.len() > SHOWN {
            format!(" … ({} letters)", p.len())
        } else {
            String::new()
        };
        text += &format!("pattern: {}{more}\n", &p[..p.len().min(SHOWN)]);
    }
    let mut json = json!({
        "game": spec.to_string(), "rule": rule,
        "outcomes": letters(&outcomes.values[..SHOWN.min(len)]),
        "preperiod": pre, "period": period, "pattern": pattern,
        "computed_to": len - 1, "recurrence_to": outcomes.direct - 1, "proven": outcomes.shape.is_some(),
    });
    let plotted = if misere {
        let values: Vec<u32> = outcomes.values.iter().map(|&w| u32::from(w)).collect();
        (values, outcomes.shape, "win (1) or loss (0)")
    } else {
        let grundy = subtraction_grundy(set, to);
        let glen = grundy.values.len();
        let (gpre, gperiod) = shape_fields(grundy.shape);
        text += &format!("Grundy values: {}\n", show(&grundy.values, SHOWN));
        text += &shape_text("Grundy sequence", grundy.shape, glen, &why);
        if let Some(p) = grundy.periodic() {
            text += &format!("Grundy pattern: {}\n", show(p.pattern(), SHOWN));
        }
        json["start"] = json!(&grundy.values[..SHOWN.min(glen)]);
        json["grundy_preperiod"] = gpre;
        json["grundy_period"] = gperiod;
        json["grundy_pattern"] = json!(grundy.periodic().map(|p| p.pattern().to_vec()));
        json["grundy_computed_to"] = json!(glen - 1);
        json["grundy_recurrence_to"] = json!(grundy.direct - 1);
        json["proven"] = json!(outcomes.shape.is_some() && grundy.shape.is_some());
        (grundy.values, grundy.shape, "Grundy value")
    };
    text += &computed_text(&outcomes);
    if let Some(file) = plot {
        draw(file, &spec.to_string(), &plotted.0, plotted.1, plotted.2)?;
        text += &format!("plot: {file}\n");
    }
    Ok(Report { text, json })
}

fn octal_report(spec: &Spec, code: &Octal, to: Option<usize>, plot: Option<&str>) -> Result<Report> {
    let seq = octal_grundy(code, to);
    let len = seq.values.len();
    let name = code.name().map_or(String::new(), |n| format!(" ({n})"));
    let why = match seq.shape {
        Some(s) if code.splits() => format!(
            "Guy–Smith, g(n + {p}) = g(n) for {pre} <= n < 2*{pre} + {p} + {k}",
            p = s.period,
            pre = s.preperiod,
            k = code.last_digit()
        ),
        _ => format!("two equal windows of {} values", code.last_digit()),
    };
    let mut text = format!("octal game {code}{name}\n");
    text += &format!("Grundy values: {}\n", show(&seq.values, SHOWN));
    text += &shape_text("sequence", seq.shape, len, &why);
    let periodic = seq.periodic();
    if let Some(p) = &periodic {
        text += &format!("pattern: {}\n", show(p.pattern(), SHOWN));
    }
    text += &computed_text(&seq);
    let (pre, period) = shape_fields(seq.shape);
    let json = json!({
        "game": spec.to_string(), "code": code.to_string(), "name": code.name(),
        "start": &seq.values[..SHOWN.min(len)],
        "preperiod": pre, "period": period,
        "pattern": periodic.as_ref().map(|p| p.pattern().to_vec()),
        "computed_to": len - 1, "recurrence_to": seq.direct - 1, "proven": seq.shape.is_some(),
    });
    if let Some(file) = plot {
        draw(
            file,
            &format!("octal {code}{name}"),
            &seq.values,
            seq.shape,
            "Grundy value",
        )?;
        text += &format!("plot: {file}\n");
    }
    Ok(Report { text, json })
}

/// Plots `values` against the heap size as SVG, shading one period after the preperiod.
fn draw(file: &str, title: &str, values: &[u32], shape: Option<Periodicity>, what: &str) -> Result<()> {
    let end = match shape {
        Some(s) => (s.preperiod + 3 * s.period).max(60),
        None => values.len(),
    }
    .min(values.len());
    // Long ranges are thinned to every `stride`-th heap.
    let stride = end.div_ceil(PLOT_POINTS).max(1);
    let shown = &values[..end];
    // Headroom above the values for the legend.
    let top = f64::from(shown.iter().copied().max().unwrap_or(0)) * 1.3 + 1.5;
    let fail = |e: &dyn std::fmt::Display| anyhow!("plot {file}: {e}");
    let root = SVGBackend::new(file, (1200, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..end as f64 - 0.5, 0f64..top)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("heap size n")
        .y_desc(what)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| fail(&e))?;
    if let Some(s) = shape {
        let (from, to) = (s.preperiod as f64 - 0.5, (s.preperiod + s.period) as f64 - 0.5);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(from, 0.0), (to.min(end as f64 - 0.5), top)],
                RGBColor(255, 225, 160).filled(),
            )))
            .map_err(|e| fail(&e))?
            .label(format!(
                "one period ({} values) after the preperiod ({})",
                s.period, s.preperiod
            ))
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], RGBColor(255, 225, 160).filled()));
    }
    let points = shown
        .iter()
        .enumerate()
        .step_by(stride)
        .map(|(n, &g)| (n as f64, f64::from(g)));
    chart
        .draw_series(LineSeries::new(points.clone(), BLUE.mix(0.4)))
        .map_err(|e| fail(&e))?;
    chart
        .draw_series(points.map(|p| Circle::new(p, 2, BLUE.filled())))
        .map_err(|e| fail(&e))?
        .label(what)
        .legend(|(x, y)| Circle::new((x + 7, y), 3, BLUE.filled()));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
