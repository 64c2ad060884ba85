//! The heap games' catalog entries: Nim, subtraction games, octal games and their sums.

use super::{nim, octal, study, subtraction, sum};
use crate::games::Entry;

/// Nim.
pub const NIM: Entry = Entry {
    info: &nim::INFO,
    open: &super::open,
    examples: &["nim:heaps=1/2/3", "nim:heaps=2/3,misere=true"],
    solvers: &[],
    studies: &[],
};

/// Subtraction games, with their Grundy sequences.
pub const SUBTRACTION: Entry = Entry {
    info: &subtraction::INFO,
    open: &super::open,
    examples: &["subtraction:set=1/2/3,n=9"],
    solvers: &[],
    studies: &[study::GRUNDY],
};

/// Octal games, with their Grundy sequences.
pub const OCTAL: Entry = Entry {
    info: &octal::INFO,
    open: &super::open,
    examples: &["octal:code=0.77,heaps=6"],
    solvers: &[],
    studies: &[study::GRUNDY],
};

/// Sums of an octal game's heaps and Nim heaps.
pub const SUM: Entry = Entry {
    info: &sum::INFO,
    open: &super::open,
    examples: &["sum:code=0.77,heaps=3,nim=2"],
    solvers: &[],
    studies: &[],
};
