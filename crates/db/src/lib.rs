//! The salsa database: source files are inputs, their parses and facts are memoized queries.
//!
//! The tree-sitter parse is `no_eq` and LRU-bounded (syntax trees are large and are never
//! compared); right behind it sits [`facts_of`], whose result is `Eq`, so an edit that leaves
//! a file's facts unchanged stops propagating there. Everything downstream (resolution, graph
//! assembly) depends on facts, never on trees.
//!
//! Architecture invariant: this crate knows nothing of SQLite, rmcp, serde or the file system.
//! Text arrives through [`SourceFile`] inputs set by the caller; no query does IO.

use codegraph_parse::{FileFacts, Language};
use std::sync::Arc;

/// Facts about a file that the scanner computed from its bytes (not derivable from the text
/// alone once it has been decoded lossily, and known even when the text is not loaded).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileMeta {
    /// Size in bytes on disk.
    pub size: u64,
    /// Content hash of the raw bytes (hex).
    pub hash: String,
    /// Whether the bytes were not valid UTF-8 and were decoded lossily.
    pub lossy_utf8: bool,
    /// Number of lines (a final line without a newline counts).
    pub lines: u32,
}

impl FileMeta {
    /// The metadata of a valid UTF-8 text held in memory (tests, tools): no hash.
    pub fn for_text(text: &str) -> FileMeta {
        FileMeta {
            size: text.len() as u64,
            hash: String::new(),
            lossy_utf8: false,
            lines: line_count(text),
        }
    }
}

/// The number of lines of a text (a final line without a newline counts).
pub fn line_count(text: &str) -> u32 {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    let n = newlines + usize::from(!text.is_empty() && !text.ends_with('\n'));
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Facts an index stored for a file, kept encoded and decoded when read: a restored engine
/// sets every file's content at once and most are never read before the process ends (a
/// seeded worktree at its sibling's commit derives nothing), and the decoded facts of a big
/// root are several times their encoding (the Go standard library: 212 MB against 26.5 MB),
/// so none is held for longer than someone uses it. [`LazyFacts::get`] hands out the decoded
/// facts while any holder keeps them (the cold build's worker, a query, the caller's cache of
/// recent ones, another root sharing the blob) and decodes again after that.
/// Compared by the content hash of the bytes they were extracted from.
pub struct LazyFacts {
    hash: String,
    language: Option<Language>,
    bytes: Arc<[u8]>,
    /// The last decoded facts, while someone holds them.
    decoded: std::sync::Mutex<std::sync::Weak<FileFacts>>,
    decode: fn(&LazyFacts) -> Arc<FileFacts>,
}

impl LazyFacts {
    /// The facts encoded in `bytes` (from a file with content hash `hash`, read as
    /// `language`; roots holding the same file may share them), made by `decode` whenever
    /// they are asked for and nobody holds them.
    /// `decoded`: facts already at hand for the same bytes (the cold build extracted them).
    pub fn new(
        hash: String,
        language: Option<Language>,
        bytes: Arc<[u8]>,
        decoded: Option<&Arc<FileFacts>>,
        decode: fn(&LazyFacts) -> Arc<FileFacts>,
    ) -> Self {
        LazyFacts {
            hash,
            language,
            bytes,
            decoded: std::sync::Mutex::new(decoded.map(Arc::downgrade).unwrap_or_default()),
            decode,
        }
    }

    /// The facts: the copy someone holds, else decoded now.
    pub fn get(&self) -> Arc<FileFacts> {
        let mut held = self.decoded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(facts) = held.upgrade() {
            return facts;
        }
        let facts = (self.decode)(self);
        *held = Arc::downgrade(&facts);
        facts
    }

    /// Content hash of the bytes the facts were extracted from.
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// The language the file was read as.
    pub fn language(&self) -> Option<Language> {
        self.language
    }

    /// The encoded facts (`codegraph_parse::encode_facts`).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl PartialEq for LazyFacts {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
    }
}

impl Eq for LazyFacts {}

impl std::fmt::Debug for LazyFacts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LazyFacts({})", self.hash)
    }
}

/// What the database knows of a file's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// The decoded text: parsed on demand.
    Text(Arc<str>),
    /// The facts a previous index extracted from the same bytes (same content hash), restored
    /// without reading or parsing the file. Files that resolution reads as text (`go.mod`,
    /// `tsconfig.json`, `package.json`) are always loaded as [`Content::Text`].
    Stored(Arc<FileFacts>),
    /// Stored facts, kept encoded ([`LazyFacts`]).
    Lazy(Arc<LazyFacts>),
}

