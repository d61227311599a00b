//! Table definitions of the SQLite snapshot, and the deterministic DDL generated from them.
//!
//! The generated text is checked in at `crates/schema/schema.sql`; a test fails when the two
//! drift, so a schema change is always a reviewed diff. Kind columns list their allowed values
//! (from [`crate::vocab`]) in the DDL comments.

use crate::vocab::{DiagnosticCode, EdgeKind, NodeCategory, NodeKind, Reason};

/// Bumped whenever the generated DDL changes incompatibly; an index with another version is
/// rebuilt from scratch.
pub const SCHEMA_VERSION: u32 = 15;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    Text,
    Integer,
    Real,
    Blob,
}

impl ColumnType {
    const fn sql(self) -> &'static str {
        match self {
            ColumnType::Text => "TEXT",
            ColumnType::Integer => "INTEGER",
            ColumnType::Real => "REAL",
            ColumnType::Blob => "BLOB",
        }
    }
}

/// Which vocabulary a column's values must come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Any,
    NodeKind,
    EdgeKind,
    Reason,
    DiagnosticCode,
}

impl Domain {
    fn values(self) -> Option<Vec<&'static str>> {
        match self {
            Domain::Any => None,
            Domain::NodeKind => Some(NodeKind::ALL.iter().map(|k| k.as_str()).collect()),
            Domain::EdgeKind => Some(EdgeKind::ALL.iter().map(|k| k.as_str()).collect()),
            Domain::Reason => Some(Reason::ALL.iter().map(|k| k.as_str()).collect()),
            Domain::DiagnosticCode => {
                Some(DiagnosticCode::ALL.iter().map(|k| k.as_str()).collect())
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Column {
    pub name: &'static str,
    pub ty: ColumnType,
    pub nullable: bool,
    pub domain: Domain,
    pub doc: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub struct Index {
    pub name: &'static str,
    pub columns: &'static [&'static str],
    pub unique: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub name: &'static str,
    pub doc: &'static str,
    pub columns: &'static [Column],
    pub primary_key: &'static [&'static str],
    pub indexes: &'static [Index],
    /// Store the table clustered on its primary key (no separate rowid B-tree).
    pub without_rowid: bool,
}

/// An FTS5 table. Its rowid equals the `rowid` of the matching `node` row. It is contentless:
/// it holds only the full-text index, never a second copy of the text, which lives in `node`.
#[derive(Clone, Copy, Debug)]
pub struct FtsTable {
    pub name: &'static str,
    pub doc: &'static str,
    /// Indexed text columns, in order; `bm25()` weights follow this order.
    pub columns: &'static [&'static str],
    pub tokenize: &'static str,
}

const fn col(name: &'static str, ty: ColumnType, doc: &'static str) -> Column {
    Column { name, ty, nullable: false, domain: Domain::Any, doc }
}

const fn opt(name: &'static str, ty: ColumnType, doc: &'static str) -> Column {
    Column { name, ty, nullable: true, domain: Domain::Any, doc }
}

const fn kind(name: &'static str, domain: Domain, doc: &'static str) -> Column {
    Column { name, ty: ColumnType::Text, nullable: false, domain, doc }
}

use ColumnType::{Blob, Integer, Real, Text};

pub const META: Table = Table {
    name: "meta",
    doc: "Key/value facts about the database itself (schema version, root).",
    columns: &[col("key", Text, "name"), col("value", Text, "value")],
    primary_key: &["key"],
    indexes: &[],
    without_rowid: true,
};

pub const SNAPSHOT: Table = Table {
    name: "snapshot",
    doc: "One row per published revision; the highest revision is the current one.",
    columns: &[
        col("revision", Integer, "monotonic revision number"),
        col("root", Text, "canonical root path"),
        opt("head_commit", Text, "HEAD commit when the root is in a git repository"),
        opt(
            "dirty_fingerprint",
            Text,
            "hash over the paths and contents of files that differ from HEAD",
        ),
        col("dirty_files", Integer, "number of files that differ from HEAD"),
        col("indexer_version", Text, "codegraph version that wrote the revision"),
        col("schema_version", Integer, "SCHEMA_VERSION at write time"),
        col("created_at_ms", Integer, "unix time in milliseconds"),
        col("duration_ms", Integer, "wall time of the index run"),
        col("files", Integer, "file nodes"),
        col("symbols", Integer, "symbol nodes"),
        col("edges", Integer, "edges"),
        col("skipped", Integer, "paths skipped, all reasons"),
        col("unresolved", Integer, "call sites without a resolved target"),
    ],
    primary_key: &["revision"],
    indexes: &[],
    without_rowid: false,
};

pub const NODE: Table = Table {
    name: "node",
    doc: "Every node of the graph: files, packages, symbols (and later routes, tools, processes, clusters).",
    columns: &[
        col("nid", Integer, "row number (rowid alias); edges and FTS rows refer to it"),
        col("id", Text, "stable readable ID, e.g. sym:ts:src/a.ts:Server.start"),
        kind("kind", Domain::NodeKind, "node kind"),
        col("name", Text, "short name"),
        col("qualified_name", Text, "name chain of enclosing named declarations"),
        opt("file", Text, "root-relative path of the file that holds the node"),
        opt("language", Text, "language of the file"),
        opt("start_line", Integer, "1-based first line"),
        opt("end_line", Integer, "1-based last line"),
        opt("signature", Text, "declaration text up to the body"),
        opt("doc", Text, "doc comment"),
        col("exported", Integer, "1 when visible outside its file/package"),
        col(
            "test",
            Integer,
            "1 when the node lies in test code, by its file's language's rule (e.g. `_test.go`, `*.test.ts`)",
        ),
        opt(
            "parent",
            Text,
            "ID of the containing node (a symbol's parent edge is implied by it, see the `edge` view)",
        ),
        opt("size", Integer, "bytes (files)"),
        opt("lines", Integer, "line count (files)"),
        opt("hash", Text, "content hash (files)"),
        opt(
            "props",
            Text,
            "routes and tools: their properties (framework, method, path, middleware, responds, status, fields...) as a JSON object",
        ),
    ],
    primary_key: &["nid"],
    indexes: &[
        Index { name: "node_by_id", columns: &["id"], unique: true },
        Index { name: "node_by_file", columns: &["file", "start_line"], unique: false },
        Index { name: "node_by_name", columns: &["name"], unique: false },
        Index { name: "node_by_qualified_name", columns: &["qualified_name"], unique: false },
        Index { name: "node_by_parent", columns: &["parent"], unique: false },
    ],
    without_rowid: false,
};

pub const EDGE: Table = Table {
    name: "stored_edge",
    doc: "Typed, weighted edges between node rows that their nodes do not imply; CALLS edges have one row per call site (line). Read every edge through the `edge` view.",
    columns: &[
        col("src", Integer, "nid of the source node"),
        col("dst", Integer, "nid of the target node"),
        kind("kind", Domain::EdgeKind, "edge kind"),
        col("weight", Real, "confidence in [0, 1]"),
        kind("reason", Domain::Reason, "why the edge exists"),
        col("line", Integer, "call-site or reference line, 0 when not applicable"),
        col(
            "owner",
            Integer,
            "nid of the unit (file or package node) whose derivation produced the edge; an incremental revision replaces a unit's edges together",
        ),
    ],
    primary_key: &["src", "kind", "dst", "line"],
    indexes: &[
        Index { name: "edge_by_dst", columns: &["dst", "kind"], unique: false },
        Index { name: "edge_by_owner", columns: &["owner"], unique: false },
    ],
    without_rowid: true,
};

pub const DIAGNOSTIC: Table = Table {
    name: "diagnostic",
    doc: "Paths skipped by the scanner (with the reason) and notes on indexed files.",
    columns: &[
        col("path", Text, "root-relative path"),
        kind("code", Domain::DiagnosticCode, "what happened"),
        col("detail", Text, "human-readable detail"),
        col("skipped", Integer, "1 when the path is not in the index"),
    ],
    primary_key: &["path", "code"],
    indexes: &[],
    without_rowid: true,
};

pub const UNRESOLVED: Table = Table {
    name: "unresolved",
    doc: "Call sites that resolution could not attach to a target, so answers can say how complete they are.",
    columns: &[
        col("file", Text, "root-relative path of the calling file"),
        col("line", Integer, "1-based line of the call"),
        col("caller", Text, "ID of the enclosing symbol, or of the file for module-level code"),
        col("callee", Text, "the callee as written (a.b.c, this.m, f().g)"),
    ],
    primary_key: &["file", "line", "callee"],
    indexes: &[Index { name: "unresolved_by_caller", columns: &["caller"], unique: false }],
    without_rowid: true,
};

pub const UNIT: Table = Table {
    name: "unit",
    doc: "What each unit (a file, a Go package) last published, as a digest of its rows: the next revision rewrites only units whose digest changed.",
    columns: &[
        col("id", Text, "node ID of the unit's owner (file:..., pkg:go:...)"),
        col("digest", Integer, "hash of the unit's derived rows (nodes, edges, unresolved sites)"),
    ],
    primary_key: &["id"],
    indexes: &[],
    without_rowid: true,
};

pub const SOURCE: Table = Table {
    name: "source",
    doc: "Every indexed file as the scanner saw it, with its extracted facts, so a later index restores unchanged files without reading or parsing them.",
    columns: &[
        col("path", Text, "root-relative path"),
        col("size", Integer, "bytes on disk"),
        col("mtime_ns", Integer, "modification time (ns since the epoch, 0 when unknown)"),
        col("hash", Text, "content hash of the bytes"),
        col("lossy_utf8", Integer, "1 when the bytes were decoded lossily"),
        col("lines", Integer, "line count"),
        opt(
            "facts",
            Blob,
            "encoded per-file facts (codegraph-parse codec), NULL without a provider",
        ),
        opt(
            "language",
            Text,
            "the file's language (from its name, or from its text for languages that claim files by content), NULL without a provider",
        ),
    ],
    primary_key: &["path"],
    indexes: &[],
    // Rows hold blobs of kilobytes: a rowid table keeps the primary-key B-tree small.
    without_rowid: false,
};

pub const DERIVATION: Table = Table {
    name: "derivation",
    doc: "Whole-graph derivations (execution flows and clusters) and the revision each was computed from: they are recomputed off the edit path, so they may lag the current revision, and every answer that uses them says by how much.",
    columns: &[
        col("name", Text, "which derivation (`flows_clusters`)"),
        col("revision", Integer, "the revision whose graph it was computed from"),
        col("computed_at_ms", Integer, "unix time in milliseconds"),
        col("compute_ms", Integer, "wall time of the computation"),
    ],
    primary_key: &["name"],
    indexes: &[],
    without_rowid: true,
};

pub const PROCESS: Table = Table {
    name: "process",
    doc: "Execution flows (`process` nodes of the model): an entry point and a bounded walk along confident CALLS edges. Derived (see `derivation`); steps refer to node IDs, not row numbers, so a lagging flow never points at a reused row.",
    columns: &[
        col("id", Text, "`proc:` + the entry point's node ID"),
        col("label", Text, "`GET /users/:id -> getUser`, or the entry's name"),
        col("score", Real, "entry-point tier plus a bonus per step (higher = more central)"),
        col("entry", Text, "node ID of the entry point (ENTRY_POINT_OF)"),
        col("steps", Integer, "number of steps, entry included"),
    ],
    primary_key: &["id"],
    indexes: &[],
    without_rowid: true,
};

pub const PROCESS_STEP: Table = Table {
    name: "process_step",
    doc: "The steps of each flow in walk order (STEP_IN_PROCESS with its step number).",
    columns: &[
        col("process", Text, "process ID"),
        col("step", Integer, "1-based position in the flow (1 = the entry point)"),
        col("node", Text, "node ID of the step"),
    ],
    primary_key: &["process", "step"],
    indexes: &[Index { name: "process_step_by_node", columns: &["node"], unique: false }],
    without_rowid: true,
};

pub const CLUSTER: Table = Table {
    name: "cluster",
    doc: "Functional clusters (`cluster` nodes of the model): Leiden communities of the CALLS/IMPORTS/EXTENDS/IMPLEMENTS graph. Derived (see `derivation`).",
    columns: &[
        col("id", Text, "`cluster:` + a slug of the dominant folder and top symbols"),
        col("label", Text, "dominant folder and most connected symbols"),
        col("cohesion", Real, "internal weight / (internal + boundary weight), in [0, 1]"),
        col("size", Integer, "number of members"),
    ],
    primary_key: &["id"],
    indexes: &[],
    without_rowid: true,
};

pub const CLUSTER_MEMBER: Table = Table {
    name: "cluster_member",
    doc: "Which cluster each clustered node belongs to (MEMBER_OF).",
    columns: &[col("node", Text, "node ID of the member"), col("cluster", Text, "cluster ID")],
    primary_key: &["node"],
    indexes: &[Index { name: "cluster_member_by_cluster", columns: &["cluster"], unique: false }],
    without_rowid: true,
};

pub const NODE_FTS: FtsTable = FtsTable {
    name: "node_fts",
    doc: "Full-text index over nodes (rowid = node.nid); `terms` holds identifiers split at case and underscores.",
    columns: &["name", "qualified_name", "signature", "doc", "path", "terms"],
    tokenize: "unicode61 remove_diacritics 2",
};

/// How many edges a node row implies (never stored in [`EDGE`]): a symbol has DEFINES from its
/// file's node and the edge from its parent ([`NodeKind::parent_edge`]), both structural.
pub const fn implied_edges(kind: NodeKind, has_file: bool, has_parent: bool) -> i64 {
    match kind.category() {
        NodeCategory::Symbol => has_file as i64 + has_parent as i64,
        _ => 0,
    }
}

/// The view every reader takes edges from: the rows of [`EDGE`] plus the edges that symbol rows
/// imply. A symbol's DEFINES and parent edge are a function of its `file`, `parent` and `kind`
/// columns, so storing them (two thirds of all edges) bought nothing but a bigger table and
/// two bigger indexes to build; an incremental revision keeps them right by keeping the node
/// rows right. `src = ?` finds implied edges through `node_by_file` / `node_by_parent`,
/// `dst = ?` through the node's own row.
pub const EDGE_VIEW: &str = "edge";

fn quoted(values: impl IntoIterator<Item = &'static str>) -> String {
    values.into_iter().map(|v| format!("'{v}'")).collect::<Vec<_>>().join(", ")
}

/// `'function', 'method', ...`: the kinds whose rows imply edges.
fn symbol_kinds() -> String {
    quoted(
        NodeKind::ALL.iter().filter(|k| k.category() == NodeCategory::Symbol).map(|k| k.as_str()),
    )
}

/// The SQL of [`NodeKind::parent_edge`] for child `child` and parent `parent` (table aliases),
/// enumerated from the Rust rule so that the two cannot disagree.
fn parent_edge_case(child: &str, parent: &str) -> String {
    let mut out = String::from("CASE");
    for edge in EdgeKind::ALL {
        if *edge == EdgeKind::Contains {
            continue;
        }
        for c in NodeKind::ALL {
            let parents: Vec<&'static str> = NodeKind::ALL
                .iter()
                .filter(|p| c.parent_edge(**p) == *edge)
                .map(|p| p.as_str())
                .collect();
            if !parents.is_empty() {
                out.push_str(&format!(
                    " WHEN {child}.kind = '{}' AND {parent}.kind IN ({}) THEN '{}'",
                    c.as_str(),
                    quoted(parents),
                    edge.as_str()
                ));
            }
        }
    }
    out.push_str(&format!(" ELSE '{}' END", EdgeKind::Contains.as_str()));
    out
}

/// The two selects of implied edges: (src, dst, kind, weight, reason, line, src_id, dst_id).
fn implied_edge_selects() -> [String; 2] {
    let file = NodeCategory::File.id_prefix();
    let reason = Reason::Structural;
    let weight = reason.weight();
    let symbols = symbol_kinds();
    [
        format!(
            "SELECT f.nid, n.nid, '{defines}', {weight:?}, '{reason}', 0, f.id, n.id FROM node n \
             JOIN node f ON f.id = '{file}:' || n.file AND n.file = substr(f.id, {skip}) \
             WHERE n.kind IN ({symbols})",
            defines = EdgeKind::Defines.as_str(),
            reason = reason.as_str(),
            skip = file.len() + 2,
        ),
        format!(
            "SELECT p.nid, n.nid, {case}, {weight:?}, '{reason}', 0, p.id, n.id FROM node n \
             JOIN node p ON p.id = n.parent WHERE n.kind IN ({symbols})",
            case = parent_edge_case("n", "p"),
            reason = reason.as_str(),
        ),
    ]
}

/// Whether an edge of `kind` can be one a node row implies: DEFINES and every kind
/// [`NodeKind::parent_edge`] yields.
pub fn may_be_implied(kind: EdgeKind) -> bool {
    kind == EdgeKind::Defines
        || NodeKind::ALL.iter().any(|c| NodeKind::ALL.iter().any(|p| c.parent_edge(*p) == kind))
}

/// Where a reader takes edges of some kinds from (see [`edge_source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeSource {
    /// [`EDGE`] itself, joined to its endpoints' rows for their IDs.
    Stored,
    /// [`EDGE_VIEW`], whose branches carry the endpoints' IDs (`src_id`, `dst_id`).
    View,
}

