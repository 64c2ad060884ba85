//! Game spec strings, `NAME` or `NAME:key=value,key=value` (list values joined by `/`),
//! and each game's keys: one [`Key`] declaration reads a key's value (its range checked,
//! its default filled in) and describes its default and range for people.

use std::fmt;
use std::str::FromStr;

use crate::Error;

/// A parsed game spec: a game name and its options, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The game's name, lower case.
    pub name: String,
    options: Vec<(String, String)>,
}

/// One key a game accepts: the one declaration that both reads its values from a spec
/// and describes them in `zermelo games`.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The key as written in a spec.
    pub name: &'static str,
    /// The values it takes, and its default.
    pub values: Values,
    /// More on its values, shown after their range: a condition the game checks itself
    /// (`m*n <= 64`), or another value it reads itself (`or random: ...`).
    pub also: Option<&'static str>,
    /// What it means.
    pub help: &'static str,
}

/// The values a key takes, each kind with its default.
#[derive(Clone, Copy, Debug)]
pub enum Values {
    /// A whole number in `lo..=hi`.
    Int {
        /// The smallest value.
        lo: u64,
        /// The largest value.
        hi: u64,
        /// The value when the key is absent.
        default: Preset<u64>,
    },
    /// `true` or `false` (also `yes`/`no`, `1`/`0`); the value when absent.
    Flag(bool),
    /// Whole numbers joined by `/`.
    List {
        /// The smallest number.
        lo: u64,
        /// The largest number.
        hi: u64,
        /// The most numbers.
        most: usize,
        /// What the list holds, said before the numbers' range: `heaps of`.
        what: &'static str,
        /// The list when the key is absent.
        default: Preset<&'static [u64]>,
    },
    /// One of these words (or its first letter), the first when the key is absent.
    Word(&'static [&'static str]),
    /// A number in `lo..=hi`, fractions allowed (seconds).
    Real {
        /// The smallest value.
        lo: f64,
        /// The largest value.
        hi: f64,
        /// The value when the key is absent.
        default: f64,
    },
    /// Text the game reads itself.
    Text {
        /// What the text looks like, for people.
        form: &'static str,
        /// The text when the key is absent.
        default: Preset<&'static str>,
    },
}

/// What an absent key stands for.
#[derive(Clone, Copy, Debug)]
pub enum Preset<T> {
    /// This value.
    Is(T),
    /// No fixed value: the text says what the game does instead (`size`, `none`).
    Else(&'static str),
}

impl Key {
    /// Its default as text: the value, or what the game does without it.
    pub fn default_text(&self) -> String {
        match self.values {
            Values::Int { default, .. } => preset_text(default, |&v| number_text(v)),
            Values::Flag(default) => default.to_string(),
            Values::List { default, .. } => preset_text(default, |list| join(list, "/")),
            Values::Word(words) => words[0].to_string(),
            Values::Real { default, .. } => default.to_string(),
            Values::Text { default, .. } => preset_text(default, |t| t.to_string()),
        }
    }

    /// The kind of its values, in one word: `int`, `flag`, `list`, `word`, `real` or `text`.
    pub fn kind(&self) -> &'static str {
        match self.values {
            Values::Int { .. } => "int",
            Values::Flag(_) => "flag",
            Values::List { .. } => "list",
            Values::Word(_) => "word",
            Values::Real { .. } => "real",
            Values::Text { .. } => "text",
        }
    }

    /// The values it takes, as text for people.
    pub fn range_text(&self) -> String {
        let range = match self.values {
            Values::Int {
                lo: 0, hi: u64::MAX, ..
            } => "any whole number".to_string(),
            Values::Int { lo, hi, .. } => range_text(lo, hi),
            Values::Flag(_) => "true/false".to_string(),
            Values::List {
                lo, hi, most, what, ..
            } => format!("1..={most} {what} {}", range_text(lo, hi)),
            Values::Word(words) => words.join(", "),
            Values::Real { lo, hi, .. } => format!("{lo}..={hi}"),
            Values::Text { form, .. } => form.to_string(),
        };
        match self.also {
            Some(also) => format!("{range} ({also})"),
            None => range,
        }
    }
}

impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Key", 4)?;
        s.serialize_field("key", self.name)?;
        s.serialize_field("default", &self.default_text())?;
        s.serialize_field("range", &self.range_text())?;
        s.serialize_field("help", self.help)?;
        s.end()
    }
}

