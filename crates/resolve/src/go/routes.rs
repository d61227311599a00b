//! Go routes whose path only resolution can complete: a registration that names string
//! constants of other files of the package or of an imported one (`mux.Handle(RaftPrefix, h)`),
//! evaluated through the Go tables and added to the file's composed routes.
//!
//! Why it exists: the Go resolver's share of route composition (`LanguageResolver::
//! composed_routes`); generic endpoint code (`crate::endpoints`) stays language-free.

use crate::endpoints::{
    ComposedRoute, endpoint_id, file_endpoints, label, local_handler, props, resolve_ref, signature,
};
use crate::graph::{Edge, Node, symbol_ids};
use crate::ids::{file_id, intern};
use crate::keys::FileKey;
use codegraph_db::file_facts;
use codegraph_parse::{Handler, Language};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use std::collections::HashMap;

/// Go routes whose path names string constants of other files (`mux.Handle(RaftPrefix, h)`
/// with `RaftPrefix` declared elsewhere in the package, or `rafthttp.RaftPrefix`): evaluated
/// against the package's or the imported package's constants, then read like a literal
/// pattern. A path that does not evaluate (a parameter, a loop variable) is no route.
pub(crate) fn const_path_routes(
    db: &dyn salsa::Database,
    key: FileKey<'_>,
    seen: &mut HashMap<String, u32>,
    out: &mut Vec<ComposedRoute>,
) {
    let (workspace, file) = (key.workspace(db), key.file(db));
    let facts = &file_facts(db, file);
    if facts.endpoints.iter().all(|e| e.path_expr.is_empty()) {
        return;
    }
    let path = file.path(db);
    // Continue the numbering of the file's other endpoints, so IDs stay unique.
    for fe in file_endpoints(db, file) {
        *seen.entry(endpoint_id(path, &fe.endpoint, 1)).or_insert(0) += 1;
    }
    for e in facts.endpoints.iter().filter(|e| !e.path_expr.is_empty()) {
        let Some(text) = crate::go::const_path(db, key, &e.path_expr) else { continue };
        let Some((method, route_path)) =
            codegraph_parse::resolved_go_route(&e.framework, &e.method, &text)
        else {
            continue;
        };
        let mut resolved = e.clone();
        resolved.method = method;
        resolved.name = route_path.clone();
        resolved.path_expr.clear();
        let n = seen.entry(endpoint_id(path, &resolved, 1)).or_insert(0);
        *n += 1;
        let id = intern(&endpoint_id(path, &resolved, *n));
        let label = label(&resolved);
        let node = Node {
            id: id.clone(),
            kind: NodeKind::Route,
            name: label.clone(),
            qualified_name: label,
            file: Some(path.clone()),
            language: Some(Language::Go.as_str()),
            start_line: Some(e.line),
            end_line: Some(e.line),
            signature: Some(signature(&resolved)),
            doc: None,
            exported: false,
            test: crate::graph::is_test(db, file),
            parent: Some(file_id(path)),
            size: None,
            lines: None,
            hash: None,
            props: Some(props(&resolved, None)),
        };
        let mut edges =
            vec![Edge::new(file_id(path), id.clone(), EdgeKind::Contains, Reason::Structural, 0)];
        let handler = match &e.handler {
            Handler::Reference(c) => resolve_ref(db, workspace, file, e.enclosing, c, e.line)
                .and_then(|((f, i), r)| symbol_ids(db, f).get(i as usize).map(|h| (h.clone(), r))),
            _ => local_handler(db, file, e).map(|h| (h, Reason::SameFile)),
        };
        if let Some((h, reason)) = handler {
            edges.push(Edge::new(id.clone(), h, EdgeKind::HandlesRoute, reason, e.line));
        }
        out.push(ComposedRoute { method: resolved.method.clone(), path: route_path, node, edges });
    }
}
