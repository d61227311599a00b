//! HTTP routes, MCP tools, router mounts and HTTP client calls of a Python file, read after the
//! main walk (only in files whose text names a framework or client):
//!
//! - Flask: `@x.route(path, methods=[...])` and `@x.get(path)` / `post` / `put` / `delete` /
//!   `patch`; `x.add_url_rule(path, endpoint, view_func)` (a `View.as_view(...)` handler is the
//!   view class); a `Blueprint(..., url_prefix=...)` prefixes its routes in the same file, and
//!   `app.register_blueprint(bp, url_prefix=...)` mounts one under a prefix (resolution
//!   composes it across files; when the blueprint has a prefix of its own, Flask replaces it
//!   and we join both: a known simplification). Parameters `<id>` / `<int:id>` are `:id`.
//! - FastAPI (and Starlette routers of that shape): `@x.get(path)` and the other methods,
//!   `@x.api_route(path, methods=[...])`; `APIRouter(prefix=...)` prefixes its routes, and
//!   `app.include_router(r, prefix=...)` mounts one. Parameters `{id}` are `:id`.
//! - MCP tools of the official Python SDK's `FastMCP` and of `fastmcp`: `@x.tool()` on a
//!   function, named by `name=` or the function's name, described by `description=` or its
//!   docstring's first line, its parameters the input fields (`ctx` / `context` aside).
//! - Django: `path(route, view)` / `re_path(regex, view)` / `url(...)` entries (a file that
//!   imports Django), views by reference (`views.index`, `View.as_view()`), `<int:pk>` and
//!   `(?P<pk>...)` as `:pk`; `include("app.urls")` mounts that module's `urlpatterns` under
//!   the entry's path.
//! - The official SDK's low-level server: each `Tool(name="...", description=...,
//!   inputSchema={"properties": {...}})` is a tool (fields: the schema's property names),
//!   handled by the file's `@server.call_tool()` function (one function serves every tool).
//! - Client calls: `requests.get(url)` / `httpx.post(url)` and the other methods, and
//!   `request("GET", url)`, with a literal URL (an f-string's substitutions are parameters).
//!
//! A decorator registers a route only when its receiver is a router the file builds (`app =
//! Flask(__name__)`, `bp = Blueprint(...)`, `router = APIRouter()`, in any scope), or the file
//! imports the framework and the first argument is a path literal (`"/..."` or `""`).

use super::fields;
use super::walk::{plain_path, string_value};
use crate::endpoints::{Piece, client_path, join_path};
use crate::facts::{
    Callee, ClientCall, Endpoint, EndpointKind, FileFacts, Handler, Mount, Receiver, SymbolIdx,
};
use crate::util::{start_col, start_line, text};
use codegraph_schema::NodeKind;
use std::collections::HashMap;
use tree_sitter::{Node, Tree};

/// Words a file must contain for the pass to run.
const MARKERS: &[&str] = &["flask", "fastapi", "starlette", "mcp", "requests", "httpx", "django"];

const FASTAPI_METHODS: &[&str] =
    &["get", "post", "put", "delete", "patch", "options", "head", "trace"];
const FLASK_METHODS: &[&str] = &["get", "post", "put", "delete", "patch"];
const CLIENT_METHODS: &[&str] = &["get", "post", "put", "delete", "patch", "head", "options"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Framework {
    Flask,
    FastApi,
    Mcp,
    FastMcp,
    Django,
}

impl Framework {
    fn name(self) -> &'static str {
        match self {
            Framework::Flask => "flask",
            Framework::FastApi => "fastapi",
            Framework::Mcp => "mcp-sdk",
            Framework::FastMcp => "fastmcp",
            Framework::Django => "django",
        }
    }
}

struct Pass<'a> {
    src: &'a str,
    /// Router variables the file builds: name -> (framework, prefix).
    routers: HashMap<String, (Framework, String)>,
    imports: Vec<Framework>,
    clients: Vec<&'static str>,
    /// Function symbols by their `def` line.
    defs: HashMap<u32, SymbolIdx>,
    /// The enclosing symbol of each call site, by its position.
    enclosing: HashMap<(u32, u32), Option<SymbolIdx>>,
    /// The MCP low-level server's `@server.call_tool()` function.
    call_tool: Option<SymbolIdx>,
}

