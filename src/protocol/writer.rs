//! The one writer of protocol output: whole lines, flushed one by one, from
//! whichever thread speaks.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

#[derive(Clone)]
pub struct Writer {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Writer {
    pub fn new(out: Box<dyn Write + Send>) -> Writer {
        Writer {
            out: Arc::new(Mutex::new(out)),
        }
    }

    pub fn stdout() -> Writer {
        Writer::new(Box::new(std::io::stdout()))
    }

    pub fn line(&self, text: &str) {
        log::debug!("> {text}");
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        // A closed pipe means nobody listens any more; the reader will see
        // end of input and exit cleanly, so write errors are dropped.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}
