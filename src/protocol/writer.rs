//! The one writer of protocol output: whole lines, flushed one by one, from
//! whichever thread speaks.

use std::io::{ErrorKind, Write};
use std::sync::{Arc, Mutex, PoisonError};

#[derive(Clone)]
pub struct Writer {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
    /// End the process when the reader has gone (standard output).
    exit_when_unread: bool,
}

impl Writer {
    /// A writer to `out`; write errors are dropped.
    pub fn new(out: Box<dyn Write + Send>) -> Writer {
        Writer {
            out: Arc::new(Mutex::new(out)),
            exit_when_unread: false,
        }
    }

    /// The process's standard output. When its reader has gone (a closed
    /// pipe), nobody will read a move again: the process ends quietly with
    /// status 0, whatever thread was writing.
    pub fn stdout() -> Writer {
        Writer {
            exit_when_unread: true,
            ..Writer::new(Box::new(std::io::stdout()))
        }
    }

    pub fn line(&self, text: &str) {
        self.lines([text]);
    }

    /// Several lines as one block: no other thread's line comes between.
    pub fn lines<S: AsRef<str>>(&self, lines: impl IntoIterator<Item = S>) {
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        let mut written = Ok(());
        for text in lines {
            let text = text.as_ref();
            log::debug!("> {text}");
            written = written.and_then(|()| writeln!(out, "{text}"));
        }
        if let Err(e) = written.and_then(|()| out.flush())
            && e.kind() == ErrorKind::BrokenPipe
            && self.exit_when_unread
        {
            std::process::exit(0);
        }
    }
}
