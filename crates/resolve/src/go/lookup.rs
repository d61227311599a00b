//! Member lookup over package tables: methods and fields of a named type, including those
//! promoted through embedded fields and embedded interfaces, shallowest first.
//!
//! Why it exists: call resolution and structural IMPLEMENTS both need Go's selector rules
//! ("which `M` does `x.M` mean for a value of type `T`?"), and both must read only package
//! tables (never raw facts of other files), so the firewalls of [`package_table`] hold.

use super::table::{Func, Scope, TypeInfo, TypeRef, package_table};
use crate::keys::DirKey;
use codegraph_db::Workspace;
use rustc_hash::FxHashSet as HashSet;

/// How deep embedding chains are followed (Go has no limit; real code rarely exceeds 3).
pub(crate) const MAX_EMBED_DEPTH: usize = 6;

/// Table access for one workspace.
#[derive(Clone, Copy)]
pub(crate) struct Tables<'db> {
    pub db: &'db dyn salsa::Database,
    pub workspace: Workspace,
}

/// What a field selector finds.
pub(crate) enum Field {
    /// A field whose type is a known named type.
    Typed(TypeRef),
    /// A field whose type is not a named type (func, map, chan...) or is unknown.
    Untyped,
    Missing,
}

impl<'db> Tables<'db> {
    pub fn scope(&self, dir: &str, pkg: &str) -> Option<&'db Scope> {
        let table = package_table(self.db, DirKey::new(self.db, self.workspace, dir));
        table.scopes.get(pkg)
    }

    pub fn type_info(&self, t: &TypeRef) -> Option<&'db TypeInfo> {
        self.scope(&t.dir, &t.pkg)?.types.get(&t.name)
    }

    /// Breadth-first walk over `t` and the types it embeds (through aliases), calling `visit`
    /// with each type's info until it returns `Some`.
    fn walk<R>(
        &self,
        t: &TypeRef,
        follow_defined: impl Fn(&TypeInfo) -> bool,
        mut visit: impl FnMut(&'db TypeInfo) -> Option<R>,
    ) -> Option<R> {
        let mut level = vec![t.clone()];
        let mut seen: HashSet<TypeRef> = HashSet::default();
        for _ in 0..=MAX_EMBED_DEPTH {
            let mut next = Vec::new();
            for t in level {
                if !seen.insert(t.clone()) {
                    continue;
                }
                let Some(info) = self.type_info(&t) else { continue };
                if let Some(a) = &info.alias_of {
                    next.push(a.clone());
                    continue;
                }
                if let Some(r) = visit(info) {
                    return Some(r);
                }
                next.extend(info.embeds.iter().cloned());
                if let Some(d) = &info.defined_from
                    && follow_defined(info)
                {
                    next.push(d.clone());
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        None
    }

    fn is_interface(&self, t: &TypeRef) -> bool {
        self.type_info(t).is_some_and(|i| i.is_interface)
    }

    /// The method `name` of type `t` (declared, or promoted through embedding) and whether it
    /// is an interface method.
    pub fn method(&self, t: &TypeRef, name: &str) -> Option<(&'db Func, bool)> {
        // `type A B`: A has B's methods only when B is an interface.
        let follow =
            |info: &TypeInfo| info.defined_from.as_ref().is_some_and(|d| self.is_interface(d));
        self.walk(t, follow, |info| info.methods.get(name).map(|f| (f, info.is_interface)))
    }

    /// The field `name` of type `t` (declared or promoted).
    pub fn field(&self, t: &TypeRef, name: &str) -> Field {
        self.walk(
            t,
            |_| true,
            |info| {
                info.fields.get(name).map(|f| match f {
                    Some(t) => Field::Typed(t.clone()),
                    None => Field::Untyped,
                })
            },
        )
        .unwrap_or(Field::Missing)
    }

    /// The type that declares field `name` of `t` (itself, or the embedded type it is promoted
    /// from).
    pub fn field_owner(&self, t: &TypeRef, name: &str) -> Option<&'db TypeInfo> {
        self.walk(t, |_| true, |info| info.fields.contains_key(name).then_some(info))
    }

    /// The method names of `t` with promoted ones, and whether the set is complete (false when
    /// an interface on the way embeds something outside the workspace).
    pub fn method_names(&self, t: &TypeRef) -> (HashSet<&'db str>, bool) {
        let mut names: HashSet<&'db str> = HashSet::default();
        let mut complete = true;
        let follow =
            |info: &TypeInfo| info.defined_from.as_ref().is_some_and(|d| self.is_interface(d));
        self.walk(t, follow, |info| {
            names.extend(info.methods.keys().map(String::as_str));
            names.extend(info.extra_methods.iter().map(String::as_str));
            if info.incomplete && info.is_interface {
                complete = false;
            }
            None::<()>
        });
        (names, complete)
    }
}
