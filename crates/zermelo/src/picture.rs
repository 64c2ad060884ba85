//! Pictures of positions for boards on screen: shapes on a plane measured in board
//! units (x to the right, y downwards), some of which are a move: clicking the shape plays
//! it. A front end draws every game's picture the same way, knowing no game.

use serde::{Deserialize, Serialize};

use crate::class::Class;

/// What a shape is drawn as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A board square: the rectangle (x, y, w, h).
    Cell,
    /// A piece, pawn, token or disc: a circle filling the rectangle (x, y, w, h).
    Piece,
    /// A small point at (x, y).
    Dot,
    /// A segment from (x, y) to (x + w, y + h).
    Line,
    /// Text centred in the rectangle (x, y, w, h).
    Text,
    /// A tile laid on the board, such as a domino: a solid rounded rectangle (x, y, w, h),
    /// one shape however many squares it covers.
    Tile,
}

/// One shape of a picture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Shape {
    /// How it is drawn.
    pub kind: Kind,
    /// Left edge (or the start of a line).
    pub x: f64,
    /// Top edge (or the start of a line).
    pub y: f64,
    /// Width (or the line's run to the right).
    pub w: f64,
    /// Height (or the line's run downwards).
    pub h: f64,
    /// Text written on it.
    pub label: Option<String>,
    /// The seat it belongs to (a player's piece, line or box), if any.
    pub owner: Option<u8>,
    /// A colour the game names it by (`red`, `green`, ...), if any.
    pub color: Option<String>,
    /// The move that clicking it plays, in the game's notation.
    #[serde(rename = "move")]
    pub play: Option<String>,
}

impl Shape {
    /// A shape of `kind` on the rectangle (x, y, w, h), with nothing else set.
    pub fn new(kind: Kind, x: f64, y: f64, w: f64, h: f64) -> Self {
        Shape {
            kind,
            x,
            y,
            w,
            h,
            label: None,
            owner: None,
            color: None,
            play: None,
        }
    }

    /// The same shape, written `label`.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// The same shape, belonging to seat `owner`.
    pub fn owner(mut self, owner: u8) -> Self {
        self.owner = Some(owner);
        self
    }

    /// The same shape, in the game's colour `color`.
    pub fn color(mut self, color: impl Into<String>) -> Self {
        self.color = Some(color.into());
        self
    }

    /// The same shape, playing `play` when clicked.
    pub fn plays(mut self, play: impl Into<String>) -> Self {
        self.play = Some(play.into());
        self
    }
}

/// A position drawn as shapes on a `width` × `height` plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Picture {
    /// Width in board units.
    pub width: f64,
    /// Height in board units.
    pub height: f64,
    /// The shapes, drawn in order.
    pub shapes: Vec<Shape>,
    /// Lines to show with the picture: what its shapes mean and what clicking them does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A board of `cols` × `rows` unit squares with its column letters below and its row
/// numbers (1 at the bottom) on the left: the frame grid games draw their cells in.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    /// Columns, named `a`, `b`, ... from the left.
    pub cols: usize,
    /// Rows, numbered from 1 at the bottom.
    pub rows: usize,
}

impl Grid {
    /// The square of column `col` and row `row` (both from 0, row 0 at the bottom).
    pub fn square(&self, kind: Kind, col: usize, row: usize) -> Shape {
        Shape::new(kind, 1.0 + col as f64, (self.rows - 1 - row) as f64, 1.0, 1.0)
    }

    /// The picture of `shapes` on the grid, with its labels.
    pub fn picture(&self, mut shapes: Vec<Shape>) -> Picture {
        let (cols, rows) = (self.cols as f64, self.rows as f64);
        for col in 0..self.cols {
            let letter = char::from(b'a' + col as u8).to_string();
            shapes.push(Shape::new(Kind::Text, 1.0 + col as f64, rows, 1.0, 1.0).label(letter));
        }
        for row in 0..self.rows {
            shapes.push(
                Shape::new(Kind::Text, 0.0, (self.rows - 1 - row) as f64, 1.0, 1.0)
                    .label((row + 1).to_string()),
            );
        }
        Picture {
            width: cols + 1.0,
            height: rows + 1.0,
            shapes,
            notes: Vec::new(),
        }
    }
}

/// How a move is marked on a picture drawn as SVG: its value for the player making it
/// (`win`, `draw`, `lose`, or none) and a few characters to write on it (`3`, `+2`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mark {
    /// Who wins by the move; `None` when unknown.
    pub value: Option<Class>,
    /// What is written on the move.
    pub text: String,
}

/// The colours every front end draws with (the board on the page, the pictures, the
/// report's charts), from the Okabe–Ito palette, which readers with any common colour
/// vision deficiency tell apart: outcomes blue (win), grey (draw) and vermillion (lose);
/// seats in hues none of those resembles.
pub mod palette {
    use serde::Serialize;

