//! Self-play estimates against exact answers: perfect players on solved games give the
//! solved result every game, and random players' shares and points, computed exactly by
//! recursion over the game tree, lie in the estimate's intervals. The estimate does not
//! depend on the threads; `until` stops at a round; a cancelled or late run stops with an
//! error; bad input is refused.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use zermelo::analysis::selfplay::{Estimate, Plan, ROUND};
use zermelo::games::bigpoints::BigPoints;
use zermelo::games::mnk::Mnk;
use zermelo::session::{Budget, Options};
use zermelo::{catalog, Error, Game, Outcome, Scored, Spec};

fn plan(games: u64, until: Option<f64>, seed: u64) -> Plan {
    Plan { games, until, seed }
}

fn estimate(spec: &str, players: &[&str], plan: Plan, opts: &Options) -> Result<Estimate, Error> {
    let players: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    catalog::open(spec)?.selfplay(&players, &plan, opts, &|_| {})
}

/// Under uniformly random play from `p`: the chance of each outcome (seat 0 wins, a draw,
/// seat 1 wins) and the expected points of seat 0 minus seat 1 (0 when the game keeps
/// no score).
fn exact<G: Game>(
    g: &G,
    p: &G::Position,
    points: &impl Fn(&G::Position) -> f64,
    memo: &mut HashMap<G::Position, [f64; 4]>,
) -> [f64; 4]
where
    G::Position: Hash + Eq,
{
    if let Some(&known) = memo.get(p) {
        return known;
    }
    let value = match g.outcome(p) {
        Some(Outcome::Win(0)) => [1.0, 0.0, 0.0, points(p)],
        Some(Outcome::Draw) => [0.0, 1.0, 0.0, points(p)],
        Some(Outcome::Win(_)) => [0.0, 0.0, 1.0, points(p)],
        Some(Outcome::Shared(_)) => unreachable!("two-player games share no wins"),
        None => {
            let moves = g.legal_moves(p);
            let mut sum = [0.0; 4];
            for m in &moves {
                let child = exact(g, &g.play(p, m), points, memo);
                (0..4).for_each(|k| sum[k] += child[k] / moves.len() as f64);
            }
            sum
        }
    };
    memo.insert(p.clone(), value);
    value
}

#[test]
fn perfect_players_on_solved_games_give_the_solved_result_every_game() {
    let opts = Options::default();
    let drawn = estimate("tictactoe", &["perfect"], plan(30, None, 0), &opts).unwrap();
    assert_eq!(drawn.games, 30);
    assert_eq!(drawn.draws.share, 1.0);
    assert!(drawn.draws.contains(1.0));
    for seat in &drawn.seats {
        assert_eq!((seat.draws, seat.points.share), (30, 0.5));
        assert!(seat.draw.contains(1.0) && seat.points.contains(0.5));
    }
    // Nim with heaps 1 and 2 is a first-player win.
    let won = estimate("nim:heaps=1/2", &["perfect"], plan(30, None, 7), &opts).unwrap();
    let first = &won.seats[0];
    assert_eq!((first.wins, first.win.share, first.points.share), (30, 1.0, 1.0));
    assert!(first.win.contains(1.0));
    assert!(won.seats[1].win.contains(0.0) && won.seats[1].wins == 0);
}

#[test]
fn random_players_land_in_the_intervals_of_their_exact_shares() {
    // Tic-tac-toe: the first player wins 737/1260 of uniformly random games.
    let g = Mnk::new(3, 3, 3).unwrap();
    let [first, draw, second, _] = exact(&g, &g.start(), &|_| 0.0, &mut HashMap::new());
    assert!((first - 737.0 / 1260.0).abs() < 1e-12, "{first}");
    let e = estimate(
        "tictactoe",
        &["random"],
        plan(3000, None, 11),
        &Options::default(),
    )
    .unwrap();
    assert!(e.seats[0].win.contains(first), "{:?} {first}", e.seats[0].win);
    assert!(e.seats[1].win.contains(second), "{:?} {second}", e.seats[1].win);
    assert!(e.draws.contains(draw), "{:?} {draw}", e.draws);
    assert!(e.seats[0].points.contains(first + draw / 2.0));
    assert!(e.margin.is_none() && e.first_move_advantage.is_none());
    assert!(e.plies.low <= e.plies.mean && e.plies.mean <= e.plies.high && e.plies.mean > 5.0);

    // A reduced Big Points board: the first mover's expected lead in points too.
    let spec = "bigpoints:board=1122w3k3";
    let g = BigPoints::from_spec(&spec.parse::<Spec>().unwrap()).unwrap();
    let lead = |p: &_| f64::from(g.score(p, 0) - g.score(p, 1));
    let [first, draw, _, advantage] = exact(&g, &g.start(), &lead, &mut HashMap::new());
    let e = estimate(spec, &["random"], plan(3000, None, 3), &Options::default()).unwrap();
    assert!(e.seats[0].win.contains(first), "{:?} {first}", e.seats[0].win);
    assert!(e.draws.contains(draw), "{:?} {draw}", e.draws);
    let a = e.first_move_advantage.unwrap();
    assert!(a.low <= advantage && advantage <= a.high, "{a:?} {advantage}");
    assert!(e.margin.unwrap().mean >= 0.0);
}

