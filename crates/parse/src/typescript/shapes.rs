//! Pure readers of small TS/JS syntax shapes: what a call expression calls, which type name an
//! annotation names, how a property key spells its name, how an assignment target names the
//! function assigned to it. Kept apart from the walk so each rule is small and testable, and so
//! the walk reads as "which node opens which fact".
//!
//! Every reader is bounded (loops or capped recursion): deep or minified input cannot blow the
//! stack.

use crate::facts::{Callee, Receiver};
use crate::util::text;
use tree_sitter::Node;

/// How many calls deep a `f().g().h()` receiver chain is kept before it becomes `Other`.
const MAX_CALL_CHAIN: usize = 8;
/// Longest identifier path kept as a receiver (`a.b.c.m()`).
const MAX_PATH: usize = 32;

/// The first named child that is not a comment.
pub fn first_named(n: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor).find(|c| c.kind() != "comment")
}

/// Whether a node has a direct anonymous child of the given kind (`type`, `*`, `global`...).
pub fn has_token(n: Node<'_>, kind: &str) -> bool {
    let mut cursor = n.walk();
    n.children(&mut cursor).any(|c| !c.is_named() && c.kind() == kind)
}

/// Strips what the oracle's `unwrap` strips: parentheses, `as`, `satisfies`, `!`, `<T>x`.
pub fn unwrap_expr(mut n: Node<'_>) -> Node<'_> {
    loop {
        let inner = match n.kind() {
            "parenthesized_expression"
            | "non_null_expression"
            | "as_expression"
            | "satisfies_expression" => first_named(n),
            "type_assertion" => {
                n.named_child(u32::try_from(n.named_child_count().saturating_sub(1)).unwrap_or(0))
            }
            _ => None,
        };
        match inner {
            Some(i) if i.kind() != "sequence_expression" => n = i,
            _ => return n,
        }
    }
}

/// Function and function-like expression kinds across the three grammars.
pub fn is_function_expr(kind: &str) -> bool {
    matches!(kind, "arrow_function" | "function_expression" | "function" | "generator_function")
}

/// The oracle's `isFuncOrClassExpr`: the (unwrapped) value is a function or class expression.
pub fn is_fn_or_class_value(value: Option<Node<'_>>) -> bool {
    value.is_some_and(|v| {
        let k = unwrap_expr(v).kind();
        is_function_expr(k) || k == "class"
    })
}

/// The content of a string literal node, quotes removed (escapes kept as written).
pub fn string_content<'s>(n: Node<'_>, src: &'s str) -> &'s str {
    let t = text(n, src);
    if t.len() >= 2 { t.get(1..t.len() - 1).unwrap_or("") } else { "" }
}

/// A property / member key as the oracle's `propName` spells it: identifiers and `#private`
/// as written, string literals without quotes, computed keys as `[expr]`.
pub fn prop_name(key: Node<'_>, src: &str) -> String {
    match key.kind() {
        "string" => string_content(key, src).to_string(),
        "computed_property_name" => {
            let inner = first_named(key).map_or("", |e| text(e, src));
            format!("[{inner}]")
        }
        _ => text(key, src).to_string(),
    }
}

/// What a call expression's `function` (or a `new` expression's `constructor`) calls, and the
/// node whose position the site reports (the called name). `None` when the callee has no name
/// (IIFEs, `f()()`, `(0, f)()`, computed subscripts).
pub fn callee_of<'t>(expr: Node<'t>, src: &str) -> Option<(Callee, Node<'t>)> {
    callee_at(expr, src, 0)
}

fn callee_at<'t>(expr: Node<'t>, src: &str, depth: usize) -> Option<(Callee, Node<'t>)> {
    let e = unwrap_expr(expr);
    match e.kind() {
        "identifier" => Some((Callee { receiver: Receiver::None, name: text(e, src).into() }, e)),
        "super" => Some((Callee { receiver: Receiver::Super, name: "constructor".into() }, e)),
        "member_expression" => {
            let prop = e.child_by_field_name("property")?;
            let obj = e.child_by_field_name("object")?;
            Some((
                Callee { receiver: receiver_of(obj, src, depth), name: text(prop, src).into() },
                prop,
            ))
        }
        "subscript_expression" => {
            let idx = e.child_by_field_name("index")?;
            if idx.kind() != "string" {
                return None;
            }
            Some((Callee { receiver: Receiver::Other, name: string_content(idx, src).into() }, idx))
        }
        _ => None,
    }
}

