//! Generic analyses of games, knowing no particular game: [`count`], counting game trees
//! and positions; [`graph`], the graph of a game's positions (or classes of positions)
//! with their values; [`stats`], shares with confidence intervals and spreads of results;
//! [`rating`], Bradley–Terry ratings of players from pairwise results; [`report`], what a
//! designer asks of a strong solution (forgiveness, the swap rule, a certificate);
//! [`selfplay`], estimates of how each seat fares from many games played in parallel.
//!
//! Analyses of one family live with it: the Grundy sequences of heap games and their
//! database in [`crate::games::impartial::grundy`] and
//! [`crate::games::impartial::sequence_db`], the balance of Big Points' reduced boards in
//! [`crate::games::bigpoints::sweep`].

pub mod count;
pub mod graph;
pub mod rating;
pub mod report;
pub mod selfplay;
pub mod stats;
