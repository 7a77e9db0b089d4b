//! Between protocols and search: the controller (threads, stop flag,
//! clock), the input reader (a line's arrival starts a move's clock), the
//! option table, the game registry, the type-erased session,
//! and the services protocols share (n-best analysis, Swap2 choices).

pub mod analysis;
pub mod controller;
pub mod input;
pub mod options;
pub mod registry;
pub mod session;
pub mod swap2;

pub use crate::search::score::Score;
pub use crate::search::time::GoLimits;
pub use analysis::{RankedMove, best_moves};
pub use controller::{Controller, Event, EventSink};
pub use session::{InfoLine, SearchSummary, Session};
