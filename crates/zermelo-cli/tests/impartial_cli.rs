//! `zermelo grundy`, `solve` and `moves` on Nim, subtraction, octal games and sums.

mod common;

use common::{fact, zermelo};
use serde_json::Value;

/// Runs a command with `--json` in a data folder of the calling test's own, so that tests
/// running side by side never share the sequences `solve` saves.
fn json(args: &[&str]) -> Value {
    let thread = std::thread::current();
    let data = std::env::temp_dir().join(format!(
        "zermelo-impartial-{}-{}",
        std::process::id(),
        thread.name().unwrap_or("main")
    ));
    common::json(&[&["--data", data.to_str().unwrap()], args, &["--json"]].concat())
}

/// The winning moves of a `moves` answer.
fn winning_moves(v: &Value) -> Vec<&str> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["value"] == "win")
        .map(|m| m["move"].as_str().unwrap())
        .collect()
}

#[test]
fn grundy_of_the_course_subtraction_games() {
    let v = json(&["grundy", "subtraction:set=1/2/3"]);
    assert_eq!(
        (v["preperiod"].clone(), v["period"].clone()),
        (0.into(), 4.into())
    );
    assert_eq!(v["pattern"], "LWWW");
    assert_eq!(v["grundy_pattern"], serde_json::json!([0, 1, 2, 3]));
    assert_eq!(v["proven"], true);
    let v = json(&["grundy", "subtraction:set=1/4", "--to", "30"]);
    assert_eq!(v["period"], 5);
    assert_eq!(v["pattern"], "LWLWW");
    assert_eq!(v["computed_to"], 30);
    assert!(v["outcomes"].as_str().unwrap().starts_with("LWLWWLWLWW"));
}

#[test]
fn twenty_one_stones_win_for_the_first_player() {
    for set in ["1/2/3", "1/4"] {
        let v = json(&["solve", &format!("subtraction:set={set},n=21")]);
        assert_eq!(v["value"], "win", "{set}");
    }
    let v = json(&["moves", "subtraction:set=1/2/3,n=21"]);
    assert_eq!(winning_moves(&v), ["1-1"]);
    let v = json(&["solve", "subtraction:set=1/2/3,n=1000000000000000000"]);
    assert_eq!(v["value"], "lose");
    let v = json(&["solve", "subtraction:set=1/2/3,n=21,misere=true"]);
    assert_eq!(v["value"], "lose");
}

#[test]
fn nim_six_nine_three_takes_four_from_the_nine() {
    let v = json(&["solve", "nim:heaps=6/9/3"]);
    assert_eq!(v["value"], "win");
    assert_eq!(fact(&v, "grundy"), 12);
    assert_eq!(winning_moves(&json(&["moves", "nim:heaps=6/9/3"])), ["2-4"]);
    let v = json(&["moves", "nim:heaps=6/9/3", "--moves", "2-4"]);
    assert_eq!(v["value"], "lose");
    assert_eq!(v["position"], "2:6/5/3");
    assert_eq!(v["moves"].as_array().unwrap().len(), 14);
    let v = json(&["moves", "nim:heaps=1/1/5,misere=true"]);
    assert_eq!(winning_moves(&v), ["3-4"]);
    let v = json(&["moves", "nim:heaps=1000000000000000000/3"]);
    assert_eq!(winning_moves(&v), ["1-999999999999999997"]);
}

#[test]
fn kayles_period_twelve_preperiod_seventy_one_proven() {
    let v = json(&["grundy", "octal:code=0.77"]);
    assert_eq!(v["name"], "Kayles");
    assert_eq!(v["preperiod"], 71);
    assert_eq!(v["period"], 12);
    assert_eq!(v["proven"], true);
    assert_eq!(
        v["start"].as_array().unwrap()[..6],
        serde_json::json!([0, 1, 2, 3, 1, 4]).as_array().unwrap()[..]
    );
    let v = json(&["grundy", "octal:code=0.77", "--to", "50"]);
    assert_eq!(v["proven"], false);
    assert_eq!(v["period"], Value::Null);
    assert_eq!(v["computed_to"], 50);
    // The alias and `zermelo study`, its key as a flag or as KEY=VALUE, are one study.
    let found =
        |v: &Value| ["game", "preperiod", "period", "computed_to", "proven", "start"].map(|k| v[k].clone());
    for args in [
        &["study", "octal:code=0.77", "grundy", "to=50"][..],
        &["grundy", "octal:code=0.77", "to=50"][..],
    ] {
        assert_eq!(found(&json(args)), found(&v), "{args:?}");
    }
}

