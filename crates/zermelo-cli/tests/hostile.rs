//! The hostile-input corpus: player programs that misbehave, numbers out of every range,
//! files that are not tables, two solves of one table. Each test names the item of the
//! audit it keeps fixed; nothing may hang, panic, grow without bound or outlive zermelo.

mod common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::documented;

/// The processes whose command line holds `marker`, other than this one.
fn running(marker: &str) -> Vec<u32> {
    let me = std::process::id();
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .collect()
}

/// Waits up to `seconds` until `done` holds.
fn within(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

/// `zermelo play tictactoe` with the program `line` first, in a session of its own (as
/// from a terminal), once the program runs (`marker` in its command line).
fn playing(line: &str, marker: &str) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args([
            "play",
            "tictactoe",
            "--second",
            "random",
            "--move-time",
            "30",
            "--first",
        ])
        .arg(line)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("the binary runs");
    let sleeping =
        |pid: &u32| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.starts_with(b"sleep\0"));
    assert!(
        within(10, || running(marker).iter().any(sleeping)),
        "the program never started"
    );
    child
}

/// Sends `sig` to `pid`.
fn signal(pid: u32, sig: libc::c_int) {
    // SAFETY: kill(2) on a process this test started.
    unsafe { libc::kill(pid as i32, sig) };
}

use std::os::unix::process::CommandExt as _;

// Item 1: a program writing without a newline forfeits at once, its line never held whole.
#[test]
fn a_line_without_end_forfeits_at_once_with_bounded_memory() {
    let endless = r#"cmd:while read l; do case $l in go*) yes x | tr -d "\n";; esac; done"#;
    let start = Instant::now();
    let record = documented(&[
        "play",
        "tictactoe",
        "--first",
        endless,
        "--second",
        "random",
        "--move-time",
        "30",
    ]);
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    let why = record["forfeit"].as_str().expect("a forfeit");
    assert!(why.contains("a line of more than 64 KiB"), "{why}");
    // SAFETY: getrusage(2) into a zeroed C struct.
    let peak_kib = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage.ru_maxrss
    };
    assert!(peak_kib < 200 << 10, "a child reached {peak_kib} KiB");
}

/// Sends `sig` to a `zermelo play` whose program ignores SIGTERM, and checks that no
/// process of the program (its sleeps, named by `marker`) is left.
fn a_signal_leaves_no_program_behind(sig: libc::c_int, marker: &str) {
    let mut zermelo = playing(
        &format!("cmd:trap '' TERM; sleep {marker}; sleep {marker}"),
        marker,
    );
    signal(zermelo.id(), sig);
    let _ = zermelo.wait();
    assert!(
        within(3, || running(marker).is_empty()),
        "left: {:?}",
        running(marker)
    );
}

// Item 10: SIGTERM to zermelo stops the program's whole group, even one ignoring SIGTERM.
#[test]
fn sigterm_leaves_no_program_behind() {
    a_signal_leaves_no_program_behind(libc::SIGTERM, "301.101");
}

// Item 10: after SIGKILL, which zermelo cannot catch, the program's group dies with it.
#[test]
fn sigkill_leaves_no_program_behind() {
    a_signal_leaves_no_program_behind(libc::SIGKILL, "301.102");
}

// Item 11: Ctrl-C in `zermelo play` while a program thinks ends the game at once.
#[test]
fn ctrl_c_stops_play_while_a_program_thinks() {
    let marker = "301.103";
    let mut zermelo = playing(&format!("cmd:sleep {marker}"), marker);
    let start = Instant::now();
    signal(zermelo.id(), libc::SIGINT);
    let status = zermelo.wait().expect("zermelo ends");
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
    assert_eq!(status.code(), Some(130));
    assert!(
        within(3, || running(marker).is_empty()),
        "left: {:?}",
        running(marker)
    );
}

// Item 11: a program that ends while a process it started in a new session holds its
// output ended; zermelo neither waits for that process nor lends it its own output.
#[test]
fn a_program_ending_while_a_setsid_child_holds_its_output_ended() {
    let marker = "301.104";
    let line = format!("cmd:setsid sleep {marker} & exit 0");
    let start = Instant::now();
    let record = documented(&[
        "play",
        "tictactoe",
        "--first",
        &line,
        "--second",
        "random",
        "--move-time",
        "20",
    ]);
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    let why = record["forfeit"].as_str().expect("a forfeit");
    assert!(why.contains("the program ended (exit status: 0)"), "{why}");
    for pid in running(marker) {
        signal(pid, libc::SIGKILL);
    }
}

