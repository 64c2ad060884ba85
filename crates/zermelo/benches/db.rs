//! Database probes: `cargo bench -p zermelo --bench db`. Probes a pawns 4 × 8 table solved
//! into a temporary file, or the database named by `ZERMELO_BENCH_DB`. A probe at a random
//! rank is cold (one block read and decompressed) on tables larger than the block cache.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use zermelo::games::pawns::Pawns;
use zermelo::solve::levels;
use zermelo::table::db::{self, Database};
use zermelo::Indexed;

fn database() -> PathBuf {
    if let Some(path) = std::env::var_os("ZERMELO_BENCH_DB") {
        return path.into();
    }
    let g = Pawns::from_spec(&"pawns:cols=4,rows=8".parse().unwrap()).unwrap();
    let table = levels::solve(&g, &());
    let path = std::env::temp_dir().join(format!("zermelo-bench-{}.zdb", std::process::id()));
    db::write_values(
        &path,
        "pawns:cols=4,rows=8",
        ("levels", 1),
        g.size(),
        None,
        &|ranks, out| {
            out.extend(ranks.map(|r| table.get(r)));
            Ok(())
        },
    )
    .unwrap();
    path
}

fn probes(c: &mut Criterion) {
    let path = database();
    let mut group = c.benchmark_group("db");
    group.bench_function("open and first value", |b| {
        b.iter(|| Database::open(&path).unwrap().value(0).unwrap())
    });
    let db = Database::open(&path).unwrap();
    let ranks = db.header().ranks;
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let near: Vec<u64> = (0..1000).map(|_| rng.gen_range(0..ranks.min(1 << 16))).collect();
    for &r in &near {
        db.value(r).unwrap();
    }
    let mut i = 0;
    group.bench_function("warm value probe", |b| {
        b.iter(|| {
            i = (i + 1) % near.len();
            db.value(near[i]).unwrap()
        })
    });
    group.bench_function("value probe at a random rank", |b| {
        b.iter(|| db.value(rng.gen_range(0..ranks)).unwrap())
    });
    group.finish();
    if std::env::var_os("ZERMELO_BENCH_DB").is_none() {
        let _ = std::fs::remove_file(&path);
    }
}

criterion_group!(benches, probes);
criterion_main!(benches);
