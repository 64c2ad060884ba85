//! The heap-values strategy: impartial heap games (Nim, subtraction and octal games, and
//! sums of them) valued by Sprague–Grundy under normal play, or by the misère rules of
//! Nim and subtraction games. Values come from a proven period when there is one, so a
//! heap of any size costs no more than the period.

use std::sync::OnceLock;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::common::{self, Roster, Special};
use super::{
    Big, Cost, Fact, FactValue, GameRecord, MoveValue, Options, PlayIo, PlayerInfo, PositionView, Session,
    Solution, Standings, Verdict, MOVES_LISTED,
};
use crate::analysis::grundy::{self, Sequence};
use crate::games::impartial::{nim, HeapGame, HeapMove, Heaps, Rule};
use crate::play::Player;
use crate::solve::grundy::Periodic;
use crate::spec::GameInfo;
use crate::{Error, Game, Notation};

/// The most legal moves a position may have for players that list them (all but
/// `perfect`): `play` and `tournament` check the start, `bot_move` the position.
const MAX_PLAYED: u128 = 1_000_000;
/// Bytes a heap value takes in a table.
const VALUE_BYTES: u64 = 4;
/// Bytes a listed move takes in a position report, about.
const LISTED_BYTES: u64 = 256;

/// Values by heap size: a proven periodic sequence, or a table long enough for the game.
enum Lookup<T> {
    Periodic(Periodic<T>),
    Table(Vec<T>),
}

impl<T: Clone> Lookup<T> {
    /// The lookup of `rule`'s sequence `seq`, refused when a heap of `max` is beyond it.
    fn new(seq: Sequence<T>, max: u64, rule: &Rule) -> Result<Self, Error> {
        if let Some(p) = seq.periodic() {
            return Ok(Lookup::Periodic(p));
        }
        if max >= seq.values.len() as u64 {
            return Err(Error::TooBig(format!(
                "{}: no period proven within {} values, so a heap of {max} is out of reach",
                rule.describe(),
                seq.values.len()
            )));
        }
        Ok(Lookup::Table(seq.values))
    }

    fn at(&self, n: u64) -> T {
        match self {
            Lookup::Periodic(p) => p.at(n).clone(),
            Lookup::Table(values) => values[n as usize].clone(),
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

impl Judge {
    /// The judge of `game` for heaps up to those of its start, and what computing it took.
    fn new(game: &HeapGame) -> Result<(Judge, Cost), Error> {
        let started = Instant::now();
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
        // One value per heap of the start, and every value of a part's table.
        let mut computed = start.heaps.len() as u64;
        let judge = match (game.misere(), game.parts()) {
            (true, [Rule::Nim]) => Judge::MisereNim,
            (true, [rule @ Rule::Subtraction(set)]) => {
                let seq = grundy::subtraction_outcomes(set, true, None);
                computed += seq.values.len() as u64;
                Judge::MisereSubtraction(Lookup::new(seq, largest(0), rule)?)
            }
            (true, _) => {
                return Err(Error::Unsupported(
                    "the misère rule is offered for nim and subtraction only".into(),
                ))
            }
            (false, parts) => {
                let mut values = Vec::new();
                for (i, rule) in parts.iter().enumerate() {
                    let seq = match rule {
                        Rule::Nim => {
                            values.push(PartValues::Nim);
                            continue;
                        }
                        Rule::Subtraction(set) => grundy::subtraction_grundy(set, None),
                        Rule::Octal(code) => grundy::octal_grundy_for(code, largest(i)),
                    };
                    computed += seq.values.len() as u64;
                    values.push(PartValues::Table(Lookup::new(seq, largest(i), rule)?));
                }
                Judge::Normal(values)
            }
        };
        let cost = Cost {
            positions: computed,
            bytes: computed.saturating_mul(VALUE_BYTES),
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok((judge, cost))
    }

    /// How the judge decides, for [`Solution::solver`].
    fn method(&self) -> &'static str {
        match self {
            Judge::Normal(_) => "grundy",
            Judge::MisereNim => "misere-nim",
            Judge::MisereSubtraction(_) => "misere-table",
        }
    }

    /// The Grundy value of each heap of `p` (normal play only).
    fn heap_values(&self, p: &Heaps) -> Option<Vec<u64>> {
        let Judge::Normal(parts) = self else {
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
        match self {
            Judge::Normal(_) => self.heap_values(p).is_some_and(|g| nim::nim_sum(&g) == 0),
            Judge::MisereNim => nim::misere_lost(&p.heaps.iter().map(|h| h.size).collect::<Vec<_>>()),
            Judge::MisereSubtraction(t) => !t.at(p.heaps[0].size),
        }
    }

    /// Every winning move of `p` (none when the mover loses).
    fn winning(&self, game: &HeapGame, p: &Heaps) -> Vec<HeapMove> {
        if self.lost(p) {
            return Vec::new();
        }
        // Misère Nim's winning targets come from the plain nim-sum of the sizes too.
        let sizes: Vec<u64> = p.heaps.iter().map(|h| h.size).collect();
        let nim_sum = self
            .heap_values(p)
            .map_or_else(|| nim::nim_sum(&sizes), |v| nim::nim_sum(&v));
        game.winning_moves(p, |size| nim::targets(size, nim_sum), |child| self.lost(child))
    }
}

/// The move that makes a lost game last: the fewest tokens from the first heap with a move.
fn stall(game: &HeapGame, p: &Heaps) -> Option<HeapMove> {
    (0..p.heaps.len()).find_map(|i| {
        let one_less = p.heaps[i].size.saturating_sub(1);
        game.heap_moves(p, i, &[one_less])
            .into_iter()
            .min_by_key(|m| m.take)
    })
}

/// "take 4 from heap 2 (9 -> 5)", "take 1 from heap 1 (5 -> 1 + 3)".
fn describe(p: &Heaps, m: &HeapMove) -> String {
    let size = p.heaps[m.heap].size;
    let rest = size - m.take;
    let after = if m.left == 0 {
        rest.to_string()
    } else {
        format!("{} + {}", m.left, rest - m.left)
    };
    format!("take {} from heap {} ({size} -> {after})", m.take, m.heap + 1)
}

/// "win" or "lose" for the mover, with no remoteness.
fn verdict(win: bool) -> Verdict {
    Verdict {
        value: Some(if win { "win" } else { "lose" }),
        ..Verdict::default()
    }
}

/// Plays a winning move, at random among them; in a lost position takes the fewest
/// tokens it can from the first heap with a move, to make the game last.
struct Perfect<'a> {
    judge: &'a Judge,
    rng: StdRng,
}

impl Player<HeapGame> for Perfect<'_> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &HeapGame, p: &Heaps) -> Result<HeapMove, Error> {
        if let Some(m) = self.judge.winning(game, p).choose(&mut self.rng) {
            return Ok(*m);
        }
        stall(game, p).ok_or_else(|| Error::bad_move("", "no legal move in this position"))
    }
}

/// A heap game valued by its heaps' values.
pub struct HeapSession {
    spec: String,
    info: &'static GameInfo,
    game: HeapGame,
    judge: OnceLock<Result<(Judge, Cost), Error>>,
}

impl HeapSession {
    /// A session for `game`, opened from `spec`; the values are computed when first needed.
    pub fn new(spec: &str, info: &'static GameInfo, game: HeapGame) -> Self {
        HeapSession {
            spec: spec.to_string(),
            info,
            game,
            judge: OnceLock::new(),
        }
    }