fn receiver_of(obj: Node<'_>, src: &str, depth: usize) -> Receiver {
    let mut o = obj;
    while o.kind() == "non_null_expression" {
        match first_named(o) {
            Some(i) => o = i,
            None => return Receiver::Other,
        }
    }
    match o.kind() {
        "this" => Receiver::This,
        "super" => Receiver::Super,
        "identifier" => Receiver::Path(vec![text(o, src).into()]),
        // A literal's methods are its runtime type's (`'a'.repeat(2)`, `[1].map(f)`): read as
        // that constructor's name, a runtime global, so the call is external, not unresolved.
        "string" | "template_string" => Receiver::Path(vec!["String".into()]),
        "array" => Receiver::Path(vec!["Array".into()]),
        "number" => Receiver::Path(vec!["Number".into()]),
        "regex" => Receiver::path(["RegExp"]),
        "member_expression" => path_of(o, src).map_or(Receiver::Other, Receiver::path),
        // `new X().m()`: read as a call of `X` (resolution takes a class called for an
        // instance of it; calling a class without `new` does not compile).
        "new_expression" if depth < MAX_CALL_CHAIN => {
            let inner =
                o.child_by_field_name("constructor").and_then(|f| callee_at(f, src, depth + 1));
            match inner {
                Some((c, _)) => Receiver::CallResult(Box::new(c)),
                None => Receiver::Other,
            }
        }
        "call_expression" if depth < MAX_CALL_CHAIN => {
            let inner = o
                .child_by_field_name("function")
                .filter(|_| !is_tagged_template(o))
                .and_then(|f| callee_at(f, src, depth + 1));
            match inner {
                Some((c, _)) => Receiver::CallResult(Box::new(c)),
                None => Receiver::Other,
            }
        }
        _ => Receiver::Other,
    }
}

/// `a.b.c` / `this.x.y` as a list of names, when every link is a plain name.
pub fn path_of(member: Node<'_>, src: &str) -> Option<Vec<String>> {
    let mut rev: Vec<&str> = Vec::new();
    let mut n = member;
    loop {
        match n.kind() {
            "member_expression" => {
                let prop = n.child_by_field_name("property")?;
                if !matches!(prop.kind(), "property_identifier" | "private_property_identifier")
                    || rev.len() >= MAX_PATH
                {
                    return None;
                }
                rev.push(text(prop, src));
                n = n.child_by_field_name("object")?;
            }
            "non_null_expression" => n = first_named(n)?,
            "identifier" | "this" => {
                rev.push(text(n, src));
                break;
            }
            _ => return None,
        }
    }
    rev.reverse();
    Some(rev.into_iter().map(str::to_string).collect())
}

/// A call expression whose arguments are a template string: a tagged template, which the
/// compiler does not count as a call.
pub fn is_tagged_template(call: Node<'_>) -> bool {
    call.child_by_field_name("arguments").is_some_and(|a| a.kind() == "template_string")
}

/// The type name a type (or type annotation) names: generics, `readonly`, `[]` (and `Array<T>`,
/// and the member-keeping `Partial<T>`, `Required<T>`, `Readonly<T>`, `NonNullable<T>`),
/// parentheses and unions reduced to their first member that is not `null` / `undefined`; `None` when it is not
/// a (dotted) name.
pub fn type_name(t: Node<'_>, src: &str) -> Option<String> {
    let n = named_type(t, src)?;
    let n = if n.kind() == "generic_type" { n.child_by_field_name("name")? } else { n };
    match n.kind() {
        "nested_type_identifier" | "member_expression" => Some(dotted(text(n, src))),
        _ => Some(text(n, src).to_string()),
    }
}

/// The type arguments of the generic type a type (or annotation) names, reduced as
/// [`type_name`] reduces (empty: an argument that names no type): `core.$constructor<ZodType>`
/// gives [`ZodType`]; `None` when the named type is not generic (arrays name their element).
pub fn type_args(t: Node<'_>, src: &str) -> Option<Vec<String>> {
    let n = named_type(t, src).filter(|n| n.kind() == "generic_type")?;
    let args = arg_names(n.child_by_field_name("type_arguments")?, src);
    (!args.is_empty()).then_some(args)
}

/// Each type argument of a `type_arguments` node reduced as [`type_name`] reduces, empty for
/// one that names no type (`number`, a literal, an object type).
pub fn arg_names(args: Node<'_>, src: &str) -> Vec<String> {
    let mut cursor = args.walk();
    args.named_children(&mut cursor)
        .filter(|a| a.kind() != "comment")
        .map(|a| type_name(a, src).unwrap_or_default())
        .collect()
}

