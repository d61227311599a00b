//! The full build behind `codegraph index` on a new root (or after a version change): scan ->
//! facts (all cores, trees dropped at once) -> salsa inputs holding those facts -> graph -> one
//! revision that replaces everything, written by a bulk publication while parsing goes on.
//! Incremental revisions are the engine's ([`crate::engine`]).

use crate::git::{GitState, git_state};
use crate::scan::{Candidate, ScannedFile, read_file, walk};
use anyhow::{Context, Result};
use codegraph_db::{Content, Database, SourceFile, Workspace};
use codegraph_query::{Diagnostic, SnapshotInfo, SourceRow, Store};
use codegraph_resolve::{
    Edge, Node, UnresolvedSite, file_graph, file_node, file_rows_digest, file_unit_digest,
    node_unit_digest, node_unit_graph, node_units, resolve_file,
};
use codegraph_schema::DiagnosticCode;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Identifies what wrote an index: the codegraph version and the version of the facts the
/// providers extract (restored facts from another extraction would be wrong, so a different
/// value forces a full rebuild).
pub fn indexer_version() -> String {
    format!("{}+facts{}", env!("CARGO_PKG_VERSION"), codegraph_parse::FACTS_VERSION)
}

pub struct IndexOptions {
    pub max_file_size: u64,
    pub progress: bool,
    /// Rebuild from scratch even when the index could be updated incrementally.
    pub full: bool,
    /// A root with no index yet may start from a sibling worktree's index (`--no-share`
    /// turns it off).
    pub share: bool,
    /// A root with no index yet first tries this shared store (`--cache-from`,
    /// `CODEGRAPH_CACHE_FROM`): the snapshot of its nearest published ancestor commit.
    pub cache_from: Option<std::sync::Arc<dyn crate::remote::SnapshotStore>>,
    /// Counts the files a full build has parsed, for a status reader on another thread.
    pub counter: Option<Arc<BuildProgress>>,
}

impl IndexOptions {
    /// `codegraph index` with a 1 MiB file limit and no progress, sibling or store: the
    /// tests' index (set `full` / `share` on it for the others).
    pub fn plain() -> Self {
        IndexOptions {
            max_file_size: 1 << 20,
            progress: false,
            full: false,
            share: false,
            cache_from: None,
            counter: None,
        }
    }
}

/// How far a full build is: files parsed of the files scanned (both 0 until the scan ends).
#[derive(Debug, Default)]
pub struct BuildProgress {
    pub done: std::sync::atomic::AtomicU64,
    pub total: std::sync::atomic::AtomicU64,
}

/// What an index run did.
#[derive(Debug)]
pub struct IndexSummary {
    pub root: PathBuf,
    pub db: PathBuf,
    pub revision: i64,
    /// `full` (everything parsed), `incremental` (only changed files), `unchanged`.
    pub mode: &'static str,
    pub files: usize,
    pub parsed_files: usize,
    /// Files read and re-derived (all of them in a full build).
    pub changed_files: usize,
    /// Units (files, packages) whose rows were rewritten.
    pub units_rewritten: usize,
    pub symbols: usize,
    pub edges: usize,
    pub unresolved: usize,
    pub lines: u64,
    pub bytes: u64,
    /// Skipped paths by reason.
    pub skipped: BTreeMap<&'static str, usize>,
    pub lossy_files: usize,
    pub files_with_syntax_errors: usize,
    pub head_commit: Option<String>,
    pub dirty_files: usize,
    pub scan_ms: u128,
    /// Incremental runs: loading the stored facts of every file.
    pub restore_ms: u128,
    pub parse_ms: u128,
    pub resolve_ms: u128,
    pub publish_ms: u128,
    pub total_ms: u128,
    /// Peak resident set size of this process, when the OS reports it.
    pub peak_rss_bytes: Option<u64>,
    /// A first index copied from a sibling worktree: "ROOT at COMMIT".
    pub seeded_from: Option<String>,
    /// Files whose stat changed that the git index vouched for (not read).
    pub vouched_files: usize,
    /// Things the run noticed and worked around (a sibling index it would not trust).
    pub notes: Vec<String>,
}

