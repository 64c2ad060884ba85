//! The library's error type: every message is one clear line, of a bounded length
//! (whatever a user typed, it is echoed in part and on one line: see [`shown`]).

/// Everything that can go wrong with user input or stored data.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A game spec string could not be understood.
    #[error("bad game spec: {}", shown(.0))]
    Spec(String),
    /// A move is malformed or illegal in the position.
    #[error("bad move '{}': {}", shown(text), shown(why))]
    Move { text: String, why: String },
    /// A position string is malformed or describes an impossible position.
    #[error("bad position '{}': {}", shown(text), shown(why))]
    Position { text: String, why: String },
    /// A database file is missing, corrupt or does not match the game: `why` names what
    /// a user can do about it as [`Part`]s, for each front end to word.
    #[error("database {path}: {}", shown(&why.worded(&Given)))]
    Database { path: String, why: Said },
    /// Reading or writing failed.
    #[error("{}", shown(.0))]
    Io(String),
    /// An option of a request the job refuses: `option` is its name in the library's
    /// requests (`depth`, `compensate`), `value` what it was given, and `why` reads after
    /// them. Each front end names the option in its own words (`--depth 3`, `depth=3`).
    #[error("{}", self.worded(&Given))]
    BadOption {
        option: &'static str,
        value: Option<String>,
        why: String,
    },
    /// A request the game does not offer, or an option that does nothing for it.
    #[error("{}", shown(.0))]
    Unsupported(String),
    /// A job larger than the memory or time it may take: what happened, with the limits
    /// it met held as limits, for each front end to name.
    #[error("{}", shown(&.0.worded(&Given)))]
    TooBig(Said),
    /// The work was stopped before it finished (its client went away, or Ctrl-C).
    #[error("stopped before the end")]
    Cancelled,
    /// A game broke a rule of the conformance suite ([`crate::conformance`]).
    #[error("{0}")]
    Conformance(String),
    /// A human player ended the game.
    #[error("the game was ended by a human player")]
    Quit,
    /// A player of your own broke the rules of play (an illegal move, no move in time, a
    /// program that ended): it loses the game, and a tournament goes on.
    #[error("{} forfeits: {}", shown(player), shown(why))]
    Forfeit { player: String, why: String },
}

impl Error {
    /// A malformed or illegal move (control characters in what was typed are escaped, so
    /// that the message stays one line).
    pub fn bad_move(text: impl Into<String>, why: impl Into<String>) -> Self {
        Error::Move {
            text: one_line(text.into()),
            why: one_line(why.into()),
        }
    }

    /// A malformed or impossible position (control characters escaped, as for moves).
    pub fn bad_position(text: impl Into<String>, why: impl Into<String>) -> Self {
        Error::Position {
            text: one_line(text.into()),
            why: one_line(why.into()),
        }
    }
}

impl Error {
    /// A job too big, for `why` (limits named in it are the library's words; see [`Said`]
    /// for limits a front end names).
    pub fn too_big(why: impl Into<Said>) -> Self {
        Error::TooBig(why.into())
    }

    /// The option `option` refused, given `value`, for `why`.
    pub fn bad_option(option: &'static str, value: Option<&str>, why: impl Into<String>) -> Self {
        Error::BadOption {
            option,
            value: value.map(|v| one_line(v.to_string())),
            why: one_line(why.into()),
        }
    }

    /// The forfeit of `player`, for `why`.
    pub fn forfeit(player: impl Into<String>, why: impl Into<String>) -> Self {
        Error::Forfeit {
            player: player.into(),
            why: why.into(),
        }
    }
}

/// How a front end names what its user can change: the options of its requests (and,
/// through [`crate::solve::budget::Over`], its limits). The library's errors hold what
/// happened; [`Error::worded`] says it in a front end's words.
pub trait Words {
    /// The option `option` (its name in the library's requests: `depth`, `max_positions`),
    /// given `value` when there is one: `--depth 3` on the command line, `depth=3` in Python.
    fn option(&self, option: &str, value: Option<&str>) -> String;

    /// The memory a job may take, `bytes` as text; `given`: set for it, else the machine's.
    fn memory(&self, bytes: &str, given: bool) -> String {
        let _ = given;
        format!("the {bytes} it may use")
    }

    /// The seconds a job may take.
    fn seconds(&self, seconds: f64) -> String {
        format!("the {seconds} s it may take")
    }

    /// The whole budget a job stopped at, with its verb: "the 1 MiB it may use allows".
    fn budget(&self, bytes: &str, given: bool, seconds: Option<f64>) -> String {
        match seconds {
            Some(s) => format!("{} and {} allow", self.memory(bytes, given), self.seconds(s)),
            None => format!("{} allows", self.memory(bytes, given)),
        }
    }

    /// What a refusal of a job too big adds: how to go on elsewhere.
    fn elsewhere(&self) -> &str {
        ""
    }

