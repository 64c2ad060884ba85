//! `zermelo report`: every first move's value, the swap rule, forgiveness along perfect
//! play and a certificate, checked against what `moves` and `db verify` compute.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod common;

/// A data folder of its own for each test.
fn data_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-report-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `zermelo --data DATA ARGS --json`, checked against the schema.
fn documented(data: &Path, args: &[&str]) -> Value {
    common::documented(&[&["--data", data.to_str().unwrap()], args].concat())
}

/// The moves of a list whose `value` is `word`.
fn moves_valued(moves: &Value, word: &str) -> Vec<String> {
    let mut found: Vec<String> = moves
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["value"] == word)
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    found.sort();
    found
}

#[test]
fn tictactoe_is_a_draw_every_first_move_draws_and_the_certificate_repeats() {
    let data = data_dir("tictactoe");
    let r = documented(&data, &["report", "tictactoe"]);
    let moves = documented(&data, &["moves", "tictactoe"]);
    assert_eq!(r["value"], moves["value"]);
    assert_eq!(r["value"], "draw");
    let first = &r["first_moves"];
    assert_eq!(first["total"], moves["moves_total"]);
    assert_eq!(first["draws"], first["total"]);
    assert_eq!(first["keeping"], first["total"]);
    assert!(first["warning"].is_null());
    assert_eq!(
        moves_valued(&first["moves"], "draw"),
        moves_valued(&moves["moves"], "draw")
    );
    // Every first move draws, so each is an exact draw under the swap rule.
    assert_eq!(r["swap"]["exact_draw"], true);
    assert_eq!(r["swap"]["fairest"].as_array().unwrap().len(), 9);
    let f = &r["forgiveness"];
    let seats = f["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    let by_ply = f["by_ply"].as_array().unwrap();
    assert_eq!(by_ply[0]["ply"], 0);
    assert!(by_ply.len() >= 2);
    for row in by_ply {
        let sum =
            row["keep"].as_f64().unwrap() + row["one_step"].as_f64().unwrap() + row["more"].as_f64().unwrap();
        assert!((sum - 1.0).abs() < 1e-9, "{row}");
    }
    let critical = f["critical"].as_u64().unwrap();
    assert_eq!(
        critical,
        seats.iter().map(|s| s["critical"].as_u64().unwrap()).sum::<u64>()
    );
    let shown = f["critical_positions"].as_array().unwrap();
    assert!(critical > 0 && !shown.is_empty());
    // A critical position shown has exactly one move keeping its value.
    let at = shown[0].as_str().unwrap();
    let there = documented(&data, &["moves", "tictactoe", "--position", at]);
    let keeping = there["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["value"] == there["value"])
        .count();
    assert_eq!(keeping, 1, "{at}");
    // The certificate: the same from another run and from one or two threads.
    let c = &r["certificate"];
    assert_eq!(c["order"], "position");
    assert_eq!(
        c["positions"].as_u64().unwrap(),
        c["wins"].as_u64().unwrap() + c["draws"].as_u64().unwrap() + c["losses"].as_u64().unwrap()
    );
    for threads in [&["--threads", "1"][..], &["--threads", "2"][..], &[][..]] {
        let again = documented(&data, &[threads, &["report", "tictactoe"][..]].concat());
        assert_eq!(again["certificate"], *c, "{threads:?}");
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn pawns_winning_first_moves_are_those_moves_values_and_db_verify_repeats_the_certificate() {
    let data = data_dir("pawns");
    let spec = "pawns:cols=3,rows=5";
    let r = documented(&data, &["report", spec, "--depth", "2"]);
    let moves = documented(&data, &["moves", spec]);
    assert_eq!(r["value"], "win");
    let first = &r["first_moves"];
    let winning = moves_valued(&moves["moves"], "win");
    assert_eq!(moves_valued(&first["moves"], "win"), winning);
    assert_eq!(first["keeping"].as_u64().unwrap(), winning.len() as u64);
    let total = first["total"].as_u64().unwrap();
    assert!(winning.len() as u64 <= total);
    if (winning.len() as u64) < total {
        assert_eq!(
            first["warning"],
            format!("only {} of {total} first moves keep the win", winning.len())
        );
    }
    // The replies to each first move are what `moves` values after it.
    for m in first["moves"].as_array().unwrap() {
        let played = m["move"].as_str().unwrap();
        let after = documented(&data, &["moves", spec, "--moves", played]);
        assert_eq!(m["replies"]["moves"], after["moves"], "{played}");
    }
    let c = &r["certificate"];
    assert_eq!(c["order"], "rank");
    let file = data.join("pawns-3x5.zdb");
    let verified = documented(&data, &["db", "verify", file.to_str().unwrap()]);
    assert_eq!(verified["certificate"], *c);
    // A table solved on one thread or two gives the same certificate.
    for threads in ["1", "2"] {
        let apart = data.join(format!("threads-{threads}"));
        documented(&apart, &["--threads", threads, "solve", spec]);
        assert_eq!(
            documented(&apart, &["report", spec])["certificate"],
            *c,
            "{threads}"
        );
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_report_page_holds_its_plot() {
    let data = data_dir("page");
    let page = data.join("tictactoe.html");
    std::fs::create_dir_all(&data).unwrap();
    let out = common::zermelo(&[
        "--data",
        data.to_str().unwrap(),
        "report",
        "tictactoe",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!doctype html>") && html.contains("<svg"));
    // Real tables, not the terminal's text: a row per first move with its value, a row
    // per ply of forgiveness; the certificate's hash in its box to copy.
    let r = documented(&data, &["report", "tictactoe"]);
    for m in r["first_moves"]["moves"].as_array().unwrap() {
        let row = format!(
            "<tr><td><code>{}</code></td><td><span class=\"v draw\">draw</span></td></tr>",
            m["move"].as_str().unwrap()
        );
        assert!(html.contains(&row), "{row}");
    }
    let plies = r["forgiveness"]["by_ply"].as_array().unwrap().len();
    assert_eq!(html.matches("<tr><td class=\"n\">").count(), plies);
    let cert = html.split("class=\"cert\"").nth(1).unwrap();
    assert!(cert.contains(r["certificate"]["sha256"].as_str().unwrap()));
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn bad_requests_fail_in_one_line() {
    let line = common::error_line(&["report", "tictactoe", "--depth", "3"]);
    assert!(line.contains("--depth"), "{line}");
    let line = common::error_line(&["report", "tictactoe", "--player", "random"]);
    assert!(line.contains("--player"), "{line}");
    let line = common::error_line(&["report", "bigpoints:players=3", "--player", "nobody"]);
    assert!(!line.is_empty());
    // The library says which option; the command line names it as its flag.
    let line = common::error_line(&["report", "bigpoints:players=3", "--compensate", "komi=0..1"]);
    assert!(
        line.contains("--compensate komi=0..1: is for games of two seats"),
        "{line}"
    );
    let line = common::error_line(&["graph", "tictactoe", "--max-positions", "5"]);
    assert!(line.ends_with("(the limit: --max-positions)"), "{line}");
}

#[test]
fn komi_shifts_the_margin_of_dots_by_the_boxes_credited() {
    let data = data_dir("komi");
    let spec = "dots:size=3";
    let margin_of = |game: &str| documented(&data, &["solve", game])["margin"].as_i64().unwrap();
    let plain = margin_of(spec);
    let r = documented(&data, &["report", spec, "--compensate", "komi=-3..3"]);
    let c = &r["compensation"];
    assert_eq!(c["settings"], 7);
    let solved = c["solved"].as_array().unwrap();
    assert_eq!(solved.len(), 7);
    for s in solved {
        let komi: i64 = s["setting"].as_str().unwrap().parse().unwrap();
        let margin = s["margin"].as_i64().unwrap();
        // The second player's credit comes off the first player's lead, through every
        // search: the solve of the member, and the values of its first moves.
        assert_eq!(margin, plain - komi, "komi={komi}");
        assert_eq!(margin, margin_of(&format!("{spec},komi={komi}")));
        let word = match margin {
            m if m > 0 => "win",
            m if m < 0 => "lose",
            _ => "draw",
        };
        assert_eq!(s["value"], word);
        let moves = documented(&data, &["moves", &format!("{spec},komi={komi}")]);
        assert_eq!(moves["margin"].as_i64().unwrap(), margin);
    }
    let flips = solved.iter().find(|s| s["value"] != solved[0]["value"]).unwrap();
    assert_eq!(c["changes_at"], flips["setting"]);
    let least = solved
        .iter()
        .map(|s| s["margin"].as_i64().unwrap().abs())
        .min()
        .unwrap();
    let fairest: Vec<&Value> = solved
        .iter()
        .filter(|s| s["margin"].as_i64().unwrap().abs() == least)
        .map(|s| &s["setting"])
        .collect();
    assert_eq!(
        c["fairest"].as_array().unwrap().iter().collect::<Vec<_>>(),
        fairest
    );
    let line = common::error_line(&["solve", "dots:size=3,komi=x"]);
    assert!(line.contains("komi"), "{line}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_choice_of_who_moves_first_is_solved_setting_by_setting() {
    let data = data_dir("first");
    let spec = "domineering:rows=3,cols=4";
    let r = documented(
        &data,
        &["report", spec, "--compensate", "first=vertical|horizontal"],
    );
    let c = &r["compensation"];
    assert_eq!(c["bisected"], false);
    for s in c["solved"].as_array().unwrap() {
        let member = format!("{spec},first={}", s["setting"].as_str().unwrap());
        let solved = documented(&data, &["solve", &member]);
        assert_eq!(s["value"], solved["value"]);
        assert_eq!(s["to_move"], solved["to_move"]);
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_long_range_is_bisected_to_where_the_result_changes() {
    let data = data_dir("bisect");
    let r = documented(&data, &["report", "dots:size=3", "--compensate", "komi=-20..20"]);
    let c = &r["compensation"];
    assert_eq!(c["bisected"], true);
    let solved = c["solved"].as_array().unwrap();
    assert!(solved.len() < 41);
    // The change found is the one found by solving the settings one by one.
    let whole = documented(&data, &["report", "dots:size=3", "--compensate", "komi=-3..3"]);
    assert!(!c["changes_at"].is_null());
    assert_eq!(c["changes_at"], whole["compensation"]["changes_at"]);
    let at = solved
        .iter()
        .position(|s| s["setting"] == c["changes_at"])
        .unwrap();
    assert_eq!(solved[at - 1]["value"], solved[0]["value"]);
    assert_eq!(
        solved[at - 1]["setting"]
            .as_str()
            .unwrap()
            .parse::<i64>()
            .unwrap()
            + 1,
        c["changes_at"].as_str().unwrap().parse::<i64>().unwrap()
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn soft_players_at_temperature_zero_keep_the_value_in_self_play() {
    let data = data_dir("soft");
    let r = documented(&data, &["report", "tictactoe", "--selfplay", "40"]);
    let rows = r["strengths"].as_array().unwrap();
    let soft0 = rows.iter().find(|s| s["player"] == "soft:0").unwrap();
    // The game is a draw, and soft:0 plays only moves that keep the value.
    assert_eq!(r["value"], "draw");
    assert_eq!(soft0["draws"]["share"], 1.0);
    for s in rows {
        let sum = s["first"]["share"].as_f64().unwrap() + s["second"]["share"].as_f64().unwrap();
        assert!((sum - 1.0).abs() < 1e-9, "{s}");
        assert_eq!(s["games"], 40);
    }
    let line = common::error_line(&["tournament", "tictactoe", "--players", "soft:-1,random"]);
    assert!(line.contains("temperature"), "{line}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_reduced_big_points_board_reports_in_full_with_the_scores_solve_gives() {
    let data = data_dir("bigpoints-reduced");
    let spec = "bigpoints:board=1221";
    let r = documented(&data, &["report", spec]);
    let solved = documented(&data, &["solve", spec]);
    let moves = documented(&data, &["moves", spec]);
    assert_eq!(r["value"], solved["value"]);
    assert_eq!(r["scores"], solved["scores"]);
    let first = &r["first_moves"];
    assert_eq!(first["total"], moves["moves_total"]);
    for word in ["win", "draw", "lose"] {
        assert_eq!(
            moves_valued(&first["moves"], word),
            moves_valued(&moves["moves"], word)
        );
    }
    assert!(r["forgiveness"]["seats"].as_array().unwrap().len() == 2);
    assert!(r["certificate"]["sha256"].as_str().unwrap().len() == 64);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn three_seats_of_big_points_get_each_seats_share_by_self_play() {
    let data = data_dir("bigpoints-three");
    let spec = "bigpoints:players=3";
    let args = ["report", spec, "--player", "greedy", "--selfplay", "60"];
    let r = documented(&data, &args);
    assert_eq!(r["seats"], 3);
    assert!(r["scores"].is_null());
    // The exact scores are left out for the reason `solve` refuses the game.
    let refused = common::error_line(&["--data", data.to_str().unwrap(), "solve", spec]);
    let note = r["notes"][0].as_str().unwrap();
    assert!(
        refused.ends_with(note.trim_start_matches("exact scores left out: ")),
        "{refused} / {note}"
    );
    // The same games as `balance --players` plays.
    let e = documented(&data, &["balance", spec, "--players", "greedy", "--games", "60"]);
    let s = &r["selfplay"];
    assert_eq!(s["games"], 60);
    assert_eq!(s["seats"], e["seats"]);
    let seats = s["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    let total: f64 = seats.iter().map(|x| x["points"]["share"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    for x in seats {
        let p = &x["points"];
        assert!(p["low"].as_f64() <= p["share"].as_f64() && p["share"].as_f64() <= p["high"].as_f64());
    }
    let text = String::from_utf8(common::zermelo(&args).stdout).unwrap();
    assert!(text.contains("3 seats") && text.contains("points %"), "{text}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_graph_of_three_seats_gets_the_exact_scores_solve_gives() {
    let data = data_dir("graph-three");
    std::fs::create_dir_all(&data).unwrap();
    let file = data.join("three.json");
    std::fs::write(
        &file,
        r#"{"seats":3,"nodes":[{"id":"s","seat":0},{"id":"a","seat":1},{"id":"b","seat":2},
        {"id":"t1","points":[3,1,0]},{"id":"t2","points":[0,2,1]},{"id":"t3","points":[1,0,2]},
        {"id":"t4","points":[0,1,3]}],
        "edges":[{"source":"s","target":"a","move":"l"},{"source":"s","target":"b","move":"r"},
        {"source":"a","target":"t1","move":"x"},{"source":"a","target":"t2","move":"y"},
        {"source":"b","target":"t3","move":"x"},{"source":"b","target":"t4","move":"y"}]}"#,
    )
    .unwrap();
    let spec = format!("graph:file={}", file.display());
    let r = documented(
        &data,
        &["report", &spec, "--player", "random", "--selfplay", "20"],
    );
    let solved = documented(&data, &["solve", &spec]);
    assert_eq!(r["scores"], solved["scores"]);
    assert_eq!(r["scores"].as_array().unwrap().len(), 3);
    assert!(r["notes"].as_array().unwrap().is_empty());
    assert_eq!(r["selfplay"]["games"], 20);
    let line = common::error_line(&["report", &spec, "--html", "x.html"]);
    assert!(line.contains("--html"), "{line}");
    let _ = std::fs::remove_dir_all(&data);
}
