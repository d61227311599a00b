//! HTTP routes and MCP tools registered in code: the [`Endpoint`] facts.
//!
//! Why it exists: "which handler serves `GET /users/:id`", "what does this route answer", "which
//! tools does this MCP server expose" are questions about *registrations* (`app.get('/p', h)`,
//! `@Get(':id')`, `r.HandleFunc("/p", h)`, `server.tool('add', ...)`), which neither symbols nor
//! call sites answer: the path is a string argument, the handler an argument too, and prefixes
//! come from groups, controllers and sub-routers declared around them. This module reads those
//! shapes from the syntax tree the provider already has, after its main walk, and records one
//! fact per endpoint; cross-file mount prefixes and file-path conventions are resolution's job.
//! The same pass records what resolution needs for that: routers mounted under a prefix
//! ([`Mount`]: `app.use('/api', router)`, `r.Mount("/api", sub)`) and HTTP client calls with a
//! literal or template URL ([`ClientCall`]: `fetch('/users/${id}')`, `http.Get(...)`), so
//! that routes can be composed across files and client calls matched to them.
//!
//! How: a provider calls [`typescript`] or [`go`] with the facts its walk produced. A cheap text
//! prefilter ([`TS_MARKERS`], [`GO_MARKERS`]) runs first, and only a file that contains one of
//! the markers has its tree walked again, and then only the top-level declarations that hold a
//! marker, so the cost on a code base without endpoints is one automaton pass over each file's
//! text and the extra work stays proportional to the hits. The
//! language-specific readers live in [`ts`] and [`go`](mod@go); the shared rules (path
//! normalization, status names, the enclosing symbol, ordering) live here.

mod go;
mod ts;

use crate::facts::{
    ClientCall, Endpoint, EndpointKind, FileFacts, Handler, Mount, Symbol, SymbolIdx,
};
use aho_corasick::AhoCorasick;
use codegraph_schema::NodeKind;
use std::collections::HashMap;
use std::sync::LazyLock;
use tree_sitter::Node;

/// Substrings one of which every TS/JS file with an extractable endpoint, mount or client call
/// contains: a call with a literal path (`('/`, `("/`, `` (`/ ``, `('*'`, an empty path `('',`),
/// a Koa named route (`'name', '/path'`), `.route(` (route chains, Fastify's full form, Hono
/// mounts), `.tool(` / `registerTool(` / `addTool(` (all end in `ool(`), a Nest controller, the
/// low-level MCP call-tool schema, a Fastify `prefix:` option, and the HTTP clients' names
/// (`fetch(` also covers `$fetch(` and `ofetch(`).
pub(crate) const TS_MARKERS: &[&str] = &[
    "('/",
    "(\"/",
    "(`/",
    "('*'",
    "(\"*\"",
    "('',",
    "(\"\",",
    "', '/",
    "\", \"/",
    "route(",
    "ool(",
    "addService(",
    ".service(",
    "@Controller",
    "CallToolRequestSchema",
    "prefix:",
    "fetch(",
    "axios",
    "ky.",
    "ky(",
    "got.",
    "got(",
    "superagent",
];

/// Client instances with a base URL (`const api = axios.create({ baseURL })`): their calls can
/// sit in any top-level statement, so a file holding one is walked whole.
const TS_INSTANCE_MARKERS: &[&str] =
    &["axios.create(", "ky.create(", "ky.extend(", "got.extend(", "ofetch.create("];

/// The Go counterpart of [`TS_MARKERS`]: a call with a literal path (routes, groups, prefixes;
/// `("",` for a group's own path), `Handle(` / `HandleFunc(` (net/http patterns such as
/// `"GET /items/{id}"`), `AddTool(`, chi's `Mount(`, and net/http client calls.
pub(crate) const GO_MARKERS: &[&str] = &[
    "(\"/",
    "(`/",
    "(\"\",",
    "Handle(",
    "HandleFunc(",
    "AddTool(",
    "Mount(",
    "http.Get(",
    "http.Head(",
    "http.Post",
    "NewRequest",
    "Invoke(",
    "NewStream(",
    "NewClientStream(",
    "ServiceDesc{",
];