    /// The switch `option` of a solve turned on (`force`): `--force` on the command line.
    fn switch(&self, option: &str) -> String {
        self.option(option, None)
    }

    /// How the parts of a split solve are merged into one database, at `into` when given.
    fn merge(&self, into: Option<&str>) -> String {
        match into {
            Some(file) => format!("`table::db::merge` into {file}"),
            None => "`table::db::merge`".into(),
        }
    }
}

/// What an error says, its limits ([`Limit`]), options and ways on held as [`Part`]s for
/// a front end to name in its own words.
#[derive(Clone, Debug, PartialEq)]
pub struct Said(pub Vec<Part>);

/// A part of what an error says.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Text, the same in every front end.
    Text(String),
    /// A limit of the job.
    Limit(Limit),
    /// Where a front end says how to go on elsewhere ([`Words::elsewhere`]).
    Elsewhere,
    /// An option of the request, by its name in the library (`max_positions`).
    Option(&'static str),
    /// A switch of a solve turned on, by its name in the library (`force`).
    Switch(&'static str),
    /// How to merge the parts of a split solve, into the database at the path given.
    Merge(Option<String>),
}

/// A limit a job met.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// `bytes` of memory; `given`: set for the job, else the machine's.
    Memory { bytes: u64, given: bool },
    /// Seconds of work.
    Seconds(f64),
    /// The whole budget, memory and time when it has one, with its verb ("allows").
    Budget {
        bytes: u64,
        given: bool,
        seconds: Option<f64>,
    },
}

impl Said {
    /// What it says in `words`.
    pub fn worded(&self, words: &dyn Words) -> String {
        let bytes = bytes_text;
        self.0
            .iter()
            .map(|part| match part {
                Part::Text(t) => t.clone(),
                Part::Limit(Limit::Memory { bytes: b, given }) => words.memory(&bytes(*b), *given),
                Part::Limit(Limit::Seconds(s)) => words.seconds(*s),
                Part::Limit(Limit::Budget {
                    bytes: b,
                    given,
                    seconds,
                }) => words.budget(&bytes(*b), *given, *seconds),
                Part::Elsewhere => words.elsewhere().to_string(),
                Part::Option(name) => words.option(name, None),
                Part::Switch(name) => words.switch(name),
                Part::Merge(into) => words.merge(into.as_deref()),
            })
            .collect()
    }
}

impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.worded(&Given))
    }
}

impl From<String> for Said {
    fn from(text: String) -> Self {
        Said(vec![Part::Text(text)])
    }
}

impl From<&str> for Said {
    fn from(text: &str) -> Self {
        Said::from(text.to_string())
    }
}

/// The library's own words: an option by its name, `depth 3`.
pub struct Given;

impl Words for Given {
    fn option(&self, option: &str, value: Option<&str>) -> String {
        match value {
            Some(v) => format!("{option} {v}"),
            None => option.to_string(),
        }
    }
}

impl Error {
    /// The error in `words`: its options (and limits) named as a front end names them.
    pub fn worded(&self, words: &dyn Words) -> String {
        match self {
            Error::BadOption { option, value, why } => {
                format!(
                    "{}: {}",
                    shown(&words.option(option, value.as_deref())),
                    shown(why)
                )
            }
            Error::TooBig(said) => shown(&said.worded(words)),
            Error::Database { path, why } => format!("database {path}: {}", shown(&why.worded(words))),
            e => e.to_string(),
        }
    }
}

/// Bytes as "512 MiB", "4.5 GiB".
pub fn bytes_text(bytes: u64) -> String {
    const GIB: f64 = (1u64 << 30) as f64;
    let b = bytes as f64;
    if b >= GIB {
        format!("{:.1} GiB", b / GIB)
    } else {
        format!("{:.0} MiB", (b / (1u64 << 20) as f64).ceil())
    }
}

/// The most characters of a message part shown; past it, its start and end are shown
/// with the count of those left out between.
const SHOWN: usize = 500;

/// `text` as an error shows it: on one line (control characters escaped) and, when
/// longer than [`SHOWN`] characters, its start and end only.
pub fn shown(text: &str) -> String {
    let text = one_line(text.to_string());
    let count = text.chars().count();
    if count <= SHOWN {
        return text;
    }
    let head: String = text.chars().take(SHOWN * 2 / 3).collect();
    let tail: String = text.chars().skip(count - SHOWN / 3).collect();
    format!("{head}...({} characters left out)...{tail}", count - SHOWN)
}

/// `text` with its control characters (line breaks, tabs, escapes) written as Rust escapes.
fn one_line(text: String) -> String {
    if !text.chars().any(char::is_control) {
        return text;
    }
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_line_breaks_stay_on_one_line() {
        let e = Error::bad_position("x..\n/.o.", "'\t' is not x, o or .");
        assert_eq!(e.to_string(), "bad position 'x..\\n/.o.': '\\t' is not x, o or .");
        assert_eq!(Error::bad_move("○●", "fine").to_string(), "bad move '○●': fine");
    }
}
