//! The README's first command (`cargo run --release --bin zermelo`) and the tests
//! (`cargo test --workspace --release`, run by `scripts/test`) compile each crate the
//! first builds once: every unit of the first (a crate's target, its features and its
//! profile) is one the tests build too, so that they reuse it rather than compile it
//! again. The tests then compile only what the command never needs: the test programs and
//! the crates only they use. Compared by cargo's unit graph (`--unit-graph`, which builds
//! nothing; asked of a stable cargo with `RUSTC_BOOTSTRAP=1`).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The units `cargo ARGS --unit-graph` would build, each as the text of what makes it
/// one: package, target, mode, features, profile and platform.
fn units(args: &[&str]) -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(args)
        .args(["--unit-graph", "-Z", "unstable-options"])
        .current_dir(&root)
        .env("RUSTC_BOOTSTRAP", "1")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} --unit-graph: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let graph: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a unit graph");
    graph["units"]
        .as_array()
        .expect("units")
        .iter()
        .map(|u| {
            serde_json::json!([
                u["pkg_id"],
                u["target"]["name"],
                u["target"]["kind"],
                u["mode"],
                u["features"],
                u["profile"],
                u["platform"]
            ])
            .to_string()
        })
        .collect()
}

#[test]
fn the_tests_reuse_every_crate_the_first_command_builds() {
    let first = units(&["build", "--release", "--bin", "zermelo"]);
    let tests = units(&["test", "--workspace", "--release", "--no-run"]);
    let again: Vec<&String> = first.difference(&tests).collect();
    assert!(first.len() > 100, "{} units", first.len());
    assert!(
        again.is_empty(),
        "built by the first command but not as the tests build them (features or profile differ): {again:#?}"
    );
}
