//! HTTP routes and MCP/RPC tools as graph nodes: the endpoints a file registers in code (from
//! its facts) and those its path implies (Next.js `app/**/route.ts` method exports and
//! `pages/api/**` default handlers), with stable IDs and the structural edges a file can draw
//! alone. Handlers named by reference are resolved with the file's other references, by
//! [`crate::resolve_file`].
//!
//! Why it exists: routes and tools are what agents ask about first ("what serves GET
//! /users/:id", "which function implements this tool"), and both depend only on one file's
//! path and facts, so they live in the file's unit like its symbols.
//!
//! Edge direction: `route -HANDLES_ROUTE-> handler` and `tool -HANDLES_TOOL-> handler`, like
//! `caller -CALLS-> callee`: the endpoint depends on its handler, so the upstream impact of a
//! handler reaches its routes and tools.

use crate::graph::{Edge, Node, symbol_ids};
use crate::ids::{Id, file_id, intern};
use crate::keys::FileKey;
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{Endpoint, EndpointKind, Handler, Language, SymbolIdx};
use codegraph_schema::routes::path_match;
use codegraph_schema::{EdgeKind, EndpointProps, NodeKind, Reason, ids};
use std::collections::HashMap;

/// One endpoint of a file, with its node ID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEndpoint {
    pub id: Id,
    pub endpoint: Endpoint,
}

/// `route:{path}:{METHOD} {route}` / `tool:{path}:{name}`, plus `#n` for the n-th duplicate.
pub fn endpoint_id(file: &str, e: &Endpoint, occurrence: u32) -> String {
    match e.kind {
        EndpointKind::Route => ids::route(file, &label(e), occurrence),
        EndpointKind::Tool => ids::tool(file, &e.name, occurrence),
    }
}

/// The edge kind from an endpoint to its handler.
pub fn handles(kind: EndpointKind) -> EdgeKind {
    match kind {
        EndpointKind::Route => EdgeKind::HandlesRoute,
        EndpointKind::Tool => EdgeKind::HandlesTool,
    }
}

/// `GET /users/:id` for a route, the name for a tool.
pub fn label(e: &Endpoint) -> String {
    match e.kind {
        EndpointKind::Route => format!("{} {}", e.method, e.name),
        EndpointKind::Tool => e.name.clone(),
    }
}

const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// The route path a Next.js file path implies: `app/users/[id]/route.ts` -> `/users/:id`,
/// `pages/api/users/[id].ts` -> `/api/users/:id`. Route groups `(x)` vanish, `[...a]` and
/// `[[...a]]` are `:a*`. `None` when the path follows neither convention.
fn next_route(path: &str) -> Option<(String, bool)> {
    let (stem, ext) = path.rsplit_once('.')?;
    if !matches!(ext, "ts" | "tsx" | "js" | "jsx" | "mjs") {
        return None;
    }
    let segments: Vec<&str> = stem.split('/').collect();
    // The last `app` or `pages` directory starts the route (`src/app/...` works too).
    let app = segments.iter().rposition(|s| *s == "app");
    let pages = segments.iter().rposition(|s| *s == "pages");
    let (start, app_router) = match (app, pages) {
        (Some(a), Some(p)) if p > a => (p, false),
        (Some(a), _) => (a, true),
        (None, Some(p)) => (p, false),
        (None, None) => return None,
    };
    let rest = &segments[start + 1..];
    let parts: Vec<&str> = if app_router {
        // Only `route.*` files are handlers in the app router.
        let (last, dirs) = rest.split_last()?;
        if *last != "route" {
            return None;
        }
        dirs.to_vec()
    } else {
        if rest.first() != Some(&"api") {
            return None;
        }
        let mut p = rest.to_vec();
        if p.last() == Some(&"index") {
            p.pop();
        }
        p
    };
    let mut route = String::new();
    for seg in parts {
        if seg.starts_with('(') && seg.ends_with(')') || seg.starts_with('@') {
            continue;
        }
        route.push('/');
        let inner = seg.trim_start_matches('[').trim_end_matches(']');
        if seg.starts_with('[') {
            match inner.strip_prefix("...") {
                Some(rest) => {
                    route.push(':');
                    route.push_str(rest);
                    route.push('*');
                }
                None => {
                    route.push(':');
                    route.push_str(inner);
                }
            }
        } else {
            route.push_str(seg);
        }
    }
    if route.is_empty() {
        route.push('/');
    }
    Some((route, app_router))
}

