//! `zermelo study SPEC NAME KEY=VALUE…` and its aliases `zermelo grundy` and the balance
//! of a family that has a study of its own: the study found by name, its keys checked by
//! the library against the study's declaration, its report printed and its CSV and SVG
//! written where asked.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use zermelo::catalog;
use zermelo::session::study::{CSV, PLOT};
use zermelo::session::Options;

use crate::commands::cancel_on_ctrl_c;
use crate::report::Report;

/// `KEY=VALUE` arguments as pairs, with the files `csv` and `plot` given as flags.
pub fn given(
    keys: Vec<String>,
    csv: Option<PathBuf>,
    plot: Option<PathBuf>,
) -> Result<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    for arg in keys {
        let Some((key, value)) = arg.split_once('=') else {
            bail!("'{arg}' is not KEY=VALUE (`zermelo games` lists each study's keys)");
        };
        pairs.push((key.trim().to_string(), value.to_string()));
    }
    for (key, path) in [(&CSV, csv), (&PLOT, plot)] {
        if let Some(path) = path {
            pairs.push((key.name.to_string(), path.display().to_string()));
        }
    }
    Ok(pairs)
}

/// Runs the study `name` of the game `spec` names with its keys `given`, stopped by
/// Ctrl-C; writes its CSV and its chart to the files its `csv` and `plot` keys name.
pub fn run(spec: &str, name: &str, given: Vec<(String, String)>, mut opts: Options) -> Result<Report> {
    let study = catalog::study(spec, name)?;
    let args = study.args(given)?;
    opts.budget.cancel = Some(cancel_on_ctrl_c());
    let report = (study.run)(spec, &args, &opts)?;
    // A process that only worked for the leader of an MPI job has nothing to write.
    let csv = args.text(&CSV).filter(|_| opts.partition.leads());
    if let Some(path) = csv {
        let rows = report
            .csv
            .as_ref()
            .with_context(|| format!("the {name} study has no rows to write to {path}"))?;
        std::fs::write(path, rows).with_context(|| format!("writing {path}"))?;
    }
    if let (Some(path), Some(svg)) = (args.text(&PLOT), &report.svg) {
        std::fs::write(path, svg).with_context(|| format!("writing {path}"))?;
    }
    Ok(Report {
        text: report.text,
        json: report.json,
    })
}

/// Whether the game a family's spec names has a balance study of its own that takes it,
/// rather than the map of a family's members.
pub fn has_balance_study(spec: &str) -> bool {
    catalog::study(spec, "balance").is_ok()
}