impl EdgeSource {
    /// The relation's name.
    pub fn relation(self) -> &'static str {
        match self {
            EdgeSource::Stored => EDGE.name,
            EdgeSource::View => EDGE_VIEW,
        }
    }

    /// A FROM clause that names the edge `e` and yields the columns of [`EDGE`] plus the
    /// endpoints' IDs as [`Self::id_columns`].
    pub fn from_clause(self) -> String {
        match self {
            EdgeSource::Stored => {
                format!("{} e JOIN node s ON s.nid = e.src JOIN node d ON d.nid = e.dst", EDGE.name)
            }
            EdgeSource::View => format!("{EDGE_VIEW} e"),
        }
    }

    /// The expressions of the source's and the target's node IDs in [`Self::from_clause`].
    pub fn id_columns(self) -> [&'static str; 2] {
        match self {
            EdgeSource::Stored => ["s.id", "d.id"],
            EdgeSource::View => ["e.src_id", "e.dst_id"],
        }
    }
}

/// Where to read edges of `kinds` (every kind when empty) from: [`EDGE`] itself when none of
/// them can be implied (a neighbour query then skips the view's two extra branches), else
/// [`EDGE_VIEW`].
pub fn edge_source(kinds: &[EdgeKind]) -> EdgeSource {
    if !kinds.is_empty() && !kinds.iter().any(|k| may_be_implied(*k)) {
        EdgeSource::Stored
    } else {
        EdgeSource::View
    }
}

