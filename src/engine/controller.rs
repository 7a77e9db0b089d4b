//! The controller owns the search thread, the stop flag and the clock:
//! protocols hand it commands and hear back through one event sink.
//! Invariant: every `go` produces exactly one `BestMove` event, and before
//! any other command changes state, a running search is stopped and its
//! `BestMove` has been sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, unbounded};

use super::options::{self, HASH_DEFAULT_MB, MOVE_OVERHEAD_DEFAULT_MS, OptionValue};
use super::registry;
use super::session::{InfoLine, SearchJob, Session};
use crate::game::{GameError, Settings};
use crate::search::time::{GoLimits, budget};
use crate::search::{SearchLimits, SearchParams};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Info(InfoLine),
    /// `None` when the position has no legal move.
    BestMove(Option<String>),
}

pub type EventSink = Arc<dyn Fn(Event) + Send + Sync>;

struct Task {
    job: SearchJob,
    stop: Arc<AtomicBool>,
    /// Hold the best move back until `stop`, even if the search ends.
    infinite: bool,
}

pub struct Controller {
    session: Box<dyn Session>,
    settings: Settings,
    hash_mb: usize,
    params: SearchParams,
    overhead_ms: u64,
    sink: EventSink,
    tasks: Option<Sender<Task>>,
    done: Receiver<()>,
    wake: Sender<()>,
    stop: Arc<AtomicBool>,
    searching: bool,
    /// The running search waits for `stop` (go infinite).
    infinite: bool,
    /// When the clock of the next move started, if before its `go`.
    turn_started: Option<Instant>,
    /// Root moves the next searches leave out.
    excluded: Vec<String>,
    worker: Option<JoinHandle<()>>,
}

/// Search threads recurse up to the maximum ply; give them room.
const SEARCH_STACK_BYTES: usize = 64 << 20;

