//! Between protocols and search: the controller (threads, stop flag,
//! clock), the option table, the game registry and the type-erased session.

pub mod controller;
pub mod options;
pub mod registry;
pub mod session;

pub use controller::{Controller, Event, EventSink};
pub use session::{InfoLine, SearchSummary, Session};
