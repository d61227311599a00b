//! A root's file events, counted, with a barrier: the one source both the edit loop (what to
//! re-read) and every answer (is the published revision current?) take their word from.
//!
//! Why it exists: an answer may say `stale: false` only if every write made before the
//! request is in the revision it read. A watcher thread that reads events "soon" cannot
//! promise that: an agent that writes a file and asks at once may be answered before the
//! watcher thread has run (under load, 2-18 ms after a write, see issue 46). On Linux the
//! kernel queues an inotify event inside the `write` (or `rename`, `unlink`...) call itself,
//! so an event of every write that completed before a request is in the inotify queue when
//! the request is handled. [`TreeEvents::sync`] reads that queue to the end, on the caller's
//! thread, and returns how many batches of tree events were ever seen: a revision that
//! applied events up to that count reflects every such write. That costs one non-blocking
//! `read` (microseconds) when nothing happened.
//!
//! Every read of the queue happens under one lock, and events are counted under it, so an
//! event is either still in the kernel's queue or already counted: never in between. A
//! background thread waits for the queue to become readable (poll) and drains it the same
//! way, so the edit loop is woken without any answer asking.
//!
//! The watches: every directory of the tree (recursively, new directories as they appear,
//! without following symlinks: a linked directory inside the root is watched at its target,
//! whose events the engine maps to each alias), the top level of `.git` (HEAD, the index, so
//! a commit or checkout counts; for a linked worktree, the top level of the git directory its
//! `.git` file names), never below `.git` or the index's own files. A queue
//! overflow, or a directory that could not be watched, is reported as lost events (the edit
//! loop rescans the whole tree) and the latter makes the source inexact
//! ([`TreeEvents::exact`]): answers then judge freshness by a walk of the tree.
//!
//! Elsewhere (no inotify) events come from notify's recommended watcher through the same
//! queue; there [`TreeEvents::sync`] cannot reach into the OS's queue, so the count is only
//! as current as the watcher thread and [`TreeEvents::exact`] is false.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What the edit loop takes: the events of every batch up to `upto`.
#[derive(Debug, Default)]
pub struct Taken {
    /// The count of batches this take covers (compare with [`TreeEvents::sync`]).
    pub upto: u64,
    /// Paths named by the events (tree paths; `.git` ones only set `git_changed`).
    pub paths: Vec<PathBuf>,
    pub git_changed: bool,
    /// Events were lost (queue overflow, an unwatched directory, a watcher error): the
    /// whole tree must be rescanned.
    pub lost: bool,
    /// When the earliest of the events was read.
    pub first_event: Option<Instant>,
}

/// Called with the new count each time new tree events are counted.
type OnEvent = Box<dyn Fn(u64) + Send + Sync>;

struct Shared {
    root: PathBuf,
    /// A linked worktree's git directory (its `.git` file names it, outside the root): HEAD
    /// and the index of the worktree live there.
    gitdir: Option<PathBuf>,
    own: Vec<PathBuf>,
    queue: Mutex<Queue>,
    arrived: Condvar,
    stop: AtomicBool,
    on_event: OnEvent,
}

#[derive(Default)]
struct Queue {
    /// Batches of tree events counted so far; `taken`: up to which the edit loop took them.
    seq: u64,
    taken: u64,
    pending: Taken,
    last: Option<Instant>,
    /// Why the source is not exact any more (a directory could not be watched).
    inexact: Option<String>,
    #[cfg(target_os = "linux")]
    inotify: Option<inotify_source::Source>,
}

/// Events of one read of the OS's queue, before they are counted.
#[derive(Default)]
struct Drained {
    paths: Vec<PathBuf>,
    git: bool,
    lost: bool,
    inexact: Option<String>,
}

impl Drained {
    fn any(&self) -> bool {
        !self.paths.is_empty() || self.git || self.lost
    }
}

