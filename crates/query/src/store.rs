//! Opening the index database and publishing a revision in one transaction.
//!
//! The database is derived data: when its schema version differs from this build's, it is
//! dropped and recreated rather than migrated.

use crate::error::QueryError;
use crate::terms::split_identifiers;
use codegraph_schema::ddl::{self, SCHEMA_VERSION};
use codegraph_schema::{DiagnosticCode, NodeCategory};
use codegraph_schema::{Edge, Node, UnresolvedSite};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A handle on one index database.
pub struct Store {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
    /// Opened by [`Store::open_bulk`]: a file beside the index that nobody reads yet.
    bulk: bool,
    /// The file this connection opened (device, inode): a path that later names another file
    /// or none means the index was deleted or replaced under us ([`Store::is_detached`]).
    identity: Option<(u64, u64)>,
    /// Read-only stores: the dormant guard a graph query arms ([`crate::graph_query`]).
    pub(crate) guard: Option<std::sync::Arc<crate::graph_query::QueryGuard>>,
}

/// Stops the statement a [`Store`]'s connection runs ([`Store::interrupt_handle`]); a no-op
/// when none runs.
pub struct Interrupt(rusqlite::InterruptHandle);

impl Interrupt {
    pub fn interrupt(&self) {
        self.0.interrupt();
    }
}

/// The (device, inode) of the file at `path`, where the platform has them.
fn file_identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// How long a connection waits for another's lock before failing with "database is locked":
/// 10 s, or `CODEGRAPH_BUSY_TIMEOUT_MS` (tests shorten it to exercise the retry path).
fn busy_timeout() -> Duration {
    std::env::var("CODEGRAPH_BUSY_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(Duration::from_secs(10), Duration::from_millis)
}

/// How a writer connection journals its transactions.
#[derive(Clone, Copy)]
enum Journal {
    /// Readers keep the previous revision while a writer works (every published database).
    Wal,
    /// No journal, no syncs: only for a database nobody can see yet ([`Store::open_bulk`]).
    Off,
}

/// Page cache (KiB) of a bulk build's connection. Its file has no journal and is nobody's
/// yet, so a page that leaves the cache is written to the file (the OS keeps it) and read
/// back cheaply; the inserts are mostly appends, whose working set is a few pages per
/// B-tree. The 64 MiB of a live index's writer filled up during a cold build and stayed at
/// the peak: 8 MiB took the Go standard library's cold index from 723-726 to 667-668 MiB
/// peak RSS at the same speed (2 MiB: 660-662 MiB; docs/BENCHMARKS.md).
const BULK_CACHE_KIB: i64 = 8192;

/// The page size of a database built by [`Store::open_bulk`].
const BULK_PAGE_SIZE: i64 = 16384;

/// `path` with `suffix` appended to its file name (`index.db` + `-wal`).
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_os_string();
    p.push(suffix);
    PathBuf::from(p)
}

/// Every file SQLite may keep for the database at `path`: the database, its rollback journal,
/// its write-ahead log and its shared-memory index.
pub fn database_files(path: &Path) -> [PathBuf; 4] {
    ["", "-journal", "-wal", "-shm"].map(|suffix| sibling(path, suffix))
}

