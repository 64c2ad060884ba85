//! Connect Four's opening books: made by the null-window search, every entry equal to the
//! strong level table's value (and to plain memoised negamax), read before any search by
//! `moves`, `solve` and the perfect player, and checked by `db verify`.

use std::collections::HashSet;
use std::path::PathBuf;

use zermelo::catalog;
use zermelo::games::connect4::Connect4;
use zermelo::session::saved::{info, verify};
use zermelo::session::{Options, Verdict};
use zermelo::solve::levels;
use zermelo::solve::memo::MemoSolver;
use zermelo::table::opening::Opening;
use zermelo::{Game, Indexed, Notation, Symmetric, Value};

/// Options with a data folder of the test's own.
fn options(name: &str) -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-c4book-{name}-{}", std::process::id())),
        ..Options::default()
    }
}

/// The symmetry classes of the positions up to `depth` plies, counted apart from the book.
fn classes(g: &Connect4, depth: usize) -> usize {
    let mut ply = vec![g.start()];
    let mut seen: HashSet<_> = ply.iter().map(|p| g.canonical(p)).collect();
    for _ in 0..depth {
        let mut next = Vec::new();
        for p in &ply {
            for m in g.legal_moves(p) {
                let child = g.play(p, &m);
                if seen.insert(g.canonical(&child)) {
                    next.push(child);
                }
            }
        }
        ply = next;
    }
    seen.len()
}

/// Every move sequence of up to `plies` moves from the start.
fn lines(g: &Connect4, plies: usize) -> Vec<Vec<String>> {
    let mut all = vec![(Vec::new(), g.start())];
    let mut at = 0;
    while at < all.len() {
        let (moves, p) = all[at].clone();
        at += 1;
        if moves.len() == plies {
            continue;
        }
        for m in g.legal_moves(&p) {
            let mut longer = moves.clone();
            longer.push(g.format_move(&p, &m));
            all.push((longer, g.play(&p, &m)));
        }
    }
    all.into_iter().map(|(moves, _)| moves).collect()
}

