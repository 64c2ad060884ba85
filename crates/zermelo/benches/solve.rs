//! Solver benchmarks: `cargo bench -p zermelo`.

use criterion::{criterion_group, criterion_main, Criterion};
use zermelo::analysis::count;
use zermelo::games::mnk::Mnk;
use zermelo::solve::memo::MemoSolver;
use zermelo::solve::plain_key;
use zermelo::solve::search::AlphaBeta;
use zermelo::Game;

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

criterion_group!(benches, tictactoe, mnk44);
criterion_main!(benches);