    use crate::class::Class;

    /// How an outcome is drawn: `ink` for marks, lines and text, `fill` behind them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    pub struct Tint {
        /// Marks, lines and text.
        pub ink: &'static str,
        /// Areas.
        pub fill: &'static str,
    }

    /// A win for the player concerned.
    pub const WIN: Tint = Tint {
        ink: "#0072b2",
        fill: "#9ccbec",
    };
    /// A draw.
    pub const DRAW: Tint = Tint {
        ink: "#6b6b6b",
        fill: "#d0d0d0",
    };
    /// A loss for the player concerned.
    pub const LOSE: Tint = Tint {
        ink: "#d55e00",
        fill: "#f4b482",
    };
    /// A value not known.
    pub const UNKNOWN: Tint = Tint {
        ink: "#999999",
        fill: "#eeede8",
    };

    /// The colours of the seats, for shapes a seat owns and a seat's line in a chart:
    /// bluish green, reddish purple, yellow, black and brown.
    pub const SEATS: [&str; 5] = ["#009e73", "#cc79a7", "#e6c700", "#333333", "#8d6e4c"];

    /// The names of the seats' colours, for a legend.
    pub const SEAT_NAMES: [&str; 5] = ["bluish green", "reddish purple", "yellow", "black", "brown"];

    /// Text written on a win's fill.
    pub const ON_WIN: &str = "#0b2d47";
    /// Text written on a loss's fill.
    pub const ON_LOSE: &str = "#4a2000";

    /// The colours of the outcome classes of combinatorial game theory, for a map coloured
    /// by class: L (Left wins) blue, R (Right wins) orange, N (the next player wins) green,
    /// P (the previous player wins) purple.
    pub const CLASSES: [(char, &str); 4] = [
        ('L', "#2e6eb4"),
        ('R', "#d66038"),
        ('N', "#3c9650"),
        ('P', "#8250a0"),
    ];

    /// The colour of a chart's one series of numbers (a Grundy sequence): blue.
    pub const SERIES: &str = "#0000ff";

    /// The shade behind a span a chart marks (a sequence's period): pale amber.
    pub const PERIOD: &str = "#ffe1a0";

    /// How strongly a cell a seat owns is tinted by its colour (an empty cell a move may
    /// go to takes its value's fill at full strength instead).
    pub const OWNED_OPACITY: f64 = 0.3;

    /// The tint of `value`, unknown for `None`.
    pub fn outcome(value: Option<Class>) -> Tint {
        match value {
            Some(Class::Win) => WIN,
            Some(Class::Draw) => DRAW,
            Some(Class::Lose) => LOSE,
            None => UNKNOWN,
        }
    }

    /// The colour of seat `seat` (from 0).
    pub fn seat(seat: usize) -> &'static str {
        SEATS[seat % SEATS.len()]
    }

    /// The colour of a game's colour name (its own when not a name). The hues are moved
    /// off the outcome colours, so that a game's red or blue piece never reads as a
    /// losing or winning move: red is a rose, blue a violet-blue, orange an amber, brown
    /// a dark brown. Grey, black and white stay as named: they have no hue to move.
    pub fn named(color: &str) -> &str {
        match color {
            "red" => "#c0265e",
            "green" => "#35a853",
            "blue" => "#3b3bc4",
            "yellow" => "#f2c12e",
            "white" => "#ffffff",
            "black" => "#333333",
            "orange" => "#e69f00",
            "purple" => "#9b59b6",
            "brown" => "#7a4a1e",
            "grey" | "gray" => "#999999",
            other => other,
        }
    }

    /// The red, green and blue of a colour `#rrggbb` (black for anything else), for
    /// plots.
    pub fn rgb(hex: &str) -> (u8, u8, u8) {
        let part = |i: usize| {
            hex.get(i..i + 2)
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .unwrap_or(0)
        };
        (part(1), part(3), part(5))
    }

    /// The palette as one JSON object, for a page's script: `win`, `draw`, `lose` and
    /// `unknown` tints, `seats`, `owned_opacity` and `named` colours.
    pub fn json() -> serde_json::Value {
        let names = [
            "red", "green", "blue", "yellow", "white", "black", "orange", "purple", "brown", "grey", "gray",
        ];
        let named: serde_json::Map<String, serde_json::Value> =
            names.iter().map(|n| (n.to_string(), named(n).into())).collect();
        serde_json::json!({
            "win": WIN, "draw": DRAW, "lose": LOSE, "unknown": UNKNOWN,
            "seats": SEATS, "owned_opacity": OWNED_OPACITY, "named": named,
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// A colour `#rrggbb` in CIELAB (D65).
        fn lab(hex: &str) -> [f64; 3] {
            let (r, g, b) = rgb(hex);
            let linear = |c: u8| {
                let c = f64::from(c) / 255.0;
                if c <= 0.04045 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            };
            let (r, g, b) = (linear(r), linear(g), linear(b));
            let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
            let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
            let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
            let f = |t: f64| {
                if t > 0.008856 {
                    t.cbrt()
                } else {
                    7.787 * t + 16.0 / 116.0
                }
            };
            [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
        }

        /// The CIE76 colour difference: about 2.3 is just noticeable, 30 plainly another colour.
        fn difference(a: &str, b: &str) -> f64 {
            let (a, b) = (lab(a), lab(b));
            a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
        }

        #[test]
        fn no_named_hue_looks_like_an_outcome() {
            let outcomes = [WIN, DRAW, LOSE].into_iter().flat_map(|t| [t.ink, t.fill]);
            let outcomes: Vec<&str> = outcomes.collect();
            for name in ["red", "green", "blue", "yellow", "orange", "purple", "brown"] {
                for outcome in &outcomes {
                    let d = difference(named(name), outcome);
                    assert!(d >= 30.0, "{name} ({}) is {d:.1} from {outcome}", named(name));
                }
            }
            // The test tells colours apart as it should.
            assert!(difference("#f08a24", LOSE.ink) < 30.0);
            assert!(difference(named("black"), "#000000") < 30.0);
        }
    }
}

/// `text` made safe inside XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Picture {
    /// A typical cell size, so that lines and dots look alike whatever the game's units.
    fn unit(&self) -> f64 {
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied()
        };
        let cells = self
            .shapes
            .iter()
            .filter(|s| matches!(s.kind, Kind::Cell | Kind::Piece))
            .map(|s| s.w.min(s.h))
            .filter(|&v| v > 0.0)
            .collect();
        let lines = self
            .shapes
            .iter()
            .filter(|s| s.kind == Kind::Line)
            .map(|s| s.w.hypot(s.h))
            .filter(|&v| v > 0.0)
            .collect();
        median(cells)
            .or_else(|| median(lines))
            .unwrap_or(self.width.max(self.height).max(1.0) / 8.0)
    }

    /// The picture as a standalone SVG document `pixels` wide, each move shape marked by
    /// `mark` (its value's colour and text); unmarked moves are drawn as open places. The
    /// picture's notes are written under it.
    pub fn svg(&self, pixels: u32, mark: impl Fn(&str) -> Option<Mark>) -> String {
        use std::fmt::Write;
        let u = self.unit();
        let pad = u * 0.25;
        // Each note a line of text under the picture, narrowed to fit its width.
        let note_line = u * 0.6;
        let w = self.width + 2.0 * pad;
        let h = self.height + 2.0 * pad + note_line * self.notes.len() as f64;
        let height = (f64::from(pixels) * h / w.max(f64::EPSILON)).round();
        let mut out = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{pixels}" height="{height}" viewBox="{} {} {w} {h}" font-family="sans-serif">"#,
            -pad, -pad
        );
        let mut notes = String::new();
        for s in &self.shapes {
            let marked = s.play.as_deref().and_then(&mark);
            let known = marked.as_ref().and_then(|m| m.value);
            let palette::Tint { ink: ring, fill } = palette::outcome(known);
            let colour = s
                .color
                .as_deref()
                .map(palette::named)
                .or_else(|| s.owner.map(|o| palette::seat(o as usize)));
            let (cx, cy) = (s.x + s.w / 2.0, s.y + s.h / 2.0);
            if let Some(m) = &s.play {
                let _ = write!(out, "<g><title>{}</title>", escape(m));
            }
            let _ = match s.kind {
                Kind::Cell => {
                    // A move's value shows as the fill; unknown, the shape keeps its colour.
                    let (fill, opacity) = match (known, colour) {
                        (Some(_), _) => (fill, 1.0),
                        (None, Some(c)) => (c, palette::OWNED_OPACITY),
                        (None, None) if marked.is_some() => (fill, 1.0),
                        (None, None) => ("#f3efe3", 1.0),
                    };
                    write!(
                        out,
                        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" fill-opacity="{opacity}" stroke="#8a8577" stroke-width="{}"/>"##,
                        s.x,
                        s.y,
                        s.w,
                        s.h,
                        u * 0.03
                    )
                }
                Kind::Tile => write!(
                    out,
                    r##"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}" stroke="#333" stroke-width="{}"/>"##,
                    s.x,
                    s.y,
                    s.w,
                    s.h,
                    u * 0.15,
                    colour.unwrap_or("#8a8577"),
                    u * 0.04
                ),
                Kind::Piece => {
                    let r = s.w.min(s.h) / 2.0;
                    let (stroke, width) = match marked {
                        Some(_) => (ring, r * 0.2),
                        None => ("#333", r * 0.06),
                    };
                    write!(
                        out,
                        r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="{}" stroke="{stroke}" stroke-width="{width}"/>"#,
                        r * 0.92,
                        colour.unwrap_or("#ddd")
                    )
                }
                Kind::Dot => write!(
                    out,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{}"/>"#,
                    s.x,
                    s.y,
                    u * 0.08,
                    if marked.is_some() {
                        ring
                    } else {
                        colour.unwrap_or("#333")
                    }
                ),
                Kind::Line => {
                    let (stroke, width, dash) = match (&s.play, &marked) {
                        (Some(_), Some(_)) => (ring, 0.1, String::new()),
                        (Some(_), None) => (
                            "#c9c4b6",
                            0.06,
                            format!(r#" stroke-dasharray="{} {}""#, u * 0.12, u * 0.08),
                        ),
                        (None, _) => (colour.unwrap_or("#333"), 0.1, String::new()),
                    };
                    write!(
                        out,
                        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}" stroke-linecap="round"{dash}/>"#,
                        s.x,
                        s.y,
                        s.x + s.w,
                        s.y + s.h,
                        u * width
                    )
                }
                Kind::Text if marked.is_some() => write!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{fill}"/>"#,
                    s.x,
                    s.y,
                    s.w,
                    s.h,
                    u * 0.1
                ),
                Kind::Text => Ok(()),
            };
            let noted = marked.as_ref().is_some_and(|m| !m.text.is_empty());
            if let Some(label) = s.label.as_deref().filter(|l| !l.is_empty()) {
                let (size, y) = label_place(s, u, label, noted);
                let dark = matches!(s.kind, Kind::Piece | Kind::Tile)
                    && colour.is_some_and(|c| !["#ffffff", "#f2c12e", palette::SEATS[2]].contains(&c));
                let ink = match (s.kind, colour) {
                    (Kind::Text, Some(c)) => c,
                    _ if dark => "#fff",
                    _ => "#222",
                };
                let _ = write!(
                    out,
                    r#"<text x="{cx}" y="{y}" font-size="{size}" text-anchor="middle" dominant-baseline="central" fill="{ink}">{}</text>"#,
                    escape(label)
                );
            }
            if s.play.is_some() {
                out += "</g>";
            }
            // Each move's mark is written last, over every shape, in the colour of its value.
            if let Some(m) = marked.filter(|_| noted) {
                let (x, y, size) = mark_place(s, u, s.label.as_deref().is_some_and(|l| !l.is_empty()));
                let _ = write!(
                    notes,
                    r##"<text x="{x}" y="{y}" font-size="{size}" text-anchor="middle" dominant-baseline="central" fill="{ring}" stroke="#fff" stroke-width="{}" paint-order="stroke" font-weight="bold">{}</text>"##,
                    u * 0.06,
                    escape(&m.text)
                );
            }
        }
        out += &notes;
        for (i, note) in self.notes.iter().enumerate() {
            let size = (u * 0.4).min(self.width * 0.98 / (0.55 * note.chars().count().max(1) as f64));
            let _ = write!(
                out,
                r##"<text x="0" y="{}" font-size="{size}" dominant-baseline="central" fill="#444">{}</text>"##,
                self.height + pad + note_line * (i as f64 + 0.5),
                escape(note)
            );
        }
        out += "</svg>";
        out
    }
}

