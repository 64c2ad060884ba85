//! Running the `zermelo` binary from the integration tests.
// Each test file uses its own part of these helpers.
#![allow(dead_code)]

use std::process::{Command, Output};

use serde_json::Value;

/// Runs `zermelo` with `args`.
pub fn zermelo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs a command that must succeed and returns what it printed.
pub fn stdout(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs a command that must succeed and returns the JSON it printed.
pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).expect("valid JSON")
}

/// The validator of `docs/schema.json`, the one schema of every `--json` document.
pub fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/schema.json"))
        .expect("the schema file");
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("a valid schema")
}

/// Where `doc` breaks the schema, one line per error.
pub fn schema_errors(schema: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    schema
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// Runs a command with `--json` that must succeed, and returns the JSON it printed,
/// valid against the schema.
pub fn documented(args: &[&str]) -> Value {
    let doc = json(&[&["--json"], args].concat());
    let errors = schema_errors(&validator(), &doc);
    assert!(errors.is_empty(), "{args:?}: {errors:?}\n{doc:#}");
    doc
}

/// Runs a command that must fail, checks that it says so in one line without a
/// panic, and returns that line.
pub fn error_line(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The value of the fact `key` in a document's `details`.
pub fn fact(v: &Value, key: &str) -> Value {
    v["details"]
        .as_array()
        .expect("details")
        .iter()
        .find(|f| f["key"] == key)
        .unwrap_or_else(|| panic!("no fact {key} in {v}"))["value"]
        .clone()
}

/// A running `zermelo serve` on a free loopback port, stopped when dropped.
pub struct Server {
    child: std::process::Child,
    /// Its `host:port`.
    pub addr: String,
}

impl Server {
    /// Starts it with the data folder `data`.
    pub fn start(data: &std::path::Path) -> Server {
        Server::start_with(data, &[])
    }

    /// Starts it with the data folder `data` and more options for `serve`.
    pub fn start_with(data: &std::path::Path, options: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_zermelo"));
        command
            .args(["--data", data.to_str().unwrap(), "serve", "--addr", "127.0.0.1:0"])
            .args(options)
            .stdout(std::process::Stdio::piped());
        Server::spawn(command)
    }

    /// Starts `command`, a `zermelo serve` whose output is piped, and waits until it says
    /// where it serves.
    pub fn spawn(mut command: Command) -> Server {
        use std::io::{BufRead, BufReader};
        let mut child = command.spawn().expect("the server starts");
        let mut first_line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first_line)
            .unwrap();
        let addr = first_line
            .trim()
            .rsplit("http://")
            .next()
            .unwrap()
            .trim_end_matches('/')
            .to_string();
        Server { child, addr }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The status code and body of `METHOD path`.
    pub fn request(&self, method: &str, path: &str) -> (u16, String) {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&self.addr).expect("connects");
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let status = answer[9..12].parse().unwrap();
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    }

    /// The status code and JSON body of `GET path`.
    pub fn json(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.request("GET", path);
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A blocking connection to the server at `server` from the loopback address `from`: a
/// client of its own, apart from those of 127.0.0.1.
pub fn connect_from(from: &str, server: &str) -> std::net::TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
        socket.connect(server.parse().unwrap()).await.unwrap()
    });
    let stream = stream.into_std().unwrap();
    stream.set_nonblocking(false).unwrap();
    stream
}
