//! An external engine over UGI: `ugi`/`ugiok`, `setoption`, `isready`,
//! then per game `uginewgame` and per move `position ...` and `go ...`,
//! read until `bestmove`.

use std::time::{Duration, Instant};

use super::clock::TimeControl;
use super::player::{Fault, Player, Reply, Turn};
use super::process::{Process, ReadError};

/// How long an engine may take to start up or to answer `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);

pub struct UgiPlayer {
    argv: Vec<String>,
    options: Vec<(String, String)>,
    /// Its own node budget in a `--nodes` match.
    nodes: Option<u64>,
    process: Option<Process>,
}

impl UgiPlayer {
    pub fn new(argv: Vec<String>, options: Vec<(String, String)>, nodes: Option<u64>) -> UgiPlayer {
        UgiPlayer {
            argv,
            options,
            nodes,
            process: None,
        }
    }

    fn lost(&mut self, error: ReadError, what: &str) -> Fault {
        super::process::lose(&mut self.process, error, what)
    }

    /// Reads lines until one starts with `word`, within `wait`.
    fn expect(&mut self, word: &str, wait: Duration) -> Result<(), Fault> {
        let deadline = Instant::now() + wait;
        loop {
            let Some(p) = self.process.as_mut() else {
                return Err(Fault::Crash("no process".into()));
            };
            match p.read_line(deadline) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(()),
                Ok(_) => {}
                Err(e) => return Err(self.lost(e, &format!("before '{word}'"))),
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        if self.process.as_mut().is_some_and(|p| p.send(line)) {
            return Ok(());
        }
        self.process = None;
        Err(Fault::Crash("broken pipe".into()))
    }

    fn start(&mut self) -> Result<(), Fault> {
        let process = Process::spawn(&self.argv).map_err(Fault::Crash)?;
        self.process = Some(process);
        self.send("ugi")?;
        self.expect("ugiok", HANDSHAKE)?;
        for (name, value) in self.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(())
    }
}

/// The `go` command under `tc` (the match's limit as this engine plays
/// it).
pub fn go_command(turn: &Turn, tc: TimeControl) -> String {
    let c = turn.clocks;
    match tc {
        TimeControl::Clock { .. } => format!(
            "go p1time {} p2time {} p1inc {} p2inc {}",
            c.left[0].as_millis(),
            c.left[1].as_millis(),
            c.inc_ms(),
            c.inc_ms()
        ),
        TimeControl::MoveTime(ms) => format!("go movetime {ms}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
    }
}

pub fn position_command(turn: &Turn) -> String {
    let mut line = match turn.start_fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    if !turn.moves.is_empty() {
        line.push_str(" moves");
        for mv in turn.moves {
            line.push(' ');
            line.push_str(mv);
        }
    }
    line
}

impl Player for UgiPlayer {
    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        if self.process.as_ref().is_none_or(Process::is_dead) {
            self.process = None;
            self.start()?;
        }
        self.send("uginewgame")?;
        self.send("isready")?;
        self.expect("readyok", HANDSHAKE)
    }

    fn play(&mut self, turn: &Turn, wait: Duration) -> Result<Reply, Fault> {
        if self.process.is_none() {
            return Err(Fault::Crash("the engine is not running".into()));
        }
        self.send(&position_command(turn))?;
        let go = go_command(turn, turn.clocks.tc.for_engine(self.nodes));
        let started = Instant::now();
        self.send(&go)?;
        let deadline = started + wait;
        loop {
            let Some(p) = self.process.as_mut() else {
                return Err(Fault::Crash("no process".into()));
            };
            let line = match p.read_line(deadline) {
                Ok(line) => line,
                Err(e) => return Err(self.lost(e, "while thinking")),
            };
            let mut words = line.split_whitespace();
            match words.next() {
                None | Some("info") => {}
                Some("bestmove") => {
                    let elapsed = started.elapsed();
                    return match words.next() {
                        Some(mv) => Ok(Reply {
                            mv: mv.to_string(),
                            elapsed,
                        }),
                        None => Err(Fault::Garbage(line.clone())),
                    };
                }
                Some(_) => return Err(Fault::Garbage(line.clone())),
            }
        }
    }

    fn shut_down(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.shut_down(Some("quit"), Duration::from_millis(300));
        }
    }
}

impl Drop for UgiPlayer {
    fn drop(&mut self) {
        self.shut_down();
    }
}
