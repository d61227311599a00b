//! The roots an MCP server serves, and the index lifecycle of each: on the first call for a
//! root a worker thread opens (or builds) its index and then keeps it fresh with the file
//! watcher, publishing one revision per batch of edits. Queries never run on the worker: they
//! read the published SQLite snapshot through their own read-only connections, so a query on
//! one root never waits behind a build of another, and a query on a root whose worker is busy
//! answers from the last published revision and says it is stale.
//!
//! Staleness comes from the root's counted file events ([`TreeEvents`]), not from a walk per
//! query: before it answers, a query reads the OS's event queue to the end (microseconds) and
//! the answer is current only if the worker has published every event counted by then, so a
//! write made before the request is never in an answer that says `stale: false` unless the
//! revision holds it (read-your-writes). A root is also stale while the worker (re)opens the
//! index, or after a publish failed. When the watcher cannot run (for example the inotify
//! limit is reached) the worker polls the tree with stat-based rescans instead and each answer
//! checks freshness with the same stat walk `codegraph status` uses.

use anyhow::{Result, anyhow};
use codegraph_engine::engine::Engine;
use codegraph_engine::index::IndexOptions;
use codegraph_engine::tree_events::TreeEvents;
use codegraph_engine::watch::{apply, batch_of, next_batch, rescan_reason};
use codegraph_query::{QueryError, Store};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often an idle root checks that its index file is still the one it writes.
const INDEX_CHECK_INTERVAL: Duration = Duration::from_secs(2);

/// Quiet time after the last publish before flows and clusters are recomputed.
pub const DERIVE_QUIET: Duration = Duration::from_millis(750);
/// Least time between two computations of flows and clusters of one root.
pub const DERIVE_MIN_INTERVAL: Duration = Duration::from_secs(5);

/// Held while one root's flows and clusters are computed (see `run_deriver`).
static DERIVING: Mutex<()> = Mutex::new(());

/// Taken while a root with an index opens (restore, catch-up, warm). Roots opening at once on
/// two cores finish no sooner in all, while their transient values interleave with what each
/// keeps, which leaves the allocator's pages fragmented (the Go standard library and three
/// worktrees in one `mcp` settled ~5% higher, and higher still at peak); one at a time, a
/// root opening after a sibling finds the sibling's values to share as it computes
/// (`codegraph_resolve` shares equal values across databases). A root waits at most
/// [`OPEN_TURN_WAIT`] for its turn and answers from its published snapshot meanwhile; a root
/// with no index (a full build, possibly long) never takes a turn, so it never holds back a
/// sibling.
static OPENING: OpenTurn = OpenTurn { busy: Mutex::new(false), freed: Condvar::new() };

/// The longest a root waits for another root's open before opening alongside it.
const OPEN_TURN_WAIT: Duration = Duration::from_secs(15);

struct OpenTurn {
    busy: Mutex<bool>,
    freed: Condvar,
}

/// A turn at opening (`None`: waited too long, opening without one); dropping it hands the
/// turn on.
struct Turn(Option<&'static OpenTurn>);

impl OpenTurn {
    /// The turn once no other root holds it, or after `max` without one.
    fn take(&'static self, max: Duration) -> Turn {
        let deadline = Instant::now() + max;
        let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        while *busy {
            let now = Instant::now();
            if now >= deadline {
                return Turn(None);
            }
            busy =
                self.freed.wait_timeout(busy, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
        }
        *busy = true;
        Turn(Some(self))
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(turn) = self.0 {
            *turn.busy.lock().unwrap_or_else(|e| e.into_inner()) = false;
            turn.freed.notify_one();
        }
    }
}

/// How the server runs the workers of its roots.
#[derive(Debug, Clone)]
pub struct RootOptions {
    pub max_file_size: u64,
    /// A root with no index may start from a sibling worktree's.
    pub share: bool,
    /// A root with no index first tries this shared store (`--cache-from`).
    pub cache_from: Option<std::sync::Arc<dyn codegraph_engine::remote::SnapshotStore>>,
    /// Quiet time after the last file event before a batch is applied.
    pub debounce: Duration,
    /// How long a query waits for the first index of a root before answering "building".
    pub build_wait: Duration,
    /// How long an impact query waits for pending edits to be published.
    pub refresh_wait: Duration,
    /// Polling interval when the file watcher is unavailable.
    pub poll_interval: Duration,
    /// The `codegraph` binary, to compute flows and clusters in a child process
    /// (`codegraph derive-flows DB`); `None` computes them in this process.
    pub deriver: Option<PathBuf>,
    /// Turn co-change on for the root's index (kept there, like `index --cochange`).
    pub cochange: bool,
}

impl Default for RootOptions {
    fn default() -> Self {
        RootOptions {
            max_file_size: codegraph_engine::scan::DEFAULT_MAX_FILE_SIZE,
            share: true,
            cache_from: None,
            debounce: Duration::from_millis(10),
            build_wait: Duration::from_secs(30),
            refresh_wait: Duration::from_secs(2),
            poll_interval: Duration::from_secs(2),
            cochange: false,
            deriver: None,
        }
    }
}

/// Where a root's worker is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// No call has named the root yet.
    Idle,
    /// Opening the index: restoring and re-checking an existing one, or building it.
    Opening { had_index: bool },
    /// The worker follows the tree.
    Ready,
    /// Opening failed; the next call retries.
    Failed(String),
}

impl Phase {
    pub fn as_str(&self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Opening { had_index: true } => "syncing",
            Phase::Opening { had_index: false } => "building",
            Phase::Ready => "ready",
            Phase::Failed(_) => "failed",
        }
    }
}

