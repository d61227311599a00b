//! chi: its route methods (`r.Get`), `r.Route("/p", func(r chi.Router) {...})` seeding the
//! callback's router with the prefix, and `r.Mount("/p", sub)` mounts.

use super::*;

/// chi route methods.
pub(super) const CHI_VERBS: &[(&str, &str)] = &[
    ("Get", "GET"),
    ("Post", "POST"),
    ("Put", "PUT"),
    ("Delete", "DELETE"),
    ("Patch", "PATCH"),
    ("Options", "OPTIONS"),
    ("Head", "HEAD"),
    ("Connect", "CONNECT"),
    ("Trace", "TRACE"),
];

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// chi `r.Route("/users", func(r chi.Router) {...})`: the callback's router gets the prefix;
    /// a callback named by reference (`r.Route("/users", usersRoutes)`) is a mount.
    pub(super) fn chi_route(&mut self, op: Node<'t>, at: Node<'t>, a: &[Node<'t>]) {
        let (Some(p), Some(fl)) = (a.first().and_then(|x| literal(*x, self.src)), a.get(1)) else {
            return;
        };
        if fl.kind() != "func_literal" {
            if let Some(target) = callee_of(*fl, self.src) {
                self.push_mount("chi", op, at, p, (target, false));
            }
            return;
        }
        let mut g = self.chain(op).group;
        g.prefix = format!("{}/{p}", g.prefix);
        self.seeds.insert(fl.id(), g);
    }

    /// chi `r.Mount("/api", sub)`, `r.Mount("/api", subRouter())`, `r.Mount("/api",
    /// users.Routes())`.
    pub(super) fn chi_mount(&mut self, op: Node<'t>, at: Node<'t>, a: &[Node<'t>]) {
        let [p, target] = a else { return };
        let Some(p) = self.string_arg(*p) else { return };
        let p = p.as_str();
        let target = match target.kind() {
            "identifier" | "selector_expression" => {
                callee_of(*target, self.src).map(|c| (c, false))
            }
            "call_expression" => target
                .child_by_field_name("function")
                .and_then(|f| callee_of(f, self.src))
                .map(|c| (c, true)),
            _ => None,
        };
        if let Some(target) = target {
            self.push_mount("chi", op, at, p, target);
        }
    }
}
