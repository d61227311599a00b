//! One writer per index, and a damaged index rebuilt instead of being a dead end.
//!
//! Every writer of an index (`index`, `watch`, each `mcp` root's worker) takes an exclusive
//! lock on `INDEX.lock` (`File::lock`, an `flock` on Linux) around each build or revision it writes. A second writer
//! waits for it and says whom it waits for (two cold `index` runs of one root used to both
//! build "revision 1", the later silently replacing the earlier). The lock is taken per write,
//! not for a process's lifetime, so a `codegraph index` next to a running `watch` waits
//! milliseconds, not forever. It is reentrant on one thread (opening an engine publishes).
//!
//! The lock file also tells whether the last writer finished: it holds the writer's PID while
//! it writes and is emptied when it is done. A writer that finds a PID in it (its writer was
//! killed mid-write) or a `INDEX.suspect` mark (left by a reader that met a damaged page) runs
//! SQLite's `quick_check` before trusting the database. The index is derived data: a damaged
//! one is moved aside to `INDEX.damaged` (only the newest is kept) and rebuilt from the tree,
//! and the run says so in its notes.

use anyhow::{Context, Result};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// `db` with `suffix` appended to its file name.
fn beside(db: &Path, suffix: &str) -> PathBuf {
    let mut p = db.as_os_str().to_os_string();
    p.push(suffix);
    PathBuf::from(p)
}

/// The lock file of the index at `db`.
pub fn lock_path(db: &Path) -> PathBuf {
    beside(db, ".lock")
}

/// The mark a reader leaves when it met a damaged page of the index at `db`.
pub fn suspect_path(db: &Path) -> PathBuf {
    beside(db, ".suspect")
}

/// Where a damaged index at `db` is moved.
pub fn damaged_path(db: &Path) -> PathBuf {
    beside(db, ".damaged")
}

/// Every file that belongs to the index at `db` rather than to the tree (when `--db` puts
/// them inside the root): the database and SQLite's files, the owner file, the lock and the
/// suspect mark, and a damaged copy moved aside.
pub fn index_files(db: &Path) -> Vec<PathBuf> {
    let mut files = codegraph_query::database_files(db).to_vec();
    files.extend(crate::owner::owner_files(db));
    files.extend([lock_path(db), suspect_path(db)]);
    files.extend(codegraph_query::database_files(&damaged_path(db)));
    files
}

thread_local! {
    /// Lock files this thread holds, with how many times (the lock is reentrant per thread).
    static HELD: RefCell<HashMap<PathBuf, usize>> = RefCell::new(HashMap::new());
}

/// The write lock of one index, released on drop.
pub struct WriteLock {
    key: PathBuf,
    /// `None` for a nested acquisition on a thread that already holds the lock.
    file: Option<File>,
    /// The last writer did not finish (its PID was still in the lock file).
    pub unclean: bool,
}

/// What this process is, for the lock file and for whoever waits on it.
fn describe_self() -> String {
    let args: Vec<String> = std::env::args().take(2).collect();
    let program = args
        .first()
        .map(|a| Path::new(a).file_name().map_or(a.clone(), |n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let command = args.get(1).map_or(String::new(), |c| format!(" {c}"));
    format!("pid {} ({program}{command})", std::process::id())
}

/// Takes the write lock of the index at `db`, waiting for another writer to finish (and
/// saying so once, with what the other writer is).
pub fn acquire(db: &Path) -> Result<WriteLock> {
    let key = lock_path(db);
    let nested = HELD.with(|h| {
        let mut h = h.borrow_mut();
        h.get_mut(&key).map(|n| *n += 1).is_some()
    });
    if nested {
        return Ok(WriteLock { key, file: None, unclean: false });
    }
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&key)
        .with_context(|| format!("cannot open the index lock file {}", key.display()))?;
    let free = match file.try_lock() {
        Ok(()) => true,
        Err(std::fs::TryLockError::WouldBlock) => false,
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", key.display()));
        }
    };
    if !free {
        let mut holder = String::new();
        let _ = file.read_to_string(&mut holder);
        let holder = holder.trim();
        let holder = if holder.is_empty() { "another process" } else { holder };
        tracing::warn!("waiting for {holder}, which is writing the index {}", db.display());
        file.lock().with_context(|| format!("cannot lock {}", key.display()))?;
    }
    let mut previous = String::new();
    file.rewind().and_then(|()| file.read_to_string(&mut previous)).ok();
    let unclean = !previous.trim().is_empty();
    // Best effort: a lock file we cannot write still locks; only the unclean mark is lost.
    let _ = file
        .set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| writeln!(file, "{}", describe_self()));
    HELD.with(|h| h.borrow_mut().insert(key.clone(), 1));
    Ok(WriteLock { key, file: Some(file), unclean })
}

