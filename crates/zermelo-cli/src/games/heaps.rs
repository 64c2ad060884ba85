//! Nim, subtraction games, octal games and their sums on the command line: the value of a
//! position by Sprague–Grundy (or the misère rules) and every winning move.

use std::time::Instant;

use anyhow::{bail, Result};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::{json, Value as Json};
use zermelo::games::impartial::{join, nim, HeapGame, HeapMove, Heaps, Rule};
use zermelo::play::Player;
use zermelo::solve::grundy::Periodic;
use zermelo::{Error, Game, Notation, Spec};

use crate::commands::{GameCommands, Report, SolveOptions};
use crate::generic::{self, BoxedPlayer};
use crate::grundy::{self, Sequence};

/// The most legal moves at the start for `play` and `tournament` (whose players list them).
const MAX_PLAYED: usize = 1_000_000;

/// Plays a winning move, at random among them; in a lost position takes the fewest
/// tokens it can from the first heap with a move, to make the game last.
struct Perfect<'a> {
    commands: &'a HeapCommands,
    rng: StdRng,
}

impl Player<HeapGame> for Perfect<'_> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &HeapGame, p: &Heaps) -> Result<HeapMove, Error> {
        if let Some(m) = self.commands.winning(p).choose(&mut self.rng) {
            return Ok(*m);
        }
        (0..p.heaps.len())
            .find_map(|i| {
                let one_less = p.heaps[i].size.saturating_sub(1);
                game.heap_moves(p, i, &[one_less])
                    .into_iter()
                    .min_by_key(|m| m.take)
            })
            .ok_or_else(|| Error::bad_move("", "no legal move in this position"))
    }
}

/// The most legal moves a position report lists one by one.
const MAX_LISTED: usize = 2_000;

/// Values by heap size: a proven periodic sequence, or a table long enough for the game.
enum Lookup<T> {
    Periodic(Periodic<T>),
    Table(Vec<T>),
}

impl<T: Copy> Lookup<T> {
    /// The lookup of `seq`, refused when a heap up to `max` is beyond its reach.
    fn new(seq: Sequence<T>, max: u64) -> Result<Self> {
        if let Some(p) = seq.periodic() {
            return Ok(Lookup::Periodic(p));
        }
        if max >= seq.values.len() as u64 {
            bail!(
                "no period proven within {} values, so a heap of {max} is out of reach",
                seq.values.len()
            );
        }
        Ok(Lookup::Table(seq.values))
    }

    fn at(&self, n: u64) -> T {
        match self {
            Lookup::Periodic(p) => *p.at(n),
            Lookup::Table(values) => values[n as usize],
        }
    }
}

/// The values of one part's heaps by size.
enum PartValues {
    Nim,
    Table(Lookup<u32>),
}

/// What decides who wins: Grundy values under normal play, or a misère rule.
enum Judge {
    Normal(Vec<PartValues>),
    MisereNim,
    MisereSubtraction(Lookup<bool>),
}

pub struct HeapCommands {
    game: HeapGame,
    spec: String,
    judge: Judge,
}

impl HeapCommands {
    pub fn new(spec: &Spec) -> Result<Self> {
        let game = HeapGame::from_spec(spec)?;
        let start = game.start();
        let largest = |part: usize| {
            start
                .heaps
                .iter()
                .filter(|h| h.part as usize == part)
                .map(|h| h.size)
                .max()
                .unwrap_or(0)
        };
        let judge = match (game.misere(), game.parts()) {
            (true, [Rule::Nim]) => Judge::MisereNim,
            (true, [Rule::Subtraction(set)]) => {
                let seq = grundy::subtraction_outcomes(set, true, None);
                Judge::MisereSubtraction(Lookup::new(seq, largest(0))?)
            }
            (true, _) => bail!("the misère rule is offered for nim and subtraction only"),
            (false, parts) => Judge::Normal(
                parts
                    .iter()
                    .enumerate()
                    .map(|(i, rule)| {
                        let seq = match rule {
                            Rule::Nim => return Ok(PartValues::Nim),
                            Rule::Subtraction(set) => grundy::subtraction_grundy(set, None),
                            Rule::Octal(code) => grundy::octal_grundy(code, Some(largest(i) as usize)),
                        };
                        Ok(PartValues::Table(Lookup::new(seq, largest(i))?))
                    })
                    .collect::<Result<_>>()?,
            ),
        };
        Ok(HeapCommands {
            game,
            spec: spec.to_string(),
            judge,
        })
    }

    /// The Grundy value of each heap of `p` (normal play only).
    fn heap_values(&self, p: &Heaps) -> Option<Vec<u64>> {
        let Judge::Normal(parts) = &self.judge else {
            return None;
        };
        Some(
            p.heaps
                .iter()
                .map(|h| match &parts[h.part as usize] {
                    PartValues::Nim => h.size,
                    PartValues::Table(t) => u64::from(t.at(h.size)),
                })
                .collect(),
        )
    }

    /// Whether the mover loses `p`.
    fn lost(&self, p: &Heaps) -> bool {
        let sizes: Vec<u64> = p.heaps.iter().map(|h| h.size).collect();
        match &self.judge {
            Judge::Normal(_) => self.heap_values(p).is_some_and(|g| nim::nim_sum(&g) == 0),
            Judge::MisereNim => nim::misere_lost(&sizes),
            Judge::MisereSubtraction(t) => !t.at(sizes[0]),
        }
    }

    /// Every winning move of `p` (none when the mover loses).
    fn winning(&self, p: &Heaps) -> Vec<HeapMove> {
        if self.lost(p) {
            return Vec::new();
        }
        let nim_sum = self.heap_values(p).map_or(0, |v| nim::nim_sum(&v));
        self.game
            .winning_moves(p, |size| nim::targets(size, nim_sum), |child| self.lost(child))
    }