pub(super) fn extract(src: &str, tree: &Tree, facts: &mut FileFacts) {
    if !MARKERS.iter().any(|m| src.contains(m)) {
        return;
    }
    let mut imports = Vec::new();
    let mut clients = Vec::new();
    for imp in &facts.imports {
        let head = imp.source.split('.').next().unwrap_or("");
        match head {
            "flask" => imports.push(Framework::Flask),
            "django" => imports.push(Framework::Django),
            "fastapi" | "starlette" => imports.push(Framework::FastApi),
            "mcp" => imports.push(Framework::Mcp),
            "fastmcp" => imports.push(Framework::FastMcp),
            "requests" => clients.push("requests"),
            "httpx" => clients.push("httpx"),
            _ => {}
        }
    }
    if imports.is_empty() && clients.is_empty() {
        return;
    }
    let defs = facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            matches!(s.kind, NodeKind::Function | NodeKind::Method | NodeKind::Property)
        })
        .map(|(i, s)| (s.start_line, u32::try_from(i).unwrap_or(u32::MAX)))
        .collect();
    let enclosing = facts.calls.iter().map(|c| ((c.line, c.col), c.enclosing)).collect();
    let mut pass =
        Pass { src, routers: HashMap::new(), imports, clients, defs, enclosing, call_tool: None };
    // Routers first: a decorator may come before the line that builds its router's module.
    let mut nodes: Vec<Node<'_>> = Vec::new();
    let mut cursor = tree.root_node().walk();
    'walk: loop {
        let n = cursor.node();
        if matches!(n.kind(), "assignment" | "decorated_definition" | "call") {
            nodes.push(n);
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
    for n in nodes.iter().filter(|n| n.kind() == "assignment") {
        pass.router(*n);
    }
    for n in nodes {
        match n.kind() {
            "decorated_definition" => pass.decorated(n, facts),
            "call" => pass.call(n, facts),
            _ => {}
        }
    }
    // The low-level server's tools are served by its one `@server.call_tool()` function.
    if let Some(h) = pass.call_tool {
        for e in facts.endpoints.iter_mut() {
            if e.kind == EndpointKind::Tool && e.handler == Handler::Unknown {
                e.handler = Handler::Symbol(h);
            }
        }
    }
}

