//! Games given as their graph: a catalog game's graph written as JSON and read back has
//! the same value and remoteness on every node; a game with loops is solved as worked out
//! by hand; graphs built in memory are installed by name; bad graphs give one-line errors.

use std::path::PathBuf;

use zermelo::catalog;
use zermelo::explicit::{End, GameGraph, GraphBuilder};
use zermelo::session::{Options, Verdict};
use zermelo::Class;
use zermelo::Error;

/// Options with a data folder of the test's own.
fn options(name: &str) -> Options {
    Options {
        data_dir: temp(name),
        all_moves: true,
        ..Options::default()
    }
}

/// A path in the temporary folder, the process's own.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("zermelo-graph-game-{}-{name}", std::process::id()))
}

/// The verdict a session gives the position whose text is `position`.
fn verdict(spec: &str, position: &str, opts: &Options) -> Verdict {
    let session = catalog::open(spec).unwrap();
    let opts = Options {
        position: Some(position.to_string()),
        ..opts.clone()
    };
    session.position(&[], &opts).unwrap().verdict
}

/// Writes the graph of `spec` as the JSON `zermelo graph` writes, reads it back as
/// `graph:file=`, and checks every node's value and remoteness against the game's own
/// sessions; how many nodes were checked.
fn round_trip(spec: &str) -> usize {
    round_trip_by(spec, Verdict::clone)
}

/// [`round_trip`], comparing what `seen` keeps of the verdicts.
fn round_trip_by(spec: &str, seen: impl Fn(&Verdict) -> Verdict) -> usize {
    let opts = options(&spec.replace([':', ',', '='], "-"));
    let original = catalog::open(spec).unwrap();
    let graph = original.graph(false, u64::MAX, &opts).unwrap();
    let path = temp(&format!("{}.json", spec.replace([':', ',', '='], "-")));
    std::fs::write(&path, serde_json::to_string(&graph).unwrap()).unwrap();
    let read = format!("graph:file={}", path.display());
    let session = catalog::open(&read).unwrap();
    let solved = session.solve(&opts).unwrap();
    assert_eq!(solved.positions.0, graph.nodes.len() as u128);
    for node in &graph.nodes {
        let opts = Options {
            position: Some(node.position.clone()),
            ..opts.clone()
        };
        let own = original.position(&[], &opts).unwrap();
        let back = session.position(&[], &opts).unwrap();
        assert_eq!(
            seen(&back.verdict),
            seen(&own.verdict),
            "{spec}: node {} ({})",
            node.id,
            node.position
        );
        assert!(own.verdict.value.is_some(), "{spec}: node {} unvalued", node.id);
        let moves = |v: &zermelo::session::PositionView| -> Vec<(String, Verdict)> {
            let mut m: Vec<_> = v
                .moves
                .iter()
                .map(|m| (m.notation.clone(), seen(&m.verdict)))
                .collect();
            m.sort_by(|a, b| a.0.cmp(&b.0));
            m
        };
        assert_eq!(moves(&back), moves(&own), "{spec}: the moves of node {}", node.id);
    }
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&opts.data_dir);
    graph.nodes.len()
}

#[test]
fn pawns_read_back_from_its_graph_has_every_value() {
    assert_eq!(round_trip("pawns:cols=3,rows=5"), 12247);
}

#[test]
fn dots_read_back_from_its_graph_has_every_margin() {
    // Dots and Boxes: a move that completes a box moves again; the ends have points.
    // Its own solver gives no remoteness: values and margins are compared.
    let nodes = round_trip_by("dots:size=3", |v| Verdict {
        remoteness: None,
        ..v.clone()
    });
    assert!(nodes > 1000, "{nodes}");
}

#[test]
fn tictactoe_read_back_from_its_graph_has_every_value() {
    assert_eq!(round_trip("tictactoe"), 5478);
}

