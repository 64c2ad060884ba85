//! The commands of README.md and of the documentation (`docs/**/*.md`, `python/README.md`)
//! are tests, each run by bash as a person pasting it would run it, so that its quoting is
//! checked as well as what it prints.
//!
//! Every ```console block of README.md and of the guide's pages (`docs/guide/*.md`) (a
//! `$ zermelo ...` line, then what it prints, stdout and stderr together; `? failed` for a
//! command that must fail) is run by `trycmd` as `bash -c 'LINE'`, with the `zermelo` being
//! tested first on the PATH, and its output compared with what the page shows. `[..]` in a
//! shown line stands for what varies from run to run (times, rates), `...` on a line of its
//! own for lines left out. Each page runs in an empty folder of its own, its examples in
//! order, where the data folder is `./zermelo-data` (`ZERMELO_DATA`, so that the
//! environment's own is never touched) and `examples/` is the repository's, so that
//! players of your own (`cmd:python3 examples/bots/...`, which need `python3` on the PATH)
//! start as shown. A page that needs a solved table solves it itself.
//!
//! Every ```sh block (building and installing, `scripts/test`, `mpirun` jobs, a pipe into
//! Graphviz's `dot`, games a person plays at the terminal: commands that take minutes, MPI
//! or a person) is run by bash too, in an empty folder, with those programs replaced by
//! stand-ins that only note their arguments: a block must run to its end, every command in
//! it one of those programs or the shell's own.
//!
//! `TRYCMD=overwrite cargo test -p zermelo-cli --release --test readme` writes what the
//! commands print now into the pages (check the `[..]` they keep).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A folder for one run of the examples, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(what: &str) -> Self {
        let path = std::env::temp_dir().join(format!("zermelo-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a scratch folder");
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository")
}

/// README.md and the guide's pages, each with the name its case takes in the scratch folder.
fn pages(root: &Path) -> Vec<(PathBuf, String)> {
    let guide = root.join("docs/guide");
    let mut pages: Vec<_> = markdown(&guide)
        .into_iter()
        .map(|path| {
            let name = format!("guide-{}", path.file_name().unwrap().to_string_lossy());
            (path, name)
        })
        .collect();
    pages.sort();
    pages.insert(0, (root.join("README.md"), "README.md".to_string()));
    pages
}

/// The Markdown files of `folder` and the folders in it.
fn markdown(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).expect("a folder of the documentation") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            found.extend(markdown(&path));
        } else if path.extension().is_some_and(|ext| ext == "md") {
            found.push(path);
        }
    }
    found
}

/// `text` quoted for a POSIX shell (and for trycmd's reading of a command line).
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r#"'"'"'"#))
}

/// The page with each command of its ```console blocks run by bash, and for each such
/// line the page's own.
fn through_bash(page: &str) -> (String, HashMap<String, String>) {
    let mut out = String::new();
    let mut lines = HashMap::new();
    let mut console = false;
    for line in page.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if bare.starts_with("```") {
            console = bare == "```console";
        }
        match bare.strip_prefix("$ ").filter(|_| console) {
            Some(command) => {
                let wrapped = format!("$ bash -c {}", quoted(command));
                lines.insert(wrapped.clone(), bare.to_string());
                out += &wrapped;
                out += &line[bare.len()..];
            }
            None => out += line,
        }
    }
    (out, lines)
}

