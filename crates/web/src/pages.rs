//! The pages: what each URL means ([`parse_request`]) and how each is drawn from one snapshot
//! ([`render`]). A page reads one [`Reader`] (one revision, never two) and bounds every list
//! like the MCP answers do (the first [`LIST_CAP`] entries, then "N more" with a link that
//! shows up to [`FULL_CAP`]).

use crate::html::{Shell, enc_path, enc_query, esc, parse_query};
use crate::svg::{GraphEdge, GraphNode};
use codegraph_query::ops::context::{CallLink, Link};
use codegraph_query::ops::dag_grep::{DagGrepRequest, Mode, Role};
use codegraph_query::ops::impact::{ImpactDirection, ImpactRequest};
use codegraph_query::ops::{Direction, parse_edge_kinds};
use codegraph_query::{NodeRow, QueryError, Reader, SearchRequest};
use codegraph_schema::{EdgeKind, EndpointProps, NodeCategory, NodeKind, ids};
use std::collections::HashMap;
use std::fmt::Write;

/// Entries a list shows before "N more".
pub const LIST_CAP: usize = 25;
/// Entries a list shows when asked for all (`full=1`).
pub const FULL_CAP: usize = 500;
/// Nodes a drawn graph holds at most; the rest are in the tables below it.
pub const GRAPH_CAP: usize = 60;
/// Source lines a node page shows at most.
pub const SOURCE_CAP: u32 = 200;
/// Rows of an impact page's reached table before "N more".
pub const IMPACT_ROWS: usize = 100;
/// Source excerpts of fewer lines start unfolded.
pub const SOURCE_OPEN: u32 = 40;
/// Deepest impact a page computes.
pub const MAX_DEPTH: u32 = 6;

/// A page that could not be drawn, with the HTTP status it maps to.
#[derive(Debug)]
pub enum PageError {
    /// 404: no such page, node, flow or cluster (with near IDs when there are some).
    NotFound { what: String, suggestions: Vec<String> },
    /// 400: a parameter this page cannot take.
    BadRequest(String),
    /// 500: the index could not be read.
    Query(QueryError),
}

impl PageError {
    pub fn status(&self) -> u16 {
        match self {
            PageError::NotFound { .. } => 404,
            PageError::BadRequest(_) => 400,
            PageError::Query(_) => 500,
        }
    }

    /// The error as page content.
    pub fn html(&self, shell: Option<&Shell<'_>>) -> String {
        let mut out = String::new();
        match self {
            PageError::NotFound { what, suggestions } => {
                let _ = write!(out, "<h1>Not found</h1><p>{}</p>", esc(what));
                if !suggestions.is_empty() {
                    out.push_str("<p>Did you mean:</p><ul class=\"links\">");
                    for s in suggestions {
                        let href = match shell {
                            Some(sh) => sh.node_href(s),
                            None => format!("/node/{}", enc_path(s)),
                        };
                        let _ = write!(out, "<li><a href=\"{}\">{}</a></li>", esc(&href), esc(s));
                    }
                    out.push_str("</ul>");
                }
            }
            PageError::BadRequest(m) => {
                let _ = write!(out, "<h1>Bad request</h1><p>{}</p>", esc(m));
            }
            PageError::Query(e) => {
                let _ = write!(
                    out,
                    "<h1>The index could not be read</h1><p>{}</p>",
                    esc(&e.to_string())
                );
            }
        }
        out
    }
}

impl From<QueryError> for PageError {
    fn from(e: QueryError) -> PageError {
        match e {
            QueryError::UnknownId { id, suggestions } => {
                PageError::NotFound { what: format!("no node with ID `{id}`"), suggestions }
            }
            other => PageError::Query(other),
        }
    }
}

/// The DAG grep parameters a `/dag` URL carries, named like the CLI's flags (`-` or `_`):
/// `q`, `mode`, `seeds` (or `k`), `node-kind`, `edge-set`, `edge` (lists: comma-separated or
/// repeated), `include-cochange`, `direction`, `depth`, `max-nodes` (or `budget`),
/// `per-node-cap`, `no-anchors`.
#[derive(Clone, Debug, PartialEq)]
pub struct DagParams {
    pub q: String,
    pub mode: String,
    pub k: usize,
    pub node_kinds: Vec<String>,
    pub edge_sets: Vec<String>,
    pub edges: Vec<String>,
    pub include_cochange: bool,
    pub depth: u32,
    pub direction: String,
    pub budget: usize,
    pub per_node_cap: usize,
    pub no_anchors: bool,
}

/// What a URL asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Page {
    /// `/`: the served roots.
    Home,
    /// `/search?q=&kind=&tests=1`
    Search { q: String, kind: Option<String>, tests: bool },
    /// `/node/ID?full=1`
    Node { id: String, full: bool },
    /// `/impact/ID?direction=upstream&depth=3&tests=1`
    Impact { id: String, upstream: bool, depth: u32, tests: bool, full: bool },
    /// `/dag?q=...`
    Dag(DagParams),
    /// `/routes`, `/tools`
    Endpoints { kind: NodeKind },
    /// `/flows`: every flow, most central first
    Flows,
    /// `/clusters`: every cluster, largest first
    Clusters,
    /// `/flows/ID`
    Flow { id: String },
    /// `/clusters/ID`
    Cluster { id: String },
    /// `/api/revision`: the root's published revision as JSON (the live script's poll).
    Revision,
    /// `/assets/style.css`, `/assets/live.js`
    Asset { name: &'static str },
}

impl Page {
    /// The text the header's search box shows on this page.
    pub fn search_text(&self) -> &str {
        match self {
            Page::Search { q, .. } => q,
            _ => "",
        }
    }
}

/// A parsed request: the page and the `root=` it names (`None`: the default root).
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub page: Page,
    pub root: Option<String>,
}