/// Removes `TARGET.building-PID` files whose process no longer runs (a killed first build).
/// Where processes cannot be checked (no `/proc`), nothing is removed.
fn remove_stale_builds(target: &Path) {
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return;
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!("{}.building-", name.to_string_lossy());
    let Ok(entries) =
        std::fs::read_dir(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
    else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else {
            continue;
        };
        let pid: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if !pid.is_empty() && !Path::new("/proc").join(&pid).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// What the snapshot row records besides the counts (which [`Store::publish`] computes).
#[derive(Clone, Debug, Default)]
pub struct SnapshotInfo {
    pub root: String,
    pub head_commit: Option<String>,
    pub dirty_fingerprint: Option<String>,
    pub dirty_files: u64,
    pub indexer_version: String,
    pub created_at_ms: i64,
    pub duration_ms: i64,
    /// The scanner's size limit for this revision (a freshness check must walk the same way).
    pub max_file_size: u64,
    /// How Go import paths map to the root when no `go.mod` covers it (`status` shows it):
    /// the inferred prefix, or `None`.
    pub go_import_prefix: Option<String>,
}

/// A scanner skip or a note on an indexed file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub path: String,
    pub code: DiagnosticCode,
    pub detail: String,
}

impl Store {
    /// Opens (creating if needed) the database for writing.
    pub fn open(path: &Path) -> Result<Store, QueryError> {
        Store::open_with(path, Journal::Wal)
    }

    fn open_with(path: &Path, journal: Journal) -> Result<Store, QueryError> {
        let err = |source| QueryError::Sqlite { path: path.to_path_buf(), source };
        let conn = Connection::open(path).map_err(err)?;
        let bulk = matches!(journal, Journal::Off);
        let identity = file_identity(path);
        let store = Store { conn, path: path.to_path_buf(), bulk, identity, guard: None };
        store.configure_writer(journal).map_err(err)?;
        Ok(store)
    }

    fn configure_writer(&self, journal: Journal) -> rusqlite::Result<()> {
        self.conn.busy_timeout(busy_timeout())?;
        match journal {
            Journal::Wal => {
                self.conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
                self.conn.pragma_update(None, "synchronous", "NORMAL")?;
            }
            Journal::Off => {
                // A new file, so the page size can still be chosen: 16 KiB pages made the cold
                // build of the Go standard library ~0.5 s faster (fewer B-tree pages to balance
                // and write) without slowing incremental revisions (docs/PERFORMANCE.md).
                self.conn.pragma_update(None, "page_size", BULK_PAGE_SIZE)?;
                self.conn.pragma_update_and_check(None, "journal_mode", "OFF", |_| Ok(()))?;
                self.conn.pragma_update(None, "synchronous", "OFF")?;
            }
        }
        self.conn.pragma_update(None, "temp_store", "MEMORY")?;
        let cache_kib = match journal {
            Journal::Off => BULK_CACHE_KIB,
            Journal::Wal => 65536,
        };
        self.conn.pragma_update(None, "cache_size", -cache_kib)?;
        let version: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'schema_version'", [], |r| r.get(0))
            .optional()
            .or_else(|e| match e {
                // A fresh database has no meta table yet.
                rusqlite::Error::SqliteFailure(_, Some(ref m)) if m.contains("no such table") => {
                    Ok(None)
                }
                e => Err(e),
            })?;
        if version.is_some_and(|v| v != SCHEMA_VERSION.to_string()) {
            self.drop_all()?;
        }
        self.conn.execute_batch(&ddl::ddl())?;
        self.conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?1)",
            [SCHEMA_VERSION.to_string()],
        )?;
        Ok(())
    }

    /// Whether the database at `path` has nothing anyone could be reading: no file, an empty
    /// file, or a database without a published revision whose write-ahead log is gone (so no
    /// connection has it open). Such a database can be built off to the side
    /// ([`Store::open_bulk`]) and swapped in whole ([`Store::install`]).
    pub fn is_unpublished(path: &Path) -> bool {
        let Ok(meta) = std::fs::metadata(path) else {
            return true;
        };
        if meta.len() == 0 {
            return true;
        }
        if sibling(path, "-wal").exists() {
            return false;
        }
        let Ok(conn) = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY) else {
            return false;
        };
        match conn.query_row("SELECT COUNT(*) FROM snapshot", [], |r| r.get::<_, i64>(0)) {
            Ok(n) => n == 0,
            // No snapshot table: a database this build never finished creating.
            Err(rusqlite::Error::SqliteFailure(_, Some(m))) => m.contains("no such table"),
            Err(_) => false,
        }
    }

    /// Opens a new database file beside `target` for a first build: no journal and no syncs
    /// while it is written (a crash leaves only a stray file, never a damaged index, because
    /// nothing reads it until [`Store::install`] renames it into place). On the Go standard
    /// library this takes the write-ahead log's second copy of every page (about 2 s of a
    /// single-threaded commit) off the cold build. Stray files of builds whose process is gone
    /// are removed first.
    pub fn open_bulk(target: &Path) -> Result<Store, QueryError> {
        remove_stale_builds(target);
        let tmp = sibling(target, &format!(".building-{}", std::process::id()));
        for file in database_files(&tmp) {
            let _ = std::fs::remove_file(file);
        }
        Store::open_with(&tmp, Journal::Off)
    }

    /// Makes a database written by [`Store::open_bulk`] the one at `target`: switches it to
    /// WAL, closes it, syncs it to disk and renames it over `target` (with any write-ahead
    /// files of the database it replaces, which had no revision). Returns the store reopened
    /// at `target`.
    pub fn install(mut self, target: &Path) -> Result<Store, QueryError> {
        self.install_in_place(target)?;
        Ok(self)
    }

    /// Makes this store's database (a new one beside `target`: a bulk build's, a
    /// [`Store::copy_beside`] copy) the one at `target`, as [`Store::install`] does, and
    /// reopens this store there.
    pub fn install_in_place(&mut self, target: &Path) -> Result<(), QueryError> {
        let tmp = self.path.clone();
        let sql = |source| QueryError::Sqlite { path: tmp.clone(), source };
        self.conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(())).map_err(sql)?;
        // Closing the last connection checkpoints the write-ahead log into the file.
        let conn = std::mem::replace(&mut self.conn, Connection::open_in_memory().map_err(sql)?);
        conn.close().map_err(|(_, source)| sql(source))?;
        let io = |action: &'static str, path: &Path| {
            let path = path.to_path_buf();
            move |source| QueryError::Io { action, path, source }
        };
        std::fs::File::open(&tmp).and_then(|f| f.sync_all()).map_err(io("sync", &tmp))?;
        for suffix in ["-wal", "-shm"] {
            let stale = sibling(target, suffix);
            match std::fs::remove_file(&stale) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(io("remove", &stale)(e));
                }
                _ => {}
            }
        }
        std::fs::rename(&tmp, target).map_err(io("rename into place", target))?;
        for f in database_files(&tmp).into_iter().skip(1) {
            let _ = std::fs::remove_file(f);
        }
        if let Some(dir) = target.parent() {
            // Makes the rename durable; not every platform can open a directory.
            let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
        }
        *self = Store::open(target)?;
        Ok(())
    }

    /// Closes the store; if it was opened by [`Store::open_bulk`] (a build that will not be
    /// installed: it failed), its files are removed too. Any other database is only closed.
    pub fn discard_bulk(self) {
        let (path, bulk) = (self.path.clone(), self.bulk);
        drop(self);
        if bulk {
            for file in database_files(&path) {
                let _ = std::fs::remove_file(file);
            }
        }
    }

    fn drop_all(&self) -> rusqlite::Result<()> {
        let tables: Vec<(String, String)> = {
            let mut stmt = self.conn.prepare(
                "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') \
                 AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts_%'",
            )?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<Vec<(String, String)>, _>>()?
        };
        for (ty, name) in tables {
            let ty = if ty == "view" { "VIEW" } else { "TABLE" };
            self.conn.execute_batch(&format!("DROP {ty} IF EXISTS \"{name}\""))?;
        }
        Ok(())
    }

    /// Opens an existing database read-only; a missing file is [`QueryError::NoIndex`].
    pub fn open_read_only(path: &Path) -> Result<Store, QueryError> {
        if !path.exists() {
            return Err(QueryError::NoIndex { path: path.to_path_buf() });
        }
        let err = |source| QueryError::Sqlite { path: path.to_path_buf(), source };
        let mut conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(err)?;
        conn.busy_timeout(busy_timeout()).map_err(err)?;
        let guard = crate::graph_query::install(&mut conn).map_err(err)?;
        let version: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema_version'", [], |r| r.get(0))
            .optional()
            .map_err(|e| {
                // A damaged file says so; a file still being created has no meta table yet.
                if crate::error::is_damage(&e) {
                    err(e)
                } else {
                    QueryError::NoRevision { path: path.to_path_buf() }
                }
            })?;
        // No version row: a database a writer is creating right now, not another version.
        let Some(version) = version else {
            return Err(QueryError::NoRevision { path: path.to_path_buf() });
        };
        let found = version.parse::<u32>().unwrap_or(0);
        if found != SCHEMA_VERSION {
            return Err(QueryError::SchemaMismatch {
                path: path.to_path_buf(),
                found,
                expected: SCHEMA_VERSION,
            });
        }
        let identity = file_identity(path);
        Ok(Store { conn, path: path.to_path_buf(), bulk: false, identity, guard: Some(guard) })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A handle that stops the statement this connection runs (from another thread), for a
    /// query whose client has gone: the query fails with SQLite's "interrupted".
    pub fn interrupt_handle(&self) -> Interrupt {
        Interrupt(self.conn.get_interrupt_handle())
    }

    /// Whether the file this store opened is no longer the one at its path (deleted, or
    /// replaced by another file): writes would go to a file nobody reads.
    pub fn is_detached(&self) -> bool {
        self.identity.is_some() && file_identity(&self.path) != self.identity
    }

    /// Checks the database at `path` with SQLite's `quick_check` (every page and index
    /// entry read once: ~0.3 s for the Go standard library's 270 MB index). `Err` with
    /// SQLite's words only when the file is damaged; a missing, busy or unreadable file is not
    /// called damaged (a rebuild would not help it).
    pub fn check_integrity(path: &Path) -> Result<(), String> {
        if !path.exists() {
            return Ok(());
        }
        let conn = match Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE) {
            Ok(c) => c,
            Err(e) if crate::error::is_damage(&e) => return Err(e.to_string()),
            Err(_) => return Ok(()),
        };
        let _ = conn.busy_timeout(busy_timeout());
        let problems: rusqlite::Result<Vec<String>> = conn
            .prepare("PRAGMA quick_check(3)")
            .and_then(|mut st| st.query_map([], |r| r.get::<_, String>(0))?.collect());
        match problems {
            Ok(p) if p.len() == 1 && p[0] == "ok" => Ok(()),
            Ok(p) => Err(p.join("; ")),
            Err(e) if crate::error::is_damage(&e) => Err(e.to_string()),
            Err(_) => Ok(()),
        }
    }

    /// Copies this (read-only) index, as of its last committed revision, into a new database
    /// beside `dest` (returned; `dest` itself is not touched) with SQLite's online backup: page
    /// by page under one read transaction, so a writer working on the source meanwhile neither
    /// blocks the copy nor tears it. The copy is in WAL mode and not yet synced to disk: open
    /// it, work on it, and make it `dest` with [`Store::install_in_place`], which syncs it
    /// before the rename, so `dest` is either absent or whole. Written without a journal and
    /// without syncs (a half-written copy is never at `dest`): the backup took 0.65 s of a
    /// seeded worktree's 2.2 s on the Go standard library with SQLite's defaults, 0.25 s so.
    pub fn copy_beside(&self, dest: &Path) -> Result<PathBuf, QueryError> {
        let tmp = sibling(dest, &format!(".building-{}", std::process::id()));
        for f in database_files(&tmp) {
            let _ = std::fs::remove_file(f);
        }
        let err = |source| QueryError::Sqlite { path: dest.to_path_buf(), source };
        let copied = (|| {
            let mut out = Connection::open(&tmp).map_err(err)?;
            out.pragma_update_and_check(None, "journal_mode", "OFF", |_| Ok(())).map_err(err)?;
            out.pragma_update(None, "synchronous", "OFF").map_err(err)?;
            out.pragma_update(None, "cache_size", -65536).map_err(err)?;
            let backup = rusqlite::backup::Backup::new(&self.conn, &mut out).map_err(err)?;
            // Every page in one step: one read transaction, so no writer can make it restart.
            let mut waited = Duration::ZERO;
            loop {
                match backup.step(-1).map_err(err)? {
                    rusqlite::backup::StepResult::Done => break,
                    rusqlite::backup::StepResult::More => {}
                    _ if waited >= Duration::from_secs(10) => {
                        return Err(err(rusqlite::Error::SqliteFailure(
                            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                            Some("the source index stayed locked for 10 s".into()),
                        )));
                    }
                    _ => {
                        std::thread::sleep(Duration::from_millis(50));
                        waited += Duration::from_millis(50);
                    }
                }
            }
            drop(backup);
            // The copy is a database of its own, journaled like any index.
            out.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(())).map_err(err)?;
            Ok(())
        })();
        match copied {
            Ok(()) => Ok(tmp),
            Err(e) => {
                for f in database_files(&tmp) {
                    let _ = std::fs::remove_file(f);
                }
                Err(e)
            }
        }
    }

    /// [`Store::copy_beside`] by copying the files: the database and its write-ahead log (not
    /// the shared-memory index, which SQLite rebuilds), in the kernel (`copy_file_range`), then
    /// the log folded into the copy. Only for a caller that holds the source's write lock for
    /// the whole call (no writer can append to the log or checkpoint it meanwhile), and only
    /// for a source opened read-only (a read-only connection never checkpoints; the read
    /// transaction held during the copy keeps the log from being reset under it). About 4x
    /// faster than the page-by-page backup (0.10 vs 0.38 s for the Go standard library's
    /// 296 MiB index). The copy is in WAL mode and not synced, like [`Store::copy_beside`]'s.
    pub fn copy_files_beside(&self, dest: &Path) -> Result<PathBuf, QueryError> {
        let tmp = sibling(dest, &format!(".building-{}", std::process::id()));
        for f in database_files(&tmp) {
            let _ = std::fs::remove_file(f);
        }
        let err = |source| QueryError::Sqlite { path: dest.to_path_buf(), source };
        let io = |action: &'static str, path: &Path| {
            let path = path.to_path_buf();
            move |source| QueryError::Io { action, path, source }
        };
        let copied = (|| {
            let txn = self.conn.unchecked_transaction().map_err(err)?;
            // The read transaction starts at the first read.
            txn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get::<_, i64>(0))
                .map_err(err)?;
            let [src_db, _, src_wal, _] = database_files(&self.path);
            let [tmp_db, _, tmp_wal, _] = database_files(&tmp);
            std::fs::copy(&src_db, &tmp_db).map_err(io("copy", &src_db))?;
            if std::fs::metadata(&src_wal).is_ok_and(|m| m.len() > 0) {
                std::fs::copy(&src_wal, &tmp_wal).map_err(io("copy", &src_wal))?;
            }
            drop(txn);
            let out = Connection::open(&tmp).map_err(err)?;
            out.pragma_update(None, "synchronous", "OFF").map_err(err)?;
            // Fold the copied log into the copy (a no-op without one), then keep WAL mode.
            out.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(())).map_err(err)?;
            out.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get::<_, i64>(0))
                .map_err(err)?;
            Ok(())
        })();
        match copied {
            Ok(()) => Ok(tmp),
            Err(e) => {
                for f in database_files(&tmp) {
                    let _ = std::fs::remove_file(f);
                }
                Err(e)
            }
        }
    }

    /// Writes this index, as of its last committed revision, to a new compact file at `dest`
    /// (which must not exist) with SQLite's `VACUUM INTO`: one read transaction, no free
    /// pages, no write-ahead log, in rollback-journal mode: a self-contained file to ship
    /// (the shared store's snapshots).
    pub fn vacuum_into(&self, dest: &Path) -> Result<(), QueryError> {
        let err = |source| QueryError::Sqlite { path: dest.to_path_buf(), source };
        let target = dest.to_str().ok_or_else(|| QueryError::Io {
            action: "name",
            path: dest.to_path_buf(),
            source: std::io::Error::other("the path is not UTF-8"),
        })?;
        self.conn.execute("VACUUM INTO ?1", [target]).map_err(err)?;
        Ok(())
    }

    /// Stamps flows and clusters computed at revision `from` as those of revision `to`: for a
    /// revision that changed no row (a seeded worktree's first revision over its sibling's
    /// copied graph), so they are not computed again. Returns whether a stamp moved.
    pub fn carry_derived(&self, from: i64, to: i64) -> Result<bool, QueryError> {
        self.conn
            .execute("UPDATE derivation SET revision = ?2 WHERE revision = ?1", [from, to])
            .map(|n| n > 0)
            .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })
    }

    /// Records a key of the index's own metadata (kept across revisions).
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), QueryError> {
        self.conn
            .execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)", [key, value])
            .map(|_| ())
            .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })
    }

    /// Sets the page cache of this connection (KiB). The bulk load wants a large one; a
    /// long-lived daemon writing a few rows per revision does well with a small one.
    pub fn set_cache_kib(&self, kib: i64) -> Result<(), QueryError> {
        self.conn
            .pragma_update(None, "cache_size", -kib)
            .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })
    }

    /// Replaces the graph with `nodes`/`edges`/`diagnostics` and records a new revision, all in
    /// one transaction, with nodes and edges in ID order. Returns the revision.
    pub fn publish(
        &mut self,
        info: &SnapshotInfo,
        nodes: &[&Node],
        edges: &[&Edge],
        diagnostics: &[Diagnostic],
    ) -> Result<i64, QueryError> {
        let mut nodes = nodes.to_vec();
        nodes.sort_by(|a, b| a.id.cmp(&b.id));
        let mut edges = edges.to_vec();
        edges.sort();
        let mut publication = self.begin_publish()?;
        publication.insert_nodes(nodes.iter().copied())?;
        // Without units, each edge belongs to the file of its source node (or the node itself).
        let files: HashMap<&str, &str> =
            nodes.iter().filter_map(|n| Some((&*n.id, n.file.as_deref()?))).collect();
        let owner_of = |id: &str| -> String {
            files.get(id).map_or_else(|| id.to_string(), |f| codegraph_schema::ids::file(f))
        };
        for e in edges {
            publication.insert_edges(std::iter::once(e), &owner_of(&e.src))?;
        }
        publication.insert_diagnostics(diagnostics)?;
        publication.commit(info)
    }

    /// A write transaction that takes the write lock at once (`IMMEDIATE`): a concurrent
    /// writer makes it wait here (busy timeout), never fail half-way through its writes.
    pub(crate) fn begin_immediate(&mut self) -> Result<rusqlite::Transaction<'_>, QueryError> {
        let path = self.path.clone();
        self.conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|source| QueryError::Sqlite { path, source })
    }

    /// Starts replacing the graph: one write transaction that the returned [`Publication`]
    /// fills and commits. Readers keep seeing the previous revision until the commit; dropping
    /// the publication without committing leaves that revision untouched.
    pub fn begin_publish(&mut self) -> Result<Publication<'_>, QueryError> {
        let path = self.path.clone();
        let p = path.clone();
        let err = |source| QueryError::Sqlite { path: p.clone(), source };
        let tx = self.begin_immediate()?;
        // Bulk load: drop the secondary indexes and rows; indexes are rebuilt once, at commit
        // (or earlier for the node table: `Publication::index_nodes`).
        tx.execute_batch(&ddl::drop_graph_indexes()).map_err(err)?;
        tx.execute_batch(
            "DELETE FROM node; DELETE FROM stored_edge; DELETE FROM diagnostic; DELETE FROM node_fts; \
             DELETE FROM unresolved; DELETE FROM unit; DELETE FROM source;",
        )
        .map_err(err)?;
        Ok(Publication {
            tx,
            path,
            nids: FxHashMap::default(),
            files: 0,
            symbols: 0,
            edges: 0,
            skipped: 0,
            unresolved: 0,
            pending: Vec::new(),
        })
    }
}