#[test]
fn the_estimate_is_the_same_on_one_thread_and_on_two() {
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let e = pool.install(|| {
            estimate(
                "bigpoints:players=3",
                &["greedy", "mcts:30", "random"],
                plan(130, None, 42),
                &Options::default(),
            )
        });
        Estimate {
            seconds: 0.0,
            games_per_second: 0.0,
            ..e.unwrap()
        }
    };
    let one = on(1);
    assert_eq!(one.games, 130);
    assert_eq!(one, on(2));
}

#[test]
fn until_stops_after_the_first_round_narrow_enough() {
    let e = estimate(
        "tictactoe",
        &["random"],
        plan(100_000, Some(0.1), 0),
        &Options::default(),
    )
    .unwrap();
    assert!(e.games < 100_000 && e.games.is_multiple_of(ROUND), "{}", e.games);
    assert_eq!(e.reached, Some(true));
    assert!(e.seats.iter().all(|s| s.points.width() < 0.1));
    let short = estimate(
        "tictactoe",
        &["random"],
        plan(150, Some(0.01), 0),
        &Options::default(),
    )
    .unwrap();
    assert_eq!((short.games, short.reached), (150, Some(false)));
}

#[test]
fn a_cancelled_or_late_run_stops_promptly_with_an_error() {
    let session = catalog::open("bigpoints").unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = Options {
        budget: Budget {
            cancel: Some(cancel.clone()),
            ..Budget::default()
        },
        ..Options::default()
    };
    // Cancelled after a few games of a run that would take minutes.
    let played = AtomicU64::new(0);
    let started = Instant::now();
    let stopped = session.selfplay(&["mcts:300".into()], &plan(100_000, None, 0), &opts, &|_| {
        if played.fetch_add(1, Ordering::Relaxed) == 3 {
            cancel.store(true, Ordering::Relaxed);
        }
    });
    assert!(matches!(stopped, Err(Error::Cancelled)), "{stopped:?}");
    assert!(started.elapsed().as_secs_f64() < 20.0, "{:?}", started.elapsed());
    assert!(played.load(Ordering::Relaxed) < 20);

    // A second for games of half a minute each.
    let late = Options {
        budget: Budget {
            seconds: Some(1.0),
            ..Budget::default()
        },
        ..Options::default()
    };
    let started = Instant::now();
    let stopped = session.selfplay(&["mcts:300ms".into()], &plan(1000, None, 0), &late, &|_| {});
    assert!(
        matches!(&stopped, Err(Error::TooBig(why)) if why.to_string().contains("the 1 s it may take")),
        "{stopped:?}"
    );
    assert!(started.elapsed().as_secs_f64() < 5.0, "{:?}", started.elapsed());
    // What asks for more than the budget is refused before it starts.
    let stopped = session.selfplay(&["mcts:2s".into()], &plan(1000, None, 0), &late, &|_| {});
    assert!(
        matches!(&stopped, Err(Error::TooBig(why)) if why.to_string().contains("a move")),
        "{stopped:?}"
    );
}

#[test]
fn bad_input_is_refused_before_any_game() {
    let opts = Options::default();
    let refused = |spec: &str, players: &[&str], plan: Plan| {
        let e = estimate(spec, players, plan, &opts).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    assert!(refused("tictactoe", &["nobody"], plan(10, None, 0)).contains("unknown player"));
    assert!(refused("tictactoe", &["random"], plan(0, None, 0)).contains("at least one game"));
    assert!(refused("tictactoe", &["random"], plan(10, Some(1.5), 0)).contains("less than 1"));
    assert!(refused("tictactoe", &["random", "random", "random"], plan(10, None, 0)).contains("2 seats"));
    assert!(refused("tictactoe", &["human"], plan(10, None, 0)).contains("programs"));
}
