//! A saved table with damaged blocks: every answer that reads a damaged block fails with
//! one clear error and never shows a made-up value; every answer that reads only sound
//! blocks is the same as with the undamaged file; and a server answers from a repaired
//! file put in place of the damaged one, without a restart.

mod common;

use std::path::Path;
use std::process::Output;

use common::Server;
use serde_json::Value as Json;
use zermelo::games::pawns::{Board, PawnMove, Pawns};
use zermelo::table::db::{Database, Layer};
use zermelo::{Game, Indexed, Notation, Value};

const SPEC: &str = "pawns:cols=5,rows=8";
const FILE: &str = "pawns-5x8.zdb";
/// Random games walked to find positions.
const WALKS: u64 = 4;

fn text(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Runs `zermelo --data DATA args`.
fn zermelo(data: &Path, args: &[&str]) -> Output {
    common::zermelo(&[&["--data", text(data)], args].concat())
}

/// The output of a command that must succeed.
fn success(data: &Path, args: &[&str]) -> Output {
    let out = zermelo(data, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Checks that a command fails with one line on stderr that names a damaged block, and
/// returns what it printed on stdout before failing.
fn damaged_error(data: &Path, args: &[&str]) -> String {
    let out = zermelo(data, args);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(
        err.contains("fails its checksum") && err.contains("the file is corrupt"),
        "{args:?}: {err}"
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The blocks the values of `p`'s moves read: for every child, its block of the
/// win/lose/draw layer, and its block of the remoteness layer when it is won or lost.
fn probes(g: &Pawns, clean: &Database, p: &Board) -> Vec<(Layer, u64)> {
    let far = clean.header().layers[1];
    let mut out = Vec::new();
    for m in g.legal_moves(p) {
        let rank = g.rank(&g.play(p, &m));
        out.push((Layer::Wdl, rank / Layer::Wdl.block_ranks()));
        if let Some(Value::Win(_) | Value::Lose(_)) = clean.value(rank).expect("the clean file reads") {
            out.push((far, rank / far.block_ranks()));
        }
    }
    out
}

/// What a position's moves read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    /// Nothing: the game is over.
    Nothing,
    /// Sound blocks only; the highest remoteness block among them.
    Sound(u64),
    /// At least one damaged block.
    Damaged,
}

fn reads(g: &Pawns, clean: &Database, damaged: &[(Layer, u64)], p: &Board) -> Reads {
    if g.outcome(p).is_some() {
        return Reads::Nothing;
    }
    let probes = probes(g, clean, p);
    if probes.iter().any(|b| damaged.contains(b)) {
        Reads::Damaged
    } else {
        Reads::Sound(
            probes
                .iter()
                .filter(|b| b.0 != Layer::Wdl)
                .map(|b| b.1)
                .max()
                .unwrap_or(0),
        )
    }
}

/// The arguments of `moves` after `moves` from the start (none for the start itself).
fn moves_args<'a>(moves: &'a str, json: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["moves", SPEC];
    if !moves.is_empty() {
        args.extend(["--moves", moves]);
    }
    args.extend(json);
    args
}

/// A small reproducible random number generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Flips bytes in every other block of every layer (blocks 1, 3, 5, ...) of the database
/// `bytes`, found through its block index; the damaged blocks.
fn damage(clean: &Database, bytes: &mut [u8]) -> Vec<(Layer, u64)> {
    let mut damaged = Vec::new();
    for info in clean.layers() {
        for b in (1..info.blocks()).step_by(2) {
            let at = info.block_bytes(b);
            let len = (at.end - at.start) as usize;
            for i in [0, len / 3, len / 2, len - 1] {
                bytes[at.start as usize + i] ^= 0x5a;
            }
            damaged.push((info.layer, b as u64));
        }
    }
    damaged
}

/// The moves from the start that a game printed by `zermelo play` made.
fn played(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.split_once(" played ").map(|(_, m)| m.trim().to_string()))
        .collect()
}

/// The position after `moves` from the start.
fn replay(g: &Pawns, moves: &[String]) -> Board {
    moves.iter().fold(g.start(), |p, m| {
        let m: PawnMove = g.parse_move(&p, m).expect("a legal move");
        g.play(&p, &m)
    })
}

#[test]
fn damaged_blocks_fail_every_answer_that_reads_them_and_no_other() {
    let root = std::env::temp_dir().join(format!("zermelo-faults-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (clean_dir, damaged_dir) = (root.join("clean"), root.join("damaged"));

    // One solve; a clean copy and a copy with every other block damaged.
    success(&clean_dir, &["solve", SPEC, "--json"]);
    let clean_path = clean_dir.join(FILE);
    let good = std::fs::read(&clean_path).unwrap();
    let clean = Database::open(&clean_path).unwrap();
    let mut bytes = good.clone();
    let damaged = damage(&clean, &mut bytes);
    assert!(damaged.len() >= 4, "{damaged:?}");
    std::fs::create_dir_all(&damaged_dir).unwrap();
    let damaged_path = damaged_dir.join(FILE);
    std::fs::write(&damaged_path, &bytes).unwrap();
    // The damage is in the blocks only: the file opens, and `db verify` finds it.
    let opened = Database::open(&damaged_path).unwrap();
    assert_eq!(opened.header(), clean.header());
    let err = common::error_line(&["db", "verify", text(&damaged_path)]);
    assert!(err.contains("fails its checksum"), "{err}");

    // Positions on random games whose moves read damaged blocks, and deep ones whose
    // moves read only sound blocks.
    let g = Pawns::new(5, 8, 0).unwrap();
    let mut bad: Vec<String> = Vec::new();
    let mut sound: Vec<String> = vec![String::new()];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..WALKS {
        let (mut p, mut moves) = (g.start(), Vec::new());
        let (mut first_bad, mut deepest_sound) = (None, None);
        loop {
            match reads(&g, &clean, &damaged, &p) {
                Reads::Nothing => break,
                Reads::Damaged => {
                    first_bad.get_or_insert_with(|| moves.join(","));
                }
                Reads::Sound(far) if far >= 2 => deepest_sound = Some(moves.join(",")),
                Reads::Sound(_) => {}
            }
            let legal = g.legal_moves(&p);
            let m = legal[rng.below(legal.len())];
            moves.push(g.format_move(&p, &m));
            p = g.play(&p, &m);
        }
        bad.extend(first_bad);
        sound.extend(deepest_sound);
    }
    assert_eq!(
        bad.len() as u64,
        WALKS,
        "every game reads a damaged block: {bad:?}"
    );
    assert!(sound.len() > 2, "sound positions past the damage: {sound:?}");

    // `moves`: an error and no value where a damaged block is read, the same answer as
    // with the clean file elsewhere.
    for moves in &bad {
        for json in [&[][..], &["--json"]] {
            let args = moves_args(moves, json);
            let out = damaged_error(&damaged_dir, &args);
            assert_eq!(out, "", "{args:?}: nothing is printed");
        }
    }
    for moves in &sound {
        for json in [&[][..], &["--json"]] {
            let args = moves_args(moves, json);
            let want = success(&clean_dir, &args).stdout;
            let got = success(&damaged_dir, &args).stdout;
            assert!(
                got == want,
                "{args:?}:\n{:.2000}\nwith the clean file:\n{:.2000}",
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want)
            );
        }
    }

    // `play`: a game that comes to a damaged block stops there with an error.
    let seats = ["play", SPEC, "--first", "perfect", "--second", "random", "--seed"];
    let (seed, whole) = (0..10)
        .map(|seed: u64| {
            let seed = seed.to_string();
            let out = success(&clean_dir, &[&seats[..], &[&seed]].concat());
            (seed, String::from_utf8(out.stdout).unwrap())
        })
        .find(|(_, whole)| {
            let moves = played(whole);
            (0..=moves.len()).any(|n| {
                let p = replay(&g, &moves[..n]);
                g.to_move(&p) == 0 && reads(&g, &clean, &damaged, &p) == Reads::Damaged
            })
        })
        .expect("a game where the perfect player reads a damaged block");
    let part = damaged_error(&damaged_dir, &[&seats[..], &[&seed]].concat());
    assert!(
        whole.starts_with(&part) && part.len() < whole.len(),
        "the game as far as it went:\n{part}\nthe whole game:\n{whole}"
    );
    assert!(!part.contains(" wins"), "{part}");

    // `tournament`: an error, never standings from made-up values.
    let tournament = [
        "tournament",
        SPEC,
        "--players",
        "perfect,random",
        "--games",
        "10",
        "--json",
    ];
    let want = success(&clean_dir, &tournament).stdout;
    let out = zermelo(&damaged_dir, &tournament);
    if out.status.success() {
        assert!(out.stdout == want, "standings differ from the clean file's");
    } else {
        assert_eq!(damaged_error(&damaged_dir, &tournament), "");
    }

    // The server: errors in JSON for damaged blocks, the clean answers elsewhere.
    let clean_server = Server::start(&clean_dir);
    let server = Server::start(&damaged_dir);
    let paths = |moves: &str| {
        [
            format!("/api/moves?spec={SPEC}&moves={moves}"),
            format!("/api/bot?spec={SPEC}&moves={moves}&seed=3"),
        ]
    };
    let answer = |server: &Server, path: &str| {
        let (status, body) = server.request("GET", path);
        let json: Json = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
        (status, json)
    };
    for moves in &bad {
        for path in paths(moves) {
            let (status, body) = answer(&server, &path);
            assert!((400..600).contains(&status), "{path}: {status} {body}");
            let message = body["error"].as_str().unwrap_or_else(|| panic!("{path}: {body}"));
            assert!(
                message.contains("fails its checksum") && !message.contains('\n'),
                "{path}: {message}"
            );
            assert_eq!(body.as_object().unwrap().len(), 1, "only the error: {body}");
        }
    }
    let same_as_clean = |moves: &str, when: &str| {
        for path in paths(moves) {
            let want = answer(&clean_server, &path);
            assert_eq!(want.0, 200, "{path}: {}", want.1);
            let got = answer(&server, &path);
            assert!(got == want, "{path}, {when}: {} {:.300}", got.0, got.1);
        }
    };
    for moves in &sound {
        same_as_clean(moves, "with the damaged file");
    }

    // The file repaired as a user would (a copy renamed into place) while the server holds
    // the damaged one (its last answers read it): the same server now answers every
    // position as with the clean file.
    let copy = damaged_dir.join("pawns-5x8.copy");
    std::fs::write(&copy, &good).unwrap();
    std::fs::rename(&copy, &damaged_path).unwrap();
    for moves in bad.iter().chain(&sound) {
        same_as_clean(moves, "after the repair");
    }
    drop((server, clean_server));
    let _ = std::fs::remove_dir_all(&root);
}