/// The counted events of one root; dropping it stops its watches.
pub struct TreeEvents {
    shared: Arc<Shared>,
    reader: Option<std::thread::JoinHandle<()>>,
    _notify: Option<notify::RecommendedWatcher>,
    exact: bool,
}

impl TreeEvents {
    /// Watches `root`; `own` are the index's files (never tree events, even inside the root);
    /// `on_event` is called (outside the lock) with the new count whenever events are counted.
    pub fn start(
        root: &Path,
        own: Vec<PathBuf>,
        on_event: impl Fn(u64) + Send + Sync + 'static,
    ) -> anyhow::Result<TreeEvents> {
        #[cfg(target_os = "linux")]
        {
            TreeEvents::start_inotify(root, own, Box::new(on_event))
        }
        #[cfg(not(target_os = "linux"))]
        {
            TreeEvents::start_notify(root, own, Box::new(on_event))
        }
    }

    fn shared(root: &Path, own: Vec<PathBuf>, on_event: OnEvent) -> Arc<Shared> {
        Arc::new(Shared {
            root: root.to_path_buf(),
            gitdir: linked_gitdir(root),
            own,
            queue: Mutex::new(Queue::default()),
            arrived: Condvar::new(),
            stop: AtomicBool::new(false),
            on_event,
        })
    }

    #[cfg(target_os = "linux")]
    fn start_inotify(root: &Path, own: Vec<PathBuf>, on_event: OnEvent) -> anyhow::Result<Self> {
        let shared = TreeEvents::shared(root, own, on_event);
        let source =
            inotify_source::Source::new(&shared.root, shared.gitdir.as_deref(), &shared.own)?;
        let wake = source.poll_handle()?;
        shared.lock().inotify = Some(source);
        let me = shared.clone();
        let reader =
            std::thread::Builder::new().name("codegraph-events".to_string()).spawn(move || {
                while !me.stop.load(Ordering::SeqCst) {
                    if inotify_source::readable(&wake, Duration::from_millis(100)) {
                        me.drain();
                    }
                }
            })?;
        Ok(TreeEvents { shared, reader: Some(reader), _notify: None, exact: true })
    }

    /// The portable source: notify's recommended watcher feeding the same queue (its thread
    /// counts events when it reads them, so [`TreeEvents::sync`] is no barrier here).
    pub fn start_notify(
        root: &Path,
        own: Vec<PathBuf>,
        on_event: impl Fn(u64) + Send + Sync + 'static,
    ) -> anyhow::Result<Self> {
        use notify::Watcher;
        let shared = TreeEvents::shared(root, own, Box::new(on_event));
        let me = Arc::downgrade(&shared);
        let mut watcher =
            notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
                let Some(me) = me.upgrade() else { return };
                let mut d = Drained::default();
                match res {
                    Err(_) => d.lost = true,
                    Ok(e) if crate::watch::is_read(&e.kind) => {}
                    Ok(e) => {
                        if e.need_rescan() || e.paths.is_empty() {
                            d.lost = true;
                        }
                        for p in e.paths {
                            me.sort_path(p, &mut d);
                        }
                    }
                }
                me.count(me.lock(), d);
            })?;
        watcher.watch(root, notify::RecursiveMode::Recursive)?;
        if let Some(g) = &shared.gitdir {
            watcher.watch(g, notify::RecursiveMode::NonRecursive)?;
        }
        Ok(TreeEvents { shared, reader: None, _notify: Some(watcher), exact: false })
    }

    /// Reads the OS's queue to the end and returns the count of event batches seen so far:
    /// every file change that completed before this call is counted in it (where
    /// [`TreeEvents::exact`]).
    pub fn sync(&self) -> u64 {
        self.shared.drain()
    }

    /// Whether [`TreeEvents::sync`] is a barrier (inotify, every directory watched).
    pub fn exact(&self) -> bool {
        self.exact && self.shared.lock().inexact.is_none()
    }

    /// Why the source is not exact, if it is not.
    pub fn inexact_reason(&self) -> Option<String> {
        if !self.exact {
            return Some("the platform's file watcher counts events on its own thread".into());
        }
        self.shared.lock().inexact.clone()
    }

    /// Waits up to `timeout` for events the edit loop has not taken; whether there are some.
    pub fn wait(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut q = self.shared.lock();
        loop {
            if q.seq > q.taken {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            q = self
                .shared
                .arrived
                .wait_timeout(q, deadline - now)
                .map_or_else(|p| p.into_inner().0, |r| r.0);
        }
    }

    /// How long ago the last event was counted, and the first not yet taken (for debouncing).
    pub fn ages(&self) -> (Option<Duration>, Option<Duration>) {
        let q = self.shared.lock();
        (q.last.map(|t| t.elapsed()), q.pending.first_event.map(|t| t.elapsed()))
    }

    /// Up to `max` paths of events counted but not taken yet (what an answer that says
    /// `stale` names), without taking them.
    pub fn untaken_paths(&self, max: usize) -> Vec<PathBuf> {
        let q = self.shared.lock();
        let mut paths: Vec<PathBuf> = q.pending.paths.iter().take(max).cloned().collect();
        paths.sort();
        paths.dedup();
        paths
    }

    /// Takes every event counted so far (after reading the OS's queue to the end).
    pub fn take(&self) -> Taken {
        self.shared.drain();
        let mut q = self.shared.lock();
        let mut taken = std::mem::take(&mut q.pending);
        taken.upto = q.seq;
        q.taken = q.seq;
        taken.paths.sort();
        taken.paths.dedup();
        taken
    }
}