impl schemars::JsonSchema for Key {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Key".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A key of a game's spec: its name, its default and range in words, and what it sets.",
            "type": "object",
            "required": ["key", "default", "range", "help"],
            "properties": {
                "key": { "type": "string" },
                "default": { "type": "string" },
                "range": { "type": "string" },
                "help": { "type": "string" }
            }
        })
    }
}

fn preset_text<T>(preset: Preset<T>, show: impl Fn(&T) -> String) -> String {
    match preset {
        Preset::Is(value) => show(&value),
        Preset::Else(text) => text.to_string(),
    }
}

/// `lo..=hi`.
fn range_text(lo: u64, hi: u64) -> String {
    format!("{}..={}", number_text(lo), number_text(hi))
}

/// A number for people: a power of ten past a billion as `10^18`.
fn number_text(n: u64) -> String {
    match n.checked_ilog10() {
        Some(e) if e > 9 && 10u64.pow(e) == n => format!("10^{e}"),
        _ => n.to_string(),
    }
}

fn join(numbers: &[u64], by: &str) -> String {
    let text: Vec<String> = numbers.iter().map(u64::to_string).collect();
    text.join(by)
}

/// A game known to the registry.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The name used in specs.
    pub name: &'static str,
    /// One line saying what the game is.
    pub summary: &'static str,
    /// One line saying how to play it, for someone who has never played it.
    pub how_to_play: &'static str,
    /// The keys it accepts.
    pub keys: &'static [Key],
    /// Its own players, `perfect` first; every game also takes [`COMMON_PLAYERS`].
    pub players: &'static [PlayerInfo],
}

/// A player a game offers.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct PlayerInfo {
    /// The name to give on the command line (`search[:DEPTH]` style when it takes a parameter).
    pub name: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// The players every game takes, after its own.
pub static COMMON_PLAYERS: &[PlayerInfo] = &[
    PlayerInfo {
        name: "human",
        help: "you, typing moves in the terminal",
    },
    PlayerInfo {
        name: "random",
        help: "a uniformly random legal move",
    },
    PlayerInfo {
        name: "NAME:P",
        help: "the player NAME (e.g. perfect:0.8) with probability P, else a random move",
    },
    PlayerInfo {
        name: "soft:T",
        help: "a move drawn by a softmax over the exact values of the moves at temperature T (soft:0 plays perfectly)",
    },
    PlayerInfo {
        name: "search[:DEPTH]",
        help: "depth-limited alpha-beta with the game's heuristic (depth 4)",
    },
    PlayerInfo {
        name: "cmd:COMMAND",
        help: "your own program, speaking the player protocol (docs/player-protocol.md)",
    },
];

/// What kind of game only Python opens `text` names, if it names one: an OpenSpiel game
/// (`openspiel:NAME(...)`) or a game of your own by its import path (`path/games.py:Race`,
/// or `my_games:Race` where `is_game(my_games)` says no game of that name is built in: a
/// built-in game's name before the colon makes a spec, however mistyped).
pub fn python_game(text: &str, is_game: impl Fn(&str) -> bool) -> Option<&'static str> {
    let (module, attr) = text.trim().split_once(':')?;
    if module == "openspiel" {
        return Some("an OpenSpiel game");
    }
    let identifier = |t: &str| {
        t.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && t.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    let path = module.ends_with(".py") || module.contains(['/', '.']);
    let class = attr.starts_with(char::is_uppercase) && !is_game(module);
    (attr.split('.').all(identifier) && (path || class)).then_some("a game of your own by its import path")
}

/// The one-line refusal of `text`, a game of `kind` that only Python opens.
pub fn python_refusal(text: &str, kind: &str) -> Error {
    Error::Spec(format!(
        "'{}' is {kind}, which Python opens: run `python -m zermelo` in place of `zermelo`, or zermelo.open in Python",
        text.trim()
    ))
}

