//! The example language's resolution (feature `example-language`; the provider is
//! `codegraph_parse`'s `toy.rs`): a call resolves to the function of that name in the same
//! file, else to the one exported function of that name in the workspace, else it is an
//! unresolved site. It exists to prove the registry: this module and one `resolvers!` line.

use crate::graph::{Edge, symbol_ids};
use crate::keys::FileKey;
use crate::languages::LanguageResolver;
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use codegraph_db::file_facts;
use codegraph_parse::Language;
use codegraph_schema::{EdgeKind, Reason};

pub(crate) struct ToyResolver;

pub(crate) static TOY_RESOLVER: ToyResolver = ToyResolver;

impl LanguageResolver for ToyResolver {
    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        let (workspace, file) = (key.workspace(db), key.file(db));
        let facts = &file_facts(db, file);
        let mut out = Resolved::default();
        for call in &facts.calls {
            let caller = caller_id(db, file, call.enclosing);
            let name = call.callee.name.as_str();
            let local = facts.symbols.iter().position(|s| s.name == name);
            let target = match local {
                Some(i) => symbol_ids(db, file).get(i).cloned().map(|id| (id, Reason::SameFile)),
                None => {
                    // Elsewhere: exactly one exported function of that name. (A shortcut for a
                    // toy: a real language reads other files through a workspace table, see
                    // `go/table.rs` and `ts/index.rs`, so an edit re-runs only its readers.)
                    let mut found = workspace
                        .files(db)
                        .iter()
                        .filter(|f| **f != file && f.language(db) == Some(Language::Toy))
                        .flat_map(|&f| {
                            let ids = symbol_ids(db, f);
                            file_facts(db, f)
                                .symbols
                                .iter()
                                .enumerate()
                                .filter(|(_, s)| s.name == name && s.exported)
                                .filter_map(|(i, _)| ids.get(i).cloned())
                                .collect::<Vec<_>>()
                        });
                    match (found.next(), found.next()) {
                        (Some(id), None) => Some((id, Reason::NameOnly)),
                        _ => None,
                    }
                }
            };
            match target {
                Some((dst, reason)) => {
                    out.edges.push(Edge::new(caller, dst, EdgeKind::Calls, reason, call.line))
                }
                None => out.unresolved.push(UnresolvedSite {
                    line: call.line,
                    caller,
                    callee: name.to_string(),
                }),
            }
        }
        out
    }
}