/// The shared state of one root's worker.
#[derive(Debug, Clone)]
pub struct RootState {
    pub phase: Phase,
    /// The newest revision the worker published (or found when it opened the index).
    pub revision: Option<i64>,
    /// Batches of file events counted ([`TreeEvents::sync`]), and the count up to which the
    /// worker applied them (published or found empty): a caller that wants the edits made
    /// before it arrived syncs, then waits until `applied_seq` reaches the `seen_seq` it read,
    /// which later events cannot postpone.
    pub seen_seq: u64,
    pub applied_seq: u64,
    /// The last publish failed: the tree may differ from the index until the next succeeds.
    pub failed_publish: Option<String>,
    /// Whether the file watcher runs (else the worker polls).
    pub watching: bool,
    pub watch_error: Option<String>,
    pub started: Option<Instant>,
    pub last_publish: Option<Instant>,
    /// Revisions this server published (the opening build or update included).
    pub published: u64,
}

impl RootState {
    /// File events were counted that the worker has not published yet (as of the last sync:
    /// see [`RootHandle::synced`]).
    pub fn pending(&self) -> bool {
        self.applied_seq < self.seen_seq
    }
}

/// One served root.
pub struct RootHandle {
    pub root: PathBuf,
    pub db: PathBuf,
    opts: RootOptions,
    state: Mutex<RootState>,
    changed: Condvar,
    stop: Arc<AtomicBool>,
    /// Idle read-only connections to the index.
    readers: Mutex<Vec<Store>>,
    /// The root's counted file events, once the worker watches.
    events: Mutex<Option<Arc<TreeEvents>>>,
    /// The paths of the batch the worker is applying (empty when idle; the root itself for a
    /// whole-tree sync).
    in_flight: Mutex<Vec<PathBuf>>,
    /// Files parsed of files scanned while the worker builds the index from scratch.
    pub progress: Arc<codegraph_engine::index::BuildProgress>,
}

/// Why a root cannot answer yet.
#[derive(Debug, thiserror::Error)]
pub enum RootError {
    #[error(
        "codegraph is building the index of {root} (started {secs} s ago); retry in a few seconds (index_status shows progress)"
    )]
    Building { root: String, secs: u64 },
    #[error("indexing {root} failed: {error}")]
    Failed { root: String, error: String },
    #[error(transparent)]
    Query(#[from] QueryError),
}

impl RootHandle {
    /// The largest file the root's index reads (grep reads no larger ones either).
    pub fn max_file_size(&self) -> u64 {
        self.opts.max_file_size
    }

