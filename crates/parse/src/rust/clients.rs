//! HTTP client calls of Rust files (reqwest), read by the routes pass (`routes.rs`) at each
//! call, so that a client's `GET /users/:param` can be matched to the route that serves it
//! (FETCHES). Only files that use reqwest get here.
//!
//! Shapes: `reqwest::get(url)` and `reqwest::blocking::get(url)` (GET); a method call
//! `.get(url)`, `.post(url)`, `.put(url)`, `.delete(url)`, `.patch(url)`, `.head(url)` on any
//! receiver (a `Client`, `self.http`, `Client::new()`), and `.request(Method::X, url)` (`ANY`
//! when the method is not a literal path). The URL is a string literal, a `format!` (its
//! `{..}` placeholders are substitutions, `{{` a brace), a `+` concatenation, `&` / `.as_str()`
//! / `.to_string()` of those, or a local bound to one of those earlier in the same function
//! (`let url = format!("{}/users", base);`). A URL must start with `/`, a scheme and host, or a
//! substitution followed by `/` (a base URL): a method call `.get("key")` is no client call,
//! nor is one whose URL is only a variable.

use crate::endpoints::{Piece, client_path};
use crate::util::text;
use std::collections::HashMap;
use tree_sitter::Node;

/// Most pieces read from one URL expression (longer concatenations are not read).
const MAX_PIECES: usize = 64;

/// Let-bound values per function scope (the latest binding of a name wins).
#[derive(Default)]
pub(super) struct Lets<'t> {
    values: HashMap<(u32, String), Node<'t>>,
}

impl<'t> Lets<'t> {
    /// Records `let name = value` in function scope `scope` when the value may be a URL.
    pub(super) fn bind(&mut self, scope: u32, name: &str, value: Node<'t>) {
        let v = super::routes::unwrap_expr(value);
        if matches!(
            v.kind(),
            "string_literal" | "raw_string_literal" | "macro_invocation" | "binary_expression"
        ) {
            self.values.insert((scope, name.to_string()), v);
        } else {
            self.values.remove(&(scope, name.to_string()));
        }
    }

    fn get(&self, scope: u32, name: &str) -> Option<Node<'t>> {
        self.values.get(&(scope, name.to_string())).copied()
    }
}

/// A client call read at a call expression.
pub(super) struct Read<'t> {
    pub(super) method: &'static str,
    pub(super) path: String,
    pub(super) has_base: bool,
    /// The called name (`get` of `client.get(..)` or of `reqwest::get(..)`).
    pub(super) at: Node<'t>,
}

const VERBS: &[(&str, &str)] = &[
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("delete", "DELETE"),
    ("patch", "PATCH"),
    ("head", "HEAD"),
];

/// The client call a call expression makes, if any: `func` is its function expression, `args` its
/// arguments, `scope` the function whose locals are visible.
pub(super) fn read<'t>(
    func: Node<'t>,
    args: &[Node<'t>],
    src: &str,
    lets: &Lets<'t>,
    scope: u32,
) -> Option<Read<'t>> {
    let (method, url, at) = match func.kind() {
        "field_expression" => {
            let at = func.child_by_field_name("field")?;
            let name = text(at, src);
            match (name, args) {
                ("request", [m, url]) => {
                    let t = text(*m, src);
                    let last = t.rsplit("::").next().unwrap_or(t).trim();
                    let verb = VERBS.iter().map(|(_, v)| *v).find(|v| *v == last);
                    (verb.unwrap_or("ANY"), *url, at)
                }
                (n, [url]) => (VERBS.iter().find(|(k, _)| *k == n)?.1, *url, at),
                _ => return None,
            }
        }
        "scoped_identifier" => {
            // `reqwest::get(url)`, `reqwest::blocking::get(url)`.
            let t = text(func, src);
            let first = t.trim_start_matches("::").split("::").next().unwrap_or("").trim();
            let at = func.child_by_field_name("name")?;
            match (first, text(at, src), args) {
                ("reqwest", "get", [url]) => ("GET", *url, at),
                _ => return None,
            }
        }
        _ => return None,
    };
    let mut pieces: Vec<Owned> = Vec::new();
    url_pieces(url, src, lets, scope, &mut pieces);
    if !pieces.iter().any(|p| matches!(p, Owned::Lit(l) if !l.is_empty())) {
        return None;
    }
    let borrowed: Vec<Piece<'_>> = pieces
        .iter()
        .map(|p| match p {
            Owned::Lit(s) => Piece::Lit(s),
            Owned::Hole => Piece::Hole,
        })
        .collect();
    let (path, has_base) = client_path(&borrowed, false)?;
    Some(Read { method, path, has_base, at })
}

/// A piece of a URL being read.
enum Owned {
    Lit(String),
    Hole,
}

