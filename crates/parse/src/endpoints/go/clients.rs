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
}
