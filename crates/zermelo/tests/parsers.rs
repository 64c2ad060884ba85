//! Every parser a user reaches through the library, fed what a hostile or clumsy user
//! types: game specs and families, the positions and moves of every game in the catalog,
//! and the answers of a player of your own (a protocol line). Each either reads its input
//! or refuses it with a one-line error; none panics (issue 37, "keep it fixed"). The case
//! counts are fixed, so that the whole file runs in seconds.

use std::sync::Arc;

use proptest::prelude::*;
use zermelo::catalog;
use zermelo::play::external::{Guest, Mover, Turn};
use zermelo::session::{Budget, Options};
use zermelo::spec::Family;
use zermelo::Error;

/// A budget small enough that a position valued by chance costs little.
fn quick() -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-parsers-{}", std::process::id())),
        budget: Budget {
            seconds: Some(0.2),
            ..Budget::default().with_memory(32 << 20)
        },
        progress: Arc::new(()),
        ..Options::default()
    }
}

/// A refusal is one line that says something.
fn one_line(e: &Error) -> Result<(), TestCaseError> {
    let text = e.to_string();
    prop_assert!(!text.trim().is_empty(), "an empty error: {e:?}");
    prop_assert_eq!(text.lines().count(), 1, "{}", text);
    Ok(())
}

/// Text built from the pieces specs, positions and moves are made of, with a stray
/// character now and then.
fn pieces() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("tictactoe".to_string()),
        Just("mnk".to_string()),
        Just("pawns".to_string()),
        Just("nim".to_string()),
        Just("octal".to_string()),
        Just("dots".to_string()),
        "[a-z]{1,6}",
        "[0-9]{1,4}",
        Just("99999999999999999999999".to_string()),
        Just("-1".to_string()),
        Just("+3".to_string()),
        Just("0".to_string()),
        Just("1e9".to_string()),
        prop::sample::select(vec![
            ":", "=", ",", "/", "..", "|", ".", " ", "x", "o", "X", "O", "#", "-", "\t", "\n", "\u{0}", "é",
            "☃", "%20", "?", "&", "\\", "\"",
        ])
        .prop_map(str::to_string),
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|p| p.concat())
}

/// A spec of a catalog game with keys and values from [`pieces`]-like parts.
fn specs() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = catalog::entries().iter().map(|e| e.info.name).collect();
    let key = prop_oneof![
        "[a-z]{1,6}",
        Just("m".to_string()),
        Just("n".to_string()),
        Just("k".to_string()),
        Just("cols".to_string()),
        Just("rows".to_string()),
        Just("heaps".to_string()),
        Just("size".to_string()),
        Just("misere".to_string()),
    ];
    let value = prop_oneof![
        "[0-9]{1,3}",
        "[0-9]{1,3}\\.\\.[0-9]{1,3}",
        "[0-9]{1,2}(/[0-9]{1,3}){0,4}",
        Just("99999999999999999999".to_string()),
        Just("yes".to_string()),
        Just("true".to_string()),
        Just("".to_string()),
        pieces(),
    ];
    (
        prop::sample::select(names),
        prop::collection::vec((key, value), 0..4),
    )
        .prop_map(|(name, options)| {
            let options: Vec<String> = options.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
            if options.is_empty() {
                name.to_string()
            } else {
                format!("{name}:{}", options.join(","))
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_spec_is_opened_or_refused_in_one_line(text in prop_oneof![specs(), pieces()]) {
        if let Err(e) = catalog::open(&text) {
            one_line(&e)?;
        }
    }

    #[test]
    fn a_family_is_read_or_refused_in_one_line(text in prop_oneof![specs(), pieces()]) {
        if let Err(e) = text.parse::<Family>() {
            one_line(&e)?;
        }
    }
}

/// Every example spec of every game in the catalog, opened.
fn examples() -> Vec<String> {
    catalog::entries()
        .iter()
        .flat_map(|e| e.examples.iter().take(1))
        .map(|s| s.to_string())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn moves_of_every_game_are_played_or_refused_in_one_line(
        spec in prop::sample::select(examples()),
        moves in prop::collection::vec(pieces(), 1..3),
    ) {
        let session = catalog::open(&spec).unwrap();
        if let Err(e) = session.position(&moves, &quick()) {
            one_line(&e)?;
        }
    }

    #[test]
    fn positions_of_every_game_are_read_or_refused_in_one_line(
        spec in prop::sample::select(examples()),
        position in pieces(),
    ) {
        let session = catalog::open(&spec).unwrap();
        let opts = Options { position: Some(position), ..quick() };
        if let Err(e) = session.position(&[], &opts) {
            one_line(&e)?;
        }
    }

    #[test]
    fn a_players_answer_is_its_move_or_a_forfeit_in_one_line(
        spec in prop::sample::select(examples()),
        answer in pieces(),
    ) {
        let session = catalog::open(&spec).unwrap();
        let opts = Options {
            guests: vec![Guest {
                name: "answers".into(),
                make: Arc::new(move |_| Ok(Box::new(Answers(answer.clone())) as Box<dyn Mover>)),
            }],
            ..quick()
        };
        match session.bot_move(&[], "answers", 0, &opts) {
            Ok(chosen) => prop_assert!(!chosen.is_empty()),
            Err(e) => one_line(&e)?,
        }
    }
}

/// A player of your own that answers the same line every turn.
struct Answers(String);

impl Mover for Answers {
    fn name(&self) -> String {
        "answers".into()
    }

    fn choose(&mut self, _turn: &Turn<'_>) -> Result<String, Error> {
        Ok(self.0.clone())
    }
}
