//! The games, one module each; [`crate::catalog`] lists them.

pub mod bigpoints;
pub mod domineering;
pub mod dots;
pub mod impartial;
pub mod mnk;
pub mod pawns;
