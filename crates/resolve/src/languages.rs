//! The resolve side of the language registry: what each language plugs into resolution, behind
//! one trait ([`LanguageResolver`]) and one registry line per language ([`resolver`]).
//!
//! Why it exists: generic resolution (the unit digests, the file node, endpoints, docs) must
//! not match on a language; it asks the file's resolver. The parse side of the registry is
//! `codegraph_parse::Language::spec` (extraction); this crate cannot live there (it needs
//! salsa), so a language is a parse module plus a resolve module, one registry line each.

use crate::ids::Id;
use crate::keys::FileKey;
use crate::resolved::Resolved;
use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::{Callee, Endpoint, FileFacts, Language, SymbolIdx};
use codegraph_schema::Reason;
use std::hash::Hash;

/// A symbol of a file: what a reference resolves to.
pub(crate) type Target = (SourceFile, SymbolIdx);

/// What a language plugs into resolution. Every method but [`LanguageResolver::resolve`] has a
/// default that suits a language without packages, endpoints or references.
pub(crate) trait LanguageResolver: Sync {
    /// The cross-file rows of one file: CALLS, IMPORTS, EXTENDS, IMPLEMENTS, REFERS_TO, TESTS,
    /// DOC_RELATED edges and unresolved call sites.
    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved;

    /// The memoized rows when the language keeps them whole elsewhere (returned without a copy);
    /// `None`: the generic memo of [`LanguageResolver::resolve`] is the answer.
    fn rows_ref<'db>(
        &self,
        _db: &'db dyn salsa::Database,
        _key: FileKey<'db>,
    ) -> Option<&'db Resolved> {
        None
    }

    /// Hashes the file's rows into its unit digest. A language that memoizes its rows in parts
    /// hashes the parts, so that the digest does not depend on how they are put together.
    fn digest<'db>(
        &self,
        db: &'db dyn salsa::Database,
        key: FileKey<'db>,
        h: &mut crate::digest::UnitHasher,
    ) {
        crate::resolved::resolve_file(db, key).hash(h);
    }

    /// The node a file hangs under (a Go file: its package); `None`: none.
    fn file_parent(&self, _path: &str) -> Option<Id> {
        None
    }

    /// What a callee-shaped reference in `file` names (an endpoint's handler, a mount's
    /// target), resolved exactly as a call's callee is; `None` when the language has no
    /// references to resolve.
    fn reference(
        &self,
        _db: &dyn salsa::Database,
        _workspace: Workspace,
        _file: SourceFile,
        _scope: Option<SymbolIdx>,
        _callee: &Callee,
        _line: u32,
    ) -> Option<(Target, Reason)> {
        None
    }

    /// Whether its files register endpoints (routes, tools, mounts) at all.
    fn has_endpoints(&self) -> bool {
        false
    }

    /// Endpoints a file's path implies (Next.js `app/**/route.ts`); none by default.
    fn path_endpoints(&self, _path: &str, _facts: &FileFacts) -> Vec<Endpoint> {
        Vec::new()
    }

    /// Routes of the file that only resolution can complete (Go: paths naming other files'
    /// constants), added to its composed routes.
    fn composed_routes<'db>(
        &self,
        _db: &'db dyn salsa::Database,
        _key: FileKey<'db>,
        _seen: &mut std::collections::HashMap<String, u32>,
        _out: &mut Vec<crate::endpoints::ComposedRoute>,
    ) {
    }

    /// Its units that are one node each (directory packages), as (key, node ID), sorted by
    /// key. It must read paths and languages only, never contents, so that an edit inside a
    /// file does not re-list the units (see `units.rs`).
    fn node_units(
        &self,
        _db: &dyn salsa::Database,
        _workspace: Workspace,
    ) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The rows of one of its node units (memoized by the language); called only with a key
    /// [`LanguageResolver::node_units`] listed.
    fn node_unit_graph<'db>(
        &self,
        _db: &'db dyn salsa::Database,
        _workspace: Workspace,
        _key: &str,
    ) -> &'db crate::units::UnitGraph {
        static EMPTY: crate::units::UnitGraph =
            crate::units::UnitGraph { nodes: Vec::new(), edges: Vec::new() };
        &EMPTY
    }

    /// Whether its files' resolution refers to concepts (REFERS_TO to `concept:` IDs), which
    /// then become node units.
    fn has_concepts(&self) -> bool {
        false
    }

    /// Computes the queries of `file` that other units read and that read nothing but the
    /// file itself (its indexes and summaries: the part of [`LanguageResolver::surface`]
    /// that needs no workspace). A cold build calls it while it holds the file's facts, so
    /// resolution's passes over every file read these memos instead of decoding the facts
    /// again ([`codegraph_db::LazyFacts`]).
    fn own_summaries(&self, _db: &dyn salsa::Database, _file: SourceFile) {}

    /// Reads every query of `key`'s file that other units' queries read (its `Eq` firewalls:
    /// declarations, indexes, module tables) and returns `true`; `false` (the default) when the
    /// language has not declared them, so an edit of one of its files re-derives every unit.
    /// The generic part (symbol IDs and heads, doc names, endpoints, concepts) is read by
    /// `surface.rs` itself. Whatever another unit reads of a file must be read here or there,
    /// else an edit could leave that unit stale: the engine's verification mode and the
    /// differential test check it.
    fn surface<'db>(&self, _db: &'db dyn salsa::Database, _key: FileKey<'db>) -> bool {
        false
    }

    /// Whether its symbols are what documentation names (Markdown sections are not).
    fn doc_targets(&self) -> bool {
        true
    }

    /// What documentation qualifies the file's symbols by (`pkg.Name`: a Go file's package
    /// clause); `None`: mentions name them bare.
    fn mention_qualifier(&self, _facts: &FileFacts) -> Option<String> {
        None
    }

    /// Methods of interfaces outside any root (its standard library, its runtime's protocols)
    /// that a method named `name` with `signature` may satisfy (see [`crate::renames`]); none
    /// by default.
    fn outside_interface_methods(&self, _name: &str, _signature: &str) -> Vec<String> {
        Vec::new()
    }

    /// Symbols named after `target` by the language's convention, renamed with it to
    /// `new_name` (see [`crate::renames`]); none by default.
    fn named_after(
        &self,
        _target: &crate::renames::RenameTarget<'_>,
        _new_name: &str,
    ) -> Option<crate::renames::NamedAfter> {
        None
    }
}