/// What `path` (still percent-encoded) and `query` ask for.
pub fn parse_request(path: &str, query: &str) -> Result<Request, PageError> {
    // Flag-style names (`node-kind`) and parameter-style ones (`node_kind`) alike.
    let params: Vec<(String, String)> =
        parse_query(query).into_iter().map(|(k, v)| (k.replace('-', "_"), v)).collect();
    let list = |k: &str| -> Vec<String> {
        params
            .iter()
            .filter(|(n, _)| n == k)
            .flat_map(|(_, v)| v.split(','))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let flag = |k: &str| get(k).is_some_and(|v| matches!(v, "1" | "true" | "yes" | "on"));
    let number = |k: &str, default: u64, max: u64| -> Result<u64, PageError> {
        match get(k).filter(|v| !v.is_empty()) {
            None => Ok(default),
            Some(v) => v.parse::<u64>().ok().filter(|n| *n <= max).ok_or_else(|| {
                PageError::BadRequest(format!("`{k}` must be a number from 0 to {max}, not `{v}`"))
            }),
        }
    };
    let root = get("root").filter(|r| !r.is_empty()).map(str::to_string);
    let tail = |prefix: &str| -> Option<String> {
        path.strip_prefix(prefix).filter(|t| !t.is_empty()).map(|t| crate::html::decode(t, false))
    };
    let page = if path == "/" {
        Page::Home
    } else if path == "/search" {
        Page::Search {
            q: get("q").unwrap_or("").trim().to_string(),
            kind: get("kind").filter(|k| !k.is_empty()).map(str::to_string),
            tests: flag("tests"),
        }
    } else if let Some(id) = tail("/node/") {
        Page::Node { id, full: flag("full") }
    } else if let Some(id) = tail("/impact/") {
        let upstream = match get("direction").unwrap_or("upstream") {
            "upstream" | "up" | "" => true,
            "downstream" | "down" => false,
            other => {
                return Err(PageError::BadRequest(format!(
                    "`direction` is `upstream` or `downstream`, not `{other}`"
                )));
            }
        };
        Page::Impact {
            id,
            upstream,
            depth: number("depth", 3, u64::from(MAX_DEPTH))?.max(1) as u32,
            tests: flag("tests"),
            full: flag("full"),
        }
    } else if path == "/dag" {
        let d = DagGrepRequest::default();
        let seeds = if get("seeds").is_some() { "seeds" } else { "k" };
        let budget = if get("max_nodes").is_some() { "max_nodes" } else { "budget" };
        let mut edges = list("edge");
        edges.extend(list("edge_types"));
        Page::Dag(DagParams {
            q: get("q").unwrap_or("").trim().to_string(),
            mode: get("mode").filter(|m| !m.is_empty()).unwrap_or("fts").to_string(),
            k: number(seeds, d.k as u64, 50)?.max(1) as usize,
            node_kinds: list("node_kind"),
            edge_sets: list("edge_set"),
            edges,
            include_cochange: flag("include_cochange"),
            depth: number("depth", u64::from(d.depth), 5)? as u32,
            direction: get("direction").filter(|m| !m.is_empty()).unwrap_or("out").to_string(),
            budget: number(budget, d.budget as u64, 200)?.max(1) as usize,
            per_node_cap: number("per_node_cap", d.per_node_cap as u64, 200)?.max(1) as usize,
            no_anchors: flag("no_anchors"),
        })
    } else if path == "/routes" {
        Page::Endpoints { kind: NodeKind::Route }
    } else if path == "/tools" {
        Page::Endpoints { kind: NodeKind::Tool }
    } else if path == "/flows" || path == "/flows/" {
        Page::Flows
    } else if path == "/clusters" || path == "/clusters/" {
        Page::Clusters
    } else if let Some(id) = tail("/flows/") {
        Page::Flow { id }
    } else if let Some(id) = tail("/clusters/") {
        Page::Cluster { id }
    } else if path == "/api/revision" {
        Page::Revision
    } else if path == "/assets/style.css" {
        Page::Asset { name: "style.css" }
    } else if path == "/assets/live.js" {
        Page::Asset { name: "live.js" }
    } else {
        return Err(PageError::NotFound {
            what: format!("no page at `{path}`"),
            suggestions: Vec::new(),
        });
    };
    Ok(Request { page, root })
}

/// What a page is drawn from: one snapshot of one root.
pub struct Ctx<'a, 'r> {
    pub reader: &'a Reader<'r>,
    pub shell: Shell<'a>,
    /// The text of a root-relative file (`None`: unreadable), for source excerpts.
    pub source: &'a dyn Fn(&str) -> Option<String>,
}

/// Draws a page of one root. `Home`, `Revision` and `Asset` are not drawn here.
pub fn render(page: &Page, ctx: &Ctx<'_, '_>) -> Result<String, PageError> {
    let (title, body) = match page {
        Page::Search { q, kind, tests } => {
            ("search".to_string(), search(ctx, q, kind.as_deref(), *tests)?)
        }
        Page::Node { id, full } => node(ctx, id, *full)?,
        Page::Impact { id, upstream, depth, tests, full } => impact(
            ctx,
            id,
            ImpactParams { upstream: *upstream, depth: *depth, tests: *tests, full: *full },
        )?,
        Page::Dag(p) => ("DAG grep".to_string(), dag(ctx, p)?),
        Page::Endpoints { kind } => endpoints(ctx, *kind)?,
        Page::Flows => flows(ctx)?,
        Page::Clusters => clusters(ctx)?,
        Page::Flow { id } => flow(ctx, id)?,
        Page::Cluster { id } => cluster(ctx, id)?,
        Page::Home | Page::Revision | Page::Asset { .. } => {
            return Err(PageError::BadRequest("not a page of one root".into()));
        }
    };
    Ok(ctx.shell.page_titled(&title, &body))
}

// ---- shared pieces ----

fn kind_badge(kind: NodeKind) -> String {
    format!("<span class=\"kind\">{}</span>", esc(kind.as_str()))
}

fn location(n: &NodeRow) -> String {
    match (&n.file, n.start_line) {
        (Some(f), Some(l)) => format!("{f}:{l}"),
        (Some(f), None) => f.clone(),
        _ => String::new(),
    }
}

/// A node as a link with its kind and location.
fn node_link(sh: &Shell<'_>, n: &NodeRow) -> String {
    let test = if n.test { " <span class=\"test\">test</span>" } else { "" };
    format!(
        "<a href=\"{}\" title=\"{}\">{}</a> {}{} <span class=\"muted\">{}</span>",
        esc(&sh.node_href(&n.id)),
        esc(&n.id),
        esc(display_name(n)),
        kind_badge(n.kind),
        test,
        esc(&location(n))
    )
}

fn display_name(n: &NodeRow) -> &str {
    if n.qualified_name.is_empty() { &n.name } else { &n.qualified_name }
}

/// A bounded list: the first `cap` items, then "N more" linking to the full page.
fn list<T>(
    out: &mut String,
    heading: &str,
    items: &[T],
    full: bool,
    more_href: &str,
    item: impl Fn(&T) -> String,
) {
    if items.is_empty() {
        return;
    }
    let cap = if full { FULL_CAP } else { LIST_CAP };
    let _ = write!(
        out,
        "<h2>{} <span class=\"muted\">({})</span></h2><ul class=\"links\">",
        esc(heading),
        items.len()
    );
    for i in items.iter().take(cap) {
        let _ = write!(out, "<li>{}</li>", item(i));
    }
    out.push_str("</ul>");
    if items.len() > cap {
        if full {
            let _ = write!(out, "<p class=\"more\">{} more not shown</p>", items.len() - cap);
        } else {
            let _ = write!(
                out,
                "<p class=\"more\"><a href=\"{}\">{} more</a></p>",
                esc(more_href),
                items.len() - cap
            );
        }
    }
}

fn call_link(sh: &Shell<'_>, c: &CallLink) -> String {
    let lines: Vec<String> = c.lines.iter().take(8).map(u32::to_string).collect();
    let more = if c.lines.len() > 8 { format!(" +{}", c.lines.len() - 8) } else { String::new() };
    format!(
        "{} <span class=\"muted\">line {}{} · {} {:.2}</span>",
        node_link(sh, &c.node),
        lines.join(", "),
        more,
        esc(&c.reason),
        c.weight
    )
}

fn link_item(sh: &Shell<'_>, l: &Link) -> String {
    let arrow = match l.dir {
        Direction::In => "&larr;",
        _ => "&rarr;",
    };
    let line = if l.edge.line > 0 { format!(" line {}", l.edge.line) } else { String::new() };
    format!(
        "{arrow} <span class=\"kind\">{}</span> {} <span class=\"muted\">{}{}</span>",
        esc(l.edge.kind.as_str()),
        node_link(sh, &l.node),
        esc(&l.edge.reason),
        line
    )
}

fn graph_node(sh: &Shell<'_>, n: &NodeRow, layer: u32, class: &'static str) -> GraphNode {
    GraphNode {
        label: n.name.clone(),
        detail: format!("{} · {}", n.kind.as_str(), location(n)),
        layer,
        href: Some(sh.node_href(&n.id)),
        class: if n.test && class == "reached" { "test" } else { class },
        title: n.id.clone(),
    }
}

fn figure(svg: &str, caption: &str) -> String {
    format!(
        "<figure class=\"graph\">{svg}<figcaption class=\"muted\">{}</figcaption></figure>",
        esc(caption)
    )
}

// ---- home ----

/// One served root's card on `/`: revision, freshness, counts, languages, skipped files, the
/// top clusters and flows, and a search box.
pub fn root_card(ctx: &Ctx<'_, '_>) -> Result<String, PageError> {
    let r = ctx.reader;
    let sh = &ctx.shell;
    let status = r.status()?;
    let s = &status.snapshot;
    let mut out = String::new();
    let _ = write!(
        out,
        "<section class=\"card\"><h2>{root}</h2><p><span class=\"rev {fresh}\">revision {rev} · {fresh}</span>{head}</p>\
         <p>{files} files · {symbols} symbols · {edges} edges · {unresolved} unresolved call sites · {skipped} skipped</p>",
        root = esc(sh.root),
        fresh = if sh.stale { "stale" } else { "fresh" },
        rev = s.revision,
        head = s
            .head_commit
            .as_deref()
            .map(|h| format!(" <span class=\"muted\">at {}</span>", esc(&h[..h.len().min(10)])))
            .unwrap_or_default(),
        files = s.files,
        symbols = s.symbols,
        edges = s.edges,
        unresolved = s.unresolved,
        skipped = s.skipped,
    );
    let _ = write!(
        out,
        "<form action=\"/search\" method=\"get\"><input type=\"search\" name=\"q\" placeholder=\"search this root\">{}<button>Search</button></form>",
        sh.root_input()
    );
    let acc = r.file_accounting()?;
    if !acc.parsed.is_empty() {
        let langs: Vec<String> =
            acc.parsed.iter().map(|(l, n)| format!("{} {n}", esc(l))).collect();
        let _ = write!(out, "<p><b>Languages</b>: {}</p>", langs.join(", "));
    }
    let kinds: Vec<String> = status
        .nodes_by_kind
        .iter()
        .map(|(k, n)| {
            format!(
                "<a href=\"/search?kind={}{}\">{}</a> {n}",
                enc_query(k),
                sh.root_suffix(),
                esc(k)
            )
        })
        .collect();
    let _ = write!(out, "<p><b>Nodes</b>: {}</p>", kinds.join(" · "));
    if !status.diagnostics_by_code.is_empty() {
        let d: Vec<String> =
            status.diagnostics_by_code.iter().map(|(c, n)| format!("{} {n}", esc(c))).collect();
        let _ = write!(out, "<p><b>Diagnostics</b>: {}</p>", d.join(", "));
    }
    let clusters = r.clusters(5)?;
    if !clusters.is_empty() {
        out.push_str("<h3>Top clusters</h3><ul class=\"links\">");
        for c in &clusters {
            let _ = write!(
                out,
                "<li><a href=\"{}\">{}</a> <span class=\"muted\">{} members, cohesion {:.2}</span></li>",
                esc(&sh.cluster_href(&c.id)),
                esc(&c.label),
                c.size,
                c.cohesion
            );
        }
        out.push_str("</ul>");
    }
    let flows = r.flows(5)?;
    if !flows.is_empty() {
        out.push_str("<h3>Top flows</h3><ul class=\"links\">");
        for f in &flows {
            let _ = write!(
                out,
                "<li><a href=\"{}\">{}</a> <span class=\"muted\">{} steps</span></li>",
                esc(&sh.flow_href(&f.id)),
                esc(&f.label),
                f.steps
            );
        }
        out.push_str("</ul>");
    }
    if let Some(note) = r.flows_note(r.derived_stamp()?.as_ref()) {
        let _ = write!(out, "<p class=\"muted\">{}</p>", esc(&note));
    }
    out.push_str("</section>");
    Ok(out)
}

/// `/`: every served root's card (or why it has none yet).
pub fn home(cards: &[(String, Result<String, String>)]) -> String {
    let mut body = String::from("<h1>Served roots</h1><div class=\"cards\">");
    for (root, card) in cards {
        match card {
            Ok(html) => body.push_str(html),
            Err(why) => {
                let _ = write!(
                    body,
                    "<section class=\"card\"><h2>{}</h2><p class=\"muted\">{}</p></section>",
                    esc(root),
                    esc(why)
                );
            }
        }
    }
    body.push_str("</div>");
    crate::html::bare_page("roots", &body)
}

// ---- search ----

fn search(
    ctx: &Ctx<'_, '_>,
    q: &str,
    kind: Option<&str>,
    tests: bool,
) -> Result<String, PageError> {
    let sh = &ctx.shell;
    let kind = match kind {
        None => None,
        Some(k) => Some(
            NodeKind::parse(k)
                .ok_or_else(|| PageError::BadRequest(format!("`{k}` is not a node kind")))?,
        ),
    };
    let mut out = String::from("<h1>Search</h1>");
    if q.is_empty() && kind.is_none() {
        out.push_str("<p class=\"muted\">Type a name, a path or words of a signature.</p>");
        return Ok(out);
    }
    let hits = if q.is_empty() {
        // A kind alone lists nodes of that kind.
        let kind = kind.unwrap_or(NodeKind::File);
        let nodes = ctx.reader.nodes_of_kind(kind, FULL_CAP)?;
        nodes.into_iter().map(|n| (n, None)).collect::<Vec<_>>()
    } else {
        let req = SearchRequest { query: q.to_string(), kind, limit: 50, include_tests: tests };
        let res = ctx.reader.search(&req)?;
        res.hits.into_iter().map(|h| (h.node, Some(h.score))).collect()
    };
    let _ = write!(
        out,
        "<p class=\"muted\">{} hit(s){}{}</p>",
        hits.len(),
        kind.map(|k| format!(" of kind {}", k.as_str())).unwrap_or_default(),
        if q.is_empty() && hits.len() >= FULL_CAP { " (the first by ID)" } else { "" }
    );
    if hits.is_empty() {
        return Ok(out);
    }
    out.push_str("<table><tr><th>name</th><th>kind</th><th>location</th><th>signature</th><th>score</th></tr>");
    for (n, score) in &hits {
        let _ = write!(
            out,
            "<tr><td><a href=\"{}\" title=\"{}\">{}</a>{}</td><td class=\"kind\">{}</td><td class=\"muted\">{}</td><td><code>{}</code></td><td class=\"muted\">{}</td></tr>",
            esc(&sh.node_href(&n.id)),
            esc(&n.id),
            esc(display_name(n)),
            if n.test { " <span class=\"test\">test</span>" } else { "" },
            esc(n.kind.as_str()),
            esc(&location(n)),
            esc(n.signature.as_deref().unwrap_or("")),
            score.map(|s| format!("{s:.2}")).unwrap_or_default()
        );
    }
    out.push_str("</table>");
    Ok(out)
}

// ---- node ----

fn source_excerpt(ctx: &Ctx<'_, '_>, n: &NodeRow) -> String {
    let (Some(file), Some(start)) = (&n.file, n.start_line) else { return String::new() };
    let Some(text) = (ctx.source)(file) else {
        return "<p class=\"muted\">The source is not readable.</p>".into();
    };
    let end = n.end_line.unwrap_or(start).max(start);
    let last = end.min(start + SOURCE_CAP - 1);
    // Long bodies start folded (they would push the callers off the screen).
    let open = if end - start < SOURCE_OPEN { " open" } else { "" };
    let mut out = format!(
        "<details class=\"source\"{open}><summary>source, lines {start}-{end}</summary><pre class=\"source\"><code>"
    );
    for (i, line) in
        text.lines().enumerate().skip(start as usize - 1).take((last - start + 1) as usize)
    {
        let _ = writeln!(out, "<span class=\"ln\">{}</span>{}", i + 1, esc(line));
    }
    out.push_str("</code></pre>");
    if last < end {
        let _ = write!(out, "<p class=\"more\">{} more line(s) not shown</p>", end - last);
    }
    out.push_str("</details>");
    out
}

fn node(ctx: &Ctx<'_, '_>, id: &str, full: bool) -> Result<(String, String), PageError> {
    let sh = &ctx.shell;
    if ids::is(id, NodeCategory::Process) {
        return flow(ctx, id);
    }
    if ids::is(id, NodeCategory::Cluster) {
        return cluster(ctx, id);
    }
    let c = ctx.reader.symbol_context(id)?;
    let n = &c.symbol;
    let more =
        format!("{}{}full=1", sh.node_href(id), if sh.root_param.is_some() { "&" } else { "?" });
    let mut out = String::new();
    let _ = write!(
        out,
        "<h1>{}</h1><p>{}{} <span class=\"muted\">{}</span> · <code>{}</code></p>",
        esc(display_name(n)),
        kind_badge(n.kind),
        if n.test { " <span class=\"test\">test code</span>" } else { "" },
        esc(&location(n)),
        esc(&n.id)
    );
    let _ = write!(
        out,
        "<p><a href=\"/impact/{id}?direction=upstream{rs}\">impact upstream</a> · <a href=\"/impact/{id}?direction=downstream{rs}\">impact downstream</a></p>",
        id = enc_path(id),
        rs = sh.root_suffix()
    );
    if let Some(sig) = &n.signature {
        let _ = write!(out, "<pre><code>{}</code></pre>", esc(sig));
    }
    if let Some(doc) = &n.doc {
        let _ = write!(out, "<p class=\"doc\">{}</p>", esc(doc));
    }
    if let Some(props) = n.props.as_deref().and_then(EndpointProps::parse) {
        out.push_str(&props_table(&props));
    }
    // The neighbourhood: callers -> node -> callees, each node drawn once (a recursive call
    // is a loop on the node; a callee that also calls it is drawn among the callers).
    let mut gn: Vec<GraphNode> = vec![graph_node(sh, n, 1, "target")];
    let mut ge: Vec<GraphEdge> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::from([(n.id.as_str(), 0)]);
    let calls = EdgeKind::Calls.as_str();
    for cl in c.callers.iter().take(12) {
        let i = *at.entry(cl.node.id.as_str()).or_insert_with(|| {
            gn.push(graph_node(sh, &cl.node, 0, "reached"));
            gn.len() - 1
        });
        ge.push(GraphEdge { from: i, to: 0, label: calls.into(), weight: cl.weight, back: false });
    }
    for cl in c.callees.iter().take(12) {
        let i = *at.entry(cl.node.id.as_str()).or_insert_with(|| {
            gn.push(graph_node(sh, &cl.node, 2, "reached"));
            gn.len() - 1
        });
        ge.push(GraphEdge { from: 0, to: i, label: calls.into(), weight: cl.weight, back: false });
    }
    if gn.len() > 1 {
        let shown = gn.len() - 1;
        let total = c.callers.len() + c.callees.len();
        let caption = if total > shown {
            format!("callers and callees ({shown} of {total} drawn)")
        } else {
            "callers and callees".to_string()
        };
        out.push_str(&figure(&crate::svg::render(&gn, &ge), &caption));
    }
    out.push_str(&source_excerpt(ctx, n));
    list(&mut out, "Callers", &c.callers, full, &more, |x| call_link(sh, x));
    list(&mut out, "Callees", &c.callees, full, &more, |x| call_link(sh, x));
    list(&mut out, "Heritage", &c.heritage, full, &more, |x| link_item(sh, x));
    list(&mut out, "Contained in", &c.containers, full, &more, |x| link_item(sh, x));
    list(&mut out, "Members", &c.members, full, &more, |x| link_item(sh, x));
    list(&mut out, "Routes and tools", &c.endpoints, full, &more, |x| link_item(sh, x));
    list(&mut out, "References", &c.references, full, &more, |x| link_item(sh, x));
    list(&mut out, "Tests", &c.tests, full, &more, |x| link_item(sh, x));
    list(&mut out, "Docs", &c.docs, full, &more, |x| link_item(sh, x));
    list(&mut out, "Imported by", &c.imported_by, full, &more, |x| link_item(sh, x));
    list(&mut out, "Imports of its file", &c.file_imports, full, &more, |x| link_item(sh, x));
    list(&mut out, "Importers of its file", &c.file_importers, full, &more, |x| link_item(sh, x));
    list(
        &mut out,
        "Unresolved calls inside",
        &c.unresolved_calls,
        full,
        &more,
        |(line, callee)| format!("line {line}: <code>{}</code>", esc(callee)),
    );
    list(&mut out, "Flows", &c.processes, full, &more, |f| {
        format!(
            "<a href=\"{}\">{}</a> <span class=\"muted\">step {} of {}</span>",
            esc(&sh.flow_href(&f.id)),
            esc(&f.label),
            f.step,
            f.steps
        )
    });
    if let Some(cl) = &c.cluster {
        let _ = write!(
            out,
            "<h2>Cluster</h2><p><a href=\"{}\">{}</a> <span class=\"muted\">{} members, cohesion {:.2}</span></p>",
            esc(&sh.cluster_href(&cl.id)),
            esc(&cl.label),
            cl.size,
            cl.cohesion
        );
    }
    for note in &c.notes {
        let _ = write!(out, "<p class=\"muted\">{}</p>", esc(note));
    }
    Ok((display_name(n).to_string(), out))
}

fn props_table(p: &EndpointProps) -> String {
    let mut out = String::from("<table>");
    let mut row = |k: &str, v: String| {
        if !v.is_empty() {
            let _ = write!(out, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(&v));
        }
    };
    row("framework", p.framework.clone());
    row("method", p.method.clone().unwrap_or_default());
    row("path", p.path.clone().unwrap_or_default());
    row("tool", p.name.clone().unwrap_or_default());
    row("input fields", p.fields.join(", "));
    row("middleware", p.middleware.join(", "));
    row("response keys", p.response_keys.join(", "));
    row("status codes", p.status_codes.iter().map(u16::to_string).collect::<Vec<_>>().join(", "));
    row("registered at", p.registered.clone().unwrap_or_default());
    row("mounted under", p.mounted_under.clone().unwrap_or_default());
    out.push_str("</table>");
    out
}

// ---- impact ----

/// What an impact page was asked.
struct ImpactParams {
    upstream: bool,
    depth: u32,
    tests: bool,
    /// Long tables in full (up to [`FULL_CAP`] rows).
    full: bool,
}

fn impact(ctx: &Ctx<'_, '_>, id: &str, p: ImpactParams) -> Result<(String, String), PageError> {
    let ImpactParams { upstream, depth, tests, full } = p;
    let sh = &ctx.shell;
    // The reached table shows [`IMPACT_ROWS`] rows (the full page [`FULL_CAP`]); files
    // [`LIST_CAP`].
    let (row_cap, file_cap) = if full { (FULL_CAP, FULL_CAP) } else { (IMPACT_ROWS, LIST_CAP) };
    let more = format!(
        "/impact/{}?direction={}&depth={depth}{}{}&full=1",
        enc_path(id),
        if upstream { "upstream" } else { "downstream" },
        if tests { "&tests=1" } else { "" },
        sh.root_suffix()
    );
    let more_link = |left: usize| -> String {
        if full {
            format!("<p class=\"more\">{left} more not shown</p>")
        } else {
            format!("<p class=\"more\"><a href=\"{}\">{left} more</a></p>", esc(&more))
        }
    };
    let req = ImpactRequest {
        direction: if upstream { ImpactDirection::Upstream } else { ImpactDirection::Downstream },
        max_depth: depth,
        include_tests: tests,
        ..ImpactRequest::default()
    };
    let a = ctx.reader.impact(&[id.to_string()], &req)?;
    let dir = if upstream { "upstream" } else { "downstream" };
    let mut out = String::new();
    let target_name = a.targets.first().map_or(id, |t| display_name(t));
    let _ = write!(
        out,
        "<h1>Impact {dir} of {}</h1><p class=\"risk-{risk}\">risk {risk}: {} direct, {} reached, {} other file(s), {} other module(s)</p>",
        esc(target_name),
        a.direct,
        a.reached(),
        a.files,
        a.modules,
        risk = a.risk.as_str(),
    );
    let _ = write!(
        out,
        "<form class=\"params\" action=\"/impact/{}\" method=\"get\"><label>direction<select name=\"direction\">\
         <option{}>upstream</option><option{}>downstream</option></select></label>\
         <label>depth<input type=\"number\" name=\"depth\" min=\"1\" max=\"{MAX_DEPTH}\" value=\"{depth}\"></label>\
         <label>tests<input type=\"checkbox\" name=\"tests\" value=\"1\"{}></label>{}<button>Update</button></form>",
        enc_path(id),
        if upstream { " selected" } else { "" },
        if upstream { "" } else { " selected" },
        if tests { " checked" } else { "" },
        sh.root_input()
    );
    // The drawing: upstream dependents to the left of what they depend on (edges point the
    // way they run: caller -> callee), downstream ones to the right.
    let levels = a.levels.len() as u32;
    let layer = |d: u32| if upstream { levels - d } else { d };
    let mut gn: Vec<GraphNode> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for t in &a.targets {
        index.insert(t.id.as_str(), gn.len());
        gn.push(graph_node(sh, t, layer(0), "target"));
    }
    let mut drawn = 0usize;
    let mut left_out = 0usize;
    for (d, level) in a.levels.iter().enumerate() {
        for n in level {
            if gn.len() >= GRAPH_CAP {
                left_out += 1;
                continue;
            }
            index.insert(n.node.id.as_str(), gn.len());
            gn.push(graph_node(sh, &n.node, layer(d as u32 + 1), "reached"));
            drawn += 1;
        }
    }
    let mut ge: Vec<GraphEdge> = Vec::new();
    for level in &a.levels {
        for n in level {
            let (Some(&s), Some(&t)) =
                (index.get(n.via.src.as_str()), index.get(n.via.dst.as_str()))
            else {
                continue;
            };
            ge.push(GraphEdge {
                from: s,
                to: t,
                label: n.via.kind.as_str().to_string(),
                weight: n.confidence,
                back: false,
            });
        }
    }
    let caption = if left_out > 0 {
        format!("{drawn} of {} reached nodes drawn; all are in the table below", drawn + left_out)
    } else {
        format!(
            "{} by depth; stroke = confidence",
            if upstream { "dependents" } else { "dependencies" }
        )
    };
    out.push_str(&figure(&crate::svg::render(&gn, &ge), &caption));
    // The table of reached nodes by depth.
    out.push_str("<h2>Reached</h2><table><tr><th>depth</th><th>node</th><th>via</th><th>confidence</th></tr>");
    let mut rows = 0usize;
    for (d, level) in a.levels.iter().enumerate() {
        for n in level {
            rows += 1;
            if rows > row_cap {
                continue;
            }
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td class=\"kind\">{}{}</td><td>{:.2}</td></tr>",
                d + 1,
                node_link(sh, &n.node),
                esc(n.via.kind.as_str()),
                n.dispatch
                    .as_deref()
                    .map(|x| format!(" (dispatch via {})", esc(x)))
                    .unwrap_or_default(),
                n.confidence
            );
        }
    }
    out.push_str("</table>");
    if rows > row_cap {
        out.push_str(&more_link(rows - row_cap));
    }
    let _ = write!(
        out,
        "<h2>Affected files <span class=\"muted\">({})</span></h2><table><tr><th>file</th><th>nodes</th></tr>",
        a.affected_files.len()
    );
    for (f, n) in a.affected_files.iter().take(file_cap) {
        let _ = write!(
            out,
            "<tr><td><a href=\"{}\">{}</a></td><td>{n}</td></tr>",
            esc(&sh.node_href(&ids::file(f))),
            esc(f)
        );
    }
    out.push_str("</table>");
    if a.affected_files.len() > file_cap {
        out.push_str(&more_link(a.affected_files.len() - file_cap));
    }
    if !a.tests.is_empty() {
        let _ = write!(
            out,
            "<h2>Tests to run <span class=\"muted\">({})</span></h2><ul class=\"links\">",
            a.tests_total
        );
        for t in &a.tests {
            let _ = write!(
                out,
                "<li>{} <span class=\"muted\">depth {}</span></li>",
                node_link(sh, &t.test),
                t.depth
            );
        }
        out.push_str("</ul>");
    }
    if !a.flows.is_empty() {
        let _ = write!(
            out,
            "<h2>Flows <span class=\"muted\">({})</span></h2><ul class=\"links\">",
            a.flows_total
        );
        for f in &a.flows {
            let _ = write!(
                out,
                "<li><a href=\"{}\">{}</a> <span class=\"muted\">depth {}</span></li>",
                esc(&sh.flow_href(&f.flow.id)),
                esc(&f.flow.label),
                f.depth
            );
        }
        out.push_str("</ul>");
    }
    for note in &a.notes {
        let _ = write!(out, "<p class=\"muted\">{}</p>", esc(note));
    }
    Ok((format!("impact of {target_name}"), out))
}

