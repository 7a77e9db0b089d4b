#![warn(missing_docs)]
//! `ply book`: an opening book of exact values for every position reachable
//! in N plies from a base position (mirror images folded through
//! [`Game::symmetric_key`]).
//!
//! The positions N plies deep are solved with the solving mode, its table
//! kept from one to the next (neighbours share most of their trees), by
//! one worker or several at once on one shared table; the shallower ones are then valued by negamax
//! over their moves, from the deeper values. Positions whose game is over
//! are not stored. Every deep value is appended to a journal, `FILE.part`,
//! as soon as it is proved: a build that is stopped continues from the
//! journal when run again, and the journal is removed once the book is
//! written (to `FILE.tmp`, then renamed to `FILE`).
//!
//! A build can also be spread over processes on any machines
//! ([`Role::Shard`]): each shard solves its share of the deep positions
//! into a journal of its own, `FILE.shard-I-of-N.part`, and writes no
//! book; then [`Role::Merge`] reads every shard's journal, checks them and
//! writes the book a build in one process would have written, byte for
//! byte.
//!
//! This file is the build itself; the journal of deep values a build
//! keeps is in `book/journal.rs`, the split into shards and their merge in
//! `book/shard.rs`.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use anyhow::bail;

use crate::engine::registry;
use crate::game::{Game, GameVisitor, Settings};
use crate::search::book::{
    Book, Header, best_move_by, book_move_by, kept_child_score, record, strategy_step,
    value_of_score,
};
use crate::search::clock::Clock;
use crate::search::solver::{SharedBounds, Solved, Solver};

mod journal;
mod shard;

use journal::resume_journal;
use shard::merge_journals;
pub use shard::{Shard, shard_journal};

/// What to build.
#[derive(Clone, Debug)]
pub struct BookOptions {
    /// The game, by name.
    pub game: String,
    /// Its variant.
    pub settings: Settings,
    /// Plies from the base position: every position reachable in at most
    /// this many is in the book.
    pub plies: u32,
    /// Moves from the start position to the base position.
    pub from: Vec<String>,
    /// The book file.
    pub out: PathBuf,
    /// The solvers' tables, in MB all told.
    pub hash_mb: usize,
    /// Workers: each solves deep positions of its own, all at once, on
    /// one table they share.
    pub threads: usize,
    /// Stop after solving this many deep positions (the journal keeps
    /// them; running again continues): to build a large book in parts.
    pub max_solves: Option<usize>,
    /// A progress line on the log writer, updated about once a second.
    pub progress: bool,
    /// Extend the book along each side's strategy to this ply (see
    /// protocol.md, "Opening books"); `None` or not beyond `plies`: no
    /// extension. Only for [`Role::Whole`].
    pub strategy: Option<u32>,
    /// The whole build, one shard of it, or the merge of the shards.
    pub role: Role,
}

/// What a run does with the positions `plies` deep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Role {
    /// Solves them all and writes the book.
    #[default]
    Whole,
    /// Solves the shard's share of them into the shard's own journal
    /// ([`shard_journal`]), resumable as a whole build is; writes no book.
    Shard(Shard),
    /// Solves nothing: writes the book from these journals, one of each
    /// shard, after checking that they are of this book and of one split,
    /// hold every deep position and agree.
    Merge(Vec<PathBuf>),
}

/// What a build did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookReport {
    /// Positions in the book (0 when the build stopped before the end).
    pub positions: usize,
    /// Positions `plies` deep (each solved).
    pub deep: usize,
    /// The deep positions this run answers for: all of them, or a shard's
    /// share.
    pub share: usize,
    /// Deep positions solved by this run.
    pub solved: usize,
    /// Deep positions whose value the journal (or the book being
    /// extended) already held.
    pub resumed: usize,
    /// Positions of the strategy extension solved by this run (counted in
    /// `solved` too).
    pub strategy_solved: usize,
    /// Nodes the solves of this run took.
    pub nodes: u64,
    /// Whether the book file is complete, or for a shard its journal
    /// (false: stopped by `max_solves`).
    pub complete: bool,
    /// The base position's value in the book written (signed plies to the
    /// end, as in the file), when one was.
    pub base: Option<i8>,
}

