//! Saved databases from the command line: every kind of damage gives one clear error and
//! a non-zero exit, never a wrong answer; a killed or interrupted solve goes on from its
//! checkpoints to a database byte for byte the same as an uninterrupted one.

mod common;

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{error_line, fact, json};

/// A data folder of its own for each test.
fn data_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-db-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

const SPEC: &str = "pawns:cols=3,rows=5";

#[test]
fn damaged_or_mismatched_databases_are_refused() {
    let data = data_dir("faults");
    let d = text(&data);
    json(&["--data", d, "solve", "pawns:cols=3,rows=4", "--json"]);
    let solved = json(&["--data", d, "solve", SPEC, "--json"]);
    let path = data.join("pawns-3x5.zdb");
    let good = std::fs::read(&path).unwrap();
    let info = json(&["db", "info", text(&path), "--json"]);
    assert_eq!(info["spec"], SPEC);
    assert_eq!(info["positions"], solved["positions"]);
    let list = json(&["--data", d, "db", "list", "--json"]);
    assert_eq!(list["databases"].as_array().unwrap().len(), 2, "{list}");
    let checked = json(&["db", "verify", text(&path), "--sample", "500", "--json"]);
    assert_eq!(checked["sampled"], 500);
    let wdl_block = good.len()
        - 2 * 20
        - info["layers"][0]["stored_bytes"].as_u64().unwrap() as usize
        - info["layers"][1]["stored_bytes"].as_u64().unwrap() as usize;

    let mut cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", good[..good.len() / 2].to_vec(), "truncated"),
        ("one byte short", good[..good.len() - 1].to_vec(), "truncated"),
        ("empty", Vec::new(), "bad magic"),
    ];
    let mut flip = |what, at: usize, why| {
        let mut bytes = good.clone();
        bytes[at] ^= 0x10;
        cases.push((what, bytes, why));
    };
    flip("a byte in the header", 30, "header fails its checksum");
    flip(
        "a byte in a block",
        wdl_block + 7,
        "block 0 of the wdl layer fails its checksum",
    );
    flip("a byte in the block index", good.len() - 5, "block index of the");
    flip(
        "the format version",
        8,
        "this zermelo reads version 2: solve again with --force",
    );
    for (what, bytes, why) in cases {
        std::fs::write(&path, &bytes).unwrap();
        for args in [
            vec!["--data", d, "moves", SPEC],
            vec!["--data", d, "solve", SPEC],
            vec!["--data", d, "tournament", SPEC, "--games", "2"],
            vec!["db", "verify", text(&path)],
        ] {
            let err = error_line(&args);
            assert!(err.contains(why), "{what}, {args:?}: {err}");
        }
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{what}: the file is left as it was"
        );
    }
    // Another game's database under this game's name: sound in itself, but not this table.
    std::fs::copy(data.join("pawns-3x4.zdb"), &path).unwrap();
    for args in [vec!["--data", d, "moves", SPEC], vec!["--data", d, "solve", SPEC]] {
        let err = error_line(&args);
        assert!(
            err.contains("holds the table of pawns:cols=3,rows=4, not of pawns:cols=3,rows=5"),
            "{err}"
        );
    }
    let missing = data.join("none.zdb");
    assert!(error_line(&["db", "info", text(&missing)]).contains("No such file"));
    assert!(error_line(&["db", "verify", text(&missing)]).contains("No such file"));
    std::fs::write(&path, &good).unwrap();
    let list = json(&["--data", d, "db", "list", "--json"]);
    assert_eq!(list["unreadable"].as_array().unwrap().len(), 0);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn retrograde_tables_are_saved_and_read_back() {
    let data = data_dir("tictactoe");
    let d = text(&data);
    let solve = [
        "--data",
        d,
        "solve",
        "tictactoe",
        "--solver",
        "retrograde",
        "--json",
    ];
    let solved = json(&solve);
    assert_eq!(solved["value"], "draw");
    let table = fact(&solved, "table");
    assert!(table.as_str().unwrap().contains("solved now"), "{table}");
    let again = json(&solve);
    let table = fact(&again, "table");
    assert!(
        table.as_str().unwrap().contains("read from the data folder"),
        "{table}"
    );
    let path = data.join("tictactoe.zdb");
    let checked = json(&["db", "verify", text(&path), "--sample", "3000", "--json"]);
    assert_eq!(checked["sampled"], 3000);
    let searched = json(&["moves", "tictactoe", "--moves", "b2", "--json"]);
    let read = json(&["--data", d, "moves", "tictactoe", "--moves", "b2", "--json"]);
    assert_eq!(
        searched["moves"], read["moves"],
        "the table agrees with the search"
    );
    let no_save = data_dir("tictactoe-no-save");
    json(&[
        "--data",
        text(&no_save),
        "solve",
        "tictactoe",
        "--solver",
        "retrograde",
        "--no-save",
        "--json",
    ]);
    assert!(!no_save.exists(), "--no-save writes nothing");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 30] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(error_line(&["--data", d, "moves", "tictactoe"]).contains("corrupt"));
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn dots_margin_tables_are_saved_and_read_back() {
    let data = data_dir("dots");
    let d = text(&data);
    let spec = "dots:rows=3,cols=4";
    let retrograde = |extra: &[&str]| {
        let mut args = vec!["--data", d, "solve", spec, "--solver", "retrograde", "--json"];
        args.extend_from_slice(extra);
        json(&args)
    };
    let solved = retrograde(&[]);
    assert!(fact(&solved, "table").as_str().unwrap().contains("solved now"));
    let searched = json(&["solve", spec, "--json"]);
    assert_eq!(solved["margin"], searched["margin"], "{solved} {searched}");
    assert_eq!(solved["value"], searched["value"]);
    let again = retrograde(&[]);
    assert!(fact(&again, "table")
        .as_str()
        .unwrap()
        .contains("read from the data folder"));
    assert_eq!(again["margin"], solved["margin"]);

    let moves = ["--moves", "1ab,12a,2bc"];
    let from_search = json(&[&["moves", spec, "--json"][..], &moves].concat());
    let from_table = json(&[&["--data", d, "moves", spec, "--json"][..], &moves].concat());
    assert!(fact(&from_table, "table").as_str().unwrap().contains("read from"));
    assert_eq!(
        from_search["moves"], from_table["moves"],
        "the table agrees with the search"
    );
    assert_eq!(from_search["value"], from_table["value"]);

    let path = data.join("dots-rows-3-cols-4.zdb");
    let info = json(&["db", "info", text(&path), "--json"]);
    assert_eq!(info["layers"][0]["name"], "margin");
    assert_eq!(info["positions"], 1 << 17);
    let checked = json(&["db", "verify", text(&path), "--sample", "2000", "--json"]);
    assert_eq!(checked["sampled"], 2000);
    let standings = json(&[
        "--data",
        d,
        "tournament",
        spec,
        "--players",
        "perfect,random",
        "--games",
        "20",
        "--json",
    ]);
    assert_eq!(standings["games"], 20);

    let mut bytes = std::fs::read(&path).unwrap();
    bytes[info["layers"][0]["stored_bytes"].as_u64().unwrap() as usize / 2 + 200] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let err = error_line(&["db", "verify", text(&path)]);
    assert!(err.contains("fails its checksum"), "{err}");
    assert!(
        error_line(&["--data", d, "solve", "dots:size=5", "--solver", "retrograde"])
            .contains("unknown solver 'retrograde'")
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn unwritable_full_or_small_places_are_refused_before_or_without_damage() {
    let err = error_line(&["--data", "/proc/zermelo-data", "solve", SPEC]);
    assert!(err.contains("data folder /proc/zermelo-data"), "{err}");
    let data = data_dir("readonly");
    std::fs::create_dir_all(&data).unwrap();
    let mut perms = std::fs::metadata(&data).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o555);
    std::fs::set_permissions(&data, perms).unwrap();
    // A privileged user writes into read-only folders; the check is for everyone else.
    if std::fs::write(data.join("probe"), b"").is_err() {
        let err = error_line(&["--data", text(&data), "solve", SPEC]);
        assert!(err.contains("is not writable"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&data);

    let err = error_line(&["--memory", "1M", "solve", "pawns:cols=6,rows=8"]);
    assert!(
        err.contains("needs about") && err.contains("more than --memory 1 MiB"),
        "{err}"
    );
    let out = common::zermelo(&["--memory", "lots", "solve", SPEC]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("e.g. 8G"));

    // A disk that fills up: writes past 64 KiB fail as they would on a full disk.
    let data = data_dir("full");
    let out = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["--data", text(&data), "solve", "pawns:cols=4,rows=8"])
        .stdin(Stdio::null())
        .output_with_file_limit(64 << 10);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert!(!data.join("pawns-4x8.zdb").exists() && !data.join("pawns-4x8.tmp").exists());
    let _ = std::fs::remove_dir_all(&data);
}

/// Runs a command whose files may not grow past `bytes`.
trait FileLimit {
    fn output_with_file_limit(&mut self, bytes: u64) -> std::process::Output;
}

impl FileLimit for Command {
    fn output_with_file_limit(&mut self, bytes: u64) -> std::process::Output {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            self.pre_exec(move || {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let limit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        self.output().expect("the binary runs")
    }
}

const BIG: &str = "pawns:cols=5,rows=8";

fn start_solve(data: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["--data", text(data), "solve", BIG, "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Starts a solve, waits until it has kept a few levels, sends it `signal` and waits for it.
fn stop_midway(data: &Path, signal: i32) -> std::process::Output {
    let child = start_solve(data);
    let checkpoint = data.join("pawns-5x8.levels");
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::metadata(&checkpoint).map_or(0, |m| m.len()) < 20_000 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a plain kill of our own child.
    unsafe { libc::kill(child.id() as i32, signal) };
    child.wait_with_output().expect("the solve ends")
}

#[test]
fn stopped_solves_go_on_to_the_same_database() {
    let whole = data_dir("whole");
    let first = json(&["--data", text(&whole), "solve", BIG, "--json"]);
    assert_eq!(fact(&first, "source"), "solved now");

    let resumed = data_dir("resumed");
    let out = stop_midway(&resumed, libc::SIGINT);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stopped before the end"), "{err}");
    assert!(!resumed.join("pawns-5x8.zdb").exists());
    let list = json(&["--data", text(&resumed), "db", "list", "--json"]);
    assert_eq!(list["unfinished"].as_array().unwrap().len(), 1, "{list}");

    let out = stop_midway(&resumed, libc::SIGKILL);
    assert!(!out.status.success(), "killed before it ended");
    assert!(!resumed.join("pawns-5x8.zdb").exists());

    let last = json(&["--data", text(&resumed), "solve", BIG, "--json"]);
    let source = fact(&last, "source");
    assert!(source.as_str().unwrap().contains("going on from"), "{source}");
    assert_eq!(last["remoteness"], first["remoteness"]);
    let a = std::fs::read(whole.join("pawns-5x8.zdb")).unwrap();
    let b = std::fs::read(resumed.join("pawns-5x8.zdb")).unwrap();
    assert!(a == b, "the resumed database differs from the uninterrupted one");
    assert!(
        !resumed.join("pawns-5x8.levels").exists(),
        "checkpoints are removed"
    );
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&resumed);
}

/// The heap values of a `moves` or `solve` document.
fn heap_values(v: &serde_json::Value) -> serde_json::Value {
    fact(v, "heap_values")
}

#[test]
fn heap_sequences_are_saved_read_back_and_refused_when_damaged() {
    let data = data_dir("heaps");
    let d = text(&data);
    let rule = "octal:code=0.16";
    let solved = json(&["--data", d, "solve", rule, "--json"]);
    assert_eq!(fact(&solved, "source"), "solved now");
    let path = data.join("octal-code-0-16.zdb");
    assert!(fact(&solved, "table").as_str().unwrap().contains(text(&path)));
    let again = json(&["--data", d, "solve", rule, "--json"]);
    assert_eq!(fact(&again, "source"), "read from the data folder");
    assert_eq!(again["value"], solved["value"]);

    // The saved sequence proves the period `grundy` computes.
    let info = json(&["db", "info", text(&path), "--json"]);
    let grundy = json(&["grundy", rule, "--json"]);
    let count = |name: &str| {
        info["counts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no count {name} in {info}"))["value"]
            .clone()
    };
    assert_eq!(info["spec"], rule);
    assert_eq!(info["layers"][0]["name"], "grundy8");
    assert_eq!(count("preperiod"), grundy["preperiod"]);
    assert_eq!(count("period"), grundy["period"]);
    assert_eq!(info["positions"], grundy["recurrence_to"].as_u64().unwrap() + 1);
    let checked = json(&["db", "verify", text(&path), "--sample", "200", "--json"]);
    assert_eq!(checked["sampled"], 200);

    // Every start of the rule reads it, and gets what computing gives; so does `grundy`.
    let empty = data_dir("heaps-empty");
    for to in ["600000", "1000"] {
        let mut read = json(&["--data", d, "grundy", rule, "--to", to, "--json"]);
        let mut computed = json(&[
            "--data",
            text(&empty),
            "grundy",
            rule,
            "--to",
            to,
            "--no-save",
            "--json",
        ]);
        let from_file = to == "600000";
        assert_eq!(read["source"] == "read from the data folder", from_file, "{read}");
        for v in [&mut read, &mut computed] {
            v.as_object_mut()
                .unwrap()
                .retain(|k, _| !["seconds", "source", "saved", "resumed_from"].contains(&k.as_str()));
        }
        assert_eq!(read, computed, "--to {to}");
    }
    // `moves` keeps nothing in its data folder.
    let fresh = data_dir("heaps-fresh");
    for start in ["heaps=1000/777", "heaps=999999/3"] {
        let spec = format!("{rule},{start}");
        let read = json(&["--data", d, "moves", &spec, "--json"]);
        let computed = json(&["--data", text(&fresh), "moves", &spec, "--json"]);
        assert!(fact(&read, "table")
            .as_str()
            .unwrap()
            .contains("read from the data folder"));
        assert_eq!(read["moves"], computed["moves"], "{spec}");
        assert_eq!(read["value"], computed["value"], "{spec}");
        assert_eq!(heap_values(&read), heap_values(&computed), "{spec}");
    }
    assert!(!fresh.exists(), "moves saves nothing");
    std::fs::remove_dir_all(&empty).ok();
    let spec = format!("{rule},heaps=40/50");
    let standings = json(&["--data", d, "tournament", &spec, "--games", "4", "--json"]);
    assert_eq!(standings["games"], 4);
    let sum = json(&["--data", d, "solve", "sum:code=0.16,heaps=5/9,nim=3", "--json"]);
    assert!(fact(&sum, "table")
        .as_str()
        .unwrap()
        .contains("read from the data folder"));

    // Damage gives one line and a non-zero exit, never a value.
    let good = std::fs::read(&path).unwrap();
    let blocks = info["layers"][0]["blocks"].as_u64().unwrap() as usize;
    let first_block = good.len() - blocks * 20 - info["layers"][0]["stored_bytes"].as_u64().unwrap() as usize;
    let mut cases: Vec<(&str, Vec<u8>, &str)> =
        vec![("truncated", good[..good.len() - 9].to_vec(), "truncated")];
    for (what, at, why) in [
        ("a byte in the header", 20, "header fails its checksum"),
        (
            "a byte in a block",
            first_block + 11,
            "block 0 of the grundy8 layer fails its checksum",
        ),
        ("a byte in the block index", good.len() - 5, "block index of the"),
    ] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x10;
        cases.push((what, bytes, why));
    }
    for (what, bytes, why) in cases {
        std::fs::write(&path, &bytes).unwrap();
        for args in [
            vec!["--data", d, "moves", &spec],
            vec!["--data", d, "solve", rule],
            vec!["--data", d, "tournament", &spec, "--games", "2"],
            vec!["db", "verify", text(&path)],
        ] {
            let err = error_line(&args);
            assert!(err.contains(why), "{what}, {args:?}: {err}");
        }
    }
    // Another rule's sequence under this rule's name.
    json(&["--data", d, "solve", "octal:code=0.77", "--json"]);
    std::fs::copy(data.join("octal-code-0-77.zdb"), &path).unwrap();
    for args in [
        vec!["--data", d, "moves", &spec],
        vec!["--data", d, "solve", rule],
    ] {
        let err = error_line(&args);
        assert!(
            err.contains("holds the table of octal:code=0.77, not of octal:code=0.16"),
            "{err}"
        );
    }
    // --force computes again and puts a sound file back.
    let forced = json(&["--data", d, "solve", rule, "--force", "--json"]);
    assert_eq!(fact(&forced, "source"), "solved now");
    assert_eq!(std::fs::read(&path).unwrap(), good);
    let _ = std::fs::remove_dir_all(&data);
}
