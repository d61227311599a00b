//! What other files may know of a Rust file ([`rust_index`], an `Eq` firewall: its items by
//! name, `use` leaves, impl blocks with their items, field, return and alias types, generics,
//! supertraits, no lines) and which impl blocks of the workspace name a type
//! ([`impl_table`]).
//!
//! Why it exists: resolution of one file reads other files only through these tables, so an
//! edit inside a function body leaves them equal and only the edited file re-resolves.

use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{HintSource, ImportKind, Imported, Language, SymbolIdx};
use codegraph_schema::NodeKind;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// One `use` leaf: `(kind, source path segments, imported, local name)`.
pub(crate) type UseLeaf = (ImportKind, Vec<String>, Imported, Option<String>);

/// An impl block as other files see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ImplInfo {
    pub self_ty: String,
    pub trait_: Option<String>,
    /// Its items by name (the first of a name).
    pub items: HashMap<String, SymbolIdx>,
    /// Its type parameters as written (`T`, `T:Tr+Send`).
    pub type_params: Vec<String>,
}

/// One Rust file as other files see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RustIndex {
    /// Every symbol's kind, parent and name, index-aligned with the facts' symbols.
    pub symbols: Vec<(NodeKind, Option<SymbolIdx>, String)>,
    /// Items outside any function, type or impl (module level, inline modules included) by
    /// name, in declaration order.
    pub items: HashMap<String, Vec<SymbolIdx>>,
    pub uses: Vec<UseLeaf>,
    pub impls: Vec<ImplInfo>,
    /// The impl block each impl item is in.
    pub impl_of: HashMap<SymbolIdx, u32>,
    /// A function's declared return type, a `const`'s or `static`'s type (normalized).
    pub returns: HashMap<SymbolIdx, String>,
    /// A struct's (or variant's) field types: (type symbol, field name) -> type.
    pub fields: HashMap<(SymbolIdx, String), String>,
    /// A type alias's target.
    pub aliases: HashMap<SymbolIdx, String>,
    /// The generic parameters a function, type or trait declares, with their trait bounds
    /// as written (`fn f<T: A + B>(..) where U: C` -> `[(T, [A, B]), (U, [C])]`).
    pub generics: HashMap<SymbolIdx, Vec<(String, Vec<String>)>>,
    /// A trait's supertraits as written.
    pub supertraits: HashMap<SymbolIdx, Vec<String>>,
    /// `mod x;` declarations.
    pub mods: Vec<String>,
    /// Which of `uses` are behind a `#[cfg(..)]` (may be compiled out), index-aligned.
    pub gated: Vec<bool>,
    /// Each symbol's children, in declaration order.
    pub children: HashMap<SymbolIdx, Vec<SymbolIdx>>,
    /// Functions of impls and traits without a `self` parameter (associated functions: not
    /// callable with method syntax).
    pub selfless: rustc_hash::FxHashSet<SymbolIdx>,
}

impl RustIndex {
    pub(crate) fn kind(&self, i: SymbolIdx) -> Option<NodeKind> {
        self.symbols.get(i as usize).map(|s| s.0)
    }

    pub(crate) fn parent(&self, i: SymbolIdx) -> Option<SymbolIdx> {
        self.symbols.get(i as usize).and_then(|s| s.1)
    }

    pub(crate) fn name(&self, i: SymbolIdx) -> &str {
        self.symbols.get(i as usize).map_or("", |s| s.2.as_str())
    }

    /// The first child of `parent` named `name`.
    pub(crate) fn child(&self, parent: SymbolIdx, name: &str) -> Option<SymbolIdx> {
        self.children.get(&parent)?.iter().copied().find(|&c| self.name(c) == name)
    }
}

