//! The console examples of README.md and of every page of the guide (`docs/guide/*.md`)
//! are tests: every ```console block (a `$ zermelo ...` line, then what it prints, stdout
//! and stderr together; `? failed` for a command that must fail) is run by `trycmd`, and
//! its output compared with what the page shows. `[..]` in a shown line stands for what
//! varies from run to run (times, rates), `...` on a line of its own for lines left out.
//!
//! Each page runs in an empty folder of its own, its examples in order, where the data
//! folder is `./zermelo-data` (`ZERMELO_DATA`, so that the environment's own is never
//! touched) and `examples/` is the repository's, so that players of your own
//! (`cmd:python3 examples/bots/...`, which need `python3` on the PATH) start as shown. A
//! page that needs a solved table solves it itself.
//!
//! Not run: ```sh blocks, commands without a shown output: building and installing,
//! `scripts/test`, `mpirun` jobs (they need MPI and take minutes; the `mpi` feature's own
//! tests run them in CI), a pipe into Graphviz's `dot`, and games a person plays at the
//! terminal (`play ... human`).
//!
//! `TRYCMD=overwrite cargo test -p zermelo-cli --release --test readme` writes what the
//! commands print now into the pages (check the `[..]` they keep).

use std::path::{Path, PathBuf};

/// A folder for one run of the examples, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// README.md and the guide's pages, each with the name its case takes in the scratch folder.
fn pages(root: &Path) -> Vec<(PathBuf, String)> {
    let guide = root.join("docs/guide");
    let mut pages: Vec<_> = std::fs::read_dir(&guide)
        .expect("the guide")
        .map(|entry| entry.expect("a guide page").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| {
            let name = format!("guide-{}", path.file_name().unwrap().to_string_lossy());
            (path, name)
        })
        .collect();
    pages.sort();
    pages.insert(0, (root.join("README.md"), "README.md".to_string()));
    pages
}

#[test]
fn readme_and_guide_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().expect("the repository");
    let scratch = Scratch(std::env::temp_dir().join(format!("zermelo-readme-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&scratch.0);
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("zermelo", Path::new(env!("CARGO_BIN_EXE_zermelo")))
        .env("ZERMELO_DATA", "./zermelo-data")
        .timeout(std::time::Duration::from_secs(120));
    for (page, name) in pages(&root) {
        let case = scratch.0.join(&name);
        // trycmd runs the commands of `X.md` in `X.in/` when it exists.
        let cwd = case.with_extension("in");
        std::fs::create_dir_all(&cwd).expect("a scratch folder");
        std::os::unix::fs::symlink(&page, &case).expect("a link");
        std::os::unix::fs::symlink(root.join("examples"), cwd.join("examples")).expect("a link");
        cases.case(case);
    }
    cases.run();
}
