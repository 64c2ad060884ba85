//! The games, one module each, and the registry that turns spec strings into games.

pub mod bigpoints;
pub mod dots;
pub mod impartial;
pub mod mnk;
pub mod pawns;

use crate::spec::{GameInfo, Spec};
use crate::Error;

/// Every game the registry knows.
pub fn registry() -> &'static [GameInfo] {
    &[
        mnk::TICTACTOE_INFO,
        mnk::INFO,
        impartial::nim::INFO,
        impartial::subtraction::INFO,
        impartial::octal::INFO,
        impartial::sum::INFO,
        bigpoints::INFO,
        pawns::INFO,
        dots::INFO,
    ]
}

/// The registry entry for `spec`'s game, or a clear error naming the known games.
pub fn info(spec: &Spec) -> Result<&'static GameInfo, Error> {
    registry().iter().find(|g| g.name == spec.name).ok_or_else(|| {
        let names: Vec<&str> = registry().iter().map(|g| g.name).collect();
        Error::Spec(format!(
            "unknown game '{}' (known: {})",
            spec.name,
            names.join(", ")
        ))
    })
}