#[salsa::tracked(returns(ref))]
pub(crate) fn rust_index(db: &dyn salsa::Database, file: SourceFile) -> RustIndex {
    let facts = &file_facts(db, file);
    let mut out = RustIndex {
        symbols: facts.symbols.iter().map(|s| (s.kind, s.parent, s.name.clone())).collect(),
        ..RustIndex::default()
    };
    let gated: rustc_hash::FxHashSet<u32> =
        facts.rust().map(|r| r.gated_imports.iter().copied().collect()).unwrap_or_default();
    for (ii, imp) in facts.imports.iter().enumerate() {
        let is_gated = u32::try_from(ii).is_ok_and(|i| gated.contains(&i));
        let source: Vec<String> = if imp.source.is_empty() {
            Vec::new()
        } else {
            imp.source.split("::").map(str::to_string).collect()
        };
        for b in &imp.bindings {
            out.uses.push((imp.kind, source.clone(), b.imported.clone(), b.local.clone()));
            out.gated.push(is_gated);
        }
    }
    if let Some(r) = facts.rust() {
        for (i, imp) in r.impls.iter().enumerate() {
            let mut items = HashMap::default();
            for &it in &imp.items {
                if let Some(s) = facts.symbols.get(it as usize) {
                    items.entry(s.name.clone()).or_insert(it);
                }
                out.impl_of.insert(it, u32::try_from(i).unwrap_or(u32::MAX));
            }
            out.impls.push(ImplInfo {
                self_ty: imp.self_ty.clone(),
                trait_: imp.trait_.clone(),
                items,
                type_params: imp.type_params.clone(),
            });
        }
        out.mods = r.mods.iter().map(|m| m.name.clone()).collect();
    }
    for (i, s) in facts.symbols.iter().enumerate() {
        let idx = u32::try_from(i).unwrap_or(u32::MAX);
        if let Some(p) = s.parent {
            out.children.entry(p).or_default().push(idx);
        }
        if s.kind == NodeKind::Method && !takes_self(&s.signature, &s.name) {
            out.selfless.insert(idx);
        }
        if matches!(
            s.kind,
            NodeKind::Function
                | NodeKind::Method
                | NodeKind::Struct
                | NodeKind::Enum
                | NodeKind::Interface
        ) {
            let g = generics(&s.signature, &s.name);
            if !g.is_empty() {
                out.generics.insert(idx, g);
            }
        }
        // Module-level items: a parent chain of inline modules only, outside impls.
        if out.impl_of.contains_key(&idx) {
            continue;
        }
        let mut p = s.parent;
        let mut module_level = true;
        while let Some(pi) = p {
            match facts.symbols.get(pi as usize) {
                Some(ps) if ps.kind == NodeKind::Module => p = ps.parent,
                _ => {
                    module_level = false;
                    break;
                }
            }
        }
        if module_level {
            out.items.entry(s.name.clone()).or_default().push(idx);
        }
    }
    for h in &facts.type_hints {
        let Some(scope) = h.scope else { continue };
        match &h.source {
            HintSource::Return(t) if h.name.is_empty() => {
                out.returns.insert(scope, t.clone());
            }
            HintSource::Annotation(t) => {
                let kind = facts.symbols.get(scope as usize).map(|s| s.kind);
                match kind {
                    Some(NodeKind::Struct | NodeKind::Constant) => {
                        out.fields.insert((scope, h.name.to_string()), t.clone());
                    }
                    Some(NodeKind::TypeAlias) if h.name == "type" => {
                        out.aliases.insert(scope, t.clone());
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    for h in &facts.heritage {
        out.supertraits.entry(h.symbol).or_default().push(h.target.clone());
    }
    out
}

/// `s` split at its commas outside `<..>`, `(..)` and `[..]`.
pub(crate) fn top_level(s: &str) -> Vec<&str> {
    let (mut nest, mut from) = (0i32, 0usize);
    let mut parts = Vec::new();
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' => nest += 1,
            '>' | ')' | ']' => nest -= 1,
            ',' if nest == 0 => {
                parts.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[from..]);
    parts
}

/// A generic parameter with its bounds (`T: A + B<C>` -> (`T`, [`A`, `B<C>`])); `None` for
/// lifetimes and const parameters.
pub(crate) fn param_bounds(p: &str) -> Option<(String, Vec<String>)> {
    let p = p.trim();
    if p.starts_with('\'') || p.starts_with("const ") || p.is_empty() {
        return None;
    }
    let (name, bounds) = match p.split_once(':') {
        Some((n, b)) => (n.trim(), b),
        None => (p.split('=').next().unwrap_or(p).trim(), ""),
    };
    let bounds = bounds.split('=').next().unwrap_or(bounds);
    let list = split_plus(bounds)
        .into_iter()
        .map(|b| codegraph_parse::rust_type_text(b.trim().trim_start_matches('?')))
        .filter(|b| !b.is_empty() && !b.starts_with('\''))
        .collect();
    Some((name.to_string(), list))
}

/// `A + B<C + D>` split at its top-level `+`.
fn split_plus(s: &str) -> Vec<&str> {
    let (mut nest, mut from) = (0i32, 0usize);
    let mut parts = Vec::new();
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' => nest += 1,
            '>' | ')' => nest -= 1,
            '+' if nest == 0 => {
                parts.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[from..]);
    parts
}

/// The generic parameters of a declaration from its signature: the `<...>` right after its
/// name, and a `where` clause's predicates on plain parameters.
pub(crate) fn generics(signature: &str, name: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let Some(at) = find_decl(signature, name) else { return out };
    let after = at + name.len();
    if signature[after..].starts_with('<') {
        let mut depth = 0i32;
        let end = signature[after..].char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' if !signature[..after + i].ends_with('-') => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(after + i)
        });
        if let Some(end) = end {
            out.extend(top_level(&signature[after + 1..end]).into_iter().filter_map(param_bounds));
        }
    }
    if let Some(w) = signature.rfind(" where ") {
        for pred in top_level(&signature[w + 7..]) {
            if let Some((n, bounds)) = param_bounds(pred)
                && let Some(e) = out.iter_mut().find(|(x, _)| *x == n)
            {
                e.1.extend(bounds);
            }
        }
    }
    out
}

/// Whether a function's first parameter is `self` (`self`, `&self`, `&'a mut self`, `self:
/// Box<Self>`...), from its signature. A signature cut short counts as taking `self`.
pub(crate) fn takes_self(signature: &str, name: &str) -> bool {
    let Some(at) = find_decl(signature, name) else { return true };
    let mut rest = &signature[at + name.len()..];
    if rest.starts_with('<') {
        let mut depth = 0i32;
        let mut end = None;
        for (i, c) in rest.char_indices() {
            match c {
                '<' => depth += 1,
                '>' if !rest[..i].ends_with('-') => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { return true };
        rest = &rest[end + 1..];
    }
    let Some(params) = rest.trim_start().strip_prefix('(') else { return true };
    // The first parameter: up to the first `,` or the closing `)` outside brackets.
    let mut depth = 0i32;
    let end = params
        .char_indices()
        .find_map(|(i, c)| {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' if params[..i].ends_with('-') => {}
                '>' | ']' => depth -= 1,
                ')' if depth == 0 => return Some(i),
                ')' => depth -= 1,
                ',' if depth == 0 => return Some(i),
                _ => {}
            }
            None
        })
        .unwrap_or(params.len());
    let first = params[..end].trim();
    let first = first.trim_start_matches('&').trim_start();
    let first = first.strip_prefix('\'').map_or(first, |r| {
        r.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_').trim_start()
    });
    let first = first.strip_prefix("mut ").unwrap_or(first).trim_start();
    first == "self" || first.starts_with("self:") || first.starts_with("self ")
}

/// Where a declaration's name is in its signature: the word `name` right after `fn`,
/// `struct`, `enum`, `union`, `trait` or `type` (attributes before it may hold the same
/// word: `#[cfg(feature = "parse")] fn parse`).
fn find_decl(s: &str, name: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = find_word(&s[from..], name).map(|i| from + i) {
        let before = s[..at].trim_end();
        if ["fn", "struct", "enum", "union", "trait", "type"].iter().any(|k| {
            before
                .strip_suffix(k)
                .is_some_and(|b| !b.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        }) {
            return Some(at);
        }
        from = at + name.len();
    }
    None
}

fn find_word(s: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = s[from..].find(word) {
        let at = from + i;
        let before = s[..at].chars().next_back();
        let after = s[at + word.len()..].chars().next();
        let is_ident = |c: char| c.is_alphanumeric() || c == '_';
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// One file's impl blocks by the name their self type gives them (`Parser`, `[T]`).
#[salsa::tracked(returns(ref))]
pub(crate) fn impl_heads(db: &dyn salsa::Database, file: SourceFile) -> Vec<String> {
    let facts = &file_facts(db, file);
    facts
        .rust()
        .map(|r| r.impls.iter().map(|i| codegraph_parse::rust_impl_name(&i.self_ty)).collect())
        .unwrap_or_default()
}

/// Every impl block of the workspace by the name of its self type: (file, impl index).
#[salsa::tracked(returns(ref))]
pub(crate) fn impl_table(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<String, Vec<(SourceFile, u32)>> {
    let mut out: BTreeMap<String, Vec<(SourceFile, u32)>> = BTreeMap::new();
    for &file in workspace.files(db) {
        if file.language(db) != Some(Language::Rust) {
            continue;
        }
        for (i, name) in impl_heads(db, file).iter().enumerate() {
            out.entry(name.clone()).or_default().push((file, u32::try_from(i).unwrap_or(u32::MAX)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::generics;

    #[test]
    fn methods_take_self_or_not() {
        use super::takes_self;
        assert!(takes_self("pub fn span(&self) -> Option<Range>", "span"));
        assert!(takes_self("fn set<'a>(&'a mut self, v: u8)", "set"));
        assert!(takes_self("fn into_x(mut self)", "into_x"));
        assert!(takes_self("fn boxed(self: Box<Self>)", "boxed"));
        assert!(!takes_self("pub fn parse(repr: &str) -> Result<Vec<Self>, E>", "parse"));
        assert!(!takes_self("fn new<F: Fn(u8) -> u8>(f: F) -> Self", "new"));
        assert!(!takes_self("fn default() -> Self", "default"));
        assert!(takes_self("pub fn get_id(&self) -> &Id", "get_id"));
        assert!(!takes_self("#[cfg(feature = \"parse\")] pub fn parse(repr: &str)", "parse"));
        assert!(takes_self("#[inline] fn len(&self, x: (u8, u8)) -> usize", "len"));
    }

    #[test]
    fn generics_with_their_bounds() {
        let g = |s: &str, n: &str| generics(s, n);
        assert_eq!(
            g(
                "pub fn parse<T: Visitor + Clone, 'a, const N: usize>(x: T) -> R where T: Send",
                "parse"
            ),
            vec![("T".to_string(), vec!["Visitor".into(), "Clone".into(), "Send".into()])]
        );
        assert_eq!(g("pub struct Wrapper<T = u8>", "Wrapper"), vec![("T".to_string(), vec![])]);
        assert_eq!(
            g("fn f<F: Fn(u8) -> u8>(f: F)", "f"),
            vec![("F".to_string(), vec!["Fn(u8)->u8".into()])]
        );
        assert_eq!(g("fn plain(x: u8)", "plain"), vec![]);
    }
}
