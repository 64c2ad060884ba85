//! A family's studies come through its catalog entry: found by name, their arguments
//! checked, their reports the same whichever front end asks.

use zermelo::catalog;
use zermelo::session::study::StudyArgs;
use zermelo::session::Options;

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
    let args = StudyArgs::new().with("to", 40);
    let report = (grundy.run)("octal:code=0.77", &args, &options("args")).unwrap();
    assert_eq!(report.json["computed_to"], 40);
    assert_eq!(report.json["command"], "grundy");
    assert!(report
        .text
        .starts_with("octal game 0.77 (Kayles)\nGrundy values: 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7"));
    assert!(report.svg.is_none() && report.series.is_some());
    let err = (grundy.run)(
        "octal:code=0.77",
        &StudyArgs::new().with("depth", 2),
        &options("args"),
    );
    assert!(err.err().unwrap().to_string().contains("takes no 'depth'"));
    let err = (grundy.run)(
        "octal:code=0.77",
        &StudyArgs::new().with("to", "many"),
        &options("args"),
    );
    assert_eq!(err.err().unwrap().to_string(), "to=many is not a valid value");
}

#[test]
fn the_sweep_gives_rows_and_a_chart_when_asked() {
    let sweep = catalog::study("bigpoints:colors=2,discs=2", "balance").unwrap();
    let args = StudyArgs::new().with("plot", "chart.svg");
    let report = (sweep.run)("bigpoints:colors=2,discs=2", &args, &options("sweep")).unwrap();
    assert_eq!(report.json["configs"][0]["solved"], 3);
    // Every board has its row, those of a class solved once included.
    assert_eq!(report.csv.unwrap().lines().count(), 7);
    assert!(report.svg.unwrap().starts_with("<svg"));
    let err = (sweep.run)(
        "bigpoints:colors=2,discs=2",
        &StudyArgs::new().with("sample", 0),
        &options("sweep"),
    );
    assert_eq!(err.err().unwrap().to_string(), "sample must be at least 1");
}