/// The note a snapshot keeps on how Go import paths map to the root when no `go.mod` covers
/// it: `PREFIX (inferred from imports naming N package directories)`.
pub fn go_import_prefix(db: &Database, workspace: Workspace) -> Option<String> {
    codegraph_resolve::go_inferred_prefix(db, workspace).map(|p| {
        format!("{} (inferred from imports naming {} package directories)", p.prefix, p.packages)
    })
}

/// Peak RSS (`VmHWM`) of this process from `/proc/self/status`; `None` off Linux.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Everything a full build leaves behind for the engine that continues from it.
pub struct FullBuild {
    pub db: Database,
    pub store: Store,
    /// (path, input, modification time to record), sorted by path.
    pub files: Vec<(String, SourceFile, i64)>,
    pub workspace: Workspace,
    /// Skip diagnostics of the scan.
    pub skips: Vec<Diagnostic>,
    /// Unit ID -> digest, as published.
    pub published: HashMap<String, u64>,
    pub git: Option<GitState>,
    pub revision: i64,
    pub summary: IndexSummary,
    /// Symlinked directories inside the root that the scan followed.
    pub links: Vec<crate::scan::DirLink>,
}

/// Scans, parses and resolves everything and publishes it as one new revision that replaces
/// the previous one entirely.
pub fn full_build(root: &Path, db_path: &Path, opts: &IndexOptions) -> Result<FullBuild> {
    let start = Instant::now();
    let scan_opts = crate::engine::scan_options(db_path, opts.max_file_size);
    let git_root = root.to_path_buf();
    let git_opts = scan_opts.clone();
    let git = std::thread::spawn(move || git_state(&git_root, &git_opts));

    // The walk lists the files; the workers read each one just before parsing it, so reading
    // and hashing overlap the parse instead of preceding it.
    let walked = walk(root, &scan_opts, root, None);
    let scan_ms = start.elapsed().as_millis();

    // The writer thread fills one publication while the workers go on parsing.
    if let Some(dir) = db_path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the index directory {}", dir.display()))?;
    }
    // A database nobody can be reading is built beside its place and renamed into it.
    let bulk = Store::is_unpublished(db_path);
    let store = if bulk { Store::open_bulk(db_path)? } else { Store::open(db_path)? };
    let (to_writer, from_main) = std::sync::mpsc::sync_channel::<WriterEvent>(4);
    let writer = std::thread::spawn(move || {
        let mut store = store;
        match write_revision(&mut store, from_main) {
            Ok(revision) => Ok((store, revision)),
            Err(e) => {
                // A first build that will not be installed leaves no file behind.
                store.discard_bulk();
                Err(e)
            }
        }
    });

    let parse_start = Instant::now();
    let mut db = Database::default();
    let candidates = walked.candidates;
    let bar = progress_bar(opts.progress, candidates.len());
    if let Some(c) = &opts.counter {
        c.total.store(candidates.len() as u64, std::sync::atomic::Ordering::Relaxed);
        c.done.store(0, std::sync::atomic::Ordering::Relaxed);
    }
    // Skips of the walk and of the reads, and notes on lossy decodes: sorted by path below,
    // as a scan gives them.
    let mut read_diagnostics = walked.skips;
    // Notes of the files' graphs (syntax errors, repairs), in path order.
    let mut file_diagnostics: Vec<Diagnostic> = Vec::new();
    let mut counts = Counts::default();
    let mut writer_gone = false;
    let mut files: Vec<SourceFile> = Vec::with_capacity(candidates.len());
    let mut paths: Vec<String> = Vec::with_capacity(candidates.len());
    let mut mtimes: Vec<i64> = Vec::with_capacity(candidates.len());
    let mut bytes: u64 = 0;
    let mut batch = Batch::default();
    // Workers read, parse and extract on every core, in any order, and drop each syntax tree
    // and text at once; this thread takes their facts in path order (so rows get the same
    // numbers every time), makes them salsa inputs (stored facts, as a restored index has:
    // nothing is parsed twice), derives each file's own rows and streams them to the writer
    // thread.
    prepare_in_parallel(&candidates, |read| {
        bar.inc(1);
        if let Some(c) = &opts.counter {
            c.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let (f, prepared, read_ns) = match read {
            Ok(read) => read,
            Err(d) => {
                read_diagnostics.push(d);
                return;
            }
        };
        if let Some(d) = crate::scan::lossy_note(&f) {
            read_diagnostics.push(d);
        }
        let mtime = crate::scan::recorded_mtime(f.mtime_ns, read_ns);
        bytes += f.meta.size;
        // Held while this file's rows are derived below; the input keeps them encoded.
        let _facts = prepared.facts;
        let input =
            SourceFile::builder(f.path.clone(), f.language, prepared.content, f.meta.clone())
                .durability(crate::engine::INPUT_DURABILITY)
                .new(&db);
        files.push(input);
        let node = file_node(&db, input);
        let g = file_graph(&db, input);
        // Hashed while the rows are at hand: the graph's memo is evicted after the parse.
        file_rows_digest(&db, input);
        // What other files' resolution reads of this one, while its facts are at hand.
        codegraph_resolve::file_summaries(&db, input);
        counts.add(node);
        batch.nodes.push(Arc::from([node.clone()]));
        batch.nodes.push(g.nodes.clone());
        batch.edges.push((node.id.clone(), g.edges.clone()));
        for (code, detail) in &g.diagnostics {
            file_diagnostics.push(Diagnostic {
                path: f.path.clone(),
                code: *code,
                detail: detail.clone(),
            });
        }
        batch.sources.push(crate::engine::source_row_of(
            &f.path,
            &f.meta,
            mtime,
            prepared.facts_blob,
            f.language,
        ));
        paths.push(f.path);
        mtimes.push(mtime);
        if batch.sources.len() == WRITER_BATCH {
            let full = std::mem::take(&mut batch);
            writer_gone = writer_gone || to_writer.send(WriterEvent::Batch(full)).is_err();
        }
    });
    writer_gone = writer_gone || to_writer.send(WriterEvent::Batch(batch)).is_err();
    writer_gone = writer_gone || to_writer.send(WriterEvent::FileRowsSent).is_err();
    crate::scan::sort_diagnostics(&mut read_diagnostics);
    let mut diagnostics = read_diagnostics;
    diagnostics.extend(file_diagnostics);
    // Every file's rows are with the writer and hashed: drop them from the memos before
    // resolution, whose own rows take that memory next.
    salsa::Database::trigger_lru_eviction(&mut db);
    codegraph_resolve::release_unused_rows();
    let workspace =
        Workspace::builder(files.clone()).durability(crate::engine::INPUT_DURABILITY).new(&db);
    // The bar keeps moving through the phases after the parse (seconds on a big root).
    phase(&bar, "resolving imports, calls and types");
    let parse_ms = parse_start.elapsed().as_millis();

    // Cross-file resolution needs every file's facts, so it runs after the parse pass.
    let resolve_start = Instant::now();
    // Workers resolve on every core while this thread hands each file's rows to the writer
    // in path order, so the writer inserts edges during resolution instead of after it.
    let mut published: HashMap<String, u64> = HashMap::with_capacity(files.len());
    let mut batch = Batch::default();
    let derive = |db: &Database, file| {
        file_unit_digest(db, workspace, file);
    };
    db.par_each_in_order(&files, derive, |file| {
        let id = file_node(&db, file).id.clone();
        let r = resolve_file(&db, workspace, file);
        if !r.nodes.is_empty() {
            batch.nodes.push(Arc::from(r.nodes.as_slice()));
        }
        if !r.edges.is_empty() {
            batch.edges.push((id.clone(), Arc::from(r.edges.as_slice())));
        }
        if !r.unresolved.is_empty() {
            batch.unresolved.push((file.path(&db).clone(), r.unresolved.clone()));
        }
        let digest = file_unit_digest(&db, workspace, file);
        batch.units.push((id.clone(), digest));
        published.insert(id.to_string(), digest);
        if batch.units.len() == WRITER_BATCH {
            let full = std::mem::take(&mut batch);
            writer_gone = writer_gone || to_writer.send(WriterEvent::Batch(full)).is_err();
        }
    });
    writer_gone = writer_gone || to_writer.send(WriterEvent::Batch(batch)).is_err();
    let resolve_ms = resolve_start.elapsed().as_millis();
    let mut batch = Batch::default();
    for &unit in node_units(&db, workspace) {
        let g = node_unit_graph(&db, unit);
        let id = codegraph_resolve::ids::intern(unit.id(&db));
        let digest = node_unit_digest(&db, unit);
        batch.nodes.push(Arc::from(g.nodes.as_slice()));
        batch.edges.push((id.clone(), Arc::from(g.edges.as_slice())));
        batch.units.push((id.clone(), digest));
        published.insert(id.to_string(), digest);
    }
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut lossy_files = 0;
    let mut files_with_syntax_errors = 0;
    for d in &diagnostics {
        match d.code {
            DiagnosticCode::LossyUtf8 => lossy_files += 1,
            DiagnosticCode::SyntaxErrors => files_with_syntax_errors += 1,
            code if code.is_skip() => *skipped.entry(code.as_str()).or_default() += 1,
            // Notes on indexed files (parse repairs, left-out templates) are no skips.
            _ => {}
        }
    }
    let skips: Vec<Diagnostic> = diagnostics.iter().filter(|d| d.code.is_skip()).cloned().collect();
    batch.diagnostics = diagnostics;
    phase(&bar, "writing and publishing the revision");
    let publish_start = Instant::now();
    let git: Option<GitState> = git.join().ok().flatten();
    let info = SnapshotInfo {
        root: root.to_string_lossy().into_owned(),
        head_commit: git.as_ref().and_then(|g| g.head_commit.clone()),
        dirty_fingerprint: git.as_ref().and_then(|g| g.dirty_fingerprint.clone()),
        dirty_files: git.as_ref().map_or(0, |g| g.dirty.len() as u64),
        indexer_version: indexer_version(),
        created_at_ms: now_ms(),
        duration_ms: i64::try_from(start.elapsed().as_millis()).unwrap_or(i64::MAX),
        max_file_size: opts.max_file_size,
        go_import_prefix: go_import_prefix(&db, workspace),
    };
    if !writer_gone {
        let _ = to_writer.send(WriterEvent::Batch(batch));
        let _ = to_writer.send(WriterEvent::Commit(info.clone()));
    }
    drop(to_writer);
    let (mut store, revision) = match writer.join() {
        Ok(result) => result?,
        Err(_) => {
            anyhow::bail!("the index writer thread panicked; the previous revision is intact")
        }
    };
    if bulk {
        store = store.install(db_path)?;
    }
    let publish_ms = publish_start.elapsed().as_millis();
    bar.finish_and_clear();
    // What the revision holds (duplicate rows were merged on insert).
    let snap = store.reader()?.snapshot()?;

    let summary = IndexSummary {
        root: root.to_path_buf(),
        db: db_path.to_path_buf(),
        revision,
        mode: "full",
        files: files.len(),
        parsed_files: counts.parsed_files,
        changed_files: files.len(),
        units_rewritten: published.len(),
        symbols: snap.symbols as usize,
        edges: snap.edges as usize,
        unresolved: snap.unresolved as usize,
        lines: counts.lines,
        bytes,
        skipped,
        lossy_files,
        files_with_syntax_errors,
        head_commit: info.head_commit,
        dirty_files: git.as_ref().map_or(0, |g| g.dirty.len()),
        scan_ms,
        restore_ms: 0,
        parse_ms,
        resolve_ms,
        publish_ms,
        total_ms: start.elapsed().as_millis(),
        peak_rss_bytes: peak_rss_bytes(),
        seeded_from: None,
        vouched_files: 0,
        notes: Vec::new(),
    };
    let files = paths.into_iter().zip(files).zip(mtimes).map(|((p, f), m)| (p, f, m)).collect();
    let links = walked.links;
    Ok(FullBuild { db, store, files, workspace, skips, published, git, revision, summary, links })
}

