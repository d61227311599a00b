//! Turning what a user typed (a node ID, a name or qualified name, a file path) into exactly
//! one node, or saying why not: every operation starts here, so that no operation guesses.
//!
//! An exact node ID wins. Otherwise nodes whose name or qualified name equals the text (and,
//! for a path, the file node) are candidates, narrowed by the optional file and kind hints. One
//! candidate is the answer; several are [`QueryError::Ambiguous`] with the candidates ranked;
//! none is [`QueryError::NotFound`] (or [`QueryError::UnknownId`] for ID-shaped text) with near
//! matches.

use crate::error::QueryError;
use crate::read::{NODE_COLUMNS, NodeRow, Reader, node_from_row};
use crate::search::SearchRequest;
use codegraph_schema::NodeKind;

/// What to look up: an ID or a name, with optional hints.
#[derive(Clone, Debug, Default)]
pub struct Target {
    pub query: String,
    /// Keep candidates whose file path contains this text.
    pub file: Option<String>,
    /// Keep candidates of this node kind.
    pub kind: Option<String>,
}

impl Target {
    pub fn new(query: impl Into<String>) -> Target {
        Target { query: query.into(), file: None, kind: None }
    }
}

/// How a candidate matched the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchedBy {
    QualifiedName,
    Name,
    Path,
}

impl MatchedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchedBy::QualifiedName => "qualified name",
            MatchedBy::Name => "name",
            MatchedBy::Path => "path",
        }
    }
}

/// One of several nodes a name could mean.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub node: NodeRow,
    pub matched_by: MatchedBy,
}

impl Candidate {
    /// `ID (kind, file:line)`.
    pub fn describe(&self) -> String {
        let at = match (&self.node.file, self.node.start_line) {
            (Some(f), Some(l)) if self.node.kind != "file" => format!(", {f}:{l}"),
            _ => String::new(),
        };
        format!("{} ({}{at})", self.node.id, self.node.kind)
    }
}

/// Ranking of candidates: callable and type-like symbols before data, data before sections
/// and files.
fn kind_rank(kind: &str) -> u8 {
    match NodeKind::parse(kind) {
        Some(
            NodeKind::Function
            | NodeKind::Method
            | NodeKind::Class
            | NodeKind::Interface
            | NodeKind::Struct
            | NodeKind::TypeAlias
            | NodeKind::Enum,
        ) => 0,
        Some(NodeKind::Constant | NodeKind::Variable) => 1,
        Some(NodeKind::Property) => 2,
        Some(NodeKind::Package | NodeKind::File) => 4,
        _ => 3,
    }
}

/// Whether the text is shaped like a node ID (`sym:...`, `file:...`, `pkg:...`).
fn looks_like_id(text: &str) -> bool {
    ["sym:", "file:", "pkg:", "route:", "tool:", "proc:", "cluster:"]
        .iter()
        .any(|p| text.starts_with(p))
}

/// At most this many candidates are listed for an ambiguous name.
const MAX_CANDIDATES: usize = 10;

impl Reader<'_> {
    /// The one node `target` names; see the module doc for the rules.
    pub fn lookup(&self, target: &Target) -> Result<NodeRow, QueryError> {
        let text = target.query.trim();
        if text.is_empty() {
            return Err(QueryError::EmptyQuery);
        }
        if let Some(k) = &target.kind
            && NodeKind::parse(k).is_none()
        {
            return Err(QueryError::UnknownNodeKind { kind: k.clone() });
        }
        if let Some(node) = self.node(text)? {
            return Ok(node);
        }
        if let Some(node) = self.derived_node(text)? {
            return Ok(node);
        }
        if looks_like_id(text) {
            return Err(QueryError::UnknownId {
                id: text.to_string(),
                suggestions: self.suggest(text)?,
            });
        }
        let mut candidates = self.candidates(text)?;
        candidates.retain(|c| {
            target.kind.as_ref().is_none_or(|k| &c.node.kind == k)
                && target
                    .file
                    .as_ref()
                    .is_none_or(|f| c.node.file.as_deref().is_some_and(|p| p.contains(f.as_str())))
        });
        match candidates.len() {
            0 => Err(QueryError::NotFound {
                query: text.to_string(),
                suggestions: self.near_matches(target)?,
            }),
            1 => Ok(candidates.remove(0).node),
            _ => {
                candidates.truncate(MAX_CANDIDATES);
                Err(QueryError::Ambiguous { query: text.to_string(), candidates })
            }
        }
    }

    /// Nodes whose name or qualified name is `text`, and the file node of a path, ranked:
    /// qualified-name matches first, then exported, then by kind, then by ID.
    fn candidates(&self, text: &str) -> Result<Vec<Candidate>, QueryError> {
        let mut out: Vec<Candidate> = self.rows(
            &format!(
                "SELECT {NODE_COLUMNS} FROM node WHERE name = ?1 OR qualified_name = ?1 ORDER BY id"
            ),
            [text],
            node_from_row,
        )?
        .into_iter()
        .map(|node| {
            let matched_by = if node.kind == "file" {
                MatchedBy::Path
            } else if node.qualified_name == text {
                MatchedBy::QualifiedName
            } else {
                MatchedBy::Name
            };
            Candidate { node, matched_by }
        })
        .collect();
        if !out.iter().any(|c| c.node.kind == "file")
            && let Some(node) = self.node(&format!("file:{text}"))?
        {
            out.push(Candidate { node, matched_by: MatchedBy::Path });
        }
        out.sort_by(|a, b| {
            (a.matched_by, !a.node.exported, kind_rank(&a.node.kind), &a.node.id).cmp(&(
                b.matched_by,
                !b.node.exported,
                kind_rank(&b.node.kind),
                &b.node.id,
            ))
        });
        Ok(out)
    }

    /// Up to 5 IDs near an unknown name: full-text search hits (with the kind hint), then
    /// ID-prefix suggestions.
    fn near_matches(&self, target: &Target) -> Result<Vec<String>, QueryError> {
        let hits = self.search(&SearchRequest {
            query: target.query.clone(),
            kind: target.kind.clone(),
            limit: 5,
        })?;
        let mut out: Vec<String> = hits.hits.into_iter().map(|h| h.node.id).collect();
        for s in self.suggest(&target.query)? {
            if out.len() < 5 && !out.contains(&s) {
                out.push(s);
            }
        }
        Ok(out)
    }
}