/// The quotes that open a literal path; [`MarkerScan`] keeps those that follow a call's `(`
/// on a later line (`fastify.get(\n  '/',` / `r.GET(\n\t"/users",`): the markers above only
/// see a path that follows its `(` directly.
const PATH_QUOTES: [&str; 3] = ["'/", "\"/", "`/"];

/// One language's prefilter as a single automaton: its markers, [`PATH_QUOTES`] and its
/// instance markers, found in one pass over a file's text rather than one search per marker.
struct MarkerScan {
    /// `None` only if the automaton could not be built; a test shows both languages' build.
    ac: Option<AhoCorasick>,
    /// Patterns `0..markers` are markers, then the path quotes, then the instance markers.
    markers: usize,
}

/// What [`MarkerScan::scan`] found in one file.
struct Hits {
    /// Byte offsets of marker occurrences and split path calls, ascending. Empty: no marker,
    /// no second walk.
    at: Vec<usize>,
    /// An instance marker occurs (or the automaton is missing): walk every top-level node.
    whole_file: bool,
}

impl MarkerScan {
    fn new(markers: &[&str], instance: &[&str]) -> Self {
        let patterns = markers.iter().chain(&PATH_QUOTES).chain(instance);
        MarkerScan { ac: AhoCorasick::new(patterns).ok(), markers: markers.len() }
    }

    fn scan(&self, text: &str) -> Hits {
        let Some(ac) = &self.ac else {
            return Hits { at: vec![0], whole_file: true };
        };
        let quotes = self.markers..self.markers + PATH_QUOTES.len();
        let mut hits = Hits { at: Vec::new(), whole_file: false };
        for m in ac.find_overlapping_iter(text) {
            let pattern = m.pattern().as_usize();
            if pattern < self.markers {
                hits.at.push(m.start());
            } else if quotes.contains(&pattern) {
                let i = m.start();
                let before = text[..i].trim_end_matches([' ', '\t', '\r', '\n']);
                if before.ends_with('(') && text[before.len()..i].contains('\n') {
                    hits.at.push(i);
                }
            } else {
                hits.whole_file = true;
            }
        }
        hits.at.sort_unstable();
        hits
    }
}

static TS_SCAN: LazyLock<MarkerScan> =
    LazyLock::new(|| MarkerScan::new(TS_MARKERS, TS_INSTANCE_MARKERS));
static GO_SCAN: LazyLock<MarkerScan> = LazyLock::new(|| MarkerScan::new(GO_MARKERS, &[]));

impl Hits {
    /// The top-level statements / declarations of `root` worth walking: every one for a
    /// whole-file hit, else those that contain an offset of `at`, since every shape read here
    /// (registration, group assignment, `NewTool` variable) sits in the same top-level
    /// declaration as a marker.
    fn regions<'t>(&self, root: Node<'t>) -> Vec<Node<'t>> {
        let mut cursor = root.walk();
        root.named_children(&mut cursor)
            .filter(|c| {
                let i = self.at.partition_point(|&p| p < c.start_byte());
                self.whole_file || self.at.get(i).is_some_and(|&p| p < c.end_byte())
            })
            .collect()
    }
}

/// Fills `facts.endpoints`, `facts.mounts` and `facts.client_calls` for a TS/TSX/JS file.
pub(crate) fn typescript(text: &str, tree: &tree_sitter::Tree, facts: &mut FileFacts) {
    let hits = TS_SCAN.scan(text);
    if hits.at.is_empty() {
        return;
    }
    let root = tree.root_node();
    let found = ts::extract(text, root, &hits.regions(root), facts);
    found.finish(facts);
}

pub use go::resolved_route as resolved_go_route;

/// Longest string constant recorded in `GoFacts::string_consts` (route paths and their
/// pieces are short; long constants are text, not paths).
const MAX_CONST_LEN: usize = 128;

