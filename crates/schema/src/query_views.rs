//! The views of the read-only graph query (`codegraph query`, MCP `graph_query`): the one
//! stable surface an agent writes SQL against, so the storage tables (row numbers, packed
//! kinds, derivation bookkeeping, stored facts) can change without breaking anyone's queries.
//!
//! The views are created as `TEMP` views on the reading connection (the index file itself is
//! never written by a query) from the definitions here; [`QUERY_VIEWS_VERSION`] changes
//! whenever a view's columns or meaning change, and answers carry it.

/// Bumped when a view's columns or their meaning change (answers carry it as
/// `views_version`).
pub const QUERY_VIEWS_VERSION: u32 = 1;

/// One view of the query surface.
pub struct QueryView {
    pub name: &'static str,
    pub doc: &'static str,
    /// (column, what it holds).
    pub columns: &'static [(&'static str, &'static str)],
    /// The `SELECT` behind it (over the `main` schema).
    select: &'static str,
}

/// Every view, in documentation order.
pub const QUERY_VIEWS: &[QueryView] = &[
    QueryView {
        name: "nodes",
        doc: "every node of the graph: files, symbols, routes, tools, sections, packages",
        columns: &[
            (
                "id",
                "stable node ID, e.g. `sym:go:net/http/server.go:Server.Serve`, `file:src/a.ts`",
            ),
            (
                "kind",
                "file, package, function, method, class, interface, struct, type_alias, enum, variable, constant, property, route, tool, section, test, module, ...",
            ),
            ("name", "short name"),
            ("qualified_name", "name chain of the enclosing declarations (`Server.Serve`)"),
            ("file", "root-relative path of the file that holds it (NULL for packages)"),
            ("language", "language of that file"),
            ("start_line", "1-based first line"),
            ("end_line", "1-based last line"),
            ("signature", "declaration text up to the body"),
            ("doc", "doc comment"),
            ("exported", "1 when visible outside its file / package / module"),
            ("test", "1 when it lies in test code"),
            ("parent", "ID of the enclosing node (a method's type, a nested function's function)"),
        ],
        select: "SELECT id, kind, name, qualified_name, file, language, start_line, end_line, \
                 signature, doc, exported, test, parent FROM main.node",
    },
    QueryView {
        name: "edges",
        doc: "every edge between two nodes, by node ID (CALLS has one row per call-site line)",
        columns: &[
            (
                "src",
                "node ID of the source (the caller, the importer, the subclass, the test; a route or tool for HANDLES_ROUTE / HANDLES_TOOL)",
            ),
            (
                "dst",
                "node ID of the target (the callee, the imported, the base, the tested; the handler)",
            ),
            (
                "kind",
                "CONTAINS, DEFINES, IMPORTS, CALLS, EXTENDS, IMPLEMENTS, HAS_METHOD, HAS_PROPERTY, ACCESSES, HANDLES_ROUTE, FETCHES, HANDLES_TOOL, REFERS_TO, TESTS, DOC_RELATED, CO_CHANGED, EMBEDS",
            ),
            ("weight", "confidence in [0, 1]"),
            ("reason", "why the edge exists (`structural`, `import`, `receiver-type`, ...)"),
            ("line", "call-site or reference line (0 when not applicable)"),
        ],
        select: "SELECT src_id, dst_id, kind, weight, reason, line FROM main.edge",
    },
    QueryView {
        name: "files",
        doc: "indexed files (text files without a provider too)",
        columns: &[
            ("id", "node ID (`file:` + path)"),
            ("path", "root-relative path"),
            ("language", "language its provider read it as (NULL: text only)"),
            ("lines", "line count"),
            ("size", "bytes"),
            ("test", "1 when it is test code"),
        ],
        select: "SELECT id, file, language, lines, size, test FROM main.node WHERE kind = 'file'",
    },
    QueryView {
        name: "routes",
        doc: "HTTP routes and gRPC methods the code registers or a `.proto` declares (their handlers: `edges` of kind HANDLES_ROUTE from the route; clients that call them: FETCHES into it)",
        columns: &[
            ("id", "node ID"),
            (
                "method",
                "HTTP method (`ANY` when any; `GRPC` for a gRPC method, whose path is `/pkg.Service/Method`)",
            ),
            ("path", "normalized path (`/users/:id`)"),
            ("framework", "the framework that registers it (`express`, `net/http`, `flask`, ...)"),
            ("file", "file of the registration"),
            ("line", "line of the registration"),
            ("props", "every property as JSON (middleware, responds, status codes, mount prefix)"),
        ],
        select: "SELECT id, json_extract(props, '$.method'), json_extract(props, '$.path'), \
                 json_extract(props, '$.framework'), file, start_line, props \
                 FROM main.node WHERE kind = 'route'",
    },
    QueryView {
        name: "tools",
        doc: "MCP / RPC tools the code registers (their handlers: `edges` of kind HANDLES_TOOL from the tool)",
        columns: &[
            ("id", "node ID"),
            ("name", "the tool's name"),
            ("framework", "the SDK that registers it"),
            ("description", "its description"),
            ("file", "file of the registration"),
            ("line", "line of the registration"),
            ("props", "every property as JSON (input fields, ...)"),
        ],
        select: "SELECT id, name, json_extract(props, '$.framework'), doc, file, start_line, props \
                 FROM main.node WHERE kind = 'tool'",
    },
    QueryView {
        name: "unresolved_calls",
        doc: "call sites whose callee resolved to nothing in the root (unknown types, dynamic calls)",
        columns: &[
            ("file", "root-relative path of the calling file"),
            ("line", "line of the call"),
            ("caller", "node ID of the enclosing symbol (or the file, for top-level code)"),
            ("callee", "the callee as written (`a.b.c`, `this.m`)"),
        ],
        select: "SELECT file, line, caller, callee FROM main.unresolved",
    },
    QueryView {
        name: "flows",
        doc: "execution flows (entry point and a bounded walk along confident calls); derived after publishing, see `derivations` for the revision they were computed from",
        columns: &[
            ("id", "flow ID (`proc:` + entry node ID)"),
            ("label", "`GET /users/:id -> getUser` or the entry's name"),
            ("score", "how central the flow is (higher first)"),
            ("entry", "node ID of the entry point"),
            ("steps", "number of steps"),
        ],
        select: "SELECT id, label, score, entry, steps FROM main.process",
    },
    QueryView {
        name: "flow_steps",
        doc: "the steps of each flow in walk order",
        columns: &[
            ("flow", "flow ID"),
            ("step", "1-based position (1 = the entry point)"),
            ("node", "node ID of the step"),
        ],
        select: "SELECT process, step, node FROM main.process_step",
    },
    QueryView {
        name: "clusters",
        doc: "functional clusters (communities of the call / import / type graph); derived like flows",
        columns: &[
            ("id", "cluster ID"),
            ("label", "dominant folder and most connected symbols"),
            ("cohesion", "internal weight / (internal + boundary), in [0, 1]"),
            ("size", "number of members"),
        ],
        select: "SELECT id, label, cohesion, size FROM main.cluster",
    },
    QueryView {
        name: "cluster_members",
        doc: "which cluster each clustered node belongs to",
        columns: &[("node", "node ID"), ("cluster", "cluster ID")],
        select: "SELECT node, cluster FROM main.cluster_member",
    },
    QueryView {
        name: "derivations",
        doc: "the revision flows and clusters were computed from (they may lag the published revision)",
        columns: &[
            ("name", "which derivation (`flows_clusters`)"),
            ("revision", "the revision it was computed from"),
        ],
        select: "SELECT name, revision FROM main.derivation",
    },
    QueryView {
        name: "revision",
        doc: "the published revision the query reads (one row)",
        columns: &[
            ("revision", "revision number"),
            ("head_commit", "git HEAD commit it was built at (NULL outside git)"),
            ("indexer_version", "codegraph version and facts version that wrote it"),
            ("created_at_ms", "when it was published (unix milliseconds)"),
            ("files", "indexed files"),
            ("symbols", "symbols"),
            ("edges", "edges"),
        ],
        select: "SELECT revision, head_commit, indexer_version, created_at_ms, files, symbols, edges \
                 FROM main.snapshot ORDER BY revision DESC LIMIT 1",
    },
];

