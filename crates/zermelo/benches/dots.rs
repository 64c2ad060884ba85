//! Dots and Boxes solver benchmarks: `cargo bench -p zermelo --bench dots`, the
//! null-window search (the default) and the alpha-beta search it replaced.

use criterion::{criterion_group, criterion_main, Criterion};
use zermelo::games::dots::{best_solver, solver, Dots};
use zermelo::solve::margin::{MarginSolver, Setup};
use zermelo::Game;

fn dots(c: &mut Criterion) {
    let mut group = c.benchmark_group("dots");
    group.sample_size(10);
    for (rows, cols) in [(3, 3), (3, 4), (4, 4)] {
        let g = Dots::new(rows, cols).unwrap();
        group.bench_function(format!("{rows}x{cols} dots null-window margin"), |b| {
            b.iter(|| best_solver(&g, &Setup::default()).margin(&g.start()))
        });
        group.bench_function(format!("{rows}x{cols} dots alpha-beta margin"), |b| {
            b.iter(|| solver(&g).margin(&g.start()))
        });
    }
    group.finish();
}

criterion_group!(benches, dots);
criterion_main!(benches);
