//! The typed results a session answers with: the same shapes for every game, so that a
//! front end renders them once (as text, as JSON by `serde`, or on a page).

use serde::Serialize;

use crate::analysis::stats::Share;
use crate::class::Class;
use crate::picture::Mark;
use crate::play::Results;

/// A count that may exceed 64 bits: a JSON number when it fits, a string of digits when not;
/// a count past 128 bits is [`Big::PAST`], written [`PAST_TEXT`] (counts that may grow so far
/// add up with `saturating_add`, which stops there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Big(pub u128);

/// How a count past 128 bits is written, in text and JSON: 2^128 − 1 is about
/// 3.403 × 10^38, so any count that reached it is more than 3.4 × 10^38.
pub const PAST_TEXT: &str = "more than 3.4 × 10^38";

impl Big {
    /// A count of 2^128 − 1 or more: too many for 128 bits to tell exactly.
    pub const PAST: Big = Big(u128::MAX);

    /// Whether the count is past what 128 bits tell exactly ([`Big::PAST`]).
    pub fn is_past(self) -> bool {
        self == Big::PAST
    }
}

impl Serialize for Big {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(self.0) {
            Ok(n) => s.serialize_u64(n),
            Err(_) if self.is_past() => s.serialize_str(PAST_TEXT),
            Err(_) => s.serialize_str(&self.0.to_string()),
        }
    }
}

impl schemars::JsonSchema for Big {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Big".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A count: a number, or a string of digits when it exceeds 64 bits; past 128 bits (2^128 - 1 or more), the string \"more than 3.4 × 10^38\".",
            "oneOf": [
                { "type": "integer", "minimum": 0 },
                { "type": "string", "pattern": "^[0-9]+$" },
                { "const": PAST_TEXT }
            ]
        })
    }
}

impl std::fmt::Display for Big {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_past() {
            return f.write_str(PAST_TEXT);
        }
        write!(f, "{}", self.0)
    }
}

/// A count and its noun, singular for one: "1 database", "2 databases", "1 class", "3
/// classes", "3 entries". Count phrases in what front ends and messages show are made by
/// it.
pub fn quantity(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        return format!("1 {noun}");
    }
    if let Some(stem) = noun
        .strip_suffix('y')
        .filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
    {
        return format!("{n} {stem}ies");
    }
    let ending = if ["s", "x", "z", "ch", "sh"].iter().any(|e| noun.ends_with(e)) {
        "es"
    } else {
        "s"
    };
    format!("{n} {noun}{ending}")
}

/// A game-specific fact (a board id, a nim-sum, a table file): shown as "label: value".
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Fact {
    /// A stable key for programs.
    pub key: String,
    /// What people read before the value.
    pub label: String,
    /// The value.
    pub value: FactValue,
}

/// The value of a [`Fact`].
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum FactValue {
    /// A whole number.
    Int(i64),
    /// A large count.
    Big(Big),
    /// A measurement.
    Real(f64),
    /// Text.
    Text(String),
    /// Whole numbers.
    List(Vec<i64>),
}

impl std::fmt::Display for FactValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FactValue::Int(n) => write!(f, "{n}"),
            FactValue::Big(n) => write!(f, "{n}"),
            FactValue::Real(x) => write!(f, "{x:.3}"),
            FactValue::Text(t) => write!(f, "{t}"),
            FactValue::List(v) => {
                let parts: Vec<String> = v.iter().map(i64::to_string).collect();
                write!(f, "{}", parts.join(" "))
            }
        }
    }
}

impl Fact {
    /// A fact with this key, label and value.
    pub fn new(key: &str, label: &str, value: FactValue) -> Self {
        Fact {
            key: key.into(),
            label: label.into(),
            value,
        }
    }
}

/// What a position is worth to the player to move (or a move to the player making it).
/// Fields a game cannot tell are `None`: remoteness for draws and heap games, the margin
/// outside score games, the value of positions too large to search.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Verdict {
    /// Who wins, for that player; `None` when not computed.
    pub value: Option<Class>,
    /// Moves to the end under best play.
    pub remoteness: Option<u32>,
    /// The final score lead under best play, in score games.
    pub margin: Option<i32>,
    /// The final scores by seat under best play, in score games.
    pub scores: Option<Vec<i32>>,
}

