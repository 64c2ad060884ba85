//! Solvers, each generic over the game and asking only for the capabilities it needs.
//!
//! - [`minimax`]: plain minimax, the reference every other solver is checked against;
//! - [`memo`]: depth-first negamax with memoisation, for acyclic games;
//! - [`levels`]: level-by-level backward induction into a compact table, for games whose
//!   positions form levels;
//! - [`retrograde`]: backward induction over a dense index, also for games with cycles;
//! - [`search`]: alpha-beta with a transposition table, for games too big to tabulate;
//! - [`scores`]: final score pairs under a pluggable decision rule, for score games
//!   that need not be zero-sum;
//! - [`grundy`]: Sprague–Grundy values of impartial games, and periods of value sequences;
//! - [`margin`]: alpha-beta over score margins, for score games such as Dots and Boxes;
//! - [`margin_table`]: retrograde analysis of those margins into a table of every rank;
//! - [`nullwindow`]: null-window search over margins with a fixed-size table shared by
//!   every core, for the largest searches (Dots and Boxes 4 × 4 boxes, m,n,k);
//! - [`prove`]: the interface of a game's proof search, who wins without how soon.
//!
//! A solver made for one family's positions lives with that family under
//! [`crate::games`] (Big Points' one-word score solvers, Dots and Boxes' chain solver).

pub mod budget;
pub mod grundy;
pub mod levels;
pub mod margin;
pub mod margin_table;
pub mod memo;
pub mod minimax;
pub mod nullwindow;
pub mod prove;
pub mod retrograde;
pub mod scores;
pub mod search;

use std::sync::atomic::AtomicU64;

use crate::game::{Game, Indexed, Symmetric};
use crate::table::{Remoteness, ValueTable};
use crate::value::Value;
use crate::Error;

/// Anything that answers the exact value of a position for the player to move.
pub trait Oracle<G: Game> {
    /// The value of `p` for the player to move in `p`, or why it is not known: a search
    /// that gave up at its limit ([`Limit::stop`]), a saved table that failed to read.
    fn value(&mut self, p: &G::Position) -> Result<Value, Error>;
}

/// An exact oracle by search, counting its work.
pub trait SearchOracle<G: Game>: Oracle<G> {
    /// Positions visited, counting revisits.
    fn nodes(&self) -> u64;
    /// Entries its table holds.
    fn positions(&self) -> usize;
}

impl<G: Game, O: Oracle<G> + ?Sized> Oracle<G> for Box<O> {
    fn value(&mut self, p: &G::Position) -> Result<Value, Error> {
        (**self).value(p)
    }
}

/// How a solver keys its memory: the position itself, or its symmetry representative.
pub type KeyFn<G> = fn(&G, &<G as Game>::Position) -> <G as Game>::Position;

/// Keys positions by themselves.
pub fn plain_key<G: Game>(_: &G, p: &G::Position) -> G::Position {
    p.clone()
}

/// Keys positions by their symmetry representative.
pub fn symmetric_key<G: Symmetric>(g: &G, p: &G::Position) -> G::Position {
    g.canonical(p)
}

/// Keys positions by an equivalent of the same value ([`Symmetric::equivalent`]).
pub fn equivalent_key<G: Symmetric>(g: &G, p: &G::Position) -> G::Position {
    g.equivalent(p)
}

/// Reports the advance of long work (a progress bar, or nothing).
pub trait Progress: Sync {
    /// Starts a phase of `len` steps.
    fn start(&self, what: &str, len: u64);
    /// Marks `steps` more steps done.
    fn advance(&self, steps: u64);
    /// Says how far work without steps known in advance is, in one line (a proof's
    /// nodes, rate and first moves proved), about once a second.
    fn note(&self, _line: &str) {}
}

/// Reports nothing.
impl Progress for () {
    fn start(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// The memory a search's table may take unless told otherwise.
pub const TABLE_BYTES: u64 = 1 << 30;

/// How an exact solver is set up: when it gives up, the memory its table may
/// take, and where long searches report their progress.
#[derive(Clone)]
pub struct Setup {
    /// When to give up.
    pub limit: Limit,
    /// Bytes of memory the table may take.
    pub bytes: u64,
    /// Where long searches report.
    pub progress: Option<std::sync::Arc<dyn Progress + Send>>,
    /// Bounds proved by an earlier search of the same game, for searches that read them.
    pub book: Option<std::sync::Arc<crate::table::book::Book>>,
    /// Where a long search that can stop and go on keeps its checkpoint.
    pub checkpoint: Option<std::path::PathBuf>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            limit: Limit::default(),
            bytes: TABLE_BYTES,
            progress: None,
            book: None,
            checkpoint: None,
        }
    }
}

/// Answers values from a solved table of an indexed game.
pub struct TableOracle<'a, G, R = u16> {
    game: &'a G,
    table: &'a ValueTable<R>,
}

impl<'a, G: Indexed, R: Remoteness> TableOracle<'a, G, R> {
    /// Looks positions of `game` up in `table`.
    pub fn new(game: &'a G, table: &'a ValueTable<R>) -> Self {
        TableOracle { game, table }
    }
}

