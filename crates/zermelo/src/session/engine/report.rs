//! The designer's report of a two-seat game: first moves, the swap rule, forgiveness and
//! the certificate of the solved values.

use std::time::{Duration, Instant};

use crate::analysis::graph;
use crate::analysis::report::{self as design, Certificate, Forgiveness};
use crate::error::{Part, Said};
use crate::game::{Game, Notation};
use crate::session::common;
use crate::session::{
    DesignReport, FirstMove, FirstMoves, MoveTally, MoveValue, Options, Replies, Session, SwapRule, Verdict,
};
use crate::solve::Limit;
use crate::{Class, Error};

use super::game_graph::GRAPH_BYTES;
use super::{GameSession, Strategy};

/// The most positions a report walks along perfect play position by position (a level
/// table is walked whole, in one pass).
const REPORT_SUBGRAPH: u64 = 1_000_000;
/// The most seconds a report's walk along perfect play, or its certificate, takes when
/// the budget sets none.
const REPORT_PART_SECONDS: f64 = 60.0;
/// Bytes a report keeps per position of the perfect-play subgraph, about.
const SUBGRAPH_BYTES: u64 = 128;
/// The most positions a certificate explores when no saved table holds the values.
const CERTIFIED_POSITIONS: u64 = 2_000_000;

