//! The server under a stream of the worst requests it can be sent: every request's work
//! ends when its request ends, inside the memory budget, and the server is idle and quick
//! again once the stream is over; and a cheap request (a small game's moves) sent all
//! through the stream is answered at once, never refused as busy (issue 37, item 12: light
//! work in a lane of its own, and a client's share of the heavy lane).
//!
//! `cargo test --release -p zermelo-cli --test soak -- --nocapture` prints the figures
//! BENCHMARKS.md quotes.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::Server;

/// The server's budgets: seconds and MiB of work a request, and MiB of the cache.
const BUDGET_SECONDS: &str = "2";
const BUDGET_MIB: u64 = 256;
const CACHE_MIB: u64 = 32;
/// What the server may hold past its budgets: the program, its threads' stacks, the
/// allocator's own memory, the cache's sessions.
const MARGIN_MIB: u64 = 200;
/// Requests in flight at once, and how many times the list is sent.
const CLIENTS: usize = 32;
const ROUNDS: usize = 10;
/// The cheap request sent during the stream, and the pause between two.
const PROBE: &str = "/api/moves?spec=tictactoe";
const PROBE_EVERY: Duration = Duration::from_millis(50);

/// The worst requests found: players asking for far more than a request may take, searches
/// too deep or too wide, solves too big, heaps too large to list, and a few cheap ones.
const WORST: &[&str] = &[
    "/api/bot?spec=bigpoints:players=5&player=mcts:100000000",
    "/api/bot?spec=bigpoints:players=5&player=mcts:60s",
    "/api/bot?spec=bigpoints:players=5&player=mcts:2s",
    "/api/bot?spec=bigpoints:players=5&player=mcts:40000",
    "/api/bot?spec=bigpoints:players=5&player=mcts:40000:0.9",
    "/api/bot?spec=bigpoints:players=3&player=mcts:1s",
    "/api/bot?spec=bigpoints&player=search:12",
    "/api/bot?spec=bigpoints:board=rrrrggggbbbbyyyyppppwwkk&player=perfect",
    "/api/moves?spec=bigpoints:board=rrrrggggbbbbyyyyppppwwkk",
    "/api/bot?spec=mnk:m=8,n=8,k=5&player=search:12",
    "/api/bot?spec=mnk:m=8,n=8,k=5&player=search:5",
    "/api/bot?spec=mnk:m=8,n=8,k=5&player=perfect",
    "/api/moves?spec=mnk:m=8,n=8,k=5",
    "/api/moves?spec=mnk:m=6,n=6,k=5",
    "/api/moves?spec=domineering:rows=5,cols=8",
    "/api/bot?spec=domineering:rows=5,cols=8&player=search:7",
    "/api/moves?spec=domineering:rows=11,cols=11&all=true",
    "/api/bot?spec=domineering:rows=11,cols=11&player=perfect",
    "/api/bot?spec=dots:size=9&player=search:5",
    "/api/bot?spec=dots:size=9&player=strong",
    "/api/bot?spec=dots:size=4&player=perfect",
    "/api/moves?spec=dots:size=5",
    "/api/moves?spec=dots:size=4",
    "/api/bot?spec=pawns:cols=8,rows=8&player=search:12",
    "/api/moves?spec=pawns:cols=8,rows=8",
    "/api/bot?spec=pawns:cols=5,rows=8&player=perfect",
    "/api/bot?spec=octal:code=0.777777777777,heaps=1000000/999999",
    "/api/moves?spec=sum:code=0.777777777777,heaps=1000000/1000000/1000000,nim=1000000000000000000",
    "/api/moves?spec=octal:code=4.777777777777777777777777777777777777777,heaps=1000000&all=true",
    "/api/bot?spec=nim:heaps=1000000000000000000/1000000000000000000&player=search:3",
    "/api/moves?spec=subtraction:set=99991/99992/99993/99994/99995/99996/99997/99998/99999/100000,n=1000000000000000000",
    "/api/moves?spec=tictactoe",
    "/api/bot?spec=tictactoe&player=search:9",
];

/// A request's answer: its status, body and how long it took.
struct Answer {
    status: u16,
    body: String,
    seconds: f64,
}

