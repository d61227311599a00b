//! Is the published revision still the tree on disk? When a live `watch` or `mcp` process
//! owns the index, its word ([`crate::owner`]); otherwise stats every eligible file (the same
//! walk the indexer does) and compares size and modification time with what the revision
//! recorded; only files whose stat differs are read and hashed. New, changed and removed
//! paths make the answer stale, and are listed.

use crate::engine::scan_options;
use crate::scan::{read_file, walk};
use anyhow::Result;
use codegraph_query::{Reader, SourceRow};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// What differs between the tree and the revision.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Freshness {
    pub added: Vec<String>,
    pub modified: Vec<String>,
    pub removed: Vec<String>,
}

impl Freshness {
    pub fn stale(&self) -> bool {
        !(self.added.is_empty() && self.modified.is_empty() && self.removed.is_empty())
    }

    pub fn changed(&self) -> usize {
        self.added.len() + self.modified.len() + self.removed.len()
    }
}

/// Compares the tree under `root` with the sources of the reader's revision; `db_path` is the
/// index's own file (never part of the tree).
pub fn freshness(root: &Path, db_path: &Path, reader: &Reader<'_>) -> Result<Freshness> {
    freshness_of(root, db_path, reader, &reader.source_stats()?)
}

/// [`freshness`] against `sources`, the reader's [`Reader::source_stats`] already read.
pub fn freshness_of(
    root: &Path,
    db_path: &Path,
    reader: &Reader<'_>,
    sources: &[SourceRow],
) -> Result<Freshness> {
    let known: HashMap<&str, (u64, i64, &str)> =
        sources.iter().map(|s| (s.path.as_str(), (s.size, s.mtime_ns, s.hash.as_str()))).collect();
    let max_size = reader.max_file_size()?.unwrap_or(crate::scan::DEFAULT_MAX_FILE_SIZE);
    let walked = walk(root, &scan_options(db_path, max_size), root, None);
    // Files the revision skipped when reading them (binary, unreadable) are not new; whether
    // one became indexable is noticed by the next index or watch, not here.
    let skipped: HashSet<String> =
        reader.diagnostics(true, usize::MAX >> 1)?.into_iter().map(|d| d.path).collect();
    let mut out = Freshness::default();
    let mut seen: HashSet<&str> = HashSet::with_capacity(walked.candidates.len());
    let mut candidates = Vec::new();
    for c in &walked.candidates {
        seen.insert(c.rel.as_str());
        match known.get(c.rel.as_str()) {
            None if skipped.contains(&c.rel) => {}
            None => out.added.push(c.rel.clone()),
            Some((size, mtime, _)) if c.stat_matches(*size, *mtime) => {}
            Some(_) => candidates.push(c),
        }
    }
    let hashed: Vec<(&str, Option<String>)> = candidates
        .par_iter()
        .map(|c| (c.rel.as_str(), read_file(c).ok().map(|f| f.meta.hash)))
        .collect();
    for (rel, hash) in hashed {
        if hash.as_deref() != known.get(rel).map(|k| k.2) {
            out.modified.push(rel.to_string());
        }
    }
    out.removed = known.keys().filter(|k| !seen.contains(*k)).map(|k| k.to_string()).collect();
    out.added.sort();
    out.modified.sort();
    out.removed.sort();
    Ok(out)
}

/// Whether the revision `reader` sees is stale: the live owner's word when it speaks of this
/// revision (or of unpublished edits), else the walk of [`freshness`].
pub fn is_stale(root: &Path, db_path: &Path, reader: &Reader<'_>) -> Result<bool> {
    match owner_word(db_path, reader.revision()) {
        Some(stale) => Ok(stale),
        None => Ok(freshness(root, db_path, reader)?.stale()),
    }
}

/// [`is_stale`] against `sources`, the reader's [`Reader::source_stats`] already read.
pub fn is_stale_of(
    root: &Path,
    db_path: &Path,
    reader: &Reader<'_>,
    sources: &[SourceRow],
) -> Result<bool> {
    match owner_word(db_path, reader.revision()) {
        Some(stale) => Ok(stale),
        None => Ok(freshness_of(root, db_path, reader, sources)?.stale()),
    }
}

/// What a live owner of the index at `db_path` says of `revision`, asked now
/// ([`crate::owner::ask`]: every write completed before this call counts): `Some(false)` when
/// every event is published in it, `Some(true)` when events are pending or it published a
/// later revision, `None` when no live owner answers (then only a walk can tell).
pub fn owner_word(db_path: &Path, revision: i64) -> Option<bool> {
    match crate::owner::ask(db_path, std::time::Duration::ZERO)? {
        crate::owner::Claim::Fresh { revision: r } => Some(r != revision),
        crate::owner::Claim::Pending => Some(true),
    }
}
