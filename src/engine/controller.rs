//! The controller owns the search thread, the stop flag and the clock:
//! protocols hand it commands and hear back through one event sink.
//! Invariant: every `go` produces exactly one `BestMove` event, and before
//! any other command changes state, a running search is stopped and its
//! `BestMove` has been sent.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

use super::analysis::rank_moves;
use super::input::Arrival;
use super::options::{self, HASH_DEFAULT_MB, MOVE_OVERHEAD_DEFAULT_MS, OptionValue, Setting};
use super::registry;
use super::session::RepeatedSearch;
use super::session::{HelperJob, InfoLine, SearchJob, SearchSummary, Session};
use crate::game::{GameError, Settings};
use crate::search::book::Book;
use crate::search::clock::LateClock;
use crate::search::params::SWITCHES;
use crate::search::time::{GoLimits, budget};
use crate::search::{SearchLimits, SearchParams};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Info(InfoLine),
    /// `best` is `None` when the position has no legal move; `ponder` is
    /// the reply the search expects, when its line has one.
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
    /// Something went wrong inside the engine (a search that panicked);
    /// the engine goes on serving.
    Error(String),
}

pub type EventSink = Arc<dyn Fn(Event) + Send + Sync>;

struct Task {
    job: SearchJob,
    /// Helper threads' searches (Lazy SMP), stopped by `helper_stop` once
    /// the main search is over.
    helpers: Vec<HelperJob>,
    helper_stop: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    /// Hold the best move back while set (until `stop`, or `ponderhit`
    /// for a ponder search), even if the search ends.
    hold: Arc<AtomicBool>,
    /// The move to give if the search fails: the best so far, else the
    /// first legal move.
    fallback: Arc<Mutex<Option<String>>>,
    /// Where the summary goes instead of a `BestMove` event (analysis).
    reply: Option<Sender<SearchSummary>>,
    /// The `BestMove` event names the reply the search expects (the
    /// client asked for pondering).
    offer_ponder: bool,
}

/// Runs a task's search; a panic inside it is reported and answered with
/// the fallback move, so that every `go` still gets its one best move.
fn run_job(job: SearchJob, fallback: &Mutex<Option<String>>, sink: &EventSink) -> SearchSummary {
    match std::panic::catch_unwind(AssertUnwindSafe(job)) {
        Ok(summary) => summary,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".to_string());
            sink(Event::Error(format!("search failed: {what}")));
            SearchSummary {
                best: fallback
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone(),
                last: None,
                nodes: 0,
                elapsed: Duration::ZERO,
            }
        }
    }
}

/// Runs the main search on this thread and each helper on a thread of its
/// own; the helpers are stopped when the main search ends and joined before
/// its summary is returned, so that the next search finds them idle.
fn run_parallel(
    job: SearchJob,
    helpers: Vec<HelperJob>,
    helper_stop: &AtomicBool,
    fallback: &Mutex<Option<String>>,
    sink: &EventSink,
) -> SearchSummary {
    with_helpers(helpers, helper_stop, || run_job(job, fallback, sink))
}

/// Runs `main` on this thread and each helper on a search thread of its
/// own; raises `helper_stop` when `main` returns and joins the helpers
/// before returning its result.
pub fn with_helpers<T>(
    helpers: Vec<HelperJob>,
    helper_stop: &AtomicBool,
    main: impl FnOnce() -> T,
) -> T {
    if helpers.is_empty() {
        return main();
    }
    std::thread::scope(|scope| {
        for helper in helpers {
            // A helper that cannot start or panics only costs its share.
            let _ = std::thread::Builder::new()
                .name(SEARCH_THREAD.into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(helper));
                });
        }
        let result = main();
        helper_stop.store(true, Ordering::SeqCst);
        result
    })
}