/// Fills the Go facts' `string_consts`, `facts.endpoints`, `facts.mounts` and `facts.client_calls` for
/// a Go file.
pub(crate) fn go(text: &str, tree: &tree_sitter::Tree, facts: &mut FileFacts) {
    let root = tree.root_node();
    let consts = go::file_consts(root, text);
    let mut listed: Vec<(String, String)> = consts
        .iter()
        .filter(|(_, v)| v.len() <= MAX_CONST_LEN && !v.contains('\n'))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    listed.sort();
    if !listed.is_empty() {
        facts.go_mut().string_consts = listed;
    }
    let hits = GO_SCAN.scan(text);
    if hits.at.is_empty() {
        return;
    }
    let found = go::extract(text, root, &hits.regions(root), facts, consts);
    found.finish(facts);
}

/// An endpoint with the column of its registration, for ordering, and, for a handler written
/// in place, the function's span (start line, start column, end line, end column).
struct Found {
    col: u32,
    ep: Endpoint,
    inline: Option<Span>,
}

/// A range of source positions: (start line, start column, end line, end column), 1-based.
type Span = (u32, u32, u32, u32);

/// The span of a syntax node.
fn span_of(n: tree_sitter::Node<'_>) -> Span {
    let (s, e) = (n.start_position(), n.end_position());
    let one = |x: usize| u32::try_from(x).unwrap_or(u32::MAX).saturating_add(1);
    (one(s.row), one(s.column), one(e.row), one(e.column))
}

/// What one file's pass found, each item with its column for ordering.
#[derive(Default)]
struct Extracted {
    endpoints: Vec<Found>,
    mounts: Vec<(u32, Mount)>,
    clients: Vec<(u32, ClientCall)>,
}

impl Extracted {
    /// Source order: by line, then column; equal positions keep discovery order (a Gorilla
    /// route with `.Methods("GET", "POST")` gives two endpoints at one position).
    fn finish(mut self, facts: &mut FileFacts) {
        self.endpoints.sort_by_key(|f| (f.ep.line, f.col));
        inline_handlers(&mut self.endpoints, facts);
        facts.endpoints = self.endpoints.into_iter().map(|f| f.ep).collect();
        self.mounts.sort_by_key(|(col, m)| (m.line, *col));
        facts.mounts = self.mounts.into_iter().map(|(_, m)| m).collect();
        self.clients.sort_by_key(|(col, c)| (c.line, *col));
        facts.client_calls = self.clients.into_iter().map(|(_, c)| c).collect();
    }
}

