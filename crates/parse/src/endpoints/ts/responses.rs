//! Literal responses of a handler: top-level JSON keys and status codes.

use super::*;

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// Response keys and status codes a handler sends: `res.json({..})`, `res.status(404)`,
    /// `c.json({..}, 201)`, `reply.code(201).send({..})`, `ctx.body = {..}`,
    /// `ctx.status = 201`, `NextResponse.json({..}, { status })`, `new Response(.., { status })`
    /// and `return {..}` from the handler itself. A method on any parameter of the handler (or
    /// of a callback inside it) counts; sending a body without a status means 200.
    pub(super) fn responses(&self, f: Option<Node<'t>>, ep: &mut Endpoint) {
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
    pub(super) fn params(&self, f: Node<'t>, out: &mut Vec<&'s str>) {
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
    pub(super) fn init_status(&self, init: Option<Node<'t>>) -> Option<u16> {
        let o = unwrap_expr(init?);
        if o.kind() != "object" {
            return None;
        }
        member(o, "status", self.src).and_then(|s| status_of(s, self.src))
    }

    pub(super) fn response_call(&self, call: Node<'t>, params: &[&'s str], ep: &mut Endpoint) {
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
