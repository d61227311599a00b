//! Calls written inside macro invocations, read from the flat token trees tree-sitter leaves
//! them as (`assert_eq!(f(x), g::h(2))`, `vec![a.b()?.c()]`): a name directly followed by a
//! parenthesized token tree is a call, its receiver read backwards from the tokens before it.
//!
//! Why it exists: a large share of Rust's calls are written in macro arguments (tests are
//! mostly `assert!`/`assert_eq!`), and the oracle counts them; the grammar does not parse a
//! token tree as expressions, so this reads the few shapes calls take. It looks at node kinds
//! to find sites ([`call_name`], shared with the call count) and at text only to name them.
//! Also criterion's benchmark macros ([`bench_macro`]), whose generated functions call the
//! benches they list.

use super::ids;
use crate::facts::{Callee, Receiver};
use crate::util::text;
use tree_sitter::Node;

/// Receiver chains longer than this end in `Other`.
const MAX_CHAIN: u32 = 32;

/// When `kids[i]` (a child of a token tree) is a parenthesized token tree that calls a name,
/// the index of that name: `f(..)`, `a.m(..)`, `a::f(..)`, `x.collect::<Vec<_>>(..)`. Not a
/// call: `m!(..)` (a nested macro, read on its own), `fn f(..)` and `struct S(..)`
/// declarations, keywords followed by parentheses (`if (..)`, `return (..)`).
pub(super) fn call_name(kids: &[Node<'_>], i: usize) -> Option<usize> {
    let ids = ids();
    let tt = kids.get(i)?;
    if tt.kind_id() != ids.token_tree || tt.child(0).is_none_or(|p| p.kind_id() != ids.lparen) {
        return None;
    }
    let mut j = i.checked_sub(1)?;
    let prev = kids[j].kind_id();
    if prev == ids.gt || prev == ids.shr {
        // A turbofish: back to its `<`, then `::` and the name.
        let mut depth: i32 = 0;
        loop {
            let k = kids[j].kind_id();
            if k == ids.gt {
                depth += 1;
            } else if k == ids.shr {
                depth += 2;
            } else if k == ids.lt {
                depth -= 1;
                if depth <= 0 {
                    break;
                }
            }
            j = j.checked_sub(1)?;
        }
        j = j.checked_sub(1)?;
        if kids[j].kind_id() != ids.colons {
            return None;
        }
        j = j.checked_sub(1)?;
    }
    // `default` is a keyword token in a token tree (`Config::default()`).
    if kids[j].kind_id() != ids.identifier && kids[j].kind() != "default" {
        return None;
    }
    if let Some(before) = j.checked_sub(1).map(|b| kids[b].kind_id())
        && (before == ids.r#fn || before == ids.r#struct)
    {
        return None;
    }
    Some(j)
}

/// The callee of the call whose name is `kids[name]`.
pub(super) fn callee(kids: &[Node<'_>], name: usize, src: &str) -> Callee {
    callee_at(kids, name, src, 0).0
}

/// The callee of the call whose name is `kids[name]`, and the index where the call starts.
fn callee_at(kids: &[Node<'_>], name: usize, src: &str, depth: u32) -> (Callee, usize) {
    let ids = ids();
    let called = text(kids[name], src).to_string();
    let Some(before) = name.checked_sub(1) else {
        return (Callee { receiver: Receiver::None, name: called.into() }, name);
    };
    let k = kids[before].kind_id();
    if k == ids.dot {
        let (receiver, start) = match before.checked_sub(1) {
            Some(end) => receiver(kids, end, src, depth + 1),
            None => (Receiver::Other, before),
        };
        (Callee { receiver, name: called.into() }, start)
    } else if k == ids.colons {
        // `a::b::f`: the path before it, segment by segment.
        let mut path = Vec::new();
        let mut j = before;
        let mut start = name;
        while j >= 1 && kids[j].kind_id() == ids.colons {
            let seg = kids[j - 1];
            if !matches!(seg.kind(), "identifier" | "self" | "super" | "crate") {
                break;
            }
            path.push(text(seg, src).into());
            start = j - 1;
            if j < 2 {
                break;
            }
            j -= 2;
        }
        path.push("::".into());
        path.reverse();
        let receiver = if path.len() == 1 { Receiver::Other } else { Receiver::Path(path) };
        (Callee { receiver, name: called.into() }, start)
    } else {
        (Callee { receiver: Receiver::None, name: called.into() }, name)
    }
}

/// The receiver expression ending at `kids[end]`, and the index where it starts.
fn receiver(kids: &[Node<'_>], end: usize, src: &str, depth: u32) -> (Receiver, usize) {
    let ids = ids();
    if depth > MAX_CHAIN {
        return (Receiver::Other, end);
    }
    let n = kids[end];
    match n.kind() {
        "self" => (Receiver::This, end),
        "identifier" | "integer_literal" => {
            let seg = text(n, src).to_string();
            if end >= 2 && kids[end - 1].kind_id() == ids.dot {
                match receiver(kids, end - 2, src, depth + 1) {
                    (Receiver::Path(mut p), s) => {
                        p.push(seg.into());
                        (Receiver::Path(p), s)
                    }
                    (Receiver::This, s) => (Receiver::Path(vec!["self".into(), seg.into()]), s),
                    (_, s) => (Receiver::Other, s),
                }
            } else if n.kind() == "identifier" {
                (Receiver::Path(vec![seg.into()]), end)
            } else {
                (Receiver::Other, end)
            }
        }
        "?" => match end.checked_sub(1) {
            Some(e) => {
                let (inner, s) = receiver(kids, e, src, depth + 1);
                (try_of(inner), s)
            }
            None => (Receiver::Other, end),
        },
        "string_literal" | "raw_string_literal" => {
            (Receiver::Path(vec!["new".into(), "str".into()]), end)
        }
        "token_tree" => match call_name(kids, end) {
            Some(name) => {
                let (c, start) = callee_at(kids, name, src, depth + 1);
                (Receiver::CallResult(Box::new(c)), start)
            }
            None => (Receiver::Other, end),
        },
        _ => (Receiver::Other, end),
    }
}

/// `e?` as a receiver: the value inside `e`'s `Ok` / `Some`.
pub(super) fn try_of(inner: Receiver) -> Receiver {
    match inner {
        r @ (Receiver::Path(_) | Receiver::CallResult(_) | Receiver::This) => {
            Receiver::CallResult(Box::new(Callee { receiver: r, name: "?".into() }))
        }
        _ => Receiver::Other,
    }
}

/// What a criterion benchmark macro written among items generates: `criterion_group!(benches,
/// a, b)` (or `criterion_group! { name = benches; config = ..; targets = a, b }`) a function
/// `benches` calling `a(..)` and `b(..)`; `criterion_main!(benches)` a `main` calling
/// `benches()`. The harness of nearly every crate's benches: without it every bench function
/// looks uncalled.
pub(super) struct BenchMacro<'t> {
    /// The function the macro defines.
    pub name: String,
    /// `criterion_main!`: its `main` is private (a group is `pub`).
    pub main: bool,
    /// The token tree's children (the delimiters included) ...
    pub kids: Vec<Node<'t>>,
    /// ... and the indices of the last segments of the functions it calls.
    pub targets: Vec<usize>,
}

/// See [`BenchMacro`]; `None` for any other macro, or a body of another shape.
pub(super) fn bench_macro<'t>(node: Node<'t>, src: &str) -> Option<BenchMacro<'t>> {
    let ids = ids();
    let path = text(node.child_by_field_id(ids.macro_)?, src);
    let main = match path.rsplit("::").next()? {
        "criterion_group" => false,
        "criterion_main" => true,
        _ => return None,
    };
    let tt = node.named_child(node.named_child_count().checked_sub(1)? as u32)?;
    if tt.kind_id() != ids.token_tree {
        return None;
    }
    let mut c = tt.walk();
    let kids: Vec<Node<'t>> = tt.children(&mut c).collect();
    let inner = 1..kids.len().saturating_sub(1);
    let tok = |i: usize| text(kids[i], src);
    let is_ident = |i: usize| kids[i].kind_id() == ids.identifier;
    // The comma-separated paths from `from` up to a `;` or the end: each one's last segment.
    let paths = |from: usize| -> Vec<usize> {
        let mut out = Vec::new();
        let mut last: Option<usize> = None;
        let mut plain = true;
        for i in from..inner.end {
            match tok(i) {
                "," | ";" => {
                    if let (Some(l), true) = (last, plain) {
                        out.push(l);
                    }
                    if tok(i) == ";" {
                        return out;
                    }
                    (last, plain) = (None, true);
                }
                "::" => {}
                _ if is_ident(i) => last = Some(i),
                _ => plain = false,
            }
        }
        if let (Some(l), true) = (last, plain) {
            out.push(l);
        }
        out
    };
    let first = inner.start;
    if first >= inner.end {
        return None;
    }
    let (name, targets) = if main {
        ("main".to_string(), paths(first))
    } else if is_ident(first) && first + 1 < inner.end && tok(first + 1) == "," {
        (tok(first).to_string(), paths(first + 2))
    } else {
        // `name = benches; config = ..; targets = a, b`
        let at = |key: &str| {
            (first..inner.end.saturating_sub(1))
                .find(|&i| is_ident(i) && tok(i) == key && tok(i + 1) == "=")
                .map(|i| i + 2)
        };
        let n = at("name").filter(|&i| i < inner.end && is_ident(i))?;
        (tok(n).to_string(), at("targets").map(paths).unwrap_or_default())
    };
    Some(BenchMacro { name, main, kids, targets })
}
