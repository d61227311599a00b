//! HTTP routes and MCP tools registered in code: the [`Endpoint`] facts.
//!
//! Why it exists: "which handler serves `GET /users/:id`", "what does this route answer", "which
//! tools does this MCP server expose" are questions about *registrations* (`app.get('/p', h)`,
//! `@Get(':id')`, `r.HandleFunc("/p", h)`, `server.tool('add', ...)`), which neither symbols nor
//! call sites answer: the path is a string argument, the handler an argument too, and prefixes
//! come from groups, controllers and sub-routers declared around them. This module reads those
//! shapes from the syntax tree the provider already has, after its main walk, and records one
//! fact per endpoint; cross-file mount prefixes and file-path conventions are resolution's job.
//!
//! How: a provider calls [`typescript`] or [`go`] with the facts its walk produced. A cheap text
//! prefilter ([`TS_MARKERS`], [`GO_MARKERS`]) runs first, and only a file that contains one of
//! the markers has its tree walked again, and then only the top-level declarations that hold a
//! marker, so the cost on a code base without endpoints is a few substring searches per file
//! and the extra work stays proportional to the hits. The
//! language-specific readers live in [`ts`] and [`go`](mod@go); the shared rules (path
//! normalization, status names, the enclosing symbol, ordering) live here.

mod go;
mod ts;

use crate::facts::{Endpoint, EndpointKind, FileFacts, Handler, SymbolIdx};
use std::collections::HashMap;
use tree_sitter::Node;

/// Substrings one of which every TS/JS file with an extractable endpoint contains: a call with
/// a literal path (`('/`, `("/`, `` (`/ ``, `('*'`, an empty path `('',`), a Koa named route
/// (`'name', '/path'`), `.route(` (route chains, Fastify's full form), `.tool(` /
/// `registerTool(` / `addTool(` (all end in `ool(`), a Nest controller, the low-level MCP
/// call-tool schema.
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
    "@Controller",
    "CallToolRequestSchema",
];

/// The Go counterpart of [`TS_MARKERS`]: a call with a literal path (routes, groups, prefixes;
/// `("",` for a group's own path), `Handle(` / `HandleFunc(` (net/http patterns such as
/// `"GET /items/{id}"`), `AddTool(`.
pub(crate) const GO_MARKERS: &[&str] =
    &["(\"/", "(`/", "(\"\",", "Handle(", "HandleFunc(", "AddTool("];

/// Whether `text` contains one of `markers` (the prefilter: no marker, no second walk).
pub(crate) fn prefilter(text: &str, markers: &[&str]) -> bool {
    markers.iter().any(|m| text.contains(m))
}

/// The top-level statements / declarations of `root` that contain an occurrence of one of
/// `markers`: the only ones worth walking, since every shape read here (registration, group
/// assignment, `NewTool` variable) sits in the same top-level declaration as a marker.
fn regions<'t>(root: Node<'t>, text: &str, markers: &[&str]) -> Vec<Node<'t>> {
    let mut at: Vec<usize> =
        markers.iter().flat_map(|m| text.match_indices(m).map(|(i, _)| i)).collect();
    at.sort_unstable();
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|c| {
            let i = at.partition_point(|&p| p < c.start_byte());
            at.get(i).is_some_and(|&p| p < c.end_byte())
        })
        .collect()
}

/// Fills `facts.endpoints` for a TS/TSX/JS file.
pub(crate) fn typescript(text: &str, tree: &tree_sitter::Tree, facts: &mut FileFacts) {
    if !prefilter(text, TS_MARKERS) {
        return;
    }
    let root = tree.root_node();
    let found = ts::extract(text, root, &regions(root, text, TS_MARKERS), facts);
    facts.endpoints = finish(found);
}

/// Fills `facts.endpoints` for a Go file.
pub(crate) fn go(text: &str, tree: &tree_sitter::Tree, facts: &mut FileFacts) {
    if !prefilter(text, GO_MARKERS) {
        return;
    }
    let root = tree.root_node();
    let found = go::extract(text, root, &regions(root, text, GO_MARKERS), facts);
    facts.endpoints = finish(found);
}

/// An endpoint with the column of its registration, for ordering.
struct Found {
    col: u32,
    ep: Endpoint,
}

/// Source order: by line, then column; equal positions keep discovery order (a Gorilla route
/// with `.Methods("GET", "POST")` gives two endpoints at one position).
fn finish(mut found: Vec<Found>) -> Vec<Endpoint> {
    found.sort_by_key(|f| (f.ep.line, f.col));
    found.into_iter().map(|f| f.ep).collect()
}

/// A route endpoint with the optional parts empty.
fn route(framework: &str, method: &str, path: String, handler: Handler) -> Endpoint {
    Endpoint {
        kind: EndpointKind::Route,
        framework: framework.to_string(),
        method: method.to_string(),
        name: path,
        description: None,
        fields: Vec::new(),
        response_keys: Vec::new(),
        status_codes: Vec::new(),
        middleware: Vec::new(),
        handler,
        receiver: Vec::new(),
        line: 0,
        enclosing: None,
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
    fn status_names() {
        assert_eq!(status_by_name("http.StatusNotFound"), Some(404));
        assert_eq!(status_by_name("HttpStatus.NO_CONTENT"), Some(204));
        assert_eq!(status_by_name("StatusOK"), Some(200));
        assert_eq!(status_by_name("StatusTeapot"), None);
        assert_eq!(status_literal("201"), Some(201));
        assert_eq!(status_literal("42"), None);
    }
}
