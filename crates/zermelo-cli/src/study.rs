//! `zermelo grundy`, the balance of a family that has a study of its own, and any other
//! study a game's catalog entry lists: found by name, run by the library, its report
//! printed and its CSV and SVG written where asked.

use std::path::Path;

use anyhow::{Context, Result};
use zermelo::catalog;
use zermelo::session::study::StudyArgs;
use zermelo::session::Options;

use crate::commands::cancel_on_ctrl_c;
use crate::report::Report;

/// Runs the study `name` of the game `spec` names with `args`, stopped by Ctrl-C; writes
/// its CSV to `csv` and its chart to `plot` when given.
pub fn run(
    spec: &str,
    name: &str,
    mut args: StudyArgs,
    csv: Option<&Path>,
    plot: Option<&Path>,
    mut opts: Options,
) -> Result<Report> {
    let study = catalog::study(spec, name)?;
    if let Some(path) = plot {
        args = args.with("plot", path.display());
    }
    opts.budget.cancel = Some(cancel_on_ctrl_c());
    let report = (study.run)(spec, &args, &opts)?;
    // A process that only worked for the leader of an MPI job has nothing to write.
    let csv = csv.filter(|_| opts.partition.leads());
    if let Some(path) = csv {
        let rows = report
            .csv
            .as_ref()
            .with_context(|| format!("the {name} study has no rows to write to {}", path.display()))?;
        std::fs::write(path, rows).with_context(|| format!("writing {}", path.display()))?;
    }
    if let (Some(path), Some(svg)) = (plot, &report.svg) {
        std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(Report {
        text: report.text,
        json: report.json,
    })
}

/// Whether the game a family's spec names has a balance study of its own that takes it
/// (the Big Points sweep), rather than the map of a family's members.
pub fn has_balance_study(spec: &str) -> bool {
    catalog::study(spec, "balance").is_ok()
}
