//! Type erasure, done once: a [`GameSession`] holds a position of one game
//! and its searcher, and offers them to the game-agnostic layers above as a
//! text-in, text-out [`Session`].

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::game::{Game, GameError, Outcome, Player, Settings};
use crate::search::book::{Book, Header};
use crate::search::score::Score;
use crate::search::{Proof, Report, SearchLimits, SearchParams, Searcher};

/// One search iteration, with moves already written as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<String>,
    /// The line's rank when several best moves are searched (MultiPV).
    pub multipv: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct SearchSummary {
    /// `None` when the position has no legal move.
    pub best: Option<String>,
    pub last: Option<InfoLine>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A search ready to run on whichever thread the controller chooses.
pub type SearchJob = Box<dyn FnOnce() -> SearchSummary + Send>;
pub type InfoCallback = Box<dyn FnMut(InfoLine) + Send>;
/// A search run again and again on one thread, each time with its own
/// limits (excluded root moves among them), and no info lines (several
/// best moves).
pub type RepeatedSearch = Box<dyn FnMut(&SearchLimits) -> SearchSummary + Send>;
/// A helper thread's share of a parallel search: it runs until its stop
/// flag is raised (or its search ends by itself) and reports nothing.
pub type HelperJob = Box<dyn FnOnce() + Send>;

/// After the first second, at most one info line per this interval; the
/// last suppressed one is sent before the search ends.
const INFO_INTERVAL: Duration = Duration::from_millis(300);
const INFO_FREE_PERIOD: Duration = Duration::from_secs(1);

pub trait Session: Send {
    fn game(&self) -> &'static str;
    fn settings(&self) -> &Settings;
    /// Replaces the position, or leaves it untouched on any error.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError>;
    fn play_move(&mut self, mv: &str) -> Result<(), GameError>;
    fn fen(&self) -> String;
    fn side_to_move(&self) -> Player;
    /// The game's estimate of the side to move's moves left, for a clock
    /// that does not say ([`crate::game::Game::moves_to_go`]); none by
    /// default.
    fn moves_to_go(&self) -> Option<u32> {
        None
    }
    /// The most moves the side to move can still have to make
    /// ([`crate::game::Game::most_moves_left`]); none by default.
    fn most_moves_left(&self) -> Option<u32> {
        None
    }
    fn outcome(&self) -> Option<Outcome>;
    fn legal_moves(&self) -> Vec<String>;
    /// Empty cells the rules forbid to a player, whoever is to move
    /// (renju's forbidden points for black). None by default.
    fn forbidden_moves(&self) -> Vec<String> {
        Vec::new()
    }
    fn render(&self) -> String;
    /// Forgets all search knowledge (table, killers, history).
    fn new_game(&mut self);
    fn set_hash(&mut self, megabytes: usize) -> Result<(), String>;
    fn set_params(&mut self, params: SearchParams);
    /// Plays from `book` from now on (`None`: no book). A book of another
    /// game or variant is refused and the session left as it was. A
    /// session that cannot play from a book refuses every one.
    fn set_book(&mut self, book: Option<Arc<Book>>) -> Result<(), String> {
        match book {
            None => Ok(()),
            Some(_) => Err("this engine's game cannot play from a book".to_string()),
        }
    }
    /// A search of the current position within `limits`.
    fn search_job(
        &self,
        limits: SearchLimits,
        stop: Arc<AtomicBool>,
        on_info: InfoCallback,
    ) -> SearchJob;
    /// Searches of the current position for the controller to repeat
    /// (MultiPV); `None` when the session cannot (then one line is given).
    fn repeated_search(&self, _stop: Arc<AtomicBool>) -> Option<RepeatedSearch> {
        None
    }
    /// `count` helpers for the next [`Session::search_job`] (Lazy SMP:
    /// they share its table and count their nodes into its info lines).
    /// They leave out the same root moves, and run until `stop` or until
    /// they complete the depth of `limits`; its clock is not theirs. None
    /// by default: a session that has no helpers searches on one thread.
    fn helper_jobs(
        &self,
        _count: usize,
        _limits: &SearchLimits,
        _stop: Arc<AtomicBool>,
    ) -> Vec<HelperJob> {
        Vec::new()
    }
}

pub struct GameSession<G: Game> {
    settings: Settings,
    position: G,
    searcher: Arc<Mutex<Searcher<G>>>,
    /// Helper searchers kept between searches (they keep their move-ordering
    /// memory); emptied before the table is cleared or resized.
    helpers: Arc<Mutex<Vec<Searcher<G>>>>,
}

impl<G: Game> GameSession<G> {
    pub fn new(settings: Settings, hash_mb: usize, params: SearchParams) -> Result<Self, String> {
        let position = G::start(&settings).map_err(|e| e.to_string())?;
        Ok(GameSession {
            settings,
            position,
            searcher: Arc::new(Mutex::new(Searcher::new(hash_mb, params)?)),
            helpers: Arc::new(Mutex::new(Vec::new())),
        })
    }

    /// The moves a game function lists for the position, as text.
    fn move_names(&self, list: impl Fn(&G, &mut Vec<G::Move>)) -> Vec<String> {
        let mut moves = Vec::new();
        list(&self.position, &mut moves);
        moves
            .iter()
            .map(|&mv| self.position.move_to_string(mv))
            .collect()
    }

    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher<G>> {
        // A panic inside a search must not take the engine down with it.
        self.searcher.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn helpers(&self) -> std::sync::MutexGuard<'_, Vec<Searcher<G>>> {
        self.helpers.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn info_line<G: Game>(root: &G, report: &Report<G::Move>) -> InfoLine {
    let time_ms = report.elapsed.as_millis() as u64;
    InfoLine {
        depth: report.depth,
        seldepth: report.seldepth,
        score: Score::from_internal(report.score),
        nodes: report.nodes,
        nps: nodes_per_second(report.nodes, report.elapsed),
        time_ms,
        hashfull: report.hashfull,
        multipv: None,
        pv: report
            .pv
            .iter()
            .map(|&mv| root.move_to_string(mv))
            .collect(),
    }
}

pub fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    (nodes as u128 * 1_000_000 / micros) as u64
}

impl<G: Game> Session for GameSession<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError> {
        let mut pos = match fen {
            Some(fen) => G::from_fen(fen, &self.settings)?,
            None => G::start(&self.settings)?,
        };
        for text in moves {
            let mv = pos.parse_move(text)?;
            pos.make_move(mv);
        }
        self.position = pos;
        Ok(())
    }

    fn play_move(&mut self, text: &str) -> Result<(), GameError> {
        let mv = self.position.parse_move(text)?;
        self.position.make_move(mv);
        Ok(())
    }

    fn fen(&self) -> String {
        self.position.to_fen()
    }

    fn side_to_move(&self) -> Player {
        self.position.side_to_move()
    }

    fn moves_to_go(&self) -> Option<u32> {
        self.position.moves_to_go()
    }

    fn most_moves_left(&self) -> Option<u32> {
        self.position.most_moves_left()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.move_names(G::generate_moves)
    }

    fn forbidden_moves(&self) -> Vec<String> {
        self.move_names(G::forbidden_moves)
    }

    fn render(&self) -> String {
        self.position.render()
    }

    fn new_game(&mut self) {
        self.helpers().clear();
        self.searcher().clear();
    }

    fn set_hash(&mut self, megabytes: usize) -> Result<(), String> {
        self.helpers().clear();
        self.searcher().resize(megabytes)
    }

    fn repeated_search(&self, stop: Arc<AtomicBool>) -> Option<RepeatedSearch> {
        let root = self.position.clone();
        let searcher = Arc::clone(&self.searcher);
        Some(Box::new(move |limits| {
            let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
            let result = searcher.search(&root, limits, Arc::clone(&stop), &mut |_| {});
            let whole = result.last.as_ref().map(|report| Report {
                nodes: result.nodes,
                elapsed: result.elapsed,
                ..report.clone()
            });
            SearchSummary {
                best: result.best.map(|mv| root.move_to_string(mv)),
                last: whole.as_ref().map(|r| info_line(&root, r)),
                nodes: result.nodes,
                elapsed: result.elapsed,
            }
        }))
    }

    fn helper_jobs(
        &self,
        count: usize,
        limits: &SearchLimits,
        stop: Arc<AtomicBool>,
    ) -> Vec<HelperJob> {
        let mut main = self.searcher();
        main.start_helpers(count);
        // The solving mode's helpers solve too, on a table shared with
        // the main searcher (proof numbers keep one thread).
        let solve = limits
            .solve
            .filter(|&proof| proof != Proof::ProofNumbers && main.share_solver_table().is_ok());
        let mut pool = self.helpers();
        while pool.len() < count {
            let id = pool.len() + 1;
            pool.push(main.helper(id));
        }
        let mut jobs: Vec<HelperJob> = Vec::with_capacity(count);
        for mut helper in pool.drain(..count) {
            helper.follow(&main);
            let root = self.position.clone();
            let stop = Arc::clone(&stop);
            let home = Arc::clone(&self.helpers);
            let limits = SearchLimits {
                depth: limits.depth,
                excluded: limits.excluded.clone(),
                solve,
                ..SearchLimits::default()
            };
            jobs.push(Box::new(move || {
                helper.search(&root, &limits, stop, &mut |_| {});
                home.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(helper);
            }));
        }
        jobs
    }

    fn set_params(&mut self, params: SearchParams) {
        self.searcher().params = params;
    }

    fn set_book(&mut self, book: Option<Arc<Book>>) -> Result<(), String> {
        if let Some(book) = &book {
            let ours = Header::new(G::DESCRIPTION, &self.settings, 0, &[]);
            let theirs = book.header();
            if !theirs.same_variant(&ours) {
                return Err(format!(
                    "the book is for {} on {} (rule {}), not {} on {} (rule {})",
                    theirs.game, theirs.board, theirs.rule, ours.game, ours.board, ours.rule
                ));
            }
        }
        self.searcher().book = book;
        Ok(())
    }

    fn search_job(
        &self,
        limits: SearchLimits,
        stop: Arc<AtomicBool>,
        mut on_info: InfoCallback,
    ) -> SearchJob {
        let root = self.position.clone();
        let searcher = Arc::clone(&self.searcher);
        Box::new(move || {
            let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
            let started = Instant::now();
            let mut last_sent: Option<Instant> = None;
            let mut pending: Option<InfoLine> = None;
            // Depth and nodes of the last line sent.
            let mut sent = None;
            let result = searcher.search(&root, &limits, stop, &mut |report| {
                let line = info_line(&root, report);
                let now = Instant::now();
                let free = now.duration_since(started) < INFO_FREE_PERIOD;
                if free || last_sent.is_none_or(|t| now.duration_since(t) >= INFO_INTERVAL) {
                    sent = Some((line.depth, line.nodes));
                    on_info(line);
                    last_sent = Some(now);
                    pending = None;
                } else {
                    pending = Some(line);
                }
            });
            // The last line describes the whole search: its last completed
            // depth, with the nodes and time of everything searched.
            if let Some(report) = &result.last {
                let whole = Report {
                    nodes: result.nodes,
                    elapsed: result.elapsed,
                    ..report.clone()
                };
                let line = info_line(&root, &whole);
                if pending.is_some() || sent != Some((line.depth, line.nodes)) {
                    on_info(line);
                }
            }
            SearchSummary {
                best: result.best.map(|mv| root.move_to_string(mv)),
                last: result.last.as_ref().map(|r| info_line(&root, r)),
                nodes: result.nodes,
                elapsed: result.elapsed,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry;

    fn session(game: &str, rule: Option<&str>) -> Box<dyn Session> {
        let settings = Settings {
            rule: rule.map(str::to_string),
            ..Settings::default()
        };
        registry::create(game, &settings, 1, SearchParams::default()).unwrap()
    }

    #[test]
    fn forbidden_points_are_renju_blacks_whoever_is_to_move() {
        // Black h8 i8 j7 j6: j8 would make two open threes.
        let board = "15/1o1o10o/2o12/15/15/15/15/7xx6/9x5/9x5/15/15/15/15/15";
        let mut renju = session("gomoku", Some("renju"));
        for side in ["x", "o"] {
            renju
                .set_position(Some(&format!("{board} {side}")), &[])
                .unwrap();
            assert_eq!(renju.forbidden_moves(), ["j8"], "{side} to move");
        }
        renju
            .set_position(Some(&format!("{board} x")), &[])
            .unwrap();
        assert!(!renju.legal_moves().contains(&"j8".to_string()));
        let mut free = session("gomoku", None);
        free.set_position(Some(&format!("{board} x")), &[]).unwrap();
        assert!(free.forbidden_moves().is_empty());
        assert!(free.legal_moves().contains(&"j8".to_string()));
        assert!(session("connect4", None).forbidden_moves().is_empty());
    }
}
