//! Decorated controllers (NestJS-style `@Controller` / `@Get`...) and their routes.

use super::*;

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// NestJS `@Controller('users')` classes with `@Get(':id')` methods, and LoopBack
    /// `@get('/todos/{id}')` methods (prefixed by `@api({ basePath })`).
    pub(super) fn class(&mut self, class: Node<'t>) {
        let Some(body) = class.child_by_field_name("body") else { return };
        let members = named_children(body);
        let decorated = members.iter().any(|m| {
            m.kind() == "decorator"
                || (m.kind() == "method_definition"
                    && named_children(*m).iter().any(|c| c.kind() == "decorator"))
        });
        if !decorated {
            return;
        }
        let mut decorators: Vec<Node<'t>> =
            named_children(class).into_iter().filter(|c| c.kind() == "decorator").collect();
        if let Some(p) = class.parent().filter(|p| p.kind() == "export_statement") {
            decorators.extend(named_children(p).into_iter().filter(|c| c.kind() == "decorator"));
        }
        let mut controller: Option<Vec<String>> = None;
        let mut base = String::new();
        let mut class_mw = Vec::new();
        for d in &decorators {
            let (name, a) = self.decorator(*d);
            match name {
                "Controller" => {
                    let prefixes = match a.first().map(|x| unwrap_expr(*x)) {
                        None => vec![String::new()],
                        Some(x) if x.kind() == "object" => {
                            let p = member(x, "path", self.src);
                            vec![p.and_then(|p| literal(p, self.src)).unwrap_or("").to_string()]
                        }
                        Some(x) if x.kind() == "array" => named_children(x)
                            .into_iter()
                            .filter_map(|e| literal(e, self.src))
                            .map(str::to_string)
                            .collect(),
                        Some(x) => literal(x, self.src).map(str::to_string).into_iter().collect(),
                    };
                    controller = Some(prefixes);
                }
                "api" => {
                    if let Some(o) =
                        a.first().map(|x| unwrap_expr(*x)).filter(|x| x.kind() == "object")
                        && let Some(p) =
                            member(o, "basePath", self.src).and_then(|p| literal(p, self.src))
                    {
                        base = p.to_string();
                    }
                }
                "UseGuards" => {
                    class_mw.extend(a.iter().filter_map(|g| middleware_name(*g, self.src)))
                }
                _ => {}
            }
        }
        let class_sym = class.child_by_field_name("name").and_then(|n| {
            let (name, line) = (self.text(n), start_line(n));
            let i = self.facts.symbols.iter().position(|s| {
                s.kind == NodeKind::Class
                    && s.name == name
                    && s.start_line <= line
                    && line <= s.end_line
            })?;
            u32::try_from(i).ok()
        });
        let mut pending: Vec<Node<'t>> = Vec::new();
        for m in members {
            match m.kind() {
                "decorator" => pending.push(m),
                "method_definition" => {
                    let mut ds = std::mem::take(&mut pending);
                    ds.extend(named_children(m).into_iter().filter(|c| c.kind() == "decorator"));
                    if !ds.is_empty() {
                        self.controller_method(
                            m,
                            &ds,
                            controller.as_deref(),
                            &base,
                            &class_mw,
                            class_sym,
                        );
                    }
                }
                _ => pending.clear(),
            }
        }
    }

    /// A decorator's name (the last segment of its callee) and arguments.
    pub(super) fn decorator(&self, d: Node<'t>) -> (&'s str, Vec<Node<'t>>) {
        let Some(e) = first_named(d).map(unwrap_expr) else { return ("", Vec::new()) };
        let (callee, a) = match e.kind() {
            "call_expression" => (e.child_by_field_name("function"), args(e)),
            _ => (Some(e), Vec::new()),
        };
        let name = callee.map_or("", |c| self.text(c));
        (name.rsplit('.').next().unwrap_or(name).trim(), a)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn controller_method(
        &mut self,
        method: Node<'t>,
        decorators: &[Node<'t>],
        controller: Option<&[String]>,
        base: &str,
        class_mw: &[String],
        class_sym: Option<SymbolIdx>,
    ) {
        let mut routes: Vec<(&'static str, String, Vec<String>, Node<'t>)> = Vec::new();
        let mut mw = class_mw.to_vec();
        let mut statuses = Vec::new();
        for d in decorators {
            let (name, a) = self.decorator(*d);
            let nest_verb = match name {
                "Get" => Some("GET"),
                "Post" => Some("POST"),
                "Put" => Some("PUT"),
                "Delete" => Some("DELETE"),
                "Patch" => Some("PATCH"),
                "Options" => Some("OPTIONS"),
                "Head" => Some("HEAD"),
                "All" => Some("ANY"),
                _ => None,
            };
            let lb_verb = match name {
                "get" => Some("GET"),
                "post" => Some("POST"),
                "put" => Some("PUT"),
                "patch" => Some("PATCH"),
                "del" => Some("DELETE"),
                _ => None,
            };
            if let (Some(verb), Some(prefixes)) = (nest_verb, controller) {
                let subs: Vec<String> = match a.first().map(|x| unwrap_expr(*x)) {
                    None => vec![String::new()],
                    Some(x) if x.kind() == "array" => named_children(x)
                        .into_iter()
                        .filter_map(|e| literal(e, self.src))
                        .map(str::to_string)
                        .collect(),
                    Some(x) => literal(x, self.src).map(str::to_string).into_iter().collect(),
                };
                for p in prefixes {
                    for s in &subs {
                        routes.push(("nestjs", verb.to_string(), vec![p.clone(), s.clone()], *d));
                    }
                }
            } else if let Some(verb) = lb_verb {
                if let Some(p) = a.first().and_then(|x| literal(*x, self.src)) {
                    routes.push((
                        "loopback",
                        verb.to_string(),
                        vec![base.to_string(), p.to_string()],
                        *d,
                    ));
                }
            } else if name == "operation" {
                if let (Some(v), Some(p)) = (
                    a.first().and_then(|x| literal(*x, self.src)),
                    a.get(1).and_then(|x| literal(*x, self.src)),
                ) {
                    let v = v.to_ascii_uppercase();
                    let v = if v == "DEL" { "DELETE".to_string() } else { v };
                    routes.push(("loopback", v, vec![base.to_string(), p.to_string()], *d));
                }
            } else if name == "HttpCode" {
                statuses.extend(a.first().and_then(|x| status_of(*x, self.src)));
            } else if name == "UseGuards" {
                mw.extend(a.iter().filter_map(|g| middleware_name(*g, self.src)));
            }
        }
        if routes.is_empty() {
            return;
        }
        let sym = method.child_by_field_name("name").and_then(|n| {
            let (name, line) = (prop_name(n, self.src), start_line(n));
            let i = self.facts.symbols.iter().position(|s| {
                s.name == name
                    && s.start_line <= line
                    && line <= s.end_line
                    && (class_sym.is_none() || s.parent == class_sym)
            })?;
            u32::try_from(i).ok()
        });
        let handler = sym.map_or(Handler::Unknown, Handler::Symbol);
        for (framework, verb, parts, d) in routes {
            let path = join_path(&parts[0], &parts[1]);
            let mut ep = route(framework, &verb, path, handler.clone());
            ep.middleware = mw.clone();
            ep.status_codes = statuses.clone();
            self.responses(Some(method), &mut ep);
            self.push(ep, d, Some(class_sym));
        }
    }
}
