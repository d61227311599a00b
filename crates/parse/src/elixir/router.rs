//! Phoenix router routes: `get/post/put/patch/delete/options/head "/path", Controller,
//! :action`, `match :verb, ...`, `resources "/users", UserController` (the standard actions,
//! `only:` / `except:` honoured, nested resources under `/users/:user_id`), `live "/path",
//! Live` and `forward "/path", Plug`, inside `scope "/prefix", Alias do ... end` (paths and
//! aliases compose) and `pipe_through` (the pipelines are the route's middleware).
//!
//! A route form counts only in its Phoenix shape (a literal path, then a module alias), so a
//! test's `get(conn, "/")` is a call, not a route. Handlers: `Alias.Controller.action/2`, a
//! LiveView's `mount/3`, a forwarded plug's `call/2`, as references resolution ties to the
//! functions.

use super::Extractor;
use crate::facts::{Callee, Endpoint, EndpointKind, Handler, Receiver, SymbolIdx};
use crate::util::start_line;
use tree_sitter::Node;

const VERBS: &[&str] = &["get", "post", "put", "patch", "delete", "options", "head"];

/// Whether a module-level call may be a route form (its shape decides).
pub(super) fn is_route_form(name: &str) -> bool {
    VERBS.contains(&name)
        || matches!(name, "scope" | "resources" | "live" | "forward" | "match" | "pipe_through")
}

#[derive(Clone, Default)]
struct Scope {
    prefix: String,
    alias: Option<String>,
    pipes: Vec<String>,
}

/// The routes of one module-level route form (a scope with everything inside it).
pub(super) fn routes(x: &mut Extractor<'_>, stmt: Node<'_>, module: Option<SymbolIdx>) {
    let mut scope = Scope::default();
    form(x, stmt, &mut scope, module);
}

fn join(prefix: &str, path: &str) -> String {
    let p = prefix.trim_end_matches('/');
    let path = path.trim_start_matches('/');
    let joined = if path.is_empty() { p.to_string() } else { format!("{p}/{path}") };
    if joined.is_empty() {
        "/".to_string()
    } else if joined.starts_with('/') {
        joined
    } else {
        format!("/{joined}")
    }
}

fn module_of(scope: &Scope, written: &str) -> String {
    match &scope.alias {
        Some(a) => format!("{a}.{written}"),
        None => written.to_string(),
    }
}

fn form(x: &mut Extractor<'_>, call: Node<'_>, scope: &mut Scope, module: Option<SymbolIdx>) {
    let Some(name) = x.call_name(call) else { return };
    let args = x.args(call);
    match name {
        "scope" => {
            let mut inner = scope.clone();
            for a in &args {
                if let Some(path) = x.string(*a) {
                    inner.prefix = join(&scope.prefix, &path);
                } else if a.kind_id() == x.ids.alias {
                    inner.alias = Some(module_of(scope, x.text(*a)));
                } else if let Some(p) = x.keyword(*a, "path").and_then(|p| x.string(p)) {
                    inner.prefix = join(&scope.prefix, &p);
                }
                if let Some(al) = x.keyword(*a, "alias").filter(|n| n.kind_id() == x.ids.alias) {
                    inner.alias = Some(module_of(scope, x.text(al)));
                }
            }
            if let Some(body) = x.do_body(call) {
                block(x, body, &mut inner, module);
            }
        }
        "pipe_through" => {
            if let Some(a) = args.first() {
                if let Some(p) = x.atom(*a) {
                    scope.pipes.push(p.to_string());
                } else if a.kind_id() == x.ids.list {
                    for item in x.named_children(*a) {
                        if let Some(p) = x.atom(item) {
                            scope.pipes.push(p.to_string());
                        }
                    }
                }
            }
        }
        "resources" => resources(x, call, &args, scope, module),
        "live" | "forward" => {
            let (Some(path), Some(m)) = (args.first().and_then(|a| x.string(*a)), args.get(1))
            else {
                return;
            };
            if m.kind_id() != x.ids.alias {
                return;
            }
            let (method, handler) =
                if name == "live" { ("GET", "mount/3") } else { ("ANY", "call/2") };
            let target = module_of(scope, x.text(*m));
            push(x, call, scope, module, method, &join(&scope.prefix, &path), &target, handler);
        }
        "match" => {
            // `match :get, "/p", Ctrl, :action` / `match :*, ...`.
            let verb = args
                .first()
                .and_then(|a| x.atom(*a))
                .map(|v| if v == "*" { "ANY".to_string() } else { v.to_ascii_uppercase() });
            if let Some(verb) = verb {
                route(x, call, &args[1..], scope, module, &verb);
            }
        }
        verb if VERBS.contains(&verb) => {
            route(x, call, &args, scope, module, &verb.to_ascii_uppercase());
        }
        _ => {}
    }
}