/// The registry: one line per language, `Variant => its resolver`.
macro_rules! resolvers {
    ($( $(#[$meta:meta])* $variant:ident => $resolver:path ),+ $(,)?) => {
        /// The resolver of a language.
        pub(crate) fn resolver(language: Language) -> &'static dyn LanguageResolver {
            match language { $( $(#[$meta])* Language::$variant => &$resolver ),+ }
        }
    };
}

resolvers! {
    TypeScript => crate::ts::TS_RESOLVER,
    Tsx => crate::ts::TS_RESOLVER,
    JavaScript => crate::ts::TS_RESOLVER,
    Go => crate::go::GO_RESOLVER,
    Markdown => crate::docs::MARKDOWN_RESOLVER,
    Terraform => crate::terraform::TERRAFORM_RESOLVER,
    Shell => crate::shell::SHELL_RESOLVER,
    Kubernetes => crate::kubernetes::KUBERNETES_RESOLVER,
    Elixir => crate::elixir::ELIXIR_RESOLVER,
    Python => crate::python::PYTHON_RESOLVER,
    Java => crate::java::JAVA_RESOLVER,
    Rust => crate::rust::RUST_RESOLVER,
    Protobuf => crate::protobuf::PROTO_RESOLVER,
    // The example language that proves the registry (tests only).
    #[cfg(feature = "example-language")]
    Toy => crate::toy::TOY_RESOLVER,
}

/// The resolver of a file's language; `None` for files no provider reads.
pub(crate) fn of(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> Option<&'static dyn LanguageResolver> {
    file.language(db).map(resolver)
}
