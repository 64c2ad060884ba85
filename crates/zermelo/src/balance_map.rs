//! The balance of any game that solves: every member of a [`Family`] of its boards solved
//! exactly from its start, each within a time and memory of its own, into a map of who
//! wins, in how many moves or by how much. Members over their budget are kept in the map
//! as skipped, with what solving them would cost; members the game refuses, as refused.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::session::{Big, Cost, Fact, MoveValue, Options, Solution, Verdict};
use crate::spec::Family;
use crate::{catalog, Class, Error};

/// How an estimate may exceed a member's time before the member is skipped unsolved:
/// estimates of searches are rough, so a member is tried unless it is far over.
const ESTIMATE_SLACK: f64 = 20.0;

/// What became of one member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Solved exactly.
    Solved,
    /// Over its time or memory: not solved.
    Skipped,
    /// Not a game the catalog opens, or one that does not solve (e.g. `k` over the board).
    Refused,
}

/// One member of a map: its spec, the keys that vary, and the fields of its solve.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct MapRow {
    /// The member's spec.
    pub game: String,
    /// The values of the family's varying keys for this member.
    pub keys: BTreeMap<String, String>,
    /// Solved, skipped or refused.
    pub status: Status,
    /// Who moves first.
    pub to_move: Option<String>,
    /// The value for the first player, when solved.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Positions solved or stored, when solved.
    pub positions: Option<Big>,
    /// The solver used, when solved.
    pub solver: Option<String>,
    /// Wall-clock seconds spent on the member.
    pub seconds: f64,
    /// Game- and solver-specific facts of the solve.
    pub details: Vec<Fact>,
    /// What solving it was estimated to cost, when it was not solved.
    pub estimate: Option<Cost>,
    /// Why it was skipped or refused.
    pub reason: Option<String>,
    /// The value of every first move for the first player, when solved (unknown, each
    /// listed, where valuing them ran past the member's time); none otherwise.
    pub first_moves: Vec<MoveValue>,
    /// What its designer's report adds (`balance --report`), when asked for and the
    /// member was solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<MemberReport>,
}

/// What a member's designer's report adds to its row ([`add_reports`]).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct MemberReport {
    /// Its first moves.
    pub first_moves: u64,
    /// The first moves that keep its value.
    pub keeping: u64,
    /// Each seat's mean share of moves that keep the value along perfect play, in seat
    /// order; `None` when the forgiveness was left out (over the member's time).
    pub safe: Option<Vec<f64>>,
    /// The SHA-256 of its certificate; `None` when it was left out.
    pub sha256: Option<String>,
    /// Why parts of the report were left out, or why there is none.
    pub notes: Vec<String>,
}

impl MemberReport {
    fn of(r: crate::session::DesignReport) -> Self {
        MemberReport {
            first_moves: r.first_moves.tally.total,
            keeping: r.first_moves.keeping,
            safe: r.forgiveness.map(|f| f.seats.iter().map(|s| s.safe).collect()),
            sha256: r.certificate.map(|c| c.sha256),
            notes: r.notes,
        }
    }
}

/// Adds its designer's report to every solved member of `map`, each within `seconds`;
/// `each` sees every member as it is done. A member whose report fails (over its time,
/// a game without one) gets one without its parts, the reason in its notes.
pub fn add_reports(
    map: &mut BalanceMap,
    opts: &Options,
    seconds: f64,
    each: &mut dyn FnMut(usize, usize, &MapRow),
) -> Result<(), Error> {
    let n = map.members.len();
    for (i, row) in map.members.iter_mut().enumerate() {
        if opts.budget.cancelled() {
            return Err(Error::Cancelled);
        }
        if row.status == Status::Solved {
            let mut member = opts.clone();
            member.budget.seconds = Some(seconds);
            let report = catalog::open(&row.game).and_then(|s| s.report(1, &member));
            row.report = Some(match report {
                Ok(r) => MemberReport::of(r),
                Err(Error::Cancelled) if opts.budget.cancelled() => return Err(Error::Cancelled),
                Err(e @ (Error::Io(..) | Error::Database { .. })) => return Err(e),
                Err(e) => MemberReport {
                    first_moves: 0,
                    keeping: 0,
                    safe: None,
                    sha256: None,
                    notes: vec![e.to_string()],
                },
            });
        }
        each(i, n, row);
    }
    Ok(())
}

impl MapRow {
    fn unsolved(game: String, keys: BTreeMap<String, String>, status: Status, reason: String) -> Self {
        MapRow {
            game,
            keys,
            status,
            to_move: None,
            verdict: Verdict::default(),
            positions: None,
            solver: None,
            seconds: 0.0,
            details: Vec::new(),
            estimate: None,
            reason: Some(reason),
            first_moves: Vec::new(),
            report: None,
        }
    }

    fn solved(keys: BTreeMap<String, String>, s: Solution, first_moves: Vec<MoveValue>) -> Self {
        MapRow {
            game: s.game,
            keys,
            status: Status::Solved,
            to_move: Some(s.to_move),
            verdict: s.verdict,
            positions: Some(s.positions),
            solver: Some(s.solver),
            seconds: s.seconds,
            details: s.details,
            estimate: None,
            reason: None,
            first_moves,
            report: None,
        }
    }
}