/// A book of 4 plies made by the search holds one entry per symmetry class, each the level
/// table's value and negamax's; `moves`, `solve` and the perfect player then answer from
/// it, equal to the table; `db verify` re-values entries by the search; a damaged book is
/// refused in one line.
#[test]
fn opening_books_agree_with_the_tables_and_negamax() {
    for (cols, rows) in [(5, 4), (4, 4)] {
        let spec = format!("connect4:cols={cols},rows={rows}");
        let opts = options(&format!("{cols}x{rows}"));
        let _ = std::fs::remove_dir_all(&opts.data_dir);
        let session = catalog::open(&spec).unwrap();
        // The search values the book (no table is saved).
        let making = Options {
            solver: Some("nullwindow".into()),
            book: Some(4),
            ..opts.clone()
        };
        let made = session.solve(&making).unwrap();
        assert_eq!(made.solver, "book", "{spec}");
        let path: PathBuf = std::fs::read_dir(&opts.data_dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "zob"))
            .expect("a book saved");
        // The book is headed by the game's one spelling, whatever spelling made it.
        let saved_as = format!("connect4:cols={cols},rows={rows},k=4");
        let book = Opening::open(&path, &saved_as).unwrap();
        assert!(book.info().complete && book.info().depth == 4);
        let g = Connect4::new(cols, rows, 4).unwrap();
        assert_eq!(book.info().entries as usize, classes(&g, 4), "{spec}");
        let table = levels::solve(&g, &());
        let mut memo = MemoSolver::new(&g);
        for (key, value) in book.entries() {
            let p = g.parse_position(key).unwrap();
            assert_eq!(table.get(g.rank(&p)), Some(value), "{spec} {key}");
            assert_eq!(memo.solve(&p), value, "{spec} {key}");
        }
        assert_eq!(made.verdict, Verdict::of(table.get(g.rank(&g.start())).unwrap()));
        // Read before any search, by another spelling of the game: every position of up
        // to 3 plies, every move's value.
        let reading = catalog::open(&format!("connect4:rows={rows},k=4,cols={cols}")).unwrap();
        let solved = reading.solve(&opts).unwrap();
        assert_eq!((solved.solver.as_str(), &solved.verdict), ("book", &made.verdict));
        for moves in lines(&g, 3) {
            let p = moves
                .iter()
                .fold(g.start(), |p, m| g.play(&p, &g.parse_move(&p, m).unwrap()));
            if g.outcome(&p).is_some() {
                continue;
            }
            let view = reading.position(&moves, &opts).unwrap();
            assert!(view.details.iter().any(|f| f.key == "book"), "{spec} {moves:?}");
            assert_eq!(view.verdict, Verdict::of(table.get(g.rank(&p)).unwrap()));
            for row in &view.moves {
                let child = g.play(&p, &g.parse_move(&p, &row.notation).unwrap());
                let want = Value::from_child(table.get(g.rank(&child)).unwrap(), false);
                assert_eq!(
                    row.verdict,
                    Verdict::of(want),
                    "{spec} {moves:?} {}",
                    row.notation
                );
            }
            let bot = reading.bot_move(&moves, "perfect", 5, &opts).unwrap();
            let chosen = view.moves.iter().find(|m| m.notation == bot).unwrap();
            assert!(chosen.best, "{spec} {moves:?}: {bot}");
        }
        // Past the book, the search answers.
        let deep = reading
            .position(&["1".into(), "1".into(), "2".into(), "2".into()], &opts)
            .unwrap();
        assert!(!deep.details.iter().any(|f| f.key == "book"));
        // db info and db verify.
        assert_eq!(info(&path).unwrap().positions, book.info().entries);
        let checked = verify(&path, 40, 9, &(), catalog::open).unwrap();
        assert_eq!(checked.sampled, 40, "{spec}");
        // A book with a wrong entry is caught; a damaged one refused.
        let mut wrong = Opening::open(&path, &saved_as).unwrap();
        let (key, value) = wrong.entries().next().map(|(k, v)| (k.to_string(), v)).unwrap();
        let other = if value == Value::Draw {
            Value::Win(1)
        } else {
            Value::Draw
        };
        wrong.insert(key.clone(), other);
        wrong.save().unwrap();
        let all = book.info().entries;
        let err = verify(&path, all, 1, &(), catalog::open).unwrap_err().to_string();
        assert!(err.contains(&key) && !err.contains('\n'), "{err}");
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let err = catalog::open(&spec)
            .unwrap()
            .position(&[], &opts)
            .unwrap_err()
            .to_string();
        assert!(err.contains("damaged") && !err.contains('\n'), "{err}");
        let _ = std::fs::remove_dir_all(&opts.data_dir);
    }
}

/// A book made in two steps (2 plies, then 4, going on from the first) equals one made at
/// once.
#[test]
fn a_deeper_book_goes_on_from_a_shallower_one() {
    let spec = "connect4:cols=4,rows=4";
    let (stepped, at_once) = (options("stepped"), options("at-once"));
    for opts in [&stepped, &at_once] {
        let _ = std::fs::remove_dir_all(&opts.data_dir);
    }
    let session = catalog::open(spec).unwrap();
    for (opts, depth) in [(&stepped, 2), (&stepped, 4), (&at_once, 4)] {
        let making = Options {
            book: Some(depth),
            ..opts.clone()
        };
        session.solve(&making).unwrap();
    }
    let read = |opts: &Options| {
        let path = std::fs::read_dir(&opts.data_dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "zob"))
            .unwrap();
        let book = Opening::open(&path, &Opening::spec_of(&path).unwrap()).unwrap();
        book.entries()
            .map(|(k, v)| (k.to_string(), v))
            .collect::<Vec<_>>()
    };
    assert_eq!(read(&stepped), read(&at_once));
    for opts in [&stepped, &at_once] {
        let _ = std::fs::remove_dir_all(&opts.data_dir);
    }
}
