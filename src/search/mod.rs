#![warn(missing_docs)]
//! Game-agnostic search, generic over [`crate::game::Game`] and
//! monomorphized per game.

pub mod alphabeta;
pub mod book;
pub mod clock;
pub mod ordering;
pub mod params;
pub mod picker;
pub mod pns;
pub mod reference;
pub mod score;
pub mod slab;
pub mod smp;
pub mod solver;
pub mod stats;
pub mod time;
pub mod tt;

pub use alphabeta::{Proof, Report, SearchLimits, SearchResult, Searcher};
pub use params::SearchParams;
