//! The journal of a build or a shard: every deep value appended as soon as
//! it is proved, `FILE.part` (or `FILE.shard-I-of-N.part`, whose header
//! names its shard), read back to resume a build that was stopped or to
//! merge the shards.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read};
use std::path::Path;

use anyhow::{Context, bail};

use super::shard::{Shard, whose};
use crate::search::book::{Header, JOURNAL_MAGIC, RECORD, read_record};

/// What a journal holds.
pub(super) struct Journal {
    /// Whose journal it is: a shard's, or (`None`) a whole build's.
    pub(super) shard: Option<Shard>,
    /// Its records in the order written, a record cut short by an
    /// interruption left out.
    pub(super) records: Vec<(u64, i8)>,
    /// The length of its header and whole records.
    pub(super) whole: usize,
}

/// The journal at `path`, checked against `header`.
pub(super) fn read_journal(path: &Path, header: &Header) -> anyhow::Result<Journal> {
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

/// Opens the journal at `path` for `shard` (`None`: a whole build) to
/// append to, written afresh with `header` when there is none; the values
/// an earlier run left in it.
pub(super) fn resume_journal(
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