/// Holds the write lock of the index at `db` without waiting and without marking the lock
/// file (nothing is written, so a crash while holding it leaves no unclean mark): for a
/// reader that copies the index's files and needs no writer to touch them meanwhile. `None`
/// when a writer holds it now (or the lock file cannot be opened); released on drop.
pub fn try_hold(db: &Path) -> Option<File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(lock_path(db))
        .ok()?;
    file.try_lock().ok()?;
    Some(file)
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        let last = HELD.with(|h| {
            let mut h = h.borrow_mut();
            match h.get_mut(&self.key) {
                Some(n) if *n > 1 => {
                    *n -= 1;
                    false
                }
                _ => {
                    h.remove(&self.key);
                    true
                }
            }
        });
        if last && let Some(file) = self.file.take() {
            // Empty: the write finished. Closing the file releases the lock.
            let _ = file.set_len(0);
        }
    }
}

/// Whether the index at `db` should be checked before it is trusted: its last writer did
/// not finish (a PID in an unlocked lock file; a live writer's PID only makes the caller wait
/// for it) or a reader marked it suspect.
pub fn needs_check(db: &Path) -> bool {
    suspect_path(db).exists()
        || std::fs::read_to_string(lock_path(db)).is_ok_and(|t| !t.trim().is_empty())
}

/// Marks the index at `db` suspect (a reader met a damaged page): the next writer checks it.
pub fn mark_suspect(db: &Path) {
    let _ = std::fs::write(suspect_path(db), "a reader found this index damaged\n");
}

/// Checks the index at `db` when `lock` says its last writer did not finish or a reader
/// marked it; `Some(SQLite's words)` when it is damaged.
pub fn damage(db: &Path, lock: &WriteLock) -> Option<String> {
    let suspect = suspect_path(db).exists();
    if !lock.unclean && !suspect {
        return None;
    }
    let found = codegraph_query::Store::check_integrity(db).err();
    if found.is_none() {
        let _ = std::fs::remove_file(suspect_path(db));
    }
    found
}

/// The damage an error reports, if it says the index at `db` is damaged.
pub fn damage_in(e: &anyhow::Error) -> Option<String> {
    e.chain().find_map(|cause| {
        let q = cause.downcast_ref::<codegraph_query::QueryError>()?;
        q.damage()
    })
}

/// Moves the damaged index at `db` aside (replacing an older damaged copy) so that a new one
/// can be built; returns where it went. The caller holds the write lock.
pub fn move_aside(db: &Path) -> Result<PathBuf> {
    let aside = damaged_path(db);
    for f in codegraph_query::database_files(&aside) {
        let _ = std::fs::remove_file(f);
    }
    let [main, journal, wal, shm] = codegraph_query::database_files(db);
    std::fs::rename(&main, &aside).with_context(|| {
        format!("cannot move the damaged index {} aside to {}", main.display(), aside.display())
    })?;
    // The write-ahead log belongs to the damaged file: keep it with it, for whoever looks.
    let _ = std::fs::rename(&wal, beside(&aside, "-wal"));
    let _ = std::fs::remove_file(journal);
    let _ = std::fs::remove_file(shm);
    let _ = std::fs::remove_file(suspect_path(db));
    Ok(aside)
}

/// The note a run leaves when it rebuilt a damaged index.
pub fn repaired_note(db: &Path, detail: &str, aside: &Path) -> String {
    format!(
        "the index at {} was damaged ({detail}); it was moved aside to {} and rebuilt from the tree",
        db.display(),
        aside.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_is_reentrant_on_a_thread_and_exclusive_across_threads() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("index.db");
        let outer = acquire(&db).expect("lock");
        assert!(!outer.unclean);
        let inner = acquire(&db).expect("nested");
        drop(inner);
        assert!(needs_check(&db), "held: the lock file names the writer");
        let (tx, rx) = std::sync::mpsc::channel();
        let db2 = db.clone();
        let other = std::thread::spawn(move || {
            let l = acquire(&db2).expect("lock on another thread");
            tx.send(l.unclean).expect("send");
        });
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(rx.try_recv().is_err(), "the other thread waits while the lock is held");
        drop(outer);
        assert!(!rx.recv().expect("acquired after release"), "a clean lock file");
        other.join().expect("thread");
        assert!(!needs_check(&db), "a finished writer leaves an empty lock file");

        // A writer that never finished (killed) leaves its PID: the next one is told.
        std::fs::write(lock_path(&db), "pid 1 (codegraph index)\n").expect("write");
        let l = acquire(&db).expect("lock");
        assert!(l.unclean);
    }

    #[test]
    fn a_damaged_index_is_found_and_moved_aside() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("index.db");
        std::fs::write(&db, vec![0x5a; 8192]).expect("write garbage");
        std::fs::write(lock_path(&db), "pid 1 (codegraph index)\n").expect("write");
        let lock = acquire(&db).expect("lock");
        let detail = damage(&db, &lock).expect("garbage is damage");
        assert!(detail.contains("not a database"), "{detail}");
        let aside = move_aside(&db).expect("move");
        assert_eq!(aside, dir.path().join("index.db.damaged"));
        assert!(!db.exists());
        assert_eq!(std::fs::read(&aside).expect("read").len(), 8192);
        // A clean lock and no mark: nothing is checked (a check reads every page).
        drop(lock);
        std::fs::write(&db, b"garbage again").expect("write");
        let lock = acquire(&db).expect("lock");
        assert_eq!(damage(&db, &lock), None);
        mark_suspect(&db);
        assert!(damage(&db, &lock).is_some(), "a reader's mark makes the writer check");
    }
}