/// A game with loops, in the smallest file format (see docs/guide/graph-files.md). X (seat
/// 0) moves first from `S`:
///
/// - `S` (X): `a` to `A`, `b` to `B`.
/// - `A` (O): `back` to `S`, `resign` to `XW` (X wins), `c` to `C` (O moves again).
/// - `B` (O): `win` to `OW` (O wins), `twice` to `G` (O moves again).
/// - `G` (O): `win` to `OW`.
/// - `C` (O): `wait` to `E` (O moves again), `give` to `XW`.
/// - `E` (O): `wait` to `C`, `lose` to `XW`.
///
/// By hand: `OW` and `XW` are over. `G` and `B` win at once for O (win in 1; `B`'s
/// `twice` wins only in 2). At `S`, X's `b` loses in 2, so X plays `a`; at `A`, `resign`
/// loses, while `back` returns to `S` and `c` leads to `C` and `E`, where O, moving again
/// and again, waits for ever rather than give up. Neither side can force an end from `S`,
/// `A`, `C` or `E`: all four are draws by repetition.
const LOOPS: &str = r#"{
  "nodes": [
    {"id": "S", "seat": 0}, {"id": "A", "seat": 1}, {"id": "B", "seat": 1},
    {"id": "G", "seat": 1}, {"id": "C", "seat": 1}, {"id": "E", "seat": 1},
    {"id": "XW", "result": 0}, {"id": "OW", "result": 1}
  ],
  "edges": [
    {"source": "S", "target": "A", "move": "a"}, {"source": "S", "target": "B", "move": "b"},
    {"source": "A", "target": "S", "move": "back"}, {"source": "A", "target": "XW", "move": "resign"},
    {"source": "A", "target": "C", "move": "c"},
    {"source": "B", "target": "OW", "move": "win"}, {"source": "B", "target": "G", "move": "twice"},
    {"source": "G", "target": "OW", "move": "win"},
    {"source": "C", "target": "E", "move": "wait"}, {"source": "C", "target": "XW", "move": "give"},
    {"source": "E", "target": "C", "move": "wait"}, {"source": "E", "target": "XW", "move": "lose"}
  ]
}"#;

#[test]
fn loops_are_draws_as_worked_out_by_hand() {
    let path = temp("loops.json");
    std::fs::write(&path, LOOPS).unwrap();
    let spec = format!("graph:file={}", path.display());
    let opts = options("loops");
    let word = |position: &str| {
        let v = verdict(&spec, position, &opts);
        (v.value.unwrap().word(), v.remoteness)
    };
    for node in ["S", "A", "C", "E"] {
        assert_eq!(word(node), ("draw", None), "{node}");
    }
    assert_eq!(word("B"), ("win", Some(1)));
    assert_eq!(word("G"), ("win", Some(1)));
    // The seat to move at an end is the first seat unless given: X wins at XW, so X "to
    // move" there has won; at OW it has lost.
    assert_eq!(word("XW"), ("win", Some(0)));
    assert_eq!(word("OW"), ("lose", Some(0)));
    let session = catalog::open(&spec).unwrap();
    let start = session.position(&[], &opts).unwrap();
    let moves: Vec<(&str, &str, Option<u32>)> = start
        .moves
        .iter()
        .map(|m| {
            (
                m.notation.as_str(),
                m.verdict.value.unwrap().word(),
                m.verdict.remoteness,
            )
        })
        .collect();
    assert_eq!(moves, [("a", "draw", None), ("b", "lose", Some(2))]);
    let at_b = session.position(&["b".into()], &opts).unwrap();
    let best: Vec<&str> = at_b
        .moves
        .iter()
        .filter(|m| m.best)
        .map(|m| m.notation.as_str())
        .collect();
    assert_eq!(best, ["win"]);
    // The perfect players draw: the game never ends, and play stops at its ply limit.
    let solved = session.solve(&opts).unwrap();
    assert_eq!(solved.verdict.value, Some(Class::Draw));
    let counts = session.count(false, &opts).unwrap();
    assert!(counts.games.is_none(), "endless games are not counted");
    assert_eq!(counts.positions.unwrap().total.0, 8);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&opts.data_dir);
}

/// A graph of `seats` seats: from the start, a move to each of `ends`.
fn fan(name: &str, seats: usize, ends: Vec<End>) -> GameGraph {
    let mut b = GraphBuilder::new(name, seats).unwrap();
    let start = b.node("start", 0, None).unwrap();
    for (i, end) in ends.into_iter().enumerate() {
        let node = b.node(&format!("end {i}"), 1, Some(end)).unwrap();
        b.edge(start, node, &format!("m{i}")).unwrap();
    }
    b.build().unwrap()
}

