//! Go endpoint readers: net/http (`HandleFunc` / `Handle`, Go 1.22 `"GET /items/{id}"`
//! patterns), gorilla/mux (`.Methods(...)`, `PathPrefix(...).Subrouter()`), gin and echo
//! (`r.GET`, `r.Group`), chi (`r.Get`, `r.Route("/p", func(r chi.Router) {...})`, `r.With(mw)`),
//! grpc-gateway (`mux.Handle("POST", pattern_KV_Range_0, func(...) {...})`, the path decoded
//! from the file's `pattern_KV_Range_0 = runtime.MustPattern(runtime.NewPattern(1, ops, pool,
//! verb))`: see [`gateway_patterns`]), gRPC services (a `grpc.ServiceDesc{...}` literal: each
//! method and stream a `GRPC /pkg.Service/Method` route handled by its `Handler` function, as
//! `protoc-gen-go-grpc` writes them) and gRPC client stubs (`cc.Invoke(ctx,
//! "/pkg.Service/Method", ...)`, `cc.NewStream(ctx, desc, "/pkg.Service/Method", ...)`, older
//! generators' `grpc.Invoke` and `grpc.NewClientStream`: client
//! calls of method `GRPC`, which FETCHES the rpc's routes),
//! and MCP tools (mcp-go `s.AddTool(mcp.NewTool(...), h)`, the official SDK's
//! `mcp.AddTool(s, &mcp.Tool{...}, h)`).
//!
//! One cursor walk keeps a stack of function scopes holding the router variables assigned in
//! them (`v1 := r.Group("/v1")`, `s := r.PathPrefix("/api").Subrouter()`, `tool :=
//! mcp.NewTool(...)`), so prefixes declared in the same function apply to the routes below
//! them; a chi `Route` / `Group` callback's router parameter is seeded with its prefix.
//!
//! Mounts: chi `r.Mount("/p", sub)` / `r.Mount("/p", subRouter())` / `r.Route("/p", fn)`, and
//! a gin / echo group passed to a function (`registerUsers(r.Group("/v1"))`,
//! `users.Register(v1)`). Client calls: package-level net/http `Get` / `Head` / `Post` /
//! `PostForm` and `NewRequest[WithContext]`, with a URL built from literals, `+`
//! concatenations and `fmt.Sprintf`.

use super::{
    Enclosing, Extracted, Found, Piece, client_path, join_path, normalize_path, route,
    status_by_name, status_literal, tidy, tool,
};
use crate::facts::{Callee, ClientCall, Endpoint, FileFacts, Handler, Mount, PathPiece, Receiver};
use crate::util::{start_col, start_line, text};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

mod chi;
mod clients;
mod gorilla;
mod mcp_tools;
mod mounts;
mod responses;

use chi::CHI_VERBS;
use gorilla::GORILLA_MODIFIERS;

/// gin / echo route methods (upper case), and the method each registers.
const UPPER_VERBS: &[(&str, &str)] = &[
    ("GET", "GET"),
    ("POST", "POST"),
    ("PUT", "PUT"),
    ("DELETE", "DELETE"),
    ("PATCH", "PATCH"),
    ("OPTIONS", "OPTIONS"),
    ("HEAD", "HEAD"),
    ("CONNECT", "CONNECT"),
    ("TRACE", "TRACE"),
    ("Any", "ANY"),
];

/// Longest receiver chain (`r.With(a).With(b).Group(...)...`) followed.
const MAX_CHAIN: usize = 32;

/// Most nodes a response scan visits in one handler.
const MAX_SCAN: usize = 20_000;

/// Reads the endpoints of the top-level declarations `regions` of the tree rooted at `root`.
pub(super) fn extract<'t>(
    src: &str,
    root: Node<'t>,
    regions: &[Node<'t>],
    facts: &FileFacts,
    consts: HashMap<String, String>,
) -> Extracted {
    let imports = Imports::of(facts);
    let patterns =
        if src.contains("NewPattern(") { gateway_patterns(root, src) } else { HashMap::new() };
    let mut cx = Cx {
        src,
        ids: Ids::of(&root.language()),
        root,
        imports,
        enclosing: Enclosing::new(facts),
        scopes: vec![Scope { owner: root.id(), vars: Vec::new() }],
        seeds: HashMap::new(),
        done: HashSet::new(),
        out: Vec::new(),
        pending_inline: None,
        decls: None,
        mounts: Vec::new(),
        clients: Vec::new(),
        consts,
        patterns,
    };
    for region in regions {
        // A cursor made at a node never climbs above it.
        let mut cursor = region.walk();
        'walk: loop {
            let node = cursor.node();
            cx.enter(node);
            if cursor.goto_first_child() {
                continue;
            }
            cx.leave(node);
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
                cx.leave(cursor.node());
            }
        }
    }
    Extracted { endpoints: cx.out, mounts: cx.mounts, clients: cx.clients }
}

/// The router and MCP packages the file imports.
#[derive(Default)]
struct Imports {
    gorilla: bool,
    gin: bool,
    echo: bool,
    chi: bool,
    go_sdk: bool,
    /// The name net/http is imported under (`http`, or its alias), if it is imported.
    net_http: Option<String>,
}

impl Imports {
    fn of(facts: &FileFacts) -> Self {
        let mut m = Imports::default();
        for i in &facts.imports {
            let s = i.source.as_str();
            m.gorilla |= s == "github.com/gorilla/mux";
            m.gin |= s == "github.com/gin-gonic/gin";
            m.echo |= s.starts_with("github.com/labstack/echo");
            m.chi |= s.starts_with("github.com/go-chi/chi");
            m.go_sdk |= s.starts_with("github.com/modelcontextprotocol/go-sdk");
            if s == "net/http" {
                let alias = i.bindings.iter().find_map(|b| b.local.as_deref());
                m.net_http = match alias {
                    None => Some("http".to_string()),
                    Some("_" | ".") => m.net_http.take(),
                    Some(a) => Some(a.to_string()),
                };
            }
        }
        m
    }
}

