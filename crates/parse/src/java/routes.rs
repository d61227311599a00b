//! HTTP routes a Java file declares with annotations, read by the walk as it enters each type
//! and method:
//!
//! - Spring MVC / WebFlux: a class annotated `@RestController` or `@Controller`, its
//!   `@RequestMapping` (`value` / `path`, the first one) the prefix; each method's
//!   `@GetMapping` / `@PostMapping` / `@PutMapping` / `@DeleteMapping` / `@PatchMapping`, or
//!   `@RequestMapping(value = ..., method = RequestMethod.X)` (no `method`: `ANY`), one route
//!   per path (`{"/a", "/b"}`) and method.
//! - JAX-RS (`javax.ws.rs` / `jakarta.ws.rs`): a class's `@Path` the prefix; each method with
//!   `@GET` / `@POST` / `@PUT` / `@DELETE` / `@PATCH` / `@HEAD` / `@OPTIONS`, under its own
//!   `@Path` if any.
//!
//! - Spring Cloud OpenFeign: an interface annotated `@FeignClient` (`path` its prefix) declares
//!   *client calls*, not routes: each mapping method is a call of that method and path
//!   (FETCHES candidates, `feign`, with a base URL).
//!
//! Paths are normalized like every route (`{id}` and `{id: \d+}` are `:id`); the handler is
//! the method's symbol.

use crate::endpoints::join_path;
use crate::facts::{ClientCall, Endpoint, Handler, SymbolIdx};
use crate::util::{start_line, text};
use tree_sitter::Node;

/// What a class contributes to its methods' routes.
#[derive(Clone, Debug)]
pub(super) struct RouteClass {
    framework: &'static str,
    prefix: String,
}

/// The annotations among a declaration's modifiers.
fn annotations(decl: Node<'_>) -> Vec<Node<'_>> {
    let mut c = decl.walk();
    let Some(mods) = decl.children(&mut c).find(|n| n.kind() == "modifiers") else {
        return Vec::new();
    };
    let mut c = mods.walk();
    mods.children(&mut c)
        .filter(|n| matches!(n.kind(), "marker_annotation" | "annotation"))
        .collect()
}

/// An annotation's simple name (`GetMapping` for `@org.x.GetMapping(...)`).
fn name<'s>(a: Node<'_>, src: &'s str) -> &'s str {
    let n = a.child_by_field_name("name").map_or("", |n| text(n, src));
    n.rsplit('.').next().unwrap_or(n)
}

/// The element values of `key` (`value` also takes the single unnamed element).
fn element<'t>(a: Node<'t>, key: &str, src: &str) -> Option<Node<'t>> {
    let args = a.child_by_field_name("arguments")?;
    let mut c = args.walk();
    for e in args.named_children(&mut c) {
        if e.kind() == "element_value_pair" {
            let k = e.child_by_field_name("key").map(|k| text(k, src));
            if k == Some(key) {
                return e.child_by_field_name("value");
            }
        } else if key == "value" {
            return Some(e);
        }
    }
    None
}

/// String literals of an element value: one, or each of an array (one level: annotation
/// arrays do not nest).
fn strings(v: Node<'_>, src: &str) -> Vec<String> {
    let literal = |n: Node<'_>| {
        let t = text(n, src);
        t.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(t).to_string()
    };
    match v.kind() {
        "string_literal" => vec![literal(v)],
        "element_value_array_initializer" => {
            let mut c = v.walk();
            v.named_children(&mut c).filter(|e| e.kind() == "string_literal").map(literal).collect()
        }
        _ => Vec::new(),
    }
}

/// The paths of a mapping annotation (`value` or `path`); `[""]` when it names none.
fn paths(a: Node<'_>, src: &str) -> Vec<String> {
    let v = element(a, "value", src).or_else(|| element(a, "path", src));
    let found = v.map(|v| strings(v, src)).unwrap_or_default();
    if found.is_empty() { vec![String::new()] } else { found }
}

/// The route context a class declares, if it is a controller or a resource.
pub(super) fn class(decl: Node<'_>, src: &str) -> Option<RouteClass> {
    let anns = annotations(decl);
    let named = |n: &str| anns.iter().copied().find(|a| name(*a, src) == n);
    if let Some(f) = named("FeignClient") {
        let prefix = element(f, "path", src)
            .and_then(|v| strings(v, src).into_iter().next())
            .unwrap_or_default();
        return Some(RouteClass { framework: "feign", prefix });
    }
    if named("RestController").is_some() || named("Controller").is_some() {
        let prefix = named("RequestMapping")
            .and_then(|a| paths(a, src).into_iter().next())
            .unwrap_or_default();
        return Some(RouteClass { framework: "spring", prefix });
    }
    if let Some(p) = named("Path") {
        let prefix = paths(p, src).into_iter().next().unwrap_or_default();
        return Some(RouteClass { framework: "jax-rs", prefix });
    }
    None
}

const SPRING: &[(&str, &str)] = &[
    ("GetMapping", "GET"),
    ("PostMapping", "POST"),
    ("PutMapping", "PUT"),
    ("DeleteMapping", "DELETE"),
    ("PatchMapping", "PATCH"),
];

