//! Balance maps over families of boards: every exact member agrees with the values the
//! literature publishes (m,n,k-games, Domineering, Wilson's Dots and Boxes analysis), and
//! members over their budget or refused by the game are reported, never dropped.

use std::collections::BTreeMap;

use zermelo::balance_map::{map, BalanceMap, MapRow, Status};
use zermelo::session::{Budget, Options};
use zermelo::Class;
use zermelo::Error;

/// Options that keep nothing on disk.
fn options() -> Options {
    Options {
        save: false,
        data_dir: std::env::temp_dir().join(format!("zermelo-map-{}", std::process::id())),
        ..Options::default()
    }
}

fn run(family: &str, seconds: f64) -> BalanceMap {
    map(family, &options(), seconds, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{family}: {e}"))
}

/// The member whose varying keys have these values.
fn member<'m>(map: &'m BalanceMap, keys: &[(&str, &str)]) -> &'m MapRow {
    let want: BTreeMap<String, String> = keys.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    map.members
        .iter()
        .find(|r| r.keys == want)
        .unwrap_or_else(|| panic!("no member {keys:?} in {}", map.family))
}

#[test]
fn m_n_k_members_agree_with_the_published_values() {
    // The m,n,k-game results (Uiterwijk and van den Herik, "The advantage of the
    // initiative", 2000): k = 3 is a draw on 3 x 3 and a first-player win once either
    // side has 4 cells; k = 4 is a draw on boards up to 5 x 5.
    let m = run("mnk:m=3..5,n=3..5,k=3|4", 60.0);
    let published = [
        ((3, 3, 3), "draw"),
        ((4, 3, 3), "win"),
        ((3, 4, 3), "win"),
        ((4, 4, 3), "win"),
        ((5, 5, 3), "win"),
        ((4, 4, 4), "draw"),
        ((5, 4, 4), "draw"),
        ((4, 5, 4), "draw"),
        ((5, 5, 4), "draw"),
    ];
    for ((w, h, k), value) in published {
        let (w, h, k) = (w.to_string(), h.to_string(), k.to_string());
        let row = member(&m, &[("m", &w), ("n", &h), ("k", &k)]);
        assert_eq!(row.status, Status::Solved, "{}", row.game);
        assert_eq!(row.verdict.value.map(Class::word), Some(value), "{}", row.game);
    }
    // k = 4 on a board three cells wide and high is no game: refused, with the reason.
    let none = member(&m, &[("m", "3"), ("n", "3"), ("k", "4")]);
    assert_eq!(none.status, Status::Refused);
    assert!(none.reason.as_deref().unwrap().contains("k=4"), "{none:?}");
    assert_eq!(m.refused, 1);
    assert_eq!(m.first_wins + m.draws + m.second_wins + m.skipped + m.refused, 18);
    // Strategy stealing: no m,n,k-game is a second-player win.
    assert_eq!(m.second_wins, 0);
}

#[test]
fn domineering_squares_have_their_published_outcome_classes() {
    // Square boards (Lachmann, Moore and Rapaport 2002; Breuker, Uiterwijk and van den
    // Herik 2000): 2 x 2, 3 x 3 and 4 x 4 are first-player wins whoever starts, 5 x 5 a
    // second-player win.
    let m = run("domineering:rows=2..5,cols=2..5,first=vertical|horizontal", 60.0);
    for (size, first_wins) in [("2", true), ("3", true), ("4", true), ("5", false)] {
        for first in ["vertical", "horizontal"] {
            let row = member(&m, &[("rows", size), ("cols", size), ("first", first)]);
            let expected = if first_wins { Class::Win } else { Class::Lose };
            assert_eq!(row.verdict.value, Some(expected), "{}", row.game);
        }
    }
    // A board and its transpose swap the players' roles: the value with Vertical first on
    // r x c is the value with Horizontal first on c x r.
    for r in 2..=5 {
        for c in 2..=5 {
            let (r, c) = (r.to_string(), c.to_string());
            let vertical = member(&m, &[("rows", &r), ("cols", &c), ("first", "vertical")]);
            let horizontal = member(&m, &[("rows", &c), ("cols", &r), ("first", "horizontal")]);
            assert_eq!(vertical.verdict.value, horizontal.verdict.value, "{r} x {c}");
        }
    }
}

#[test]
fn dots_members_agree_with_wilsons_analysis() {
    // Wilson's Dots-and-Boxes analysis: on 3 x 3 boxes (4 x 4 dots) the second player
    // wins by 3; on 2 x 2 boxes the first player wins 3 to 1.
    let m = run("dots:size=3..4", 60.0);
    let two = member(&m, &[("size", "3")]);
    assert_eq!(
        (two.verdict.value, two.verdict.margin),
        (Some(Class::Win), Some(2))
    );
    let three = member(&m, &[("size", "4")]);
    assert_eq!(
        (three.verdict.value, three.verdict.margin),
        (Some(Class::Lose), Some(-3))
    );
    assert_eq!((m.first_wins, m.second_wins), (1, 1));
}

#[test]
fn a_member_over_its_time_is_skipped_with_its_estimate() {
    // 7 x 7 with k = 5 is far beyond a tenth of a second; 3 x 3 is not.
    let m = run("mnk:m=3|7,n=3|7,k=3", 0.1);
    let small = member(&m, &[("m", "3"), ("n", "3")]);
    assert_eq!(small.status, Status::Solved);
    let m = run("mnk:m=7,n=7,k=5", 0.1);
    let big = &m.members[0];
    assert_eq!(big.status, Status::Skipped, "{big:?}");
    assert!(big.estimate.is_some() && big.reason.is_some(), "{big:?}");
    assert!(big.seconds <= 1.5, "stopped at its limit: {big:?}");
    assert_eq!(m.skipped, 1);
}

#[test]
fn a_family_the_game_refuses_entirely_is_an_error() {
    let err = map("mnk:m=3..4,q=1|2", &options(), 1.0, &mut |_, _, _| {}).unwrap_err();
    assert!(err.to_string().contains("no key 'q'"), "{err}");
    assert!(map("nosuchgame:m=1..2", &options(), 1.0, &mut |_, _, _| {}).is_err());
    assert!(map("mnk:m=5..3", &options(), 1.0, &mut |_, _, _| {}).is_err());
    assert!(map("mnk", &options(), 0.0, &mut |_, _, _| {}).is_err());
}

#[test]
fn a_cancelled_map_stops_with_an_error() {
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let opts = Options {
        budget: Budget {
            cancel: Some(cancel),
            ..Budget::default()
        },
        ..options()
    };
    let err = map("mnk:m=3..4,n=3", &opts, 10.0, &mut |_, _, _| {}).unwrap_err();
    assert_eq!(err, Error::Cancelled);
}

#[test]
fn every_member_reports_to_the_caller_in_order() {
    let mut seen = Vec::new();
    let m = map(
        "subtraction:set=1/2..1/4,n=10..12",
        &options(),
        10.0,
        &mut |i, n, row| seen.push((i, n, row.game.clone())),
    )
    .unwrap();
    assert_eq!(seen.len(), 9);
    assert_eq!(seen[0], (0, 9, "subtraction:set=1/2,n=10".to_string()));
    assert_eq!(m.keys, ["set", "n"]);
    // S(1,2): the losses are the multiples of 3.
    for n in 10..=12 {
        let row = member(&m, &[("set", "1/2"), ("n", &n.to_string())]);
        let expected = if n % 3 == 0 { Class::Lose } else { Class::Win };
        assert_eq!(row.verdict.value, Some(expected), "{}", row.game);
    }
}