/// `CREATE VIEW edge`: see [`EDGE_VIEW`]. Each branch joins its endpoints' IDs itself
/// (`src_id`, `dst_id`), so a reader needs no join of its own and SQLite streams the branches
/// instead of materializing the view for every neighbour query.
fn edge_view() -> String {
    let [defines, parent] = implied_edge_selects();
    format!(
        "CREATE VIEW IF NOT EXISTS {EDGE_VIEW} (src, dst, kind, weight, reason, line, src_id, dst_id) AS\n  \
         SELECT e.src, e.dst, e.kind, e.weight, e.reason, e.line, s.id, d.id FROM {} e \
         JOIN node s ON s.nid = e.src JOIN node d ON d.nid = e.dst\n  UNION ALL {defines}\n  \
         UNION ALL {parent};\n",
        EDGE.name
    )
}

/// `(kind, count)` of every edge, sorted by kind, without joining each symbol to its file:
/// every symbol has its file node, so DEFINES edges are counted off the node rows.
pub fn edge_counts_sql() -> String {
    format!(
        "SELECT kind, SUM(n) FROM (\
         SELECT kind, COUNT(*) AS n FROM {edge} GROUP BY kind \
         UNION ALL SELECT '{defines}', COUNT(*) FROM node WHERE kind IN ({symbols}) AND file IS NOT NULL \
         UNION ALL SELECT {case}, COUNT(*) FROM node n JOIN node p ON p.id = n.parent \
         WHERE n.kind IN ({symbols}) GROUP BY 1) GROUP BY kind HAVING SUM(n) > 0 ORDER BY kind",
        edge = EDGE.name,
        defines = EdgeKind::Defines.as_str(),
        symbols = symbol_kinds(),
        case = parent_edge_case("n", "p"),
    )
}

