//! Charts as SVG text, drawn with plotters in the colours of [`crate::picture::palette`]:
//! the page, the axes' room, the caption and the legend that every chart of the library
//! (a report's forgiveness, a Grundy sequence, a sweep of boards) shares.

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::picture::palette;
use crate::Error;

/// A chart's drawing area, x and y both numbers.
pub type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Why drawing on a chart failed.
pub type Failure = DrawingAreaErrorKind<std::io::Error>;

/// How a chart is laid out: its size in pixels, its caption and the caption's size, and
/// where its legend goes (and how opaque the legend's background is).
pub struct Frame<'t> {
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// The caption over the chart.
    pub title: &'t str,
    /// The caption's font size in pixels.
    pub title_size: u32,
    /// Where the legend goes.
    pub legend: SeriesLabelPosition,
    /// How opaque the legend's white background is, from 0 to 1.
    pub legend_opacity: f64,
}

impl Frame<'_> {
    /// The chart of `x` against `y` as SVG text: a white page with the caption and room
    /// for the axes' labels, `draw` drawing the mesh and the series, then the legend of
    /// every series labelled.
    pub fn svg(
        self,
        x: Range<f64>,
        y: Range<f64>,
        draw: impl FnOnce(&mut Chart<'_, '_>) -> Result<(), Failure>,
    ) -> Result<String, Error> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, self.size).into_drawing_area();
            root.fill(&WHITE).map_err(failed)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(self.title, ("sans-serif", self.title_size))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(50)
                .build_cartesian_2d(x, y)
                .map_err(failed)?;
            draw(&mut chart).map_err(failed)?;
            chart
                .configure_series_labels()
                .position(self.legend)
                .background_style(WHITE.mix(self.legend_opacity))
                .border_style(BLACK)
                .draw()
                .map_err(failed)?;
            root.present().map_err(failed)?;
        }
        Ok(svg)
    }
}

/// The error of a chart that could not be drawn.
fn failed(e: Failure) -> Error {
    Error::Io(format!("drawing the chart: {e}"))
}

/// The plotters colour of a palette colour `#rrggbb`.
pub fn colour(hex: &str) -> RGBColor {
    let (r, g, b) = palette::rgb(hex);
    RGBColor(r, g, b)
}

/// The colour of seat `seat` (from 0), for its line in a chart.
pub fn seat(seat: usize) -> RGBColor {
    colour(palette::seat(seat))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(title: &str) -> Frame<'_> {
        Frame {
            size: (300, 200),
            title,
            title_size: 18,
            legend: SeriesLabelPosition::UpperLeft,
            legend_opacity: 0.8,
        }
    }

    #[test]
    fn a_chart_has_its_caption_its_series_and_their_legend() {
        let svg = frame("three points")
            .svg(0.0..3.0, 0.0..3.0, |chart| {
                chart.configure_mesh().draw()?;
                let points = (0..3).map(|i| Circle::new((f64::from(i), f64::from(i)), 3, seat(1).filled()));
                chart
                    .draw_series(points)?
                    .label("the diagonal")
                    .legend(|(x, y)| Circle::new((x, y), 3, seat(1).filled()));
                Ok(())
            })
            .unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("three points") && svg.contains("the diagonal"));
        // Three points and the legend's mark, in the second seat's colour.
        let fill = format!("fill=\"{}\"", palette::seat(1).to_uppercase());
        assert_eq!(svg.matches(&fill).count(), 4, "{svg}");
    }

    #[test]
    fn palette_colours_keep_their_channels() {
        assert_eq!(colour("#0072b2"), RGBColor(0, 0x72, 0xb2));
        assert_eq!(seat(0), colour(palette::SEATS[0]));
        assert_eq!(seat(palette::SEATS.len()), seat(0));
    }
}