// ---- DAG grep ----

fn dag(ctx: &Ctx<'_, '_>, p: &DagParams) -> Result<String, PageError> {
    let sh = &ctx.shell;
    let mut out = String::from("<h1>DAG grep</h1>");
    let _ = write!(
        out,
        "<form class=\"params\" action=\"/dag\" method=\"get\"><label>query<input type=\"search\" name=\"q\" value=\"{}\"></label>\
         <label>mode<select name=\"mode\">{}</select></label><label>k<input type=\"number\" name=\"k\" min=\"1\" max=\"50\" value=\"{}\"></label>\
         <label>depth<input type=\"number\" name=\"depth\" min=\"0\" max=\"5\" value=\"{}\"></label>\
         <label>direction<select name=\"direction\">{}</select></label>\
         <label>edges<input name=\"edge\" value=\"{}\" placeholder=\"CALLS,IMPORTS\"></label>\
         <label>edge sets<input name=\"edge-set\" value=\"{}\" placeholder=\"structural\"></label>\
         <label>node kinds<input name=\"node-kind\" value=\"{}\" placeholder=\"function,method\"></label>\
         <label>max nodes<input type=\"number\" name=\"max-nodes\" min=\"1\" max=\"200\" value=\"{}\"></label>\
         <label>per-node cap<input type=\"number\" name=\"per-node-cap\" min=\"1\" max=\"200\" value=\"{}\"></label>\
         <label>no anchors<input type=\"checkbox\" name=\"no-anchors\" value=\"1\"{}></label>\
         <label>co-change<input type=\"checkbox\" name=\"include-cochange\" value=\"1\"{}></label>{}<button>Run</button></form>",
        esc(&p.q),
        ["fts", "hybrid", "semantic"]
            .iter()
            .map(|m| format!("<option{}>{m}</option>", if *m == p.mode { " selected" } else { "" }))
            .collect::<String>(),
        p.k,
        p.depth,
        ["out", "in", "both"]
            .iter()
            .map(|m| format!(
                "<option{}>{m}</option>",
                if *m == p.direction { " selected" } else { "" }
            ))
            .collect::<String>(),
        esc(&p.edges.join(",")),
        esc(&p.edge_sets.join(",")),
        esc(&p.node_kinds.join(",")),
        p.budget,
        p.per_node_cap,
        if p.no_anchors { " checked" } else { "" },
        if p.include_cochange { " checked" } else { "" },
        sh.root_input()
    );
    if p.q.is_empty() {
        return Ok(out);
    }
    let mode = match p.mode.as_str() {
        "fts" => Mode::Fts,
        "semantic" => Mode::Semantic,
        "hybrid" => Mode::Hybrid,
        other => {
            return Err(PageError::BadRequest(format!(
                "`mode` is fts, semantic or hybrid, not `{other}`"
            )));
        }
    };
    let direction = Direction::parse(&p.direction).ok_or_else(|| {
        PageError::BadRequest(format!("`direction` is out, in or both, not `{}`", p.direction))
    })?;
    let edge_types =
        parse_edge_kinds(&p.edges).map_err(|e| PageError::BadRequest(e.to_string()))?;
    let req = DagGrepRequest {
        query: p.q.clone(),
        mode,
        k: p.k,
        node_kinds: p.node_kinds.clone(),
        edge_sets: p.edge_sets.clone(),
        edge_types,
        direction,
        depth: p.depth,
        budget: p.budget,
        per_node_cap: p.per_node_cap,
        include_anchors: !p.no_anchors,
        include_cochange: p.include_cochange,
        render: None,
    };
    let g = ctx.reader.dag_grep(&req).map_err(|e| match e {
        e @ (QueryError::UnknownEdgeKind { .. }
        | QueryError::UnknownEdgeSet { .. }
        | QueryError::UnknownNodeKind { .. }) => PageError::BadRequest(e.to_string()),
        e => PageError::from(e),
    })?;
    let _ = write!(
        out,
        "<p class=\"muted\">{} seed(s), {} node(s), {} edge(s) ({} back), {} anchor(s){}</p>",
        g.stats.seeds,
        g.stats.nodes,
        g.stats.edges,
        g.stats.back_edges,
        g.stats.anchors,
        if g.stats.budget_dropped > 0 {
            format!(", {} dropped by the budget", g.stats.budget_dropped)
        } else {
            String::new()
        }
    );
    let mut gn: Vec<GraphNode> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut left_out = 0usize;
    for n in &g.nodes {
        if gn.len() >= GRAPH_CAP {
            left_out += 1;
            continue;
        }
        let (layer, class) = match n.role {
            Role::Seed => (1, "seed"),
            Role::Reached => (n.layer.unwrap_or(0) + 1, "reached"),
            Role::Anchor => (0, "anchor"),
        };
        index.insert(n.node.id.as_str(), gn.len());
        gn.push(graph_node(sh, &n.node, layer, class));
    }
    let back: std::collections::HashSet<(&str, &str, &str)> =
        g.back_edges.iter().map(|e| (e.src.as_str(), e.dst.as_str(), e.kind.as_str())).collect();
    let mut ge: Vec<GraphEdge> = Vec::new();
    for e in &g.edges {
        let (Some(&s), Some(&t)) = (index.get(e.edge.src.as_str()), index.get(e.edge.dst.as_str()))
        else {
            continue;
        };
        ge.push(GraphEdge {
            from: s,
            to: t,
            label: e.edge.kind.as_str().to_string(),
            weight: e.edge.weight,
            back: back.contains(&(e.edge.src.as_str(), e.edge.dst.as_str(), e.edge.kind.as_str())),
        });
    }
    let caption = if left_out > 0 {
        format!(
            "{} of {} nodes drawn (seeds first); all are listed below",
            gn.len(),
            gn.len() + left_out
        )
    } else {
        "file and package anchors first, then the seeds (layer 0) and each layer to the right; back edges dashed".to_string()
    };
    out.push_str(&figure(&crate::svg::render(&gn, &ge), &caption));
    out.push_str(
        "<h2>Nodes</h2><table><tr><th>layer</th><th>node</th><th>role</th><th>score</th></tr>",
    );
    for n in g.nodes.iter().take(FULL_CAP) {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"kind\">{}</td><td>{:.2}</td></tr>",
            n.layer.map(|l| l.to_string()).unwrap_or_else(|| "-".into()),
            node_link(sh, &n.node),
            match n.role {
                Role::Seed => "seed",
                Role::Reached => "reached",
                Role::Anchor => "anchor",
            },
            n.score
        );
    }
    out.push_str("</table>");
    for w in &g.warnings {
        let _ = write!(out, "<p class=\"muted\">{}</p>", esc(w));
    }
    Ok(out)
}

