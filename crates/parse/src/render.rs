//! A stable, compact text rendering of [`FileFacts`], for golden tests and debugging.
//!
//! One fact per line, in source order, so a snapshot diff points at the exact fact that changed.

use crate::facts::*;
use std::fmt::Write;

/// Renders all facts of a file.
pub fn render_facts(f: &FileFacts) -> String {
    let mut out = String::new();
    let qn = |i: Option<SymbolIdx>| -> String {
        i.and_then(|i| f.symbols.get(i as usize))
            .map_or_else(|| "<module>".to_string(), |s| s.qualified_name.clone())
    };
    if let Some(p) = f.go().and_then(|g| g.package.as_ref()) {
        let _ = writeln!(out, "package {p}");
    }
    if let Some(p) = f.proto() {
        if let Some(package) = &p.package {
            let _ = writeln!(out, "package {package}");
        }
        for (name, value) in &p.options {
            let _ = writeln!(out, "option {name} = {value:?}");
        }
    }
    for s in &f.symbols {
        let _ = write!(out, "sym {} {} L{}-{}", s.kind, s.qualified_name, s.start_line, s.end_line);
        if s.exported {
            out.push_str(" exported");
        }
        if s.name != s.qualified_name.rsplit('.').next().unwrap_or("") {
            let _ = write!(out, " name={}", s.name);
        }
        if let Some(p) = s.parent {
            let _ = write!(out, " in={}", qn(Some(p)));
        }
        let _ = write!(out, " sig={:?}", s.signature);
        if let Some(d) = &s.doc {
            let _ = write!(out, " doc={d:?}");
        }
        out.push('\n');
    }
    for i in &f.imports {
        let _ = write!(out, "import L{} {:?} {:?}", i.line, i.kind, i.source);
        for b in &i.bindings {
            let what = match &b.imported {
                Imported::Default => "default".to_string(),
                Imported::Namespace => "*".to_string(),
                Imported::All => "all".to_string(),
                Imported::Named(n) => n.clone(),
            };
            match &b.local {
                Some(l) => {
                    let _ = write!(out, " {what} as {l}");
                }
                None => {
                    let _ = write!(out, " {what}");
                }
            }
        }
        out.push('\n');
    }
    let call_kind = |k: CallKind| match k {
        CallKind::Call => "call",
        CallKind::New => "new",
        CallKind::Declared => "declared",
    };
    for c in &f.calls {
        let kind = call_kind(c.kind);
        let _ = writeln!(
            out,
            "{kind} L{}:{} {} in {}{}",
            c.line,
            c.col,
            render_callee(&c.callee),
            qn(c.enclosing),
            if c.local { " local" } else { "" }
        );
    }
    for c in &f.value_refs {
        let _ = writeln!(
            out,
            "ref {} L{}:{} {} in {}",
            call_kind(c.kind),
            c.line,
            c.col,
            render_callee(&c.callee),
            qn(c.enclosing)
        );
    }
    for c in &f.type_refs {
        let _ = writeln!(
            out,
            "type {} L{}:{} {} in {}",
            call_kind(c.kind),
            c.line,
            c.col,
            render_callee(&c.callee),
            qn(c.enclosing)
        );
    }
    for a in &f.accesses {
        let kind = if a.write { "write" } else { "read" };
        let target = render_callee(&Callee { receiver: a.receiver.clone(), name: a.name.clone() });
        let _ = writeln!(out, "{kind} L{} {target} in {}", a.line, qn(a.enclosing));
    }
    let ts = f.ts();
    // `_`: an argument that names no type (`number`, a literal, an object type).
    let render_args = |args: &[String]| {
        let args: Vec<&str> =
            args.iter().map(|a| if a.is_empty() { "_" } else { a.as_str() }).collect();
        format!("<{}>", args.join(", "))
    };
    for (n, h) in f.heritage.iter().enumerate() {
        let _ = write!(out, "heritage {} {:?} {}", qn(Some(h.symbol)), h.kind, h.target);
        let args = ts.and_then(|t| t.heritage_args.iter().find(|(i, _)| *i as usize == n));
        if let Some((_, args)) = args {
            out.push_str(&render_args(args));
        }
        out.push('\n');
    }
    for p in ts.map_or(&[][..], |t| &t.type_params) {
        let _ = write!(out, "type-param {} {}", qn(Some(p.symbol)), p.name);
        if let Some(c) = &p.constraint {
            let _ = write!(out, " extends {c}");
        }
        out.push('\n');
    }
    for (alias, ty) in ts.map_or(&[][..], |t| &t.aliases) {
        let _ = writeln!(out, "alias {} = {ty}", qn(Some(*alias)));
    }
    for (function, position, name) in ts.map_or(&[][..], |t| &t.params) {
        let _ = writeln!(out, "param {} #{position} {name}", qn(Some(*function)));
    }
    for a in ts.map_or(&[][..], |t| &t.this_args) {
        let _ = writeln!(
            out,
            "this-arg L{} as arg {} of {}() in {}",
            a.line,
            a.arg,
            render_callee(&a.callee),
            qn(a.enclosing)
        );
    }
    for k in ts.map_or(&[][..], |t| &t.literal_keys) {
        let context = match &k.context {
            LiteralContext::Type(t) => format!("{{}}: {t}"),
            LiteralContext::Argument { callee, arg } => {
                format!("{{}} as arg {arg} of {}()", render_callee(callee))
            }
            LiteralContext::Assigned(p) => format!("{} = {{}}", p.join(".")),
        };
        let path: String = k.path.iter().map(|p| format!(".{p}")).collect();
        for (name, line) in &k.keys {
            let _ = writeln!(
                out,
                "literal-key L{line} ({context}){path}.{name} in {}",
                qn(k.enclosing)
            );
        }
    }
    for (n, h) in f.type_hints.iter().enumerate() {
        let args = ts
            .and_then(|t| t.hint_args.iter().find(|(i, _)| *i as usize == n))
            .map_or_else(String::new, |(_, a)| render_args(a));
        let what = match &h.source {
            HintSource::Annotation(t) => format!(": {t}{args}"),
            HintSource::Construct(t) => format!("= new {t}"),
            HintSource::CallResult(c) => format!("= {}()", render_callee(c)),
            HintSource::Return(t) => format!("-> {t}{args}"),
            HintSource::Callback { callee, arg, param } => {
                format!("= param {param} of arg {arg} of {}()", render_callee(callee))
            }
            HintSource::ParamFn { index, param, ty } => {
                format!("#{index} fn param {param}: {ty}")
            }
            HintSource::Value(Receiver::Path(p)) => format!("= {}", p.join(".")),
            HintSource::Value(_) => "= ?".to_string(),
        };
        let _ = writeln!(out, "hint L{} {} {} {what}", h.line, qn(h.scope), h.name);
    }
    for e in &f.endpoints {
        match e.kind {
            EndpointKind::Route => {
                let _ = write!(out, "route L{} {} {} {}", e.line, e.framework, e.method, e.name);
                if !e.path_expr.is_empty() {
                    let pieces: Vec<String> = e
                        .path_expr
                        .iter()
                        .map(|p| match p {
                            PathPiece::Text(t) => format!("{t:?}"),
                            PathPiece::Name(n) => n.join("."),
                        })
                        .collect();
                    let _ = write!(out, "path={}", pieces.join("+"));
                }
            }
            EndpointKind::Tool => {
                let _ = write!(out, "tool L{} {} {}", e.line, e.framework, e.name);
                if e.name_is_expr {
                    let _ = write!(out, " (name not evaluated)");
                }
                if let Some(d) = &e.description {
                    let _ = write!(out, " desc={d:?}");
                }
                if !e.fields.is_empty() {
                    let _ = write!(out, " fields=[{}]", e.fields.join(","));
                }
            }
        }
        let handler = match &e.handler {
            Handler::Reference(c) => render_callee(c),
            Handler::Symbol(i) => format!("sym:{}", qn(Some(*i))),
            Handler::Inline => "inline".to_string(),
            Handler::Unknown => "?".to_string(),
        };
        let _ = write!(out, " handler={handler}");
        if !e.middleware.is_empty() {
            let _ = write!(out, " mw=[{}]", e.middleware.join(","));
        }
        if !e.response_keys.is_empty() {
            let _ = write!(out, " keys=[{}]", e.response_keys.join(","));
        }
        if !e.status_codes.is_empty() {
            let codes: Vec<String> = e.status_codes.iter().map(u16::to_string).collect();
            let _ = write!(out, " status=[{}]", codes.join(","));
        }
        if !e.receiver.is_empty() {
            let _ = write!(out, " recv={}", e.receiver.join("."));
        }
        let _ = writeln!(out, " in={}", qn(e.enclosing));
    }
    for m in &f.mounts {
        let call = if m.call { "()" } else { "" };
        let target = render_callee(&m.target);
        let _ = write!(out, "mount L{} {} {} -> {target}{call}", m.line, m.framework, m.prefix);
        if !m.middleware.is_empty() {
            let _ = write!(out, " mw=[{}]", m.middleware.join(","));
        }
        if !m.receiver.is_empty() {
            let _ = write!(out, " recv={}", m.receiver.join("."));
        }
        let _ = writeln!(out, " in={}", qn(m.enclosing));
    }
    for c in &f.client_calls {
        let _ = write!(out, "client L{} {} {} {}", c.line, c.client, c.method, c.path);
        if c.has_base {
            out.push_str(" base");
        }
        let _ = writeln!(out, " in={}", qn(c.enclosing));
    }
    if f.syntax_errors > 0 {
        let _ = writeln!(out, "syntax_errors {}", f.syntax_errors);
    }
    if f.template_parts > 0 {
        let _ = writeln!(out, "templated {}", f.template_parts);
    }
    if f.repairs > 0 {
        let _ = writeln!(out, "repairs {}", f.repairs);
    }
    out
}

/// Renders a callee as source-like text: `a.b.c`, `this.m`, `f().g`, `?.m`.
pub fn render_callee(c: &Callee) -> String {
    match &c.receiver {
        Receiver::None => c.name.to_string(),
        Receiver::This => format!("this.{}", c.name),
        Receiver::Super => format!("super.{}", c.name),
        Receiver::Path(p) => format!("{}.{}", p.join("."), c.name),
        Receiver::CallResult(inner) => format!("{}().{}", render_callee(inner), c.name),
        Receiver::Other => format!("?.{}", c.name),
    }
}
