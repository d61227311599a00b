//! Routers mounted under a prefix (`app.use('/api', router)`, Fastify `register` with a `prefix`,
//! Hono `route`): the mounts recorded for resolution to compose.

use super::*;

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// Records a mount made by the call named `prop`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_mount(
        &mut self,
        framework: &str,
        prefix: &str,
        obj: Node<'t>,
        prop: Node<'t>,
        (target, call): (Callee, bool),
        middleware: Vec<String>,
    ) {
        let (line, col) = (start_line(prop), start_col(prop));
        let mount = Mount {
            framework: framework.to_string(),
            prefix: normalize_path(prefix),
            receiver: base_path(obj, self.src),
            target,
            call,
            middleware,
            line,
            enclosing: self.enclosing.of(line, col),
        };
        self.mounts.push((col, mount));
    }

    /// What a mount argument mounts: a router named by reference, Koa's `sub.routes()` (the
    /// router `sub`), `require('./users')`, or a function called to build it
    /// (`usersRouter(db)`). Inline functions, `express.*` built-ins and factories given only
    /// literal options (`serveStatic('public')`) are middleware, not routers.
    pub(super) fn mount_target(&self, n: Node<'t>) -> Option<(Callee, bool)> {
        let n = unwrap_expr(n);
        match n.kind() {
            "identifier" | "member_expression" => callee_of(n, self.src).map(|(c, _)| (c, false)),
            "call_expression" => {
                let f = unwrap_expr(n.child_by_field_name("function")?);
                let a = args(n);
                if f.kind() == "member_expression"
                    && a.is_empty()
                    && f.child_by_field_name("property")
                        .is_some_and(|p| matches!(self.text(p), "routes" | "middleware"))
                {
                    let router = f.child_by_field_name("object")?;
                    return self.mount_target(router).filter(|(_, call)| !call);
                }
                let (callee, _) = callee_of(f, self.src)?;
                if callee.receiver == Receiver::None && callee.name == "require" {
                    return Some((callee, true));
                }
                let express = matches!(&callee.receiver, Receiver::Path(p) if p.len() == 1 && p[0] == "express");
                let config_only = !a.is_empty()
                    && a.iter().all(|x| {
                        let x = unwrap_expr(*x);
                        literal(x, self.src).is_some()
                            || matches!(x.kind(), "object" | "number" | "true" | "false")
                    });
                (!express && !config_only).then_some((callee, true))
            }
            _ => None,
        }
    }

    /// Express / Koa `x.use('/p', ...middleware, router)`. Hono's and Fastify's `use` only adds
    /// middleware; a `use` without a path mounts nothing under a prefix.
    pub(super) fn use_mount(&mut self, obj: Node<'t>, prop: Node<'t>, a: &[Node<'t>]) {
        if matches!(self.web, "hono" | "fastify") {
            return;
        }
        let [first, rest @ ..] = a else { return };
        let Some(path) = literal(*first, self.src).filter(|p| is_route_path(p)) else { return };
        // Koa: `sub.routes()` is the router, whatever follows it (`sub.allowedMethods()`).
        let routes_at = rest.iter().position(|x| {
            let x = unwrap_expr(*x);
            x.kind() == "call_expression"
                && x.child_by_field_name("function").map(unwrap_expr).is_some_and(|f| {
                    f.kind() == "member_expression"
                        && f.child_by_field_name("property")
                            .is_some_and(|p| self.text(p) == "routes")
                })
        });
        let Some(at) = routes_at.or(rest.len().checked_sub(1)) else { return };
        let Some(target) = self.mount_target(rest[at]) else { return };
        let mw = rest[..at].iter().filter_map(|m| middleware_name(*m, self.src)).collect();
        self.push_mount(self.web, path, obj, prop, target, mw);
    }

    /// Hono `app.route('/p', sub)`.
    pub(super) fn hono_mount(&mut self, obj: Node<'t>, prop: Node<'t>, a: &[Node<'t>]) {
        let [first, sub] = a else { return };
        let Some(path) = literal(*first, self.src).filter(|p| is_route_path(p)) else { return };
        let Some(target) = self.mount_target(*sub) else { return };
        self.push_mount("hono", path, obj, prop, target, Vec::new());
    }

    /// Fastify `x.register(plugin, { prefix: '/p' })`: the plugin is passed as a value.
    pub(super) fn fastify_mount(&mut self, obj: Node<'t>, prop: Node<'t>, a: &[Node<'t>]) {
        let [plugin, options, ..] = a else { return };
        let options = unwrap_expr(*options);
        if options.kind() != "object" {
            return;
        }
        let Some(prefix) = member(options, "prefix", self.src).and_then(|p| literal(p, self.src))
        else {
            return;
        };
        let plugin_fn = unwrap_expr(*plugin);
        if is_function_expr(plugin_fn.kind()) {
            // Written in place: the routes it registers on its first parameter get the
            // prefix (after the prefix of the plugin this call is itself inside).
            let outer = base_path(obj, self.src)
                .first()
                .and_then(|b| self.inline_prefix(obj, b))
                .cloned()
                .unwrap_or_default();
            let mut hooks = outer.1;
            hooks.extend(self.hooks(&[options]));
            self.inline_prefixes.insert(plugin_fn.id(), (join_path(&outer.0, prefix), hooks));
            return;
        }
        let Some((target, call)) = self.mount_target(*plugin) else { return };
        let call = call && target.receiver == Receiver::None && target.name == "require";
        let mw = self.hooks(&[options]);
        self.push_mount("fastify", prefix, obj, prop, (target, call), mw);
    }
}
