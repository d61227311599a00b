//! The incremental engine: one long-lived salsa database for a code root, kept in step with
//! the files on disk, publishing each consistent state as a revision that rewrites only the
//! units (files, Go packages) whose rows changed.
//!
//! The same engine serves `codegraph index` on an existing index (restore every file's facts
//! from the `source` table, stat the tree, read and re-derive only files whose size or
//! modification time changed and whose content hash differs) and `codegraph watch` (apply the
//! paths a file watcher reports, or rescan when the watcher cannot say). A cold start or an
//! index written by another codegraph version is a full build ([`crate::index`]).

use crate::git::{GitState, IndexedBlob, git_state};
use crate::index::{FullBuild, IndexOptions, IndexSummary, full_build, indexer_version, now_ms};
use crate::scan::{Candidate, ScanOptions, ScannedFile, read_file, walk};
use anyhow::{Context, Result};
use codegraph_db::{Content, Database, FileMeta, SourceFile, Workspace, file_facts};
use codegraph_parse::FileFacts;
use codegraph_query::{Diagnostic, SnapshotInfo, SourceRow, Store, UnitKind, UnitRows};
use codegraph_resolve::{
    file_graph, file_node, file_surface, file_unit_digest, node_unit_digest, node_unit_graph,
    node_units, resolve_file,
};
use codegraph_schema::DiagnosticCode;
use rayon::prelude::*;
use salsa::{Durability, Setter};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The durability of every input, at load and on every edit. One level for all: salsa cannot
/// backdate a value whose durability drops, so loading inputs HIGH and lowering an edited
/// file to LOW makes the *first* edit of each file re-run everything that reads anything
/// derived from it (0.1-1.5 s on the Go standard library), while repeated edits of the same
/// file get cheaper. Agents touch new files all the time, so a uniform level (every edit
/// re-validates the graph, ~50 ms there, and re-runs only what really changed) gives the
/// steadier latency. `codegraph-bench incremental` reports both kinds of edits.
pub const INPUT_DURABILITY: Durability = Durability::LOW;

/// Whether engines start in surface verification mode: `CODEGRAPH_VERIFY_SURFACE=1`.
fn verify_surface_default() -> bool {
    std::env::var_os("CODEGRAPH_VERIFY_SURFACE").is_some_and(|v| v == "1")
}

/// Syntax trees a watch daemon keeps (the full build keeps 256 while it streams the tree).
pub const DAEMON_PARSE_LRU: usize = 32;

/// SQLite page cache of a watch daemon's connection (the full build uses 64 MiB).
pub const DAEMON_SQLITE_CACHE_KIB: i64 = 8 * 1024;

/// What the engine knows of one indexed file.
struct Entry {
    /// The file node ID (`file:PATH`), the unit's ID.
    id: codegraph_resolve::ids::Id,
    input: SourceFile,
    size: u64,
    /// 0 = unknown: always hash.
    mtime_ns: i64,
    hash: String,
}

/// The engine of one code root.
pub struct Engine {
    root: PathBuf,
    opts: ScanOptions,
    db: Database,
    store: Store,
    files: BTreeMap<String, Entry>,
    workspace: Workspace,
    /// Skipped paths -> their diagnostics.
    skips: BTreeMap<String, Vec<Diagnostic>>,
    /// Unit ID -> digest of the rows the current revision holds for it.
    published: HashMap<String, u64>,
    git: Option<GitState>,
    revision: i64,
    /// Inputs of removed paths, emptied, kept for the life of the process: a path that comes
    /// back (a branch switch, a stash, an editor's delete-and-recreate) gets its old input
    /// again, so salsa's per-input memos are overwritten rather than piling up.
    retired: HashMap<String, SourceFile>,
    /// A revision failed to publish: the paths it carried were forgotten (so the next whole-
    /// tree sync reads them again) and units that vanished are looked for again. Until a
    /// revision succeeds, callers sync the whole tree ([`Engine::needs_retry`]).
    unsettled: bool,
    /// Symlinked directories inside the root, as the last whole-tree walk found them: an
    /// event under a target refreshes the same path under each alias.
    dir_links: Vec<crate::scan::DirLink>,
    /// Derive every unit after each edit that took the surface shortcut, and fail on any
    /// difference ([`Engine::set_verify_surface`]).
    verify_surface: bool,
    /// The lock git holds while it rewrites this root's worktree (found once).
    git_lock: std::sync::OnceLock<Option<PathBuf>>,
    /// Restored facts not decoded yet ([`Engine::decode_restored`]).
    lazy_facts: bool,
}

/// What an input holds for a file, as the full build makes it: the facts its provider
/// extracts (parsed here, on the caller's thread, the tree dropped at once: salsa never holds
/// a syntax tree or the text of a code file), the text of a file resolution reads as text
/// (`go.mod`, `*.json`), and empty facts for a file of no language (its path and stat only).
pub fn content_for(f: &ScannedFile) -> Content {
    if codegraph_resolve::reads_as_text(&f.path) {
        return Content::Text(f.text.clone());
    }
    match f.language {
        Some(language) => {
            match crate::shared::facts(&f.meta.hash, Some(language), || {
                Some(codegraph_parse::analyze(language, &f.text))
            }) {
                Some(facts) => Content::Stored(facts),
                None => Content::Stored(Arc::new(FileFacts::default())),
            }
        }
        None => Content::Stored(Arc::new(FileFacts::default())),
    }
}

/// How the tree differs from what the engine holds.
#[derive(Debug, Default)]
pub struct Delta {
    /// New files and files whose content changed, with the mtime to record and what their
    /// input will hold ([`content_for`], computed on all cores while reading).
    pub upserts: Vec<(ScannedFile, i64, Content)>,
    /// Files whose stat changed but whose content did not: path, new mtime.
    pub touched: Vec<(String, i64)>,
    pub removed: Vec<String>,
    /// New skip diagnostics per path; a path with an empty list is no longer skipped.
    pub skips: BTreeMap<String, Vec<Diagnostic>>,
    /// Files whose stat changed that the git index vouched for (not read).
    pub vouched: usize,
}

/// What one published (or skipped) revision did.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    /// The new revision, `None` when nothing changed (the current revision stays).
    pub revision: Option<i64>,
    pub changed_files: usize,
    pub removed_files: usize,
    pub units_rewritten: usize,
    /// Walking, stating and reading changed files.
    pub scan_ms: f64,
    /// Setting inputs, re-deriving, comparing unit digests.
    pub derive_ms: f64,
    /// Writing and committing the revision.
    pub publish_ms: f64,
    /// Only the set files' own units were derived: no file was added or removed and every
    /// set file's surface (what other units read of it) held.
    pub own_units_only: bool,
    /// Files whose stat changed that the git index vouched for, unread.
    pub vouched_files: usize,
    /// The index was damaged, deleted or replaced, and this revision rebuilt it: why.
    pub rebuilt: Option<String>,
}

/// What [`Engine::set_inputs`] changed, for the later phases of an apply.
struct InputChanges {
    /// Paths whose content was set.
    upserted: Vec<String>,
    /// (path, mtime) of files whose modification time alone moved.
    touched: Vec<(String, i64)>,
    /// Inputs of removed files, emptied.
    retiring: Vec<SourceFile>,
    /// Whether the workspace's file list changed.
    list_changed: bool,
}

