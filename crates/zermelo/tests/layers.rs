//! Keeps the library's layering true (see DESIGN.md, "Layout"): imports run one way,
//! games → session → analysis/play → solve → table → game/value, with no circles; the
//! top units (the catalog, and the conformance suite beside it) sit above the games, and
//! every unit of the library is placed in one layer ([`LAYERS`]).
//!
//! Every `.rs` file under `src/` is read; comment lines and everything from a
//! `#[cfg(test)]` line on are ignored (unit tests may use any game). Each `crate::…`
//! path, and each `super::…` path resolved against the file's module, is an import of
//! a unit: `games/<family>` under `src/games/`, otherwise the first path component
//! (`crate::Error` and the other re-exports in `lib.rs` count as their modules).
//!
//! The front ends (the CLI crate and the Python package) know no game: they name no game
//! module and no type that only a game family defines, write no game's name in a string
//! literal (what they say of a game comes from the catalog), and their own modules import
//! one another without circles.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// unit → imported unit → the places it is imported (`file:line: path`).
type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

/// Every unit of the library by layer, the top first: a unit imports units of its own
/// layer or below, never above; `games/*` stands for every family (which import no other
/// family). The studies over the whole catalog (compensation sweeps, balance maps) sit
/// above it; the catalog and the conformance suite above the games; the limits of a
/// request beside the sessions they bound; the explored graphs of games from outside
/// beside the analyses and players.
const LAYERS: [&[&str]; 8] = [
    &["balance_map", "command", "design", "schema"],
    &["catalog", "conformance"],
    &["games/*"],
    &["session", "limits"],
    &["analysis", "play", "explicit"],
    &["solve"],
    &["table"],
    &["game", "value", "class", "error", "spec", "picture", "chart"],
];

/// The layer of `unit`, counted from the top, or `None` when no layer places it.
fn layer(unit: &str) -> Option<usize> {
    let unit = if unit == "games" || unit.starts_with("games/") {
        "games/*"
    } else {
        unit
    };
    LAYERS.iter().position(|units| units.contains(&unit))
}

#[test]
fn library_layers_run_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = scan(&src);
    print_graph(&graph);
    let mut problems = violations(&graph);
    if let Some(cycle) = find_cycle(&graph) {
        problems.push(cycle);
    }
    assert!(
        problems.is_empty(),
        "layering violations:\n{}",
        problems.join("\n")
    );
}

#[test]
fn front_ends_know_no_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let family_types = family_types(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        family_types.contains("Domineering") && !family_types.contains("Plan"),
        "{family_types:?}"
    );
    let mut problems = Vec::new();
    for dir in ["crates/zermelo-cli/src", "python/src", "python/zermelo"] {
        for file in source_files(&root.join(dir)) {
            let source = fs::read_to_string(&file).unwrap();
            let rust = file.extension().is_some_and(|e| e == "rs");
            for (n, line) in source.lines().enumerate() {
                let place = format!("{}:{}", file.strip_prefix(&root).unwrap().display(), n + 1);
                let line = without_strings(line.split("//").next().unwrap_or_default());
                if !rust {
                    if line.contains("import") && line.contains(".games") {
                        problems.push(format!("{place}: imports a game module: {}", line.trim()));
                    }
                    continue;
                }
                for (at, _) in line.match_indices("zermelo::") {
                    let mut paths = Vec::new();
                    use_tree(
                        line.as_bytes(),
                        &mut (at + "zermelo::".len()),
                        Vec::new(),
                        &mut paths,
                    );
                    for path in paths {
                        if path.iter().any(|p| p == "games") {
                            problems.push(format!(
                                "{place}: names a game module: zermelo::{}",
                                path.join("::")
                            ));
                        } else if path.last().is_some_and(|name| family_types.contains(name)) {
                            problems.push(format!(
                                "{place}: names a family type: zermelo::{}",
                                path.join("::")
                            ));
                        }
                    }
                }
            }
        }
    }
    let cli = scan(&root.join("crates/zermelo-cli/src"));
    print_graph(&cli);
    problems.extend(find_cycle(&cli));
    assert!(
        problems.is_empty(),
        "front ends that know a game:\n{}",
        problems.join("\n")
    );
}

/// Game names that are also words the front ends use for something else, and so count
/// in a literal only as a spec (`graph:file=`): the `graph` command and its output's
/// formats; `sum` and `dots` as English words in messages.
const ALSO_WORDS: [&str; 3] = ["graph", "sum", "dots"];