// ---- routes, tools, flows, clusters ----

fn endpoints(ctx: &Ctx<'_, '_>, kind: NodeKind) -> Result<(String, String), PageError> {
    let sh = &ctx.shell;
    let nodes = ctx.reader.endpoint_nodes(kind)?;
    let title = if kind == NodeKind::Route { "Routes" } else { "Tools" };
    let mut out = format!("<h1>{title} <span class=\"muted\">({})</span></h1>", nodes.len());
    if nodes.is_empty() {
        let _ = write!(out, "<p class=\"muted\">No {} in this index.</p>", title.to_lowercase());
        return Ok((title.into(), out));
    }
    out.push_str("<table><tr><th>endpoint</th><th>framework</th><th>location</th></tr>");
    for n in nodes.iter().take(FULL_CAP) {
        let props = n.props.as_deref().and_then(EndpointProps::parse);
        let _ = write!(
            out,
            "<tr><td><a href=\"{}\">{}</a></td><td class=\"kind\">{}</td><td class=\"muted\">{}</td></tr>",
            esc(&sh.node_href(&n.id)),
            esc(&n.name),
            esc(props.as_ref().map_or("", |p| p.framework.as_str())),
            esc(&location(n))
        );
    }
    out.push_str("</table>");
    if nodes.len() > FULL_CAP {
        let _ = write!(out, "<p class=\"more\">{} more not shown</p>", nodes.len() - FULL_CAP);
    }
    Ok((title.into(), out))
}

