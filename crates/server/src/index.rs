//! `codegraph index`: scan -> salsa inputs -> facts (all cores) -> graph -> one published
//! revision.

use crate::git::{GitState, git_state};
use crate::scan::{ScanOptions, scan};
use anyhow::{Context, Result};
use codegraph_db::{Content, Database, PREFETCH_CHUNK, SourceFile, Workspace};
use codegraph_query::{Diagnostic, SnapshotInfo, Store};
use codegraph_resolve::{
    Edge, Node, UnresolvedSite, file_graph, file_node, package_graph, resolve_file,
};
use codegraph_schema::{DiagnosticCode, NodeCategory};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub const INDEXER_VERSION: &str = env!("CARGO_PKG_VERSION");

pub struct IndexOptions {
    pub max_file_size: u64,
    pub progress: bool,
}

/// What an index run did.
#[derive(Debug)]
pub struct IndexSummary {
    pub root: PathBuf,
    pub db: PathBuf,
    pub revision: i64,
    pub files: usize,
    pub parsed_files: usize,
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
    pub parse_ms: u128,
    pub resolve_ms: u128,
    pub publish_ms: u128,
    pub total_ms: u128,
    /// Peak resident set size of this process, when the OS reports it.
    pub peak_rss_bytes: Option<u64>,
}

/// Peak RSS (`VmHWM`) of this process from `/proc/self/status`; `None` off Linux.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

pub fn run_index(root: &Path, db_path: &Path, opts: &IndexOptions) -> Result<IndexSummary> {
    let start = Instant::now();
    let git_root = root.to_path_buf();
    let git = std::thread::spawn(move || git_state(&git_root));

    let exclude = ["", "-wal", "-shm", "-journal"]
        .iter()
        .map(|suffix| {
            let mut p = db_path.as_os_str().to_os_string();
            p.push(suffix);
            PathBuf::from(p)
        })
        .collect();
    let scanned = scan(root, &ScanOptions { max_file_size: opts.max_file_size, exclude });
    let scan_ms = start.elapsed().as_millis();

    // The writer thread fills one publication while the workers parse the next chunk.
    if let Some(dir) = db_path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the index directory {}", dir.display()))?;
    }
    let store = Store::open(db_path)?;
    let (to_writer, from_main) = std::sync::mpsc::sync_channel::<WriterEvent>(4);
    let writer = std::thread::spawn(move || write_revision(store, from_main));

    let parse_start = Instant::now();
    let mut db = Database::default();
    let files: Vec<SourceFile> = scanned
        .files
        .iter()
        .map(|f| {
            SourceFile::new(
                &db,
                f.path.clone(),
                f.language,
                Content::Text(f.text.clone()),
                f.meta.clone(),
            )
        })
        .collect();
    let workspace = Workspace::new(&db, files.clone());
    let bar = progress_bar(opts.progress, files.len());
    let mut diagnostics = scanned.diagnostics;
    let mut counts = Counts::default();
    let mut writer_gone = false;
    db.prefetch(
        &files,
        |db, file| {
            file_node(db, file);
            file_graph(db, file);
        },
        |db, chunk| {
            let mut batch = Batch::default();
            for &file in chunk {
                let node = file_node(db, file);
                let g = file_graph(db, file);
                counts.add(node, g);
                batch.nodes.push(node.clone());
                batch.nodes.extend(g.nodes.iter().cloned());
                batch.edges.extend(g.edges.iter().cloned());
                for (code, detail) in &g.diagnostics {
                    diagnostics.push(Diagnostic {
                        path: file.path(db).clone(),
                        code: *code,
                        detail: detail.clone(),
                    });
                }
            }
            bar.inc(chunk.len() as u64);
            writer_gone = writer_gone || to_writer.send(WriterEvent::Batch(batch)).is_err();
        },
    );
    bar.finish_and_clear();
    let parse_ms = parse_start.elapsed().as_millis();

    // Cross-file resolution needs every file's facts, so it runs after the parse pass.
    let resolve_start = Instant::now();
    let parsed: Vec<SourceFile> =
        files.iter().copied().filter(|f| f.language(&db).is_some()).collect();
    db.par_each(&parsed, |db, file| {
        resolve_file(db, workspace, file);
    });
    for chunk in parsed.chunks(PREFETCH_CHUNK) {
        let mut batch = Batch::default();
        for &file in chunk {
            let r = resolve_file(&db, workspace, file);
            counts.edges += r.edges.len();
            counts.unresolved += r.unresolved.len();
            batch.edges.extend(r.edges.iter().cloned());
            if !r.unresolved.is_empty() {
                batch.unresolved.push((file.path(&db).clone(), r.unresolved.clone()));
            }
        }
        writer_gone = writer_gone || to_writer.send(WriterEvent::Batch(batch)).is_err();
    }
    let resolve_ms = resolve_start.elapsed().as_millis();
    let packages = package_graph(&db, workspace);
    counts.add_nodes(&packages.nodes, packages.edges.len());
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut lossy_files = 0;
    let mut files_with_syntax_errors = 0;
    for d in &diagnostics {
        match d.code {
            DiagnosticCode::LossyUtf8 => lossy_files += 1,
            DiagnosticCode::SyntaxErrors => files_with_syntax_errors += 1,
            code => *skipped.entry(code.as_str()).or_default() += 1,
        }
    }
    let batch = Batch {
        nodes: packages.nodes.clone(),
        edges: packages.edges.clone(),
        diagnostics,
        unresolved: Vec::new(),
    };
    let publish_start = Instant::now();
    let git: Option<GitState> = git.join().ok().flatten();
    let info = SnapshotInfo {
        root: root.to_string_lossy().into_owned(),
        head_commit: git.as_ref().and_then(|g| g.head_commit.clone()),
        dirty_fingerprint: git.as_ref().and_then(|g| g.dirty_fingerprint.clone()),
        dirty_files: git.as_ref().map_or(0, |g| g.dirty.len() as u64),
        indexer_version: INDEXER_VERSION.to_string(),
        created_at_ms: now_ms(),
        duration_ms: i64::try_from(start.elapsed().as_millis()).unwrap_or(i64::MAX),
    };
    if !writer_gone {
        let _ = to_writer.send(WriterEvent::Batch(batch));
        let _ = to_writer.send(WriterEvent::Commit(info.clone()));
    }
    drop(to_writer);
    let revision = match writer.join() {
        Ok(result) => result?,
        Err(_) => {
            anyhow::bail!("the index writer thread panicked; the previous revision is intact")
        }
    };
    let publish_ms = publish_start.elapsed().as_millis();

    Ok(IndexSummary {
        root: root.to_path_buf(),
        db: db_path.to_path_buf(),
        revision,
        files: files.len(),
        parsed_files: counts.parsed_files,
        symbols: counts.symbols,
        edges: counts.edges,
        unresolved: counts.unresolved,
        lines: counts.lines,
        bytes: scanned.files.iter().map(|f| f.meta.size).sum(),
        skipped,
        lossy_files,
        files_with_syntax_errors,
        head_commit: info.head_commit,
        dirty_files: git.map_or(0, |g| g.dirty.len()),
        scan_ms,
        parse_ms,
        resolve_ms,
        publish_ms,
        total_ms: start.elapsed().as_millis(),
        peak_rss_bytes: peak_rss_bytes(),
    })
}