impl Drop for TreeEvents {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads the OS's queue (inotify) under the lock and counts what it held.
    fn drain(&self) -> u64 {
        #[cfg(target_os = "linux")]
        {
            let mut q = self.lock();
            let mut d = Drained::default();
            if let Some(source) = q.inotify.as_mut() {
                source.drain(self, &mut d);
            }
            self.count(q, d)
        }
        #[cfg(not(target_os = "linux"))]
        {
            self.lock().seq
        }
    }

    /// Counts one batch of events under the held lock, then (outside it) wakes the edit loop
    /// and tells `on_event`; returns the count.
    fn count(&self, mut q: MutexGuard<'_, Queue>, d: Drained) -> u64 {
        let counted = self.count_locked(&mut q, d);
        let seq = q.seq;
        drop(q);
        if counted.is_some() {
            self.arrived.notify_all();
            (self.on_event)(seq);
        }
        seq
    }

    fn count_locked(&self, q: &mut Queue, mut d: Drained) -> Option<u64> {
        if let Some(why) = d.inexact.take()
            && q.inexact.is_none()
        {
            tracing::warn!(root = %self.root.display(), "{why}; answers check freshness by walking the tree");
            q.inexact = Some(why);
        }
        if !d.any() {
            return None;
        }
        let now = Instant::now();
        q.seq += 1;
        q.last = Some(now);
        q.pending.first_event.get_or_insert(now);
        q.pending.paths.extend(d.paths);
        q.pending.git_changed |= d.git;
        q.pending.lost |= d.lost;
        Some(q.seq)
    }

    /// Files a path to the tree, to `.git`, or nowhere (the index's own files, `.mission`).
    fn sort_path(&self, p: PathBuf, d: &mut Drained) {
        if self.own.iter().any(|o| p == *o || p.starts_with(o)) {
            return;
        }
        if self.gitdir.as_ref().is_some_and(|g| p.starts_with(g)) {
            d.git = true;
            return;
        }
        let Ok(rel) = p.strip_prefix(&self.root) else {
            return;
        };
        let mut parts = rel.components().filter_map(|c| c.as_os_str().to_str());
        match parts.next() {
            Some(".git") => d.git = true,
            Some(first)
                if std::iter::once(first)
                    .chain(parts)
                    .any(|n| crate::scan::ALWAYS_SKIPPED_DIRS.contains(&n)) => {}
            _ => d.paths.push(p),
        }
    }
}

