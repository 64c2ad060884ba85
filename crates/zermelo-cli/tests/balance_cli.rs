//! `zermelo balance FAMILY`: a family of boards mapped from the command line, as a table,
//! JSON valid against the schema, a CSV row per member and an SVG heatmap; Big Points
//! ranges sweep their configurations; misused options are one-line errors.

mod common;

use common::{json, schema_errors, validator, zermelo};

fn data_dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("zermelo-balance-cli-{name}-{}", std::process::id()))
}

#[test]
fn a_family_maps_to_a_table_json_csv_and_a_heatmap() {
    let dir = data_dir("map");
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("map.csv"), dir.join("map.svg"));
    let data = dir.to_str().unwrap();
    let out = zermelo(&[
        "--data",
        data,
        "balance",
        "pawns:cols=1..3,rows=3..4",
        "--seconds",
        "20",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("cols rows result"), "{text}");
    assert!(
        text.contains("6 members: 4 first-player wins, 0 draws, 2 second-player wins"),
        "{text}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 7, "{rows}");
    assert!(rows.starts_with("cols,rows,game,status,"), "{rows}");
    assert!(rows.contains("3,3,\"pawns:cols=3,rows=3\",solved,"), "{rows}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("W9"), "{picture}");

    let doc = json(&[
        "--data",
        data,
        "--json",
        "balance",
        "dots:size=2..3",
        "--seconds",
        "20",
    ]);
    assert!(schema_errors(&validator(), &doc).is_empty(), "{doc:#}");
    let members = doc["map"]["members"].as_array().unwrap();
    assert_eq!(members.len(), 2);
    assert_eq!(members[1]["game"], "dots:size=3");
    assert_eq!(members[1]["margin"], 2);
    assert_eq!(members[1]["keys"]["size"], "3");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn skipped_and_refused_members_are_listed_with_their_reasons() {
    let dir = data_dir("skip");
    let doc = json(&[
        "--data",
        dir.to_str().unwrap(),
        "--json",
        "balance",
        "mnk:m=3|7,n=3|7,k=3|5",
        "--seconds",
        "0.2",
    ]);
    assert!(schema_errors(&validator(), &doc).is_empty(), "{doc:#}");
    let map = &doc["map"];
    assert_eq!(map["members"].as_array().unwrap().len(), 8);
    assert!(map["skipped"].as_u64().unwrap() >= 1, "{map:#}");
    assert!(map["refused"].as_u64().unwrap() >= 1, "{map:#}");
    for m in map["members"].as_array().unwrap() {
        if m["status"] != "solved" {
            assert!(m["reason"].is_string(), "{m}");
            assert!(m["value"].is_null(), "{m}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn big_points_ranges_sweep_each_configuration() {
    let doc = json(&["--json", "balance", "bigpoints:colors=2,discs=2..3"]);
    let configs = doc["configs"].as_array().unwrap();
    let discs: Vec<u64> = configs.iter().map(|c| c["discs"].as_u64().unwrap()).collect();
    assert_eq!(discs, [2, 3]);
}

#[test]
fn a_map_of_shapes_is_coloured_by_outcome_class() {
    let dir = data_dir("class");
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("class.svg");
    let data = dir.to_str().unwrap();
    // Rectangles, whose classes the literature gives (3 x 3 and 4 x 4: N, one column: L,
    // one row: R, 5 x 5: P), and a 3 x 3 ring, which a quarter turn maps onto itself with
    // the players swapped, so that it is N or P.
    let family = "domineering:board=.../.../...|..../..../..../....|./.|.....|.../.#./...|...../...../...../...../.....";
    let v = json(&[
        "--data",
        data,
        "balance",
        family,
        "--json",
        "--plot",
        svg.to_str().unwrap(),
        "--colour-by",
        "class",
    ]);
    let classes: Vec<String> = v["map"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let fact = m["details"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["key"] == "class")
                .unwrap();
            fact["value"].as_str().unwrap()[..1].to_string()
        })
        .collect();
    assert_eq!(classes, ["N", "N", "L", "R", "P", "P"]);
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.contains("the outcome class") && drawn.contains("\nP\n</text>"),
        "{drawn}"
    );
    let err = common::error_line(&[
        "--data",
        data,
        "balance",
        "mnk:m=2..3,n=2,k=2",
        "--plot",
        svg.to_str().unwrap(),
        "--colour-by",
        "class",
    ]);
    assert!(
        err.contains("no member of mnk:m=2..3,n=2,k=2 has an outcome class"),
        "{err}"
    );
}

#[test]
fn misused_balance_options_are_one_line_errors() {
    for args in [
        &["balance", "mnk:m=3..4", "--configs", "2x2"][..],
        &["balance", "mnk:m=3..4", "--seconds", "0"],
        &["balance", "mnk:m=4..3"],
        &["balance", "mnk:q=1..2"],
        &["balance", "bigpoints:colors=2..3,white=0..1"],
        &["balance", "bigpoints:colors=2,discs=2", "--report"],
        &[
            "balance",
            "bigpoints:players=3",
            "--players",
            "greedy",
            "--report",
        ],
    ] {
        let out = zermelo(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error:"), "{args:?}: {err}");
    }
}

#[test]
fn a_family_report_adds_each_members_first_moves_safe_shares_and_certificate() {
    let dir = data_dir("report");
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("map.csv"), dir.join("map.svg"));
    let data = dir.to_str().unwrap();
    let family = "mnk:m=3..4,n=3,k=3";
    let args = [
        "--data",
        data,
        "balance",
        family,
        "--report",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ];
    let map = json(&[&args[..], &["--json"]].concat());
    assert!(schema_errors(&validator(), &map).is_empty());
    let members = map["map"]["members"].as_array().unwrap();
    assert_eq!(members.len(), 2);
    for m in members {
        let report = json(&["--data", data, "report", m["game"].as_str().unwrap(), "--json"]);
        let r = &m["report"];
        assert_eq!(r["first_moves"], report["first_moves"]["total"]);
        assert_eq!(r["keeping"], report["first_moves"]["keeping"]);
        assert_eq!(r["sha256"], report["certificate"]["sha256"]);
        let safe: Vec<_> = report["forgiveness"]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["safe"].clone())
            .collect();
        assert_eq!(r["safe"].as_array().unwrap(), &safe);
    }
    // The two members are neighbours: where their results differ, one flip is marked.
    let flipped = members[0]["value"] != members[1]["value"];
    let out = zermelo(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("keep/moves") && text.contains("sha256"), "{text}");
    let pairs = usize::from(flipped);
    let said = if flipped { "1 pair " } else { "0 pairs " };
    assert!(text.contains(&format!("flips between {said}")), "{text}");
    let page = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(page.matches("stroke-width=\"4\"").count(), pairs);
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(rows
        .lines()
        .next()
        .unwrap()
        .ends_with(",first_moves,keeping,safe,sha256"));
    let sha = members[0]["report"]["sha256"].as_str().unwrap();
    assert!(rows.lines().nth(1).unwrap().ends_with(sha), "{rows}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every member solved carries each first move's value, as `moves` gives them, in the
/// JSON and the CSV; a member over its time is skipped, its cell on the heatmap `?`.
#[test]
fn connect_four_members_carry_their_first_moves_values() {
    let dir = data_dir("connect4");
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("map.csv"), dir.join("map.svg"));
    let data = dir.to_str().unwrap();
    let family = "connect4:cols=3..4,rows=4";
    let args = [
        "--data",
        data,
        "balance",
        family,
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ];
    let doc = json(&[&args[..], &["--json"]].concat());
    assert!(schema_errors(&validator(), &doc).is_empty(), "{doc:#}");
    let members = doc["map"]["members"].as_array().unwrap();
    assert_eq!(members.len(), 2);
    for m in members {
        assert_eq!(m["status"], "solved", "{m:#}");
        let moves = json(&["--data", data, "--json", "moves", m["game"].as_str().unwrap()]);
        assert_eq!(m["first_moves"], moves["moves"], "{}", m["game"]);
        let cols: usize = m["keys"]["cols"].as_str().unwrap().parse().unwrap();
        assert_eq!(m["first_moves"].as_array().unwrap().len(), cols);
    }
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(
        rows.lines()
            .next()
            .unwrap()
            .ends_with(",reason,first_move_values"),
        "{rows}"
    );
    // 4 x 4 is drawn: its first moves valued, each `COLUMN:VALUE`.
    let four = rows.lines().find(|l| l.starts_with("4,")).unwrap();
    let values = four.rsplit(',').next().unwrap();
    assert_eq!(values.split(' ').count(), 4, "{four}");
    assert!(
        values.split(' ').all(|v| v.contains(':') && !v.ends_with('?')),
        "{four}"
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(
        picture.contains("\n4/4\n"),
        "the first moves keeping the value: {picture}"
    );
    // The standard board in two seconds: skipped, no first moves, `?` on the heatmap.
    let doc = json(&[
        "--data",
        data,
        "--json",
        "balance",
        "connect4:cols=6..7,rows=6",
        "--seconds",
        "2",
    ]);
    for m in doc["map"]["members"].as_array().unwrap() {
        assert_eq!(m["status"], "skipped", "{m:#}");
        assert!(m["first_moves"].as_array().unwrap().is_empty());
    }
    std::fs::remove_dir_all(&dir).ok();
}
