//! Big Points through the `zermelo` binary: solve, moves, balance (JSON, CSV, SVG),
//! tournaments for several players, and clear errors for bad input.

mod common;

use common::{error_line, fact, json};
use serde_json::Value;

fn fails(args: &[&str], needle: &str) {
    let err = error_line(args);
    assert!(err.contains(needle), "{err} should mention {needle}");
}

#[test]
fn solve_reports_scores_value_and_positions() {
    let v = json(&["solve", "bigpoints:board=1221", "--json"]);
    assert_eq!(v["scores"], serde_json::json!([2, 1]));
    assert_eq!(v["value"], "win");
    assert_eq!(v["positions"], 25);
    let v = json(&["solve", "bigpoints:board=1122,rule=margin", "--json"]);
    assert_eq!(fact(&v, "rule"), "margin");
    assert_eq!(v["value"], "win");
}

#[test]
fn the_tie_order_changes_only_the_second_score() {
    let behind = json(&["solve", "bigpoints:board=112122", "--json"]);
    let ahead = json(&["solve", "bigpoints:board=112122,ties=ahead", "--json"]);
    assert_eq!(fact(&behind, "ties"), "behind");
    assert_eq!(fact(&ahead, "ties"), "ahead");
    assert_eq!(behind["scores"][0], ahead["scores"][0]);
    assert_ne!(behind["scores"][1], ahead["scores"][1]);
    assert_eq!(behind["positions"], ahead["positions"]);
    let v = json(&["balance", "bigpoints:colors=2,discs=3,ties=ahead", "--json"]);
    assert_eq!(v["configs"][0]["game"], "bigpoints:colors=2,discs=3,ties=ahead");
}

#[test]
fn moves_lists_each_move_with_the_scores_it_leads_to() {
    let v = json(&["moves", "bigpoints:board=1212", "--moves", "g-", "--json"]);
    assert_eq!(v["position"], ".212/01/-/r1/-/2");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.iter().filter(|m| m["best"] == true).count(), 1);
    for m in moves {
        // Player 2 is to move: the value is theirs.
        let (first, second) = (m["scores"][0].as_i64().unwrap(), m["scores"][1].as_i64().unwrap());
        let value = match second.cmp(&first) {
            std::cmp::Ordering::Greater => "win",
            std::cmp::Ordering::Equal => "draw",
            std::cmp::Ordering::Less => "lose",
        };
        assert_eq!(m["value"], value);
    }
    fails(&["moves", "bigpoints:board=1212", "--moves", "r-"], "not legal");
    fails(&["moves", "bigpoints:board=1212", "--moves", "zz"], "bad move");
}