/// Files per batch sent to the writer thread.
const WRITER_BATCH: usize = 256;

/// A file's content as the cold build gives it to salsa, and its encoded facts.
struct Prepared {
    content: Content,
    /// Encoded facts for the `source` table (`None` without a provider).
    facts_blob: Option<Vec<u8>>,
    /// The decoded facts, held until this file's rows are derived (the input keeps them
    /// encoded, see [`codegraph_db::LazyFacts`]).
    facts: Option<Arc<codegraph_parse::FileFacts>>,
}

/// A file read, parsed and extracted by a worker: the file (its text already dropped unless
/// its input keeps it), what its input holds, and when the read ended (for
/// [`crate::scan::recorded_mtime`]); or why it was not read.
type Read = Result<(ScannedFile, Prepared, i64), Diagnostic>;

/// Reads, parses and extracts `candidates` on all cores (each worker drops its syntax tree
/// as soon as the facts are out) and hands each result to `on_file` on this thread in
/// candidate order. Files without a provider, and files resolution reads as text, keep
/// their text instead.
fn prepare_in_parallel(candidates: &[Candidate], mut on_file: impl FnMut(Read)) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let (to_main, results) = std::sync::mpsc::sync_channel::<(usize, Read)>(256);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let to_main = to_main.clone();
            let next = &next;
            scope.spawn(move || {
                let empty: Arc<str> = Arc::from("");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(c) = candidates.get(i) else { break };
                    let read = read_file(c).map(|mut f| {
                        let read_ns = now_ns();
                        let prepared = prepare(&f);
                        // The input holds what it needs of the text (`content_for`).
                        f.text = empty.clone();
                        (f, prepared, read_ns)
                    });
                    if to_main.send((i, read)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(to_main);
        // Results arrive out of order; hand them on in order.
        let mut waiting: HashMap<usize, Read> = HashMap::new();
        let mut expected = 0;
        for (i, read) in results {
            waiting.insert(i, read);
            while let Some(r) = waiting.remove(&expected) {
                on_file(r);
                expected += 1;
            }
        }
    });
}

