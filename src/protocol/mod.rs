//! Text protocols: parse lines into controller commands, print events.

pub mod piskvork;
pub mod ugi;
pub mod writer;