impl Verdict {
    /// How a move of this verdict is marked on a picture: its value, and its margin or
    /// remoteness.
    pub fn mark(&self) -> Mark {
        let text = match (self.margin, self.remoteness) {
            (Some(m), _) => format!("{m:+}"),
            (None, Some(r)) => r.to_string(),
            (None, None) => String::new(),
        };
        Mark {
            value: self.value,
            text,
        }
    }

    /// The verdict of an exact [`crate::Value`].
    pub fn of(v: crate::Value) -> Self {
        Verdict {
            value: Some(v.class()),
            remoteness: v.remoteness(),
            ..Verdict::default()
        }
    }

    /// The verdict of a final margin for that player.
    pub fn of_margin(margin: i32) -> Self {
        Verdict {
            value: Some(Class::of_lead(margin)),
            margin: Some(margin),
            ..Verdict::default()
        }
    }

    /// The final lead of the player this verdict is for, seated at `seat`: the margin
    /// where the game keeps one, else that seat's score less the best score of the
    /// others; `None` in games without points.
    pub fn lead(&self, seat: usize) -> Option<i32> {
        self.margin.or_else(|| {
            let scores = self.scores.as_deref()?;
            let mine = *scores.get(seat)?;
            let others = scores
                .iter()
                .enumerate()
                .filter(|&(s, _)| s != seat)
                .map(|(_, &x)| x)
                .max()?;
            Some(mine - others)
        })
    }

    /// Unknown: too large to compute here.
    pub fn unknown() -> Self {
        Verdict::default()
    }

    /// "win in 5", "draw", "win by 3", "2 to 1", or "unknown", for people.
    pub fn words(&self) -> String {
        let Some(value) = self.value else {
            return "unknown".into();
        };
        let mut s = value.to_string();
        if let Some(r) = self.remoteness {
            s += &format!(" in {r}");
        }
        if let Some(m) = self.margin.filter(|m| *m != 0) {
            s += &format!(" by {}", m.abs());
        }
        if let Some(sc) = &self.scores {
            let parts: Vec<String> = sc.iter().map(i32::to_string).collect();
            s += &format!(" ({})", parts.join(" to "));
        }
        s
    }
}

/// The result of solving a game from its start (or from the position of
/// [`super::Options::position`]).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Solution {
    /// The game spec.
    pub game: String,
    /// The position solved from, in the game's notation, when it is not the game's start
    /// (`None`: the start, as the spec gives it).
    pub position: Option<String>,
    /// Who moves first: the player to move in the position solved.
    pub to_move: String,
    /// The value for the player to move.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Positions solved or stored.
    pub positions: Big,
    /// The solver used.
    pub solver: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Game- and solver-specific facts.
    pub details: Vec<Fact>,
}

/// What a strategy's solve found: the value and how it was found. The session makes it a
/// [`Solution`], adding the game, the position and who moves there.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The value for the player to move.
    pub verdict: Verdict,
    /// Positions solved or stored.
    pub positions: Big,
    /// The solver used.
    pub solver: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Game- and solver-specific facts.
    pub details: Vec<Fact>,
}

impl Solution {
    /// The solution of the game `spec` from `position` (`None`: its start), where
    /// `to_move` moves, as a solve `found` it.
    pub fn new(spec: &str, position: Option<String>, to_move: String, found: Found) -> Solution {
        Solution {
            game: spec.to_string(),
            position,
            to_move,
            verdict: found.verdict,
            positions: found.positions,
            solver: found.solver,
            seconds: found.seconds,
            details: found.details,
        }
    }
}

/// A bot's move, and how it was chosen where that is not as asked (its search stopped
/// at the budget's limit, and it fell back on a move it could choose in time).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotMove {
    /// The move, in the game's notation.
    pub notation: String,
    /// How the move was chosen, when the player fell back; `None` for its own choice.
    pub note: Option<String>,
}

/// One legal move and what it is worth to the player making it.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MoveValue {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// Its value for the player making it.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Whether it is among the moves the perfect player picks from.
    pub best: bool,
    /// A word on the move for people ("take 4 from heap 2", "board id 123").
    pub note: Option<String>,
}

/// A position, its value, and every legal move with its value.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PositionView {
    /// The game spec.
    pub game: String,
    /// The position in the game's notation.
    pub position: String,
    /// A picture of the position for the terminal.
    pub board: String,
    /// A picture of the position for a board on screen, whose shapes may play moves;
    /// `None` for games without one.
    pub picture: Option<crate::picture::Picture>,
    /// Who is to move (when the game is over: whose turn it would be). The position's
    /// value is for this player.
    pub to_move: String,
    /// Whether the game is over.
    pub terminal: bool,
    /// How it ended, when it is over.
    pub result: Option<String>,
    /// The value for the player to move.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The points of every seat so far, in score games.
    pub points: Option<Vec<i32>>,
    /// The legal moves with their values, best first (perhaps not all: see `moves_total`).
    pub moves: Vec<MoveValue>,
    /// How many legal moves the position has.
    pub moves_total: Big,
    /// Game-specific facts.
    pub details: Vec<Fact>,
}

