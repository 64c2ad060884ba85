//! The report's charts as SVG: each seat's forgiveness by ply, and the value along a key
//! of compensation.

use std::fmt::Write as _;

use super::page::esc;
use crate::analysis::report::Forgiveness;
use crate::chart::{self, Frame};
use crate::picture::palette::outcome;
use crate::session::report::Compensation;
use crate::Error;

/// Each seat's mean share of safe moves by ply as an SVG chart, one line per seat, in the
/// seats' colours of [`crate::picture::palette`].
pub fn forgiveness_svg(title: &str, f: &Forgiveness) -> Result<String, Error> {
    use plotters::prelude::*;
    let last = f.by_ply.iter().map(|r| r.ply).max().unwrap_or(0);
    let frame = Frame {
        size: (720, 360),
        title,
        title_size: 18,
        legend: SeriesLabelPosition::LowerLeft,
        legend_opacity: 0.8,
    };
    frame.svg(-0.5f64..f64::from(last) + 0.5, 0f64..1.05, |chart| {
        chart
            .configure_mesh()
            .x_desc("ply")
            .y_desc("share of moves that keep the value")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{:.0} %", y * 100.0))
            .draw()?;
        for (i, seat) in f.seats.iter().enumerate() {
            let colour = chart::seat(i);
            let points: Vec<(f64, f64)> = f
                .by_ply
                .iter()
                .filter(|r| r.seat == seat.seat)
                .map(|r| (f64::from(r.ply), r.keep))
                .collect();
            chart.draw_series(LineSeries::new(points.clone(), colour.mix(0.5)))?;
            chart
                .draw_series(points.into_iter().map(|p| Circle::new(p, 3, colour.filled())))?
                .label(seat.name.clone())
                .legend(move |(x, y)| Circle::new((x + 7, y), 3, colour.filled()));
        }
        Ok(())
    })
}

/// The settings of a key as a small bar chart: up for a first-player win, down for a loss,
/// a mark on the line for a draw; a quick win (or a large margin) a long bar.
pub fn compensation_svg(c: &Compensation) -> String {
    let n = c.solved.len().max(1);
    let (col, top, mid) = (44.0, 8.0, 60.0);
    let width = (col * n as f64 + 16.0).max(200.0);
    let height = 2.0 * mid - top + 18.0;
    let widest = c
        .solved
        .iter()
        .filter_map(|s| s.verdict.lead(0))
        .map(i32::unsigned_abs)
        .max()
        .unwrap_or(1)
        .max(1);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" \
         role=\"img\" aria-label=\"the value along {key}\" font-family=\"system-ui,sans-serif\" font-size=\"11\">\
         <line x1=\"4\" y1=\"{mid}\" x2=\"{}\" y2=\"{mid}\" stroke=\"#888\"/>",
        width - 4.0,
        key = esc(&c.key)
    );
    for (i, s) in c.solved.iter().enumerate() {
        let v = &s.verdict;
        let strength = match (v.lead(0), v.remoteness) {
            (Some(m), _) => 0.25 + 0.75 * f64::from(m.unsigned_abs()) / f64::from(widest),
            (None, Some(r)) => 1.0 / (1.0 + 0.08 * f64::from(r)),
            (None, None) => 1.0,
        };
        // A first-player win rises (SVG counts y downwards), a loss falls.
        let sign = v.value.map_or(0.0, |c| -f64::from(c.sign()));
        let tint = outcome(v.value);
        let x = 8.0 + col * i as f64;
        let len = (mid - top) * strength;
        let (y, h) = if sign < 0.0 {
            (mid - len, len)
        } else if sign > 0.0 {
            (mid, len)
        } else {
            (mid - 4.0, 8.0)
        };
        let _ = write!(
            svg,
            "<g><title>{key}={setting}: {words}</title><rect x=\"{x}\" y=\"{y:.1}\" width=\"{w}\" \
             height=\"{h:.1}\" fill=\"{fill}\" stroke=\"{ink}\"/>\
             <text x=\"{cx}\" y=\"{ty}\" text-anchor=\"middle\">{setting}</text></g>",
            key = esc(&c.key),
            setting = esc(&s.setting),
            words = esc(&v.words()),
            w = col - 10.0,
            fill = tint.fill,
            ink = tint.ink,
            cx = x + (col - 10.0) / 2.0,
            ty = height - 8.0,
        );
    }
    svg + "</svg>\n"
}