/// All plain tables, in creation order.
pub const TABLES: &[Table] = &[
    META,
    SNAPSHOT,
    NODE,
    EDGE,
    DIAGNOSTIC,
    UNRESOLVED,
    UNIT,
    SOURCE,
    DERIVATION,
    PROCESS,
    PROCESS_STEP,
    CLUSTER,
    CLUSTER_MEMBER,
];

/// All FTS tables.
pub const FTS_TABLES: &[FtsTable] = &[NODE_FTS];

fn create_index(table: &Table, idx: &Index) -> String {
    format!(
        "CREATE {}INDEX IF NOT EXISTS {} ON {} ({});\n",
        if idx.unique { "UNIQUE " } else { "" },
        idx.name,
        table.name,
        idx.columns.join(", ")
    )
}

/// Statements that drop the secondary indexes of the graph tables (`node`, `edge`), so a bulk
/// load can insert without maintaining them and rebuild them once, sorted, afterwards.
pub fn drop_graph_indexes() -> String {
    [NODE, EDGE]
        .iter()
        .flat_map(|t| t.indexes.iter())
        .map(|i| format!("DROP INDEX IF EXISTS {};\n", i.name))
        .collect()
}

/// Statements that (re)create the secondary indexes of the `node` table only.
pub fn create_node_indexes() -> String {
    NODE.indexes.iter().map(|i| create_index(&NODE, i)).collect()
}

