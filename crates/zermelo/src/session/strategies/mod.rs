//! The generic strategies any game may pick, each with the contract a game fulfils to use
//! it: [`search`] (alpha-beta, null-window, memo and retrograde over any game with
//! symmetry), [`levels`] (a level table of every position, for a [`levels::Tabulated`]
//! game), [`margins`] (the final score lead, for a [`margins::MarginGame`]) and
//! [`score_pairs`] (pairs of final scores under a decision rule, for a
//! [`score_pairs::ScoreGame`]). A family implements the contract in its own folder.

pub mod levels;
pub mod margins;
pub mod score_pairs;
pub mod search;
