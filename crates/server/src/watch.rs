//! `codegraph watch`: keeps the index of a root fresh while files change, publishing one
//! revision per debounced batch of file-system events.
//!
//! Events come from notify through notify-debouncer-full (which stitches rename pairs and
//! editor save patterns such as write-to-temp + rename). A batch names paths; the engine
//! re-lists only their directories with the full scanner rules. When the watcher cannot say
//! what changed (an overflow, an error, a rescan flag), when an ignore file changed, or when a
//! batch names very many paths (a branch switch), the engine rescans the whole tree instead:
//! stat-only and hash-based, so cheap when little changed. Changes under `.git/` only refresh
//! HEAD and the dirty-file fingerprint. SIGINT / SIGTERM stop the loop between batches; a
//! publish in flight completes (or, if the process is killed, leaves the previous revision).

use crate::engine::{Applied, Engine};
use crate::index::{IndexOptions, IndexSummary};
use anyhow::{Context, Result};
use notify::event::{AccessKind, AccessMode, EventKind};
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub struct WatchOptions {
    /// Quiet time after the last event before a batch is applied.
    pub debounce: Duration,
    /// A batch naming more paths than this is applied as a full rescan.
    pub max_batch_paths: usize,
    /// JSON lines on stdout instead of human lines.
    pub json: bool,
}

/// Why a batch is applied as a full rescan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rescan {
    No,
    /// The watcher lost events or reported an error.
    WatcherLost,
    /// An ignore file changed, so eligibility may have changed anywhere below it.
    IgnoreRules,
    /// Too many paths to list one by one.
    LargeBatch,
}

/// A batch of events reduced to what the engine needs.
#[derive(Debug)]
pub(crate) struct Batch {
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
pub(crate) fn is_read(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Access(a) if *a != AccessKind::Close(AccessMode::Write))
}

/// Reduces the watcher's results to the paths to re-list, or to a rescan.
pub(crate) fn reduce(
    engine: &Engine,
    results: Vec<DebounceEventResult>,
    max_paths: usize,
) -> Batch {
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

/// Runs the watch loop until SIGINT or SIGTERM.
pub fn run_watch(
    root: &Path,
    db_path: &Path,
    index_opts: &IndexOptions,
    opts: &WatchOptions,
    on_open: impl FnOnce(&IndexSummary) -> Result<()>,
) -> Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(signal, stop.clone())
            .context("cannot install the SIGINT/SIGTERM handler")?;
    }
    let (tx, rx) = std::sync::mpsc::channel::<DebounceEventResult>();
    // Watch before the initial sync, so that no edit falls between the two.
    let mut debouncer =
        new_debouncer(opts.debounce, None, tx).context("cannot start the watcher")?;
    debouncer
        .watch(root, notify::RecursiveMode::Recursive)
        .with_context(|| format!("cannot watch {}", root.display()))?;
    // The owner file lets CLI queries take this process's word on freshness; a raw watcher
    // turns it "pending" on the first event of an edit, before the debounce.
    let owner = crate::owner::Owner::claim(db_path).map(Arc::new);
    let raw_last: Arc<std::sync::Mutex<Instant>> = Arc::new(std::sync::Mutex::new(Instant::now()));
    let raw = owner.as_ref().and_then(|o| raw_watcher(root, db_path, o.clone(), raw_last.clone()));
    let owner = if raw.is_some() { owner } else { None };
    let (mut engine, summary) = Engine::open(root, db_path, index_opts)?;
    engine.warm()?;
    on_open(&summary)?;
    // Quiet this long after the last raw event, with every delivered batch applied, and the
    // debouncer has handed over every event: the published revision is the tree.
    let quiet_needed = opts.debounce * 2 + Duration::from_millis(100);
    let mut healthy = true;
    log_line(
        opts.json,
        &json!({
            "event": "watching",
            "root": root.display().to_string(),
            "revision": engine.revision(),
            "files": engine.file_count(),
        }),
        &format!(
            "watching {} at revision {} ({} files)",
            root.display(),
            engine.revision(),
            engine.file_count()
        ),
    );

    while !stop.load(Ordering::SeqCst) {
        let first = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(r) => r,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Some(o) = &owner {
                    let last = *raw_last.lock().unwrap_or_else(|e| e.into_inner());
                    if healthy && last.elapsed() >= quiet_needed {
                        o.fresh(engine.revision());
                    }
                }
                continue;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the file watcher stopped unexpectedly")
            }
        };
        let mut results = vec![first];
        results.extend(rx.try_iter());
        let batch = reduce(&engine, results, opts.max_batch_paths);
        let Some(applied) = apply(&mut engine, &batch) else { continue };
        match applied {
            Ok(a) => {
                healthy = true;
                report(&engine, &batch, &a, opts.json)
            }
            // A failed revision leaves the previous one published; the next batch retries
            // from the tree as it is then. Until then the owner file stays "pending".
            Err(e) => {
                healthy = false;
                if let Some(o) = &owner {
                    o.pending();
                }
                tracing::error!(error = %format!("{e:#}"), "publishing a revision failed")
            }
        }
    }
    if let Some(o) = &owner {
        o.release();
    }
    drop(raw);
    drop(debouncer);
    log_line(
        opts.json,
        &json!({"event": "stopped", "revision": engine.revision()}),
        &format!("stopped at revision {}", engine.revision()),
    );
    Ok(())
}

