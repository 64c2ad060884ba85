//! Bounds on what comes from outside (issue 49, item 6), one test for each: graph files
//! read within `--memory` (JSON and GraphML, refused before reading or as they read), a
//! file's seats checked before anything is sized by them, only regular files read, two
//! moves of a node printing alike refused, table names within the file-name limit; and
//! the server's: games opened outside the cache's lock, connections that send nothing
//! closed, and the connections of one address capped. Every refusal is one line.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{error_line, stdout, Server};

/// A scratch folder of this test process, made empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-bounds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path of `path` as text.
fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A game of `n` positions in a row, each with one move `m` to the next, the last a draw,
/// as node-link JSON.
fn chain_json(n: usize) -> String {
    let mut out = String::from("{\"nodes\": [");
    for i in 0..n {
        let sep = if i == 0 { "" } else { "," };
        if i + 1 == n {
            out += &format!("{sep}{{\"result\": \"draw\"}}");
        } else {
            out += &format!("{sep}{{\"seat\": {}}}", i % 2);
        }
    }
    out += "], \"edges\": [";
    for i in 0..n - 1 {
        let sep = if i == 0 { "" } else { "," };
        out += &format!("{sep}{{\"source\": {i}, \"target\": {}, \"move\": \"m\"}}", i + 1);
    }
    out + "]}"
}

/// The same game as GraphML.
fn chain_graphml(n: usize) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\"?>\n<graphml>\n<key id=\"seat\" for=\"node\" attr.name=\"seat\"/>\n\
         <key id=\"result\" for=\"node\" attr.name=\"result\"/>\n<key id=\"move\" for=\"edge\" attr.name=\"move\"/>\n\
         <graph id=\"G\" edgedefault=\"directed\">\n",
    );
    for i in 0..n {
        if i + 1 == n {
            out += &format!("<node id=\"n{i}\"><data key=\"result\">draw</data></node>\n");
        } else {
            out += &format!("<node id=\"n{i}\"><data key=\"seat\">{}</data></node>\n", i % 2);
        }
    }
    for i in 0..n - 1 {
        out += &format!(
            "<edge source=\"n{i}\" target=\"n{}\"><data key=\"move\">m</data></edge>\n",
            i + 1
        );
    }
    out + "</graph>\n</graphml>\n"
}

