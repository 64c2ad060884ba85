//! A family's own studies: analyses beyond one game's solve (the Grundy sequence of a heap
//! game, the sweep of every reduced Big Points board), listed by the family's catalog
//! entry and run through it by every front end alike.

use std::collections::BTreeMap;
use std::str::FromStr;

use super::Options;
use crate::Error;

/// A study a family offers: its name, what it takes, and how it runs.
pub struct Study {
    /// The name front ends ask for (`zermelo grundy`, `game.study("grundy")`).
    pub name: &'static str,
    /// One line saying what it tells.
    pub summary: &'static str,
    /// The arguments it takes besides the spec.
    pub keys: &'static [StudyKey],
    /// Whether it studies `spec` (a game's spec, or a family's with ranges); a spec it
    /// does not take may still name its game.
    pub takes: fn(spec: &str) -> bool,
    /// Runs it on `spec` under `opts` (its budget, data folder, progress, and the
    /// partition of the work across processes).
    pub run: fn(spec: &str, args: &StudyArgs, opts: &Options) -> Result<StudyReport, Error>,
}

/// What a front end lists of a study: its name, what it tells and the arguments it takes.
#[derive(Clone, Copy, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct StudyInfo {
    /// Its name.
    pub name: &'static str,
    /// One line saying what it tells.
    pub summary: &'static str,
    /// The arguments it takes besides the spec.
    pub keys: &'static [StudyKey],
}

impl Study {
    /// What a front end lists of it.
    pub fn describe(&self) -> StudyInfo {
        StudyInfo {
            name: self.name,
            summary: self.summary,
            keys: self.keys,
        }
    }
}

/// An argument a study takes.
#[derive(Clone, Copy, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct StudyKey {
    /// Its name.
    pub name: &'static str,
    /// What it means.
    pub help: &'static str,
}

/// The files a front end writes from a report: every study takes them.
pub const FILE_KEYS: [StudyKey; 2] = [
    StudyKey {
        name: "csv",
        help: "the file the front end writes the report's CSV to",
    },
    StudyKey {
        name: "plot",
        help: "the file the front end writes the report's SVG to",
    },
];

/// A study's arguments by name, as text; each study reads its own.
#[derive(Clone, Debug, Default)]
pub struct StudyArgs {
    values: BTreeMap<String, String>,
}

impl StudyArgs {
    /// No arguments.
    pub fn new() -> Self {
        Self::default()
    }

    /// These arguments with `key` set to `value`.
    pub fn with(mut self, key: &str, value: impl ToString) -> Self {
        self.values.insert(key.to_string(), value.to_string());
        self
    }

    /// Refuses an argument that is not one of `study`'s keys nor a file key.
    pub fn check(&self, study: &Study) -> Result<(), Error> {
        let known = |k: &str| study.keys.iter().chain(&FILE_KEYS).any(|s| s.name == k);
        match self.values.keys().find(|k| !known(k)) {
            Some(k) => {
                let names: Vec<&str> = study.keys.iter().map(|s| s.name).collect();
                Err(Error::Unsupported(format!(
                    "the {} study takes no '{k}' (it takes: {})",
                    study.name,
                    names.join(", ")
                )))
            }
            None => Ok(()),
        }
    }

    /// The text of `key`, when given.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// The value of `key` read as a `T`, when given.
    pub fn get<T: FromStr>(&self, key: &str) -> Result<Option<T>, Error> {
        self.text(key)
            .map(|t| {
                t.trim()
                    .parse()
                    .map_err(|_| Error::Unsupported(format!("{key}={t} is not a valid value")))
            })
            .transpose()
    }

    /// Whether the switch `key` is on (`true`; absent or `false` is off).
    pub fn switch(&self, key: &str) -> Result<bool, Error> {
        Ok(self.get::<bool>(key)?.unwrap_or(false))
    }

    /// The comma-separated items of `key` (none when absent).
    pub fn list(&self, key: &str) -> Vec<String> {
        self.text(key)
            .map(|t| {
                t.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// What a study found, for every front end to render: a text table, a JSON document (in
/// the schema, `docs/schema.json`), and optionally CSV rows, an SVG chart and the series
/// the chart plots.
#[derive(Clone, Debug, Default)]
pub struct StudyReport {
    /// For people.
    pub text: String,
    /// The JSON document, its `command` the study's name.
    pub json: serde_json::Value,
    /// One row per item studied, when the study has rows.
    pub csv: Option<String>,
    /// A chart, when asked for (the `plot` argument).
    pub svg: Option<String>,
    /// The values the chart plots, for front ends that draw their own.
    pub series: Option<serde_json::Value>,
}

/// `value` as the JSON document of the study `name`: its fields, and `command`.
pub fn document(name: &str, value: &impl serde::Serialize) -> Result<serde_json::Value, Error> {
    let mut json = serde_json::to_value(value).map_err(|e| Error::Io(format!("a report as JSON: {e}")))?;
    if let serde_json::Value::Object(map) = &mut json {
        map.insert("command".into(), name.into());
    }
    Ok(json)
}