/// Handlers written in place become symbols of their own, children of the enclosing symbol:
/// `$GET /ping` for a route, `$tool add` for a tool (`BenchmarkX.$GET /ping`), spanning the
/// function, so that the calls it makes (and the parameters it declares, and the fields it
/// reads) are its own and HANDLES_ROUTE / HANDLES_TOOL point at it. The eval convention keeps
/// anonymous functions transparent: a scorer maps `X.$...` back to `X`.
fn inline_handlers(found: &mut [Found], facts: &mut FileFacts) {
    let within = |span: &Span, line: u32, col: u32| {
        (line, col) >= (span.0, span.1) && (line, col) <= (span.2, span.3)
    };
    // Outer handlers first (by start), so a handler nested in another one hangs off it.
    let mut order: Vec<usize> = (0..found.len()).filter(|&i| found[i].inline.is_some()).collect();
    order.sort_by_key(|&i| found[i].inline);
    let mut made: Vec<(Span, SymbolIdx)> = Vec::new();
    for i in order {
        let Some(span) = found[i].inline else { continue };
        // Several endpoints of one registration (methods) share its handler.
        if let Some(&(_, idx)) = made.iter().find(|(s, _)| *s == span) {
            found[i].ep.handler = Handler::Symbol(idx);
            continue;
        }
        let ep = &found[i].ep;
        let parent = made
            .iter()
            .rev()
            .find(|(outer, _)| within(outer, span.0, span.1) && within(outer, span.2, span.3))
            .map(|(_, idx)| *idx)
            .or(ep.enclosing);
        let label = match ep.kind {
            EndpointKind::Route if ep.name.is_empty() => format!("{} ?", ep.method),
            EndpointKind::Route => format!("{} {}", ep.method, ep.name),
            EndpointKind::Tool => format!("tool {}", ep.name),
        };
        let name = format!("${label}");
        let qualified_name = match parent.and_then(|p| facts.symbols.get(p as usize)) {
            Some(p) => format!("{}.{name}", p.qualified_name),
            None => name.clone(),
        };
        let Ok(idx) = SymbolIdx::try_from(facts.symbols.len()) else { return };
        facts.symbols.push(Symbol {
            kind: NodeKind::Function,
            name,
            qualified_name,
            parent,
            start_line: span.0,
            end_line: span.2,
            signature: format!("{label} (handler written in place)"),
            doc: None,
            exported: false,
        });
        for c in &mut facts.calls {
            if c.enclosing == parent && within(&span, c.line, c.col) {
                c.enclosing = Some(idx);
            }
        }
        for a in &mut facts.accesses {
            if a.enclosing == parent && a.line > span.0 && a.line <= span.2 {
                a.enclosing = Some(idx);
            }
        }
        for h in &mut facts.type_hints {
            if h.scope == parent
                && !matches!(h.source, crate::facts::HintSource::Return(_))
                && h.line >= span.0
                && h.line <= span.2
            {
                h.scope = Some(idx);
            }
        }
        found[i].ep.handler = Handler::Symbol(idx);
        made.push((span, idx));
    }
}

/// A route endpoint with the optional parts empty.
fn route(framework: &str, method: &str, path: String, handler: Handler) -> Endpoint {
    Endpoint::route(framework, method, path, handler)
}

impl Endpoint {
    /// A gRPC implementation registered on a server (grpc-js `server.addService(GreeterService,
    /// {sayHello})`, Connect `router.service(ElizaService, {...})`; method `GRPC`, name
    /// `/Service/method` with the service's short name): it binds a handler to an rpc a
    /// `.proto` declares and is no route of its own; resolution ties it to that rpc's route.
    pub fn is_registration(&self) -> bool {
        self.kind == EndpointKind::Route && matches!(self.framework.as_str(), "grpc-js" | "connect")
    }

    /// A route with the optional parts (description, fields, keys, codes, middleware,
    /// receiver, line, enclosing) empty.
    pub fn route(framework: &str, method: &str, path: String, handler: Handler) -> Endpoint {
        Endpoint {
            kind: EndpointKind::Route,
            framework: framework.to_string(),
            method: method.to_string(),
            name: path,
            name_is_expr: false,
            description: None,
            fields: Vec::new(),
            response_keys: Vec::new(),
            status_codes: Vec::new(),
            middleware: Vec::new(),
            handler,
            receiver: Vec::new(),
            line: 0,
            enclosing: None,
            path_expr: Vec::new(),
        }
    }
}

/// A tool endpoint with the optional parts empty.
fn tool(framework: &str, name: String, handler: Handler) -> Endpoint {
    Endpoint {
        kind: EndpointKind::Tool,
        method: String::new(),
        ..route(framework, "", name, handler)
    }
}

/// The enclosing symbol of a registration, by the call site the provider's walk recorded at
/// the same position (so the walk's naming rules apply unchanged), else the innermost symbol
/// whose lines contain `line`.
struct Enclosing<'f> {
    facts: &'f FileFacts,
    at: Option<HashMap<(u32, u32), Option<SymbolIdx>>>,
}

impl<'f> Enclosing<'f> {
    fn new(facts: &'f FileFacts) -> Self {
        Self { facts, at: None }
    }

    fn of(&mut self, line: u32, col: u32) -> Option<SymbolIdx> {
        let facts = self.facts;
        let at = self.at.get_or_insert_with(|| {
            facts.calls.iter().map(|c| ((c.line, c.col), c.enclosing)).collect()
        });
        if let Some(e) = at.get(&(line, col)) {
            return *e;
        }
        self.by_lines(line)
    }

