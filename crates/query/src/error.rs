//! The one error type of the query layer; every variant says what to do about it.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    #[error("no index at {path}: run `codegraph index` for this root first")]
    NoIndex { path: PathBuf },
    #[error("the index at {path} has no published revision yet: run `codegraph index`")]
    NoRevision { path: PathBuf },
    #[error(
        "the index at {path} has schema version {found}, this codegraph expects {expected}: run `codegraph index` to rebuild it"
    )]
    SchemaMismatch { path: PathBuf, found: u32, expected: u32 },
    #[error("unknown ID `{id}`{}", suggest(.suggestions))]
    UnknownId { id: String, suggestions: Vec<String> },
    #[error("empty search query")]
    EmptyQuery,
    /// A search query with more words than [`crate::search::MAX_QUERY_WORDS`].
    #[error(
        "the search query has {words} words; at most {max} are searched: shorten it to the names and words that matter"
    )]
    QueryTooLong { words: usize, max: usize },
    /// A name that matches several nodes (`total` of them): the first candidates, best first
    /// (never a guess), at most [`crate::ops::lookup::MAX_CANDIDATES`].
    #[error("`{query}` is ambiguous: {}", list_candidates(.candidates, *.total))]
    Ambiguous { query: String, total: usize, candidates: Vec<crate::ops::lookup::Candidate> },
    /// A name, file hint or `path:line` that matches no node, with near matches; `searched`
    /// says where the lookup looked.
    #[error("{}{}", .searched.describe(.query), suggest_as(.searched.suggestion_intro(), .suggestions))]
    NotFound { query: String, suggestions: Vec<String>, searched: crate::ops::lookup::Searched },
    #[error("unknown edge kind `{kind}`; one of: {}", edge_kinds())]
    UnknownEdgeKind { kind: String },
    #[error("unknown edge set `{set}`; known: structural")]
    UnknownEdgeSet { set: String },
    #[error("unknown node kind `{kind}`; one of: {}", node_kinds())]
    UnknownNodeKind { kind: String },
    /// A graph query refused (a write, a table that is no view), failed (SQL error) or out of
    /// budget, in words for its author.
    #[error("graph query: {message}")]
    GraphQuery { message: String },
    #[error("cannot {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("SQLite error on {path}: {source}{}", damaged_hint(.source))]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
}

impl QueryError {
    /// A node kind as a user spelt it (`--kind method`), or the error listing the kinds.
    pub fn node_kind(text: &str) -> Result<codegraph_schema::NodeKind, QueryError> {
        codegraph_schema::NodeKind::parse(text)
            .ok_or_else(|| QueryError::UnknownNodeKind { kind: text.to_string() })
    }

    /// The database this error found damaged (SQLite said "malformed" or "not a database"):
    /// derived data, so the writer moves it aside and rebuilds it.
    pub fn damaged_path(&self) -> Option<&std::path::Path> {
        match self {
            QueryError::Sqlite { path, source } if is_damage(source) => Some(path),
            _ => None,
        }
    }

    /// SQLite's words on the damage, when this error is one ([`Self::damaged_path`]).
    pub fn damage(&self) -> Option<String> {
        match self {
            QueryError::Sqlite { source, .. } if is_damage(source) => Some(source.to_string()),
            _ => None,
        }
    }
}

/// Whether a SQLite error says the database file itself is damaged (never a busy or locked
/// database, a full disk or a permission problem: those are not repaired by a rebuild).
pub fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    )
}

fn damaged_hint(e: &rusqlite::Error) -> &'static str {
    if is_damage(e) {
        "; the index is damaged: run `codegraph index` to move it aside and rebuild it"
    } else {
        ""
    }
}

fn list_candidates(c: &[crate::ops::lookup::Candidate], total: usize) -> String {
    let list: Vec<String> = c.iter().map(|c| c.describe()).collect();
    let head = if total > c.len() {
        format!("it names {total} nodes; the first {}", c.len())
    } else {
        format!("{} candidates", c.len())
    };
    format!("{head}: {}; pass one of these IDs, or narrow with --file / --kind", list.join(", "))
}

fn node_kinds() -> String {
    let kinds: Vec<&str> = codegraph_schema::NodeKind::ALL.iter().map(|k| k.as_str()).collect();
    kinds.join(", ")
}

fn edge_kinds() -> String {
    let kinds: Vec<&str> = codegraph_schema::EdgeKind::ALL.iter().map(|k| k.as_str()).collect();
    kinds.join(", ")
}

fn suggest(s: &[String]) -> String {
    suggest_as("did you mean", s)
}

fn suggest_as(intro: &str, s: &[String]) -> String {
    if s.is_empty() { String::new() } else { format!("; {intro}: {}", s.join(", ")) }
}
