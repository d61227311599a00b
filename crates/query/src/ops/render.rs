//! Plain-text renderings of the operation results: what the CLI prints without `--json`, and
//! what the golden tests compare, so both see the same text. (JSON belongs to the server.)

use super::changed::ChangedImpact;
use super::context::{CallLink, Link, SymbolContext};
use super::endpoints::EndpointAnswer;
use super::expand::Expansion;
use super::impact::Impact;
use super::trace::Trace;
use super::{Direction, dag_grep};
use crate::derived::{ClusterRef, Flow, FlowRef};
use crate::read::{EdgeRow, NodeRow};
use codegraph_schema::NodeKind;
use std::fmt::Write as _;

fn revision(rev: i64, stale: Option<bool>) -> String {
    match stale {
        Some(true) => format!("revision {rev}, stale: files changed since; run `codegraph index`"),
        _ => format!("revision {rev}"),
    }
}

/// `file:start-end`, `file`, or `-`.
pub fn location(n: &NodeRow) -> String {
    match (&n.file, n.start_line, n.end_line) {
        (Some(f), Some(s), Some(e)) if n.kind != NodeKind::File => format!("{f}:{s}-{e}"),
        (Some(f), _, _) => f.clone(),
        _ => "-".to_string(),
    }
}

/// ` (line 7) [import-resolved 0.95]`: call-site line and, for non-structural edges, reason
/// and confidence.
pub fn edge_suffix(e: &EdgeRow) -> String {
    let mut s = String::new();
    if e.line > 0 {
        let _ = write!(s, " (line {})", e.line);
    }
    if e.reason != "structural" {
        let _ = write!(s, " [{} {:.2}]", e.reason, e.weight);
    }
    s
}

fn links(out: &mut String, title: &str, links: &[Link]) {
    if links.is_empty() {
        return;
    }
    let _ = writeln!(out, "{title}:");
    for l in links {
        let arrow = match l.dir {
            Direction::Out => "->",
            Direction::In => "<-",
        };
        let _ = writeln!(
            out,
            "  {arrow} {:<12} {} ({}){}",
            l.edge.kind,
            l.node.id,
            l.node.kind,
            edge_suffix(&l.edge)
        );
    }
}

/// `path:line` (root-relative) that terminals and editors jump to; `path` without a line;
/// `-` for a node without a file.
fn jump(file: Option<&str>, line: Option<u32>) -> String {
    match (file, line) {
        (Some(f), Some(l)) if l > 0 => format!("{f}:{l}"),
        (Some(f), _) => f.to_string(),
        _ => "-".to_string(),
    }
}

/// Calls of or by a symbol, one line per other symbol: where to jump first, then its ID and
/// kind, the call-site lines, and the best site's reason and confidence. Callers (`callee_of`
/// `None`) jump to their first call site; callees (`callee_of` the calling symbol, whose file
/// holds the call sites) jump to their declaration.
fn calls(out: &mut String, title: &str, calls: &[CallLink], callee_of: Option<&NodeRow>) {
    if calls.is_empty() {
        return;
    }
    let _ = writeln!(out, "{title}:");
    for c in calls {
        let lines: Vec<String> = c.lines.iter().map(u32::to_string).collect();
        let at = match callee_of {
            None => jump(c.node.file.as_deref(), c.lines.first().copied()),
            Some(_) => jump(c.node.file.as_deref(), c.node.start_line),
        };
        let _ = writeln!(
            out,
            "  {at}  {} ({}) line {} [{} {:.2}]",
            c.node.id,
            c.node.kind,
            lines.join(", "),
            c.reason,
            c.weight
        );
    }
}