    /// The judge and what computing it took, computed once.
    fn solved(&self) -> Result<&(Judge, Cost), Error> {
        self.judge
            .get_or_init(|| Judge::new(&self.game))
            .as_ref()
            .map_err(Clone::clone)
    }

    fn judge(&self) -> Result<&Judge, Error> {
        self.solved().map(|(judge, _)| judge)
    }

    /// The players of this game and the matches they play.
    fn roster(&self) -> Roster<'_, HeapGame> {
        Roster {
            spec: &self.spec,
            seats: self.seats(),
            special: self.special(),
            known: self.players(),
        }
    }

    fn special(&self) -> Box<Special<'_, HeapGame>> {
        Box::new(move |name: &str, seed: u64| {
            (name == "perfect").then(|| {
                Ok(Box::new(Perfect {
                    judge: self.judge()?,
                    rng: StdRng::seed_from_u64(seed),
                }) as Box<dyn Player<HeapGame> + '_>)
            })
        })
    }

    /// Refuses a start with more legal moves than the players that list them take.
    fn check_start(&self) -> Result<(), Error> {
        let moves = self.game.move_count(&self.game.start());
        if moves > MAX_PLAYED {
            return Err(Error::TooBig(format!(
                "the start has {moves} legal moves; play and tournament take at most {MAX_PLAYED}"
            )));
        }
        Ok(())
    }

    /// Game facts about `p`: the rule, and under normal play the heap values and nim-sum.
    fn facts(&self, judge: &Judge, p: &Heaps) -> Vec<Fact> {
        let rule = if self.game.misere() { "misère" } else { "normal" };
        let mut facts = vec![Fact::new("rule", "play", FactValue::Text(rule.into()))];
        if let Some(values) = judge.heap_values(p) {
            let label = if values.len() > 1 {
                "nim-sum"
            } else {
                "Grundy value"
            };
            // Heap sizes are at most 10^18, so values and their nim-sum fit in an i64.
            facts.push(Fact::new(
                "heap_values",
                "heap Grundy values",
                FactValue::List(values.iter().map(|&v| v as i64).collect()),
            ));
            facts.push(Fact::new(
                "grundy",
                label,
                FactValue::Int(nim::nim_sum(&values) as i64),
            ));
        }
        facts
    }

