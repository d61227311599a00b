//! The scanner: which files of a code root are indexed, and why the others are not.
//!
//! `.gitignore` semantics (nested files, `.git/info/exclude`, global excludes) apply inside and
//! outside git repositories. `.git/`, `.mission/` and the index's own files are always skipped.
//! Symlinks are followed only while they stay inside the root; loops are detected by the walker.
//! Binary files (a NUL byte in the first 8 KiB) and files over the size limit are skipped;
//! invalid UTF-8 is decoded lossily. Every skip and every lossy decode is recorded with its
//! reason, never silently dropped.

use codegraph_db::FileMeta;
use codegraph_parse::Language;
use codegraph_query::Diagnostic;
use codegraph_schema::DiagnosticCode;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Default `--max-file-size`.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 1024 * 1024;

/// Names never indexed nor descended into, whether directories or files (a linked worktree's
/// `.git` is a file).
pub const ALWAYS_SKIPPED_DIRS: &[&str] = &[".git", ".mission"];

/// How many leading bytes are checked for NUL.
const BINARY_SNIFF: usize = 8 * 1024;

#[derive(Clone, Debug)]
pub struct ScanOptions {
    pub max_file_size: u64,
    /// Absolute paths never indexed (the index database and its WAL files).
    pub exclude: Vec<PathBuf>,
}

/// A file that will be indexed.
#[derive(Clone, Debug)]
pub struct ScannedFile {
    /// Root-relative, `/`-separated.
    pub path: String,
    pub language: Option<Language>,
    pub text: Arc<str>,
    pub meta: FileMeta,
    /// Modification time the walk saw (ns since the epoch, 0 when unknown).
    pub mtime_ns: i64,
}

#[cfg(test)]
#[derive(Debug, Default)]
pub struct ScanResult {
    /// Sorted by path.
    pub files: Vec<ScannedFile>,
    /// Skipped paths and notes, sorted by path.
    pub diagnostics: Vec<Diagnostic>,
    /// Symlinked directories inside the root that the walk followed ([`Walk::links`]).
    pub links: Vec<DirLink>,
}

/// A symlink to a directory inside the root: its files are indexed under the link's path
/// too, so an edit under the target must refresh the alias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirLink {
    /// Root-relative path of the link.
    pub alias: String,
    /// The canonical directory it resolves to.
    pub target: PathBuf,
}

/// Hex content hash of raw bytes: git's blob ID (SHA-1 of `blob <len>\0` and the bytes), so
/// that a clean file's hash can be taken from the git index without reading the file (see
/// [`crate::git::index_blobs`]) and sibling worktrees' indexes compare by git's own identity.
/// Plain SHA-1 (hardware-accelerated where the CPU has it, ~2 GB/s), not git's collision-
/// detecting variant: the hash only tells versions of a file apart.
pub fn content_hash(bytes: &[u8]) -> String {
    use sha1::{Digest, Sha1};
    let mut h = Sha1::new();
    h.update(format!("blob {}\0", bytes.len()).as_bytes());
    h.update(bytes);
    let digest = h.finalize();
    let mut out = String::with_capacity(40);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

pub fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let s = rel.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '/' {
        s.into_owned()
    } else {
        s.replace(std::path::MAIN_SEPARATOR, "/")
    }
}

/// An eligible file found by [`walk`], not read yet.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub abs: PathBuf,
    /// Root-relative, `/`-separated.
    pub rel: String,
    pub size: u64,
    /// Modification time in nanoseconds since the epoch (0 when unknown).
    pub mtime_ns: i64,
    /// The size limit of the walk: the read stops there whatever the file has become.
    pub max_size: u64,
}

impl Candidate {
    /// Does the walk's stat equal a recorded one? A recorded mtime of 0 (unknown, or racily
    /// clean) never matches: the file must be hashed.
    pub fn stat_matches(&self, size: u64, mtime_ns: i64) -> bool {
        mtime_ns != 0 && mtime_ns == self.mtime_ns && size == self.size
    }
}

