//! What a first-time user stumbles on: a prompt hidden by a progress bar, a long solve
//! started without a word, options that contradict each other, counts past any sense,
//! and counts in the wrong number ("1 databases").

mod common;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{error_line, stdout, zermelo};

/// A fresh folder for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("zermelo-first-use-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 path")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `line` (a shell command line) on a pseudo-terminal through util-linux's `script`,
/// answering `answer` once `ready` has been printed and the screen has had `settle` to
/// change; everything the terminal showed, and whether the command succeeded. `None` where
/// there is no `script`.
fn on_a_terminal(line: &str, ready: &str, settle: Duration, answer: &str) -> Option<(String, bool)> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux's `script` is not installed");
        return None;
    }
    let mut child = Command::new("script")
        .args(["-qfec", line, "/dev/null"])
        .env("TERM", "xterm")
        .env("COLUMNS", "100")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script runs");
    let mut out = child.stdout.take().expect("its output");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !String::from_utf8_lossy(&seen).contains(ready) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(more) => seen.extend(more),
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "no {ready:?} on the terminal: {:?}",
                    String::from_utf8_lossy(&seen)
                );
            }
        }
    }
    std::thread::sleep(settle);
    let mut stdin = child.stdin.take().expect("its input");
    stdin.write_all(answer.as_bytes()).expect("an answer");
    drop(stdin);
    let status = child.wait().expect("script ends");
    while let Ok(more) = rx.recv_timeout(Duration::from_secs(5)) {
        seen.extend(more);
    }
    Some((String::from_utf8_lossy(&seen).into_owned(), status.success()))
}

#[test]
fn the_prompt_of_play_stays_visible_after_the_table_is_solved() {
    let data = Scratch::new("prompt");
    let line = format!(
        "{} --data {} play pawns:cols=4,rows=7 --first human --second perfect",
        env!("CARGO_BIN_EXE_zermelo"),
        data.path()
    );
    // A bar left on the screen redraws every 200 ms: over a second, it would draw again.
    let prompt = "White to move (e.g.";
    let Some((screen, ok)) = on_a_terminal(&line, prompt, Duration::from_millis(1500), "quit\n") else {
        return;
    };
    assert!(ok, "{screen:?}");
    let after = &screen[screen.rfind(prompt).expect("the prompt")..];
    assert!(
        !after.contains("solving") && !after.contains("\x1b[2K") && !after.contains("\x1b[1A"),
        "something was drawn over the prompt: {after:?}"
    );
    assert!(
        after.contains("quit") && after.contains("game ended"),
        "{after:?}"
    );
}