/// The pieces of a URL expression (see the module doc); anything unread is a substitution.
/// Iterative: `+` chains are walked down their left operands, at most [`MAX_PIECES`].
fn url_pieces<'t>(n: Node<'t>, src: &str, lets: &Lets<'t>, scope: u32, out: &mut Vec<Owned>) {
    // Right operands of the `+` chain, innermost last.
    let mut rights: Vec<Node<'t>> = Vec::new();
    let mut cur = value_of(n, src, lets, scope);
    while cur.kind() == "binary_expression"
        && cur.child_by_field_name("operator").is_some_and(|o| text(o, src) == "+")
        && rights.len() < MAX_PIECES
    {
        let (Some(l), Some(r)) =
            (cur.child_by_field_name("left"), cur.child_by_field_name("right"))
        else {
            break;
        };
        rights.push(r);
        cur = value_of(l, src, lets, scope);
    }
    if cur.kind() == "binary_expression" {
        out.push(Owned::Hole);
    } else {
        leaf(cur, src, out);
    }
    for r in rights.into_iter().rev() {
        let r = value_of(r, src, lets, scope);
        if r.kind() == "binary_expression" {
            out.push(Owned::Hole);
        } else {
            leaf(r, src, out);
        }
    }
}

/// `&e`, `e.as_str()`, `e.to_string()`, `(e)`, a local bound to a URL: the expression that
/// holds the value.
fn value_of<'t>(n: Node<'t>, src: &str, lets: &Lets<'t>, scope: u32) -> Node<'t> {
    let mut n = n;
    for _ in 0..MAX_PIECES {
        let u = super::routes::unwrap_expr(n);
        let next = match u.kind() {
            "call_expression" => {
                let f =
                    u.child_by_field_name("function").filter(|f| f.kind() == "field_expression");
                let method = f.and_then(|f| f.child_by_field_name("field")).map(|m| text(m, src));
                let no_args =
                    u.child_by_field_name("arguments").is_some_and(|a| a.named_child_count() == 0);
                match method {
                    Some("as_str" | "to_string" | "to_owned" | "as_ref" | "clone" | "into")
                        if no_args =>
                    {
                        f.and_then(|f| f.child_by_field_name("value"))
                    }
                    _ => None,
                }
            }
            "identifier" => lets.get(scope, text(u, src)),
            _ => None,
        };
        match next {
            Some(x) if x.id() != n.id() => n = x,
            _ => return u,
        }
    }
    n
}

/// One operand: a string literal, a `format!`, or a substitution.
fn leaf(n: Node<'_>, src: &str, out: &mut Vec<Owned>) {
    if let Some(s) = super::routes::string_value(n, src) {
        out.push(Owned::Lit(s));
        return;
    }
    if n.kind() == "macro_invocation"
        && n.child_by_field_name("macro").is_some_and(|m| text(m, src) == "format")
    {
        let mut c = n.walk();
        let tt = n.named_children(&mut c).find(|x| x.kind() == "token_tree");
        let first = tt.and_then(|t| t.named_child(0));
        if let Some(s) = first.and_then(|f| super::routes::string_value(f, src)) {
            format_pieces(&s, out);
            return;
        }
    }
    out.push(Owned::Hole);
}

/// A format string as pieces: `{{` and `}}` are braces, `{..}` a substitution.
fn format_pieces(s: &str, out: &mut Vec<Owned>) {
    let mut lit = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
                out.push(Owned::Lit(std::mem::take(&mut lit)));
                out.push(Owned::Hole);
            }
            _ => lit.push(c),
        }
    }
    out.push(Owned::Lit(lit));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rust::routes::tests::render;
    use expect_test::expect;

    #[test]
    fn reqwest_calls() {
        let src = r#"
use reqwest::Client;

async fn calls(client: &Client, base: &str, id: u32) -> Result<()> {
    let body = reqwest::get("https://api.x.io/users?x=1").await?;
    client.get(format!("{base}/users/{}", id)).send().await?;
    client
        .post(&format!("{}/users", base))
        .json(&x)
        .send()
        .await?;
    let url = format!("http://h/items/{id}/tags");
    client.delete(&url).send().await?;
    client.request(reqwest::Method::PUT, "/rel/x").send().await?;
    client.request(method, "/any").send().await?;
    client.patch(base.to_string() + "/p/" + &id.to_string()).send().await?;
    reqwest::blocking::get("http://h/b")?;
    Client::new().head("https://h/{{literal}}/x#frag").send().await?;
    // Not client calls: a key without a path, a URL only a variable holds.
    map.get("key");
    client.get(other_url).send().await?;
    let url = compute();
    client.get(url.as_str()).send().await?;
    Ok(())
}
"#;
        expect![[r#"
            client L5 reqwest GET /users base in=calls
            client L6 reqwest GET /users/:param base in=calls
            client L8 reqwest POST /users base in=calls
            client L13 reqwest DELETE /items/:param/tags base in=calls
            client L14 reqwest PUT /rel/x in=calls
            client L15 reqwest ANY /any in=calls
            client L16 reqwest PATCH /p/:param base in=calls
            client L17 reqwest GET /b base in=calls
            client L18 reqwest HEAD /{{literal}}/x base in=calls
        "#]]
        .assert_eq(&render(src));
        // A file that does not use reqwest makes no reqwest calls.
        assert_eq!(render(&src.replace("reqwest", "ureq")), "");
    }

    #[test]
    fn format_strings() {
        let mut out = Vec::new();
        format_pieces("{base}/users/{}/x{{y}}", &mut out);
        let shown: Vec<String> = out
            .iter()
            .map(|p| match p {
                Owned::Lit(s) => s.clone(),
                Owned::Hole => "#".to_string(),
            })
            .collect();
        assert_eq!(shown, ["", "#", "/users/", "#", "/x{y}"]);
    }
}
