//! Cheap freshness for the CLI. A process that keeps a root's index live (`codegraph watch`,
//! `codegraph mcp`) says so in a small file beside the index (`index.db.owner`): its process
//! ID and start time, and either "fresh at revision R" or "pending" (a file event arrived that
//! is not published yet). A CLI query then takes that word instead of stat-ing every file of
//! the tree; without a live owner (no file, a dead process, a reused process ID, another
//! revision) it falls back to the walk ([`crate::fresh`]). Either way `stale` stays honest:
//! the owner turns "pending" on the first raw event of an edit, before any debounce, and
//! "fresh" only after a quiet period in which every event was applied and published.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What a live owner says of its root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Every file event so far is published in this revision.
    Fresh { revision: i64 },
    /// Events arrived that are not published yet.
    Pending,
}

/// The owner file of the index at `db`.
pub fn owner_path(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_os_string();
    p.push(".owner");
    PathBuf::from(p)
}

/// The owner file and the file it is written through: both belong to the index, never to
/// the tree (`--db` may put them inside the root).
pub fn owner_files(db: &Path) -> [PathBuf; 2] {
    owner_files_of(&owner_path(db))
}

fn owner_files_of(path: &Path) -> [PathBuf; 2] {
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    [path.to_path_buf(), PathBuf::from(tmp)]
}

/// When process `pid` started (clock ticks since boot, `/proc/PID/stat` field 22); `None`
/// when it does not run or the OS has no `/proc`.
fn start_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    // Fields after the command name start at field 3 (state); starttime is field 22.
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// The claim of the live owner of the index at `db`, if there is one.
pub fn read(db: &Path) -> Option<Claim> {
    let text = std::fs::read_to_string(owner_path(db)).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    let pid = u32::try_from(v["pid"].as_u64()?).ok()?;
    if start_ticks(pid)? != v["started"].as_u64()? {
        return None;
    }
    match v["state"].as_str()? {
        "fresh" => Some(Claim::Fresh { revision: v["revision"].as_i64()? }),
        "pending" => Some(Claim::Pending),
        _ => None,
    }
}

/// The note of the live owner of the index at `db` (why its events are not published yet),
/// if there is a live owner and it left one.
pub fn note(db: &Path) -> Option<String> {
    read(db)?;
    let text = std::fs::read_to_string(owner_path(db)).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    v["note"].as_str().map(str::to_string)
}

/// This process's ownership of a root's index: the file is written on every change of
/// state and removed when the owner is dropped.
pub struct Owner {
    path: PathBuf,
    pid: u32,
    started: u64,
    /// The state last written, with its note.
    state: Mutex<Option<(Claim, Option<String>)>>,
    /// Given up: nothing more is written.
    released: std::sync::atomic::AtomicBool,
}

impl Owner {
    /// Claims the index at `db` for this process, as "pending" until told otherwise. `None`
    /// where processes cannot be identified (no `/proc`): the CLI then always walks.
    pub fn claim(db: &Path) -> Option<Owner> {
        let pid = std::process::id();
        let started = start_ticks(pid)?;
        let owner = Owner {
            path: owner_path(db),
            pid,
            started,
            state: Mutex::new(None),
            released: std::sync::atomic::AtomicBool::new(false),
        };
        owner.set(Claim::Pending, None);
        Some(owner)
    }

    /// Every event so far is published in `revision`.
    pub fn fresh(&self, revision: i64) {
        self.set(Claim::Fresh { revision }, None);
    }

    /// An event arrived that is not published yet (cheap when already pending).
    pub fn pending(&self) {
        let noted = self
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .and_then(|s| matches!(s.0, Claim::Pending).then(|| s.1.clone()).flatten());
        // A pending publish keeps its note until it is published.
        self.set(Claim::Pending, noted.as_deref());
    }

    /// Events are not published because publishing failed; `note` says why (`status` shows
    /// it, e.g. "publish pending: locked ...").
    pub fn pending_because(&self, note: &str) {
        self.set(Claim::Pending, Some(note));
    }

