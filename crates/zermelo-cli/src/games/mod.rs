//! Each game's answers to the commands, and the dispatch from a spec to them.

pub mod bigpoints;
mod dots;
mod heaps;
mod mnk;
mod pawns;

use anyhow::Result;
use zermelo::Spec;

use crate::commands::GameCommands;

/// The commands of the game `spec` names.
pub fn open(spec: &Spec) -> Result<Box<dyn GameCommands>> {
    let info = zermelo::games::info(spec)?;
    Ok(match info.name {
        "tictactoe" | "mnk" => Box::new(mnk::MnkCommands::new(spec)?),
        "bigpoints" => Box::new(bigpoints::BigPointsCommands::new(spec)?),
        "dots" => Box::new(dots::DotsCommands::new(spec)?),
        "nim" | "subtraction" | "octal" | "sum" => Box::new(heaps::HeapCommands::new(spec)?),
        "pawns" => Box::new(pawns::PawnsCommands::new(spec)?),
        other => unreachable!("registered game {other} has no commands"),
    })
}
