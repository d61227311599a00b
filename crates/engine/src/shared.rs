//! Facts shared by content within one process: sibling worktrees served by one `codegraph
//! mcp` hold mostly the same files, and a file's facts depend only on its bytes and its
//! language, so every root holding the same blob gets the same `Arc<FileFacts>` (one copy in
//! memory). Entries are weak: the facts live as long as some holder keeps them. Inputs keep
//! facts encoded ([`codegraph_db::LazyFacts`]), so the last [`RECENT`] facts made here are
//! also held, for the queries that read a file's facts one after another (its rows, its
//! package's tables, its resolution) without decoding each time.

use codegraph_db::LazyFacts;
use codegraph_parse::{FileFacts, Language};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// How many recently made facts stay held (the Go standard library's average file's facts
/// take ~38 KB: ~20 MB).
const RECENT: usize = 512;

/// The facts of one blob, per language it was read as.
type Versions = Vec<(Option<Language>, Weak<FileFacts>)>;

struct Table {
    /// By content hash.
    facts: HashMap<String, Versions>,
    /// Encoded facts by content hash and language (restored roots' inputs hold them).
    blobs: HashMap<(String, Option<Language>), Weak<[u8]>>,
    /// Dead entries are dropped when the table has doubled since the last sweep (a weak
    /// reference keeps its `FileFacts` allocation until dropped).
    sweep_at: usize,
    recent: VecDeque<Arc<FileFacts>>,
}

impl Table {
    fn get(&self, hash: &str, language: Option<Language>) -> Option<Arc<FileFacts>> {
        self.facts.get(hash)?.iter().find(|(l, _)| *l == language).and_then(|(_, w)| w.upgrade())
    }
}

fn table() -> &'static Mutex<Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(|| {
        Mutex::new(Table {
            facts: HashMap::new(),
            blobs: HashMap::new(),
            sweep_at: 1024,
            recent: VecDeque::new(),
        })
    })
}

/// The facts of the blob `hash` read as `language`: the copy another holder keeps when there
/// is one, else `make()`'s, remembered for the next root.
pub fn facts(
    hash: &str,
    language: Option<Language>,
    make: impl FnOnce() -> Option<FileFacts>,
) -> Option<Arc<FileFacts>> {
    if let Some(f) = table().lock().unwrap_or_else(|e| e.into_inner()).get(hash, language) {
        return Some(f);
    }
    let made = Arc::new(make()?);
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    // Another thread may have made the same facts meanwhile: keep one.
    if let Some(f) = t.get(hash, language) {
        return Some(f);
    }
    let versions = t.facts.entry(hash.to_string()).or_default();
    versions.retain(|(_, w)| w.strong_count() > 0);
    versions.push((language, Arc::downgrade(&made)));
    if t.recent.len() == RECENT {
        t.recent.pop_front();
    }
    t.recent.push_back(Arc::clone(&made));
    sweep(&mut t);
    Some(made)
}

/// Drops dead entries once the table has doubled since the last sweep.
fn sweep(t: &mut Table) {
    if t.facts.len() + t.blobs.len() >= t.sweep_at {
        t.facts.retain(|_, versions| {
            versions.retain(|(_, w)| w.strong_count() > 0);
            !versions.is_empty()
        });
        t.blobs.retain(|_, w| w.strong_count() > 0);
        t.sweep_at = ((t.facts.len() + t.blobs.len()) * 2).max(1024);
    }
}

/// The encoded facts of the blob `hash` read as `language`: the copy another root holds when
/// there is one, else `bytes`, remembered for the next root (sibling worktrees restored by one
/// server hold one copy of each unchanged file's blob).
pub fn blob(hash: &str, language: Option<Language>, bytes: Vec<u8>) -> Arc<[u8]> {
    let key = (hash.to_string(), language);
    let held =
        table().lock().unwrap_or_else(|e| e.into_inner()).blobs.get(&key).and_then(Weak::upgrade);
    if let Some(b) = held
        && *b == *bytes
    {
        return b;
    }
    // Copied outside the lock: restores build their inputs on every core.
    let b: Arc<[u8]> = Arc::from(bytes);
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = t.blobs.get(&key).and_then(Weak::upgrade)
        && *found == *b
    {
        return found;
    }
    t.blobs.insert(key, Arc::downgrade(&b));
    sweep(&mut t);
    b
}

/// Decodes stored facts ([`LazyFacts`]' decoder): one copy per blob within the process. A
/// blob that does not decode (a damaged row) reads as no facts, with a warning.
pub fn decode(lazy: &LazyFacts) -> Arc<FileFacts> {
    facts(lazy.hash(), lazy.language(), || match codegraph_parse::decode_facts(lazy.bytes()) {
        Ok(facts) => Some(facts),
        Err(e) => {
            tracing::warn!(
                "the stored facts of the file with hash {} do not decode ({e:?}); read as none",
                lazy.hash()
            );
            Some(FileFacts::default())
        }
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_copy_per_blob_and_language_while_alive() {
        let a = facts("h1", Some(Language::Go), || Some(FileFacts::default())).expect("made");
        let b = facts("h1", Some(Language::Go), || panic!("must be shared")).expect("shared");
        assert!(Arc::ptr_eq(&a, &b));
        let c = facts("h1", Some(Language::TypeScript), || Some(FileFacts::default()))
            .expect("other language");
        assert!(!Arc::ptr_eq(&a, &c));
        drop((a, b));
        // Still held as a recent one.
        let d = facts("h1", Some(Language::Go), || panic!("recent")).expect("recent");
        drop(d);
        // Once RECENT others have been made since, it is made again.
        for i in 0..RECENT {
            facts(&format!("other{i}"), None, || Some(FileFacts::default()));
        }
        let mut remade = false;
        facts("h1", Some(Language::Go), || {
            remade = true;
            Some(FileFacts::default())
        });
        assert!(remade, "dead entries are made again");
        assert!(facts("h2", None, || None).is_none());
    }

    #[test]
    fn lazy_facts_decode_when_nobody_holds_them() {
        let text = "package p\n\nfunc F() { G() }\n";
        let made = codegraph_parse::analyze(Language::Go, text);
        let bytes = codegraph_parse::encode_facts(&made);
        let held = Arc::new(made.clone());
        let lazy =
            LazyFacts::new("lazy-h".into(), Some(Language::Go), bytes.into(), Some(&held), decode);
        // Facts at hand are handed out, not decoded.
        assert!(Arc::ptr_eq(&lazy.get(), &held));
        drop(held);
        let decoded = lazy.get();
        assert_eq!(*decoded, made);
        // A damaged blob reads as no facts.
        let bad = LazyFacts::new(
            "bad-h".into(),
            Some(Language::Go),
            blob("bad-h", None, vec![1, 2, 3]),
            None,
            decode,
        );
        // One copy of equal blobs while alive.
        assert!(Arc::ptr_eq(
            &blob("bad-h", None, vec![1, 2, 3]),
            &blob("bad-h", None, vec![1, 2, 3])
        ));
        assert_eq!(*bad.get(), FileFacts::default());
    }
}