    pub fn new(root: PathBuf, db: PathBuf, opts: RootOptions) -> Arc<RootHandle> {
        Arc::new(RootHandle {
            root,
            db,
            opts,
            state: Mutex::new(RootState {
                phase: Phase::Idle,
                revision: None,
                seen_seq: 0,
                applied_seq: 0,
                failed_publish: None,
                watching: false,
                watch_error: None,
                started: None,
                last_publish: None,
                published: 0,
            }),
            changed: Condvar::new(),
            stop: Arc::new(AtomicBool::new(false)),
            readers: Mutex::new(Vec::new()),
            events: Mutex::new(None),
            in_flight: Mutex::new(Vec::new()),
            progress: Arc::new(codegraph_engine::index::BuildProgress::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, RootState> {
        // A worker that panicked while holding the lock left consistent plain data behind.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn state(&self) -> RootState {
        self.lock().clone()
    }

    fn events(&self) -> Option<Arc<TreeEvents>> {
        self.events.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The state after reading the OS's event queue to the end: every file change that
    /// completed before this call is counted in `seen_seq` (where the events are exact).
    pub fn synced(&self) -> RootState {
        if let Some(events) = self.events() {
            let seq = events.sync();
            let mut st = self.lock();
            st.seen_seq = st.seen_seq.max(seq);
            return st.clone();
        }
        self.state()
    }

    /// Up to `max` root-relative paths of edits counted but not published yet (what a stale
    /// answer names): the batch in flight and the events not taken yet.
    pub fn pending_files(&self, max: usize) -> Vec<String> {
        let mut paths = self.in_flight.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(events) = self.events() {
            paths.extend(events.untaken_paths(max));
        }
        let mut rel: Vec<String> = paths
            .iter()
            .map(|p| match p.strip_prefix(&self.root) {
                Ok(r) if r.as_os_str().is_empty() => "(the whole tree)".to_string(),
                Ok(r) => r.to_string_lossy().into_owned(),
                Err(_) => p.to_string_lossy().into_owned(),
            })
            .collect();
        rel.sort();
        rel.dedup();
        rel.truncate(max);
        rel
    }

    fn set_in_flight(&self, paths: Vec<PathBuf>) {
        *self.in_flight.lock().unwrap_or_else(|p| p.into_inner()) = paths;
    }

    /// Whether the worker's events are a barrier (see [`TreeEvents::exact`]).
    fn events_exact(&self) -> bool {
        self.events().is_some_and(|e| e.exact())
    }

    fn update(&self, f: impl FnOnce(&mut RootState)) {
        let mut st = self.lock();
        f(&mut st);
        drop(st);
        self.changed.notify_all();
    }

    /// Starts the worker unless it runs (or retries one that failed).
    pub fn ensure_started(self: &Arc<Self>) {
        let mut st = self.lock();
        if !matches!(st.phase, Phase::Idle | Phase::Failed(_)) {
            return;
        }
        st.phase = Phase::Opening { had_index: self.db.exists() };
        st.started = Some(Instant::now());
        drop(st);
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("codegraph-root-{}", self.root.display()))
            .spawn(move || me.run_worker());
        if let Err(e) = spawned {
            self.update(|st| st.phase = Phase::Failed(format!("cannot start a worker: {e}")));
        }
    }

    /// Asks the worker to stop after its current batch.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// A read-only connection to the index, waiting up to `build_wait` for a first index.
    /// Give it back with [`RootHandle::give_back`].
    /// `report` is called with a progress message each time it waits.
    pub fn store_reporting(self: &Arc<Self>, report: &dyn Fn(String)) -> Result<Store, RootError> {
        self.ensure_started();
        while let Some(s) = self.readers.lock().unwrap_or_else(|p| p.into_inner()).pop() {
            // A reader of a file that was deleted or replaced (a rebuilt index) is dropped.
            if !s.is_detached() {
                return Ok(s);
            }
        }
        let deadline = Instant::now() + self.opts.build_wait;
        loop {
            // Not built yet, or being (re)built: wait for the worker below.
            let not_yet = match Store::open_read_only(&self.db) {
                Ok(mut store) => {
                    let readable = store.reader().map(|_| ());
                    match readable {
                        Ok(()) => return Ok(store),
                        Err(e) => e,
                    }
                }
                Err(
                    e @ (QueryError::NoIndex { .. }
                    | QueryError::NoRevision { .. }
                    | QueryError::SchemaMismatch { .. }),
                ) => e,
                Err(e) => return Err(e.into()),
            };
            let st = self.lock();
            match &st.phase {
                Phase::Failed(error) => {
                    return Err(RootError::Failed {
                        root: self.root.display().to_string(),
                        error: error.clone(),
                    });
                }
                // Published in between: retry at once, unless the worker is ready and the
                // index still cannot be read (then say why).
                Phase::Ready if Instant::now() >= deadline => return Err(not_yet.into()),
                Phase::Ready => {
                    drop(st);
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => {
                    let now = Instant::now();
                    if now >= deadline {
                        let secs = st.started.map_or(0, |s| s.elapsed().as_secs());
                        return Err(RootError::Building {
                            root: self.root.display().to_string(),
                            secs,
                        });
                    }
                    let wait = (deadline - now).min(Duration::from_millis(200));
                    let secs = st.started.map_or(0, |s| s.elapsed().as_secs());
                    drop(st);
                    report(self.progress_message(secs));
                    let st = self.lock();
                    drop(self.changed.wait_timeout(st, wait));
                }
            }
        }
    }

    /// A read-only connection to the published index if there is one now (never waits; starts
    /// the worker if no call has yet). Give it back with [`RootHandle::give_back`].
    pub fn try_store(self: &Arc<Self>) -> Option<Store> {
        self.ensure_started();
        if let Some(s) = self.readers.lock().unwrap_or_else(|p| p.into_inner()).pop() {
            return Some(s);
        }
        let mut store = Store::open_read_only(&self.db).ok()?;
        let readable = store.reader().is_ok();
        readable.then_some(store)
    }

    /// What a build or re-check of this root has done so far, in words.
    fn progress_message(&self, secs: u64) -> String {
        let done = self.progress.done.load(Ordering::Relaxed);
        let total = self.progress.total.load(Ordering::Relaxed);
        if total > 0 {
            format!("indexing {}: {done} of {total} files parsed ({secs} s)", self.root.display())
        } else {
            format!("indexing {}: scanning the tree ({secs} s)", self.root.display())
        }
    }

    pub fn give_back(&self, store: Store) {
        let mut pool = self.readers.lock().unwrap_or_else(|p| p.into_inner());
        if pool.len() < 8 {
            pool.push(store);
        }
    }

    /// Whether an answer read at `revision` may not match the tree.
    pub fn stale(&self, revision: i64, reader: &codegraph_query::Reader<'_>) -> Result<bool> {
        let st = self.synced();
        let behind = st.revision.is_some_and(|r| r > revision);
        match st.phase {
            Phase::Ready if st.watching && self.events_exact() => {
                Ok(st.pending() || st.failed_publish.is_some() || behind)
            }
            // Polling, or events that may come late: the tree is the judge.
            Phase::Ready if !(st.pending() || st.failed_publish.is_some() || behind) => {
                Ok(codegraph_engine::fresh::freshness(&self.root, &self.db, reader)?.stale())
            }
            _ => Ok(true),
        }
    }

    /// Waits (up to `refresh_wait`) until the worker has published the edits it holds. Used
    /// by impact operations, whose answer is worth a short wait; returns whether it caught up.
    /// `report` is called with a progress message each time it waits.
    pub fn wait_fresh_reporting(&self, report: &dyn Fn(String)) -> bool {
        let deadline = Instant::now() + self.opts.refresh_wait;
        let target = self.synced().seen_seq;
        let mut st = self.lock();
        loop {
            let busy =
                st.applied_seq < target || matches!(st.phase, Phase::Opening { had_index: true });
            if !busy {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            drop(st);
            report("waiting for edits on disk to be published".to_string());
            st = self
                .changed
                .wait_timeout(self.lock(), (deadline - now).min(Duration::from_millis(250)))
                .map_or_else(|p| p.into_inner().0, |r| r.0);
        }
    }

    /// The owner's word for a CLI query: current once every event counted now is published
    /// (waiting up to `wait` for that).
    fn claim(&self, wait: Duration) -> codegraph_engine::owner::Claim {
        use codegraph_engine::owner::Claim;
        let deadline = Instant::now() + wait;
        let target = self.synced().seen_seq;
        let mut st = self.lock();
        loop {
            if st.phase == Phase::Ready
                && st.applied_seq >= target
                && st.failed_publish.is_none()
                && let Some(revision) = st.revision
            {
                return Claim::Fresh { revision };
            }
            let now = Instant::now();
            if now >= deadline {
                return Claim::Pending;
            }
            st = self
                .changed
                .wait_timeout(st, deadline - now)
                .map_or_else(|p| p.into_inner().0, |r| r.0);
        }
    }

    fn run_worker(self: Arc<Self>) {
        // A panic in the engine must not leave the root looking ready: it becomes a failure
        // that the next call retries.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.worker()))
            .unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                Err(anyhow!("the indexing worker panicked: {what}"))
            });
        if let Err(e) = outcome {
            let error = format!("{e:#}");
            tracing::error!(root = %self.root.display(), error = %error, "root worker stopped");
            self.update(|st| st.phase = Phase::Failed(error));
        }
    }

    fn worker(self: &Arc<Self>) -> Result<()> {
        // Watch before opening, so that no edit falls between the two. Each counted event
        // makes answers stale (and the owner file "pending", the word CLI queries take on
        // freshness, [`codegraph_engine::owner`]) until the worker has published it.
        let owner = codegraph_engine::owner::Owner::claim(&self.db).map(Arc::new);
        let events = {
            let me = Arc::downgrade(self);
            let owner = owner.clone();
            TreeEvents::start(
                &self.root,
                codegraph_engine::guard::index_files(&self.db),
                move |seq| {
                    if let Some(me) = me.upgrade() {
                        me.update(|st| st.seen_seq = st.seen_seq.max(seq));
                    }
                    if let Some(o) = &owner {
                        o.pending();
                    }
                },
            )
        };
        let (events, watch_error) = match events {
            Ok(e) => (Some(Arc::new(e)), None),
            Err(e) => {
                let error = format!(
                    "the file watcher is unavailable ({e:#}); polling every {:?}",
                    self.opts.poll_interval
                );
                tracing::warn!(root = %self.root.display(), "{error}");
                (None, Some(error))
            }
        };
        *self.events.lock().unwrap_or_else(|p| p.into_inner()) = events.clone();
        let index_opts = IndexOptions {
            max_file_size: self.opts.max_file_size,
            progress: false,
            full: false,
            share: self.opts.share,
            cache_from: self.opts.cache_from.clone(),
            counter: Some(self.progress.clone()),
        };
        // Without events this process cannot vouch for freshness.
        let owner = if events.is_some() { owner } else { None };
        if let Some(o) = &owner {
            let me = Arc::downgrade(self);
            o.serve(&self.db, move |wait| match me.upgrade() {
                Some(me) => me.claim(wait),
                None => codegraph_engine::owner::Claim::Pending,
            });
        }
        let one_at_a_time = self.db.exists().then(|| OPENING.take(OPEN_TURN_WAIT));
        let (mut engine, summary) = Engine::open(&self.root, &self.db, &index_opts)?;
        engine.warm()?;
        drop(one_at_a_time);
        tracing::info!(root = %self.root.display(), revision = summary.revision, mode = summary.mode, "index ready");
        self.update(|st| {
            st.phase = Phase::Ready;
            st.revision = Some(engine.revision());
            if summary.mode != "unchanged" {
                st.published += 1;
                st.last_publish = Some(Instant::now());
            }
            st.watching = events.is_some();
            st.watch_error = watch_error;
        });
        self.start_deriver();
        let mut last_poll = Instant::now();
        let mut retry = codegraph_engine::watch::Retry::default();
        let mut last_check = Instant::now();
        // Events keep coming while the user types: a batch waits for `debounce` of quiet, but
        // never longer than this after its first event.
        let max_delay = (self.opts.debounce * 10).max(Duration::from_millis(50));
        while !self.stop.load(Ordering::SeqCst) {
            let Some(events) = &events else {
                std::thread::sleep(Duration::from_millis(100));
                if last_poll.elapsed() >= self.opts.poll_interval {
                    last_poll = Instant::now();
                    let before = self.synced().seen_seq;
                    let applied = engine.sync_full(true);
                    self.published(&engine, applied, owner.as_deref(), before);
                }
                continue;
            };
            if let Some(o) = &owner {
                let st = self.synced();
                if !st.pending() && st.failed_publish.is_none() {
                    o.fresh(engine.revision());
                }
            }
            let git_busy = || engine.git_busy();
            let Some(taken) = next_batch(
                events,
                Duration::from_millis(100),
                self.opts.debounce,
                max_delay,
                &git_busy,
            ) else {
                // A whole-tree sync holds every event counted before it starts.
                let before = self.synced().seen_seq;
                if retry.due() {
                    // A failed publish: the whole tree again, until it lands.
                    let applied = engine.sync_full(false);
                    retry.record(&applied);
                    self.published(&engine, applied, owner.as_deref(), before);
                } else if last_check.elapsed() >= INDEX_CHECK_INTERVAL {
                    // The index file deleted or replaced under us: rebuilt, not written blind.
                    last_check = Instant::now();
                    if let Some(applied) = engine.check_index().transpose() {
                        retry.record(&applied);
                        self.published(&engine, applied, owner.as_deref(), before);
                    }
                }
                continue;
            };
            let upto = taken.upto;
            let batch = batch_of(&engine, taken, 1000);
            self.set_in_flight(match batch.rescan {
                codegraph_engine::watch::Rescan::No => batch.paths.clone(),
                _ => vec![self.root.clone()],
            });
            let Some(applied) = apply(&mut engine, &batch) else {
                // Nothing the index holds: the events are applied as they are.
                if !engine.needs_retry() {
                    self.update(|st| st.applied_seq = st.applied_seq.max(upto));
                }
                self.set_in_flight(Vec::new());
                continue;
            };
            retry.record(&applied);
            if let Ok(a) = &applied
                && a.revision.is_some()
            {
                tracing::info!(
                    root = %self.root.display(),
                    revision = a.revision,
                    changed = a.changed_files,
                    rescan = rescan_reason(batch.rescan),
                    latency_ms = batch.first_event.map(|t| t.elapsed().as_secs_f64() * 1000.0),
                    "published"
                );
            }
            self.published(&engine, applied, owner.as_deref(), upto);
            self.set_in_flight(Vec::new());
        }
        if let Some(o) = &owner {
            o.release();
        }
        *self.events.lock().unwrap_or_else(|p| p.into_inner()) = None;
        drop(events);
        engine.release_for_exit();
        Ok(())
    }

    /// Starts the thread that recomputes flows and clusters once the root has been quiet for
    /// [`DERIVE_QUIET`] after a new revision, at most once per [`DERIVE_MIN_INTERVAL`]: whole-
    /// graph work never runs on the edit path, and an edit never waits for it.
    fn start_deriver(self: &Arc<Self>) {
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name("codegraph-derive".to_string())
            .spawn(move || me.run_deriver());
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "cannot start the flow/cluster thread; flows stay empty");
        }
    }

    fn run_deriver(&self) {
        let mut last_run: Option<Instant> = None;
        // The revision the stored flows are of, as far as this thread knows (`None`: not
        // looked yet; the first pass finds out, computing only if they lag).
        let mut have: Option<i64> = None;
        // Co-change can lag without a new revision (a commit moves HEAD, not the files): it
        // is checked, cheaply, at most once per DERIVE_MIN_INTERVAL too.
        let mut cochange_checked: Option<Instant> = None;
        while !self.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
            let st = self.state();
            let quiet = st.last_publish.is_none_or(|t| t.elapsed() >= DERIVE_QUIET);
            let spaced = last_run.is_none_or(|t| t.elapsed() >= DERIVE_MIN_INTERVAL);
            let behind = match (st.revision, have) {
                (Some(r), Some(h)) => r > h,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if st.phase != Phase::Ready || st.pending() || !quiet || !spaced {
                continue;
            }
            if !behind {
                // A no-op unless co-change is on and lags.
                if cochange_checked.is_none_or(|t| t.elapsed() >= DERIVE_MIN_INTERVAL) {
                    cochange_checked = Some(Instant::now());
                    if let Err(e) = codegraph_engine::cochange::ensure(&self.db, &self.root) {
                        tracing::warn!(root = %self.root.display(), error = %format!("{e:#}"), "co-change not updated");
                    }
                }
                continue;
            }
            last_run = Some(Instant::now());
            // One root's flows and clusters at a time: the computation holds the whole graph,
            // and roots computing at once would add their peaks.
            let _one_at_a_time = DERIVING.lock().unwrap_or_else(|e| e.into_inner());
            let started = Instant::now();
            match self.derive() {
                Ok((revision, computed)) => {
                    have = Some(revision);
                    if computed {
                        tracing::info!(root = %self.root.display(), revision, ms = started.elapsed().as_millis() as u64, "flows and clusters computed");
                    }
                }
                Err(e) => {
                    tracing::warn!(root = %self.root.display(), error = %format!("{e:#}"), "computing flows and clusters failed")
                }
            }
        }
    }

    /// Computes and stores the root's flows and clusters unless they are current: in a child
    /// process when the server knows its binary, so the whole graph they are computed from
    /// (hundreds of MiB on a large root) is never this process's. In-process, freed memory
    /// stays with the allocator until the thread that freed it allocates again (the Go
    /// standard library served with three worktrees settled ~320 MiB higher), and a derive
    /// that fails cannot take the server with it. Returns (revision, computed).
    fn derive(&self) -> Result<(i64, bool)> {
        if self.opts.cochange
            && codegraph_engine::cochange::settings(&self.db).ok().flatten().is_none()
            && let Err(e) = codegraph_engine::cochange::configure(
                &self.db,
                Some(codegraph_engine::cochange::DEFAULT_COMMITS),
            )
        {
            tracing::warn!("co-change not turned on: {e:#}");
        }
        let Some(bin) = &self.opts.deriver else {
            if let Err(e) = codegraph_engine::cochange::ensure_db(&self.db) {
                tracing::warn!("co-change not updated: {e:#}");
            }
            return codegraph_engine::derived::ensure_current(&self.db);
        };
        let out = std::process::Command::new(bin)
            .arg("derive-flows")
            .arg(&self.db)
            .env("CODEGRAPH_EVENTS", "off")
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| anyhow!("starting `{} derive-flows`: {e}", bin.display()))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(anyhow!(
                "`codegraph derive-flows` failed ({}): {}",
                out.status,
                err.trim()
            ));
        }
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .map_err(|e| anyhow!("`codegraph derive-flows` answered no JSON: {e}"))?;
        match (v["revision"].as_i64(), v["computed"].as_bool()) {
            (Some(revision), Some(computed)) => Ok((revision, computed)),
            _ => Err(anyhow!("`codegraph derive-flows` answered {v}")),
        }
    }

