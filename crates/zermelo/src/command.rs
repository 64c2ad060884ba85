//! Each command's options, declared once: name, kind (with its range and default), help
//! and where it is taken. The command line builds its flags from them and Python checks
//! its keywords against them; both hand the values back as [`Given`], which sets the
//! command's typed request ([`Given::apply`] for the [`Options`], [`Given::ask`] for a
//! report's [`Ask`]). [`document`] dumps them (`docs/options.json`), and Python's
//! signatures are written from that dump.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value as Json};

use crate::design::Ask;
use crate::limits::{self, Seconds};
use crate::session::Options;
use crate::Error;

/// One option of a command.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// Its name: Python's keyword, and `--name` on the command line (`_` written `-`;
    /// `--no-name` for a flag that is on unless told).
    pub name: &'static str,
    /// What it takes, with its range and default.
    pub kind: Kind,
    /// What it does, one paragraph; another option is named `{name}`, for each front end
    /// to word ([`Opt::help_in`]).
    pub help: &'static str,
    /// Which front ends take it.
    pub at: At,
    /// Python takes it by position too, before the keywords.
    pub first: bool,
    /// What its value looks like on the command line (`FILE`), when not its name.
    pub form: Option<&'static str>,
    /// Its one-letter flag on the command line.
    pub short: Option<char>,
    /// The options it may not be given with, on the command line.
    pub conflicts: &'static [&'static str],
}

/// What an option takes, each kind with its default (`None`: absent unless given).
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// On or off.
    Flag(bool),
    /// A whole number in `lo..=hi`.
    Whole {
        /// The smallest value.
        lo: u64,
        /// The largest value.
        hi: u64,
        /// The value when not given.
        default: Option<u64>,
    },
    /// Seconds in a range of [`Seconds`].
    Seconds(Seconds, Option<f64>),
    /// A number the command checks itself.
    Number,
    /// A size in bytes (a number, or text like `8G`), at most the machine's memory.
    Memory,
    /// Text the command reads itself; `hyphens`: it may start with `-`.
    Text {
        /// The text when not given.
        default: Option<&'static str>,
        /// Whether it may start with `-` (a position, a range of a key).
        hyphens: bool,
    },
    /// One of these words.
    Word(&'static [&'static str]),
    /// Texts, comma-separated on the command line.
    Texts,
    /// Moves in the game's notation: a list, or text `a1,b2`.
    Moves,
    /// A file to write.
    Path,
}

/// The front ends that take an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// The command line and Python.
    Both,
    /// The command line only.
    Cli,
    /// Python only.
    Python,
}

/// A value given for an option, of its kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Of a [`Kind::Flag`].
    Flag(bool),
    /// Of a [`Kind::Whole`] or [`Kind::Memory`].
    Whole(u64),
    /// Of a [`Kind::Seconds`] or [`Kind::Number`].
    Number(f64),
    /// Of a [`Kind::Text`] or [`Kind::Word`].
    Text(String),
    /// Of a [`Kind::Texts`] or [`Kind::Moves`].
    Texts(Vec<String>),
    /// Of a [`Kind::Path`].
    Path(PathBuf),
}

impl Opt {
    /// An option both front ends take, with no value form, short flag or conflict.
    pub const fn new(name: &'static str, kind: Kind, help: &'static str) -> Opt {
        Opt {
            name,
            kind,
            help,
            at: At::Both,
            first: false,
            form: None,
            short: None,
            conflicts: &[],
        }
    }

    /// Taken by the command line only.
    pub const fn cli(self) -> Opt {
        Opt { at: At::Cli, ..self }
    }

    /// Taken by Python only.
    pub const fn python(self) -> Opt {
        Opt {
            at: At::Python,
            ..self
        }
    }

    /// Taken by position in Python too.
    pub const fn first(self) -> Opt {
        Opt { first: true, ..self }
    }

    /// Its value written `form` on the command line.
    pub const fn form(self, form: &'static str) -> Opt {
        Opt {
            form: Some(form),
            ..self
        }
    }

    /// With the one-letter flag `-short`.
    pub const fn short(self, short: char) -> Opt {
        Opt {
            short: Some(short),
            ..self
        }
    }

