//! Following a root's files: file-system events reduced to batches the engine applies, one
//! revision per debounced batch (the `watch` command and each `mcp` root drive it).
//!
//! Events come from notify through notify-debouncer-full (which stitches rename pairs and
//! editor save patterns such as write-to-temp + rename). A batch names paths; the engine
//! re-lists only their directories with the full scanner rules. When the watcher cannot say
//! what changed (an overflow, an error, a rescan flag), when an ignore file changed, or when a
//! batch names very many paths (a branch switch), the engine rescans the whole tree instead:
//! stat-only and hash-based, so cheap when little changed. Changes under `.git/` only refresh
//! HEAD and the dirty-file fingerprint. A publish in flight completes (or, if the process is
//! killed, leaves the previous revision).

use crate::engine::{Applied, Engine};
use anyhow::Result;
use notify::event::{AccessKind, AccessMode, EventKind};
use notify_debouncer_full::DebounceEventResult;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Why a batch is applied as a full rescan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rescan {
    No,
    /// The watcher lost events or reported an error.
    WatcherLost,
    /// An ignore file changed, so eligibility may have changed anywhere below it.
    IgnoreRules,
    /// Too many paths to list one by one.
    LargeBatch,
    /// A failed publish tried again ([`Retry`]).
    Retry,
}

/// A batch of events reduced to what the engine needs.
#[derive(Debug)]
pub struct Batch {
    pub paths: Vec<PathBuf>,
    pub git_changed: bool,
    pub rescan: Rescan,
    /// When the earliest event of the batch happened (edit-to-publish latency starts here).
    pub first_event: Option<Instant>,
}

impl Batch {
    /// Whether the batch may change the published graph (a `.git`-only batch does not).
    pub fn touches_tree(&self) -> bool {
        self.rescan != Rescan::No || !self.paths.is_empty()
    }
}

fn is_ignore_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == ".gitignore"
        || name == ".ignore"
        || (name == "exclude" && path.parent().is_some_and(|p| p.ends_with(".git/info")))
}

/// Whether an event only reads (an access other than a closed write): it changes nothing.
pub fn is_read(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Access(a) if *a != AccessKind::Close(AccessMode::Write))
}

/// Reduces the watcher's results to the paths to re-list, or to a rescan.
pub fn reduce(engine: &Engine, results: Vec<DebounceEventResult>, max_paths: usize) -> Batch {
    let mut batch =
        Batch { paths: Vec::new(), git_changed: false, rescan: Rescan::No, first_event: None };
    for result in results {
        let events = match result {
            Ok(events) => events,
            Err(errors) => {
                for e in errors {
                    tracing::warn!(error = %e, "watcher error; rescanning");
                }
                batch.rescan = Rescan::WatcherLost;
                continue;
            }
        };
        for e in events {
            if is_read(&e.event.kind) {
                continue;
            }
            if e.event.need_rescan() {
                batch.rescan = Rescan::WatcherLost;
            }
            let mut relevant = false;
            for p in &e.event.paths {
                if is_ignore_file(p) {
                    if batch.rescan == Rescan::No {
                        batch.rescan = Rescan::IgnoreRules;
                    }
                    relevant = true;
                } else if p.strip_prefix(engine.root()).is_ok_and(|r| r.starts_with(".git")) {
                    batch.git_changed = true;
                } else if !engine.is_irrelevant(p) {
                    batch.paths.push(p.clone());
                    relevant = true;
                }
            }
            if relevant || batch.rescan != Rescan::No {
                batch.first_event = Some(batch.first_event.map_or(e.time, |t| t.min(e.time)));
            }
        }
    }
    batch.paths.sort();
    batch.paths.dedup();
    if batch.rescan == Rescan::No && batch.paths.len() > max_paths {
        batch.rescan = Rescan::LargeBatch;
    }
    batch
}

