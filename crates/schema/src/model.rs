//! The rows of the graph as every layer sees them: a [`Node`], an [`Edge`], an
//! [`UnresolvedSite`], and the shared [`Id`] they are named by.
//!
//! Why it exists: resolution produces these rows and the store publishes and reads them back;
//! defining them here (not in the resolver) lets the read model depend on the vocabulary alone,
//! without salsa, tree-sitter or any grammar.

use crate::{EdgeKind, NodeKind, Reason};
use std::sync::Arc;

/// A node ID, shared: cloning one is a reference count, not a copy. The grammar of IDs is in
/// [`crate::ids`].
pub type Id = Arc<str>;

/// A node of the graph, ready to be stored.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub id: Id,
    pub kind: NodeKind,
    pub name: String,
    pub qualified_name: String,
    pub file: Option<String>,
    pub language: Option<&'static str>,
    pub start_line: Option<u32>,
    pub end_line: Option<u32>,
    pub signature: Option<String>,
    pub doc: Option<String>,
    pub exported: bool,
    /// The node lies in test code, by its file's language's rule (files no language reads: a
    /// directory of tests or test data). Answers list tests apart by it.
    pub test: bool,
    pub parent: Option<Id>,
    pub size: Option<u64>,
    pub lines: Option<u32>,
    pub hash: Option<String>,
    /// Routes and tools: their structured properties, [`crate::props::EndpointProps`] as JSON.
    pub props: Option<String>,
}

impl Node {
    /// A node no file declares (a package, a concept): no file, lines, signature or metadata;
    /// exported (it is visible to every file that names it).
    pub fn unfiled(
        id: Id,
        kind: NodeKind,
        name: String,
        qualified_name: String,
        language: Option<&'static str>,
    ) -> Node {
        Node {
            id,
            kind,
            name,
            qualified_name,
            file: None,
            language,
            start_line: None,
            end_line: None,
            signature: None,
            doc: None,
            exported: true,
            test: false,
            parent: None,
            size: None,
            lines: None,
            hash: None,
            props: None,
        }
    }
}

/// A typed edge. The weight is kept in thousandths so that edges are `Eq` (salsa compares
/// results to stop propagation).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edge {
    pub src: Id,
    pub dst: Id,
    pub kind: EdgeKind,
    pub reason: Reason,
    pub weight_milli: u16,
    /// Call-site / reference line; 0 when not applicable.
    pub line: u32,
}

impl Edge {
    /// An edge whose weight is its reason's.
    pub fn new(src: Id, dst: Id, kind: EdgeKind, reason: Reason, line: u32) -> Edge {
        // Reason weights are in [0, 1], so the product fits in u16.
        let weight_milli = (reason.weight() * 1000.0).round() as u16;
        Edge { src, dst, kind, reason, weight_milli, line }
    }

    pub fn weight(&self) -> f64 {
        f64::from(self.weight_milli) / 1000.0
    }
}

/// A call site with no target.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnresolvedSite {
    /// 1-based line of the call.
    pub line: u32,
    /// ID of the enclosing symbol, or of the file for module-level code.
    pub caller: Id,
    /// The callee as written (`a.b.c`, `this.m`, `f().g`).
    pub callee: String,
}