    /// Records the outcome of one sync that holds every event counted up to `upto`; a failure
    /// leaves the owner file "pending" with the reason until a retry lands.
    fn published(
        &self,
        engine: &Engine,
        outcome: Result<codegraph_engine::engine::Applied>,
        owner: Option<&codegraph_engine::owner::Owner>,
        upto: u64,
    ) {
        match outcome {
            Ok(applied) => {
                if let Some(why) = &applied.rebuilt {
                    tracing::warn!(root = %self.root.display(), revision = applied.revision, "rebuilt the index: {why}");
                }
                self.update(|st| {
                    st.applied_seq = st.applied_seq.max(upto);
                    st.failed_publish = None;
                    st.revision = Some(engine.revision());
                    if applied.revision.is_some() {
                        st.last_publish = Some(Instant::now());
                        st.published += 1;
                    }
                })
            }
            Err(e) => {
                // The previous revision stays published; the retry syncs the whole tree.
                let note = codegraph_engine::watch::pending_note(&e);
                let error = format!("{e:#}");
                tracing::error!(root = %self.root.display(), error = %error, "publishing a revision failed; {note}");
                if let Some(o) = owner {
                    o.pending_because(&note);
                }
                self.update(|st| {
                    st.applied_seq = st.applied_seq.max(upto);
                    st.failed_publish = Some(format!("{note} ({error})"));
                });
            }
        }
    }
}