impl PositionView {
    /// The picture as an SVG document `pixels` wide, every listed move marked by its
    /// value; `None` for games without a picture.
    pub fn svg(&self, pixels: u32) -> Option<String> {
        let picture = self.picture.as_ref()?;
        let marks: std::collections::HashMap<&str, Mark> = self
            .moves
            .iter()
            .map(|m| (m.notation.as_str(), m.verdict.mark()))
            .collect();
        Some(picture.svg(pixels, |m| marks.get(m).cloned()))
    }
}

/// How many moves win, draw and lose for the player making them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MoveTally {
    /// Legal moves.
    pub total: u64,
    /// Moves that win.
    pub wins: u64,
    /// Moves that draw.
    pub draws: u64,
    /// Moves that lose.
    pub losses: u64,
}

impl MoveTally {
    /// The tally of `moves`.
    pub fn of(moves: &[MoveValue]) -> MoveTally {
        let count = |class| moves.iter().filter(|m| m.verdict.value == Some(class)).count() as u64;
        MoveTally {
            total: moves.len() as u64,
            wins: count(Class::Win),
            draws: count(Class::Draw),
            losses: count(Class::Lose),
        }
    }
}

/// The first player's moves from the start, each with its value.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FirstMoves {
    /// How many win, draw and lose.
    #[serde(flatten)]
    pub tally: MoveTally,
    /// How many keep the game's value.
    pub keeping: u64,
    /// "only K of N first moves keep the win", when not every move does.
    pub warning: Option<String>,
    /// Every first move, best first.
    pub moves: Vec<FirstMove>,
}

/// A first move, its value for the first player, and (at depth 2) the replies to it.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FirstMove {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// Its value for the first player.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The replies with their values for the player replying; `None` unless asked for, or
    /// when the move ends the game.
    pub replies: Option<Replies>,
}

/// The replies to a first move.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Replies {
    /// Who replies.
    pub to_move: String,
    /// How many win, draw and lose for the player replying.
    #[serde(flatten)]
    pub tally: MoveTally,
    /// Every reply, best first.
    pub moves: Vec<MoveValue>,
}

/// The game under the swap (pie) rule: after the first move the second player may take
/// over the first player's side.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SwapRule {
    /// The first moves that leave the game closest to even: a draw, else the smallest
    /// margin, else the longest game.
    pub fairest: Vec<String>,
    /// Whether one of them makes the game an exact draw.
    pub exact_draw: bool,
    /// The value of the game under the swap rule, for the first player.
    pub value: Verdict,
}

/// One setting of the key, solved.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Setting {
    /// The key's value.
    pub setting: String,
    /// The member's spec.
    pub game: String,
    /// Who moves first there.
    pub to_move: String,
    /// Its value for the first player.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// The game's value along one key.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Compensation {
    /// The key.
    pub key: String,
    /// How many settings the key was given.
    pub settings: u64,
    /// Whether the range was bisected (only the settings solved are listed).
    pub bisected: bool,
    /// The settings solved, in the key's order.
    pub solved: Vec<Setting>,
    /// The first setting whose result (win, draw or lose for the first player) differs
    /// from the first setting's; `None` when none does.
    pub changes_at: Option<String>,
    /// The settings closest to even: a draw, else the smallest margin, else the longest
    /// game.
    pub fairest: Vec<String>,
}

/// A designer's report on a game, from its strong solution.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DesignReport {
    /// The game spec.
    pub game: String,
    /// The first player: the player to move at the start.
    pub to_move: String,
    /// The value of the game for the first player.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The solver that gave the value.
    pub solver: String,
    /// Every first move's value.
    pub first_moves: FirstMoves,
    /// The game under the swap rule.
    pub swap: SwapRule,
    /// How forgiving the game is to each seat along perfect play; `None` when it was left
    /// out (see `notes`).
    pub forgiveness: Option<crate::analysis::report::Forgiveness>,
    /// The counts and SHA-256 of the solved values; `None` when it was left out (see
    /// `notes`).
    pub certificate: Option<crate::analysis::report::Certificate>,
    /// The game's value along one of its keys, when asked for (see
    /// [`crate::design::compensation`]).
    pub compensation: Option<Compensation>,
    /// How the seats fare between players good but not perfect, by self-play, when asked
    /// for (see [`super::strength`]).
    pub strengths: Option<Vec<super::strength::Strength>>,
    /// Why parts of the report were left out.
    pub notes: Vec<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Wins, draws and losses among a set of games or positions, seen from the first player.
