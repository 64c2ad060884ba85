//! `zermelo balance` and `zermelo solve pawns` under `mpirun` (the `mpi` feature): 2 and 3
//! ranks give exactly the single-process sweep (JSON, CSV, chart), 1, 2 and 3 ranks the
//! single-process self-play estimate, and, once the parts the ranks save are merged, the
//! single-process database byte for byte; a job with a rank killed mid-run, started again
//! with the same command, ends with the same result.
#![cfg(feature = "mpi")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
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
    let mut args: Vec<String> = [
        "balance",
        "bigpoints",
        "--configs",
        "2x2,2x3,3x2,3x3",
        "--json",
        "--csv",
    ]
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

/// A self-play estimate's JSON without its timings.
fn timeless(out: &Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    v["seconds"] = Value::Null;
    v["games_per_second"] = Value::Null;
    v
}

#[test]
fn self_play_on_one_two_and_three_ranks_gives_the_single_process_estimate() {
    let cases: [&[&str]; 2] = [
        &[
            "balance",
            "bigpoints:players=3",
            "--players",
            "greedy,mcts:20,random",
            "--games",
            "250",
            "--seed",
            "3",
        ],
        &[
            "balance",
            "tictactoe",
            "--players",
            "random",
            "--games",
            "100000",
            "--until",
            "0.08",
        ],
    ];
    for args in cases {
        let args = [&["--json"], args].concat();
        let expected = timeless(&common::zermelo(&args));
        for ranks in [1, 2, 3] {
            let out = mpirun(ranks).args(&args).output().unwrap();
            assert_eq!(timeless(&out), expected, "{ranks} ranks: {args:?}");
        }
    }
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

/// Kills rank 1 of the `mpirun` `job` with SIGKILL as soon as `ready` holds, failing
/// with `missing` when it does not within two minutes or the job ends first.
fn kill_rank_one_once(job: &mut Child, ready: impl Fn() -> bool, missing: &str) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < Duration::from_secs(120), "{missing}");
        assert!(
            job.try_wait().unwrap().is_none(),
            "the job ended before a rank was killed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let victim = rank_process(job.id(), 1).expect("rank 1 runs");
    assert!(Command::new("kill")
        .args(["-9", &victim.to_string()])
        .status()
        .unwrap()
        .success());
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
    let lines = || std::fs::read_to_string(&checkpoint).map_or(0, |t| t.lines().count());
    kill_rank_one_once(&mut job, || lines() >= 2 + 12, "no batch recorded");
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

/// `zermelo --data DIR solve SPEC`.
fn solve_args(dir: &Path, spec: &str) -> Vec<String> {
    let data = dir.display().to_string();
    ["--data", &data, "solve", spec]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// The bytes of the database a solve of `spec` saved in `dir`.
fn database(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(format!("{name}.zdb"))).expect("a saved database")
}

/// The parts of table `name` of `ranks` ranks in `dir`, by part number.
fn parts(dir: &Path, name: &str, ranks: usize) -> Vec<String> {
    (1..=ranks)
        .map(|i| {
            dir.join(format!("{name}.part{i}-of-{ranks}.zdb"))
                .display()
                .to_string()
        })
        .collect()
}

/// The arguments of `zermelo db merge PARTS -o OUT`.
fn merge_args(parts: &[String], out: &Path) -> Vec<String> {
    let mut args: Vec<String> = vec!["db".into(), "merge".into()];
    args.extend(parts.iter().cloned());
    args.extend(["-o".into(), out.display().to_string()]);
    args
}

/// Merges `parts` into `out`, which must succeed.
fn merge(parts: &[String], out: &Path) {
    let args = merge_args(parts, out);
    let merged = common::documented(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(merged["part"], Value::Null, "{merged}");
}

/// A merge that fails with one line saying `why`, writing nothing.
fn refused(parts: &[String], out: &Path, why: &str) {
    let args = merge_args(parts, out);
    let err = common::error_line(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains(why), "{err}");
    assert!(!out.exists());
}

#[test]
fn a_pawns_solve_on_two_and_three_ranks_saves_parts_that_merge_into_the_same_database() {
    let dir = scratch("levels");
    let spec = "pawns:cols=4,rows=6";
    let args = |d: &str| solve_args(&dir.join(d), spec);
    assert!(
        common::zermelo(&args("one").iter().map(String::as_str).collect::<Vec<_>>())
            .status
            .success()
    );
    let expected = database(&dir.join("one"), "pawns-4x6");
    for ranks in [2, 3] {
        let folder = dir.join(format!("ranks{ranks}"));
        let out = mpirun(ranks).args(solve_args(&folder, spec)).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            text.matches("win in 29").count(),
            1,
            "rank 0 alone reports: {text}"
        );
        assert!(text.contains(&format!("saved in {ranks} parts")), "{text}");
        assert!(!folder.join("pawns-4x6.zdb").exists() && !folder.join("pawns-4x6.levels").exists());
        // Every part is a sound database holding its own ranks of the table.
        let parts = parts(&folder, "pawns-4x6", ranks);
        let mut held = 0;
        for (i, part) in parts.iter().enumerate() {
            let info = common::documented(&["db", "info", part]);
            assert_eq!(info["part"]["number"], i + 1);
            assert_eq!(info["part"]["count"], ranks);
            assert_eq!(info["part"]["table_ranks"], 40920);
            held += info["ranks"].as_u64().unwrap();
            let check = common::documented(&["db", "verify", part]);
            assert_eq!(check["part"]["number"], i + 1, "{check}");
        }
        assert_eq!(held, 40920, "the parts hold every rank once");
        // Merged in any order: the single-process database, byte for byte.
        let mut shuffled = parts.clone();
        shuffled.reverse();
        merge(&shuffled, &folder.join("pawns-4x6.zdb"));
        assert!(database(&folder, "pawns-4x6") == expected, "{ranks} ranks");
        // Merged once, read afterwards: the other ranks wait for nothing.
        let again = mpirun(ranks).args(solve_args(&folder, spec)).output().unwrap();
        assert!(String::from_utf8_lossy(&again.stdout).contains("read from the data folder"));
    }
    // A missing part, a part given twice, a part of another solve of the same table, a
    // whole database: one line each, and nothing written.
    let three = parts(&dir.join("ranks3"), "pawns-4x6", 3);
    let out = dir.join("merged.zdb");
    refused(&three[..2], &out, "part 3 of 3 of pawns:cols=4,rows=6");
    refused(
        &[&three[..], &three[1..2]].concat(),
        &out,
        "is part 2 of 3, given twice",
    );
    let again = dir.join("again");
    assert!(mpirun(3)
        .args(solve_args(&again, spec))
        .output()
        .unwrap()
        .status
        .success());
    // Saved in parts, not merged: the same command says so rather than solve again.
    let rerun = mpirun(3).args(solve_args(&again, spec)).output().unwrap();
    assert!(!rerun.status.success());
    let err = String::from_utf8_lossy(&rerun.stderr);
    assert!(err.contains("already solved in 3 parts"), "{err}");
    let other = parts(&again, "pawns-4x6", 3);
    refused(
        &[three[0].clone(), other[1].clone(), three[2].clone()],
        &out,
        "is part 2 of 3 of another solve",
    );
    refused(
        &parts(&dir.join("ranks2"), "pawns-4x6", 2)[..1]
            .iter()
            .chain(&three[1..])
            .cloned()
            .collect::<Vec<_>>(),
        &out,
        "another solve",
    );
    refused(
        &[dir.join("one/pawns-4x6.zdb").display().to_string()],
        &out,
        "not a part",
    );
    let out = mpirun(2).args(solve_args(&dir, "tictactoe")).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not solved in levels"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A solve's JSON without what depends on the run: its time, where its table went and
/// the time of a perfect move (measured only where the whole table is held).
fn solved(doc: &Value) -> Value {
    let mut doc = doc.clone();
    doc["seconds"] = Value::Null;
    let details = doc["details"].as_array_mut().expect("details");
    details.retain(|f| !["table", "move_micros"].contains(&f["key"].as_str().unwrap_or("")));
    doc
}

#[test]
fn a_split_pawns_solve_reports_what_one_process_does() {
    let dir = scratch("report");
    let data = dir.display().to_string();
    // From the start, and from a board whose class lies in a later level.
    for spec in [
        "pawns:cols=4,rows=6",
        "pawns:cols=4,rows=6,board=.B..P./..B.P./B....P/.P..B.",
    ] {
        let args = ["--json", "--data", &data, "solve", "--no-save", spec];
        let expected = solved(&common::json(&args));
        for ranks in [2, 3] {
            let out = mpirun(ranks).args(args).output().unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let doc: Value = serde_json::from_slice(&out.stdout).expect("rank 0 alone reports");
            assert_eq!(solved(&doc), expected, "{spec} on {ranks} ranks");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pawns_solve_with_a_killed_rank_resumes_to_the_same_database() {
    let dir = scratch("levels-kill");
    let spec = "pawns:cols=5,rows=8";
    let single = solve_args(&dir.join("one"), spec);
    assert!(
        common::zermelo(&single.iter().map(String::as_str).collect::<Vec<_>>())
            .status
            .success()
    );
    let expected = database(&dir.join("one"), "pawns-5x8");
    let args = solve_args(&dir.join("two"), spec);
    let mut job = mpirun(2)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill rank 1 once rank 0 has kept a few levels.
    let checkpoint = dir.join("two/pawns-5x8.levels");
    let kept = || std::fs::metadata(&checkpoint).map_or(0, |m| m.len()) >= 4096;
    kill_rank_one_once(&mut job, kept, "no level kept");
    assert!(!job.wait().unwrap().success(), "a job with a dead rank must fail");
    assert!(
        !dir.join("two/pawns-5x8.part1-of-2.zdb").exists(),
        "no part from a broken job"
    );
    let out = mpirun(2).args(&args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("levels kept by a stopped solve"), "{text}");
    merge(
        &parts(&dir.join("two"), "pawns-5x8", 2),
        &dir.join("two/pawns-5x8.zdb"),
    );
    assert!(database(&dir.join("two"), "pawns-5x8") == expected);
    std::fs::remove_dir_all(&dir).unwrap();
}
