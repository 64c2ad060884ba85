//! `zermelo graph` end to end: DOT that reads as a digraph, well-formed GraphML and the
//! JSON document, all with the same nodes and edges; the files `--output` writes; the
//! limit and the refusals; pawns and a subtraction game against `count`, `solve` and the
//! rule.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use common::{documented, error_line, fact, json, stdout, zermelo};
use serde_json::Value;

/// A folder of this test's own.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-graph-cli-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A DOT digraph read back: its node ids and its arcs with their attributes.
struct Dot {
    nodes: Vec<String>,
    arcs: Vec<(String, String, BTreeMap<String, String>)>,
}

/// The attributes of a statement, `[a=b, c="d"]`, quotes and escapes undone.
fn attributes(text: &str) -> BTreeMap<String, String> {
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix("];"))
        .unwrap_or_else(|| panic!("attributes in [...]; : {text}"));
    let mut out = BTreeMap::new();
    let mut chars = inner.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ' ' || *c == ',') {
            chars.next();
        }
        let name: String = std::iter::from_fn(|| chars.next_if(|c| *c != '=')).collect();
        if name.is_empty() {
            break;
        }
        assert_eq!(chars.next(), Some('='), "{text}");
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars
                    .next()
                    .unwrap_or_else(|| panic!("unterminated string: {text}"))
                {
                    '\\' => value.push(chars.next().unwrap()),
                    '"' => break,
                    c => value.push(c),
                }
            }
        } else {
            value = std::iter::from_fn(|| chars.next_if(|c| *c != ',' && *c != ' ')).collect();
        }
        out.insert(name.trim().to_string(), value);
    }
    out
}

/// Reads the DOT that `graph` prints: a `digraph` of one statement a line, every arc
/// between declared nodes.
fn read_dot(text: &str) -> Dot {
    let mut lines = text.lines();
    let head = lines.next().unwrap();
    assert!(head.starts_with("digraph \"") && head.ends_with(" {"), "{head}");
    let mut dot = Dot {
        nodes: Vec::new(),
        arcs: Vec::new(),
    };
    let mut closed = false;
    for line in lines {
        assert!(!closed, "text after the closing brace: {line}");
        if line == "}" {
            closed = true;
            continue;
        }
        let line = line.trim();
        if line.starts_with("graph [") || line.starts_with("node [") {
            continue;
        }
        let (head, attrs) = line.split_at(line.find(" [").unwrap_or_else(|| panic!("a statement: {line}")));
        let attrs = attributes(attrs);
        match head.split_once(" -> ") {
            Some((from, to)) => dot.arcs.push((from.to_string(), to.to_string(), attrs)),
            None => {
                assert!(attrs.contains_key("label"), "{line}");
                dot.nodes.push(head.to_string());
            }
        }
    }
    assert!(closed, "the digraph is closed");
    let declared: HashSet<&String> = dot.nodes.iter().collect();
    assert_eq!(declared.len(), dot.nodes.len(), "every node declared once");
    for (from, to, _) in &dot.arcs {
        assert!(declared.contains(from) && declared.contains(to), "{from} -> {to}");
    }
    dot
}

/// Checks that `text` is well-formed XML (one root, tags nested and closed, attributes
/// quoted, text and attributes free of bare `<` and `&`) and returns its elements as
/// (name, attributes) in document order, and the text inside every `data` element.
fn read_xml(text: &str) -> Vec<(String, BTreeMap<String, String>, String)> {
    fn check_text(t: &str) {
        assert!(!t.contains('<'), "a bare < in {t:?}");
        for (i, _) in t.match_indices('&') {
            let rest = &t[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| rest.starts_with(e)),
                "a bare & in {t:?}"
            );
        }
    }
    let mut rest = text.trim_start();
    if let Some(decl) = rest.strip_prefix("<?xml") {
        rest = &decl[decl.find("?>").expect("the declaration ends") + 2..];
    }
    let mut stack: Vec<String> = Vec::new();
    let mut elements = Vec::new();
    let mut roots = 0;
    loop {
        let lt = match rest.find('<') {
            Some(i) => i,
            None => {
                assert!(rest.trim().is_empty(), "text after the root: {rest:?}");
                break;
            }
        };
        let between = &rest[..lt];
        check_text(between);
        if stack.is_empty() {
            assert!(between.trim().is_empty(), "text outside the root: {between:?}");
        }
        if let Some(&mut (ref name, _, ref mut inner)) = elements.last_mut() {
            if name == "data" && stack.last() == Some(name) {
                *inner = between.to_string();
            }
        }
        let gt = rest[lt..].find('>').expect("a tag ends") + lt;
        let tag = &rest[lt + 1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "closing tags match");
            continue;
        }
        let empty = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attrs) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || ":_-.".contains(c)),
            "{name}"
        );
        let mut map = BTreeMap::new();
        let mut a = attrs.trim();
        while !a.is_empty() {
            let eq = a.find('=').unwrap_or_else(|| panic!("an attribute: {a}"));
            let key = a[..eq].trim().to_string();
            let after = a[eq + 1..].trim_start();
            assert!(after.starts_with('"'), "quoted: {a}");
            let end = after[1..].find('"').expect("closing quote") + 1;
            let value = &after[1..end];
            check_text(value);
            assert!(
                map.insert(key, value.to_string()).is_none(),
                "attributes differ: {tag}"
            );
            a = after[end + 1..].trim_start();
        }
        if stack.is_empty() {
            roots += 1;
        }
        elements.push((name.to_string(), map, String::new()));
        if !empty {
            stack.push(name.to_string());
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert_eq!(roots, 1, "one root element");
    elements
}