#[derive(Clone, Debug, Default, Serialize, schemars::JsonSchema)]
pub struct Tally {
    /// How many in all.
    pub total: Big,
    /// How many of them ended (for positions: how many are terminal).
    pub terminal: Big,
    /// Ended with the first player winning.
    pub first_wins: Big,
    /// Ended with the second player winning.
    pub second_wins: Big,
    /// Ended level.
    pub draws: Big,
}

/// Counts of a game's positions and complete games.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Counts {
    /// The game spec.
    pub game: String,
    /// Whether positions were counted up to symmetry.
    pub symmetry: bool,
    /// Complete games (paths from the start to an end), when countable.
    pub games: Option<Tally>,
    /// Reachable positions, when enumerated.
    pub positions: Option<Tally>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Game-specific counts.
    pub details: Vec<Fact>,
}

/// The graph of a game from its start: every reachable position (or, up to symmetry,
/// every class of positions) a node, every move an edge. The start is node 0; ids grow
/// with the distance from it. Shaped for graph tools: nodes have an `id`, edges a `source`
/// and a `target`.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Graph {
    /// The game spec.
    pub game: String,
    /// Whether the nodes are classes of positions up to the game's symmetries.
    pub symmetry: bool,
    /// Always true: an edge runs from a position to the one its move leads to.
    pub directed: bool,
    /// Always false: the moves between the same two nodes are one edge (see its `count`).
    pub multigraph: bool,
    /// How many positions the nodes stand for (the reachable positions).
    pub positions: Big,
    /// How many seats the game has.
    pub seats: usize,
    /// The seats' names, in seat order (the `player` of nodes and edges, the names in a
    /// node's `result`).
    pub players: Vec<String>,
    /// The positions, or classes, the start first.
    pub nodes: Vec<GraphNode>,
    /// The moves, grouped by the node they leave.
    pub edges: Vec<GraphEdge>,
}

/// A node of a [`Graph`]: a position, or a class of positions shown by the first of them
/// reached from the start.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct GraphNode {
    /// Its number, from 0 (the start).
    pub id: u64,
    /// The position in the game's notation.
    pub position: String,
    /// The seat to move, from 0.
    pub seat: u8,
    /// The player to move (when the game is over: whose turn it would be).
    pub player: String,
    /// Whether the game is over.
    pub terminal: bool,
    /// How it ended, when it is over.
    pub result: Option<String>,
    /// The points of every seat, when it is over in a game with points.
    pub points: Option<Vec<i32>>,
    /// Who wins, for the player to move under perfect play, by retrograde analysis over
    /// the graph (a position from which neither side can force an end is a draw, as
    /// `solve` values it); `None` in games of more than two players.
    pub value: Option<Class>,
    /// Moves to the end under perfect play (the winner hurries, the loser delays); `None`
    /// for draws and where the value is `None`.
    pub remoteness: Option<u32>,
    /// How many reachable positions the node stands for (1 without symmetry).
    pub size: u64,
}

/// An edge of a [`Graph`]: the moves from a node's position into another node.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct GraphEdge {
    /// The node moved from.
    pub source: u64,
    /// The node moved to.
    pub target: u64,
    /// The move in the game's notation (the first, when several lead there).
    #[serde(rename = "move")]
    pub notation: String,
    /// The seat making it, from 0.
    pub seat: u8,
    /// The player making it.
    pub player: String,
    /// How many moves of the source's position lead to the target (with symmetry, moves
    /// to positions of the same class: the four corners of an empty tic-tac-toe board).
    pub count: u64,
}

/// Results over games, with the 95 % intervals of their shares.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct SeatResults {
    /// Games played.
    pub games: u64,
    /// Games won outright.
    pub wins: u64,
    /// Games whose win was shared.
    pub shared: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Points: a win 1, a draw 1/2, a win shared by `k` seats 1/`k`, a loss 0.
    pub points: f64,
    /// The share of games won outright (0..=1), with its interval.
    pub win_share: Share,
    /// Points per game (0..=1), with its interval.
    pub points_share: Share,
}