/// A revision being written: nodes get row numbers (`nid`) in insertion order, so the same
/// insertion order gives the same rows. Edges may arrive before their endpoints; they are
/// inserted at [`Publication::commit`] once every node is known.
pub struct Publication<'s> {
    tx: rusqlite::Transaction<'s>,
    path: PathBuf,
    /// Node ID (the node's own shared ID, not a copy) -> row number; FxHash, since it takes
    /// one insert per node and two lookups per stored edge (SipHash showed in the writer
    /// thread's profile).
    nids: FxHashMap<codegraph_schema::Id, i64>,
    files: i64,
    symbols: i64,
    edges: i64,
    skipped: i64,
    unresolved: i64,
    /// Edges with an endpoint or owner not inserted yet, with their owner's ID.
    pending: Vec<(Edge, String)>,
}

impl Publication<'_> {
    fn err(&self) -> impl Fn(rusqlite::Error) -> QueryError + '_ {
        |source| QueryError::Sqlite { path: self.path.clone(), source }
    }

    /// Inserts nodes (and their FTS rows). A node whose ID is already present is ignored.
    pub fn insert_nodes<'n>(
        &mut self,
        nodes: impl IntoIterator<Item = &'n Node>,
    ) -> Result<(), QueryError> {
        let mut ins = self.tx.prepare_cached(UPSERT_NODE).map_err(self.err())?;
        let mut fts = self.tx.prepare_cached(INSERT_FTS).map_err(self.err())?;
        let path = &self.path;
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        for n in nodes {
            if self.nids.contains_key(&*n.id) {
                tracing::warn!(id = %n.id, "publish: duplicate node ID ignored");
                continue;
            }
            let nid = self.nids.len() as i64 + 1;
            self.nids.insert(n.id.clone(), nid);
            match n.kind.category() {
                NodeCategory::Symbol => self.symbols += 1,
                NodeCategory::File => self.files += 1,
                _ => {}
            }
            self.edges += implied_edges(n);
            write_node(&mut ins, &mut fts, nid, n).map_err(err)?;
        }
        Ok(())
    }

    /// Inserts edges produced by the unit whose owner node is `owner` (a file or package node
    /// ID); edges whose endpoints or owner are not inserted yet wait for [`Self::commit`].
    pub fn insert_edges<'e>(
        &mut self,
        edges: impl IntoIterator<Item = &'e Edge>,
        owner: &str,
    ) -> Result<(), QueryError> {
        let mut ins = self.tx.prepare_cached(INSERT_EDGE).map_err(self.err())?;
        let path = &self.path;
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        let owner_nid = self.nids.get(owner).copied();
        for e in edges {
            match (self.nids.get(&*e.src), self.nids.get(&*e.dst), owner_nid) {
                (Some(&src), Some(&dst), Some(owner)) => {
                    self.edges += insert_edge(&mut ins, e, src, dst, owner).map_err(err)? as i64;
                }
                _ => self.pending.push((e.clone(), owner.to_string())),
            }
        }
        Ok(())
    }

    /// Builds the node table's secondary indexes now rather than at [`Self::commit`], for a
    /// writer that has inserted nearly every node and would otherwise wait: nodes inserted
    /// later update them row by row, and the commit builds only the edge indexes. (The cold
    /// build calls it once the file rows are in, while resolution still runs on the other
    /// cores.)
    pub fn index_nodes(&mut self) -> Result<(), QueryError> {
        self.tx.execute_batch(&ddl::create_node_indexes()).map_err(self.err())
    }

    /// Records the digest of each unit's rows (what the next incremental revision compares).
    pub fn insert_units<'u>(
        &mut self,
        units: impl IntoIterator<Item = (&'u str, u64)>,
    ) -> Result<(), QueryError> {
        let mut ins = self.tx.prepare_cached(UPSERT_UNIT).map_err(self.err())?;
        let path = &self.path;
        for (id, digest) in units {
            ins.execute(params![id, digest as i64])
                .map_err(|source| QueryError::Sqlite { path: path.clone(), source })?;
        }
        Ok(())
    }

    /// Records what the scanner saw of each file, with its encoded facts.
    pub fn insert_sources<'r>(
        &mut self,
        sources: impl IntoIterator<Item = &'r SourceRow>,
    ) -> Result<(), QueryError> {
        let mut ins = self.tx.prepare_cached(UPSERT_SOURCE).map_err(self.err())?;
        let path = &self.path;
        for s in sources {
            upsert_source(&mut ins, s)
                .map_err(|source| QueryError::Sqlite { path: path.clone(), source })?;
        }
        Ok(())
    }

    pub fn insert_diagnostics<'d>(
        &mut self,
        diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
    ) -> Result<(), QueryError> {
        let mut ins = self
            .tx
            .prepare_cached(
                "INSERT OR REPLACE INTO diagnostic (path, code, detail, skipped) VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(self.err())?;
        let path = &self.path;
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        for d in diagnostics {
            ins.execute(params![d.path, d.code.as_str(), d.detail, d.code.is_skip()])
                .map_err(err)?;
            self.skipped += i64::from(d.code.is_skip());
        }
        Ok(())
    }

    /// Records call sites of `file` that resolved to nothing.
    pub fn insert_unresolved<'u>(
        &mut self,
        file: &str,
        sites: impl IntoIterator<Item = &'u UnresolvedSite>,
    ) -> Result<(), QueryError> {
        let mut ins = self
            .tx
            .prepare_cached(
                "INSERT OR IGNORE INTO unresolved (file, line, caller, callee) VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(self.err())?;
        let path = &self.path;
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        for u in sites {
            self.unresolved +=
                ins.execute(params![file, u.line, u.caller, u.callee]).map_err(err)? as i64;
        }
        Ok(())
    }

    /// Inserts the pending edges, rebuilds the indexes, records the snapshot row and commits.
    /// Returns the new revision.
    pub fn commit(mut self, info: &SnapshotInfo) -> Result<i64, QueryError> {
        let started = std::time::Instant::now();
        let pending = std::mem::take(&mut self.pending);
        let before = pending.len();
        for (edge, owner) in &pending {
            self.insert_edges(std::iter::once(edge), owner)?;
        }
        let dangling = self.pending.len();
        if dangling > 0 {
            tracing::warn!(dangling, of = before, "publish: edges to unknown nodes were dropped");
        }
        let Publication { tx, path, files, symbols, edges, skipped, unresolved, .. } = self;
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        let pending_ms = started.elapsed().as_millis();
        tx.execute_batch(&ddl::create_graph_indexes()).map_err(err)?;
        let indexes_ms = started.elapsed().as_millis() - pending_ms;
        let revision = insert_snapshot(&tx, info, [files, symbols, edges, skipped, unresolved])
            .map_err(err)?;
        tx.commit().map_err(err)?;
        tracing::debug!(
            pending = before,
            pending_ms,
            indexes_ms,
            total_ms = started.elapsed().as_millis() as u64,
            "publish: committed"
        );
        Ok(revision)
    }
}

