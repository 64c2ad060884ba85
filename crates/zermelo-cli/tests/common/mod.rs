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

/// Runs a command that must succeed and returns the JSON it printed.
pub fn json(args: &[&str]) -> Value {
    let out = zermelo(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
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
