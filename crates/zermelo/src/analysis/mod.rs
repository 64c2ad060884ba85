//! Analyses of games: counting game trees and positions, and the balance of Big Points'
//! reduced boards.

pub mod balance;
pub mod count;