/// Builds (or finishes building) the book `options` describe; the
/// progress line goes to `log`.
pub fn run(options: &BookOptions, log: &mut dyn Write) -> anyhow::Result<BookReport> {
    struct Build<'a> {
        options: &'a BookOptions,
        log: &'a mut dyn Write,
    }
    impl GameVisitor for Build<'_> {
        type Output = anyhow::Result<BookReport>;
        fn visit<G: Game>(self, settings: &Settings) -> Self::Output {
            build::<G>(self.options, settings, self.log)
        }
    }
    registry::visit(&options.game, &options.settings, Build { options, log })
        .map_err(anyhow::Error::msg)?
}

/// `FILE` with `suffix` added to its name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The positions reachable from `base` in 0, 1, ... `plies` plies whose
/// game is not over, one list per ply, each position once up to symmetry
/// (in the order of first reaching it, so that neighbours stay together).
fn layers<G: Game>(base: &G, plies: u32) -> Vec<Vec<G>> {
    let mut layers = vec![vec![base.clone()]];
    for _ in 0..plies {
        let last = layers.last().map_or(&[][..], Vec::as_slice);
        // No choice of move: every move is followed, so no error.
        let next = strategy_step(last, None).unwrap_or_default();
        if next.is_empty() {
            break;
        }
        layers.push(next);
    }
    layers
}

/// Consecutive positions a worker takes at a time: neighbours in a
/// layer's order share much of their trees, which the table keeps.
const CHUNK: usize = 8;

