//! Following a root's files: file-system events reduced to batches the engine applies, one
//! revision per debounced batch (the `watch` command and each `mcp` root drive it).
//!
//! Events come from the root's [`TreeEvents`] (counted, so answers can tell whether a
//! revision holds every write made before them), debounced here. A batch names paths (a
//! rename names both; the engine re-lists what each is now); the engine
//! re-lists only their directories with the full scanner rules. When the watcher cannot say
//! what changed (an overflow, an error, a rescan flag), when an ignore file changed, or when a
//! batch names very many paths (a branch switch), the engine rescans the whole tree instead:
//! stat-only and hash-based, so cheap when little changed. Changes under `.git/` only refresh
//! HEAD and the dirty-file fingerprint. A publish in flight completes (or, if the process is
//! killed, leaves the previous revision).

use crate::engine::{Applied, Engine};
use crate::tree_events::{Taken, TreeEvents};
use anyhow::Result;
use notify::event::{AccessKind, AccessMode, EventKind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

/// Reduces the events taken from a root's [`TreeEvents`] to the paths to re-list, or to a
/// rescan.
pub fn batch_of(engine: &Engine, taken: Taken, max_paths: usize) -> Batch {
    let mut batch = Batch {
        paths: Vec::new(),
        git_changed: taken.git_changed,
        rescan: if taken.lost { Rescan::WatcherLost } else { Rescan::No },
        first_event: taken.first_event,
    };
    for p in taken.paths {
        if is_ignore_file(&p) {
            if batch.rescan == Rescan::No {
                batch.rescan = Rescan::IgnoreRules;
            }
        } else if !engine.is_irrelevant(&p) {
            batch.paths.push(p);
        }
    }
    if batch.rescan == Rescan::No && batch.paths.len() > max_paths {
        batch.rescan = Rescan::LargeBatch;
    }
    batch
}

/// Waits up to `timeout` for events, then until they have been quiet for `debounce` (at most
/// `max_delay` after the first of them), and takes them; `None` when none came. While
/// `git_busy` says git is rewriting the tree (a checkout holds the index lock until every
/// file is written), the batch waits for it, up to [`crate::git::GIT_BUSY_MAX`] after its
/// first event: a branch switch is then one revision, not one per slice of files taken
/// while git writes (a 2,000-file checkout of the Go standard library took two, 7.5 s).
pub fn next_batch(
    events: &TreeEvents,
    timeout: Duration,
    debounce: Duration,
    max_delay: Duration,
    git_busy: &dyn Fn() -> bool,
) -> Option<Taken> {
    if !events.wait(timeout) {
        return None;
    }
    loop {
        events.sync();
        let (quiet, first) = events.ages();
        let quiet = quiet.unwrap_or(debounce);
        let first = first.unwrap_or_default();
        if quiet >= debounce || first >= max_delay {
            if first < crate::git::GIT_BUSY_MAX && git_busy() {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            }
            return Some(events.take());
        }
        let wait = (debounce - quiet).min(max_delay.saturating_sub(first));
        std::thread::sleep(wait.max(Duration::from_millis(1)));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// While git says it is rewriting the tree, writes keep going into one batch, taken once
    /// git is done; without it, a debounced batch is taken while the writes go on.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_batch_waits_for_git_to_finish_rewriting_the_tree() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        let events = TreeEvents::start(&root, Vec::new(), |_| {}).expect("watch");
        let busy = std::sync::Arc::new(AtomicBool::new(true));
        let writer = {
            let (root, busy) = (root.clone(), busy.clone());
            std::thread::spawn(move || {
                // A checkout: files written 30 ms apart (each past the debounce), then done.
                for i in 0..5 {
                    std::fs::write(root.join(format!("f{i}.go")), "package f\n").expect("write");
                    std::thread::sleep(Duration::from_millis(30));
                }
                busy.store(false, Ordering::SeqCst);
            })
        };
        let git_busy = || busy.load(Ordering::SeqCst);
        let (debounce, max_delay) = (Duration::from_millis(10), Duration::from_millis(20));
        let taken = next_batch(&events, Duration::from_secs(5), debounce, max_delay, &git_busy)
            .expect("a batch");
        writer.join().expect("writer");
        let names: Vec<String> = taken
            .paths
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        assert_eq!(names, ["f0.go", "f1.go", "f2.go", "f3.go", "f4.go"], "one batch for all");

        // Git not busy: the first write's batch is taken before the others are written.
        let writer = {
            let root = root.clone();
            std::thread::spawn(move || {
                for i in 5..8 {
                    std::fs::write(root.join(format!("f{i}.go")), "package f\n").expect("write");
                    std::thread::sleep(Duration::from_millis(30));
                }
            })
        };
        let idle = || false;
        let taken = next_batch(&events, Duration::from_secs(5), debounce, max_delay, &idle)
            .expect("a batch");
        writer.join().expect("writer");
        assert!(taken.paths.len() < 3, "{:?}", taken.paths);
    }
}
