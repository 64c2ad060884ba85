//! Analyses of games: counting game trees and positions, Grundy sequences of heap games,
//! and the balance of Big Points' reduced boards.

pub mod balance;
pub mod count;
pub mod grundy;
pub mod sequence_db;
