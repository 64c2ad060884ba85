//! Tournaments by seat: each seat's results and each player's in it, points with 95 %
//! intervals, and Bradley–Terry ratings in games of more than two seats.

use zermelo::catalog;
use zermelo::session::{Options, Standings};
use zermelo::Class;

/// Options with a data folder of the test's own.
fn options(name: &str) -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-seats-{name}-{}", std::process::id())),
        ..Options::default()
    }
}

fn tournament(spec: &str, players: &[&str], games: u64, opts: &Options) -> Standings {
    let names: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    catalog::open(spec)
        .unwrap()
        .tournament(&names, games, 1, opts, &|_| ())
        .unwrap()
}

#[test]
fn the_second_seat_wins_every_game_of_three_by_three_boxes() {
    let opts = options("dots");
    // The 3 x 3-box board is lost by the first player.
    let solved = catalog::open("dots:size=4").unwrap().solve(&opts).unwrap();
    assert_eq!(solved.verdict.value, Some(Class::Lose), "{solved:?}");
    let s = tournament("dots:size=4", &["perfect", "strong"], 4, &opts);
    for p in &s.players {
        assert_eq!((p.wins, p.losses, p.points), (2, 2, 2.0), "{s:?}");
        assert_eq!(p.points_share.share, 0.5);
    }
    let (first, second) = (&s.seats[0], &s.seats[1]);
    assert_eq!((first.seat, second.seat), (0, 1));
    assert_eq!((first.results.losses, second.results.wins), (4, 4), "{s:?}");
    assert_eq!(second.results.points_share.share, 1.0);
    assert!(second.results.points_share.low > 0.5);
    for (p, name) in second.players.iter().zip(["perfect", "strong"]) {
        assert_eq!((p.player.as_str(), p.results.games, p.results.wins), (name, 2, 2));
    }
    assert!(s.ratings.is_none());
    let _ = std::fs::remove_dir_all(&opts.data_dir);
}

#[test]
fn perfect_play_draws_tictactoe_from_either_seat() {
    let opts = options("draws");
    let s = tournament("tictactoe", &["perfect", "perfect"], 6, &opts);
    assert_eq!(
        s.seats.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
        ["X", "O"]
    );
    for seat in &s.seats {
        assert_eq!((seat.results.games, seat.results.draws), (6, 6));
        assert_eq!((seat.results.points, seat.results.points_share.share), (3.0, 0.5));
        for p in &seat.players {
            assert_eq!((p.results.draws, p.results.points), (3, 1.5));
        }
    }
    for p in &s.players {
        assert_eq!((p.draws, p.points), (6, 3.0));
    }
    let _ = std::fs::remove_dir_all(&opts.data_dir);
}

#[test]
fn intervals_hold_the_observed_share_and_narrow_with_more_games() {
    let opts = options("narrow");
    let few = tournament("tictactoe", &["perfect", "random"], 20, &opts);
    let many = tournament("tictactoe", &["perfect", "random"], 400, &opts);
    for s in [&few, &many] {
        for p in &s.players {
            let share = p.points / s.games as f64;
            assert!((p.points_share.share - share).abs() < 1e-12 && p.points_share.contains(share));
        }
        for seat in &s.seats {
            let rows = std::iter::once(&seat.results).chain(seat.players.iter().map(|p| &p.results));
            for r in rows {
                assert!(r.points_share.contains(r.points / r.games as f64), "{r:?}");
                assert!(r.win_share.contains(r.wins as f64 / r.games as f64), "{r:?}");
            }
        }
    }
    for (a, b) in few.players.iter().zip(&many.players) {
        assert!(b.points_share.width() < a.points_share.width(), "{a:?} {b:?}");
    }
    for (a, b) in few.seats.iter().zip(&many.seats) {
        assert!(b.results.points_share.width() < a.results.points_share.width());
    }
    let _ = std::fs::remove_dir_all(&opts.data_dir);
}

#[test]
fn three_players_get_ratings_with_finite_errors_and_mean_zero() {
    let opts = options("ratings");
    let s = tournament("bigpoints:players=3", &["mcts:200", "greedy", "random"], 6, &opts);
    assert_eq!(s.seats.len(), 3);
    for seat in &s.seats {
        assert_eq!(seat.results.games, 6);
        assert_eq!(seat.players.iter().map(|p| p.results.games).sum::<u64>(), 6);
    }
    // Every game hands out one point in all.
    let points: f64 = s.seats.iter().map(|r| r.results.points).sum();
    assert!((points - 6.0).abs() < 1e-9, "{s:?}");
    let ratings = s.ratings.as_ref().expect("ratings with three seats");
    assert_eq!(ratings.len(), 3);
    assert!(ratings
        .iter()
        .all(|r| r.elo.is_finite() && r.error.is_finite() && r.error > 0.0));
    assert!(
        ratings.iter().map(|r| r.elo).sum::<f64>().abs() < 1e-6,
        "{ratings:?}"
    );
    // The one with the most points is rated highest.
    let best = s
        .players
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.points.total_cmp(&b.1.points))
        .unwrap()
        .0;
    assert!(ratings.iter().all(|r| r.elo <= ratings[best].elo), "{s:?}");
}