/// What the main thread sends the writer thread: a closed set of events.
enum WriterEvent {
    Batch(Batch),
    Commit(SnapshotInfo),
}

#[derive(Default)]
struct Batch {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    diagnostics: Vec<Diagnostic>,
    /// (file path, its unresolved call sites).
    unresolved: Vec<(String, Vec<UnresolvedSite>)>,
}

/// Writes batches into one publication and commits it when told to. If the channel closes
/// without a `Commit`, the publication is dropped and the previous revision stays.
fn write_revision(mut store: Store, events: std::sync::mpsc::Receiver<WriterEvent>) -> Result<i64> {
    let mut publication = store.begin_publish()?;
    for event in events {
        match event {
            WriterEvent::Batch(b) => {
                publication.insert_nodes(&b.nodes)?;
                publication.insert_edges(&b.edges)?;
                publication.insert_diagnostics(&b.diagnostics)?;
                for (file, sites) in &b.unresolved {
                    publication.insert_unresolved(file, sites)?;
                }
            }
            WriterEvent::Commit(info) => return Ok(publication.commit(&info)?),
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
    symbols: usize,
    edges: usize,
    unresolved: usize,
    lines: u64,
}

impl Counts {
    fn add(&mut self, file: &Node, g: &codegraph_resolve::FileGraph) {
        self.parsed_files += usize::from(file.language.is_some());
        self.lines += file.lines.map_or(0, u64::from);
        self.add_nodes(&g.nodes, g.edges.len());
    }

    fn add_nodes(&mut self, nodes: &[Node], edges: usize) {
        self.symbols += nodes.iter().filter(|n| n.kind.category() == NodeCategory::Symbol).count();
        self.edges += edges;
    }
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
