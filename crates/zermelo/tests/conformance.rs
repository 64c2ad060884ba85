//! The conformance suite, run over every catalog entry's examples (and its default spec)
//! through the session interface only: random playouts end, with every move and position
//! round-tripping through the notation; every listed move replays; every position's value is the best of its moves' values and every move's
//! value is its child's value seen from the mover (minimax, checked on the whole tree of
//! small examples); every solver a game offers agrees; a position given by its notation
//! answers as the moves that reach it, and solves to the value it shows; bad moves,
//! positions and specs give one-line errors; the catalog lists the players and solvers
//! each session offers.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use zermelo::catalog::{self, CATALOG};
use zermelo::session::{MoveValue, Options, PositionView, Session, Verdict};
use zermelo::Error;

/// Positions whose values are checked per example (the whole tree when smaller).
const TREE_NODES: usize = 1_500;
/// Random games played per example.
const PLAYOUTS: usize = 5;

/// Options saving to a data folder of the test `test` alone: tests run at once, and two
/// solves of one table must not share a folder.
fn options(test: &str) -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-conformance-{test}-{}", std::process::id())),
        all_moves: true,
        ..Options::default()
    }
}

fn examples() -> impl Iterator<Item = (&'static str, Box<dyn Session>)> {
    CATALOG.iter().flat_map(|e| {
        assert!(!e.examples.is_empty(), "{} has examples", e.info.name);
        e.examples.iter().map(|spec| {
            let session = catalog::open(spec).unwrap_or_else(|err| panic!("{spec}: {err}"));
            assert_eq!(session.info().name, e.info.name, "{spec}");
            (*spec, session)
        })
    })
}

fn with(moves: &[String], m: &str) -> Vec<String> {
    let mut next = moves.to_vec();
    next.push(m.to_string());
    next
}

/// The move's value as its child's value implies it, seen from the mover of the parent.
fn through(parent: &PositionView, child: &PositionView) -> Verdict {
    let same = child.to_move == parent.to_move;
    let flip = |v: Option<&'static str>| match (v, same) {
        (v, true) => v,
        (Some("win"), false) => Some("lose"),
        (Some("lose"), false) => Some("win"),
        (v, false) => v,
    };
    Verdict {
        value: flip(child.verdict.value),
        remoteness: child.verdict.remoteness.map(|r| r + 1),
        margin: child.verdict.margin.map(|m| if same { m } else { -m }),
        scores: child.verdict.scores.clone(),
    }
}

/// The order of values for the player choosing.
fn rank(v: &Verdict) -> (i32, i64) {
    let remoteness = i64::from(v.remoteness.unwrap_or(0));
    match v.value {
        Some("win") => (2, -remoteness),
        Some("draw") => (1, 0),
        _ => (0, remoteness),
    }
}

/// Checks `view` against the views of its children.
fn check_node(spec: &str, moves: &[String], view: &PositionView, session: &dyn Session, opts: &Options) {
    let at = format!("{spec} after [{}]", moves.join(","));
    if view.terminal {
        assert!(view.moves.is_empty(), "{at}: a finished game has no moves");
        assert!(view.result.is_some(), "{at}: a finished game says how it ended");
        return;
    }
    assert!(!view.moves.is_empty(), "{at}: a live position has a move");
    assert_eq!(
        view.moves_total.0,
        view.moves.len() as u128,
        "{at}: every move listed"
    );
    let Some(value) = view.verdict.value else {
        return;
    };
    let best: Vec<&MoveValue> = view.moves.iter().filter(|m| m.best).collect();
    assert!(!best.is_empty(), "{at}: some move is best");
    for m in &view.moves {
        let child = session
            .position(&with(moves, &m.notation), opts)
            .unwrap_or_else(|e| panic!("{at}: listed move {} does not replay: {e}", m.notation));
        assert_eq!(
            child.verdict.value.is_some(),
            m.verdict.value.is_some(),
            "{at} {}",
            m.notation
        );
        let implied = through(view, &child);
        assert_eq!(m.verdict, implied, "{at}: move {} against its child", m.notation);
    }
    if view.verdict.margin.is_none() && view.verdict.scores.is_none() {
        let top = view.moves.iter().map(|m| rank(&m.verdict)).max().expect("moves");
        assert_eq!(
            rank(&view.verdict),
            top,
            "{at}: the value is the best move's ({value})"
        );
        for m in &view.moves {
            let top_move = rank(&m.verdict) == top;
            assert!(!m.best || top_move, "{at}: {} marked best but is not", m.notation);
            // Without remoteness, a game may prefer some of its equal moves (the perfect
            // player's pick in a lost heap position).
            if m.verdict.remoteness.is_some() {
                assert_eq!(m.best, top_move, "{at}: {} marked best", m.notation);
            }
        }
    }
}

