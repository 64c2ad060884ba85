//! Analyses of games: counting game trees and positions, Grundy sequences of heap games.

pub mod count;
pub mod grundy;
