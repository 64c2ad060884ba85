//! Analyses of games: counting game trees and positions.

pub mod count;