fn block(x: &mut Extractor<'_>, body: Node<'_>, scope: &mut Scope, module: Option<SymbolIdx>) {
    for stmt in x.named_children(body) {
        if stmt.kind_id() == x.ids.call {
            form(x, stmt, scope, module);
        }
    }
}

/// `verb "/path", Controller, :action`.
fn route(
    x: &mut Extractor<'_>,
    call: Node<'_>,
    args: &[Node<'_>],
    scope: &Scope,
    module: Option<SymbolIdx>,
    method: &str,
) {
    let (Some(path), Some(ctrl), Some(action)) = (
        args.first().and_then(|a| x.string(*a)),
        args.get(1).filter(|c| c.kind_id() == x.ids.alias),
        args.get(2).and_then(|a| x.atom(*a)),
    ) else {
        return;
    };
    let target = module_of(scope, x.text(*ctrl));
    push(
        x,
        call,
        scope,
        module,
        method,
        &join(&scope.prefix, &path),
        &target,
        &format!("{action}/2"),
    );
}

#[allow(clippy::too_many_arguments)]
fn push(
    x: &mut Extractor<'_>,
    call: Node<'_>,
    scope: &Scope,
    module: Option<SymbolIdx>,
    method: &str,
    path: &str,
    target: &str,
    handler: &str,
) {
    x.facts.endpoints.push(Endpoint {
        kind: EndpointKind::Route,
        framework: "phoenix".to_string(),
        method: method.to_string(),
        name: path.to_string(),
        name_is_expr: false,
        description: None,
        fields: Vec::new(),
        response_keys: Vec::new(),
        status_codes: Vec::new(),
        middleware: scope.pipes.clone(),
        handler: Handler::Reference(Callee {
            receiver: Receiver::Path(vec![target.into()]),
            name: handler.into(),
        }),
        receiver: Vec::new(),
        line: start_line(call),
        enclosing: module,
        path_expr: Vec::new(),
    });
}

/// The standard actions of `resources` with their methods and paths (`:id` for members).
const ACTIONS: &[(&str, &str, &str)] = &[
    ("index", "GET", ""),
    ("edit", "GET", "/:id/edit"),
    ("new", "GET", "/new"),
    ("show", "GET", "/:id"),
    ("create", "POST", ""),
    ("update", "PATCH", "/:id"),
    ("update", "PUT", "/:id"),
    ("delete", "DELETE", "/:id"),
];

fn resources(
    x: &mut Extractor<'_>,
    call: Node<'_>,
    args: &[Node<'_>],
    scope: &Scope,
    module: Option<SymbolIdx>,
) {
    let (Some(path), Some(ctrl)) = (
        args.first().and_then(|a| x.string(*a)),
        args.get(1).filter(|c| c.kind_id() == x.ids.alias),
    ) else {
        return;
    };
    let opts = args.iter().copied().find(|a| a.kind_id() == x.ids.keywords);
    let names = |key: &str| -> Option<Vec<String>> {
        let list = opts.and_then(|o| x.keyword(o, key))?;
        Some(x.named_children(list).iter().filter_map(|a| x.atom(*a)).map(str::to_string).collect())
    };
    let (only, except) = (names("only"), names("except"));
    let singleton =
        opts.and_then(|o| x.keyword(o, "singleton")).is_some_and(|v| x.text(v).trim() == "true");
    let base = join(&scope.prefix, &path);
    let target = module_of(scope, x.text(*ctrl));
    for (action, method, suffix) in ACTIONS {
        if only.as_ref().is_some_and(|o| !o.iter().any(|a| a == action))
            || except.as_ref().is_some_and(|e| e.iter().any(|a| a == action))
            || singleton && *action == "index"
        {
            continue;
        }
        let suffix = if singleton { suffix.replace("/:id", "") } else { suffix.to_string() };
        let route_path = format!("{}{suffix}", base.trim_end_matches('/'));
        let route_path = if route_path.is_empty() { "/".to_string() } else { route_path };
        push(x, call, scope, module, method, &route_path, &target, &format!("{action}/2"));
    }
    // Nested resources: under `/users/:user_id`.
    if let Some(body) = x.do_body(call) {
        let stem = path.trim_matches('/').rsplit('/').next().unwrap_or("").to_string();
        let param = format!("{}_id", stem.strip_suffix('s').unwrap_or(&stem));
        let mut inner = scope.clone();
        inner.prefix = format!("{}/:{param}", base.trim_end_matches('/'));
        block(x, body, &mut inner, module);
    }
}
