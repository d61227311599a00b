//! The per-file lookup tables resolution needs, built from that file's facts only: symbols by
//! name and qualified name, what the module exports (local symbols, re-exports, `export *`),
//! the names its imports bind, type hints by scope and name, return types and heritage.
//!
//! [`file_index`] is tracked and reads nothing but [`file_facts`] of its own file, so it is the
//! per-file firewall: other files' edits never re-run it, and an edit that leaves it equal stops
//! propagation to the resolution of the files that import this one. To make "equal" the usual
//! outcome of an edit inside a function body, it holds no line numbers, signatures or call
//! sites (its symbols are [`SymInfo`]s), and the hints of function and method scopes (locals
//! and parameters, which other files never look at) live apart in [`file_local_hints`].

use codegraph_db::{SourceFile, file_facts};
use codegraph_parse::{HeritageKind, HintSource, ImportKind, Imported, SymbolIdx};
use codegraph_schema::NodeKind;
use std::collections::HashMap;

/// An export of a module, before following re-exports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Export {
    /// A top-level symbol of this file.
    Local(SymbolIdx),
    /// `export { x as y } from './m'` (`imported` is `x`) / `export { default as y } from`.
    Reexport { import: u32, imported: Imported },
}

/// What other files need of a symbol: no lines, signature or doc.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct SymInfo {
    pub kind: NodeKind,
    pub name: String,
    pub qualified_name: String,
    pub parent: Option<SymbolIdx>,
    pub exported: bool,
}

/// Type hints by (scope, name), in source order: the first that names a class or interface
/// wins (a declared union alias, then an `instanceof` narrowing).
pub(crate) type Hints = HashMap<(Option<SymbolIdx>, String), Vec<HintSource>>;

#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct FileIndex {
    /// The file's symbols, index-aligned with its facts.
    pub syms: Vec<SymInfo>,
    /// Top-level symbols by name; values win over types when a name is declared twice.
    pub top: HashMap<String, SymbolIdx>,
    /// Every symbol by qualified name (first declaration).
    pub by_qname: HashMap<String, SymbolIdx>,
    /// Exported names (`default` included when the file declares one).
    pub exports: HashMap<String, Export>,
    /// Imports that are `export * from`.
    pub stars: Vec<u32>,
    /// Local names bound by imports: name -> (import index, what it imports).
    pub bindings: HashMap<String, (u32, Imported)>,
    /// Hints of module, class, interface and object-literal scopes (see [`file_local_hints`]
    /// for function scopes).
    pub hints: Hints,
    /// Function-typed parameters: (function, parameter position, its parameter) -> type.
    pub param_fns: HashMap<(SymbolIdx, u32, u32), String>,
    /// Declared return type of functions and methods.
    pub returns: HashMap<SymbolIdx, String>,
    /// Parameters with a written type: (function, position) -> name (its type is the name's
    /// hint in the function's scope).
    pub params: HashMap<(SymbolIdx, u32), String>,
    /// Heritage clauses by declaring symbol, in source order.
    pub heritage: HashMap<SymbolIdx, Vec<Base>>,
    /// Type parameters by declaring symbol, in order: (name, constraint).
    pub type_params: HashMap<SymbolIdx, Vec<(String, Option<String>)>>,
    /// Type aliases that name a type -> that type (`type ZodTypeAny = ZodType<any, any>`).
    pub aliases: HashMap<SymbolIdx, String>,
    /// The type arguments of a declared return type (`$constructor<T, D>`), by function.
    pub return_args: HashMap<SymbolIdx, Vec<String>>,
    /// The type arguments of the first annotation of a module, class or interface scope name
    /// (`const ZodType: core.$constructor<ZodType>`).
    pub annotation_args: HashMap<(Option<SymbolIdx>, String), Vec<String>>,
    /// A value declared beside a class or interface of the same name in the same scope
    /// (`function $constructor` and `interface $constructor<T>`, `const X` and `interface X`)
    /// -> that type (the first): what the name means in a type position.
    pub type_twins: HashMap<SymbolIdx, SymbolIdx>,
}

/// One heritage clause: `extends ZodType<Out, ZodObjectDef<T>>` is (Extends, `ZodType`,
/// [`Out`, `ZodObjectDef`]), each argument reduced as hint types are (empty: no named type).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Base {
    pub kind: HeritageKind,
    pub target: String,
    pub args: Vec<String>,
}