/// What a walk found: eligible files (sorted by path) and skipped paths.
#[derive(Debug, Default)]
pub struct Walk {
    pub candidates: Vec<Candidate>,
    pub skips: Vec<Diagnostic>,
    /// Symlinked directories inside the root the walk went into, sorted by alias.
    pub links: Vec<DirLink>,
}

/// Walks `root` (already canonical) and reads every eligible file, in parallel: what a full
/// build reads (`index::full_build` streams the same [`walk`], [`read_file`] and
/// [`lossy_note`] into its parse workers instead), in one call for the scanner's tests.
#[cfg(test)]
pub fn scan(root: &Path, opts: &ScanOptions) -> ScanResult {
    use rayon::prelude::*;
    let walked = walk(root, opts, root, None);
    let results: Vec<Result<ScannedFile, Diagnostic>> =
        walked.candidates.into_par_iter().map(|c| read_file(&c)).collect();
    let mut out = ScanResult::default();
    let mut diagnostics = walked.skips;
    for r in results {
        match r {
            Ok(f) => {
                if let Some(d) = lossy_note(&f) {
                    diagnostics.push(d);
                }
                out.files.push(f);
            }
            Err(d) => diagnostics.push(d),
        }
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out.files.dedup_by(|a, b| a.path == b.path);
    sort_diagnostics(&mut diagnostics);
    out.diagnostics = diagnostics;
    out.links = walked.links;
    out
}

/// Sorts diagnostics by path (then code) and keeps one per (path, code): the order a scan
/// records them in.
pub fn sort_diagnostics(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort();
    diagnostics.dedup_by(|a, b| a.path == b.path && a.code == b.code);
}

/// The note recorded for a file decoded lossily.
pub fn lossy_note(f: &ScannedFile) -> Option<Diagnostic> {
    f.meta.lossy_utf8.then(|| lossy_diagnostic(&f.path))
}

/// The diagnostic of a file whose bytes were not valid UTF-8.
pub fn lossy_diagnostic(path: &str) -> Diagnostic {
    Diagnostic {
        path: path.to_string(),
        code: DiagnosticCode::LossyUtf8,
        detail: "not valid UTF-8; invalid bytes were replaced with U+FFFD".into(),
    }
}

/// The modification time to record for a file read at `read_start_ns`: 0 (unknown, so the
/// next scan hashes it) when it was modified within [`RACY_WINDOW_NS`] of the read or later,
/// since an edit within the same timestamp tick would otherwise go unnoticed.
pub fn recorded_mtime(mtime_ns: i64, read_start_ns: i64) -> i64 {
    if mtime_ns >= read_start_ns - RACY_WINDOW_NS { 0 } else { mtime_ns }
}

/// See [`recorded_mtime`].
pub const RACY_WINDOW_NS: i64 = 2_000_000_000;

/// Modification time of `meta` in nanoseconds since the epoch, 0 when unknown.
pub fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// Lists the eligible files under `start` (the root or a directory inside it), applying the
/// same rules as a full scan: ignore files of `start`'s parents included, so walking one
/// directory of the root gives exactly the files a full walk gives there. Only stats files.
/// `max_depth` 1 lists a directory's own files.
pub fn walk(root: &Path, opts: &ScanOptions, start: &Path, max_depth: Option<usize>) -> Walk {
    let skips: Arc<Mutex<Vec<Diagnostic>>> = Arc::default();
    let filter_root = root.to_path_buf();
    let filter_skips = skips.clone();
    let links: Arc<Mutex<Vec<DirLink>>> = Arc::default();
    let filter_links = links.clone();
    let exclude = opts.exclude.clone();
    let walker = ignore::WalkBuilder::new(start)
        .max_depth(max_depth)
        .hidden(false)
        .follow_links(true)
        .require_git(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .ignore(true)
        .parents(true)
        .filter_entry(move |entry| {
            let path = entry.path();
            // `.git` is a directory in a repository and a file (`gitdir: ...`) in a linked
            // worktree: neither is ever part of the graph.
            if path != filter_root
                && entry.file_name().to_str().is_some_and(|n| ALWAYS_SKIPPED_DIRS.contains(&n))
            {
                return false;
            }
            if exclude.iter().any(|e| e == path) {
                return false;
            }
            if entry.path_is_symlink() {
                let resolved = std::fs::canonicalize(path);
                if let Err(e) = &resolved
                    && is_loop(e)
                {
                    let rel = rel_path(&filter_root, path);
                    push(&filter_skips, rel, DiagnosticCode::SymlinkLoop, format!("{e}"));
                    return false;
                }
                let inside = resolved.as_ref().is_ok_and(|t| t.starts_with(&filter_root));
                if let Ok(target) = resolved.as_ref()
                    && inside
                    && target.is_dir()
                    && let Ok(mut l) = filter_links.lock()
                {
                    l.push(DirLink { alias: rel_path(&filter_root, path), target: target.clone() });
                }
                if !inside {
                    let target = std::fs::read_link(path)
                        .map_or_else(|_| "?".to_string(), |t| t.display().to_string());
                    if let Ok(mut s) = filter_skips.lock() {
                        s.push(Diagnostic {
                            path: rel_path(&filter_root, path),
                            code: DiagnosticCode::SymlinkOutsideRoot,
                            detail: format!("symlink to {target} leaves the root; not followed"),
                        });
                    }
                    return false;
                }
            }
            true
        })
        .build_parallel();
    // Directories are read and files stat-ed on every core (a freshness check of the Go
    // standard library stats ~8k files); the results are sorted below, so the order the
    // threads meet them in does not matter.
    let found: Mutex<Vec<Candidate>> = Mutex::new(Vec::new());
    walker.run(|| {
        let (found, skips) = (&found, &skips);
        Box::new(move |entry| {
            if let Some(c) = visit(root, opts, skips, entry) {
                found.lock().unwrap_or_else(|e| e.into_inner()).push(c);
            }
            ignore::WalkState::Continue
        })
    });
    let mut candidates = found.into_inner().unwrap_or_else(|e| e.into_inner());
    candidates.sort_by(|a, b| a.rel.cmp(&b.rel));
    candidates.dedup_by(|a, b| a.rel == b.rel);
    let mut skips = std::mem::take(&mut *skips.lock().unwrap_or_else(|e| e.into_inner()));
    sort_diagnostics(&mut skips);
    let mut links = std::mem::take(&mut *links.lock().unwrap_or_else(|e| e.into_inner()));
    links.sort_by(|a, b| a.alias.cmp(&b.alias));
    links.dedup();
    Walk { candidates, skips, links }
}

/// One entry of [`walk`]: the candidate it is, or nothing (a directory, a skip recorded in
/// `skips`).
fn visit(
    root: &Path,
    opts: &ScanOptions,
    skips: &Mutex<Vec<Diagnostic>>,
    entry: Result<ignore::DirEntry, ignore::Error>,
) -> Option<Candidate> {
    match entry {
        Ok(entry) => {
            let kind = entry.file_type()?;
            if !kind.is_file() {
                if let Some(what) = special_kind(kind) {
                    let rel = rel_path(root, entry.path());
                    push(skips, rel, DiagnosticCode::NotRegular, format!("{what}, not a file"));
                }
                return None;
            }
            if entry.path().strip_prefix(root).unwrap_or(entry.path()).to_str().is_none() {
                // Two names that differ only in invalid bytes would be one path as text.
                push(
                    skips,
                    escaped_path(entry.path().strip_prefix(root).unwrap_or(entry.path())),
                    DiagnosticCode::NonUtf8Name,
                    "the path is not valid UTF-8 (shown with \\xNN escapes); not indexed"
                        .to_string(),
                );
                return None;
            }
            let rel = rel_path(root, entry.path());
            let (size, mtime_ns) = match entry.metadata() {
                Ok(m) => (m.len(), mtime_ns(&m)),
                Err(e) => {
                    push(skips, rel, DiagnosticCode::Unreadable, format!("cannot stat: {e}"));
                    return None;
                }
            };
            if size > opts.max_file_size {
                push(
                    skips,
                    rel,
                    DiagnosticCode::TooLarge,
                    format!("{size} bytes exceeds --max-file-size {}", opts.max_file_size),
                );
                return None;
            }
            Some(Candidate {
                abs: entry.into_path(),
                rel,
                size,
                mtime_ns,
                max_size: opts.max_file_size,
            })
        }
        Err(err) => {
            record_walk_error(root, skips, &err);
            None
        }
    }
}

/// A FIFO, socket or device node (never indexed, and never opened: a FIFO blocks the reader,
/// a device can be endless); `None` for files, directories and symlinks.
fn special_kind(kind: std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device node");
        }
    }
    let _ = kind;
    None
}