/// The node that names the type a type stands for (a name, a dotted name, or a generic type
/// other than `Array<T>`), through annotations, `readonly`, arrays, parentheses, unions (their
/// first member that is not `null` / `undefined`) and intersections (their first member that
/// names a type).
fn named_type<'t>(t: Node<'t>, src: &str) -> Option<Node<'t>> {
    let mut t = t;
    loop {
        match t.kind() {
            "type_annotation"
            | "opting_type_annotation"
            | "omitting_type_annotation"
            | "array_type"
            | "readonly_type"
            | "parenthesized_type" => t = first_named(t)?,
            // `Array<T>` / `ReadonlyArray<T>` name their element, as `T[]` does; `Partial<T>`,
            // `Required<T>`, `Readonly<T>` and `NonNullable<T>` have `T`'s members.
            "generic_type"
                if t.child_by_field_name("name").is_some_and(|n| {
                    matches!(
                        text(n, src),
                        "Array"
                            | "ReadonlyArray"
                            | "Partial"
                            | "Required"
                            | "Readonly"
                            | "NonNullable"
                    )
                }) =>
            {
                let args = t.child_by_field_name("type_arguments")?;
                t = first_named(args)?;
            }
            "generic_type" | "type_identifier" | "identifier" | "nested_type_identifier" => {
                return Some(t);
            }
            "union_type" => t = single_non_null(t, src)?,
            // `Readonly<Observer<any>> & { closed: true }`: its first member that names a
            // type (a value of it has that type's members).
            "intersection_type" => {
                let mut c = t.walk();
                let first = t.named_children(&mut c).find(|m| named_type(*m, src).is_some());
                t = first?;
            }
            // `typeof Action`: the class object; constructing or calling it gives an
            // `Action`, and its static members are the class's.
            "type_query" => {
                let q = first_named(t)?;
                return matches!(q.kind(), "identifier" | "member_expression").then_some(q);
            }
            _ => return None,
        }
    }
}

/// The first member of a union, in source order, that is not `null` / `undefined`: the
/// TypeScript checker resolves a member call on a union receiver to the first member's
/// declaration, and so does the oracle.
fn single_non_null<'t>(union: Node<'t>, src: &str) -> Option<Node<'t>> {
    // `A | B | C` nests to the left: visit members in source order with an explicit stack.
    let mut stack = vec![union];
    while let Some(n) = stack.pop() {
        if n.kind() == "union_type" {
            let mut cursor = n.walk();
            let children: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        } else if n.kind() != "comment" && !matches!(text(n, src), "null" | "undefined") {
            return Some(n);
        }
    }
    None
}

/// Removes whitespace (and comments are not expected) from a dotted name as written.
pub fn dotted(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The heritage target an `extends` value names: `Base`, `ns.Base`; `None` for computed
/// superclasses (`mixin(Base)`), whose class the syntax does not name.
pub fn heritage_target(n: Node<'_>, src: &str) -> Option<String> {
    let n = unwrap_expr(n);
    match n.kind() {
        "identifier" | "type_identifier" => Some(text(n, src).to_string()),
        "member_expression" | "nested_type_identifier" | "nested_identifier" => {
            let s = dotted(text(n, src));
            s.split('.')
                .all(|p| {
                    !p.is_empty() && p.chars().all(|c| c == '_' || c == '$' || c.is_alphanumeric())
                })
                .then_some(s)
        }
        "generic_type" => n.child_by_field_name("name").and_then(|t| heritage_target(t, src)),
        _ => None,
    }
}

/// The oracle's `assignmentName`: the name `lhs = function` gives the function
/// (`exports.f` -> `f`, `X.prototype.m` -> `X.m`, `this.x` -> `x`, `module.exports` as is).
pub fn assignment_name(lhs: &str) -> String {
    let mut s = dotted(lhs);
    if let Some(rest) = s.strip_prefix("module.exports") {
        s = rest.strip_prefix('.').unwrap_or(rest).to_string();
    }
    if let Some(rest) = s.strip_prefix("exports.") {
        s = rest.to_string();
    }
    if let Some(rest) = s.strip_prefix("this.") {
        s = rest.to_string();
    }
    if let Some(pos) = s.find(".prototype.") {
        s.replace_range(pos..pos + ".prototype.".len(), ".");
    }
    if s.is_empty() { "module.exports".to_string() } else { s }
}

#[cfg(test)]
mod tests {
    use super::assignment_name;

    #[test]
    fn assignment_names_follow_the_oracle() {
        assert_eq!(assignment_name("exports.f"), "f");
        assert_eq!(assignment_name("module.exports"), "module.exports");
        assert_eq!(assignment_name("module.exports.g"), "g");
        assert_eq!(assignment_name("X.prototype.m"), "X.m");
        assert_eq!(assignment_name("this.handler"), "handler");
        assert_eq!(assignment_name("a . b"), "a.b");
    }
}