/// The first value and the first class or interface declared under one name in one scope.
type Twins = (Option<SymbolIdx>, Option<SymbolIdx>);

fn is_value(kind: NodeKind) -> bool {
    !matches!(kind, NodeKind::Interface | NodeKind::TypeAlias)
}

/// Whether a hint's scope is a function or method (its locals and parameters).
pub(crate) fn is_local_scope(facts: &codegraph_parse::FileFacts, scope: Option<SymbolIdx>) -> bool {
    scope.and_then(|s| facts.symbols.get(s as usize)).is_some_and(|s| is_function(s.kind))
}

/// Function-like symbol kinds: their scopes hold locals and parameters.
pub(crate) fn is_function(kind: NodeKind) -> bool {
    // A test block is the callback it is written as: its locals are a function's.
    matches!(kind, NodeKind::Function | NodeKind::Method | NodeKind::Test)
}

/// The hints of function and method scopes (locals and parameters): only the file's own
/// resolution reads them, so an edit that changes them does not reach importers.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_local_hints(db: &dyn salsa::Database, file: SourceFile) -> Hints {
    let facts = &file_facts(db, file);
    let mut hints = Hints::new();
    for h in &facts.type_hints {
        if matches!(h.source, HintSource::Return(_) | HintSource::ParamFn { .. })
            || !is_local_scope(facts, h.scope)
        {
            continue;
        }
        hints.entry((h.scope, h.name.to_string())).or_default().push(h.source.clone());
    }
    hints
}

/// The parameters and locals the file's functions call ([`NodeKind::Parameter`] symbols), by
/// (the symbol they hang off, name): what a call marked `local` calls. Only the file's own
/// resolution reads it.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_called_locals(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> HashMap<(Option<SymbolIdx>, String), SymbolIdx> {
    let facts = &file_facts(db, file);
    let mut out = HashMap::new();
    for (i, s) in facts.symbols.iter().enumerate() {
        if s.kind == NodeKind::Parameter {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            out.entry((s.parent, s.name.clone())).or_insert(i);
        }
    }
    out
}