impl From<&Results> for SeatResults {
    fn from(t: &Results) -> SeatResults {
        SeatResults {
            games: t.games,
            wins: t.wins,
            shared: t.shared,
            draws: t.draws,
            losses: t.losses,
            points: t.points,
            win_share: Share::wilson(t.wins as f64, t.games),
            points_share: Share::wilson(t.points, t.games),
        }
    }
}

/// One player's record in a tournament.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct StandingRow {
    /// The player's name.
    pub player: String,
    /// Games won outright.
    pub wins: u64,
    /// Games whose win was shared.
    pub shared: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Games lost by forfeit (in `losses` too): an illegal move, no move in time, a
    /// program that ended.
    pub forfeits: u64,
    /// Why, with the games forfeited for each reason, the first met first.
    pub forfeit_reasons: Vec<ForfeitReason>,
    /// Percentages of all games.
    pub win_pct: f64,
    /// Shared wins in percent.
    pub shared_pct: f64,
    /// Draws in percent.
    pub draw_pct: f64,
    /// Losses in percent.
    pub loss_pct: f64,
    /// Points, as in [`SeatResults::points`].
    pub points: f64,
    /// Points per game (0..=1), with its interval.
    pub points_share: Share,
}

/// One seat's record in a tournament.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct SeatRow {
    /// The seat, from 0 (the first player's).
    pub seat: u8,
    /// What the game calls the seat's player (`X`, `White`, `player 2`).
    pub name: String,
    /// The results of whoever sat there.
    #[serde(flatten)]
    pub results: SeatResults,
    /// The results there of each player, in the order named.
    pub players: Vec<SeatPlayer>,
}

/// One player's results in one seat.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct SeatPlayer {
    /// The player's name.
    pub player: String,
    /// Its results in the seat.
    #[serde(flatten)]
    pub results: SeatResults,
}

/// A player's Bradley–Terry rating (see [`crate::analysis::rating`]).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct RatingRow {
    /// The player's name.
    pub player: String,
    /// The rating on the Elo scale, the ratings having mean 0.
    pub elo: f64,
    /// Its standard error.
    pub error: f64,
}

/// A tournament's result.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Standings {
    /// The game spec.
    pub game: String,
    /// The position every game started from, in the game's notation, when it is not the
    /// game's start.
    pub position: Option<String>,
    /// Games played.
    pub games: u64,
    /// One row per player, in the order named.
    pub players: Vec<StandingRow>,
    /// One row per seat, the first player's first.
    pub seats: Vec<SeatRow>,
    /// The players' ratings from their pairwise results, in games of more than two seats;
    /// `None` in games of two.
    pub ratings: Option<Vec<RatingRow>>,
    /// Game-specific facts (e.g. the board sizes drawn).
    pub details: Vec<Fact>,
}

/// A reason a player forfeited games of a tournament: an illegal move (which), no move in
/// time, a program that ended (with its exit status).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct ForfeitReason {
    /// The reason, as `play` says it.
    pub why: String,
    /// The games forfeited for it.
    pub games: u64,
}

/// A finished game played through a session.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct GameRecord {
    /// The game spec.
    pub game: String,
    /// The position the game started from, in the game's notation, when it is not the
    /// game's start.
    pub position: Option<String>,
    /// The players by seat.
    pub players: Vec<String>,
    /// The moves in order, in the game's notation.
    pub moves: Vec<String>,
    /// How it ended.
    pub result: String,
    /// Why a player forfeited the game, if one did.
    pub forfeit: Option<String>,
    /// The final points by seat, in score games.
    pub points: Option<Vec<i32>>,
}

pub use crate::spec::PlayerInfo;

#[cfg(test)]
mod tests {
    use super::quantity;

    #[test]
    fn counts_take_the_plural_except_for_one() {
        assert_eq!(quantity(1, "database"), "1 database");
        assert_eq!(quantity(0u64, "database"), "0 databases");
        assert_eq!(quantity(2usize, "point"), "2 points");
        assert_eq!(quantity(-1, "point"), "-1 points");
        assert_eq!(quantity(1u128, "class"), "1 class");
        assert_eq!(quantity(6, "class"), "6 classes");
        assert_eq!(quantity(3, "box"), "3 boxes");
        assert_eq!(quantity(3, "entry"), "3 entries");
        assert_eq!(quantity(1, "entry"), "1 entry");
        assert_eq!(quantity(2, "key"), "2 keys");
    }
}
