//! `route_impact` and `tool_context`: the product-level questions about HTTP routes and MCP/RPC
//! tools. A route is found by ID, by `METHOD /path` or by path alone, parameter-aware (`GET
//! /users/42` finds `GET /users/:id`); a tool by ID or name. The answer gives each match's
//! declaration (framework, middleware, response keys, status codes or input fields are in its
//! signature), its handler(s), who else calls the handler, what the handler depends on, and
//! which client calls reach the route.
//!
//! Consumers are the client calls (`fetch`, axios, Go `http.Get`...) whose URL and method
//! matched the route (FETCHES, with a confidence by match quality). The execution flows that
//! start at each handler come from the stored derivations, stamped with their revision.

use super::context::{CallLink, Link};
use super::{Direction, Graph};
use crate::derived::{DerivedStamp, Flow};
use crate::error::QueryError;
use crate::read::{NODE_COLUMNS, NodeRow, Reader, node_from_row};
use codegraph_schema::{EdgeKind, NodeKind};

pub use codegraph_schema::EndpointProps;

/// One route or tool that matched, with its handler and the code around it.
#[derive(Clone, Debug)]
pub struct EndpointView {
    pub node: NodeRow,
    /// Its structured properties (framework, method, path, middleware, response keys, status
    /// codes, input fields).
    pub props: EndpointProps,
    /// How the query matched: `id`, `exact`, `params` (parameter segments matched values),
    /// `path` (any method), `name`.
    pub matched_by: &'static str,
    /// Outgoing HANDLES_ROUTE / HANDLES_TOOL: the handler symbol(s).
    pub handlers: Vec<Link>,
    /// Other callers of the handler(s) (a handler called directly is shared code).
    pub handler_callers: Vec<CallLink>,
    /// What the handler(s) call, one hop.
    pub handler_callees: Vec<CallLink>,
    /// Incoming FETCHES: client calls whose URL and method match the route.
    pub consumers: Vec<CallLink>,
    /// The execution flows that start at the handler(s), best first.
    pub flows: Vec<Flow>,
}

#[derive(Clone, Debug)]
pub struct EndpointAnswer {
    pub revision: i64,
    pub stale: Option<bool>,
    pub query: String,
    /// The first [`MAX_MATCHES`] matches, each with its handlers, callers and callees.
    pub matches: Vec<EndpointView>,
    /// How many endpoints match in all (more than `matches` holds when cut).
    pub matches_total: usize,
    /// Which revision the flows were computed at (`None`: not yet).
    pub flows_at: Option<DerivedStamp>,
    pub notes: Vec<String>,
}

/// Most matches an answer computes (the surfaces page them).
pub const MAX_MATCHES: usize = 200;

/// Splits `GET /users/:id` into (`Some("GET")`, `/users/:id`); a bare path has no method.
fn split_route(q: &str) -> (Option<String>, String) {
    let q = q.trim();
    match q.split_once(char::is_whitespace) {
        Some((m, p)) if !m.starts_with('/') => (Some(m.to_ascii_uppercase()), norm_path(p.trim())),
        _ => (None, norm_path(q)),
    }
}

fn norm_path(p: &str) -> String {
    let p = p.split(['?', '#']).next().unwrap_or("");
    let segs: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
    format!("/{}", segs.join("/"))
}

use codegraph_schema::routes::path_match;