/// What the input holds ([`crate::engine::content_for`], the same for a cold build and an
/// edit) and, for a provider file, its encoded facts for the `source` table (a file resolution
/// reads as text is read again by a restore, so no facts are stored for it).
fn prepare(f: &ScannedFile) -> Prepared {
    let content = crate::engine::content_for(f);
    match (content, f.language) {
        (Content::Stored(facts), Some(language)) => {
            let blob = codegraph_parse::encode_facts(&facts);
            let lazy = codegraph_db::LazyFacts::new(
                f.meta.hash.clone(),
                Some(language),
                Arc::from(blob.as_slice()),
                Some(&facts),
                crate::shared::decode,
            );
            Prepared {
                content: Content::Lazy(Arc::new(lazy)),
                facts_blob: Some(blob),
                facts: Some(facts),
            }
        }
        (content, _) => Prepared { content, facts_blob: None, facts: None },
    }
}

/// What the main thread sends the writer thread: a closed set of events.
enum WriterEvent {
    Batch(Batch),
    /// Every file's own rows have been sent: the writer builds the node indexes while
    /// resolution runs (only a few endpoint nodes come later).
    FileRowsSent,
    Commit(SnapshotInfo),
}

#[derive(Default)]
struct Batch {
    /// Runs of nodes, shared with the salsa memos that produced them (no copies).
    nodes: Vec<Arc<[Node]>>,
    /// (owner unit ID, its edges).
    edges: Vec<(codegraph_resolve::ids::Id, Arc<[Edge]>)>,
    diagnostics: Vec<Diagnostic>,
    /// (file path, its unresolved call sites).
    unresolved: Vec<(String, Vec<UnresolvedSite>)>,
    /// (unit ID, digest).
    units: Vec<(codegraph_resolve::ids::Id, u64)>,
    sources: Vec<SourceRow>,
}