/// A data folder of a test's own, removed when dropped.
struct Folder(std::path::PathBuf);

impl Folder {
    fn new(test: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("zermelo-hostile-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Folder(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 path")
    }

    /// The one file of the folder with the extension `ext`.
    fn only(&self, ext: &str) -> std::path::PathBuf {
        let found: Vec<_> = std::fs::read_dir(&self.0)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        found[0].clone()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

use common::error_line;

/// Makes a named pipe at `path`.
fn mkfifo(path: &std::path::Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(status.success());
}

// Item 3: --threads is capped, by the library's one constant.
#[test]
fn too_many_threads_are_refused() {
    let err = error_line(&["--threads", "1025", "games"]);
    assert!(err.contains("1..=1024"), "{err}");
}

// Item 6: a graph's memory is bounded by default as a search's table is, and --memory
// says how much; the refusal names the bound.
#[test]
fn a_huge_graph_stops_at_its_memory() {
    let err = error_line(&[
        "--memory",
        "1M",
        "graph",
        "pawns:cols=4,rows=6",
        "--max-positions",
        "1000000000000",
    ]);
    assert!(
        err.contains("needs more than the 1 MiB of memory it may use: give it more memory"),
        "{err}"
    );
}

// Item 7: a named pipe where a table should be is refused at once, by every reader,
// and the server answers the next request.
#[test]
fn a_named_pipe_for_a_table_is_refused_at_once() {
    let data = Folder::new("fifo");
    let spec = "pawns:cols=2,rows=4";
    let out = common::zermelo(&["--data", data.path(), "solve", spec]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = data.only("zdb");
    std::fs::remove_file(&table).unwrap();
    mkfifo(&table);
    let start = Instant::now();
    for args in [
        vec!["--data", data.path(), "moves", spec],
        vec!["db", "info", table.to_str().unwrap()],
    ] {
        let err = error_line(&args);
        assert!(err.contains("is a named pipe, not a file"), "{err}");
    }
    let server = common::Server::start(&data.0);
    let (status, body) = server.json(&format!("/api/moves?spec={spec}"));
    assert!(status != 503 && status >= 400, "{status} {body}");
    assert!(
        body["error"].as_str().is_some_and(|e| e.contains("named pipe")),
        "{body}"
    );
    let (status, _) = server.json("/api/moves?spec=tictactoe");
    assert_eq!(status, 200);
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
}

// Item 8: durations and sizes out of range are refused as they are read, in one line
// naming what was asked.
#[test]
fn numbers_out_of_range_are_refused_in_one_line() {
    let err = error_line(&["serve", "--budget", "1e300"]);
    assert!(
        err.contains("'1e300' is not a number of seconds from 0.001 to 31536000"),
        "{err}"
    );
    let err = error_line(&["--memory", "99999999T", "solve", "tictactoe"]);
    assert!(err.contains("'99999999T' is more than the"), "{err}");
    assert!(err.contains("this machine has"), "{err}");
    for bad in ["inf", "NaN", "0", "1e300"] {
        let err = error_line(&["play", "tictactoe", "--first", "random", "--move-time", bad]);
        assert!(
            err.contains("is not a number of seconds from 0.001 to 86400"),
            "{err}"
        );
    }
}

// Item 13: two solves of one table in one data folder: while one holds the table's lock,
// the other waits, then reads the table; a solve removes what a stopped one left.
#[test]
fn a_second_solve_of_a_table_waits_for_the_first() {
    let data = Folder::new("lock");
    let spec = "pawns:cols=4,rows=5";
    let lock = std::fs::File::create(data.0.join("pawns-4x5.lock")).unwrap();
    lock.lock().unwrap();
    let stale = data.0.join("pawns-4x5.999-0.tmp");
    std::fs::write(&stale, b"half a table").unwrap();
    let mut second = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["--data", data.path(), "--json", "solve", spec])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(Duration::from_millis(800));
    assert!(second.try_wait().unwrap().is_none(), "it waits for the lock");
    assert!(
        stale.exists(),
        "nothing is touched while another solve holds the lock"
    );
    drop(lock);
    let out = second.wait_with_output().unwrap();
    assert!(out.status.success());
    let solved: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(solved["game"], spec, "{solved}");
    data.only("zdb");
    assert!(!stale.exists());
}
