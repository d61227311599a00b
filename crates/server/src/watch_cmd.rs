//! `codegraph watch`: the engine's watch loop ([`codegraph_engine::watch`]) driven from the
//! command line, with one line per revision on stdout (`--json`: JSON lines) and a clean stop
//! on SIGINT / SIGTERM.

use anyhow::{Context, Result};
use codegraph_engine::engine::{Applied, Engine};
use codegraph_engine::index::{IndexOptions, IndexSummary};
use codegraph_engine::tree_events::TreeEvents;
use codegraph_engine::watch::{
    Batch, Rescan, Retry, apply, batch_of, next_batch, pending_note, rescan_reason,
};
use serde_json::json;
use std::io::Write;
use std::path::Path;
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
    // Watch before the initial sync, so that no edit falls between the two. The owner file
    // lets CLI queries take this process's word on freshness: each counted event turns it
    // "pending" until a revision holds it.
    let owner = codegraph_engine::owner::Owner::claim(db_path).map(Arc::new);
    let events = {
        let owner = owner.clone();
        TreeEvents::start(root, codegraph_engine::guard::index_files(db_path), move |_| {
            if let Some(o) = &owner {
                o.pending();
            }
        })
        .with_context(|| format!("cannot watch {}", root.display()))?
    };
    let events = Arc::new(events);
    let published = Arc::new(Published::default());
    let (mut engine, summary) = Engine::open(root, db_path, index_opts)?;
    engine.warm()?;
    published.set(0, engine.revision(), true);
    if let Some(o) = &owner {
        let (events, published) = (events.clone(), published.clone());
        o.serve(db_path, move |wait| published.claim(events.sync(), wait));
    }
    on_open(&summary)?;
    // Events counted up to here are in the published revision.
    let mut applied_seq = 0u64;
    let max_delay = (opts.debounce * 10).max(Duration::from_millis(50));
    let mut healthy = true;
    let mut retry = Retry::default();
    let mut last_check = Instant::now();
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

    let idle_batch =
        Batch { paths: Vec::new(), git_changed: false, rescan: Rescan::Retry, first_event: None };
    while !stop.load(Ordering::SeqCst) {
        if let Some(o) = &owner
            && healthy
            && events.sync() <= applied_seq
        {
            o.fresh(engine.revision());
        }
        let git_busy = || engine.git_busy();
        let Some(taken) =
            next_batch(&events, Duration::from_millis(100), opts.debounce, max_delay, &git_busy)
        else {
            // A whole-tree sync holds every event counted before it starts.
            let before = events.sync();
            let outcome = if retry.due() {
                // A failed publish: the whole tree again, until it lands.
                Some(engine.sync_full(false))
            } else if last_check.elapsed() >= INDEX_CHECK_INTERVAL {
                // The index file deleted or replaced under us: rebuilt, not written blind.
                last_check = Instant::now();
                engine.check_index().transpose()
            } else {
                None
            };
            if let Some(outcome) = outcome {
                let owner = owner.as_deref();
                healthy = settle(&engine, &idle_batch, outcome, &mut retry, owner, opts.json);
                if healthy {
                    applied_seq = applied_seq.max(before);
                }
                published.set(applied_seq, engine.revision(), healthy);
            }
            continue;
        };
        let upto = taken.upto;
        let batch = batch_of(&engine, taken, opts.max_batch_paths);
        let Some(applied) = apply(&mut engine, &batch) else {
            if !engine.needs_retry() {
                applied_seq = applied_seq.max(upto);
                published.set(applied_seq, engine.revision(), healthy);
            }
            continue;
        };
        healthy = settle(&engine, &batch, applied, &mut retry, owner.as_deref(), opts.json);
        if healthy {
            applied_seq = applied_seq.max(upto);
        }
        published.set(applied_seq, engine.revision(), healthy);
    }
    if let Some(o) = &owner {
        o.release();
    }
    drop(events);
    log_line(
        opts.json,
        &json!({"event": "stopped", "revision": engine.revision()}),
        &format!("stopped at revision {}", engine.revision()),
    );
    Ok(())
}

/// What the watch loop has published, for the owner's answers to CLI queries.
#[derive(Default)]
struct Published {
    /// (events applied up to, revision, whether the last publish landed)
    state: std::sync::Mutex<(u64, i64, bool)>,
    changed: std::sync::Condvar,
}

impl Published {
    fn set(&self, applied: u64, revision: i64, healthy: bool) {
        *self.state.lock().unwrap_or_else(|p| p.into_inner()) = (applied, revision, healthy);
        self.changed.notify_all();
    }

    /// Fresh once events up to `target` are published (waiting up to `wait` for that).
    fn claim(&self, target: u64, wait: Duration) -> codegraph_engine::owner::Claim {
        let deadline = Instant::now() + wait;
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            let (applied, revision, healthy) = *st;
            if applied >= target && healthy {
                return codegraph_engine::owner::Claim::Fresh { revision };
            }
            let now = Instant::now();
            if now >= deadline {
                return codegraph_engine::owner::Claim::Pending;
            }
            st = self
                .changed
                .wait_timeout(st, deadline - now)
                .map_or_else(|p| p.into_inner().0, |r| r.0);
        }
    }
}

/// How often an idle watch checks that its index file is still the one it writes.
const INDEX_CHECK_INTERVAL: Duration = Duration::from_secs(2);

/// Records one sync's outcome: a revision line, or a failure that leaves the owner file
/// "pending" with the reason and schedules a retry of the whole tree. Returns whether the
/// index now holds every applied event.
fn settle(
    engine: &Engine,
    batch: &Batch,
    outcome: Result<Applied>,
    retry: &mut Retry,
    owner: Option<&codegraph_engine::owner::Owner>,
    json_out: bool,
) -> bool {
    retry.record(&outcome);
    match outcome {
        Ok(a) => {
            report(engine, batch, &a, json_out);
            true
        }
        Err(e) => {
            let note = pending_note(&e);
            if let Some(o) = owner {
                o.pending_because(&note);
            }
            tracing::error!(error = %format!("{e:#}"), "publishing a revision failed; {note}");
            false
        }
    }
}

fn report(engine: &Engine, batch: &Batch, a: &Applied, json_out: bool) {
    let Some(revision) = a.revision else { return };
    if let Some(why) = &a.rebuilt {
        log_line(
            json_out,
            &json!({"event": "rebuilt", "revision": revision, "reason": why, "files": engine.file_count()}),
            &format!("revision {revision}: rebuilt from the tree ({why})"),
        );
        return;
    }
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
            "own_units_only": a.own_units_only,
            "publish_ms": a.publish_ms,
            "files": engine.file_count(),
        }),
        &format!(
            "revision {revision}: {} changed, {} removed, {} units rewritten{}; edit->publish {} (scan {:.1}, derive {:.1}{}, publish {:.1} ms)",
            a.changed_files,
            a.removed_files,
            a.units_rewritten,
            rescan.map_or(String::new(), |r| format!(", rescan: {r}")),
            latency_ms.map_or("?".to_string(), |l| format!("{l:.1} ms")),
            a.scan_ms,
            a.derive_ms,
            if a.own_units_only { " own units only" } else { "" },
            a.publish_ms,
        ),
    );
}

fn log_line(json_out: bool, value: &serde_json::Value, human: &str) {
    let mut out = std::io::stdout().lock();
    let _ = if json_out { writeln!(out, "{value}") } else { writeln!(out, "{human}") };
    let _ = out.flush();
}
