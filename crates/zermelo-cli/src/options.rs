//! The options of a command run from the terminal: its data folder, memory and guests.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use zermelo::session::Options;

use crate::progress::BarProgress;

/// The data folder: `--data`, else `ZERMELO_DATA`, else `./zermelo-data`.
pub fn data_dir(flag: Option<PathBuf>) -> Result<PathBuf> {
    Ok(zermelo::session::data_folder(flag, "--data")?)
}

/// The options of a command run from the terminal: the machine's memory, no time limit.
pub fn options(data_dir: PathBuf, json: bool) -> Options {
    Options {
        data_dir,
        progress: Arc::new(BarProgress::new(!json)),
        ..Options::default()
    }
}

/// The seconds a program of your own (cmd:COMMAND) may take over a move in self-play.
pub const MOVE_TIME: f64 = 10.0;

/// `opts` for a game or tournament that may take programs of your own as players, each
/// allowed `move_time` seconds a move.
pub fn guests(opts: Options, move_time: f64) -> Options {
    Options {
        run_programs: true,
        move_time: Duration::from_secs_f64(move_time),
        ..opts
    }
}
