//! Grundy sequences of octal games and period proofs: `cargo bench -p zermelo --bench impartial`.

use criterion::{criterion_group, criterion_main, Criterion};
use zermelo::games::impartial::octal::GrundySequence;
use zermelo::games::impartial::{subtraction, Octal};

/// Computes `len` values of `code` and looks for a proven period.
fn sequence(code: &Octal, len: usize, sparse: bool) -> Option<usize> {
    let mut seq = GrundySequence::new(code, sparse);
    seq.extend_to(len);
    seq.values()
        .find_period(|pre, p| code.proof_length(pre, p))
        .map(|s| s.period)
}

fn octal(c: &mut Criterion) {
    let mut group = c.benchmark_group("octal");
    group.sample_size(10);
    let kayles: Octal = "0.77".parse().unwrap();
    group.bench_function("0.77 to 10^6, rare values", |b| {
        b.iter(|| sequence(&kayles, 1_000_001, true))
    });
    group.bench_function("0.77 to 20000, every split", |b| {
        b.iter(|| sequence(&kayles, 20_001, false))
    });
    let g016: Octal = "0.16".parse().unwrap();
    group.bench_function("0.16 to 509621, period proven", |b| {
        b.iter(|| assert_eq!(sequence(&g016, 509_622, true), Some(149_459)))
    });
    group.finish();
}

fn subtraction_table(c: &mut Criterion) {
    let set = [2, 5, 7, 11, 19];
    c.bench_function("subtraction 2/5/7/11/19 Grundy to 10^6", |b| {
        b.iter(|| subtraction::grundy_values(&set, 1_000_000))
    });
}

criterion_group!(benches, octal, subtraction_table);
criterion_main!(benches);