const JAX_RS: &[&str] = &["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

/// The routes a method of a route class declares.
pub(super) fn method(
    class: &RouteClass,
    class_idx: SymbolIdx,
    decl: Node<'_>,
    idx: SymbolIdx,
    src: &str,
    out: &mut Vec<Endpoint>,
    clients: &mut Vec<ClientCall>,
) {
    let anns = annotations(decl);
    let mut push = |verb: &str, path: &str, at: Node<'_>| {
        if class.framework == "feign" {
            clients.push(ClientCall {
                client: "feign".to_string(),
                method: verb.to_string(),
                path: join_path(&class.prefix, path),
                has_base: true,
                line: start_line(at),
                enclosing: Some(idx),
            });
            return;
        }
        let mut e = Endpoint::route(
            class.framework,
            verb,
            join_path(&class.prefix, path),
            Handler::Symbol(idx),
        );
        e.line = start_line(at);
        e.enclosing = Some(class_idx);
        out.push(e);
    };
    if class.framework == "spring" || class.framework == "feign" {
        for a in &anns {
            let n = name(*a, src);
            if let Some((_, verb)) = SPRING.iter().find(|(k, _)| *k == n) {
                for p in paths(*a, src) {
                    push(verb, &p, *a);
                }
            } else if n == "RequestMapping" {
                let verbs: Vec<String> = match element(*a, "method", src) {
                    Some(v) if v.kind() == "element_value_array_initializer" => {
                        let mut c = v.walk();
                        v.named_children(&mut c).map(|m| verb_of(m, src)).collect()
                    }
                    Some(v) => vec![verb_of(v, src)],
                    None => vec!["ANY".to_string()],
                };
                for p in paths(*a, src) {
                    for verb in &verbs {
                        push(verb, &p, *a);
                    }
                }
            }
        }
        return;
    }
    let verb = anns.iter().map(|a| name(*a, src)).find(|n| JAX_RS.contains(n));
    let Some(verb) = verb else { return };
    let sub = anns
        .iter()
        .copied()
        .find(|a| name(*a, src) == "Path")
        .and_then(|a| paths(a, src).into_iter().next())
        .unwrap_or_default();
    let at = anns.first().copied().unwrap_or(decl);
    push(verb, &sub, at);
}

/// `RequestMethod.GET` -> `GET`.
fn verb_of(v: Node<'_>, src: &str) -> String {
    let t = text(v, src);
    t.rsplit('.').next().unwrap_or(t).trim().to_uppercase()
}

/// The packages whose `@Tool` / `@McpTool` annotations declare MCP tools: Spring AI (and its
/// MCP annotations) and LangChain4j; a file must import from one of them.
pub(super) const TOOL_ANNOTATIONS: &[&str] =
    &["org.springframework.ai", "org.springaicommunity.mcp", "dev.langchain4j"];

/// The MCP Java SDK: `new Tool(..)` declares a tool only in a file importing from it.
pub(super) const MCP_SDK: &str = "io.modelcontextprotocol";

/// A Spring AI tool method (`@Tool(name = "...", description = "...")`, or the MCP
/// annotations' `@McpTool`): the tool is named by `name` or the method, described by
/// `description`, its input fields the method's parameters.
pub(super) fn tool_method(
    decl: Node<'_>,
    idx: SymbolIdx,
    class_idx: Option<SymbolIdx>,
    method_name: &str,
    src: &str,
    out: &mut Vec<Endpoint>,
) {
    let Some(a) =
        annotations(decl).into_iter().find(|a| matches!(name(*a, src), "Tool" | "McpTool"))
    else {
        return;
    };
    let tool_name = element(a, "name", src)
        .and_then(|v| strings(v, src).into_iter().next())
        .unwrap_or_else(|| method_name.to_string());
    let mut e = Endpoint::route("spring-ai", "", tool_name, Handler::Symbol(idx));
    e.kind = crate::facts::EndpointKind::Tool;
    e.description = element(a, "description", src)
        .or_else(|| element(a, "value", src))
        .and_then(|v| strings(v, src).into_iter().next());
    if let Some(params) = decl.child_by_field_name("parameters") {
        let mut c = params.walk();
        e.fields = params
            .named_children(&mut c)
            .filter_map(|p| p.child_by_field_name("name"))
            .map(|n| text(n, src).to_string())
            .collect();
    }
    e.line = start_line(a);
    e.enclosing = class_idx;
    out.push(e);
}

/// The MCP Java SDK's tool declaration `new Tool("name", "description", schema)` (also
/// `new McpSchema.Tool(..)`): a tool named by its first argument, served by the code around
/// it (the handler lambda registered with it).
pub(super) fn sdk_tool(
    creation: Node<'_>,
    type_name: &str,
    enclosing: Option<SymbolIdx>,
    src: &str,
    out: &mut Vec<Endpoint>,
) {
    if type_name != "Tool" && type_name != "McpSchema.Tool" {
        return;
    }
    let Some(args) = creation.child_by_field_name("arguments") else { return };
    let mut c = args.walk();
    let literals: Vec<Option<String>> = args
        .named_children(&mut c)
        .filter(|n| !n.kind().ends_with("comment"))
        .map(|n| strings(n, src).into_iter().next())
        .collect();
    let Some(Some(tool_name)) = literals.first() else { return };
    let mut e = Endpoint::route("mcp-java-sdk", "", tool_name.clone(), Handler::Inline);
    e.kind = crate::facts::EndpointKind::Tool;
    e.description = literals.get(1).cloned().flatten();
    e.line = start_line(creation);
    e.enclosing = enclosing;
    out.push(e);
}
