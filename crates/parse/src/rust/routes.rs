//! HTTP routes, MCP tools and HTTP client calls of Rust files: a pass after the main walk (see
//! `walk.rs`), so that "which handler serves `GET /users/:id`" and "which tools does this MCP
//! server expose" have answers in Rust code bases too. Registrations are calls and attributes
//! whose paths are string arguments, which neither symbols nor call sites capture.
//!
//! Cheap first: a file is walked again only when its text mentions a framework or a
//! registration shape ([`MARKERS`]), and then by one cursor walk with an explicit stack of
//! frames (nothing recursive: inputs may nest without bound).
//!
//! What is read (only shapes, never types):
//! - **axum**: `.route("/p", get(h).post(h2))` (the method router functions `get`, `post`,
//!   `put`, `delete`, `patch`, `head`, `options`, `trace`, `connect`, `any`, also as paths
//!   `axum::routing::get`, their `*_service` forms, `on(MethodFilter::X, h)`, layers on the
//!   method router skipped), `.route_service("/p", s)` (`ANY`); a service's handler is the
//!   function it is made of (`kv_set.layer(..)`), else unknown (`ServeFile::new(..)`); in a file
//!   using axum a `.route("/p", x)` of another shape is `ANY` with an unknown handler.
//!   `.nest("/p", r)` prefixes the routes of a router built in place (`Router::new()...` as the
//!   argument) or bound to a local (`let api = Router::new()...; ... .nest("/api", api)`), and
//!   is a [`Mount`] (`axum`, call) of a function called to build the router
//!   (`.nest("/api", users::router())`); `.merge(r)` adds no prefix, so it mounts a function
//!   only under a prefix of its own (`.nest("/v1", Router::new().merge(users::router()))`).
//! - **actix-web**: attributes `#[get("/p")]` ... and `#[route("/p", method = "GET", method =
//!   "POST")]` (no method: `ANY`) on functions; `.route("/p", web::get().to(h))` on an app, a
//!   scope or a service config; `web::resource("/p").route(web::post().to(h))` and
//!   `web::resource("/p").to(h)` (`ANY`); `web::scope("/api")` prefixes what its chain
//!   registers (`.route`, `.service(..)`, nested scopes); `.service(h)` (also `services![..]`
//!   and tuples) of an attribute-declared handler under a scope; `.configure(f)` under a scope
//!   is a [`Mount`] of `f` (not a call: the function is passed as a value).
//! - **rocket**: the same attributes (also `#[route(GET, uri = "/p")]`), paths `<id>` as `:id`
//!   and `<path..>` as `:path*`, the query dropped; `.mount("/base", routes![a, m::b])`.
//! - Which of the two declared an attribute route: the attribute's own path (`#[actix_web::get]`,
//!   `#[rocket::get]`), else the file's imports (or qualified uses): `actix-web` when it uses
//!   `actix_web`, else `rocket` (also when it uses neither: `#[macro_use] extern crate rocket;`
//!   in the crate root is the one idiom that brings these attributes into a module unnamed).
//!   The call shapes of actix-web (scopes, resources, `web::get().to(h)`, `.service`,
//!   `.configure`) are read only in files that use `actix_web`, rocket's `.mount` only in
//!   files that use `rocket`.
//! - **Handlers mounted by reference** (rocket `routes![..]`, actix `.service(h)`): a handler
//!   declared in this file (a bare name, `self::h`, or a path through this file's inline
//!   modules) gets the prefix applied to its own route, once per prefix it is mounted under (its
//!   declared path when this file mounts it nowhere); any other is a [`Mount`] of the handler
//!   (not a call) under the prefix, which resolution composes with the routes the handler's
//!   attributes declare: an attribute route's `enclosing` is its own function for that reason
//!   (the function's symbol starts at its first attribute). A mount under `/` adds nothing and
//!   is not recorded.
//! - **rmcp** (the official MCP Rust SDK): each `#[tool(..)]` method of an `impl` marked
//!   `#[tool_router]` (any arguments) or, in older releases, `#[tool(tool_box)]`, in a file
//!   mentioning rmcp: a tool named by the attribute's `name = ".."` or the method, described by
//!   `description = ".."` or else the method's doc comment (rmcp's own fallback), its fields the
//!   named fields of the struct `T` of its `Parameters<T>` argument when this file declares `T`
//!   (older releases: the names of `#[tool(param)]` arguments, or the fields of the
//!   `#[tool(aggr)]` argument's type). The handler is the method's symbol.
//! - **reqwest** client calls, in files that use reqwest: see `clients.rs`.
//!
//! Handlers named by reference are shaped as the walker shapes callees (`h` is `{ None, h }`,
//! `a::b::h` is `{ Path(["::", "a", "b"]), h }`: the walker's own value reference at the same
//! position when it recorded one, so `Self::h` and paths in inline modules read alike);
//! closures are [`Handler::Inline`] (their calls stay their enclosing function's). Paths are
//! normalized like every route (`{id}` and `:id` are `:id`, `{*rest}` and `*rest` are
//! `:rest*`).

use super::clients::{self, Lets};
use super::strip_type_args;
use crate::endpoints::{join_path, normalize_path};
use crate::facts::{
    Callee, ClientCall, Endpoint, EndpointKind, FileFacts, Handler, Mount, Receiver, SymbolIdx,
};
use crate::util::{end_line, start_col, start_line, text};
use aho_corasick::AhoCorasick;
use codegraph_schema::NodeKind;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::LazyLock;
use tree_sitter::{Node, Tree};

/// Substrings one of which every Rust file with an extractable endpoint, mount or client call
/// contains: the frameworks' crate names (their imports, qualified uses), the attribute
/// macros and the registration methods.
pub(super) const MARKERS: &[&str] = &[
    "axum",
    "actix",
    "rocket",
    "rmcp",
    "reqwest",
    "#[get",
    "#[post",
    "#[put",
    "#[delete",
    "#[patch",
    "#[head",
    "#[options",
    "#[route",
    "#[tool",
    ".route(",
    ".nest(",
    ".mount(",
];

static SCAN: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| AhoCorasick::new(MARKERS).ok());

/// Longest method chain or expression nesting read for one shape (deeper: not read).
const MAX_CHAIN: usize = 256;

/// Local routers bound to locals nest in each other at most this deep.
const MAX_HOPS: usize = 8;

/// At most this many prefixes for one registration (a router nested in many places).
const MAX_PREFIXES: usize = 16;

/// Longest prefix composed, in bytes, most anchors and inline modules kept for one
/// expression: nesting an input can deepen costs no more than these.
const MAX_PREFIX_LEN: usize = 1024;
const MAX_ANCHORS: usize = 8;
const MAX_MODS: usize = 32;

/// HTTP methods of the attribute macros (actix-web, rocket) and of axum's method routers.
const ATTR_VERBS: &[(&str, &str)] = &[
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("delete", "DELETE"),
    ("patch", "PATCH"),
    ("head", "HEAD"),
    ("options", "OPTIONS"),
];

const AXUM_VERBS: &[(&str, &str)] = &[
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("delete", "DELETE"),
    ("patch", "PATCH"),
    ("head", "HEAD"),
    ("options", "OPTIONS"),
    ("trace", "TRACE"),
    ("connect", "CONNECT"),
    ("any", "ANY"),
];

