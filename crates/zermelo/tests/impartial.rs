//! Impartial heap games: the course's facts, Kayles, and cross-checks of the Grundy
//! values, the octal sequences and the misère rules against the generic solvers.

use zermelo::games::impartial::octal::{GrundySequence, RareSplit};
use zermelo::games::impartial::{nim, subtraction, Heap, HeapGame, Heaps, Octal, Rule};
use zermelo::solve::grundy::{find_period, GrundySolver, Periodic, Periodicity};
use zermelo::solve::memo::MemoSolver;
use zermelo::{Game, Notation, Spec, Value};

fn game(spec: &str) -> HeapGame {
    HeapGame::from_spec(&spec.parse::<Spec>().unwrap()).unwrap()
}

fn letters(outcomes: &[bool]) -> String {
    outcomes.iter().map(|&w| if w { 'W' } else { 'L' }).collect()
}

/// The proven win/loss pattern of a subtraction game.
fn pattern(set: &[u64], misere: bool) -> Periodic<bool> {
    let table = subtraction::outcomes(set, misere, 200);
    let shape = find_period(&table, |pre, p| subtraction::proof_length(set, pre, p)).unwrap();
    Periodic::new(&table, shape)
}

#[test]
fn one_two_three_has_period_four_lwww() {
    let p = pattern(&[1, 2, 3], false);
    assert_eq!(p.shape.period, 4);
    assert_eq!(letters(p.pattern()), "LWWW");
    assert!(*p.at(21));
    assert!(!*p.at(1_000_000_000_000_000_000));
}

#[test]
fn one_four_has_period_five_lwlww() {
    let p = pattern(&[1, 4], false);
    assert_eq!(
        p.shape,
        Periodicity {
            preperiod: 0,
            period: 5
        }
    );
    assert_eq!(letters(p.pattern()), "LWLWW");
    assert!(*p.at(21));
}

#[test]
fn twenty_one_stones_are_a_first_player_win_by_search_too() {
    for set in ["1/2/3", "1/4"] {
        let g = game(&format!("subtraction:set={set},n=21"));
        assert!(
            matches!(MemoSolver::new(&g).solve(&g.start()), Value::Win(_)),
            "{set}"
        );
    }
}

#[test]
fn nim_six_nine_three_takes_four_from_the_nine() {
    let g = game("nim:heaps=6/9/3");
    let p = g.start();
    let sizes = |q: &Heaps| q.heaps.iter().map(|h| h.size).collect::<Vec<_>>();
    let sum = nim::nim_sum(&sizes(&p));
    let winning = g.winning_moves(&p, |s| nim::targets(s, sum), |q| nim::nim_sum(&sizes(q)) == 0);
    let names: Vec<String> = winning.iter().map(|m| g.format_move(&p, m)).collect();
    assert_eq!(names, ["2-4"]);
    // The same from search: the moves after which the opponent loses.
    let mut memo = MemoSolver::new(&g);
    let by_search: Vec<String> = g
        .legal_moves(&p)
        .iter()
        .filter(|m| matches!(memo.solve(&g.play(&p, m)), Value::Lose(_)))
        .map(|m| g.format_move(&p, m))
        .collect();
    assert_eq!(by_search, names);
}

#[test]
fn kayles_has_period_twelve_after_seventy_one_proven() {
    let kayles: Octal = "0.77".parse().unwrap();
    let mut seq = GrundySequence::new(&kayles, true);
    seq.extend_to(kayles.proof_length(71, 12));
    let values = seq.values().head(usize::MAX);
    let shape = find_period(&values, |pre, p| kayles.proof_length(pre, p));
    assert_eq!(
        shape,
        Some(Periodicity {
            preperiod: 71,
            period: 12
        })
    );
    // One value short of the Guy–Smith bound proves nothing.
    let short = &values[..kayles.proof_length(71, 12) - 1];
    assert_ne!(
        find_period(short, |pre, p| kayles.proof_length(pre, p)).map(|s| s.period),
        Some(12)
    );
}

/// Every position of `g` reachable from its start: Grundy value 0 exactly when the
/// memoised win/lose search says the mover loses.
fn grundy_zero_iff_lost(g: &HeapGame) -> usize {
    let mut grundy = GrundySolver::new(g);
    let mut memo = MemoSolver::new(g);
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![g.start()];
    while let Some(p) = stack.pop() {
        if !seen.insert(p.clone()) {
            continue;
        }
        let lost = matches!(memo.solve(&p), Value::Lose(_));
        assert_eq!(grundy.grundy(&p) == 0, lost, "{}", g.format_position(&p));
        stack.extend(g.legal_moves(&p).iter().map(|m| g.play(&p, m)));
    }
    seen.len()
}

#[test]
fn grundy_solver_agrees_with_win_lose_search() {
    for spec in [
        "nim:heaps=3/4/5",
        "subtraction:set=2/5/7,n=23",
        "octal:code=0.77,heaps=4/5",
        "octal:code=0.137,heaps=9",
        "octal:code=4.07,heaps=8",
        "sum:code=0.07,heaps=4/6,set=1/4,n=7,nim=3",
    ] {
        assert!(grundy_zero_iff_lost(&game(spec)) > 10, "{spec}");
    }
}

