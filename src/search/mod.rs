//! Game-agnostic search, generic over [`crate::game::Game`] and
//! monomorphized per game.

pub mod alphabeta;
pub mod ordering;
pub mod params;
pub mod reference;
pub mod score;
pub mod stats;
pub mod time;
pub mod tt;

pub use alphabeta::{Report, SearchLimits, SearchResult, Searcher};
pub use params::SearchParams;
