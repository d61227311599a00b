//! The shared snapshot store: an index published once (by a CI job on every push, say) serves
//! every machine that indexes the same repository, the way a build system's remote cache
//! serves compiled objects. This crate knows the store's layout, its transfers and their
//! checks; it knows nothing of git, SQLite or the engine (the engine says which commits to
//! look for and installs what comes back).
//!
//! Layout under the location's prefix:
//! - `codegraph/v1/blobs/<blake3>.zst`: a snapshot (an SQLite index, zstd-compressed), named by
//!   the BLAKE3 hash of its compressed bytes; immutable once written.
//! - `codegraph/v1/index/<scope>/<commit>.json`: a [`Manifest`] naming the blob of one commit.
//!   The scope ([`Scope::key`]) is a hash of what must match for a snapshot to be usable: the
//!   indexer version, the root's directory inside its repository and the scanner's file-size
//!   limit. A commit ID already names one tree of one repository, so the scope needs no name
//!   of the repository.
//!
//! A publish writes the blob first and the manifest last, each in one atomic write (a single
//! PUT, SET, or a write to a temporary file that is renamed), so a reader that finds a manifest
//! finds its whole blob, and a reader never sees half an entry. Nothing read is trusted: the
//! manifest must name the scope and commit asked for, the blob's length and hash must match
//! the manifest before it is decompressed, and the decompressed length must match too. Every
//! call to the store has a deadline ([`timeout`]); a store that refuses or hangs is an error
//! the caller turns into a note.

pub mod location;

pub use location::Location;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

/// The layout version in every key; a new layout gets new keys, never reinterprets old ones.
pub const LAYOUT: &str = "codegraph/v1";
/// The manifest format this build reads and writes.
pub const MANIFEST_FORMAT: u32 = 1;
/// Commits probed one by one on a store that cannot list (each probe is one round trip).
pub const MAX_PROBES: usize = 64;
/// Transfers move this many bytes per request, each with its own deadline.
const CHUNK: usize = 8 << 20;

#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    #[error("bad store URL: {0}")]
    Url(String),
    #[error("{0}")]
    Store(String),
    #[error("{0} did not answer within {1:?}")]
    Timeout(String, Duration),
    #[error("not usable: {0}")]
    Invalid(String),
    #[error("{action} {path}: {source}")]
    Io { action: &'static str, path: String, source: std::io::Error },
}

/// The deadline of each call to a store: `CODEGRAPH_CACHE_TIMEOUT_SECS` (fractions allowed),
/// else 10 s. A blob moves in 8 MiB requests, each with this deadline.
pub fn timeout() -> Duration {
    std::env::var("CODEGRAPH_CACHE_TIMEOUT_SECS")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .unwrap_or(Duration::from_secs(10))
}

/// What must match for a snapshot to seed a root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    /// The indexer and facts version that wrote the snapshot.
    pub indexer_version: String,
    /// The root's directory inside its repository, `/`-separated; empty for the top.
    pub subdir: String,
    /// The scanner's file-size limit the index was built with.
    pub max_file_size: u64,
}

impl Scope {
    /// The scope's directory name: 16 hex digits of a hash of its fields.
    pub fn key(&self) -> String {
        let mut h = blake3::Hasher::new();
        for part in [self.indexer_version.as_bytes(), self.subdir.as_bytes()] {
            h.update(part);
            h.update(&[0]);
        }
        h.update(&self.max_file_size.to_le_bytes());
        h.finalize().to_hex()[..16].to_string()
    }

    fn manifest_key(&self, commit: &str) -> String {
        format!("{LAYOUT}/index/{}/{commit}.json", self.key())
    }
}

/// The blob a manifest names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlobRef {
    pub key: String,
    /// BLAKE3 of the compressed bytes (hex).
    pub blake3: String,
    /// Compressed bytes.
    pub bytes: u64,
    /// Bytes of the SQLite file once decompressed.
    pub db_bytes: u64,
}

/// One published commit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub commit: String,
    #[serde(flatten)]
    pub scope: Scope,
    pub blob: BlobRef,
    /// Files in the published revision.
    pub files: u64,
    /// Unix seconds.
    pub published_at: u64,
    /// The codegraph that published it.
    pub tool: String,
}