/// A router value's prefix and middleware, and the variable it derives from.
#[derive(Clone, Default)]
struct Group {
    /// The path prefix, not yet normalized (`/api/v1`).
    prefix: String,
    middleware: Vec<String>,
    /// The root receiver path (`r` for `v1 := r.Group("/v1")`).
    base: Vec<String>,
}

#[derive(Clone)]
enum Binding<'t> {
    Group(Group),
    /// `tool := mcp.NewTool(...)`: the `NewTool` call.
    Tool(Node<'t>),
}

struct Scope<'t> {
    /// The function node that owns the scope (the root for package level).
    owner: usize,
    vars: Vec<(String, Binding<'t>)>,
}

/// What a receiver chain says: the root receiver and its group, plus gorilla route parts.
#[derive(Default)]
struct Chain {
    group: Group,
    methods: Vec<String>,
    path: Option<String>,
}

crate::grammar::grammar_ids! {
    /// Node-kind and field ids of the Go grammar, so the walk compares integers and reads fields
    /// without name lookups.
    struct Ids {
        kinds {
            function_declaration = "function_declaration",
            method_declaration = "method_declaration",
            func_literal = "func_literal",
            short_var_declaration = "short_var_declaration",
            assignment_statement = "assignment_statement",
            call = "call_expression",
            selector = "selector_expression",
            composite_literal = "composite_literal",
        }
        anon {}
        fields { f_function = "function", f_field = "field", f_operand = "operand" }
    }
}

struct Cx<'s, 'f, 't> {
    src: &'s str,
    ids: Ids,
    root: Node<'t>,
    imports: Imports,
    enclosing: Enclosing<'f>,
    scopes: Vec<Scope<'t>>,
    /// chi `Route` / `Group` callbacks: func literal id -> (router parameter, its group).
    seeds: HashMap<usize, Group>,
    /// Calls already read as part of an outer gorilla chain.
    done: HashSet<usize>,
    out: Vec<Found>,
    /// The span of the handler written in place that `handler_of` found last: the endpoints
    /// pushed next with an inline handler are its.
    pending_inline: Option<super::Span>,
    /// Top-level functions by name, and methods by method name, built on first use.
    decls: Option<HashMap<&'s str, Node<'t>>>,
    mounts: Vec<(u32, Mount)>,
    clients: Vec<(u32, ClientCall)>,
    /// Package-level string constants and variables of this file whose value is a literal or
    /// a `+` of literals and such names (`varsPath = "/debug/vars"`), for route paths written
    /// as names (`mux.HandleFunc(varsPath, serveVars)`).
    consts: HashMap<String, String>,
    /// grpc-gateway route patterns of this file by variable name, decoded into paths.
    patterns: HashMap<String, String>,
}

/// Most `+` operands and name hops followed when evaluating a constant string.
const MAX_CONST_DEPTH: u32 = 8;

/// The file's package-level string constants (see [`Cx::consts`]). Two passes, so a constant
/// may use one declared below it.
pub(super) fn file_consts(root: Node<'_>, src: &str) -> HashMap<String, String> {
    let specs: Vec<(String, Node<'_>)> =
        package_values(root).into_iter().map(|(n, v)| (text(n, src).to_string(), v)).collect();
    let mut consts = HashMap::new();
    for _ in 0..2 {
        for (name, value) in &specs {
            if !consts.contains_key(name)
                && let Some(v) = const_string(*value, src, &consts, 0)
            {
                consts.insert(name.clone(), v);
            }
        }
    }
    consts
}

/// The grpc-gateway route patterns a file declares at package level, by variable name:
/// `pattern_KV_Range_0 = runtime.MustPattern(runtime.NewPattern(1, []int{2, 0, 2, 1}, []string{"v3",
/// "kv"}, ""))` is `/v3/kv`. The ops are (opcode, operand) pairs run on a stack of segments
/// (grpc-gateway's `utilities.OpCode`): 1 pushes `*`, 2 pushes literal `pool[operand]`, 3 pushes
/// `**`, 4 joins the top `operand` segments with `/`, 5 names the top segment as the variable
/// `pool[operand]` (`:name`), 0 does nothing; a verb is appended as `:verb`. A pattern whose ops
/// cannot be decoded is left out.
pub(super) fn gateway_patterns(root: Node<'_>, src: &str) -> HashMap<String, String> {
    package_values(root)
        .into_iter()
        .filter_map(|(n, v)| Some((text(n, src).to_string(), decode_pattern(v, src)?)))
        .collect()
}

/// The package-level constants and variables of a file with their values, as (name, value)
/// nodes: `var ( ... )` groups included, a spec whose names and values do not pair up left out.
fn package_values(root: Node<'_>) -> Vec<(Node<'_>, Node<'_>)> {
    let mut out = Vec::new();
    for decl in named_children(root) {
        if !matches!(decl.kind(), "const_declaration" | "var_declaration") {
            continue;
        }
        // `var ( ... )` wraps its specs in a `var_spec_list`.
        let specs_of = named_children(decl)
            .into_iter()
            .flat_map(|c| if c.kind() == "var_spec_list" { named_children(c) } else { vec![c] });
        for spec in specs_of {
            if !matches!(spec.kind(), "const_spec" | "var_spec") {
                continue;
            }
            let mut cursor = spec.walk();
            let names: Vec<Node<'_>> = spec.children_by_field_name("name", &mut cursor).collect();
            let values: Vec<Node<'_>> =
                spec.child_by_field_name("value").map(named_children).unwrap_or_default();
            if names.len() == values.len() {
                out.extend(names.into_iter().zip(values));
            }
        }
    }
    out
}

/// The path of a `runtime.NewPattern(...)` call, also inside `runtime.MustPattern(...)`.
fn decode_pattern(call: Node<'_>, src: &str) -> Option<String> {
    if call.kind() != "call_expression" {
        return None;
    }
    let callee = text(call.child_by_field_name("function")?, src);
    let args = call_args(call);
    if callee.ends_with("MustPattern") {
        return decode_pattern(*args.first()?, src);
    }
    if !callee.ends_with("NewPattern") || args.len() != 4 {
        return None;
    }
    let ints: Vec<usize> = descendants_of_kind(args[1], "int_literal")
        .into_iter()
        .map(|n| text(n, src).parse::<usize>().ok())
        .collect::<Option<_>>()?;
    let pool: Vec<&str> = descendants_of_kind(args[2], "interpreted_string_literal")
        .into_iter()
        .map(|n| literal(n, src))
        .collect::<Option<_>>()?;
    let verb = literal(args[3], src)?;
    if !ints.len().is_multiple_of(2) {
        return None;
    }
    let mut stack: Vec<String> = Vec::new();
    for op in ints.chunks(2) {
        match (op[0], op[1]) {
            (0, _) => {}
            (1, _) => stack.push("*".to_string()),
            (2, i) => stack.push((*pool.get(i)?).to_string()),
            (3, _) => stack.push("**".to_string()),
            (4, n) => {
                let at = stack.len().checked_sub(n)?;
                let joined = stack.split_off(at).join("/");
                stack.push(joined);
            }
            (5, i) => {
                let top = stack.last_mut()?;
                *top = format!(":{}", pool.get(i)?);
            }
            _ => return None,
        }
    }
    let mut path = format!("/{}", stack.join("/"));
    if !verb.is_empty() {
        path.push(':');
        path.push_str(verb);
    }
    Some(path)
}

/// A gRPC method path: `/pkg.Service/Method` (one `/` inside, no spaces).
fn is_grpc_method(m: &str) -> bool {
    m.strip_prefix('/').and_then(|r| r.split_once('/')).is_some_and(|(svc, method)| {
        !svc.is_empty()
            && !method.is_empty()
            && !method.contains('/')
            && !m.contains(char::is_whitespace)
    })
}

/// The `Key: value` elements of a composite literal's body, by key name.
fn keyed_elements<'t, 's>(body: Node<'t>, src: &'s str) -> Vec<(&'s str, Node<'t>)> {
    // Keys and values may be wrapped in a `literal_element`.
    let unwrap = |n: Node<'t>| {
        if n.kind() == "literal_element" { n.named_child(0).unwrap_or(n) } else { n }
    };
    named_children(body)
        .into_iter()
        .filter(|e| e.kind() == "keyed_element")
        .filter_map(|e| {
            let kids = named_children(e);
            Some((text(unwrap(*kids.first()?), src), unwrap(*kids.get(1)?)))
        })
        .collect()
}