/// The font size and the y of the label of `s`: sized by the shape's height, narrowed so
/// the whole label fits its width, and raised when a mark is written under it.
fn label_place(s: &Shape, u: f64, label: &str, noted: bool) -> (f64, f64) {
    let tall = match s.kind {
        Kind::Text => (s.h * 0.7).min(u * 0.6),
        _ => s.w.min(s.h) * 0.5,
    };
    let mut size = tall.min(s.w * 0.95 / (0.6 * label.chars().count() as f64));
    let mut y = s.y + s.h / 2.0;
    if noted && s.kind != Kind::Line && s.kind != Kind::Dot {
        size = size.min(s.h * 0.42);
        y = s.y + s.h * 0.36;
    }
    (size, y)
}

/// Where the mark of the move shape `s` is written, and its font size: under its label
/// when it is `labelled`, else in its middle (the middle of a line or at a dot).
fn mark_place(s: &Shape, u: f64, labelled: bool) -> (f64, f64, f64) {
    let x = s.x + s.w / 2.0;
    match s.kind {
        Kind::Line | Kind::Dot => (x, s.y + s.h / 2.0, u * 0.32),
        _ if labelled => (x, s.y + s.h * 0.78, (u * 0.32).min(s.h * 0.36)),
        _ => (x, s.y + s.h / 2.0, (u * 0.4).min(s.h * 0.5)),
    }
}