/// Endpoints implied by a Next.js path: one per exported top-level method function in an app
/// router `route.*` file, one `ANY` per `pages/api` file (its exported handler, or the file).
pub(crate) fn path_endpoints(path: &str, facts: &codegraph_parse::FileFacts) -> Vec<Endpoint> {
    let Some((route, app_router)) = next_route(path) else { return Vec::new() };
    let top = |s: &codegraph_parse::Symbol| s.parent.is_none() && s.exported;
    let mk = |method: &str, handler: Handler, line: u32| Endpoint {
        line,
        ..Endpoint::route("nextjs", method, route.clone(), handler)
    };
    if app_router {
        facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| top(s) && METHODS.contains(&s.name.as_str()))
            .map(|(i, s)| mk(&s.name, Handler::Symbol(i as SymbolIdx), s.start_line))
            .collect()
    } else {
        let functions: Vec<(usize, &codegraph_parse::Symbol)> = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| top(s) && s.kind == NodeKind::Function)
            .collect();
        let pick = functions
            .iter()
            .find(|(_, s)| s.name == "handler")
            .or_else(|| (functions.len() == 1).then(|| &functions[0]));
        vec![match pick {
            Some((i, s)) => mk("ANY", Handler::Symbol(*i as SymbolIdx), s.start_line),
            None => mk("ANY", Handler::Inline, 1),
        }]
    }
}

/// Every endpoint of a file: registered in code, then implied by its path, with IDs.
#[salsa::tracked(returns(ref))]
pub fn file_endpoints(db: &dyn salsa::Database, file: SourceFile) -> Vec<FileEndpoint> {
    let Some(resolver) = crate::languages::of(db, file).filter(|r| r.has_endpoints()) else {
        return Vec::new();
    };
    let path = file.path(db);
    let facts = &file_facts(db, file);
    // Routes whose path names other files' constants come out of resolution
    // (`composed_routes`), which can read those files.
    let mut all: Vec<Endpoint> =
        // A gRPC registration is no route of its own ([`registration_edges`]).
        facts
            .endpoints
            .iter()
            .filter(|e| e.path_expr.is_empty() && !e.is_registration())
            .cloned()
            .collect();
    all.extend(resolver.path_endpoints(path, facts));
    let mut seen: HashMap<String, u32> = HashMap::new();
    all.into_iter()
        .map(|endpoint| {
            let n = seen.entry(endpoint_id(path, &endpoint, 1)).or_insert(0);
            *n += 1;
            FileEndpoint { id: intern(&endpoint_id(path, &endpoint, *n)), endpoint }
        })
        .collect()
}

/// The signature line of an endpoint node: what it is, who declared it, its middleware,
/// response keys and status codes, or a tool's input fields.
pub(crate) fn signature(e: &Endpoint) -> String {
    let mut s = match e.kind {
        EndpointKind::Route => format!("{} {} [{}]", e.method, e.name, e.framework),
        EndpointKind::Tool => format!("tool {}({}) [{}]", e.name, e.fields.join(", "), e.framework),
    };
    if !e.middleware.is_empty() {
        s.push_str(&format!(" middleware: {}", e.middleware.join(", ")));
    }
    if !e.response_keys.is_empty() {
        s.push_str(&format!(" responds: {{{}}}", e.response_keys.join(", ")));
    }
    if !e.status_codes.is_empty() {
        let codes: Vec<String> = e.status_codes.iter().map(u16::to_string).collect();
        s.push_str(&format!(" status: {}", codes.join(", ")));
    }
    s
}