/// What the scanner saw of one indexed file, and its encoded facts (NULL without a provider).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceRow {
    pub path: String,
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: String,
    pub lossy_utf8: bool,
    pub lines: u32,
    pub facts: Option<Vec<u8>>,
    /// The language the file was read as (`None`: no provider); needed on restore because a
    /// language may claim a file by its text, not its name.
    pub language: Option<String>,
}

/// The `source` columns [`source_from_row`] reads, in its order (`facts` after them when
/// asked for).
pub(crate) const SOURCE_COLUMNS: &str = "path, size, mtime_ns, hash, lossy_utf8, lines, language";

/// A `source` row selected as [`SOURCE_COLUMNS`] (then `facts` when `with_facts`).
pub(crate) fn source_from_row(
    r: &rusqlite::Row<'_>,
    with_facts: bool,
) -> rusqlite::Result<SourceRow> {
    Ok(SourceRow {
        path: r.get(0)?,
        size: r.get::<_, i64>(1)? as u64,
        mtime_ns: r.get(2)?,
        hash: r.get(3)?,
        lossy_utf8: r.get(4)?,
        lines: r.get(5)?,
        language: r.get(6)?,
        facts: if with_facts { r.get(7)? } else { None },
    })
}

/// The edges `n`'s row implies (see [`ddl::EDGE_VIEW`]), for the snapshot's edge count.
pub(crate) fn implied_edges(n: &Node) -> i64 {
    ddl::implied_edges(n.kind, n.file.is_some(), n.parent.is_some())
}