impl<G: Indexed, R: Remoteness> Oracle<G> for TableOracle<'_, G, R> {
    fn value(&mut self, p: &G::Position) -> Result<Value, Error> {
        let rank = self.game.rank(p);
        self.table
            .get(rank)
            .ok_or_else(|| Error::Unsupported(format!("rank {rank} of the table holds no position")))
    }
}

/// When a search must give up before it ends: past a number of stored positions, at a
/// deadline, or when cancelled from outside. A search that gives up says so, and its
/// answer is discarded.
#[derive(Clone, Debug, Default)]
pub struct Limit {
    /// The most positions the search may keep.
    pub positions: Option<usize>,
    /// When it must stop.
    pub deadline: Option<std::time::Instant>,
    /// Set from outside to stop it.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Searched nodes between two looks at the clock and the cancel flag.
const LIMIT_CHECK_EVERY: u32 = 4096;

impl Limit {
    /// Whether a search keeping `positions` positions is past the limit; the clock and the
    /// cancel flag are looked at every `LIMIT_CHECK_EVERY` calls, counted in `ticks`.
    pub fn reached(&self, positions: usize, ticks: &mut u32) -> bool {
        if self.positions.is_some_and(|max| positions > max) {
            return true;
        }
        *ticks = ticks.wrapping_add(1);
        if !ticks.is_multiple_of(LIMIT_CHECK_EVERY) {
            return false;
        }
        self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Whether the cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Whether the deadline has passed or the cancel flag is set, looked at now (work whose
    /// steps are long, such as a playout, looks every few steps; searches use
    /// [`Limit::reached`]).
    pub fn passed(&self) -> bool {
        self.deadline.is_some_and(|d| std::time::Instant::now() >= d) || self.cancelled()
    }

    /// The error of a search that gave up at this limit: [`Error::Cancelled`] when it was
    /// cancelled, else [`Error::TooBig`].
    pub fn stop(&self) -> Error {
        if self.cancelled() {
            Error::Cancelled
        } else {
            Error::too_big("the search reached the memory or time it may take")
        }
    }
}

/// Asks the kernel to back the allocation of `items` (its whole capacity) with huge pages:
/// lookups jump all over large tables, and huge pages spare most of the address
/// translation misses. Best asked before the memory is first written.
pub(crate) fn advise_huge_pages<T>(items: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 1 << 21;
        let base = items.as_mut_ptr() as usize;
        let start = base.next_multiple_of(HUGE);
        let end = (base + items.capacity() * std::mem::size_of::<T>()) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside the allocation, and the advice changes no contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = items;
}

/// Nodes a search looks at its limit every [`FIRST_LOOK_EVERY`] of, before it looks less often.
const FIRST_NODES: u64 = 1 << 16;

/// Nodes between two looks at the limit during a search's first [`FIRST_NODES`].
const FIRST_LOOK_EVERY: u64 = 8;

/// Whether a search that has visited `nodes` nodes, and looks at its limit every `every`
/// nodes, looks now. During its first [`FIRST_NODES`] it looks every [`FIRST_LOOK_EVERY`]:
/// the first writes to a new table fault in its (huge) pages, so slowly that `every` nodes
/// could overrun a deadline or a cancel by seconds.
pub(crate) fn looks_now(nodes: u64, every: u64) -> bool {
    nodes.is_multiple_of(if nodes < FIRST_NODES {
        FIRST_LOOK_EVERY
    } else {
        every
    })
}

/// `len` words of zero, taken from the system as zero pages: the pages are filled in
/// when first written, by the cores that write them, rather than all at once, and are
/// huge pages where the system gives them (see [`advise_huge_pages`]).
pub(crate) fn zeroed_words(len: usize) -> Vec<AtomicU64> {
    let layout = std::alloc::Layout::array::<AtomicU64>(len).expect("a table within the address space");
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the memory is allocated by the global allocator with the layout of `len`
    // atomics, and all-zero bytes are the atomic 0.
    unsafe {
        let words = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        if words.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        let mut words = Vec::from_raw_parts(words, len, len);
        advise_huge_pages(&mut words);
        words
    }
}

/// Hands the memory pages lying wholly inside `bytes` back to the system, so that a table
/// held in one allocation costs only the parts still in use. In private memory the bytes
/// are not to be read again (on Linux they read as zero, elsewhere they are left as they
/// are); in a file mapped shared they read back from the file.
pub(crate) fn release(bytes: &mut [u8]) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf only reads a system setting.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(0);
        let base = bytes.as_mut_ptr() as usize;
        if page > 0 {
            let start = base.next_multiple_of(page);
            let end = (base + bytes.len()) / page * page;
            if end > start {
                // SAFETY: the pages lie inside the exclusively borrowed bytes: the kernel
                // only zeroes them (private memory) or maps them again from their file.
                unsafe {
                    libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED);
                }
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = bytes;
}

/// Asks the processor to bring `item` into the cache.
#[inline]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((item as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