/// The structured properties of a route or tool node ([`EndpointProps`], stored as JSON), and
/// for a mounted route where it is registered (`file:line`) and the prefix it is mounted under.
/// Line breaks inside values become spaces (values are shown on one line).
pub fn props(e: &Endpoint, mounted: Option<(&str, u32, &str)>) -> String {
    fn clean(v: &str) -> String {
        v.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect()
    }
    let list = |v: &[String]| -> Vec<String> { v.iter().map(|x| clean(x)).collect() };
    let mut p = match e.kind {
        EndpointKind::Route => {
            let mut p = EndpointProps::new(NodeKind::Route, &clean(&e.framework));
            p.method = Some(clean(&e.method));
            p.path = Some(clean(&e.name));
            p
        }
        EndpointKind::Tool => {
            let mut p = EndpointProps::new(NodeKind::Tool, &clean(&e.framework));
            p.name = Some(clean(&e.name));
            p.name_is_expression = e.name_is_expr;
            p.fields = list(&e.fields);
            p
        }
    };
    p.middleware = list(&e.middleware);
    p.response_keys = list(&e.response_keys);
    p.status_codes = e.status_codes.clone();
    if let Some((file, line, prefix)) = mounted {
        p.registered = Some(format!("{}:{line}", clean(file)));
        p.mounted_under = Some(clean(prefix));
    }
    p.to_json()
}

/// The nodes and same-file edges of a file's endpoints: the file CONTAINS each; a handler that
/// is a symbol of the file, or written in place (its code belongs to the enclosing symbol, or
/// to the file at module level), is tied here.
pub(crate) fn endpoint_rows(
    db: &dyn salsa::Database,
    file: SourceFile,
    language: Language,
    nodes: &mut Vec<Node>,
    edges: &mut Vec<Edge>,
) {
    let path = file.path(db);
    let fid = file_id(path);
    let test = crate::graph::is_test(db, file);
    for fe in file_endpoints(db, file) {
        let e = &fe.endpoint;
        let kind = match e.kind {
            EndpointKind::Route => NodeKind::Route,
            EndpointKind::Tool => NodeKind::Tool,
        };
        let name = label(e);
        nodes.push(Node {
            id: fe.id.clone(),
            kind,
            name: name.clone(),
            qualified_name: name,
            file: Some(path.clone()),
            language: Some(language.as_str()),
            start_line: Some(e.line),
            end_line: Some(e.line),
            signature: Some(signature(e)),
            doc: e.description.clone(),
            exported: false,
            test,
            parent: Some(fid.clone()),
            size: None,
            lines: None,
            hash: None,
            props: Some(props(e, None)),
        });
        edges.push(Edge::new(
            fid.clone(),
            fe.id.clone(),
            EdgeKind::Contains,
            Reason::Structural,
            0,
        ));
        if let Some(h) = local_handler(db, file, e) {
            edges.push(Edge::new(fe.id.clone(), h, handles(e.kind), Reason::SameFile, e.line));
        }
    }
}

/// The handler a registration in `file` names within that file: a symbol of the file, or code
/// written in place (its enclosing symbol, or the file at module level). `None` for a handler
/// named by reference (resolution ties it) or not known.
pub(crate) fn local_handler(
    db: &dyn salsa::Database,
    file: SourceFile,
    e: &Endpoint,
) -> Option<Id> {
    match &e.handler {
        Handler::Symbol(i) => symbol_ids(db, file).get(*i as usize).cloned(),
        Handler::Inline => Some(crate::resolved::caller_id(db, file, e.enclosing)),
        Handler::Reference(_) | Handler::Unknown => None,
    }
}

/// One route of the workspace, for matching client calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RouteEntry {
    pub method: String,
    pub path: String,
    pub id: Id,
    /// The file that serves it (declares it, or mounts it under a prefix).
    pub file: String,
}

