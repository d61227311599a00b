//! Routers mounted under a prefix (gin and echo groups passed to functions, `http.StripPrefix`;
//! chi's own mounts are in `chi.rs`): the mounts recorded for resolution to compose.

use super::*;

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// Records a mount of `target` under `path` on the router `op` (its group prefix and
    /// middleware applied).
    pub(super) fn push_mount(
        &mut self,
        framework: &str,
        op: Node<'t>,
        at: Node<'t>,
        path: &str,
        (target, call): (Callee, bool),
    ) {
        let chain = self.chain(op);
        self.push_group_mount(framework, chain.group, path, at, (target, call));
    }

    pub(super) fn push_group_mount(
        &mut self,
        framework: &str,
        group: Group,
        path: &str,
        at: Node<'t>,
        (target, call): (Callee, bool),
    ) {
        let (line, col) = (start_line(at), start_col(at));
        let mount = Mount {
            framework: framework.to_string(),
            prefix: join_path(&group.prefix, path),
            receiver: group.base,
            target,
            call,
            middleware: group.middleware,
            line,
            enclosing: self.enclosing.of(line, col),
        };
        self.mounts.push((col, mount));
    }

    /// gin / echo: a group passed to a function that registers routes on it
    /// (`registerUsers(r.Group("/v1"))`, `v1 := r.Group("/v1"); users.Register(v1)`): a mount
    /// of the function's routes under the group's prefix. `name` is the called name.
    pub(super) fn group_passed(&mut self, call: Node<'t>, f: Node<'t>, name: Node<'t>) {
        let a = call_args(call);
        let group = a.iter().find_map(|x| {
            let is_group = match x.kind() {
                "call_expression" => x
                    .child_by_field_name("function")
                    .filter(|f| f.kind() == "selector_expression")
                    .and_then(|f| f.child_by_field_name("field"))
                    .is_some_and(|g| self.text(g) == "Group"),
                "identifier" => matches!(self.lookup(self.text(*x)), Some(Binding::Group(_))),
                _ => false,
            };
            let g = is_group.then(|| self.chain(*x).group)?;
            (!g.prefix.is_empty() && !g.base.is_empty()).then_some(g)
        });
        let (Some(group), Some(target)) = (group, callee_of(f, self.src)) else { return };
        let framework = if self.imports.echo && !self.imports.gin { "echo" } else { "gin" };
        self.push_group_mount(framework, group, "", name, (target, true));
    }
}