pub(crate) const INSERT_EDGE: &str = "INSERT OR IGNORE INTO stored_edge (src, dst, kind, weight, reason, line, owner) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
pub(crate) const UPSERT_UNIT: &str = "INSERT OR REPLACE INTO unit (id, digest) VALUES (?1, ?2)";
pub(crate) const UPSERT_SOURCE: &str = "INSERT OR REPLACE INTO source \
     (path, size, mtime_ns, hash, lossy_utf8, lines, facts, language) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

pub(crate) fn insert_edge(
    ins: &mut rusqlite::CachedStatement<'_>,
    e: &Edge,
    src: i64,
    dst: i64,
    owner: i64,
) -> rusqlite::Result<usize> {
    ins.execute(params![src, dst, e.kind.as_str(), e.weight(), e.reason.as_str(), e.line, owner])
}

pub(crate) fn upsert_source(
    ins: &mut rusqlite::CachedStatement<'_>,
    s: &SourceRow,
) -> rusqlite::Result<usize> {
    ins.execute(params![
        s.path,
        s.size as i64,
        s.mtime_ns,
        s.hash,
        s.lossy_utf8,
        s.lines,
        s.facts,
        s.language
    ])
}

/// Inserts a node row with the given `nid`, replacing the row that has it (so an update keeps
/// the row number other units' edges refer to).
pub(crate) const UPSERT_NODE: &str = "INSERT OR REPLACE INTO node (nid, id, kind, name, qualified_name, file, \
     language, start_line, end_line, signature, doc, exported, parent, size, lines, hash, props, test) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)";