#[test]
fn octal_sequences_agree_with_the_generic_grundy_solver() {
    for code in [
        "0.77", "0.07", "0.137", "0.16", "0.6", "4.07", "0.4", "0.156", "0.35",
    ] {
        let octal: Octal = code.parse().unwrap();
        let mut seq = GrundySequence::new(&octal, true);
        seq.extend_to(15);
        let g = HeapGame::new(vec![(Rule::Octal(octal), vec![0])], false);
        let mut solver = GrundySolver::new(&g);
        for n in 0..15u64 {
            let p = g.position(vec![Heap { part: 0, size: n }], 0);
            assert_eq!(
                u64::from(seq.values().at(n as usize)),
                solver.grundy(&p),
                "{code} heap {n}"
            );
        }
    }
}

/// The values of heaps `0..len` of `code` by the plain mex over the game's own moves.
fn plain_values(code: &Octal, len: usize) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(len);
    let (mut moves, mut seen) = (Vec::new(), Vec::new());
    for n in 0..len {
        moves.clear();
        code.moves(n as u64, &mut moves);
        seen.clear();
        for &(take, left) in &moves {
            let rest = n - take as usize - left as usize;
            let v = values[left as usize] ^ values[rest];
            if v as usize >= seen.len() {
                seen.resize(v as usize + 1, false);
            }
            seen[v as usize] = true;
        }
        values.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32);
    }
    values
}

/// Every code of up to three digits after `0.` (the last digit non-zero).
fn short_codes() -> Vec<String> {
    let mut codes = Vec::new();
    for len in 1..=3u32 {
        for n in 0..8usize.pow(len) {
            let digits: String = (0..len)
                .rev()
                .map(|i| char::from(b'0' + (n / 8usize.pow(i) % 8) as u8))
                .collect();
            if !digits.ends_with('0') {
                codes.push(format!("0.{digits}"));
            }
        }
    }
    codes
}

#[test]
fn the_rare_values_method_equals_the_plain_mex_for_every_short_code() {
    use rayon::prelude::*;
    let codes = short_codes();
    assert_eq!(codes.len(), 7 + 56 + 448);
    codes.par_iter().for_each(|code| {
        let octal: Octal = code.parse().unwrap();
        let mut seq = GrundySequence::new(&octal, true);
        seq.extend_to(1 << 12);
        let plain = plain_values(&octal, 1 << 12);
        if let Some(n) = (0..plain.len()).find(|&n| seq.values().at(n) != plain[n]) {
            panic!(
                "{code} heap {n}: {} against the plain {}",
                seq.values().at(n),
                plain[n]
            );
        }
    });
}

#[test]
fn the_rare_values_method_equals_every_split_to_two_to_the_sixteen() {
    use rayon::prelude::*;
    // 0.106 splits by heap parity too, with 15 rare heaps below 2^16; the others by value
    // bits alone. 0.14 and 0.6 change their split on the way; 0.007 has many rare heaps.
    ["0.106", "0.16", "0.6", "0.14", "0.007"]
        .par_iter()
        .for_each(|code| {
            let octal: Octal = code.parse().unwrap();
            let mut rare = GrundySequence::new(&octal, true);
            rare.extend_to(1 << 16);
            let mut every = GrundySequence::new(&octal, false);
            every.extend_to(1 << 16);
            assert!(rare.values() == every.values(), "{code}");
            if *code == "0.106" {
                assert!(
                    rare.parity() && rare.rare().len() <= 16,
                    "{code}: {} rare",
                    rare.rare().len()
                );
            }
            // Values above 255 take two bytes each, the others one.
            let wide = rare.values().iter().any(|v| v > 255);
            assert_eq!(rare.values().width(), if wide { 2 } else { 1 }, "{code}");
            // The split in use is chosen again as rare heaps appear: it stays near the best.
            let best = RareSplit::best(&octal, rare.values(), 1 << 16).unwrap();
            assert!(
                rare.rare().len() <= best.heaps.len() + best.heaps.len() / 8 + 1,
                "{code}: {} rare, {} under the best split",
                rare.rare().len(),
                best.heaps.len()
            );
        });
}

#[test]
fn a_sequence_resumed_from_saved_values_goes_on_as_one_run() {
    for code in ["0.6", "0.14", "0.106", "0.007", "0.77"] {
        let octal: Octal = code.parse().unwrap();
        let mut whole = GrundySequence::new(&octal, true);
        whole.extend_to(1 << 15);
        for cut in [0, 100, 256, 12_345] {
            let start = whole.values().iter().take(cut).collect();
            let mut resumed = GrundySequence::resume(&octal, start);
            resumed.extend_to(1 << 15);
            assert!(resumed.values() == whole.values(), "{code} from {cut}");
            // The split in use is the same too: the run costs what one run does.
            assert_eq!(resumed.rare(), whole.rare(), "{code} from {cut}");
        }
    }
}