/// The upper-case method of a verb name in `table`.
fn verb_in(table: &[(&str, &'static str)], name: &str) -> Option<&'static str> {
    table.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// An upper-case HTTP method named by the last segment of a path (`Method::GET`,
/// `MethodFilter::POST`, `GET`), if it is one.
fn verb_of_path(t: &str) -> Option<&'static str> {
    let last = t.rsplit("::").next().unwrap_or(t).trim();
    let upper = last.to_ascii_uppercase();
    AXUM_VERBS.iter().map(|(_, v)| *v).find(|v| *v == upper && last == upper)
}

/// Which crates a file uses: imported (`use axum::..`, `extern crate rocket`) or named
/// qualified (`reqwest::get(..)`: a crate needs no `use`).
#[derive(Default)]
pub(super) struct Uses {
    pub(super) axum: bool,
    pub(super) actix: bool,
    pub(super) rocket: bool,
    pub(super) rmcp: bool,
    pub(super) reqwest: bool,
}

impl Uses {
    fn of(text: &str, facts: &FileFacts) -> Uses {
        let mut u = Uses::default();
        let mut mark = |root: &str| match root {
            "axum" => u.axum = true,
            "actix_web" => u.actix = true,
            "rocket" => u.rocket = true,
            "rmcp" => u.rmcp = true,
            "reqwest" => u.reqwest = true,
            _ => {}
        };
        for i in &facts.imports {
            let root = i.source.trim_start_matches("::").split("::").next().unwrap_or("");
            if root.is_empty() {
                for b in &i.bindings {
                    if let crate::facts::Imported::Named(n) = &b.imported {
                        mark(n);
                    }
                }
            } else {
                mark(root);
            }
        }
        for (root, q) in [
            ("axum", "axum::"),
            ("actix_web", "actix_web::"),
            ("rocket", "rocket::"),
            ("rmcp", "rmcp::"),
            ("reqwest", "reqwest::"),
        ] {
            if text.contains(q) {
                mark(root);
            }
        }
        u
    }
}

/// Adds the file's endpoints, mounts and client calls to `facts`.
pub(super) fn extract(text: &str, tree: &Tree, facts: &mut FileFacts) {
    let Some(ac) = SCAN.as_ref() else { return };
    if !ac.is_match(text) {
        return;
    }
    let uses = Uses::of(text, facts);
    let found = {
        let mut p = Pass::new(text, facts, uses);
        p.walk(tree.root_node());
        p.finish()
    };
    found.store(facts);
}

/// What one frame of the walk knows about the expression at its node.
struct Frame<'t> {
    node: Node<'t>,
    /// The prefix a router built here is served under, relative to [`Frame::anchors`].
    prefix: Rc<str>,
    /// The locals (let bindings, chain roots) whose router the expression here builds.
    anchors: Rc<[String]>,
    /// For a call of a method chain (and the chain's links): what its root says.
    chain: Option<Rc<Chain>>,
    /// For an argument list: the prefix its router arguments get, and the argument of a
    /// `.nest("/p", r)` with its own.
    args: Option<ArgsPrefix>,
    /// Attributes seen among the children so far, for the next item.
    attrs: Vec<Node<'t>>,
    /// An `impl` of rmcp tools, its body, or a method in that body.
    tool_impl: bool,
    /// The inline modules around the node.
    mods: Rc<[String]>,
    /// The function whose locals are in scope (0: none).
    scope: u32,
}

/// The prefixes of a call's arguments: a router argument's (the call's own, and an actix
/// scope's), and the sub-router of `.nest("/p", r)` (its node id) with `/p` added.
struct ArgsPrefix {
    own: Rc<str>,
    nest: Option<(usize, Rc<str>)>,
}

/// What the root of a method chain says: an actix `web::scope("/p")` prefix, an actix
/// `web::resource("/p")` path, or the local the chain starts from (`app.route(..)`).
#[derive(Default)]
struct Chain {
    scope: String,
    resources: Vec<String>,
    root_local: Option<String>,
}

/// A route registered in a chain, its path relative to its anchors.
struct Pending {
    ep: Endpoint,
    col: u32,
    path: String,
    scope: u32,
    anchors: Rc<[String]>,
}

/// A route an attribute declares on a function.
struct AttrRoute {
    ep: Endpoint,
    col: u32,
    path: String,
    /// The function's path in this file: its inline modules, then its name.
    item: Vec<String>,
}

/// A handler mounted by reference under a prefix (rocket `routes![..]`, actix `.service(h)`).
struct RefMount {
    framework: &'static str,
    prefix: String,
    scope: u32,
    anchors: Rc<[String]>,
    /// The path written, with the inline modules it is written in first.
    item: Vec<String>,
    target: Callee,
    line: u32,
    col: u32,
    enclosing: Option<SymbolIdx>,
}

/// A local router used as a sub-router (`.nest("/p", api)`, `.merge(api)`, `.service(s)`).
struct NestUse {
    prefix: String,
    anchors: Rc<[String]>,
}

/// A mount of a function (or a value) under a prefix relative to anchors.
struct PendingMount {
    mount: Mount,
    col: u32,
    scope: u32,
    anchors: Rc<[String]>,
}

/// What the pass found, in source order once stored.
#[derive(Default)]
struct Found {
    endpoints: Vec<(u32, Endpoint)>,
    mounts: Vec<(u32, Mount)>,
    clients: Vec<(u32, ClientCall)>,
}

impl Found {
    fn store(mut self, facts: &mut FileFacts) {
        // Stable: one registration's endpoints keep the order they were written in.
        self.endpoints.sort_by_key(|(col, e)| (e.line, *col));
        facts.endpoints.extend(self.endpoints.into_iter().map(|(_, e)| e));
        self.mounts.sort_by_key(|(col, m)| (m.line, *col));
        facts.mounts.extend(self.mounts.into_iter().map(|(_, m)| m));
        self.clients.sort_by_key(|(col, c)| (c.line, *col));
        facts.client_calls.extend(self.clients.into_iter().map(|(_, c)| c));
    }
}

struct Pass<'t, 'f> {
    src: &'t str,
    facts: &'f FileFacts,
    uses: Uses,
    /// Call sites and value references the walker recorded, by position: their callee shapes
    /// and enclosing symbols.
    sites: HashMap<(u32, u32), (&'f Callee, Option<SymbolIdx>)>,
    /// Functions and methods by (name, last line).
    fns: HashMap<(&'f str, u32), SymbolIdx>,
    scopes: u32,
    /// Let-bound locals per function scope.
    locals: HashSet<(u32, String)>,
    /// Locals bound to an actix scope, with its prefix.
    local_scopes: HashMap<(u32, String), String>,
    /// URL-like let values per function scope, for client calls.
    lets: Lets<'t>,
    pending: Vec<Pending>,
    attr_routes: Vec<AttrRoute>,
    ref_mounts: Vec<RefMount>,
    nest_uses: Vec<NestUse>,
    /// `nest_uses` by (scope, local).
    uses_of: HashMap<(u32, String), Vec<usize>>,
    mounts: Vec<PendingMount>,
    /// The named fields of this file's structs, by name (made at the first tool).
    struct_fields: Option<HashMap<&'f str, Vec<String>>>,
    found: Found,
}

/// The named children of a call's argument list, comments left out.
fn arg_nodes(call: Node<'_>) -> Vec<Node<'_>> {
    let Some(args) = call.child_by_field_name("arguments") else { return Vec::new() };
    let mut c = args.walk();
    args.named_children(&mut c).filter(|n| !n.kind().ends_with("comment")).collect()
}

/// `(e)` and `&e` as `e`, to a bounded depth.
pub(super) fn unwrap_expr(mut n: Node<'_>) -> Node<'_> {
    for _ in 0..MAX_CHAIN {
        let inner = match n.kind() {
            "parenthesized_expression" => n.named_child(0),
            "reference_expression" => n.child_by_field_name("value"),
            _ => None,
        };
        match inner {
            Some(i) => n = i,
            None => return n,
        }
    }
    n
}

/// The text of a string literal without its quotes (`"a"`, `r#"a"#`); `None` for anything
/// else. Escapes stay as written, apart from `\"` and `\\`.
pub(super) fn string_value(n: Node<'_>, src: &str) -> Option<String> {
    let t = text(n, src);
    match n.kind() {
        "string_literal" => {
            let inner = t.strip_prefix('"')?.strip_suffix('"')?;
            Some(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
        }
        "raw_string_literal" => {
            let rest = t.strip_prefix('r')?;
            let hashes = rest.len() - rest.trim_start_matches('#').len();
            let inner = rest.get(hashes..rest.len().checked_sub(hashes)?)?;
            Some(inner.strip_prefix('"')?.strip_suffix('"')?.to_string())
        }
        _ => None,
    }
}

/// A route path as written, in the shared form: the query dropped (rocket `/search?<q>`),
/// rocket `<id>` as `:id` and `<path..>` as `:path*`, axum `*rest` and `{*rest}` as `:rest*`,
/// then [`normalize_path`] (`{id}` -> `:id`).
pub(super) fn route_path(raw: &str) -> String {
    let raw = raw.split('?').next().unwrap_or(raw);
    let mut out = String::with_capacity(raw.len() + 1);
    let mut rest = raw;
    let mut seg_start = true;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
        {
            let inner = &rest[1..end];
            let (name, glob) = match inner.strip_suffix("..") {
                Some(n) => (n, true),
                None => (inner, false),
            };
            if !name.is_empty() && name.chars().all(|ch| ch.is_alphanumeric() || ch == '_') {
                out.push(':');
                out.push_str(name);
                if glob {
                    out.push('*');
                }
                rest = &rest[end + 1..];
                seg_start = false;
                continue;
            }
        }
        if seg_start && (c == '*' || rest.starts_with("{*")) {
            let body = rest.trim_start_matches('{').trim_start_matches('*');
            let len =
                body.find(|ch: char| !(ch.is_alphanumeric() || ch == '_')).unwrap_or(body.len());
            if len > 0 {
                out.push(':');
                out.push_str(&body[..len]);
                out.push('*');
                let skipped = rest.len() - body.len() + len;
                rest = &rest[skipped..];
                if c == '{' {
                    rest = rest.strip_prefix('}').unwrap_or(rest);
                }
                seg_start = false;
                continue;
            }
        }
        seg_start = c == '/';
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    normalize_path(&out)
}

/// Two prefixes (or a prefix and a path) as one, not yet normalized: `""` is none.
/// (At most [`MAX_PREFIX_LEN`] bytes: a longer result is `a` alone.)
fn cat(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ if a.len() + b.len() >= MAX_PREFIX_LEN => a.to_string(),
        _ => format!("{a}/{b}"),
    }
}

/// A prefix that adds nothing (`""`, `/`).
fn is_root(prefix: &str) -> bool {
    prefix.chars().all(|c| c == '/')
}

/// `a :: b::<T>::c` -> `["a", "b", "c"]`.
fn segments(path: &str) -> Vec<String> {
    let compact: String = strip_type_args(path).split_whitespace().collect();
    compact.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// A callee-shaped reference to an item path: `h` is `{ None, h }`, `a::b::h` `{
/// Path(["::", "a", "b"]), h }`.
fn item_callee(mut segs: Vec<String>) -> Option<Callee> {
    let name = segs.pop()?;
    if segs.is_empty() {
        return Some(Callee { receiver: Receiver::None, name: name.into() });
    }
    let mut path = Vec::with_capacity(segs.len() + 1);
    path.push("::".into());
    path.extend(segs);
    Some(Callee { receiver: Receiver::path(path), name: name.into() })
}

/// The item paths listed in a macro's token tree (`routes![a, m::b]`, `services![..]`), each
/// with its last name's token.
fn listed_paths<'t>(tt: Node<'t>, src: &str) -> Vec<(Vec<String>, Node<'t>)> {
    let mut out = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    let mut last: Option<Node<'t>> = None;
    let mut c = tt.walk();
    for k in tt.children(&mut c) {
        match k.kind() {
            "identifier" | "self" | "super" | "crate" => {
                cur.push(text(k, src).to_string());
                last = Some(k);
            }
            "::" | "[" | "]" | "(" | ")" | "{" | "}" => {}
            "," => {
                if let Some(at) = last.take() {
                    out.push((std::mem::take(&mut cur), at));
                }
                cur.clear();
            }
            _ => {
                // Anything else (generics, expressions) is no plain path.
                cur.clear();
                last = None;
            }
        }
    }
    if let Some(at) = last {
        out.push((cur, at));
    }
    out
}

impl<'t, 'f> Pass<'t, 'f> {
    fn new(src: &'t str, facts: &'f FileFacts, uses: Uses) -> Self {
        let mut sites = HashMap::new();
        for c in facts.value_refs.iter().chain(&facts.calls) {
            sites.entry((c.line, c.col)).or_insert((&c.callee, c.enclosing));
        }
        let fns = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.kind, NodeKind::Function | NodeKind::Method))
            .filter_map(|(i, s)| {
                Some(((s.name.as_str(), s.end_line), SymbolIdx::try_from(i).ok()?))
            })
            .collect();
        Pass {
            src,
            facts,
            uses,
            sites,
            fns,
            scopes: 0,
            locals: HashSet::new(),
            local_scopes: HashMap::new(),
            lets: Lets::default(),
            pending: Vec::new(),
            attr_routes: Vec::new(),
            ref_mounts: Vec::new(),
            nest_uses: Vec::new(),
            uses_of: HashMap::new(),
            mounts: Vec::new(),
            struct_fields: None,
            found: Found::default(),
        }
    }

    fn text(&self, n: Node<'_>) -> &'t str {
        text(n, self.src)
    }

    /// The enclosing symbol at a position: the walker's, when it recorded a call or value
    /// reference there, else the innermost symbol whose lines hold `line`.
    fn enclosing(&self, line: u32, col: u32) -> Option<SymbolIdx> {
        if let Some((_, e)) = self.sites.get(&(line, col)) {
            return *e;
        }
        let mut best: Option<(u32, usize)> = None;
        for (i, s) in self.facts.symbols.iter().enumerate() {
            if s.start_line <= line
                && line <= s.end_line
                && best.is_none_or(|(l, _)| s.start_line >= l)
            {
                best = Some((s.start_line, i));
            }
        }
        best.and_then(|(_, i)| SymbolIdx::try_from(i).ok())
    }

    /// A function or method item's symbol.
    fn symbol_of(&self, item: Node<'_>) -> Option<SymbolIdx> {
        let name = self.text(item.child_by_field_name("name")?);
        self.fns.get(&(name, end_line(item))).copied()
    }

    /// The cursor walk: one frame per node on the path from the root.
    fn walk(&mut self, root: Node<'t>) {
        let mut frames: Vec<Frame<'t>> = vec![Frame {
            node: root,
            prefix: Rc::from(""),
            anchors: Rc::from(Vec::new()),
            chain: None,
            args: None,
            attrs: Vec::new(),
            tool_impl: false,
            mods: Rc::from(Vec::new()),
            scope: 0,
        }];
        let mut cursor = root.walk();
        let mut descend = true;
        'walk: loop {
            if descend && cursor.goto_first_child() {
                let field = cursor.field_name();
                let (frame, attrs) = self.child(frames.last_mut(), cursor.node(), field);
                descend = self.visit(&frame, &attrs);
                frames.push(frame);
                continue;
            }
            loop {
                if frames.len() > 1 {
                    frames.pop();
                }
                if cursor.goto_next_sibling() {
                    let field = cursor.field_name();
                    let (frame, attrs) = self.child(frames.last_mut(), cursor.node(), field);
                    descend = self.visit(&frame, &attrs);
                    frames.push(frame);
                    continue 'walk;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
    }

    /// The frame of `node` under `parent`, and the attributes written right before it.
    fn child(
        &mut self,
        parent: Option<&mut Frame<'t>>,
        node: Node<'t>,
        field: Option<&str>,
    ) -> (Frame<'t>, Vec<Node<'t>>) {
        let Some(parent) = parent else {
            // The root has a frame from the start; unreachable in practice.
            return (self.root_frame(node), Vec::new());
        };
        let mut attrs = Vec::new();
        match node.kind() {
            "attribute_item" => parent.attrs.push(node),
            "line_comment" | "block_comment" => {}
            _ => attrs = std::mem::take(&mut parent.attrs),
        }
        let mut f = Frame {
            node,
            prefix: parent.prefix.clone(),
            anchors: parent.anchors.clone(),
            chain: None,
            args: None,
            attrs: Vec::new(),
            tool_impl: false,
            mods: parent.mods.clone(),
            scope: parent.scope,
        };
        let pk = parent.node.kind();
        match node.kind() {
            "function_item" => {
                self.scopes += 1;
                f.scope = self.scopes;
                f.prefix = Rc::from("");
                f.anchors = Rc::from(Vec::new());
                f.tool_impl = pk == "declaration_list" && parent.tool_impl;
            }
            "impl_item" => {
                f.tool_impl = self.uses.rmcp && attrs.iter().any(|a| self.is_tool_router(*a));
            }
            "declaration_list" if pk == "impl_item" => f.tool_impl = parent.tool_impl,
            "declaration_list" if pk == "mod_item" && parent.mods.len() < MAX_MODS => {
                if let Some(n) = parent.node.child_by_field_name("name") {
                    let mut mods = parent.mods.to_vec();
                    mods.push(self.text(n).to_string());
                    f.mods = Rc::from(mods);
                }
            }
            "field_expression" if pk == "call_expression" && field == Some("function") => {
                f.chain = parent.chain.clone();
            }
            "call_expression" if pk == "field_expression" && field == Some("value") => {
                f.chain = match &parent.chain {
                    Some(c) => Some(c.clone()),
                    None => Some(Rc::new(self.chain_of(node, f.scope))),
                };
            }
            "call_expression" => f.chain = Some(Rc::new(self.chain_of(node, f.scope))),
            "arguments" if pk == "call_expression" => {
                let scope_prefix = parent.chain.as_ref().map_or("", |c| c.scope.as_str());
                let own = cat(&parent.prefix, scope_prefix);
                let nest = self.nest_argument(parent.node).map(|(arg, p)| {
                    let (id, prefix): (usize, Rc<str>) = (arg.id(), Rc::from(cat(&own, &p)));
                    (id, prefix)
                });
                f.args = Some(ArgsPrefix { own: Rc::from(own), nest });
            }
            _ => {}
        }
        if pk == "arguments"
            && let Some(ArgsPrefix { own, nest }) = &parent.args
        {
            f.prefix = match nest {
                Some((id, p)) if *id == node.id() => p.clone(),
                _ => own.clone(),
            };
        }
        // A local's value builds the local's router.
        let bound = match (pk, field) {
            ("let_declaration", Some("value")) => {
                parent.node.child_by_field_name("pattern").and_then(|p| self.binding(p))
            }
            ("assignment_expression", Some("right")) => {
                parent.node.child_by_field_name("left").and_then(|p| self.binding(p))
            }
            _ => None,
        };
        if let Some(name) = bound {
            f.prefix = Rc::from("");
            f.anchors = Rc::from(vec![name.to_string()]);
        }
        // A chain started from a local builds that local's router too. Nested under a prefix
        // (`.nest("/p", admin.route(..))`), it is served where the local is: the sub-router
        // use of the local records that prefix.
        if let Some(chain) = &f.chain
            && let Some(root) = &chain.root_local
            && !f.anchors.contains(root)
        {
            if !f.prefix.is_empty() {
                f.prefix = Rc::from("");
                f.anchors = Rc::from(vec![root.clone()]);
            } else if f.anchors.len() < MAX_ANCHORS {
                let mut a = f.anchors.to_vec();
                a.push(root.clone());
                f.anchors = Rc::from(a);
            }
        }
        (f, attrs)
    }

    fn root_frame(&self, node: Node<'t>) -> Frame<'t> {
        Frame {
            node,
            prefix: Rc::from(""),
            anchors: Rc::from(Vec::new()),
            chain: None,
            args: None,
            attrs: Vec::new(),
            tool_impl: false,
            mods: Rc::from(Vec::new()),
            scope: 0,
        }
    }

    /// The name a simple pattern binds (`x`, `mut x`).
    fn binding(&self, p: Node<'_>) -> Option<&'t str> {
        match p.kind() {
            "identifier" => Some(self.text(p)),
            "mut_pattern" => {
                p.named_child(0).filter(|n| n.kind() == "identifier").map(|n| self.text(n))
            }
            _ => None,
        }
    }

    /// `#[tool_router]`, `#[tool_router(router = x)]`, `#[rmcp::tool_router]`, and the older
    /// `#[tool(tool_box)]`.
    fn is_tool_router(&self, attr_item: Node<'_>) -> bool {
        let Some((name, args)) = self.attribute(attr_item) else { return false };
        match name {
            "tool_router" => true,
            "tool" => args.is_some_and(|a| self.text(a).contains("tool_box")),
            _ => false,
        }
    }

    /// An attribute's last path segment and its token tree (`#[a::get("/x")]` -> `get`).
    fn attribute(&self, attr_item: Node<'t>) -> Option<(&'t str, Option<Node<'t>>)> {
        let mut c = attr_item.walk();
        let attr = attr_item.named_children(&mut c).find(|n| n.kind() == "attribute")?;
        let path = attr.named_child(0)?;
        let t = self.text(path);
        let name = t.rsplit("::").next().unwrap_or(t).trim();
        Some((name, attr.child_by_field_name("arguments")))
    }

    /// What a method chain's root says (see [`Chain`]): the chain is walked down from its
    /// outermost call through the receivers of its method calls.
    fn chain_of(&self, call: Node<'t>, scope: u32) -> Chain {
        let mut n = call;
        let mut chain = Chain::default();
        for _ in 0..MAX_CHAIN {
            match n.kind() {
                "call_expression" => {
                    let Some(f) = n.child_by_field_name("function") else { break };
                    if f.kind() == "field_expression"
                        && let Some(v) = f.child_by_field_name("value")
                    {
                        n = v;
                        continue;
                    }
                    // The root call: `web::scope("/p")`, `web::resource("/p")`.
                    let t = self.text(f);
                    let name = t.rsplit("::").next().unwrap_or(t).trim();
                    let args = arg_nodes(n);
                    let first = args.first().map(|a| unwrap_expr(*a));
                    let lit = first.and_then(|a| string_value(a, self.src));
                    let is = |f: &str, ty: &str| self.uses.actix && (name == f || t.ends_with(ty));
                    if is("scope", "Scope::new") {
                        if let Some(l) = lit {
                            chain.scope = route_path(&l);
                        }
                    } else if is("resource", "Resource::new") {
                        if let Some(l) = lit {
                            chain.resources.push(l);
                        } else if let Some(a) = first.filter(|a| a.kind() == "array_expression") {
                            let mut c = a.walk();
                            chain.resources.extend(
                                a.named_children(&mut c).filter_map(|x| string_value(x, self.src)),
                            );
                        }
                    }
                    break;
                }
                "identifier" => {
                    let name = self.text(n).to_string();
                    if let Some(p) = self.local_scopes.get(&(scope, name.clone())) {
                        chain.scope = p.clone();
                    }
                    chain.root_local = Some(name);
                    break;
                }
                _ => break,
            }
        }
        chain
    }

    /// The sub-router argument of axum's `.nest("/p", r)` and the literal prefix.
    fn nest_argument(&self, call: Node<'t>) -> Option<(Node<'t>, String)> {
        let f = call.child_by_field_name("function")?;
        if f.kind() != "field_expression" {
            return None;
        }
        let name = self.text(f.child_by_field_name("field")?);
        if name != "nest" {
            return None;
        }
        let args = arg_nodes(call);
        let [p, r] = args.as_slice() else { return None };
        let lit = string_value(unwrap_expr(*p), self.src)?;
        Some((*r, route_path(&lit)))
    }

    /// Reads one node; whether to walk into it.
    fn visit(&mut self, f: &Frame<'t>, attrs: &[Node<'t>]) -> bool {
        let n = f.node;
        match n.kind() {
            "line_comment"
            | "block_comment"
            | "string_literal"
            | "raw_string_literal"
            | "attribute_item"
            | "inner_attribute_item"
            | "use_declaration"
            | "macro_definition"
            | "token_tree" => false,
            "function_item" => {
                // Parameters are locals: `.nest("/p", router)` of one mounts nothing here.
                if let Some(params) = n.child_by_field_name("parameters") {
                    let mut c = params.walk();
                    for p in params.named_children(&mut c) {
                        let name = p.child_by_field_name("pattern").and_then(|x| self.binding(x));
                        if let Some(name) = name {
                            self.locals.insert((f.scope, name.to_string()));
                        }
                    }
                }
                if !attrs.is_empty() {
                    self.attributes(f, attrs);
                }
                true
            }
            "let_declaration" => {
                self.let_declaration(f);
                true
            }
            "call_expression" => {
                self.call(f);
                true
            }
            _ => true,
        }
    }

    fn let_declaration(&mut self, f: &Frame<'t>) {
        let n = f.node;
        let Some(name) = n.child_by_field_name("pattern").and_then(|p| self.binding(p)) else {
            return;
        };
        self.locals.insert((f.scope, name.to_string()));
        // `let s = web::scope("/p")...`: a chain on `s` later registers under `/p`.
        let value = n.child_by_field_name("value").map(unwrap_expr);
        if let Some(v) = value.filter(|v| v.kind() == "call_expression") {
            let chain = self.chain_of(v, f.scope);
            if !chain.scope.is_empty() {
                self.local_scopes.insert((f.scope, name.to_string()), chain.scope);
            }
        }
        if self.uses.reqwest
            && let Some(v) = n.child_by_field_name("value")
        {
            self.lets.bind(f.scope, name, v);
        }
    }

    /// A callee-shaped reference to what `n` names (`h`, `a::b::h`, `h::<T>`): the walker's
    /// shape at the same position when it recorded one.
    fn reference(&self, n: Node<'t>) -> Option<(Callee, Node<'t>)> {
        let n = unwrap_expr(n);
        let (at, segs) = match n.kind() {
            "identifier" => (n, vec![self.text(n).to_string()]),
            "scoped_identifier" => (n.child_by_field_name("name")?, segments(self.text(n))),
            "generic_function" => return self.reference(n.child_by_field_name("function")?),
            _ => return None,
        };
        if let Some((c, _)) = self.sites.get(&(start_line(at), start_col(at))) {
            return Some(((*c).clone(), at));
        }
        Some((item_callee(segs)?, at))
    }

    /// What handles a route: a function named by reference (also under layers: `h.layer(x)`),
    /// a closure written in place, or unknown.
    fn handler(&self, n: Node<'t>) -> Handler {
        let mut n = unwrap_expr(n);
        for _ in 0..MAX_CHAIN {
            match n.kind() {
                "closure_expression" => return Handler::Inline,
                "identifier" | "scoped_identifier" | "generic_function" => {
                    return self
                        .reference(n)
                        .map_or(Handler::Unknown, |(c, _)| Handler::Reference(c));
                }
                "call_expression" => {
                    let f = n.child_by_field_name("function");
                    match f
                        .filter(|f| f.kind() == "field_expression")
                        .and_then(|f| f.child_by_field_name("value"))
                    {
                        Some(v) => n = unwrap_expr(v),
                        None => return Handler::Unknown,
                    }
                }
                _ => return Handler::Unknown,
            }
        }
        Handler::Unknown
    }

    /// axum's method router (`get(h).post(h2)`, `axum::routing::get(h)`, `on(MethodFilter::GET,
    /// h)`, `get_service(s)`, `MethodRouter::new().get(h)`): its (method, handler) pairs in
    /// the order written; `None` for another shape.
    fn method_router(&self, n: Node<'t>) -> Option<Vec<(&'static str, Handler)>> {
        let mut out = Vec::new();
        let mut n = unwrap_expr(n);
        for _ in 0..MAX_CHAIN {
            if n.kind() != "call_expression" {
                return None;
            }
            let f = n.child_by_field_name("function")?;
            let args = arg_nodes(n);
            let (name, base) = match f.kind() {
                "field_expression" => (self.text(f.child_by_field_name("field")?), false),
                "identifier" | "scoped_identifier" => {
                    let t = self.text(f);
                    (t.rsplit("::").next().unwrap_or(t).trim(), true)
                }
                "generic_function" => {
                    let t = self.text(f.child_by_field_name("function")?);
                    (t.rsplit("::").next().unwrap_or(t).trim(), true)
                }
                _ => return None,
            };
            let pair = if let Some(v) = verb_in(AXUM_VERBS, name) {
                (args.len() == 1).then(|| (v, self.handler(args[0])))
            } else if let Some(v) =
                name.strip_suffix("_service").and_then(|s| verb_in(AXUM_VERBS, s))
            {
                // A service: a handler made one (`h.layer(..)`) or something else.
                (args.len() == 1).then(|| (v, self.handler(args[0])))
            } else if name == "on" && args.len() == 2 {
                Some((verb_of_path(self.text(args[0])).unwrap_or("ANY"), self.handler(args[1])))
            } else {
                None
            };
            if base {
                let method_router_new = name == "new" && self.text(f).contains("MethodRouter");
                if pair.is_none() && !method_router_new {
                    return None;
                }
                out.extend(pair);
                out.reverse();
                return Some(out);
            }
            out.extend(pair);
            n = unwrap_expr(f.child_by_field_name("value")?);
        }
        None
    }

    /// actix-web's route (`web::get().to(h)`, `web::route().method(Method::GET).to(h)`,
    /// `web::method(Method::GET).to(h)`, `web::to(h)`): its method and handler; `None` for
    /// another shape (there must be a `to`).
    fn actix_route(&self, n: Node<'t>) -> Option<(&'static str, Handler)> {
        let mut handler: Option<Handler> = None;
        let mut verb: Option<&'static str> = None;
        let mut n = unwrap_expr(n);
        for _ in 0..MAX_CHAIN {
            if n.kind() != "call_expression" {
                return None;
            }
            let f = n.child_by_field_name("function")?;
            let args = arg_nodes(n);
            if f.kind() == "field_expression" {
                let name = self.text(f.child_by_field_name("field")?);
                match (name, args.as_slice()) {
                    ("to", [h]) => handler = Some(self.handler(*h)),
                    ("method", [m]) => verb = verb.or(verb_of_path(self.text(*m))),
                    _ => {}
                }
                n = unwrap_expr(f.child_by_field_name("value")?);
                continue;
            }
            if !matches!(f.kind(), "identifier" | "scoped_identifier") {
                return None;
            }
            let t = self.text(f);
            let name = t.rsplit("::").next().unwrap_or(t).trim();
            let base = match (name, args.as_slice()) {
                ("to", [h]) => {
                    handler = Some(self.handler(*h));
                    "ANY"
                }
                ("route", []) => "ANY",
                ("new", []) if t.ends_with("Route::new") => "ANY",
                ("method", [m]) => verb_of_path(self.text(*m)).unwrap_or("ANY"),
                (v, []) => verb_in(ATTR_VERBS, v)?,
                _ => return None,
            };
            return Some((verb.unwrap_or(base), handler?));
        }
        None
    }

    fn call(&mut self, f: &Frame<'t>) {
        let call = f.node;
        let Some(func) = call.child_by_field_name("function") else { return };
        let args = arg_nodes(call);
        if func.kind() != "field_expression" {
            if self.uses.reqwest {
                self.client(f, func, &args);
            }
            return;
        }
        let Some(name_node) = func.child_by_field_name("field") else { return };
        let name = self.text(name_node);
        let chain = f.chain.clone().unwrap_or_default();
        let base = cat(&f.prefix, &chain.scope);
        let lit = |i: usize| args.get(i).and_then(|a| string_value(unwrap_expr(*a), self.src));
        match (name, args.len()) {
            ("route", 2) => {
                let Some(path) = lit(0) else { return };
                let path = route_path(&path);
                let actix = self.uses.actix.then(|| self.actix_route(args[1])).flatten();
                if let Some((verb, h)) = actix {
                    self.route(f, "actix-web", verb, &base, &path, h, name_node, &chain);
                } else if let Some(pairs) = self.method_router(args[1]) {
                    for (verb, h) in pairs {
                        self.route(f, "axum", verb, &base, &path, h, name_node, &chain);
                    }
                } else if self.uses.axum {
                    let h = Handler::Unknown;
                    self.route(f, "axum", "ANY", &base, &path, h, name_node, &chain);
                }
            }
            ("route_service", 2) => {
                let Some(path) = lit(0) else { return };
                let path = route_path(&path);
                let h = self.handler(args[1]);
                self.route(f, "axum", "ANY", &base, &path, h, name_node, &chain);
            }
            ("route", 1) | ("to", 1) if !chain.resources.is_empty() => {
                let found = if name == "to" {
                    Some(("ANY", self.handler(args[0])))
                } else {
                    self.actix_route(args[0])
                };
                let Some((verb, h)) = found else { return };
                for r in &chain.resources {
                    let path = route_path(r);
                    self.route(
                        f,
                        "actix-web",
                        verb,
                        &f.prefix,
                        &path,
                        h.clone(),
                        name_node,
                        &chain,
                    );
                }
            }
            ("nest", 2) => {
                let Some(p) = lit(0) else { return };
                let prefix = cat(&base, &route_path(&p));
                self.sub_router(f, "axum", &prefix, args[1], name_node);
            }
            ("merge", 1) => self.sub_router(f, "axum", &base, args[0], name_node),
            ("service", 1) if self.uses.actix => self.service(f, &base, args[0], name_node),
            ("configure", 1) if self.uses.actix => {
                if let Some((target, _)) = self.reference(args[0]) {
                    self.push_mount(f, "actix-web", &base, target, false, name_node);
                }
            }
            ("mount", 2) if self.uses.rocket => {
                let Some(p) = lit(0) else { return };
                let prefix = cat(&base, &route_path(&p));
                let m = unwrap_expr(args[1]);
                if m.kind() != "macro_invocation" {
                    return;
                }
                let is_routes = m.child_by_field_name("macro").is_some_and(|x| {
                    let t = self.text(x);
                    t.rsplit("::").next().unwrap_or(t) == "routes"
                });
                let mut c = m.walk();
                let tt = m.named_children(&mut c).find(|x| x.kind() == "token_tree");
                if let (true, Some(tt)) = (is_routes, tt) {
                    for (segs, at) in listed_paths(tt, self.src) {
                        self.ref_mount(f, "rocket", &prefix, segs, at, name_node);
                    }
                }
            }
            _ => {}
        }
        if self.uses.reqwest {
            self.client(f, func, &args);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn route(
        &mut self,
        f: &Frame<'t>,
        framework: &str,
        verb: &str,
        prefix: &str,
        path: &str,
        handler: Handler,
        at: Node<'t>,
        chain: &Chain,
    ) {
        let (line, col) = (start_line(at), start_col(at));
        let mut ep = Endpoint::route(framework, verb, String::new(), handler);
        ep.line = line;
        ep.enclosing = self.enclosing(line, col);
        if let Some(r) = &chain.root_local {
            ep.receiver = vec![r.clone()];
        }
        let path = if is_root(prefix) { path.to_string() } else { join_path(prefix, path) };
        self.pending.push(Pending { ep, col, path, scope: f.scope, anchors: f.anchors.clone() });
    }

    /// A sub-router under `prefix` (axum `nest`, `merge`): built in place, nothing to do (the
    /// frames carry the prefix); a local's router, a use of it; a function called to build it,
    /// a mount.
    fn sub_router(
        &mut self,
        f: &Frame<'t>,
        framework: &str,
        prefix: &str,
        r: Node<'t>,
        at: Node<'t>,
    ) {
        let r = unwrap_expr(r);
        match r.kind() {
            "identifier" => {
                let var = self.text(r).to_string();
                if self.locals.contains(&(f.scope, var.clone())) {
                    self.nest_use(f, var, prefix);
                } else if let Some((target, _)) = self.reference(r) {
                    self.push_mount(f, framework, prefix, target, false, at);
                }
            }
            "scoped_identifier" => {
                if let Some((target, _)) = self.reference(r) {
                    self.push_mount(f, framework, prefix, target, false, at);
                }
            }
            "call_expression" => {
                // The root of the argument's chain: a constructor builds in place, any other
                // function builds the router elsewhere.
                let mut n = r;
                for _ in 0..MAX_CHAIN {
                    let Some(func) = n.child_by_field_name("function") else { return };
                    match func.kind() {
                        "field_expression" => {
                            match func.child_by_field_name("value").map(unwrap_expr) {
                                Some(v) if v.kind() == "call_expression" => n = v,
                                Some(v) if v.kind() == "identifier" => {
                                    return self.sub_router(f, framework, prefix, v, at);
                                }
                                _ => return,
                            }
                        }
                        "identifier" | "scoped_identifier" | "generic_function" => {
                            let t = self.text(func);
                            let name = t.rsplit("::").next().unwrap_or(t).trim();
                            if matches!(name, "new" | "default" | "with_state") {
                                return;
                            }
                            let at_name = match func.kind() {
                                "scoped_identifier" => func.child_by_field_name("name"),
                                _ => Some(func),
                            };
                            let target = at_name
                                .and_then(|a| self.sites.get(&(start_line(a), start_col(a))))
                                .map(|(c, _)| (*c).clone())
                                .or_else(|| item_callee(segments(t)));
                            if let Some(target) = target {
                                self.push_mount(f, framework, prefix, target, true, at);
                            }
                            return;
                        }
                        _ => return,
                    }
                }
            }
            _ => {}
        }
    }

    /// actix `.service(x)`: a scope or resource built in place (the frames carry the prefix),
    /// a local's, or handlers declared with attributes (`h`, `services![a, b]`, `(a, b)`).
    fn service(&mut self, f: &Frame<'t>, prefix: &str, x: Node<'t>, at: Node<'t>) {
        let x = unwrap_expr(x);
        match x.kind() {
            "identifier" if self.locals.contains(&(f.scope, self.text(x).to_string())) => {
                self.nest_use(f, self.text(x).to_string(), prefix);
            }
            "identifier" | "scoped_identifier" => {
                let segs = match x.kind() {
                    "identifier" => vec![self.text(x).to_string()],
                    _ => segments(self.text(x)),
                };
                let name_at = match x.kind() {
                    "scoped_identifier" => x.child_by_field_name("name").unwrap_or(x),
                    _ => x,
                };
                self.ref_mount(f, "actix-web", prefix, segs, name_at, at);
            }
            "call_expression" => {
                // A chain on a local (`s.route(..)`): that local's router.
                let mut n = x;
                for _ in 0..MAX_CHAIN {
                    let f_expr = n.child_by_field_name("function");
                    let value = f_expr
                        .filter(|g| g.kind() == "field_expression")
                        .and_then(|g| g.child_by_field_name("value"))
                        .map(unwrap_expr);
                    match value {
                        Some(v) if v.kind() == "call_expression" => n = v,
                        Some(v) if v.kind() == "identifier" => {
                            let var = self.text(v).to_string();
                            if self.locals.contains(&(f.scope, var.clone())) {
                                self.nest_use(f, var, prefix);
                            }
                            return;
                        }
                        _ => return,
                    }
                }
            }
            "tuple_expression" => {
                let mut c = x.walk();
                let items: Vec<Node<'t>> = x.named_children(&mut c).collect();
                for i in items {
                    if matches!(i.kind(), "identifier" | "scoped_identifier") {
                        self.service(f, prefix, i, at);
                    }
                }
            }
            "macro_invocation" => {
                let is_services = x.child_by_field_name("macro").is_some_and(|m| {
                    let t = self.text(m);
                    t.rsplit("::").next().unwrap_or(t) == "services"
                });
                let mut c = x.walk();
                let tt = x.named_children(&mut c).find(|n| n.kind() == "token_tree");
                if let (true, Some(tt)) = (is_services, tt) {
                    for (segs, name_at) in listed_paths(tt, self.src) {
                        self.ref_mount(f, "actix-web", prefix, segs, name_at, at);
                    }
                }
            }
            _ => {}
        }
    }

    /// A local's router used as a sub-router under `prefix`.
    fn nest_use(&mut self, f: &Frame<'t>, var: String, prefix: &str) {
        let i = self.nest_uses.len();
        self.uses_of.entry((f.scope, var)).or_default().push(i);
        let anchors = f.anchors.clone();
        self.nest_uses.push(NestUse { prefix: prefix.to_string(), anchors });
    }

    /// A handler mounted by reference: `segs` as written, `name_at` its last name's node, `at`
    /// the mounting call's name.
    fn ref_mount(
        &mut self,
        f: &Frame<'t>,
        framework: &'static str,
        prefix: &str,
        segs: Vec<String>,
        name_at: Node<'t>,
        at: Node<'t>,
    ) {
        let target = match self.sites.get(&(start_line(name_at), start_col(name_at))) {
            Some((c, _)) => (*c).clone(),
            None => match item_callee(segs.clone()) {
                Some(c) => c,
                None => return,
            },
        };
        let mut item: Vec<String> = f.mods.to_vec();
        let mut rest = segs.as_slice();
        while let [first, tail @ ..] = rest
            && first == "self"
        {
            rest = tail;
        }
        item.extend(rest.iter().cloned());
        let (line, col) = (start_line(at), start_col(at));
        self.ref_mounts.push(RefMount {
            framework,
            prefix: prefix.to_string(),
            scope: f.scope,
            anchors: f.anchors.clone(),
            item,
            target,
            line,
            col,
            enclosing: self.enclosing(line, col),
        });
    }

    fn push_mount(
        &mut self,
        f: &Frame<'t>,
        framework: &str,
        prefix: &str,
        target: Callee,
        call: bool,
        at: Node<'t>,
    ) {
        let (line, col) = (start_line(at), start_col(at));
        let mount = Mount {
            framework: framework.to_string(),
            prefix: prefix.to_string(),
            receiver: Vec::new(),
            target,
            call,
            middleware: Vec::new(),
            line,
            enclosing: self.enclosing(line, col),
        };
        self.mounts.push(PendingMount { mount, col, scope: f.scope, anchors: f.anchors.clone() });
    }

    /// A client call at this call, if it is one.
    fn client(&mut self, f: &Frame<'t>, func: Node<'t>, args: &[Node<'t>]) {
        let Some(c) = clients::read(func, args, self.src, &self.lets, f.scope) else { return };
        let (line, col) = (start_line(c.at), start_col(c.at));
        let cc = ClientCall {
            client: "reqwest".to_string(),
            method: c.method.to_string(),
            path: c.path,
            has_base: c.has_base,
            line,
            enclosing: self.enclosing(line, col),
        };
        self.found.clients.push((col, cc));
    }

    /// The routes and tools a function's attributes declare.
    fn attributes(&mut self, f: &Frame<'t>, attrs: &[Node<'t>]) {
        let item = f.node;
        let Some(idx) = self.symbol_of(item) else { return };
        let Some(name) = item.child_by_field_name("name").map(|n| self.text(n)) else { return };
        for a in attrs {
            let Some((attr, args)) = self.attribute(*a) else { continue };
            let (line, col) = (start_line(*a), start_col(*a));
            if attr == "tool" && f.tool_impl {
                self.tool(item, idx, name, *a, args);
                continue;
            }
            let Some(args) = args else { continue };
            let framework = self.attr_framework(*a);
            let routes = self.attr_routes(attr, args, framework);
            for (verb, path) in routes {
                let mut ep = Endpoint::route(framework, verb, String::new(), Handler::Symbol(idx));
                ep.line = line;
                // The function's symbol starts at its first attribute: it encloses them.
                ep.enclosing = Some(idx);
                let mut item_path = f.mods.to_vec();
                item_path.push(name.to_string());
                self.attr_routes.push(AttrRoute { ep, col, path, item: item_path });
            }
        }
    }

    /// `actix-web` or `rocket` for a route attribute (see the module doc).
    fn attr_framework(&self, attr_item: Node<'_>) -> &'static str {
        let t = self.text(attr_item);
        if t.contains("actix_web::") {
            "actix-web"
        } else if t.contains("rocket::") {
            "rocket"
        } else if self.uses.actix {
            "actix-web"
        } else {
            "rocket"
        }
    }

    /// The (method, path) pairs of a route attribute: `#[get("/p")]`, actix `#[route("/p",
    /// method = "GET", method = "HEAD")]`, rocket `#[route(GET, uri = "/p")]`.
    fn attr_routes(
        &self,
        attr: &str,
        args: Node<'t>,
        framework: &str,
    ) -> Vec<(&'static str, String)> {
        let mut c = args.walk();
        let toks: Vec<Node<'t>> = args.children(&mut c).collect();
        // The first string literal at the top level, and `key = "value"` pairs.
        let mut first: Option<String> = None;
        let mut uri: Option<String> = None;
        let mut methods: Vec<&'static str> = Vec::new();
        let mut bare_verb: Option<&'static str> = None;
        for (i, t) in toks.iter().enumerate() {
            if let Some(s) = string_value(*t, self.src) {
                let key = i.checked_sub(2).and_then(|k| toks.get(k)).map(|k| self.text(*k));
                let eq = i.checked_sub(1).and_then(|k| toks.get(k)).map(|k| self.text(*k));
                match (key, eq) {
                    (Some("method"), Some("=")) => {
                        methods.push(verb_of_path(&s.to_ascii_uppercase()).unwrap_or("ANY"));
                    }
                    (Some("uri"), Some("=")) => uri = Some(s),
                    (_, Some("=")) => {}
                    _ if first.is_none() => first = Some(s),
                    _ => {}
                }
            } else if t.kind() == "identifier" && bare_verb.is_none() && i <= 2 {
                bare_verb = verb_of_path(self.text(*t));
            }
        }
        if let Some(verb) = verb_in(ATTR_VERBS, attr) {
            return match first {
                Some(p) if p.starts_with('/') => vec![(verb, route_path(&p))],
                _ => Vec::new(),
            };
        }
        if attr != "route" {
            return Vec::new();
        }
        let path = match uri.or(first) {
            Some(p) if p.starts_with('/') => route_path(&p),
            _ => return Vec::new(),
        };
        if framework == "rocket" {
            return vec![(bare_verb.unwrap_or("ANY"), path)];
        }
        if methods.is_empty() {
            methods.push("ANY");
        }
        methods.into_iter().map(|m| (m, path.clone())).collect()
    }

    /// An rmcp tool method (see the module doc).
    fn tool(
        &mut self,
        item: Node<'t>,
        idx: SymbolIdx,
        method: &str,
        attr_item: Node<'t>,
        args: Option<Node<'t>>,
    ) {
        let mut name: Option<String> = None;
        let mut description: Option<String> = None;
        if let Some(args) = args {
            let mut c = args.walk();
            let toks: Vec<Node<'t>> = args.children(&mut c).collect();
            for (i, t) in toks.iter().enumerate() {
                let Some(s) = string_value(*t, self.src) else { continue };
                let key = i.checked_sub(2).and_then(|k| toks.get(k)).map(|k| self.text(*k));
                let eq = i.checked_sub(1).and_then(|k| toks.get(k)).map(|k| self.text(*k));
                match (key, eq) {
                    (Some("name"), Some("=")) => name = name.or(Some(s)),
                    (Some("description"), Some("=")) => description = description.or(Some(s)),
                    _ => {}
                }
            }
        }
        let tool_name = name.unwrap_or_else(|| method.to_string());
        let mut ep = Endpoint::route("rmcp", "", tool_name, Handler::Symbol(idx));
        ep.kind = EndpointKind::Tool;
        ep.description = description
            .or_else(|| self.facts.symbols.get(idx as usize).and_then(|s| s.doc.clone()));
        ep.fields = self.tool_fields(item);
        ep.line = start_line(attr_item);
        ep.enclosing = Some(idx);
        let col = start_col(attr_item);
        self.found.endpoints.push((col, ep));
    }

    /// A tool's input fields: the named fields of `T` in a `Parameters<T>` argument (declared
    /// in this file), or the older `#[tool(param)]` arguments / `#[tool(aggr)]` type.
    fn tool_fields(&mut self, item: Node<'t>) -> Vec<String> {
        let Some(params) = item.child_by_field_name("parameters") else { return Vec::new() };
        let mut c = params.walk();
        let list: Vec<Node<'t>> = params.named_children(&mut c).collect();
        let mut out = Vec::new();
        let mut attr: Option<&str> = None;
        for p in list {
            match p.kind() {
                "attribute_item" => {
                    let t = self.text(p);
                    attr = if t.contains("param") {
                        Some("param")
                    } else if t.contains("aggr") {
                        Some("aggr")
                    } else {
                        None
                    };
                    continue;
                }
                "parameter" => {}
                _ => {
                    attr = None;
                    continue;
                }
            }
            let ty = p.child_by_field_name("type").map(|t| super::type_text(self.text(t)));
            let ty = ty.unwrap_or_default();
            match attr.take() {
                Some("param") => {
                    if let Some(n) = p.child_by_field_name("pattern").and_then(|x| self.binding(x))
                    {
                        out.push(n.to_string());
                    }
                }
                Some(_) => out.extend(self.struct_fields(&ty)),
                None => {
                    let base = strip_type_args(&ty);
                    if base.rsplit("::").next() == Some("Parameters")
                        && let Some(inner) =
                            ty.split_once('<').and_then(|(_, r)| r.strip_suffix('>'))
                    {
                        return self.struct_fields(inner);
                    }
                }
            }
        }
        out
    }

    /// The named fields of the struct a type names, when this file declares it.
    fn struct_fields(&mut self, ty: &str) -> Vec<String> {
        let facts = self.facts;
        let by_name = self.struct_fields.get_or_insert_with(|| {
            let mut by_idx: HashMap<usize, Vec<String>> = HashMap::new();
            for s in &facts.symbols {
                if let (NodeKind::Property, Some(p)) = (s.kind, s.parent) {
                    by_idx.entry(p as usize).or_default().push(s.name.clone());
                }
            }
            let mut out = HashMap::new();
            for (i, s) in facts.symbols.iter().enumerate() {
                if s.kind == NodeKind::Struct {
                    out.entry(s.name.as_str())
                        .or_insert_with(|| by_idx.remove(&i).unwrap_or_default());
                }
            }
            out
        });
        let base = strip_type_args(ty);
        let name = base.rsplit("::").next().unwrap_or(&base);
        by_name.get(name).cloned().unwrap_or_default()
    }

    /// The prefixes a router anchored at `anchors` in `scope` is served under: those of the
    /// sub-router uses of its locals (through locals nested in locals, [`MAX_HOPS`] deep), or
    /// `""` when none of them is used as one.
    fn served(&self, scope: u32, anchors: &Rc<[String]>) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut work: Vec<(Rc<[String]>, String, usize)> =
            vec![(anchors.clone(), String::new(), 0)];
        let mut steps = 0;
        while let Some((anchors, acc, depth)) = work.pop() {
            steps += 1;
            if out.len() >= MAX_PREFIXES || steps > MAX_PREFIXES * MAX_HOPS * 4 {
                break;
            }
            let mut uses: Vec<&NestUse> = Vec::new();
            for a in anchors.iter().filter(|_| scope != 0) {
                let found = self.uses_of.get(&(scope, a.clone())).map_or(&[][..], Vec::as_slice);
                uses.extend(found.iter().filter_map(|&i| self.nest_uses.get(i)));
            }
            if uses.is_empty() || depth >= MAX_HOPS {
                if !out.contains(&acc) {
                    out.push(acc);
                }
                continue;
            }
            for u in uses {
                work.push((u.anchors.clone(), cat(&u.prefix, &acc), depth + 1));
            }
        }
        out
    }

    /// Applies the prefixes the file's sub-router uses and handler mounts give.
    fn finish(mut self) -> Found {
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            for prefix in self.served(p.scope, &p.anchors) {
                let mut ep = p.ep.clone();
                ep.name =
                    if prefix.is_empty() { p.path.clone() } else { join_path(&prefix, &p.path) };
                self.found.endpoints.push((p.col, ep));
            }
        }
        let mounts = std::mem::take(&mut self.mounts);
        for m in mounts {
            for prefix in self.served(m.scope, &m.anchors) {
                let full = cat(&prefix, &m.mount.prefix);
                if is_root(&full) {
                    continue;
                }
                let mut mount = m.mount.clone();
                mount.prefix = normalize_path(&full);
                self.found.mounts.push((m.col, mount));
            }
        }
        // Handlers mounted by reference: this file's own get the prefix on their routes.
        let mut prefixes: HashMap<Vec<String>, Vec<String>> = HashMap::new();
        let own_items: HashSet<Vec<String>> =
            self.attr_routes.iter().map(|a| a.item.clone()).collect();
        let mut ref_mounts = std::mem::take(&mut self.ref_mounts);
        ref_mounts.sort_by_key(|r| (r.line, r.col));
        for r in &ref_mounts {
            let own = own_items.contains(&r.item);
            for prefix in self.served(r.scope, &r.anchors) {
                let full = cat(&prefix, &r.prefix);
                if own {
                    let list = prefixes.entry(r.item.clone()).or_default();
                    if !list.contains(&full) {
                        list.push(full);
                    }
                } else if !is_root(&full) {
                    let mount = Mount {
                        framework: r.framework.to_string(),
                        prefix: normalize_path(&full),
                        receiver: Vec::new(),
                        target: r.target.clone(),
                        call: false,
                        middleware: Vec::new(),
                        line: r.line,
                        enclosing: r.enclosing,
                    };
                    self.found.mounts.push((r.col, mount));
                }
            }
        }
        for a in std::mem::take(&mut self.attr_routes) {
            match prefixes.get(&a.item) {
                Some(list) => {
                    for prefix in list {
                        let mut ep = a.ep.clone();
                        ep.name = if is_root(prefix) {
                            a.path.clone()
                        } else {
                            join_path(prefix, &a.path)
                        };
                        self.found.endpoints.push((a.col, ep));
                    }
                }
                None => {
                    let mut ep = a.ep;
                    ep.name = a.path;
                    self.found.endpoints.push((a.col, ep));
                }
            }
        }
        self.found
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use expect_test::expect;

    /// The endpoint, mount and client lines of a Rust file's rendered facts.
    pub(in crate::rust) fn render(src: &str) -> String {
        let facts = crate::analyze(crate::Language::Rust, src);
        crate::render::render_facts(&facts)
            .lines()
            .filter(|l| ["route ", "tool ", "mount ", "client "].iter().any(|p| l.starts_with(p)))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    #[test]
    fn route_paths_normalize() {
        assert_eq!(route_path("/users/{id}"), "/users/:id");
        assert_eq!(route_path("/users/:id"), "/users/:id");
        assert_eq!(route_path("/files/{*rest}"), "/files/:rest*");
        assert_eq!(route_path("/files/*rest"), "/files/:rest*");
        assert_eq!(route_path("/hello/<name>/<age>"), "/hello/:name/:age");
        assert_eq!(route_path("/<path..>"), "/:path*");
        assert_eq!(route_path("/search?<q>&<n>"), "/search");
        assert_eq!(route_path("/tail/{tail:.*}"), "/tail/:tail");
        assert_eq!(route_path("x"), "/x");
        assert_eq!(route_path(""), "/");
        assert_eq!(route_path("/a*b"), "/a*b");
    }

    #[test]
    fn axum_routes_nests_and_mounts() {
        let src = r#"
use axum::{routing::{get, post}, Router};

pub fn app(state: AppState, extra: Router) -> Router {
    let api = Router::new()
        .route("/users/{id}", get(users::show).post(create).layer(auth()))
        .route("/items/:id", axum::routing::delete(|| async {}))
        .nest("/inner", Router::new().route("/deep", get(deep)));
    let mut admin = Router::new();
    admin = admin.route("/stats", on(MethodFilter::PUT, Self::stats));
    Router::new()
        .route("/", get(root))
        .route("/health", get_service(ServeDir::new(".")))
        .route("/other", method_router)
        .nest("/api", api)
        .nest("/admin", admin.route("/x", any(x)))
        .nest("/v2", users::router().layer(TraceLayer::new()))
        .nest("/v3", Router::new().merge(items::routes(state.clone())))
        .nest("/extra", extra)
        .merge(other())
        .with_state(state)
}
"#;
        expect![[r#"
            route L6 axum GET /api/users/:id handler=::.users.show in=app
            route L6 axum POST /api/users/:id handler=create in=app
            route L7 axum DELETE /api/items/:id handler=inline in=app
            route L8 axum GET /api/inner/deep handler=deep in=app
            route L10 axum PUT /admin/stats handler=::.Self.stats recv=admin in=app
            route L12 axum GET / handler=root in=app
            route L13 axum GET /health handler=? in=app
            route L14 axum ANY /other handler=? in=app
            route L16 axum ANY /admin/x handler=x recv=admin in=app
            mount L17 axum /v2 -> ::.users.router() in=app
            mount L18 axum /v3 -> ::.items.routes() in=app
        "#]]
        .assert_eq(&render(src));
    }

    #[test]
    fn actix_attributes_scopes_and_resources() {
        let src = r#"
use actix_web::{get, post, route, web, App, HttpServer};

#[get("/")]
async fn hello() -> impl Responder { "hi" }

#[post("/echo/{id}")]
async fn echo(body: String) -> impl Responder { body }

#[route("/multi", method = "GET", method = "HEAD")]
async fn multi() -> impl Responder { "" }

async fn manual() -> impl Responder { "" }

fn config(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/app")
            .route(web::get().to(manual))
            .route(web::head().to(HttpResponse::MethodNotAllowed)),
    )
    .route("/cfg", web::post().to(manual));
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    HttpServer::new(|| {
        let scope = web::scope("/v1").service(echo);
        let extra = web::scope("/extra");
        App::new()
            .service(hello)
            .service(
                web::scope("/api")
                    .service(echo)
                    .service((multi, users::list))
                    .service(services![users::one, hello])
                    .route("/hey", web::get().to(manual))
                    .service(web::scope("/nested").route("/n", web::route().to(manual)))
                    .configure(users::config),
            )
            .service(scope)
            .service(web::scope("/outer").service(extra.route("/e", web::get().to(manual))))
            .route("/inline", web::get().to(|| async { "x" }))
            .service(web::resource(["/a", "/b"]).to(manual))
            .configure(config)
    })
    .bind(("127.0.0.1", 8080))?
    .run()
    .await
}
"#;
        expect![[r#"
            route L4 actix-web GET / handler=sym:hello in=hello
            route L4 actix-web GET /api handler=sym:hello in=hello
            route L7 actix-web POST /v1/echo/:id handler=sym:echo in=echo
            route L7 actix-web POST /api/echo/:id handler=sym:echo in=echo
            route L10 actix-web GET /api/multi handler=sym:multi in=multi
            route L10 actix-web HEAD /api/multi handler=sym:multi in=multi
            route L18 actix-web GET /app handler=manual in=config
            route L19 actix-web HEAD /app handler=::.HttpResponse.MethodNotAllowed in=config
            route L21 actix-web POST /cfg handler=manual recv=cfg in=config
            route L36 actix-web GET /api/hey handler=manual in=main
            route L37 actix-web ANY /api/nested/n handler=manual in=main
            route L41 actix-web GET /outer/extra/e handler=manual recv=extra in=main
            route L42 actix-web GET /inline handler=inline in=main
            route L43 actix-web ANY /a handler=manual in=main
            route L43 actix-web ANY /b handler=manual in=main
            mount L34 actix-web /api -> ::.users.list in=main
            mount L35 actix-web /api -> ::.users.one in=main
            mount L38 actix-web /api -> ::.users.config in=main
        "#]]
        .assert_eq(&render(src));
    }

    #[test]
    fn rocket_attributes_and_mounts() {
        let src = r#"
#[macro_use] extern crate rocket;

mod inner {
    #[get("/deep/<a>/<b..>?<q>")]
    pub fn deep(a: u8) {}
}

/// Greets.
#[get("/")]
fn index() -> &'static str { "Hello, world!" }

#[post("/", data = "<form>")]
fn submit(form: Form<Task>) {}

#[route(PUT, uri = "/r/<id>")]
fn r(id: u32) {}

#[get("/unmounted")]
fn unmounted() {}

#[launch]
fn rocket() -> _ {
    rocket::build()
        .mount("/", routes![index, r])
        .mount("/hello", routes![index, inner::deep, submit, users::list])
        .mount("/", routes![users::all])
        .register("/", catchers![not_found])
}
"#;
        expect![[r#"
            route L5 rocket GET /hello/deep/:a/:b* handler=sym:deep in=deep
            route L10 rocket GET / handler=sym:index in=index
            route L10 rocket GET /hello handler=sym:index in=index
            route L13 rocket POST /hello handler=sym:submit in=submit
            route L16 rocket PUT /r/:id handler=sym:r in=r
            route L19 rocket GET /unmounted handler=sym:unmounted in=unmounted
            mount L26 rocket /hello -> ::.users.list in=rocket
        "#]]
        .assert_eq(&render(src));
    }

    #[test]
    fn attribute_framework_follows_imports() {
        let actix = "use actix_web::HttpResponse;\n#[get(\"/a\")]\nasync fn a() {}\n";
        let rocket = "use rocket::State;\n#[get(\"/a\")]\nfn a() {}\n";
        let neither = "#[get(\"/a\")]\nfn a() {}\n";
        let qualified = "use rocket::State;\n#[actix_web::get(\"/a\")]\nasync fn a() {}\n";
        let no_path = "use actix_web::HttpResponse;\n#[get(name)]\nfn a() {}\n#[get]\nfn b() {}\n";
        let all = [actix, rocket, neither, qualified, no_path].map(render).concat();
        expect![[r#"
            route L2 actix-web GET /a handler=sym:a in=a
            route L2 rocket GET /a handler=sym:a in=a
            route L1 rocket GET /a handler=sym:a in=a
            route L2 actix-web GET /a handler=sym:a in=a
        "#]]
        .assert_eq(&all);
    }

    #[test]
    fn call_shapes_need_their_framework() {
        // actix-web and rocket call shapes in files that use neither: no routes, no mounts.
        let src = r#"
fn app() {
    App::new()
        .service(web::scope("/api").route("/x", web::get().to(h)).service(g))
        .configure(config);
    build().mount("/base", routes![a, other::b]);
}
"#;
        assert_eq!(render(src), "");
    }

    #[test]
    fn rmcp_tools() {
        let src = r##"
use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};

#[derive(Deserialize, JsonSchema)]
pub struct SearchArgs {
    /// Words.
    pub query: String,
    pub limit: Option<usize>,
}

#[tool_router(router = tool_router)]
impl Server {
    #[tool(
        description = "Find \"things\".",
        annotations(read_only_hint = true),
        output_schema = schema()
    )]
    async fn search(&self, Parameters(a): Parameters<SearchArgs>) -> CallToolResult { String::new() }

    /// Adds two numbers.
    #[tool(name = "add_numbers")]
    fn add(&self, Parameters(p): Parameters<other::AddArgs>) -> String { String::new() }

    fn helper(&self) {}
}

#[tool(tool_box)]
impl Legacy {
    #[tool(description = r#"Sum"#)]
    fn sum(&self, #[tool(aggr)] SearchArgs { query, limit }: SearchArgs) -> String { String::new() }

    #[tool(description = "Sub")]
    fn sub(&self, #[tool(param)] a: i32, #[tool(param)] b: i32) -> String { String::new() }
}

impl NotARouter {
    #[tool(description = "not registered")]
    fn stray(&self) {}
}
"##;
        expect![[r#"
            tool L13 rmcp search desc="Find \"things\"." fields=[query,limit] handler=sym:Server.search in=Server.search
            tool L21 rmcp add_numbers desc="Adds two numbers." handler=sym:Server.add in=Server.add
            tool L29 rmcp sum desc="Sum" fields=[query,limit] handler=sym:Legacy.sum in=Legacy.sum
            tool L32 rmcp sub desc="Sub" fields=[a,b] handler=sym:Legacy.sub in=Legacy.sub
        "#]]
        .assert_eq(&render(src));
        // The same shapes in a file that does not use rmcp declare no tool.
        let elsewhere = src.replace("use rmcp::", "use other::");
        assert_eq!(render(&elsewhere), "");
    }

    /// This repository's MCP server: one tool per `#[tool(..)]` method, named after it. The
    /// expected names are read from the file here, independently of the provider: the name of
    /// the `fn` that follows each `#[tool(` attribute.
    #[test]
    fn this_repository_mcp_server_tools() {
        let src = include_str!("../../../server/src/mcp/tools.rs");
        let mut expected: Vec<String> = Vec::new();
        let mut after_tool = false;
        for line in src.lines() {
            let l = line.trim_start();
            if l.starts_with("#[tool(") || l == "#[tool]" {
                after_tool = true;
            } else if after_tool && let Some(i) = l.find("fn ") {
                let name: String =
                    l[i + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                expected.push(name);
                after_tool = false;
            }
        }
        expected.sort();
        assert!(expected.len() >= 10, "the grep found {expected:?}");
        let facts = crate::analyze(crate::Language::Rust, src);
        let tools: Vec<&Endpoint> =
            facts.endpoints.iter().filter(|e| e.kind == EndpointKind::Tool).collect();
        let mut names: Vec<String> = tools.iter().map(|e| e.name.clone()).collect();
        names.sort();
        assert_eq!(names, expected);
        for t in tools {
            assert_eq!(t.framework, "rmcp");
            let described = t.description.as_deref().is_some_and(|d| !d.is_empty());
            assert!(described, "{} has no description", t.name);
            let Handler::Symbol(i) = t.handler else { panic!("{} has no handler symbol", t.name) };
            assert_eq!(facts.symbols[i as usize].name, t.name);
            assert!(!t.fields.is_empty(), "{} has no fields", t.name);
        }
    }

    #[test]
    fn deep_and_long_inputs_stay_bounded() {
        // A 3,000-link chain, 400 nested nests, 300 nested inline modules, a long URL.
        let chain: String = (0..3000).map(|i| format!(".route(\"/r{i}\", get(h))")).collect();
        let mut nest = "Router::new()".to_string();
        for i in 0..400 {
            nest = format!("Router::new().nest(\"/a{i}\", {nest})");
        }
        let mods =
            format!("{}#[get(\"/x\")] fn f() {{}}{}", "mod m { ".repeat(300), "}".repeat(300));
        let url = "a/".repeat(20_000);
        let src = format!(
            "use axum::Router; use reqwest;\nfn a() -> Router {{ Router::new(){chain} }}\n\
             fn b() -> Router {{ {nest} }}\n{mods}\nfn c() {{ x.get(format!(\"{{}}/{url}\")); }}\n"
        );
        let facts = crate::analyze(crate::Language::Rust, &src);
        assert_eq!(facts.endpoints.len(), 3001);
        assert!(facts.endpoints.iter().all(|e| e.name.len() <= 2 * MAX_PREFIX_LEN));
        assert_eq!(facts.client_calls.len(), 1);
    }
}
