//! A build split into shards ([`Shard`]): which deep positions each shard
//! solves, its journal's name, and the merge of the shards' journals.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::bail;

use super::journal::read_journal;
use super::sibling;
use crate::game::Game;
use crate::search::book::Header;

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

/// Whose journal one of `shard` is, in words.
pub(super) fn whose(shard: Option<Shard>) -> String {
    match shard {
        Some(shard) => format!("shard {shard}'s journal"),
        None => "the journal of a build in one process".to_string(),
    }
}

/// The values of the deep positions (`deep`, in the layer's order) the
/// shards' journals at `paths` hold. Each journal must be of this book
/// (`header`) and of another shard of one split, each record a deep
/// position of its shard; no two records of a position may disagree, and
/// every deep position must be there.
pub(super) fn merge_journals<G: Game>(
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

#[cfg(test)]
mod tests {
    use std::fs::{self, OpenOptions};
    use std::io::Write;

    use super::super::tests::{LATE, build_and_load, options, play, scratch};
    use super::super::{BookOptions, Role, run, sibling};
    use super::*;
    use crate::game::connect4::Connect4;
    use crate::search::book::{RECORD, read_record, record, score_of_value};
    use crate::search::solver::Solver;

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