/// Says when the flows and clusters are missing or lag the published revision.
fn derived_note(ctx: &Ctx<'_, '_>) -> Result<String, PageError> {
    let revision = ctx.reader.revision();
    Ok(match ctx.reader.derived_stamp()? {
        None => format!(
            "<p class=\"muted\">Not computed yet for revision {revision}: they are computed off the edit path; reload in a moment.</p>"
        ),
        Some(s) if s.computed_at_revision != revision => format!(
            "<p class=\"muted\">Computed at revision {}, the index is at {revision}: they lag until recomputed.</p>",
            s.computed_at_revision
        ),
        Some(_) => String::new(),
    })
}

fn flows(ctx: &Ctx<'_, '_>) -> Result<(String, String), PageError> {
    let sh = &ctx.shell;
    let rows: Vec<[String; 4]> = ctx
        .reader
        .flows(0)?
        .iter()
        .map(|f| {
            [sh.flow_href(&f.id), f.label.clone(), f.steps.to_string(), format!("{:.2}", f.score)]
        })
        .collect();
    Ok(("flows".into(), derived_list(ctx, "Flows", ["flow", "steps", "score"], &rows)?))
}

fn clusters(ctx: &Ctx<'_, '_>) -> Result<(String, String), PageError> {
    let sh = &ctx.shell;
    let rows: Vec<[String; 4]> = ctx
        .reader
        .clusters(0)?
        .iter()
        .map(|c| {
            [
                sh.cluster_href(&c.id),
                c.label.clone(),
                c.size.to_string(),
                format!("{:.2}", c.cohesion),
            ]
        })
        .collect();
    Ok((
        "clusters".into(),
        derived_list(ctx, "Clusters", ["cluster", "members", "cohesion"], &rows)?,
    ))
}