/// The program bash runs for `bash -c`.
fn bash() -> PathBuf {
    ["/bin/bash", "/usr/bin/bash"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("bash")
}

#[test]
fn readme_and_guide_examples_print_what_they_show() {
    let root = root();
    let scratch = Scratch::new("readme");
    // The `zermelo` under test, alone in a folder put first on the PATH.
    let bin = scratch.0.join("bin");
    std::fs::create_dir_all(&bin).expect("a folder");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_zermelo"), bin.join("zermelo")).expect("a link");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("bash", bash())
        .env("PATH", path)
        .env("ZERMELO_DATA", "./zermelo-data")
        .timeout(std::time::Duration::from_secs(120));
    let mut written = Vec::new();
    for (page, name) in pages(&root) {
        let case = scratch.0.join(&name);
        // trycmd runs the commands of `X.md` in `X.in/` when it exists.
        let cwd = case.with_extension("in");
        std::fs::create_dir_all(&cwd).expect("a scratch folder");
        let (text, lines) = through_bash(&std::fs::read_to_string(&page).expect("a page"));
        std::fs::write(&case, text).expect("a page to run");
        std::os::unix::fs::symlink(root.join("examples"), cwd.join("examples")).expect("a link");
        cases.case(&case);
        written.push((page, case, lines));
    }
    cases.run();
    if std::env::var("TRYCMD").is_ok_and(|v| v == "overwrite") {
        // What trycmd wrote, with each page's own command lines.
        for (page, case, lines) in written {
            let run = std::fs::read_to_string(&case).expect("the page run");
            let back: String = run
                .split_inclusive('\n')
                .map(|line| {
                    let bare = line.trim_end_matches('\n');
                    match lines.get(bare) {
                        Some(own) => format!("{own}{}", &line[bare.len()..]),
                        None => line.to_string(),
                    }
                })
                .collect();
            std::fs::write(&page, back).expect("the page");
        }
    }
}

/// The programs a ```sh block may call besides the shell's own, each replaced by a
/// stand-in, and the paths of programs in a checkout it may run.
const STAND_INS: [&str; 6] = ["cargo", "pip", "mpirun", "srun", "zermelo", "dot"];
const CHECKOUT_PROGRAMS: [&str; 2] = ["target/release/zermelo", "scripts/test"];

/// The ```sh blocks of `text`.
fn sh_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        match (&mut block, line.trim_end()) {
            (None, "```sh" | "```bash" | "```shell") => block = Some(String::new()),
            (Some(_), "```") => blocks.extend(block.take()),
            (Some(b), _) => {
                *b += line;
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn shell_snippets_of_the_documentation_run_in_bash() {
    let root = root();
    let scratch = Scratch::new("snippets");
    let stand_ins = scratch.0.join("bin");
    std::fs::create_dir_all(&stand_ins).expect("a folder");
    let calls = scratch.0.join("calls");
    let write_stand_in = |path: &Path| {
        let script = format!(
            "#!/bin/sh\nprintf '%s' \"$0\" >> {calls}; printf ' [%s]' \"$@\" >> {calls}; echo >> {calls}\n",
            calls = quoted(&calls.display().to_string())
        );
        std::fs::create_dir_all(path.parent().unwrap()).expect("a folder");
        std::fs::write(path, script).expect("a stand-in");
        let mut perms = std::fs::metadata(path).expect("a stand-in").permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(path, perms).expect("a stand-in");
    };
    for program in STAND_INS {
        write_stand_in(&stand_ins.join(program));
    }
    // Where bash finds the shell's own programs (cat, ...), after the stand-ins.
    let path = format!("{}:/usr/bin:/bin", stand_ins.display());
    let mut documents = markdown(&root.join("docs"));
    documents.extend([root.join("README.md"), root.join("python/README.md")]);
    documents.sort();
    let mut run = 0;
    for document in documents {
        let text = std::fs::read_to_string(&document).expect("a page");
        for (i, block) in sh_blocks(&text).into_iter().enumerate() {
            let folder = scratch.0.join(format!("run-{run}"));
            run += 1;
            std::fs::create_dir_all(&folder).expect("a folder");
            for program in CHECKOUT_PROGRAMS {
                write_stand_in(&folder.join(program));
            }
            let _ = std::fs::remove_file(&calls);
            let out = Command::new(bash())
                .args(["-e", "-o", "pipefail", "-c", &block])
                .current_dir(&folder)
                .env_clear()
                .env("PATH", &path)
                .env("HOME", &folder)
                .output()
                .expect("bash runs");
            let shown = document
                .strip_prefix(&root)
                .unwrap_or(&document)
                .display()
                .to_string();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && stderr.is_empty(),
                "{shown}, sh block {}: bash says {:?} ({}):\n{block}",
                i + 1,
                stderr.trim(),
                out.status
            );
            let called = std::fs::read_to_string(&calls).unwrap_or_default();
            assert!(
                !called.is_empty(),
                "{shown}, sh block {}: runs none of {STAND_INS:?}:\n{block}",
                i + 1
            );
        }
    }
    assert!(run > 0, "no sh block found");
}