#[test]
fn sums_are_solved_by_xor() {
    // Kayles 3, 5, 7 have values 3, 4, 2; with a Nim heap of 4 the sum is 3 ^ 4 ^ 2 ^ 4 = 1.
    let v = json(&["moves", "sum:code=0.77,heaps=3/5/7,nim=4"]);
    assert_eq!(fact(&v, "heap_values"), serde_json::json!([3, 4, 2, 4]));
    assert_eq!(fact(&v, "grundy"), 1);
    for m in winning_moves(&v) {
        let after = json(&["moves", "sum:code=0.77,heaps=3/5/7,nim=4", "--moves", m]);
        assert_eq!(fact(&after, "grundy"), 0, "{m}");
    }
}

#[test]
fn the_perfect_player_never_loses_a_won_game() {
    let v = json(&[
        "tournament",
        "nim:heaps=3/4/5",
        "--players",
        "perfect,random",
        "--games",
        "40",
    ]);
    let perfect = &v["players"][0];
    assert_eq!(perfect["player"], "perfect");
    assert_eq!(
        perfect["wins"].as_u64().unwrap() + perfect["losses"].as_u64().unwrap(),
        40
    );
    // Seated first half of the time, where 3/4/5 is won, it wins all those games.
    assert!(perfect["wins"].as_u64().unwrap() >= 20);
}

