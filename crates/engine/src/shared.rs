//! Facts shared by content within one process: sibling worktrees served by one `codegraph
//! mcp` hold mostly the same files, and a file's facts depend only on its bytes and its
//! language, so every root holding the same blob gets the same `Arc<FileFacts>` (one copy in
//! memory). Entries are weak: the facts live as long as some root's input holds them.

use codegraph_parse::{FileFacts, Language};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

type Key = (String, Option<Language>);

struct Table {
    facts: HashMap<Key, Weak<FileFacts>>,
    /// Dead entries are dropped when the table has doubled since the last sweep (a weak
    /// reference keeps its `FileFacts` allocation until dropped).
    sweep_at: usize,
}

fn table() -> &'static Mutex<Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(Table { facts: HashMap::new(), sweep_at: 1024 }))
}

/// The facts of the blob `hash` read as `language`: the copy another root holds when there is
/// one, else `make()`'s, remembered for the next root.
pub fn facts(
    hash: &str,
    language: Option<Language>,
    make: impl FnOnce() -> Option<FileFacts>,
) -> Option<Arc<FileFacts>> {
    let key = (hash.to_string(), language);
    if let Some(f) =
        table().lock().unwrap_or_else(|e| e.into_inner()).facts.get(&key).and_then(Weak::upgrade)
    {
        return Some(f);
    }
    let made = Arc::new(make()?);
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    // Another thread may have made the same facts meanwhile: keep one.
    if let Some(f) = t.facts.get(&key).and_then(Weak::upgrade) {
        return Some(f);
    }
    t.facts.insert(key, Arc::downgrade(&made));
    if t.facts.len() >= t.sweep_at {
        t.facts.retain(|_, w| w.strong_count() > 0);
        t.sweep_at = (t.facts.len() * 2).max(1024);
    }
    Some(made)
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
        let mut remade = false;
        facts("h1", Some(Language::Go), || {
            remade = true;
            Some(FileFacts::default())
        });
        assert!(remade, "dead entries are made again");
        assert!(facts("h2", None, || None).is_none());
    }
}
