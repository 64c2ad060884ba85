//! Books of the Dots and Boxes null-window search checked against the exact margin of
//! every set of drawn lines of 3 × 3 boxes: every bound a saved book holds contains the
//! exact value, and a search reading the book proves bounds that hold, a move that keeps
//! the lead it proved, and the exact value when given the time.

use std::sync::Arc;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use zermelo::games::dots::{lines_search, Dots, Lines64, Position};
use zermelo::solve::margin::{MarginSolver, Setup};
use zermelo::solve::margin_table;
use zermelo::solve::nullwindow::{NullWindow, Tree};
use zermelo::table::book::Book;
use zermelo::{Game, Scored};

/// The final lead of `who` from `p` under best play, from the remaining margin of every
/// line set.
fn final_lead(g: &Dots, exact: &[i8], p: &Position, who: u8) -> i32 {
    let lead = g.score(p, who) - g.score(p, 1 - who);
    let remaining = i32::from(exact[p.lines.0[0] as usize]);
    if g.outcome(p).is_some() {
        lead
    } else if g.to_move(p) == who {
        lead + remaining
    } else {
        lead - remaining
    }
}

/// A book of 3 × 3 boxes holding the `entries` positions with the most lines left.
fn book_of(g: &Dots, entries: u64, name: &str) -> Arc<Book> {
    let path = std::env::temp_dir().join(format!("zermelo-dots-book-{}-{name}.zbook", std::process::id()));
    let mut search = NullWindow::new(Lines64::new(g).unwrap(), 1 << 24).threads(2);
    search.value(&0);
    let info = search.save_book(&path, "dots:size=4", entries).unwrap();
    assert!(info.entries <= entries && info.entries > entries / 4);
    let book = Book::open(&path, "dots:size=4").unwrap();
    std::fs::remove_file(&path).unwrap();
    Arc::new(book)
}

#[test]
fn every_bound_a_book_holds_contains_the_exact_value() {
    let g = Dots::square(4).unwrap();
    let exact = margin_table::solve(&g, &()).unwrap();
    let book = book_of(&g, 5000, "bounds");
    assert!(
        book.info().min_work > 0,
        "a small book keeps only the positions with most lines left"
    );
    let reader = NullWindow::new(Lines64::new(&g).unwrap(), 1 << 16).with_setup(&Setup {
        book: Some(book.clone()),
        ..Setup::default()
    });
    let tree = reader.tree();
    let mut narrowed = 0;
    for (key, _) in book.entries() {
        let (lo, hi) = reader.known(&key);
        let v = i32::from(exact[key as usize]);
        assert!((lo..=hi).contains(&v), "{key:#x}: {v} not in {lo}..={hi}");
        assert!(u64::from(tree.work(&key)) >= book.info().min_work);
        narrowed += usize::from((lo, hi) != tree.bounds(&key));
    }
    assert!(narrowed * 2 > book.info().entries as usize);
}

#[test]
fn a_search_reading_a_book_proves_bounds_that_hold_and_moves_that_keep_them() {
    let g = Dots::square(4).unwrap();
    let exact = margin_table::solve(&g, &()).unwrap();
    let book = book_of(&g, 20_000, "prove");
    let setup = Setup {
        book: Some(book),
        bytes: 1 << 22,
        ..Setup::default()
    };
    let mut rng = StdRng::seed_from_u64(11);
    let (mut exact_at_once, mut checked) = (0, 0);
    for depth in [0, 1, 2, 3, 5, 8, 12] {
        for _ in 0..6 {
            let mut p = g.start();
            for _ in 0..depth {
                let moves = g.legal_moves(&p);
                p = g.play(&p, moves.choose(&mut rng).unwrap());
            }
            if g.outcome(&p).is_some() {
                continue;
            }
            let who = g.to_move(&p);
            let value = final_lead(&g, &exact, &p, who);
            // With no time to try for more: bounds that hold and a move keeping the lower.
            let mut hasty = lines_search(&g, &setup).unwrap();
            let proven = hasty.prove(&p, Some(Instant::now()));
            assert!((proven.lo..=proven.hi).contains(&value), "{p:?}");
            let after = g.play(&p, &proven.best);
            assert!(final_lead(&g, &exact, &after, who) >= proven.lo, "{p:?}");
            for (m, lo, hi) in &proven.moves {
                let through = final_lead(&g, &exact, &g.play(&p, m), who);
                assert!((*lo..=*hi).contains(&through), "{p:?} move {m}");
            }
            exact_at_once += usize::from(proven.lo == proven.hi);
            // Given the time: the exact value and a best move.
            let mut patient = lines_search(&g, &setup).unwrap();
            let proven = patient.prove(&p, None);
            assert_eq!((proven.lo, proven.hi), (value, value), "{p:?}");
            let after = g.play(&p, &proven.best);
            assert_eq!(final_lead(&g, &exact, &after, who), value, "{p:?}");
            checked += 1;
        }
    }
    assert!(checked >= 30);
    assert!(
        exact_at_once >= 6,
        "the book decides the start and positions near it"
    );
}