    /// Not to be given with `others` on the command line.
    pub const fn conflicts(self, others: &'static [&'static str]) -> Opt {
        Opt {
            conflicts: others,
            ..self
        }
    }

    /// Whether the command line takes it.
    pub fn on_cli(&self) -> bool {
        self.at != At::Python
    }

    /// Whether Python takes it.
    pub fn in_python(&self) -> bool {
        self.at != At::Cli
    }

    /// Its flag on the command line: `--max-positions`, `--no-save`.
    pub fn flag(&self) -> String {
        let name = self.name.replace('_', "-");
        match self.kind {
            Kind::Flag(true) => format!("--no-{name}"),
            _ => format!("--{name}"),
        }
    }

    /// Its help, each option it names (`{name}`) worded by `word`.
    pub fn help_in(&self, word: impl Fn(&str) -> String) -> String {
        let mut text = String::new();
        let mut rest = self.help;
        while let Some((before, after)) = rest.split_once('{') {
            let Some((name, tail)) = after.split_once('}') else {
                break;
            };
            text.push_str(before);
            text.push_str(&word(name));
            rest = tail;
        }
        text.push_str(rest);
        text
    }

    /// Its value when not given, if it has one.
    pub fn default(&self) -> Option<Value> {
        match self.kind {
            Kind::Flag(on) => Some(Value::Flag(on)),
            Kind::Whole { default, .. } => default.map(Value::Whole),
            Kind::Seconds(_, default) => default.map(Value::Number),
            Kind::Text { default, .. } => default.map(|t| Value::Text(t.into())),
            Kind::Texts | Kind::Moves => Some(Value::Texts(Vec::new())),
            Kind::Number | Kind::Memory | Kind::Word(_) | Kind::Path => None,
        }
    }

    /// `value` when it is in the option's range: a refusal names the option.
    pub fn check(&self, value: Value) -> Result<Value, Error> {
        match (self.kind, &value) {
            (Kind::Whole { lo, hi, .. }, &Value::Whole(n)) if !(lo..=hi).contains(&n) => {
                let why = if hi == lo + 1 {
                    format!("give {lo} or {hi}")
                } else if hi == u64::MAX {
                    format!("give a whole number from {lo}")
                } else {
                    format!("give a whole number from {lo} to {hi}")
                };
                Err(Error::bad_option(self.name, Some(&n.to_string()), &why))
            }
            (Kind::Seconds(range, _), &Value::Number(s)) => Ok(Value::Number(range.check(s)?)),
            (Kind::Memory, &Value::Whole(b)) => Ok(Value::Whole(limits::memory(b, &format!("{b} bytes"))?)),
            (Kind::Word(words), Value::Text(t)) if !words.contains(&t.as_str()) => Err(Error::bad_option(
                self.name,
                Some(t),
                format!("give one of {}", words.join(", ")),
            )),
            _ => Ok(value),
        }
    }

    /// The option as `docs/options.json` lists it.
    fn describe(&self) -> Json {
        let (kind, default, range) = match self.kind {
            Kind::Flag(on) => ("flag", json!(on), Json::Null),
            Kind::Whole { lo, hi, default } => ("whole", json!(default), json!([lo, hi])),
            Kind::Seconds(range, default) => {
                ("seconds", json!(default), json!([range.least(), range.most()]))
            }
            Kind::Number => ("number", Json::Null, Json::Null),
            Kind::Memory => ("memory", Json::Null, Json::Null),
            Kind::Text { default, .. } => ("text", json!(default), Json::Null),
            Kind::Word(words) => ("word", Json::Null, json!(words)),
            Kind::Texts => ("texts", json!([]), Json::Null),
            Kind::Moves => ("moves", json!([]), Json::Null),
            Kind::Path => ("path", Json::Null, Json::Null),
        };
        json!({
            "name": self.name,
            "kind": kind,
            "default": default,
            "range": range,
            "help": self.help_in(|name| format!("`{name}`")),
            "flag": self.on_cli().then(|| self.flag()),
            "python": match (self.in_python(), self.first) {
                (false, _) => Json::Null,
                (true, true) => json!("first"),
                (true, false) => json!("keyword"),
            },
        })
    }
}

