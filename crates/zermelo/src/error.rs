//! The library's error type: every message is one clear line.

/// Everything that can go wrong with user input or stored data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A game spec string could not be understood.
    #[error("bad game spec: {0}")]
    Spec(String),
    /// A move is malformed or illegal in the position.
    #[error("bad move '{text}': {why}")]
    Move { text: String, why: String },
    /// A position string is malformed or describes an impossible position.
    #[error("bad position '{text}': {why}")]
    Position { text: String, why: String },
    /// A database file is missing, corrupt or does not match the game.
    #[error("database {path}: {why}")]
    Database { path: String, why: String },
    /// Reading or writing failed.
    #[error("{0}")]
    Io(String),
    /// A request the game does not offer, or an option that does nothing for it.
    #[error("{0}")]
    Unsupported(String),
    /// A job larger than the memory or time it may take.
    #[error("{0}")]
    TooBig(String),
    /// The work was stopped before it finished (its client went away, or Ctrl-C).
    #[error("stopped before the end")]
    Cancelled,
    /// A human player ended the game.
    #[error("the game was ended by a human player")]
    Quit,
    /// A player of your own broke the rules of play (an illegal move, no move in time, a
    /// program that ended): it loses the game, and a tournament goes on.
    #[error("{player} forfeits: {why}")]
    Forfeit { player: String, why: String },
}

impl Error {
    /// A malformed or illegal move.
    pub fn bad_move(text: impl Into<String>, why: impl Into<String>) -> Self {
        Error::Move {
            text: text.into(),
            why: why.into(),
        }
    }

    /// A malformed or impossible position.
    pub fn bad_position(text: impl Into<String>, why: impl Into<String>) -> Self {
        Error::Position {
            text: text.into(),
            why: why.into(),
        }
    }
}

impl Error {
    /// The forfeit of `player`, for `why`.
    pub fn forfeit(player: impl Into<String>, why: impl Into<String>) -> Self {
        Error::Forfeit {
            player: player.into(),
            why: why.into(),
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e.to_string())
    }
}