/// The roots one server serves.
pub struct RootSet {
    roots: Vec<Arc<RootHandle>>,
    /// The root a call without `root` means, when there is one.
    default: Option<usize>,
}

impl RootSet {
    /// `cwd`, when inside one of the roots, picks the default among several.
    pub fn new(roots: Vec<Arc<RootHandle>>, cwd: Option<&Path>) -> RootSet {
        let default = if roots.len() == 1 {
            Some(0)
        } else {
            cwd.and_then(|c| {
                // The deepest root containing the working directory.
                roots
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| c.starts_with(&r.root))
                    .max_by_key(|(_, r)| r.root.components().count())
                    .map(|(i, _)| i)
            })
        };
        RootSet { roots, default }
    }

    pub fn all(&self) -> &[Arc<RootHandle>] {
        &self.roots
    }

    fn names(&self) -> String {
        self.roots.iter().map(|r| r.root.display().to_string()).collect::<Vec<_>>().join(", ")
    }

    /// The served root a call names (or the default one).
    pub fn pick(&self, root: Option<&str>) -> Result<Arc<RootHandle>, String> {
        let Some(given) = root.filter(|r| !r.trim().is_empty()) else {
            return match self.default {
                Some(i) => Ok(self.roots[i].clone()),
                None => {
                    Err(format!("several roots are served; pass `root`, one of: {}", self.names()))
                }
            };
        };
        let path = Path::new(given);
        let canonical = std::fs::canonicalize(path).ok();
        if let Some(r) = self
            .roots
            .iter()
            .find(|r| r.root == path || canonical.as_deref() == Some(r.root.as_path()))
        {
            return Ok(r.clone());
        }
        // A short name: the trailing components of exactly one served root's path (its
        // directory name, `repo/worktree`...).
        let short = given.trim_matches('/');
        let named: Vec<&Arc<RootHandle>> = if short.is_empty() || path.is_absolute() {
            Vec::new()
        } else {
            self.roots.iter().filter(|r| r.root.ends_with(short)).collect()
        };
        match named.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(format!("`{given}` is not a served root; served: {}", self.names())),
            several => Err(format!(
                "`{given}` names {} served roots: {}; pass more of the path",
                several.len(),
                several.iter().map(|r| r.root.display().to_string()).collect::<Vec<_>>().join(", ")
            )),
        }
    }

    pub fn stop_all(&self) {
        for r in &self.roots {
            r.stop();
        }
    }
}