/// What a publish did.
#[derive(Debug)]
pub struct Published {
    pub manifest: Manifest,
    pub manifest_key: String,
    /// False when the same blob was already in the store (content addressing).
    pub uploaded_blob: bool,
    /// False when an identical manifest was already there: nothing was written.
    pub wrote_manifest: bool,
}

/// What a download did.
#[derive(Debug)]
pub struct Downloaded {
    pub manifest: Manifest,
    pub bytes: u64,
    pub fetch: Duration,
    pub decompress: Duration,
}

/// A shared store, opened.
pub struct RemoteStore {
    location: Location,
    op: opendal::Operator,
    rt: tokio::runtime::Runtime,
    timeout: Duration,
}

impl std::fmt::Debug for RemoteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteStore").field("location", &self.location.label).finish()
    }
}

impl RemoteStore {
    /// Opens the store a URL names (no request is made yet).
    pub fn open(url: &str) -> Result<RemoteStore, RemoteError> {
        let location = Location::parse(url)?;
        let op = location.operator()?;
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(
            |source| RemoteError::Io { action: "start", path: "a runtime".into(), source },
        )?;
        Ok(RemoteStore { location, op, rt, timeout: timeout() })
    }

    /// The store's URL without credentials or parameters.
    pub fn label(&self) -> &str {
        &self.location.label
    }

    /// Runs one call to the store with the deadline.
    fn call<T>(
        &self,
        what: &str,
        fut: impl std::future::IntoFuture<Output = opendal::Result<T>>,
    ) -> Result<T, opendal::Error> {
        let deadline = self.timeout;
        match self
            .rt
            .block_on(async move { tokio::time::timeout(deadline, fut.into_future()).await })
        {
            Ok(r) => r,
            Err(_) => Err(opendal::Error::new(
                opendal::ErrorKind::Unexpected,
                format!(
                    "{what} on {} did not answer within {:?}",
                    self.location.label, self.timeout
                ),
            )
            .set_temporary()),
        }
    }

    fn err(&self, what: &str, e: opendal::Error) -> RemoteError {
        if e.to_string().contains("did not answer within") {
            return RemoteError::Timeout(format!("{} ({what})", self.location.label), self.timeout);
        }
        // OpenDAL's messages name the service's own paths and hosts, never its credentials.
        RemoteError::Store(format!("{what} on {}: {}", self.location.label, short(&e)))
    }

    /// Publishes the SQLite file `db` as `commit`'s snapshot in `scope`. Idempotent: a blob
    /// already there is not uploaded again, and an equal manifest is not rewritten.
    pub fn publish(
        &self,
        scope: &Scope,
        commit: &str,
        db: &Path,
        files: u64,
    ) -> Result<Published, RemoteError> {
        let raw = std::fs::read(db).map_err(|source| RemoteError::Io {
            action: "read",
            path: db.display().to_string(),
            source,
        })?;
        let compressed = compress(&raw)?;
        let hash = blake3::hash(&compressed).to_hex().to_string();
        let key = format!("{LAYOUT}/blobs/{hash}.zst");
        let blob = BlobRef {
            key: key.clone(),
            blake3: hash,
            bytes: compressed.len() as u64,
            db_bytes: raw.len() as u64,
        };
        drop(raw);
        let have_blob = match self.call("stat", self.op.stat(&key)) {
            Ok(m) => m.content_length() == blob.bytes,
            Err(e) if e.kind() == opendal::ErrorKind::NotFound => false,
            Err(e) => return Err(self.err("stat", e)),
        };
        if !have_blob {
            self.write(&key, compressed)?;
        }
        let manifest_key = scope.manifest_key(commit);
        let previous = self.read_manifest(&manifest_key).ok().flatten();
        let mut manifest = Manifest {
            format: MANIFEST_FORMAT,
            commit: commit.to_string(),
            scope: scope.clone(),
            blob,
            files,
            published_at: now_secs(),
            tool: concat!("codegraph ", env!("CARGO_PKG_VERSION")).to_string(),
        };
        // The same entry again (a re-run of the same CI job): leave it as it is.
        let same = previous
            .as_ref()
            .is_some_and(|p| Manifest { published_at: p.published_at, ..manifest.clone() } == *p);
        if same {
            manifest.published_at = previous.map_or(manifest.published_at, |p| p.published_at);
        } else {
            let text = serde_json::to_vec_pretty(&manifest)
                .map_err(|e| RemoteError::Invalid(format!("manifest: {e}")))?;
            self.write(&manifest_key, text)?;
        }
        Ok(Published { manifest, manifest_key, uploaded_blob: !have_blob, wrote_manifest: !same })
    }