    /// The named players; `perfect` plays by the values here.
    fn players<'g>(&'g self, names: &[String], seed: u64) -> Result<Vec<BoxedPlayer<'g, HeapGame>>> {
        let moves = self.game.move_count(&self.game.start());
        if moves > MAX_PLAYED as u128 {
            bail!("the start has {moves} legal moves; play and tournament take at most {MAX_PLAYED}");
        }
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                generic::player(n, seed.wrapping_add(i as u64), &mut |name, s| {
                    (name == "perfect").then(|| {
                        Box::new(Perfect {
                            commands: self,
                            rng: StdRng::seed_from_u64(s),
                        }) as BoxedPlayer<'g, HeapGame>
                    })
                })
            })
            .collect()
    }

    /// "take 4 from heap 2 (9 -> 5)".
    fn describe(&self, p: &Heaps, m: &HeapMove) -> String {
        let size = p.heaps[m.heap].size;
        let rest = size - m.take;
        let after = if m.left == 0 {
            rest.to_string()
        } else {
            format!("{} + {}", m.left, rest - m.left)
        };
        format!("take {} from heap {} ({size} -> {after})", m.take, m.heap + 1)
    }

    /// The value of `p` for the mover and every winning move.
    fn position_report(&self, p: &Heaps, started: Instant) -> Report {
        let g = &self.game;
        let values = self.heap_values(p);
        let grundy = values.as_ref().map(|v| nim::nim_sum(v));
        let win = !self.lost(p);
        let winning = self.winning(p);
        let listed = self.listed_moves(p, &winning);
        let mover = g.player_name(p.mover);
        let word = if win { "win" } else { "lose" };
        let rule = if g.misere() { "misère" } else { "normal" };
        let mut text = g.render(p);
        text += &format!("{mover} to move ({rule} play): {word}");
        match (&values, grundy) {
            (Some(v), Some(x)) if v.len() > 1 => {
                text += &format!(" (nim-sum of the heaps' Grundy values {} = {x})", join(v, " ^ "))
            }
            (_, Some(x)) => text += &format!(" (Grundy value {x})"),
            _ => {}
        }
        text += "\n";
        if g.outcome(p).is_some() {
            text += "no moves left\n";
        }
        let mut moves = Vec::new();
        for m in &winning {
            let name = g.format_move(p, m);
            text += &format!("  winning move {name:<10} {}\n", self.describe(p, m));
            moves
                .push(json!({"move": name, "heap": m.heap + 1, "take": m.take, "says": self.describe(p, m)}));
        }
        let seconds = started.elapsed().as_secs_f64();
        let json = json!({
            "game": self.spec, "position": g.format_position(p), "board": g.render(p),
            "to_move": mover, "misere": g.misere(), "terminal": g.outcome(p).is_some(),
            "result": g.outcome(p).map(|o| generic::outcome_words(g, o)),
            "value": word, "heap_values": values, "grundy": grundy,
            "winning_moves": moves, "moves": listed,
            "legal_moves": generic::big(g.move_count(p)), "seconds": seconds,
        });
        Report { text, json }
    }
}

impl HeapCommands {
    /// Moves with their value for the mover, winning ones first: every legal move when
    /// there are at most [`MAX_LISTED`], else the winning moves and one move per heap.
    fn listed_moves(&self, p: &Heaps, winning: &[HeapMove]) -> Vec<Json> {
        let g = &self.game;
        let mut all = Vec::new();
        if g.move_count(p) <= MAX_LISTED as u128 {
            g.moves(p, &mut all);
        } else {
            all = winning.to_vec();
            let one_per_heap = (0..p.heaps.len())
                .filter_map(|i| g.heap_moves(p, i, &[p.heaps[i].size.saturating_sub(1)]).pop());
            all.extend(one_per_heap.filter(|m| !winning.contains(m)).collect::<Vec<_>>());
        }
        let mut rows: Vec<(bool, Json)> = all
            .iter()
            .map(|m| {
                let wins = self.lost(&g.play(p, m));
                let value = if wins { "win" } else { "lose" };
                (
                    wins,
                    json!({"move": g.format_move(p, m), "value": value, "remoteness": null}),
                )
            })
            .collect();
        rows.sort_by_key(|(wins, _)| !wins);
        rows.into_iter().map(|(_, row)| row).collect()
    }
}

impl GameCommands for HeapCommands {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn solve(&self, _opts: &SolveOptions) -> Result<Report> {
        let started = Instant::now();
        let mut report = self.position_report(&self.game.start(), started);
        let who = if report.json["value"] == "win" {
            "a first-player win"
        } else {
            "a second-player win"
        };
        report.text = format!("{}: {who}\n{}", self.spec, report.text);
        Ok(report)
    }

    fn play(&self, seats: &[String], seed: u64, _opts: &SolveOptions) -> Result<Report> {
        let mut players = self.players(seats, seed)?;
        generic::play_in_terminal(&self.game, &mut players)
    }

    fn tournament(&self, players: &[String], games: u64, seed: u64, opts: &SolveOptions) -> Result<Report> {
        let mut players = self.players(players, seed)?;
        generic::tournament_report(&mut players, games, opts.progress, |_| {
            (self.game.clone(), self.game.start())
        })
    }

    fn moves(&self, moves: &[String], _opts: &SolveOptions) -> Result<Report> {
        let started = Instant::now();
        let p = generic::replay(&self.game, self.game.start(), moves)?;
        Ok(self.position_report(&p, started))
    }
}