/// A path an argument names, as a path relative to `root`: a relative path is taken as
/// relative to the root, an absolute one must lie inside it. `..` may not leave the root.
pub fn relative_to_root(root: &Path, given: &str) -> Result<String, String> {
    let path = Path::new(given);
    let rel: PathBuf = if path.is_absolute() {
        // Compare canonical forms when the path exists (symlinked roots such as /tmp).
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match canonical.strip_prefix(root).or_else(|_| path.strip_prefix(root)) {
            Ok(r) => r.to_path_buf(),
            Err(_) => {
                return Err(format!(
                    "path `{given}` is outside the root {}; give a path inside it (relative paths are relative to the root)",
                    root.display()
                ));
            }
        }
    } else {
        path.to_path_buf()
    };
    let mut parts: Vec<String> = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err(format!("path `{given}` is outside the root {}", root.display()));
                }
            }
            Component::RootDir | Component::Prefix(_) => {}
        }
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_and_outside_the_root() {
        let root = Path::new("/srv/repo");
        assert_eq!(relative_to_root(root, "src/a.ts").as_deref(), Ok("src/a.ts"));
        assert_eq!(relative_to_root(root, "./src/../lib/b.go").as_deref(), Ok("lib/b.go"));
        assert_eq!(relative_to_root(root, "/srv/repo/src/a.ts").as_deref(), Ok("src/a.ts"));
        for bad in ["/etc/passwd", "../other/a.ts", "src/../../x", "/srv/repository/a.ts"] {
            let err = relative_to_root(root, bad).expect_err(bad);
            assert!(err.contains("outside the root"), "{bad}: {err}");
        }
    }

    #[test]
    fn roots_open_one_at_a_time_and_a_late_one_stops_waiting() {
        static TURNS: OpenTurn = OpenTurn { busy: Mutex::new(false), freed: Condvar::new() };
        let first = TURNS.take(Duration::from_secs(5));
        assert!(first.0.is_some());
        // Held: the next root waits its bound out and opens without a turn.
        let started = Instant::now();
        let late = TURNS.take(Duration::from_millis(50));
        assert!(late.0.is_none());
        assert!(started.elapsed() >= Duration::from_millis(50));
        drop(late);
        // A root waiting when the turn is handed on gets it.
        let waiter = std::thread::spawn(|| TURNS.take(Duration::from_secs(30)).0.is_some());
        std::thread::sleep(Duration::from_millis(20));
        drop(first);
        assert!(waiter.join().unwrap_or(false));
        assert!(TURNS.take(Duration::ZERO).0.is_some());
    }
}
