//! The contract of a way of solving: what a [`Strategy`] says, and what
//! [`super::GameSession`] does for it.

use crate::analysis::report::Forgiveness;
use crate::game::{Game, Notation};
use crate::play::Player;
use crate::session::{Cost, Counts, Fact, Found, Options, PositionView};
use crate::solve::{KeyFn, Limit};
use crate::table::db::Database;
use crate::Error;

use super::Tables;

/// A player made by name, or why it cannot play.
pub type Made<'s, G> = Result<Box<dyn Player<G> + 's>, Error>;

/// What differs between the ways of solving a game: how it solves, values positions, makes
/// its own players and finds its tables. [`GameSession`] does everything else, and owns
/// what every strategy would restate (the spec, the seats, the solver check, the budget
/// check before a solve). A strategy implements five methods; the others are hooks with
/// defaults, grouped by role.
pub trait Strategy: Send + Sync + Sized + 'static {
    /// The game played.
    type Game: Notation + Clone + Send + Sync + 'static;
    /// What answers read and a session keeps between them (a saved table, a book, values
    /// computed once); `()` for strategies that keep nothing.
    type Table: Send + Sync + 'static;

    // Required: the game, and how the strategy solves, values and plays it.
    /// The game played from its start, or why this session has none for `command` (it
    /// deals a game per tournament game).
    fn game(&self, command: &str) -> Result<&Self::Game, Error>;
    /// What solving from `start` will cost: the game's start, or the position of
    /// [`Options::position`].
    fn estimate(
        &self,
        start: &<Self::Game as Game>::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<Cost, Error>;
    /// Solves the game from `start` (the game's start, or the position of
    /// [`Options::position`]): the exact value of `start` for its mover. The session fills
    /// the position and who moves there.
    fn solve(
        &self,
        start: &<Self::Game as Game>::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<Found, Error>;
    /// The view of `p`, a position of [`Strategy::game`], with its moves valued.
    fn view(
        &self,
        p: &<Self::Game as Game>::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<PositionView, Error>;
    /// The first moves of `start` that a solve stopped before the end proved, kept where
    /// the same solve goes on from (a proof's checkpoint): the view of `start` with those
    /// moves valued and the others unknown; `None` where the strategy keeps none.
    fn proved_so_far(
        &self,
        _start: &<Self::Game as Game>::Position,
        _opts: &Options,
    ) -> Option<Result<PositionView, Error>> {
        None
    }
    /// The strategy's own player `name` (lower case), honouring `opts`' budget; `None` when
    /// the name is not one of its players.
    fn player<'s>(
        &'s self,
        name: &str,
        seed: u64,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Option<Made<'s, Self::Game>>;
    // What the game offers besides: solvers, default players, symmetry, points.
    /// The solvers `solve --solver` takes, the default first (empty: the game has one way).
    fn solvers(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Whether `solve` splits its work across processes by `Options::partition`.
    fn splits(&self) -> bool {
        false
    }
    /// The players of a tournament when none are named: one per seat.
    fn default_players(&self) -> Vec<String> {
        vec!["perfect".into(), "random".into()]
    }
    /// The representative of a position's class under the game's symmetries, for the graph
    /// up to symmetry; `None` when the strategy knows no symmetries of its game.
    fn symmetry(&self) -> Option<KeyFn<Self::Game>> {
        None
    }
    /// The points of every seat in `p`, in score games.
    fn points(&self, game: &Self::Game, p: &<Self::Game as Game>::Position) -> Option<Vec<i32>> {
        let _ = (game, p);
        None
    }
    /// The game's spec written one way for every spelling of it (keys in order, defaults
    /// given), which names and heads the files saved for it; `None`: the spec as given.
    fn canonical_spec(&self) -> Option<String> {
        None
    }
    // The table answers read: found, kept while current, measured.
    /// The table answers read, found now (or, for strategies that solve before they
    /// answer, made now); `None` when there is none.
    fn load(&self, opts: &Options) -> Result<Option<Self::Table>, Error> {
        let _ = opts;
        Ok(None)
    }
    /// Whether `table` still reads the files it was found in (a file replaced or rewritten
    /// since, say repaired, is found again).
    fn is_current(table: &Self::Table) -> bool {
        let _ = table;
        true
    }
    /// Bytes `table` holds in memory.
    fn held_bytes(table: &Self::Table) -> u64 {
        let _ = table;
        0
    }
    /// Forgiveness along perfect play from `start` in one pass over `table`, where the
    /// table allows it; `None` to walk position by position through [`Strategy::view`].
    fn forgiveness(
        &self,
        start: &<Self::Game as Game>::Position,
        table: &Self::Table,
        limit: &Limit,
    ) -> Option<Result<Forgiveness, Error>> {
        let _ = (start, table, limit);
        None
    }
    /// The saved database `table` reads, when it reads one.
    fn database(table: &Self::Table) -> Option<&Database> {
        let _ = table;
        None
    }
    /// Whether a position's legal moves may be listed without their values
    /// ([`Session::unvalued`](crate::session::Session::unvalued)); not where a position may have more moves than memory holds.
    fn lists_unvalued(&self) -> bool {
        true
    }
    // Games, tournaments and self-play: what they need, refuse and deal.
    /// What a game between `names` (lower case, as [`Strategy::player`] takes them) must
    /// solve before its first move; see [`Session::setup_cost`](crate::session::Session::setup_cost). Nothing by default.
    fn setup_cost(&self, names: &[String], opts: &Options, tables: &Tables<'_, Self>) -> Result<Cost, Error> {
        let _ = (names, opts, tables);
        Ok(Cost::default())
    }
    /// Refuses a game or tournament from `start` (the game's start, or the position of
    /// [`Options::position`]) when it cannot be played here (players that cannot play
    /// refuse when they are made, see [`Strategy::player`]).
    fn check_start(&self, start: &<Self::Game as Game>::Position) -> Result<(), Error> {
        let _ = start;
        Ok(())
    }
    /// Refuses the move of `player` in `p` when it cannot be made within `opts`' budget.
    fn check_bot(
        &self,
        p: &<Self::Game as Game>::Position,
        player: &str,
        opts: &Options,
    ) -> Result<(), Error> {
        let _ = (p, player, opts);
        Ok(())
    }
    /// The game of each tournament game between `names` from `seed`, by its number: the
    /// session's game unless the strategy deals others. A tournament from a position
    /// ([`Options::position`]) deals nothing: the position fixes the board, so every game
    /// is played on [`Strategy::game`] from it.
    fn dealer(&self, names: &[String], seed: u64) -> Result<Box<dyn FnMut(u64) -> Self::Game + '_>, Error> {
        let _ = (names, seed);
        let g = self.game("a tournament")?;
        Ok(Box::new(move |_| g.clone()))
    }
    /// The game of a self-play game between `names` from its own `seed` alone (games are
    /// played in any order, on any thread): the first game [`Strategy::dealer`] deals from
    /// `seed`, which is the session's game unless the strategy deals others.
    fn selfplay_game(&self, names: &[String], seed: u64) -> Result<Self::Game, Error> {
        Ok(self.dealer(names, seed)?(0))
    }
    /// What the standings of a tournament between `names` tell besides the tallies.
    fn tournament_facts(&self, names: &[String]) -> Vec<Fact> {
        let _ = names;
        Vec::new()
    }
    // Counting and checking saved tables.
    /// Counts positions and complete games; `None` when the strategy does not count.
    fn count(&self, symmetry: bool, opts: &Options) -> Option<Result<Counts, Error>> {
        let _ = (symmetry, opts);
        None
    }
    /// Re-solves `sample` random positions of `db`, a saved database of this game; `None`
    /// when the strategy saves no database.
    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Option<Result<u64, Error>> {
        let _ = (db, sample, seed);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::tests::Probe;
    use super::*;
    use crate::game::Notation;

    #[test]
    fn a_strategy_that_deals_nothing_plays_its_one_game_everywhere() {
        let session = Probe::session(false);
        let probe = &session.strategy;
        let start = probe.game.format_position(&probe.game.start());
        let mut deal = probe.dealer(&[], 7).unwrap();
        for i in [0, 1, 99] {
            let dealt = deal(i);
            assert_eq!(dealt.format_position(&dealt.start()), start);
        }
        let own = probe.selfplay_game(&[], 12).unwrap();
        assert_eq!(own.format_position(&own.start()), start);
    }

    #[test]
    fn the_defaults_offer_one_way_and_no_extras() {
        let session = Probe::session(false);
        let probe = &session.strategy;
        let start = probe.game.start();
        assert!(probe.solvers().is_empty() && !probe.splits());
        assert_eq!(probe.default_players(), ["perfect", "random"]);
        assert!(probe.symmetry().is_none());
        assert!(probe.points(&probe.game, &start).is_none());
        assert!(probe.count(false, &Options::default()).is_none());
        assert!(probe.check_start(&start).is_ok());
        assert!(probe.tournament_facts(&[]).is_empty());
        assert!(probe.lists_unvalued());
    }
}