#[test]
fn a_long_solve_before_a_game_is_refused_without_a_terminal() {
    let data = Scratch::new("long");
    // Item 5 of the hostile-input audit: `moves` follows the same rule.
    for command in ["play", "tournament", "moves"] {
        let err = error_line(&["--data", data.path(), command, "pawns:cols=8,rows=8"]);
        for said in [
            "pawns:cols=8,rows=8 first solves its table",
            "3872894697 positions",
            "GiB of memory",
            "min",
            "run `zermelo solve pawns:cols=8,rows=8` first",
        ] {
            assert!(err.contains(said), "{command}: {said:?} in {err}");
        }
    }
    // Nothing was started: no table, no checkpoint.
    assert_eq!(std::fs::read_dir(&data.0).unwrap().count(), 0);
    // Players that read no table start at once.
    let out = zermelo(&[
        "--data",
        data.path(),
        "play",
        "pawns:cols=8,rows=8",
        "--first",
        "random",
        "--second",
        "random",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // So does a table quick to solve (about a second), or one already saved.
    let out = zermelo(&[
        "--data",
        data.path(),
        "tournament",
        "pawns:cols=3,rows=5",
        "--games",
        "2",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_long_solve_before_a_game_asks_first_on_a_terminal() {
    let data = Scratch::new("ask");
    let line = format!(
        "{} --data {} play pawns:cols=8,rows=8",
        env!("CARGO_BIN_EXE_zermelo"),
        data.path()
    );
    let Some((screen, ok)) = on_a_terminal(&line, "[y/N]", Duration::ZERO, "n\n") else {
        return;
    };
    assert!(!ok, "answered no, the game does not start: {screen:?}");
    assert!(screen.contains("Solve it now?"), "{screen:?}");
    assert!(
        screen.contains(
            "error: not started: `zermelo solve pawns:cols=8,rows=8` solves and saves the table first"
        ),
        "{screen:?}"
    );
    assert_eq!(std::fs::read_dir(&data.0).unwrap().count(), 0);
}

#[test]
fn conflicting_options_are_refused_in_one_line() {
    let err = error_line(&["solve", "dots:size=3,rows=4"]);
    assert!(err.contains("size=3 and rows=4 both give the board"), "{err}");
    let err = error_line(&["moves", "dots:cols=5,size=4"]);
    assert!(err.contains("size=4 and cols=5 both give the board"), "{err}");
    // Either way of naming a board alone is fine.
    for spec in ["dots:size=3", "dots:rows=3,cols=4", "dots:rows=3"] {
        assert!(zermelo(&["moves", spec]).status.success(), "{spec}");
    }

    for (flag, value) in [("--first", "random"), ("--second", "perfect")] {
        let out = zermelo(&["play", "tictactoe", "--seats", "random,random", flag, value]);
        assert_eq!(out.status.code(), Some(2), "a usage error");
        let err = error_line(&["play", "tictactoe", "--seats", "random,random", flag, value]);
        assert!(
            err.starts_with("error: the argument '--seats <SEATS>' cannot be used with")
                && err.contains(flag),
            "{err}"
        );
    }
    assert!(zermelo(&["play", "tictactoe", "--seats", "random,random"])
        .status
        .success());

    let err = error_line(&["balance", "bigpoints", "--configs", "2x2,3x2,2X2"]);
    assert!(err.contains("configs names (2,2) twice"), "{err}");
}

#[test]
fn usage_errors_are_one_line_with_clap_tips_kept() {
    let err = error_line(&["solv", "tictactoe"]);
    assert_eq!(
        err,
        "error: unrecognized subcommand 'solv'; tip: a similar subcommand exists: 'solve'"
    );
    // A game left out: which to give, and where the games are listed.
    for command in ["solve", "moves", "report", "play"] {
        let err = error_line(&[command]);
        assert!(
            err.starts_with("error: give a game spec") && err.contains("`zermelo games`"),
            "{err}"
        );
    }
    // Help and version still print in full, successfully.
    let out = zermelo(&["solve", "--help"]);
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("Usage: zermelo solve"));
}

#[test]
fn a_budget_of_no_memory_is_refused_like_no_time() {
    let err = error_line(&["serve", "--budget-memory", "0", "--addr", "127.0.0.1:0"]);
    assert!(
        err.contains("--budget-memory") && err.contains("positive"),
        "{err}"
    );
    let err = error_line(&["serve", "--budget", "0", "--addr", "127.0.0.1:0"]);
    assert!(
        err.contains("--budget") && err.contains("'0' is not a number of seconds"),
        "{err}"
    );
}

#[test]
fn a_sample_past_the_table_is_capped_with_a_note() {
    let data = Scratch::new("sample");
    let solved = zermelo(&["--data", data.path(), "solve", "pawns:cols=3,rows=5"]);
    assert!(solved.status.success());
    let table = data.0.join("pawns-3x5.zdb");
    let table = table.to_str().unwrap();
    let out = zermelo(&["db", "verify", table, "--sample", "99999999999"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let note = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        note.trim_end(),
        "note: --sample 99999999999 capped at 1539: the table holds 1539 positions"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1539 sampled positions re-solved"));
    let doc = common::json(&["--json", "db", "verify", table, "--sample", "99999999999"]);
    assert_eq!(doc["sampled"], 1539);
}

#[test]
fn counts_of_one_are_singular() {
    let data = Scratch::new("plural");
    assert!(zermelo(&["--data", data.path(), "solve", "pawns:cols=2,rows=3"])
        .status
        .success());
    let list = stdout(&["--data", data.path(), "db", "list"]);
    assert!(
        list.starts_with(&format!("1 database in {}\n", data.path())),
        "{list}"
    );
    let table = data.0.join("pawns-2x3.zdb");
    let verify = stdout(&["db", "verify", table.to_str().unwrap(), "--sample", "1"]);
    assert!(verify.contains("1 sampled position re-solved"), "{verify}");
    assert!(stdout(&["tournament", "tictactoe", "--games", "1"]).starts_with("1 game of tictactoe\n"));
    let play = stdout(&["play", "nim:heaps=1", "--first", "random", "--second", "random"]);
    assert!(play.ends_with("player 1 wins after 1 move\n"), "{play}");
    assert!(stdout(&["solve", "nim:heaps=1"]).contains("(1 position, grundy,"));
    let err = error_line(&["moves", "nim:heaps=3/4/5", "--position", "1:3"]);
    assert!(err.contains("1 heap, but the game has 3"), "{err}");
    let hands = stdout(&["moves", "bigpoints:board=1221", "--moves", "r+,g+,r^,g^"]);
    assert!(hands.contains("hand 1  r1g1 (1 point)\n"), "{hands}");
    let hands = stdout(&["moves", "bigpoints:board=1221", "--moves", "g+,r+,g^,r^"]);
    assert!(
        hands.contains("(2 points)") && hands.contains("(0 points)"),
        "{hands}"
    );
    let sweep = stdout(&["balance", "bigpoints:colors=3,discs=2"]);
    assert!(
        sweep.contains("each stands for the 3! = 6 boards its colours relabel into"),
        "{sweep}"
    );
    let sweeps = stdout(&["balance", "bigpoints", "--configs", "2x2,3x2"]);
    assert!(
        sweeps.contains("(NC! for NC colours: 2! = 2, 3! = 6)"),
        "{sweeps}"
    );
}
