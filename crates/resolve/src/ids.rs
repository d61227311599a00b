//! Node IDs as the resolver makes them: the grammar of `codegraph_schema::ids`
//! (`file:src/a.ts`, `sym:ts:src/a.ts:Server.start`, `pkg:go:net/http`), interned.
//!
//! IDs are [`Id`]s, interned process-wide ([`intern`]): a symbol's ID is one allocation however
//! many edges, unresolved sites, memos and sibling worktrees' databases name it.

use codegraph_parse::Language;
use codegraph_schema::ids;
use rustc_hash::{FxBuildHasher, FxHashSet};
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, OnceLock};

pub use codegraph_schema::Id;

/// `file:{path}` ([`ids::file`]), interned.
pub fn file_id(path: &str) -> Id {
    intern(&ids::file(path))
}

/// `sym:{tag}:{path}:{qualified_name}` plus `#n` for the n-th duplicate (n >= 2)
/// ([`ids::symbol`]), interned.
pub fn symbol_id(language: Language, path: &str, qualified_name: &str, occurrence: u32) -> Id {
    intern(&ids::symbol(language.id_tag(), path, qualified_name, occurrence))
}

/// `pkg:{tag}:{dir}` (`.` for the root directory) of a language with directory packages,
/// interned.
pub fn package_id(language: Language, dir: &str) -> Id {
    intern(&ids::package(language.id_tag(), dir))
}

/// The one [`Id`] of the process equal to `s`: every salsa database of the process (one per
/// served root) and every memo in it share it.
///
/// The table holds one reference of each ID; an ID nothing else holds any more is dropped at
/// the next sweep, which runs when the table has doubled since the last one (amortized O(1)
/// per call, and the table stays within twice the IDs alive).
pub fn intern(s: &str) -> Id {
    struct Table {
        set: FxHashSet<Id>,
        sweep_at: usize,
    }
    static SHARDS: OnceLock<Vec<Mutex<Table>>> = OnceLock::new();
    const SHARDS_N: usize = 16;
    let shards = SHARDS.get_or_init(|| {
        (0..SHARDS_N)
            .map(|_| Mutex::new(Table { set: FxHashSet::default(), sweep_at: 1024 }))
            .collect()
    });
    // The high bits pick the shard (the set's own table uses the low ones).
    let shard = (FxBuildHasher.hash_one(s) >> 58) as usize % SHARDS_N;
    let mut t = shards[shard].lock().unwrap_or_else(|e| e.into_inner());
    if let Some(id) = t.set.get(s) {
        return id.clone();
    }
    if t.set.len() >= t.sweep_at {
        t.set.retain(|id| Arc::strong_count(id) > 1);
        t.sweep_at = (t.set.len() * 2).max(1024);
    }
    let id: Id = Arc::from(s);
    t.set.insert(id.clone());
    id
}

/// Joins `rel` onto directory `dir` and normalises `.` / `..`; `None` when it climbs above the
/// root.
pub fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if dir.is_empty() { Vec::new() } else { dir.split('/').collect() };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The directory part of a root-relative path (`""` for a file at the root).
pub fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_shapes() {
        assert_eq!(&*file_id("src/a.ts"), "file:src/a.ts");
        assert_eq!(
            &*symbol_id(Language::TypeScript, "src/a.ts", "Server.start", 1),
            "sym:ts:src/a.ts:Server.start"
        );
        assert_eq!(&*symbol_id(Language::Go, "a.go", "init", 2), "sym:go:a.go:init#2");
        assert_eq!(&*package_id(Language::Go, "net/http"), "pkg:go:net/http");
        assert_eq!(&*package_id(Language::Go, ""), "pkg:go:.");
        assert_eq!(parent_dir("net/http/server.go"), "net/http");
        assert_eq!(parent_dir("main.go"), "");
    }

    #[test]
    fn equal_ids_are_one_allocation_while_held() {
        let a = symbol_id(Language::Go, "x/interned.go", "F", 1);
        let b = intern("sym:go:x/interned.go:F");
        assert!(Arc::ptr_eq(&a, &b));
        // Sweeps keep what is held and drop what is not.
        for i in 0..5000 {
            intern(&format!("garbage-{i}"));
        }
        assert!(Arc::ptr_eq(&a, &intern("sym:go:x/interned.go:F")));
    }
}
