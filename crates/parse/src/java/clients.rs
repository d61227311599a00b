//! HTTP client calls of a Java file with a literal URL, FETCHES candidates (read by the walk
//! at each method invocation):
//!
//! - Spring's `RestTemplate`: `getForObject` / `getForEntity` (GET), `postForObject` /
//!   `postForEntity` / `postForLocation` (POST), `patchForObject` (PATCH), and
//!   `exchange(url, HttpMethod.X, ..)`, the URL the first argument;
//! - Spring's `WebClient`: `.get().uri("/users/{id}", id)` and the other methods;
//! - `java.net.http`: `HttpRequest.newBuilder().uri(URI.create("..."))`, the method from a
//!   `.GET()` / `.POST(..)` / `.PUT(..)` / `.DELETE()` / `.method("X", ..)` later in the
//!   chain (else GET, the builder's default).
//!
//! URI template variables (`{id}`) and concatenated non-literals are path parameters.

use crate::endpoints::{Piece, client_path};
use crate::facts::{ClientCall, SymbolIdx};
use crate::util::{start_line, text};
use tree_sitter::Node;

fn arguments(call: Node<'_>) -> Vec<Node<'_>> {
    let Some(args) = call.child_by_field_name("arguments") else { return Vec::new() };
    let mut c = args.walk();
    args.named_children(&mut c).filter(|n| !n.kind().ends_with("comment")).collect()
}

fn method_name<'s>(call: Node<'_>, src: &'s str) -> &'s str {
    call.child_by_field_name("name").map_or("", |n| text(n, src))
}

/// Concatenations deeper than this are no URL we read (and cost no native stack).
const MAX_CONCAT: u32 = 64;

/// A URL expression as pieces: string literals (template variables `{x}` as holes), `+`
/// concatenations (a non-literal operand a hole).
fn pieces<'s>(n: Node<'_>, src: &'s str, out: &mut Vec<Piece<'s>>, depth: u32) -> bool {
    if depth > MAX_CONCAT {
        return false;
    }
    match n.kind() {
        "string_literal" => {
            let t = text(n, src);
            let mut rest = t.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(t);
            while let Some(i) = rest.find('{') {
                let Some(j) = rest[i..].find('}') else { break };
                out.push(Piece::Lit(&rest[..i]));
                out.push(Piece::Hole);
                rest = &rest[i + j + 1..];
            }
            out.push(Piece::Lit(rest));
            true
        }
        "binary_expression" => {
            let (Some(l), Some(r)) =
                (n.child_by_field_name("left"), n.child_by_field_name("right"))
            else {
                return false;
            };
            if !pieces(l, src, out, depth + 1) {
                out.push(Piece::Hole);
            }
            if !pieces(r, src, out, depth + 1) {
                out.push(Piece::Hole);
            }
            true
        }
        _ => false,
    }
}

fn push(
    client: &str,
    verb: &str,
    url: Node<'_>,
    at: Node<'_>,
    enclosing: Option<SymbolIdx>,
    src: &str,
    out: &mut Vec<ClientCall>,
) {
    let mut p = Vec::new();
    if !pieces(url, src, &mut p, 0)
        || !p.iter().any(|x| matches!(x, Piece::Lit(l) if !l.is_empty()))
    {
        return;
    }
    // A relative URI is a path under the client's base URL.
    let Some((path, has_base)) = client_path(&p, true) else { return };
    out.push(ClientCall {
        client: client.to_string(),
        method: verb.to_string(),
        path,
        has_base,
        line: start_line(at),
        enclosing,
    });
}

const REST_TEMPLATE: &[(&str, &str)] = &[
    ("getForObject", "GET"),
    ("getForEntity", "GET"),
    ("postForObject", "POST"),
    ("postForEntity", "POST"),
    ("postForLocation", "POST"),
    ("patchForObject", "PATCH"),
];

const VERBS: &[&str] = &["get", "post", "put", "delete", "patch", "head", "options"];

/// The client call a method invocation makes, if any.
pub(super) fn invocation(
    call: Node<'_>,
    enclosing: Option<SymbolIdx>,
    src: &str,
    out: &mut Vec<ClientCall>,
) {
    let name = method_name(call, src);
    let at = call.child_by_field_name("name").unwrap_or(call);
    let args = arguments(call);
    if let Some((_, verb)) = REST_TEMPLATE.iter().find(|(m, _)| *m == name) {
        if let Some(url) = args.first() {
            push("RestTemplate", verb, *url, at, enclosing, src, out);
        }
        return;
    }
    if name == "exchange" && args.len() >= 2 {
        let m = text(args[1], src);
        if let Some(verb) = m.strip_prefix("HttpMethod.") {
            push("RestTemplate", &verb.to_uppercase(), args[0], at, enclosing, src, out);
        }
        return;
    }
    if name != "uri" {
        return;
    }
    let Some(url) = args.first() else { return };
    let object = call.child_by_field_name("object");
    // WebClient: `.get().uri(...)`.
    if let Some(o) = object
        && o.kind() == "method_invocation"
        && VERBS.contains(&method_name(o, src))
        && arguments(o).is_empty()
    {
        push("WebClient", &method_name(o, src).to_uppercase(), *url, at, enclosing, src, out);
        return;
    }
    // java.net.http: `.uri(URI.create("..."))`.
    if url.kind() == "method_invocation"
        && method_name(*url, src) == "create"
        && url.child_by_field_name("object").is_some_and(|o| text(o, src).ends_with("URI"))
        && let Some(lit) = arguments(*url).first()
    {
        let mut verb = "GET".to_string();
        let mut up = call.parent();
        while let Some(p) = up {
            if p.kind() != "method_invocation" {
                break;
            }
            let m = method_name(p, src);
            if ["GET", "POST", "PUT", "DELETE"].contains(&m) {
                verb = m.to_string();
            } else if m == "method"
                && let Some(v) = arguments(p).first()
            {
                let v = text(*v, src).trim_matches('"');
                verb = v.to_uppercase();
            }
            up = p.parent();
        }
        push("java.net.http", &verb, *lit, at, enclosing, src, out);
    }
}
