//! `zermelo balance` under `mpirun` (the `mpi` feature): 2 and 3 ranks give exactly the
//! single-process sweep (JSON, CSV, chart), and a job with a rank killed mid-run, started
//! again with the same command, ends with the same result.
#![cfg(feature = "mpi")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-mpi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn mpirun(ranks: usize) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe", "-n", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_zermelo"));
    c
}

/// The sweep's JSON without its timings, and its CSV and chart, written to `dir`.
fn outputs(out: &Output, dir: &Path) -> (Value, String, String) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    v["seconds"] = Value::Null;
    for c in v["configs"].as_array_mut().unwrap() {
        c["seconds"] = Value::Null;
    }
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    (v, read("b.csv"), read("b.svg"))
}

fn sweep_args<'a>(dir: &'a Path, extra: &[&'a str]) -> Vec<String> {
    let mut args: Vec<String> = ["balance", "--configs", "2x2,2x3,3x2,3x3", "--json", "--csv"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.push(dir.join("b.csv").display().to_string());
    args.push("--plot".into());
    args.push(dir.join("b.svg").display().to_string());
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[test]
fn two_and_three_ranks_give_the_single_process_sweep() {
    let dir = scratch("ranks");
    let single = common::zermelo(
        &sweep_args(&dir, &[])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let expected = outputs(&single, &dir);
    for ranks in [2, 3] {
        let out = mpirun(ranks)
            .args(sweep_args(&dir, &["--batch", "7"]))
            .output()
            .unwrap();
        assert_eq!(outputs(&out, &dir), expected, "{ranks} ranks");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The process of rank `rank` among the children of `mpirun` process `parent`.
fn rank_process(parent: u32, rank: usize) -> Option<u32> {
    let wanted = format!("OMPI_COMM_WORLD_RANK={rank}");
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The parent's id is the second field after the command's closing parenthesis.
        let ppid: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
        let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
        let has = env.split(|&b| b == 0).any(|v| v == wanted.as_bytes());
        (ppid == parent && has).then_some(pid)
    })
}

#[test]
fn a_job_with_a_killed_rank_resumes_from_its_checkpoint() {
    let dir = scratch("kill");
    let checkpoint = dir.join("sweep.ckpt").display().to_string();
    let family = [
        "balance",
        "bigpoints:colors=3,discs=4",
        "--sample",
        "300",
        "--json",
    ];
    let reference = common::json(&family);
    let mut args: Vec<&str> = family.to_vec();
    args.extend(["--batch", "4", "--checkpoint", &checkpoint]);
    let mut job = mpirun(3)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Kill rank 1 once some batches are recorded, while the job still runs.
    let started = Instant::now();
    let lines = || std::fs::read_to_string(&checkpoint).map_or(0, |t| t.lines().count());
    while lines() < 2 + 12 {
        assert!(started.elapsed() < Duration::from_secs(120), "no batch recorded");
        assert!(
            job.try_wait().unwrap().is_none(),
            "the job ended before a rank was killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let victim = rank_process(job.id(), 1).expect("rank 1 runs");
    assert!(Command::new("kill")
        .args(["-9", &victim.to_string()])
        .status()
        .unwrap()
        .success());
    let stopped = job.wait_with_output().unwrap();
    assert!(!stopped.status.success(), "a job with a dead rank must fail");
    let message = String::from_utf8_lossy(&stopped.stderr);
    assert!(message.contains("rank 1"), "{message}");
    let recorded = lines() - 2;
    assert!(recorded < 300, "the job should have stopped before the end");
    // The same command again goes on from the checkpoint and ends with the same sweep.
    let out = mpirun(3).args(&args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed: Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "boards",
        "first_wins",
        "draws",
        "second_wins",
        "positions_max",
        "positions_mean",
    ] {
        assert_eq!(resumed["configs"][0][key], reference["configs"][0][key], "{key}");
    }
    assert_eq!(lines(), 2 + 300);
    std::fs::remove_dir_all(&dir).unwrap();
}