pub fn context(c: &SymbolContext) -> String {
    let mut out = String::new();
    let s = &c.symbol;
    let _ = writeln!(out, "{} ({}, {})", s.id, s.kind, revision(c.revision, c.stale));
    let _ = writeln!(out, "  at: {}", location(s));
    if let Some(sig) = &s.signature {
        let _ = writeln!(out, "  signature: {sig}");
    }
    links(&mut out, "container", &c.containers);
    links(&mut out, "members", &c.members);
    calls(&mut out, "callers", &c.callers, None);
    calls(&mut out, "callees", &c.callees, Some(s));
    links(&mut out, "heritage", &c.heritage);
    links(&mut out, "references", &c.references);
    links(&mut out, "tests", &c.tests);
    links(&mut out, "docs", &c.docs);
    cochanged(&mut out, &c.co_changed, c.co_changed_total);
    links(&mut out, "routes and tools", &c.endpoints);
    links(&mut out, "imported by", &c.imported_by);
    links(&mut out, "file imports", &c.file_imports);
    links(&mut out, "file imported by", &c.file_importers);
    if !c.related_files.is_empty() {
        let files: Vec<String> =
            c.related_files.iter().map(|(f, n)| format!("{f} ({n})")).collect();
        let _ = writeln!(out, "related files: {}", files.join(", "));
    }
    for (line, callee) in &c.unresolved_calls {
        let _ = writeln!(out, "unresolved call {callee} (line {line})");
    }
    if !c.processes.is_empty() {
        let _ = writeln!(out, "flows:");
        for f in &c.processes {
            let _ = writeln!(out, "  {}", flow_ref(f));
        }
    }
    if let Some(cl) = &c.cluster {
        let _ = writeln!(out, "cluster: {}", cluster(cl));
    }
    for n in &c.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// Entries of a one-line list (files, modules) a text answer shows before "and N more".
const MAX_TEXT_ITEMS: usize = 20;

/// The first `max` items joined, and how many more there are.
fn first_of(items: &[String], max: usize) -> String {
    let shown = items.iter().take(max).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > max {
        format!("{shown} ... and {} more (--json pages them)", items.len() - max)
    } else {
        shown
    }
}

pub fn impact(i: &Impact) -> String {
    let mut out = String::new();
    let targets: Vec<&str> = i.targets.iter().map(|t| t.id.as_str()).collect();
    let _ = writeln!(
        out,
        "{} impact of {} ({})",
        i.direction.as_str(),
        if targets.is_empty() { "nothing".to_string() } else { targets.join(", ") },
        revision(i.revision, i.stale)
    );
    // A walk cut at its node budget counts a lower bound, and says so on the same line.
    let at_least = if i.cut_at.is_some() { "at least " } else { "" };
    let _ = writeln!(
        out,
        "risk {}: {at_least}{} direct, {at_least}{} node(s) reached, {} other file(s), {} other module(s){}",
        i.risk.as_str(),
        i.direct,
        i.reached(),
        i.files,
        i.modules,
        i.cut_at.map_or(String::new(), |n| format!(" (the walk stopped at {n} nodes)"))
    );
    // Possible callers through dispatch come after the definite dependents, apart.
    let upstream = i.direction == super::impact::ImpactDirection::Upstream;
    let possible = |n: &super::impact::ImpactNode| upstream && n.dispatch.is_some();
    let mut sections: Vec<(String, Vec<&super::impact::ImpactNode>)> = i
        .levels
        .iter()
        .enumerate()
        .map(|(d, level)| {
            (format!("depth {}:", d + 1), level.iter().filter(|n| !possible(n)).collect())
        })
        .collect();
    let dispatch: Vec<&super::impact::ImpactNode> =
        i.levels.iter().flatten().filter(|n| possible(n)).collect();
    if !dispatch.is_empty() {
        sections.push((
            format!(
                "possible callers through dispatch ({}; they call a method the target overrides or implements):",
                dispatch.len()
            ),
            dispatch,
        ));
    }
    for (title, nodes) in &sections {
        if nodes.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{title}");
        for n in nodes {
            let via = &n.via;
            let other = if n.node.id == via.src { &via.dst } else { &via.src };
            let dispatch = match &n.dispatch {
                Some(m) if *m != n.node.id => format!(" (dispatch, for {m})"),
                Some(_) => " (dispatch)".to_string(),
                None => String::new(),
            };
            // Where the dependency sits: the edge's line when it is in this node's file
            // (a caller's call site), else the node's declaration.
            let line = if n.node.id == via.src && via.line > 0 {
                Some(via.line)
            } else {
                n.node.start_line
            };
            let _ = writeln!(
                out,
                "  {}  {} ({}) {:.3} via {} {} {}{}{dispatch}",
                jump(n.node.file.as_deref(), line),
                n.node.id,
                n.node.kind,
                n.confidence,
                via.kind,
                if n.node.id == via.src { "->" } else { "<-" },
                other,
                edge_suffix(via)
            );
        }
    }
    if !i.affected_files.is_empty() {
        let files: Vec<String> =
            i.affected_files.iter().map(|(f, n)| format!("{f} ({n})")).collect();
        let _ = writeln!(out, "files: {}", first_of(&files, MAX_TEXT_ITEMS));
        let modules: Vec<String> = i
            .affected_modules
            .iter()
            .map(|(m, n)| format!("{} ({n})", if m.is_empty() { "." } else { m }))
            .collect();
        let _ = writeln!(out, "modules: {}", first_of(&modules, MAX_TEXT_ITEMS));
    }
    if !i.tests.is_empty() {
        let more = i.tests_total - i.tests.len();
        let _ = writeln!(
            out,
            "tests that exercise it ({}{}):",
            i.tests_total,
            if more > 0 { format!(", first {}", i.tests.len()) } else { String::new() }
        );
        for t in &i.tests {
            let _ = writeln!(
                out,
                "  {}  {} tests {} (depth {})",
                jump(t.test.file.as_deref(), t.test.start_line),
                t.test.id,
                t.via,
                t.depth
            );
        }
    }
    cochanged(&mut out, &i.co_changed, i.co_changed_total);
    if !i.flows.is_empty() {
        let more = i.flows_total - i.flows.len();
        let _ = writeln!(
            out,
            "flows through the change ({}{}):",
            i.flows_total,
            if more > 0 { format!(", first {}", i.flows.len()) } else { String::new() }
        );
        for f in &i.flows {
            let _ = writeln!(out, "  {} via {} (depth {})", flow_ref(&f.flow), f.via, f.depth);
        }
    }
    for n in &i.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

pub fn expand(e: &Expansion) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "expand {} ({}): {} node(s), {} edge(s)",
        e.seed.id,
        revision(e.revision, e.stale),
        e.nodes.len(),
        e.edges.len()
    );
    for (n, d) in &e.nodes {
        let _ = writeln!(out, "  [{d}] {} ({})", n.id, n.kind);
    }
    for edge in &e.edges {
        let _ = writeln!(out, "  {} -{}-> {}{}", edge.src, edge.kind, edge.dst, edge_suffix(edge));
    }
    for n in &e.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

pub fn trace(t: &Trace) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "trace {} -> {} ({}): {} path(s)",
        t.from.id,
        t.to.id,
        revision(t.revision, t.stale),
        t.paths.len()
    );
    for (i, p) in t.paths.iter().enumerate() {
        let _ = writeln!(
            out,
            "path {} ({} hop(s), confidence {:.3}):",
            i + 1,
            p.hops.len(),
            p.confidence
        );
        if let Some(first) = p.hops.first() {
            let _ = writeln!(out, "  {}", first.src);
        }
        for h in &p.hops {
            let _ = writeln!(out, "  -{}-> {}{}", h.kind, h.dst, edge_suffix(h));
        }
    }
    for n in &t.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