/// MultiPV: the `n` best moves of the position, each line told with its
/// rank, the best one's summary returned. A search with a depth, node or
/// time limit ranks once (the time shared evenly by the `n` searches); an
/// unlimited one (`go infinite`, `go ponder`) ranks at depth 1, 2, ...
/// until stopped, or until a `ponderhit` clock runs out.
fn several_best(
    mut search: RepeatedSearch,
    n: usize,
    limits: SearchLimits,
    stop: &AtomicBool,
    mut on_info: Box<dyn FnMut(InfoLine) + Send>,
) -> SearchSummary {
    let limits = SearchLimits {
        budget: limits.budget.share(n),
        ..limits
    };
    let unlimited = limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.budget.hard.is_none()
        && limits.budget.soft.is_none();
    let mut best: Option<SearchSummary> = None;
    for depth in 1.. {
        if stop.load(Ordering::SeqCst) && best.is_some() {
            break;
        }
        let round = SearchLimits {
            depth: if unlimited { Some(depth) } else { limits.depth },
            ..limits.clone()
        };
        let mut first = None;
        let mut deepest = 0;
        rank_moves(
            n,
            |excluded| {
                (!stop.load(Ordering::SeqCst) || excluded.is_empty()).then(|| {
                    search(&SearchLimits {
                        excluded: excluded.to_vec(),
                        ..round.clone()
                    })
                })
            },
            |rank, _, summary| {
                if let Some(line) = &summary.last {
                    deepest = deepest.max(line.depth);
                    on_info(InfoLine {
                        multipv: Some(rank),
                        ..line.clone()
                    });
                }
                if rank == 1 {
                    first = Some(summary.clone());
                }
            },
        );
        if first.is_some() {
            best = first;
        }
        let clock_out = limits
            .late_clock
            .as_ref()
            .and_then(|c| c.started())
            .is_some_and(|(from, b)| b.soft.is_some_and(|s| from.elapsed() >= s));
        let exhausted = unlimited && deepest < depth;
        if !unlimited || stop.load(Ordering::SeqCst) || clock_out || exhausted {
            break;
        }
    }
    best.unwrap_or(SearchSummary {
        best: None,
        last: None,
        nodes: 0,
        elapsed: Duration::ZERO,
    })
}

/// The second move of the summary's line, when its first is the best move.
fn expected_reply(summary: &SearchSummary) -> Option<String> {
    let pv = &summary.last.as_ref()?.pv;
    (pv.first() == summary.best.as_ref())
        .then(|| pv.get(1).cloned())
        .flatten()
}

/// Panics of search threads are caught and reported as events; keep the
/// default hook from also printing them on stderr, which some managers
/// read as protocol output. Other threads keep the default behaviour.
fn quiet_search_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(SEARCH_THREAD) {
                log::error!("{info}");
            } else {
                default(info);
            }
        }));
    });
}

pub struct Controller {
    session: Box<dyn Session>,
    settings: Settings,
    hash_mb: usize,
    params: SearchParams,
    /// Search threads per search: the main one and `threads - 1` helpers.
    threads: usize,
    /// Best moves searched per `go` (MultiPV), each with its info line.
    multipv: usize,
    overhead_ms: u64,
    sink: EventSink,
    tasks: Option<Sender<Task>>,
    done: Receiver<()>,
    wake: Sender<()>,
    stop: Arc<AtomicBool>,
    searching: bool,
    /// The running search waits for `stop` (go infinite, go ponder).
    infinite: bool,
    /// The running search's hold on its best move.
    hold: Arc<AtomicBool>,
    /// A running ponder search: its go's limits and the clock that
    /// `ponderhit` starts.
    ponder: Option<(GoLimits, Arc<LateClock>)>,
    /// The `Ponder` option: the client ponders, so a best move comes with
    /// the reply expected. Off, a strict client (cutegames reads a best
    /// move only from a line of two words) gets `bestmove <move>` alone.
    offer_ponder: bool,
    /// When the clock of the next move started, if before its `go` (the
    /// arrival of the line that asked for it).
    turn_started: Option<Instant>,
    worker: Option<JoinHandle<()>>,
}

/// Search threads recurse up to the maximum ply; give them room.
const SEARCH_STACK_BYTES: usize = 64 << 20;
const SEARCH_THREAD: &str = "search";

impl Controller {
    pub fn new(
        game: &str,
        settings: Settings,
        hash_mb: usize,
        sink: EventSink,
    ) -> Result<Controller, String> {
        let session = registry::create(game, &settings, hash_mb, SearchParams::default())?;
        Controller::with_session(session, hash_mb, sink)
    }

