//! Solver benchmarks: `cargo bench -p zermelo`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zermelo::analysis::count;
use zermelo::games::mnk::Mnk;
use zermelo::games::pawns::Pawns;
use zermelo::solve::memo::MemoSolver;
use zermelo::solve::plain_key;
use zermelo::solve::search::AlphaBeta;
use zermelo::{Game, Levelled};

fn tictactoe(c: &mut Criterion) {
    let g = Mnk::tictactoe();
    c.bench_function("tictactoe game-tree count", |b| {
        b.iter(|| count::games(&g, &g.start(), plain_key::<Mnk>))
    });
    c.bench_function("tictactoe memo solve", |b| {
        b.iter(|| MemoSolver::new(&g).solve(&g.start()))
    });
}

fn mnk44(c: &mut Criterion) {
    let mut group = c.benchmark_group("mnk 4x4");
    group.sample_size(10);
    for k in [3, 4] {
        let g = Mnk::new(4, 4, k).unwrap();
        group.bench_function(format!("k={k} alpha-beta symmetric solve"), |b| {
            b.iter(|| AlphaBeta::symmetric(&g).solve(&g.start()))
        });
    }
    group.finish();
}

/// The level solver's inner work on the largest pawns boards: listing the ranks of every
/// class's children, for a run of classes in the middle of the middle level.
fn pawns_children(c: &mut Criterion) {
    const CLASSES: u64 = 1 << 16;
    let mut group = c.benchmark_group("pawns child ranks");
    group.throughput(Throughput::Elements(CLASSES));
    for cols in [7, 8] {
        let g = Pawns::new(cols, 8, 0).unwrap();
        let level = g.level_ranks(g.levels() / 2);
        let from = (level.start + level.end) / 2;
        let (mut moves, mut children) = (Vec::new(), Vec::new());
        group.bench_function(format!("{cols}x8, {CLASSES} classes"), |b| {
            b.iter(|| {
                let mut listed = 0;
                g.for_each_position(from..from + CLASSES, |_, p| {
                    if let Some(p) = p {
                        children.clear();
                        g.child_ranks(&p, &mut moves, &mut children);
                        listed += children.len();
                    }
                });
                listed
            })
        });
    }
    group.finish();
}

criterion_group!(benches, tictactoe, mnk44, pawns_children);
criterion_main!(benches);
