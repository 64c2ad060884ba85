//! `zermelo tournament` by seat: the seat table under the player table, ratings for more
//! than two seats, and the JSON of both valid against the schema.

mod common;

use common::{documented, schema_errors, validator, zermelo};

/// What `zermelo args` prints.
fn text(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_seat_table_shows_the_second_seat_winning_every_box_game() {
    let args = [
        "tournament",
        "dots:size=4",
        "--players",
        "perfect,strong",
        "--games",
        "4",
    ];
    let v = documented(&args);
    let second = &v["seats"][1];
    assert_eq!(
        (second["seat"].as_u64(), second["wins"].as_u64()),
        (Some(1), Some(4)),
        "{v:#}"
    );
    assert_eq!(v["players"][0]["points_share"]["share"], 0.5);
    assert!(v["ratings"].is_null());
    // The schema knows every field of a seat's rows, and no more.
    for at in ["/seats/0", "/seats/0/players/1"] {
        let mut bad = v.clone();
        bad.pointer_mut(at).unwrap()["unknown"] = 1.into();
        assert!(!schema_errors(&validator(), &bad).is_empty(), "{at}");
    }
    let shown = text(&args);
    let (players, seats) = shown.split_once("\n\n").expect("two tables");
    assert!(
        players.lines().filter(|l| l.contains("50.0%")).count() == 2,
        "{shown}"
    );
    let name = second["name"].as_str().unwrap();
    let rows: Vec<&str> = seats.lines().filter(|l| l.starts_with(name)).collect();
    assert_eq!(rows.len(), 3, "{shown}");
    assert!(rows.iter().all(|l| l.contains("100.0%")), "{shown}");
    assert!(shown.lines().all(|l| l.chars().count() <= 80), "{shown}");
}

#[test]
fn three_seats_get_ratings() {
    let args = [
        "tournament",
        "bigpoints:players=3",
        "--players",
        "mcts:100,greedy,random",
        "--games",
        "3",
    ];
    let v = documented(&args);
    let ratings = v["ratings"].as_array().expect("ratings");
    let sum: f64 = ratings.iter().map(|r| r["elo"].as_f64().unwrap()).sum();
    assert!(sum.abs() < 1e-6, "{v:#}");
    assert_eq!(v["seats"].as_array().unwrap().len(), 3);
    let shown = text(&args);
    assert!(shown.contains("Bradley-Terry ratings"), "{shown}");
    assert!(
        shown
            .lines()
            .any(|l| l.starts_with("greedy") && l.contains(" ± ")),
        "{shown}"
    );
}
