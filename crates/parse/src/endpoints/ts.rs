//! TS/JS endpoint readers: Express-shaped routers (Express, Hono, Koa router, Fastify
//! shorthand: `x.get('/p', ...handlers)`), `x.route('/p').get(h)` chains, Fastify's
//! `x.route({ method, url, handler })`, NestJS and LoopBack controller decorators, and MCP tools
//! (`server.tool`, `server.registerTool`, fastmcp `server.addTool`, low-level
//! `setRequestHandler(CallToolRequestSchema, ...)` dispatch on the tool name).
//!
//! Only the shapes are read, never types: a call is a route when its method is an HTTP verb,
//! its first argument a literal path and at least one handler-like argument follows; HTTP
//! clients of the same shape (`axios.post('/u', body)`) are told apart by their receiver name
//! and by their result being used (awaited, returned, `.then`-chained).
//!
//! Mounts: Express / Koa `x.use('/p', ...mw, router)` (Koa's `sub.routes()` names `sub`), Hono
//! `x.route('/p', sub)`, Fastify `x.register(plugin, { prefix: '/p' })`. Client calls: `fetch`
//! (`window.fetch`, `$fetch`, `ofetch`), `axios` (verbs, `request`, `axios(config)`, instances
//! from `axios.create`), `ky`, `got`, `superagent`, with a URL built from literals, templates
//! and `+` concatenations.

use super::{
    Enclosing, Extracted, Found, Piece, client_path, join_path, normalize_path, route,
    status_by_name, status_literal, tidy, tool,
};
use crate::facts::{
    Callee, ClientCall, Endpoint, FileFacts, Handler, HintSource, Mount, Receiver, SymbolIdx,
};
use crate::typescript::shapes::{
    callee_of, dotted, first_named, is_function_expr, path_of, prop_name, string_content,
    unwrap_expr,
};
use crate::util::{start_col, start_line, text};
use codegraph_schema::NodeKind;
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

/// Router methods of the Express shape (`all` registers every method, `del` is Koa router's
/// `delete`).
const VERBS: &[&str] = &["get", "post", "put", "delete", "del", "patch", "options", "head", "all"];

/// Receivers whose verb calls are HTTP clients, not routers.
const CLIENTS: &[&str] = &[
    "axios",
    "$",
    "jQuery",
    "http",
    "https",
    "httpClient",
    "$http",
    "client",
    "superagent",
    "got",
    "ky",
    "request",
    "supertest",
];

/// HTTP client libraries called by name (`axios(...)`, `axios.get(...)`), and whose
/// `create` / `extend` makes an instance with a base URL.
const CLIENT_LIBS: &[&str] = &["axios", "ky", "got", "superagent", "ofetch"];

/// Whether a type or variable name names a router or an app (`Express`, `express.Router`,
/// `FastifyInstance`, `Hono`, `Application`, `KoaRouter`, `app`, `routes`, `server`...) and
/// no client.
fn names_a_router(t: &str) -> bool {
    let t = t.to_ascii_lowercase();
    !t.contains("client")
        && ["route", "app", "express", "hono", "fastify", "koa", "server", "instance", "elysia"]
            .iter()
            .any(|w| t.contains(w))
}

/// Whether a call makes a router or app: its name or receiver names one (`express()`,
/// `express.Router()`, `Fastify()`, `new Hono()`, `buildApp()`, `app.withTypeProvider()`).
fn callee_names_a_router(c: &Callee) -> bool {
    names_a_router(&c.name)
        || match &c.receiver {
            Receiver::Path(p) => p.iter().any(|s| names_a_router(s)),
            Receiver::CallResult(inner) => callee_names_a_router(inner),
            _ => false,
        }
}

/// Whether a call makes an HTTP client (`createClient()`, `axios.create()`, `ky.extend()`).
fn callee_names_a_client(c: &Callee) -> bool {
    c.name.to_ascii_lowercase().contains("client")
        || match &c.receiver {
            Receiver::Path(p) => p.first().is_some_and(|l| {
                CLIENT_LIBS.contains(&l.as_str()) || CLIENTS.contains(&l.as_str())
            }),
            _ => false,
        }
}

/// Calls that hand a router to the function they are given (`app.register((f) => ...)`).
fn plugin_call(name: &str) -> bool {
    matches!(name, "register" | "use" | "route" | "group" | "plugin")
}

/// Whether `name`, seen at `at`, is a parameter of an enclosing function that is passed to a
/// plugin call (`fastify.register(function (f, opts, done) { f.get(...) })`). The innermost
/// function that binds the name decides.
fn plugin_parameter(at: Node<'_>, name: &str, src: &str) -> bool {
    let mut n = at.parent();
    for _ in 0..256 {
        let Some(f) = n else { return false };
        if is_function_like(f.kind()) && binds_parameter(f, name, src) {
            let call = f.parent().filter(|a| a.kind() == "arguments").and_then(|a| a.parent());
            let callee = call
                .and_then(|c| c.child_by_field_name("function"))
                .and_then(|func| callee_of(unwrap_expr(func), src))
                .map(|(c, _)| c.name);
            return callee.is_some_and(|c| plugin_call(&c));
        }
        n = f.parent();
    }
    false
}

/// Whether function `f` has a parameter named `name` (plain, typed, defaulted or rest).
fn binds_parameter(f: Node<'_>, name: &str, src: &str) -> bool {
    if let Some(p) = f.child_by_field_name("parameter") {
        return text(p, src) == name;
    }
    let Some(params) = f.child_by_field_name("parameters") else { return false };
    named_children(params).into_iter().any(|p| {
        let id = match p.kind() {
            "identifier" => Some(p),
            "required_parameter" | "optional_parameter" => p.child_by_field_name("pattern"),
            "assignment_pattern" => p.child_by_field_name("left"),
            "rest_pattern" => first_named(p),
            _ => None,
        };
        id.is_some_and(|i| i.kind() == "identifier" && text(i, src) == name)
    })
}

/// The call a chain of calls is rooted at: `fastify()` in `fastify().get(...)` and in
/// `fastify().register(p).get(...)`.
fn chain_root_call(obj: Node<'_>, src: &str) -> Option<Callee> {
    let mut o = unwrap_expr(obj);
    for _ in 0..32 {
        if o.kind() != "call_expression" {
            return None;
        }
        let f = unwrap_expr(o.child_by_field_name("function")?);
        if f.kind() == "member_expression" {
            o = unwrap_expr(f.child_by_field_name("object")?);
        } else {
            return callee_of(f, src).map(|(c, _)| c);
        }
    }
    None
}

/// Client methods named after the HTTP method they send.
const CLIENT_VERBS: &[&str] = &["get", "post", "put", "delete", "patch", "head", "options"];

/// Fastify route options that hold hooks running before the handler.
const HOOKS: &[&str] = &["onRequest", "preParsing", "preValidation", "preHandler", "beforeHandler"];

/// How deep the readers follow wrappers (`h.bind(h)`, `z.object({}).strict()`, a schema named
/// by a constant) before giving up.
const MAX_DEPTH: u32 = 8;

/// Most nodes a response scan visits in one handler.
const MAX_SCAN: usize = 20_000;

/// Reads the endpoints of the top-level statements `regions` of the tree rooted at `root`.
pub(super) fn extract<'t>(
    src: &str,
    root: Node<'t>,
    regions: &[Node<'t>],
    facts: &FileFacts,
) -> Extracted {
    let mut cx = Cx {
        src,
        ids: Ids::of(root.language()),
        facts,
        root,
        enclosing: Enclosing::new(facts),
        web: web_framework(facts),
        done: HashSet::new(),
        out: Vec::new(),
        pending_inline: None,
        decls: None,
        low_level: Vec::new(),
        mounts: Vec::new(),
        clients: Vec::new(),
        instances: HashMap::new(),
    };
    for region in regions {
        // A cursor made at a node never climbs above it.
        let mut cursor = region.walk();
        'walk: loop {
            let node = cursor.node();
            let kind = node.kind_id();
            if kind == cx.ids.call {
                cx.call(node);
            } else if kind == cx.ids.class_declaration
                || kind == cx.ids.abstract_class_declaration
                || kind == cx.ids.class
            {
                cx.class(node);
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
    }
    cx.fill_listed_tools();
    Extracted { endpoints: cx.out, mounts: cx.mounts, clients: cx.clients }
}

/// The router framework the file's imports name; `express` for any other file of that shape.
fn web_framework(facts: &FileFacts) -> &'static str {
    for i in &facts.imports {
        match i.source.as_str() {
            s if s == "hono" || s.starts_with("hono/") => return "hono",
            "@koa/router" | "koa-router" => return "koa",
            "fastify" => return "fastify",
            _ => {}
        }
    }
    "express"
}

/// Node-kind and field ids of the file's grammar (TypeScript, TSX and JavaScript number them
/// differently), so the walk compares integers and reads fields without name lookups. A name
/// the grammar lacks gets id 0, which no node of a tree has.
struct Ids {
    call: u16,
    class_declaration: u16,
    abstract_class_declaration: u16,
    class: u16,
    member: u16,
    f_function: u16,
    f_object: u16,
    f_property: u16,
}

