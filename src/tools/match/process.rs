//! A child process spoken to line by line over pipes: a reader thread turns
//! its stdout into a channel, so that every read has a deadline and a hung
//! engine can be killed instead of hanging the referee.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

use super::player::Fault;

/// Why a read gave no line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// Nothing within the deadline.
    Timeout,
    /// The process closed its stdout (exited or crashed).
    Closed,
}

pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    dead: bool,
}

impl Process {
    /// Starts `argv[0]` with the remaining arguments; its stderr is discarded.
    pub fn spawn(argv: &[String]) -> Result<Process, String> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| "empty engine command".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{program}': {e}"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| "no stdout pipe".to_string())?;
        let (tx, rx) = unbounded();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(Process {
            child,
            stdin,
            lines: rx,
            dead: false,
        })
    }

    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Writes one line; `false` when the pipe is broken.
    pub fn send(&mut self, line: &str) -> bool {
        log::debug!("> {line}");
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        let ok = writeln!(stdin, "{line}").is_ok() && stdin.flush().is_ok();
        if !ok {
            self.dead = true;
        }
        ok
    }

    /// The next line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                log::debug!("< {line}");
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(ReadError::Closed)
            }
        }
    }

    /// Kills the process at once and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }

    /// Sends `farewell` (if any), gives the process `grace` to exit, then
    /// kills it.
    pub fn shut_down(&mut self, farewell: Option<&str>, grace: Duration) {
        if !self.dead {
            if let Some(line) = farewell {
                self.send(line);
            }
            self.stdin = None;
            let deadline = Instant::now() + grace;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.dead = true;
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An engine that timed out or went away: kill it (a restart comes with
/// the next game) and name the fault.
pub fn lose(process: &mut Option<Process>, error: ReadError, what: &str) -> Fault {
    if let Some(p) = process.as_mut() {
        p.kill();
    }
    *process = None;
    match error {
        ReadError::Timeout => Fault::Timeout,
        ReadError::Closed => Fault::Crash(format!("the engine exited {what}")),
    }
}
