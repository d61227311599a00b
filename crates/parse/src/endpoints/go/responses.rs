//! Literal responses of a handler: top-level JSON keys and status codes.

use super::*;

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// Response keys and status codes a handler sends: gin / echo `c.JSON(code, gin.H{...})`,
    /// `c.String(code, ...)`, `c.AbortWithStatus(code)`, `c.NoContent(code)`; net/http
    /// `w.WriteHeader(code)`, `http.Error(w, msg, code)`, `http.NotFound(w, r)`,
    /// `json.NewEncoder(w).Encode(map...)`; chi `render.JSON(w, r, map...)`,
    /// `render.Status(r, code)`. A method on any parameter of the handler (or of a closure
    /// inside it) counts.
    pub(super) fn responses(&self, f: Option<Node<'t>>, ep: &mut Endpoint) {
        let Some(f) = f else { return };
        let mut params: Vec<&'s str> = Vec::new();
        let mut stack = vec![f];
        let mut visited = 0usize;
        while let Some(n) = stack.pop() {
            visited += 1;
            if visited > MAX_SCAN {
                break;
            }
            if is_function(n.kind())
                && let Some(list) = n.child_by_field_name("parameters")
            {
                for d in named_children(list) {
                    let mut c = d.walk();
                    for name in d.children_by_field_name("name", &mut c) {
                        params.push(self.text(name));
                    }
                }
            }
            if n.kind() == "call_expression" {
                self.response_call(n, &params, ep);
            }
            stack.extend(named_children(n).into_iter().rev());
        }
    }

    pub(super) fn response_call(&self, call: Node<'t>, params: &[&'s str], ep: &mut Endpoint) {
        let Some((op, field)) = selector_call(call) else { return };
        let m = self.text(field);
        let a = call_args(call);
        let status = |i: usize| a.get(i).and_then(|x| status_of(*x, self.src));
        let keys = |i: usize| a.get(i).map_or_else(Vec::new, |x| map_keys(*x, self.src));
        let on = if op.kind() == "identifier" { self.text(op) } else { "" };
        if params.contains(&on) {
            match m {
                "JSON"
                | "IndentedJSON"
                | "PureJSON"
                | "SecureJSON"
                | "AsciiJSON"
                | "JSONP"
                | "JSONPretty"
                | "XML"
                | "XMLPretty"
                | "YAML"
                | "TOML"
                | "AbortWithStatusJSON" => {
                    ep.status_codes.extend(status(0));
                    ep.response_keys.extend(keys(1));
                }
                "String" | "HTML" | "Blob" | "Data" | "Redirect" | "Status" | "AbortWithStatus"
                | "WriteHeader" | "NoContent" | "Stream" | "File" | "Attachment" => {
                    ep.status_codes.extend(status(0));
                }
                _ => {}
            }
            return;
        }
        match (on, m) {
            ("http", "Error") => ep.status_codes.extend(status(2)),
            ("http", "NotFound") => ep.status_codes.push(404),
            ("http", "Redirect") => ep.status_codes.extend(status(3)),
            ("render", "JSON") => ep.response_keys.extend(keys(2)),
            ("render", "Status") => ep.status_codes.extend(status(1)),
            _ => {}
        }
        // json.NewEncoder(w).Encode(v)
        if m == "Encode"
            && op.kind() == "call_expression"
            && let Some(inner) =
                op.child_by_field_name("function").and_then(|f| callee_of(f, self.src))
            && inner.name == "NewEncoder"
            && call_args(op)
                .first()
                .is_some_and(|w| w.kind() == "identifier" && params.contains(&self.text(*w)))
        {
            ep.response_keys.extend(keys(0));
        }
    }
}