    /// One atomic write of `bytes` at `key`, moved in chunks that each have the deadline.
    fn write(&self, key: &str, bytes: Vec<u8>) -> Result<(), RemoteError> {
        let mut writer = self
            .call("write", self.op.writer_with(key).chunk(CHUNK))
            .map_err(|e| self.err("write", e))?;
        let bytes = bytes::Bytes::from(bytes);
        for start in (0..bytes.len()).step_by(CHUNK) {
            let part = bytes.slice(start..(start + CHUNK).min(bytes.len()));
            self.call("write", writer.write(part)).map_err(|e| self.err("write", e))?;
        }
        self.call("write", writer.close()).map_err(|e| self.err("write", e))?;
        Ok(())
    }

    fn read_manifest(&self, key: &str) -> Result<Option<Manifest>, RemoteError> {
        let bytes = match self.call("read", self.op.read(key)) {
            Ok(b) => b.to_vec(),
            Err(e) if e.kind() == opendal::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.err("read", e)),
        };
        if bytes.len() > 1 << 20 {
            return Err(RemoteError::Invalid(format!(
                "{key}: a manifest of {} bytes",
                bytes.len()
            )));
        }
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| RemoteError::Invalid(format!("{key}: not a manifest ({e})")))
    }

    /// The manifest of the first of `commits` (nearest first) published in `scope`. A store
    /// that lists is listed once; one that does not is probed for the first [`MAX_PROBES`]
    /// commits. Manifests that do not name their own scope and commit are skipped, with the
    /// reason in `notes`.
    pub fn lookup(
        &self,
        scope: &Scope,
        commits: &[String],
        notes: &mut Vec<String>,
    ) -> Result<Option<Manifest>, RemoteError> {
        let candidates: Vec<&String> = if self.location.lists() {
            let dir = format!("{LAYOUT}/index/{}/", scope.key());
            let listed = match self.call("list", self.op.list(&dir)) {
                Ok(entries) => entries,
                Err(e) if e.kind() == opendal::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(self.err("list", e)),
            };
            let published: std::collections::HashSet<&str> =
                listed.iter().filter_map(|e| e.name().strip_suffix(".json")).collect();
            commits.iter().filter(|c| published.contains(c.as_str())).collect()
        } else {
            if commits.len() > MAX_PROBES {
                notes.push(format!(
                    "{} cannot list its entries: only the {MAX_PROBES} commits nearest HEAD were looked up",
                    self.location.label
                ));
            }
            commits.iter().take(MAX_PROBES).collect()
        };
        for commit in candidates {
            let key = scope.manifest_key(commit);
            match self.read_manifest(&key) {
                Ok(Some(m)) => {
                    if m.format != MANIFEST_FORMAT {
                        notes.push(format!(
                            "ignored {key}: manifest format {}, this reads {MANIFEST_FORMAT}",
                            m.format
                        ));
                    } else if &m.scope != scope || &m.commit != commit {
                        notes.push(format!(
                            "ignored {key}: describes another commit or scope ({})",
                            m.commit
                        ));
                    } else {
                        return Ok(Some(m));
                    }
                }
                Ok(None) => {}
                Err(RemoteError::Invalid(why)) => notes.push(format!("ignored {why}")),
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// Downloads the manifest's blob, checks its length and hash, and decompresses it to
    /// `dest` (replaced). On any failure `dest` is removed.
    pub fn download(&self, manifest: &Manifest, dest: &Path) -> Result<Downloaded, RemoteError> {
        let got = self.download_inner(manifest, dest);
        if got.is_err() {
            let _ = std::fs::remove_file(dest);
        }
        got
    }

    fn download_inner(&self, m: &Manifest, dest: &Path) -> Result<Downloaded, RemoteError> {
        let start = std::time::Instant::now();
        let expected_key = format!("{LAYOUT}/blobs/{}.zst", m.blob.blake3);
        if m.blob.key != expected_key || m.blob.blake3.len() != 64 {
            return Err(RemoteError::Invalid(format!(
                "manifest names blob {} for hash {}",
                m.blob.key, m.blob.blake3
            )));
        }
        let len = usize::try_from(m.blob.bytes).unwrap_or(usize::MAX);
        if len > 1 << 36 {
            return Err(RemoteError::Invalid(format!("a blob of {} bytes", m.blob.bytes)));
        }
        let mut data: Vec<u8> = Vec::with_capacity(len.min(1 << 30));
        let mut hasher = blake3::Hasher::new();
        let mut at = 0u64;
        while at < m.blob.bytes {
            let end = (at + CHUNK as u64).min(m.blob.bytes);
            let part = match self.call("read", self.op.read_with(&m.blob.key).range(at..end)) {
                Ok(b) => b.to_bytes(),
                Err(e) if e.kind() == opendal::ErrorKind::NotFound => {
                    return Err(RemoteError::Invalid(format!("blob {} is missing", m.blob.key)));
                }
                Err(e) if e.kind() == opendal::ErrorKind::RangeNotSatisfied => {
                    return Err(RemoteError::Invalid(format!(
                        "blob {} is shorter than its manifest says ({} bytes)",
                        m.blob.key, m.blob.bytes
                    )));
                }
                Err(e) => return Err(self.err("read", e)),
            };
            if part.is_empty() || part.len() as u64 > end - at {
                return Err(RemoteError::Invalid(format!(
                    "blob {} is not {} bytes long as its manifest says",
                    m.blob.key, m.blob.bytes
                )));
            }
            at += part.len() as u64;
            hasher.update(&part);
            data.extend_from_slice(&part);
        }
        if hasher.finalize().to_hex().as_str() != m.blob.blake3 {
            return Err(RemoteError::Invalid(format!(
                "blob {} does not hash to its name",
                m.blob.key
            )));
        }
        let fetch = start.elapsed();
        let io = |action| {
            let path = dest.display().to_string();
            move |source| RemoteError::Io { action, path, source }
        };
        let file = std::fs::File::create(dest).map_err(io("create"))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        let mut dec = zstd::stream::read::Decoder::new(&data[..]).map_err(io("decompress"))?;
        let written =
            std::io::copy(&mut (&mut dec).take(m.blob.db_bytes + 1), &mut out).map_err(|e| {
                RemoteError::Invalid(format!("blob {} does not decompress: {e}", m.blob.key))
            })?;
        out.flush().map_err(io("write"))?;
        if written != m.blob.db_bytes {
            return Err(RemoteError::Invalid(format!(
                "blob {} decompresses to {written} bytes, its manifest says {}",
                m.blob.key, m.blob.db_bytes
            )));
        }
        Ok(Downloaded {
            manifest: m.clone(),
            bytes: m.blob.bytes,
            fetch,
            decompress: start.elapsed() - fetch,
        })
    }
}

/// zstd at level 3 on every core: the Go standard library's index (~300 MB) compresses in
/// about a second to a fifth of its size and decompresses several times faster.
fn compress(raw: &[u8]) -> Result<Vec<u8>, RemoteError> {
    let io = |source| RemoteError::Io { action: "compress", path: "the snapshot".into(), source };
    let mut enc =
        zstd::stream::write::Encoder::new(Vec::with_capacity(raw.len() / 4), 3).map_err(io)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
    enc.multithread(threads).map_err(io)?;
    enc.write_all(raw).map_err(io)?;
    enc.finish().map_err(io)
}

fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// OpenDAL's error in one line: its kind and message, without the context dump.
fn short(e: &opendal::Error) -> String {
    let msg = e.message();
    let msg = msg.lines().next().unwrap_or("");
    if msg.is_empty() { e.kind().to_string() } else { format!("{} ({msg})", e.kind()) }
}