impl FromStr for Spec {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        let text = text.trim();
        // Without the catalog here, any name before a colon may be a game's.
        if let Some(kind) = python_game(text, |_| true) {
            return Err(python_refusal(text, kind));
        }
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(Error::Spec(format!("'{text}' does not start with a game name")));
        }
        if name.chars().any(|c| c.is_ascii_uppercase()) {
            return Err(Error::Spec(format!(
                "'{name}': game names are lower case ({})",
                name.to_ascii_lowercase()
            )));
        }
        let mut options: Vec<(String, String)> = Vec::new();
        for part in rest.into_iter().flat_map(|r| r.split(',')) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(Error::Spec(format!("'{part}' is not key=value")));
            };
            let (key, value) = (key.trim().to_string(), value.trim().to_string());
            if key.chars().any(|c| c.is_ascii_uppercase()) {
                return Err(Error::Spec(format!(
                    "'{key}': keys are lower case ({})",
                    key.to_ascii_lowercase()
                )));
            }
            if key.is_empty() || value.is_empty() {
                return Err(Error::Spec(format!("'{part}' is not key=value")));
            }
            if options.iter().any(|(k, _)| *k == key) {
                return Err(Error::Spec(format!("key '{key}' is given twice")));
            }
            options.push((key, value));
        }
        Ok(Spec {
            name: name.to_string(),
            options,
        })
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl Spec {
    /// The same spec with `key` set to `value` (in its place when given, else last).
    pub fn with(&self, key: &str, value: &str) -> Spec {
        let mut options = self.options.clone();
        match options.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value.to_string(),
            None => options.push((key.to_string(), value.to_string())),
        }
        Spec {
            name: self.name.clone(),
            options,
        }
    }

    /// Refuses keys that `info` does not list.
    pub fn check_keys(&self, info: &GameInfo) -> Result<(), Error> {
        for (key, _) in &self.options {
            if !info.keys.iter().any(|k| k.name == key) {
                let known: Vec<&str> = info.keys.iter().map(|k| k.name).collect();
                return Err(Error::Spec(format!(
                    "{} has no key '{key}' (keys: {})",
                    info.name,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            }
        }
        Ok(())
    }

    /// The raw text of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `key` is given.
    pub fn has(&self, key: &Key) -> bool {
        self.get(key.name).is_some()
    }

    /// The whole number of an [`Values::Int`] key: the one given, checked against its range,
    /// else its default.
    pub fn int(&self, key: &Key) -> Result<u64, Error> {
        let Values::Int { lo, hi, default } = key.values else {
            panic!("{} is no whole number key", key.name)
        };
        let Some(text) = self.get(key.name) else {
            return preset(key, default);
        };
        let v = number(key.name, text, hi)?;
        if v < lo || v > hi {
            return Err(Error::Spec(format!(
                "{}={v} is out of range {lo}..={hi}",
                key.name
            )));
        }
        Ok(v)
    }

    /// The truth value of a [`Values::Flag`] key: the one given (`true` or `false`), else
    /// its default.
    pub fn flag(&self, key: &Key) -> Result<bool, Error> {
        let Values::Flag(default) = key.values else {
            panic!("{} is no flag", key.name)
        };
        match self.get(key.name) {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(t) => Err(Error::Spec(format!("{}={t}: expected true or false", key.name))),
        }
    }

    /// The numbers of a [`Values::List`] key: the ones given, each checked against its
    /// range, else its default.
    pub fn list(&self, key: &Key) -> Result<Vec<u64>, Error> {
        let Values::List {
            lo,
            hi,
            most,
            default,
            ..
        } = key.values
        else {
            panic!("{} is no list", key.name)
        };
        let Some(text) = self.get(key.name) else {
            return preset(key, default).map(<[u64]>::to_vec);
        };
        let items: Vec<&str> = text.split('/').map(str::trim).collect();
        if items.len() > most {
            return Err(Error::Spec(format!(
                "{}: {} numbers, at most {most} allowed",
                key.name,
                items.len()
            )));
        }
        let mut out = Vec::new();
        for item in items {
            let v = number(key.name, item, hi)?;
            if v < lo || v > hi {
                return Err(Error::Spec(format!(
                    "{}={text}: {v} is out of range {lo}..={hi}",
                    key.name
                )));
            }
            out.push(v);
        }
        Ok(out)
    }

    /// The index among its words of a [`Values::Word`] key's word (or its first letter),
    /// 0 when absent.
    pub fn word(&self, key: &Key) -> Result<usize, Error> {
        let Values::Word(words) = key.values else {
            panic!("{} is no word key", key.name)
        };
        let Some(text) = self.get(key.name).map(str::to_ascii_lowercase) else {
            return Ok(0);
        };
        words
            .iter()
            .position(|w| *w == text || w[..1] == text)
            .ok_or_else(|| {
                let (last, rest) = words.split_last().expect("a word key has words");
                Error::Spec(format!(
                    "{}={text}: expected {} or {last}",
                    key.name,
                    rest.join(", ")
                ))
            })
    }

    /// The number of a [`Values::Real`] key: the one given, checked against its range,
    /// else its default.
    pub fn real(&self, key: &Key) -> Result<f64, Error> {
        let Values::Real { lo, hi, default } = key.values else {
            panic!("{} is no number key", key.name)
        };
        let Some(text) = self.get(key.name) else {
            return Ok(default);
        };
        match text.parse::<f64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            Ok(_) => Err(Error::Spec(format!(
                "{}={text} is out of range {lo}..={hi}",
                key.name
            ))),
            Err(_) => Err(Error::Spec(format!(
                "{}={text}: '{text}' is not a number",
                key.name
            ))),
        }
    }

    /// The text of a [`Values::Text`] key: the one given, else its default.
    pub fn text(&self, key: &Key) -> Result<&str, Error> {
        let Values::Text { default, .. } = key.values else {
            panic!("{} is no text key", key.name)
        };
        match self.get(key.name) {
            Some(text) => Ok(text),
            None => preset(key, default),
        }
    }
}

/// The value of an absent key: its default, or an error when it has none.
fn preset<T>(key: &Key, preset: Preset<T>) -> Result<T, Error> {
    match preset {
        Preset::Is(value) => Ok(value),
        Preset::Else(_) => Err(Error::Spec(format!("{}= is needed", key.name))),
    }
}

/// A family of games: a spec whose values may be ranges, `A..B` (whole numbers, both ends
/// included; in a list, of its last number: `set=1/2..1/6`), or alternatives, `A|B`:
/// `mnk:m=3..7,n=3..6,k=3|4`. Its members are every combination, the first key's values
/// varying slowest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// The game's name, lower case.
    pub name: String,
    keys: Vec<(String, Vec<String>)>,
}

