//! The engine's [`SnapshotStore`] over `codegraph-remote` (OpenDAL): the glue that keeps the
//! network client and its runtime out of the engine. A store is named by its URL and opened
//! for each call, so a bad URL or an unreachable service is an error of that call (a note for
//! the root being indexed), never of the command that named it.

use codegraph_engine::remote::{FetchError, SnapshotScope, SnapshotStore, StoredSnapshot};
use codegraph_remote::{Location, RemoteError, RemoteStore, Scope};
use std::path::Path;
use std::sync::Arc;

/// The environment variable that stands for `--cache-from`.
pub const CACHE_FROM_ENV: &str = "CODEGRAPH_CACHE_FROM";

/// A shared store named by a URL.
pub struct Remote {
    url: String,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URL may hold a password: print the label only.
        f.debug_struct("Remote").field("store", &self.label()).finish()
    }
}

impl Remote {
    pub fn new(url: &str) -> Remote {
        Remote { url: url.trim().to_string() }
    }
}

/// `--cache-from`, else `CODEGRAPH_CACHE_FROM` (empty means none).
pub fn cache_from(flag: Option<&str>) -> Option<Arc<dyn SnapshotStore>> {
    flag.map(str::to_string)
        .or_else(|| std::env::var(CACHE_FROM_ENV).ok())
        .filter(|s| !s.trim().is_empty())
        .map(|url| Arc::new(Remote::new(&url)) as Arc<dyn SnapshotStore>)
}

fn scope(s: &SnapshotScope) -> Scope {
    Scope {
        indexer_version: s.indexer_version.clone(),
        subdir: s.subdir.clone(),
        max_file_size: s.max_file_size,
    }
}

impl SnapshotStore for Remote {
    fn label(&self) -> String {
        Location::parse(&self.url)
            .map(|l| l.label)
            .unwrap_or_else(|_| "a store URL that does not parse".to_string())
    }

    fn publish(
        &self,
        s: &SnapshotScope,
        commit: &str,
        db: &Path,
        files: u64,
    ) -> Result<StoredSnapshot, String> {
        let store = RemoteStore::open(&self.url).map_err(|e| e.to_string())?;
        let done = store.publish(&scope(s), commit, db, files).map_err(|e| e.to_string())?;
        Ok(StoredSnapshot {
            blob: done.manifest.blob.key.clone(),
            manifest: done.manifest_key,
            db_bytes: done.manifest.blob.db_bytes,
            compressed_bytes: done.manifest.blob.bytes,
            uploaded_blob: done.uploaded_blob,
            wrote_manifest: done.wrote_manifest,
        })
    }

    fn fetch_nearest(
        &self,
        s: &SnapshotScope,
        commits: &[String],
        dest: &Path,
        notes: &mut Vec<String>,
    ) -> Result<Option<String>, FetchError> {
        let store = RemoteStore::open(&self.url).map_err(|e| FetchError::Store(e.to_string()))?;
        let Some(manifest) = store
            .lookup(&scope(s), commits, notes)
            .map_err(|e| FetchError::Store(e.to_string()))?
        else {
            return Ok(None);
        };
        match store.download(&manifest, dest) {
            Ok(got) => {
                tracing::debug!(
                    fetch = ?got.fetch, decompress = ?got.decompress, bytes = got.bytes,
                    "downloaded a snapshot"
                );
                Ok(Some(manifest.commit))
            }
            // An unreachable store mid-download is the store's failure, not the entry's.
            Err(e @ (RemoteError::Timeout(..) | RemoteError::Store(_))) => {
                Err(FetchError::Store(e.to_string()))
            }
            Err(e) => Err(FetchError::Entry { commit: manifest.commit, why: e.to_string() }),
        }
    }
}