/// The units an apply rewrites ([`Engine::changed_units`]).
struct ChangedUnits {
    /// (path, input, digest) of file units whose digest moved.
    files: Vec<(String, SourceFile, u64)>,
    /// (ID, digest) of node units (packages, concepts) whose digest moved.
    packages: Vec<(String, u64)>,
    /// Published units that no longer exist.
    gone: Vec<String>,
    /// Source rows of the files whose content changed.
    sources: Vec<SourceRow>,
}

/// `codegraph index`: when the index was written by this version and every file still has
/// the size, modification time (or content hash) it recorded, answers "unchanged" from the
/// stats alone, without restoring any facts; otherwise opens the engine, which publishes what
/// changed (or rebuilds).
pub fn index(root: &Path, db_path: &Path, opts: &IndexOptions) -> Result<IndexSummary> {
    if !opts.full
        && let Some(summary) = unchanged(root, db_path, opts)?
    {
        return Ok(summary);
    }
    let (engine, summary) = Engine::open(root, db_path, opts)?;
    engine.release_for_exit();
    Ok(summary)
}

fn unchanged(root: &Path, db_path: &Path, opts: &IndexOptions) -> Result<Option<IndexSummary>> {
    let start = Instant::now();
    // A writer at work, a writer that never finished, or a reader that met a damaged page:
    // the engine takes the lock, checks and answers.
    if crate::guard::needs_check(db_path) {
        return Ok(None);
    }
    let Ok(mut store) = Store::open_read_only(db_path) else {
        return Ok(None);
    };
    let Ok(reader) = store.reader() else {
        return Ok(None);
    };
    let snap = reader.snapshot()?;
    if snap.indexer_version != indexer_version()
        || reader.max_file_size()? != Some(opts.max_file_size)
    {
        return Ok(None);
    }
    if crate::fresh::is_stale(root, db_path, &reader)? {
        return Ok(None);
    }
    let sources = reader.source_stats()?;
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    for d in reader.diagnostics(true, usize::MAX >> 1)? {
        if let Some(code) = DiagnosticCode::parse(&d.code) {
            *skipped.entry(code.as_str()).or_default() += 1;
        }
    }
    Ok(Some(IndexSummary {
        root: root.to_path_buf(),
        db: db_path.to_path_buf(),
        revision: snap.revision,
        mode: "unchanged",
        files: snap.files as usize,
        parsed_files: sources.iter().filter(|s| s.language.is_some()).count(),
        changed_files: 0,
        units_rewritten: 0,
        symbols: snap.symbols as usize,
        edges: snap.edges as usize,
        unresolved: snap.unresolved as usize,
        lines: sources.iter().map(|s| u64::from(s.lines)).sum(),
        bytes: sources.iter().map(|s| s.size).sum(),
        skipped,
        lossy_files: 0,
        files_with_syntax_errors: 0,
        head_commit: snap.head_commit,
        dirty_files: snap.dirty_files as usize,
        scan_ms: start.elapsed().as_millis(),
        restore_ms: 0,
        parse_ms: 0,
        resolve_ms: 0,
        publish_ms: 0,
        total_ms: start.elapsed().as_millis(),
        peak_rss_bytes: crate::index::peak_rss_bytes(),
        seeded_from: None,
        vouched_files: 0,
        notes: Vec::new(),
    }))
}