/// A gRPC route of the workspace (`GRPC /pkg.Service/Method`, from a `.proto` file or
/// generated code), split into the service's short name and the rpc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GrpcRoute {
    /// `Greeter` for `/helloworld.Greeter/SayHello`.
    pub service: String,
    pub rpc: String,
    pub path: String,
    pub id: Id,
}

/// The gRPC routes of [`route_table`]: it compares equal while they do, so a file that reads
/// it (a servicer class) does not re-resolve when an HTTP route changes somewhere.
#[salsa::tracked(returns(ref))]
pub(crate) fn grpc_route_table(db: &dyn salsa::Database, workspace: Workspace) -> Vec<GrpcRoute> {
    route_table(db, workspace)
        .iter()
        .filter(|r| r.method == "GRPC")
        .filter_map(|r| {
            let (svc, rpc) = r.path.strip_prefix('/')?.split_once('/')?;
            Some(GrpcRoute {
                service: svc.rsplit('.').next().unwrap_or(svc).to_string(),
                rpc: rpc.to_string(),
                path: r.path.clone(),
                id: r.id.clone(),
            })
        })
        .collect()
}

/// The gRPC routes of service `service` (its short name) and rpc `method`, one per distinct
/// path: what a language's implementation of a generated service base (`class
/// Greeter(GreeterServicer)` in Python) handles. Several services of that short name in
/// different packages: none (which one the class serves is not known).
fn grpc_routes<'a>(routes: &'a [GrpcRoute], service: &str, method: &str) -> Vec<&'a GrpcRoute> {
    let found: Vec<&GrpcRoute> =
        routes.iter().filter(|r| r.service == service && same_rpc_name(&r.rpc, method)).collect();
    let first = found.first().map(|r| r.path.as_str());
    if found.iter().any(|r| Some(r.path.as_str()) != first) {
        return Vec::new();
    }
    found
}

/// Whether a method named `method` implements rpc `rpc`: the same name, or the name with its
/// first letter lower-cased (grpc-js, ts-proto and Connect write `sayHello` for `SayHello`).
fn same_rpc_name(rpc: &str, method: &str) -> bool {
    rpc == method || {
        let mut r = rpc.chars();
        let mut m = method.chars();
        r.next().zip(m.next()).is_some_and(|(a, b)| a.to_ascii_lowercase() == b)
            && r.as_str() == m.as_str()
    }
}

/// HANDLES_ROUTE from the gRPC routes of a service's rpcs ([`grpc_routes`]) to the methods
/// named after them of each class of `facts` on a generated service base (`ids`: the file's
/// symbol IDs): of the heritage clauses `keeps` accepts, `service` gives the service the
/// base's last segment names (Python `GreeterServicer`, TS `IGreeterServer`: `Greeter`), if
/// any.
pub(crate) fn servicer_edges(
    db: &dyn salsa::Database,
    workspace: Workspace,
    facts: &codegraph_parse::FileFacts,
    ids: &[Id],
    keeps: impl Fn(&codegraph_parse::Heritage) -> bool,
    service: impl Fn(&str) -> Option<&str>,
    out: &mut Vec<Edge>,
) {
    let mut routes = None;
    for h in facts.heritage.iter().filter(|h| keeps(h)) {
        let base = h.target.rsplit('.').next().unwrap_or(&h.target);
        let Some(service) = service(base).filter(|s| !s.is_empty()) else { continue };
        for (i, s) in facts.symbols.iter().enumerate() {
            if s.parent != Some(h.symbol) || s.kind != NodeKind::Method {
                continue;
            }
            let Some(dst) = ids.get(i) else { continue };
            let table = *routes.get_or_insert_with(|| grpc_route_table(db, workspace));
            for r in grpc_routes(table, service, &s.name) {
                out.push(Edge::new(
                    r.id.clone(),
                    dst.clone(),
                    EdgeKind::HandlesRoute,
                    Reason::InterfaceMethod,
                    s.start_line,
                ));
            }
        }
    }
}