/// One game of a [`Family`]: its spec, and the values of the family's keys that vary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The member's spec.
    pub spec: Spec,
    /// The varying keys and their values for this member, in the family's order.
    pub keys: Vec<(String, String)>,
}

impl Family {
    /// The most members a family may have.
    pub const MAX_MEMBERS: usize = 10_000;

    /// The keys that take more than one value, in the order given.
    pub fn varying(&self) -> Vec<&str> {
        self.keys
            .iter()
            .filter(|(_, v)| v.len() > 1)
            .map(|(k, _)| k.as_str())
            .collect()
    }

    /// The values `key` takes, in order; `None` when the spec does not name it.
    pub fn values(&self, key: &str) -> Option<&[String]> {
        self.keys
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_slice())
    }

    /// Every member, the first key's values varying slowest.
    pub fn members(&self) -> Vec<Member> {
        let mut members = vec![Vec::new()];
        for (key, values) in &self.keys {
            members = members
                .into_iter()
                .flat_map(|m: Vec<(String, String)>| {
                    values.iter().map(move |v| {
                        let mut m = m.clone();
                        m.push((key.clone(), v.clone()));
                        m
                    })
                })
                .collect();
        }
        let varying = self.varying();
        members
            .into_iter()
            .map(|options| Member {
                keys: options
                    .iter()
                    .filter(|(k, _)| varying.contains(&k.as_str()))
                    .cloned()
                    .collect(),
                spec: Spec {
                    name: self.name.clone(),
                    options,
                },
            })
            .collect()
    }
}

impl FromStr for Family {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        let spec: Spec = text.parse()?;
        let mut count = 1usize;
        let mut keys = Vec::new();
        for (key, value) in spec.options {
            let values = expand(&key, &value)?;
            count = count.saturating_mul(values.len());
            if count > Family::MAX_MEMBERS {
                return Err(Error::Spec(format!(
                    "'{text}' has more than {} members: narrow its ranges",
                    Family::MAX_MEMBERS
                )));
            }
            keys.push((key, values));
        }
        Ok(Family {
            name: spec.name,
            keys,
        })
    }
}

