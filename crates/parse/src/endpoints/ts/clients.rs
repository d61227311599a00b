//! Client calls (`fetch`, axios, ky, got...) with their method and URL, for FETCHES.

use super::*;

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// The library a name's client instance comes from: `const api = axios.create(...)` (or
    /// `ky.create` / `ky.extend`, `got.extend`, `ofetch.create`) at top level.
    pub(super) fn instance(&mut self, name: &'s str) -> Option<&'static str> {
        if let Some(i) = self.instances.get(name) {
            return *i;
        }
        let lib = self.decl(name).filter(|v| v.kind() == "call_expression").and_then(|v| {
            let f = unwrap_expr(v.child_by_field_name("function")?);
            let (c, _) = callee_of(f, self.src)?;
            if !matches!(c.name.as_str(), "create" | "extend") {
                return None;
            }
            match &c.receiver {
                Receiver::Path(p) if p.len() == 1 => {
                    CLIENT_LIBS.iter().copied().find(|l| *l == p[0])
                }
                _ => None,
            }
        });
        self.instances.insert(name, lib);
        lib
    }

    /// `fetch(url, init)`, `$fetch` / `ofetch(url, opts)`, `axios(url | config)`,
    /// `ky(url, opts)`, `got(url, opts)`.
    pub(super) fn client_function(&mut self, call: Node<'t>, func: Node<'t>) {
        let name = self.text(func);
        let client = match name {
            "fetch" | "$fetch" | "ofetch" | "axios" | "ky" | "got" => name,
            _ => return,
        };
        let a = args(call);
        let Some(first) = a.first().map(|x| unwrap_expr(*x)) else { return };
        if client == "axios" && first.kind() == "object" {
            self.client_config(client, first, false, func);
            return;
        }
        let method = self.options_method(a.get(1).copied(), "GET");
        self.push_client(client, &method, first, false, func);
    }

    /// A method call on a client: `axios.get(url)`, `ky.post(url)`, `axios.request(config)`,
    /// `window.fetch(url)`, `api.get('/users')` on an instance. Returns whether the call is a
    /// client's (recorded or not), so that it is not read as a route.
    pub(super) fn client_method(
        &mut self,
        obj: Node<'t>,
        prop: Node<'t>,
        name: &str,
        a: &[Node<'t>],
    ) -> bool {
        let obj = unwrap_expr(obj);
        if obj.kind() != "identifier" {
            return false;
        }
        let on = self.text(obj);
        if name == "fetch" {
            if !matches!(on, "window" | "globalThis" | "self") {
                return false;
            }
            if let Some(first) = a.first() {
                let method = self.options_method(a.get(1).copied(), "GET");
                self.push_client("fetch", &method, *first, false, prop);
            }
            return true;
        }
        let (client, has_base) = match CLIENT_LIBS.iter().copied().find(|l| *l == on) {
            Some(lib) => (lib, false),
            None => match self.instance(on) {
                Some(lib) => (lib, true),
                None => return false,
            },
        };
        let Some(first) = a.first().map(|x| unwrap_expr(*x)) else { return true };
        if name == "request" {
            if first.kind() == "object" {
                self.client_config(client, first, has_base, prop);
            }
            return true;
        }
        if !CLIENT_VERBS.contains(&name) {
            return true;
        }
        self.push_client(client, &name.to_ascii_uppercase(), first, has_base, prop);
        true
    }

    /// An axios config object: `{ url, method }` (`GET` when no method is given).
    pub(super) fn client_config(
        &mut self,
        client: &str,
        config: Node<'t>,
        has_base: bool,
        at: Node<'t>,
    ) {
        let Some(url) = member(config, "url", self.src) else { return };
        let method = self.options_method(Some(config), "GET");
        self.push_client(client, &method, url, has_base, at);
    }

    /// The method an options object names (`{ method: 'post' }` -> `POST`): `default` when the
    /// call has no options or they name no method, `ANY` when it is not a literal or the
    /// options are not an object literal.
    pub(super) fn options_method(&mut self, options: Option<Node<'t>>, default: &str) -> String {
        let Some(o) = options.map(unwrap_expr) else { return default.to_string() };
        if o.kind() != "object" {
            return "ANY".to_string();
        }
        match member(o, "method", self.src) {
            None => default.to_string(),
            Some(m) => match self.string_value(m) {
                Some(m) if !m.is_empty() => m.to_ascii_uppercase(),
                _ => "ANY".to_string(),
            },
        }
    }

    /// Records a client call to `url` when its path is recoverable.
    pub(super) fn push_client(
        &mut self,
        client: &str,
        method: &str,
        url: Node<'t>,
        has_base: bool,
        at: Node<'t>,
    ) {
        let mut pieces = Vec::new();
        self.url_pieces(url, 0, &mut pieces);
        let Some((path, base)) = client_path(&pieces, has_base) else { return };
        let (line, col) = (start_line(at), start_col(at));
        let c = ClientCall {
            client: client.to_string(),
            method: method.to_string(),
            path,
            has_base: has_base || base,
            line,
            enclosing: self.enclosing.of(line, col),
        };
        self.clients.push((col, c));
    }

    /// A URL expression as literal pieces and substitutions: strings, templates, `+`
    /// concatenations, top-level string constants.
    pub(super) fn url_pieces(&mut self, n: Node<'t>, depth: u32, out: &mut Vec<Piece<'s>>) {
        let n = unwrap_expr(n);
        match n.kind() {
            "string" => out.push(Piece::Lit(string_content(n, self.src))),
            "template_string" => {
                let (start, end) = (n.start_byte() + 1, n.end_byte().saturating_sub(1));
                let mut at = start;
                for c in named_children(n) {
                    if c.kind() == "template_substitution" {
                        out.push(Piece::Lit(self.src.get(at..c.start_byte()).unwrap_or("")));
                        out.push(Piece::Hole);
                        at = c.end_byte();
                    }
                }
                out.push(Piece::Lit(self.src.get(at..end.max(at)).unwrap_or("")));
            }
            "binary_expression"
                if depth < MAX_DEPTH
                    && n.child_by_field_name("operator").is_some_and(|o| self.text(o) == "+") =>
            {
                for side in ["left", "right"] {
                    match n.child_by_field_name(side) {
                        Some(x) => self.url_pieces(x, depth + 1, out),
                        None => out.push(Piece::Hole),
                    }
                }
            }
            "identifier" if depth < MAX_DEPTH => match self.string_value(n) {
                Some(v) => out.push(Piece::Lit(v)),
                None => out.push(Piece::Hole),
            },
            _ => out.push(Piece::Hole),
        }
    }
}