/// Solves the positions of `todo`, at most `budget` of them, with
/// `workers` solvers at once on `table`, each taking a chunk at a time;
/// `each` gets every solved position's index in `todo` and its solution,
/// on this thread, in the order they are proved. An error from `each`
/// stops the workers and is returned.
fn solve_all<G: Game>(
    todo: &[&G],
    table: &Arc<SharedBounds>,
    workers: usize,
    budget: usize,
    mut each: impl FnMut(usize, Solved<G::Move>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let budget = budget.min(todo.len());
    let workers = workers.clamp(1, budget.max(1));
    let stop = Arc::new(AtomicBool::new(false));
    let next = AtomicUsize::new(0);
    let claimed = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..workers {
            let mut solver = Solver::<G, _>::sharing(table);
            solver.set_limits(Clock::unlimited(Arc::clone(&stop)));
            let sender = sender.clone();
            let (next, claimed) = (&next, &claimed);
            scope.spawn(move || {
                loop {
                    let start = next.fetch_add(CHUNK, AtomicOrdering::Relaxed);
                    if start >= todo.len() {
                        return;
                    }
                    for (i, pos) in todo.iter().enumerate().skip(start).take(CHUNK) {
                        if claimed.fetch_add(1, AtomicOrdering::Relaxed) >= budget {
                            return;
                        }
                        // `None`: the build stopped the workers.
                        let Some(solved) = solver.solve(pos, false) else {
                            return;
                        };
                        if sender.send((i, solved)).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(sender);
        let mut collect = || -> anyhow::Result<()> {
            for (i, solved) in &receiver {
                each(i, solved)?;
            }
            Ok(())
        };
        let collected = collect();
        if collected.is_err() {
            // The workers give up at their next look at the flag.
            stop.store(true, AtomicOrdering::Relaxed);
            for _ in &receiver {}
        }
        collected
    })
}

/// A solved position's value as a book value.
fn book_value<G: Game>(pos: &G, score: i32) -> anyhow::Result<i8> {
    value_of_score(score)
        .ok_or_else(|| anyhow::anyhow!("{}: a value too long for a book", pos.to_fen()))
}

/// The progress line, at most once a second: positions solved of a
/// phase (a layer, a ply of the strategy), the time so far and the time
/// left at the phase's rate.
struct Progress {
    started: Instant,
    shown: Instant,
    phase: Instant,
}

impl Progress {
    /// A phase begins: its rate is measured from now.
    fn begin(&mut self) {
        self.phase = Instant::now();
    }

    /// `solved` positions solved in this phase, `done` of `total` in all.
    fn show(
        &mut self,
        log: &mut dyn Write,
        what: &str,
        (solved, done, total): (usize, usize, usize),
    ) -> io::Result<()> {
        if self.shown.elapsed() < Duration::from_secs(1) {
            return Ok(());
        }
        self.shown = Instant::now();
        let rate = self.phase.elapsed().as_secs_f64() / solved.max(1) as f64;
        let left = rate * total.saturating_sub(done) as f64;
        write!(
            log,
            "\rbook: {what}: {done}/{total} positions solved, {:.0} s, about {left:.0} s left   ",
            self.started.elapsed().as_secs_f64()
        )?;
        log.flush()
    }

    /// The phase's last line: all `total` solved.
    fn finish(&self, log: &mut dyn Write, what: &str, total: usize, then: &str) -> io::Result<()> {
        writeln!(
            log,
            "\rbook: {what}: {total}/{total} positions solved, {:.0} s{then}",
            self.started.elapsed().as_secs_f64()
        )
    }
}

fn build<G: Game>(
    options: &BookOptions,
    settings: &Settings,
    log: &mut dyn Write,
) -> anyhow::Result<BookReport> {
    let started = Instant::now();
    let mut base = G::start(settings)?;
    for text in &options.from {
        let mv = base.parse_move(text)?;
        base.make_move(mv);
    }
    if base.outcome().is_some() {
        bail!("the game is over in the base position");
    }
    if options.strategy.is_some() && options.role != Role::Whole {
        bail!(
            "--strategy is not split into shards: build the full plies with --shard and --merge, then extend the merged book in one process (the same command with --strategy, without --shard or --merge)"
        );
    }
    let mut header = Header::new(G::DESCRIPTION, settings, options.plies, &options.from);
    header.strategy = options
        .strategy
        .filter(|&s| s >= options.plies)
        .unwrap_or(0);
    let mut report = BookReport {
        positions: 0,
        deep: 0,
        share: 0,
        solved: 0,
        resumed: 0,
        strategy_solved: 0,
        nodes: 0,
        complete: false,
        base: None,
    };
    let mut values = HashMap::new();
    if options.out.exists() {
        let book = Book::parse(&fs::read(&options.out)?)
            .map_err(|e| anyhow::anyhow!("{} exists: {e}", options.out.display()))?;
        let mut extended = book.header().clone();
        extended.strategy = header.strategy;
        if book.header() == &header {
            report.positions = book.len();
            report.complete = true;
            report.base = book.value(base.symmetric_key());
            return Ok(report);
        }
        if extended != header || book.header().strategy > header.strategy {
            bail!(
                "{} exists and is another book; remove it first",
                options.out.display()
            );
        }
        // The same book with a shorter strategy: extended, not rebuilt.
        values.extend(book.entries());
    }

    let layers = layers(&base, options.plies);
    let depth = layers.len() - 1;
    let deep = &layers[depth];
    report.deep = deep.len();
    let shard = match &options.role {
        Role::Whole => None,
        Role::Shard(shard) => Some(*shard),
        Role::Merge(journals) => {
            values.extend(merge_journals(journals, &header, deep)?);
            report.share = deep.len();
            report.resumed = deep.len();
            let book = back_up(&layers, &mut values)?;
            return write_book(header, book, &base, &options.out, report);
        }
    };
    let journal_path = match shard {
        Some(shard) => shard_journal(&options.out, shard),
        None => sibling(&options.out, ".part"),
    };
    let (journaled, mut journal) = resume_journal(&journal_path, &header, shard)?;
    values.extend(journaled);
    let share: Vec<&G> = deep
        .iter()
        .enumerate()
        .filter(|&(i, _)| shard.is_none_or(|shard| shard.owns(i, deep.len())))
        .map(|(_, pos)| pos)
        .collect();
    let todo: Vec<&G> = share
        .iter()
        .copied()
        .filter(|p| !values.contains_key(&p.symmetric_key()))
        .collect();
    report.share = share.len();
    report.resumed = share.len() - todo.len();
    let mut budget = options.max_solves.unwrap_or(usize::MAX);
    // One table for all workers (for one too: the same search either way).
    let table = SharedBounds::new(options.hash_mb).map_err(anyhow::Error::msg)?;
    let mut progress = Progress {
        started,
        shown: Instant::now(),
        phase: Instant::now(),
    };
    let what = match shard {
        Some(shard) => format!("ply {depth}, shard {shard}"),
        None => format!("ply {depth}"),
    };
    let done = solve_all(&todo, &table, options.threads, budget, |i, solved| {
        let value = book_value(todo[i], solved.score)?;
        let key = todo[i].symmetric_key();
        // Flushed at once: a kill loses no proved value.
        journal.write_all(&record(key, value))?;
        journal.flush()?;
        values.insert(key, value);
        report.solved += 1;
        report.nodes += solved.nodes;
        if options.progress {
            let counts = (report.solved, report.solved + report.resumed, share.len());
            progress.show(log, &what, counts)?;
        }
        Ok(())
    });
    journal.flush()?;
    done?;
    budget -= report.solved;
    if report.solved < todo.len() {
        return stopped(report, options, log);
    }
    if shard.is_some() {
        // The merge writes the book.
        if options.progress {
            progress.finish(log, &what, share.len(), "")?;
        }
        report.complete = true;
        return Ok(report);
    }
    if options.progress {
        progress.finish(log, &what, deep.len(), "; backing up the shallower plies")?;
    }

    let mut book = back_up(&layers, &mut values)?;
    if header.strategy > 0 {
        let extension = Extension {
            options,
            base: &base,
            first: depth as u32,
            last: header.strategy,
            table: &table,
        };
        let complete = extension.run(
            &mut book,
            &values,
            &mut journal,
            &mut report,
            &mut budget,
            (&mut progress, log),
        )?;
        journal.flush()?;
        if !complete {
            return stopped(report, options, log);
        }
    }
    drop(journal);
    let report = write_book(header, book, &base, &options.out, report)?;
    fs::remove_file(&journal_path)?;
    Ok(report)
}

/// Values the positions of `layers` above the deepest by negamax over
/// their moves, from the deepest ones' in `values` (to which they are
/// added); the entries of a book of these layers.
fn back_up<G: Game>(
    layers: &[Vec<G>],
    values: &mut HashMap<u64, i8>,
) -> anyhow::Result<HashMap<u64, i8>> {
    let depth = layers.len() - 1;
    for layer in layers[..depth].iter().rev() {
        for pos in layer {
            let (_, score) = best_move_by(pos, |key| values.get(&key).copied())
                .ok_or_else(|| anyhow::anyhow!("{}: a move leads out of the book", pos.to_fen()))?;
            values.insert(pos.symmetric_key(), book_value(pos, score)?);
        }
    }
    // Only the positions of this book (a journal may hold others).
    Ok(layers
        .iter()
        .flatten()
        .map(|pos| {
            let key = pos.symmetric_key();
            (key, values[&key])
        })
        .collect())
}

/// Writes the book of `header` and `entries` to `out` (by way of
/// `FILE.tmp`, renamed when complete); `report` completed with it.
fn write_book<G: Game>(
    header: Header,
    entries: HashMap<u64, i8>,
    base: &G,
    out: &Path,
    mut report: BookReport,
) -> anyhow::Result<BookReport> {
    let book = Book::new(header, entries.into_iter().collect());
    let tmp = sibling(out, ".tmp");
    let mut file = BufWriter::new(File::create(&tmp)?);
    book.write(&mut file)?;
    file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    fs::rename(&tmp, out)?;
    report.positions = book.len();
    report.complete = true;
    report.base = book.value(base.symmetric_key());
    Ok(report)
}

/// A build stopped by `max_solves`: the journal keeps what was solved.
fn stopped(
    report: BookReport,
    options: &BookOptions,
    log: &mut dyn Write,
) -> anyhow::Result<BookReport> {
    if options.progress {
        writeln!(log)?;
    }
    Ok(report)
}

/// The strategy extension: from ply `first` to ply `last` (counted from
/// the base), for each side, every position that side reaches when it
/// plays the book's moves and the other side plays anything. Each such
/// position with that side to move where the book cannot tell a move is
/// solved, and stored with the value of the position its best move leads
/// to, from which [`book_move_by`] finds a move again.
///
/// The walk looks moves up in the book being built, exactly as play
/// will; since a later entry can change the move an earlier position
/// shows (a child whose value becomes known), the walk is repeated until
/// one solves nothing: then every position the strategies reach has its
/// move in the book.
struct Extension<'a, G> {
    options: &'a BookOptions,
    base: &'a G,
    first: u32,
    last: u32,
    table: &'a Arc<SharedBounds>,
}

impl<G: Game> Extension<'_, G> {
    /// Extends `book` (the entries so far), taking values proved before
    /// from `journaled` and appending new ones to the journal; `false`
    /// when stopped by the budget of solves.
    fn run(
        &self,
        book: &mut HashMap<u64, i8>,
        journaled: &HashMap<u64, i8>,
        journal: &mut dyn Write,
        report: &mut BookReport,
        budget: &mut usize,
        (progress, log): (&mut Progress, &mut dyn Write),
    ) -> anyhow::Result<bool> {
        let options = self.options;
        let full: HashSet<u64> = book.keys().copied().collect();
        loop {
            let mut solves = 0;
            // The entries this walk's moves rest on.
            let mut used = HashSet::new();
            // trees[s]: the positions at this ply of side s's strategy (s
            // = 0 the side to move at the base).
            let mut trees = [vec![self.base.clone()], vec![self.base.clone()]];
            for ply in 0..=self.last {
                let mover = (ply % 2) as usize;
                if ply >= self.first {
                    let mut todo = Vec::new();
                    for pos in &trees[mover] {
                        if book_move_by(pos, |key| book.get(&key).copied()).is_none()
                            && !adopt(pos, journaled, book)
                        {
                            todo.push(pos);
                        }
                    }
                    progress.begin();
                    let what = format!("strategy, ply {ply}");
                    let mut solved_here = 0;
                    solve_all(&todo, self.table, options.threads, *budget, |i, solved| {
                        let pos = todo[i];
                        let best = solved
                            .best
                            .ok_or_else(|| anyhow::anyhow!("{}: no move to store", pos.to_fen()))?;
                        let mut proved =
                            vec![(pos.symmetric_key(), book_value(pos, solved.score)?)];
                        let mut child = pos.clone();
                        child.make_move(best);
                        if child.outcome().is_none() {
                            let after = book_value(&child, kept_child_score(solved.score))?;
                            proved.push((child.symmetric_key(), after));
                        }
                        for (key, value) in proved {
                            journal.write_all(&record(key, value))?;
                            book.insert(key, value);
                        }
                        journal.flush()?;
                        solved_here += 1;
                        report.solved += 1;
                        report.strategy_solved += 1;
                        report.nodes += solved.nodes;
                        if options.progress {
                            let counts = (solved_here, solved_here, todo.len());
                            progress.show(log, &what, counts)?;
                        }
                        Ok(())
                    })?;
                    *budget -= solved_here;
                    solves += solved_here;
                    if solved_here < todo.len() {
                        return Ok(false);
                    }
                    if options.progress && !todo.is_empty() {
                        progress.finish(log, &what, solved_here, "")?;
                    }
                    for pos in &trees[mover] {
                        used.extend(resting_on(pos, book));
                    }
                }
                if ply < self.last {
                    let book_move = |pos: &G| book_move_by(pos, |key| book.get(&key).copied());
                    for (side, tree) in trees.iter_mut().enumerate() {
                        *tree = strategy_step(tree, (side == mover).then_some(&book_move))
                            .map_err(anyhow::Error::msg)?;
                    }
                }
            }
            if solves == 0 {
                // Entries a later one made redundant (a solve's child that
                // the walk does not choose) are dropped: the moves found
                // do not change, since every position chosen at has its
                // value in the book and the first child proving it is
                // kept.
                book.retain(|key, _| full.contains(key) || used.contains(key));
                return Ok(true);
            }
        }
    }
}

/// The keys of `pos` and of the position after its book move (unless the
/// game ends there).
fn resting_on<G: Game>(pos: &G, book: &HashMap<u64, i8>) -> Vec<u64> {
    let mut keys = vec![pos.symmetric_key()];
    if let Some((mv, _)) = book_move_by(pos, |key| book.get(&key).copied()) {
        let mut child = pos.clone();
        child.make_move(mv);
        if child.outcome().is_none() {
            keys.push(child.symmetric_key());
        }
    }
    keys
}

/// Takes `pos`'s value and a child's that proves it from `journaled` (an
/// interrupted build's solves) into `book`; whether it found them.
fn adopt<G: Game>(pos: &G, journaled: &HashMap<u64, i8>, book: &mut HashMap<u64, i8>) -> bool {
    let Some(value) = journaled.get(&pos.symmetric_key()).copied() else {
        return false;
    };
    let known = |key: u64| {
        if key == pos.symmetric_key() {
            Some(value)
        } else {
            journaled.get(&key).copied()
        }
    };
    let Some((mv, _)) = book_move_by(pos, known) else {
        return false;
    };
    book.insert(pos.symmetric_key(), value);
    let mut child = pos.clone();
    child.make_move(mv);
    if child.outcome().is_none() {
        let key = child.symmetric_key();
        book.insert(key, journaled[&key]);
    }
    true
}

#[cfg(test)]
mod tests {
    use std::fs::OpenOptions;

    use super::*;
    use crate::game::connect4::Connect4;
    use crate::game::tictactoe::TicTacToe;
    use crate::search::book::{RECORD, score_of_value};
    use crate::search::reference;
    use crate::search::score::{MATE, MATE_BOUND};
    use crate::search::solver::tests::positions;

    /// A scratch directory of this test's own.
    pub(super) fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ply-book-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    pub(super) fn options(game: &str, from: &str, plies: u32, out: PathBuf) -> BookOptions {
        BookOptions {
            game: game.to_string(),
            settings: Settings::default(),
            plies,
            from: from.split_whitespace().map(str::to_string).collect(),
            out,
            hash_mb: 4,
            threads: 1,
            max_solves: None,
            progress: false,
            strategy: None,
            role: Role::Whole,
        }
    }

    pub(super) fn play<G: Game>(moves: &str) -> G {
        let mut pos = G::start(&Settings::default()).unwrap();
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    pub(super) fn build_and_load(options: &BookOptions) -> Book {
        let report = run(options, &mut Vec::new()).unwrap();
        assert!(report.complete);
        assert!(!sibling(&options.out, ".part").exists(), "journal left");
        let book = Book::parse(&fs::read(&options.out).unwrap()).unwrap();
        assert_eq!(book.len(), report.positions);
        book
    }

    pub(super) const LATE: &str = "2 2 5 2 5 7 6 2 5 3 4 6 2 2 4 4 1 1 1 5 6 3";

    #[test]
    fn connect4_entries_match_direct_solves() {
        let dir = scratch("c4");
        let book = build_and_load(&options("connect4", LATE, 3, dir.join("late.book")));
        let mut all = Vec::new();
        positions(&mut play::<Connect4>(LATE), 3, &mut all);
        let keys: HashSet<u64> = all.iter().map(|p| p.symmetric_key()).collect();
        assert_eq!(
            book.len(),
            keys.len(),
            "every position once, up to mirroring"
        );
        assert!(book.len() > 100, "{}", book.len());
        let mut solver = Solver::<Connect4>::new(4).unwrap();
        for pos in &all {
            solver.clear();
            let exact = solver.solve(pos, false).unwrap().score;
            assert_eq!(book.score(pos), Some(exact), "{}", pos.to_fen());
        }
        // The mirror image of the base is in the book with the same value.
        let mirrored: String = LATE
            .split_whitespace()
            .map(|c| (8 - c.parse::<u8>().unwrap()).to_string() + " ")
            .collect();
        let image = play::<Connect4>(&mirrored);
        assert_ne!(image.to_fen(), all[0].to_fen());
        assert_eq!(book.score(&image), book.score(&all[0]));
        // Below the deepest ply the book names a best move that keeps
        // the value.
        for pos in all.iter().filter(|p| p.plies() < 25) {
            let (mv, score) = book.best_move(pos).unwrap();
            assert_eq!(Some(score), book.score(pos));
            let mut child = pos.clone();
            child.make_move(mv);
            let after = match child.outcome() {
                Some(_) => MATE - 1,
                None => crate::search::book::parent_score(book.score(&child).unwrap()),
            };
            assert_eq!(after, score, "{}", pos.to_fen());
        }
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_whole_tic_tac_toe_book_is_negamax() {
        let dir = scratch("ttt");
        let book = build_and_load(&options("tictactoe", "", 9, dir.join("ttt.book")));
        let mut all = Vec::new();
        positions(&mut play::<TicTacToe>(""), 9, &mut all);
        let keys: HashSet<u64> = all.iter().map(|p| p.hash()).collect();
        assert_eq!(book.len(), keys.len());
        assert_eq!(book.score(&all[0]), Some(0), "tic-tac-toe is a draw");
        for pos in all.iter().step_by(5) {
            let exact = reference::negamax(&mut pos.clone(), 10, false);
            assert_eq!(book.score(pos), Some(exact), "{}", pos.to_fen());
        }
        let wins = book.entries().filter(|&(_, v)| v > 0).count();
        assert!(wins > 100 && score_of_value(1) >= MATE_BOUND);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn an_interrupted_build_resumes_where_it_stopped() {
        let dir = scratch("resume");
        let whole = options("connect4", LATE, 2, dir.join("whole.book"));
        build_and_load(&whole);
        let mut parts = options("connect4", LATE, 2, dir.join("parts.book"));
        parts.max_solves = Some(5);
        let first = run(&parts, &mut Vec::new()).unwrap();
        assert_eq!((first.solved, first.resumed, first.complete), (5, 0, false));
        assert!(!parts.out.exists());
        // A record cut short, as by a kill in the middle of a write.
        let journal = sibling(&parts.out, ".part");
        let mut file = OpenOptions::new().append(true).open(&journal).unwrap();
        file.write_all(&[1, 2, 3]).unwrap();
        drop(file);
        let second = run(&parts, &mut Vec::new()).unwrap();
        assert_eq!(
            (second.solved, second.resumed, second.complete),
            (5, 5, false)
        );
        parts.max_solves = None;
        let last = run(&parts, &mut Vec::new()).unwrap();
        assert_eq!(last.resumed, 10);
        assert_eq!(last.solved + last.resumed, last.deep);
        assert!(last.complete && !journal.exists());
        assert_eq!(fs::read(&parts.out).unwrap(), fs::read(&whole.out).unwrap());
        // Done already: nothing to solve.
        let again = run(&parts, &mut Vec::new()).unwrap();
        assert_eq!((again.solved, again.positions), (0, last.positions));
        // Another book's file or journal is left alone.
        let other = options("connect4", LATE, 1, parts.out.clone());
        let e = run(&other, &mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("another book"), "{e}");
        fs::write(
            &journal,
            "plybook-journal 1 game=connect4 board=7x6 rule=- plies=9 from=-\n",
        )
        .unwrap();
        let elsewhere = options("connect4", LATE, 1, dir.join("parts2.book"));
        fs::rename(&journal, sibling(&elsewhere.out, ".part")).unwrap();
        let e = run(&elsewhere, &mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("journal of another book"), "{e}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn workers_build_the_same_book_as_one() {
        let dir = scratch("workers");
        let one = options("connect4", LATE, 3, dir.join("one.book"));
        build_and_load(&one);
        let mut three = options("connect4", LATE, 3, dir.join("three.book"));
        three.threads = 3;
        build_and_load(&three);
        assert_eq!(fs::read(&three.out).unwrap(), fs::read(&one.out).unwrap());
        // Workers stop at the solve limit, exactly, and a build with
        // another number of workers resumes from their journal.
        let mut parts = options("connect4", LATE, 3, dir.join("parts.book"));
        parts.threads = 2;
        parts.max_solves = Some(7);
        let first = run(&parts, &mut Vec::new()).unwrap();
        assert_eq!((first.solved, first.complete), (7, false));
        let journal = fs::read(sibling(&parts.out, ".part")).unwrap();
        let header = journal.iter().position(|&b| b == b'\n').unwrap() + 1;
        assert_eq!(journal.len(), header + 7 * RECORD);
        parts.threads = 3;
        parts.max_solves = None;
        let last = run(&parts, &mut Vec::new()).unwrap();
        assert_eq!((last.resumed, last.solved + 7), (7, last.deep));
        assert_eq!(fs::read(&parts.out).unwrap(), fs::read(&one.out).unwrap());
        fs::remove_dir_all(dir).unwrap();
    }

    /// Every position either side's strategy reaches in `book` has a
    /// book move, and the move keeps the value a solve from a cleared
    /// table proves; the number of such positions.
    fn check_strategy(book: &Book, base: &Connect4) -> usize {
        let positions = book.strategy_positions(base).unwrap();
        let mut solver = Solver::<Connect4>::new(4).unwrap();
        for pos in &positions {
            solver.clear();
            let exact = solver.solve(pos, false).unwrap().score;
            let (mv, score) = book.best_move(pos).unwrap();
            assert_eq!(score, exact, "{}", pos.to_fen());
            let mut child = pos.clone();
            child.make_move(mv);
            if child.outcome().is_none() {
                solver.clear();
                let after = solver.solve(&child, false).unwrap().score;
                assert_eq!(crate::search::book::parent_score(after), exact);
            }
        }
        positions.len()
    }

    #[test]
    fn a_strategy_extension_gives_each_sides_positions_a_move_that_keeps_the_value() {
        let dir = scratch("strategy");
        let base = play::<Connect4>(LATE);
        let mut whole = options("connect4", LATE, 2, dir.join("whole.book"));
        whole.strategy = Some(7);
        let book = build_and_load(&whole);
        assert_eq!(book.header().strategy, 7);
        let reached = check_strategy(&book, &base);
        assert!(reached > 50, "{reached}");
        // Deeper than the full plies, only strategy positions and their
        // moves' children are held: far fewer than all positions.
        let mut all = Vec::new();
        positions(&mut base.clone(), 7, &mut all);
        let keys: HashSet<u64> = all.iter().map(|p| p.symmetric_key()).collect();
        assert!(
            book.len() * 2 < keys.len(),
            "{} of {}",
            book.len(),
            keys.len()
        );

        // Built in parts (stopped inside the extension) and by extending
        // a book with a shorter strategy: the same coverage.
        let mut parts = options("connect4", LATE, 2, dir.join("parts.book"));
        parts.strategy = Some(4);
        build_and_load(&parts);
        parts.strategy = Some(7);
        parts.max_solves = Some(20);
        let first = run(&parts, &mut Vec::new()).unwrap();
        assert_eq!((first.solved, first.complete), (20, false));
        parts.max_solves = None;
        let book = build_and_load(&parts);
        assert_eq!(book.header().strategy, 7);
        assert!(check_strategy(&book, &base) > 50);
        // A longer book is not cut back to a shorter strategy.
        parts.strategy = Some(5);
        let e = run(&parts, &mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("another book"), "{e}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_finished_or_unknown_base_is_refused() {
        let dir = scratch("refused");
        let over = options("tictactoe", "a1 b1 a2 b2 a3", 2, dir.join("x.book"));
        assert!(run(&over, &mut Vec::new()).is_err());
        let illegal = options("connect4", "9", 2, dir.join("x.book"));
        assert!(run(&illegal, &mut Vec::new()).is_err());
        fs::remove_dir_all(dir).unwrap();
    }
}