#[test]
fn subtraction_grundy_values_agree_with_the_generic_grundy_solver() {
    let set = vec![2, 3, 7];
    let values = subtraction::grundy_values(&set, 40);
    let g = HeapGame::new(vec![(Rule::Subtraction(set), vec![0])], false);
    let mut solver = GrundySolver::new(&g);
    for n in 0..40u64 {
        let p = g.position(vec![Heap { part: 0, size: n }], 0);
        assert_eq!(u64::from(values[n as usize]), solver.grundy(&p));
    }
}

#[test]
fn misere_rules_agree_with_search() {
    let g = game("nim:heaps=4/3/2/1,misere=true");
    let mut memo = MemoSolver::new(&g);
    for a in 0..=4 {
        for b in 0..=3 {
            for c in 0..=2 {
                for d in 0..=1 {
                    let heaps = [a, b, c, d].iter().map(|&size| Heap { part: 0, size }).collect();
                    let lost = matches!(memo.solve(&g.position(heaps, 0)), Value::Lose(_));
                    assert_eq!(nim::misere_lost(&[a, b, c, d]), lost, "{a} {b} {c} {d}");
                }
            }
        }
    }
    let table = subtraction::outcomes(&[2, 3], true, 30);
    let g = game("subtraction:set=2/3,misere=true");
    let mut memo = MemoSolver::new(&g);
    for n in 0..30u64 {
        let win = matches!(
            memo.solve(&g.position(vec![Heap { part: 0, size: n }], 0)),
            Value::Win(_)
        );
        assert_eq!(table[n as usize], win, "heap {n}");
    }
}

#[test]
fn bad_moves_and_specs_are_refused() {
    let g = game("octal:code=0.77,heaps=5");
    let p = g.start();
    for bad in ["2-1", "1-3=1+2", "1-1=2+1+1", "1-6", "x", "1-1=0+4"] {
        assert!(g.parse_move(&p, bad).is_err(), "{bad}");
    }
    assert!(g.parse_move(&p, "1-1=1+3").is_ok());
    for bad in [
        "subtraction:set=0/1",
        "subtraction:set=3/3",
        "subtraction:n=-1",
        "octal:code=0.9",
        "octal:code=2.7",
        "octal:heaps=1000001",
        "nim:heaps=1/2,misere=maybe",
        "sum:code=0.77",
        "sum:nim=1,color=2",
    ] {
        let err = HeapGame::from_spec(&bad.parse().unwrap())
            .unwrap_err()
            .to_string();
        assert!(!err.contains('\n'), "{err}");
    }
}

#[test]
fn proven_periods_hold_far_beyond_the_proof() {
    for code in [
        "0.77", "0.07", "0.137", "0.156", "0.51", "0.1", "0.33", "0.2", "4.07",
    ] {
        let octal: Octal = code.parse().unwrap();
        let mut seq = GrundySequence::new(&octal, true);
        seq.extend_to(20_000);
        let all = seq.values().head(20_000);
        let mut len = 8;
        let shape = loop {
            if let Some(s) = find_period(&all[..len], |pre, p| octal.proof_length(pre, p)) {
                break s;
            }
            len *= 2;
            assert!(len <= 10_000, "{code}: no period proven");
        };
        let periodic = Periodic::new(&all[..len], shape);
        for (n, &g) in all.iter().enumerate() {
            assert_eq!(
                *periodic.at(n as u64),
                g,
                "{code} at {n}, proven from {len} values"
            );
        }
    }
}

#[test]
fn subtraction_periods_hold_far_beyond_the_pigeonhole_proof() {
    for set in [vec![2, 5, 7], vec![1, 4], vec![3, 4, 9, 10], vec![2, 3, 13]] {
        for misere in [false, true] {
            let all = subtraction::outcomes(&set, misere, 5_000);
            let shape = find_period(&all[..1_000], |pre, p| subtraction::proof_length(&set, pre, p)).unwrap();
            let periodic = Periodic::new(&all, shape);
            assert!((0..5_000).all(|n| *periodic.at(n) == all[n as usize]), "{set:?}");
        }
        let all = subtraction::grundy_values(&set, 5_000);
        let shape = find_period(&all[..1_000], |pre, p| subtraction::proof_length(&set, pre, p)).unwrap();
        let periodic = Periodic::new(&all, shape);
        assert!((0..5_000).all(|n| *periodic.at(n) == all[n as usize]), "{set:?}");
    }
}

#[test]
fn grundy_zero_iff_plain_minimax_loses_on_tiny_games() {
    for spec in [
        "nim:heaps=2/2/1",
        "octal:code=0.77,heaps=5",
        "sum:code=0.137,heaps=4,nim=2",
    ] {
        let g = game(spec);
        let p = g.start();
        for m in g.legal_moves(&p) {
            let child = g.play(&p, &m);
            let lost = matches!(zermelo::solve::minimax::value(&g, &child), Value::Lose(_));
            assert_eq!(GrundySolver::new(&g).grundy(&child) == 0, lost, "{spec}");
        }
    }
}