#[test]
fn every_position_value_is_the_minimax_of_its_moves() {
    let opts = options("minimax");
    for (spec, session) in examples() {
        let mut stack: Vec<Vec<String>> = vec![Vec::new()];
        let mut seen = 0;
        while let Some(moves) = stack.pop() {
            if seen >= TREE_NODES {
                break;
            }
            seen += 1;
            let view = session
                .position(&moves, &opts)
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
            check_node(spec, &moves, &view, session.as_ref(), &opts);
            stack.extend(view.moves.iter().map(|m| with(&moves, &m.notation)));
        }
    }
}

#[test]
fn random_playouts_round_trip_their_notation_and_end() {
    for entry in CATALOG {
        // The default spec too, for games that have one (a sum needs its parts).
        let default = catalog::open(entry.info.name).ok().map(|_| entry.info.name);
        for spec in entry.examples.iter().copied().chain(default) {
            let session = catalog::open(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            for seed in 0..PLAYOUTS as u64 * 4 {
                session
                    .playout(seed)
                    .unwrap_or_else(|e| panic!("{spec}, seed {seed}: {e}"));
            }
        }
    }
}

#[test]
fn every_solver_agrees_and_solve_matches_the_start() {
    let opts = options("solvers");
    for (spec, session) in examples() {
        let start = session.position(&[], &opts).expect("the start");
        let mut solvers: Vec<Option<&str>> = session.solvers().into_iter().map(Some).collect();
        if solvers.is_empty() {
            solvers.push(None);
        }
        for solver in solvers {
            let solved = session
                .solve(&Options {
                    solver: solver.map(String::from),
                    ..opts.clone()
                })
                .unwrap_or_else(|e| panic!("{spec} {solver:?}: {e}"));
            assert_eq!(solved.verdict.value, start.verdict.value, "{spec} {solver:?}");
            assert_eq!(solved.verdict.margin, start.verdict.margin, "{spec} {solver:?}");
            assert_eq!(solved.verdict.scores, start.verdict.scores, "{spec} {solver:?}");
            assert_eq!(
                solved.verdict.remoteness, start.verdict.remoteness,
                "{spec} {solver:?}"
            );
        }
    }
}

#[test]
fn bad_moves_and_specs_give_one_line_errors() {
    let opts = options("errors");
    for (spec, session) in examples() {
        let err = session.position(&["zz99!".to_string()], &opts).unwrap_err();
        assert!(matches!(err, Error::Move { .. }), "{spec}: {err:?}");
        let line = err.to_string();
        assert!(!line.contains('\n') && line.contains("zz99!"), "{spec}: {line}");
        let name = session.info().name;
        let err = catalog::open(&format!("{name}:nosuchkey=1"))
            .err()
            .expect("an unknown key is refused");
        assert!(matches!(err, Error::Spec(_)), "{name}: {err:?}");
        assert!(!err.to_string().contains('\n'));
        let err = session
            .tournament(&["random".into()], 1, 0, &opts, &|_| {})
            .unwrap_err();
        assert!(err.to_string().contains("seats"), "{spec}: {err}");
    }
    assert!(matches!(catalog::open("nosuchgame"), Err(Error::Spec(_))));
}

#[test]
fn the_bot_moves_legally_and_random_tournaments_add_up() {
    let opts = options("bot");
    for (spec, session) in examples() {
        let seats = session.seats();
        let view = session.position(&[], &opts).expect("the start");
        let chosen = session
            .bot_move(&[], "perfect", 1, &opts)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        let best = view
            .moves
            .iter()
            .find(|m| m.notation == chosen)
            .expect("the bot's move is listed");
        assert!(
            best.best || view.verdict.value.is_none(),
            "{spec}: perfect plays a best move"
        );
        let players = vec!["random".to_string(); seats];
        let standings = session
            .tournament(&players, 4, 3, &opts, &|_| {})
            .expect("a tournament");
        for row in &standings.players {
            assert_eq!(
                row.wins + row.shared + row.draws + row.losses,
                4,
                "{spec}: rows add up"
            );
        }
    }
}

#[test]
fn the_catalog_lists_the_players_and_solvers_each_session_offers() {
    for entry in CATALOG {
        let listed: Vec<(&str, &str)> = entry.all_players().map(|p| (p.name, p.help)).collect();
        // Every example, and the default spec where the game opens without keys.
        let default = catalog::open(entry.info.name).ok().map(|s| (entry.info.name, s));
        let examples = entry.examples.iter().map(|spec| {
            let session = catalog::open(spec).unwrap_or_else(|err| panic!("{spec}: {err}"));
            (*spec, session)
        });
        for (spec, session) in default.into_iter().chain(examples) {
            let players: Vec<(&str, &str)> = session.players().iter().map(|p| (p.name, p.help)).collect();
            assert_eq!(players, listed, "{spec}: players");
            assert_eq!(session.solvers(), entry.solvers, "{spec}: solvers");
        }
    }
}

/// Random walks of legal moves per example, each checked at every position it passes.
const WALKS: u64 = 3;
/// The most moves a walk plays.
const WALK_PLIES: usize = 6;

/// `opts` starting from `position`.
fn from(position: &str, opts: &Options) -> Options {
    Options {
        position: Some(position.to_string()),
        ..opts.clone()
    }
}

#[test]
fn a_position_given_by_its_notation_answers_as_the_moves_that_reach_it() {
    let opts = options("positions");
    for (spec, session) in examples() {
        let seats = session.seats();
        for seed in 0..WALKS {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut moves: Vec<String> = Vec::new();
            loop {
                let at = format!("{spec} after [{}]", moves.join(","));
                let reached = session
                    .position(&moves, &opts)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                let given = from(&reached.position, &opts);
                let view = session
                    .position(&[], &given)
                    .unwrap_or_else(|e| panic!("{at}: position {}: {e}", reached.position));
                assert_eq!(
                    view, reached,
                    "{at}: the position {} by its notation",
                    reached.position
                );

                // A solve from there, by every solver the game offers, gives the value the
                // view shows.
                let mut solvers: Vec<Option<&str>> = session.solvers().into_iter().map(Some).collect();
                if solvers.is_empty() {
                    solvers.push(None);
                }
                for solver in solvers {
                    let by = Options {
                        solver: solver.map(String::from),
                        ..given.clone()
                    };
                    let solved = session
                        .solve(&by)
                        .unwrap_or_else(|e| panic!("{at}: solving {} {solver:?}: {e}", reached.position));
                    let what = format!("{at}: solve from {} {solver:?}", reached.position);
                    assert_eq!(solved.verdict, reached.verdict, "{what}");
                    assert_eq!(
                        solved.position.as_deref(),
                        Some(reached.position.as_str()),
                        "{what}"
                    );
                    assert_eq!(solved.to_move, reached.to_move, "{what}");
                }
                assert!(
                    matches!(session.count(false, &given), Err(Error::Unsupported(_))),
                    "{at}: count takes no position"
                );

                if !reached.terminal {
                    // Moves after the position replay as after the moves; the bot plays
                    // the same move from either.
                    let next = &reached.moves[0].notation;
                    assert_eq!(
                        session.position(std::slice::from_ref(next), &given).unwrap(),
                        session.position(&with(&moves, next), &opts).unwrap(),
                        "{at}: {next} after the position"
                    );
                    assert_eq!(
                        session.bot_move(&[], "random", seed, &given).unwrap(),
                        session.bot_move(&moves, "random", seed, &opts).unwrap(),
                        "{at}: the bot's move"
                    );
                }
                // Every game of a tournament from the position starts there.
                let players = vec!["random".to_string(); seats];
                let standings = session
                    .tournament(&players, 2, seed, &given, &|_| {})
                    .unwrap_or_else(|e| panic!("{at}: a tournament from the position: {e}"));
                assert_eq!(standings.games, 2, "{at}");
                assert_eq!(standings.position.as_deref(), Some(reached.position.as_str()));

                if reached.terminal || moves.len() >= WALK_PLIES || rng.gen_bool(0.15) {
                    break;
                }
                let m = reached.moves.choose(&mut rng).expect("a live position has moves");
                moves.push(m.notation.clone());
            }
        }
    }
}

/// Texts no game reads as a position, whatever its notation.
const HOSTILE: &[&str] = &[
    "",
    " ",
    "zz99!",
    "/",
    "//////////",
    "\n",
    "x\u{7}\ty",
    ":",
    "1:",
    "1:-1",
    "2:99999999999999999999999",
    "|||",
    "-|-|-|",
    "∞∞∞",
    "-",
    "1:1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1",
    "99999999999999999999999999999",
    "18446744073709551615",
    "s/s/s/s/s/s",
    "...../sssss/rgbyp/r15g15b15y15p15w15k15/r15/1",
];

/// The notation of `text` with one character changed, removed or repeated, or cut short.
fn mutate(text: &str, rng: &mut StdRng) -> String {
    const CHARS: &[char] = &[
        '.', 'x', 'o', '#', '/', '0', '1', '9', 's', 'k', 'p', '|', ',', ' ', ':', '-', 'é', '\n',
    ];
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return CHARS.choose(rng).unwrap().to_string();
    }
    let i = rng.gen_range(0..chars.len());
    match rng.gen_range(0..4) {
        0 => chars[i] = *CHARS.choose(rng).unwrap(),
        1 => {
            chars.remove(i);
        }
        2 => chars.insert(i, chars[i]),
        _ => chars.truncate(i),
    }
    chars.into_iter().collect()
}