#[salsa::tracked(returns(ref))]
pub(crate) fn file_index(db: &dyn salsa::Database, file: SourceFile) -> FileIndex {
    let facts = &file_facts(db, file);
    let mut ix = FileIndex::default();
    // (scope, name) -> the first value and the first class or interface declared under it.
    let mut named: HashMap<(Option<SymbolIdx>, &str), Twins> = HashMap::new();
    for (i, s) in facts.symbols.iter().enumerate() {
        // Called parameters and locals come last (the walker appends them): only the file's
        // own calls name them ([`file_called_locals`]), so they stay out of the firewall.
        if s.kind == NodeKind::Parameter {
            break;
        }
        ix.syms.push(SymInfo {
            kind: s.kind,
            name: s.name.clone(),
            qualified_name: s.qualified_name.clone(),
            parent: s.parent,
            exported: s.exported,
        });
        let i = u32::try_from(i).unwrap_or(u32::MAX);
        ix.by_qname.entry(s.qualified_name.clone()).or_insert(i);
        let (value, ty) = named.entry((s.parent, s.name.as_str())).or_default();
        if matches!(s.kind, NodeKind::Class | NodeKind::Interface) {
            ty.get_or_insert(i);
        }
        if is_value(s.kind) && s.kind != NodeKind::Class {
            value.get_or_insert(i);
        }
        // A test block is named by its title, a string: never a name in scope.
        if s.parent.is_none() && s.kind != NodeKind::Test {
            let replace = match ix.top.get(&s.name) {
                None => true,
                Some(&old) => facts
                    .symbols
                    .get(old as usize)
                    .is_some_and(|o| !is_value(o.kind) && is_value(s.kind)),
            };
            if replace {
                ix.top.insert(s.name.clone(), i);
                if s.exported {
                    ix.exports.insert(s.name.clone(), Export::Local(i));
                }
            }
        }
    }
    ix.type_twins = named.into_values().filter_map(|(v, t)| Some((v?, t?))).collect();
    for (n, imp) in facts.imports.iter().enumerate() {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        match imp.kind {
            ImportKind::ReExport => {
                for b in &imp.bindings {
                    let exported = match (&b.local, &b.imported) {
                        (_, Imported::All) => {
                            ix.stars.push(n);
                            continue;
                        }
                        (Some(l), _) => l.clone(),
                        (None, Imported::Named(x)) => x.clone(),
                        (None, Imported::Default) => "default".to_string(),
                        (None, Imported::Namespace) => continue,
                    };
                    ix.exports
                        .entry(exported)
                        .or_insert(Export::Reexport { import: n, imported: b.imported.clone() });
                }
            }
            ImportKind::EsImport | ImportKind::TypeOnly | ImportKind::Require => {
                for b in &imp.bindings {
                    let local = match (&b.local, &b.imported) {
                        (Some(l), _) => l.clone(),
                        (None, Imported::Named(x)) => x.clone(),
                        _ => continue,
                    };
                    ix.bindings.entry(local).or_insert((n, b.imported.clone()));
                }
            }
            ImportKind::Dynamic | ImportKind::Package | ImportKind::Path | ImportKind::Module => {}
        }
    }
    // `export default router` (a top-level symbol or an imported binding): the module's
    // `default` under any importer's local name.
    if let Some(name) = &facts.default_export
        && !ix.exports.contains_key("default")
    {
        if let Some(&i) = ix.top.get(name) {
            ix.exports.insert("default".to_string(), Export::Local(i));
        } else if let Some((import, imported)) = ix.bindings.get(name).cloned() {
            ix.exports.insert("default".to_string(), Export::Reexport { import, imported });
        }
    }
    // `export { _await as await }`: the declaration or binding under a second name.
    for (local, exported) in &facts.export_aliases {
        if ix.exports.contains_key(exported) {
            continue;
        }
        if let Some(&i) = ix.top.get(local) {
            ix.exports.insert(exported.clone(), Export::Local(i));
        } else if let Some((import, imported)) = ix.bindings.get(local).cloned() {
            ix.exports.insert(exported.clone(), Export::Reexport { import, imported });
        }
    }
    let ts = facts.ts();
    // (index in a list of facts, arguments) pairs as a lookup by that index.
    let by_index = |pairs: &'_ [(u32, Vec<String>)]| -> HashMap<u32, Vec<String>> {
        pairs.iter().cloned().collect()
    };
    let hint_args = ts.map(|t| by_index(&t.hint_args)).unwrap_or_default();
    for (n, h) in facts.type_hints.iter().enumerate() {
        let args = hint_args.get(&u32::try_from(n).unwrap_or(u32::MAX));
        if let Some(args) = args {
            match (&h.source, h.scope) {
                (HintSource::Return(_), Some(s)) => {
                    ix.return_args.entry(s).or_insert_with(|| args.to_vec());
                }
                (HintSource::Annotation(_), _) if !is_local_scope(facts, h.scope) => {
                    ix.annotation_args
                        .entry((h.scope, h.name.to_string()))
                        .or_insert_with(|| args.to_vec());
                }
                _ => {}
            }
        }
        if let HintSource::Return(t) = &h.source {
            if let Some(s) = h.scope {
                ix.returns.entry(s).or_insert_with(|| t.clone());
            }
            continue;
        }
        if let (HintSource::ParamFn { index, param, ty }, Some(s)) = (&h.source, h.scope) {
            ix.param_fns.entry((s, *index, *param)).or_insert_with(|| ty.clone());
            continue;
        }
        if !is_local_scope(facts, h.scope) {
            ix.hints.entry((h.scope, h.name.to_string())).or_default().push(h.source.clone());
        }
    }
    let mut args = ts.map(|t| by_index(&t.heritage_args)).unwrap_or_default();
    for (n, h) in facts.heritage.iter().enumerate() {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        ix.heritage.entry(h.symbol).or_default().push(Base {
            kind: h.kind,
            target: h.target.clone(),
            args: args.remove(&n).unwrap_or_default(),
        });
    }
    if let Some(ts) = ts {
        for p in &ts.type_params {
            ix.type_params
                .entry(p.symbol)
                .or_default()
                .push((p.name.clone(), p.constraint.clone()));
        }
        ix.aliases = ts.aliases.iter().cloned().collect();
        for (function, position, name) in &ts.params {
            ix.params.entry((*function, *position)).or_insert_with(|| name.clone());
        }
    }
    ix
}