/// HANDLES_ROUTE from the gRPC route of each rpc an implementation registered in `file`
/// serves ([`codegraph_parse::Endpoint::is_registration`]: `server.addService(GreeterService,
/// { sayHello })`) to its handler: a handler written in place (its symbol), or one named by
/// reference, which `resolve` (the language's callee resolution at the registration) finds.
pub(crate) fn registration_edges(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    mut resolve: impl FnMut(
        Option<SymbolIdx>,
        &codegraph_parse::Callee,
    ) -> Option<((SourceFile, SymbolIdx), Reason)>,
    out: &mut Vec<Edge>,
) {
    let facts = &file_facts(db, file);
    let mut table = None;
    for e in facts.endpoints.iter().filter(|e| e.is_registration()) {
        let Some((service, method)) = e.name.strip_prefix('/').and_then(|n| n.split_once('/'))
        else {
            continue;
        };
        let routes = *table.get_or_insert_with(|| grpc_route_table(db, workspace));
        let found = grpc_routes(routes, service, method);
        if found.is_empty() {
            continue;
        }
        let (dst, reason) = match &e.handler {
            Handler::Symbol(i) => match symbol_ids(db, file).get(*i as usize) {
                Some(id) => (id.clone(), Reason::SameFile),
                None => continue,
            },
            Handler::Reference(callee) => match resolve(e.enclosing, callee) {
                Some(((f, i), reason)) => match symbol_ids(db, f).get(i as usize) {
                    Some(id) => (id.clone(), reason),
                    None => continue,
                },
                None => continue,
            },
            Handler::Inline | Handler::Unknown => continue,
        };
        for r in found {
            out.push(Edge::new(r.id.clone(), dst.clone(), EdgeKind::HandlesRoute, reason, e.line));
        }
    }
}

/// A route that only other files can complete: declared on a router in another file and
/// served here under a mount prefix, or registered here with a path that names other files'
/// constants.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComposedRoute {
    pub method: String,
    /// The served path: the mount prefix joined with the declared path.
    pub path: String,
    pub node: Node,
    /// CONTAINS from the mounting file (the node belongs to its unit), and HANDLES_ROUTE to
    /// the handler when it resolves.
    pub edges: Vec<Edge>,
}

/// `/api` + `/users/:id`; `/api` + `/` is `/api`.
fn join_prefix(prefix: &str, path: &str) -> String {
    let p = prefix.trim_end_matches('/');
    if path == "/" || path.is_empty() {
        return if p.is_empty() { "/".to_string() } else { p.to_string() };
    }
    format!("{p}{path}")
}

/// HANDLES_ROUTE / HANDLES_TOOL from each endpoint of `file` whose handler is named by
/// reference, to what `resolve(enclosing, callee)` finds (the language's callee resolution at
/// the registration); a handler it does not find gets no edge.
pub(crate) fn reference_handler_edges(
    db: &dyn salsa::Database,
    file: SourceFile,
    mut resolve: impl FnMut(
        Option<SymbolIdx>,
        &codegraph_parse::Callee,
    ) -> Option<((SourceFile, SymbolIdx), Reason)>,
) -> Vec<Edge> {
    let mut out = Vec::new();
    for fe in file_endpoints(db, file) {
        let Handler::Reference(callee) = &fe.endpoint.handler else { continue };
        let Some(((f, i), reason)) = resolve(fe.endpoint.enclosing, callee) else { continue };
        if let Some(dst) = symbol_ids(db, f).get(i as usize) {
            out.push(Edge::new(
                fe.id.clone(),
                dst.clone(),
                handles(fe.endpoint.kind),
                reason,
                fe.endpoint.line,
            ));
        }
    }
    out
}