/// One file of the code root. Create with [`SourceFile::new`]; change with the setters only
/// when a value really changed, so no-op events do not start a new revision.
#[salsa::input(debug)]
pub struct SourceFile {
    /// Root-relative path with `/` separators.
    #[returns(ref)]
    pub path: String,
    /// The provider language, `None` for text files no provider understands.
    #[returns(copy)]
    pub language: Option<Language>,
    #[returns(ref)]
    pub content: Content,
    #[returns(ref)]
    pub meta: FileMeta,
}

/// The text of a file; empty when only its stored facts are loaded.
pub fn text(db: &dyn salsa::Database, file: SourceFile) -> &str {
    match file.content(db) {
        Content::Text(t) => t,
        Content::Stored(_) | Content::Lazy(_) => "",
    }
}

/// The set of files of the code root, sorted by path.
#[salsa::input(debug)]
pub struct Workspace {
    #[returns(ref)]
    pub files: Vec<SourceFile>,
}

/// A syntax tree that is never compared: every new text gives a "changed" parse.
#[derive(Clone)]
pub struct Parsed(pub Option<tree_sitter::Tree>);

impl std::fmt::Debug for Parsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Parsed(tree)" } else { "Parsed(none)" })
    }
}

/// The syntax tree of a file (`None` for languages without a grammar or without a provider).
/// At most 256 trees stay cached across revisions (`lru`).
#[salsa::tracked(returns(ref), no_eq, lru = 256)]
pub fn parse(db: &dyn salsa::Database, file: SourceFile) -> Parsed {
    match (file.language(db), file.content(db)) {
        (Some(language), Content::Text(text)) => {
            Parsed(codegraph_parse::parse_tree(language, text, None))
        }
        _ => Parsed(None),
    }
}

/// A file's facts as [`facts_of`] memoizes them: held (parsed from the text, or set by an
/// edit), or encoded ([`LazyFacts`], decoded when read). Equal when the facts are: an edit
/// that leaves a file's facts unchanged stops propagating here.
#[derive(Clone, Debug)]
pub enum FactsRef {
    Held(Arc<FileFacts>),
    Lazy(Arc<LazyFacts>),
}

impl FactsRef {
    /// The facts (decoded now when encoded and nobody holds them).
    pub fn get(&self) -> Arc<FileFacts> {
        match self {
            FactsRef::Held(f) => Arc::clone(f),
            FactsRef::Lazy(l) => l.get(),
        }
    }
}

impl PartialEq for FactsRef {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (FactsRef::Held(a), FactsRef::Held(b)) => Arc::ptr_eq(a, b) || a == b,
            (FactsRef::Lazy(a), FactsRef::Lazy(b)) if a == b => true,
            // Other bytes (or one side held) may still give the same facts.
            _ => self.get() == other.get(),
        }
    }
}

impl Eq for FactsRef {}

/// The facts of a file without a provider, or with none stored.
fn no_facts() -> Arc<FileFacts> {
    static EMPTY: std::sync::OnceLock<Arc<FileFacts>> = std::sync::OnceLock::new();
    Arc::clone(EMPTY.get_or_init(Arc::default))
}

/// The per-file facts: the firewall between syntax and everything else. The memo holds the
/// input's facts (shared, not copied) or their encoding, never a decoded copy of its own.
#[salsa::tracked(returns(ref))]
pub fn facts_of(db: &dyn salsa::Database, file: SourceFile) -> FactsRef {
    let Some(language) = file.language(db) else {
        return FactsRef::Held(no_facts());
    };
    match file.content(db) {
        Content::Stored(facts) => FactsRef::Held(Arc::clone(facts)),
        Content::Lazy(lazy) => FactsRef::Lazy(Arc::clone(lazy)),
        Content::Text(text) => {
            let tree = parse(db, file);
            FactsRef::Held(Arc::new(codegraph_parse::extract(language, text, tree.0.as_ref())))
        }
    }
}

/// A file's facts ([`facts_of`]), decoded when they are stored encoded and nobody holds them.
pub fn file_facts(db: &dyn salsa::Database, file: SourceFile) -> Arc<FileFacts> {
    facts_of(db, file).get()
}

/// The concrete database. Cloning gives a handle for another thread (see [`Self::prefetch`]).
#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for Database {}

impl Database {
    /// A database that reports every salsa event to `callback` (tests assert what re-ran).
    pub fn with_event_callback(
        callback: Box<dyn Fn(salsa::Event) + Send + Sync + 'static>,
    ) -> Self {
        Database { storage: salsa::Storage::new(Some(callback)) }
    }

