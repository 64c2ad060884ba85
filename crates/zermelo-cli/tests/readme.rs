//! README.md's console examples are tests: every ```console block (a `$ zermelo ...`
//! line, then what it prints, stdout and stderr together; `? failed` for a command that
//! must fail) is run by `trycmd` in order, and its output compared with what README shows.
//! `[..]` in a shown line stands for what varies from run to run (times, rates), `...` on a
//! line of its own for lines left out.
//!
//! The examples run in an empty folder of their own, where the data folder is
//! `./zermelo-data` (`ZERMELO_DATA`, so that the environment's own is never touched) and
//! `examples/` is the repository's, so that players of your own
//! (`cmd:python3 examples/bots/...`, which need `python3` on the PATH) start as shown.
//!
//! Not run: README's ```sh blocks, commands without a shown output: building and
//! installing, `scripts/test`, `mpirun` jobs (they need MPI and take minutes; the `mpi`
//! feature's own tests run them in CI), a pipe into Graphviz's `dot`, and games a person
//! plays at the terminal (`play ... human`).
//!
//! `TRYCMD=overwrite cargo test -p zermelo-cli --release --test readme` writes what the
//! commands print now into README.md (check the `[..]` it keeps).

use std::path::{Path, PathBuf};

/// A folder for one run of the examples, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn readme_examples_print_what_readme_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().expect("the repository");
    let scratch = Scratch(std::env::temp_dir().join(format!("zermelo-readme-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&scratch.0);
    // trycmd runs the commands of `X.md` in `X.in/` when it exists.
    let cwd = scratch.0.join("README.in");
    std::fs::create_dir_all(&cwd).expect("a scratch folder");
    std::os::unix::fs::symlink(root.join("README.md"), scratch.0.join("README.md")).expect("a link");
    std::os::unix::fs::symlink(root.join("examples"), cwd.join("examples")).expect("a link");
    trycmd::TestCases::new()
        .register_bin("zermelo", Path::new(env!("CARGO_BIN_EXE_zermelo")))
        .env("ZERMELO_DATA", "./zermelo-data")
        .timeout(std::time::Duration::from_secs(120))
        .case(scratch.0.join("README.md"))
        .run();
}