    /// The innermost symbol whose line range holds `line` (the latest start wins; symbols are
    /// in source order with parents first).
    fn by_lines(&self, line: u32) -> Option<SymbolIdx> {
        let mut best: Option<(u32, usize)> = None;
        for (i, s) in self.facts.symbols.iter().enumerate() {
            if s.start_line <= line
                && line <= s.end_line
                && best.is_none_or(|(l, _)| s.start_line >= l)
            {
                best = Some((s.start_line, i));
            }
        }
        best.and_then(|(_, i)| u32::try_from(i).ok())
    }
}

/// Normalizes a route path: `''` -> `/`, a leading `/`, runs of `/` collapsed, parameters
/// `{id}` / `{id:[0-9]+}` -> `:id`, `{rest...}` -> `:rest*`, Go's end anchor `{$}` dropped.
/// Braces that do not start with a name (Express 5 optional groups `{/:id}`) stay as written.
pub(crate) fn normalize_path(p: &str) -> String {
    let mut out = String::with_capacity(p.len() + 1);
    out.push('/');
    let mut rest = p;
    while let Some(c) = rest.chars().next() {
        if c == '{'
            && let Some(end) = rest.find('}')
        {
            let inner = &rest[1..end];
            let name_end =
                inner.find(|ch: char| !(ch.is_alphanumeric() || ch == '_')).unwrap_or(inner.len());
            let name = &inner[..name_end];
            let after = &inner[name_end..];
            if inner == "$" {
                rest = &rest[end + 1..];
                continue;
            }
            let starts_name = name.chars().next().is_some_and(|ch| ch.is_alphabetic() || ch == '_');
            if starts_name && (after.is_empty() || after.starts_with(':') || after == "...") {
                out.push(':');
                out.push_str(name);
                if after == "..." {
                    out.push('*');
                }
                rest = &rest[end + 1..];
                continue;
            }
        }
        if c == '/' && out.ends_with('/') {
            rest = &rest[1..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A sub-path under a prefix, normalized: `join("/users", ":id")` = `/users/:id`; an empty or
/// `/` sub-path is the prefix itself.
pub(crate) fn join_path(prefix: &str, sub: &str) -> String {
    if sub.is_empty() || sub == "/" {
        return normalize_path(if prefix.is_empty() { sub } else { prefix });
    }
    normalize_path(&format!("{prefix}/{sub}"))
}

/// A piece of a URL expression as written: literal text, or a substitution whose value is not
/// known (`${id}`, `%d`, `+ id`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece<'s> {
    Lit(&'s str),
    Hole,
}

/// Stands for a substitution while a URL is taken apart (no URL literal holds a NUL).
const HOLE: char = '\0';

/// The path of a client call's URL, and whether a base was dropped: scheme and host dropped
/// (`https://api.x.com/users` -> `/users`), a leading substitution before the first `/`
/// dropped (`${API}/users`), query and fragment dropped, runs of `/` collapsed (a trailing
/// `/` kept, as route paths keep it), a segment holding a substitution as `:param`. A path
/// without a leading `/` is relative: `None` unless `relative_ok` (a client with a base URL),
/// then rooted. `None` when no path is recoverable (`fetch(url)`).
pub(crate) fn client_path(pieces: &[Piece<'_>], relative_ok: bool) -> Option<(String, bool)> {
    let mut s = String::new();
    for p in pieces {
        match p {
            Piece::Lit(t) => s.push_str(t),
            Piece::Hole => s.push(HOLE),
        }
    }
    if let Some(end) = s.find(['?', '#']) {
        s.truncate(end);
    }
    let scheme_end = s.find("://").filter(|&i| {
        s[..i].chars().all(|c| c == HOLE || c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    let (path, has_base) = if let Some(i) = scheme_end {
        let rest = &s[i + 3..];
        (rest.find('/').map_or("/", |j| &rest[j..]), true)
    } else if let Some(rest) = s.strip_prefix("//") {
        (rest.find('/').map_or("/", |j| &rest[j..]), true)
    } else if s.starts_with('/') {
        (s.as_str(), false)
    } else if s.starts_with(HOLE) {
        (&s[s.find('/')?..], true)
    } else if relative_ok && !s.is_empty() {
        (s.as_str(), true)
    } else {
        return None;
    };
    let mut out = String::with_capacity(path.len() + 1);
    for seg in path.split('/').filter(|g| !g.is_empty()) {
        out.push('/');
        if seg.contains(HOLE) {
            out.push_str(":param");
        } else {
            out.push_str(seg);
        }
    }
    if out.is_empty() || path.ends_with('/') {
        out.push('/');
    }
    Some((out, has_base))
}

/// A status code from a named constant: Go `StatusNotFound`, Nest `HttpStatus.NOT_FOUND`,
/// `StatusCodes.NOT_FOUND` (the name after the last `.`).
pub(crate) fn status_by_name(name: &str) -> Option<u16> {
    let last = name.rsplit('.').next().unwrap_or(name);
    let last = last.strip_prefix("Status").unwrap_or(last);
    let key: String = last.chars().filter(|c| *c != '_').map(|c| c.to_ascii_uppercase()).collect();
    Some(match key.as_str() {
        "CONTINUE" => 100,
        "SWITCHINGPROTOCOLS" => 101,
        "OK" => 200,
        "CREATED" => 201,
        "ACCEPTED" => 202,
        "NONAUTHORITATIVEINFO" | "NONAUTHORITATIVEINFORMATION" => 203,
        "NOCONTENT" => 204,
        "RESETCONTENT" => 205,
        "PARTIALCONTENT" => 206,
        "MOVEDPERMANENTLY" => 301,
        "FOUND" => 302,
        "SEEOTHER" => 303,
        "NOTMODIFIED" => 304,
        "TEMPORARYREDIRECT" => 307,
        "PERMANENTREDIRECT" => 308,
        "BADREQUEST" => 400,
        "UNAUTHORIZED" => 401,
        "PAYMENTREQUIRED" => 402,
        "FORBIDDEN" => 403,
        "NOTFOUND" => 404,
        "METHODNOTALLOWED" => 405,
        "NOTACCEPTABLE" => 406,
        "REQUESTTIMEOUT" => 408,
        "CONFLICT" => 409,
        "GONE" => 410,
        "PRECONDITIONFAILED" => 412,
        "REQUESTENTITYTOOLARGE" | "PAYLOADTOOLARGE" => 413,
        "UNSUPPORTEDMEDIATYPE" => 415,
        "UNPROCESSABLEENTITY" => 422,
        "TOOMANYREQUESTS" => 429,
        "INTERNALSERVERERROR" => 500,
        "NOTIMPLEMENTED" => 501,
        "BADGATEWAY" => 502,
        "SERVICEUNAVAILABLE" => 503,
        "GATEWAYTIMEOUT" => 504,
        _ => return None,
    })
}

/// A status code from a numeric literal in the HTTP range.
pub(crate) fn status_literal(text: &str) -> Option<u16> {
    text.parse::<u16>().ok().filter(|c| (100..=599).contains(c))
}

/// Sorts and deduplicates the response parts of a route.
fn tidy(ep: &mut Endpoint) {
    ep.response_keys.sort();
    ep.response_keys.dedup();
    ep.status_codes.sort_unstable();
    ep.status_codes.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_scans_build_and_find_every_hit() {
        assert!(TS_SCAN.ac.is_some() && GO_SCAN.ac.is_some());
        // A marker at 12, a split path call's quote at 30 (`(` then a newline), a quote that
        // follows its `(` on the same line (the marker `("/` at 44, not a split call), and a
        // quote after a non-call (not a hit).
        let go = "package a\nr.Handle(x)\nr.GET(\n\t\"/users\", h)\nf(\"/x\")\ny := \"/z\"\n";
        let hits = GO_SCAN.scan(go);
        assert_eq!(hits.at, vec![12, 30, 44]);
        assert_eq!(&go[12..19], "Handle(");
        assert_eq!(&go[30..32], "\"/");
        assert_eq!(&go[44..47], "(\"/");
        assert!(!hits.whole_file);
        assert!(GO_SCAN.scan("package a\nfunc f() {}\n").at.is_empty());
        // An instance marker walks the whole file; alone (without a marker) it walks nothing.
        let ts = "const api = axios.create({ baseURL })\n";
        let hits = TS_SCAN.scan(ts);
        assert!(hits.whole_file && !hits.at.is_empty());
        let hits = TS_SCAN.scan("const c = ofetch.create({})\n");
        assert!(hits.whole_file && hits.at.is_empty());
    }

    #[test]
    fn paths_normalize() {
        assert_eq!(normalize_path(""), "/");
        assert_eq!(normalize_path("users"), "/users");
        assert_eq!(normalize_path("//a///b/"), "/a/b/");
        assert_eq!(normalize_path("/items/{id}"), "/items/:id");
        assert_eq!(normalize_path("/items/{id:[0-9]+}/x"), "/items/:id/x");
        assert_eq!(normalize_path("/files/{path...}"), "/files/:path*");
        assert_eq!(normalize_path("/exact/{$}"), "/exact/");
        assert_eq!(normalize_path("/user{/:id}"), "/user{/:id}");
        assert_eq!(normalize_path("*"), "/*");
        assert_eq!(join_path("users", ":id"), "/users/:id");
        assert_eq!(join_path("/users/", "/:id"), "/users/:id");
        assert_eq!(join_path("/users", ""), "/users");
        assert_eq!(join_path("", ""), "/");
        assert_eq!(join_path("/v1", "/"), "/v1");
    }

    #[test]
    fn client_paths() {
        use Piece::{Hole, Lit};
        let p = |pieces: &[Piece<'_>]| client_path(pieces, false);
        let some = |s: &str, base: bool| Some((s.to_string(), base));
        assert_eq!(p(&[Lit("/users")]), some("/users", false));
        assert_eq!(p(&[Lit("/users/"), Hole]), some("/users/:param", false));
        assert_eq!(
            p(&[Lit("/users/"), Hole, Lit("/posts?x="), Hole]),
            some("/users/:param/posts", false)
        );
        assert_eq!(p(&[Lit("/a/v"), Hole, Lit("x/b")]), some("/a/:param/b", false));
        assert_eq!(p(&[Lit("https://api.x.com/users/1")]), some("/users/1", true));
        assert_eq!(p(&[Lit("https://api.x.com")]), some("/", true));
        assert_eq!(p(&[Hole, Lit("://"), Hole, Lit("/u")]), some("/u", true));
        assert_eq!(p(&[Lit("//cdn.x.com/a#top")]), some("/a", true));
        assert_eq!(p(&[Hole, Lit("/users")]), some("/users", true));
        assert_eq!(p(&[Hole, Lit(":8080//users//")]), some("/users/", true));
        assert_eq!(p(&[Lit("/")]), some("/", false));
        assert_eq!(p(&[Hole]), None);
        assert_eq!(p(&[Hole, Lit("?q=1")]), None);
        assert_eq!(p(&[Lit("users")]), None);
        assert_eq!(p(&[Lit("")]), None);
        assert_eq!(client_path(&[Lit("users/"), Hole], true), some("/users/:param", true));
        assert_eq!(client_path(&[Lit("")], true), None);
    }

    #[test]
    fn status_names() {
        assert_eq!(status_by_name("http.StatusNotFound"), Some(404));
        assert_eq!(status_by_name("HttpStatus.NO_CONTENT"), Some(204));
        assert_eq!(status_by_name("StatusOK"), Some(200));
        assert_eq!(status_by_name("StatusTeapot"), None);
        assert_eq!(status_literal("201"), Some(201));
        assert_eq!(status_literal("42"), None);
    }
}