/// The values of `key=value` in a family spec: its ranges and alternatives spelled out.
fn expand(key: &str, value: &str) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    for alt in value.split('|').map(str::trim) {
        // A range has numbers; `..` in a value without digits is text (a board `..#./....`).
        let range = alt
            .split_once("..")
            .filter(|_| alt.contains(|c: char| c.is_ascii_digit()));
        let Some((from, to)) = range else {
            if alt.is_empty() {
                return Err(Error::Spec(format!("{key}={value}: an alternative is empty")));
            }
            out.push(alt.to_string());
            continue;
        };
        let split = |end: &str| match end.rsplit_once('/') {
            Some((head, last)) => (format!("{}/", head.trim()), last.trim().to_string()),
            None => (String::new(), end.trim().to_string()),
        };
        let ((head, lo), (head_to, hi)) = (split(from), split(to));
        if head != head_to {
            return Err(Error::Spec(format!(
                "{key}={alt}: a range over lists ranges their last number only, e.g. 1/2..1/6"
            )));
        }
        let number = |t: &str| {
            t.parse::<u64>()
                .map_err(|_| Error::Spec(format!("{key}={alt}: '{t}' is not a whole number")))
        };
        let (lo, hi) = (number(&lo)?, number(&hi)?);
        if lo > hi {
            return Err(Error::Spec(format!(
                "{key}={alt}: the range is empty ({lo} > {hi})"
            )));
        }
        if hi - lo >= Family::MAX_MEMBERS as u64 {
            return Err(Error::Spec(format!(
                "{key}={alt}: more than {} values",
                Family::MAX_MEMBERS
            )));
        }
        out.extend((lo..=hi).map(|i| format!("{head}{i}")));
    }
    Ok(out)
}