impl<'a> Pass<'a> {
    fn text(&self, n: Node<'_>) -> &'a str {
        text(n, self.src)
    }

    /// `x = Flask(...)`, `bp = Blueprint(..., url_prefix="/a")`, `r = APIRouter(prefix="/a")`,
    /// `mcp = FastMCP("name")`.
    fn router(&mut self, n: Node<'_>) {
        let (Some(left), Some(right)) =
            (n.child_by_field_id(fields().left), n.child_by_field_id(fields().right))
        else {
            return;
        };
        if left.kind() != "identifier" || right.kind() != "call" {
            return;
        }
        let Some(f) = right.child_by_field_id(fields().function) else { return };
        let name = self.text(f).rsplit('.').next().unwrap_or("");
        let (framework, prefix_kw) = match name {
            "Flask" => (Framework::Flask, None),
            "Blueprint" => (Framework::Flask, Some("url_prefix")),
            "FastAPI" => (Framework::FastApi, None),
            "APIRouter" => (Framework::FastApi, Some("prefix")),
            "FastMCP" if self.imports.contains(&Framework::FastMcp) => (Framework::FastMcp, None),
            "FastMCP" => (Framework::Mcp, None),
            _ => return,
        };
        let prefix = prefix_kw
            .and_then(|k| keyword(right, k, self.src))
            .and_then(|v| string_value(v, self.src))
            .unwrap_or_default();
        self.routers.insert(self.text(left).to_string(), (framework, prefix));
    }

    /// The framework of a receiver: a router the file builds, else the one the file imports.
    fn framework_of(&self, receiver: &[String]) -> Option<(Framework, String, bool)> {
        if let [one] = receiver
            && let Some((f, p)) = self.routers.get(one)
        {
            return Some((*f, p.clone(), true));
        }
        self.imports.first().map(|f| (*f, String::new(), false))
    }

    fn decorated(&mut self, n: Node<'_>, facts: &mut FileFacts) {
        let Some(def) = n.child_by_field_id(fields().definition) else { return };
        if def.kind() != "function_definition" {
            return;
        }
        let Some(&idx) = self.defs.get(&start_line(def)) else { return };
        let mut c = n.walk();
        let decorators: Vec<Node<'_>> =
            n.named_children(&mut c).filter(|d| d.kind() == "decorator").collect();
        for d in decorators {
            let Some(call) = d.named_child(0).filter(|e| e.kind() == "call") else { continue };
            let Some(f) =
                call.child_by_field_id(fields().function).filter(|f| f.kind() == "attribute")
            else {
                continue;
            };
            let (Some(obj), Some(attr)) =
                (f.child_by_field_id(fields().object), f.child_by_field_id(fields().attribute))
            else {
                continue;
            };
            let Some(receiver) = plain_path(obj, self.src) else { continue };
            let method = self.text(attr);
            let Some((framework, prefix, known)) = self.framework_of(&receiver) else { continue };
            let line = start_line(d);
            let enclosing =
                self.enclosing.get(&(start_line(attr), start_col(attr))).copied().flatten();
            if method == "call_tool" && self.imports.contains(&Framework::Mcp) {
                self.call_tool.get_or_insert(idx);
                continue;
            }
            if method == "tool" && matches!(framework, Framework::Mcp | Framework::FastMcp) {
                let name = keyword(call, "name", self.src)
                    .and_then(|v| string_value(v, self.src))
                    .or_else(|| facts.symbols.get(idx as usize).map(|s| s.name.clone()));
                let Some(name) = name else { continue };
                let mut e = Endpoint::route(framework.name(), "", name, Handler::Symbol(idx));
                e.kind = EndpointKind::Tool;
                e.description = keyword(call, "description", self.src)
                    .and_then(|v| string_value(v, self.src))
                    .or_else(|| {
                        facts
                            .symbols
                            .get(idx as usize)?
                            .doc
                            .as_ref()?
                            .lines()
                            .next()
                            .map(str::to_string)
                    });
                e.fields = params(def, self.src);
                e.receiver = receiver;
                e.line = line;
                e.enclosing = enclosing;
                facts.endpoints.push(e);
                continue;
            }
            let methods: Vec<String> = match (framework, method) {
                (Framework::Flask, "route") | (Framework::FastApi, "api_route") => {
                    match keyword(call, "methods", self.src) {
                        Some(list) => {
                            string_list(list, self.src).iter().map(|m| m.to_uppercase()).collect()
                        }
                        None if framework == Framework::Flask => vec!["GET".to_string()],
                        None => vec!["ANY".to_string()],
                    }
                }
                (Framework::Flask, m) if FLASK_METHODS.contains(&m) => vec![m.to_uppercase()],
                (Framework::FastApi, m) if FASTAPI_METHODS.contains(&m) => vec![m.to_uppercase()],
                _ => continue,
            };
            let Some(path) = first_positional(call).and_then(|a| string_value(a, self.src)) else {
                continue;
            };
            if !(known || path.is_empty() || path.starts_with('/')) {
                continue;
            }
            let full = join_path(&prefix, &route_params(&path));
            for m in methods {
                let mut e =
                    Endpoint::route(framework.name(), &m, full.clone(), Handler::Symbol(idx));
                e.receiver = receiver.clone();
                e.line = line;
                e.enclosing = enclosing;
                facts.endpoints.push(e);
            }
        }
    }

    fn call(&mut self, n: Node<'_>, facts: &mut FileFacts) {
        let Some(f) = n.child_by_field_id(fields().function) else { return };
        if self.text(f).rsplit('.').next() == Some("Tool") && self.imports.contains(&Framework::Mcp)
        {
            self.low_level_tool(n, f, facts);
            return;
        }
        if f.kind() == "identifier" {
            self.django_path(n, f, facts);
            return;
        }
        if f.kind() != "attribute" {
            return;
        }
        let (Some(obj), Some(attr)) =
            (f.child_by_field_id(fields().object), f.child_by_field_id(fields().attribute))
        else {
            return;
        };
        let Some(receiver) = plain_path(obj, self.src) else { return };
        let method = self.text(attr);
        let (line, col) = (start_line(attr), start_col(attr));
        let enclosing = self.enclosing.get(&(line, col)).copied().flatten();
        match method {
            "add_url_rule" => {
                let Some((framework, prefix, _)) = self.framework_of(&receiver) else { return };
                if framework != Framework::Flask {
                    return;
                }
                let Some(path) = first_positional(n).and_then(|a| string_value(a, self.src)) else {
                    return;
                };
                let view = keyword(n, "view_func", self.src).or_else(|| positional(n, 2));
                let handler = view
                    .and_then(|v| self.handler_ref(v))
                    .map_or(Handler::Unknown, Handler::Reference);
                let methods = match keyword(n, "methods", self.src) {
                    Some(list) => {
                        string_list(list, self.src).iter().map(|m| m.to_uppercase()).collect()
                    }
                    None => vec!["ANY".to_string()],
                };
                let full = join_path(&prefix, &route_params(&path));
                for m in methods {
                    let mut e =
                        Endpoint::route(framework.name(), &m, full.clone(), handler.clone());
                    e.receiver = receiver.clone();
                    e.line = line;
                    e.enclosing = enclosing;
                    facts.endpoints.push(e);
                }
            }
            "register_blueprint" | "include_router" => {
                let kw = if method == "register_blueprint" { "url_prefix" } else { "prefix" };
                let Some(prefix) = keyword(n, kw, self.src).and_then(|v| string_value(v, self.src))
                else {
                    return;
                };
                let Some(target) = first_positional(n).and_then(|a| plain_path(a, self.src)) else {
                    return;
                };
                let mut target = target;
                let name = target.pop().unwrap_or_default();
                let receiver_of_target =
                    if target.is_empty() { Receiver::None } else { Receiver::path(target) };
                let framework = if method == "register_blueprint" { "flask" } else { "fastapi" };
                facts.mounts.push(Mount {
                    framework: framework.to_string(),
                    prefix: join_path("", &route_params(&prefix)),
                    receiver,
                    target: Callee { receiver: receiver_of_target, name: name.into() },
                    call: false,
                    middleware: Vec::new(),
                    line,
                    enclosing,
                });
            }
            m if CLIENT_METHODS.contains(&m) || m == "request" => {
                let [client] = receiver.as_slice() else { return };
                let Some(&client) = self.clients.iter().find(|c| *c == client) else { return };
                let (verb, url) = if m == "request" {
                    let verb = first_positional(n).and_then(|a| string_value(a, self.src));
                    (verb.map_or("ANY".to_string(), |v| v.to_uppercase()), positional(n, 1))
                } else {
                    (m.to_uppercase(), first_positional(n))
                };
                let Some(url) = url.or_else(|| keyword(n, "url", self.src)) else { return };
                let Some(pieces) = url_pieces(url, self.src) else { return };
                let Some((path, has_base)) = client_path(&pieces, false) else { return };
                facts.client_calls.push(ClientCall {
                    client: client.to_string(),
                    method: verb,
                    path,
                    has_base,
                    line,
                    enclosing,
                });
            }
            _ => {}
        }
    }

    /// `types.Tool(name="fetch", description=..., inputSchema={"properties": {...}})` of the
    /// official SDK's low-level server: a tool named by its literal name (its handler, the
    /// file's `@server.call_tool()` function, is set after the pass).
    fn low_level_tool(&mut self, n: Node<'_>, f: Node<'_>, facts: &mut FileFacts) {
        let Some(name) = keyword(n, "name", self.src).and_then(|v| string_value(v, self.src))
        else {
            return;
        };
        let at = if f.kind() == "attribute" {
            f.child_by_field_id(fields().attribute).unwrap_or(f)
        } else {
            f
        };
        let (line, col) = (start_line(at), start_col(at));
        let mut e = Endpoint::route("mcp-sdk", "", name, Handler::Unknown);
        e.kind = EndpointKind::Tool;
        e.description = keyword(n, "description", self.src).and_then(|v| string_value(v, self.src));
        e.fields = keyword(n, "inputSchema", self.src)
            .map(|schema| schema_properties(schema, self.src))
            .unwrap_or_default();
        e.line = line;
        e.enclosing = self.enclosing.get(&(line, col)).copied().flatten();
        facts.endpoints.push(e);
    }

    /// Django's `path("users/<int:pk>/", views.user)`, `re_path(r"^(?P<slug>[-\w]+)/$", V.as_view())`
    /// (and the old `url(...)`) in a file that imports Django: a route of any method whose
    /// handler is the view, registered on `urlpatterns`. `include("app.urls")` (a dotted
    /// module path) mounts that module's `urlpatterns` under the route as a prefix.
    fn django_path(&mut self, n: Node<'_>, f: Node<'_>, facts: &mut FileFacts) {
        let name = self.text(f);
        if !matches!(name, "path" | "re_path" | "url") || !self.imports.contains(&Framework::Django)
        {
            return;
        }
        let Some(route) = first_positional(n).and_then(|a| string_value(a, self.src)) else {
            return;
        };
        let Some(view) = positional(n, 1) else { return };
        let path = if name == "path" { route_params(&route) } else { regex_route(&route) };
        let (line, col) = (start_line(f), start_col(f));
        if view.kind() == "call"
            && view.child_by_field_id(fields().function).is_some_and(|g| self.text(g) == "include")
        {
            let module = first_positional(view).and_then(|m| string_value(m, self.src));
            if let Some(module) = module.filter(|m| m.split('.').all(super::is_identifier)) {
                facts.mounts.push(Mount {
                    framework: "django".to_string(),
                    prefix: join_path("", &path),
                    receiver: vec!["urlpatterns".to_string()],
                    target: Callee {
                        receiver: Receiver::path(module.split('.')),
                        name: "urlpatterns".into(),
                    },
                    call: false,
                    middleware: Vec::new(),
                    line,
                    enclosing: self.enclosing.get(&(line, col)).copied().flatten(),
                });
            }
            return;
        }
        let Some(handler) = self.handler_ref(view) else { return };
        let mut e =
            Endpoint::route("django", "ANY", join_path("", &path), Handler::Reference(handler));
        e.line = line;
        e.receiver = vec!["urlpatterns".to_string()];
        e.enclosing = self.enclosing.get(&(line, col)).copied().flatten();
        facts.endpoints.push(e);
    }

    /// A view function or class named by reference (`views.index`, `UserAPI.as_view("u")`).
    fn handler_ref(&self, v: Node<'_>) -> Option<Callee> {
        let v = if v.kind() == "call" {
            let f = v.child_by_field_id(fields().function)?;
            if self.text(f).ends_with(".as_view") {
                f.child_by_field_id(fields().object)?
            } else {
                return None;
            }
        } else {
            v
        };
        let mut path = plain_path(v, self.src)?;
        let name = path.pop()?;
        Some(Callee {
            receiver: if path.is_empty() { Receiver::None } else { Receiver::path(path) },
            name: name.into(),
        })
    }
}

/// The keys of the `"properties"` object of a literal JSON schema dict.
fn schema_properties(schema: Node<'_>, src: &str) -> Vec<String> {
    if schema.kind() != "dictionary" {
        return Vec::new();
    }
    let mut c = schema.walk();
    let props = schema.named_children(&mut c).find(|p| {
        p.kind() == "pair"
            && p.child_by_field_id(fields().key).and_then(|k| string_value(k, src)).as_deref()
                == Some("properties")
    });
    let Some(value) = props.and_then(|p| p.child_by_field_id(fields().value)) else {
        return Vec::new();
    };
    if value.kind() != "dictionary" {
        return Vec::new();
    }
    let mut c = value.walk();
    value
        .named_children(&mut c)
        .filter_map(|p| p.child_by_field_id(fields().key).and_then(|k| string_value(k, src)))
        .collect()
}

/// Flask's `<int:id>` and `<id>` as `{id}`, which [`join_path`] turns into `:id`.
fn route_params(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(i) = rest.find('<') {
        let Some(j) = rest[i..].find('>') else { break };
        out.push_str(&rest[..i]);
        let inner = &rest[i + 1..i + j];
        let name = inner.rsplit(':').next().unwrap_or(inner);
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &rest[i + j + 1..];
    }
    out.push_str(rest);
    out
}

/// A Django `re_path` pattern as a path: anchors dropped, `(?P<name>...)` groups as `{name}`,
/// other escapes and groups kept as written.
fn regex_route(re: &str) -> String {
    let re = re.strip_prefix('^').unwrap_or(re);
    let re = re.strip_suffix('$').unwrap_or(re);
    let mut out = String::with_capacity(re.len());
    let mut rest = re;
    while let Some(i) = rest.find("(?P<") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 4..];
        let Some(close) = after.find('>') else { break };
        let name = &after[..close];
        // The group ends at its matching parenthesis.
        let mut depth = 1;
        let mut end = None;
        for (j, c) in after[close..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(close + j + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The value of keyword argument `name` of a call.
fn keyword<'t>(call: Node<'t>, name: &str, src: &str) -> Option<Node<'t>> {
    let args = call.child_by_field_id(fields().arguments)?;
    let mut c = args.walk();
    let found = args.named_children(&mut c).find(|a| {
        a.kind() == "keyword_argument"
            && a.child_by_field_id(fields().name).is_some_and(|n| text(n, src) == name)
    });
    found.and_then(|a| a.child_by_field_id(fields().value))
}

/// Positional argument `i` (0-based) of a call.
fn positional(call: Node<'_>, i: usize) -> Option<Node<'_>> {
    let args = call.child_by_field_id(fields().arguments)?;
    let mut c = args.walk();
    args.named_children(&mut c)
        .filter(|a| !matches!(a.kind(), "keyword_argument" | "comment"))
        .nth(i)
}

fn first_positional(call: Node<'_>) -> Option<Node<'_>> {
    positional(call, 0)
}

/// A URL literal as pieces: plain text, an f-string's substitutions as holes, `a + b` joined.
fn url_pieces<'s>(n: Node<'_>, src: &'s str) -> Option<Vec<Piece<'s>>> {
    match n.kind() {
        "string" => {
            let mut out = Vec::new();
            let mut c = n.walk();
            for ch in n.named_children(&mut c) {
                match ch.kind() {
                    "string_content" => out.push(Piece::Lit(text(ch, src))),
                    "interpolation" => out.push(Piece::Hole),
                    _ => {}
                }
            }
            Some(out)
        }
        "binary_operator" => {
            let mut left = url_pieces(n.child_by_field_id(fields().left)?, src)
                .unwrap_or_else(|| vec![Piece::Hole]);
            let right = url_pieces(n.child_by_field_id(fields().right)?, src)
                .unwrap_or_else(|| vec![Piece::Hole]);
            left.extend(right);
            Some(left)
        }
        _ => None,
    }
}

fn string_list(n: Node<'_>, src: &str) -> Vec<String> {
    let mut c = n.walk();
    n.named_children(&mut c).filter_map(|s| string_value(s, src)).collect()
}

/// A tool function's input fields: its parameters but `self`, `ctx` / `context` and splats.
fn params(def: Node<'_>, src: &str) -> Vec<String> {
    let Some(ps) = def.child_by_field_id(fields().parameters) else { return Vec::new() };
    let mut c = ps.walk();
    ps.named_children(&mut c)
        .filter_map(|p| {
            let n = match p.kind() {
                "identifier" => Some(p),
                "typed_parameter" => {
                    let mut c2 = p.walk();
                    p.named_children(&mut c2).find(|x| x.kind() == "identifier")
                }
                "default_parameter" | "typed_default_parameter" => {
                    p.child_by_field_id(fields().name)
                }
                _ => None,
            }?;
            let name = text(n, src);
            (!matches!(name, "self" | "cls" | "ctx" | "context")).then(|| name.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::route_params;

    #[test]
    fn django_regex_routes() {
        assert_eq!(super::regex_route(r"^articles/(?P<year>[0-9]{4})/$"), "articles/{year}/");
        assert_eq!(super::regex_route(r"^(?P<slug>[-\w]+)/(?P<n>(a|b))/x$"), "{slug}/{n}/x");
        assert_eq!(super::regex_route(r"^about/$"), "about/");
    }

    #[test]
    fn flask_parameters() {
        assert_eq!(route_params("/users/<int:id>/posts/<slug>"), "/users/{id}/posts/{slug}");
        assert_eq!(route_params("/plain"), "/plain");
        assert_eq!(route_params("/x/<broken"), "/x/<broken");
    }
}
