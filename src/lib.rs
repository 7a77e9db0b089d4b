//! Ply: one alpha-beta search core for many two-player board games,
//! driven through text protocols.
//!
//! Layers, top to bottom: `protocol` (text), `engine` (controller, search
//! thread, type erasure), `search` (generic over [`game::Game`]), `game`
//! (rules). `tools` sit beside `protocol`.

pub mod engine;
pub mod game;
pub mod protocol;
pub mod search;
pub mod tools;
