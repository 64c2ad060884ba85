//! Every catalog game's keys, as `zermelo games` lists them, against its parser: each
//! listed default lies in its listed range, the bare name opens the game its listed
//! defaults name, and a whole number just outside a key's range is refused.

use zermelo::catalog::{self, Entry, CATALOG};
use zermelo::session::{Options, PositionView};
use zermelo::spec::{Key, Preset, Values};

/// The start of the game `spec` names, less the spec itself.
fn start(spec: &str) -> Result<PositionView, String> {
    let session = catalog::open(spec).map_err(|e| e.to_string())?;
    let view = session.position(&[], &options()).map_err(|e| e.to_string())?;
    Ok(PositionView {
        game: String::new(),
        ..view
    })
}

fn options() -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-keys-{}", std::process::id())),
        save: false,
        ..Options::default()
    }
}

fn keys(entry: &Entry) -> impl Iterator<Item = &'static Key> {
    entry.info.keys.iter()
}

#[test]
fn every_listed_default_is_in_its_listed_range() {
    for key in CATALOG.iter().flat_map(keys) {
        let name = key.name;
        match key.values {
            Values::Int {
                lo,
                hi,
                default: Preset::Is(v),
            } => assert!((lo..=hi).contains(&v), "{name}={v} outside {lo}..={hi}"),
            Values::List {
                lo,
                hi,
                most,
                default: Preset::Is(list),
                ..
            } => {
                assert!((1..=most).contains(&list.len()), "{name}: {} numbers", list.len());
                assert!(list.iter().all(|v| (lo..=hi).contains(v)), "{name}={list:?}");
            }
            Values::Word(words) => {
                let mut initials: Vec<&str> = words.iter().map(|w| &w[..1]).collect();
                initials.dedup();
                assert_eq!(
                    initials.len(),
                    words.len(),
                    "{name}: the words' first letters tell them apart"
                );
            }
            _ => {}
        }
    }
}

#[test]
fn the_bare_name_opens_the_game_of_the_listed_defaults() {
    for entry in CATALOG {
        let name = entry.info.name;
        let Ok(bare) = start(name) else {
            // A game with nothing to default to (a sum needs its parts) may refuse its name.
            assert!(
                keys(entry).all(|k| k.default_text() == "none"),
                "{name} refuses its bare name: {}",
                start(name).unwrap_err()
            );
            continue;
        };
        let fixed = keys(entry).filter(|k| {
            !matches!(
                k.values,
                Values::Int {
                    default: Preset::Else(_),
                    ..
                } | Values::List {
                    default: Preset::Else(_),
                    ..
                } | Values::Text {
                    default: Preset::Else(_),
                    ..
                }
            )
        });
        for key in fixed {
            let spec = format!("{name}:{}={}", key.name, key.default_text());
            match start(&spec) {
                Ok(view) => assert_eq!(view, bare, "{spec} against {name}"),
                // A key only some specs of the game take (Big Points' family keys).
                Err(e) => assert!(e.contains(&format!("{}=", key.name)), "{spec}: {e}"),
            }
        }
    }
}

#[test]
fn a_number_just_outside_a_range_is_refused() {
    for entry in CATALOG {
        for key in keys(entry) {
            let Values::Int { lo, hi, .. } = key.values else {
                continue;
            };
            let outside = [Some(hi as u128 + 1), lo.checked_sub(1).map(u128::from)];
            for v in outside.into_iter().flatten() {
                let spec = format!("{}:{}={v}", entry.info.name, key.name);
                let err = catalog::open(&spec)
                    .err()
                    .unwrap_or_else(|| panic!("{spec} opens"));
                let line = err.to_string();
                assert!(
                    !line.contains('\n') && line.contains(&format!("{}=", key.name)),
                    "{spec}: {line}"
                );
            }
        }
    }
}