/// A watcher of raw (undebounced) events that marks the owner file "pending" on any event
/// that may change the tree and notes when the last one came; `None` when it cannot start.
pub fn raw_watcher(
    root: &Path,
    db_path: &Path,
    owner: Arc<crate::owner::Owner>,
    last: Arc<std::sync::Mutex<Instant>>,
) -> Option<notify::RecommendedWatcher> {
    let root_owned = root.to_path_buf();
    let own_files = crate::guard::index_files(db_path);
    let mut w = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        // An error may hide an event: pending it is.
        let changes = res.as_ref().map_or(true, |e| is_tree_change(e, &root_owned, &own_files));
        if changes {
            *last.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
            owner.pending();
        }
    })
    .ok()?;
    notify::Watcher::watch(&mut w, root, notify::RecursiveMode::Recursive).ok()?;
    Some(w)
}

/// Whether a raw watcher event may change the tree: not a read (access events other than a
/// closed write), not git's own files, not the index's own files (`--db` inside the root).
pub fn is_tree_change(event: &notify::Event, root: &Path, own: &[PathBuf]) -> bool {
    if is_read(&event.kind) {
        return false;
    }
    event.paths.is_empty()
        || event.paths.iter().any(|p| {
            !own.iter().any(|o| p == o || p.starts_with(o))
                && !p.strip_prefix(root).is_ok_and(|r| r.starts_with(".git"))
        })
}

/// Applies a batch: refreshes HEAD when `.git` changed, then re-lists the batch's paths or
/// rescans. `None` when the batch names nothing in the tree.
pub fn apply(engine: &mut Engine, batch: &Batch) -> Option<Result<Applied>> {
    if batch.git_changed {
        engine.refresh_git();
    }
    if engine.needs_retry() && batch.touches_tree() {
        // A failed revision forgot its paths: only a whole-tree sync finds them again.
        return Some(engine.sync_full(batch.git_changed));
    }
    match batch.rescan {
        Rescan::No if batch.paths.is_empty() => None,
        Rescan::No => Some(engine.sync_paths(&batch.paths)),
        _ => Some(engine.sync_full(batch.git_changed)),
    }
}

/// When to try a failed publish again: after 250 ms, doubling up to 5 s, until one succeeds
/// (new events retry at once; the batch is never dropped, see [`Engine::apply`]).
#[derive(Debug)]
pub struct Retry {
    at: Option<Instant>,
    backoff: std::time::Duration,
}

impl Default for Retry {
    fn default() -> Self {
        Retry { at: None, backoff: Retry::FIRST }
    }
}

impl Retry {
    const FIRST: std::time::Duration = std::time::Duration::from_millis(250);
    const MAX: std::time::Duration = std::time::Duration::from_secs(5);

    /// Records the outcome of a sync.
    pub fn record<T>(&mut self, outcome: &Result<T>) {
        match outcome {
            Ok(_) => *self = Retry::default(),
            Err(_) => {
                self.at = Some(Instant::now() + self.backoff);
                self.backoff = (self.backoff * 2).min(Retry::MAX);
            }
        }
    }

    /// Whether a retry is waiting and its time has come.
    pub fn due(&self) -> bool {
        self.at.is_some_and(|t| Instant::now() >= t)
    }
}

/// What a live owner says while a failed publish waits for its retry: "publish pending:
/// locked" when another process held SQLite's write lock, else the first line of the error.
pub fn pending_note(e: &anyhow::Error) -> String {
    let text = format!("{e:#}");
    if text.contains("database is locked") || text.contains("database table is locked") {
        "publish pending: locked (another process holds the index's write lock); retrying".into()
    } else {
        let first = text.lines().next().unwrap_or("");
        format!("publish pending: {first}; retrying")
    }
}

pub fn rescan_reason(rescan: Rescan) -> Option<&'static str> {
    match rescan {
        Rescan::No => None,
        Rescan::WatcherLost => Some("watcher"),
        Rescan::IgnoreRules => Some("ignore-rules"),
        Rescan::LargeBatch => Some("large-batch"),
        Rescan::Retry => Some("retry"),
    }
}
