//! Game spec strings, `NAME` or `NAME:key=value,key=value` (list values joined by `/`),
//! and the description of each game's keys, defaults and ranges.

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

/// One key a game accepts.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct KeyInfo {
    /// The key as written in a spec.
    pub key: &'static str,
    /// Its default value, as text.
    pub default: &'static str,
    /// The values it accepts, as text for people.
    pub range: &'static str,
    /// What it means.
    pub help: &'static str,
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
    pub keys: &'static [KeyInfo],
    /// Its own players, `perfect` first; every game also takes [`COMMON_PLAYERS`].
    pub players: &'static [PlayerInfo],
}

/// A player a game offers.
#[derive(Clone, Debug, serde::Serialize)]
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
        name: "search[:DEPTH]",
        help: "depth-limited alpha-beta with the game's heuristic (depth 4)",
    },
    PlayerInfo {
        name: "cmd:COMMAND",
        help: "your own program, speaking the player protocol (docs/player-protocol.md)",
    },
];

impl FromStr for Spec {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        let text = text.trim();
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
        let mut options: Vec<(String, String)> = Vec::new();
        for part in rest.into_iter().flat_map(|r| r.split(',')) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(Error::Spec(format!("'{part}' is not key=value")));
            };
            let (key, value) = (key.trim().to_ascii_lowercase(), value.trim().to_string());
            if key.is_empty() || value.is_empty() {
                return Err(Error::Spec(format!("'{part}' is not key=value")));
            }
            if options.iter().any(|(k, _)| *k == key) {
                return Err(Error::Spec(format!("key '{key}' is given twice")));
            }
            options.push((key, value));
        }
        Ok(Spec {
            name: name.to_ascii_lowercase(),
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
    /// Refuses keys that `info` does not list.
    pub fn check_keys(&self, info: &GameInfo) -> Result<(), Error> {
        for (key, _) in &self.options {
            if !info.keys.iter().any(|k| k.key == key) {
                let known: Vec<&str> = info.keys.iter().map(|k| k.key).collect();
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

    /// An integer option in `lo..=hi`, `default` when absent.
    pub fn int(&self, key: &str, default: u64, lo: u64, hi: u64) -> Result<u64, Error> {
        let Some(text) = self.get(key) else {
            return Ok(default);
        };
        let v: u64 = text.parse().map_err(|_| not_a_number(key, text, hi))?;
        if v < lo || v > hi {
            return Err(Error::Spec(format!("{key}={v} is out of range {lo}..={hi}")));
        }
        Ok(v)
    }

    /// A boolean option (`true`/`false`, `yes`/`no`, `1`/`0`), `default` when absent.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, Error> {
        match self.get(key).map(|t| t.to_ascii_lowercase()) {
            None => Ok(default),
            Some(t) if matches!(t.as_str(), "true" | "yes" | "1") => Ok(true),
            Some(t) if matches!(t.as_str(), "false" | "no" | "0") => Ok(false),
            Some(t) => Err(Error::Spec(format!("{key}={t}: expected true or false"))),
        }
    }

    /// A list of whole numbers joined by `/`, each in `lo..=hi`; `None` when absent.
    pub fn list(&self, key: &str, lo: u64, hi: u64) -> Result<Option<Vec<u64>>, Error> {
        let Some(text) = self.get(key) else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for item in text.split('/') {
            let v: u64 = item
                .trim()
                .parse()
                .map_err(|_| not_a_number(key, item.trim(), hi))?;
            if v < lo || v > hi {
                return Err(Error::Spec(format!(
                    "{key}={text}: {v} is out of range {lo}..={hi}"
                )));
            }
            out.push(v);
        }
        Ok(Some(out))
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
        let Some((from, to)) = alt.split_once("..") else {
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

/// The error for a value of `key` that is no whole number, or one too large to hold.
fn not_a_number(key: &str, text: &str, hi: u64) -> Error {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        Error::Spec(format!("{key}={text} is too large (at most {hi})"))
    } else {
        Error::Spec(format!("{key}={text}: '{text}' is not a whole number"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_and_options() {
        let s: Spec = "mnk:m=4,n=4,k=3".parse().unwrap();
        assert_eq!(s.name, "mnk");
        assert_eq!(s.int("m", 3, 1, 8).unwrap(), 4);
        assert_eq!(s.int("absent", 3, 1, 8).unwrap(), 3);
        assert_eq!(s.to_string(), "mnk:m=4,n=4,k=3");
    }

    #[test]
    fn parses_lists_and_flags() {
        let s: Spec = "nim:heaps=6/9/3,misere=yes".parse().unwrap();
        assert_eq!(s.list("heaps", 0, 100).unwrap(), Some(vec![6, 9, 3]));
        assert!(s.flag("misere", false).unwrap());
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
    fn rejects_malformed_specs() {
        assert!("".parse::<Spec>().is_err());
        assert!("mnk:m".parse::<Spec>().is_err());
        assert!("mnk:m=1,m=2".parse::<Spec>().is_err());
        let s: Spec = "mnk:m=99".parse().unwrap();
        assert!(s
            .int("m", 3, 1, 8)
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        let huge: Spec = "nim:heaps=99999999999999999999999".parse().unwrap();
        assert!(huge
            .list("heaps", 0, 10)
            .unwrap_err()
            .to_string()
            .contains("too large"));
    }
}
