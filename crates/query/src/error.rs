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
    #[error("SQLite error on {path}: {source}")]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
}

fn suggest(s: &[String]) -> String {
    if s.is_empty() { String::new() } else { format!("; did you mean: {}", s.join(", ")) }
}