    /// A controller for a session made by the caller (a game outside the
    /// registry, or a test double). `hash_mb` is the session's table size.
    pub fn with_session(
        session: Box<dyn Session>,
        hash_mb: usize,
        sink: EventSink,
    ) -> Result<Controller, String> {
        quiet_search_panics();
        let params = SearchParams::default();
        let settings = session.settings().clone();
        let (task_tx, task_rx) = unbounded::<Task>();
        let (done_tx, done_rx) = unbounded();
        let (wake_tx, wake_rx) = unbounded::<()>();
        let worker_sink = Arc::clone(&sink);
        let worker = std::thread::Builder::new()
            .name(SEARCH_THREAD.into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for task in task_rx {
                    // Wake-ups meant for an earlier search are stale.
                    while wake_rx.try_recv().is_ok() {}
                    let Task {
                        job,
                        helpers,
                        helper_stop,
                        stop,
                        hold,
                        fallback,
                        reply,
                        offer_ponder,
                    } = task;
                    let summary = run_parallel(job, helpers, &helper_stop, &fallback, &worker_sink);
                    while hold.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
                        if wake_rx.recv().is_err() {
                            break;
                        }
                    }
                    match reply {
                        Some(reply) => {
                            let _ = reply.send(summary);
                        }
                        None => {
                            let ponder = expected_reply(&summary).filter(|_| offer_ponder);
                            worker_sink(Event::BestMove {
                                best: summary.best,
                                ponder,
                            })
                        }
                    }
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
            threads: 1,
            multipv: 1,
            overhead_ms: MOVE_OVERHEAD_DEFAULT_MS as u64,
            sink,
            tasks: Some(task_tx),
            done: done_rx,
            wake: wake_tx,
            stop: Arc::new(AtomicBool::new(false)),
            searching: false,
            infinite: false,
            hold: Arc::new(AtomicBool::new(false)),
            ponder: None,
            offer_ponder: false,
            turn_started: None,
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
        self.start_search(limits, &[], None);
    }

    /// Searches the current position to the end of `limits` and returns
    /// what it found instead of sending `BestMove`; `Info` events still go
    /// to the sink. Root moves named in `excluded` are left out. `None` if
    /// the search thread is gone. An infinite search is not waited for:
    /// `limits.infinite` is ignored.
    pub fn analyse(&mut self, limits: GoLimits, excluded: &[String]) -> Option<SearchSummary> {
        let (reply, summary) = bounded(1);
        let limits = GoLimits {
            infinite: false,
            ..limits
        };
        self.start_search(limits, excluded, Some(reply));
        self.wait();
        summary.try_recv().ok()
    }

    /// `limits` with what the game knows of the moves left: its estimate
    /// when the clock gives none, and the most there can be.
    fn with_moves_to_go(&self, limits: &GoLimits) -> GoLimits {
        GoLimits {
            movestogo: limits.movestogo.or_else(|| self.session.moves_to_go()),
            most_moves_left: limits
                .most_moves_left
                .or_else(|| self.session.most_moves_left()),
            ..limits.clone()
        }
    }

    fn start_search(
        &mut self,
        limits: GoLimits,
        excluded: &[String],
        reply: Option<Sender<SearchSummary>>,
    ) {
        self.stop();
        let stop = Arc::new(AtomicBool::new(false));
        self.stop = Arc::clone(&stop);
        let mut planned = budget(
            &self.with_moves_to_go(&limits),
            self.session.side_to_move(),
            self.overhead_ms,
        );
        if let Some(started) = self.turn_started.take() {
            // Work done since the turn's clock started counts against it.
            planned = planned.after(started.elapsed());
        }
        let late_clock = limits.ponder.then(|| Arc::new(LateClock::default()));
        let search_limits = SearchLimits {
            depth: limits.depth,
            nodes: limits.nodes,
            budget: planned,
            solve: None,
            late_clock: late_clock.clone(),
            excluded: excluded.to_vec(),
        };
        let sink = Arc::clone(&self.sink);
        let fallback = Arc::new(Mutex::new(self.session.legal_moves().into_iter().next()));
        let best_so_far = Arc::clone(&fallback);
        let on_info: Box<dyn FnMut(InfoLine) + Send> = Box::new(move |line: InfoLine| {
            if line.multipv.is_none_or(|k| k == 1)
                && let Some(first) = line.pv.first()
            {
                *best_so_far.lock().unwrap_or_else(PoisonError::into_inner) = Some(first.clone());
            }
            sink(Event::Info(line))
        });
        let repeated = match (self.multipv, &reply) {
            (1, _) | (_, Some(_)) => None,
            _ => self.session.repeated_search(Arc::clone(&stop)),
        };
        let job: SearchJob = match repeated {
            Some(search) => {
                let (n, stop) = (self.multipv, Arc::clone(&stop));
                let limits = search_limits.clone();
                Box::new(move || several_best(search, n, limits, &stop, on_info))
            }
            None => self
                .session
                .search_job(search_limits.clone(), Arc::clone(&stop), on_info),
        };
        let waits = limits.infinite || limits.ponder;
        let hold = Arc::new(AtomicBool::new(waits));
        let helper_stop = Arc::new(AtomicBool::new(false));
        let helpers = self.session.helper_jobs(
            self.threads.saturating_sub(1),
            &search_limits,
            Arc::clone(&helper_stop),
        );
        let task = Task {
            job,
            helpers,
            helper_stop,
            stop,
            hold: Arc::clone(&hold),
            fallback,
            reply,
            offer_ponder: self.offer_ponder,
        };
        if let Some(tasks) = &self.tasks
            && tasks.send(task).is_ok()
        {
            self.searching = true;
            self.infinite = waits || limits.is_unbounded();
            self.hold = hold;
            self.ponder = late_clock.map(|clock| (limits, clock));
        }
    }

    /// The opponent played the move pondered on: the ponder search goes on
    /// as a normal search under its go's clock, counted from now. Nothing
    /// happens when no ponder search runs.
    pub fn ponderhit(&mut self) {
        let Some((limits, clock)) = self.ponder.take() else {
            return;
        };
        if !self.is_searching() {
            return;
        }
        let limits = GoLimits {
            ponder: false,
            ..limits
        };
        clock.start(budget(
            &self.with_moves_to_go(&limits),
            self.session.side_to_move(),
            self.overhead_ms,
        ));
        if !limits.infinite {
            // A ponder go without any limit goes on unbounded: end of
            // input stops it, as it stops an infinite one.
            self.infinite = limits.is_unbounded();
            self.hold.store(false, Ordering::SeqCst);
            let _ = self.wake.send(());
        }
    }

    /// The clock of the next move started at `at`, before its `go`: when
    /// the line asking for it arrived, although set-up work (a table
    /// faulted in) may have been in the way since.
    pub fn note_turn_start(&mut self, at: Arrival) {
        self.turn_started = Some(at.0);
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

    /// Applies `setoption`; on error nothing changes. `Ok(Some(notice))`
    /// when the value was adjusted (an absurd `Hash` clamped).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<Option<String>, String> {
        let (chosen, notice) = options::parse_clamped(name, value)?;
        self.stop();
        match (chosen.sets, chosen.value) {
            (Setting::Hash, OptionValue::Int(mb)) => {
                self.session.set_hash(mb as usize)?;
                self.hash_mb = mb as usize;
            }
            // `go ponder` is what ponders; the option says the client
            // reads the expected reply after the best move.
            (Setting::Ponder, OptionValue::Bool(on)) => self.offer_ponder = on,
            (Setting::Threads, OptionValue::Int(n)) => self.threads = n.max(1) as usize,
            (Setting::MultiPv, OptionValue::Int(n)) => self.multipv = n.max(1) as usize,
            (Setting::MoveOverhead, OptionValue::Int(ms)) => self.overhead_ms = ms as u64,
            (Setting::BookFile, OptionValue::Text(path)) => {
                self.session.set_book(load_book(&path)?)?
            }
            // A new game starts from its default variant.
            (Setting::Game, OptionValue::Text(game)) => {
                self.change_game(&game, Settings::default())?
            }
            (Setting::Rule, OptionValue::Text(rule)) => {
                let settings = Settings {
                    rule: Some(rule),
                    ..self.settings.clone()
                };
                self.change_game(self.session.game(), settings)?;
            }
            (Setting::BoardSize, OptionValue::Int(n)) => {
                let settings = Settings {
                    size: Some((n as usize, n as usize)),
                    ..self.settings.clone()
                };
                self.change_game(self.session.game(), settings)?;
            }
            (Setting::Switch(i), OptionValue::Bool(on)) => {
                *SWITCHES[i].1(&mut self.params) = on;
                self.session.set_params(self.params);
            }
            (_, value) => return Err(format!("option {} cannot take {value:?}", chosen.name)),
        }
        Ok(notice)
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

/// The book in the file at `path` (`None` for an empty path: no book).
fn load_book(path: &str) -> Result<Option<Arc<Book>>, String> {
    if path.is_empty() {
        return Ok(None);
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read book file '{path}': {e}"))?;
    let book = Book::parse(&bytes).map_err(|e| format!("book file '{path}': {e}"))?;
    Ok(Some(Arc::new(book)))
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