/// Writes batches into one publication and commits it when told to; returns the revision.
/// If the channel closes without a `Commit`, the publication is dropped and the previous
/// revision stays.
fn write_revision(
    store: &mut Store,
    events: std::sync::mpsc::Receiver<WriterEvent>,
) -> Result<i64> {
    let mut publication = store.begin_publish()?;
    for event in events {
        match event {
            WriterEvent::Batch(b) => {
                publication.insert_nodes(b.nodes.iter().flat_map(|run| run.iter()))?;
                for (owner, edges) in &b.edges {
                    publication.insert_edges(edges.iter(), owner)?;
                }
                publication.insert_diagnostics(&b.diagnostics)?;
                for (file, sites) in &b.unresolved {
                    publication.insert_unresolved(file, sites)?;
                }
                publication.insert_units(b.units.iter().map(|(id, d)| (&**id, *d)))?;
                publication.insert_sources(&b.sources)?;
            }
            WriterEvent::FileRowsSent => publication.index_nodes()?,
            WriterEvent::Commit(info) => {
                pause_point("full-commit");
                return Ok(publication.commit(&info)?);
            }
        }
    }
    anyhow::bail!(
        "indexing stopped before the revision was complete; the previous revision is intact"
    )
}

/// Totals for the summary, gathered while batches stream to the writer.
#[derive(Default)]
struct Counts {
    parsed_files: usize,
    lines: u64,
}

