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
        .args(["play", "tictactoe", "--second", "random", "--move-time", "30", "--first"])
        .arg(line)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("the binary runs");
    let sleeping = |pid: &u32| {
        std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.starts_with(b"sleep\0"))
    };
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
    let record = documented(&["play", "tictactoe", "--first", endless, "--second", "random", "--move-time", "30"]);
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

// Item 10: SIGTERM to zermelo stops the program's whole group, even one ignoring SIGTERM.
#[test]
fn sigterm_leaves_no_program_behind() {
    let marker = "301.101";
    let mut zermelo = playing(&format!("cmd:trap '' TERM; sleep {marker}; sleep {marker}"), marker);
    signal(zermelo.id(), libc::SIGTERM);
    let _ = zermelo.wait();
    assert!(within(3, || running(marker).is_empty()), "left: {:?}", running(marker));
}

// Item 10: after SIGKILL, which zermelo cannot catch, the program's group dies with it.
#[test]
fn sigkill_leaves_no_program_behind() {
    let marker = "301.102";
    let mut zermelo = playing(&format!("cmd:trap '' TERM; sleep {marker}; sleep {marker}"), marker);
    signal(zermelo.id(), libc::SIGKILL);
    let _ = zermelo.wait();
    assert!(within(3, || running(marker).is_empty()), "left: {:?}", running(marker));
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
    assert!(within(3, || running(marker).is_empty()), "left: {:?}", running(marker));
}

// Item 11: a program that ends while a process it started in a new session holds its
// output ended; zermelo neither waits for that process nor lends it its own output.
#[test]
fn a_program_ending_while_a_setsid_child_holds_its_output_ended() {
    let marker = "301.104";
    let line = format!("cmd:setsid sleep {marker} & exit 0");
    let start = Instant::now();
    let record = documented(&["play", "tictactoe", "--first", &line, "--second", "random", "--move-time", "20"]);
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    let why = record["forfeit"].as_str().expect("a forfeit");
    assert!(why.contains("the program ended (exit status: 0)"), "{why}");
    for pid in running(marker) {
        signal(pid, libc::SIGKILL);
    }
}