/// The git directory a linked worktree's `.git` file names (`gitdir: PATH`), if it is one.
fn linked_gitdir(root: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(root.join(".git")).ok()?;
    let dir = Path::new(text.strip_prefix("gitdir:")?.trim());
    let dir = if dir.is_absolute() { dir.to_path_buf() } else { root.join(dir) };
    std::fs::canonicalize(dir).ok().filter(|d| d.is_dir())
}

#[cfg(target_os = "linux")]
mod inotify_source {
    //! The inotify side: the watch table, and turning raw events into tree paths.

    use super::{Drained, Shared};
    use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask};
    use std::collections::HashMap;
    use std::os::fd::{AsFd, OwnedFd};
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    pub struct Source {
        inotify: Inotify,
        dirs: HashMap<WatchDescriptor, PathBuf>,
        root_wd: Option<WatchDescriptor>,
        buf: Vec<u8>,
    }

    fn dir_mask() -> WatchMask {
        WatchMask::MODIFY
            | WatchMask::CREATE
            | WatchMask::DELETE
            | WatchMask::MOVED_FROM
            | WatchMask::MOVED_TO
            | WatchMask::DELETE_SELF
            | WatchMask::MOVE_SELF
            | WatchMask::ONLYDIR
            | WatchMask::DONT_FOLLOW
            | WatchMask::EXCL_UNLINK
    }

    /// Whether `fd` became readable within `timeout`.
    pub fn readable(fd: &OwnedFd, timeout: Duration) -> bool {
        let mut fds = [rustix::event::PollFd::new(fd, rustix::event::PollFlags::IN)];
        let ts = rustix::event::Timespec {
            tv_sec: timeout.as_secs() as i64,
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        matches!(rustix::event::poll(&mut fds, Some(&ts)), Ok(n) if n > 0)
    }

    impl Source {
        pub fn new(root: &Path, gitdir: Option<&Path>, own: &[PathBuf]) -> std::io::Result<Source> {
            let inotify = Inotify::init()?;
            let mut s =
                Source { inotify, dirs: HashMap::new(), root_wd: None, buf: vec![0; 64 * 1024] };
            s.root_wd = Some(s.add_tree(root, root, own)?);
            let git = root.join(".git");
            if git.is_dir() {
                // Only the top level: HEAD, the index and packed refs change there on a
                // commit or checkout; objects and logs below are not the tree.
                let wd = s.inotify.watches().add(&git, dir_mask())?;
                s.dirs.insert(wd, git);
            }
            if let Some(g) = gitdir {
                // A linked worktree: its HEAD and index, at the top of its git directory.
                let wd = s.inotify.watches().add(g, dir_mask())?;
                s.dirs.insert(wd, g.to_path_buf());
            }
            Ok(s)
        }

        /// A second descriptor of the same queue, for the waiting thread's poll.
        pub fn poll_handle(&self) -> std::io::Result<OwnedFd> {
            Ok(rustix::io::dup(self.inotify.as_fd())?)
        }

        /// Watches `dir` and every directory below it (not `.git`, not the always-skipped
        /// ones, not through symlinks); returns `dir`'s watch. A directory gone meanwhile
        /// is skipped; any other failure (the watch limit) is the caller's.
        fn add_tree(
            &mut self,
            root: &Path,
            dir: &Path,
            own: &[PathBuf],
        ) -> std::io::Result<WatchDescriptor> {
            let top = self.inotify.watches().add(dir, dir_mask())?;
            self.dirs.insert(top.clone(), dir.to_path_buf());
            let mut stack = vec![dir.to_path_buf()];
            while let Some(d) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&d) else { continue };
                for e in entries.flatten() {
                    if !e.file_type().is_ok_and(|t| t.is_dir()) {
                        continue;
                    }
                    let p = e.path();
                    let name = e.file_name();
                    let skipped = name
                        .to_str()
                        .is_some_and(|n| crate::scan::ALWAYS_SKIPPED_DIRS.contains(&n));
                    if skipped || own.contains(&p) || p.strip_prefix(root).is_err() {
                        continue;
                    }
                    match self.inotify.watches().add(&p, dir_mask()) {
                        Ok(wd) => {
                            self.dirs.insert(wd, p.clone());
                            stack.push(p);
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            Ok(top)
        }

        /// Forgets the watches of `dir` and below (moved away: their events would name the
        /// old paths).
        fn forget_tree(&mut self, dir: &Path) {
            let gone: Vec<WatchDescriptor> = self
                .dirs
                .iter()
                .filter(|(_, p)| p.starts_with(dir))
                .map(|(w, _)| w.clone())
                .collect();
            for wd in gone {
                self.dirs.remove(&wd);
                let _ = self.inotify.watches().remove(wd);
            }
        }

        /// Reads every queued event (non-blocking) into `d`.
        pub fn drain(&mut self, shared: &Shared, d: &mut Drained) {
            let mut new_dirs: Vec<PathBuf> = Vec::new();
            let mut moved_away: Vec<PathBuf> = Vec::new();
            loop {
                let events = match self.inotify.read_events(&mut self.buf) {
                    Ok(events) => events,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(e) => {
                        tracing::warn!(error = %e, "reading file events failed; rescanning");
                        d.lost = true;
                        break;
                    }
                };
                let mut any = false;
                for ev in events {
                    any = true;
                    if ev.mask.contains(EventMask::Q_OVERFLOW) {
                        d.lost = true;
                        continue;
                    }
                    if ev.mask.contains(EventMask::IGNORED) {
                        self.dirs.remove(&ev.wd);
                        continue;
                    }
                    let Some(dir) = self.dirs.get(&ev.wd) else { continue };
                    let path = match ev.name {
                        Some(name) => dir.join(name),
                        None => {
                            // The watched directory itself was deleted or moved: its parent's
                            // event names it too; the root's own means everything is lost.
                            if self.root_wd.as_ref() == Some(&ev.wd) {
                                d.lost = true;
                            }
                            continue;
                        }
                    };
                    if ev.mask.contains(EventMask::ISDIR) {
                        if ev.mask.intersects(EventMask::CREATE | EventMask::MOVED_TO) {
                            new_dirs.push(path.clone());
                        } else if ev.mask.contains(EventMask::MOVED_FROM) {
                            moved_away.push(path.clone());
                        }
                    }
                    shared.sort_path(path, d);
                }
                if !any {
                    break;
                }
            }
            for dir in moved_away {
                self.forget_tree(&dir);
            }
            for dir in new_dirs {
                let tree = dir.strip_prefix(&shared.root).is_ok_and(|r| {
                    !r.components().any(|c| {
                        c.as_os_str()
                            .to_str()
                            .is_some_and(|n| crate::scan::ALWAYS_SKIPPED_DIRS.contains(&n))
                    })
                });
                if !tree || shared.own.contains(&dir) || !dir.is_dir() {
                    continue;
                }
                if let Err(e) = self.add_tree(&shared.root, &dir, &shared.own) {
                    // Files in it may change unseen from now on: rescan now, and let answers
                    // walk the tree.
                    d.lost = true;
                    d.inexact = Some(format!(
                        "cannot watch {} ({e}): file events may be missed",
                        dir.display()
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(root: &Path, own: Vec<PathBuf>) -> TreeEvents {
        TreeEvents::start(root, own, |_| {}).expect("watch")
    }

    fn canonical_tempdir() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        (dir, root)
    }

    /// The barrier: a write that returned is counted by the next sync, with no wait at all.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_completed_write_is_counted_by_the_next_sync() {
        let (_dir, root) = canonical_tempdir();
        let events = start(&root, Vec::new());
        assert!(events.exact());
        let mut last = events.sync();
        for i in 0..200 {
            std::fs::write(root.join("a.go"), format!("package a // {i}\n")).expect("write");
            let now = events.sync();
            assert!(now > last, "write {i} not counted at once");
            last = now;
        }
        let taken = events.take();
        assert_eq!(taken.upto, last);
        assert_eq!(taken.paths, vec![root.join("a.go")]);
        assert!(!taken.lost && !taken.git_changed);
        assert_eq!(events.take().paths, Vec::<PathBuf>::new(), "taken once");
    }

    /// New directories are watched as they appear (and files written into them before the
    /// watch was added are named by the directory's own event); a moved directory's events
    /// name its new place; `.git` only flags git; the index's own files are never events.
    #[cfg(target_os = "linux")]
    #[test]
    fn new_and_moved_directories_git_and_own_files() {
        let (_dir, root) = canonical_tempdir();
        std::fs::create_dir_all(root.join(".git/objects/ab")).expect("git dirs");
        let own = root.join("index.db");
        let events = start(&root, vec![own.clone()]);
        std::fs::create_dir_all(root.join("d/x")).expect("mkdir");
        events.sync();
        std::fs::write(root.join("d/x/f.go"), "package x\n").expect("write");
        events.sync();
        let taken = events.take();
        assert_eq!(taken.paths, vec![root.join("d"), root.join("d/x/f.go")]);
        std::fs::rename(root.join("d"), root.join("e")).expect("mv");
        events.sync();
        std::fs::write(root.join("e/x/f.go"), "package x // moved\n").expect("write");
        let before = events.sync();
        let taken = events.take();
        assert_eq!(taken.paths, vec![root.join("d"), root.join("e"), root.join("e/x/f.go")]);
        std::fs::write(&own, "not a tree file").expect("write own");
        std::fs::write(root.join(".git/objects/ab/cd"), "object").expect("write object");
        assert_eq!(events.sync(), before, "own files and .git below its top level are no events");
        std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/x\n").expect("write HEAD");
        assert!(events.sync() > before);
        let taken = events.take();
        assert!(taken.git_changed && taken.paths.is_empty() && !taken.lost);
    }

    /// A linked worktree's HEAD lives in the git directory its `.git` file names: a checkout
    /// there counts as a git change.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_linked_worktrees_head_counts() {
        let (_dir, base) = canonical_tempdir();
        let (root, gitdir) = (base.join("wt"), base.join("repo.git/worktrees/wt"));
        std::fs::create_dir_all(&root).expect("mkdir");
        std::fs::create_dir_all(&gitdir).expect("mkdir");
        std::fs::write(root.join(".git"), "gitdir: ../repo.git/worktrees/wt\n").expect("write");
        let events = start(&root, Vec::new());
        let before = events.sync();
        std::fs::write(gitdir.join("HEAD"), "ref: refs/heads/other\n").expect("write HEAD");
        assert!(events.sync() > before);
        let taken = events.take();
        assert!(taken.git_changed && taken.paths.is_empty(), "{taken:?}");
    }

    /// The portable source counts on notify's thread: a write is counted soon, not at once.
    #[test]
    fn the_notify_source_counts_writes_soon() {
        let (_dir, root) = canonical_tempdir();
        let events = TreeEvents::start_notify(&root, Vec::new(), |_| {}).expect("watch");
        assert!(!events.exact());
        std::fs::write(root.join("a.go"), "package a\n").expect("write");
        assert!(events.wait(Duration::from_secs(10)), "counted within 10 s");
        let taken = events.take();
        assert!(taken.paths.contains(&root.join("a.go")), "{:?}", taken.paths);
    }
}