    /// Runs `compute` (typically a query that depends on [`file_facts`]) for every file on all
    /// cores, in chunks of [`PREFETCH_CHUNK`] files. After each chunk, `on_chunk` gets the
    /// database and the chunk (to read the now-memoized results on this thread), then a no-op
    /// revision lets the parse LRU drop that chunk's syntax trees, so memory stays bounded on
    /// large roots.
    pub fn prefetch(
        &mut self,
        files: &[SourceFile],
        compute: impl Fn(&Database, SourceFile) + Sync,
        mut on_chunk: impl FnMut(&Database, &[SourceFile]),
    ) {
        for (i, chunk) in files.chunks(PREFETCH_CHUNK).enumerate() {
            self.par_each(chunk, &compute);
            on_chunk(self, chunk);
            if (i + 1) * PREFETCH_CHUNK < files.len() {
                // A new (no-op) revision lets the LRU drop the trees of this chunk.
                salsa::Database::synthetic_write(self, salsa::Durability::LOW);
            }
        }
    }
}

impl Database {
    /// How many syntax trees [`parse`] keeps across revisions (256 unless changed); a
    /// long-lived database that edits a few files at a time needs far fewer.
    pub fn set_parse_lru(&mut self, capacity: usize) {
        parse::set_lru_capacity(self, capacity);
    }

    /// [`Database::par_each`] that keeps each file's result, in `files` order; `None` when a
    /// worker panicked (the caller publishes nothing).
    pub fn par_map<T: Send>(
        &self,
        files: &[SourceFile],
        compute: impl Fn(&Database, SourceFile) -> T + Sync,
    ) -> Option<Vec<T>> {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let threads = rayon::current_num_threads().max(1);
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let parts: std::sync::Mutex<Vec<Vec<(usize, T)>>> = std::sync::Mutex::new(Vec::new());
        let compute = &compute;
        // On the process's long-lived worker threads (rayon's pool), not threads of their own:
        // an exited thread leaves its allocator pages behind, partly filled by the memos it
        // made, and a daemon warming one root after another would leave them for each.
        rayon::in_place_scope(|scope| {
            for _ in 0..threads {
                let db = self.clone();
                let (next, failed, parts) = (&next, &failed, &parts);
                scope.spawn(move |_| {
                    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let mut out: Vec<(usize, T)> = Vec::new();
                        // Runs of neighbouring files (a package's files need the same
                        // tables): fewer waits on another worker's query.
                        loop {
                            let from = next.fetch_add(PAR_RUN, Ordering::Relaxed);
                            let Some(run) = files.get(from..(from + PAR_RUN).min(files.len()))
                            else {
                                break;
                            };
                            for (k, &file) in run.iter().enumerate() {
                                out.push((from + k, compute(&db, file)));
                            }
                        }
                        out
                    }));
                    drop(db);
                    match run {
                        Ok(out) => parts.lock().unwrap_or_else(|p| p.into_inner()).push(out),
                        Err(_) => failed.store(true, Ordering::Relaxed),
                    }
                });
            }
        });
        if failed.load(Ordering::Relaxed) {
            return None;
        }
        let mut slots: Vec<Option<T>> = std::iter::repeat_with(|| None).take(files.len()).collect();
        for part in parts.into_inner().unwrap_or_else(|p| p.into_inner()) {
            for (i, v) in part {
                slots[i] = Some(v);
            }
        }
        slots.into_iter().collect()
    }

    /// Runs `compute` for every file on all cores without starting new revisions (for queries
    /// that do not hold syntax trees, such as cross-file resolution): [`Database::par_each_in_order`]
    /// with nothing to do per file on this thread.
    pub fn par_each(&self, files: &[SourceFile], compute: impl Fn(&Database, SourceFile) + Sync) {
        self.par_each_in_order(files, compute, |_| {});
    }

    /// Runs `compute` for every file on all cores (each worker takes the next file), and
    /// `on_file` on this thread for each file in `files` order as soon as it and every file
    /// before it are computed (it reads their memos while the workers go on). The workers
    /// never wait for `on_file`.
    pub fn par_each_in_order(
        &self,
        files: &[SourceFile],
        compute: impl Fn(&Database, SourceFile) + Sync,
        mut on_file: impl FnMut(SourceFile),
    ) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let threads = rayon::current_num_threads().max(1);
        let next = AtomicUsize::new(0);
        let compute = &compute;
        // Unbounded: a worker never waits for this thread (which may be waiting elsewhere).
        let (to_main, done) = std::sync::mpsc::channel::<usize>();
        // On rayon's long-lived threads, as in `par_map`; a worker's panic reaches the caller
        // when the scope ends.
        rayon::in_place_scope(|scope| {
            for _ in 0..threads {
                let db = self.clone();
                let to_main = to_main.clone();
                let next = &next;
                scope.spawn(move |_| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&file) = files.get(i) else { break };
                        compute(&db, file);
                        if to_main.send(i).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(to_main);
            let mut finished = vec![false; files.len()];
            let mut expected = 0;
            for i in done {
                finished[i] = true;
                while let Some(&file) = files.get(expected).filter(|_| finished[expected]) {
                    on_file(file);
                    expected += 1;
                }
            }
        });
    }
}