impl Ids {
    fn of(lang: tree_sitter::LanguageRef<'_>) -> Self {
        let kind = |k: &str| lang.id_for_node_kind(k, true);
        let field = |f: &str| lang.field_id_for_name(f).map_or(0, |f| f.get());
        Ids {
            call: kind("call_expression"),
            class_declaration: kind("class_declaration"),
            abstract_class_declaration: kind("abstract_class_declaration"),
            class: kind("class"),
            member: kind("member_expression"),
            f_function: field("function"),
            f_object: field("object"),
            f_property: field("property"),
        }
    }
}

struct Cx<'s, 'f, 't> {
    src: &'s str,
    ids: Ids,
    facts: &'f FileFacts,
    root: Node<'t>,
    enclosing: Enclosing<'f>,
    web: &'static str,
    /// Calls already read as part of an outer chain.
    done: HashSet<usize>,
    out: Vec<Found>,
    /// The span of the handler written in place that `handler_of` found last: the endpoints
    /// pushed next with an inline handler are its.
    pending_inline: Option<super::Span>,
    /// Top-level declarations by name (functions, and the values of `const x = ...`), built on
    /// first use.
    decls: Option<HashMap<&'s str, Node<'t>>>,
    /// Indices in `out` of tools found by a low-level `CallToolRequestSchema` dispatch.
    low_level: Vec<usize>,
    mounts: Vec<(u32, Mount)>,
    clients: Vec<(u32, ClientCall)>,
    /// Whether a name is a client instance (`const api = axios.create(...)`): its library.
    instances: HashMap<&'s str, Option<&'static str>>,
}

/// The named, non-comment arguments of a call.
fn args(call: Node<'_>) -> Vec<Node<'_>> {
    let Some(a) = call.child_by_field_name("arguments").filter(|a| a.kind() == "arguments") else {
        return Vec::new();
    };
    let mut cursor = a.walk();
    a.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

/// A string literal, or a template literal without substitutions, without its quotes.
fn literal<'s>(n: Node<'_>, src: &'s str) -> Option<&'s str> {
    let n = unwrap_expr(n);
    match n.kind() {
        "string" => Some(string_content(n, src)),
        "template_string" => {
            let mut cursor = n.walk();
            let subst = n.named_children(&mut cursor).any(|c| c.kind() == "template_substitution");
            (!subst).then(|| string_content(n, src))
        }
        _ => None,
    }
}

/// The HTTP method a router verb registers.
fn verb_method(verb: &str) -> String {
    match verb {
        "all" => "ANY".to_string(),
        "del" => "DELETE".to_string(),
        v => v.to_ascii_uppercase(),
    }
}

fn is_route_path(p: &str) -> bool {
    p.is_empty() || p.starts_with('/') || p == "*"
}

/// Function-like nodes: expressions, declarations, and methods (`execute(args) {}`).
fn is_function_like(kind: &str) -> bool {
    is_function_expr(kind)
        || matches!(kind, "function_declaration" | "generator_function_declaration")
        || kind == "method_definition"
}

/// An argument that can be a handler or middleware.
fn is_handler_like(kind: &str) -> bool {
    is_function_expr(kind) || matches!(kind, "identifier" | "member_expression" | "call_expression")
}

/// The identifier path a call chain is rooted at: `app` in `app.get(...)`,
/// `app.route('/p').get(...)`, `this.router` in `this.router.get(...)`; empty for anything else.
fn base_path(obj: Node<'_>, src: &str) -> Vec<String> {
    let mut o = unwrap_expr(obj);
    for _ in 0..32 {
        match o.kind() {
            "call_expression" => match o.child_by_field_name("function").map(unwrap_expr) {
                Some(f) if f.kind() == "member_expression" => {
                    match f.child_by_field_name("object") {
                        Some(inner) => o = unwrap_expr(inner),
                        None => return Vec::new(),
                    }
                }
                _ => return Vec::new(),
            },
            "identifier" | "this" => return vec![text(o, src).to_string()],
            "member_expression" => return path_of(o, src).unwrap_or_default(),
            _ => return Vec::new(),
        }
    }
    Vec::new()
}

/// The value of property `key` of an object literal: a pair's value, a shorthand identifier,
/// or a method definition (`handler(req, reply) {}`).
fn member<'t>(obj: Node<'t>, key: &str, src: &str) -> Option<Node<'t>> {
    for c in named_children(obj) {
        let named =
            |field: &str| c.child_by_field_name(field).is_some_and(|k| prop_name(k, src) == key);
        match c.kind() {
            "pair" if named("key") => return c.child_by_field_name("value"),
            "shorthand_property_identifier" if text(c, src) == key => return Some(c),
            "method_definition" if named("name") => return Some(c),
            _ => {}
        }
    }
    None
}

/// The keys of an object literal, in source order (computed keys and spreads skipped).
fn object_keys(obj: Node<'_>, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for c in named_children(obj) {
        let key = match c.kind() {
            "pair" | "method_definition" => {
                c.child_by_field_name("key").or_else(|| c.child_by_field_name("name"))
            }
            "shorthand_property_identifier" => Some(c),
            _ => None,
        };
        if let Some(k) = key.filter(|k| k.kind() != "computed_property_name") {
            out.push(prop_name(k, src));
        }
    }
    out
}

/// A status code from a numeric literal or a named constant (`HttpStatus.CREATED`).
fn status_of(n: Node<'_>, src: &str) -> Option<u16> {
    let n = unwrap_expr(n);
    match n.kind() {
        "number" => status_literal(text(n, src)),
        "member_expression" => status_by_name(&dotted(text(n, src))),
        _ => None,
    }
}

/// How a middleware argument is named: as written (`auth`, `auth.required`), a call or `new`
/// by its callee (`rateLimit(10)` -> `rateLimit`), an inline function as `<inline>`.
fn middleware_name(n: Node<'_>, src: &str) -> Option<String> {
    let n = unwrap_expr(n);
    match n.kind() {
        "identifier" | "member_expression" => Some(dotted(text(n, src))),
        "call_expression" => {
            let f = unwrap_expr(n.child_by_field_name("function")?);
            match f.kind() {
                "identifier" | "member_expression" => Some(dotted(text(f, src))),
                _ => callee_of(f, src).map(|(c, _)| c.name),
            }
        }
        "new_expression" => n.child_by_field_name("constructor").map(|c| dotted(text(c, src))),
        k if is_function_expr(k) => Some("<inline>".to_string()),
        _ => None,
    }
}