/// The descendants of `n` of kind `kind`, in source order.
fn descendants_of_kind<'t>(n: Node<'t>, kind: &str) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if x.kind() == kind {
            out.push(x);
            continue;
        }
        let mut kids = named_children(x);
        kids.reverse();
        stack.extend(kids);
    }
    out
}

/// Go's `path.Join`: the non-empty parts joined by `/`, then cleaned (no empty or `.`
/// segments, `..` removing the previous one); empty when all parts are.
fn path_join(parts: &[String]) -> String {
    let joined: Vec<&str> = parts.iter().map(String::as_str).filter(|p| !p.is_empty()).collect();
    if joined.is_empty() {
        return String::new();
    }
    let joined = joined.join("/");
    let rooted = joined.starts_with('/');
    let mut segs: Vec<&str> = Vec::new();
    for seg in joined.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if segs.last().is_some_and(|l| *l != "..") {
                    segs.pop();
                } else if !rooted {
                    segs.push("..");
                }
            }
            s => segs.push(s),
        }
    }
    let body = segs.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_string(),
        (false, false) => body,
    }
}

/// The value of a string expression made of literals, known constant names, `+` and
/// `path.Join`.
fn const_string(
    n: Node<'_>,
    src: &str,
    consts: &HashMap<String, String>,
    depth: u32,
) -> Option<String> {
    if depth > MAX_CONST_DEPTH {
        return None;
    }
    match n.kind() {
        "interpreted_string_literal" | "raw_string_literal" => literal(n, src).map(str::to_string),
        "identifier" => consts.get(text(n, src)).cloned(),
        // `path.Join(RaftPrefix, "stream")`: joined with `/` and cleaned like Go's.
        "call_expression" => {
            let f = n.child_by_field_name("function")?;
            if text(f, src) != "path.Join" {
                return None;
            }
            let args = n.child_by_field_name("arguments").map(named_children)?;
            let parts: Vec<String> = args
                .iter()
                .map(|a| const_string(*a, src, consts, depth + 1))
                .collect::<Option<_>>()?;
            Some(path_join(&parts))
        }
        "parenthesized_expression" => {
            named_children(n).first().and_then(|i| const_string(*i, src, consts, depth + 1))
        }
        "binary_expression" => {
            let op = n.child_by_field_name("operator").map(|o| text(o, src));
            if op != Some("+") {
                return None;
            }
            let l = const_string(n.child_by_field_name("left")?, src, consts, depth + 1)?;
            let r = const_string(n.child_by_field_name("right")?, src, consts, depth + 1)?;
            Some(l + &r)
        }
        _ => None,
    }
}

fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

