//! Dots and Boxes solver benchmarks: `cargo bench -p zermelo --bench dots`.

use criterion::{criterion_group, criterion_main, Criterion};
use zermelo::games::dots::{solver, Dots};
use zermelo::Game;

fn dots(c: &mut Criterion) {
    let mut group = c.benchmark_group("dots");
    group.sample_size(10);
    for (rows, cols) in [(3, 3), (3, 4), (4, 4)] {
        let g = Dots::new(rows, cols).unwrap();
        group.bench_function(format!("{rows}x{cols} dots exact margin"), |b| {
            b.iter(|| solver(&g).margin(&g.start()))
        });
    }
    group.finish();
}

criterion_group!(benches, dots);
criterion_main!(benches);