#[test]
fn malformed_and_impossible_positions_give_one_line_errors() {
    let opts = Options {
        all_moves: false,
        ..options("bad-positions")
    };
    for (spec, session) in examples() {
        let start = session.position(&[], &opts).expect("the start").position;
        let mut rng = StdRng::seed_from_u64(11);
        // A position a few moves in, to mutate as well as the start.
        let later = {
            let mut moves = Vec::new();
            let mut view = session.position(&[], &opts).unwrap();
            while moves.len() < 3 && !view.terminal {
                moves.push(view.moves.choose(&mut rng).unwrap().notation.clone());
                view = session.position(&moves, &opts).unwrap();
            }
            view.position
        };
        let mutated = (0..60).map(|i| mutate(if i % 2 == 0 { &start } else { &later }, &mut rng));
        for text in HOSTILE.iter().map(|t| t.to_string()).chain(mutated) {
            let given = from(&text, &opts);
            match session.position(&[], &given) {
                // A change may still name a position: it reads back as itself.
                Ok(view) => {
                    let again = session.position(&[], &from(&view.position, &opts));
                    assert_eq!(again.as_ref().ok(), Some(&view), "{spec}: {text:?}");
                }
                Err(err) => {
                    assert!(matches!(err, Error::Position { .. }), "{spec}: {text:?}: {err:?}");
                    let line = err.to_string();
                    assert!(
                        !line.contains('\n') && line.starts_with("bad position"),
                        "{spec}: {line}"
                    );
                    // Every command that takes a position refuses it the same way.
                    let players = vec!["random".to_string(); session.seats()];
                    assert_eq!(session.solve(&given).err(), Some(err.clone()), "{spec}: {text:?}");
                    assert_eq!(
                        session.bot_move(&[], "random", 0, &given).err(),
                        Some(err.clone())
                    );
                    assert_eq!(
                        session.tournament(&players, 1, 0, &given, &|_| {}).err(),
                        Some(err.clone()),
                        "{spec}: {text:?}"
                    );
                }
            }
        }
    }
}