/// Files a worker of [`Database::par_map`] takes at a time.
const PAR_RUN: usize = 64;

/// Files per parallel batch in [`Database::prefetch`].
pub const PREFETCH_CHUNK: usize = 512;

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// `n` Markdown files `d/{i}.md`, each one heading `T{i}`.
    fn headings(db: &Database, n: usize) -> Vec<SourceFile> {
        (0..n)
            .map(|i| {
                SourceFile::new(
                    db,
                    format!("d/{i}.md"),
                    Some(Language::Markdown),
                    Content::Text(Arc::from(format!("# T{i}\n"))),
                    FileMeta::for_text(""),
                )
            })
            .collect()
    }

    #[test]
    fn facts_are_memoized_and_firewall_whitespace_edits() {
        let log = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = log.clone();
        let mut db = Database::with_event_callback(Box::new(move |e| {
            if let salsa::EventKind::WillExecute { database_key } = e.kind {
                sink.lock().unwrap().push(format!("{database_key:?}"));
            }
        }));
        let file = SourceFile::new(
            &db,
            "docs/a.md".to_string(),
            Some(Language::Markdown),
            Content::Text(Arc::from("# A\n## B\n")),
            FileMeta::for_text("# A\n## B\n"),
        );
        assert_eq!(file_facts(&db, file).symbols.len(), 2);
        let first: Vec<String> = std::mem::take(&mut *log.lock().unwrap());
        assert!(first.iter().any(|k| k.starts_with("facts_of")), "{first:?}");
        assert!(first.iter().any(|k| k.starts_with("parse")), "{first:?}");

        // Same text again: nothing re-runs.
        let _ = file_facts(&db, file);
        assert!(log.lock().unwrap().is_empty());

        // A new text re-runs both; identical facts would stop propagation further down.
        use salsa::Setter;
        file.set_content(&mut db).to(Content::Text(Arc::from("# A\n## C\n")));
        let facts = &file_facts(&db, file);
        assert_eq!(facts.symbols[1].name, "C");
        let second = std::mem::take(&mut *log.lock().unwrap());
        assert!(second.iter().any(|k| k.starts_with("facts_of")), "{second:?}");
    }

    /// Facts restored from a previous index stand in for the text: no parse runs, and
    /// switching to the same text later keeps them equal (nothing downstream re-runs).
    #[test]
    fn stored_facts_replace_the_parse() {
        let log = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = log.clone();
        let mut db = Database::with_event_callback(Box::new(move |e| {
            if let salsa::EventKind::WillExecute { database_key } = e.kind {
                sink.lock().unwrap().push(format!("{database_key:?}"));
            }
        }));
        let text = "# A\n## B\n";
        let facts = codegraph_parse::analyze(Language::Markdown, text);
        let file = SourceFile::new(
            &db,
            "a.md".to_string(),
            Some(Language::Markdown),
            Content::Stored(Arc::new(facts.clone())),
            FileMeta::for_text(text),
        );
        assert_eq!(*file_facts(&db, file), facts);
        assert_eq!(super::text(&db, file), "");
        let ran = std::mem::take(&mut *log.lock().unwrap());
        assert!(!ran.iter().any(|k| k.starts_with("parse")), "{ran:?}");

        use salsa::Setter;
        file.set_content(&mut db).to(Content::Text(Arc::from(text)));
        assert_eq!(*file_facts(&db, file), facts);
    }

    #[test]
    fn prefetch_computes_every_file() {
        let mut db = Database::default();
        let files = headings(&db, 50);
        let mut chunks = Vec::new();
        db.prefetch(
            &files,
            |db, f| {
                file_facts(db, f);
            },
            |_, chunk| chunks.push(chunk.len()),
        );
        assert_eq!(chunks, vec![50]);
        for (i, f) in files.iter().enumerate() {
            assert_eq!(file_facts(&db, *f).symbols[0].name, format!("T{i}"));
        }
    }

    #[test]
    fn par_each_in_order_hands_on_every_file_in_order_once_computed() {
        let db = Database::default();
        let files = headings(&db, 300);
        let computed = Mutex::new(std::collections::HashSet::new());
        let mut seen = Vec::new();
        db.par_each_in_order(
            &files,
            |db, f| {
                file_facts(db, f);
                computed.lock().expect("lock").insert(f);
            },
            |f| {
                assert!(computed.lock().expect("lock").contains(&f), "handed on before computed");
                seen.push(f);
            },
        );
        assert_eq!(seen, files);
    }
}