#[test]
fn dot_graphml_and_json_hold_the_same_graph() {
    for (symmetry, nodes) in [(false, 5478), (true, 765)] {
        let flag: &[&str] = if symmetry { &["--symmetry"] } else { &[] };
        let doc = documented(&[&["graph", "tictactoe"], flag].concat());
        assert_eq!(doc["nodes"].as_array().unwrap().len(), nodes);
        assert_eq!(doc["positions"], 5478);
        assert_eq!(doc["symmetry"], symmetry);
        let edges = doc["edges"].as_array().unwrap();
        // `--format json` prints the same document.
        let text = stdout(&[&["graph", "tictactoe", "--format", "json"], flag].concat());
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), doc);

        let dot = read_dot(&stdout(&[&["graph", "tictactoe"], flag].concat()));
        assert_eq!(dot.nodes.len(), nodes);
        assert_eq!(dot.arcs.len(), edges.len());
        // Arcs in the document's order, coloured by the seat moving.
        let mut colours: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
        for ((from, to, attrs), e) in dot.arcs.iter().zip(edges) {
            assert_eq!(from, &format!("n{}", e["source"]));
            assert_eq!(to, &format!("n{}", e["target"]));
            assert!(
                attrs["label"].starts_with(e["move"].as_str().unwrap()),
                "{attrs:?}"
            );
            colours
                .entry(e["seat"].as_u64().unwrap())
                .or_default()
                .insert(attrs["color"].clone());
        }
        assert_eq!(colours.len(), 2);
        assert!(colours.values().all(|c| c.len() == 1), "{colours:?}");
        assert_ne!(colours[&0], colours[&1]);
        // In the seats' colours of the shared palette.
        for (seat, used) in &colours {
            let expected = zermelo::picture::palette::seat(*seat as usize).to_string();
            assert_eq!(used, &BTreeSet::from([expected]));
        }

        let xml = read_xml(&stdout(
            &[&["graph", "tictactoe", "--format", "graphml"], flag].concat(),
        ));
        assert_eq!(xml[0].0, "graphml");
        let keys: BTreeSet<&String> = xml.iter().filter(|e| e.0 == "key").map(|e| &e.1["id"]).collect();
        let ids: BTreeSet<&String> = xml.iter().filter(|e| e.0 == "node").map(|e| &e.1["id"]).collect();
        assert_eq!(ids.len(), nodes);
        let graphml_edges: Vec<_> = xml.iter().filter(|e| e.0 == "edge").collect();
        assert_eq!(graphml_edges.len(), edges.len());
        for e in &graphml_edges {
            assert!(ids.contains(&e.1["source"]) && ids.contains(&e.1["target"]));
        }
        for data in xml.iter().filter(|e| e.0 == "data") {
            assert!(keys.contains(&data.1["key"]), "{:?}", data.1);
        }
        let positions: Vec<&String> = xml
            .iter()
            .filter(|e| e.0 == "data" && e.1["key"] == "position")
            .map(|e| &e.2)
            .collect();
        assert_eq!(positions.len(), nodes);
        assert_eq!(positions[0], ".../.../...");
    }
}

#[test]
fn classes_are_labelled_with_their_size() {
    let dot = stdout(&["graph", "tictactoe", "--symmetry"]);
    assert!(
        dot.contains("n1 [label=\".../.../x..\\nO to move: draw\\n4 positions\""),
        "{}",
        &dot[..600]
    );
    assert!(dot.contains("n0 -> n1 [label=\"a1 ×4\""));
}