/// A graph file over `--memory` is refused in one line naming the file, its size and the
/// limit: before it is read when the file alone is larger, else as it is read (JSON and
/// GraphML); with room enough, the same file is solved.
#[test]
fn graph_files_are_read_within_memory() {
    let dir = scratch("memory");
    let data = dir.join("data");
    let json = dir.join("chain.json");
    let graphml = dir.join("chain.graphml");
    std::fs::write(&json, chain_json(200_000)).unwrap();
    std::fs::write(&graphml, chain_graphml(200_000)).unwrap();
    for file in [&json, &graphml] {
        let spec = format!("graph:file={}", text(file));
        let size = std::fs::metadata(file).unwrap().len();
        // Smaller than the file: refused before it is read.
        let before = error_line(&["--data", text(&data), "--memory", "4M", "count", &spec]);
        // Larger than the file, smaller than what its nodes and edges take once read.
        let room = format!("{}K", size / 1024 + 2048);
        let within = error_line(&["--data", text(&data), "--memory", &room, "count", &spec]);
        for line in [&before, &within] {
            assert!(line.contains(text(file)), "{line}");
            assert!(line.contains("MiB)"), "the file's size: {line}");
            assert!(line.contains("--memory"), "{line}");
        }
        assert!(before.contains("--memory 4 MiB"), "{before}");
        let out = stdout(&["--data", text(&data), "--memory", "1G", "count", &spec]);
        assert!(out.contains("positions: 200000"), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file's seats (`seats`, the players' names, a node's points) are checked before
/// anything is sized by them: huge numbers and long lists are refused in one line.
#[test]
fn seats_are_checked_before_anything_is_sized_by_them() {
    let dir = scratch("seats");
    let nodes = r#""nodes": [{"seat": 0}, {"result": "draw"}], "edges": [{"source": 0, "target": 1}]"#;
    let many: Vec<String> = (0..40).map(|i| format!("\"p{i}\"")).collect();
    let points: Vec<String> = (0..1_000_000).map(|_| "1".to_string()).collect();
    let cases = [
        (format!("{{\"seats\": 1000000000000000000, {nodes}}}"), "seats"),
        (format!("{{\"seats\": 100000000, {nodes}}}"), "seats"),
        (format!("{{\"players\": [{}], {nodes}}}", many.join(",")), "seat"),
        (
            format!(
                "{{\"nodes\": [{{\"seat\": 0}}, {{\"points\": [{}]}}], \"edges\": [{{\"source\": 0, \"target\": 1}}]}}",
                points.join(",")
            ),
            "seat",
        ),
    ];
    for (i, (file, word)) in cases.iter().enumerate() {
        let path = dir.join(format!("seats{i}.json"));
        std::fs::write(&path, file).unwrap();
        let line = error_line(&["count", &format!("graph:file={}", text(&path))]);
        assert!(line.contains(word) && line.contains("32"), "{line}");
    }
    let path = dir.join("seats.graphml");
    std::fs::write(
        &path,
        "<graphml><graph><data key=\"seats\">1000000000000000000</data><node id=\"a\"><data key=\"result\">draw</data></node></graph></graphml>",
    )
    .unwrap();
    let line = error_line(&["count", &format!("graph:file={}", text(&path))]);
    assert!(line.contains("seats") && line.contains("32"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Only a regular file is read: a folder, a named pipe and a device are refused in one
/// line, never read (a pipe nobody writes would wait for ever, /dev/zero never ends).
#[test]
fn only_regular_files_are_read() {
    let dir = scratch("regular");
    let fifo = dir.join("pipe.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let mut paths = vec![dir.clone(), PathBuf::from("/dev/zero")];
    if made.is_ok_and(|s| s.success()) {
        paths.push(fifo);
    }
    for path in &paths {
        let started = Instant::now();
        let line = error_line(&["count", &format!("graph:file={}", text(path))]);
        assert!(line.contains(text(path)), "{line}");
        assert!(started.elapsed() < Duration::from_secs(20), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two moves of one node that print alike are refused, naming the node.
#[test]
fn two_moves_printing_alike_are_refused() {
    let dir = scratch("alike");
    let path = dir.join("alike.json");
    std::fs::write(
        &path,
        r#"{"nodes": [{"id": "s", "seat": 0}, {"id": "a", "result": "draw"}, {"id": "b", "result": "player 1 wins"}],
            "edges": [{"source": "s", "target": "a", "move": "x"}, {"source": "s", "target": "b", "move": "x"}]}"#,
    )
    .unwrap();
    let line = error_line(&["count", &format!("graph:file={}", text(&path))]);
    assert!(line.contains("node 0 ('s')") && line.contains("'x'"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A graph file's table is saved under a name within the file-name limit, however long
/// its path and version, and found again.
#[test]
fn table_names_stay_within_the_file_name_limit() {
    let dir = scratch("names");
    let data = dir.join("data");
    let deep = dir.join("d".repeat(200)).join("e".repeat(200));
    std::fs::create_dir_all(&deep).unwrap();
    let path = deep.join(format!("{}.json", "g".repeat(200)));
    let version = "v".repeat(300);
    std::fs::write(
        &path,
        format!(
            r#"{{"version": "{version}", "nodes": [{{"seat": 0}}, {{"result": "player 1 wins"}}],
                "edges": [{{"source": 0, "target": 1, "move": "go"}}]}}"#
        ),
    )
    .unwrap();
    let spec = format!("graph:file={}", text(&path));
    let first = stdout(&["--data", text(&data), "solve", &spec]);
    assert!(first.contains("solved now"), "{first}");
    let names: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".zdb"))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].len() <= 200, "{}", names[0]);
    let again = stdout(&["--data", text(&data), "solve", &spec]);
    assert!(!again.contains("solved now"), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The status of a `GET path` on a connection of its own to `addr`, and the seconds it
/// took.
fn timed_get(addr: &str, path: &str) -> (u16, f64) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, started.elapsed().as_secs_f64())
}

/// The server reads a graph file it offers once, at the start and within its cache's
/// memory, and opens games outside the cache's lock: while clients keep asking for a big
/// graph file, every request for another game is answered at once.
#[test]
fn other_requests_never_wait_for_a_big_graph_file() {
    let dir = scratch("lock");
    let file = dir.join("big.graphml");
    std::fs::write(&file, chain_graphml(200_000)).unwrap();
    let big = format!("graph:file={}", text(&file));
    // Too little memory for the file: the server says so in one line and does not start.
    let out = common::zermelo(&[
        "--data",
        text(&dir),
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--cache-memory",
        "4",
        "--game",
        &big,
    ]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.trim().lines().count() == 1,
        "{said}"
    );
    assert!(
        said.contains("--cache-memory") && said.contains("big.graphml (24 MiB)"),
        "{said}"
    );
    let server = Server::start_with(&dir.join("data"), &["--cache-memory", "256", "--game", &big]);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let askers: Vec<_> = (0..2)
        .map(|_| {
            let (addr, stop) = (server.addr.clone(), stop.clone());
            let path = format!("/api/moves?spec={big}");
            std::thread::spawn(move || {
                let mut statuses = Vec::new();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) && statuses.len() < 50 {
                    statuses.push(timed_get(&addr, &path).0);
                }
                statuses
            })
        })
        .collect();
    let mut slowest: f64 = 0.0;
    for _ in 0..20 {
        let (status, seconds) = timed_get(&server.addr, "/api/moves?spec=tictactoe");
        assert_eq!(status, 200);
        slowest = slowest.max(seconds);
        std::thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for asker in askers {
        let statuses = asker.join().unwrap();
        assert!(
            statuses.iter().all(|s| [200, 422, 503].contains(s)),
            "{statuses:?}"
        );
    }
    assert!(slowest < 1.5, "a request for tictactoe waited {slowest:.2} s");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Seconds until `stream` is closed by the server (its read ends), at most `most`.
fn closed_within(stream: &mut TcpStream, most: u64) -> Option<f64> {
    let started = Instant::now();
    stream.set_read_timeout(Some(Duration::from_secs(most))).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return Some(started.elapsed().as_secs_f64()),
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return Some(started.elapsed().as_secs_f64())
            }
            Err(_) => return None,
        }
    }
}

/// A connection that sends nothing is closed within seconds, one that sends half a head
/// too, and a kept-alive connection once it idles after its answer.
#[test]
fn connections_that_send_nothing_are_closed() {
    let dir = scratch("idle");
    let server = Server::start(&dir);
    let mut silent = TcpStream::connect(&server.addr).unwrap();
    let mut half = TcpStream::connect(&server.addr).unwrap();
    half.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n").unwrap();
    let mut kept = TcpStream::connect(&server.addr).unwrap();
    kept.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    // Its answer first (a whole one: headers, then as many bytes as they say).
    kept.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = kept.read(&mut buf).unwrap();
        assert!(n > 0, "closed before answering");
        answer.extend_from_slice(&buf[..n]);
    }
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    for (what, stream) in [
        ("silent", &mut silent),
        ("half a head", &mut half),
        ("kept alive", &mut kept),
    ] {
        let seconds = closed_within(stream, 30);
        assert!(
            seconds.is_some_and(|s| s < 20.0),
            "{what}: not closed ({seconds:?})"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// With the common limit of 1,024 open files, 1,120 idle connections from one address
/// lock nobody out: those past its share are closed at once, and another address is
/// answered.
#[test]
fn one_address_cannot_take_every_connection() {
    use std::os::unix::process::CommandExt;
    let dir = scratch("flood");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_zermelo"));
    command
        .args(["--data", text(&dir), "serve", "--addr", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped());
    // SAFETY: setrlimit only lowers the child's limit of open files before it runs.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 1024,
            };
            match libc::setrlimit(libc::RLIMIT_NOFILE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let server = Server::spawn(command);
    let mut flood = Vec::new();
    for _ in 0..1120 {
        match TcpStream::connect(&server.addr) {
            Ok(s) => flood.push(s),
            Err(_) => break,
        }
    }
    // Those past the address's share are closed at once.
    std::thread::sleep(Duration::from_millis(500));
    let mut closed = 0;
    for stream in &mut flood {
        stream.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 1];
        match stream.read(&mut buf) {
            Ok(0) => closed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => closed += 1,
            _ => {}
        }
    }
    assert!(closed >= 1000, "{closed} of {} closed", flood.len());
    // Another address is answered while the flood's connections are open.
    let mut stream = common::connect_from("127.0.0.2", &server.addr);
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        stream,
        "GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.200}");
    drop(flood);
    let _ = std::fs::remove_dir_all(&dir);
}