/// A family's balance map.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct BalanceMap {
    /// The family spec as given.
    pub family: String,
    /// The keys that vary, in the family's order.
    pub keys: Vec<String>,
    /// The seconds each member may take.
    pub member_seconds: f64,
    /// The memory each member may take, in bytes.
    pub member_bytes: u64,
    /// Members the first player wins.
    pub first_wins: u64,
    /// Members drawn.
    pub draws: u64,
    /// Members the second player wins.
    pub second_wins: u64,
    /// Members over their budget.
    pub skipped: u64,
    /// Members the game refuses.
    pub refused: u64,
    /// Wall-clock seconds of the whole map.
    pub seconds: f64,
    /// One row per member, the first key varying slowest.
    pub members: Vec<MapRow>,
}

/// Solves every member of `family` from its start under `opts` (its data folder, whether
/// to save, its memory and cancel flag), each within `seconds`; `each` sees every member
/// as it is done, with its number and the number of members. Stops with an error when
/// cancelled, on a fault (a damaged table, an I/O error), or when every member is refused
/// (then the family is mistyped: the first reason is the error).
pub fn map(
    family_text: &str,
    opts: &Options,
    seconds: f64,
    each: &mut dyn FnMut(usize, usize, &MapRow),
) -> Result<BalanceMap, Error> {
    let seconds = crate::limits::Seconds::WORK.check(seconds)?;
    let family: Family = family_text.parse()?;
    let started = Instant::now();
    let members = family.members();
    let mut rows = Vec::with_capacity(members.len());
    for (i, member) in members.iter().enumerate() {
        if opts.budget.cancelled() {
            return Err(Error::Cancelled);
        }
        let keys: BTreeMap<String, String> = member.keys.iter().cloned().collect();
        let row = solve_member(&member.spec.to_string(), keys, opts, seconds)?;
        each(i, members.len(), &row);
        rows.push(row);
    }
    if let Some(first) = rows
        .first()
        .filter(|_| rows.iter().all(|r| r.status == Status::Refused))
    {
        // Every member refused alike: the first one's reason, as the error of a spec.
        let reason = first.reason.as_deref().unwrap_or_default();
        return Err(Error::Spec(
            reason
                .strip_prefix("bad game spec: ")
                .unwrap_or(reason)
                .to_string(),
        ));
    }
    let value = |class| rows.iter().filter(|r| r.verdict.value == Some(class)).count() as u64;
    let status = |s: Status| rows.iter().filter(|r| r.status == s).count() as u64;
    Ok(BalanceMap {
        family: family_text.trim().to_string(),
        keys: family.varying().iter().map(|k| k.to_string()).collect(),
        member_seconds: seconds,
        member_bytes: opts.budget.bytes(),
        first_wins: value(Class::Win),
        draws: value(Class::Draw),
        second_wins: value(Class::Lose),
        skipped: status(Status::Skipped),
        refused: status(Status::Refused),
        seconds: started.elapsed().as_secs_f64(),
        members: rows,
    })
}

/// One member solved, skipped or refused.
fn solve_member(
    spec: &str,
    keys: BTreeMap<String, String>,
    opts: &Options,
    seconds: f64,
) -> Result<MapRow, Error> {
    let refused = |e: Error| MapRow::unsolved(spec.to_string(), keys.clone(), Status::Refused, e.to_string());
    let session = match catalog::open(spec) {
        Ok(s) => s,
        Err(e) => return Ok(refused(e)),
    };
    let cost = match session.estimate(opts) {
        Ok(c) => c,
        Err(e) => return Ok(refused(e)),
    };
    let skipped = |reason: String, spent: f64| MapRow {
        seconds: spent,
        estimate: Some(cost),
        ..MapRow::unsolved(spec.to_string(), keys.clone(), Status::Skipped, reason)
    };
    let memory = opts.budget.bytes();
    if cost.bytes > memory {
        return Ok(skipped(
            format!(
                "needs about {} of memory, more than the {} a member may take",
                crate::session::bytes_text(cost.bytes),
                crate::session::bytes_text(memory)
            ),
            0.0,
        ));
    }
    if cost.seconds > ESTIMATE_SLACK * seconds {
        return Ok(skipped(
            format!(
                "would take about {:.0} s, far more than the {seconds} s a member may take",
                cost.seconds
            ),
            0.0,
        ));
    }
    let started = Instant::now();
    let mut member = opts.clone();
    // A deadline, not a limit on estimates: the member is tried, and stops at its time.
    member.budget.ends = Some(started + Duration::from_secs_f64(seconds));
    match session.solve(&member) {
        Ok(solution) => {
            // Every first move's value within what is left of the member's time; listed
            // unvalued where that runs out.
            let first_moves = match session.position(&[], &member) {
                Ok(view) => view.moves,
                Err(Error::TooBig(_) | Error::Cancelled) if !opts.budget.cancelled() => session
                    .unvalued(&[], &member)
                    .map(|v| v.moves)
                    .unwrap_or_default(),
                Err(e @ (Error::Io(..) | Error::Database { .. })) => return Err(e),
                Err(_) => Vec::new(),
            };
            let mut row = MapRow::solved(keys, solution, first_moves);
            row.seconds = started.elapsed().as_secs_f64();
            Ok(row)
        }
        Err(e @ (Error::TooBig(_) | Error::Cancelled)) if !opts.budget.cancelled() => {
            let spent = started.elapsed().as_secs_f64();
            let reason = match e {
                Error::TooBig(why) if spent < seconds / 2.0 => why.to_string(),
                _ => format!("not solved within the {seconds} s a member may take"),
            };
            Ok(skipped(reason, spent))
        }
        Err(e @ (Error::Spec(_) | Error::Unsupported(_) | Error::Position { .. })) => Ok(refused(e)),
        Err(e) => Err(e),
    }
}
