//! One copy of each derived value across the salsa databases of a process.
//!
//! Why it exists: `codegraph mcp` serves sibling worktrees of one repository from one process,
//! one salsa database each. Their files are mostly the same, so most of what each database
//! derives (a file's symbol IDs, its resolution, a Go package's declaration table) is equal,
//! value for value, to what a sibling's database already holds. [`share`] hands back the
//! sibling's allocation for an equal value, so the memos of N roots hold one copy and N
//! reference counts instead of N copies. It is hash-consing: the value is still computed in
//! each database (salsa's dependency tracking stays per database and exact); only its storage
//! is shared. Values are compared with `Eq`, never trusted by key alone, so sharing can only
//! save memory, never change an answer.

use rustc_hash::{FxBuildHasher, FxHashMap};
use std::any::{Any, TypeId};
use std::hash::{BuildHasher, Hash};
use std::sync::{Arc, Mutex, OnceLock, Weak};

type Slot = Vec<Weak<dyn Any + Send + Sync>>;

struct Table {
    /// (value type, slot key) -> the live values of that slot (one per distinct value).
    slots: FxHashMap<(TypeId, u64), Slot>,
    sweep_at: usize,
}

const SHARDS: usize = 16;

fn shards() -> &'static [Mutex<Table>] {
    static TABLES: OnceLock<Vec<Mutex<Table>>> = OnceLock::new();
    TABLES.get_or_init(|| {
        (0..SHARDS)
            .map(|_| Mutex::new(Table { slots: FxHashMap::default(), sweep_at: 1024 }))
            .collect()
    })
}

/// `value`, or an equal value another database of the process already holds. `key` names the
/// slot where equal values are looked for (a path, a directory): values of different slots
/// are never compared, so it must be something equal values share, and it keeps each
/// comparison to the few versions of one file or package alive at once.
pub(crate) fn share<T>(key: impl Hash, value: T) -> Arc<T>
where
    T: Eq + Send + Sync + 'static,
{
    let hash = FxBuildHasher.hash_one(&key);
    let shard = &shards()[(hash >> 58) as usize % SHARDS];
    let mut t = shard.lock().unwrap_or_else(|e| e.into_inner());
    let slot = t.slots.entry((TypeId::of::<T>(), hash)).or_default();
    for weak in slot.iter() {
        if let Some(found) = weak.upgrade().and_then(|a| a.downcast::<T>().ok())
            && *found == value
        {
            return found;
        }
    }
    let value = Arc::new(value);
    let erased: Arc<dyn Any + Send + Sync> = value.clone();
    slot.retain(|w| w.strong_count() > 0);
    slot.push(Arc::downgrade(&erased));
    if t.slots.len() >= t.sweep_at {
        t.slots.retain(|_, slot| {
            slot.retain(|w| w.strong_count() > 0);
            !slot.is_empty()
        });
        t.sweep_at = (t.slots.len() * 2).max(1024);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_of_a_slot_are_one_allocation_while_held() {
        let a = share("a.go", vec![1, 2, 3]);
        let b = share("a.go", vec![1, 2, 3]);
        assert!(Arc::ptr_eq(&a, &b));
        // Another value, another slot or another type is another allocation.
        assert!(!Arc::ptr_eq(&a, &share("a.go", vec![1, 2, 4])));
        assert!(!Arc::ptr_eq(&a, &share("b.go", vec![1, 2, 3])));
        let c: Arc<Vec<u64>> = share("a.go", vec![1, 2, 3]);
        assert_eq!(*c, vec![1, 2, 3]);
        // Once nothing holds it, an equal value is a new allocation (nothing is kept alive).
        let addr = Arc::as_ptr(&a) as usize;
        drop((a, b));
        let d = share("a.go", vec![7]);
        assert_eq!(*d, vec![7]);
        let e = share("a.go", vec![1, 2, 3]);
        assert_eq!(*e, vec![1, 2, 3]);
        assert_eq!(Arc::strong_count(&e), 1, "the table holds no strong reference ({addr:x})");
    }
}