#[test]
fn front_ends_write_no_game_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let games: Vec<&str> = zermelo::catalog::entries().iter().map(|e| e.info.name).collect();
    let mut problems = Vec::new();
    for dir in ["crates/zermelo-cli/src", "python/src", "python/zermelo"] {
        for file in source_files(&root.join(dir)) {
            let source = fs::read_to_string(&file).unwrap();
            let rust = file.extension().is_some_and(|e| e == "rs");
            for (n, literal) in literals(&source, rust) {
                if let Some(game) = games.iter().find(|g| names_game(&literal, g)) {
                    let place = format!("{}:{n}", file.strip_prefix(&root).unwrap().display());
                    problems.push(format!("{place}: names the game {game}: {literal:?}"));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "front ends that name a game in a literal:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_literal_check_finds_planted_names() {
    let rust = "// tictactoe in a comment\nlet a = \"mnk:m=3\"; let c = '\"'; let b = r#\"x \"nim\" y\"#;\nf(\"the graph\", \"graph:file=g.json\");\n";
    let found: Vec<(usize, String)> = literals(rust, true);
    let named: Vec<&str> = found
        .iter()
        .filter_map(|(_, l)| {
            ["mnk", "nim", "graph", "tictactoe"]
                .into_iter()
                .find(|g| names_game(l, g))
        })
        .collect();
    assert_eq!(named, ["mnk", "nim", "graph"], "{found:?}");
    assert_eq!(found[0].0, 2);
    let python = "def f(spec='tictactoe'):\n    \"\"\"Plays `bigpoints:board=1221`.\"\"\"\n    # nim\n    return f\"{spec} and dots\"\n";
    let found = literals(python, false);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(names_game(&found[0].1, "tictactoe") && !names_game(&found[1].1, "dots"));
}

/// Whether `literal` names the game `game`: as a word, or for a game whose name is also
/// a word ([`ALSO_WORDS`]), as a spec with keys.
fn names_game(literal: &str, game: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    literal.match_indices(game).any(|(at, _)| {
        let after = &literal[at + game.len()..];
        if word(literal[..at].chars().next_back()) || word(after.chars().next()) {
            return false;
        }
        !ALSO_WORDS.contains(&game)
            || after.starts_with(':')
                && after[1..].split_once('=').is_some_and(|(k, _)| {
                    !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                })
    })
}

/// The string literals of a Rust (`rust`) or Python source, each with its line; comments
/// and Python's docstrings (a triple-quoted string that starts its line) left out.
fn literals(source: &str, rust: bool) -> Vec<(usize, String)> {
    let chars: Vec<char> = source.chars().collect();
    let (mut out, mut line, mut i) = (Vec::new(), 1, 0);
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        let comment = if rust {
            c == '/' && chars.get(i + 1) == Some(&'/')
        } else {
            c == '#'
        };
        if comment {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '\n' {
            line += 1;
            line_start = true;
            i += 1;
            continue;
        }
        if rust && c == '\'' {
            // A character literal ('"', '\''), else a lifetime.
            let close = if chars.get(i + 1) == Some(&'\\') {
                i + 3
            } else {
                i + 2
            };
            i = if chars.get(close) == Some(&'\'') {
                close + 1
            } else {
                i + 1
            };
            line_start = false;
            continue;
        }
        let quote = c == '"' || (!rust && c == '\'');
        let raw = rust
            && c == 'r'
            && matches!(chars.get(i + 1), Some('"' | '#'))
            && !chars[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_');
        if !quote && !raw {
            line_start &= c.is_whitespace();
            i += 1;
            continue;
        }
        let starts_line = line_start;
        line_start = false;
        let at = line;
        let (end, body_from) = if raw {
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            let closing: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let from = i + 2 + hashes;
            let end = (from..chars.len())
                .find(|&j| chars[j..].starts_with(&closing))
                .unwrap_or(chars.len());
            (end, from)
        } else {
            let triple = !rust && chars[i..].starts_with(&[c, c, c]);
            let width = if triple { 3 } else { 1 };
            let from = i + width;
            let mut j = from;
            while j < chars.len() && !(chars[j..].starts_with(&vec![c; width][..])) {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            if triple && starts_line {
                // A docstring: text for people, not a value.
                line += chars[i..j.min(chars.len())]
                    .iter()
                    .filter(|&&x| x == '\n')
                    .count();
                i = j + width;
                continue;
            }
            (j.min(chars.len()), from)
        };
        let body: String = chars[body_from..end].iter().collect();
        line += body.matches('\n').count();
        out.push((at, body));
        i = end
            + if raw {
                1 + chars[i + 1..].iter().take_while(|&&h| h == '#').count()
            } else if !rust && chars[i..].starts_with(&[c, c, c]) {
                3
            } else {
                1
            };
    }
    out
}

/// The types, traits and aliases defined under `src/games/` and nowhere else in the library.
fn family_types(src: &Path) -> BTreeSet<String> {
    let defined = |files: Vec<PathBuf>| -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        for file in files {
            let text = code(&fs::read_to_string(file).unwrap());
            for line in text.lines() {
                let words: Vec<&str> = line.split_whitespace().collect();
                for w in words.windows(2) {
                    if ["struct", "enum", "trait", "type"].contains(&w[0]) {
                        let name: String = w[1]
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        names.insert(name);
                    }
                }
            }
        }
        names
    };
    // `games/mod.rs` declares what every family fills in (the catalog's `Entry`), not a family's own type.
    let shared = src.join("games").join("mod.rs");
    let games = defined(
        rust_files(&src.join("games"))
            .into_iter()
            .filter(|f| *f != shared)
            .collect(),
    );
    let elsewhere = defined(
        rust_files(src)
            .into_iter()
            .filter(|f| !f.starts_with(src.join("games")))
            .collect(),
    );
    games
        .difference(&elsewhere)
        .filter(|n| !n.is_empty())
        .cloned()
        .collect()
}

/// `line` with its string literals emptied (text shown to people may name a game).
fn without_strings(line: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in line.chars() {
        if c == '"' {
            quoted = !quoted;
            out.push(c);
        } else if !quoted {
            out.push(c);
        }
    }
    out
}

/// The Rust and Python sources under `dir`.
fn source_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(source_files(&path));
        } else if path
            .extension()
            .is_some_and(|e| e == "rs" || e == "py" || e == "pyi")
        {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[test]
fn checker_finds_planted_violations() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("layers-fixture-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    // A clean library: every import runs down the layers.
    write(
        "lib.rs",
        "pub mod game;\npub use error::Error;\npub use game::{Game, Outcome};\n",
    );
    write("error.rs", "pub struct Error;\n");
    write("game.rs", "pub trait Game {}\n");
    write("table/mod.rs", "use crate::{game::Game, Error};\n");
    write(
        "solve/mod.rs",
        "use crate::table;\nuse crate::{\n    Game,\n    Outcome,\n};\n",
    );
    write(
        "session/mod.rs",
        "use crate::solve::x;\n// use crate::games::a::A;\n",
    );
    write("games/mod.rs", "pub mod a;\npub mod b;\n");
    write(
        "games/a/mod.rs",
        "use crate::session::S;\nuse super::super::Error;\n",
    );
    write("games/a/rules.rs", "use super::A;\n");
    write(
        "games/b.rs",
        "use crate::Game;\n#[cfg(test)]\nmod tests {\n    use crate::games::a::A;\n}\n",
    );
    let graph = scan(&root);
    assert_eq!(graph["games/a"].keys().collect::<Vec<_>>(), ["error", "session"]);
    assert_eq!(graph["solve"].keys().collect::<Vec<_>>(), ["game", "table"]);
    assert_eq!(graph["table"].keys().collect::<Vec<_>>(), ["error", "game"]);
    assert!(violations(&graph).is_empty(), "{:?}", violations(&graph));
    assert_eq!(find_cycle(&graph), None);

    // Plant a forbidden import (and a cycle with it), and a game importing another game.
    write(
        "table/mod.rs",
        "use crate::{game::Game, Error};\nuse crate::solve::{\n    deep::Thing,\n};\n",
    );
    write("games/b.rs", "use crate::Game;\nuse super::a::A;\n");
    // And the session importing a top unit.
    write(
        "session/mod.rs",
        "use crate::solve::x;\nuse crate::conformance::check;\n",
    );
    let graph = scan(&root);
    let found = violations(&graph);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].contains("games/b.rs:2: super::a::A"), "{found:?}");
    assert!(
        found[1].contains("session/mod.rs:2: crate::conformance::check"),
        "{found:?}"
    );
    assert!(
        found[2].contains("table/mod.rs:2: crate::solve::deep::Thing"),
        "{found:?}"
    );
    let cycle = find_cycle(&graph).expect("a planted cycle");
    assert!(
        cycle.contains("solve -> table -> solve") || cycle.contains("table -> solve -> table"),
        "{cycle}"
    );

    // A new top-level unit no layer places.
    write("mystery.rs", "use crate::Error;\n");
    let found = violations(&scan(&root));
    assert!(
        found.iter().any(|v| v.starts_with("mystery: no layer places it")),
        "{found:?}"
    );
    fs::remove_dir_all(&root).unwrap();
}

/// Every violation of the layering rules, one line each.
fn violations(graph: &Graph) -> Vec<String> {
    let mut out = Vec::new();
    for (from, deps) in graph {
        let Some(from_layer) = layer(from) else {
            out.push(format!("{from}: no layer places it (add it to LAYERS)"));
            continue;
        };
        for (to, sites) in deps {
            let why = match layer(to) {
                None => "imports a unit no layer places",
                Some(to_layer) if to_layer < from_layer => "imports a layer above it",
                Some(_) if from.starts_with("games/") && to.starts_with("games/") => {
                    "a game imports another game"
                }
                Some(_) => continue,
            };
            for site in sites {
                out.push(format!("{from} -> {to} ({why}): {site}"));
            }
        }
    }
    out
}

/// One cycle in the graph, with a place that makes each step, or `None`.
fn find_cycle(graph: &Graph) -> Option<String> {
    fn visit(
        unit: &str,
        graph: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|u| u == unit) {
            let mut cycle = path[at..].to_vec();
            cycle.push(unit.to_string());
            return Some(cycle);
        }
        if !done.insert(unit.to_string()) {
            return None;
        }
        path.push(unit.to_string());
        for to in graph.get(unit).into_iter().flat_map(|deps| deps.keys()) {
            if let Some(cycle) = visit(to, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for unit in graph.keys() {
        if let Some(cycle) = visit(unit, graph, &mut Vec::new(), &mut done) {
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| format!("  {} -> {}: {}", w[0], w[1], graph[&w[0]][&w[1]][0]))
                .collect();
            return Some(format!("cycle {}\n{}", cycle.join(" -> "), steps.join("\n")));
        }
    }
    None
}

fn print_graph(graph: &Graph) {
    println!("module graph (unit -> units it imports):");
    for (unit, deps) in graph {
        println!(
            "{unit} -> {}",
            deps.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    }
}

/// The import graph of the crate whose root (`lib.rs`, or `main.rs` alone) is in `src`.
fn scan(src: &Path) -> Graph {
    let reexports = reexports(&fs::read_to_string(src.join("lib.rs")).unwrap_or_default());
    let families: BTreeSet<String> = fs::read_dir(src.join("games"))
        .map(|dir| {
            dir.map(|e| e.unwrap().path())
                .filter_map(|p| module_name(&p))
                .collect()
        })
        .unwrap_or_default();
    let unit_of = |path: &[String]| match (path[0].as_str(), path.get(1)) {
        ("games", Some(family)) if families.contains(family) => format!("games/{family}"),
        (first, _) => reexports.get(first).cloned().unwrap_or_else(|| first.to_string()),
    };
    let mut graph = Graph::new();
    for file in rust_files(src) {
        let rel: Vec<String> = file
            .strip_prefix(src)
            .unwrap()
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        if rel == ["lib.rs"] || rel == ["main.rs"] {
            continue;
        }
        // The file's module path: games/dots/mod.rs is games::dots, games/mnk.rs is games::mnk.
        let mut module: Vec<String> = rel
            .iter()
            .map(|c| c.trim_end_matches(".rs").to_string())
            .collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        let from = unit_of(&module);
        let name = rel.join("/");
        let text = code(&fs::read_to_string(&file).unwrap());
        let deps = graph.entry(from.clone()).or_default();
        for (at, written, path) in imports(&text, &module) {
            let to = unit_of(&path);
            if to != from {
                // One entry per line: `file:line: crate::a::B, crate::a::C`.
                let site = format!("{name}:{}: ", text[..at].matches('\n').count() + 1);
                let written = written.trim_end_matches("::self");
                let sites = deps.entry(to).or_default();
                match sites.last_mut() {
                    Some(last) if last.starts_with(&site) => *last += &format!(", {written}"),
                    _ => sites.push(site + written),
                }
            }
        }
    }
    graph
}

/// The source with comment lines blanked and everything from `#[cfg(test)]` dropped,
/// keeping line numbers.
fn code(source: &str) -> String {
    let mut out = String::new();
    for line in source.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if !trimmed.starts_with("//") {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Every `crate::` and `super::` path in `text`, as (offset, path as written, path from
/// the crate root), with `use` groups expanded.
fn imports(text: &str, module: &[String]) -> Vec<(usize, String, Vec<String>)> {
    let bytes = text.as_bytes();
    let word_start =
        |at: usize| at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || b"_$:".contains(&bytes[at - 1]));
    let mut out = Vec::new();
    for (key, _) in text.match_indices("crate::").chain(text.match_indices("super::")) {
        if !word_start(key) {
            continue;
        }
        let mut at = key;
        let mut base = Vec::new();
        if text[at..].starts_with("crate::") {
            at += "crate::".len();
        } else {
            let mut climb = 0;
            while text[at..].starts_with("super::") {
                at += "super::".len();
                climb += 1;
            }
            if climb > module.len() {
                continue;
            }
            base = module[..module.len() - climb].to_vec();
        }
        let prefix = text[key..at].to_string();
        let mut paths = Vec::new();
        use_tree(bytes, &mut at, Vec::new(), &mut paths);
        for tail in paths.into_iter().filter(|p| !p.is_empty() || !base.is_empty()) {
            let written = format!("{prefix}{}", tail.join("::"));
            out.push((key, written, base.iter().chain(&tail).cloned().collect()));
        }
    }
    out.sort();
    out
}

/// Parses a path or `use` tree at `*at` (`a::b`, `a::{b, c::{d, e}}`, `a::*`), adding each
/// full path to `out`.
fn use_tree(s: &[u8], at: &mut usize, mut path: Vec<String>, out: &mut Vec<Vec<String>>) {
    let skip_space = |at: &mut usize| {
        while *at < s.len() && s[*at].is_ascii_whitespace() {
            *at += 1;
        }
    };
    skip_space(at);
    if *at < s.len() && s[*at] == b'{' {
        *at += 1;
        loop {
            skip_space(at);
            match s.get(*at) {
                None => return,
                Some(b'}') => {
                    *at += 1;
                    return;
                }
                Some(b',') => *at += 1,
                Some(_) => {
                    let before = *at;
                    use_tree(s, at, path.clone(), out);
                    if *at == before {
                        *at += 1;
                    }
                }
            }
        }
    }
    let start = *at;
    while *at < s.len() && (s[*at].is_ascii_alphanumeric() || s[*at] == b'_') {
        *at += 1;
    }
    if *at > start {
        path.push(String::from_utf8_lossy(&s[start..*at]).into_owned());
        if s[*at..].starts_with(b"::") && s.get(*at + 2) != Some(&b'<') {
            *at += 2;
            return use_tree(s, at, path, out);
        }
        skip_space(at);
        if s[*at..].starts_with(b"as ") {
            *at += 3;
            skip_space(at);
            while *at < s.len() && (s[*at].is_ascii_alphanumeric() || s[*at] == b'_') {
                *at += 1;
            }
        }
    } else if s.get(*at) == Some(&b'*') {
        *at += 1;
    }
    out.push(path);
}

/// Names that `lib.rs` re-exports (`pub use error::Error;`), mapped to their module.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let (lib, mut map) = (code(lib), BTreeMap::new());
    for (at, _) in lib.match_indices("pub use ") {
        let mut paths = Vec::new();
        use_tree(
            lib.as_bytes(),
            &mut (at + "pub use ".len()),
            Vec::new(),
            &mut paths,
        );
        for path in paths.into_iter().filter(|p| p.len() >= 2) {
            map.insert(path[path.len() - 1].clone(), path[0].clone());
        }
    }
    map
}

/// A module's name from its file or folder (`mnk.rs` → `mnk`, `dots/` → `dots`); `mod.rs` has none.
fn module_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    if path.is_dir() {
        Some(name)
    } else {
        name.strip_suffix(".rs")
            .filter(|n| *n != "mod")
            .map(str::to_string)
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}
