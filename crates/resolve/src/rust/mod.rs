//! Rust resolution: paths through modules (`crate::`, `self::`, `super::`, the crates of the
//! workspace by name), `use` leaves (renames, globs, `pub use` re-exports followed across
//! modules), items nested in functions, and calls by the receiver's type: written types of
//! parameters, `let`s, fields and return types (`Self` is the impl's type), struct literals,
//! `?` and the std containers (`Option`, `Result`, `Vec`, maps, iterators, smart pointers read
//! through), generic parameters through their trait bounds, `dyn`/`impl Trait`.
//!
//! Rules for a call:
//! - `f()`: a local binding named `f` (a closure) is a value call (unresolved, as the oracle
//!   leaves it); then an item nested in the enclosing functions, the file's module items, its
//!   `use` leaves, its glob imports; a tuple struct or variant constructs it (the struct, the
//!   variant);
//! - `a::b::f()`: the path, segment by segment: modules, then types (`Type::f`: its inherent
//!   impls' items, then its trait impls', then the default items of the traits it
//!   implements), enums' variants, traits' items (`Trait::m`: the trait's declaration);
//! - `x.m()`: the type of `x`, then `m` among its methods as for `Type::m`; a trait type (a
//!   generic parameter's bounds, `dyn Tr`, `impl Tr`, `self` in a trait) gives the trait's
//!   declaration; a smart pointer (`Box`, `Rc`, `Arc`, a guard) reads through to its target;
//! - a type outside the workspace (std, a dependency), or a method a type of the workspace
//!   does not declare (a std trait's method, a derived impl), is a call outside the workspace:
//!   not an edge, not unresolved;
//! - an extension trait in scope (a trait its file implements only for a type parameter:
//!   `impl<T: Iterator> Itertools for T`) reaches std's iterators and values of unknown type
//!   (a range, a std function's result), unless std has a method of that name: the blanket
//!   impl's own method, else the trait's default (reason typed-receiver on a std iterator,
//!   import-resolved on a value of unknown type: the trait in scope decides it);
//! - `Type::from(x)` / `Type::try_from(x)` among several `From<A>` impls of the type: the impl
//!   whose `A` is the argument's type (`RustFacts::from_args`), when exactly one takes it.
//!
//! A call never vanishes: every call expression is a CALLS edge, an unresolved site named by
//! its text, or a call outside the workspace.
//!
//! Also IMPORTS (file -> file of each imported item of the workspace), IMPLEMENTS (a type ->
//! each trait of the workspace an impl implements for it), EXTENDS (trait -> supertrait),
//! ACCESSES (fields read or written through a typed receiver), REFERS_TO (functions passed as
//! values) and TESTS (a `#[test]` function, or a function of a test file, -> what it calls
//! outside test files).

mod index;
mod layout;

use crate::graph::{Edge, symbol_ids};
use crate::ids::{Id, file_id};
use crate::keys::FileKey;
use crate::languages::{LanguageResolver, Target};
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{
    Callee, FileFacts, HintSource, ImportKind, Imported, Receiver, SymbolIdx, TypeHint,
};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use index::{RustIndex, impl_table, rust_index};
pub(crate) use layout::ModKey;
use layout::{crate_roots, file_module, module_files};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::{Cell, RefCell};

pub(crate) struct RustResolver;

pub(crate) static RUST_RESOLVER: RustResolver = RustResolver;

/// Bound on nested evaluations (a receiver's type through hints and return types, a path
/// through re-exports).
const MAX_DEPTH: u32 = 24;
/// Bound on lookups per file (pathological re-export cycles cannot stall resolution).
const BUDGET: u32 = 2_000_000;

/// What a path names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Def {
    /// A module of the workspace: (module root, path joined by `::`).
    Module(String, String),
    /// An item of the workspace.
    Item(Target),
    /// Something outside the workspace (std, a dependency) or a generic parameter.
    External,
}

/// Rust's namespaces: a path's last segment is looked up in one (a module and a function of
/// one name coexist: `mod spawn;` and `pub use spawn::spawn;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Ns {
    /// Modules and types (a path's leading segments, a type name).
    Type,
    /// Functions, constants, statics, constructors (a callee).
    Value,
    /// Either (a `use` leaf).
    Any,
}

/// Whether an item of kind `k` lives in namespace `ns` (structs and variants in both: a
/// tuple struct is also its constructor).
fn kind_fits(k: Option<NodeKind>, ns: Ns) -> bool {
    match ns {
        Ns::Any => true,
        Ns::Type => matches!(
            k,
            Some(
                NodeKind::Struct
                    | NodeKind::Enum
                    | NodeKind::Interface
                    | NodeKind::TypeAlias
                    | NodeKind::Module
                    | NodeKind::Constant
            )
        ),
        Ns::Value => !matches!(
            k,
            Some(NodeKind::Enum | NodeKind::Interface | NodeKind::TypeAlias | NodeKind::Module)
        ),
    }
}

/// What an expression's type is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ty {
    /// A struct, enum or union of the workspace, with its type arguments where known.
    Adt(Target, Vec<Ty>),
    /// A trait object, an `impl Trait`, a generic parameter with its bounds: the traits.
    Traits(Vec<Target>),
    /// A type outside the workspace by its last segment, with its type arguments
    /// (`Vec<Item>`, `Option<Item>`): what std's containers hand back ([`ext_return`]).
    Ext(String, Vec<Ty>),
    Unknown,
}

/// A position in a file: line in the high half, column in the low one (ordered as both).
type Pos = u64;

fn pos(line: u32, col: u32) -> Pos {
    (u64::from(line) << 32) | u64::from(col)
}

/// Where a binding starts to be visible: a `let`'s after its statement (its `visible`
/// column), a parameter's from the start of its line.
fn hint_pos(h: &TypeHint) -> Pos {
    pos(h.line, h.visible.map_or(0, |v| v.col))
}

/// A type as written in its context: (file, scope, text).
type TypeKey = (SourceFile, Option<SymbolIdx>, String);

/// What a lookup found.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Found {
    Member(Target),
    External,
    Missing,
}

/// Names in scope everywhere without an import (the std prelude's types, functions, variants
/// and the primitive types).
const PRELUDE: &[&str] = &[
    "Some",
    "None",
    "Ok",
    "Err",
    "Option",
    "Result",
    "Vec",
    "String",
    "Box",
    "ToString",
    "ToOwned",
    "Clone",
    "Copy",
    "Default",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "Iterator",
    "IntoIterator",
    "Extend",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "drop",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "FromIterator",
    "Debug",
    "Hash",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "f32",
    "f64",
    "bool",
    "char",
    "str",
    "std",
    "core",
    "alloc",
    "self",
    "Self",
];

/// std's iterator types (what `iter()`, ranges and adaptors make), for extension traits
/// implemented for every iterator.
const STD_ITERATORS: &str = "\
    Iter IterMut IntoIter Peekable Rev Skip Take Cloned Copied Filter Chain Drain Map FilterMap \
    FlatMap Flatten Enumerate Zip StepBy SkipWhile TakeWhile MapWhile Scan Fuse Inspect Cycle \
    Range RangeInclusive Repeat RepeatN Once Empty FromFn Successors Chars CharIndices Bytes \
    Lines Split SplitWhitespace Windows Chunks Keys Values ValuesMut";

/// The methods of std's `Iterator`, `DoubleEndedIterator` and `ExactSizeIterator` (stable and
/// not), and of the traits every value has: on a std iterator they are std's.
const STD_ITERATOR_METHODS: &str = "\
    next size_hint count last advance_by nth step_by chain zip intersperse intersperse_with map \
    for_each filter filter_map enumerate peekable skip_while take_while map_while skip take \
    scan flat_map flatten fuse inspect by_ref collect collect_into partition partition_in_place \
    is_partitioned try_fold try_for_each fold reduce try_reduce all any find find_map try_find \
    position rposition max min max_by_key max_by min_by_key min_by rev unzip copied cloned \
    cycle array_chunks map_windows sum product cmp cmp_by partial_cmp partial_cmp_by eq eq_by \
    ne lt le gt ge is_sorted is_sorted_by is_sorted_by_key next_back nth_back advance_back_by \
    rfold rfind try_rfold len is_empty into_iter next_chunk try_collect clone clone_from \
    to_owned to_string into try_into as_ref as_mut borrow borrow_mut fmt hash type_id from";

/// Besides the iterator methods, what std's common values (slices, `Vec`, `str`, `String`,
/// maps and sets, `Option`, `Result`, I/O handles) have: on a value of unknown type a method of
/// one of these names (or of an iterator's) may be std's.
const STD_VALUE_METHODS: &str = "\
    iter iter_mut get get_mut push pop insert remove contains contains_key join concat chunks \
    chunks_exact rchunks windows chunk_by split splitn rsplit rsplitn split_at split_off sort \
    sort_by sort_by_key sort_unstable sort_unstable_by sort_unstable_by_key dedup dedup_by \
    dedup_by_key retain extend append clear truncate drain first last_mut first_mut starts_with \
    ends_with trim lines chars bytes as_str as_bytes as_slice to_vec keys values values_mut \
    entry unwrap expect unwrap_or unwrap_or_else unwrap_or_default map_or map_or_else map_err \
    ok err and_then or_else ok_or ok_or_else is_some is_none is_ok is_err take_if replace swap \
    reverse binary_search fill capacity reserve resize repeat parse read write write_all \
    read_exact read_to_end read_to_string flush seek lock send recv poll wait await union \
    intersection difference";

/// Smart pointers and guards whose methods are mostly their target's.
const POINTERS: &[&str] = &[
    "Box",
    "Rc",
    "Arc",
    "Cow",
    "Ref",
    "RefMut",
    "MutexGuard",
    "RwLockReadGuard",
    "RwLockWriteGuard",
    "ManuallyDrop",
    "Pin",
    "Weak",
];