fn call_args(call: Node<'_>) -> Vec<Node<'_>> {
    call.child_by_field_name("arguments").map_or_else(Vec::new, named_children)
}

/// A string literal's content (interpreted or raw), quotes removed, escapes as written.
fn literal<'s>(n: Node<'_>, src: &'s str) -> Option<&'s str> {
    match n.kind() {
        "interpreted_string_literal" | "raw_string_literal" => {
            let t = text(n, src);
            t.get(1..t.len().saturating_sub(1).max(1))
        }
        _ => None,
    }
}

fn is_handler_like(kind: &str) -> bool {
    matches!(kind, "identifier" | "selector_expression" | "func_literal" | "call_expression")
}

fn is_function(kind: &str) -> bool {
    matches!(kind, "function_declaration" | "method_declaration" | "func_literal")
}

/// The route a Go path or pattern evaluates to once its constants are known: (method, path
/// normalized like a literal one). net/http patterns may carry a method and a host (`"GET
/// example.com/items/{id}"`); `method` is the registration's (`ANY`, or gorilla's
/// `.Methods(...)`). `None` when the text is not a path.
pub fn resolved_route(framework: &str, method: &str, pattern: &str) -> Option<(String, String)> {
    let (method, path) = split_pattern(framework, method, pattern);
    (is_route_path(path) && !path.is_empty()).then(|| (method, normalize_path(path)))
}

/// A registration pattern as (method, path): net/http's Go 1.22 `"[METHOD ][HOST]/[PATH]"`
/// gives its method (else `method`) and loses its host; other frameworks' patterns are paths.
fn split_pattern<'p>(framework: &str, method: &str, pattern: &'p str) -> (String, &'p str) {
    let (mut method, mut path) = (method.to_string(), pattern);
    if framework == "net/http" {
        if let Some((m, rest)) = pattern.split_once(' ')
            && !m.is_empty()
            && m.chars().all(|c| c.is_ascii_uppercase())
        {
            method = m.to_string();
            path = rest.trim_start();
        }
        if !path.starts_with('/')
            && let Some(slash) = path.find('/')
        {
            path = &path[slash..];
        }
    }
    (method, path)
}

/// Whether a literal route argument looks like a path (or a Go 1.22 pattern with a method).
fn is_route_path(p: &str) -> bool {
    p.is_empty() || p.starts_with('/') || p == "*"
}

/// `a.b.c` as names, when every link is a plain identifier.
fn path_of(n: Node<'_>, src: &str) -> Option<Vec<String>> {
    let mut rev = Vec::new();
    let mut cur = n;
    for _ in 0..MAX_CHAIN {
        match cur.kind() {
            "identifier" | "package_identifier" => {
                rev.push(text(cur, src).to_string());
                rev.reverse();
                return Some(rev);
            }
            "selector_expression" => {
                rev.push(text(cur.child_by_field_name("field")?, src).to_string());
                cur = cur.child_by_field_name("operand")?;
            }
            _ => return None,
        }
    }
    None
}

/// The callee shape of a function expression (`f`, `pkg.F`, `s.h`), as call sites spell it.
fn callee_of(f: Node<'_>, src: &str) -> Option<Callee> {
    match f.kind() {
        "identifier" => Some(Callee { receiver: Receiver::None, name: text(f, src).into() }),
        "selector_expression" => {
            let name = text(f.child_by_field_name("field")?, src).to_string();
            let receiver = f
                .child_by_field_name("operand")
                .and_then(|o| path_of(o, src))
                .map_or(Receiver::Other, Receiver::path);
            Some(Callee { receiver, name: name.into() })
        }
        _ => None,
    }
}

fn dotted(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// How a middleware argument is named: as written, a call by its callee, a func literal as
/// `<inline>`.
fn middleware_name(n: Node<'_>, src: &str) -> Option<String> {
    match n.kind() {
        "identifier" | "selector_expression" => Some(dotted(text(n, src))),
        "call_expression" => {
            let f = n.child_by_field_name("function")?;
            match f.kind() {
                "identifier" | "selector_expression" => Some(dotted(text(f, src))),
                _ => None,
            }
        }
        "func_literal" => Some("<inline>".to_string()),
        _ => None,
    }
}

/// A `fmt` format string as pieces: each verb (`%s`, `%d`, `%-5v`, `%[1]q`) a substitution,
/// `%%` a literal `%`.
fn format_pieces<'s>(format: &'s str, out: &mut Vec<Piece<'s>>) {
    let mut rest = format;
    while let Some(i) = rest.find('%') {
        out.push(Piece::Lit(&rest[..i]));
        let after = &rest[i + 1..];
        if let Some(r) = after.strip_prefix('%') {
            out.push(Piece::Lit("%"));
            rest = r;
            continue;
        }
        // Flags, width, precision and argument indexes, then the verb letter.
        let verb = after
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_digit() || "+-# .[]*".contains(*c)))
            .map_or(after.len(), |(j, c)| j + c.len_utf8());
        out.push(Piece::Hole);
        rest = &after[verb..];
    }
    out.push(Piece::Lit(rest));
}

/// A status code: an int literal, or a `http.StatusXxx` constant.
fn status_of(n: Node<'_>, src: &str) -> Option<u16> {
    match n.kind() {
        "int_literal" => status_literal(text(n, src)),
        "selector_expression" | "identifier" => {
            let t = dotted(text(n, src));
            let last = t.rsplit('.').next().unwrap_or("");
            last.starts_with("Status").then(|| status_by_name(last)).flatten()
        }
        _ => None,
    }
}

/// The string keys of a map literal (`gin.H{"a": 1}`, `map[string]any{...}`, `&T{...}` is
/// skipped: struct field names are not JSON keys).
fn map_keys(n: Node<'_>, src: &str) -> Vec<String> {
    let mut n = n;
    if n.kind() == "unary_expression" {
        match n.child_by_field_name("operand") {
            Some(o) => n = o,
            None => return Vec::new(),
        }
    }
    if n.kind() != "composite_literal" {
        return Vec::new();
    }
    let Some(body) = n.child_by_field_name("body") else { return Vec::new() };
    let mut out = Vec::new();
    for el in named_children(body) {
        if el.kind() != "keyed_element" {
            continue;
        }
        let key = el.child_by_field_name("key").or_else(|| el.named_child(0));
        let key = key
            .and_then(|k| if k.kind() == "literal_element" { k.named_child(0) } else { Some(k) });
        if let Some(k) = key.and_then(|k| literal(k, src)) {
            out.push(k.to_string());
        }
    }
    out
}

