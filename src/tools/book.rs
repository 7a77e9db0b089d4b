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

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::engine::registry;
use crate::game::{Game, GameVisitor, Settings};
use crate::search::book::{
    Book, Header, JOURNAL_MAGIC, RECORD, best_move_by, book_move_by, kept_child_score, read_record,
    record, strategy_step, value_of_score,
};
use crate::search::clock::Clock;
use crate::search::solver::{SharedBounds, Solved, Solver};

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

/// Shard `index` of `count`, counted from 0 (`3/16` is the fourth of
/// sixteen): one share of the positions `plies` deep, for a process of
/// its own on any machine. Written and read as `I/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Shard `index` of `count`; an error unless `index < count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, String> {
        if count == 0 {
            return Err("a build cannot be split into 0 shards".to_string());
        }
        if index >= count {
            return Err(format!(
                "there is no shard {index}/{count}: shards count from 0, so I/N needs I below N (0/{count} to {}/{count})",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// Which shard this is, from 0.
    pub fn index(self) -> usize {
        self.index
    }

    /// How many shards the build is split into.
    pub fn count(self) -> usize {
        self.count
    }

    /// Whether the position at `i` in the order of the `deep` positions
    /// `plies` deep is this shard's.
    pub fn owns(self, i: usize, deep: usize) -> bool {
        owner(i, deep, self.count) == self.index
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let malformed =
            || format!("'{text}' is not I/N (shard I of N, I counted from 0: 0/N to N-1/N)");
        let (index, count) = text.split_once('/').ok_or_else(malformed)?;
        let number = |t: &str| t.parse::<usize>().map_err(|_| malformed());
        Shard::new(number(index)?, number(count)?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The runs of consecutive deep positions each shard takes.
const SHARD_RUNS: usize = 2;

/// The shard of `count` that solves the position at `i` in the order of
/// the `deep` positions `plies` deep: the layer is cut into runs of
/// consecutive positions, [`SHARD_RUNS`] for each shard, of lengths that
/// differ by one at most, dealt to the shards in turn.
///
/// Long runs keep what a shard's table learns from a position useful for
/// the next (neighbours share most of their trees); more than one run a
/// shard, from far apart in the layer, evens out the regions of the tree
/// that are harder to solve. Measured in nodes on Connect Four books of
/// 1,093 and 4,046 deep positions split into 3 and 8 shards, two runs a
/// shard searched 23-43% more nodes in all than one process (one run:
/// 17-33%, four: 25-58%, runs of 8 dealt in turn: 38-97%, single
/// positions dealt in turn: 40-116%), and its busiest shard was never
/// more than 3% behind the best of these (one run: up to 23%).
fn owner(i: usize, deep: usize, count: usize) -> usize {
    // In 128 bits: no count overflows.
    let runs = count as u128 * SHARD_RUNS as u128;
    let run = i as u128 * runs / deep.max(1) as u128;
    (run % count as u128) as usize
}

/// The journal shard `shard` of the book `out` keeps:
/// `FILE.shard-I-of-N.part`.
pub fn shard_journal(out: &Path, shard: Shard) -> PathBuf {
    sibling(
        out,
        &format!(".shard-{}-of-{}.part", shard.index, shard.count),
    )
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

/// What a journal holds.
struct Journal {
    /// Whose journal it is: a shard's, or (`None`) a whole build's.
    shard: Option<Shard>,
    /// Its records in the order written, a record cut short by an
    /// interruption left out.
    records: Vec<(u64, i8)>,
    /// The length of its header and whole records.
    whole: usize,
}

/// The journal at `path`, checked against `header`.
fn read_journal(path: &Path, header: &Header) -> anyhow::Result<Journal> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut file| file.read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", path.display()))?;
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| anyhow::anyhow!("{}: no journal header", path.display()))?;
    let line = String::from_utf8_lossy(&bytes[..end]);
    let (theirs, extra) = Header::parse(&line, JOURNAL_MAGIC)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if &theirs != header {
        bail!(
            "{} is the journal of another book ({})",
            path.display(),
            line.trim()
        );
    }
    let shard = match extra.as_slice() {
        [] => None,
        [(name, value)] if name == "shard" => Some(
            value
                .parse()
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
        ),
        _ => bail!(
            "{}: unknown journal header ({})",
            path.display(),
            line.trim()
        ),
    };
    let records = bytes[end + 1..].chunks_exact(RECORD);
    let whole = end + 1 + records.len() * RECORD;
    Ok(Journal {
        shard,
        records: records.map(read_record).collect(),
        whole,
    })
}

/// Whose journal one of `shard` is, in words.
fn whose(shard: Option<Shard>) -> String {
    match shard {
        Some(shard) => format!("shard {shard}'s journal"),
        None => "the journal of a build in one process".to_string(),
    }
}

/// Opens the journal at `path` for `shard` (`None`: a whole build) to
/// append to, written afresh with `header` when there is none; the values
/// an earlier run left in it.
fn resume_journal(
    path: &Path,
    header: &Header,
    shard: Option<Shard>,
) -> anyhow::Result<(HashMap<u64, i8>, BufWriter<File>)> {
    let mut values = HashMap::new();
    if path.exists() {
        let afresh = "remove it to start afresh";
        let journal = read_journal(path, header).map_err(|e| anyhow::anyhow!("{e}; {afresh}"))?;
        if journal.shard != shard {
            bail!(
                "{} is {}, not {}; {afresh}",
                path.display(),
                whose(journal.shard),
                whose(shard)
            );
        }
        // Keep the whole records only, so that a record cut short by an
        // interruption cannot shift the ones appended now.
        OpenOptions::new()
            .write(true)
            .open(path)?
            .set_len(journal.whole as u64)?;
        values.extend(journal.records);
    } else {
        let extra = shard.map_or(String::new(), |shard| format!(" shard={shard}"));
        fs::write(path, header.line(JOURNAL_MAGIC, &extra))?;
    }
    let journal = BufWriter::new(OpenOptions::new().append(true).open(path)?);
    Ok((values, journal))
}

/// The values of the deep positions (`deep`, in the layer's order) the
/// shards' journals at `paths` hold. Each journal must be of this book
/// (`header`) and of another shard of one split, each record a deep
/// position of its shard; no two records of a position may disagree, and
/// every deep position must be there.
fn merge_journals<G: Game>(
    paths: &[PathBuf],
    header: &Header,
    deep: &[G],
) -> anyhow::Result<HashMap<u64, i8>> {
    let index: HashMap<u64, usize> = deep
        .iter()
        .enumerate()
        .map(|(i, pos)| (pos.symmetric_key(), i))
        .collect();
    let mut values: HashMap<u64, (i8, &Path)> = HashMap::new();
    // Shard index to its journal, and the split of the first journal.
    let mut given: HashMap<usize, &Path> = HashMap::new();
    let mut split: Option<(usize, &Path)> = None;
    for path in paths {
        let journal = read_journal(path, header)?;
        let shard = journal.shard.ok_or_else(|| {
            anyhow::anyhow!("{} is {}, not a shard's", path.display(), whose(None))
        })?;
        let (count, first) = *split.get_or_insert((shard.count, path));
        if shard.count != count {
            bail!(
                "{} is a journal of a split into {} shards, {} of one into {count}: merge the journals of one split",
                path.display(),
                shard.count,
                first.display()
            );
        }
        if let Some(other) = given.insert(shard.index, path) {
            bail!(
                "{} and {} are both shard {shard}'s journal",
                other.display(),
                path.display()
            );
        }
        for (n, (key, value)) in journal.records.into_iter().enumerate() {
            let owned = index.get(&key).is_some_and(|&i| shard.owns(i, deep.len()));
            if !owned || value == i8::MIN {
                bail!(
                    "{}: record {n} is not a value of a position of shard {shard}; the journal is damaged",
                    path.display()
                );
            }
            match values.entry(key) {
                Entry::Occupied(known) if known.get().0 != value => bail!(
                    "{} and {} disagree on the value of {}",
                    known.get().1.display(),
                    path.display(),
                    deep[index[&key]].to_fen()
                ),
                Entry::Occupied(_) => {}
                Entry::Vacant(entry) => {
                    entry.insert((value, path));
                }
            }
        }
    }
    let Some((count, _)) = split else {
        bail!("no shard journal to merge");
    };
    // Per shard: its positions, and those no journal holds.
    let mut shares = vec![(0, 0); count];
    for (i, pos) in deep.iter().enumerate() {
        let share = &mut shares[owner(i, deep.len(), count)];
        share.0 += 1;
        if !values.contains_key(&pos.symmetric_key()) {
            share.1 += 1;
        }
    }
    let lacking: Vec<String> = shares
        .iter()
        .enumerate()
        .filter(|(_, share)| share.1 > 0)
        .map(|(s, &(owned, missing))| {
            let why = match given.get(&s) {
                Some(path) => format!("{} stops short: run the shard again", path.display()),
                None => "no journal of it given".to_string(),
            };
            format!("shard {s}/{count} lacks {missing} of its {owned} ({why})")
        })
        .collect();
    if !lacking.is_empty() {
        let missing: usize = shares.iter().map(|&(_, missing)| missing).sum();
        bail!(
            "the journals lack {missing} of the {} deep positions: {}",
            deep.len(),
            lacking.join("; ")
        );
    }
    Ok(values
        .into_iter()
        .map(|(key, (value, _))| (key, value))
        .collect())
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
    use super::*;
    use crate::game::connect4::Connect4;
    use crate::game::tictactoe::TicTacToe;
    use crate::search::book::score_of_value;
    use crate::search::reference;
    use crate::search::score::{MATE, MATE_BOUND};
    use crate::search::solver::tests::positions;

    /// A scratch directory of this test's own.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ply-book-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn options(game: &str, from: &str, plies: u32, out: PathBuf) -> BookOptions {
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

    fn play<G: Game>(moves: &str) -> G {
        let mut pos = G::start(&Settings::default()).unwrap();
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    fn build_and_load(options: &BookOptions) -> Book {
        let report = run(options, &mut Vec::new()).unwrap();
        assert!(report.complete);
        assert!(!sibling(&options.out, ".part").exists(), "journal left");
        let book = Book::parse(&fs::read(&options.out).unwrap()).unwrap();
        assert_eq!(book.len(), report.positions);
        book
    }

    const LATE: &str = "2 2 5 2 5 7 6 2 5 3 4 6 2 2 4 4 1 1 1 5 6 3";

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

    /// Shard `index` of `count` of `whole`'s book, built into `out`.
    fn shard(whole: &BookOptions, out: &Path, index: usize, count: usize) -> BookOptions {
        BookOptions {
            out: out.to_path_buf(),
            role: Role::Shard(Shard::new(index, count).unwrap()),
            ..whole.clone()
        }
    }

    /// The merge of `journals` into `out`.
    fn merge(whole: &BookOptions, out: &Path, journals: &[PathBuf]) -> BookOptions {
        BookOptions {
            out: out.to_path_buf(),
            role: Role::Merge(journals.to_vec()),
            ..whole.clone()
        }
    }

    /// The error a run gives.
    fn refusal(options: &BookOptions) -> String {
        run(options, &mut Vec::new()).unwrap_err().to_string()
    }

    #[test]
    fn shards_merged_give_the_same_book_as_one_process() {
        let dir = scratch("shards");
        let whole = options("connect4", LATE, 3, dir.join("one.book"));
        let one = run(&whole, &mut Vec::new()).unwrap();
        let out = dir.join("sharded.book");
        let mut journals = Vec::new();
        let mut shares = 0;
        for index in 0..3 {
            let mut part = shard(&whole, &out, index, 3);
            // Workers within a shard change nothing.
            part.threads = 1 + index;
            let report = run(&part, &mut Vec::new()).unwrap();
            assert!(report.complete && report.positions == 0 && report.base.is_none());
            assert_eq!((report.deep, report.solved), (one.deep, report.share));
            assert!(report.share > 10, "{}", report.share);
            shares += report.share;
            assert!(!out.exists(), "a shard writes no book");
            journals.push(shard_journal(&out, Shard::new(index, 3).unwrap()));
        }
        assert_eq!(shares, one.deep, "the shares split the deep positions");
        assert!(journals[1].ends_with("sharded.book.shard-1-of-3.part"));
        // A shard run again has nothing left to do.
        let again = run(&shard(&whole, &out, 1, 3), &mut Vec::new()).unwrap();
        assert_eq!(
            (again.solved, again.resumed, again.complete),
            (0, again.share, true)
        );

        let merged = run(&merge(&whole, &out, &journals), &mut Vec::new()).unwrap();
        assert!(merged.complete);
        assert_eq!((merged.positions, merged.solved), (one.positions, 0));
        assert_eq!(fs::read(&out).unwrap(), fs::read(&whole.out).unwrap());
        // The base's value, as a solve proves it.
        let mut solver = Solver::<Connect4>::new(4).unwrap();
        let exact = solver.solve(&play::<Connect4>(LATE), false).unwrap().score;
        assert_eq!(merged.base.map(score_of_value), Some(exact));
        assert_eq!(one.base, merged.base);
        // The journals are the merge's input: kept. A merge run again
        // finds the book written.
        assert!(journals.iter().all(|j| j.exists()));
        let again = run(&merge(&whole, &out, &journals), &mut Vec::new()).unwrap();
        assert_eq!((again.positions, again.base), (one.positions, one.base));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_shard_stopped_short_resumes_and_a_merge_without_it_names_it() {
        let dir = scratch("short");
        let whole = options("connect4", LATE, 3, dir.join("one.book"));
        build_and_load(&whole);
        let out = dir.join("sharded.book");
        let journals: Vec<PathBuf> = (0..3)
            .map(|i| shard_journal(&out, Shard::new(i, 3).unwrap()))
            .collect();
        for index in [0, 2] {
            run(&shard(&whole, &out, index, 3), &mut Vec::new()).unwrap();
        }
        let mut short = shard(&whole, &out, 1, 3);
        short.max_solves = Some(4);
        let first = run(&short, &mut Vec::new()).unwrap();
        assert_eq!((first.solved, first.complete), (4, false));
        let share = first.share;

        let e = refusal(&merge(
            &whole,
            &out,
            &[journals[0].clone(), journals[2].clone()],
        ));
        assert!(
            e.contains(&format!("lack {share} of the "))
                && e.contains(&format!(
                    "shard 1/3 lacks {share} of its {share} (no journal of it given)"
                )),
            "{e}"
        );
        let e = refusal(&merge(&whole, &out, &journals));
        let missing = share - 4;
        assert!(
            e.contains(&format!("shard 1/3 lacks {missing} of its {share} ("))
                && e.contains("stops short: run the shard again"),
            "{e}"
        );
        assert!(!out.exists());

        // Killed in the middle of a record: the record is dropped.
        let mut file = OpenOptions::new().append(true).open(&journals[1]).unwrap();
        file.write_all(&[7, 7, 7]).unwrap();
        drop(file);
        let second = run(&short, &mut Vec::new()).unwrap();
        assert_eq!(
            (second.solved, second.resumed, second.complete),
            (4, 4, false)
        );
        // The merge tolerates such a record too, and names what is missing.
        let mut file = OpenOptions::new().append(true).open(&journals[1]).unwrap();
        file.write_all(&[7, 7, 7]).unwrap();
        drop(file);
        let e = refusal(&merge(&whole, &out, &journals));
        assert!(
            e.contains(&format!("shard 1/3 lacks {} of its", share - 8)),
            "{e}"
        );
        short.max_solves = None;
        let last = run(&short, &mut Vec::new()).unwrap();
        assert_eq!(
            (last.resumed, last.solved + 8, last.complete),
            (8, share, true)
        );
        run(&merge(&whole, &out, &journals), &mut Vec::new()).unwrap();
        assert_eq!(fs::read(&out).unwrap(), fs::read(&whole.out).unwrap());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn journals_of_another_book_split_or_shard_and_damaged_ones_are_refused() {
        let dir = scratch("foreign");
        let whole = options("connect4", LATE, 2, dir.join("one.book"));
        let out = dir.join("sharded.book");
        let journal = |i, n| shard_journal(&out, Shard::new(i, n).unwrap());
        for index in 0..2 {
            run(&shard(&whole, &out, index, 2), &mut Vec::new()).unwrap();
        }
        run(&shard(&whole, &out, 0, 3), &mut Vec::new()).unwrap();
        let good = [journal(0, 2), journal(1, 2)];
        let bytes = fs::read(&good[0]).unwrap();
        let at = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        let header = String::from_utf8(bytes[..at].to_vec()).unwrap();
        assert!(
            header.starts_with(
                "plybook-journal 1 game=connect4 board=7x6 rule=- plies=2 from=2,2,5,"
            )
        );
        assert!(header.lines().next().unwrap().ends_with(" shard=0/2"));

        let refused = |journals: &[PathBuf], why: &str| {
            let e = refusal(&merge(&whole, &out, journals));
            assert!(e.contains(why), "{why}: {e}");
            assert!(!out.exists());
        };
        // Another book: other plies, another base.
        let other = options("connect4", LATE, 3, out.clone());
        let e = refusal(&merge(&other, &out, &good));
        assert!(e.contains("is the journal of another book"), "{e}");
        let other = options("connect4", &LATE[..LATE.len() - 2], 2, out.clone());
        assert!(refusal(&merge(&other, &out, &good)).contains("another book"));
        // Two splits, one shard twice, no journal.
        refused(
            &[good[0].clone(), journal(0, 3)],
            "merge the journals of one split",
        );
        refused(
            &[good[0].clone(), good[1].clone(), good[0].clone()],
            "are both shard 0/2's journal",
        );
        refused(&[], "no shard journal");
        // A whole build's journal, a missing one, one without a header,
        // one with a bad shard or a damaged record.
        let mut stopped = options("connect4", LATE, 2, dir.join("stopped.book"));
        stopped.max_solves = Some(2);
        run(&stopped, &mut Vec::new()).unwrap();
        refused(&[sibling(&stopped.out, ".part")], "not a shard's");
        refused(&[dir.join("missing.part")], "cannot read");
        let bad = dir.join("bad.part");
        fs::write(&bad, "").unwrap();
        refused(std::slice::from_ref(&bad), "no journal header");
        fs::write(&bad, header.replace("shard=0/2", "shard=2/2")).unwrap();
        refused(std::slice::from_ref(&bad), "there is no shard 2/2");
        fs::write(&bad, header.replace("shard=0/2", "shard=0/2 colour=blue")).unwrap();
        refused(std::slice::from_ref(&bad), "unknown journal header");
        let records = fs::read(&good[0]).unwrap();
        let mut damaged = records.clone();
        damaged.extend_from_slice(&record(0x0123_4567_89ab_cdef, 3));
        fs::write(&bad, &damaged).unwrap();
        refused(&[bad.clone(), good[1].clone()], "the journal is damaged");
        // Two records of one position that disagree.
        let (key, value) = read_record(&records[at..at + RECORD]);
        let mut twice = records.clone();
        twice.extend_from_slice(&record(key, value.wrapping_add(2)));
        fs::write(&bad, &twice).unwrap();
        refused(&[bad.clone(), good[1].clone()], "disagree on the value of");
        // The same value twice (a shard run twice at once) is no conflict.
        let mut again = records.clone();
        again.extend_from_slice(&record(key, value));
        fs::write(&bad, &again).unwrap();
        run(
            &merge(&whole, &out, &[bad.clone(), good[1].clone()]),
            &mut Vec::new(),
        )
        .unwrap();

        // A shard does not take over another's journal, nor a whole
        // build a shard's.
        fs::remove_file(&out).unwrap();
        fs::copy(journal(0, 3), journal(1, 3)).unwrap();
        let e = refusal(&shard(&whole, &out, 1, 3));
        assert!(
            e.contains("is shard 0/3's journal, not shard 1/3's journal; remove it"),
            "{e}"
        );
        fs::copy(journal(0, 3), sibling(&whole.out, ".part")).unwrap();
        let e = refusal(&whole);
        assert!(
            e.contains("is shard 0/3's journal, not the journal of a build in one process"),
            "{e}"
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_strategy_is_not_sharded_and_shard_text_is_checked() {
        let dir = scratch("strategy-shards");
        let mut whole = options("connect4", LATE, 2, dir.join("one.book"));
        whole.strategy = Some(4);
        let out = dir.join("sharded.book");
        for options in [
            shard(&whole, &out, 0, 2),
            merge(&whole, &out, std::slice::from_ref(&out)),
        ] {
            let e = refusal(&options);
            assert!(e.contains("--strategy is not split into shards"), "{e}");
        }
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "nothing written");

        assert_eq!("3/16".parse::<Shard>(), Shard::new(3, 16));
        assert_eq!(Shard::new(3, 16).unwrap().to_string(), "3/16");
        for (text, why) in [
            ("16/16", "there is no shard 16/16: shards count from 0"),
            ("0/0", "into 0 shards"),
            ("3", "'3' is not I/N"),
            ("a/4", "'a/4' is not I/N"),
            ("-1/4", "is not I/N"),
            ("1/2/3", "is not I/N"),
            ("", "is not I/N"),
        ] {
            let e = text.parse::<Shard>().unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
        // Every position goes to one shard, each shard takes two runs at
        // most, and the shares are even.
        for (deep, count) in [(1, 3), (5, 3), (100, 3), (101, 8), (4046, 16), (7, 1)] {
            let shares: Vec<Vec<usize>> = (0..count)
                .map(|s| {
                    let shard = Shard::new(s, count).unwrap();
                    (0..deep).filter(|&i| shard.owns(i, deep)).collect()
                })
                .collect();
            assert_eq!(shares.iter().map(Vec::len).sum::<usize>(), deep);
            let runs = |share: &[usize]| share.windows(2).filter(|w| w[1] != w[0] + 1).count() + 1;
            assert!(
                shares.iter().all(|share| runs(share) <= 2),
                "{deep} {count}"
            );
            let sizes = shares.iter().map(Vec::len);
            let spread = sizes.clone().max().unwrap() - sizes.min().unwrap();
            assert!(spread <= 2, "{deep} {count}: {shares:?}");
        }
        fs::remove_dir_all(dir).unwrap();
    }
}
