//! Cheap freshness for the CLI. A process that keeps a root's index live (`codegraph watch`,
//! `codegraph mcp`) says so in a small file beside the index (`index.db.owner`): its process
//! ID and start time, "fresh at revision R" or "pending" (for `status` and scripts), and the
//! path of a Unix socket where it answers for freshness. The file alone is not enough for a
//! CLI query: it is rewritten by the owner's threads some time after an edit, so a command
//! run right after a write could read "fresh" of a revision without it. A CLI query asks the
//! socket instead ([`ask`]): the owner reads its file events to the end
//! ([`crate::tree_events::TreeEvents::sync`], which counts every write completed before the
//! question) and answers "fresh at R" only if R holds them all, after waiting up to the time
//! the question allows for the batch in flight. Without a live owner that answers (no file,
//! a dead process, a reused process ID, no socket, another revision) the CLI falls back to
//! the walk ([`crate::fresh`]).

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

/// The owner file, the file it is written through and the owner's socket: they belong to
/// the index, never to the tree (`--db` may put them inside the root).
pub fn owner_files(db: &Path) -> [PathBuf; 3] {
    let [a, b] = owner_files_of(&owner_path(db));
    [a, b, socket_path(db)]
}

/// Where the owner of the index at `db` listens: beside the index, or in the temporary
/// directory (named by a hash of the index path) when that path is too long for a socket.
pub fn socket_path(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_os_string();
    p.push(".sock");
    // sun_path holds 108 bytes on Linux, 104 on macOS, with the terminating NUL.
    if p.len() < 100 {
        return PathBuf::from(p);
    }
    let hash = blake3::hash(db.as_os_str().as_encoded_bytes()).to_hex();
    std::env::temp_dir().join(format!("codegraph-{}.sock", &hash[..24]))
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

/// The owner file of the index at `db`, if its process is alive.
fn live(db: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(owner_path(db)).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    let pid = u32::try_from(v["pid"].as_u64()?).ok()?;
    if start_ticks(pid)? != v["started"].as_u64()? {
        return None;
    }
    Some(v)
}

/// The claim the live owner of the index at `db` last wrote in its file, if there is one
/// (what `status` shows; a query asks with [`ask`], which is current).
pub fn read(db: &Path) -> Option<Claim> {
    claim_of(&live(db)?)
}

fn claim_of(v: &Value) -> Option<Claim> {
    match v["state"].as_str()? {
        "fresh" => Some(Claim::Fresh { revision: v["revision"].as_i64()? }),
        "pending" => Some(Claim::Pending),
        _ => None,
    }
}

/// The note of the live owner of the index at `db` (why its events are not published yet),
/// if there is a live owner and it left one.
pub fn note(db: &Path) -> Option<String> {
    live(db)?["note"].as_str().map(str::to_string)
}

/// The live owner's current word on the index at `db`, asked over its socket: it reads its
/// file events to the end first, so "fresh at R" means R holds every write completed before
/// this call. When events are pending it waits up to `wait` for them to be published before
/// it answers. `None` when no live owner answers (then only a walk can tell).
pub fn ask(db: &Path, wait: std::time::Duration) -> Option<Claim> {
    #[cfg(unix)]
    {
        use std::io::{BufRead, Write};
        let v = live(db)?;
        let sock = PathBuf::from(v["socket"].as_str()?);
        let mut stream = std::os::unix::net::UnixStream::connect(&sock).ok()?;
        let limit = wait + std::time::Duration::from_secs(2);
        stream.set_read_timeout(Some(limit)).ok()?;
        stream.set_write_timeout(Some(limit)).ok()?;
        writeln!(stream, "{}", json!({"wait_ms": wait.as_millis() as u64})).ok()?;
        let mut line = String::new();
        std::io::BufReader::new(stream).read_line(&mut line).ok()?;
        claim_of(&serde_json::from_str(&line).ok()?)
    }
    #[cfg(not(unix))]
    {
        let _ = (db, wait);
        None
    }
}

/// The longest wait a question may ask for.
const MAX_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

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
    /// The socket this owner answers on, once it serves.
    socket: Mutex<Option<PathBuf>>,
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
            socket: Mutex::new(None),
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

    /// Answers questions of CLI queries ([`ask`]) on the index's socket until released:
    /// `word(wait)` reads the file events to the end, waits up to `wait` while some are not
    /// published, and says what holds then. Where no socket can be served, the owner file
    /// names none and queries walk the tree.
    pub fn serve(
        &self,
        db: &Path,
        word: impl Fn(std::time::Duration) -> Claim + Send + Sync + 'static,
    ) {
        #[cfg(unix)]
        {
            let path = socket_path(db);
            // A socket left by a process that died; this process owns the index now.
            let _ = std::fs::remove_file(&path);
            let listener = match std::os::unix::net::UnixListener::bind(&path) {
                Ok(l) => l,
                Err(e) => {
                    tracing::warn!(path = %path.display(), "cannot serve freshness to CLI queries ({e}); they walk the tree");
                    return;
                }
            };
            let word = std::sync::Arc::new(word);
            let spawned = std::thread::Builder::new().name("codegraph-owner".into()).spawn({
                let path = path.clone();
                move || {
                    for conn in listener.incoming() {
                        // `release` connects once to wake this loop: the file is gone then.
                        if !path.exists() {
                            break;
                        }
                        let Ok(conn) = conn else { continue };
                        let word = word.clone();
                        let _ = std::thread::Builder::new()
                            .name("codegraph-owner-answer".into())
                            .spawn(move || answer(conn, &*word));
                    }
                }
            });
            if spawned.is_err() {
                let _ = std::fs::remove_file(&path);
                return;
            }
            *self.socket.lock().unwrap_or_else(|e| e.into_inner()) = Some(path);
            let current = self.state.lock().unwrap_or_else(|e| e.into_inner()).take();
            let (claim, note) = current.unwrap_or((Claim::Pending, None));
            self.set(claim, note.as_deref());
        }
        #[cfg(not(unix))]
        {
            let _ = (db, word);
        }
    }

    /// Gives the index up: removes the owner file (when it is still ours) and writes no more,
    /// though a watcher thread may still hold this owner for a moment.
    pub fn release(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        *state = Some((Claim::Pending, None));
        self.released.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(sock) = self.socket.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = std::fs::remove_file(&sock);
            #[cfg(unix)]
            let _ = std::os::unix::net::UnixStream::connect(&sock);
        }
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
        if let Some(sock) = &*self.socket.lock().unwrap_or_else(|e| e.into_inner()) {
            body["socket"] = json!(sock.display().to_string());
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

/// Answers one question on the owner's socket: `{"wait_ms": N}` in, the claim out.
#[cfg(unix)]
fn answer(conn: std::os::unix::net::UnixStream, word: &dyn Fn(std::time::Duration) -> Claim) {
    use std::io::{BufRead, Write};
    let _ = conn.set_read_timeout(Some(std::time::Duration::from_secs(2)));
    let mut line = String::new();
    let Ok(read) = conn.try_clone() else { return };
    if std::io::BufReader::new(read).read_line(&mut line).is_err() {
        return;
    }
    let wait = serde_json::from_str::<Value>(&line)
        .ok()
        .and_then(|v| v["wait_ms"].as_u64())
        .map_or(std::time::Duration::ZERO, std::time::Duration::from_millis)
        .min(MAX_WAIT);
    let body = match word(wait) {
        Claim::Fresh { revision } => json!({"state": "fresh", "revision": revision}),
        Claim::Pending => json!({"state": "pending"}),
    };
    let mut conn = conn;
    let _ = writeln!(conn, "{body}");
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

    /// A CLI query asks the owner over its socket: the owner's word with the wait it
    /// allowed; nothing once the owner is released (then the CLI walks).
    #[cfg(unix)]
    #[test]
    fn a_query_asks_the_owner_over_its_socket() {
        use std::time::Duration;
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("index.db");
        let owner = Owner::claim(&db).expect("this OS has /proc");
        assert_eq!(ask(&db, Duration::ZERO), None, "not serving yet");
        owner.serve(&db, |wait| {
            if wait >= Duration::from_millis(100) {
                Claim::Fresh { revision: 3 }
            } else {
                Claim::Pending
            }
        });
        assert_eq!(ask(&db, Duration::ZERO), Some(Claim::Pending));
        assert_eq!(ask(&db, Duration::from_millis(200)), Some(Claim::Fresh { revision: 3 }));
        assert_eq!(
            ask(&db, Duration::from_secs(60)),
            Some(Claim::Fresh { revision: 3 }),
            "waits are capped"
        );
        owner.release();
        assert_eq!(ask(&db, Duration::ZERO), None);
        assert!(!socket_path(&db).exists(), "the socket is removed");
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