pub(crate) const INSERT_FTS: &str = "INSERT INTO node_fts \
     (rowid, name, qualified_name, signature, doc, path, terms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

/// Writes a node row and its full-text row (the caller deletes an older FTS row first).
pub(crate) fn write_node(
    ins: &mut rusqlite::CachedStatement<'_>,
    fts: &mut rusqlite::CachedStatement<'_>,
    nid: i64,
    n: &Node,
) -> rusqlite::Result<()> {
    write_node_row(ins, nid, n)?;
    write_fts(fts, nid, n)
}

/// Writes a node row only.
pub(crate) fn write_node_row(
    ins: &mut rusqlite::CachedStatement<'_>,
    nid: i64,
    n: &Node,
) -> rusqlite::Result<()> {
    ins.execute(params![
        nid,
        n.id,
        n.kind.as_str(),
        n.name,
        n.qualified_name,
        n.file,
        n.language,
        n.start_line,
        n.end_line,
        n.signature,
        n.doc,
        n.exported,
        n.parent,
        n.size.map(|s| s as i64),
        n.lines,
        n.hash,
        n.props,
        n.test,
    ])?;
    Ok(())
}

/// Appends the words of `path` that the `path` column's own tokens lack: the parts of its
/// camel-case segments (`userService.ts` -> `user service`). A path without capitals adds
/// nothing, since the tokenizer already splits it at every non-alphanumeric; repeating its
/// tokens on every symbol's row was a quarter of the full-text work of a cold index.
fn path_terms(path: &str, terms: &mut String) {
    if !path.chars().any(char::is_uppercase) {
        return;
    }
    let plain: Vec<String> = path
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    for word in split_identifiers(path).split(' ') {
        if !word.is_empty() && !plain.iter().any(|p| p == word) {
            terms.push(' ');
            terms.push_str(word);
        }
    }
}

