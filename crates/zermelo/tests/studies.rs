//! A family's studies come through its catalog entry: found by name, their arguments
//! checked, their reports the same whichever front end asks.

use zermelo::catalog;
use zermelo::session::study::{Study, StudyKey};
use zermelo::session::Options;
use zermelo::spec::{Preset, Values};

fn options(name: &str) -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-studies-{name}-{}", std::process::id())),
        save: false,
        ..Options::default()
    }
}

#[test]
fn every_study_is_listed_by_its_entry_and_found_by_name() {
    for entry in catalog::entries() {
        for study in entry.studies {
            assert!(!study.summary.is_empty() && study.keys.iter().all(|k| !k.help.is_empty()));
            let listed = entry.describe().studies;
            assert!(listed.iter().any(|s| s.name == study.name), "{}", entry.info.name);
        }
    }
    assert!(catalog::study("octal:code=0.77", "grundy").is_ok());
    assert!(catalog::study("bigpoints:colors=2..3,discs=2", "balance").is_ok());
    let err = catalog::study("nim:heaps=3", "grundy").err().unwrap().to_string();
    assert_eq!(
        err,
        "nim has no grundy study; the games with one: subtraction, octal"
    );
    let err = catalog::study("tictactoe", "census").err().unwrap().to_string();
    assert_eq!(err, "no game offers a study named 'census'");
    assert!(catalog::study("chess", "grundy")
        .err()
        .unwrap()
        .to_string()
        .contains("unknown game 'chess'"));
}

#[test]
fn a_study_reads_its_own_arguments_and_refuses_others() {
    let grundy = catalog::study("octal:code=0.77", "grundy").unwrap();
    let args = grundy.args([("to", "40")]).unwrap();
    let report = (grundy.run)("octal:code=0.77", &args, &options("args")).unwrap();
    assert_eq!(report.json["computed_to"], 40);
    assert_eq!(report.json["command"], "grundy");
    assert!(report
        .text
        .starts_with("octal game 0.77 (Kayles)\nGrundy values: 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7"));
    assert!(report.svg.is_none() && report.series.is_some());
    let refused =
        |study: &Study, key: &str, value: &str| study.args([(key, value)]).err().unwrap().to_string();
    assert_eq!(
        refused(grundy, "depth", "2"),
        "the grundy study takes no 'depth' (it takes: to, save_every, csv, plot)"
    );
    assert_eq!(
        refused(grundy, "to", "many"),
        "to=many: 'many' is not a whole number (digits only)"
    );
    assert_eq!(
        refused(grundy, "to", "4294967295"),
        "to=4294967295 is out of range 0..=4294967294"
    );
    assert_eq!(
        refused(grundy, "save_every", "0.01"),
        "save_every=0.01 is out of range 0.1..=86400"
    );
    assert_eq!(
        refused(grundy, "save_every", "often"),
        "save_every=often: 'often' is not a number"
    );
}

#[test]
fn every_study_key_is_declared_with_a_default_in_its_range() {
    for study in catalog::entries().iter().flat_map(|e| e.studies) {
        let none = study.args(std::iter::empty::<(&str, &str)>()).unwrap();
        for key in study.keys {
            assert!(
                !key.help.is_empty() && !key.range_text().is_empty(),
                "{}",
                key.name
            );
            // Absent, each key reads as its declared default (or as absent, where the
            // study does something else without it).
            match key.values {
                Values::Int { default, .. } => {
                    let read = none.int(key);
                    match default {
                        Preset::Is(v) => assert_eq!(read.unwrap(), v),
                        Preset::Else(_) => assert!(read.is_err() && none.int_given(key).unwrap().is_none()),
                    }
                }
                Values::Flag(default) => assert_eq!(none.flag(key).unwrap(), default),
                Values::Real { lo, hi, default } => {
                    assert!((lo..=hi).contains(&default), "{}", key.name);
                    assert_eq!(none.real(key).unwrap(), default);
                }
                Values::Text { .. } => assert_eq!(none.text(key), None),
                _ => {}
            }
            let listed = StudyKey::of(key);
            assert_eq!((listed.name, listed.default), (key.name, key.default_text()));
        }
    }
}

#[test]
fn the_sweep_gives_rows_and_a_chart_when_asked() {
    let sweep = catalog::study("bigpoints:colors=2,discs=2", "balance").unwrap();
    let args = sweep.args([("plot", "chart.svg")]).unwrap();
    let report = (sweep.run)("bigpoints:colors=2,discs=2", &args, &options("sweep")).unwrap();
    assert_eq!(report.json["configs"][0]["solved"], 3);
    // Every board has its row, those of a class solved once included.
    assert_eq!(report.csv.unwrap().lines().count(), 7);
    assert!(report.svg.unwrap().starts_with("<svg"));
    let err = sweep.args([("sample", "0")]).err().unwrap().to_string();
    assert_eq!(err, "sample=0 is out of range 1..=20000000");
    let err = sweep.args([("every_board", "yes")]).err().unwrap().to_string();
    assert_eq!(err, "every_board=yes: expected true or false");
    // Every board solved: the same 3 classes' 6 boards, each its own.
    let every = sweep.args([("every_board", "true")]).unwrap();
    let report = (sweep.run)("bigpoints:colors=2,discs=2", &every, &options("sweep")).unwrap();
    assert_eq!(report.json["configs"][0]["solved"], 6);
}
