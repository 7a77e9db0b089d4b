//! Ply: one alpha-beta search core for many two-player board games,
//! driven through text protocols — and usable as a library.
//!
//! Layers, top to bottom: [`protocol`] (text), [`engine`] (controller,
//! search thread, type erasure), [`search`] (generic over [`game::Game`]),
//! [`game`] (rules). [`tools`] sit beside `protocol`.
//!
//! # As a library
//!
//! Implement [`game::Game`] for your game (the rules, plus optional hooks
//! that tell the search what the game knows), then pick the enhancements
//! you want in [`search::SearchParams`] and search with
//! [`search::Searcher`]. [`game::perft::perft`] counts move paths to check
//! the move generator; [`tools::solve::solve`] proves a position's exact
//! value; [`protocol::ugi::run_with_session`] serves the game over UGI to a
//! tournament manager. `examples/nim.rs` does all four for a game written
//! outside this crate (`cargo run --release --example nim`).
//!
//! ```
//! use std::sync::{Arc, atomic::AtomicBool};
//! use ply::game::{Game, Settings, connect4::Connect4, perft::perft};
//! use ply::search::{SearchLimits, SearchParams, Searcher};
//!
//! // Connect Four after 4 4 3 3: X, to move, has two stones side by side
//! // on the bottom row, and O's are one row up.
//! let mut position = Connect4::start(&Settings::default()).unwrap();
//! for text in ["4", "4", "3", "3"] {
//!     let mv = position.parse_move(text).unwrap();
//!     position.make_move(mv);
//! }
//! assert_eq!(perft(&mut position, 1), 7);
//!
//! // Alpha-beta with a table and move ordering, without aspiration windows.
//! let params = SearchParams { aspiration: false, ..SearchParams::default() };
//! let mut searcher = Searcher::<Connect4>::new(16, params).unwrap();
//! let limits = SearchLimits { depth: Some(8), ..SearchLimits::default() };
//! let result = searcher.search(&position, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
//! let best = position.move_to_string(result.best.unwrap());
//! assert!(best == "2" || best == "5", "an open three wins: {best}");
//! // Three plies: X makes the open three, O blocks one end, X wins at the
//! // other.
//! assert_eq!(ply::search::score::Score::plies_to_end(result.last.unwrap().score), Some(3));
//! ```

pub mod engine;
pub mod game;
pub mod protocol;
pub mod search;
pub mod tools;
pub mod tune;
