//! What other files may know of a Java file ([`java_index`], an `Eq` firewall: its package,
//! imports, types with their supertypes and members, field types and return types, no lines)
//! and which files declare a package ([`package_files`], per package name) with their top-level
//! types ([`package_types`]).
//!
//! Why it exists: resolution of one file reads other files only through these tables, so an
//! edit inside a method body leaves them equal and only the edited file re-resolves; and a
//! file depends on the packages it looked up, not on the whole file list.

use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{HeritageKind, HintSource, ImportKind, Imported, Language, SymbolIdx};
use codegraph_schema::NodeKind;
use std::collections::HashMap;

/// A type of the file: its supertypes as written and its members by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TypeInfo {
    /// `extends` first (a class's superclass), then `implements` / an interface's `extends`.
    pub supers: Vec<String>,
    /// Whether it declares `extends` (a class without one extends `Object`).
    pub has_superclass: bool,
    /// Methods, fields, constants, nested types and enum constants, in declaration order.
    pub members: HashMap<String, Vec<SymbolIdx>>,
}

/// One Java file as other files see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct JavaIndex {
    /// The package clause (`""`: the unnamed package).
    pub package: String,
    /// `(kind, source, imported)` as the provider encodes them.
    pub imports: Vec<(ImportKind, String, Imported)>,
    /// Top-level types by name.
    pub top: HashMap<String, SymbolIdx>,
    pub types: HashMap<SymbolIdx, TypeInfo>,
    /// A field's declared type (normalized), by field symbol.
    pub field_types: HashMap<SymbolIdx, String>,
    /// A method's declared return type (normalized).
    pub returns: HashMap<SymbolIdx, String>,
    /// A method's parameter count and whether its last parameter is varargs (absent when
    /// its signature was cut short).
    pub arity: HashMap<SymbolIdx, (u32, bool)>,
    /// The type parameters a type or method declares, in order, with their first bound as
    /// written (`class Box<T extends Item, U>` -> `[(T, Some(Item)), (U, None)]`).
    pub type_params: HashMap<SymbolIdx, Vec<(String, Option<String>)>>,
    /// Every symbol's kind, parent and name, index-aligned with the facts' symbols.
    pub symbols: Vec<(NodeKind, Option<SymbolIdx>, String)>,
}

impl JavaIndex {
    pub(crate) fn kind(&self, i: SymbolIdx) -> Option<NodeKind> {
        self.symbols.get(i as usize).map(|s| s.0)
    }

    pub(crate) fn parent(&self, i: SymbolIdx) -> Option<SymbolIdx> {
        self.symbols.get(i as usize).and_then(|s| s.1)
    }

    pub(crate) fn is_type(&self, i: SymbolIdx) -> bool {
        matches!(self.kind(i), Some(NodeKind::Class | NodeKind::Interface | NodeKind::Enum))
    }
}