impl QueryView {
    /// `CREATE TEMP VIEW IF NOT EXISTS name (columns) AS select`.
    pub fn create_temp(&self) -> String {
        let columns: Vec<&str> = self.columns.iter().map(|(c, _)| *c).collect();
        format!(
            "CREATE TEMP VIEW IF NOT EXISTS {} ({}) AS {};\n",
            self.name,
            columns.join(", "),
            self.select
        )
    }
}

/// Every view's `CREATE TEMP VIEW` statement, in order.
pub fn create_temp_views() -> String {
    QUERY_VIEWS.iter().map(QueryView::create_temp).collect()
}

/// Whether `name` is one of the views (case-insensitive, as SQL names are).
pub fn is_query_view(name: &str) -> bool {
    QUERY_VIEWS.iter().any(|v| v.name.eq_ignore_ascii_case(name))
}

/// The views and their columns as Markdown (`codegraph query --schema`, docs, MCP).
pub fn describe_markdown() -> String {
    let mut out = format!("Query views (version {QUERY_VIEWS_VERSION}; SQLite SQL, read-only):\n");
    for v in QUERY_VIEWS {
        out.push_str(&format!("\n{}: {}\n", v.name, v.doc));
        for (c, d) in v.columns {
            out.push_str(&format!("  {c}: {d}\n"));
        }
    }
    out
}

/// One line per view (`name(col, col, ...)`): the compact form for a tool description.
pub fn describe_compact() -> String {
    QUERY_VIEWS
        .iter()
        .map(|v| {
            let cols: Vec<&str> = v.columns.iter().map(|(c, _)| *c).collect();
            format!("{}({})", v.name, cols.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_names_its_columns_once_and_selects_as_many() {
        for v in QUERY_VIEWS {
            let mut names: Vec<&str> = v.columns.iter().map(|(c, _)| *c).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), v.columns.len(), "{}", v.name);
            assert!(v.create_temp().starts_with("CREATE TEMP VIEW IF NOT EXISTS "));
        }
        assert!(is_query_view("NODES"));
        assert!(!is_query_view("node"));
    }
}