/// A watcher of raw (undebounced) events that marks the owner file "pending" on any event
/// that may change the tree and notes when the last one came; `None` when it cannot start.
fn raw_watcher(
    root: &Path,
    db_path: &Path,
    owner: Arc<crate::owner::Owner>,
    last: Arc<std::sync::Mutex<Instant>>,
) -> Option<notify::RecommendedWatcher> {
    let root_owned = root.to_path_buf();
    let mut own_files = codegraph_query::database_files(db_path).to_vec();
    own_files.extend(crate::owner::owner_files(db_path));
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
pub(crate) fn is_tree_change(event: &notify::Event, root: &Path, own: &[PathBuf]) -> bool {
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
pub(crate) fn apply(engine: &mut Engine, batch: &Batch) -> Option<Result<Applied>> {
    if batch.git_changed {
        engine.refresh_git();
    }
    match batch.rescan {
        Rescan::No if batch.paths.is_empty() => None,
        Rescan::No => Some(engine.sync_paths(&batch.paths)),
        _ => Some(engine.sync_full(batch.git_changed)),
    }
}

pub(crate) fn rescan_reason(rescan: Rescan) -> Option<&'static str> {
    match rescan {
        Rescan::No => None,
        Rescan::WatcherLost => Some("watcher"),
        Rescan::IgnoreRules => Some("ignore-rules"),
        Rescan::LargeBatch => Some("large-batch"),
    }
}

fn report(engine: &Engine, batch: &Batch, a: &Applied, json_out: bool) {
    let Some(revision) = a.revision else { return };
    let latency_ms = batch.first_event.map(|t| t.elapsed().as_secs_f64() * 1000.0);
    let rescan = rescan_reason(batch.rescan);
    log_line(
        json_out,
        &json!({
            "event": "revision",
            "revision": revision,
            "changed_files": a.changed_files,
            "removed_files": a.removed_files,
            "units_rewritten": a.units_rewritten,
            "rescan": rescan,
            "latency_ms": latency_ms,
            "scan_ms": a.scan_ms,
            "derive_ms": a.derive_ms,
            "publish_ms": a.publish_ms,
            "files": engine.file_count(),
        }),
        &format!(
            "revision {revision}: {} changed, {} removed, {} units rewritten{}; edit->publish {} (scan {:.1}, derive {:.1}, publish {:.1} ms)",
            a.changed_files,
            a.removed_files,
            a.units_rewritten,
            rescan.map_or(String::new(), |r| format!(", rescan: {r}")),
            latency_ms.map_or("?".to_string(), |l| format!("{l:.1} ms")),
            a.scan_ms,
            a.derive_ms,
            a.publish_ms,
        ),
    );
}

fn log_line(json_out: bool, value: &serde_json::Value, human: &str) {
    let mut out = std::io::stdout().lock();
    let _ = if json_out { writeln!(out, "{value}") } else { writeln!(out, "{human}") };
    let _ = out.flush();
}
