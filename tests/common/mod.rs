//! Drives a real binary through pipes, line by line, with time-outs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

pub mod cutegames;
pub mod gomoku_cli;
pub mod piskvork_judge;

pub const PATIENCE: Duration = Duration::from_secs(20);

/// What a manager sees of an engine: lines in, lines out. The managers'
/// readers ([`cutegames`], [`gomoku_cli`], [`piskvork_judge`]) drive any
/// peer: the real binary, or an engine served in this process.
pub trait Peer {
    fn send(&mut self, line: &str);
    /// Next line, or `None` if none comes within `wait`.
    fn next_line(&mut self, wait: Duration) -> Option<String>;
    /// Every line read so far, for failure messages.
    fn transcript(&self) -> &[String];
}

impl Peer for Engine {
    fn send(&mut self, line: &str) {
        Engine::send(self, line)
    }
    fn next_line(&mut self, wait: Duration) -> Option<String> {
        Engine::next_line(self, wait)
    }
    fn transcript(&self) -> &[String] {
        &self.transcript
    }
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages and counting.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start(binary: &str, args: &[&str]) -> Engine {
        let path = assert_cmd::cargo::cargo_bin(binary);
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    pub fn ply(args: &[&str]) -> Engine {
        Engine::start("ply", args)
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("engine reads");
        stdin.flush().unwrap();
    }

    /// Writes raw bytes (no newline added): invalid UTF-8, CR LF endings.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine reads");
        stdin.flush().unwrap();
    }

    /// Next line, or `None` if none comes within `wait`.
    pub fn next_line(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn read_until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => panic!(
                    "no line starting with '{prefix}'; transcript: {:#?}",
                    self.transcript
                ),
            }
        }
    }

    /// Sends `line` and returns the first reply line.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.next_line(PATIENCE)
            .unwrap_or_else(|| panic!("no reply to '{line}'; transcript: {:#?}", self.transcript))
    }

    /// Lines that arrive within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            seen.push(line);
        }
        seen
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit; `None` if it does not within `wait`.
    pub fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Everything the process wrote to stderr (after it exited).
    pub fn stderr(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            use std::io::Read;
            let _ = err.read_to_string(&mut text);
        }
        text
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn count(&self, prefix: &str) -> usize {
        self.transcript
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove <m> [ponder <p>]` line.
pub fn best_move(line: &str) -> &str {
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("bestmove"), "{line}");
    words
        .next()
        .unwrap_or_else(|| panic!("no move in {line:?}"))
}

/// The last `info depth` line of a search's output: the one that
/// describes the whole search.
pub fn last_info(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line in {lines:?}"))
}

/// The peak resident memory of process `pid` in bytes (Linux's VmHWM).
pub fn peak_resident_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    kb * 1024
}

/// `ply` with `args` on raw pipes, for tests that close one end themselves:
/// the process, its stdin, and its stdout read line by line.
pub fn spawn_ply(args: &[&str]) -> (Child, ChildStdin, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("ply"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdin, stdout)
}