struct Local<'db> {
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    facts: &'db FileFacts,
    /// The file's hints by (scope, name), in source order.
    hints: HashMap<(SymbolIdx, &'db str), Vec<&'db TypeHint>>,
    budget: Cell<u32>,
    /// Impl blocks whose self type is a type of the workspace, by that type.
    impls: RefCell<HashMap<Target, Vec<(SourceFile, u32)>>>,
    /// Paths being resolved (a cycle of re-exports ends there).
    visiting: RefCell<HashSet<(SourceFile, String, Ns)>>,
    /// Type texts already worked out, by (file, scope, text).
    types: RefCell<HashMap<TypeKey, Ty>>,
    /// The indexes and module file lists read so far.
    indexes: RefCell<HashMap<SourceFile, &'db RustIndex>>,
    modules: RefCell<HashMap<(String, String), &'db [SourceFile]>>,
    /// Lookups already answered: a module's or item's member, a file's imported name.
    members_memo: RefCell<HashMap<(Def, String, Ns), Option<Def>>>,
    imports_memo: RefCell<HashMap<(SourceFile, String, Ns), Option<Def>>>,
    /// What each glob `use` leaf (file, leaf index) imports from.
    globs_memo: RefCell<HashMap<(SourceFile, usize), Option<Def>>>,
    /// Lookups cut short so far (a cycle, the depth bound, the budget): a lookup during which
    /// this moved is not memoized.
    cut: Cell<u32>,
    /// The traits in scope in the file (see [`Local::traits_in_scope`]).
    traits: RefCell<Option<Vec<Target>>>,
    file_modules: RefCell<HashMap<SourceFile, &'db (String, String)>>,
    /// The workspace's crate names and module roots, read once (a lookup per `use` path
    /// through salsa cost a tracked read each: half the time on a large tree).
    crates: std::cell::OnceCell<&'db std::collections::BTreeMap<String, String>>,
}