impl Engine {
    /// Opens the engine of `root`: restores from the index at `db_path` when it was written
    /// by this version, else builds it from scratch. Either way the index then describes the
    /// tree as it is now.
    ///
    /// It holds the index's write lock meanwhile ([`crate::guard`]): a second writer waits.
    /// An index whose last writer did not finish is checked first, and a damaged one (found
    /// so, or failing with SQLite's "malformed" on the way) is moved aside and rebuilt; the
    /// summary's notes say so.
    pub fn open(
        root: &Path,
        db_path: &Path,
        opts: &IndexOptions,
    ) -> Result<(Engine, IndexSummary)> {
        if let Some(dir) = db_path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the index directory {}", dir.display()))?;
        }
        let lock = crate::guard::acquire(db_path)?;
        let mut repaired = None;
        if let Some(detail) = crate::guard::damage(db_path, &lock) {
            let aside = crate::guard::move_aside(db_path)?;
            repaired = Some(crate::guard::repaired_note(db_path, &detail, &aside));
        }
        let mut opened = Engine::open_locked(root, db_path, opts, repaired.is_some());
        if repaired.is_none()
            && let Err(e) = &opened
            && let Some(detail) = crate::guard::damage_in(e)
        {
            let aside = crate::guard::move_aside(db_path)?;
            repaired = Some(crate::guard::repaired_note(db_path, &detail, &aside));
            opened = Engine::open_locked(root, db_path, opts, true);
        }
        let (engine, mut summary) = opened?;
        if let Some(note) = repaired {
            tracing::warn!("{note}");
            summary.notes.push(note);
        }
        drop(lock);
        Ok((engine, summary))
    }

    fn open_locked(
        root: &Path,
        db_path: &Path,
        opts: &IndexOptions,
        full: bool,
    ) -> Result<(Engine, IndexSummary)> {
        let scan_opts = scan_options(db_path, opts.max_file_size);
        // Why a store or a sibling could not seed this root, for the summary of what it got.
        let mut seed_notes = Vec::new();
        if !opts.full && !full {
            let start = Instant::now();
            // A root with no index yet starts from a sibling worktree's, when there is one.
            // First from the shared store, when one is named, then from a sibling.
            let mut seeding = match &opts.cache_from {
                Some(store) => {
                    crate::remote::seed(root, db_path, opts.max_file_size, store.as_ref())
                }
                None => crate::seed::Seeding::default(),
            };
            if seeding.copy.is_none() && opts.share {
                let notes = std::mem::take(&mut seeding.notes);
                seeding = crate::seed::seed(root, db_path, opts.max_file_size);
                seeding.notes.splice(0..0, notes);
            }
            for note in &seeding.notes {
                tracing::warn!("{note}");
            }
            let seeded_at = start.elapsed();
            // A copy is restored and updated beside the index path and moved into place when
            // this root's revision is in it; its sync to disk runs meanwhile.
            let _scratch = seeding.copy.clone().map(crate::seed::Scratch);
            let syncing = seeding.copy.clone().map(|copy| {
                std::thread::spawn(move || std::fs::File::open(copy).and_then(|f| f.sync_all()))
            });
            let opened = Store::open(seeding.copy.as_deref().unwrap_or(db_path))
                .and_then(|store| store.persisted_state().map(|state| (store, state)));
            let (store, state) = match opened {
                Ok(opened) => opened,
                // A copy from elsewhere that does not open as an index is dropped, not fatal.
                Err(e) if seeding.copy.is_some() => {
                    seeding.notes.push(format!("ignored the seeded copy: {e}"));
                    drop(_scratch);
                    let build = full_build(root, db_path, opts)?;
                    let (engine, mut summary) = Engine::from_build(root, scan_opts, build);
                    summary.notes.splice(0..0, seeding.notes);
                    return Ok((engine, summary));
                }
                Err(e) => return Err(e.into()),
            };
            tracing::debug!(seed = ?seeded_at, state = ?start.elapsed(), "restore phases");
            if state.revision.is_some()
                && state.indexer_version == Some(indexer_version())
                && !state.sources.is_empty()
            {
                let mut engine = Engine::restore(root, scan_opts, store, state)?;
                let restore_ms = start.elapsed().as_millis();
                tracing::debug!(restored = ?start.elapsed(), "restore phases");
                let mut applied = engine.sync_full(true)?;
                if let Some(from) = &seeding.from {
                    // The copy's revision describes the sibling: publish one of this root's
                    // own even when no file differs.
                    if applied.revision.is_none() {
                        let copied = engine.revision;
                        applied.revision = Some(engine.publish_snapshot(start)?);
                        // The same rows: the sibling's flows and clusters are this revision's.
                        engine.store.carry_derived(copied, engine.revision)?;
                    }
                    let reused = engine.files.len().saturating_sub(applied.changed_files);
                    let seed = serde_json::json!({
                        "root": from.root.display().to_string(),
                        "store": from.store,
                        "commit": from.commit,
                        "re_derived": applied.changed_files + applied.removed_files,
                        "reused": reused,
                        "revision": engine.revision,
                    });
                    engine.store.set_meta(crate::seed::SEEDED_FROM, &seed.to_string())?;
                    if let Some(syncing) = syncing {
                        // Only time: the install syncs the file again.
                        let _ = syncing.join();
                    }
                    engine.store.install_in_place(db_path)?;
                }
                let mut summary = engine.summary(db_path, &applied, restore_ms, start)?;
                if let Some(from) = seeding.from {
                    summary.mode = "seeded";
                    summary.seeded_from = Some(crate::seed::describe(&from));
                }
                summary.notes = seeding.notes;
                return Ok((engine, summary));
            }
            seed_notes = seeding.notes;
        }
        let build = full_build(root, db_path, opts)?;
        let (engine, mut summary) = Engine::from_build(root, scan_opts, build);
        summary.notes.splice(0..0, seed_notes);
        Ok((engine, summary))
    }

    /// The engine that continues from a full build.
    fn from_build(root: &Path, scan_opts: ScanOptions, build: FullBuild) -> (Engine, IndexSummary) {
        let FullBuild {
            db,
            store,
            files,
            workspace,
            skips,
            published,
            git,
            revision,
            summary,
            links,
        } = build;
        let files = files
            .into_iter()
            .map(|(path, input, mtime_ns)| {
                let meta = input.meta(&db);
                let id = codegraph_resolve::ids::file_id(&path);
                let entry = Entry { id, input, size: meta.size, mtime_ns, hash: meta.hash.clone() };
                (path, entry)
            })
            .collect();
        let engine = Engine {
            root: root.to_path_buf(),
            opts: scan_opts,
            db,
            store,
            files,
            workspace,
            skips: group_skips(skips),
            published,
            git,
            revision,
            retired: HashMap::new(),
            unsettled: false,
            dir_links: links,
            verify_surface: verify_surface_default(),
            git_lock: std::sync::OnceLock::new(),
            lazy_facts: false,
        };
        (engine, summary)
    }

    /// The index summary of an incremental open.
    fn summary(
        &mut self,
        db_path: &Path,
        applied: &Applied,
        restore_ms: u128,
        start: Instant,
    ) -> Result<IndexSummary> {
        let reader = self.store.reader()?;
        let snap = reader.snapshot()?;
        let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
        for d in self.skips.values().flatten() {
            *skipped.entry(d.code.as_str()).or_default() += 1;
        }
        let mut lines = 0u64;
        let mut parsed_files = 0;
        for e in self.files.values() {
            lines += u64::from(e.input.meta(&self.db).lines);
            parsed_files += usize::from(e.input.language(&self.db).is_some());
        }
        Ok(IndexSummary {
            root: self.root.clone(),
            db: db_path.to_path_buf(),
            revision: self.revision,
            mode: if applied.revision.is_some() { "incremental" } else { "unchanged" },
            files: self.files.len(),
            parsed_files,
            changed_files: applied.changed_files + applied.removed_files,
            units_rewritten: applied.units_rewritten,
            symbols: snap.symbols as usize,
            edges: snap.edges as usize,
            unresolved: snap.unresolved as usize,
            lines,
            bytes: self.files.values().map(|e| e.size).sum(),
            skipped,
            lossy_files: 0,
            files_with_syntax_errors: 0,
            head_commit: snap.head_commit.clone(),
            dirty_files: snap.dirty_files as usize,
            scan_ms: applied.scan_ms as u128,
            parse_ms: applied.derive_ms as u128,
            resolve_ms: 0,
            restore_ms,
            publish_ms: applied.publish_ms as u128,
            total_ms: start.elapsed().as_millis(),
            peak_rss_bytes: crate::index::peak_rss_bytes(),
            seeded_from: None,
            vouched_files: applied.vouched_files,
            notes: Vec::new(),
        })
    }

    fn restore(
        root: &Path,
        opts: ScanOptions,
        store: Store,
        state: codegraph_query::PersistedState,
    ) -> Result<Engine> {
        let db = Database::default();
        // Facts are decoded when first read (most never are in a short-lived process); a
        // blob of another codec version makes the file look changed.
        let decoded: Vec<(SourceRow, Option<Content>)> = state
            .sources
            .into_par_iter()
            .map(|mut row| {
                let content = if codegraph_resolve::reads_as_text(&row.path) {
                    std::fs::read(root.join(&row.path))
                        .ok()
                        .map(|b| Content::Text(Arc::from(String::from_utf8_lossy(&b).as_ref())))
                } else {
                    match row.facts.take() {
                        None => Some(Content::Stored(Arc::new(FileFacts::default()))),
                        Some(bytes) if !codegraph_parse::facts_codec_matches(&bytes) => None,
                        Some(bytes) => Some(lazy_facts(&row, bytes)),
                    }
                };
                (row, content)
            })
            .collect();
        let mut files = BTreeMap::new();
        for (row, content) in decoded {
            let known = content.is_some();
            let content =
                content.unwrap_or_else(|| Content::Stored(Arc::new(FileFacts::default())));
            let meta = FileMeta {
                size: row.size,
                hash: row.hash.clone(),
                lossy_utf8: row.lossy_utf8,
                lines: row.lines,
            };
            let language = row.language.as_deref().and_then(codegraph_parse::Language::from_name);
            let input = SourceFile::builder(row.path.clone(), language, content, meta)
                .durability(INPUT_DURABILITY)
                .new(&db);
            // An unreadable blob: forget the hash so the next scan re-reads the file.
            let (mtime_ns, hash) =
                if known { (row.mtime_ns, row.hash) } else { (0, String::new()) };
            let id = codegraph_resolve::ids::file_id(&row.path);
            files.insert(row.path, Entry { id, input, size: row.size, mtime_ns, hash });
        }
        let inputs: Vec<SourceFile> = files.values().map(|e| e.input).collect();
        let workspace = Workspace::builder(inputs).durability(INPUT_DURABILITY).new(&db);
        Ok(Engine {
            root: root.to_path_buf(),
            opts,
            db,
            store,
            files,
            workspace,
            skips: group_skips(state.skips),
            published: state.units,
            git: None,
            revision: state.revision.unwrap_or(0),
            retired: HashMap::new(),
            unsettled: false,
            dir_links: Vec::new(),
            verify_surface: verify_surface_default(),
            git_lock: std::sync::OnceLock::new(),
            lazy_facts: true,
        })
    }

    /// For a process about to exit: closes the store (committed data is already durable) and
    /// leaks the salsa database instead of freeing a gigabyte of memos one by one (over a
    /// second on the Go standard library); the OS reclaims it at exit.
    pub fn release_for_exit(self) {
        let Engine { db, store, .. } = self;
        drop(store);
        std::mem::forget(db);
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn revision(&self) -> i64 {
        self.revision
    }

    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Is `abs` a path the engine must never index (the index's own files, `.git/`,
    /// `.mission/`), or outside the root?
    pub fn is_irrelevant(&self, abs: &Path) -> bool {
        let Ok(rel) = abs.strip_prefix(&self.root) else {
            return true;
        };
        if self.opts.exclude.iter().any(|e| e == abs) {
            return true;
        }
        rel.components().any(|c| {
            c.as_os_str().to_str().is_some_and(|n| crate::scan::ALWAYS_SKIPPED_DIRS.contains(&n))
        })
    }

    /// Rescans the whole tree (stat only; reads files whose stat changed) and publishes.
    /// `refresh_git` re-reads HEAD and the dirty files for the snapshot row.
    pub fn sync_full(&mut self, refresh_git: bool) -> Result<Applied> {
        let start = Instant::now();
        let refresh_git = refresh_git || self.git.is_none();
        // The git state (HEAD, the dirty files' fingerprint) is read beside the walk.
        let (root, opts) = (self.root.clone(), self.opts.clone());
        let git = refresh_git.then(|| std::thread::spawn(move || git_state(&root, &opts)));
        let walked = walk(&self.root, &self.opts, &self.root, None);
        self.dir_links = walked.links.clone();
        let seen: HashSet<&str> = walked.candidates.iter().map(|c| c.rel.as_str()).collect();
        let removed: Vec<String> =
            self.files.keys().filter(|p| !seen.contains(p.as_str())).cloned().collect();
        // A whole-tree scan asks the git index which files it can vouch for (a checkout, a
        // stash or a new worktree rewrites files with content the index already names).
        let blobs = if refresh_git { crate::git::index_blobs(&self.root) } else { HashMap::new() };
        let t_walk = start.elapsed();
        let mut delta = self.read_candidates(walked.candidates, &blobs, start);
        let t_read = start.elapsed();
        delta.removed.extend(removed);
        // Every skip of this scan: the walk's, and the files that failed to read.
        let mut new_skips = group_skips(walked.skips);
        for (path, diags) in std::mem::take(&mut delta.skips) {
            if !diags.is_empty() {
                new_skips.insert(path, diags);
            }
        }
        for (path, diags) in &new_skips {
            if self.skips.get(path) != Some(diags) {
                delta.skips.insert(path.clone(), diags.clone());
            }
        }
        for path in self.skips.keys() {
            if !new_skips.contains_key(path) {
                delta.skips.insert(path.clone(), Vec::new());
            }
        }
        // Read failures of candidates are skips too (already in delta.skips).
        if let Some(git) = git {
            self.git = git.join().ok().flatten();
        }
        tracing::debug!(walk = ?t_walk, read = ?t_read, git = ?start.elapsed(), "scan phases");
        self.apply_scanned(delta, start)
    }

    /// Applies the paths a watcher reported (files or directories, created, changed or
    /// removed) and publishes.
    pub fn sync_paths(&mut self, paths: &[PathBuf]) -> Result<Applied> {
        let start = Instant::now();
        let mut candidates: BTreeMap<String, Candidate> = BTreeMap::new();
        let mut removed: HashSet<String> = HashSet::new();
        let mut skips: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        // A path under a symlinked directory's target is also a path under each alias.
        let mut all: Vec<PathBuf> = paths.to_vec();
        for abs in paths {
            for link in &self.dir_links {
                if let Ok(below) = abs.strip_prefix(&link.target) {
                    all.push(self.root.join(&link.alias).join(below));
                }
            }
        }
        all.sort();
        all.dedup();
        for abs in &all {
            if self.is_irrelevant(abs) {
                continue;
            }
            let rel = crate::scan::rel_path(&self.root, abs);
            let meta = std::fs::symlink_metadata(abs);
            // A symlink to a directory inside the root is walked like a directory (a full walk
            // follows it); one that leaves the root is a file-level skip below.
            let linked_dir = meta.as_ref().is_ok_and(|m| m.file_type().is_symlink())
                && std::fs::canonicalize(abs)
                    .is_ok_and(|t| t.starts_with(&self.root) && t.is_dir());
            self.dir_links.retain(|l| l.alias != rel);
            if linked_dir && let Ok(target) = std::fs::canonicalize(abs) {
                self.dir_links.push(crate::scan::DirLink { alias: rel.clone(), target });
            }
            match meta {
                Err(_) => {
                    // Gone: the file itself, or everything under a removed directory.
                    let prefix = format!("{rel}/");
                    removed.extend(
                        self.files.keys().filter(|p| **p == rel || p.starts_with(&prefix)).cloned(),
                    );
                    if self.skips.contains_key(&rel) {
                        skips.insert(rel.clone(), Vec::new());
                    }
                }
                Ok(meta) if meta.is_dir() || linked_dir => {
                    let w = walk(&self.root, &self.opts, abs, None);
                    let prefix = format!("{rel}/");
                    let found: HashSet<&str> =
                        w.candidates.iter().map(|c| c.rel.as_str()).collect();
                    // The directory's files that are gone, and a file of the same name that
                    // the directory replaced (`rm a.ts; mkdir a.ts`).
                    removed.extend(
                        self.files
                            .keys()
                            .filter(|p| {
                                (**p == rel || p.starts_with(&prefix))
                                    && !found.contains(p.as_str())
                            })
                            .cloned(),
                    );
                    if self.skips.contains_key(&rel) {
                        skips.entry(rel.clone()).or_default();
                    }
                    for c in w.candidates {
                        candidates.insert(c.rel.clone(), c);
                    }
                    for (p, d) in group_skips(w.skips) {
                        skips.insert(p, d);
                    }
                }
                Ok(_) => {
                    // A file: list its directory with the full rules (ignore files, size,
                    // symlinks) and take its entry, if it is eligible at all.
                    let Some(dir) = abs.parent() else { continue };
                    let w = walk(&self.root, &self.opts, dir, Some(1));
                    let mut found = false;
                    for c in w.candidates {
                        if c.rel == rel {
                            found = true;
                            candidates.insert(c.rel.clone(), c);
                        }
                    }
                    let mut skip: Vec<Diagnostic> =
                        w.skips.into_iter().filter(|d| d.path == rel).collect();
                    skip.sort();
                    if !found && self.files.contains_key(&rel) {
                        removed.insert(rel.clone());
                    }
                    // A file that replaced a directory of the same name: its files are gone.
                    let prefix = format!("{rel}/");
                    removed.extend(self.files.keys().filter(|p| p.starts_with(&prefix)).cloned());
                    if self.skips.get(&rel).map_or(!skip.is_empty(), |s| *s != skip) {
                        skips.insert(rel.clone(), skip);
                    }
                }
            }
        }
        for rel in candidates.keys() {
            removed.remove(rel);
        }
        let mut delta =
            self.read_candidates(candidates.into_values().collect(), &HashMap::new(), start);
        let mut removed: Vec<String> = removed.into_iter().collect();
        removed.sort();
        delta.removed.extend(removed);
        for (p, d) in skips {
            delta.skips.entry(p).or_insert(d);
        }
        self.apply_scanned(delta, start)
    }

    /// Applies a scan's delta, recording how long the scan took (since `start`) and how many
    /// files the git index vouched for.
    fn apply_scanned(&mut self, delta: Delta, start: Instant) -> Result<Applied> {
        let scan_ms = start.elapsed().as_secs_f64() * 1000.0;
        let vouched = delta.vouched;
        let mut applied = self.apply(delta)?;
        applied.scan_ms = scan_ms;
        applied.vouched_files = vouched;
        Ok(applied)
    }

    /// Reads candidates whose stat differs from what the engine holds; keeps the ones whose
    /// content hash differs.
    /// Reads the candidates whose stat differs from what the engine recorded, except those the
    /// git index vouches for: same size and modification time as git recorded, and git's blob
    /// ID equal to the hash the engine holds (the content is the same; only the stat moved).
    fn read_candidates(
        &self,
        candidates: Vec<Candidate>,
        blobs: &HashMap<String, IndexedBlob>,
        scan_start: Instant,
    ) -> Delta {
        let now_ns = i64::try_from(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        )
        .unwrap_or(i64::MAX)
            - i64::try_from(scan_start.elapsed().as_nanos()).unwrap_or(0);
        let mut delta = Delta::default();
        let mut to_read: Vec<Candidate> = Vec::new();
        for c in candidates {
            match self.files.get(&c.rel) {
                Some(e) if c.stat_matches(e.size, e.mtime_ns) => {}
                Some(e)
                    if blobs.get(&c.rel).is_some_and(|b| {
                        !b.racy && b.hash == e.hash && b.size == c.size && b.mtime_ns == c.mtime_ns
                    }) =>
                {
                    let mtime = crate::scan::recorded_mtime(c.mtime_ns, now_ns);
                    if mtime != e.mtime_ns {
                        delta.touched.push((c.rel, mtime));
                    }
                    delta.vouched += 1;
                }
                _ => to_read.push(c),
            }
        }
        let results: Vec<(Candidate, Result<ScannedFile, Diagnostic>)> = to_read
            .into_par_iter()
            .map(|c| {
                let r = read_file(&c);
                (c, r)
            })
            .collect();
        let mut changed: Vec<(ScannedFile, i64)> = Vec::new();
        for (c, r) in results {
            // Racily clean: modified within the window before the read; trust only the hash.
            let mtime = crate::scan::recorded_mtime(c.mtime_ns, now_ns);
            match r {
                Ok(f) => {
                    match self.files.get(&f.path) {
                        Some(e) if e.hash == f.meta.hash => {
                            if e.mtime_ns != mtime {
                                delta.touched.push((f.path.clone(), mtime));
                            }
                        }
                        _ => changed.push((f, mtime)),
                    }
                    // A path skipped before and readable now is no longer skipped.
                    if self.skips.contains_key(&c.rel) {
                        delta.skips.insert(c.rel.clone(), Vec::new());
                    }
                }
                Err(d) => {
                    if self.files.contains_key(&c.rel) {
                        delta.removed.push(c.rel.clone());
                    }
                    delta.skips.insert(c.rel.clone(), vec![d]);
                }
            }
        }
        // Extract the changed files' facts on all cores, as the full build does.
        delta.upserts = changed
            .into_par_iter()
            .map(|(f, mtime)| {
                let content = content_for(&f);
                (f, mtime, content)
            })
            .collect();
        delta
    }

    /// Sets the inputs the delta changes, re-derives, and publishes the units whose rows
    /// changed in one transaction. No change, no revision.
    ///
    /// Under the index's write lock. An index deleted, replaced or found damaged is rebuilt
    /// from the tree (the answer's `rebuilt` says why). When publishing fails (another
    /// process holds SQLite's lock past the busy timeout, a full disk), the delta's paths are
    /// forgotten so that the next whole-tree sync ([`Engine::needs_retry`]) reads them again:
    /// nothing of a failed batch is lost.
    pub fn apply(&mut self, delta: Delta) -> Result<Applied> {
        let db_path = self.store.path().to_path_buf();
        let lock = crate::guard::acquire(&db_path)?;
        if self.store.is_detached() {
            return self.rebuild(format!(
                "the index file {} was deleted or replaced while this process kept it",
                db_path.display()
            ));
        }
        if let Some(detail) = crate::guard::damage(&db_path, &lock) {
            let aside = crate::guard::move_aside(&db_path)?;
            return self.rebuild(crate::guard::repaired_note(&db_path, &detail, &aside));
        }
        self.adopt_foreign_revision()?;
        let carried: Vec<String> = delta
            .upserts
            .iter()
            .map(|(f, _, _)| f.path.clone())
            .chain(delta.touched.iter().map(|(p, _)| p.clone()))
            .collect();
        let result = self.apply_locked(delta);
        // Rows of files whose graph memos the new revision evicted.
        codegraph_resolve::release_unused_rows();
        match result {
            Ok(applied) => {
                self.unsettled = false;
                Ok(applied)
            }
            Err(e) => {
                if let Some(detail) = crate::guard::damage_in(&e) {
                    let aside = crate::guard::move_aside(&db_path)?;
                    return self.rebuild(crate::guard::repaired_note(&db_path, &detail, &aside));
                }
                for path in carried {
                    if let Some(entry) = self.files.get_mut(&path) {
                        entry.mtime_ns = 0;
                        entry.hash.clear();
                    }
                }
                self.unsettled = true;
                Err(e)
            }
        }
    }

    /// Whether a revision failed to publish and the next sync must be of the whole tree.
    pub fn needs_retry(&self) -> bool {
        self.unsettled
    }

    /// Rebuilds the index from the tree when its file was deleted or replaced while this
    /// engine kept it (checked with one `stat`; long-lived owners call this when idle).
    pub fn check_index(&mut self) -> Result<Option<Applied>> {
        if !self.store.is_detached() {
            return Ok(None);
        }
        let db_path = self.store.path().to_path_buf();
        let _lock = crate::guard::acquire(&db_path)?;
        if !self.store.is_detached() {
            return Ok(None);
        }
        self.rebuild(format!(
            "the index file {} was deleted or replaced while this process kept it",
            db_path.display()
        ))
        .map(Some)
    }

    /// Another process published a revision since ours (an `index` next to a `watch`): take
    /// the unit digests it left, so that this engine compares against what is stored.
    fn adopt_foreign_revision(&mut self) -> Result<()> {
        let latest = self.store.latest_revision()?;
        if let Some(latest) = latest.filter(|&r| r != self.revision) {
            self.published = self.store.unit_digests()?;
            self.revision = latest;
            self.unsettled = true;
        }
        Ok(())
    }

    /// Replaces this engine by a full build of the tree into a new index at the same path
    /// (the caller holds the write lock and moved any damaged file aside).
    fn rebuild(&mut self, why: String) -> Result<Applied> {
        let start = Instant::now();
        tracing::warn!("{why}; rebuilding it");
        let db_path = self.store.path().to_path_buf();
        if self.store.is_detached() {
            // Whatever is at the path now is not ours to trust; a deleted file is just gone.
            for f in codegraph_query::database_files(&db_path) {
                let _ = std::fs::remove_file(f);
            }
        }
        let opts = IndexOptions {
            max_file_size: self.opts.max_file_size,
            progress: false,
            full: true,
            share: false,
            cache_from: None,
            counter: None,
        };
        let build = full_build(&self.root, &db_path, &opts)?;
        let (engine, summary) = Engine::from_build(&self.root, self.opts.clone(), build);
        let old = std::mem::replace(self, engine);
        old.release_for_exit();
        self.db.set_parse_lru(DAEMON_PARSE_LRU);
        self.store.set_cache_kib(DAEMON_SQLITE_CACHE_KIB)?;
        Ok(Applied {
            revision: Some(self.revision),
            changed_files: summary.files,
            units_rewritten: self.published.len(),
            derive_ms: start.elapsed().as_secs_f64() * 1000.0,
            rebuilt: Some(why),
            ..Default::default()
        })
    }

    /// [`Engine::apply`] under the lock, in four named phases: [`Engine::set_inputs`] (the
    /// salsa inputs the delta changes), [`Engine::changed_units`] (re-derive every unit's
    /// digest; salsa re-executes only what the edit reaches), [`Engine::publish_units`] (one
    /// transaction rewriting the units whose digest moved) and [`Engine::remember`] (what the
    /// store now holds).
    fn apply_locked(&mut self, delta: Delta) -> Result<Applied> {
        let start = Instant::now();
        let mut delta = delta;
        let current = &self.skips;
        delta.skips.retain(|path, diags| match current.get(path) {
            Some(now) => now != diags,
            None => !diags.is_empty(),
        });
        if delta.upserts.is_empty() && delta.removed.is_empty() && delta.skips.is_empty() {
            // Only modification times moved: remember them, publish nothing.
            if !delta.touched.is_empty() {
                self.store.touch_sources(&delta.touched)?;
                for (path, mtime_ns) in delta.touched {
                    if let Some(e) = self.files.get_mut(&path) {
                        e.mtime_ns = mtime_ns;
                    }
                }
            }
            return Ok(Applied::default());
        }
        let mut applied = Applied {
            changed_files: delta.upserts.len(),
            removed_files: delta.removed.len(),
            ..Default::default()
        };
        // Held until this derivation ends.
        let _restored = self.decode_restored();
        let before = self.surfaces_before(&delta);
        let inputs = self.set_inputs(delta.upserts, delta.touched, &delta.removed);
        let shortcut = self.surfaces_kept(&inputs, before);
        let units = if shortcut {
            applied.own_units_only = true;
            self.own_units(&inputs)?
        } else {
            self.changed_units(&inputs)?
        };
        applied.derive_ms = start.elapsed().as_secs_f64() * 1000.0;
        let publish_start = Instant::now();
        let info = self.snapshot_info(start);
        let (revision, rewritten) = Self::publish_units(
            &mut self.store,
            &self.db,
            self.workspace,
            &info,
            &units,
            &inputs,
            &delta.skips,
        )?;
        applied.units_rewritten = rewritten;
        applied.publish_ms = publish_start.elapsed().as_secs_f64() * 1000.0;
        applied.revision = Some(revision);
        let published: Vec<(String, u64)> = units
            .files
            .iter()
            .map(|(path, _, d)| (codegraph_resolve::ids::file_id(path).to_string(), *d))
            .chain(units.packages.iter().cloned())
            .collect();
        let gone = units.gone;
        self.remember(gone, published, delta.skips, revision);
        Ok(applied)
    }

    /// Phase 1: sets the inputs of new, edited, re-created and removed files (a removed file's
    /// input is emptied and kept for its return), and the workspace's file list when it changed.
    fn set_inputs(
        &mut self,
        upserts: Vec<(ScannedFile, i64, Content)>,
        touched_in: Vec<(String, i64)>,
        removed: &[String],
    ) -> InputChanges {
        let mut list_changed = false;
        let mut upserted: Vec<String> = Vec::with_capacity(upserts.len());
        for (f, mtime_ns, content) in upserts {
            upserted.push(f.path.clone());
            if !self.files.contains_key(&f.path)
                && let Some(input) = self.retired.remove(&f.path)
            {
                // A path that comes back takes its old input (set below like an edit).
                let entry = Entry {
                    id: codegraph_resolve::ids::file_id(&f.path),
                    input,
                    size: 0,
                    mtime_ns: 0,
                    hash: String::new(),
                };
                self.files.insert(f.path.clone(), entry);
                list_changed = true;
            }
            match self.files.get_mut(&f.path) {
                Some(e) => {
                    // A language that claims files by their text may gain or lose one.
                    if e.input.language(&self.db) != f.language {
                        e.input
                            .set_language(&mut self.db)
                            .with_durability(INPUT_DURABILITY)
                            .to(f.language);
                    }
                    e.input.set_content(&mut self.db).with_durability(INPUT_DURABILITY).to(content);
                    if e.input.meta(&self.db) != &f.meta {
                        e.input
                            .set_meta(&mut self.db)
                            .with_durability(INPUT_DURABILITY)
                            .to(f.meta.clone());
                    }
                    e.size = f.meta.size;
                    e.mtime_ns = mtime_ns;
                    e.hash = f.meta.hash.clone();
                }
                None => {
                    let input =
                        SourceFile::builder(f.path.clone(), f.language, content, f.meta.clone())
                            .durability(INPUT_DURABILITY)
                            .new(&self.db);
                    let entry = Entry {
                        id: codegraph_resolve::ids::file_id(&f.path),
                        input,
                        size: f.meta.size,
                        mtime_ns,
                        hash: f.meta.hash.clone(),
                    };
                    self.files.insert(f.path.clone(), entry);
                    list_changed = true;
                }
            }
        }
        let mut touched = Vec::new();
        for (path, mtime_ns) in touched_in {
            if let Some(e) = self.files.get_mut(&path) {
                e.mtime_ns = mtime_ns;
                touched.push((path, mtime_ns));
            }
        }
        let mut retiring: Vec<SourceFile> = Vec::new();
        for path in removed {
            if let Some(e) = self.files.remove(path) {
                list_changed = true;
                // Empty the input: its text and the facts derived from it are released.
                e.input
                    .set_content(&mut self.db)
                    .with_durability(INPUT_DURABILITY)
                    .to(Content::Stored(Arc::new(FileFacts::default())));
                e.input.set_meta(&mut self.db).with_durability(INPUT_DURABILITY).to(FileMeta {
                    size: 0,
                    hash: String::new(),
                    lossy_utf8: false,
                    lines: 0,
                });
                retiring.push(e.input);
                self.retired.insert(path.clone(), e.input);
            }
        }
        if list_changed {
            let inputs = self.inputs();
            self.workspace.set_files(&mut self.db).with_durability(INPUT_DURABILITY).to(inputs);
        }
        InputChanges { upserted, touched, retiring, list_changed }
    }

    /// Decodes a restored engine's facts on every core before its first derivation and
    /// returns them, for the caller to hold until that derivation ends: they stay encoded
    /// until read ([`codegraph_db::LazyFacts`]), so an engine that derives nothing (a worktree
    /// seeded at its sibling's commit) decodes nothing, but resolution reads most files'
    /// summaries through workspace tables (a Go file's import view reads every Go file's
    /// imports), one file at a time, and each would decode its file's facts there (the Go
    /// standard library: a watched body edit 68 -> 321 ms). Once the summaries are memoized,
    /// later derivations read only what edits reach, so the facts are let go.
    fn decode_restored(&mut self) -> Vec<Arc<FileFacts>> {
        if !std::mem::take(&mut self.lazy_facts) {
            return Vec::new();
        }
        let inputs = self.inputs();
        self.db.par_map(&inputs, |db, f| file_facts(db, f)).unwrap_or_default()
    }

    /// The surfaces (`codegraph_resolve::file_surface`) of the files `delta` sets, read before
    /// it is applied; `None` when the edit cannot take the shortcut whatever they are: a file
    /// removed, added or changing language, a file resolution reads as text, a language that
    /// declares no surface, or units left unsettled by a failed revision.
    fn surfaces_before(&self, delta: &Delta) -> Option<Vec<u64>> {
        if !delta.removed.is_empty() || self.unsettled {
            return None;
        }
        delta
            .upserts
            .iter()
            .map(|(f, _, content)| {
                let e = self.files.get(&f.path)?;
                let same_language = e.input.language(&self.db) == f.language;
                if !same_language || !matches!(content, Content::Stored(_)) {
                    return None;
                }
                file_surface(&self.db, self.workspace, e.input)
            })
            .collect()
    }

    /// Whether the edit just set left the file list and every set file's surface as they were
    /// (`before` from [`Engine::surfaces_before`]): then no unit but the set files' own can
    /// have changed.
    fn surfaces_kept(&self, inputs: &InputChanges, before: Option<Vec<u64>>) -> bool {
        let Some(before) = before else { return false };
        !inputs.list_changed
            && before.len() == inputs.upserted.len()
            && inputs.upserted.iter().zip(before).all(|(path, was)| {
                self.files
                    .get(path)
                    .is_some_and(|e| file_surface(&self.db, self.workspace, e.input) == Some(was))
            })
    }

    /// Phase 2, shortcut: the units of the set files only, when their surfaces held
    /// ([`Engine::surfaces_kept`]). Salsa validates and re-derives what those units read, not
    /// every memo of the tree. In verification mode every unit is derived as well and any
    /// difference is an error (a unit read something of an edited file outside its surface).
    fn own_units(&self, inputs: &InputChanges) -> Result<ChangedUnits> {
        let (db, ws) = (&self.db, self.workspace);
        let mut files = Vec::new();
        let mut seen = HashSet::new();
        for path in &inputs.upserted {
            let Some(e) = self.files.get(path) else { continue };
            if !seen.insert(path) {
                continue;
            }
            let digest = file_unit_digest(db, ws, e.input);
            if self.published.get(&*e.id) != Some(&digest) {
                files.push((path.clone(), e.input, digest));
            }
        }
        files.sort_by(|a, b| a.0.cmp(&b.0));
        let sources = self.changed_sources(inputs);
        let units = ChangedUnits { files, packages: Vec::new(), gone: Vec::new(), sources };
        if self.verify_surface {
            let full = self.changed_units(inputs)?;
            let key = |u: &ChangedUnits| {
                let files: Vec<(String, u64)> =
                    u.files.iter().map(|(p, _, d)| (p.clone(), *d)).collect();
                (files, u.packages.clone(), u.gone.clone())
            };
            if key(&units) != key(&full) {
                anyhow::bail!(
                    "surface shortcut missed units after setting {:?}: shortcut {:?}, full {:?}",
                    inputs.upserted,
                    key(&units),
                    key(&full)
                );
            }
        }
        Ok(units)
    }

    /// The source rows to record: the facts of the files whose content was set.
    fn changed_sources(&self, inputs: &InputChanges) -> Vec<SourceRow> {
        inputs
            .upserted
            .iter()
            .filter_map(|p| self.files.get(p).map(|e| (p, e)))
            .map(|(p, e)| source_row(&self.db, p, e.input, e.mtime_ns))
            .collect()
    }

    /// Verification mode (tests, `CODEGRAPH_VERIFY_SURFACE=1`): every edit that takes the
    /// surface shortcut also derives every unit, and the apply fails if they differ.
    pub fn set_verify_surface(&mut self, on: bool) {
        self.verify_surface = on;
    }

    /// Phase 2: re-derives every unit's digest (unchanged ones are validated, not recomputed)
    /// and lists the units whose digest differs from the published one, the units that no
    /// longer exist, and the source rows of the files whose content changed.
    fn changed_units(&self, inputs: &InputChanges) -> Result<ChangedUnits> {
        let ws = self.workspace;
        let start = Instant::now();
        // Re-derive the emptied inputs once, so that their memos (facts, graph, resolution)
        // are replaced by empty ones instead of holding the removed file's until it returns.
        for &input in &inputs.retiring {
            file_unit_digest(&self.db, ws, input);
        }
        let digests = self.file_digests()?;
        let t_par = start.elapsed();
        let db = &self.db;
        let mut files = Vec::new();
        for ((path, e), digest) in self.files.iter().zip(digests) {
            if self.published.get(&*e.id) != Some(&digest) {
                files.push((path.clone(), e.input, digest));
            }
        }
        let mut packages = Vec::new();
        let mut appeared = false;
        for &unit in node_units(db, ws) {
            let id = unit.id(db);
            let digest = node_unit_digest(db, unit);
            match self.published.get(id) {
                Some(d) if *d == digest => {}
                known => {
                    appeared |= known.is_none();
                    packages.push((id.to_string(), digest));
                }
            }
        }
        // Units that no longer exist: when the file list changed, or when a node unit may
        // have vanished without it (a concept no file refers to any more after an edit): a
        // new one appeared, or fewer are live than are published.
        let published_nodes = || {
            self.published
                .keys()
                .filter(|id| !codegraph_schema::ids::is(id, codegraph_schema::NodeCategory::File))
                .count()
        };
        let mut gone: Vec<String> = Vec::new();
        if inputs.list_changed
            || self.unsettled
            || appeared
            || published_nodes() != node_units(db, ws).len()
        {
            let mut live: HashSet<&str> = self.files.values().map(|e| &*e.id).collect();
            let units = node_units(db, ws);
            live.extend(units.iter().map(|u| u.id(db)));
            gone =
                self.published.keys().filter(|id| !live.contains(id.as_str())).cloned().collect();
            gone.sort();
        }
        let sources = self.changed_sources(inputs);
        tracing::debug!(par = ?t_par, total = ?start.elapsed(), "derive phases");
        Ok(ChangedUnits { files, packages, gone, sources })
    }

    /// Phase 3: one transaction that removes the units that are gone, replaces the changed
    /// units' rows, diagnostics and sources, and commits a revision. Returns the revision and
    /// how many units it rewrote.
    fn publish_units(
        store: &mut Store,
        db: &Database,
        ws: Workspace,
        info: &SnapshotInfo,
        units: &ChangedUnits,
        inputs: &InputChanges,
        skips: &BTreeMap<String, Vec<Diagnostic>>,
    ) -> Result<(i64, usize)> {
        let publish_start = Instant::now();
        let mut update = store.begin_update()?;
        let t_begin = publish_start.elapsed();
        for id in &units.gone {
            match codegraph_schema::ids::file_path(id) {
                Some(path) => {
                    update.remove_unit(id, UnitKind::File(path))?;
                    update.remove_source(path)?;
                }
                None => update.remove_unit(id, UnitKind::Node)?,
            }
        }
        for (path, diags) in skips {
            update.replace_diagnostics(path, diags)?;
        }
        for (path, file, digest) in &units.files {
            let (file, digest) = (*file, *digest);
            let id = codegraph_resolve::ids::file_id(path);
            let node = file_node(db, file);
            let graph = file_graph(db, file);
            let resolved = resolve_file(db, ws, file);
            let mut diagnostics: Vec<Diagnostic> = Vec::new();
            if file.meta(db).lossy_utf8 {
                diagnostics.push(crate::scan::lossy_diagnostic(path));
            }
            for (code, detail) in &graph.diagnostics {
                diagnostics.push(Diagnostic {
                    path: path.clone(),
                    code: *code,
                    detail: detail.clone(),
                });
            }
            let mut nodes = vec![node];
            nodes.extend(graph.nodes.iter());
            nodes.extend(resolved.nodes.iter());
            let mut edges: Vec<&codegraph_resolve::Edge> = graph.edges.iter().collect();
            edges.extend(resolved.edges.iter());
            update.replace_unit(&UnitRows {
                id: &id,
                kind: UnitKind::File(path),
                nodes,
                edges,
                unresolved: &resolved.unresolved,
                diagnostics,
                digest,
            })?;
        }
        let changed: HashMap<&str, u64> =
            units.packages.iter().map(|(id, d)| (id.as_str(), *d)).collect();
        // (Listing the node units validates their memo: not when none changed.)
        let listed: &[_] = if changed.is_empty() { &[] } else { node_units(db, ws) };
        for &unit in listed {
            let Some(&digest) = changed.get(unit.id(db)) else { continue };
            let id = unit.id(db);
            let g = node_unit_graph(db, unit);
            update.replace_unit(&UnitRows {
                id,
                kind: UnitKind::Node,
                nodes: g.nodes.iter().collect(),
                edges: g.edges.iter().collect(),
                unresolved: &[],
                diagnostics: Vec::new(),
                digest,
            })?;
        }
        let t_units = publish_start.elapsed();
        for s in &units.sources {
            update.upsert_source(s)?;
        }
        for (path, mtime_ns) in &inputs.touched {
            update.touch_source(path, *mtime_ns)?;
        }
        let rewritten = update.changed_units();
        crate::index::pause_point("update-commit");
        let t_sources = publish_start.elapsed();
        let revision = update.commit(info)?;
        tracing::debug!(
            begin = ?t_begin,
            units = ?t_units,
            sources = ?t_sources,
            total = ?publish_start.elapsed(),
            "publish phases"
        );
        Ok((revision, rewritten))
    }

    /// Phase 4: the digests and skips the store now holds (`gone` units removed, `published`
    /// (unit ID, digest) pairs written), and its revision.
    fn remember(
        &mut self,
        gone: Vec<String>,
        published: Vec<(String, u64)>,
        skips: BTreeMap<String, Vec<Diagnostic>>,
        revision: i64,
    ) {
        for id in gone {
            self.published.remove(&id);
        }
        self.published.extend(published);
        for (path, diags) in skips {
            if diags.is_empty() {
                self.skips.remove(&path);
            } else {
                self.skips.insert(path, diags);
            }
        }
        self.revision = revision;
    }

    /// Every file's input, in path order.
    fn inputs(&self) -> Vec<SourceFile> {
        self.files.values().map(|e| e.input).collect()
    }

    /// Every file unit's digest, in path order, computed on all cores. Units an edit cannot
    /// have changed are only validated by salsa, not recomputed.
    fn file_digests(&self) -> Result<Vec<u64>> {
        let ws = self.workspace;
        let inputs = self.inputs();
        // Workers take files as they go (fixed halves left one core idle at the end).
        self.db
            .par_map(&inputs, |db, f| file_unit_digest(db, ws, f))
            .context("deriving the graph panicked; nothing was published")
    }

    /// Prepares a long-lived engine: keeps at most [`DAEMON_PARSE_LRU`] syntax trees (a daemon
    /// edits a few files at a time; facts are memoized apart from trees, so an evicted tree is
    /// only re-parsed when its file changes again), then derives every unit once (after a
    /// restore, so the first edit pays only for itself), each file's summaries first.
    pub fn warm(&mut self) -> Result<()> {
        self.db.set_parse_lru(DAEMON_PARSE_LRU);
        self.store.set_cache_kib(DAEMON_SQLITE_CACHE_KIB)?;
        if std::mem::take(&mut self.lazy_facts) {
            // A restored engine's facts are decoded here one file at a time, each held while
            // its summaries are made, so workspace tables read memos and a daemon never holds
            // every file's facts at once (what `decode_restored` does for a one-shot update).
            let inputs = self.inputs();
            self.db.par_each(&inputs, |db, f| {
                let _held = file_facts(db, f);
                codegraph_resolve::file_summaries(db, f);
            });
        }
        self.file_digests()?;
        for &unit in node_units(&self.db, self.workspace) {
            node_unit_digest(&self.db, unit);
        }
        codegraph_resolve::release_unused_rows();
        Ok(())
    }

    fn snapshot_info(&self, start: Instant) -> SnapshotInfo {
        SnapshotInfo {
            root: self.root.to_string_lossy().into_owned(),
            head_commit: self.git.as_ref().and_then(|g| g.head_commit.clone()),
            dirty_fingerprint: self.git.as_ref().and_then(|g| g.dirty_fingerprint.clone()),
            dirty_files: self.git.as_ref().map_or(0, |g| g.dirty.len() as u64),
            indexer_version: indexer_version(),
            created_at_ms: now_ms(),
            duration_ms: i64::try_from(start.elapsed().as_millis()).unwrap_or(i64::MAX),
            max_file_size: self.opts.max_file_size,
            go_import_prefix: crate::index::go_import_prefix(&self.db, self.workspace),
        }
    }

    /// Publishes a revision that changes no unit: the snapshot row of this root as it is (its
    /// path, git state), e.g. over an index copied from a sibling worktree.
    fn publish_snapshot(&mut self, start: Instant) -> Result<i64> {
        let _lock = crate::guard::acquire(self.store.path())?;
        let info = self.snapshot_info(start);
        let revision = self.store.begin_update()?.commit(&info)?;
        self.revision = revision;
        Ok(revision)
    }

    /// Re-reads HEAD and the dirty files (after a commit or checkout).
    /// Whether git is rewriting this root's worktree now (a checkout, a merge): a watcher
    /// holds its batch until it is done, so a branch switch is one revision, not several
    /// taken while files are still being written ([`crate::git::busy`]).
    pub fn git_busy(&self) -> bool {
        self.git_lock
            .get_or_init(|| crate::git::index_lock_path(&self.root))
            .as_deref()
            .is_some_and(crate::git::busy)
    }

    pub fn refresh_git(&mut self) {
        self.git = git_state(&self.root, &self.opts);
    }
}

/// The `source` row of a file: what the scanner saw and its encoded facts.
pub fn source_row(
    db: &dyn salsa::Database,
    path: &str,
    input: SourceFile,
    mtime_ns: i64,
) -> SourceRow {
    let language = input.language(db);
    let facts = language.map(|_| match input.content(db) {
        Content::Lazy(lazy) => lazy.bytes().to_vec(),
        _ => codegraph_parse::encode_facts(&file_facts(db, input)),
    });
    source_row_of(path, input.meta(db), mtime_ns, facts, language)
}

/// The content of a restored file whose facts the index stored: kept encoded and decoded
/// when read, as one copy per blob within the process (another root may hold the same
/// blob's facts); see [`crate::shared::decode`].
fn lazy_facts(row: &SourceRow, bytes: Vec<u8>) -> Content {
    let language = row.language.as_deref().and_then(codegraph_parse::Language::from_name);
    Content::Lazy(Arc::new(codegraph_db::LazyFacts::new(
        row.hash.clone(),
        language,
        crate::shared::blob(&row.hash, language, bytes),
        None,
        crate::shared::decode,
    )))
}

/// The `source` row of a file from what the scanner saw and its encoded facts.
pub fn source_row_of(
    path: &str,
    meta: &FileMeta,
    mtime_ns: i64,
    facts: Option<Vec<u8>>,
    language: Option<codegraph_parse::Language>,
) -> SourceRow {
    SourceRow {
        language: language.map(|l| l.as_str().to_string()),
        path: path.to_string(),
        size: meta.size,
        mtime_ns,
        hash: meta.hash.clone(),
        lossy_utf8: meta.lossy_utf8,
        lines: meta.lines,
        facts,
    }
}

/// Scan options for a root whose index lives at `db_path` (the index's files are excluded).
pub fn scan_options(db_path: &Path, max_file_size: u64) -> ScanOptions {
    ScanOptions { max_file_size, exclude: crate::guard::index_files(db_path) }
}

fn group_skips(skips: Vec<Diagnostic>) -> BTreeMap<String, Vec<Diagnostic>> {
    let mut out: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    for d in skips {
        if d.code.is_skip() {
            out.entry(d.path.clone()).or_default().push(d);
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}
