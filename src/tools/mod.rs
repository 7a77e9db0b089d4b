//! Command-line tools beside the protocols: perft, bench, solve, book, play, match,
//! compare (with its SVG chart) and trace.

pub mod bench;
pub mod book;
pub mod chart;
pub mod compare;
pub mod r#match;
pub mod perft;
pub mod play;
pub mod solve;
pub mod trace;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::engine::{SearchSummary, Session};
use crate::search::SearchLimits;

/// Runs a search to completion on the calling thread, without info output.
pub fn search_now(session: &dyn Session, limits: SearchLimits) -> SearchSummary {
    let job = session.search_job(limits, Arc::new(AtomicBool::new(false)), Box::new(|_| {}));
    job()
}
