//! The plain input of every derivation: nodes and edges as the caller already holds them.
//!
//! Kinds are the schema vocabulary's enums, so a caller fills these straight from stored rows;
//! edges refer to nodes by index.

use codegraph_schema::{EdgeKind, NodeKind};

/// One graph node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeIn {
    /// The stable node ID (`sym:go:net/http/server.go:Server.Serve`); expected unique. The
    /// derivations order nodes by it, and derived IDs are built from it.
    pub id: String,
    /// What it is (`function`, `method`, `class`, `file`, `route`, `tool`, ...).
    pub kind: NodeKind,
    /// The display name (a symbol's name, `GET /users/:id` for a route, a tool's name).
    pub name: String,
    /// The file the node is declared in, relative to the root (`net/http/server.go`).
    pub file: Option<String>,
    pub exported: bool,
    /// Whether the node is test code (declared in a test file, or a test function).
    pub is_test: bool,
    /// Whether its language runs it as a program's entry whether or not it is exported (Go's
    /// `main`); the caller knows languages, the derivations do not.
    pub program_entry: bool,
    /// 1-based first line.
    pub start_line: u32,
    /// 1-based last line.
    pub end_line: u32,
}

/// One graph edge, `src -> dst` by index into [`GraphInput::nodes`].
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeIn {
    pub src: usize,
    pub dst: usize,
    /// `CALLS`, `IMPORTS`, `EXTENDS`, `IMPLEMENTS`, `HANDLES_ROUTE`, ...
    pub kind: EdgeKind,
    /// Confidence in `[0, 1]`.
    pub weight: f64,
}

/// A whole graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphInput {
    pub nodes: Vec<NodeIn>,
    pub edges: Vec<EdgeIn>,
}