#[test]
fn output_writes_the_file_and_prints_a_summary() {
    let dir = scratch("output");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let summary = stdout(&["graph", "tictactoe", "--output", &file("t.graphml")]);
    assert!(
        summary.contains("tictactoe: 5478 positions (958 terminal), 16167 moves"),
        "{summary}"
    );
    assert!(summary.contains("start: draw for X"), "{summary}");
    assert!(summary.contains("(graphml)"), "{summary}");
    read_xml(&std::fs::read_to_string(file("t.graphml")).unwrap());
    let summary = stdout(&["graph", "tictactoe", "--symmetry", "-o", &file("t.json")]);
    assert!(
        summary.contains("765 classes of 5478 positions (138 terminal)"),
        "{summary}"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(file("t.json")).unwrap()).unwrap();
    assert_eq!(doc["nodes"].as_array().unwrap().len(), 765);
    stdout(&["graph", "tictactoe", "--format", "dot", "-o", &file("t.txt")]);
    assert_eq!(
        read_dot(&std::fs::read_to_string(file("t.txt")).unwrap())
            .nodes
            .len(),
        5478
    );
    // With --json the document goes to stdout as well.
    let doc = json(&["graph", "tictactoe", "--json", "-o", &file("u.dot")]);
    assert_eq!(doc["command"], "graph");
    assert_eq!(
        read_dot(&std::fs::read_to_string(file("u.dot")).unwrap())
            .nodes
            .len(),
        5478
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refusals_are_one_line() {
    let err = error_line(&["graph", "tictactoe", "--max-positions", "5477"]);
    assert!(err.contains("more than 5477 positions"), "{err}");
    assert!(err.contains("--max-positions"), "{err}");
    let err = error_line(&["graph", "tictactoe", "--symmetry", "--max-positions", "764"]);
    assert!(err.contains("more than 764 classes"), "{err}");
    stdout(&["graph", "tictactoe", "--symmetry", "--max-positions", "765"]);
    let err = error_line(&["graph", "mnk:m=4,n=4,k=4"]);
    assert!(err.contains("more than 100000 positions"), "{err}");
    let err = error_line(&["graph", "nim:heaps=1/2/3", "--symmetry"]);
    assert!(err.contains("--symmetry"), "{err}");
    let err = error_line(&["graph", "tictactoe", "--json", "--format", "dot"]);
    assert!(err.contains("--json"), "{err}");
    // clap refuses an unknown format, listing the formats.
    let out = zermelo(&["graph", "tictactoe", "--format", "svg"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("dot, graphml, json"));
    error_line(&["graph", "nosuchgame"]);
}

#[test]
fn pawns_three_by_five_agrees_with_count_and_solve() {
    let spec = "pawns:cols=3,rows=5";
    let dir = scratch("pawns");
    let data = dir.to_str().unwrap();
    let counted = json(&["--data", data, "count", spec, "--json"]);
    let solved = json(&["--data", data, "solve", spec, "--no-save", "--json"]);
    let plain = documented(&["--data", data, "graph", spec]);
    let classes = documented(&["--data", data, "graph", spec, "--symmetry"]);
    let nodes = |g: &Value| g["nodes"].as_array().unwrap().len() as u64;
    // `count` tells every position and class; the graph holds the reachable ones.
    assert!(nodes(&plain) <= fact(&counted, "raw_positions").as_u64().unwrap());
    assert!(nodes(&classes) <= fact(&counted, "classes").as_u64().unwrap());
    assert!(nodes(&classes) < nodes(&plain));
    let sizes: u64 = classes["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["size"].as_u64().unwrap())
        .sum();
    assert_eq!(sizes, nodes(&plain));
    assert_eq!(classes["positions"], nodes(&plain));
    for g in [&plain, &classes] {
        let start = &g["nodes"][0];
        assert_eq!(start["value"], solved["value"]);
        assert_eq!(start["remoteness"], solved["remoteness"]);
        assert_eq!(start["player"], solved["to_move"]);
        assert!(g["edges"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["player"] == g["nodes"][e["source"].as_u64().unwrap() as usize]["player"]));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn subtraction_heaps_of_a_multiple_of_four_are_lost() {
    let g = documented(&["graph", "subtraction:set=1/2/3,n=13"]);
    let nodes = g["nodes"].as_array().unwrap();
    // Heaps 0 to 13, each reachable with either player to move but 13 (the start) and 12.
    assert_eq!(nodes.len(), 2 * 14 - 2);
    for n in nodes {
        let heap: u64 = n["position"]
            .as_str()
            .unwrap()
            .rsplit(':')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let lost = heap.is_multiple_of(4);
        assert_eq!(n["value"], if lost { "lose" } else { "win" }, "{n}");
        assert_eq!(n["terminal"], heap == 0, "{n}");
    }
    let start = &nodes[0];
    assert_eq!(start["position"].as_str().unwrap().rsplit(':').next(), Some("13"));
    assert_eq!(
        start["value"],
        json(&["solve", "subtraction:set=1/2/3,n=13", "--json"])["value"]
    );
}
