//! Reading a protocol's input: lines, and lines stamped with the moment
//! each arrived, read on a thread of their own.

use std::io::BufRead;
use std::time::Instant;

/// Input lines, with invalid UTF-8 replaced rather than fatal.
pub fn lines(mut input: impl BufRead) -> impl Iterator<Item = String> {
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(
                String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\r', '\n'])
                    .to_string(),
            ),
        }
    })
}

/// When a line arrived: a move's clock runs from its request's arrival
/// ([`crate::engine::Controller::note_turn_start`]).
#[derive(Clone, Copy, Debug)]
pub struct Arrival(pub(crate) Instant);

/// Input lines with their arrival, read on a thread of their own: a line
/// that waits while the protocol is busy (faulting in a table after a
/// memory setting) keeps the time the manager sent it, from which the
/// manager counts the move's time.
pub fn arriving_lines(
    input: impl BufRead + Send + 'static,
) -> anyhow::Result<impl Iterator<Item = (String, Arrival)>> {
    let (sender, receiver) = crossbeam_channel::unbounded();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            for line in lines(input) {
                if sender.send((line, Arrival(Instant::now()))).is_err() {
                    break;
                }
            }
        })?;
    Ok(receiver.into_iter())
}
