//! The table a session holds between answers: found once, kept, forgotten when it fails.

use std::sync::{Arc, Mutex};

use crate::session::Options;
use crate::Error;

use super::Strategy;

/// The table a session holds, and how to find it: a strategy asks for it when it needs it,
/// and it is found once, kept, and forgotten when it fails.
pub struct Tables<'a, S: Strategy> {
    pub(super) held: &'a Mutex<Option<Arc<S::Table>>>,
    pub(super) strategy: &'a S,
    pub(super) spec: &'a str,
    pub(super) opts: &'a Options,
}

impl<S: Strategy> Tables<'_, S> {
    /// The held table, if any and still current, without looking for one.
    pub fn held(&self) -> Option<Arc<S::Table>> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.clone().filter(|t| S::is_current(t))
    }

    /// The held table, or the one [`Strategy::load`] finds now (then held); a table
    /// not found is looked for once in a command or request ([`Options::absent`]).
    pub fn get(&self) -> Result<Option<Arc<S::Table>>, Error> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = held.as_ref().filter(|t| S::is_current(t)) {
            return Ok(Some(t.clone()));
        }
        let absent = &self.opts.absent;
        if absent.has(&self.opts.data_dir, self.spec) {
            *held = None;
            return Ok(None);
        }
        let loaded = self.strategy.load(self.opts)?.map(Arc::new);
        absent.set(&self.opts.data_dir, self.spec, loaded.is_some());
        held.clone_from(&loaded);
        Ok(loaded)
    }

    /// Keeps `table` for later answers, instead of the one held.
    pub fn keep(&self, table: S::Table) -> Arc<S::Table> {
        let table = Arc::new(table);
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = Some(table.clone());
        self.opts.absent.set(&self.opts.data_dir, self.spec, true);
        table
    }

    /// Drops the held table: the next answer looks for it again.
    pub fn forget(&self) {
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.opts.absent.set(&self.opts.data_dir, self.spec, true);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::super::{GameSession, Made};
    use super::*;
    use crate::game::Game;
    use crate::games::mnk::Mnk;
    use crate::session::{Cost, Found, PositionView};

    /// A strategy that answers nothing but counts how often its table is looked for: its
    /// table is the number of the look that found it.
    pub(in crate::session::engine) struct Probe {
        pub game: Mnk,
        pub finds: bool,
        pub loads: AtomicU32,
    }

    impl Probe {
        pub fn session(finds: bool) -> GameSession<Probe> {
            let info = crate::catalog::entry_named("tictactoe").unwrap().info;
            let probe = Probe {
                game: Mnk::tictactoe(),
                finds,
                loads: AtomicU32::new(0),
            };
            GameSession::new(info, "tictactoe", 2, probe)
        }
    }

    impl Strategy for Probe {
        type Game = Mnk;
        type Table = u32;

        fn game(&self, _command: &str) -> Result<&Mnk, Error> {
            Ok(&self.game)
        }
        fn estimate(
            &self,
            _: &<Mnk as Game>::Position,
            _: &Options,
            _: &Tables<'_, Self>,
        ) -> Result<Cost, Error> {
            Ok(Cost::default())
        }
        fn solve(
            &self,
            _: &<Mnk as Game>::Position,
            _: &Options,
            _: &Tables<'_, Self>,
        ) -> Result<Found, Error> {
            Err(Error::Unsupported("the probe solves nothing".into()))
        }
        fn view(
            &self,
            _: &<Mnk as Game>::Position,
            _: &Options,
            _: &Tables<'_, Self>,
        ) -> Result<PositionView, Error> {
            Err(Error::Unsupported("the probe values nothing".into()))
        }
        fn player<'s>(&'s self, _: &str, _: u64, _: &Options, _: &Tables<'_, Self>) -> Option<Made<'s, Mnk>> {
            None
        }
        fn load(&self, _opts: &Options) -> Result<Option<u32>, Error> {
            let look = self.loads.fetch_add(1, Ordering::SeqCst) + 1;
            Ok(self.finds.then_some(look))
        }
        fn held_bytes(table: &u32) -> u64 {
            u64::from(*table) * 100
        }
    }

    /// Options reading and writing nothing.
    pub(in crate::session::engine) fn quiet() -> Options {
        Options {
            save: false,
            data_dir: std::env::temp_dir().join("zermelo-engine-tests-absent"),
            ..Options::default()
        }
    }

    #[test]
    fn a_table_found_is_looked_for_once_and_held() {
        let session = Probe::session(true);
        let opts = quiet();
        let tables = session.tables(&opts);
        assert!(tables.held().is_none());
        assert_eq!(tables.get().unwrap().as_deref(), Some(&1));
        assert_eq!(tables.get().unwrap().as_deref(), Some(&1));
        assert_eq!(tables.held().as_deref(), Some(&1));
        assert_eq!(session.strategy.loads.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_table_not_found_is_not_looked_for_again_in_the_same_request() {
        let session = Probe::session(false);
        let opts = quiet();
        assert!(session.tables(&opts).get().unwrap().is_none());
        assert!(session.tables(&opts).get().unwrap().is_none());
        assert_eq!(session.strategy.loads.load(Ordering::SeqCst), 1);
        // A new request looks again.
        assert!(session.tables(&quiet()).get().unwrap().is_none());
        assert_eq!(session.strategy.loads.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_kept_table_is_held_and_a_forgotten_one_found_again() {
        let session = Probe::session(true);
        let opts = quiet();
        let tables = session.tables(&opts);
        assert_eq!(*tables.keep(40), 40);
        assert_eq!(tables.get().unwrap().as_deref(), Some(&40));
        assert_eq!(session.strategy.loads.load(Ordering::SeqCst), 0);
        tables.forget();
        assert!(tables.held().is_none());
        assert_eq!(tables.get().unwrap().as_deref(), Some(&1));
        assert_eq!(session.strategy.loads.load(Ordering::SeqCst), 1);
    }
}