/// Whether a verb call's result is consumed the way a client's response is: awaited, returned
/// or the body of an arrow function (`.then` chains: [`Cx::client_use`]).
fn used_like_a_client(call: Node<'_>) -> bool {
    let mut child = call;
    let mut parent = call.parent();
    // Parentheses and type assertions (`return x.post(...) as APIPromise<T>`) keep the value.
    while let Some(p) = parent.filter(|p| {
        matches!(
            p.kind(),
            "parenthesized_expression"
                | "as_expression"
                | "satisfies_expression"
                | "non_null_expression"
        )
    }) {
        child = p;
        parent = p.parent();
    }
    let Some(p) = parent else { return false };
    match p.kind() {
        "await_expression" | "return_statement" => true,
        "arrow_function" => p.child_by_field_name("body").is_some_and(|b| b.id() == child.id()),
        _ => false,
    }
}

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    fn text(&self, n: Node<'_>) -> &'s str {
        text(n, self.src)
    }

    /// Records an endpoint registered at `at` (its line and column also find the enclosing
    /// symbol, unless `enclosing` is given).
    fn push(&mut self, mut ep: Endpoint, at: Node<'_>, enclosing: Option<Option<SymbolIdx>>) {
        let (line, col) = (start_line(at), start_col(at));
        ep.line = line;
        ep.enclosing = match enclosing {
            Some(e) => e,
            None => self.enclosing.of(line, col),
        };
        tidy(&mut ep);
        let inline = match ep.handler {
            // Kept, not taken: one registration may give several endpoints (methods).
            Handler::Inline => self.pending_inline,
            _ => None,
        };
        self.out.push(Found { col, ep, inline });
    }

    /// Top-level functions and constants by name.
    fn decl(&mut self, name: &str) -> Option<Node<'t>> {
        if self.decls.is_none() {
            let mut map = HashMap::new();
            for top in named_children(self.root) {
                let stmt = if top.kind() == "export_statement" {
                    match top.child_by_field_name("declaration") {
                        Some(d) => d,
                        None => continue,
                    }
                } else {
                    top
                };
                match stmt.kind() {
                    "function_declaration" | "generator_function_declaration" => {
                        if let Some(n) = stmt.child_by_field_name("name") {
                            map.entry(text(n, self.src)).or_insert(stmt);
                        }
                    }
                    "lexical_declaration" | "variable_declaration" => {
                        for d in named_children(stmt) {
                            if d.kind() != "variable_declarator" {
                                continue;
                            }
                            if let (Some(n), Some(v)) =
                                (d.child_by_field_name("name"), d.child_by_field_name("value"))
                                && n.kind() == "identifier"
                            {
                                map.entry(text(n, self.src)).or_insert(unwrap_expr(v));
                            }
                        }
                    }
                    "enum_declaration" => {
                        if let Some(n) = stmt.child_by_field_name("name") {
                            map.entry(text(n, self.src)).or_insert(stmt);
                        }
                    }
                    _ => {}
                }
            }
            self.decls = Some(map);
        }
        self.decls.as_ref().and_then(|m| m.get(name).copied())
    }

    /// A same-file function declared at top level under `name`.
    fn function(&mut self, name: &str) -> Option<Node<'t>> {
        self.decl(name).filter(|n| is_function_like(n.kind()))
    }

    /// The symbol the walk made for a named function expression at `line`.
    fn symbol_named(&self, name: &str, line: u32) -> Option<SymbolIdx> {
        let i = self.facts.symbols.iter().position(|s| {
            s.name == name
                && s.start_line == line
                && matches!(s.kind, NodeKind::Function | NodeKind::Method)
        })?;
        u32::try_from(i).ok()
    }

    /// What handles a route or tool given as `n`, and the function to read responses from.
    fn handler_of(&mut self, n: Node<'t>, depth: u32) -> (Handler, Option<Node<'t>>) {
        let n = unwrap_expr(n);
        match n.kind() {
            k if is_function_like(k) => {
                let named = (k != "arrow_function" && k != "method_definition")
                    .then(|| n.child_by_field_name("name"))
                    .flatten()
                    .and_then(|name| self.symbol_named(self.text(name), start_line(n)));
                if named.is_none() {
                    self.pending_inline = Some(super::span_of(n));
                }
                (named.map_or(Handler::Inline, Handler::Symbol), Some(n))
            }
            "identifier" | "member_expression" | "shorthand_property_identifier" => {
                let callee = if n.kind() == "shorthand_property_identifier" {
                    Some(Callee { receiver: Receiver::None, name: self.text(n).to_string() })
                } else {
                    callee_of(n, self.src).map(|(c, _)| c)
                };
                match callee {
                    Some(c) => {
                        let body = match c.receiver {
                            Receiver::None => self.function(&c.name),
                            _ => None,
                        };
                        (Handler::Reference(c), body)
                    }
                    None => (Handler::Unknown, None),
                }
            }
            "call_expression" if depth < MAX_DEPTH => {
                let func = n.child_by_field_name("function").map(unwrap_expr);
                // `controller.get.bind(controller)`: the bound method.
                if let Some(f) = func.filter(|f| f.kind() == "member_expression")
                    && f.child_by_field_name("property").is_some_and(|p| self.text(p) == "bind")
                    && let Some(o) = f.child_by_field_name("object")
                {
                    return self.handler_of(o, depth + 1);
                }
                let a = args(n);
                // `asyncHandler(async (req, res) => ...)`: the wrapped function.
                if let Some(f) = a.iter().rev().find(|x| is_function_expr(unwrap_expr(**x).kind()))
                {
                    return self.handler_of(*f, depth + 1);
                }
                // `wrap(getUser)` with `getUser` declared here.
                if let [only] = a.as_slice() {
                    let only = unwrap_expr(*only);
                    if only.kind() == "identifier" && self.function(self.text(only)).is_some() {
                        return self.handler_of(only, depth + 1);
                    }
                }
                // A factory (`makeHandler(db)`): its code makes the handler.
                match func.and_then(|f| callee_of(f, self.src)) {
                    Some((c, _)) => {
                        let body = match c.receiver {
                            Receiver::None => self.function(&c.name),
                            _ => None,
                        };
                        (Handler::Reference(c), body)
                    }
                    None => (Handler::Unknown, None),
                }
            }
            _ => (Handler::Unknown, None),
        }
    }

    fn call(&mut self, call: Node<'t>) {
        // Most calls are not registrations: decide on the method name with integer compares.
        let Some(mut func) = call.child_by_field_id(self.ids.f_function) else {
            return;
        };
        if func.kind_id() != self.ids.member {
            func = unwrap_expr(func);
            if func.kind() == "identifier" {
                self.client_function(call, func);
                return;
            }
            if func.kind_id() != self.ids.member {
                return;
            }
        }
        let (Some(obj), Some(prop)) = (
            func.child_by_field_id(self.ids.f_object),
            func.child_by_field_id(self.ids.f_property),
        ) else {
            return;
        };
        let name = self.text(prop);
        if !(VERBS.contains(&name)
            || matches!(
                name,
                "route"
                    | "tool"
                    | "registerTool"
                    | "addTool"
                    | "setRequestHandler"
                    | "use"
                    | "register"
                    | "request"
                    | "fetch"
            ))
            || self.done.contains(&call.id())
        {
            return;
        }
        let a = args(call);
        if self.client_method(obj, prop, name, &a) {
            return;
        }
        match name {
            verb if VERBS.contains(&verb) => {
                let path_first = self.verb_call(call, verb, obj, prop, &a);
                if !path_first {
                    self.route_chain(call);
                }
            }
            "route" if a.len() == 2 => self.hono_mount(obj, prop, &a),
            "route" => self.fastify_route(obj, prop, &a),
            "use" => self.use_mount(obj, prop, &a),
            "register" => self.fastify_mount(obj, prop, &a),
            "tool" => self.sdk_tool(prop, &a),
            "registerTool" => self.register_tool(prop, &a),
            "addTool" => self.fastmcp_tool(prop, &a),
            "setRequestHandler" => self.low_level_tools(prop, &a),
            _ => {}
        }
    }

    /// `x.verb('/path', ...handlers)`. Returns whether the first argument was a literal (so
    /// this is no `route('/p')` chain), whether or not a route was recorded.
    fn verb_call(
        &mut self,
        call: Node<'t>,
        verb: &str,
        obj: Node<'t>,
        prop: Node<'t>,
        a: &[Node<'t>],
    ) -> bool {
        let Some(first) = a.first().and_then(|f| literal(*f, self.src)) else {
            return false;
        };
        let (path, rest) = if is_route_path(first) {
            (first, a.get(1..).unwrap_or(&[]))
        } else {
            // Koa router's named routes: `router.get('user', '/users/:id', handler)`.
            match a.get(1).and_then(|s| literal(*s, self.src)) {
                Some(p) if self.web == "koa" && is_route_path(p) => (p, a.get(2..).unwrap_or(&[])),
                _ => return true,
            }
        };
        let (mut handlers, options) = self.split_args(rest);
        let opt_handler = options.iter().find_map(|o| member(*o, "handler", self.src));
        let inline = handlers.iter().any(|h| is_function_expr(h.kind()));
        if handlers.is_empty() && opt_handler.is_none() {
            return true;
        }
        let base = base_path(obj, self.src);
        if base.last().is_some_and(|b| CLIENTS.contains(&b.as_str()))
            || (!inline && self.client_use(call))
            || !self.receiver_is_router(&base, obj, prop)
        {
            return true;
        }
        let handler_node = match handlers.pop() {
            Some(h) => h,
            None => match opt_handler {
                Some(h) => h,
                None => return true,
            },
        };
        let mut mw: Vec<String> =
            handlers.iter().filter_map(|h| middleware_name(*h, self.src)).collect();
        mw.extend(self.hooks(&options));
        let (handler, body) = self.handler_of(handler_node, 0);
        let method = verb_method(verb);
        let mut ep = route(self.web, &method, normalize_path(path), handler);
        ep.middleware = mw;
        ep.receiver = base;
        self.responses(body, &mut ep);
        self.push(ep, prop, None);
        true
    }

    /// Whether the receiver of a registration is known to be a router or app. Routes come from
    /// routers; an SDK's HTTP client of the same shape (`this._client.post(path, opts)`) is
    /// not one. The evidence, strongest first:
    /// - the receiver's declaration: annotated (`app: Express`, `instance: T` with `T` a type
    ///   parameter) or constructed (`new Hono()`) with a type that names a router or app, or
    ///   initialised by a call that does (`express()`, `express.Router()`, `Fastify()`);
    ///   a type or call that names none (`private _client: OpenAI`, `createClient()`) says no;
    /// - a parameter of a function handed to a plugin or mount call (`app.register((f) => ...)`,
    ///   `router.use(...)`, `app.route(...)`): the framework passes it a router;
    /// - a chain rooted at a call that names a router (`fastify().get(...)`);
    /// - otherwise the receiver's own name must name one (`app`, `router`, `server`,
    ///   `fastify`, `instance`, `routes`...).
    fn receiver_is_router(&mut self, base: &[String], obj: Node<'t>, at: Node<'t>) -> bool {
        let Some(first) = base.first() else {
            return chain_root_call(obj, self.src).is_some_and(|c| callee_names_a_router(&c));
        };
        let enclosing = self.enclosing.of(start_line(at), start_col(at));
        let symbols = &self.facts.symbols;
        let parent = |i: SymbolIdx| symbols.get(i as usize).and_then(|s| s.parent);
        let is_class =
            |i: SymbolIdx| symbols.get(i as usize).is_some_and(|s| s.kind == NodeKind::Class);
        // `this.x`: a field of the class around the registration; `x`: a local or module name.
        let (name, scopes): (&str, Vec<Option<SymbolIdx>>) = if first == "this" {
            let Some(field) = base.get(1) else { return false };
            let mut s = enclosing;
            let mut class = None;
            for _ in 0..16 {
                match s {
                    Some(i) if is_class(i) => {
                        class = Some(i);
                        break;
                    }
                    Some(i) => s = parent(i),
                    None => break,
                }
            }
            match class {
                Some(c) => (field.as_str(), vec![Some(c)]),
                None => return names_a_router(field),
            }
        } else {
            let mut chain = Vec::new();
            let mut s = enclosing;
            for _ in 0..16 {
                chain.push(s);
                match s {
                    Some(i) => s = parent(i),
                    None => break,
                }
            }
            (first.as_str(), chain)
        };
        // The innermost scope that declares the name decides; within it, the latest hint
        // before the registration.
        let line = start_line(at);
        let declared = scopes.iter().find_map(|scope| {
            self.facts
                .type_hints
                .iter()
                .filter(|h| h.scope == *scope && h.name == name && h.line <= line)
                .rfind(|h| !matches!(h.source, HintSource::Return(_)))
        });
        // A type parameter (`instance: T` in `function plugin<T extends FastifyInstance>`)
        // says nothing by its name.
        let type_parameter = |t: &str| {
            let mut s = enclosing;
            for _ in 0..16 {
                let Some(i) = s else { return false };
                let Some(sym) = symbols.get(i as usize) else { return false };
                if sym.signature.contains(&format!("<{t}"))
                    || sym.signature.contains(&format!(", {t}"))
                {
                    return true;
                }
                s = sym.parent;
            }
            false
        };
        let by_name = names_a_router(name);
        match declared.map(|h| &h.source) {
            Some(HintSource::Annotation(t)) => names_a_router(t) || type_parameter(t),
            Some(HintSource::Construct(t)) => names_a_router(t),
            Some(HintSource::CallResult(c)) => {
                callee_names_a_router(c) || (by_name && !callee_names_a_client(c))
            }
            Some(HintSource::Callback { callee, .. }) => plugin_call(&callee.name) || by_name,
            _ => by_name || plugin_parameter(at, name, self.src),
        }
    }

    /// Whether the call's result is used like a client response (see [`used_like_a_client`]).
    fn client_use(&self, call: Node<'t>) -> bool {
        if used_like_a_client(call) {
            return true;
        }
        // `.then(...)`: the call is the object of a member whose property is a promise method.
        let Some(p) = call.parent() else { return false };
        p.kind() == "member_expression"
            && p.child_by_field_name("object").is_some_and(|o| o.id() == call.id())
            && p.child_by_field_name("property")
                .is_some_and(|prop| matches!(self.text(prop), "then" | "catch" | "finally"))
    }

    /// Route arguments after the path: handler-like ones in order (arrays flattened), and
    /// option objects.
    fn split_args(&self, rest: &[Node<'t>]) -> (Vec<Node<'t>>, Vec<Node<'t>>) {
        let (mut handlers, mut options) = (Vec::new(), Vec::new());
        for a in rest {
            let a = unwrap_expr(*a);
            match a.kind() {
                "object" => options.push(a),
                "array" => handlers.extend(
                    named_children(a)
                        .into_iter()
                        .map(unwrap_expr)
                        .filter(|e| is_handler_like(e.kind())),
                ),
                k if is_handler_like(k) => handlers.push(a),
                _ => {}
            }
        }
        (handlers, options)
    }

    /// Fastify hook options (`preHandler: [auth]`) as middleware names.
    fn hooks(&self, options: &[Node<'t>]) -> Vec<String> {
        let mut out = Vec::new();
        for o in options {
            for hook in HOOKS {
                let Some(v) = member(*o, hook, self.src).map(unwrap_expr) else { continue };
                if v.kind() == "array" {
                    out.extend(
                        named_children(v).into_iter().filter_map(|e| middleware_name(e, self.src)),
                    );
                } else {
                    out.extend(middleware_name(v, self.src));
                }
            }
        }
        out
    }

    /// `x.route('/p').get(h).post(h2)`: the outermost call of the chain records every verb.
    fn route_chain(&mut self, call: Node<'t>) {
        let mut verbs: Vec<(Node<'t>, Node<'t>, &'s str)> = Vec::new();
        let mut cur = call;
        let (path, obj) = loop {
            if verbs.len() > 16 {
                return;
            }
            let Some(func) = cur.child_by_field_name("function").map(unwrap_expr) else {
                return;
            };
            let (Some(obj), Some(prop)) =
                (func.child_by_field_name("object"), func.child_by_field_name("property"))
            else {
                return;
            };
            let name = self.text(prop);
            if VERBS.contains(&name) {
                verbs.push((cur, prop, name));
                let o = unwrap_expr(obj);
                if o.kind() != "call_expression" {
                    return;
                }
                cur = o;
            } else if name == "route" {
                let a = args(cur);
                match a.as_slice() {
                    [p] => match literal(*p, self.src) {
                        Some(p) => break (p, obj),
                        None => return,
                    },
                    _ => return,
                }
            } else {
                return;
            }
        };
        let receiver = base_path(obj, self.src);
        for (c, prop, verb) in verbs.into_iter().rev() {
            self.done.insert(c.id());
            let (mut handlers, options) = self.split_args(&args(c));
            let Some(h) = handlers.pop() else { continue };
            let mut mw: Vec<String> =
                handlers.iter().filter_map(|h| middleware_name(*h, self.src)).collect();
            mw.extend(self.hooks(&options));
            let (handler, body) = self.handler_of(h, 0);
            let method = verb_method(verb);
            let mut ep = route(self.web, &method, normalize_path(path), handler);
            ep.middleware = mw;
            ep.receiver = receiver.clone();
            self.responses(body, &mut ep);
            self.push(ep, prop, None);
        }
    }

    /// Fastify's full form: `x.route({ method: 'GET' | ['GET', 'POST'], url, handler, ... })`.
    fn fastify_route(&mut self, obj: Node<'t>, prop: Node<'t>, a: &[Node<'t>]) {
        let [o] = a else { return };
        let o = unwrap_expr(*o);
        if o.kind() != "object" {
            return;
        }
        let Some(url) = member(o, "url", self.src)
            .or_else(|| member(o, "path", self.src))
            .and_then(|u| literal(u, self.src))
        else {
            return;
        };
        let Some(m) = member(o, "method", self.src).map(unwrap_expr) else { return };
        let methods: Vec<String> = if m.kind() == "array" {
            named_children(m)
                .into_iter()
                .filter_map(|e| literal(e, self.src))
                .map(str::to_string)
                .collect()
        } else {
            literal(m, self.src).map(str::to_string).into_iter().collect()
        };
        let (handler, body) = match member(o, "handler", self.src) {
            Some(h) => self.handler_of(h, 0),
            None => (Handler::Unknown, None),
        };
        let mw = self.hooks(&[o]);
        let receiver = base_path(obj, self.src);
        for m in methods {
            let method = m.to_ascii_uppercase();
            let method = if method == "ALL" { "ANY".to_string() } else { method };
            let mut ep = route("fastify", &method, normalize_path(url), handler.clone());
            ep.middleware = mw.clone();
            ep.receiver = receiver.clone();
            self.responses(body, &mut ep);
            self.push(ep, prop, None);
        }
    }

    // ----- mounts -----

    /// Records a mount made by the call named `prop`.
    #[allow(clippy::too_many_arguments)]
    fn push_mount(
        &mut self,
        framework: &str,
        prefix: &str,
        obj: Node<'t>,
        prop: Node<'t>,
        (target, call): (Callee, bool),
        middleware: Vec<String>,
    ) {
        let (line, col) = (start_line(prop), start_col(prop));
        let mount = Mount {
            framework: framework.to_string(),
            prefix: normalize_path(prefix),
            receiver: base_path(obj, self.src),
            target,
            call,
            middleware,
            line,
            enclosing: self.enclosing.of(line, col),
        };
        self.mounts.push((col, mount));
    }

    /// What a mount argument mounts: a router named by reference, Koa's `sub.routes()` (the
    /// router `sub`), `require('./users')`, or a function called to build it
    /// (`usersRouter(db)`). Inline functions, `express.*` built-ins and factories given only
    /// literal options (`serveStatic('public')`) are middleware, not routers.
    fn mount_target(&self, n: Node<'t>) -> Option<(Callee, bool)> {
        let n = unwrap_expr(n);
        match n.kind() {
            "identifier" | "member_expression" => callee_of(n, self.src).map(|(c, _)| (c, false)),
            "call_expression" => {
                let f = unwrap_expr(n.child_by_field_name("function")?);
                let a = args(n);
                if f.kind() == "member_expression"
                    && a.is_empty()
                    && f.child_by_field_name("property")
                        .is_some_and(|p| matches!(self.text(p), "routes" | "middleware"))
                {
                    let router = f.child_by_field_name("object")?;
                    return self.mount_target(router).filter(|(_, call)| !call);
                }
                let (callee, _) = callee_of(f, self.src)?;
                if callee.receiver == Receiver::None && callee.name == "require" {
                    return Some((callee, true));
                }
                let express = matches!(&callee.receiver, Receiver::Path(p) if p.len() == 1 && p[0] == "express");
                let config_only = !a.is_empty()
                    && a.iter().all(|x| {
                        let x = unwrap_expr(*x);
                        literal(x, self.src).is_some()
                            || matches!(x.kind(), "object" | "number" | "true" | "false")
                    });
                (!express && !config_only).then_some((callee, true))
            }
            _ => None,
        }
    }

    /// Express / Koa `x.use('/p', ...middleware, router)`. Hono's and Fastify's `use` only adds
    /// middleware; a `use` without a path mounts nothing under a prefix.
    fn use_mount(&mut self, obj: Node<'t>, prop: Node<'t>, a: &[Node<'t>]) {
        if matches!(self.web, "hono" | "fastify") {
            return;
        }
        let [first, rest @ ..] = a else { return };
        let Some(path) = literal(*first, self.src).filter(|p| is_route_path(p)) else { return };
        // Koa: `sub.routes()` is the router, whatever follows it (`sub.allowedMethods()`).
        let routes_at = rest.iter().position(|x| {
            let x = unwrap_expr(*x);
            x.kind() == "call_expression"
                && x.child_by_field_name("function").map(unwrap_expr).is_some_and(|f| {
                    f.kind() == "member_expression"
                        && f.child_by_field_name("property")
                            .is_some_and(|p| self.text(p) == "routes")
                })
        });
        let Some(at) = routes_at.or(rest.len().checked_sub(1)) else { return };
        let Some(target) = self.mount_target(rest[at]) else { return };
        let mw = rest[..at].iter().filter_map(|m| middleware_name(*m, self.src)).collect();
        self.push_mount(self.web, path, obj, prop, target, mw);
    }

    /// Hono `app.route('/p', sub)`.
    fn hono_mount(&mut self, obj: Node<'t>, prop: Node<'t>, a: &[Node<'t>]) {
        let [first, sub] = a else { return };
        let Some(path) = literal(*first, self.src).filter(|p| is_route_path(p)) else { return };
        let Some(target) = self.mount_target(*sub) else { return };
        self.push_mount("hono", path, obj, prop, target, Vec::new());
    }

    /// Fastify `x.register(plugin, { prefix: '/p' })`: the plugin is passed as a value.
    fn fastify_mount(&mut self, obj: Node<'t>, prop: Node<'t>, a: &[Node<'t>]) {
        let [plugin, options, ..] = a else { return };
        let options = unwrap_expr(*options);
        if options.kind() != "object" {
            return;
        }
        let Some(prefix) = member(options, "prefix", self.src).and_then(|p| literal(p, self.src))
        else {
            return;
        };
        let Some((target, call)) = self.mount_target(*plugin) else { return };
        let call = call && target.receiver == Receiver::None && target.name == "require";
        let mw = self.hooks(&[options]);
        self.push_mount("fastify", prefix, obj, prop, (target, call), mw);
    }

    // ----- client calls -----

    /// The library a name's client instance comes from: `const api = axios.create(...)` (or
    /// `ky.create` / `ky.extend`, `got.extend`, `ofetch.create`) at top level.
    fn instance(&mut self, name: &'s str) -> Option<&'static str> {
        if let Some(i) = self.instances.get(name) {
            return *i;
        }
        let lib = self.decl(name).filter(|v| v.kind() == "call_expression").and_then(|v| {
            let f = unwrap_expr(v.child_by_field_name("function")?);
            let (c, _) = callee_of(f, self.src)?;
            if !matches!(c.name.as_str(), "create" | "extend") {
                return None;
            }
            match &c.receiver {
                Receiver::Path(p) if p.len() == 1 => {
                    CLIENT_LIBS.iter().copied().find(|l| *l == p[0])
                }
                _ => None,
            }
        });
        self.instances.insert(name, lib);
        lib
    }

    /// `fetch(url, init)`, `$fetch` / `ofetch(url, opts)`, `axios(url | config)`,
    /// `ky(url, opts)`, `got(url, opts)`.
    fn client_function(&mut self, call: Node<'t>, func: Node<'t>) {
        let name = self.text(func);
        let client = match name {
            "fetch" | "$fetch" | "ofetch" | "axios" | "ky" | "got" => name,
            _ => return,
        };
        let a = args(call);
        let Some(first) = a.first().map(|x| unwrap_expr(*x)) else { return };
        if client == "axios" && first.kind() == "object" {
            self.client_config(client, first, false, func);
            return;
        }
        let method = self.options_method(a.get(1).copied(), "GET");
        self.push_client(client, &method, first, false, func);
    }

    /// A method call on a client: `axios.get(url)`, `ky.post(url)`, `axios.request(config)`,
    /// `window.fetch(url)`, `api.get('/users')` on an instance. Returns whether the call is a
    /// client's (recorded or not), so that it is not read as a route.
    fn client_method(&mut self, obj: Node<'t>, prop: Node<'t>, name: &str, a: &[Node<'t>]) -> bool {
        let obj = unwrap_expr(obj);
        if obj.kind() != "identifier" {
            return false;
        }
        let on = self.text(obj);
        if name == "fetch" {
            if !matches!(on, "window" | "globalThis" | "self") {
                return false;
            }
            if let Some(first) = a.first() {
                let method = self.options_method(a.get(1).copied(), "GET");
                self.push_client("fetch", &method, *first, false, prop);
            }
            return true;
        }
        let (client, has_base) = match CLIENT_LIBS.iter().copied().find(|l| *l == on) {
            Some(lib) => (lib, false),
            None => match self.instance(on) {
                Some(lib) => (lib, true),
                None => return false,
            },
        };
        let Some(first) = a.first().map(|x| unwrap_expr(*x)) else { return true };
        if name == "request" {
            if first.kind() == "object" {
                self.client_config(client, first, has_base, prop);
            }
            return true;
        }
        if !CLIENT_VERBS.contains(&name) {
            return true;
        }
        self.push_client(client, &name.to_ascii_uppercase(), first, has_base, prop);
        true
    }

    /// An axios config object: `{ url, method }` (`GET` when no method is given).
    fn client_config(&mut self, client: &str, config: Node<'t>, has_base: bool, at: Node<'t>) {
        let Some(url) = member(config, "url", self.src) else { return };
        let method = self.options_method(Some(config), "GET");
        self.push_client(client, &method, url, has_base, at);
    }

    /// The method an options object names (`{ method: 'post' }` -> `POST`): `default` when the
    /// call has no options or they name no method, `ANY` when it is not a literal or the
    /// options are not an object literal.
    fn options_method(&mut self, options: Option<Node<'t>>, default: &str) -> String {
        let Some(o) = options.map(unwrap_expr) else { return default.to_string() };
        if o.kind() != "object" {
            return "ANY".to_string();
        }
        match member(o, "method", self.src) {
            None => default.to_string(),
            Some(m) => match self.string_value(m) {
                Some(m) if !m.is_empty() => m.to_ascii_uppercase(),
                _ => "ANY".to_string(),
            },
        }
    }

    /// Records a client call to `url` when its path is recoverable.
    fn push_client(
        &mut self,
        client: &str,
        method: &str,
        url: Node<'t>,
        has_base: bool,
        at: Node<'t>,
    ) {
        let mut pieces = Vec::new();
        self.url_pieces(url, 0, &mut pieces);
        let Some((path, base)) = client_path(&pieces, has_base) else { return };
        let (line, col) = (start_line(at), start_col(at));
        let c = ClientCall {
            client: client.to_string(),
            method: method.to_string(),
            path,
            has_base: has_base || base,
            line,
            enclosing: self.enclosing.of(line, col),
        };
        self.clients.push((col, c));
    }

    /// A URL expression as literal pieces and substitutions: strings, templates, `+`
    /// concatenations, top-level string constants.
    fn url_pieces(&mut self, n: Node<'t>, depth: u32, out: &mut Vec<Piece<'s>>) {
        let n = unwrap_expr(n);
        match n.kind() {
            "string" => out.push(Piece::Lit(string_content(n, self.src))),
            "template_string" => {
                let (start, end) = (n.start_byte() + 1, n.end_byte().saturating_sub(1));
                let mut at = start;
                for c in named_children(n) {
                    if c.kind() == "template_substitution" {
                        out.push(Piece::Lit(self.src.get(at..c.start_byte()).unwrap_or("")));
                        out.push(Piece::Hole);
                        at = c.end_byte();
                    }
                }
                out.push(Piece::Lit(self.src.get(at..end.max(at)).unwrap_or("")));
            }
            "binary_expression"
                if depth < MAX_DEPTH
                    && n.child_by_field_name("operator").is_some_and(|o| self.text(o) == "+") =>
            {
                for side in ["left", "right"] {
                    match n.child_by_field_name(side) {
                        Some(x) => self.url_pieces(x, depth + 1, out),
                        None => out.push(Piece::Hole),
                    }
                }
            }
            "identifier" if depth < MAX_DEPTH => match self.string_value(n) {
                Some(v) => out.push(Piece::Lit(v)),
                None => out.push(Piece::Hole),
            },
            _ => out.push(Piece::Hole),
        }
    }

    // ----- MCP tools -----

    /// The input field names a schema declares: a zod raw shape `{ a: z.string() }`,
    /// `z.object({...})` (with any `.strict()` / `.describe()` after it), a JSON Schema
    /// `{ type: 'object', properties: {...} }`, or a top-level constant holding one of those.
    fn schema_fields(&mut self, n: Node<'t>, depth: u32) -> Vec<String> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let n = unwrap_expr(n);
        match n.kind() {
            "object" => match member(n, "properties", self.src).map(unwrap_expr) {
                Some(p) if p.kind() == "object" && member(n, "type", self.src).is_some() => {
                    object_keys(p, self.src)
                }
                _ => object_keys(n, self.src),
            },
            "call_expression" => {
                let Some(f) = n.child_by_field_name("function").map(unwrap_expr) else {
                    return Vec::new();
                };
                if f.kind() != "member_expression" {
                    return Vec::new();
                }
                let prop = f.child_by_field_name("property").map_or("", |p| self.text(p));
                if matches!(prop, "object" | "strictObject" | "looseObject")
                    && let Some(first) = args(n).first()
                {
                    return self.schema_fields(*first, depth + 1);
                }
                match f.child_by_field_name("object") {
                    Some(o) => self.schema_fields(o, depth + 1),
                    None => Vec::new(),
                }
            }
            "identifier" => match self.decl(self.text(n)) {
                Some(v) if v.id() != n.id() => self.schema_fields(v, depth + 1),
                _ => Vec::new(),
            },
            // `Schema.shape`
            "member_expression" => match n.child_by_field_name("object") {
                Some(o) => self.schema_fields(o, depth + 1),
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// The value a top-level constant holds when `n` names one (`const name = 'echo'`,
    /// `const config = {...}`), else `n` unwrapped.
    fn constant(&mut self, n: Node<'t>) -> Node<'t> {
        let n = unwrap_expr(n);
        if n.kind() != "identifier" {
            return n;
        }
        match self.decl(self.text(n)) {
            Some(v) if !is_function_like(v.kind()) => v,
            _ => n,
        }
    }

    /// A string literal, directly or through a top-level constant: `'echo'`, `NAME`,
    /// `TOOLS.list_items` / `TOOLS['list_items']` (a property of a same-file constant object,
    /// nested objects included), `Tools.ListItems` (a same-file enum member).
    fn string_value(&mut self, n: Node<'t>) -> Option<&'s str> {
        self.string_value_at(n, 0)
    }

    fn string_value_at(&mut self, n: Node<'t>, depth: u32) -> Option<&'s str> {
        if depth > MAX_DEPTH {
            return None;
        }
        let v = self.constant(n);
        if let Some(s) = literal(v, self.src) {
            return Some(s);
        }
        let (object, key) = match v.kind() {
            "member_expression" => {
                let key = v.child_by_field_name("property")?;
                (v.child_by_field_name("object")?, self.text(key))
            }
            "subscript_expression" => {
                let key = literal(v.child_by_field_name("index")?, self.src)?;
                (v.child_by_field_name("object")?, key)
            }
            _ => return None,
        };
        let holder = self.object_value(object, depth + 1)?;
        match holder.kind() {
            "object" => {
                let value = member(holder, key, self.src)?;
                self.string_value_at(value, depth + 1)
            }
            "enum_declaration" => {
                let body = holder.child_by_field_name("body")?;
                named_children(body).into_iter().find_map(|m| {
                    let name = m.child_by_field_name("name")?;
                    if m.kind() != "enum_assignment" || prop_name(name, self.src) != key {
                        return None;
                    }
                    literal(m.child_by_field_name("value")?, self.src)
                })
            }
            _ => None,
        }
    }

    /// The object literal or enum an expression names: a same-file constant, or a property
    /// of one (`TOOLS.admin` for `const TOOLS = { admin: {...} }`).
    fn object_value(&mut self, n: Node<'t>, depth: u32) -> Option<Node<'t>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let v = self.constant(n);
        match v.kind() {
            "object" | "enum_declaration" => Some(v),
            "member_expression" => {
                let key = v.child_by_field_name("property")?;
                let key = self.text(key);
                let holder = self.object_value(v.child_by_field_name("object")?, depth + 1)?;
                (holder.kind() == "object")
                    .then(|| member(holder, key, self.src))
                    .flatten()
                    .map(unwrap_expr)
                    .filter(|m| m.kind() == "object")
            }
            _ => None,
        }
    }

    /// `server.tool('name', 'description'?, {shape}?, {annotations}?, handler)`.
    fn sdk_tool(&mut self, prop: Node<'t>, a: &[Node<'t>]) {
        let Some(&first) = a.first() else { return };
        let (name, name_is_expr) = self.tool_name(first);
        let [_, middle @ .., last] = a else { return };
        if !is_handler_like(unwrap_expr(*last).kind()) {
            return;
        }
        let mut description = None;
        let mut fields = None;
        for m in middle {
            if let Some(d) = self.string_value(*m) {
                if description.is_none() && fields.is_none() {
                    description = Some(d.to_string());
                }
            } else if fields.is_none() {
                fields = Some(self.schema_fields(*m, 0));
            }
        }
        let (handler, _) = self.handler_of(*last, 0);
        let mut ep = tool("mcp-sdk", name, handler);
        ep.name_is_expr = name_is_expr;
        ep.description = description;
        ep.fields = fields.unwrap_or_default();
        self.push(ep, prop, None);
    }

    /// A tool's name: its value when it can be evaluated, else the expression as written
    /// (whitespace collapsed, cut at 120 characters), flagged: a registration is never dropped
    /// for a name we cannot read.
    fn tool_name(&mut self, n: Node<'t>) -> (String, bool) {
        match self.string_value(n) {
            Some(v) => (v.to_string(), false),
            None => {
                let text: String = self
                    .text(n)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .chars()
                    .take(120)
                    .collect();
                (text, true)
            }
        }
    }

    /// `server.registerTool('name', { description, inputSchema }, handler)`.
    fn register_tool(&mut self, prop: Node<'t>, a: &[Node<'t>]) {
        let [name, config, handler] = a else { return };
        let (name, name_is_expr) = self.tool_name(*name);
        let config = self.constant(*config);
        if config.kind() != "object" {
            return;
        }
        let description =
            member(config, "description", self.src).and_then(|d| self.string_value(d));
        let fields = match member(config, "inputSchema", self.src) {
            Some(s) => self.schema_fields(s, 0),
            None => Vec::new(),
        };
        let (handler, _) = self.handler_of(*handler, 0);
        let mut ep = tool("mcp-sdk", name, handler);
        ep.name_is_expr = name_is_expr;
        ep.description = description.map(str::to_string);
        ep.fields = fields;
        self.push(ep, prop, None);
    }

    /// fastmcp: `server.addTool({ name, description, parameters: z.object({...}), execute })`.
    fn fastmcp_tool(&mut self, prop: Node<'t>, a: &[Node<'t>]) {
        let [o] = a else { return };
        let o = self.constant(*o);
        if o.kind() != "object" {
            return;
        }
        let Some(name) = member(o, "name", self.src).and_then(|n| self.string_value(n)) else {
            return;
        };
        let execute = member(o, "execute", self.src);
        let parameters = member(o, "parameters", self.src);
        if execute.is_none() && parameters.is_none() {
            return;
        }
        let description = member(o, "description", self.src).and_then(|d| self.string_value(d));
        let fields = match parameters {
            Some(p) => self.schema_fields(p, 0),
            None => Vec::new(),
        };
        let handler = match execute {
            Some(e) => self.handler_of(e, 0).0,
            None => Handler::Unknown,
        };
        let mut ep = tool("fastmcp", name.to_string(), handler);
        ep.description = description.map(str::to_string);
        ep.fields = fields;
        self.push(ep, prop, None);
    }

    /// `server.setRequestHandler(CallToolRequestSchema, async (req) => { switch
    /// (req.params.name) { case 'add': ... } })`: one tool per literal the tool name is
    /// compared with (`case 'x'`, `name === 'x'`).
    fn low_level_tools(&mut self, prop: Node<'t>, a: &[Node<'t>]) {
        let [schema, h] = a else { return };
        if !dotted(self.text(*schema)).ends_with("CallToolRequestSchema") {
            return;
        }
        let (handler, body) = self.handler_of(*h, 0);
        // One dispatch function serves every tool: its code stays inline in `enclosing`.
        self.pending_inline = None;
        let handler = match handler {
            // The dispatch is written in place: the tools' code is inline in `enclosing`.
            Handler::Symbol(_) => Handler::Inline,
            h => h,
        };
        let Some(body) = body else { return };
        let enclosing = self.enclosing.of(start_line(prop), start_col(prop));
        let mut seen: HashSet<&'s str> = HashSet::new();
        let mut found: Vec<(&'s str, Node<'t>)> = Vec::new();
        let mut stack = vec![body];
        let mut visited = 0usize;
        while let Some(n) = stack.pop() {
            visited += 1;
            if visited > MAX_SCAN {
                break;
            }
            match n.kind() {
                "switch_statement" => {
                    let on = n.child_by_field_name("value").map_or("", |v| self.text(v));
                    let on = on.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace());
                    if on.to_ascii_lowercase().ends_with("name")
                        && let Some(b) = n.child_by_field_name("body")
                    {
                        for case in named_children(b) {
                            if case.kind() == "switch_case"
                                && let Some(v) = case.child_by_field_name("value")
                                && let Some(lit) = literal(v, self.src)
                            {
                                found.push((lit, case));
                            }
                        }
                    }
                }
                "binary_expression" => {
                    let op = n.child_by_field_name("operator").map_or("", |o| self.text(o));
                    if let (true, Some(l), Some(r)) = (
                        op == "===" || op == "==",
                        n.child_by_field_name("left"),
                        n.child_by_field_name("right"),
                    ) {
                        let (lit, other) = match (literal(l, self.src), literal(r, self.src)) {
                            (Some(x), None) => (Some(x), r),
                            (None, Some(x)) => (Some(x), l),
                            _ => (None, l),
                        };
                        if let Some(lit) = lit
                            && self.text(other).to_ascii_lowercase().ends_with("name")
                        {
                            found.push((lit, n));
                        }
                    }
                }
                _ => {}
            }
            let kids = named_children(n);
            stack.extend(kids.into_iter().rev());
        }
        // Source order, one tool per name.
        found.sort_by_key(|(_, n)| n.start_byte());
        for (name, at) in found {
            if !seen.insert(name) {
                continue;
            }
            let ep = tool("mcp-sdk", name.to_string(), handler.clone());
            self.low_level.push(self.out.len());
            self.push(ep, at, Some(enclosing));
        }
    }

    /// Descriptions and fields of low-level tools from the literal tool list of the same file
    /// (`{ name: 'add', description: '...', inputSchema: { properties: {...} } }`).
    fn fill_listed_tools(&mut self) {
        if self.low_level.is_empty() {
            return;
        }
        let mut listed: HashMap<&'s str, (Option<&'s str>, Vec<String>)> = HashMap::new();
        let mut cursor = self.root.walk();
        'walk: loop {
            let n = cursor.node();
            if n.kind() == "object"
                && let Some(name) = member(n, "name", self.src).and_then(|v| literal(v, self.src))
                && let schema = member(n, "inputSchema", self.src)
                && let description =
                    member(n, "description", self.src).and_then(|d| literal(d, self.src))
                && (schema.is_some() || description.is_some())
            {
                let fields = match schema {
                    Some(s) => self.schema_fields(s, 0),
                    None => Vec::new(),
                };
                listed.entry(name).or_insert((description, fields));
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        for &i in &self.low_level {
            let Some(f) = self.out.get_mut(i) else { continue };
            if let Some((d, fields)) = listed.get(f.ep.name.as_str()) {
                if f.ep.description.is_none() {
                    f.ep.description = d.map(str::to_string);
                }
                if f.ep.fields.is_empty() {
                    f.ep.fields = fields.clone();
                }
            }
        }
    }

    // ----- decorated controllers -----

    /// NestJS `@Controller('users')` classes with `@Get(':id')` methods, and LoopBack
    /// `@get('/todos/{id}')` methods (prefixed by `@api({ basePath })`).
    fn class(&mut self, class: Node<'t>) {
        let Some(body) = class.child_by_field_name("body") else { return };
        let members = named_children(body);
        let decorated = members.iter().any(|m| {
            m.kind() == "decorator"
                || (m.kind() == "method_definition"
                    && named_children(*m).iter().any(|c| c.kind() == "decorator"))
        });
        if !decorated {
            return;
        }
        let mut decorators: Vec<Node<'t>> =
            named_children(class).into_iter().filter(|c| c.kind() == "decorator").collect();
        if let Some(p) = class.parent().filter(|p| p.kind() == "export_statement") {
            decorators.extend(named_children(p).into_iter().filter(|c| c.kind() == "decorator"));
        }
        let mut controller: Option<Vec<String>> = None;
        let mut base = String::new();
        let mut class_mw = Vec::new();
        for d in &decorators {
            let (name, a) = self.decorator(*d);
            match name {
                "Controller" => {
                    let prefixes = match a.first().map(|x| unwrap_expr(*x)) {
                        None => vec![String::new()],
                        Some(x) if x.kind() == "object" => {
                            let p = member(x, "path", self.src);
                            vec![p.and_then(|p| literal(p, self.src)).unwrap_or("").to_string()]
                        }
                        Some(x) if x.kind() == "array" => named_children(x)
                            .into_iter()
                            .filter_map(|e| literal(e, self.src))
                            .map(str::to_string)
                            .collect(),
                        Some(x) => literal(x, self.src).map(str::to_string).into_iter().collect(),
                    };
                    controller = Some(prefixes);
                }
                "api" => {
                    if let Some(o) =
                        a.first().map(|x| unwrap_expr(*x)).filter(|x| x.kind() == "object")
                        && let Some(p) =
                            member(o, "basePath", self.src).and_then(|p| literal(p, self.src))
                    {
                        base = p.to_string();
                    }
                }
                "UseGuards" => {
                    class_mw.extend(a.iter().filter_map(|g| middleware_name(*g, self.src)))
                }
                _ => {}
            }
        }
        let class_sym = class.child_by_field_name("name").and_then(|n| {
            let (name, line) = (self.text(n), start_line(n));
            let i = self.facts.symbols.iter().position(|s| {
                s.kind == NodeKind::Class
                    && s.name == name
                    && s.start_line <= line
                    && line <= s.end_line
            })?;
            u32::try_from(i).ok()
        });
        let mut pending: Vec<Node<'t>> = Vec::new();
        for m in members {
            match m.kind() {
                "decorator" => pending.push(m),
                "method_definition" => {
                    let mut ds = std::mem::take(&mut pending);
                    ds.extend(named_children(m).into_iter().filter(|c| c.kind() == "decorator"));
                    if !ds.is_empty() {
                        self.controller_method(
                            m,
                            &ds,
                            controller.as_deref(),
                            &base,
                            &class_mw,
                            class_sym,
                        );
                    }
                }
                _ => pending.clear(),
            }
        }
    }

    /// A decorator's name (the last segment of its callee) and arguments.
    fn decorator(&self, d: Node<'t>) -> (&'s str, Vec<Node<'t>>) {
        let Some(e) = first_named(d).map(unwrap_expr) else { return ("", Vec::new()) };
        let (callee, a) = match e.kind() {
            "call_expression" => (e.child_by_field_name("function"), args(e)),
            _ => (Some(e), Vec::new()),
        };
        let name = callee.map_or("", |c| self.text(c));
        (name.rsplit('.').next().unwrap_or(name).trim(), a)
    }

    #[allow(clippy::too_many_arguments)]
    fn controller_method(
        &mut self,
        method: Node<'t>,
        decorators: &[Node<'t>],
        controller: Option<&[String]>,
        base: &str,
        class_mw: &[String],
        class_sym: Option<SymbolIdx>,
    ) {
        let mut routes: Vec<(&'static str, String, Vec<String>, Node<'t>)> = Vec::new();
        let mut mw = class_mw.to_vec();
        let mut statuses = Vec::new();
        for d in decorators {
            let (name, a) = self.decorator(*d);
            let nest_verb = match name {
                "Get" => Some("GET"),
                "Post" => Some("POST"),
                "Put" => Some("PUT"),
                "Delete" => Some("DELETE"),
                "Patch" => Some("PATCH"),
                "Options" => Some("OPTIONS"),
                "Head" => Some("HEAD"),
                "All" => Some("ANY"),
                _ => None,
            };
            let lb_verb = match name {
                "get" => Some("GET"),
                "post" => Some("POST"),
                "put" => Some("PUT"),
                "patch" => Some("PATCH"),
                "del" => Some("DELETE"),
                _ => None,
            };
            if let (Some(verb), Some(prefixes)) = (nest_verb, controller) {
                let subs: Vec<String> = match a.first().map(|x| unwrap_expr(*x)) {
                    None => vec![String::new()],
                    Some(x) if x.kind() == "array" => named_children(x)
                        .into_iter()
                        .filter_map(|e| literal(e, self.src))
                        .map(str::to_string)
                        .collect(),
                    Some(x) => literal(x, self.src).map(str::to_string).into_iter().collect(),
                };
                for p in prefixes {
                    for s in &subs {
                        routes.push(("nestjs", verb.to_string(), vec![p.clone(), s.clone()], *d));
                    }
                }
            } else if let Some(verb) = lb_verb {
                if let Some(p) = a.first().and_then(|x| literal(*x, self.src)) {
                    routes.push((
                        "loopback",
                        verb.to_string(),
                        vec![base.to_string(), p.to_string()],
                        *d,
                    ));
                }
            } else if name == "operation" {
                if let (Some(v), Some(p)) = (
                    a.first().and_then(|x| literal(*x, self.src)),
                    a.get(1).and_then(|x| literal(*x, self.src)),
                ) {
                    let v = v.to_ascii_uppercase();
                    let v = if v == "DEL" { "DELETE".to_string() } else { v };
                    routes.push(("loopback", v, vec![base.to_string(), p.to_string()], *d));
                }
            } else if name == "HttpCode" {
                statuses.extend(a.first().and_then(|x| status_of(*x, self.src)));
            } else if name == "UseGuards" {
                mw.extend(a.iter().filter_map(|g| middleware_name(*g, self.src)));
            }
        }
        if routes.is_empty() {
            return;
        }
        let sym = method.child_by_field_name("name").and_then(|n| {
            let (name, line) = (prop_name(n, self.src), start_line(n));
            let i = self.facts.symbols.iter().position(|s| {
                s.name == name
                    && s.start_line <= line
                    && line <= s.end_line
                    && (class_sym.is_none() || s.parent == class_sym)
            })?;
            u32::try_from(i).ok()
        });
        let handler = sym.map_or(Handler::Unknown, Handler::Symbol);
        for (framework, verb, parts, d) in routes {
            let path = join_path(&parts[0], &parts[1]);
            let mut ep = route(framework, &verb, path, handler.clone());
            ep.middleware = mw.clone();
            ep.status_codes = statuses.clone();
            self.responses(Some(method), &mut ep);
            self.push(ep, d, Some(class_sym));
        }
    }

    // ----- responses -----

    /// Response keys and status codes a handler sends: `res.json({..})`, `res.status(404)`,
    /// `c.json({..}, 201)`, `reply.code(201).send({..})`, `ctx.body = {..}`,
    /// `ctx.status = 201`, `NextResponse.json({..}, { status })`, `new Response(.., { status })`
    /// and `return {..}` from the handler itself. A method on any parameter of the handler (or
    /// of a callback inside it) counts; sending a body without a status means 200.
    fn responses(&self, f: Option<Node<'t>>, ep: &mut Endpoint) {
        let Some(f) = f else { return };
        let mut params: Vec<&'s str> = Vec::new();
        // (node, inside a nested function)
        let mut stack: Vec<(Node<'t>, bool)> = vec![(f, false)];
        let mut visited = 0usize;
        while let Some((n, nested)) = stack.pop() {
            visited += 1;
            if visited > MAX_SCAN {
                break;
            }
            let kind = n.kind();
            let is_fn = is_function_like(kind);
            if is_fn {
                self.params(n, &mut params);
            }
            match kind {
                "call_expression" => self.response_call(n, &params, ep),
                "new_expression" => {
                    let ctor = n.child_by_field_name("constructor").map_or("", |c| self.text(c));
                    if matches!(ctor, "Response" | "NextResponse") {
                        let init = args(n).get(1).copied();
                        ep.status_codes.push(self.init_status(init).unwrap_or(200));
                    }
                }
                "assignment_expression" => {
                    if let (Some(l), Some(r)) =
                        (n.child_by_field_name("left"), n.child_by_field_name("right"))
                        && l.kind() == "member_expression"
                        && let (Some(o), Some(p)) =
                            (l.child_by_field_name("object"), l.child_by_field_name("property"))
                        && o.kind() == "identifier"
                        && params.contains(&self.text(o))
                    {
                        match self.text(p) {
                            "body" => {
                                let r = unwrap_expr(r);
                                if r.kind() == "object" {
                                    ep.response_keys.extend(object_keys(r, self.src));
                                }
                            }
                            "status" | "statusCode" => {
                                ep.status_codes.extend(status_of(r, self.src))
                            }
                            _ => {}
                        }
                    }
                }
                "return_statement" if !nested => {
                    if let Some(v) = first_named(n).map(unwrap_expr)
                        && v.kind() == "object"
                    {
                        ep.response_keys.extend(object_keys(v, self.src));
                    }
                }
                _ => {}
            }
            // An expression-bodied arrow returns its body.
            if kind == "arrow_function"
                && !nested
                && n.id() == f.id()
                && let Some(b) = n.child_by_field_name("body").map(unwrap_expr)
                && b.kind() == "object"
            {
                ep.response_keys.extend(object_keys(b, self.src));
            }
            let inner = nested || (is_fn && n.id() != f.id());
            let kids = named_children(n);
            stack.extend(kids.into_iter().rev().map(|k| (k, inner)));
        }
    }

    /// Parameter names of a function (plain identifiers only).
    fn params(&self, f: Node<'t>, out: &mut Vec<&'s str>) {
        if let Some(p) = f.child_by_field_name("parameter").filter(|p| p.kind() == "identifier") {
            out.push(self.text(p));
        }
        let Some(list) = f.child_by_field_name("parameters") else { return };
        for p in named_children(list) {
            let id = match p.kind() {
                "identifier" => Some(p),
                "required_parameter" | "optional_parameter" => {
                    p.child_by_field_name("pattern").filter(|x| x.kind() == "identifier")
                }
                "assignment_pattern" => p.child_by_field_name("left"),
                _ => None,
            };
            out.extend(id.map(|i| self.text(i)));
        }
    }

    /// `{ status: 201 }` of a `Response` init.
    fn init_status(&self, init: Option<Node<'t>>) -> Option<u16> {
        let o = unwrap_expr(init?);
        if o.kind() != "object" {
            return None;
        }
        member(o, "status", self.src).and_then(|s| status_of(s, self.src))
    }

    fn response_call(&self, call: Node<'t>, params: &[&'s str], ep: &mut Endpoint) {
        let Some(f) = call.child_by_field_name("function").map(unwrap_expr) else { return };
        if f.kind() != "member_expression" {
            return;
        }
        let (Some(obj), Some(prop)) =
            (f.child_by_field_name("object"), f.child_by_field_name("property"))
        else {
            return;
        };
        let obj = unwrap_expr(obj);
        let m = self.text(prop);
        let a = args(call);
        let object_keys_of = |n: Option<&Node<'t>>| -> Vec<String> {
            n.map(|n| unwrap_expr(*n))
                .filter(|n| n.kind() == "object")
                .map_or_else(Vec::new, |n| object_keys(n, self.src))
        };
        let on_param = obj.kind() == "identifier" && params.contains(&self.text(obj));
        if on_param {
            match m {
                "status" | "code" | "sendStatus" | "writeHead" | "throw" => {
                    ep.status_codes.extend(a.first().and_then(|x| status_of(*x, self.src)));
                }
                "json" | "send" | "jsonp" => {
                    ep.response_keys.extend(object_keys_of(a.first()));
                    ep.status_codes
                        .push(a.get(1).and_then(|x| status_of(*x, self.src)).unwrap_or(200));
                }
                "text" | "html" | "body" => {
                    ep.status_codes
                        .push(a.get(1).and_then(|x| status_of(*x, self.src)).unwrap_or(200));
                }
                "notFound" => ep.status_codes.push(404),
                "redirect" => {
                    let explicit = a.iter().find_map(|x| status_of(*x, self.src));
                    ep.status_codes.push(explicit.unwrap_or(302));
                }
                _ => {}
            }
            return;
        }
        // `res.status(404).json({..})`: the status call is read on its own.
        if obj.kind() == "call_expression"
            && matches!(m, "json" | "send" | "jsonp")
            && let Some(inner) = obj.child_by_field_name("function").map(unwrap_expr)
            && inner.kind() == "member_expression"
            && let Some(base) = inner.child_by_field_name("object").map(unwrap_expr)
            && base.kind() == "identifier"
            && params.contains(&self.text(base))
        {
            ep.response_keys.extend(object_keys_of(a.first()));
            return;
        }
        if m == "json" && matches!(self.text(obj), "NextResponse" | "Response") {
            ep.response_keys.extend(object_keys_of(a.first()));
            ep.status_codes.push(self.init_status(a.get(1).copied()).unwrap_or(200));
        }
    }
}
