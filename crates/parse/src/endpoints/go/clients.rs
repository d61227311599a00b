//! Client calls (`http.Get`, `http.NewRequest`, `client.Do`...) with their method and URL, for
//! FETCHES.

use super::*;

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// net/http `http.Get(url)`, `http.Head(url)`, `http.Post(url, ...)`,
    /// `http.PostForm(url, ...)`, `http.NewRequest(method, url, body)`,
    /// `http.NewRequestWithContext(ctx, method, url, body)`.
    pub(super) fn http_client(&mut self, at: Node<'t>, name: &str, a: &[Node<'t>]) {
        let (method, url) = match name {
            "Get" => ("GET".to_string(), a.first()),
            "Head" => ("HEAD".to_string(), a.first()),
            "Post" | "PostForm" => ("POST".to_string(), a.first()),
            "NewRequest" => (self.method_of(a.first()), a.get(1)),
            "NewRequestWithContext" => (self.method_of(a.get(1)), a.get(2)),
            _ => return,
        };
        let Some(url) = url else { return };
        let mut pieces = Vec::new();
        self.url_pieces(*url, 0, &mut pieces);
        let Some((path, has_base)) = client_path(&pieces, false) else { return };
        let (line, col) = (start_line(at), start_col(at));
        let c = ClientCall {
            client: "http".to_string(),
            method,
            path,
            has_base,
            line,
            enclosing: self.enclosing.of(line, col),
        };
        self.clients.push((col, c));
    }

    /// A request method: a literal (`"PUT"`) or a net/http constant (`http.MethodPut`); `ANY`
    /// otherwise.
    pub(super) fn method_of(&self, n: Option<&Node<'t>>) -> String {
        let Some(n) = n else { return "ANY".to_string() };
        if let Some(m) = literal(*n, self.src).filter(|m| !m.is_empty()) {
            return m.to_ascii_uppercase();
        }
        if n.kind() == "selector_expression"
            && let Some(m) = n
                .child_by_field_name("field")
                .and_then(|f| self.text(f).strip_prefix("Method"))
                .filter(|m| !m.is_empty())
        {
            return m.to_ascii_uppercase();
        }
        "ANY".to_string()
    }

    /// A URL expression as literal pieces and substitutions: string literals, `+`
    /// concatenations, `fmt.Sprintf` formats (each verb a substitution).
    pub(super) fn url_pieces(&self, n: Node<'t>, depth: usize, out: &mut Vec<Piece<'s>>) {
        if let Some(l) = literal(n, self.src) {
            out.push(Piece::Lit(l));
            return;
        }
        if depth >= MAX_CHAIN {
            out.push(Piece::Hole);
            return;
        }
        match n.kind() {
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => self.url_pieces(inner, depth + 1, out),
                None => out.push(Piece::Hole),
            },
            "binary_expression"
                if n.child_by_field_name("operator").is_some_and(|o| self.text(o) == "+") =>
            {
                for side in ["left", "right"] {
                    match n.child_by_field_name(side) {
                        Some(x) => self.url_pieces(x, depth + 1, out),
                        None => out.push(Piece::Hole),
                    }
                }
            }
            "call_expression" => {
                let sprintf = n
                    .child_by_field_name("function")
                    .and_then(|f| callee_of(f, self.src))
                    .is_some_and(|c| {
                        c.name == "Sprintf" && c.receiver == Receiver::Path(vec!["fmt".into()])
                    });
                match call_args(n).first().and_then(|x| literal(*x, self.src)) {
                    Some(format) if sprintf => format_pieces(format, out),
                    _ => out.push(Piece::Hole),
                }
            }
            _ => out.push(Piece::Hole),
        }
    }

    /// mcp-go `s.AddTool(mcp.NewTool("name", opts...), h)` (or a `tool` variable bound to a
    /// `NewTool` call in scope); the official SDK's `mcp.AddTool(s, &mcp.Tool{Name, ...}, h)`
    /// and `s.AddTool(&mcp.Tool{...}, h)`.
    pub(super) fn add_tool(&mut self, at: Node<'t>, a: &[Node<'t>]) {
        // The official SDK: a `Tool` struct literal argument.
        for (i, x) in a.iter().enumerate() {
            let lit = if x.kind() == "unary_expression" {
                x.child_by_field_name("operand")
            } else {
                Some(*x)
            };
            let Some(lit) = lit.filter(|l| l.kind() == "composite_literal") else { continue };
            let ty = lit.child_by_field_name("type").map_or("", |t| self.text(t));
            if !ty.ends_with("Tool") {
                continue;
            }
            let Some(name) = keyed_literal(lit, "Name", self.src) else { return };
            let description = keyed_literal(lit, "Description", self.src).map(str::to_string);
            let mut mw = Vec::new();
            let handler = match a.get(i + 1) {
                Some(h) => self.handler_of(*h, &mut mw, 0).0,
                None => Handler::Unknown,
            };
            let framework = if self.imports.go_sdk { "mcp-sdk" } else { "mcp-go" };
            let mut ep = tool(framework, name.to_string(), handler);
            ep.description = description;
            self.push(ep, at);
            return;
        }
        let [t, h] = a else { return };
        let new_tool = match t.kind() {
            "call_expression" => Some(*t),
            "identifier" => match self.lookup(self.text(*t)) {
                Some(Binding::Tool(n)) => Some(*n),
                _ => None,
            },
            _ => None,
        };
        let Some(new_tool) = new_tool else { return };
        let is_new_tool = new_tool
            .child_by_field_name("function")
            .and_then(|f| callee_of(f, self.src))
            .is_some_and(|c| c.name == "NewTool");
        if !is_new_tool {
            return;
        }
        let opts = call_args(new_tool);
        let Some(name) = opts.first().and_then(|x| literal(*x, self.src)) else { return };
        let mut description = None;
        let mut fields = Vec::new();
        for o in opts.iter().skip(1) {
            if o.kind() != "call_expression" {
                continue;
            }
            let Some(c) = o.child_by_field_name("function").and_then(|f| callee_of(f, self.src))
            else {
                continue;
            };
            let first = call_args(*o).first().and_then(|x| literal(*x, self.src));
            if c.name == "WithDescription" {
                description = first.map(str::to_string);
            } else if MCP_GO_FIELDS.contains(&c.name.as_str()) {
                fields.extend(first.map(str::to_string));
            }
        }
        let mut mw = Vec::new();
        let (handler, _) = self.handler_of(*h, &mut mw, 0);
        let mut ep = tool("mcp-go", name.to_string(), handler);
        ep.description = description;
        ep.fields = fields;
        self.push(ep, at);
    }
}
