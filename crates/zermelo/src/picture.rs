//! Pictures of positions for boards on screen: shapes on a plane measured in board
//! units (x to the right, y downwards), some of which are a move: clicking the shape plays
//! it. A front end draws every game's picture the same way, knowing no game.

use serde::Serialize;

/// What a shape is drawn as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
}

/// One shape of a picture.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Picture {
    /// Width in board units.
    pub width: f64,
    /// Height in board units.
    pub height: f64,
    /// The shapes, drawn in order.
    pub shapes: Vec<Shape>,
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
        }
    }
}