/// The endpoint rows of a file's resolution in a language whose handlers are named by
/// reference: HANDLES_ROUTE / HANDLES_TOOL to what `resolve` (the language's callee
/// resolution at the registration) finds, FETCHES of the file's client calls, and the routes
/// it mounts under a prefix (their nodes and edges).
pub(crate) fn add_endpoint_rows(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    out: &mut crate::resolved::Resolved,
    resolve: impl FnMut(
        Option<SymbolIdx>,
        &codegraph_parse::Callee,
    ) -> Option<((SourceFile, SymbolIdx), Reason)>,
) {
    out.edges.extend(reference_handler_edges(db, file, resolve));
    out.edges.extend(fetch_edges(db, workspace, file));
    for c in composed_routes(db, FileKey::new(db, workspace, file)) {
        out.nodes.push(c.node.clone());
        out.edges.extend(c.edges.iter().cloned());
    }
}

/// What a callee-shaped reference in `file` names, resolved by the file's language exactly as
/// a call's callee is.
pub(crate) fn resolve_ref(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    scope: Option<codegraph_parse::SymbolIdx>,
    callee: &codegraph_parse::Callee,
    line: u32,
) -> Option<((SourceFile, codegraph_parse::SymbolIdx), Reason)> {
    crate::languages::of(db, file)?.reference(db, workspace, file, scope, callee, line)
}

/// The routes a file serves through its mounts (`app.use('/api', usersRouter)`,
/// `app.route('/api', sub)`, `fastify.register(plugin, { prefix })`, chi
/// `r.Mount("/api", usersRouter())` / `r.Route("/v1", routes)`, a gin/echo group passed to a
/// function): the mount's target resolves like a callee to a symbol of another (or the same)
/// file; a router *value* mounts the routes registered on the variable of that name, a
/// *function* (a plugin, a router factory, a Go registration function) the routes registered
/// inside it. One level: a router mounted inside a mounted router keeps its own prefix only.
/// Go files also get here the routes whose path names other files' constants
/// (`go::routes::const_path_routes`).
#[salsa::tracked(returns(ref))]
pub(crate) fn composed_routes<'db>(
    db: &'db dyn salsa::Database,
    key: FileKey<'db>,
) -> Vec<ComposedRoute> {
    let (workspace, file) = (key.workspace(db), key.file(db));
    let Some(resolver) = crate::languages::of(db, file).filter(|r| r.has_endpoints()) else {
        return Vec::new();
    };
    let facts = &file_facts(db, file);
    let mut out: Vec<ComposedRoute> = Vec::new();
    let mut seen: HashMap<String, u32> = HashMap::new();
    resolver.composed_routes(db, key, &mut seen, &mut out);
    for m in &facts.mounts {
        if m.target.name == "require" {
            continue;
        }
        let Some(((target_file, idx), _)) =
            resolve_ref(db, workspace, file, m.enclosing, &m.target, m.line)
        else {
            continue;
        };
        // The target's kind and name through a firewall without lines (see `surface.rs`).
        let Some((kind, name)) = crate::graph::symbol_heads(db, target_file).get(idx as usize)
        else {
            continue;
        };
        let is_function = matches!(kind, NodeKind::Function | NodeKind::Method);
        let target_path = target_file.path(db);
        for fe in file_endpoints(db, target_file) {
            let e = &fe.endpoint;
            if e.kind != EndpointKind::Route {
                continue;
            }
            let mounted = if is_function {
                e.enclosing == Some(idx)
            } else {
                e.receiver.first().is_some_and(|r| **r == **name)
            };
            if !mounted {
                continue;
            }
            let path = join_prefix(&m.prefix, &e.name);
            let mut composed = e.clone();
            composed.name = path.clone();
            composed.middleware = m.middleware.iter().chain(&e.middleware).cloned().collect();
            // The composed route belongs to the mounting file (its unit writes and deletes
            // it): its ID, file and line are the mount's; the signature says where the route
            // itself is registered.
            let base = endpoint_id(file.path(db), &composed, 1);
            let n = seen.entry(base).or_insert(0);
            *n += 1;
            let id = intern(&endpoint_id(file.path(db), &composed, *n));
            let label = label(&composed);
            let node = Node {
                id: id.clone(),
                kind: NodeKind::Route,
                name: label.clone(),
                qualified_name: label,
                file: Some(file.path(db).clone()),
                language: file.language(db).map(Language::as_str),
                start_line: Some(m.line),
                end_line: Some(m.line),
                signature: Some(format!(
                    "{} (registered at {}:{}, mounted under {})",
                    signature(&composed),
                    target_path,
                    e.line,
                    m.prefix
                )),
                doc: None,
                exported: false,
                test: crate::graph::is_test(db, file),
                parent: Some(file_id(file.path(db))),
                size: None,
                lines: None,
                hash: None,
                props: Some(props(&composed, Some((target_path, e.line, &m.prefix)))),
            };
            let handler = match &e.handler {
                Handler::Reference(c) => {
                    resolve_ref(db, workspace, target_file, e.enclosing, c, e.line).and_then(
                        |((f, i), r)| symbol_ids(db, f).get(i as usize).map(|h| (h.clone(), r)),
                    )
                }
                _ => local_handler(db, target_file, e).map(|h| (h, Reason::SameFile)),
            };
            let mut edges = vec![Edge::new(
                file_id(file.path(db)),
                id.clone(),
                EdgeKind::Contains,
                Reason::Structural,
                0,
            )];
            if let Some((h, reason)) = handler {
                edges.push(Edge::new(id.clone(), h, EdgeKind::HandlesRoute, reason, m.line));
            }
            out.push(ComposedRoute { method: composed.method.clone(), path, node, edges });
        }
    }
    out
}