pub fn changed(c: &ChangedImpact) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} changed file(s), {} changed symbol(s) ({})",
        c.files.len(),
        c.symbols.len(),
        revision(c.revision, c.stale)
    );
    for f in &c.files {
        let _ = writeln!(
            out,
            "  {} {} ({} hunk(s){})",
            f.kind.as_str(),
            f.path,
            f.hunks,
            if f.indexed { "" } else { ", not indexed" }
        );
        for s in &f.symbols {
            let _ = writeln!(out, "    {s}");
        }
    }
    for n in &c.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out.push_str(&impact(&c.impact));
    out
}

/// The DAG-grep rendering chosen by the request, or the tree.
pub fn dag(d: &dag_grep::DagGrep) -> String {
    let mut out = format!("{}\n", revision(d.revision, d.stale));
    out.push_str(d.rendered.as_deref().unwrap_or(&dag_grep::render_tree(d)));
    out
}

/// `route_impact` / `tool_context`.
pub fn endpoints(a: &EndpointAnswer) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} match(es) for `{}` ({})",
        a.matches.len(),
        a.query,
        revision(a.revision, a.stale)
    );
    for m in &a.matches {
        let _ = writeln!(out, "{} ({}, matched by {})", m.node.id, m.node.kind, m.matched_by);
        let _ = writeln!(out, "  at: {}", location(&m.node));
        if let Some(sig) = &m.node.signature {
            let _ = writeln!(out, "  declared: {sig}");
        }
        if let Some(doc) = &m.node.doc {
            let _ = writeln!(out, "  description: {doc}");
        }
        links(&mut out, "handler", &m.handlers);
        calls(&mut out, "handler callers", &m.handler_callers, None);
        calls(&mut out, "handler callees", &m.handler_callees, Some(&m.node));
        calls(&mut out, "consumers (FETCHES)", &m.consumers, None);
        for f in &m.flows {
            let _ = writeln!(out, "  flow {}", flow(f));
        }
    }
    for n in &a.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// `proc:... "label" step 2/5 (score 2.05)`.
pub fn flow_ref(f: &FlowRef) -> String {
    format!("{} \"{}\" step {}/{} (score {:.2})", f.id, f.label, f.step, f.steps, f.score)
}

/// A whole flow on one line: its ID, label, score and steps joined by `->`.
pub fn flow(f: &Flow) -> String {
    format!("{} \"{}\" (score {:.2}): {}", f.id, f.label, f.score, f.steps.join(" -> "))
}

pub fn cluster(c: &ClusterRef) -> String {
    format!("{} \"{}\" ({} member(s), cohesion {:.3})", c.id, c.label, c.size, c.cohesion)
}

/// "usually changes with (N):" and one line per file: support and confidence.
fn cochanged(out: &mut String, rows: &[crate::cochange::CoChangeRow], total: usize) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "usually changes with ({total}, from git history):");
    let shown = crate::ops::context::COCHANGED_SHOWN;
    for r in rows.iter().take(shown) {
        let _ = writeln!(
            out,
            "  {}  {} commits together, confidence {:.2}",
            r.dst, r.support, r.confidence
        );
    }
    if total > shown {
        let _ = writeln!(
            out,
            "  ... {} more (--json --list co_changed --offset {shown})",
            total - shown.min(total)
        );
    }
}