impl<'db> Local<'db> {
    /// The resolver of `file`, whose facts the caller holds (`facts`).
    fn new(
        db: &'db dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        facts: &'db FileFacts,
    ) -> Local<'db> {
        let hints = crate::resolved::hints_by_scope(facts);
        Local {
            db,
            workspace,
            file,
            facts,
            hints,
            budget: Cell::new(BUDGET),
            impls: RefCell::new(HashMap::default()),
            visiting: RefCell::new(HashSet::default()),
            types: RefCell::new(HashMap::default()),
            indexes: RefCell::new(HashMap::default()),
            modules: RefCell::new(HashMap::default()),
            traits: RefCell::new(None),
            members_memo: RefCell::new(HashMap::default()),
            imports_memo: RefCell::new(HashMap::default()),
            globs_memo: RefCell::new(HashMap::default()),
            cut: Cell::new(0),
            file_modules: RefCell::new(HashMap::default()),
            crates: std::cell::OnceCell::new(),
        }
    }

    /// A file's index (each read through salsa once per file resolved).
    fn index(&self, f: SourceFile) -> &'db RustIndex {
        if let Some(i) = self.indexes.borrow().get(&f) {
            return i;
        }
        let i = rust_index(self.db, f);
        self.indexes.borrow_mut().insert(f, i);
        i
    }

    /// The module root of the workspace's crate `name`.
    fn crate_root(&self, name: &str) -> Option<&'db String> {
        self.crates.get_or_init(|| crate_roots(self.db, self.workspace)).get(name)
    }

    fn spend(&self) -> bool {
        let b = self.budget.get();
        if b == 0 {
            return false;
        }
        self.budget.set(b - 1);
        true
    }

    fn module_of(&self, f: SourceFile) -> &'db (String, String) {
        if let Some(m) = self.file_modules.borrow().get(&f) {
            return m;
        }
        let m = file_module(self.db, FileKey::new(self.db, self.workspace, f));
        self.file_modules.borrow_mut().insert(f, m);
        m
    }

    fn module_files(&self, root: &str, path: &str) -> &'db [SourceFile] {
        let key = (root.to_string(), path.to_string());
        if let Some(f) = self.modules.borrow().get(&key) {
            return f;
        }
        let files = module_files(
            self.db,
            ModKey::new(self.db, self.workspace, key.0.clone(), key.1.clone()),
        );
        self.modules.borrow_mut().insert(key, files);
        files
    }

    // ---- paths ----

    /// What a path written in `file` at `scope` names; its last segment is looked up in
    /// namespace `ns` (the others name modules or types).
    fn path<S: AsRef<str>>(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        segs: &[S],
        ns: Ns,
        depth: u32,
    ) -> Option<Def> {
        if depth > MAX_DEPTH || !self.spend() {
            self.cut.set(self.cut.get() + 1);
            return None;
        }
        let (first, rest) = segs.split_first()?;
        let mut def = match first.as_ref() {
            "crate" => Def::Module(self.module_of(file).0.clone(), String::new()),
            "self" => {
                let (r, p) = self.module_of(file);
                Def::Module(r.clone(), p.clone())
            }
            "super" => {
                let (r, p) = self.module_of(file);
                Def::Module(r.clone(), parent_module(p).to_string())
            }
            "<as>" => return self.path(file, scope, rest, ns, depth + 1),
            name => {
                let first_ns = if rest.is_empty() { ns } else { Ns::Type };
                self.name_in_scope(file, scope, name, first_ns, depth + 1)?
            }
        };
        for (i, seg) in rest.iter().enumerate() {
            let seg_ns = if i + 1 == rest.len() { ns } else { Ns::Type };
            def = match (def, seg.as_ref()) {
                (Def::Module(r, p), "super") => Def::Module(r, parent_module(&p).to_string()),
                (d, _) => self.member_of(&d, seg.as_ref(), seg_ns, depth + 1)?,
            };
        }
        Some(def)
    }

    /// Whether what `d` names lives in namespace `ns`.
    fn fits(&self, d: &Def, ns: Ns) -> bool {
        match (ns, d) {
            (Ns::Any, _) | (_, Def::External) => true,
            (Ns::Type, Def::Module(..)) => true,
            (Ns::Value, Def::Module(..)) => false,
            (_, Def::Item(t)) => kind_fits(self.index(t.0).kind(t.1), ns),
        }
    }

    /// A name as the first segment of a path or a bare callee, in `file` at `scope`.
    fn name_in_scope(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
        ns: Ns,
        depth: u32,
    ) -> Option<Def> {
        let index = self.index(file);
        // Items nested in the enclosing functions, innermost first; a generic parameter.
        let mut cur = scope;
        while let Some(s) = cur {
            // Items nested in a function or an inline module (a type's or trait's members
            // are not in scope by their bare names).
            let nests = matches!(
                index.kind(s),
                Some(NodeKind::Function | NodeKind::Method | NodeKind::Module)
            );
            if nests
                && let Some(c) = index.child(s, name)
                && !index.impl_of.contains_key(&c)
                && kind_fits(index.kind(c), ns)
            {
                return Some(Def::Item((file, c)));
            }
            if index.generics.get(&s).is_some_and(|g| g.iter().any(|(n, _)| n == name)) {
                return Some(Def::External);
            }
            cur = index.parent(s);
        }
        let item =
            index.items.get(name).and_then(|v| v.iter().find(|&&i| kind_fits(index.kind(i), ns)));
        if let Some(&i) = item {
            return Some(Def::Item((file, i)));
        }
        let (r, p) = self.module_of(file);
        if ns != Ns::Value && index.mods.iter().any(|m| m == name) {
            return Some(Def::Module(r.clone(), join_module(p, name)));
        }
        if let Some(d) = self.imported(file, name, ns, depth) {
            return Some(d);
        }
        if ns != Ns::Value
            && let Some(root) = self.crate_root(name)
        {
            return Some(Def::Module(root.clone(), String::new()));
        }
        if PRELUDE.contains(&name) {
            return Some(Def::External);
        }
        // A child module without a `mod` line the index saw (declared in a macro).
        if ns != Ns::Value && !self.module_files(r, &join_module(p, name)).is_empty() {
            return Some(Def::Module(r.clone(), join_module(p, name)));
        }
        None
    }

    /// A name brought in by the file's `use` leaves: named ones first, then globs.
    fn imported(&self, file: SourceFile, name: &str, ns: Ns, depth: u32) -> Option<Def> {
        let key = (file, name.to_string(), ns);
        if let Some(found) = self.imports_memo.borrow().get(&key) {
            return found.clone();
        }
        if !self.visiting.borrow_mut().insert(key.clone()) {
            self.cut.set(self.cut.get() + 1);
            return None;
        }
        let cut = self.cut.get();
        let found = self.imported_uncached(file, name, ns, depth);
        self.visiting.borrow_mut().remove(&key);
        // A lookup that met a cycle or a bound is not kept (its answer may be partial).
        if self.cut.get() == cut {
            self.imports_memo.borrow_mut().insert(key, found.clone());
        }
        found
    }

    fn imported_uncached(&self, file: SourceFile, name: &str, ns: Ns, depth: u32) -> Option<Def> {
        let index = self.index(file);
        // Named leaves (those behind a `#[cfg(..)]` after the globs), then globs.
        if let Some(d) = self.named_import(file, name, ns, false, depth) {
            return Some(d);
        }
        for (i, (_, source, imported, _)) in index.uses.iter().enumerate() {
            if *imported != Imported::All {
                continue;
            }
            let Some(d) = self.glob_source(file, i, source, depth) else { continue };
            if d == Def::External {
                continue;
            }
            if let Some(found) = self.member_of(&d, name, ns, depth + 1) {
                return Some(found);
            }
        }
        self.named_import(file, name, ns, true, depth)
    }

    /// What the glob `use` leaf `i` of `file` imports from (`a::b` of `use a::b::*`): the same
    /// for every name looked up through it, so worked out once per file resolved.
    fn glob_source(
        &self,
        file: SourceFile,
        i: usize,
        source: &[String],
        depth: u32,
    ) -> Option<Def> {
        if let Some(found) = self.globs_memo.borrow().get(&(file, i)) {
            return found.clone();
        }
        let cut = self.cut.get();
        let found = self.use_path(file, source, Ns::Type, depth);
        if self.cut.get() == cut {
            self.globs_memo.borrow_mut().insert((file, i), found.clone());
        }
        found
    }

    /// A name brought in by a named `use` leaf of the file, gated or not.
    fn named_import(
        &self,
        file: SourceFile,
        name: &str,
        ns: Ns,
        gated: bool,
        depth: u32,
    ) -> Option<Def> {
        let index = self.index(file);
        for (i, (kind, source, imported, local)) in index.uses.iter().enumerate() {
            if local.as_deref() != Some(name)
                || index.gated.get(i).copied().unwrap_or(false) != gated
            {
                continue;
            }
            match (kind, imported) {
                (ImportKind::Package, _) => {
                    if ns == Ns::Value {
                        continue;
                    }
                    return Some(match self.crate_root(&source.join("::")) {
                        Some(root) => Def::Module(root.clone(), String::new()),
                        None => Def::External,
                    });
                }
                (_, Imported::Named(n)) => {
                    let mut segs = source.clone();
                    segs.push(n.clone());
                    // One `use` imports a name in every namespace it has there.
                    match self.use_path(file, &segs, ns, depth) {
                        Some(d) if self.fits(&d, ns) => return Some(d),
                        Some(_) => {}
                        None => return Some(Def::External),
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// A `use` path: like any path, but a first segment that names no item of the file is a
    /// crate (2018 paths) or outside the workspace.
    fn use_path(&self, file: SourceFile, segs: &[String], ns: Ns, depth: u32) -> Option<Def> {
        let first = segs.first()?;
        if !matches!(first.as_str(), "crate" | "self" | "super")
            && let Some(root) = self.crate_root(first)
            && !self.index(file).items.contains_key(first.as_str())
        {
            let mut def = Def::Module(root.clone(), String::new());
            let rest = &segs[1..];
            for (i, seg) in rest.iter().enumerate() {
                let seg_ns = if i + 1 == rest.len() { ns } else { Ns::Type };
                def = self.member_of(&def, seg, seg_ns, depth + 1)?;
            }
            return Some(def);
        }
        match self.path(file, None, segs, ns, depth + 1) {
            Some(d) => Some(d),
            // `std::..`, a dependency: outside.
            None if !self.index(file).items.contains_key(first.as_str()) => {
                let local = self.index(file).mods.iter().any(|m| m == first);
                (!local).then_some(Def::External)
            }
            None => None,
        }
    }

    /// Member `name` of what `def` names, in namespace `ns`.
    fn member_of(&self, def: &Def, name: &str, ns: Ns, depth: u32) -> Option<Def> {
        let key = (def.clone(), name.to_string(), ns);
        if let Some(found) = self.members_memo.borrow().get(&key) {
            return found.clone();
        }
        let cut = self.cut.get();
        let found = self.member_of_uncached(def, name, ns, depth);
        if self.cut.get() == cut {
            self.members_memo.borrow_mut().insert(key, found.clone());
        }
        found
    }

    fn member_of_uncached(&self, def: &Def, name: &str, ns: Ns, depth: u32) -> Option<Def> {
        if depth > MAX_DEPTH || !self.spend() {
            self.cut.set(self.cut.get() + 1);
            return None;
        }
        match def {
            Def::External => Some(Def::External),
            Def::Module(root, path) => {
                let files = self.module_files(root, path);
                for &f in files {
                    let index = self.index(f);
                    if let Some(&i) = index.items.get(name).and_then(|v| {
                        // Items of the module itself before those of its inline modules.
                        let fit = |i: &&SymbolIdx| kind_fits(index.kind(**i), ns);
                        v.iter()
                            .filter(fit)
                            .find(|&&i| index.parent(i).is_none())
                            .or(v.iter().find(fit))
                    }) {
                        return Some(Def::Item((f, i)));
                    }
                }
                // Named re-exports (`pub use`, and private `use` seen by child modules) that
                // name an item: before a child module of the same name (`pub use
                // spawn::spawn;` next to `mod spawn;`: the function is in the value namespace).
                let mut reexported_module = None;
                for &f in files {
                    let index = self.index(f);
                    if index.uses.iter().any(|(_, _, _, l)| l.as_deref() == Some(name)) {
                        match self.imported(f, name, ns, depth + 1) {
                            Some(d @ Def::Item(_)) => return Some(d),
                            Some(d) => reexported_module = reexported_module.or(Some(d)),
                            None => {}
                        }
                    }
                }
                let child = join_module(path, name);
                if ns != Ns::Value && !self.module_files(root, &child).is_empty() {
                    return Some(Def::Module(root.clone(), child));
                }
                if reexported_module.is_some() {
                    return reexported_module;
                }
                // Glob re-exports.
                for &f in files {
                    let index = self.index(f);
                    let globs = index.uses.iter().any(|(_, _, i, _)| *i == Imported::All);
                    if globs && let Some(d) = self.imported(f, name, ns, depth + 1) {
                        return Some(d);
                    }
                }
                None
            }
            Def::Item((f, i)) => {
                let index = self.index(*f);
                match index.kind(*i) {
                    // An inline module: its items, then the `use` leaves of its file (they are
                    // flattened into the file's).
                    Some(NodeKind::Module) => match index.child(*i, name) {
                        Some(c) => Some(Def::Item((*f, c))),
                        None => self.imported(*f, name, ns, depth + 1),
                    },
                    Some(NodeKind::Enum) => match index.child(*i, name) {
                        Some(v) => Some(Def::Item((*f, v))),
                        None => self.assoc((*f, *i), name, depth),
                    },
                    Some(NodeKind::Interface) => match self.trait_item((*f, *i), name, depth) {
                        Some(t) => Some(Def::Item(t)),
                        None => Some(Def::External),
                    },
                    Some(NodeKind::Struct) => self.assoc((*f, *i), name, depth),
                    Some(NodeKind::TypeAlias) => match self.alias_target((*f, *i), depth) {
                        Ty::Adt(t, _) => self.assoc(t, name, depth),
                        Ty::Traits(ts) => {
                            ts.iter().find_map(|t| self.trait_item(*t, name, depth)).map(Def::Item)
                        }
                        _ => Some(Def::External),
                    },
                    _ => None,
                }
            }
        }
    }

    /// An associated item of a type through its impls (inherent first, then trait impls,
    /// then the traits' default items); outside the workspace when none declares it.
    fn assoc(&self, t: Target, name: &str, depth: u32) -> Option<Def> {
        match self.method_on_adt(t, name, false, depth) {
            Found::Member(m) => Some(Def::Item(m)),
            _ => Some(Def::External),
        }
    }

    /// The impl blocks of the workspace whose self type is `t`.
    fn impls_of(&self, t: Target) -> Vec<(SourceFile, u32)> {
        if let Some(v) = self.impls.borrow().get(&t) {
            return v.clone();
        }
        let name = self.index(t.0).name(t.1).to_string();
        let mut out = Vec::new();
        if let Some(cands) = impl_table(self.db, self.workspace).get(&name) {
            for &(f, i) in cands {
                let Some(info) = self.index(f).impls.get(i as usize) else { continue };
                let base = codegraph_parse::rust_strip_type_args(&info.self_ty);
                let segs: Vec<String> = base.split("::").map(str::to_string).collect();
                // The impl's own generics cannot name the type; look it up in its file.
                if let Some(Def::Item(found)) = self.path(f, None, &segs, Ns::Type, 1)
                    && found == t
                {
                    out.push((f, i));
                }
            }
        }
        self.impls.borrow_mut().insert(t, out.clone());
        out
    }

    /// Method (or associated item) `name` of a type of the workspace; `call`: called with
    /// method syntax (`x.m()`), so only functions taking `self`.
    fn method_on_adt(&self, t: Target, name: &str, call: bool, depth: u32) -> Found {
        if depth > MAX_DEPTH {
            return Found::Missing;
        }
        let impls = self.impls_of(t);
        for pass in [false, true] {
            for &(f, i) in &impls {
                let Some(info) = self.index(f).impls.get(i as usize) else { continue };
                if info.trait_.is_some() != pass {
                    continue;
                }
                if let Some(&m) = info.items.get(name)
                    && !(call && self.index(f).selfless.contains(&m))
                {
                    return Found::Member((f, m));
                }
            }
        }
        // A default item of a trait it implements.
        for &(f, i) in &impls {
            let Some(info) = self.index(f).impls.get(i as usize) else { continue };
            let Some(tr) = &info.trait_ else { continue };
            let base = codegraph_parse::rust_strip_type_args(tr);
            let segs: Vec<String> = base.split("::").map(str::to_string).collect();
            if let Some(Def::Item(trt)) = self.path(f, None, &segs, Ns::Type, depth + 1)
                && let Some(m) = self.trait_item(trt, name, depth + 1)
                && !(call && self.index(m.0).selfless.contains(&m.1))
            {
                return Found::Member(m);
            }
        }
        Found::External
    }

    /// For `Type::from(arg)` (or `try_from`): among the type's several `From<A>` impls, the
    /// `from` of the one whose `A` is the argument's type, when the argument's type is known
    /// and exactly one impl takes it; `None` otherwise (the call keeps what the path gave).
    fn impl_taking(
        &self,
        scope: Option<SymbolIdx>,
        callee: &Callee,
        arg: &Receiver,
        at: Pos,
    ) -> Option<Target> {
        let Receiver::Path(p) = &callee.receiver else { return None };
        let Some(Def::Item(ty)) = self.path(self.file, scope, &p[1..], Ns::Type, 1) else {
            return None;
        };
        let trait_name = if callee.name == "from" { "From" } else { "TryFrom" };
        let mut candidates: Vec<(Target, String)> = Vec::new();
        for (f, i) in self.impls_of(ty) {
            let Some(info) = self.index(f).impls.get(i as usize) else { continue };
            let Some(tr) = &info.trait_ else { continue };
            let (base, args) = split_generic(tr);
            if base.rsplit("::").next() != Some(trait_name) {
                continue;
            }
            let (Some(&m), Some(a)) = (info.items.get(callee.name.as_str()), args.first()) else {
                continue;
            };
            candidates.push(((f, m), a.clone()));
        }
        if candidates.len() < 2 {
            return None;
        }
        // Types compared by what they are: a workspace type, or a std type's name.
        let same = |a: &Ty, b: &Ty| match (a, b) {
            (Ty::Adt(x, _), Ty::Adt(y, _)) => x == y,
            (Ty::Ext(x, _), Ty::Ext(y, _)) => x == y,
            _ => false,
        };
        let ty = self.receiver_type(scope, arg, at, 1);
        if matches!(ty, Ty::Unknown) {
            return None;
        }
        let mut taking = candidates
            .iter()
            .filter(|((f, m), a)| same(&self.ty_named(*f, self.index(*f).parent(*m), a, 1), &ty));
        match (taking.next(), taking.next()) {
            (Some((m, _)), None) => Some(*m),
            _ => None,
        }
    }

    /// The `Target` of a workspace type's `Deref` impl, with the type's arguments bound.
    fn deref_target(&self, t: Target, args: &[Ty], depth: u32) -> Option<Ty> {
        if depth > MAX_DEPTH {
            return None;
        }
        for (f, i) in self.impls_of(t) {
            let index = self.index(f);
            let Some(info) = index.impls.get(i as usize) else { continue };
            let is_deref = info.trait_.as_deref().is_some_and(|tr| {
                let base = codegraph_parse::rust_strip_type_args(tr);
                base == "Deref" || base.ends_with("::Deref")
            });
            if !is_deref {
                continue;
            }
            let &target = info.items.get("Target")?;
            let text = index.aliases.get(&target)?;
            let (_, self_args) = split_generic(&info.self_ty);
            let subst: Vec<(String, Ty)> =
                self_args.into_iter().zip(args.iter().cloned()).collect();
            return Some(self.subst_type(f, Some(target), text, &subst, depth + 1));
        }
        None
    }

    /// Item `name` of a trait or its supertraits.
    fn trait_item(&self, tr: Target, name: &str, depth: u32) -> Option<Target> {
        let mut queue = vec![tr];
        let mut seen = HashSet::default();
        let mut at = 0;
        while at < queue.len() {
            let cur = queue[at];
            at += 1;
            if !seen.insert(cur) || depth > MAX_DEPTH || !self.spend() {
                continue;
            }
            let index = self.index(cur.0);
            if index.kind(cur.1) != Some(NodeKind::Interface) {
                continue;
            }
            if let Some(c) = index.child(cur.1, name) {
                return Some((cur.0, c));
            }
            for s in index.supertraits.get(&cur.1).into_iter().flatten() {
                let base = codegraph_parse::rust_strip_type_args(s);
                let segs: Vec<String> = base.split("::").map(str::to_string).collect();
                if let Some(Def::Item(st)) =
                    self.path(cur.0, index.parent(cur.1), &segs, Ns::Type, depth + 1)
                {
                    queue.push(st);
                }
            }
        }
        None
    }

    // ---- types ----

    fn alias_target(&self, t: Target, depth: u32) -> Ty {
        match self.index(t.0).aliases.get(&t.1) {
            Some(text) => self.ty_named(t.0, self.index(t.0).parent(t.1), text, depth + 1),
            None => Ty::Unknown,
        }
    }

    /// A type as written (normalized) in `file` at `scope`.
    fn ty_named(&self, file: SourceFile, scope: Option<SymbolIdx>, text: &str, depth: u32) -> Ty {
        let key = (file, scope, text.to_string());
        if let Some(t) = self.types.borrow().get(&key) {
            return t.clone();
        }
        let t = self.ty_named_uncached(file, scope, text, depth);
        if depth <= MAX_DEPTH / 2 {
            self.types.borrow_mut().insert(key, t.clone());
        }
        t
    }

    fn ty_named_uncached(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        text: &str,
        depth: u32,
    ) -> Ty {
        if depth > MAX_DEPTH || text.is_empty() {
            return Ty::Unknown;
        }
        if let Some(inner) = text.strip_prefix('[') {
            // A slice or an array: its element.
            let inner = inner.strip_suffix(']').unwrap_or(inner);
            let elem = index::top_level(inner)
                .first()
                .map(|e| e.split(';').next().unwrap_or(e))
                .unwrap_or("");
            return Ty::Ext("[]".to_string(), vec![self.ty_named(file, scope, elem, depth + 1)]);
        }
        if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            // A tuple: its fields' types.
            let fields = index::top_level(inner)
                .into_iter()
                .filter(|f| !f.is_empty())
                .map(|f| self.ty_named(file, scope, f, depth + 1))
                .collect();
            return Ty::Ext("()".to_string(), fields);
        }
        if text.starts_with("fn(") || text == "!" {
            return Ty::Unknown;
        }
        let (base, args) = split_generic(text);
        // `Iterator<Item=T>` (also `impl`/`dyn`, `IntoIterator`...): an iterator of `T`.
        if ITERATOR_TRAITS.contains(&base.as_str())
            && let Some(item) = item_binding(text)
        {
            return Ty::Ext("Iter".to_string(), vec![self.ty_named(file, scope, &item, depth + 1)]);
        }
        // Trait bounds written as a type (`Error+Send`): the first.
        let base = base.split('+').next().unwrap_or(&base).to_string();
        let segs: Vec<String> = base.split("::").map(str::to_string).collect();
        let last = segs.last().cloned().unwrap_or_default();
        let args_ty = |this: &Self| -> Vec<Ty> {
            args.iter().map(|a| this.ty_named(file, scope, a, depth + 1)).collect()
        };
        // A generic parameter in scope: its bounds.
        if segs.len() == 1
            && let Some(bounds) = self.generic_bounds(file, scope, &base)
        {
            let traits: Vec<Target> = bounds
                .iter()
                .filter_map(|b| match self.ty_named(file, scope, b, depth + 1) {
                    Ty::Traits(t) => Some(t),
                    _ => None,
                })
                .flatten()
                .collect();
            return if traits.is_empty() { Ty::Ext(base, Vec::new()) } else { Ty::Traits(traits) };
        }
        match self.path(file, scope, &segs, Ns::Type, depth + 1) {
            Some(Def::Item(t)) => {
                let index = self.index(t.0);
                match index.kind(t.1) {
                    Some(NodeKind::Struct | NodeKind::Enum) => Ty::Adt(t, args_ty(self)),
                    Some(NodeKind::Interface) => Ty::Traits(vec![t]),
                    Some(NodeKind::TypeAlias) => {
                        // A trait's associated type, or an alias.
                        if index.aliases.contains_key(&t.1) {
                            self.alias_target(t, depth + 1)
                        } else {
                            Ty::Unknown
                        }
                    }
                    _ => Ty::Unknown,
                }
            }
            Some(Def::Module(..)) => Ty::Unknown,
            Some(Def::External) | None => Ty::Ext(last, args_ty(self)),
        }
    }

    /// The bounds of generic parameter `name` declared around `scope` (the function, its
    /// impl, its type or trait); `Self` inside a trait is bounded by the trait.
    fn generic_bounds(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
    ) -> Option<Vec<String>> {
        let index = self.index(file);
        let mut cur = scope;
        while let Some(s) = cur {
            if let Some(g) = index.generics.get(&s)
                && let Some((_, b)) = g.iter().find(|(n, _)| n == name)
            {
                return Some(b.clone());
            }
            if let Some(&i) = index.impl_of.get(&s)
                && let Some(info) = index.impls.get(i as usize)
            {
                for p in &info.type_params {
                    if let Some((n, b)) = index::param_bounds(p)
                        && n == name
                    {
                        return Some(b);
                    }
                }
            }
            if name == "Self" && index.kind(s) == Some(NodeKind::Interface) {
                return Some(vec![index.name(s).to_string()]);
            }
            cur = index.parent(s);
        }
        None
    }

    /// The type of a variable visible at `line` in the functions around `scope`.
    fn local(&self, scope: Option<SymbolIdx>, name: &str, at: Pos, depth: u32) -> Option<Ty> {
        let h = self.local_hint(scope, name, at)?;
        // What it holds is worked out where it was bound (`let x = x.unwrap()`: the `x` on the
        // right is the earlier one).
        Some(self.hint_type(h.scope, &h.source, hint_pos(h).saturating_sub(1), depth + 1))
    }

    fn local_hint(&self, scope: Option<SymbolIdx>, name: &str, at: Pos) -> Option<&'db TypeHint> {
        let index = self.index(self.file);
        let mut cur = scope;
        while let Some(s) = cur {
            if matches!(
                index.kind(s),
                Some(NodeKind::Struct | NodeKind::Enum | NodeKind::Interface | NodeKind::Module)
            ) {
                return None;
            }
            let hint = self
                .hints
                .get(&(s, name))
                .and_then(|v| v.iter().filter(|h| hint_pos(h) <= at).max_by_key(|h| hint_pos(h)));
            if let Some(h) = hint {
                return Some(h);
            }
            cur = index.parent(s);
        }
        None
    }

    fn hint_type(&self, scope: Option<SymbolIdx>, src: &HintSource, at: Pos, depth: u32) -> Ty {
        if depth > MAX_DEPTH {
            return Ty::Unknown;
        }
        match src {
            HintSource::Annotation(t) | HintSource::Construct(t) => {
                self.ty_named(self.file, scope, t, depth + 1)
            }
            HintSource::CallResult(c) => self.returned(scope, c, at, depth + 1),
            HintSource::Value(Receiver::Path(p)) => self.path_type(scope, p, at, depth + 1),
            _ => Ty::Unknown,
        }
    }

    /// The type of a value chain or an item path.
    fn path_type(
        &self,
        scope: Option<SymbolIdx>,
        path: &[codegraph_parse::Name],
        at: Pos,
        depth: u32,
    ) -> Ty {
        let Some(first) = path.first() else { return Ty::Unknown };
        if depth > MAX_DEPTH {
            return Ty::Unknown;
        }
        let mut rest = &path[1..];
        let mut ty = match first.as_str() {
            "::" => {
                // `E::V () 0`: field `0` of the tuple variant (or struct) `E::V`.
                if let Some(k) = rest.iter().position(|s| s == "()") {
                    return match (
                        self.path(self.file, scope, &rest[..k], Ns::Any, depth + 1),
                        rest.get(k + 1),
                    ) {
                        (Some(Def::Item(t)), Some(field)) => {
                            let index = self.index(t.0);
                            match index.fields.get(&(t.1, field.to_string())) {
                                Some(ft) => self.ty_named(
                                    t.0,
                                    index.parent(t.1).or(Some(t.1)),
                                    ft,
                                    depth + 1,
                                ),
                                None => Ty::Unknown,
                            }
                        }
                        _ => Ty::Unknown,
                    };
                }
                return self.item_value_type(scope, rest, depth + 1);
            }
            "new" => {
                let Some(t) = rest.first() else { return Ty::Unknown };
                rest = &rest[1..];
                self.ty_named(self.file, scope, t, depth + 1)
            }
            name => match self.local(scope, name, at, depth) {
                Some(t) => t,
                None => self.item_value_type(scope, &path[..1], depth + 1),
            },
        };
        for seg in rest {
            ty = self.field_of(ty, seg, depth + 1);
        }
        ty
    }

    /// The type of an item used as a value: a `const` or `static`, a unit struct, a variant.
    fn item_value_type<S: AsRef<str>>(
        &self,
        scope: Option<SymbolIdx>,
        segs: &[S],
        depth: u32,
    ) -> Ty {
        match self.path(self.file, scope, segs, Ns::Value, depth + 1) {
            Some(Def::Item(t)) => self.value_of_item(t, depth),
            Some(Def::External) => {
                Ty::Ext(segs.last().map(|s| s.as_ref().to_string()).unwrap_or_default(), Vec::new())
            }
            _ => Ty::Unknown,
        }
    }

    fn value_of_item(&self, t: Target, depth: u32) -> Ty {
        let index = self.index(t.0);
        match index.kind(t.1) {
            Some(NodeKind::Constant | NodeKind::Variable) => {
                if let Some(ty) = index.returns.get(&t.1) {
                    return self.ty_named(t.0, index.parent(t.1), ty, depth + 1);
                }
                // An enum variant: a value of its enum.
                match index.parent(t.1) {
                    Some(p) if index.kind(p) == Some(NodeKind::Enum) => {
                        Ty::Adt((t.0, p), Vec::new())
                    }
                    _ => Ty::Unknown,
                }
            }
            Some(NodeKind::Struct) => Ty::Adt(t, Vec::new()),
            _ => Ty::Unknown,
        }
    }

    /// The type of field `name` of a value of type `ty` (a tuple field `0` too; `[]`: an
    /// element).
    fn field_of(&self, ty: Ty, name: &str, depth: u32) -> Ty {
        if depth > MAX_DEPTH {
            return Ty::Unknown;
        }
        match ty {
            Ty::Adt(t, args) => {
                if name == "[]" {
                    return Ty::Unknown;
                }
                let index = self.index(t.0);
                match index.fields.get(&(t.1, name.to_string())) {
                    Some(ft) => {
                        self.subst_type(t.0, Some(t.1), ft, &self.type_subst(t, &args), depth + 1)
                    }
                    None => Ty::Unknown,
                }
            }
            Ty::Ext(base, args) if POINTERS.contains(&base.as_str()) => {
                match args.into_iter().next() {
                    Some(inner) => self.field_of(inner, name, depth + 1),
                    None => Ty::Unknown,
                }
            }
            Ty::Ext(base, args) if name == "[]" => element_of(&base, &args),
            Ty::Ext(base, args) if base == "()" => name
                .parse::<usize>()
                .ok()
                .and_then(|i| args.into_iter().nth(i))
                .unwrap_or(Ty::Unknown),
            _ => Ty::Unknown,
        }
    }

    /// The type parameters of type `t` bound to `args`.
    fn type_subst(&self, t: Target, args: &[Ty]) -> Vec<(String, Ty)> {
        let index = self.index(t.0);
        match index.generics.get(&t.1) {
            Some(g) => g.iter().map(|(n, _)| n.clone()).zip(args.iter().cloned()).collect(),
            None => Vec::new(),
        }
    }

    /// [`Self::ty_named`] with generic parameter names replaced by types.
    fn subst_type(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        text: &str,
        subst: &[(String, Ty)],
        depth: u32,
    ) -> Ty {
        if subst.is_empty() || depth > MAX_DEPTH {
            return self.ty_named(file, scope, text, depth);
        }
        if let Some((_, ty)) = subst.iter().find(|(n, _)| n == text) {
            return ty.clone();
        }
        let (base, args) = split_generic(text);
        if args.is_empty() {
            return self.ty_named(file, scope, text, depth);
        }
        let args: Vec<Ty> =
            args.iter().map(|a| self.subst_type(file, scope, a, subst, depth + 1)).collect();
        match self.ty_named(file, scope, &base, depth + 1) {
            Ty::Adt(t, _) => Ty::Adt(t, args),
            Ty::Ext(b, _) => Ty::Ext(b, args),
            other => other,
        }
    }

    /// The type of `self` in the function around `scope`.
    fn self_type(&self, scope: Option<SymbolIdx>, at: Pos, depth: u32) -> Ty {
        match self.local(scope, "self", at, depth) {
            Some(t) => t,
            None => Ty::Unknown,
        }
    }

    /// The type a call returns.
    fn returned(&self, scope: Option<SymbolIdx>, c: &Callee, at: Pos, depth: u32) -> Ty {
        if depth > MAX_DEPTH {
            return Ty::Unknown;
        }
        match c.name.as_str() {
            "?" => {
                return match self.receiver_type(scope, &c.receiver, at, depth + 1) {
                    Ty::Ext(b, args) if matches!(b.as_str(), "Option" | "Result" | "Poll") => {
                        args.into_iter().next().unwrap_or(Ty::Unknown)
                    }
                    _ => Ty::Unknown,
                };
            }
            "[]" => {
                return match self.receiver_type(scope, &c.receiver, at, depth + 1) {
                    Ty::Ext(b, args) => element_of(&b, &args),
                    _ => Ty::Unknown,
                };
            }
            n if n.starts_with(|ch: char| ch.is_ascii_digit()) => {
                // A tuple's field (`.0` of a pattern over a call's result).
                let ty = self.receiver_type(scope, &c.receiver, at, depth + 1);
                return self.field_of(ty, n, depth + 1);
            }
            _ => {}
        }
        let receiver = match &c.receiver {
            Receiver::Path(p) if p.first().is_some_and(|f| f == "::") => None,
            Receiver::Path(_) | Receiver::CallResult(_) | Receiver::This => {
                Some(self.receiver_type(scope, &c.receiver, at, depth + 1))
            }
            _ => None,
        };
        if let Some(Ty::Ext(base, args)) = &receiver {
            if POINTERS.contains(&base.as_str())
                && !matches!(c.name.as_str(), "clone" | "as_ref" | "upgrade" | "downgrade")
            {
                // Read through the pointer.
                if let Some(inner) = args.first() {
                    let call = Callee { receiver: Receiver::Other, name: c.name.clone() };
                    return self.returned_on(inner.clone(), &call, depth + 1);
                }
            }
            return ext_return(base, args, &c.name).unwrap_or(Ty::Unknown);
        }
        if let Some(r) = receiver {
            return self.returned_on(r, c, depth + 1);
        }
        match self.callee(scope, c, at, depth + 1).0 {
            Found::Member(m) => {
                let index = self.index(m.0);
                match index.kind(m.1) {
                    Some(NodeKind::Struct) => Ty::Adt(m, Vec::new()),
                    Some(NodeKind::Constant) => match index.parent(m.1) {
                        Some(p) if index.kind(p) == Some(NodeKind::Enum) => {
                            Ty::Adt((m.0, p), Vec::new())
                        }
                        _ => Ty::Unknown,
                    },
                    _ => match index.returns.get(&m.1) {
                        Some(t) => self.ty_named(m.0, Some(m.1), t, depth + 1),
                        None => Ty::Unknown,
                    },
                }
            }
            Found::External => {
                // `T::default()` of a derived impl, `T::from(..)`: a `T` of the workspace.
                if let Receiver::Path(p) = &c.receiver
                    && p.first().is_some_and(|f| f == "::")
                    && matches!(c.name.as_str(), "default" | "from" | "clone" | "from_str" | "new")
                    && let Some(Def::Item(t)) =
                        self.path(self.file, scope, &p[1..], Ns::Type, depth + 1)
                    && matches!(self.index(t.0).kind(t.1), Some(NodeKind::Struct | NodeKind::Enum))
                {
                    return Ty::Adt(t, Vec::new());
                }
                // `Some(x)`, `Box::new(x)`, `Vec::new()`...: the std type by its name.
                match &c.receiver {
                    Receiver::Path(p)
                        if p.len() >= 2
                            && matches!(
                                c.name.as_str(),
                                "new" | "default" | "with_capacity" | "from"
                            ) =>
                    {
                        let last = p.last().cloned().unwrap_or_default();
                        Ty::Ext(last.to_string(), Vec::new())
                    }
                    _ => Ty::Unknown,
                }
            }
            Found::Missing => Ty::Unknown,
        }
    }

    /// What method `c.name` returns on a receiver of type `ty`.
    fn returned_on(&self, ty: Ty, c: &Callee, depth: u32) -> Ty {
        let args = match &ty {
            Ty::Adt(_, a) => a.clone(),
            _ => Vec::new(),
        };
        let adt = match &ty {
            Ty::Adt(t, _) => Some(*t),
            _ => None,
        };
        match self.method_on(ty.clone(), &c.name, depth + 1) {
            Found::Member(m) => {
                let index = self.index(m.0);
                let Some(ret) = index.returns.get(&m.1) else { return Ty::Unknown };
                let mut subst = Vec::new();
                if let Some(t) = adt {
                    // The impl's parameters bound by the receiver's arguments (`impl<T>
                    // Wrapper<T>`: `T` is the receiver's first argument).
                    if let Some(&i) = index.impl_of.get(&m.1)
                        && let Some(info) = index.impls.get(i as usize)
                    {
                        let (_, self_args) = split_generic(&info.self_ty);
                        subst = self_args.into_iter().zip(args.iter().cloned()).collect();
                    } else {
                        subst = self.type_subst(t, &args);
                    }
                }
                if ret == "Self" {
                    return ty;
                }
                self.subst_type(m.0, Some(m.1), ret, &subst, depth + 1)
            }
            _ => match ty {
                Ty::Ext(base, args) => ext_return(&base, &args, &c.name).unwrap_or(Ty::Unknown),
                _ => Ty::Unknown,
            },
        }
    }

    /// Method `name` on a value of type `ty`.
    fn method_on(&self, ty: Ty, name: &str, depth: u32) -> Found {
        // Only for types whose own methods are all known (the workspace's, trait bounds): a
        // std type's inherent methods are not.
        let known = matches!(ty, Ty::Adt(..) | Ty::Traits(_));
        // A std iterator, or a value of a type not known: std's methods are not known one by
        // one, but their names are (`STD_ITERATOR_METHODS`, `STD_VALUE_METHODS`).
        let has = |names: &str| names.split_ascii_whitespace().any(|n| n == name);
        let open = match &ty {
            Ty::Ext(base, _) if STD_ITERATORS.split_ascii_whitespace().any(|n| n == base) => {
                Some(has(STD_ITERATOR_METHODS))
            }
            Ty::Unknown => Some(has(STD_ITERATOR_METHODS) || has(STD_VALUE_METHODS)),
            _ => None,
        };
        match self.method_on_type(ty, name, depth) {
            // A method of a trait in scope (an extension trait with a blanket impl:
            // `AsyncReadExt::read` on any reader).
            Found::External if known => match self.trait_in_scope(name, false, depth) {
                Some(m) => Found::Member(m),
                None => Found::External,
            },
            // An extension trait implemented for every type (`impl<T: Iterator> Itertools for
            // T`) reaches std's iterators and values of unknown types, unless std has a
            // method of that name, which would win (or make the call ambiguous).
            f @ (Found::External | Found::Missing) if open == Some(false) => {
                self.trait_in_scope(name, true, depth).map_or(f, Found::Member)
            }
            f => f,
        }
    }

    /// The blanket impl of an extension trait `t`: its file implements it only for a type
    /// parameter of the impl (`impl<T: Iterator + ?Sized> Itertools for T`), once. A trait
    /// also implemented there for named types (`impl Index for str` beside `impl<T> Index for
    /// &T`, where the parameter stands behind a reference the facts do not keep) is not one.
    fn blanket_impl(&self, t: Target) -> Option<u32> {
        let index = self.index(t.0);
        let name = index.name(t.1);
        let mut blanket = None;
        for (i, imp) in index.impls.iter().enumerate() {
            let of_t = imp.trait_.as_deref().is_some_and(|tr| {
                codegraph_parse::rust_strip_type_args(tr).rsplit("::").next() == Some(name)
            });
            if !of_t {
                continue;
            }
            if blanket.is_some() || !imp.type_params.contains(&imp.self_ty) {
                return None;
            }
            blanket = u32::try_from(i).ok();
        }
        blanket
    }

    /// The traits the file brings into scope (declared in it, named by its `use` leaves,
    /// or glob-imported), once per file.
    fn traits_in_scope(&self) -> std::cell::Ref<'_, [Target]> {
        if self.traits.borrow().is_none() {
            let mut out: Vec<Target> = Vec::new();
            let index = self.index(self.file);
            for (i, (k, _, _)) in index.symbols.iter().enumerate() {
                if *k == NodeKind::Interface
                    && let Ok(i) = u32::try_from(i)
                {
                    out.push((self.file, i));
                }
            }
            for (_, source, imported, local) in &index.uses {
                match imported {
                    Imported::Named(n) => {
                        if !n.starts_with(|c: char| c.is_uppercase()) {
                            continue;
                        }
                        let name = local.as_deref().unwrap_or(n);
                        let found = if name == "_" {
                            let mut segs = source.clone();
                            segs.push(n.clone());
                            self.use_path(self.file, &segs, Ns::Type, 1)
                        } else {
                            self.imported(self.file, name, Ns::Type, 1)
                        };
                        if let Some(Def::Item(t)) = found
                            && self.index(t.0).kind(t.1) == Some(NodeKind::Interface)
                        {
                            out.push(t);
                        }
                    }
                    Imported::All => {
                        let Some(Def::Module(r, p)) = self.use_path(self.file, source, Ns::Type, 1)
                        else {
                            continue;
                        };
                        for &f in self.module_files(&r, &p) {
                            let fi = self.index(f);
                            for (i, (k, _, _)) in fi.symbols.iter().enumerate() {
                                if *k == NodeKind::Interface
                                    && fi.parent(u32::try_from(i).unwrap_or(u32::MAX)).is_none()
                                    && let Ok(i) = u32::try_from(i)
                                {
                                    out.push((f, i));
                                }
                            }
                            for (_, _, imp, l) in &fi.uses {
                                let Imported::Named(n) = imp else { continue };
                                let nm = l.as_deref().unwrap_or(n);
                                if !nm.starts_with(|c: char| c.is_uppercase()) {
                                    continue;
                                }
                                if let Some(Def::Item(t)) = self.imported(f, nm, Ns::Type, 1)
                                    && self.index(t.0).kind(t.1) == Some(NodeKind::Interface)
                                {
                                    out.push(t);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            let mut seen = HashSet::default();
            out.retain(|t| seen.insert(*t));
            *self.traits.borrow_mut() = Some(out);
        }
        std::cell::Ref::map(self.traits.borrow(), |t| t.as_deref().unwrap_or(&[]))
    }

    /// A method `name` (taking `self`) of a trait in scope, when exactly one declares it. With
    /// `blanket`, only extension traits count ([`Local::blanket_impl`]), and the blanket impl's
    /// own method of that name comes before the trait's (its default body).
    fn trait_in_scope(&self, name: &str, blanket: bool, depth: u32) -> Option<Target> {
        let traits = self.traits_in_scope().to_vec();
        let mut found: Option<Target> = None;
        for t in traits {
            let own = if blanket {
                let Some(imp) = self.blanket_impl(t) else { continue };
                self.index(t.0).impls.get(imp as usize).and_then(|i| i.items.get(name))
            } else {
                None
            };
            let m = match own {
                Some(&m) => Some((t.0, m)),
                None => self.trait_item(t, name, depth + 1),
            };
            if let Some(m) = m
                && !self.index(m.0).selfless.contains(&m.1)
            {
                if found.is_some_and(|f| f != m) {
                    return None;
                }
                found = Some(m);
            }
        }
        found
    }

    fn method_on_type(&self, ty: Ty, name: &str, depth: u32) -> Found {
        if depth > MAX_DEPTH {
            return Found::Missing;
        }
        match ty {
            Ty::Adt(t, args) => match self.method_on_adt(t, name, true, depth + 1) {
                // Not its own: its `Deref` target's (a guard, a wrapper).
                Found::External => match self.deref_target(t, &args, depth + 1) {
                    Some(target) => match self.method_on_type(target, name, depth + 1) {
                        Found::Missing => Found::External,
                        f => f,
                    },
                    None => Found::External,
                },
                f => f,
            },
            Ty::Traits(ts) => {
                for t in &ts {
                    if let Some(m) = self.trait_item(*t, name, depth + 1) {
                        return Found::Member(m);
                    }
                }
                Found::External
            }
            Ty::Ext(base, args) => {
                if POINTERS.contains(&base.as_str())
                    && let Some(inner) = args.into_iter().next()
                {
                    return match self.method_on(inner, name, depth + 1) {
                        Found::Missing => Found::External,
                        f => f,
                    };
                }
                Found::External
            }
            Ty::Unknown => Found::Missing,
        }
    }

    /// The type of a call's receiver.
    fn receiver_type(&self, scope: Option<SymbolIdx>, r: &Receiver, at: Pos, depth: u32) -> Ty {
        match r {
            Receiver::This => self.self_type(scope, at, depth + 1),
            Receiver::Path(p) => self.path_type(scope, p, at, depth),
            Receiver::CallResult(inner) => self.returned(scope, inner, at, depth),
            _ => Ty::Unknown,
        }
    }

    /// What a call resolves to, and why.
    fn callee(&self, scope: Option<SymbolIdx>, c: &Callee, at: Pos, depth: u32) -> (Found, Reason) {
        if depth > MAX_DEPTH {
            return (Found::Missing, Reason::NameOnly);
        }
        match &c.receiver {
            Receiver::None => {
                if c.name.is_empty() {
                    return (Found::Missing, Reason::NameOnly);
                }
                // A closure or function value held by a local.
                if self.local_hint(scope, &c.name, at).is_some() {
                    return (Found::Missing, Reason::NameOnly);
                }
                match self.name_in_scope(self.file, scope, &c.name, Ns::Value, depth + 1) {
                    Some(Def::Item(t)) => (
                        callable(self.index(t.0), t),
                        reason_for(self.file, t.0, Reason::ImportResolved),
                    ),
                    Some(Def::External) => (Found::External, Reason::ImportResolved),
                    Some(Def::Module(..)) | None => (Found::Missing, Reason::NameOnly),
                }
            }
            Receiver::Path(p) if p.first().is_some_and(|f| f == "::") => {
                // `T::m()` / `Self::m()` in a trait: an item of the parameter's bound traits.
                if p.len() == 2
                    && let Some(bounds) = self.generic_bounds(self.file, scope, &p[1])
                {
                    for b in bounds {
                        if let Ty::Traits(ts) = self.ty_named(self.file, scope, &b, depth + 1) {
                            for t in ts {
                                if let Some(m) = self.trait_item(t, &c.name, depth + 1) {
                                    return (Found::Member(m), Reason::TypedReceiver);
                                }
                            }
                        }
                    }
                    return (Found::External, Reason::TypedReceiver);
                }
                let mut segs: Vec<String> = p[1..].iter().map(|s| s.to_string()).collect();
                segs.push(c.name.to_string());
                match self.path(self.file, scope, &segs, Ns::Value, depth + 1) {
                    Some(Def::Item(t)) => (
                        callable(self.index(t.0), t),
                        reason_for(self.file, t.0, Reason::ImportResolved),
                    ),
                    Some(Def::External) => (Found::External, Reason::ImportResolved),
                    Some(Def::Module(..)) => (Found::Missing, Reason::NameOnly),
                    None => {
                        // A path through a type outside the workspace or a generic parameter.
                        match self.path(self.file, scope, &p[1..], Ns::Type, depth + 1) {
                            Some(Def::External) => (Found::External, Reason::ImportResolved),
                            _ => (Found::Missing, Reason::NameOnly),
                        }
                    }
                }
            }
            Receiver::This | Receiver::Path(_) | Receiver::CallResult(_) => {
                let ty = self.receiver_type(scope, &c.receiver, at, depth + 1);
                let reason = if c.receiver == Receiver::This {
                    Reason::ThisDispatch
                } else if ty == Ty::Unknown {
                    // Only an extension trait in scope can resolve it (`method_on`).
                    Reason::ImportResolved
                } else {
                    Reason::TypedReceiver
                };
                let found = self.method_on(ty, &c.name, depth + 1);
                let reason = match found {
                    Found::Member(t) => reason_for(self.file, t.0, reason),
                    _ => reason,
                };
                (found, reason)
            }
            // Any other expression (`(0..n).m()`, `[a, b].m()`): a value of unknown type, which
            // only an extension trait in scope can resolve.
            Receiver::Other if !c.name.is_empty() => {
                let found = self.method_on(Ty::Unknown, &c.name, depth + 1);
                let reason = match found {
                    Found::Member(t) => reason_for(self.file, t.0, Reason::ImportResolved),
                    _ => Reason::NameOnly,
                };
                (found, reason)
            }
            _ => (Found::Missing, Reason::NameOnly),
        }
    }

    /// The declaration a callee-shaped reference names (a route handler, a function value).
    fn reference(
        &self,
        scope: Option<SymbolIdx>,
        callee: &Callee,
        at: Pos,
    ) -> Option<(Target, Reason)> {
        match self.callee(scope, callee, at, 0) {
            (Found::Member(t), reason) => Some((t, reason)),
            _ => None,
        }
    }
}

/// What calling item `t` is: a function, a method, a tuple struct or variant (its
/// construction); anything else (a module, a trait, a const) is no call target.
fn callable(index: &RustIndex, t: Target) -> Found {
    match index.kind(t.1) {
        Some(NodeKind::Function | NodeKind::Method | NodeKind::Struct | NodeKind::Constant) => {
            Found::Member(t)
        }
        Some(NodeKind::Macro) => Found::Member(t),
        _ => Found::Missing,
    }
}

fn reason_for(file: SourceFile, target: SourceFile, reason: Reason) -> Reason {
    if file == target && reason == Reason::ImportResolved { Reason::SameFile } else { reason }
}

fn parent_module(p: &str) -> &str {
    p.rsplit_once("::").map_or("", |(a, _)| a)
}

fn join_module(p: &str, name: &str) -> String {
    if p.is_empty() { name.to_string() } else { format!("{p}::{name}") }
}

/// `Vec<Map<K,V>>` -> (`Vec`, [`Map<K,V>`]).
fn split_generic(text: &str) -> (String, Vec<String>) {
    let plain = codegraph_parse::rust_strip_type_args(text);
    let (Some(open), Some(close)) = (text.find('<'), text.rfind('>')) else {
        return (plain, Vec::new());
    };
    if close <= open {
        return (plain, Vec::new());
    }
    let args = index::top_level(&text[open + 1..close])
        .into_iter()
        .map(str::trim)
        .filter(|a| !a.is_empty() && !a.contains('='))
        .map(str::to_string)
        .collect();
    (plain, args)
}

/// The std traits whose `Item=T` binding says what iterating gives.
const ITERATOR_TRAITS: &[&str] = &[
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "FusedIterator",
    "std::iter::Iterator",
    "core::iter::Iterator",
];

/// The `Item=T` binding of `Iterator<Item=T>` (`T`).
fn item_binding(text: &str) -> Option<String> {
    let open = text.find('<')?;
    let close = text.rfind('>')?;
    index::top_level(text.get(open + 1..close)?)
        .into_iter()
        .find_map(|a| a.trim().strip_prefix("Item=").map(str::to_string))
}

/// Maps: iterating gives (key, value) tuples.
const MAPS: &[&str] = &["HashMap", "BTreeMap", "IndexMap"];

/// Containers whose elements are their first type argument.
const SEQUENCES: &[&str] = &[
    "Vec",
    "VecDeque",
    "LinkedList",
    "HashSet",
    "BTreeSet",
    "IndexSet",
    "BinaryHeap",
    "[]",
    "Iter",
    "IterMut",
    "IntoIter",
    "Option",
    "SmallVec",
    "Drain",
    "Peekable",
    "Rev",
    "Skip",
    "Take",
    "Cloned",
    "Copied",
    "Filter",
    "Chain",
];

/// What iterating a std container gives.
fn element_of(base: &str, args: &[Ty]) -> Ty {
    if MAPS.contains(&base) {
        return Ty::Ext("()".to_string(), args.to_vec());
    }
    if SEQUENCES.contains(&base) {
        return args.first().cloned().unwrap_or(Ty::Unknown);
    }
    if POINTERS.contains(&base)
        && let Some(Ty::Ext(b, a)) = args.first()
    {
        return element_of(b, a);
    }
    Ty::Unknown
}

/// What std's containers and wrappers return from their methods (by the receiver's type
/// arguments), when that is a type resolution can follow.
fn ext_return(base: &str, args: &[Ty], method: &str) -> Option<Ty> {
    let arg = |i: usize| args.get(i).cloned();
    let wrap = |b: &str, a: Vec<Ty>| Some(Ty::Ext(b.to_string(), a));
    let same = || Some(Ty::Ext(base.to_string(), args.to_vec()));
    match method {
        "clone" | "to_owned" | "as_ref" | "as_mut" | "borrow" | "borrow_mut" | "by_ref" => {
            if matches!(base, "RefCell") && method.starts_with("borrow") {
                return arg(0);
            }
            return same();
        }
        "to_string" | "to_uppercase" | "to_lowercase" | "trim" | "format" => {
            return wrap("String", vec![]);
        }
        _ => {}
    }
    match base {
        "Option" | "Result" | "Poll" => match method {
            // What the closure makes is not known, but it is still an option / a result.
            "map" | "and_then" | "map_err" | "map_or_else" | "zip" | "flatten" => {
                wrap(base, Vec::new())
            }
            "ok_or" | "ok_or_else" => wrap("Result", arg(0).into_iter().collect()),
            "unwrap" | "expect" | "unwrap_or" | "unwrap_or_default" | "unwrap_or_else"
            | "unwrap_unchecked" => arg(0),
            "as_deref" | "as_deref_mut" | "take" | "or" | "or_else" | "filter" | "cloned"
            | "copied" | "replace" => same(),
            "ok" => wrap("Option", arg(0).into_iter().collect()),
            "iter" | "iter_mut" | "into_iter" => wrap("Iter", arg(0).into_iter().collect()),
            _ => None,
        },
        "Vec" | "VecDeque" | "[]" | "SmallVec" | "LinkedList" | "BinaryHeap" | "HashSet"
        | "BTreeSet" | "IndexSet" => match method {
            "iter" | "iter_mut" | "into_iter" | "drain" => {
                wrap("Iter", arg(0).into_iter().collect())
            }
            "get" | "get_mut" | "first" | "last" | "first_mut" | "last_mut" | "pop"
            | "pop_front" | "pop_back" | "front" | "back" | "peek" => {
                wrap("Option", arg(0).into_iter().collect())
            }
            "remove" | "swap_remove" => arg(0),
            "as_slice" | "as_mut_slice" => same(),
            _ => None,
        },
        "HashMap" | "BTreeMap" | "IndexMap" => match method {
            "iter" | "iter_mut" | "into_iter" | "drain" => {
                wrap("Iter", vec![Ty::Ext("()".to_string(), args.to_vec())])
            }
            "get" | "get_mut" | "remove" => wrap("Option", arg(1).into_iter().collect()),
            "values" | "values_mut" | "into_values" => wrap("Iter", arg(1).into_iter().collect()),
            "keys" | "into_keys" => wrap("Iter", arg(0).into_iter().collect()),
            _ => None,
        },
        "Iter" | "IterMut" | "IntoIter" | "Peekable" | "Rev" | "Skip" | "Take" | "Cloned"
        | "Copied" | "Filter" | "Chain" | "Drain" => match method {
            "next" | "next_back" | "last" | "nth" | "min" | "max" | "find" | "peek"
            | "min_by_key" | "max_by_key" | "min_by" | "max_by" => {
                wrap("Option", arg(0).into_iter().collect())
            }
            "filter" | "rev" | "skip" | "take" | "peekable" | "cloned" | "copied" | "step_by"
            | "skip_while" | "take_while" | "inspect" | "fuse" | "chain" => {
                wrap("Iter", arg(0).into_iter().collect())
            }
            // Iterators of something not known.
            "map" | "filter_map" | "flat_map" | "enumerate" | "zip" | "map_while" | "scan"
            | "flatten" => wrap("Iter", Vec::new()),
            _ => None,
        },
        "RefCell" | "Cell" => match method {
            "get" | "into_inner" => arg(0),
            _ => None,
        },
        "Mutex" | "RwLock" => match method {
            "lock" | "read" | "write" | "try_lock" => wrap("Result", arg(0).into_iter().collect()),
            "into_inner" | "get_mut" => wrap("Result", arg(0).into_iter().collect()),
            _ => None,
        },
        "Rc" | "Arc" | "Box" | "Weak" => match method {
            "upgrade" => wrap("Option", vec![Ty::Ext(base.to_string(), args.to_vec())]),
            _ => None,
        },
        _ => None,
    }
}

fn sym_id(db: &dyn salsa::Database, t: Target) -> Option<Id> {
    symbol_ids(db, t.0).get(t.1 as usize).cloned()
}

/// A callee as written, for an unresolved site.
fn render(c: &Callee) -> String {
    let recv = match &c.receiver {
        Receiver::None => String::new(),
        Receiver::This => "self.".to_string(),
        Receiver::Super => "super.".to_string(),
        Receiver::Path(p) if p.first().is_some_and(|f| f == "::") => {
            format!("{}::", p[1..].join("::"))
        }
        Receiver::Path(p) if p.first().is_some_and(|f| f == "new") => {
            format!("({} {{..}}).", p.get(1).map_or("", |s| s.as_str()))
        }
        Receiver::Path(p) => format!("{}.", p.join(".")),
        Receiver::CallResult(inner) if inner.name == "?" => {
            format!("{}?.", render_recv(&inner.receiver))
        }
        Receiver::CallResult(inner) => format!("{}().", render(inner)),
        Receiver::Other => "(…).".to_string(),
    };
    if c.name.is_empty() {
        format!("{}(…)", recv.trim_end_matches('.'))
    } else {
        format!("{recv}{}", c.name)
    }
}

fn render_recv(r: &Receiver) -> String {
    let c = Callee { receiver: r.clone(), name: String::new().into() };
    render(&c).trim_end_matches("(…)").to_string()
}

/// Whether a function is a test: `#[test]`, `#[tokio::test]`, `#[rstest]`... in its
/// attributes.
fn is_test_fn(signature: &str) -> bool {
    signature.starts_with("#[")
        && (signature.contains("test]")
            || signature.contains("test(")
            || signature.contains("::test"))
}

/// The test a call belongs to: the outermost function around it, when it is a test (or in a
/// test file).
fn test_of(facts: &FileFacts, scope: Option<SymbolIdx>, in_test_file: bool) -> Option<SymbolIdx> {
    let mut cur = scope?;
    let mut func = None;
    loop {
        let s = facts.symbols.get(cur as usize)?;
        if matches!(s.kind, NodeKind::Function | NodeKind::Method) {
            func = Some(cur);
        }
        match s.parent {
            Some(p) => cur = p,
            None => break,
        }
    }
    let f = func?;
    let sym = facts.symbols.get(f as usize)?;
    (in_test_file || is_test_fn(&sym.signature)).then_some(f)
}

fn resolve_rows(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> Resolved {
    let held = file_facts(db, file);
    let l = Local::new(db, workspace, file, &held);
    let facts = l.facts;
    let index = l.index(file);
    let fid = file_id(file.path(db));
    let ids = symbol_ids(db, file);
    let mut out = Resolved::default();

    // IMPORTS: file -> the file of each imported item of the workspace.
    let mut imported: HashSet<Id> = HashSet::default();
    for imp in &facts.imports {
        for b in &imp.bindings {
            let mut segs: Vec<String> = if imp.source.is_empty() {
                Vec::new()
            } else {
                imp.source.split("::").map(str::to_string).collect()
            };
            if let Imported::Named(n) = &b.imported {
                segs.push(n.clone());
            }
            let target_file = match l.use_path(file, &segs, Ns::Any, 0) {
                Some(Def::Item(t)) => Some(t.0),
                Some(Def::Module(r, p)) => l.module_files(&r, &p).first().copied(),
                _ => None,
            };
            if let Some(f) = target_file
                && f != file
            {
                let dst = file_id(f.path(db));
                if imported.insert(dst.clone()) {
                    out.edges.push(Edge::new(
                        fid.clone(),
                        dst,
                        EdgeKind::Imports,
                        Reason::ImportResolved,
                        imp.line,
                    ));
                }
            }
        }
    }

    // IMPLEMENTS: type -> trait, for each impl of a trait of the workspace for a type of it.
    if let Some(r) = facts.rust() {
        for (i, imp) in r.impls.iter().enumerate() {
            let Some(tr) = &imp.trait_ else { continue };
            let scope = r.impls[i]
                .items
                .first()
                .and_then(|&it| facts.symbols.get(it as usize))
                .and_then(|s| s.parent);
            let self_segs: Vec<String> = codegraph_parse::rust_strip_type_args(&imp.self_ty)
                .split("::")
                .map(str::to_string)
                .collect();
            let tr_segs: Vec<String> =
                codegraph_parse::rust_strip_type_args(tr).split("::").map(str::to_string).collect();
            let (Some(Def::Item(t)), Some(Def::Item(trt))) = (
                l.path(file, scope, &self_segs, Ns::Type, 0),
                l.path(file, scope, &tr_segs, Ns::Type, 0),
            ) else {
                continue;
            };
            if l.index(trt.0).kind(trt.1) != Some(NodeKind::Interface) {
                continue;
            }
            let (Some(src), Some(dst)) = (sym_id(db, t), sym_id(db, trt)) else { continue };
            let reason = if t.0 == file && trt.0 == file {
                Reason::SameFile
            } else {
                Reason::ImportResolved
            };
            out.edges.push(Edge::new(src, dst, EdgeKind::Implements, reason, imp.line));
        }
    }

    // EXTENDS: trait -> supertrait.
    for h in &facts.heritage {
        let Some(src) = ids.get(h.symbol as usize) else { continue };
        let around = index.parent(h.symbol);
        let segs: Vec<String> = codegraph_parse::rust_strip_type_args(&h.target)
            .split("::")
            .map(str::to_string)
            .collect();
        let Some(Def::Item(t)) = l.path(file, around, &segs, Ns::Type, 0) else { continue };
        if t == (file, h.symbol) || l.index(t.0).kind(t.1) != Some(NodeKind::Interface) {
            continue;
        }
        let Some(dst) = sym_id(db, t) else { continue };
        let line = facts.symbols.get(h.symbol as usize).map_or(0, |s| s.start_line);
        let reason = if t.0 == file { Reason::SameFile } else { Reason::ImportResolved };
        out.edges.push(Edge::new(src.clone(), dst, EdgeKind::Extends, reason, line));
    }

    // CALLS and TESTS.
    let in_test_file = crate::graph::is_test(db, file);
    let mut tested = crate::tested::Tested::default();
    let from_args: HashMap<u32, &Receiver> =
        facts.rust().iter().flat_map(|r| r.from_args.iter().map(|(i, a)| (*i, a))).collect();
    for (i, site) in facts.calls.iter().enumerate() {
        let at = pos(site.line, site.col);
        let (mut found, reason) = l.callee(site.enclosing, &site.callee, at, 0);
        if let Found::Member(_) = found
            && let Some(arg) = u32::try_from(i).ok().and_then(|i| from_args.get(&i))
            && let Some(picked) = l.impl_taking(site.enclosing, &site.callee, arg, at)
        {
            found = Found::Member(picked);
        }
        match found {
            Found::Member(t) => {
                let Some(dst) = sym_id(db, t) else {
                    out.unresolved.push(unresolved(
                        db,
                        file,
                        site.enclosing,
                        site.line,
                        &site.callee,
                    ));
                    continue;
                };
                out.resolved_calls += 1;
                let reason = reason_for(file, t.0, reason);
                let caller = caller_id(db, file, site.enclosing);
                if let Some(test) = test_of(facts, site.enclosing, in_test_file) {
                    tested.add(db, ids.get(test as usize), (&dst, t.0, reason, site.line));
                }
                out.edges.push(Edge::new(caller, dst, EdgeKind::Calls, reason, site.line));
            }
            Found::External => out.external_calls += 1,
            Found::Missing => {
                out.unresolved.push(unresolved(db, file, site.enclosing, site.line, &site.callee));
            }
        }
    }

    // ACCESSES: a field read or written through a receiver that resolves.
    for a in &facts.accesses {
        let ty = l.receiver_type(a.enclosing, &a.receiver, pos(a.line, u32::MAX), 0);
        let Ty::Adt(t, _) = ty else { continue };
        let Some(f) = l.index(t.0).child(t.1, &a.name) else { continue };
        if l.index(t.0).kind(f) != Some(NodeKind::Property) {
            continue;
        }
        if let Some(dst) = sym_id(db, (t.0, f)) {
            let src = caller_id(db, file, a.enclosing);
            let reason = if t.0 == file { Reason::SameFile } else { Reason::TypedReceiver };
            out.edges.push(Edge::new(src, dst, EdgeKind::Accesses, reason, a.line));
        }
    }

    // REFERS_TO: functions passed as values.
    for site in &facts.value_refs {
        if site.callee.receiver == Receiver::None
            && l.local_hint(site.enclosing, &site.callee.name, pos(site.line, site.col)).is_some()
        {
            continue;
        }
        let (found, reason) = l.callee(site.enclosing, &site.callee, pos(site.line, site.col), 0);
        let Found::Member(t) = found else { continue };
        if !matches!(l.index(t.0).kind(t.1), Some(NodeKind::Function | NodeKind::Method)) {
            continue;
        }
        let Some(dst) = sym_id(db, t) else { continue };
        let reason = reason_for(file, t.0, reason);
        let src = caller_id(db, file, site.enclosing);
        if let Some(test) = test_of(facts, site.enclosing, in_test_file) {
            tested.add(db, ids.get(test as usize), (&dst, t.0, reason, site.line));
        }
        out.edges.push(Edge::new(src, dst, EdgeKind::RefersTo, reason, site.line));
    }
    // A unit test in the file it tests: no file -> same file TESTS edge.
    out.edges.extend(tested.into_edges(&fid).filter(|e| e.src != e.dst));
    crate::endpoints::add_endpoint_rows(db, workspace, file, &mut out, |scope, callee| {
        l.reference(scope, callee, Pos::MAX)
    });
    out.edges.sort();
    out.edges.dedup();
    out.unresolved.sort();
    out
}

fn unresolved(
    db: &dyn salsa::Database,
    file: SourceFile,
    enclosing: Option<SymbolIdx>,
    line: u32,
    callee: &Callee,
) -> UnresolvedSite {
    UnresolvedSite { line, caller: caller_id(db, file, enclosing), callee: render(callee) }
}

impl LanguageResolver for RustResolver {
    fn own_summaries(&self, db: &dyn salsa::Database, file: SourceFile) {
        index::rust_index(db, file);
        index::impl_heads(db, file);
    }
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        self.own_summaries(db, key.file(db));
        layout::file_module(db, key);
        true
    }
    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        resolve_rows(db, key.workspace(db), key.file(db))
    }

    fn reference(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        callee: &Callee,
        line: u32,
    ) -> Option<(Target, Reason)> {
        let held = file_facts(db, file);
        Local::new(db, workspace, file, &held).reference(scope, callee, pos(line, u32::MAX))
    }

    fn has_endpoints(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::split_generic;

    #[test]
    fn generic_types_split_into_the_type_and_its_arguments() {
        let s = |t: &str| split_generic(t);
        assert_eq!(s("Vec<Item>"), ("Vec".to_string(), vec!["Item".to_string()]));
        assert_eq!(
            s("HashMap<String,Vec<Item>>"),
            ("HashMap".to_string(), vec!["String".to_string(), "Vec<Item>".to_string()])
        );
        assert_eq!(s("Iterator<Item=T>"), ("Iterator".to_string(), vec![]));
        assert_eq!(s("a::Foo"), ("a::Foo".to_string(), vec![]));
    }
}