impl Controller {
    pub fn new(
        game: &str,
        settings: Settings,
        hash_mb: usize,
        sink: EventSink,
    ) -> Result<Controller, String> {
        let params = SearchParams::default();
        let session = registry::create(game, &settings, hash_mb, params)?;
        let (task_tx, task_rx) = unbounded::<Task>();
        let (done_tx, done_rx) = unbounded();
        let (wake_tx, wake_rx) = unbounded::<()>();
        let worker_sink = Arc::clone(&sink);
        let worker = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for task in task_rx {
                    // Wake-ups meant for an earlier search are stale.
                    while wake_rx.try_recv().is_ok() {}
                    let summary = (task.job)();
                    while task.infinite && !task.stop.load(Ordering::SeqCst) {
                        if wake_rx.recv().is_err() {
                            break;
                        }
                    }
                    worker_sink(Event::BestMove(summary.best));
                    if done_tx.send(()).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        Ok(Controller {
            session,
            settings,
            hash_mb,
            params,
            overhead_ms: MOVE_OVERHEAD_DEFAULT_MS as u64,
            sink,
            tasks: Some(task_tx),
            done: done_rx,
            wake: wake_tx,
            stop: Arc::new(AtomicBool::new(false)),
            searching: false,
            infinite: false,
            turn_started: None,
            excluded: Vec::new(),
            worker: Some(worker),
        })
    }

    pub fn with_defaults(game: &str, sink: EventSink) -> Result<Controller, String> {
        Controller::new(game, Settings::default(), HASH_DEFAULT_MB as usize, sink)
    }

    /// The current game and position (read-only; safe during a search,
    /// which works on its own copy).
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    pub fn is_searching(&mut self) -> bool {
        if self.searching && self.done.try_recv().is_ok() {
            self.searching = false;
        }
        self.searching
    }

    /// Starts a search of the current position; stops a running one first.
    pub fn go(&mut self, limits: GoLimits) {
        self.stop();
        let stop = Arc::new(AtomicBool::new(false));
        self.stop = Arc::clone(&stop);
        let mut planned = budget(&limits, self.session.side_to_move(), self.overhead_ms);
        if let Some(started) = self.turn_started.take() {
            // Work done since the turn's clock started counts against it.
            let spent = started.elapsed();
            let shorten = |d: Duration| d.saturating_sub(spent).max(Duration::from_millis(1));
            planned.soft = planned.soft.map(shorten);
            planned.hard = planned.hard.map(shorten);
        }
        let search_limits = SearchLimits {
            depth: limits.depth,
            nodes: limits.nodes,
            budget: planned,
        };
        let sink = Arc::clone(&self.sink);
        let job = self.session.search_job(
            search_limits,
            &self.excluded,
            Arc::clone(&stop),
            Box::new(move |line| sink(Event::Info(line))),
        );
        let task = Task {
            job,
            stop,
            infinite: limits.infinite,
        };
        if let Some(tasks) = &self.tasks
            && tasks.send(task).is_ok()
        {
            self.searching = true;
            self.infinite = limits.infinite;
        }
    }

    /// Root moves (in the game's notation) that searches leave out until
    /// changed, for n-best analysis.
    pub fn exclude_root_moves(&mut self, moves: Vec<String>) {
        self.excluded = moves;
    }

    /// The clock of the next move starts now, although its `go` comes
    /// later (a manager that sends set-up and the move request at once).
    pub fn note_turn_start(&mut self) {
        self.turn_started.get_or_insert_with(Instant::now);
    }

    /// End of input: a bounded search may finish what it was asked to do;
    /// an infinite one is stopped. Either way its best move comes out.
    pub fn finish(&mut self) {
        if self.infinite {
            self.stop();
        } else {
            self.wait();
        }
    }

    /// Stops a running search and returns once its best move is out.
    pub fn stop(&mut self) {
        if !self.searching {
            return;
        }
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.wake.send(());
        self.wait();
    }

    /// Waits for the running search to end by itself.
    pub fn wait(&mut self) {
        if self.searching {
            // An error means the worker is gone; nothing is running then.
            let _ = self.done.recv();
            self.searching = false;
        }
    }

    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError> {
        self.stop();
        self.session.set_position(fen, moves)
    }

    pub fn new_game(&mut self) {
        self.stop();
        self.session.new_game();
    }

    /// Applies `setoption`; on error nothing changes.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let (name, value) = options::parse(name, value)?;
        self.stop();
        match (name.as_str(), value) {
            ("Hash", OptionValue::Int(mb)) => {
                self.session.set_hash(mb as usize)?;
                self.hash_mb = mb as usize;
            }
            ("Threads", _) => {}
            ("MoveOverhead", OptionValue::Int(ms)) => self.overhead_ms = ms as u64,
            // A new game starts from its default variant.
            ("Game", OptionValue::Text(game)) => self.change_game(&game, Settings::default())?,
            ("Rule", OptionValue::Text(rule)) => {
                let settings = Settings {
                    rule: Some(rule),
                    ..self.settings.clone()
                };
                self.change_game(self.session.game(), settings)?;
            }
            ("BoardSize", OptionValue::Int(n)) => {
                let settings = Settings {
                    size: Some((n as usize, n as usize)),
                    ..self.settings.clone()
                };
                self.change_game(self.session.game(), settings)?;
            }
            (switch, OptionValue::Bool(on)) => {
                self.params.set(switch, on);
                self.session.set_params(self.params);
            }
            (name, value) => return Err(format!("option {name} cannot take {value:?}")),
        }
        Ok(())
    }

    /// Switches game or variant settings; the new game starts from its
    /// start position.
    pub fn change_game(&mut self, game: &str, settings: Settings) -> Result<(), String> {
        self.stop();
        // Free the old table before the new one is allocated, so that the
        // process never holds two (Gomocup measures peak memory).
        self.session.set_hash(1)?;
        match registry::create(game, &settings, self.hash_mb, self.params) {
            Ok(session) => {
                self.session = session;
                self.settings = settings;
                Ok(())
            }
            Err(e) => {
                self.session.set_hash(self.hash_mb)?;
                Err(e)
            }
        }
    }
}

impl Drop for Controller {
    fn drop(&mut self) {
        self.stop();
        self.tasks = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}