/// A symlink chain that never ends (ELOOP), also when the walker wraps the OS error in its
/// own (the error it wraps, and that one's source, are looked at).
fn is_loop(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        let mut cur: Option<&(dyn std::error::Error + 'static)> = e.get_ref().map(|i| i as _);
        if e.raw_os_error() == Some(libc::ELOOP) {
            return true;
        }
        while let Some(inner) = cur {
            if inner
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.raw_os_error() == Some(libc::ELOOP))
            {
                return true;
            }
            cur = inner.source();
        }
        false
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// A path that is not valid UTF-8, written reversibly: valid text as it is, each byte of an
/// invalid sequence as `\xNN`.
fn escaped_path(path: &Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in path.as_os_str().as_bytes().utf8_chunks() {
            out.push_str(chunk.valid());
            for b in chunk.invalid() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().into_owned()
    }
}

/// A root-relative path for a message: `.` for the root itself.
fn shown(rel: &str) -> &str {
    if rel.is_empty() { "." } else { rel }
}

/// Reads `rel` under `root` (canonical) under the scanner's rules, at the moment of the read:
/// the path, symlinks resolved, must stay inside the root and name a regular file of at most
/// `max_size` bytes. What the index recorded is not trusted: the path may have been replaced
/// since (by a symlink to `/etc/passwd`, a FIFO, `/dev/zero`). The file is opened without
/// blocking (a FIFO swapped in after the check cannot hang the reader), checked again through
/// the open handle, and read no further than `max_size` bytes.
pub fn read_within(root: &Path, rel: &str, max_size: u64) -> Result<Vec<u8>, Diagnostic> {
    let refuse =
        |code: DiagnosticCode, detail: String| Diagnostic { path: rel.to_string(), code, detail };
    let abs = root.join(rel);
    let resolved = std::fs::canonicalize(&abs).map_err(|e| {
        if is_loop(&e) {
            refuse(DiagnosticCode::SymlinkLoop, format!("{e}"))
        } else {
            refuse(DiagnosticCode::Unreadable, format!("cannot resolve the path: {e}"))
        }
    })?;
    if !resolved.starts_with(root) {
        return Err(refuse(
            DiagnosticCode::SymlinkOutsideRoot,
            format!("now resolves to {}, outside the root; not read", resolved.display()),
        ));
    }
    read_regular(&resolved, max_size, 0, refuse)
}

/// Reads many files of one root as [`read_within`] does, each directory resolved once instead
/// of every path (resolving a path costs one `readlink` per component: ~64k system calls for
/// the Go standard library's files). The file itself is opened without following a symlink;
/// a symlinked file, or a directory that resolves outside the root, goes through
/// [`read_within`], which says why. One per thread.
pub struct WithinReader<'r> {
    root: &'r Path,
    /// Directory as joined -> where it resolves, if inside the root.
    dirs: std::collections::HashMap<PathBuf, Option<PathBuf>>,
}