/// Writes a node's full-text row.
pub(crate) fn write_fts(
    fts: &mut rusqlite::CachedStatement<'_>,
    nid: i64,
    n: &Node,
) -> rusqlite::Result<()> {
    let mut terms = split_identifiers(&n.qualified_name);
    if let Some(f) = &n.file {
        path_terms(f, &mut terms);
    }
    fts.execute(params![nid, n.name, n.qualified_name, n.signature, n.doc, n.file, terms])?;
    Ok(())
}

/// Appends the snapshot row of a new revision; `counts` are files, symbols, edges, skipped,
/// unresolved. Returns the revision.
pub(crate) fn insert_snapshot(
    tx: &rusqlite::Transaction<'_>,
    info: &SnapshotInfo,
    counts: [i64; 5],
) -> rusqlite::Result<i64> {
    let revision: i64 =
        tx.query_row("SELECT COALESCE(MAX(revision), 0) + 1 FROM snapshot", [], |r| r.get(0))?;
    let [files, symbols, edges, skipped, unresolved] = counts;
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('max_file_size', ?1)",
        [info.max_file_size.to_string()],
    )?;
    match &info.go_import_prefix {
        Some(p) => tx.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('go_import_prefix', ?1)",
            [p],
        )?,
        None => tx.execute("DELETE FROM meta WHERE key = 'go_import_prefix'", [])?,
    };
    tx.execute(
        "INSERT INTO snapshot (revision, root, head_commit, dirty_fingerprint, dirty_files, \
         indexer_version, schema_version, created_at_ms, duration_ms, files, symbols, edges, skipped, \
         unresolved) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            revision,
            info.root,
            info.head_commit,
            info.dirty_fingerprint,
            info.dirty_files as i64,
            info.indexer_version,
            SCHEMA_VERSION,
            info.created_at_ms,
            info.duration_ms,
            files,
            symbols,
            edges,
            skipped,
            unresolved,
        ],
    )?;
    Ok(revision)
}

#[cfg(test)]
mod tests {
    use super::path_terms;

    fn terms(path: &str) -> String {
        let mut out = String::from("q");
        path_terms(path, &mut out);
        out
    }

    #[test]
    fn path_terms_add_only_what_the_tokenizer_cannot_split() {
        assert_eq!(terms("net/http/server.go"), "q");
        assert_eq!(terms("src/base64_v2/enc.ts"), "q");
        assert_eq!(terms("src/userService.ts"), "q user service");
        assert_eq!(terms("pkg/HTTPServer/Main.go"), "q http server");
    }
}
