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
//! `x.route('/p', sub)`, Fastify `x.register(plugin, { prefix: '/p' })` (a plugin written in
//! place prefixes the routes on its parameter here, nested ones composing). Client calls: `fetch`
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

mod clients;
mod controllers;
mod mcp_tools;
mod mounts;
mod responses;

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
        ids: Ids::of(&root.language()),
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
        inline_prefixes: HashMap::new(),
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
/// A relative import of a module named like a framework (`require('../fastify')`: the
/// framework's own examples and tests) names it too.
fn web_framework(facts: &FileFacts) -> &'static str {
    for i in &facts.imports {
        let s = i.source.as_str();
        let local = if s.starts_with('.') {
            let last = s.rsplit('/').next().unwrap_or(s);
            last.strip_suffix(".js").or_else(|| last.strip_suffix(".ts")).unwrap_or(last)
        } else {
            ""
        };
        match s {
            s if s == "hono" || s.starts_with("hono/") || local == "hono" => return "hono",
            "@koa/router" | "koa-router" => return "koa",
            _ if local == "fastify" => return "fastify",
            "fastify" => return "fastify",
            _ => {}
        }
    }
    "express"
}

crate::grammar::grammar_ids! {
    /// Node-kind and field ids of the file's grammar (TypeScript, TSX and JavaScript number them
    /// differently), so the walk compares integers and reads fields without name lookups. A name
    /// the grammar lacks gets id 0, which no node of a tree has.
    struct Ids {
        kinds {
            call = "call_expression",
            class_declaration = "class_declaration",
            abstract_class_declaration = "abstract_class_declaration",
            class = "class",
            member = "member_expression",
        }
        anon {}
        fields { f_function = "function", f_object = "object", f_property = "property" }
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
    /// Inline Fastify plugins registered with a prefix (`x.register(function (f) {...}, {
    /// prefix: '/p' })`), by function node: the prefix (outer plugins' prefixes included)
    /// and the hooks of the registration, which routes on the plugin's parameter get.
    inline_prefixes: HashMap<usize, (String, Vec<String>)>,
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
                _ => callee_of(f, src).map(|(c, _)| c.name.into()),
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
                    Some(Callee { receiver: Receiver::None, name: self.text(n).into() })
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
                    | "addService"
                    | "service"
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
            "addService" | "service" => self.grpc_service(name, &a),
            _ => {}
        }
    }

    /// A gRPC implementation registered on a server ([`Endpoint::is_registration`]): grpc-js
    /// `server.addService(GreeterService, { sayHello: sayHello })` (grpc-tools' `XService`,
    /// or proto-loader's `proto.helloworld.Greeter.service`), Connect `router.service(
    /// ElizaService, { say(req) { .. } })` in a file that imports Connect. One registration
    /// per key of the implementation object, handled by its value.
    fn grpc_service(&mut self, name: &str, a: &[Node<'t>]) {
        let (Some(desc), Some(obj)) = (a.first(), a.get(1).map(|o| unwrap_expr(*o))) else {
            return;
        };
        if obj.kind() != "object" {
            return;
        }
        let connect = name == "service";
        if connect
            && !self.facts.imports.iter().any(|i| {
                i.source.starts_with("@connectrpc/") || i.source.starts_with("@bufbuild/connect")
            })
        {
            return;
        }
        let Some(mut path) = path_of(unwrap_expr(*desc), self.src) else { return };
        // proto-loader: `<package object>.helloworld.Greeter.service`.
        let descriptor = path.last().is_some_and(|l| l == "service");
        if descriptor {
            path.pop();
        }
        let Some(last) = path.last() else { return };
        // grpc-tools names the descriptor of service `Greeter` `GreeterService`; Connect and
        // proto-loader use the service's own name.
        let service = match last.strip_suffix("Service") {
            Some(s) if !connect && !descriptor && !s.is_empty() => s.to_string(),
            _ => last.clone(),
        };
        let framework = if connect { "connect" } else { "grpc-js" };
        for member in named_children(obj) {
            let (key, value) = match member.kind() {
                "pair" => {
                    match (member.child_by_field_name("key"), member.child_by_field_name("value")) {
                        (Some(k), Some(v)) => (prop_name(k, self.src), v),
                        _ => continue,
                    }
                }
                "shorthand_property_identifier" | "method_definition" => {
                    let key = match member.child_by_field_name("name") {
                        Some(n) => prop_name(n, self.src),
                        None => self.text(member).to_string(),
                    };
                    (key, member)
                }
                _ => continue,
            };
            // A method or function value the walker made a symbol of (`sayGoodbye(call, cb)
            // {..}`, `key: function () {..}`) is that symbol; other values as any handler.
            let own = is_function_like(unwrap_expr(value).kind())
                .then(|| self.symbol_named(&key, start_line(member)))
                .flatten();
            let handler = match own {
                Some(i) => Handler::Symbol(i),
                None => self.handler_of(value, 0).0,
            };
            let ep = route(framework, "GRPC", format!("/{service}/{key}"), handler);
            self.push(ep, member, None);
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
        // Fastify's shorthand is `(path, [options], handler)`: what stands between is the
        // route's options (a variable holding them), not middleware.
        let mut mw: Vec<String> = if self.web == "fastify" {
            Vec::new()
        } else {
            handlers.iter().filter_map(|h| middleware_name(*h, self.src)).collect()
        };
        mw.extend(self.hooks(&options));
        let (handler, body) = self.handler_of(handler_node, 0);
        let method = verb_method(verb);
        let mut path = normalize_path(path);
        if let Some((prefix, hooks)) = base.first().and_then(|b| self.inline_prefix(call, b)) {
            path = join_path(prefix, &path);
            mw.splice(0..0, hooks.iter().cloned());
        }
        let mut ep = route(self.web, &method, path, handler);
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

    /// The prefix and hooks of the inline plugin whose parameter `name` is, seen at `at`: the
    /// innermost function binding the name decides (see `inline_prefixes`).
    fn inline_prefix(&self, at: Node<'t>, name: &str) -> Option<&(String, Vec<String>)> {
        // Most files register no inline plugin: no walk up for their routes.
        if self.inline_prefixes.is_empty() {
            return None;
        }
        let mut n = at.parent();
        for _ in 0..256 {
            let f = n?;
            if is_function_like(f.kind()) && binds_parameter(f, name, self.src) {
                return self.inline_prefixes.get(&f.id());
            }
            n = f.parent();
        }
        None
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
        let mut mw = self.hooks(&[o]);
        let receiver = base_path(obj, self.src);
        let mut path = normalize_path(url);
        if let Some((prefix, hooks)) = receiver.first().and_then(|b| self.inline_prefix(obj, b)) {
            path = join_path(prefix, &path);
            mw.splice(0..0, hooks.iter().cloned());
        }
        for m in methods {
            let method = m.to_ascii_uppercase();
            let method = if method == "ALL" { "ANY".to_string() } else { method };
            let mut ep = route("fastify", &method, path.clone(), handler.clone());
            ep.middleware = mw.clone();
            ep.receiver = receiver.clone();
            self.responses(body, &mut ep);
            self.push(ep, prop, None);
        }
    }
}

#[cfg(test)]
mod grammar_test {
    #[test]
    fn every_grammar_name_exists() {
        let grammars: [tree_sitter::Language; 3] = [
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            tree_sitter_typescript::LANGUAGE_TSX.into(),
            tree_sitter_javascript::LANGUAGE.into(),
        ];
        assert_eq!(crate::grammar::missing(super::Ids::NAMES, &grammars), Vec::<&str>::new());
    }
}