#[test]
fn balance_of_two_colours_two_discs() {
    let dir = std::env::temp_dir().join(format!("zermelo-bigpoints-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("b.csv"), dir.join("b.svg"));
    let v = json(&[
        "balance",
        "bigpoints:colors=2,discs=2",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
        "--json",
    ])["configs"][0]
        .clone();
    assert_eq!(v["boards"], 6);
    assert_eq!(v["first_wins"], 6);
    assert_eq!(v["draws"], 0);
    assert_eq!(v["second_wins"], 0);
    assert_eq!(v["first_wins_pct"], 100.0);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 7);
    assert!(rows.contains(&"2,2,0,0,1221,1221,2,1,win,25"));
    // 2121 is not solved itself: the winner's score is known, the loser's is not.
    assert!(rows.contains(&"2,2,0,0,2121,1212,2,,win,25"));
    let chart = std::fs::read_to_string(&svg).unwrap().to_ascii_lowercase();
    assert!(chart.contains("<svg"));
    // The bars and legend in the shared outcome colours.
    use zermelo::picture::palette::{DRAW, LOSE, WIN};
    for colour in [WIN.ink, DRAW.fill, LOSE.ink] {
        assert!(chart.contains(colour), "the chart lacks {colour}");
    }
    // Solving every board fills in the loser's scores and agrees on the rest.
    let every =
        json(&["balance", "bigpoints:colors=2,discs=2", "--every-board", "--json"])["configs"][0].clone();
    assert_eq!(every["first_wins"], 6);
    assert_eq!(every["solved"], 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn balance_sweeps_several_configurations_at_once() {
    let v = json(&["balance", "bigpoints", "--configs", "2x2,2x3,3x2", "--json"]);
    let configs = v["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 3);
    assert_eq!(configs[2]["boards"], 90);
    for c in configs {
        let sum = c["first_wins"].as_u64().unwrap()
            + c["draws"].as_u64().unwrap()
            + c["second_wins"].as_u64().unwrap();
        assert_eq!(sum, c["boards"].as_u64().unwrap());
    }
    let v = json(&["balance", "bigpoints:black=1", "--configs", "2x2", "--json"]);
    assert_eq!(v["configs"][0]["boards"], 30);
    // A sample solves a few evenly spaced classes and says so.
    let v = json(&["balance", "bigpoints:colors=3,discs=2", "--sample", "5", "--json"])["configs"][0].clone();
    assert_eq!(v["solved"], 5);
    assert_eq!(v["sampled"], true);
    assert_eq!(v["boards"], 30);
    assert_eq!(v["family_boards"], 90);
}

#[test]
fn a_sweep_with_a_checkpoint_goes_on_from_it() {
    let dir = std::env::temp_dir().join(format!("zermelo-bigpoints-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.ckpt");
    let path = file.to_str().unwrap();
    let plain = json(&["balance", "bigpoints", "--configs", "2x3,3x2", "--json"]);
    let args = [
        "balance",
        "bigpoints",
        "--configs",
        "2x3,3x2",
        "--checkpoint",
        path,
        "--batch",
        "4",
        "--json",
    ];
    for _ in 0..2 {
        // The second run finds every board in the file.
        let v = json(&args);
        assert_eq!(v["configs"][1]["first_wins"], plain["configs"][1]["first_wins"]);
        assert_eq!(v["configs"][0]["draws"], plain["configs"][0]["draws"]);
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap().lines().count(),
        2 + 10 + 15
    );
    fails(
        &["balance", "bigpoints", "--configs", "2x2", "--checkpoint", path],
        "another sweep",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tournaments_seat_two_to_five_players() {
    let v = json(&[
        "tournament",
        "bigpoints:players=3,seed=4",
        "--players",
        "random,greedy,mcts:20",
        "--games",
        "3",
        "--json",
    ]);
    assert_eq!(v["games"], 3);
    assert_eq!(v["players"].as_array().unwrap().len(), 3);
    let v = json(&[
        "tournament",
        "bigpoints:board=121233",
        "--players",
        "perfect,random",
        "--games",
        "4",
        "--json",
    ]);
    assert_eq!(v["games"], 4);
}

#[test]
fn bad_input_gets_one_clear_line() {
    fails(&["solve", "bigpoints:board=12x"], "not a disc");
    fails(&["solve", "bigpoints:players=7"], "out of range");
    fails(&["solve", "bigpoints"], "too big");
    fails(&["solve", "bigpoints:colors=2,discs=2"], "balance");
    fails(&["solve", "bigpoints:board=1221,rule=fair"], "study or margin");
    fails(&["solve", "bigpoints:board=1221,ties=left"], "behind or ahead");
    fails(&["balance", "bigpoints:colors=9,discs=2"], "out of range");
    fails(&["balance", "bigpoints", "--configs", "2-2"], "COLORSxDISCS");
    fails(&["balance", "bigpoints:colors=5,discs=9"], "more than");
    fails(&["balance", "bigpoints:colors=5,discs=12,white=4"], "more than");
    fails(
        &["balance", "bigpoints:colors=2..3,white=0..1"],
        "only colors and discs range",
    );
    fails(
        &["tournament", "bigpoints:players=3", "--players", "random,greedy"],
        "3 players",
    );
    fails(
        &["tournament", "bigpoints", "--players", "perfect,random"],
        "perfect player",
    );
    fails(
        &["tournament", "bigpoints", "--players", "mcts:fast,random"],
        "mcts:fast",
    );
}

#[test]
fn the_sweep_is_a_study_its_keys_declared_once() {
    // `zermelo study SPEC balance KEY=VALUE`, its alias's KEY=VALUE and the alias's flags
    // made from the same declaration give the same sweep.
    let spec = "bigpoints:colors=2,discs=2";
    let counts = |v: Value| -> Vec<Value> {
        let c = &v["configs"][0];
        ["boards", "solved", "first_wins", "draws", "second_wins"]
            .iter()
            .map(|k| c[k].clone())
            .collect()
    };
    let flags = counts(json(&[
        "balance",
        spec,
        "--every-board",
        "--sample",
        "5",
        "--json",
    ]));
    assert_eq!(flags[1], 5);
    for args in [
        &["study", spec, "balance", "every_board=true", "sample=5", "--json"][..],
        &["balance", spec, "every_board=true", "--sample", "5", "--json"][..],
    ] {
        assert_eq!(counts(json(args)), flags, "{args:?}");
    }
    // Checked once, by the library, against the key's kind and range.
    fails(
        &["balance", spec, "--sample", "0"],
        "sample=0 is out of range 1..=",
    );
    fails(
        &["study", spec, "balance", "every_board=yes"],
        "every_board=yes: expected true or false",
    );
    fails(
        &["study", spec, "balance", "depth=2"],
        "the balance study takes no 'depth'",
    );
    fails(&["study", spec, "balance", "sample"], "'sample' is not KEY=VALUE");
    fails(
        &["study", spec, "balance", "sample=2", "sample=3"],
        "sample is given twice",
    );
    // The flags and `zermelo games` say each key's kind, range and default.
    let help = common::stdout(&["balance", "--help"]);
    assert!(
        help.contains("--every-board") && help.contains("[true/false; default: false]"),
        "{help}"
    );
    let studies = common::stdout(&["study", "--help"]);
    assert!(
        studies.contains("every_board=FLAG") && studies.contains("to=INT"),
        "{studies}"
    );
    let games = json(&["games", "--json"]);
    let studies = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["studies"].as_array().unwrap());
    let sample = studies
        .flat_map(|s| s["keys"].as_array().unwrap())
        .find(|k| k["name"] == "sample")
        .unwrap()
        .clone();
    assert_eq!(
        (&sample["kind"], &sample["range"], &sample["default"]),
        (&"int".into(), &"1..=20000000".into(), &"every board".into())
    );
}