    /// The moves of `p` with their values for the mover, winning ones first: every legal
    /// move when there are at most [`MOVES_LISTED`] or every move is asked for, else the
    /// winning moves, the perfect player's move and others, [`MOVES_LISTED`] in all.
    fn listed(&self, judge: &Judge, p: &Heaps, total: u128, opts: &Options) -> Result<Vec<MoveValue>, Error> {
        let g = &self.game;
        let winning = judge.winning(g, p);
        let stalling = if winning.is_empty() { stall(g, p) } else { None };
        let every = opts.all_moves || total <= MOVES_LISTED as u128;
        let moves = if every {
            let count = u64::try_from(total).unwrap_or(u64::MAX);
            opts.budget.check(
                &format!("listing the {total} moves of this position"),
                Cost {
                    positions: count,
                    bytes: count.saturating_mul(LISTED_BYTES),
                    seconds: 0.0,
                },
            )?;
            g.legal_moves(p)
        } else {
            let mut some: Vec<HeapMove> = winning.iter().copied().chain(stalling).collect();
            for i in 0..p.heaps.len() {
                // On a Nim heap only taking one token; on the others every move.
                for m in g.heap_moves(p, i, &[p.heaps[i].size.saturating_sub(1)]) {
                    if some.len() >= MOVES_LISTED {
                        break;
                    }
                    if !some.contains(&m) {
                        some.push(m);
                    }
                }
            }
            some.truncate(MOVES_LISTED);
            some
        };
        let mut rows: Vec<MoveValue> = moves
            .iter()
            .map(|m| {
                let wins = judge.lost(&g.play(p, m));
                MoveValue {
                    notation: g.format_move(p, m),
                    verdict: verdict(wins),
                    best: wins || (winning.is_empty() && stalling == Some(*m)),
                    note: Some(describe(p, m)),
                }
            })
            .collect();
        rows.sort_by_key(|row| row.verdict.value != Some("win"));
        Ok(rows)
    }
}

impl Session for HeapSession {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn seats(&self) -> usize {
        self.game.players()
    }

    fn players(&self) -> Vec<PlayerInfo> {
        let mut list = vec![PlayerInfo {
            name: "perfect",
            help: "a winning move by the heap values (at random among them); when lost, takes as few tokens as it can",
        }];
        list.extend(common::common_players());
        list
    }

    fn estimate(&self, _opts: &Options) -> Result<Cost, Error> {
        self.solved().map(|(_, cost)| *cost)
    }

    fn solve(&self, _opts: &Options) -> Result<Solution, Error> {
        let started = Instant::now();
        let (judge, cost) = self.solved()?;
        let g = &self.game;
        let start = g.start();
        Ok(Solution {
            game: self.spec.clone(),
            to_move: g.player_name(g.to_move(&start)),
            verdict: verdict(!judge.lost(&start)),
            positions: Big(u128::from(cost.positions)),
            solver: judge.method().to_string(),
            // The values may have been computed before, for an estimate.
            seconds: started.elapsed().as_secs_f64().max(cost.seconds),
            details: self.facts(judge, &start),
        })
    }

    fn position(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error> {
        let g = &self.game;
        let p = common::replay(g, g.start(), moves)?;
        let judge = self.judge()?;
        let outcome = g.outcome(&p);
        let total = g.move_count(&p);
        Ok(PositionView {
            game: self.spec.clone(),
            position: g.format_position(&p),
            board: g.render(&p),
            picture: g.picture(&p),
            to_move: g.player_name(g.to_move(&p)),
            terminal: outcome.is_some(),
            result: outcome.map(|o| common::outcome_words(g, o)),
            verdict: verdict(!judge.lost(&p)),
            points: None,
            moves: self.listed(judge, &p, total, opts)?,
            moves_total: Big(total),
            details: self.facts(judge, &p),
        })
    }

    fn tournament(
        &self,
        players: &[String],
        games: u64,
        seed: u64,
        _opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error> {
        self.check_start()?;
        self.roster().tournament(
            players,
            games,
            seed,
            |_| (self.game.clone(), self.game.start()),
            after,
        )
    }

    fn play(
        &self,
        seats: &[String],
        seed: u64,
        _opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error> {
        self.check_start()?;
        self.roster().play(&self.game, seats, seed, |_| None, io)
    }

    fn playout(&self, seed: u64) -> Result<usize, Error> {
        common::playout(&self.game, self.game.start(), seed)
    }

    fn bot_move(&self, moves: &[String], player: &str, seed: u64, _opts: &Options) -> Result<String, Error> {
        let g = &self.game;
        if !player.trim().eq_ignore_ascii_case("perfect") {
            let p = common::replay(g, g.start(), moves)?;
            let count = g.move_count(&p);
            if count > MAX_PLAYED {
                return Err(Error::TooBig(format!(
                    "this position has {count} legal moves; players other than perfect take at most {MAX_PLAYED}"
                )));
            }
        }
        self.roster().bot_move(g, moves, player, seed)
    }
}