impl<'r> WithinReader<'r> {
    /// `root` must be canonical (served and indexed roots are).
    pub fn new(root: &'r Path) -> WithinReader<'r> {
        WithinReader { root, dirs: std::collections::HashMap::new() }
    }

    pub fn read(&mut self, rel: &str, max_size: u64) -> Result<Vec<u8>, Diagnostic> {
        let abs = self.root.join(rel);
        let (Some(dir), Some(name)) = (abs.parent(), abs.file_name()) else {
            return read_within(self.root, rel, max_size);
        };
        let root = self.root;
        let resolved = self
            .dirs
            .entry(dir.to_path_buf())
            .or_insert_with(|| std::fs::canonicalize(dir).ok().filter(|d| d.starts_with(root)))
            .clone();
        let Some(resolved) = resolved else {
            return read_within(self.root, rel, max_size);
        };
        let refuse = |code: DiagnosticCode, detail: String| Diagnostic {
            path: rel.to_string(),
            code,
            detail,
        };
        #[cfg(unix)]
        let nofollow = libc::O_NOFOLLOW;
        #[cfg(not(unix))]
        let nofollow = 0;
        match read_regular(&resolved.join(name), max_size, nofollow, refuse) {
            // A file that could not be read this way (a symlink under O_NOFOLLOW, a missing or
            // unreadable file) is tried the long way, which resolves and checks a symlink and
            // says why.
            Err(d) if d.code == DiagnosticCode::Unreadable => read_within(self.root, rel, max_size),
            other => other,
        }
    }
}

/// Opens `path` without blocking, and reads it if the handle is a regular file of at most
/// `max_size` bytes, no further than that.
fn read_regular(
    path: &Path,
    max_size: u64,
    extra_flags: i32,
    refuse: impl Fn(DiagnosticCode, String) -> Diagnostic,
) -> Result<Vec<u8>, Diagnostic> {
    use std::io::Read;
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(libc::O_NONBLOCK | extra_flags);
    }
    #[cfg(not(unix))]
    let _ = extra_flags;
    let file = open
        .open(path)
        .map_err(|e| refuse(DiagnosticCode::Unreadable, format!("cannot open: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| refuse(DiagnosticCode::Unreadable, format!("cannot stat: {e}")))?;
    if !meta.is_file() {
        let what = special_kind(meta.file_type()).unwrap_or("a directory");
        return Err(refuse(
            DiagnosticCode::NotRegular,
            format!("now {what}, not a file; not read"),
        ));
    }
    let too_large = |size: u64| {
        refuse(DiagnosticCode::TooLarge, format!("{size} bytes exceeds the size limit {max_size}"))
    };
    if meta.len() > max_size {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_size.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(DiagnosticCode::Unreadable, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > max_size {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

fn push(skips: &Mutex<Vec<Diagnostic>>, path: String, code: DiagnosticCode, detail: String) {
    if let Ok(mut s) = skips.lock() {
        s.push(Diagnostic { path, code, detail });
    }
}

fn record_walk_error(root: &Path, skips: &Mutex<Vec<Diagnostic>>, err: &ignore::Error) {
    // Unwrap the context layers the walker adds to find the path and the kind of failure.
    let mut path: Option<&Path> = None;
    let mut cur = err;
    loop {
        match cur {
            ignore::Error::WithPath { path: p, err } => {
                path.get_or_insert(p.as_path());
                cur = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                cur = err
            }
            ignore::Error::Loop { child, ancestor } => {
                push(
                    skips,
                    rel_path(root, child),
                    DiagnosticCode::SymlinkLoop,
                    format!("symlink loop back to {}", shown(&rel_path(root, ancestor))),
                );
                return;
            }
            _ => break,
        }
    }
    let rel = path.map_or_else(|| "?".to_string(), |p| rel_path(root, p));
    let code = if cur.io_error().is_some_and(is_loop) {
        // Symlinks that point at each other: the walker's stat fails with ELOOP.
        DiagnosticCode::SymlinkLoop
    } else if cur.io_error().is_some() {
        DiagnosticCode::Unreadable
    } else {
        DiagnosticCode::WalkError
    };
    push(skips, rel, code, cur.to_string());
}

/// Reads one eligible file: binary sniff, hash, lossy decode, line count.
pub fn read_file(c: &Candidate) -> Result<ScannedFile, Diagnostic> {
    let rel = c.rel.clone();
    // What the walk saw may have been replaced since (a FIFO, a device): read it under the
    // same rules again.
    let bytes = read_regular(&c.abs, c.max_size, 0, |code, detail| Diagnostic {
        path: rel.clone(),
        code,
        detail,
    })?;
    if bytes[..bytes.len().min(BINARY_SNIFF)].contains(&0) {
        return Err(Diagnostic {
            path: rel,
            code: DiagnosticCode::Binary,
            detail: "NUL byte in the first 8 KiB".into(),
        });
    }
    let hash = content_hash(&bytes);
    // The bytes read, not the size the walk saw: the file may have changed in between.
    let bytes_len = bytes.len() as u64;
    let (text, lossy_utf8): (Arc<str>, bool) = match String::from_utf8(bytes) {
        Ok(s) => (Arc::from(s), false),
        Err(e) => (Arc::from(String::from_utf8_lossy(e.as_bytes()).into_owned()), true),
    };
    let lines = codegraph_db::line_count(&text);
    Ok(ScannedFile {
        language: Language::detect(&rel, &text),
        path: rel,
        text,
        meta: FileMeta { size: bytes_len, hash, lossy_utf8, lines },
        mtime_ns: c.mtime_ns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> ScanOptions {
        ScanOptions { max_file_size: DEFAULT_MAX_FILE_SIZE, exclude: Vec::new() }
    }

    fn write(root: &Path, rel: &str, bytes: &[u8]) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    fn paths(r: &ScanResult) -> Vec<&str> {
        r.files.iter().map(|f| f.path.as_str()).collect()
    }

    fn diags(r: &ScanResult) -> Vec<(String, DiagnosticCode)> {
        r.diagnostics.iter().map(|d| (d.path.clone(), d.code)).collect()
    }

    fn tmp() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        (dir, root)
    }

    #[test]
    fn gitignore_nested_and_info_exclude_outside_git() {
        let (_d, root) = tmp();
        write(&root, ".gitignore", b"*.log\nbuild/\n");
        write(&root, "a.ts", b"export const a = 1;\n");
        write(&root, "x.log", b"log\n");
        write(&root, "build/out.js", b"x\n");
        write(&root, "sub/.gitignore", b"secret.txt\n");
        write(&root, "sub/secret.txt", b"s\n");
        write(&root, "sub/keep.txt", b"k\n");
        write(&root, ".git/info/exclude", b"excluded.md\n");
        write(&root, ".git/HEAD", b"ref: refs/heads/main\n");
        write(&root, "excluded.md", b"# x\n");
        write(&root, ".mission/notes.md", b"# m\n");
        let r = scan(&root, &opts());
        assert_eq!(paths(&r), vec![".gitignore", "a.ts", "sub/.gitignore", "sub/keep.txt"]);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    }

    #[test]
    fn binary_large_and_invalid_utf8() {
        let (_d, root) = tmp();
        write(&root, "bin.dat", b"abc\0def");
        write(&root, "big.txt", &vec![b'a'; 2000]);
        write(&root, "latin1.go", b"package p\n// caf\xe9\n");
        let r = scan(&root, &ScanOptions { max_file_size: 1000, exclude: Vec::new() });
        assert_eq!(paths(&r), vec!["latin1.go"]);
        assert_eq!(r.files[0].text.as_ref(), "package p\n// caf\u{FFFD}\n");
        assert!(r.files[0].meta.lossy_utf8);
        assert_eq!(r.files[0].language, Some(Language::Go));
        assert_eq!(
            diags(&r),
            vec![
                ("big.txt".into(), DiagnosticCode::TooLarge),
                ("bin.dat".into(), DiagnosticCode::Binary),
                ("latin1.go".into(), DiagnosticCode::LossyUtf8),
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_loops_and_escapes() {
        let (_d, root) = tmp();
        let (_o, outside) = tmp();
        write(&outside, "secret.ts", b"export const s = 1;\n");
        write(&root, "src/a.ts", b"export const a = 1;\n");
        std::os::unix::fs::symlink(&outside, root.join("out")).unwrap();
        std::os::unix::fs::symlink(outside.join("secret.ts"), root.join("s.ts")).unwrap();
        std::os::unix::fs::symlink(&root, root.join("src/loop")).unwrap();
        std::os::unix::fs::symlink(root.join("src/a.ts"), root.join("alias.ts")).unwrap();
        std::os::unix::fs::symlink(root.join("missing"), root.join("dangling.ts")).unwrap();
        // Two links naming each other: a loop, not an unreadable file.
        std::os::unix::fs::symlink(root.join("y.ts"), root.join("x.ts")).unwrap();
        std::os::unix::fs::symlink(root.join("x.ts"), root.join("y.ts")).unwrap();
        // A FIFO: never opened (it would block the scan), recorded.
        let made = std::process::Command::new("mkfifo").arg(root.join("pipe.ts")).status();
        assert!(made.is_ok_and(|s| s.success()));
        let r = scan(&root, &opts());
        assert_eq!(paths(&r), vec!["alias.ts", "src/a.ts"]);
        assert_eq!(
            diags(&r),
            vec![
                // A dangling link fails in the walker's stat before any root check.
                ("dangling.ts".into(), DiagnosticCode::Unreadable),
                ("out".into(), DiagnosticCode::SymlinkOutsideRoot),
                ("pipe.ts".into(), DiagnosticCode::NotRegular),
                ("s.ts".into(), DiagnosticCode::SymlinkOutsideRoot),
                ("src/loop".into(), DiagnosticCode::SymlinkLoop),
                ("x.ts".into(), DiagnosticCode::SymlinkLoop),
                ("y.ts".into(), DiagnosticCode::SymlinkLoop),
            ]
        );
        let detail = |p: &str| r.diagnostics.iter().find(|d| d.path == p).unwrap().detail.clone();
        assert_eq!(detail("src/loop"), "symlink loop back to .");
        assert_eq!(detail("pipe.ts"), "a FIFO, not a file");
    }

    /// Names that differ only in bytes that are not UTF-8 would collapse into one path as
    /// text: they are skipped, each under its own escaped name, and a valid name stays.
    #[cfg(unix)]
    #[test]
    fn non_utf8_names_are_skipped_apart() {
        use std::os::unix::ffi::OsStrExt;
        let (_d, root) = tmp();
        for name in [&b"x\xff.ts"[..], b"x\xfe.ts", "x\u{FFFD}.ts".as_bytes()] {
            let path = root.join(std::ffi::OsStr::from_bytes(name));
            std::fs::write(path, b"export const v = 1;\n").unwrap();
        }
        let r = scan(&root, &opts());
        assert_eq!(paths(&r), vec!["x\u{FFFD}.ts"]);
        assert_eq!(
            diags(&r),
            vec![
                ("x\\xfe.ts".into(), DiagnosticCode::NonUtf8Name),
                ("x\\xff.ts".into(), DiagnosticCode::NonUtf8Name),
            ]
        );
    }

    /// Query-time reads (`open`): what the path is now, under the scanner's rules.
    #[cfg(unix)]
    #[test]
    fn reads_within_the_root_refuse_what_the_path_has_become() {
        let (_d, root) = tmp();
        let (_o, outside) = tmp();
        write(&outside, "secret.txt", b"secret\n");
        write(&root, "src/a.ts", b"export const a = 1;\n");
        write(&root, "big.ts", &[b'x'; 2000]);
        std::os::unix::fs::symlink(root.join("src/a.ts"), root.join("alias.ts")).unwrap();
        std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("s.ts")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join("zero.ts")).unwrap();
        std::os::unix::fs::symlink(root.join("y.ts"), root.join("x.ts")).unwrap();
        std::os::unix::fs::symlink(root.join("x.ts"), root.join("y.ts")).unwrap();
        let made = std::process::Command::new("mkfifo").arg(root.join("pipe.ts")).status();
        assert!(made.is_ok_and(|s| s.success()));
        let read = |rel: &str| read_within(&root, rel, 1000).map_err(|d| (d.code, d.detail));
        assert_eq!(read("src/a.ts").unwrap(), b"export const a = 1;\n");
        assert_eq!(read("alias.ts").unwrap(), b"export const a = 1;\n");
        let code = |rel: &str| read(rel).unwrap_err().0;
        assert_eq!(code("s.ts"), DiagnosticCode::SymlinkOutsideRoot);
        assert_eq!(code("zero.ts"), DiagnosticCode::SymlinkOutsideRoot);
        assert_eq!(code("x.ts"), DiagnosticCode::SymlinkLoop);
        assert_eq!(code("pipe.ts"), DiagnosticCode::NotRegular);
        assert_eq!(code("src"), DiagnosticCode::NotRegular);
        assert_eq!(code("missing.ts"), DiagnosticCode::Unreadable);
        assert_eq!(
            read("big.ts").unwrap_err(),
            (DiagnosticCode::TooLarge, "2000 bytes exceeds the size limit 1000".to_string())
        );
        // The root's own device files are refused too, whatever their path.
        assert_eq!(
            read_within(Path::new("/dev"), "zero", 1000).unwrap_err().code,
            DiagnosticCode::NotRegular
        );
        // A directory that leads outside the root.
        std::os::unix::fs::symlink(&outside, root.join("out")).unwrap();
        assert_eq!(code("out/secret.txt"), DiagnosticCode::SymlinkOutsideRoot);
        // The many-files reader (grep) answers exactly the same, each directory resolved once.
        let mut many = WithinReader::new(&root);
        for rel in [
            "src/a.ts",
            "alias.ts",
            "s.ts",
            "zero.ts",
            "x.ts",
            "pipe.ts",
            "src",
            "missing.ts",
            "big.ts",
            "out/secret.txt",
            "src/a.ts",
        ] {
            let one = read(rel).map_err(|e| e.0);
            assert_eq!(many.read(rel, 1000).map_err(|d| d.code), one, "{rel}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn unreadable_file_is_recorded() {
        use std::os::unix::fs::PermissionsExt;
        let (_d, root) = tmp();
        write(&root, "locked.ts", b"x\n");
        std::fs::set_permissions(root.join("locked.ts"), std::fs::Permissions::from_mode(0o000))
            .unwrap();
        let r = scan(&root, &opts());
        // Root can read anything; only assert when permissions are enforced.
        if std::fs::read(root.join("locked.ts")).is_err() {
            assert_eq!(diags(&r), vec![("locked.ts".into(), DiagnosticCode::Unreadable)]);
            assert!(r.files.is_empty());
        } else {
            assert_eq!(paths(&r), vec!["locked.ts"]);
        }
    }

    #[test]
    fn excluded_paths_are_skipped() {
        let (_d, root) = tmp();
        write(&root, "index.db", b"x");
        write(&root, "a.md", b"# a\n");
        let r =
            scan(&root, &ScanOptions { max_file_size: 1000, exclude: vec![root.join("index.db")] });
        assert_eq!(paths(&r), vec!["a.md"]);
    }

    #[test]
    fn a_worktree_git_file_is_never_indexed() {
        let (_d, root) = tmp();
        write(&root, ".git", b"gitdir: /elsewhere/.git/worktrees/wt1\n");
        write(&root, "sub/.git/HEAD", b"ref: refs/heads/main\n");
        write(&root, "a.md", b"# a\n");
        let r = scan(&root, &opts());
        assert_eq!(paths(&r), vec!["a.md"]);
    }

    #[test]
    fn content_hash_is_the_git_blob_id() {
        // `printf 'dist/\n' | git hash-object --stdin`, and git's ID of the empty blob.
        assert_eq!(content_hash(b"dist/\n"), "849ddff3b7ec917b5f4563e9a6d3ea63ea512a70");
        assert_eq!(content_hash(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
    }
}