/// A command and its options.
#[derive(Clone, Copy, Debug)]
pub struct Command {
    /// Its name: the command line's command, Python's method.
    pub name: &'static str,
    /// Its options, in the order they are listed.
    pub options: &'static [Opt],
}

impl Command {
    /// The option named `name`.
    pub fn option(&self, name: &str) -> Option<&'static Opt> {
        self.options.iter().find(|o| o.name == name)
    }
}

/// The values given for a command's options, defaults filled in.
#[derive(Clone, Debug, Default)]
pub struct Given(Vec<(&'static str, Value)>);

impl Given {
    /// Sets option `name` to `value`.
    pub fn set(&mut self, name: &'static str, value: Value) {
        self.0.retain(|(n, _)| *n != name);
        self.0.push((name, value));
    }

    /// The defaults of `command`'s options that have one, for the options `taken` keeps.
    pub fn defaults(command: &Command, taken: impl Fn(&Opt) -> bool) -> Given {
        let mut given = Given::default();
        for opt in command.options.iter().filter(|o| taken(o)) {
            if let Some(value) = opt.default() {
                given.set(opt.name, value);
            }
        }
        given
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// Whether flag `name` is on.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Flag(true)))
    }

    /// The whole number (or bytes) given for `name`.
    pub fn whole(&self, name: &str) -> Option<u64> {
        match self.get(name) {
            Some(&Value::Whole(n)) => Some(n),
            _ => None,
        }
    }

    /// The seconds (or other number) given for `name`.
    pub fn number(&self, name: &str) -> Option<f64> {
        match self.get(name) {
            Some(&Value::Number(s)) => Some(s),
            _ => None,
        }
    }

    /// The text given for `name`.
    pub fn text(&self, name: &str) -> Option<String> {
        match self.get(name) {
            Some(Value::Text(t)) => Some(t.clone()),
            _ => None,
        }
    }

    /// The texts given for `name` (none when not given).
    pub fn texts(&self, name: &str) -> Vec<String> {
        match self.get(name) {
            Some(Value::Texts(t)) => t.clone(),
            _ => Vec::new(),
        }
    }

    /// The file given for `name`.
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        match self.get(name) {
            Some(Value::Path(p)) => Some(p.clone()),
            _ => None,
        }
    }

    /// Sets in `opts` what the options given ask of every command: where to start, the
    /// solver, the budget, saving, remoteness and a move's time.
    pub fn apply(&self, opts: &mut Options) {
        for (name, value) in &self.0 {
            match (*name, value) {
                ("position", Value::Text(p)) => opts.position = Some(p.clone()),
                ("solver", Value::Text(s)) => opts.solver = Some(s.clone()),
                ("force", &Value::Flag(on)) => opts.force = on,
                ("save", &Value::Flag(on)) => opts.save = on,
                ("all", &Value::Flag(on)) => opts.all_moves = on,
                ("remoteness", &Value::Flag(on)) => opts.remoteness = on,
                ("mover_only", &Value::Flag(on)) => opts.mover_only = on,
                ("book", &Value::Whole(d)) => opts.book = Some(d as u32),
                ("memory", &Value::Whole(b)) => opts.budget.memory = Some(b),
                ("seconds", &Value::Number(s)) => opts.budget.seconds = Some(s),
                ("move_time", &Value::Number(s)) => opts.move_time = Duration::from_secs_f64(s),
                _ => {}
            }
        }
    }

    /// A designer's report as asked.
    pub fn ask(&self) -> Ask {
        Ask {
            depth: self.whole("depth").map_or(1, |d| d as u32),
            compensate: self.text("compensate"),
            selfplay: self.whole("selfplay"),
            player: self.text("player"),
        }
    }
}

/// Where to start: a position in the game's notation.
const POSITION: Opt = Opt::new(
    "position",
    Kind::Text {
        default: None,
        hyphens: true,
    },
    "Start from this position, in the game's position notation (as `moves` prints it in JSON, e.g. x../.o./... or 1:3/4/5), instead of the game's start",
)
.form("POSITION");

/// The most memory the work may take (the command line's is `--memory`, for every command).
const MEMORY: Opt = Opt::new(
    "memory",
    Kind::Memory,
    "The most memory the work may plan for, e.g. 8G or 512M",
)
.python();

/// The most seconds the work may take.
const SECONDS: Opt = Opt::new(
    "seconds",
    Kind::Seconds(Seconds::WORK, None),
    "The most seconds the work may take",
)
.form("SECONDS");

/// Moves from the start (or the position).
const MOVE_LIST: Opt = Opt::new(
    "moves",
    Kind::Moves,
    "Moves from the start (or from {position}), comma-separated, in the game's notation",
)
.first();

/// Seed for random choices.
const SEED: Opt = Opt::new(
    "seed",
    Kind::Whole {
        lo: 0,
        hi: u64::MAX,
        default: Some(0),
    },
    "Seed for random choices",
);

/// A program's time a move.
const MOVE_TIME: Opt = Opt::new(
    "move_time",
    Kind::Seconds(Seconds::MOVE, Some(10.0)),
    "Seconds a program of your own (cmd:COMMAND) may take over a move",
);

/// Whether to count up to the board's symmetries.
const SYMMETRY: Opt = Opt::new(
    "symmetry",
    Kind::Flag(false),
    "Count positions up to the board's symmetries",
)
.first();

/// Any whole number.
const WHOLE: Kind = Kind::Whole {
    lo: 0,
    hi: u64::MAX,
    default: None,
};

/// `solve`: the value of the start (or a position) for the player to move.
pub const SOLVE: Command = Command {
    name: "solve",
    options: &[
        Opt::new(
            "position",
            POSITION.kind,
            "Solve from this position, in the game's position notation (as `moves` prints it in JSON, e.g. x../.o./... or 1:3/4/5), instead of the game's start",
        )
        .form("POSITION"),
        Opt::new(
            "solver",
            Kind::Text {
                default: None,
                hyphens: false,
            },
            "The solver, for games that offer several (see `zermelo games`)",
        )
        .first(),
        Opt::new(
            "force",
            Kind::Flag(false),
            "Solve again even when a saved table exists",
        ),
        Opt::new(
            "save",
            Kind::Flag(true),
            "Keep the solved table in memory only; do not save it to the data folder",
        ),
        MEMORY,
        SECONDS,
        Opt::new(
            "remoteness",
            Kind::Flag(false),
            "Find how many moves the game lasts (the remoteness), not only who wins: for a game solved by proof (Domineering), its exact solver answers instead. Other games always give the remoteness",
        ),
        Opt::new(
            "mover_only",
            Kind::Flag(false),
            "Answer for the player to move only, leaving out the outcome class (who wins with the other player first, a second search where the game is not symmetric)",
        ),
        Opt::new(
            "book",
            Kind::Whole {
                lo: 1,
                hi: 64,
                default: None,
            },
            "Also value every position up to PLIES from the start by the solver and save them as the game's opening book, which moves, the perfect player and the page read before any search (a book stopped part way goes on)",
        )
        .form("PLIES"),
    ],
};

/// `moves` (Python's `position`): a position with every legal move's value.
pub const MOVES: Command = Command {
    name: "moves",
    options: &[
        POSITION,
        MOVE_LIST,
        Opt::new(
            "all",
            Kind::Flag(false),
            "List every legal move, however many (otherwise at most 200)",
        ),
        MEMORY,
        SECONDS.python(),
        Opt::new(
            "remoteness",
            Kind::Flag(false),
            "Value every move with its remoteness, by the exact solver, where the game values moves by proof (Domineering)",
        ),
    ],
};

/// `rules`: a position from the rules alone, its legal moves unvalued.
pub const RULES: Command = Command {
    name: "rules",
    options: &[POSITION, MOVE_LIST],
};

/// `report`: a designer's report.
pub const REPORT: Command = Command {
    name: "report",
    options: &[
        Opt::new(
            "depth",
            Kind::Whole {
                lo: 1,
                hi: 2,
                default: Some(1),
            },
            "2: the replies to every first move too",
        )
        .first(),
        Opt::new(
            "html",
            Kind::Path,
            "Also write the report as one self-contained HTML page, its plots inline",
        )
        .form("FILE")
        .cli(),
        Opt::new(
            "compensate",
            Kind::Text {
                default: None,
                hyphens: true,
            },
            "The game's value along one of its keys, each setting solved: KEY=A..B (whole numbers; ranges of more than 16 bisected on the result) or KEY=a|b, e.g. komi=-5..5 or first=vertical|horizontal",
        )
        .form("KEY=SETTINGS"),
        Opt::new(
            "selfplay",
            WHOLE,
            "Also play N games of self-play for each of soft:0, 0.25, 0.5, 1, 2 and perfect:0.9, 0.75, 0.5 in both seats: each seat's share with its 95 % interval",
        )
        .form("N"),
        Opt::new(
            "player",
            Kind::Text {
                default: None,
                hyphens: false,
            },
            "In a game of more than two seats, the player in every seat of its self-play (default: the first of the game's own tournament players)",
        )
        .form("NAME"),
        MEMORY,
        Opt::new(
            "seconds",
            SECONDS.kind,
            "The most seconds the report (its solve included) may take",
        )
        .form("SECONDS"),
    ],
};

/// `count`: complete games and reachable positions.
pub const COUNT: Command = Command {
    name: "count",
    options: &[SYMMETRY],
};

/// `graph`: the game graph.
pub const GRAPH: Command = Command {
    name: "graph",
    options: &[
        Opt::new(
            "symmetry",
            Kind::Flag(false),
            "One node per class of positions under the game's symmetries, with its size",
        )
        .first(),
        Opt::new(
            "max_positions",
            Kind::Whole {
                lo: 0,
                hi: u64::MAX,
                default: Some(100_000),
            },
            "Refuse a graph of more than N nodes",
        )
        .form("N"),
        Opt::new(
            "format",
            Kind::Word(&["dot", "graphml", "json"]),
            "dot (Graphviz), graphml or json [default: dot, or by the {output} file's extension: .graphml, .json, else dot]",
        )
        .cli(),
        Opt::new(
            "output",
            Kind::Path,
            "Write the graph to FILE and print a summary instead",
        )
        .form("FILE")
        .short('o')
        .cli(),
        MEMORY,
        SECONDS.python(),
    ],
};

/// `play`: one game.
pub const PLAY: Command = Command {
    name: "play",
    options: &[
        POSITION,
        Opt::new(
            "first",
            Kind::Text {
                default: Some("human"),
                hyphens: false,
            },
            "The first player: human, random, perfect, search[:DEPTH], or a game's own (see `zermelo games`)",
        )
        .cli(),
        Opt::new(
            "second",
            Kind::Text {
                default: Some("perfect"),
                hyphens: false,
            },
            "The second player",
        )
        .cli(),
        Opt::new(
            "seats",
            Kind::Texts,
            "Every seat in order, comma-separated, for games of more than two players (instead of {first} and {second}), e.g. human,greedy,mcts",
        )
        .conflicts(&["first", "second"])
        .cli(),
        SEED,
        MOVE_TIME,
    ],
};

/// `tournament`: many games between players.
pub const TOURNAMENT: Command = Command {
    name: "tournament",
    options: &[
        Opt::new(
            "position",
            POSITION.kind,
            "Start every game from this position, in the game's position notation (as `moves` prints it in JSON), instead of the game's start; the games are played on the spec's own board (a game that deals a board per game deals none)",
        )
        .form("POSITION"),
        Opt::new(
            "players",
            Kind::Texts,
            "The players, one per seat, comma-separated (default: perfect,random or the game's own choice)",
        )
        .cli(),
        Opt::new(
            "games",
            Kind::Whole {
                lo: 0,
                hi: u64::MAX,
                default: Some(100),
            },
            "How many games",
        )
        .first(),
        SEED,
        MOVE_TIME,
    ],
};

/// `selfplay` (Python; the command line's is `balance --players`): how each seat fares.
pub const SELFPLAY: Command = Command {
    name: "selfplay",
    options: &[
        Opt::new(
            "games",
            Kind::Whole {
                lo: 0,
                hi: u64::MAX,
                default: Some(1000),
            },
            "How many games (the most, with until)",
        )
        .first(),
        Opt::new(
            "until",
            Kind::Number,
            "Stop after the first round of 100 games at which every seat's 95 % interval of its points share is narrower than this share",
        ),
        SEED,
        POSITION,
        MOVE_TIME,
    ],
};

/// `bot_move` (Python): the move a player makes.
pub const BOT_MOVE: Command = Command {
    name: "bot_move",
    options: &[POSITION, SEED, MEMORY, SECONDS],
};

/// Every command whose options are declared here.
pub const COMMANDS: &[Command] = &[
    SOLVE, MOVES, RULES, REPORT, COUNT, GRAPH, PLAY, TOURNAMENT, SELFPLAY, BOT_MOVE,
];

/// Every command's options, as `docs/options.json` holds them.
pub fn document() -> Json {
    let commands: Vec<Json> = COMMANDS
        .iter()
        .map(|c| {
            let options: Vec<Json> = c.options.iter().map(Opt::describe).collect();
            json!({ "command": c.name, "options": options })
        })
        .collect();
    json!({ "commands": commands })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_names_each_option_once_and_its_defaults_are_in_range() {
        for command in COMMANDS {
            for (i, opt) in command.options.iter().enumerate() {
                let again = command.options[i + 1..].iter().any(|o| o.name == opt.name);
                assert!(!again, "{}: {} twice", command.name, opt.name);
                if let Some(value) = opt.default() {
                    assert_eq!(opt.check(value.clone()).ok(), Some(value), "{}", opt.name);
                }
            }
        }
    }

    #[test]
    fn a_value_out_of_range_is_refused_naming_the_option() {
        let depth = REPORT.option("depth").unwrap();
        let e = depth.check(Value::Whole(3)).unwrap_err();
        assert!(
            matches!(&e, Error::BadOption { option, why, .. } if *option == "depth" && why == "give 1 or 2"),
            "{e:?}"
        );
        let seconds = SOLVE.option("seconds").unwrap();
        assert!(seconds.check(Value::Number(0.0)).is_err());
        assert_eq!(seconds.check(Value::Number(2.5)).ok(), Some(Value::Number(2.5)));
    }

    #[test]
    fn given_values_set_the_request() {
        let mut given = Given::defaults(&SOLVE, Opt::on_cli);
        assert!(!given.flag("force") && given.flag("save"));
        given.set("save", Value::Flag(false));
        given.set("seconds", Value::Number(1.5));
        given.set("position", Value::Text("x........".into()));
        let mut opts = Options::default();
        given.apply(&mut opts);
        assert!(!opts.save && !opts.force);
        assert_eq!(opts.budget.seconds, Some(1.5));
        assert_eq!(opts.position.as_deref(), Some("x........"));
        let mut report = Given::defaults(&REPORT, Opt::in_python);
        report.set("compensate", Value::Text("komi=-1..1".into()));
        let ask = report.ask();
        assert_eq!((ask.depth, ask.compensate.as_deref()), (1, Some("komi=-1..1")));
    }

    #[test]
    fn a_flag_on_unless_told_is_written_no() {
        assert_eq!(SOLVE.option("save").unwrap().flag(), "--no-save");
        assert_eq!(GRAPH.option("max_positions").unwrap().flag(), "--max-positions");
    }

    #[test]
    fn help_names_other_options_in_each_front_ends_words() {
        let seats = PLAY.option("seats").unwrap();
        let cli = seats.help_in(|name| format!("--{name}"));
        assert!(cli.contains("(instead of --first and --second)"), "{cli}");
        let neutral = seats.help_in(|name| format!("`{name}`"));
        assert!(neutral.contains("(instead of `first` and `second`)"), "{neutral}");
        for command in COMMANDS {
            for opt in command.options {
                assert!(
                    !opt.help_in(|name| format!("`{name}`")).contains("--"),
                    "{}",
                    opt.name
                );
                // Each option a help names is one of the same command's.
                opt.help_in(|name| {
                    assert!(
                        command.option(name).is_some(),
                        "{}: {} names {name}",
                        command.name,
                        opt.name
                    );
                    String::new()
                });
            }
        }
    }
}