/// Sends `GET path` and reads the whole answer.
fn get(addr: &str, path: &str) -> std::io::Result<Answer> {
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    Ok(Answer {
        status,
        body,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A field of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`).
fn status_kib(pid: u32, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server runs");
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("a field of /proc/PID/status")
}

/// The clock ticks of CPU the process has used (user and system, all threads).
fn cpu_ticks(pid: u32) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the server runs");
    // The fields after the command name, which ends with the last ')'.
    let fields: Vec<&str> = text[text.rfind(')').unwrap() + 2..].split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn the_worst_requests_end_with_their_requests_inside_the_memory_budget() {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("skipped: the soak test reads /proc");
        return;
    }
    let data = std::env::temp_dir().join(format!("zermelo-soak-{}", std::process::id()));
    let server = Server::start_with(
        &data,
        &[
            "--budget",
            BUDGET_SECONDS,
            "--budget-memory",
            &BUDGET_MIB.to_string(),
            "--cache-memory",
            &CACHE_MIB.to_string(),
        ],
    );
    let pid = server.pid();

    // The memory is sampled throughout, every few milliseconds.
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut peak = 0;
            while !done.load(Ordering::Relaxed) {
                peak = peak.max(status_kib(pid, "VmRSS"));
                std::thread::sleep(Duration::from_millis(5));
            }
            // The kernel's own high-water mark catches what falls between two samples.
            peak.max(status_kib(pid, "VmHWM"))
        })
    };

    // The cheap request, once before the stream (its game opened), then all through it.
    assert_eq!(get(&server.addr, PROBE).expect("a probe").status, 200);
    let probing = Arc::new(AtomicBool::new(true));
    let prober = {
        let (probing, addr) = (probing.clone(), server.addr.clone());
        std::thread::spawn(move || {
            let mut probes = Vec::new();
            while probing.load(Ordering::Relaxed) {
                probes.push(get(&addr, PROBE).expect("a probe"));
                std::thread::sleep(PROBE_EVERY);
            }
            probes
        })
    };
    let queue: Vec<&str> = (0..ROUNDS).flat_map(|_| WORST.iter().copied()).collect();
    let total = queue.len();
    let queue = Arc::new(Mutex::new(queue.into_iter().rev().collect::<Vec<_>>()));
    let answers = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (queue, answers, addr) = (queue.clone(), answers.clone(), server.addr.clone());
            std::thread::spawn(move || loop {
                let Some(path) = queue.lock().unwrap().pop() else {
                    return;
                };
                let answer = get(&addr, path).unwrap_or_else(|e| panic!("{path}: {e}"));
                answers.lock().unwrap().push((path, answer));
            })
        })
        .collect();
    for c in clients {
        c.join().expect("a client");
    }
    let last_answer = Instant::now();
    let elapsed = started.elapsed().as_secs_f64();
    probing.store(false, Ordering::Relaxed);
    let probes = prober.join().expect("the prober");

    // After the last answer the server goes idle: the first tenth of a second in which it
    // used no clock tick of CPU (a tick is 10 ms) ends within a second.
    let mut idle_after = None;
    let mut before = cpu_ticks(pid);
    while last_answer.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(100));
        let now = cpu_ticks(pid);
        if now == before {
            idle_after = Some(last_answer.elapsed().as_secs_f64());
            break;
        }
        before = now;
    }
    // ... and stays idle.
    let ticks = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(1));
    let busy_ticks = cpu_ticks(pid) - ticks;

    // A normal request is answered in milliseconds.
    let normal: Vec<Answer> = (0..3)
        .map(|_| get(&server.addr, "/api/moves?spec=tictactoe").expect("a normal request"))
        .collect();
    done.store(true, Ordering::Relaxed);
    let peak_kib = sampler.join().expect("the sampler");

    let answers = answers.lock().unwrap();
    let mut by_status = std::collections::BTreeMap::new();
    for (_, a) in answers.iter() {
        *by_status.entry(a.status).or_insert(0) += 1;
    }
    let (slow_path, slowest) = answers
        .iter()
        .map(|(p, a)| (*p, a.seconds))
        .fold(("", 0.0), |m, x| if x.1 > m.1 { x } else { m });
    let busy = answers.iter().filter(|(_, a)| a.body.contains("busy")).count();
    let peak_mib = peak_kib as f64 / 1024.0;
    println!(
        "soak: {total} requests, {CLIENTS} at a time, in {elapsed:.1} s; answers by status {by_status:?} \
         ({busy} of the 503s: busy, no turn to work within the budget); slowest {slowest:.2} s ({slow_path})"
    );
    println!("soak: peak RSS {peak_mib:.0} MiB (budget {BUDGET_MIB} MiB + margin {MARGIN_MIB} MiB)");
    match idle_after {
        Some(s) => println!(
            "soak: idle {s:.2} s after the last answer; {busy_ticks} ticks of CPU in the second after"
        ),
        None => println!("soak: not idle 5 s after the last answer"),
    }
    let mut probe_ms: Vec<f64> = probes.iter().map(|a| a.seconds * 1e3).collect();
    probe_ms.sort_by(f64::total_cmp);
    let quantile = |q: f64| probe_ms[((probe_ms.len() - 1) as f64 * q).round() as usize];
    let probes_busy = probes.iter().filter(|a| a.status == 503).count();
    println!(
        "soak: {} cheap probes ({PROBE}) during the stream: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {probes_busy} answered 503",
        probes.len(),
        quantile(0.5),
        quantile(0.99),
        quantile(1.0)
    );
    println!(
        "soak: a normal request after the soak: {:.1} ms (then {:.1} ms, {:.1} ms)",
        normal[0].seconds * 1e3,
        normal[1].seconds * 1e3,
        normal[2].seconds * 1e3
    );

    assert_eq!(answers.len(), total, "every request is answered");
    for (path, a) in answers.iter() {
        assert!(
            matches!(a.status, 200 | 400 | 422 | 503),
            "{path}: {} {}",
            a.status,
            a.body
        );
        let json: serde_json::Value =
            serde_json::from_str(&a.body).unwrap_or_else(|_| panic!("{path}: {}", a.body));
        if a.status != 200 {
            let error = json["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{path}: {}", a.body));
            assert_eq!(error.lines().count(), 1, "{path}: {error}");
        }
    }
    // Cheap requests go on being answered during the stream: never refused as busy (the
    // time is the machine's, so only bounded loosely here; BENCHMARKS.md has the figures).
    for a in &probes {
        assert_eq!(a.status, 200, "a cheap probe during the stream: {}", a.body);
    }
    assert!(
        quantile(0.5) < 1000.0,
        "cheap probes took {:.0} ms (p50)",
        quantile(0.5)
    );
    // The requests over what any request may ask for are refused before work starts, at
    // once, whenever they find a turn to work.
    for (path, a) in answers.iter() {
        if path.contains("mcts:100000000") || path.contains("mcts:60s") || path.contains("search:12") {
            assert!(
                a.status == 422 || a.body.contains("busy"),
                "{path}: {} {}",
                a.status,
                a.body
            );
        }
    }
    assert!(
        peak_kib <= (BUDGET_MIB + MARGIN_MIB) << 10,
        "peak RSS {peak_mib:.0} MiB is over {BUDGET_MIB} + {MARGIN_MIB} MiB"
    );
    let idle = idle_after.expect("the server goes idle after the last answer");
    assert!(idle <= 1.0, "idle only {idle:.2} s after the last answer");
    assert!(
        busy_ticks <= 5,
        "{busy_ticks} ticks of CPU in the second after going idle"
    );
    let fastest = normal.iter().map(|a| a.seconds).fold(f64::MAX, f64::min);
    assert!(normal.iter().all(|a| a.status == 200));
    assert!(fastest < 0.1, "a normal request took {:.0} ms", fastest * 1e3);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn players_asking_for_more_than_a_request_may_take_are_refused_before_work_starts() {
    let data = std::env::temp_dir().join(format!("zermelo-soak-refused-{}", std::process::id()));
    let server = Server::start_with(&data, &["--budget", "2"]);
    let refused = |path: &str, says: &str| {
        let started = Instant::now();
        let (status, body) = server.json(path);
        assert_eq!(status, 422, "{path}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(says), "{path}: {error}");
        assert!(started.elapsed() < Duration::from_secs(1), "{path}: at once");
    };
    refused(
        "/api/bot?spec=bigpoints:players=5&player=mcts:100000000",
        "more than the 40000 that fit in the 2 s a request may take",
    );
    refused(
        "/api/bot?spec=bigpoints:players=5&player=mcts:60s",
        "more than the 2 s a request may take",
    );
    refused(
        "/api/bot?spec=bigpoints:players=5&player=mcts:100000000:0.5",
        "more than the 40000",
    );
    refused("/api/bot?spec=mnk:m=8,n=8,k=5&player=search:12", "search:12");
    refused("/api/bot?spec=mnk:m=8,n=8,k=5&player=search:12:0.5", "search:12");
    // What fits is played.
    let (status, body) = server.json("/api/bot?spec=bigpoints:players=5&player=mcts:200");
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.json("/api/bot?spec=bigpoints:players=3&player=mcts:100ms:0.5");
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.json("/api/bot?spec=tictactoe&player=search:9");
    assert_eq!(status, 200, "{body}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_request_at_work_does_not_hold_up_another() {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        eprintln!("skipped: one core, so one request works at a time");
        return;
    }
    let data = std::env::temp_dir().join(format!("zermelo-soak-turns-{}", std::process::id()));
    let server = Server::start_with(&data, &["--budget", "2"]);
    let slow = {
        let addr = server.addr.clone();
        std::thread::spawn(move || get(&addr, "/api/moves?spec=mnk:m=8,n=8,k=5").expect("answered"))
    };
    std::thread::sleep(Duration::from_millis(300));
    let quick = get(&server.addr, "/api/moves?spec=tictactoe").expect("answered");
    assert_eq!(quick.status, 200);
    assert!(
        quick.seconds < 1.0,
        "{:.2} s behind a request at work",
        quick.seconds
    );
    let slow = slow.join().unwrap();
    assert_eq!(slow.status, 422, "{}", slow.body);
    let _ = std::fs::remove_dir_all(&data);
}