#[test]
fn grundy_plot_is_an_svg() {
    let file = std::env::temp_dir().join(format!("zermelo-kayles-{}.svg", std::process::id()));
    let path = file.to_str().unwrap();
    let out = zermelo(&["grundy", "octal:code=0.77", "--plot", path]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("one period (12 values)"));
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn bad_input_is_one_error_line() {
    for args in [
        &["grundy", "subtraction:set="][..],
        &["grundy", "subtraction:set=0/3"],
        &["grundy", "subtraction:set=-2"],
        &["grundy", "octal:code=0.78"],
        &["grundy", "octal:code=0."],
        &["grundy", "octal:code=5.7"],
        &["grundy", "nim:heaps=3"],
        &["grundy", "sum:nim=3"],
        &["grundy", "octal:code=0.77", "--to", "1000000000000"],
        &["solve", "octal:code=0.77,heaps=1000001"],
        &["solve", "nim:heaps=1000000000000000001"],
        &["solve", "sum:code=0.77"],
        &["moves", "nim:heaps=6/9/3", "--moves", "2-10"],
        &["moves", "nim:heaps=6/9/3", "--moves", "4-1"],
        &["moves", "octal:code=0.77,heaps=5", "--moves", "1-1=1+1"],
        &["tournament", "nim:heaps=1000000000000"],
    ] {
        let out = zermelo(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error:") && !err.contains("panicked"), "{err}");
    }
}

/// A data folder of the calling test's own, empty.
fn fresh_data(name: &str) -> std::path::PathBuf {
    let data = std::env::temp_dir().join(format!("zermelo-grundy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    data
}

#[test]
fn grundy_goes_on_from_the_values_saved() {
    let data = fresh_data("resume");
    let dir = data.to_str().unwrap();
    let first = zermelo(&["--data", dir, "grundy", "octal:code=0.6", "--to", "49999"]);
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(text.contains("source: computed now\nsaved: "), "{text}");
    let next = zermelo(&["--data", dir, "grundy", "octal:code=0.6", "--to", "99999"]);
    let text = String::from_utf8_lossy(&next.stdout);
    assert!(
        text.contains("source: going on from the data folder (n <= 49999 read, the rest computed now)"),
        "{text}"
    );
    let v = common::documented(&["--data", dir, "grundy", "octal:code=0.6", "--to", "149999"]);
    assert_eq!(v["source"], "going on from the data folder");
    assert_eq!(v["resumed_from"], 100_000);
    assert!(v["saved"].as_str().unwrap().ends_with("octal-code-0-6.zdb"));
    // Within the values saved, they are read.
    let v = common::documented(&["--data", dir, "grundy", "octal:code=0.6", "--to", "120000"]);
    assert_eq!(v["source"], "read from the data folder");
    assert_eq!(v["saved"], Value::Null);
    // A sequence saved with a proven period is not gone on from: a report of fewer heaps
    // computes them, and leaves the file as it is.
    assert!(zermelo(&["--data", dir, "solve", "octal:code=0.77,heaps=10"])
        .status
        .success());
    let v = common::documented(&["--data", dir, "grundy", "octal:code=0.77", "--to", "50"]);
    assert_eq!(
        (v["computed_to"].as_u64(), v["proven"].as_bool()),
        (Some(50), Some(false))
    );
    assert_eq!(
        (v["source"].as_str(), v["saved"].as_str()),
        (Some("computed now"), None)
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// Starts a long `grundy` run saving every 0.1 s, waits until it has saved (the file
/// changed), and sends it `signal`.
fn stop_grundy(dir: &str, signal: i32) -> std::process::Output {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["--data", dir, "grundy", "octal:code=0.6", "--to", "4194303"])
        .args(["--save-every", "0.1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let saved = std::path::Path::new(dir).join("octal-code-0-6.zdb");
    let stamp = || {
        std::fs::metadata(&saved)
            .and_then(|m| Ok((m.len(), m.modified()?)))
            .ok()
    };
    let before = stamp();
    let deadline = Instant::now() + Duration::from_secs(60);
    while stamp() == before && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: a plain kill of our own child.
    unsafe { libc::kill(child.id() as i32, signal) };
    child.wait_with_output().expect("the run ends")
}

/// The values a data folder holds for 0.6, from `db info`.
fn saved_heaps(dir: &str) -> u64 {
    let path = format!("{dir}/octal-code-0-6.zdb");
    let out = zermelo(&["db", "info", &path]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("positions: "))
        .expect("positions");
    line["positions: ".len()..].parse().unwrap()
}

#[test]
fn a_stopped_grundy_run_keeps_its_values_and_goes_on_to_the_same_file() {
    let whole = fresh_data("whole");
    let whole_dir = whole.to_str().unwrap();
    let to = ["grundy", "octal:code=0.6", "--to", "299999"];
    assert!(zermelo(&[&["--data", whole_dir][..], &to].concat())
        .status
        .success());

    let stopped = fresh_data("stopped");
    let dir = stopped.to_str().unwrap();
    let out = stop_grundy(dir, libc::SIGKILL);
    assert!(!out.status.success(), "killed before it ended");
    let killed_at = saved_heaps(dir);
    assert!(killed_at > 0 && killed_at < 300_000, "{killed_at}");

    let out = stop_grundy(dir, libc::SIGINT);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("stopped before the end: the values computed are saved in the data folder"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let stopped_at = saved_heaps(dir);
    assert!(
        stopped_at > killed_at && stopped_at < 300_000,
        "{killed_at} then {stopped_at}"
    );

    let out = zermelo(&[&["--data", dir][..], &to].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("source: going on from the data folder"), "{text}");
    let a = std::fs::read(whole.join("octal-code-0-6.zdb")).unwrap();
    let b = std::fs::read(stopped.join("octal-code-0-6.zdb")).unwrap();
    assert!(
        a == b,
        "the values of the stopped run differ from those of one run"
    );
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&stopped);
}

#[test]
fn a_damaged_saved_sequence_is_one_error_line() {
    let data = fresh_data("damaged");
    let dir = data.to_str().unwrap();
    std::fs::create_dir_all(&data).unwrap();
    let file = data.join("octal-code-0-6.zdb");
    std::fs::write(&file, b"not a database").unwrap();
    let err = common::error_line(&["--data", dir, "grundy", "octal:code=0.6", "--to", "9999"]);
    assert!(
        err.contains("run with --force, to compute the values again"),
        "{err}"
    );
    let out = zermelo(&[
        "--data",
        dir,
        "grundy",
        "octal:code=0.6",
        "--to",
        "9999",
        "--force",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(saved_heaps(dir), 10_000);
    // A file cut short is refused the same way.
    let whole = std::fs::read(&file).unwrap();
    std::fs::write(&file, &whole[..whole.len() / 2]).unwrap();
    common::error_line(&["--data", dir, "grundy", "octal:code=0.6", "--to", "19999"]);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_heap_of_more_moves_than_are_listed_lists_as_many_as_are() {
    // Heap 201 has 201 moves; 200 are listed (the winning one, taking all, among them).
    let v = json(&["moves", "nim:heaps=201"]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), zermelo::session::MOVES_LISTED, "{v}");
    assert_eq!(winning_moves(&v), ["1-201"]);
    let notations: std::collections::HashSet<&str> =
        moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(notations.len(), moves.len(), "each move once");
}
