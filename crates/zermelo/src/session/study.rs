//! A family's own studies: analyses beyond one game's solve (the Grundy sequence of a heap
//! game, the sweep of every reduced Big Points board), listed by the family's catalog
//! entry and run through it by every front end alike.

use super::Options;
use crate::spec::{Key, Preset, Values};
use crate::{Error, Spec};

/// A study a family offers: its name, what it takes, and how it runs.
pub struct Study {
    /// The name front ends ask for (`zermelo study SPEC grundy`, `game.study("grundy")`).
    pub name: &'static str,
    /// One line saying what it tells.
    pub summary: &'static str,
    /// The arguments it takes besides the spec and [`FILE_KEYS`], each with its kind, range
    /// and default.
    pub keys: &'static [Key],
    /// Whether it studies `spec` (a game's spec, or a family's with ranges); a spec it
    /// does not take may still name its game.
    pub takes: fn(spec: &str) -> bool,
    /// Runs it on `spec` with its arguments checked, under `opts` (its budget, data
    /// folder, progress, and the partition of the work across processes).
    pub run: fn(spec: &str, args: &StudyArgs, opts: &Options) -> Result<StudyReport, Error>,
}

/// What a front end lists of a study: its name, what it tells and the arguments it takes.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct StudyInfo {
    /// Its name.
    pub name: &'static str,
    /// One line saying what it tells.
    pub summary: &'static str,
    /// The arguments it takes besides the spec.
    pub keys: Vec<StudyKey>,
}

impl Study {
    /// What a front end lists of it.
    pub fn describe(&self) -> StudyInfo {
        StudyInfo {
            name: self.name,
            summary: self.summary,
            keys: self.keys.iter().map(StudyKey::of).collect(),
        }
    }

    /// Its key `name`, or a file key every study takes.
    pub fn key(&self, name: &str) -> Option<&'static Key> {
        self.keys.iter().chain(&FILE_KEYS).find(|k| k.name == name)
    }

    /// `given` (key and value as text, as a person typed them) checked against its keys
    /// once: a key it does not take, a value of the wrong kind or out of range is refused
    /// with the key and what it takes.
    pub fn args<K: AsRef<str>, V: AsRef<str>>(
        &self,
        given: impl IntoIterator<Item = (K, V)>,
    ) -> Result<StudyArgs, Error> {
        let mut spec: Spec = self.name.parse()?;
        for (key, value) in given {
            let (key, value) = (key.as_ref(), value.as_ref().trim());
            let Some(declared) = self.key(key) else {
                let names: Vec<&str> = self.keys.iter().chain(&FILE_KEYS).map(|k| k.name).collect();
                return Err(Error::Unsupported(format!(
                    "the {} study takes no '{key}' (it takes: {})",
                    self.name,
                    names.join(", ")
                )));
            };
            if spec.has(declared) {
                return Err(Error::Unsupported(format!("{key} is given twice")));
            }
            spec = spec.with(key, value);
            let checked = match declared.values {
                Values::Int { .. } => spec.int(declared).map(drop),
                Values::Flag(_) => spec.flag(declared).map(drop),
                Values::List { .. } => spec.list(declared).map(drop),
                Values::Word(_) => spec.word(declared).map(drop),
                Values::Real { .. } => spec.real(declared).map(drop),
                Values::Text { .. } => spec.text(declared).map(drop),
            };
            // The spec's words without its "bad game spec".
            checked.map_err(|e| match e {
                Error::Spec(why) => Error::Unsupported(why),
                e => e,
            })?;
        }
        Ok(StudyArgs { given: spec })
    }
}

/// A study's key as front ends list it: its name, kind, default, range and help.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct StudyKey {
    /// Its name.
    pub name: &'static str,
    /// The kind of its values: `int`, `flag`, `list`, `word`, `real` or `text`.
    pub kind: &'static str,
    /// Its default, or what the study does without it.
    pub default: String,
    /// The values it takes, in words.
    pub range: String,
    /// What it means.
    pub help: &'static str,
}

impl StudyKey {
    /// How `key` is listed.
    pub fn of(key: &Key) -> StudyKey {
        StudyKey {
            name: key.name,
            kind: key.kind(),
            default: key.default_text(),
            range: key.range_text(),
            help: key.help,
        }
    }
}

/// A file a front end writes from a report.
const fn file(name: &'static str, help: &'static str) -> Key {
    Key {
        name,
        values: Values::Text {
            form: "a file",
            default: Preset::Else("none"),
        },
        also: None,
        help,
    }
}

/// The file a front end writes a report's CSV rows to.
pub const CSV: Key = file("csv", "the file the report's CSV rows are written to");
/// The file a front end writes a report's SVG chart to; a study draws its chart when given.
pub const PLOT: Key = file("plot", "the file the report's SVG chart is written to");
/// The files a front end writes from a report: every study takes them.
pub const FILE_KEYS: [Key; 2] = [CSV, PLOT];

/// A study's arguments, checked against its keys by [`Study::args`]: each read as its
/// kind, the declared default when absent.
#[derive(Clone, Debug)]
pub struct StudyArgs {
    given: Spec,
}

impl StudyArgs {
    /// Whether `key` is given.
    pub fn has(&self, key: &Key) -> bool {
        self.given.has(key)
    }

    /// The whole number of an int key.
    pub fn int(&self, key: &Key) -> Result<u64, Error> {
        self.given.int(key)
    }

    /// The whole number of an int key, `None` when absent.
    pub fn int_given(&self, key: &Key) -> Result<Option<u64>, Error> {
        self.has(key).then(|| self.int(key)).transpose()
    }

    /// Whether a flag key is on.
    pub fn flag(&self, key: &Key) -> Result<bool, Error> {
        self.given.flag(key)
    }

    /// The number of a real key.
    pub fn real(&self, key: &Key) -> Result<f64, Error> {
        self.given.real(key)
    }

    /// The text of a text key, `None` when absent.
    pub fn text(&self, key: &Key) -> Option<&str> {
        self.given.get(key.name)
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