/// A keyed field of a struct literal (`Name: "x"` in `&mcp.Tool{Name: "x"}`).
fn keyed_literal<'s>(lit: Node<'_>, field: &str, src: &'s str) -> Option<&'s str> {
    let body = lit.child_by_field_name("body")?;
    let (_, v) = keyed_elements(body, src).into_iter().find(|(k, _)| *k == field)?;
    literal(v, src)
}

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// A string argument: a literal, or the file's string constants joined by `+`
    /// (`varsPath`, `authPrefix + "/roles"`).
    fn string_arg(&self, n: Node<'_>) -> Option<String> {
        const_string(n, self.src, &self.consts, 0)
    }

    /// A path argument naming constants this file does not declare (`RaftPrefix`,
    /// `rafthttp.RaftPrefix + "/"`), as pieces for resolution; `None` for anything else (a
    /// call, an index expression...). The file's own constants become text.
    fn path_pieces(&self, n: Node<'_>, out: &mut Vec<PathPiece>, depth: u32) -> Option<()> {
        if depth > MAX_CONST_DEPTH {
            return None;
        }
        if let Some(v) = const_string(n, self.src, &self.consts, 0) {
            out.push(PathPiece::Text(v));
            return Some(());
        }
        match n.kind() {
            "identifier" | "selector_expression" => {
                let path = path_of(n, self.src)?;
                if path.len() > 2 {
                    return None;
                }
                out.push(PathPiece::Name(path));
                Some(())
            }
            "parenthesized_expression" => {
                let inner = *named_children(n).first()?;
                self.path_pieces(inner, out, depth + 1)
            }
            "binary_expression" => {
                if n.child_by_field_name("operator").map(|o| self.text(o)) != Some("+") {
                    return None;
                }
                self.path_pieces(n.child_by_field_name("left")?, out, depth + 1)?;
                self.path_pieces(n.child_by_field_name("right")?, out, depth + 1)
            }
            _ => None,
        }
    }

    fn text(&self, n: Node<'_>) -> &'s str {
        text(n, self.src)
    }

    fn enter(&mut self, node: Node<'t>) {
        let kind = node.kind_id();
        let ids = &self.ids;
        if kind == ids.call {
            self.call(node);
        } else if kind == ids.function_declaration
            || kind == ids.method_declaration
            || kind == ids.func_literal
        {
            let mut vars = Vec::new();
            if let Some(g) = self.seeds.remove(&node.id())
                && let Some(p) = self.first_param(node)
            {
                vars.push((p.to_string(), Binding::Group(g)));
            }
            self.scopes.push(Scope { owner: node.id(), vars });
        } else if kind == ids.short_var_declaration || kind == ids.assignment_statement {
            self.assignment(node);
        } else if kind == ids.composite_literal {
            self.service_desc(node);
        }
    }

    /// `grpc.ServiceDesc{ServiceName: "pkg.Svc", Methods: []grpc.MethodDesc{{MethodName: "M",
    /// Handler: _Svc_M_Handler}}, Streams: []grpc.StreamDesc{{StreamName: "S", Handler: h}}}`:
    /// a `GRPC /pkg.Svc/M` route per method and stream, handled by its `Handler`.
    fn service_desc(&mut self, lit: Node<'t>) {
        let Some(ty) = lit.child_by_field_name("type") else { return };
        if !self.text(ty).ends_with("ServiceDesc") {
            return;
        }
        let Some(body) = lit.child_by_field_name("body") else { return };
        let fields = keyed_elements(body, self.src);
        let Some(service) = fields
            .iter()
            .find(|(k, _)| *k == "ServiceName")
            .and_then(|(_, v)| literal(*v, self.src))
        else {
            return;
        };
        let service = service.to_string();
        for (list, name_key) in [("Methods", "MethodName"), ("Streams", "StreamName")] {
            let Some((_, list)) = fields.iter().find(|(k, _)| *k == list) else { continue };
            let Some(items) = list.child_by_field_name("body") else { continue };
            for item in named_children(items) {
                // `{MethodName: .., Handler: ..}` (an element whose value is a literal body).
                let Some(value) =
                    named_children(item).into_iter().find(|c| c.kind() == "literal_value")
                else {
                    continue;
                };
                let kv = keyed_elements(value, self.src);
                let (Some(method), Some(handler)) = (
                    kv.iter()
                        .find(|(k, _)| *k == name_key)
                        .and_then(|(_, v)| literal(*v, self.src)),
                    kv.iter().find(|(k, _)| *k == "Handler").map(|(_, v)| *v),
                ) else {
                    continue;
                };
                let Some(path) = path_of(handler, self.src) else { continue };
                let (name, receiver) = match path.split_last() {
                    Some((n, [])) => (n.clone(), Receiver::None),
                    Some((n, rest)) => (n.clone(), Receiver::path(rest.iter().map(String::as_str))),
                    None => continue,
                };
                let h = Handler::Reference(Callee { receiver, name: name.into() });
                let ep = route("grpc", "GRPC", format!("/{service}/{method}"), h);
                self.push(ep, item);
            }
        }
    }

    fn leave(&mut self, node: Node<'t>) {
        if self.scopes.len() > 1 && self.scopes.last().is_some_and(|s| s.owner == node.id()) {
            self.scopes.pop();
        }
    }

    fn first_param(&self, f: Node<'t>) -> Option<&'s str> {
        let list = f.child_by_field_name("parameters")?;
        let decl = named_children(list).into_iter().next()?;
        decl.child_by_field_name("name").map(|n| self.text(n))
    }

    fn lookup(&self, name: &str) -> Option<&Binding<'t>> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.vars.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, b)| b)
    }

    fn bind(&mut self, name: String, b: Binding<'t>) {
        if let Some(s) = self.scopes.last_mut() {
            s.vars.push((name, b));
        }
    }

    /// `v1 := r.Group("/v1")`, `s := r.PathPrefix("/api").Subrouter()`, `r2 := r.With(mw)`,
    /// `tool := mcp.NewTool(...)`.
    fn assignment(&mut self, node: Node<'t>) {
        let (Some(l), Some(r)) =
            (node.child_by_field_name("left"), node.child_by_field_name("right"))
        else {
            return;
        };
        let (ls, rs) = (named_children(l), named_children(r));
        let ([lhs], [rhs]) = (ls.as_slice(), rs.as_slice()) else { return };
        if lhs.kind() != "identifier" || rhs.kind() != "call_expression" {
            return;
        }
        let name = self.text(*lhs).to_string();
        let Some(f) = rhs.child_by_field_name("function") else { return };
        let field = match f.kind() {
            "selector_expression" => f.child_by_field_name("field").map_or("", |x| self.text(x)),
            "identifier" => self.text(f),
            _ => "",
        };
        match field {
            "NewTool" => self.bind(name, Binding::Tool(*rhs)),
            "Group" | "PathPrefix" | "Subrouter" | "With" => {
                let chain = self.chain(*rhs);
                self.bind(name, Binding::Group(chain.group));
            }
            _ => {
                if self.lookup(&name).is_some() {
                    // Rebound to something else: forget its prefix.
                    self.bind(name, Binding::Group(Group::default()));
                }
            }
        }
    }

    /// Follows a receiver expression down to its root: groups, prefixes, `With` middleware and
    /// gorilla `Path` / `Methods` on the way, the root's own binding at the end.
    fn chain(&self, x: Node<'t>) -> Chain {
        let mut segs: Vec<&'s str> = Vec::new();
        let mut mws: Vec<Vec<String>> = Vec::new();
        let mut c = Chain::default();
        let mut cur = x;
        let mut base = Group::default();
        for _ in 0..MAX_CHAIN {
            match cur.kind() {
                "identifier" | "selector_expression" if path_of(cur, self.src).is_some() => {
                    let p = path_of(cur, self.src).unwrap_or_default();
                    base = match self.lookup(&p.join(".")) {
                        Some(Binding::Group(g)) if !g.base.is_empty() => g.clone(),
                        _ => Group { base: p, ..Group::default() },
                    };
                    break;
                }
                "call_expression" => {
                    let Some(f) = cur
                        .child_by_field_name("function")
                        .filter(|f| f.kind() == "selector_expression")
                    else {
                        break;
                    };
                    let (Some(field), Some(op)) =
                        (f.child_by_field_name("field"), f.child_by_field_name("operand"))
                    else {
                        break;
                    };
                    let a = call_args(cur);
                    match self.text(field) {
                        "Group" => {
                            if let Some(p) = a.first().and_then(|p| literal(*p, self.src)) {
                                segs.push(p);
                                mws.push(
                                    a.iter()
                                        .skip(1)
                                        .filter_map(|m| middleware_name(*m, self.src))
                                        .collect(),
                                );
                            }
                        }
                        "PathPrefix" => segs.extend(a.first().and_then(|p| literal(*p, self.src))),
                        "Path" => {
                            c.path =
                                a.first().and_then(|p| literal(*p, self.src)).map(str::to_string)
                        }
                        "Methods" => c.methods.extend(
                            a.iter()
                                .filter_map(|m| literal(*m, self.src))
                                .map(str::to_ascii_uppercase),
                        ),
                        "With" => mws
                            .push(a.iter().filter_map(|m| middleware_name(*m, self.src)).collect()),
                        f if f == "Subrouter" || GORILLA_MODIFIERS.contains(&f) => {}
                        _ => break,
                    }
                    cur = op;
                }
                _ => break,
            }
        }
        let mut prefix = base.prefix.clone();
        for s in segs.iter().rev() {
            prefix.push('/');
            prefix.push_str(s);
        }
        let mut middleware = base.middleware.clone();
        for m in mws.into_iter().rev() {
            middleware.extend(m);
        }
        c.group = Group { prefix, middleware, base: base.base };
        c
    }

    /// Top-level functions and methods of this file by name (the first of a name wins).
    fn decl(&mut self, name: &str) -> Option<Node<'t>> {
        if self.decls.is_none() {
            let mut map = HashMap::new();
            for top in named_children(self.root) {
                if matches!(top.kind(), "function_declaration" | "method_declaration")
                    && let Some(n) = top.child_by_field_name("name")
                {
                    map.entry(text(n, self.src)).or_insert(top);
                }
            }
            self.decls = Some(map);
        }
        self.decls.as_ref().and_then(|m| m.get(name).copied())
    }

    /// The handler `n` names, the function to read its responses from, and the wrappers around
    /// it (`auth(h)` -> middleware `auth`).
    fn handler_of(
        &mut self,
        n: Node<'t>,
        mw: &mut Vec<String>,
        depth: usize,
    ) -> (Handler, Option<Node<'t>>) {
        match n.kind() {
            "func_literal" => {
                self.pending_inline = Some(super::span_of(n));
                (Handler::Inline, Some(n))
            }
            "parenthesized_expression" if depth < MAX_CHAIN => match n.named_child(0) {
                Some(inner) => self.handler_of(inner, mw, depth + 1),
                None => (Handler::Unknown, None),
            },
            "identifier" | "selector_expression" => match callee_of(n, self.src) {
                Some(c) => {
                    let body = self.decl(&c.name);
                    (Handler::Reference(c), body)
                }
                None => (Handler::Unknown, None),
            },
            "call_expression" if depth < MAX_CHAIN => {
                let Some(f) = n.child_by_field_name("function") else {
                    return (Handler::Unknown, None);
                };
                let a = call_args(n);
                let callee = callee_of(f, self.src);
                // `http.HandlerFunc(h)`: a conversion, not a wrapper.
                if callee.as_ref().is_some_and(|c| c.name == "HandlerFunc")
                    && let [only] = a.as_slice()
                {
                    return self.handler_of(*only, mw, depth + 1);
                }
                // `auth(h)`, `auth(func(w, r) {...})`, `auth(s.handleX())`,
                // `http.StripPrefix("/s/", fs)`: a wrapper around its last argument.
                if let [lead @ .., last] = a.as_slice()
                    && lead
                        .iter()
                        .all(|x| literal(*x, self.src).is_some() || x.kind() == "int_literal")
                {
                    let wraps = match last.kind() {
                        "func_literal" => true,
                        // A handler factory (`s.handleX()`) or another wrapper; not a value
                        // made from literals (`http.Dir(".")`).
                        "call_expression" => {
                            let inner = call_args(*last);
                            inner.is_empty() || inner.iter().any(|x| is_handler_like(x.kind()))
                        }
                        "identifier" | "selector_expression" => {
                            callee_of(*last, self.src).is_some_and(|c| self.decl(&c.name).is_some())
                        }
                        _ => false,
                    };
                    if wraps && let Some(name) = middleware_name(n, self.src) {
                        mw.push(name);
                        return self.handler_of(*last, mw, depth + 1);
                    }
                }
                // A factory (`s.handleX()`, `makeHandler(db)`): its code makes the handler.
                match callee {
                    Some(c) => {
                        let body = self.decl(&c.name);
                        (Handler::Reference(c), body)
                    }
                    None => (Handler::Unknown, None),
                }
            }
            _ => (Handler::Unknown, None),
        }
    }

    fn push(&mut self, mut ep: Endpoint, at: Node<'_>) {
        let (line, col) = (start_line(at), start_col(at));
        ep.line = line;
        ep.enclosing = self.enclosing.of(line, col);
        tidy(&mut ep);
        let inline = match ep.handler {
            // Kept, not taken: one registration may give several endpoints (methods).
            Handler::Inline => self.pending_inline,
            _ => None,
        };
        self.out.push(Found { col, ep, inline });
    }

    fn call(&mut self, call: Node<'t>) {
        let Some(f) = call.child_by_field_id(self.ids.f_function) else { return };
        if f.kind_id() != self.ids.selector {
            if (self.imports.gin || self.imports.echo) && f.kind() == "identifier" {
                self.group_passed(call, f, f);
            }
            return;
        }
        let (Some(field), Some(op)) =
            (f.child_by_field_id(self.ids.f_field), f.child_by_field_id(self.ids.f_operand))
        else {
            return;
        };
        let name = self.text(field);
        if matches!(
            name,
            "Get" | "Head" | "Post" | "PostForm" | "NewRequest" | "NewRequestWithContext"
        ) && let Some(http) = &self.imports.net_http
            && op.kind() == "identifier"
            && self.text(op) == http
        {
            self.http_client(field, name, &call_args(call));
            return;
        }
        if matches!(name, "Invoke" | "NewStream" | "NewClientStream") {
            let a = call_args(call);
            // `cc.Invoke(ctx, m, ..)` / `grpc.Invoke(ctx, m, ..)`, `cc.NewStream(ctx, desc, m,
            // ..)`, `grpc.NewClientStream(ctx, desc, cc, m, ..)`.
            let at = match name {
                "Invoke" => 1,
                "NewStream" => 2,
                _ => 3,
            };
            if let Some(m) =
                a.get(at).and_then(|x| literal(*x, self.src)).filter(|m| is_grpc_method(m))
            {
                let (line, col) = (start_line(field), start_col(field));
                let c = ClientCall {
                    client: "grpc".to_string(),
                    method: "GRPC".to_string(),
                    path: m.to_string(),
                    has_base: false,
                    line,
                    enclosing: self.enclosing.of(line, col),
                };
                self.clients.push((col, c));
            }
            return;
        }
        if name == "Mount" && self.imports.chi {
            self.chi_mount(op, field, &call_args(call));
            return;
        }
        let interesting = matches!(
            name,
            "HandleFunc"
                | "Handle"
                | "HandlerFunc"
                | "Handler"
                | "Route"
                | "Group"
                | "Method"
                | "MethodFunc"
                | "AddTool"
        ) || GORILLA_MODIFIERS.contains(&name)
            || UPPER_VERBS.iter().any(|(v, _)| *v == name)
            || CHI_VERBS.iter().any(|(v, _)| *v == name);
        if !interesting {
            if self.imports.gin || self.imports.echo {
                self.group_passed(call, f, field);
            }
            return;
        }
        if self.done.contains(&call.id()) {
            return;
        }
        let a = call_args(call);
        match name {
            "HandleFunc" | "Handle" => self.handle(op, field, &a, Vec::new()),
            "HandlerFunc" | "Handler" => self.gorilla_route(op, field, &a),
            m if GORILLA_MODIFIERS.contains(&m) => self.gorilla_head(call),
            "Route" if self.imports.chi => self.chi_route(op, field, &a),
            "Group" if self.imports.chi => {
                if let Some(fl) = a.iter().find(|x| x.kind() == "func_literal") {
                    let g = self.chain(op).group;
                    self.seeds.insert(fl.id(), g);
                }
            }
            "Method" | "MethodFunc" if self.imports.chi => {
                if let (Some(m), Some(p)) = (
                    a.first().and_then(|x| literal(*x, self.src)),
                    a.get(1).and_then(|x| literal(*x, self.src)),
                ) {
                    let m = m.to_ascii_uppercase();
                    self.verb(op, field, "chi", &m, p, a.get(2..).unwrap_or(&[]), false);
                }
            }
            "AddTool" => self.add_tool(field, &a),
            _ => {
                if let Some((_, m)) = UPPER_VERBS.iter().find(|(v, _)| *v == name) {
                    let echo = self.imports.echo && !self.imports.gin;
                    let framework = if echo { "echo" } else { "gin" };
                    if let Some(p) = a.first().and_then(|x| self.string_arg(*x)) {
                        self.verb(op, field, framework, m, &p, &a[1..], echo);
                    }
                } else if self.imports.chi
                    && let Some((_, m)) = CHI_VERBS.iter().find(|(v, _)| *v == name)
                    && let Some(p) = a.first().and_then(|x| self.string_arg(*x))
                {
                    self.verb(op, field, "chi", m, &p, &a[1..], false);
                }
            }
        }
    }

    /// A route `op.<verb>(path, handlers...)`. gin and chi take the handler last (middleware
    /// before it); echo takes it first (route middleware after it).
    #[allow(clippy::too_many_arguments)]
    fn verb(
        &mut self,
        op: Node<'t>,
        at: Node<'t>,
        framework: &str,
        method: &str,
        path: &str,
        rest: &[Node<'t>],
        handler_first: bool,
    ) {
        if !is_route_path(path) {
            return;
        }
        let mut hs: Vec<Node<'t>> =
            rest.iter().copied().filter(|x| is_handler_like(x.kind())).collect();
        if hs.is_empty() {
            return;
        }
        let h = if handler_first { Some(hs.remove(0)) } else { hs.pop() };
        let Some(h) = h else { return };
        let chain = self.chain(op);
        let mut mw = chain.group.middleware.clone();
        mw.extend(hs.iter().filter_map(|x| middleware_name(*x, self.src)));
        let (handler, body) = self.handler_of(h, &mut mw, 0);
        let mut ep = route(framework, method, join_path(&chain.group.prefix, path), handler);
        ep.middleware = mw;
        ep.receiver = chain.group.base;
        self.responses(body, &mut ep);
        self.push(ep, at);
    }

    /// `x.HandleFunc(pattern, h)` / `x.Handle(pattern, h)`: net/http (Go 1.22 patterns),
    /// gorilla/mux (with `methods` from a `.Methods(...)` chain), chi; gin's
    /// `Handle("GET", "/p", h...)`.
    fn handle(&mut self, op: Node<'t>, at: Node<'t>, a: &[Node<'t>], methods: Vec<String>) {
        let Some(first) = a.first().and_then(|x| self.string_arg(*x)) else {
            self.handle_named_path(op, at, a, methods);
            return;
        };
        let first = first.as_str();
        // grpc-gateway: Handle(method, pattern variable, handler)
        if let Some(p) = a
            .get(1)
            .filter(|x| x.kind() == "identifier")
            .and_then(|x| self.patterns.get(self.text(*x)))
            && !first.is_empty()
            && first.chars().all(|c| c.is_ascii_uppercase())
        {
            let p = p.clone();
            self.verb(op, at, "grpc-gateway", first, &p, &a[2..], false);
            return;
        }
        // gin: Handle(method, path, handlers...)
        if let Some(p) = a.get(1).and_then(|x| self.string_arg(*x)) {
            let p = p.as_str();
            if !first.is_empty() && first.chars().all(|c| c.is_ascii_uppercase()) {
                self.verb(op, at, "gin", first, p, &a[2..], false);
            }
            return;
        }
        let chain = self.chain(op);
        let root_is_http = chain.group.base.len() == 1 && chain.group.base[0] == "http";
        let framework = if root_is_http {
            "net/http"
        } else if self.imports.gorilla {
            "gorilla/mux"
        } else if self.imports.chi {
            "chi"
        } else {
            "net/http"
        };
        let (method, path) = split_pattern(framework, "ANY", first);
        if !is_route_path(path) {
            return;
        }
        let Some(h) = a.get(1..).and_then(|r| r.iter().rev().find(|x| is_handler_like(x.kind())))
        else {
            return;
        };
        let mut mw = chain.group.middleware.clone();
        let (handler, body) = self.handler_of(*h, &mut mw, 0);
        let full = join_path(&chain.group.prefix, path);
        let methods = if methods.is_empty() { vec![method] } else { methods };
        for m in methods {
            let mut ep = route(framework, &m, full.clone(), handler.clone());
            ep.middleware = mw.clone();
            ep.receiver = chain.group.base.clone();
            self.responses(body, &mut ep);
            self.push(ep, at);
        }
    }

    /// `mux.Handle(rafthttp.RaftPrefix+"/", h)`: a path made of constants declared in other
    /// files. Recorded with its pieces (and the framework's pattern rules applied once
    /// resolution has the text); a single local name (a parameter, a loop variable) is left
    /// to resolution too, which finds no such constant and drops it.
    fn handle_named_path(
        &mut self,
        op: Node<'t>,
        at: Node<'t>,
        a: &[Node<'t>],
        methods: Vec<String>,
    ) {
        let (Some(p), Some(h)) = (a.first(), a.get(1)) else { return };
        if a.len() != 2 || !is_handler_like(h.kind()) {
            return;
        }
        let mut pieces = Vec::new();
        if self.path_pieces(*p, &mut pieces, 0).is_none()
            || !pieces.iter().any(|x| matches!(x, PathPiece::Name(_)))
        {
            return;
        }
        let chain = self.chain(op);
        let root_is_http = chain.group.base.len() == 1 && chain.group.base[0] == "http";
        let framework = if root_is_http || !(self.imports.gorilla || self.imports.chi) {
            "net/http"
        } else if self.imports.gorilla {
            "gorilla/mux"
        } else {
            "chi"
        };
        if !chain.group.prefix.is_empty() {
            pieces.insert(0, PathPiece::Text(chain.group.prefix.clone()));
        }
        let mut mw = chain.group.middleware.clone();
        let (handler, body) = self.handler_of(*h, &mut mw, 0);
        let methods = if methods.is_empty() { vec!["ANY".to_string()] } else { methods };
        for m in methods {
            let mut ep = route(framework, &m, String::new(), handler.clone());
            ep.path_expr = pieces.clone();
            ep.middleware = mw.clone();
            ep.receiver = chain.group.base.clone();
            self.responses(body, &mut ep);
            self.push(ep, at);
        }
    }
}

/// (operand, field) of a call of a selector, `x.M(...)`; `None` for any other call.
fn selector_call(call: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let f = call.child_by_field_name("function").filter(|f| f.kind() == "selector_expression")?;
    Some((f.child_by_field_name("operand")?, f.child_by_field_name("field")?))
}

#[cfg(test)]
mod grammar_test {
    #[test]
    fn every_grammar_name_exists() {
        let grammars: [tree_sitter::Language; 1] = [tree_sitter_go::LANGUAGE.into()];
        assert_eq!(crate::grammar::missing(super::Ids::NAMES, &grammars), Vec::<&str>::new());
    }
}