/// The page body listing flows or clusters: a heading with the count, the derivation note,
/// and a table of `[href, label, count, score]` rows under `headers`.
fn derived_list(
    ctx: &Ctx<'_, '_>,
    title: &str,
    headers: [&str; 3],
    rows: &[[String; 4]],
) -> Result<String, PageError> {
    let mut out = format!("<h1>{title} <span class=\"muted\">({})</span></h1>", rows.len());
    out.push_str(&derived_note(ctx)?);
    if rows.is_empty() {
        return Ok(out);
    }
    let _ = write!(
        out,
        "<table><tr><th>{}</th><th>{}</th><th>{}</th></tr>",
        headers[0], headers[1], headers[2]
    );
    for [href, label, count, score] in rows.iter().take(FULL_CAP) {
        let _ = write!(
            out,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td class=\"muted\">{}</td></tr>",
            esc(href),
            esc(label),
            count,
            score
        );
    }
    out.push_str("</table>");
    if rows.len() > FULL_CAP {
        let _ = write!(out, "<p class=\"more\">{} more not shown</p>", rows.len() - FULL_CAP);
    }
    Ok(out)
}

fn flow(ctx: &Ctx<'_, '_>, id: &str) -> Result<(String, String), PageError> {
    let sh = &ctx.shell;
    let Some(f) = ctx.reader.flow(id)? else {
        return Err(PageError::NotFound {
            what: format!("no flow with ID `{id}`"),
            suggestions: Vec::new(),
        });
    };
    let mut out = format!(
        "<h1>Flow: {}</h1><p class=\"muted\">{} steps, score {:.2}</p>",
        esc(&f.label),
        f.steps.len(),
        f.score
    );
    let mut gn: Vec<GraphNode> = Vec::new();
    let mut rows: Vec<NodeRow> = Vec::new();
    for (i, step) in f.steps.iter().enumerate() {
        if let Some(n) = ctx.reader.node(step)? {
            if gn.len() < GRAPH_CAP {
                gn.push(graph_node(sh, &n, i as u32, if i == 0 { "target" } else { "reached" }));
            }
            rows.push(n);
        }
    }
    let ge: Vec<GraphEdge> = (1..gn.len())
        .map(|i| GraphEdge {
            from: i - 1,
            to: i,
            label: EdgeKind::StepInProcess.as_str().into(),
            weight: 1.0,
            back: false,
        })
        .collect();
    out.push_str(&figure(&crate::svg::render(&gn, &ge), "entry first, steps in order"));
    out.push_str("<ol>");
    for n in &rows {
        let _ = write!(out, "<li>{}</li>", node_link(sh, n));
    }
    out.push_str("</ol>");
    Ok((format!("flow {}", f.label), out))
}

fn cluster(ctx: &Ctx<'_, '_>, id: &str) -> Result<(String, String), PageError> {
    let sh = &ctx.shell;
    let Some(c) = ctx.reader.cluster(id)? else {
        return Err(PageError::NotFound {
            what: format!("no cluster with ID `{id}`"),
            suggestions: Vec::new(),
        });
    };
    let members = ctx.reader.cluster_members(id)?;
    let mut out = format!(
        "<h1>Cluster: {}</h1><p class=\"muted\">{} members, cohesion {:.2}</p><ul class=\"links\">",
        esc(&c.label),
        c.size,
        c.cohesion
    );
    for m in members.iter().take(FULL_CAP) {
        match ctx.reader.node(m)? {
            Some(n) => {
                let _ = write!(out, "<li>{}</li>", node_link(sh, &n));
            }
            None => {
                let _ = write!(out, "<li>{}</li>", esc(m));
            }
        }
    }
    out.push_str("</ul>");
    if members.len() > FULL_CAP {
        let _ = write!(out, "<p class=\"more\">{} more not shown</p>", members.len() - FULL_CAP);
    }
    Ok((format!("cluster {}", c.label), out))
}