impl Reader<'_> {
    /// The first `limit` nodes of a kind, by ID.
    pub fn nodes_of_kind(&self, kind: NodeKind, limit: usize) -> Result<Vec<NodeRow>, QueryError> {
        let sql = format!("SELECT {NODE_COLUMNS} FROM node WHERE kind = ?1 ORDER BY id LIMIT ?2");
        let mut stmt = self.tx.prepare_cached(&sql).map_err(self.err())?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt
            .query_map(rusqlite::params![kind.as_str(), limit], node_from_row)
            .map_err(self.err())?;
        rows.collect::<Result<_, _>>().map_err(self.err())
    }

    /// Every node of an endpoint kind (`route`, `tool`), by ID.
    pub fn endpoint_nodes(&self, kind: NodeKind) -> Result<Vec<NodeRow>, QueryError> {
        self.nodes_of_kind(kind, usize::MAX)
    }

    /// Every node of an endpoint kind (`route`, `tool`), by ID, with the IDs of its handlers
    /// (HANDLES_ROUTE / HANDLES_TOOL), for listings (`codegraph routes`, `codegraph tools`).
    pub fn endpoints_with_handlers(
        &self,
        kind: NodeKind,
    ) -> Result<Vec<(NodeRow, Vec<String>)>, QueryError> {
        let handles =
            if kind == NodeKind::Tool { EdgeKind::HandlesTool } else { EdgeKind::HandlesRoute };
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT d.id FROM node s JOIN stored_edge e ON e.src = s.nid AND e.kind = ?2 \
                 JOIN node d ON d.nid = e.dst WHERE s.id = ?1 ORDER BY d.id",
            )
            .map_err(self.err())?;
        let mut out = Vec::new();
        for n in self.endpoint_nodes(kind)? {
            let handlers: Vec<String> = stmt
                .query_map(rusqlite::params![n.id, handles.as_str()], |r| r.get(0))
                .map_err(self.err())?
                .collect::<Result<_, _>>()
                .map_err(self.err())?;
            out.push((n, handlers));
        }
        Ok(out)
    }

    /// Routes matching `query`: a route ID, `METHOD /path` or `/path`.
    pub fn route_impact(&self, query: &str) -> Result<EndpointAnswer, QueryError> {
        let routes = self.endpoint_nodes(NodeKind::Route)?;
        let mut found: Vec<(u8, &'static str, NodeRow)> = Vec::new();
        if let Some(n) = routes.iter().find(|n| n.id == query.trim()) {
            found.push((3, "id", n.clone()));
        } else {
            let (method, path) = split_route(query);
            for n in &routes {
                let Some((m, p)) = n.name.split_once(' ') else { continue };
                let score = path_match(p, &path);
                if score == 0 {
                    continue;
                }
                let method_ok = match &method {
                    None => true,
                    Some(q) => q == m || m == "ANY" || q == "ANY",
                };
                if !method_ok {
                    continue;
                }
                let by = match (method.is_some(), score) {
                    (true, 2) => "exact",
                    (true, _) => "params",
                    (false, _) => "path",
                };
                found.push((score, by, n.clone()));
            }
        }
        let mut notes = Vec::new();
        if routes.is_empty() {
            notes.push("no routes are detected in this root".to_string());
        } else if found.is_empty() {
            let mut near: Vec<&str> = routes.iter().map(|n| n.name.as_str()).collect();
            near.dedup();
            near.truncate(10);
            notes.push(format!(
                "no route matches `{query}`; {} route(s) known, e.g.: {}",
                routes.len(),
                near.join(", ")
            ));
        }
        self.answer(query, found, notes)
    }

    /// Tools matching `query`: a tool ID or name (case-insensitive; a unique substring too).
    pub fn tool_context(&self, query: &str) -> Result<EndpointAnswer, QueryError> {
        let tools = self.endpoint_nodes(NodeKind::Tool)?;
        let q = query.trim();
        let mut found: Vec<(u8, &'static str, NodeRow)> = Vec::new();
        if let Some(n) = tools.iter().find(|n| n.id == q) {
            found.push((3, "id", n.clone()));
        } else {
            found.extend(tools.iter().filter(|n| n.name == q).map(|n| (2, "exact", n.clone())));
            if found.is_empty() {
                let lower = q.to_lowercase();
                found.extend(
                    tools
                        .iter()
                        .filter(|n| n.name.to_lowercase().contains(&lower))
                        .map(|n| (1, "name", n.clone())),
                );
            }
        }
        let mut notes = Vec::new();
        if tools.is_empty() {
            notes.push("no MCP/RPC tools are detected in this root".to_string());
        } else if found.is_empty() {
            let names: Vec<&str> = tools.iter().take(20).map(|n| n.name.as_str()).collect();
            notes.push(format!("no tool matches `{q}`; known: {}", names.join(", ")));
        }
        self.answer(q, found, notes)
    }

    fn answer(
        &self,
        query: &str,
        mut found: Vec<(u8, &'static str, NodeRow)>,
        mut notes: Vec<String>,
    ) -> Result<EndpointAnswer, QueryError> {
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.2.id.cmp(&b.2.id)));
        let matches_total = found.len();
        found.truncate(MAX_MATCHES);
        let mut g = Graph::new(self);
        let mut matches = Vec::new();
        for (_, matched_by, node) in found {
            let Some(nid) = g.nid(&node.id)? else { continue };
            let kinds = [EdgeKind::HandlesRoute, EdgeKind::HandlesTool];
            let mut handlers = Vec::new();
            let mut handler_callers = Vec::new();
            let mut handler_callees = Vec::new();
            for h in g.hops(nid, Direction::Out, &kinds, usize::MAX)? {
                let handler = g.node(h.other)?.clone();
                handler_callers.extend(super::context::calls(&mut g, h.other, Direction::In)?);
                handler_callees.extend(super::context::calls(&mut g, h.other, Direction::Out)?);
                handlers.push(Link { dir: Direction::Out, node: handler, edge: h.edge });
            }
            if handlers.is_empty() {
                notes.push(format!(
                    "{}: the handler was not resolved (an imported or dynamic function codegraph could not follow)",
                    node.id
                ));
            }
            let consumers = super::context::linked(&mut g, nid, Direction::In, EdgeKind::Fetches)?;
            let mut flows = Vec::new();
            for h in &handlers {
                flows.extend(self.flows_from(&h.node.id)?);
            }
            matches.push(EndpointView {
                props: node
                    .props
                    .as_deref()
                    .and_then(EndpointProps::parse)
                    .unwrap_or_else(|| EndpointProps::new(node.kind, "unknown")),
                flows,
                node,
                matched_by,
                handlers,
                handler_callers,
                handler_callees,
                consumers,
            });
        }
        let flows_at = self.derived_stamp()?;
        if !matches.is_empty() {
            notes.extend(self.flows_note(flows_at.as_ref()));
        }
        Ok(EndpointAnswer {
            revision: self.revision(),
            stale: None,
            query: query.to_string(),
            matches,
            matches_total,
            flows_at,
            notes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_queries() {
        assert_eq!(split_route("get /users/:id"), (Some("GET".into()), "/users/:id".into()));
        assert_eq!(split_route("/users/42?x=1"), (None, "/users/42".into()));
        assert_eq!(path_match("/users/:id", "/users/:id"), 2);
        assert_eq!(path_match("/users/:id", "/users/42"), 1);
        assert_eq!(path_match("/users/:id", "/users/:userId"), 1);
        assert_eq!(path_match("/users/:id", "/users"), 0);
        assert_eq!(path_match("/docs/:slug*", "/docs/a/b"), 1);
        assert_eq!(path_match("/users/me", "/users/42"), 0);
    }
}