impl<S: Strategy> GameSession<S> {
    pub(super) fn report_of(&self, depth: u32, opts: &Options) -> Result<DesignReport, Error> {
        let started = Instant::now();
        let spec = self.spec();
        if self.seats != 2 {
            return Err(Error::Unsupported(format!(
                "a report needs a game of two seats; {spec} has {}",
                self.seats
            )));
        }
        if !(1..=2).contains(&depth) {
            return Err(Error::bad_option(
                "depth",
                Some(&depth.to_string()),
                "give 1 or 2",
            ));
        }
        let game = self.strategy.game("a report")?;
        let solution = match self.solve(opts) {
            Err(Error::TooBig(why)) => return self.stopped_report(game, why, opts, started),
            solution => solution?,
        };
        let opts = Options {
            all_moves: true,
            ..opts.clone()
        };
        let view = |p: &<S::Game as Game>::Position| self.view_of(p, &opts);
        let start = common::start(game, &opts)?;
        let first = view(&start)?;
        let class = class_of(&first.verdict)?;
        let moves = first
            .moves
            .iter()
            .map(|m| {
                let replies = match depth {
                    2 => {
                        let child = common::replay(game, start.clone(), std::slice::from_ref(&m.notation))?;
                        let reply = view(&child)?;
                        (!reply.terminal).then(|| Replies {
                            to_move: reply.to_move.clone(),
                            tally: MoveTally::of(&reply.moves),
                            moves: reply.moves,
                        })
                    }
                    _ => None,
                };
                Ok(FirstMove {
                    notation: m.notation.clone(),
                    verdict: m.verdict.clone(),
                    replies,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let keeping = first
            .moves
            .iter()
            .filter(|m| class_of(&m.verdict).ok() == Some(class))
            .count() as u64;
        let total = first.moves.len() as u64;
        let warning = (keeping < total).then(|| {
            format!(
                "only {keeping} of {total} first moves keep the {}",
                solution.verdict.value.map_or("value", Class::word)
            )
        });
        let mut notes = Vec::new();
        let forgiveness = self.forgiveness_of(game, &start, &opts, &mut notes)?;
        let certificate = left_out(self.certificate_of(&opts), "certificate", &mut notes)?;
        Ok(DesignReport {
            game: spec.to_string(),
            to_move: first.to_move.clone(),
            verdict: solution.verdict,
            solver: solution.solver,
            first_moves: FirstMoves {
                tally: MoveTally::of(&first.moves),
                keeping,
                warning,
                moves,
            },
            swap: swap_rule(&first.moves)?,
            forgiveness,
            certificate,
            compensation: None,
            strengths: None,
            notes,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// The report of a game whose solve stopped at the budget (`why`): the first moves
    /// proved so far, where the strategy keeps them and proved any ([`Strategy::proved_so_far`]);
    /// else the refusal.
    pub(super) fn stopped_report(
        &self,
        game: &S::Game,
        why: crate::error::Said,
        opts: &Options,
        started: Instant,
    ) -> Result<DesignReport, Error> {
        let start = common::start(game, opts)?;
        let Some(view) = self.strategy.proved_so_far(&start, opts) else {
            return Err(Error::TooBig(why));
        };
        let view = view?;
        let proved = view.moves.iter().filter(|m| m.verdict.value.is_some()).count();
        if proved == 0 {
            return Err(Error::TooBig(why));
        }
        let keeping = view
            .moves
            .iter()
            .filter(|m| view.verdict.value.is_some() && m.verdict.value == view.verdict.value)
            .count() as u64;
        Ok(DesignReport {
            game: self.spec().to_string(),
            to_move: view.to_move.clone(),
            verdict: view.verdict.clone(),
            solver: "stopped before the end".into(),
            first_moves: FirstMoves {
                tally: MoveTally::of(&view.moves),
                keeping,
                warning: Some(format!(
                    "{why}: {proved} of {} first moves proved so far",
                    view.moves.len()
                )),
                moves: view
                    .moves
                    .iter()
                    .map(|m| FirstMove {
                        notation: m.notation.clone(),
                        verdict: m.verdict.clone(),
                        replies: None,
                    })
                    .collect(),
            },
            swap: SwapRule {
                fairest: Vec::new(),
                exact_draw: false,
                value: Verdict::unknown(),
            },
            forgiveness: None,
            certificate: None,
            compensation: None,
            strengths: None,
            notes: vec![
                "the swap rule, forgiveness and certificate are left out: the solve stopped before the end"
                    .into(),
            ],
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Forgiveness along perfect play from `start`, every position's moves valued as
    /// [`Session::position`] values them; left out (with a note) when too big.
    pub(super) fn forgiveness_of(
        &self,
        game: &S::Game,
        start: &<S::Game as Game>::Position,
        opts: &Options,
        notes: &mut Vec<String>,
    ) -> Result<Option<Forgiveness>, Error> {
        let tables = self.tables(opts);
        let limit = part_limit(opts, SUBGRAPH_BYTES);
        let stopped = |e| match e {
            Error::TooBig(_) => Error::TooBig(Said(vec![
                Part::Text(format!(
                    "the perfect-play subgraph of {} takes more than the time or memory a report \
                     may give it ({REPORT_PART_SECONDS} s unless ",
                    self.spec()
                )),
                Part::Option("seconds"),
                Part::Text(" says)".into()),
            ])),
            e => e,
        };
        if let Some(table) = tables.get()? {
            if let Some(walked) = self.strategy.forgiveness(start, &table, &limit) {
                return left_out(walked.map_err(stopped), "forgiveness", notes);
            }
        }
        let moves_of = |p: &<S::Game as Game>::Position| {
            let view = self.view_of(p, opts)?;
            view.moves
                .iter()
                .map(|m| Ok((game.parse_move(p, &m.notation)?, class_of(&m.verdict)?.sign())))
                .collect::<Result<Vec<_>, Error>>()
        };
        let walked = design::forgiveness(game, start, moves_of, REPORT_SUBGRAPH, &limit).map_err(stopped);
        left_out(walked, "forgiveness", notes)
    }

    /// The certificate of the solved values: over the saved table by rank when the session
    /// reads one, else over every position reachable from the start.
    pub(super) fn certificate_of(&self, opts: &Options) -> Result<Certificate, Error> {
        if let Some(table) = self.tables(opts).get()? {
            if let Some(db) = S::database(&table).filter(|db| Certificate::certifies(db)) {
                return Certificate::of_database(db);
            }
        }
        let game = self.strategy.game("a certificate")?;
        let explored = graph::explore(
            game,
            &game.start(),
            None,
            CERTIFIED_POSITIONS,
            &part_limit(opts, GRAPH_BYTES),
            opts.progress.as_ref(),
        )
        .map_err(|e| match e {
            Error::TooBig(_) => Error::too_big(format!(
                "valuing every position of {} takes more than the time or memory a report may give it",
                self.spec()
            )),
            e => e,
        })?
        .ok_or_else(|| {
            Error::too_big(format!(
                "{} has more than {CERTIFIED_POSITIONS} positions and no saved table to certify",
                self.spec()
            ))
        })?;
        Ok(Certificate::of_positions(
            explored
                .nodes
                .iter()
                .map(|n| {
                    let p = &n.position;
                    (game.format_position(p), game.outcome(p).is_some(), n.value)
                })
                .collect(),
        ))
    }
}

/// The limit of one part of a report: `opts`' budget, and [`REPORT_PART_SECONDS`] when it
/// sets no time.
pub(super) fn part_limit(opts: &Options, entry_bytes: u64) -> Limit {
    let limit = opts.budget.limit(entry_bytes);
    Limit {
        deadline: limit
            .deadline
            .or_else(|| Some(Instant::now() + Duration::from_secs_f64(REPORT_PART_SECONDS))),
        ..limit
    }
}

/// Who wins by a move; an error for a value not known.
pub(super) fn class_of(v: &Verdict) -> Result<Class, Error> {
    v.value
        .ok_or_else(|| Error::Unsupported("a report needs the exact value of every move".into()))
}

/// `part` of a report, or `None` with a note on why it was left out when it is too big.
pub(super) fn left_out<T>(
    part: Result<T, Error>,
    name: &str,
    notes: &mut Vec<String>,
) -> Result<Option<T>, Error> {
    match part {
        Ok(t) => Ok(Some(t)),
        Err(Error::TooBig(why)) => {
            notes.push(format!("{name} left out: {why}"));
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The game under the swap rule, from the first moves and their values.
pub(super) fn swap_rule(moves: &[MoveValue]) -> Result<SwapRule, Error> {
    // First moves are the first seat's.
    let lead = |v: &Verdict| v.lead(0);
    let keys = moves
        .iter()
        .map(|m| {
            Ok(design::pie_key(
                class_of(&m.verdict)?,
                lead(&m.verdict),
                m.verdict.remoteness,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let fairest = design::pie_order(&keys);
    let exact_draw = fairest.first().is_some_and(|&i| !keys[i].0);
    // The second player takes whichever side is better: the first player is left the worse.
    let value = match fairest.first() {
        None => Verdict::unknown(),
        Some(_) if exact_draw => Verdict {
            value: Some(Class::Draw),
            margin: lead(&moves[fairest[0]].verdict).map(|_| 0),
            ..Verdict::default()
        },
        Some(&i) => Verdict {
            value: Some(Class::Lose),
            remoteness: moves[i].verdict.remoteness,
            margin: lead(&moves[i].verdict).map(|m| -m.abs()),
            scores: None,
        },
    };
    Ok(SwapRule {
        fairest: fairest.iter().map(|&i| moves[i].notation.clone()).collect(),
        exact_draw,
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tables::tests::quiet;
    use super::*;

    fn first_move(notation: &str, value: Class, remoteness: Option<u32>, margin: Option<i32>) -> MoveValue {
        MoveValue {
            notation: notation.into(),
            verdict: Verdict {
                value: Some(value),
                remoteness,
                margin,
                scores: None,
            },
            best: false,
            note: None,
        }
    }

    #[test]
    fn the_swap_rule_leaves_the_first_player_the_longest_loss_or_the_smallest_lead() {
        let moves = [
            first_move("a", Class::Win, Some(3), None),
            first_move("b", Class::Lose, Some(5), None),
            first_move("c", Class::Win, Some(7), None),
        ];
        let swap = swap_rule(&moves).unwrap();
        assert_eq!(swap.fairest, ["c"]);
        assert!(!swap.exact_draw);
        assert_eq!(
            (swap.value.value, swap.value.remoteness),
            (Some(Class::Lose), Some(7))
        );
        let scored = [
            first_move("x", Class::Win, None, Some(4)),
            first_move("y", Class::Lose, None, Some(-1)),
            first_move("z", Class::Draw, None, Some(0)),
        ];
        let swap = swap_rule(&scored).unwrap();
        assert_eq!(
            (swap.fairest.as_slice(), swap.exact_draw),
            (&["z".to_string()][..], true)
        );
        assert_eq!(
            (swap.value.value, swap.value.margin),
            (Some(Class::Draw), Some(0))
        );
        let unknown = [MoveValue {
            verdict: Verdict::unknown(),
            ..first_move("u", Class::Draw, None, None)
        }];
        assert!(swap_rule(&unknown).is_err());
    }

    #[test]
    fn a_report_agrees_with_the_position_its_graph_and_its_swap_rule() {
        let session = crate::catalog::open("tictactoe").unwrap();
        let opts = quiet();
        let report = session.report(2, &opts).unwrap();
        let all = Options {
            all_moves: true,
            ..quiet()
        };
        let start = session.position(&[], &all).unwrap();
        assert_eq!(report.verdict.value, start.verdict.value);
        let listed: Vec<_> = start.moves.iter().map(|m| (&m.notation, &m.verdict)).collect();
        let reported: Vec<_> = report
            .first_moves
            .moves
            .iter()
            .map(|m| (&m.notation, &m.verdict))
            .collect();
        assert_eq!(reported, listed);
        let keeping = start
            .moves
            .iter()
            .filter(|m| m.verdict.value == start.verdict.value)
            .count();
        assert_eq!(report.first_moves.keeping, keeping as u64);
        assert_eq!(report.swap, swap_rule(&start.moves).unwrap());
        // At depth 2 every reply is listed, valued as the position after the first move.
        let first = &report.first_moves.moves[0];
        let replies = first.replies.as_ref().unwrap();
        let after = session
            .position(std::slice::from_ref(&first.notation), &all)
            .unwrap();
        assert_eq!(replies.moves.len(), after.moves.len());
        // The certificate values every position the graph has.
        let certificate = report.certificate.unwrap();
        let graph = session.graph(false, CERTIFIED_POSITIONS, &opts).unwrap();
        assert_eq!(certificate.positions, graph.nodes.len() as u64);
        assert_eq!(
            certificate.wins + certificate.draws + certificate.losses,
            certificate.positions
        );
    }

    #[test]
    fn reports_need_two_seats_and_a_depth_of_one_or_two() {
        let opts = quiet();
        let tictactoe = crate::catalog::open("tictactoe").unwrap();
        assert!(tictactoe.report(3, &opts).is_err());
        assert!(tictactoe.report(0, &opts).is_err());
        let three = crate::catalog::open("bigpoints:players=3,board=1221").unwrap();
        let refused = three.report(1, &opts).unwrap_err();
        assert!(refused.to_string().contains("two seats"), "{refused}");
    }
}