#[test]
fn an_installed_graph_is_replaced_by_one_of_the_same_name() {
    let opts = options("installed");
    let spec = catalog::install_graph(fan("fan", 2, vec![End::Win(1), End::Draw])).unwrap();
    assert_eq!(spec, "graph:name=fan");
    let value = |spec: &str| catalog::open(spec).unwrap().solve(&opts).unwrap().verdict.value;
    // Valued first for its moves, then solved: the table is saved, and read by the next session.
    let session = catalog::open(&spec).unwrap();
    session.position(&[], &opts).unwrap();
    let fact = |solved: zermelo::session::Solution| format!("{:?}", solved.details);
    assert!(fact(session.solve(&opts).unwrap()).contains("solved now"));
    assert!(fact(catalog::open(&spec).unwrap().solve(&opts).unwrap()).contains("read from the data folder"));
    assert_eq!(value(&spec), Some(Class::Draw));
    // Installed again, changed: the saved table of the first is not read.
    let changed = fan("fan", 2, vec![End::Win(1), End::Win(0)]);
    let hash = format!("{:016x}", changed.content_hash());
    catalog::install_graph(changed).unwrap();
    assert_eq!(value(&spec), Some(Class::Win));
    // A spec may pin the version and the content it wants.
    assert_eq!(value(&format!("{spec},version=1,hash={hash}")), Some(Class::Win));
    for pinned in ["version=2", "hash=0123456789abcdef"] {
        let e = catalog::open(&format!("{spec},{pinned}"))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("not 2") || e.contains("has changed"), "{e}");
    }
    let _ = std::fs::remove_dir_all(&opts.data_dir);
}

#[test]
fn points_decide_by_their_sign_with_two_seats_and_give_the_margin() {
    let opts = options("points");
    let spec = catalog::install_graph(fan(
        "points",
        2,
        vec![End::Points(vec![1, 3]), End::Points(vec![2, 2])],
    ))
    .unwrap();
    let session = catalog::open(&spec).unwrap();
    let start = session.position(&[], &opts).unwrap();
    let moves: Vec<(&str, &str, Option<i32>)> = start
        .moves
        .iter()
        .map(|m| {
            (
                m.notation.as_str(),
                m.verdict.value.unwrap().word(),
                m.verdict.margin,
            )
        })
        .collect();
    // Seat 0 moves: 1 to 3 loses by 2, 2 to 2 draws.
    assert_eq!(moves, [("m1", "draw", Some(0)), ("m0", "lose", Some(-2))]);
    let solved = session.solve(&opts).unwrap();
    assert_eq!(
        (solved.verdict.value, solved.verdict.margin),
        (Some(Class::Draw), Some(0))
    );
    let end = session.position(&["m0".into()], &opts).unwrap();
    assert_eq!(end.points, Some(vec![1, 3]));
    let _ = std::fs::remove_dir_all(&opts.data_dir);
}