    /// Gives the index up: removes the owner file (when it is still ours) and writes no more,
    /// though a watcher thread may still hold this owner for a moment.
    pub fn release(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        *state = Some((Claim::Pending, None));
        self.released.store(true, std::sync::atomic::Ordering::SeqCst);
        let ours = std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|v| v["pid"].as_u64() == Some(u64::from(self.pid)));
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }

    fn set(&self, claim: Claim, note: Option<&str>) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let next = (claim, note.map(str::to_string));
        if state.as_ref() == Some(&next) || self.released.load(std::sync::atomic::Ordering::SeqCst)
        {
            return;
        }
        let mut body = match claim {
            Claim::Fresh { revision } => {
                json!({"pid": self.pid, "started": self.started, "state": "fresh", "revision": revision})
            }
            Claim::Pending => json!({"pid": self.pid, "started": self.started, "state": "pending"}),
        };
        if let Some(note) = note {
            body["note"] = json!(note);
        }
        // Written beside and renamed into place: a reader sees the old or the new state.
        let [_, tmp] = owner_files_of(&self.path);
        let write = || {
            std::fs::write(&tmp, body.to_string()).and_then(|()| std::fs::rename(&tmp, &self.path))
        };
        // A fresh cache has no index directory until the first build creates it: the claim
        // comes first, so it makes the directory.
        let written = match write() {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.path.parent().map_or(Err(e), std::fs::create_dir_all).and_then(|()| write())
            }
            other => other,
        };
        match written {
            Ok(()) => *state = Some(next),
            Err(e) => {
                // A reader that cannot see the word walks the tree: slower, never wrong,
                // unless the file still says "fresh": remove it.
                tracing::warn!(path = %self.path.display(), "cannot write the owner file: {e}");
                let _ = std::fs::remove_file(&self.path);
                let _ = std::fs::remove_file(&tmp);
                *state = None;
            }
        }
    }
}

impl Drop for Owner {
    fn drop(&mut self) {
        // Only our own file: another owner may have claimed the index since.
        if !self.released.load(std::sync::atomic::Ordering::SeqCst) {
            self.release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh cache: the index's directory does not exist yet when the owner claims it.
    #[test]
    fn a_claim_makes_the_index_directory() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("cache/root-1234/index.db");
        let owner = Owner::claim(&db).expect("this OS has /proc");
        assert_eq!(read(&db), Some(Claim::Pending));
        owner.fresh(1);
        assert_eq!(read(&db), Some(Claim::Fresh { revision: 1 }));
    }

    #[test]
    fn a_live_owner_is_read_back_and_a_dead_or_forged_one_is_not() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("index.db");
        assert_eq!(read(&db), None);
        let owner = Owner::claim(&db).expect("this OS has /proc");
        assert_eq!(read(&db), Some(Claim::Pending));
        owner.fresh(7);
        assert_eq!(read(&db), Some(Claim::Fresh { revision: 7 }));
        owner.pending();
        assert_eq!(read(&db), Some(Claim::Pending));
        assert_eq!(note(&db), None);
        owner.pending_because("publish pending: locked");
        owner.pending();
        assert_eq!(read(&db), Some(Claim::Pending));
        assert_eq!(note(&db).as_deref(), Some("publish pending: locked"), "kept until published");
        owner.fresh(8);
        assert_eq!(note(&db), None);
        owner.pending();
        let other = Owner::claim(&db).expect("claim");
        other.release();
        assert_eq!(read(&db), None, "a released owner removes its file");
        other.fresh(8);
        assert_eq!(read(&db), None, "and writes no more");
        owner.fresh(9);
        assert_eq!(read(&db), Some(Claim::Fresh { revision: 9 }));
        drop(owner);
        assert_eq!(read(&db), None, "a dropped owner removes its file");
        // A file naming this process with another start time (a reused PID) is not trusted.
        let forged =
            json!({"pid": std::process::id(), "started": 1, "state": "fresh", "revision": 3});
        std::fs::write(owner_path(&db), forged.to_string()).expect("write");
        assert_eq!(read(&db), None);
        std::fs::write(owner_path(&db), "not json").expect("write");
        assert_eq!(read(&db), None);
    }
}
