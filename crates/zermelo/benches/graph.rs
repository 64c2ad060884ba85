//! The native solve of a large explored graph, on one core: `cargo bench -p zermelo
//! --bench graph [-- SPEC]` explores a catalog game (by default `mnk:m=4,n=4,k=4`, 9.7
//! million positions) into a [`GameGraph`], then times the graph's own retrograde solve
//! and the generic one over the same graph, and prints positions per second and the bytes
//! the graph and the solve hold per position and per move.

use std::time::Instant;

use rustc_hash::FxHashMap;
use zermelo::explicit::{solve, End, GameGraph, GraphBuilder};
use zermelo::games::mnk::Mnk;
use zermelo::games::pawns::Pawns;
use zermelo::{Notation, Outcome};

/// The graph of `game` from its start, explored breadth first.
fn explore<G: Notation>(name: &str, game: &G) -> GameGraph {
    let mut b = GraphBuilder::new(name, 2).unwrap();
    let mut ids: FxHashMap<G::Position, u32> = FxHashMap::default();
    let mut queue = vec![game.start()];
    ids.insert(game.start(), 0);
    let mut moves = Vec::new();
    let mut at = 0;
    while at < queue.len() {
        let p = queue[at].clone();
        let end = game.outcome(&p).map(|o| match o {
            Outcome::Win(s) => End::Win(s),
            _ => End::Draw,
        });
        b.node(&game.format_position(&p), game.to_move(&p), end.clone())
            .unwrap();
        if end.is_none() {
            moves.clear();
            game.moves(&p, &mut moves);
            for m in &moves {
                let child = game.play(&p, m);
                let next = ids.len() as u32;
                let id = *ids.entry(child.clone()).or_insert_with(|| {
                    queue.push(child);
                    next
                });
                b.edge(at as u32, id, &game.format_move(&p, m)).unwrap();
            }
        }
        at += 1;
    }
    drop(ids);
    drop(queue);
    b.build().unwrap()
}

/// The CPU time this process has used, in seconds: on a busy machine, closer than the
/// wall clock to what the work takes on a core of its own.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The least of `runs` timings of `f`, in seconds of the wall clock and of CPU time.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, f64, T) {
    let (mut wall, mut cpu) = (f64::INFINITY, f64::INFINITY);
    let mut last = None;
    for _ in 0..runs {
        let (started, cpu_started) = (Instant::now(), cpu_seconds());
        let out = f();
        wall = wall.min(started.elapsed().as_secs_f64());
        cpu = cpu.min(cpu_seconds() - cpu_started);
        last = Some(out);
    }
    (wall, cpu, last.unwrap())
}

fn main() {
    let spec = std::env::args()
        .skip(1)
        .find(|a| a.contains(':'))
        .unwrap_or_else(|| "mnk:m=4,n=4,k=4".to_string());
    zermelo::set_threads(1).unwrap();
    let started = Instant::now();
    let graph = match spec.strip_prefix("pawns:cols=") {
        Some(rest) => {
            let (cols, rows) = rest.split_once(",rows=").expect("pawns:cols=C,rows=R");
            explore(
                "pawns",
                &Pawns::new(cols.parse().unwrap(), rows.parse().unwrap(), 0).unwrap(),
            )
        }
        None => {
            let k: Vec<usize> = spec
                .trim_start_matches("mnk:")
                .split(',')
                .map(|kv| kv.split_once('=').unwrap().1.parse().unwrap())
                .collect();
            explore("mnk", &Mnk::new(k[0], k[1], k[2]).unwrap())
        }
    };
    let (n, m) = (graph.nodes() as f64, graph.edges() as f64);
    println!(
        "{spec}: {} nodes, {} edges, explored in {:.1} s",
        graph.nodes(),
        graph.edges(),
        started.elapsed().as_secs_f64()
    );
    let (wall, cpu, solved) = best_of(5, || solve::solve(&graph, &Default::default()).unwrap());
    println!(
        "graph retrograde (one core): {wall:.3} s wall, {cpu:.3} s CPU: {:.1} M positions/s \
         ({:.1} M moves/s) by CPU time, {:.1} M by the wall clock; start {:?}",
        n / cpu / 1e6,
        m / cpu / 1e6,
        n / wall / 1e6,
        solved.value(0)
    );
    let (wall, cpu, table) = best_of(1, || zermelo::solve::retrograde::solve(&graph, &()));
    println!(
        "generic retrograde (one thread): {wall:.3} s wall, {cpu:.3} s CPU: {:.1} M positions/s by CPU time",
        n / cpu / 1e6
    );
    for node in 0..graph.nodes() as u32 {
        assert_eq!(
            table.get(u64::from(node)),
            Some(solved.value(node)),
            "node {node}"
        );
    }
    let held = graph.held_bytes() as f64;
    let text = graph.text_bytes() as f64;
    println!(
        "graph: {:.1} bytes per position + {:.1} per move without texts ({:.1} bytes of texts per position); \
         solve adds {} per position + {} per move",
        (held - text - graph.edge_bytes() as f64 * m) / n,
        graph.edge_bytes(),
        text / n,
        solve::BYTES_PER_NODE,
        solve::BYTES_PER_EDGE
    );
}
