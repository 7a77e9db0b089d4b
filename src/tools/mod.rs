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

use crate::engine::controller::with_helpers;
use crate::engine::{SearchSummary, Session};
use crate::search::SearchLimits;

/// Runs a search to completion on the calling thread, without info output.
pub fn search_now(session: &dyn Session, limits: SearchLimits) -> SearchSummary {
    search_with_helpers(session, limits, 0)
}

/// [`search_now`] with `helpers` helper threads beside the calling one
/// (Lazy SMP, as `Threads` gives a UGI search): they run until the main
/// search is done.
pub fn search_with_helpers(
    session: &dyn Session,
    limits: SearchLimits,
    helpers: usize,
) -> SearchSummary {
    let stop = Arc::new(AtomicBool::new(false));
    let jobs = if helpers > 0 {
        session.helper_jobs(helpers, &limits, Arc::clone(&stop))
    } else {
        Vec::new()
    };
    let job = session.search_job(limits, Arc::clone(&stop), Box::new(|_| {}));
    with_helpers(jobs, &stop, job)
}
