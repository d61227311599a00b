//! gorilla/mux: `r.HandleFunc("/p", h).Methods("GET")` chains read from their outermost call,
//! and the builder form `r.Path("/p").Methods("GET").HandlerFunc(h)` /
//! `r.PathPrefix("/static/").Handler(fs)`.

use super::*;

/// gorilla/mux route modifiers that may follow `HandleFunc(...)` in a chain.
pub(super) const GORILLA_MODIFIERS: &[&str] = &[
    "Methods",
    "Name",
    "Schemes",
    "Headers",
    "HeadersRegexp",
    "Queries",
    "Host",
    "MatcherFunc",
    "BuildOnly",
    "BuildVarsFunc",
];

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// The outermost call of `r.HandleFunc("/p", h).Methods("GET").Name("x")`: reads the
    /// methods and records the inner registration once per method.
    pub(super) fn gorilla_head(&mut self, call: Node<'t>) {
        let mut methods: Vec<String> = Vec::new();
        let mut cur = call;
        for _ in 0..MAX_CHAIN {
            let Some((op, field)) = selector_call(cur) else { return };
            let name = self.text(field);
            self.done.insert(cur.id());
            if name == "Methods" {
                let a = call_args(cur);
                let mut ms: Vec<String> = a
                    .iter()
                    .filter_map(|m| literal(*m, self.src))
                    .map(str::to_ascii_uppercase)
                    .collect();
                ms.append(&mut methods);
                methods = ms;
            } else if name == "HandleFunc" || name == "Handle" {
                let a = call_args(cur);
                self.handle(op, field, &a, methods);
                return;
            } else if !GORILLA_MODIFIERS.contains(&name) {
                return;
            }
            if op.kind() != "call_expression" {
                return;
            }
            cur = op;
        }
    }

    /// gorilla's builder form: `r.Path("/p").Methods("GET").HandlerFunc(h)`,
    /// `r.PathPrefix("/static/").Handler(fs)`.
    pub(super) fn gorilla_route(&mut self, op: Node<'t>, at: Node<'t>, a: &[Node<'t>]) {
        let [h] = a else { return };
        if !is_handler_like(h.kind()) || op.kind() != "call_expression" {
            return;
        }
        let chain = self.chain(op);
        let path = match &chain.path {
            Some(p) => join_path(&chain.group.prefix, p),
            // A prefix route (`PathPrefix("/static/").Handler(...)`) matches the prefix.
            None if !chain.group.prefix.is_empty() => normalize_path(&chain.group.prefix),
            None => return,
        };
        let mut mw = chain.group.middleware.clone();
        let (handler, body) = self.handler_of(*h, &mut mw, 0);
        let methods =
            if chain.methods.is_empty() { vec!["ANY".to_string()] } else { chain.methods };
        for m in methods {
            let mut ep = route("gorilla/mux", &m, path.clone(), handler.clone());
            ep.middleware = mw.clone();
            ep.receiver = chain.group.base.clone();
            self.responses(body, &mut ep);
            self.push(ep, at);
        }
    }
}