/// Every route of the workspace (declared and mounted), sorted by ID. Re-executes only when
/// some file's endpoints or mounts change, and compares equal otherwise, so client files
/// re-resolve only then.
#[salsa::tracked(returns(ref))]
pub fn route_table(db: &dyn salsa::Database, workspace: Workspace) -> Vec<RouteEntry> {
    let mut out: Vec<RouteEntry> = Vec::new();
    for &f in workspace.files(db) {
        let file = f.path(db);
        for c in composed_routes(db, FileKey::new(db, workspace, f)) {
            out.push(RouteEntry {
                method: c.method.clone(),
                path: c.path.clone(),
                id: c.node.id.clone(),
                file: file.clone(),
            });
        }
        for fe in file_endpoints(db, f) {
            if fe.endpoint.kind == EndpointKind::Route {
                out.push(RouteEntry {
                    method: fe.endpoint.method.clone(),
                    path: fe.endpoint.name.clone(),
                    id: fe.id.clone(),
                    file: file.clone(),
                });
            }
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// FETCHES edges of one file: each client call whose method and path match routes of the
/// workspace, to the best-matching routes. Confidence: 0.9 for an exact path and method, 0.8
/// when parameters stand for values, 0.1 less when the method is unknown (`ANY` on either
/// side) and 0.1 less when a base URL was dropped from the call.
pub(crate) fn fetch_edges(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<Edge> {
    let facts = &file_facts(db, file);
    if facts.client_calls.is_empty() {
        return Vec::new();
    }
    let routes = route_table(db, workspace);
    let packages = package_roots(db, workspace);
    let caller = file.path(db).as_str();
    let caller_pkg = package_of(packages, caller);
    let mut out = Vec::new();
    for call in &facts.client_calls {
        // (weight, nearness, route) of every route that can serve the call, and whether one
        // of them is in the caller's own package or app.
        let mut candidates: Vec<(f64, usize, &RouteEntry)> = Vec::new();
        let mut own = Vec::new();
        for r in routes {
            let m = path_match(&r.path, &call.path);
            if m == 0 {
                continue;
            }
            let any = r.method == "ANY" || call.method == "ANY";
            if !any && r.method != call.method {
                continue;
            }
            let mut w = if m == 2 { 0.9 } else { 0.8 };
            if any {
                w -= 0.1;
            }
            if call.has_base {
                w -= 0.1;
            }
            own.push(package_of(packages, &r.file) == caller_pkg);
            candidates.push((w, nearness(caller, &r.file), r));
        }
        // A bare path is served by the caller's own package or app when that declares a match
        // (a test's own server); another package's routes stand only when it has none (a
        // front end calling its API package through a proxy), or when the call names a base
        // URL, a service of its own.
        if own.iter().any(|&o| o) && !call.has_base {
            let mut keep = own.iter();
            candidates.retain(|_| keep.next().copied().unwrap_or(false));
        }
        // The best match, the nearest servers of it (the same file, then the same
        // directory...), at most MAX_FETCH_TARGETS: a test's `fetch('/')` names the route its
        // own file declares, not every `GET /` of the repository.
        let Some(&(top_w, _, _)) =
            candidates.iter().max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        else {
            continue;
        };
        let best: Vec<&(f64, usize, &RouteEntry)> =
            candidates.iter().filter(|c| c.0 >= top_w).collect();
        let nearest = best.iter().map(|c| c.1).max().unwrap_or(0);
        let src = crate::resolved::caller_id(db, file, call.enclosing);
        for &&(w, _, r) in best.iter().filter(|c| c.1 == nearest).take(MAX_FETCH_TARGETS) {
            let mut e = Edge::new(
                src.clone(),
                r.id.clone(),
                EdgeKind::Fetches,
                Reason::UrlMatch,
                call.line,
            );
            e.weight_milli = (w * 1000.0).round() as u16;
            out.push(e);
        }
    }
    out
}

/// FETCHES edges one client call may have: the nearest equally good servers, at most this
/// many (in route-ID order).
pub const MAX_FETCH_TARGETS: usize = 3;

/// How near two files are: `usize::MAX` for the same file, else the number of leading
/// directories they share.
fn nearness(a: &str, b: &str) -> usize {
    if a == b {
        return usize::MAX;
    }
    let (da, db_) = (crate::ids::parent_dir(a), crate::ids::parent_dir(b));
    da.split('/').zip(db_.split('/')).take_while(|(x, y)| x == y && !x.is_empty()).count()
}

/// The directories holding a `package.json` or `go.mod`: the packages and apps of the
/// repository (`""` for the root). Reads paths only.
#[salsa::tracked(returns(ref))]
pub fn package_roots(db: &dyn salsa::Database, workspace: Workspace) -> Vec<String> {
    let mut out: Vec<String> = workspace
        .files(db)
        .iter()
        .map(|f| f.path(db).as_str())
        .filter(|p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            (name == "package.json" || name == "go.mod") && !p.contains("node_modules/")
        })
        .map(|p| crate::ids::parent_dir(p).to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The package root a file belongs to: the deepest of `roots` that holds it.
pub(crate) fn package_of<'r>(roots: &'r [String], path: &str) -> Option<&'r str> {
    roots
        .iter()
        .filter(|r| r.is_empty() || path.starts_with(&format!("{r}/")))
        .max_by_key(|r| r.len())
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_paths() {
        let r = |p: &str| next_route(p);
        assert_eq!(r("app/users/[id]/route.ts"), Some(("/users/:id".into(), true)));
        assert_eq!(r("src/app/(shop)/cart/route.js"), Some(("/cart".into(), true)));
        assert_eq!(r("app/route.ts"), Some(("/".into(), true)));
        assert_eq!(r("app/docs/[...slug]/route.ts"), Some(("/docs/:slug*".into(), true)));
        assert_eq!(r("app/docs/[[...slug]]/route.ts"), Some(("/docs/:slug*".into(), true)));
        assert_eq!(r("app/users/page.tsx"), None);
        assert_eq!(r("pages/api/users/[id].ts"), Some(("/api/users/:id".into(), false)));
        assert_eq!(r("pages/api/index.ts"), Some(("/api".into(), false)));
        assert_eq!(r("pages/about.tsx"), None);
        assert_eq!(r("src/lib/app.ts"), None);
    }
}