#[test]
fn more_than_two_seats_are_solved_by_max_n_where_play_cannot_loop() {
    let opts = options("three");
    let spec =
        catalog::install_graph(fan("three", 3, vec![End::Points(vec![1, 2, 0]), End::Win(2)])).unwrap();
    let session = catalog::open(&spec).unwrap();
    assert_eq!(session.seats(), 3);
    // Seat 0 takes the 1 point of m0 over the nothing of m1, though seat 1 gets more.
    let solved = session.solve(&opts).unwrap();
    assert_eq!(solved.solver, "max-n");
    assert_eq!(solved.verdict.scores, Some(vec![1, 2, 0]));
    assert_eq!(solved.verdict.value, Some(Class::Lose));
    let view = session.position(&[], &opts).unwrap();
    let best: Vec<&str> = view
        .moves
        .iter()
        .filter(|m| m.best)
        .map(|m| m.notation.as_str())
        .collect();
    assert_eq!(best, ["m0"]);
    let moves = vec!["m1".to_string()];
    assert_eq!(
        session.position(&moves, &opts).unwrap().result.as_deref(),
        Some("player 3 wins")
    );
    let players: Vec<String> = ["perfect", "random", "random"].map(String::from).to_vec();
    let standings = session.tournament(&players, 6, 1, &opts, &|_| {}).unwrap();
    assert_eq!(standings.games, 6);
    // With a loop, max-n has no answer: refused in one line.
    let mut b = GraphBuilder::new("three-loop", 3).unwrap();
    let a = b.node("a", 0, None).unwrap();
    let c = b.node("c", 1, None).unwrap();
    let end = b.node("end", 2, Some(End::Win(2))).unwrap();
    b.edge(a, c, "go").unwrap();
    b.edge(c, a, "back").unwrap();
    b.edge(c, end, "stop").unwrap();
    let spec = catalog::install_graph(b.build().unwrap()).unwrap();
    let e = catalog::open(&spec)
        .unwrap()
        .solve(&opts)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("3 seats") && e.contains("loop") && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn games_too_long_for_a_saved_table_are_kept_in_memory() {
    let opts = options("long");
    // A path of 300 steps to a win for the seat that takes the last.
    let mut b = GraphBuilder::new("long", 2).unwrap();
    for i in 0..=300u32 {
        let end = (i == 300).then_some(End::Win(1));
        b.node(&i.to_string(), (i % 2) as u8, end).unwrap();
    }
    for i in 0..300 {
        b.edge(i, i + 1, "step").unwrap();
    }
    let session = catalog::open(&catalog::install_graph(b.build().unwrap()).unwrap()).unwrap();
    let solved = session.solve(&opts).unwrap();
    assert_eq!(
        (solved.verdict.value, solved.verdict.remoteness),
        (Some(Class::Lose), Some(300))
    );
    assert!(solved.details.iter().any(|f| f.key == "table"));
    assert!(!opts.data_dir.exists() || std::fs::read_dir(&opts.data_dir).unwrap().next().is_none());
    let view = session.position(&["step".into()], &opts).unwrap();
    assert_eq!(view.verdict.remoteness, Some(299));
}

#[test]
fn the_built_in_graph_passes_the_conformance_suite() {
    let entry = catalog::entry_named("graph").unwrap();
    zermelo::conformance::check(entry).unwrap();
}

/// The one-line error of building a graph.
fn build_error(make: impl FnOnce(&mut GraphBuilder) -> Result<(), Error>) -> String {
    let mut b = GraphBuilder::new("bad", 2).unwrap();
    let e = match make(&mut b) {
        Err(e) => e,
        Ok(()) => b.build().unwrap_err(),
    };
    let line = e.to_string();
    assert!(!line.contains('\n'), "{line}");
    line
}

#[test]
fn bad_graphs_are_refused_in_one_line() {
    assert!(build_error(|_| Ok(())).contains("has no nodes"));
    let e = build_error(|b| {
        let s = b.node("s", 0, None)?;
        b.edge(s, 7, "x")
    });
    assert!(e.contains("node 7 does not exist"), "{e}");
    let e = build_error(|b| {
        let s = b.node("s", 0, Some(End::Draw))?;
        let t = b.node("t", 1, Some(End::Draw))?;
        b.edge(s, t, "x")
    });
    assert!(e.contains("has ended but has 1 moves"), "{e}");
    let e = build_error(|b| b.node("s", 2, None).map(drop));
    assert!(e.contains("seat 2 to move"), "{e}");
    let e = build_error(|b| b.node("s", 0, Some(End::Points(vec![1]))).map(drop));
    assert!(e.contains("1 points for 2 seats"), "{e}");
    let e = build_error(|b| b.node("s", 0, None).map(drop));
    assert!(e.contains("goes on but has no moves"), "{e}");
    let e = build_error(|b| {
        let s = b.node("s", 0, None)?;
        let t = b.node("t", 1, Some(End::Draw))?;
        let u = b.node("u", 1, Some(End::Win(0)))?;
        b.edge(s, t, "x")?;
        b.edge(s, u, "x")
    });
    assert!(e.contains("two moves of node 0 ('s') print the same: 'x'"), "{e}");
    assert!(GraphBuilder::new("a b", 2).is_err());
    assert!(GraphBuilder::new("one", 1).is_err());
}

#[test]
fn bad_graph_files_are_refused_in_one_line() {
    let cases = [
        ("{", "EOF"),
        (r#"{"nodes": []}"#, "has no nodes"),
        (r#"{"nodes": [{"id": 0}]}"#, "has no \"seat\""),
        (
            r#"{"nodes": [{"id": 0, "seat": 0}], "edges": [{"source": 0, "target": 1}]}"#,
            "node 1 does not exist",
        ),
        (
            r#"{"nodes": [{"id": 0, "seat": 0, "result": "nobody wins"}]}"#,
            "result 'nobody wins'",
        ),
        (
            r#"{"nodes": [{"id": 0, "seat": 0, "terminal": true}]}"#,
            "no result",
        ),
        (
            r#"{"nodes": [{"id": 0, "seat": 0}, {"id": 0, "result": "draw"}]}"#,
            "listed twice",
        ),
        (
            r#"{"nodes": [{"id": 0, "seat": 0, "result": "draw"}, {"id": 1, "result": "draw"}], "edges": [{"source": 0, "target": 1}]}"#,
            "has ended but has 1 moves",
        ),
        (r#"{"nodes": [{"id": 0, "seat": 40}]}"#, "out of range"),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let path = temp(&format!("bad{i}.json"));
        std::fs::write(&path, text).unwrap();
        let e = catalog::open(&format!("graph:file={}", path.display()))
            .err()
            .unwrap_or_else(|| panic!("{text} opens"))
            .to_string();
        assert!(e.contains(expected) && !e.contains('\n'), "{text}: {e}");
        let _ = std::fs::remove_file(&path);
    }
    let e = catalog::open("graph:file=/no/such/file.json")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("/no/such/file.json"), "{e}");
    let e = catalog::open("graph").err().unwrap().to_string();
    assert!(e.contains("file=PATH"), "{e}");
    let e = catalog::open("graph:name=nosuch").err().unwrap().to_string();
    assert!(e.contains("'nosuch'"), "{e}");
}

/// A graph installed under a long name and version (a game of one's own) saves its table
/// under a name within the file-name limit, read again by the next session.
#[test]
fn a_long_name_and_version_make_a_table_name_within_the_limit() {
    let opts = options("long");
    let name = "n".repeat(300);
    let mut b = GraphBuilder::new(&name, 2).unwrap();
    b.set_version(&"v".repeat(300)).unwrap();
    let start = b.node("start", 0, None).unwrap();
    let end = b.node("end", 1, Some(End::Win(0))).unwrap();
    b.edge(start, end, "go").unwrap();
    let spec = catalog::install_graph(b.build().unwrap()).unwrap();
    let fact = |solved: zermelo::session::Solution| format!("{:?}", solved.details);
    assert!(fact(catalog::open(&spec).unwrap().solve(&opts).unwrap()).contains("solved now"));
    assert!(fact(catalog::open(&spec).unwrap().solve(&opts).unwrap()).contains("read from the data folder"));
    for entry in std::fs::read_dir(&opts.data_dir).unwrap() {
        let file = entry.unwrap().file_name();
        assert!(file.len() <= 200, "{file:?}");
    }
    let _ = std::fs::remove_dir_all(&opts.data_dir);
}

#[test]
fn a_cancelled_or_spent_budget_gives_an_error_never_a_value() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use zermelo::session::Budget;
    // A ring of 50,000 nodes: each moves on or back to the start; the last one ends.
    let mut b = GraphBuilder::new("budgeted", 2).unwrap();
    let n = 50_000u32;
    for i in 0..n {
        let end = (i == n - 1).then_some(End::Win(0));
        b.node(&i.to_string(), (i % 2) as u8, end).unwrap();
    }
    for i in 0..n - 1 {
        b.edge(i, i + 1, "on").unwrap();
        b.edge(i, 0, "back").unwrap();
    }
    let spec = catalog::install_graph(b.build().unwrap()).unwrap();
    let with = |budget: Budget| Options {
        budget,
        save: false,
        ..options("budgeted")
    };
    let cancelled = with(Budget {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Budget::default()
    });
    let spent = with(Budget {
        ends: Some(std::time::Instant::now()),
        ..Budget::default()
    });
    let small = with(Budget::default().with_memory(100_000));
    let session = catalog::open(&spec).unwrap();
    assert!(matches!(session.solve(&cancelled), Err(Error::Cancelled)));
    assert!(matches!(session.position(&[], &cancelled), Err(Error::Cancelled)));
    for opts in [&spent, &small] {
        for e in [
            session.solve(opts).unwrap_err(),
            session.position(&[], opts).unwrap_err(),
        ] {
            assert!(matches!(e, Error::TooBig(_)), "{e}");
            assert!(!e.to_string().contains('\n'), "{e}");
        }
    }
    // The same session solves under a budget that allows it.
    let solved = session.solve(&with(Budget::default())).unwrap();
    assert_eq!(solved.verdict.value, Some(Class::Draw));
}