#[salsa::tracked(returns(ref))]
pub(crate) fn java_index(db: &dyn salsa::Database, file: SourceFile) -> JavaIndex {
    let facts = &file_facts(db, file);
    let mut out = JavaIndex {
        package: facts.default_export.clone().unwrap_or_default(),
        symbols: facts.symbols.iter().map(|s| (s.kind, s.parent, s.name.clone())).collect(),
        ..JavaIndex::default()
    };
    for imp in &facts.imports {
        for b in &imp.bindings {
            out.imports.push((imp.kind, imp.source.clone(), b.imported.clone()));
        }
    }
    for (i, s) in facts.symbols.iter().enumerate() {
        let idx = u32::try_from(i).unwrap_or(u32::MAX);
        if s.kind == NodeKind::Method
            && let Some(a) = arity(&s.signature)
        {
            out.arity.insert(idx, a);
        }
        let params = type_params(&s.signature, &s.name, s.kind);
        if !params.is_empty() {
            out.type_params.insert(idx, params);
        }
        if matches!(s.kind, NodeKind::Class | NodeKind::Interface | NodeKind::Enum) {
            out.types.entry(idx).or_default();
            if s.parent.is_none() {
                out.top.entry(s.name.clone()).or_insert(idx);
            }
        }
        if let Some(p) = s.parent {
            let parent_is_type = facts.symbols.get(p as usize).is_some_and(|ps| {
                matches!(ps.kind, NodeKind::Class | NodeKind::Interface | NodeKind::Enum)
            });
            if parent_is_type {
                out.types
                    .entry(p)
                    .or_default()
                    .members
                    .entry(s.name.clone())
                    .or_default()
                    .push(idx);
            }
        }
    }
    for h in &facts.heritage {
        let info = out.types.entry(h.symbol).or_default();
        let class_extends = h.kind == HeritageKind::Extends
            && facts.symbols.get(h.symbol as usize).is_some_and(|s| s.kind == NodeKind::Class);
        if class_extends {
            info.supers.insert(0, h.target.clone());
            info.has_superclass = true;
        } else {
            info.supers.push(h.target.clone());
        }
    }
    for h in &facts.type_hints {
        let Some(scope) = h.scope else { continue };
        match &h.source {
            HintSource::Return(t) => {
                out.returns.insert(scope, t.clone());
            }
            HintSource::Annotation(t) if out.types.contains_key(&scope) => {
                // A field (or a record component) of the type `scope`.
                let members = out.types.get(&scope).map(|i| &i.members);
                let field = members.and_then(|m| m.get(h.name.as_str())).and_then(|v| {
                    v.iter().copied().find(|&m| {
                        matches!(out.kind(m), Some(NodeKind::Property | NodeKind::Constant))
                    })
                });
                if let Some(f) = field {
                    out.field_types.entry(f).or_insert_with(|| t.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// A file's package clause: what [`java_packages`] reads, so an edit that keeps the clause
/// (a body, a member renamed) stops here.
#[salsa::tracked(returns(ref))]
pub(crate) fn java_package(db: &dyn salsa::Database, file: SourceFile) -> String {
    java_index(db, file).package.clone()
}

/// A method's parameter count from its signature (`m(int a, Map<K, V> b)` -> 2), and whether
/// the last is varargs: the last top-level parenthesized group (annotations come before it,
/// `throws` after has none). `None` when the signature was cut before its end.
pub(crate) fn arity(signature: &str) -> Option<(u32, bool)> {
    let mut depth = 0i32;
    let mut last: Option<(usize, usize)> = None;
    let mut open = 0;
    for (i, c) in signature.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    open = i;
                }
                depth += 1;
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    last = Some((open + 1, i));
                }
            }
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    let (a, b) = last?;
    let params = signature[a..b].trim();
    if params.is_empty() {
        return Some((0, false));
    }
    let n = u32::try_from(top_level(params).len()).unwrap_or(u32::MAX);
    Some((n, params.contains("...")))
}

/// `s` split at its commas outside `<..>` and `(..)` (`Map<K, V> m, int x` -> two parts).
pub(crate) fn top_level(s: &str) -> Vec<&str> {
    let (mut nest, mut from) = (0i32, 0usize);
    let mut parts = Vec::new();
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' => nest += 1,
            '>' | ')' => nest -= 1,
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

/// The type parameters of a declaration from its signature: for a type, the `<...>` right
/// after its name; for a method, a `<...>` that follows no name (`public static <K, V> Map<K,
/// V> of(..)`). Bounds are their first type (`T extends Comparable<T> & Serializable` ->
/// `Comparable<T>`), whitespace removed.
pub(crate) fn type_params(
    signature: &str,
    name: &str,
    kind: NodeKind,
) -> Vec<(String, Option<String>)> {
    let start = match kind {
        NodeKind::Class | NodeKind::Interface | NodeKind::Enum => {
            let Some(at) = find_word(signature, name) else { return Vec::new() };
            let after = at + name.len();
            if !signature[after..].starts_with('<') {
                return Vec::new();
            }
            after
        }
        NodeKind::Method => {
            let Some(open) = signature.find('<') else { return Vec::new() };
            let before = signature[..open].trim_end();
            let follows_name = before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
                && !before.ends_with("static")
                && !before.ends_with("public")
                && !before.ends_with("private")
                && !before.ends_with("protected")
                && !before.ends_with("final")
                && !before.ends_with("abstract")
                && !before.ends_with("synchronized")
                && !before.ends_with("default")
                && !before.ends_with("native");
            // A `(` before it: the `<` is in a parameter type or an annotation.
            if follows_name || before.contains('(') {
                return Vec::new();
            }
            open
        }
        _ => return Vec::new(),
    };
    // The `>` that closes the `<` at `start`.
    let mut depth = 0i32;
    let end = signature[start..].char_indices().find_map(|(i, c)| {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(start + i)
    });
    let Some(end) = end else { return Vec::new() };
    let mut out = Vec::new();
    for p in top_level(&signature[start + 1..end]) {
        let p = p.trim();
        let (name, bound) = match p.split_once(" extends ") {
            Some((n, b)) => {
                let first = b.split('&').next().unwrap_or(b);
                (n.trim(), Some(codegraph_parse::java_generic_type_text(first)))
            }
            None => (p, None),
        };
        let name = name.rsplit(' ').next().unwrap_or(name);
        if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            out.push((name.to_string(), bound));
        }
    }
    out
}

/// The byte offset of `word` in `text` as a whole word.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The Java files of the workspace by package name; re-run only when a file is added or
/// removed or a package clause changes.
#[salsa::tracked(returns(ref))]
pub(crate) fn java_packages(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> HashMap<String, Vec<SourceFile>> {
    let mut out: HashMap<String, Vec<SourceFile>> = HashMap::new();
    for &file in workspace.files(db) {
        if file.language(db) == Some(Language::Java) {
            out.entry(java_package(db, file).clone()).or_default().push(file);
        }
    }
    out
}

/// A package of a workspace: the key of [`package_files`].
#[salsa::interned(debug)]
pub(crate) struct PackageKey<'db> {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(ref)]
    pub package: String,
}

/// The files that declare one package (empty: no such package in the workspace). Memoized
/// per package, so a reader depends on the packages it looked up.
#[salsa::tracked(returns(ref))]
pub(crate) fn package_files<'db>(
    db: &'db dyn salsa::Database,
    key: PackageKey<'db>,
) -> Vec<SourceFile> {
    java_packages(db, key.workspace(db)).get(key.package(db)).cloned().unwrap_or_default()
}

/// The top-level types of one package by name, each in the first of the package's files that
/// declares it (in workspace order): one lookup for what was a walk over the package's files
/// reading each one's index (0.4 of the 1.1 CPU-s that resolving the JDK's `java.base` took).
/// An `Eq` firewall: it changes only when a top-level type is added, removed or moved.
#[salsa::tracked(returns(ref))]
pub(crate) fn package_types<'db>(
    db: &'db dyn salsa::Database,
    key: PackageKey<'db>,
) -> HashMap<String, (SourceFile, SymbolIdx)> {
    let mut out: HashMap<String, (SourceFile, SymbolIdx)> = HashMap::new();
    for &f in package_files(db, key) {
        for (name, &i) in &java_index(db, f).top {
            out.entry(name.clone()).or_insert((f, i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::arity;

    #[test]
    fn type_parameters_with_their_bounds() {
        use codegraph_schema::NodeKind::{Class, Method};
        let p = |s: &str, n: &str, k| super::type_params(s, n, k);
        assert_eq!(
            p("public class Box<T extends Item, U> extends Base<T>", "Box", Class),
            vec![("T".to_string(), Some("Item".to_string())), ("U".to_string(), None)]
        );
        assert_eq!(
            p("class Sorted<E extends Comparable<? super E> & Serializable>", "Sorted", Class),
            vec![("E".to_string(), Some("Comparable<?>".to_string()))]
        );
        assert_eq!(
            p("public static <K, V> Map<K, V> of(K k, V v)", "of", Method),
            vec![("K".to_string(), None), ("V".to_string(), None)]
        );
        assert_eq!(p("public Map<K, V> copy()", "copy", Method), vec![]);
        assert_eq!(p("void m(List<T> xs)", "m", Method), vec![]);
        assert_eq!(p("public class Plain extends Base<T>", "Plain", Class), vec![]);
    }

    #[test]
    fn parameters_are_counted_at_the_top_level() {
        assert_eq!(arity("public int size()"), Some((0, false)));
        assert_eq!(arity("void put(K key, V value)"), Some((2, false)));
        assert_eq!(
            arity("<K, V> void m(Map<K, V> m, @Size(max = 3) String s) throws IOException"),
            Some((2, false))
        );
        assert_eq!(arity("@RequestMapping(path = \"/x\") public R get(long id)"), Some((1, false)));
        assert_eq!(arity("static String join(String sep, Object... parts)"), Some((2, true)));
        assert_eq!(arity("void cut(int a, int b"), None);
    }
}