/// Statements that (re)create the secondary indexes of the graph tables.
pub fn create_graph_indexes() -> String {
    [NODE, EDGE].iter().flat_map(|t| t.indexes.iter().map(move |i| create_index(t, i))).collect()
}

/// The complete DDL, generated deterministically from [`TABLES`] and [`FTS_TABLES`].
pub fn ddl() -> String {
    let mut out = String::new();
    out.push_str("-- Generated by codegraph-schema (crates/schema/src/ddl.rs). Do not edit.\n");
    out.push_str(&format!("-- schema_version {SCHEMA_VERSION}\n"));
    for table in TABLES {
        out.push('\n');
        out.push_str(&format!("-- {}\n", table.doc));
        out.push_str(&format!("CREATE TABLE IF NOT EXISTS {} (\n", table.name));
        let mut lines = Vec::new();
        for c in table.columns {
            let mut line = format!("  {} {}", c.name, c.ty.sql());
            if !c.nullable {
                line.push_str(" NOT NULL");
            }
            line.push_str(&format!(" -- {}", c.doc));
            // The allowed values are documented, not CHECKed: a CHECK with an IN list costs
            // more than the insert itself on bulk loads (1.5 s per 640k edges), and the only
            // writer is typed with the same enums.
            if let Some(values) = c.domain.values() {
                line.push_str(&format!(" (one of: {})", values.join(", ")));
            }
            lines.push(line);
        }
        lines.push(format!("  PRIMARY KEY ({})", table.primary_key.join(", ")));
        // Comments must not swallow the separating commas, so put commas before comments.
        let n = lines.len();
        for (i, line) in lines.into_iter().enumerate() {
            let sep = if i + 1 < n { "," } else { "" };
            match line.find(" -- ") {
                Some(pos) => {
                    out.push_str(&line[..pos]);
                    out.push_str(sep);
                    out.push_str(&line[pos..]);
                }
                None => {
                    out.push_str(&line);
                    out.push_str(sep);
                }
            }
            out.push('\n');
        }
        out.push_str(if table.without_rowid { ") WITHOUT ROWID;\n" } else { ");\n" });
        for idx in table.indexes {
            out.push_str(&create_index(table, idx));
        }
    }
    out.push_str(
        "\n-- Every edge: the stored ones and those symbol rows imply (DEFINES, parent edge).\n",
    );
    out.push_str(&edge_view());
    for fts in FTS_TABLES {
        out.push('\n');
        out.push_str(&format!("-- {}\n", fts.doc));
        out.push_str(&format!(
            "CREATE VIRTUAL TABLE IF NOT EXISTS {} USING fts5({}, tokenize = '{}', content = '', contentless_delete = 1);\n",
            fts.name,
            fts.columns.join(", "),
            fts.tokenize
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked-in DDL must equal the generated one. Regenerate with
    /// `UPDATE_EXPECT=1 cargo test -p codegraph-schema`.
    #[test]
    fn checked_in_ddl_matches_registry() {
        expect_test::expect_file!["../schema.sql"].assert_eq(&ddl());
    }

    #[test]
    fn only_structural_kinds_may_be_implied() {
        let implied: Vec<EdgeKind> =
            EdgeKind::ALL.iter().copied().filter(|k| may_be_implied(*k)).collect();
        assert_eq!(
            implied,
            [EdgeKind::Contains, EdgeKind::Defines, EdgeKind::HasMethod, EdgeKind::HasProperty]
        );
        assert_eq!(edge_source(&[EdgeKind::Calls, EdgeKind::Imports]).relation(), "stored_edge");
        assert_eq!(edge_source(&[EdgeKind::Calls, EdgeKind::HasMethod]).relation(), "edge");
        assert_eq!(edge_source(&[]).relation(), "edge");
    }

    #[test]
    fn ddl_is_deterministic() {
        assert_eq!(ddl(), ddl());
    }

    #[test]
    fn primary_keys_and_indexes_name_real_columns() {
        for t in TABLES {
            let names: Vec<&str> = t.columns.iter().map(|c| c.name).collect();
            for pk in t.primary_key {
                assert!(names.contains(pk), "{}.{pk}", t.name);
            }
            for idx in t.indexes {
                for c in idx.columns {
                    assert!(names.contains(c), "{} index {}", t.name, idx.name);
                }
            }
        }
    }
}