impl Counts {
    fn add(&mut self, file: &Node) {
        self.parsed_files += usize::from(file.language.is_some());
        self.lines += file.lines.map_or(0, u64::from);
    }
}

/// Turns the parse bar into a spinner that names the phase running now.
fn phase(bar: &indicatif::ProgressBar, what: &str) {
    if bar.is_hidden() {
        return;
    }
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
        bar.set_style(style);
    }
    bar.set_message(what.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
}

fn progress_bar(enabled: bool, len: usize) -> indicatif::ProgressBar {
    if !enabled {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} parsing {pos}/{len} files [{elapsed}]")
    {
        bar.set_style(style);
    }
    bar
}

/// Crash-test hook: when `CODEGRAPH_PAUSE_AT` names this point, create the file named by
/// `CODEGRAPH_PAUSE_FILE` and sleep, so a test can kill the process at exactly this moment
/// (every row written, the transaction not committed). Inert otherwise.
pub fn pause_point(name: &str) {
    if std::env::var("CODEGRAPH_PAUSE_AT").is_ok_and(|p| p == name) {
        if let Ok(marker) = std::env::var("CODEGRAPH_PAUSE_FILE") {
            let _ = std::fs::write(marker, name);
        }
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

/// One language the indexer reads: its name, the file extensions it takes and what its
/// provider extracts (`codegraph languages`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanguageInfo {
    pub name: &'static str,
    pub extensions: &'static [&'static str],
    pub capabilities: Vec<&'static str>,
    /// The files it claims by their text, described (`None`: by extension only).
    pub by_content: Option<&'static str>,
}

/// Every language with a provider, in the registry's order.
pub fn languages() -> Vec<LanguageInfo> {
    codegraph_parse::Language::ALL
        .iter()
        .map(|&l| LanguageInfo {
            name: l.as_str(),
            extensions: l.extensions(),
            by_content: l.spec().detect.as_ref().map(|d| d.describe),
            capabilities: codegraph_parse::provider(l)
                .capabilities()
                .iter()
                .map(|c| c.as_str())
                .collect(),
        })
        .collect()
}

/// The (GOOS, GOARCH) Go build constraints are evaluated for: `$GOOS` / `$GOARCH`, else the
/// host's.
pub fn go_platform() -> (String, String) {
    let p = codegraph_resolve::GoPlatform::current();
    (p.goos.clone(), p.goarch.clone())
}