/// The whole number `text` of `key`; refused when it is none, or too large to hold
/// (`hi` the key's largest).
fn number(key: &str, text: &str, hi: u64) -> Result<u64, Error> {
    if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit()) {
        return Err(Error::Spec(format!(
            "{key}={text}: '{text}' is not a whole number (digits only)"
        )));
    }
    text.parse()
        .map_err(|_| Error::Spec(format!("{key}={text} is too large (at most {hi})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn int(name: &'static str, default: Preset<u64>) -> Key {
        Key {
            name,
            values: Values::Int {
                lo: 1,
                hi: 8,
                default,
            },
            also: None,
            help: "",
        }
    }

    const M: Key = int("m", Preset::Is(3));
    const HEAPS: Key = Key {
        name: "heaps",
        values: Values::List {
            lo: 0,
            hi: 10,
            most: 3,
            what: "heaps of",
            default: Preset::Is(&[1, 2]),
        },
        also: None,
        help: "",
    };
    const MISERE: Key = Key {
        name: "misere",
        values: Values::Flag(false),
        also: None,
        help: "",
    };
    const FIRST: Key = Key {
        name: "first",
        values: Values::Word(&["white", "black", "red"]),
        also: None,
        help: "",
    };

    #[test]
    fn parses_name_and_options() {
        let s: Spec = "mnk:m=4,n=4,k=3".parse().unwrap();
        assert_eq!(s.name, "mnk");
        assert_eq!(s.int(&M).unwrap(), 4);
        assert_eq!(s.int(&int("absent", Preset::Is(3))).unwrap(), 3);
        let needed = s.int(&int("absent", Preset::Else("none"))).unwrap_err();
        assert_eq!(needed.to_string(), "bad game spec: absent= is needed");
        assert_eq!(s.to_string(), "mnk:m=4,n=4,k=3");
    }

    #[test]
    fn parses_lists_flags_and_words() {
        let s: Spec = "nim:heaps=6/9/3,misere=true,first=B".parse().unwrap();
        assert_eq!(s.list(&HEAPS).unwrap(), vec![6, 9, 3]);
        assert!(s.flag(&MISERE).unwrap());
        // Only the documented forms (issue 37, item 19).
        let yes: Spec = "nim:misere=yes".parse().unwrap();
        assert!(yes
            .flag(&MISERE)
            .unwrap_err()
            .to_string()
            .contains("expected true or false"));
        let plus: Spec = "mnk:m=+3".parse().unwrap();
        assert!(plus.int(&M).unwrap_err().to_string().contains("digits only"));
        let upper = "MNK:m=3".parse::<Spec>().unwrap_err().to_string();
        assert!(upper.contains("lower case (mnk)"), "{upper}");
        assert_eq!(s.word(&FIRST).unwrap(), 1);
        let bare: Spec = "nim".parse().unwrap();
        assert_eq!(bare.list(&HEAPS).unwrap(), vec![1, 2]);
        assert!(!bare.flag(&MISERE).unwrap());
        assert_eq!(bare.word(&FIRST).unwrap(), 0);
        let long: Spec = "nim:heaps=1/2/3/4,first=blue".parse().unwrap();
        assert!(long.list(&HEAPS).unwrap_err().to_string().contains("at most 3"));
        assert!(long
            .word(&FIRST)
            .unwrap_err()
            .to_string()
            .ends_with("first=blue: expected white, black or red"));
    }

    #[test]
    fn keys_describe_their_defaults_and_ranges() {
        let text = |k: Key| (k.default_text(), k.range_text());
        assert_eq!(text(M), ("3".into(), "1..=8".into()));
        let big = Key {
            values: Values::Int {
                lo: 0,
                hi: 1_000_000_000_000_000_000,
                default: Preset::Else("size"),
            },
            also: Some("with n"),
            ..M
        };
        assert_eq!(text(big), ("size".into(), "0..=10^18 (with n)".into()));
        assert_eq!(text(HEAPS), ("1/2".into(), "1..=3 heaps of 0..=10".into()));
        assert_eq!(text(MISERE), ("false".into(), "true/false".into()));
        assert_eq!(text(FIRST), ("white".into(), "white, black, red".into()));
    }

    #[test]
    fn families_spell_out_ranges_lists_and_alternatives() {
        let f: Family = "mnk:m=3..4,n=3,k=3|4".parse().unwrap();
        assert_eq!(f.varying(), ["m", "k"]);
        let specs: Vec<String> = f.members().iter().map(|m| m.spec.to_string()).collect();
        assert_eq!(
            specs,
            [
                "mnk:m=3,n=3,k=3",
                "mnk:m=3,n=3,k=4",
                "mnk:m=4,n=3,k=3",
                "mnk:m=4,n=3,k=4"
            ]
        );
        assert_eq!(
            f.members()[1].keys,
            [("m".into(), "3".into()), ("k".into(), "4".into())]
        );
        let sets: Family = "subtraction:set=1/2..1/4,n=0..200".parse().unwrap();
        assert_eq!(sets.values("set").unwrap(), ["1/2", "1/3", "1/4"]);
        assert_eq!(sets.members().len(), 3 * 201);
        // `..` without digits is no range: a board's free cells.
        let boards: Family = "domineering:board=..../.#..|..#./....".parse().unwrap();
        assert_eq!(boards.values("board").unwrap(), ["..../.#..", "..#./...."]);
        let plain: Family = "tictactoe".parse().unwrap();
        assert_eq!(plain.members().len(), 1);
        assert!(plain.varying().is_empty());
        for bad in [
            "mnk:m=5..3",
            "mnk:m=a..3",
            "subtraction:set=1/2..3/4",
            "mnk:m=3|",
            "mnk:m=0..99999",
        ] {
            assert!(bad.parse::<Family>().is_err(), "{bad}");
        }
        assert!("mnk:m=1..100,n=1..100,k=1..100".parse::<Family>().is_err());
    }

    #[test]
    fn sends_games_python_opens_to_python() {
        for text in [
            "openspiel:tic_tac_toe",
            "games.py:Race",
            "lib/games.py:Board.Small",
        ] {
            let e = text.parse::<Spec>().unwrap_err().to_string();
            assert!(e.contains("python -m zermelo"), "{text}: {e}");
        }
        let built_in = |name: &str| ["tictactoe", "nim"].contains(&name);
        assert!(python_game("my_games:Race", built_in).is_some());
        for text in ["tictactoe:Foo", "nim:heaps"] {
            assert_eq!(python_game(text, built_in), None, "{text}");
            let e = text.parse::<Spec>().unwrap_err().to_string();
            assert!(!e.contains("python"), "{text}: {e}");
        }
    }

    #[test]
    fn rejects_malformed_specs() {
        assert!("".parse::<Spec>().is_err());
        assert!("mnk:m".parse::<Spec>().is_err());
        assert!("mnk:m=1,m=2".parse::<Spec>().is_err());
        let s: Spec = "mnk:m=99".parse().unwrap();
        assert!(s.int(&M).unwrap_err().to_string().contains("out of range"));
        let huge: Spec = "nim:heaps=99999999999999999999999".parse().unwrap();
        assert!(huge.list(&HEAPS).unwrap_err().to_string().contains("too large"));
    }
}
