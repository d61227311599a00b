//! Full-text search over the snapshot (BM25), with the fallback chain of the DAG-grep spec:
//! the raw query, then the query as one quoted phrase, then its terms OR-joined.
//!
//! The raw form lets users write FTS5 syntax (`Server AND start*`); when it is not valid FTS5
//! or finds nothing, the next form is tried, and the result says which one answered.

use crate::error::QueryError;
use crate::read::{NODE_COLUMNS, Reader, node_from_row};
use crate::terms::split_identifiers;
use codegraph_schema::NodeKind;
use rusqlite::params;

/// BM25 column weights, in `NODE_FTS` column order: name, qualified_name, signature, doc,
/// path, terms.
const BM25_WEIGHTS: &str = "10.0, 6.0, 2.0, 1.0, 1.0, 3.0";

#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    pub query: String,
    /// Only nodes of this kind (a `NodeKind` spelling).
    pub kind: Option<String>,
    pub limit: usize,
}

/// Which form of the query produced the hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    Raw,
    Quoted,
    OrTerms,
}

impl Fallback {
    pub fn as_str(self) -> &'static str {
        match self {
            Fallback::Raw => "raw",
            Fallback::Quoted => "quoted",
            Fallback::OrTerms => "or-terms",
        }
    }
}

#[derive(Clone, Debug)]
pub struct SearchHit {
    pub node: crate::read::NodeRow,
    /// BM25 relevance normalized to (0, 1]; the best hit has 1.0.
    pub score: f64,
    /// The raw relevance: `-bm25()` (SQLite's bm25 is negative, lower is better) times the
    /// exact-name boost; not comparable across queries.
    pub relevance: f64,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub hits: Vec<SearchHit>,
    /// The form that answered; `None` when no form found anything.
    pub fallback: Option<Fallback>,
    /// The FTS5 expression that answered (or the last one tried).
    pub fts_query: String,
}

/// Most words a search query may have. A query is matched against every row's text, and the
/// cost of its fallback forms grows with its words: a pasted file of 16k words took seconds
/// to minutes. Longer queries are refused with a message that says so.
pub const MAX_QUERY_WORDS: usize = 64;

/// The words of a query, as the fallback forms split it.
fn words(query: &str) -> impl Iterator<Item = &str> {
    query.split(|c: char| !c.is_alphanumeric() && c != '_').filter(|w| !w.is_empty())
}

/// The OR-joined fallback: every word and identifier part, quoted, each once (linear).
fn or_terms(query: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut terms: Vec<String> = Vec::new();
    for word in words(query) {
        for t in std::iter::once(word.to_lowercase())
            .chain(split_identifiers(word).split(' ').map(str::to_string))
        {
            if !t.is_empty() && seen.insert(t.clone()) {
                terms.push(t);
            }
        }
    }
    terms.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(" OR ")
}

impl Reader<'_> {
    pub fn search(&self, req: &SearchRequest) -> Result<SearchResult, QueryError> {
        let raw = req.query.trim();
        if raw.is_empty() {
            return Err(QueryError::EmptyQuery);
        }
        let n = words(raw).count();
        if n > MAX_QUERY_WORDS {
            return Err(QueryError::QueryTooLong { words: n, max: MAX_QUERY_WORDS });
        }
        // Flows and clusters live beside the graph (derived tables), not in the full-text index.
        if let Some(kind @ (NodeKind::Process | NodeKind::Cluster)) =
            req.kind.as_deref().and_then(NodeKind::parse)
        {
            return self.search_derived(kind, raw, req.limit);
        }
        let forms = [
            (Fallback::Raw, raw.to_string()),
            (Fallback::Quoted, format!("\"{}\"", raw.replace('"', "\"\""))),
            (Fallback::OrTerms, or_terms(raw)),
        ];
        let mut last = String::new();
        for (fallback, fts) in forms {
            if fts.is_empty() || fts == last {
                continue;
            }
            last = fts.clone();
            match self.run_fts(&fts, req) {
                Ok(hits) if !hits.is_empty() => {
                    return Ok(SearchResult { hits, fallback: Some(fallback), fts_query: fts });
                }
                Ok(_) => {}
                // Invalid FTS5 syntax in the raw form is expected; try the next form.
                Err(_) if fallback == Fallback::Raw => {}
                Err(source) => {
                    return Err(QueryError::Sqlite { path: self.path.clone(), source });
                }
            }
        }
        Ok(SearchResult { hits: Vec::new(), fallback: None, fts_query: last })
    }

    /// Flows (`process`) or clusters whose label or ID holds every word of `query`
    /// (case-insensitive), best first: flows by score, clusters by size then cohesion.
    fn search_derived(
        &self,
        kind: NodeKind,
        query: &str,
        limit: usize,
    ) -> Result<SearchResult, QueryError> {
        let words: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .take(8)
            .map(|w| format!("%{}%", w.to_lowercase().replace(['%', '_'], "")))
            .collect();
        let filter = if words.is_empty() {
            "1".to_string()
        } else {
            (1..=words.len())
                .map(|i| format!("lower(label || ' ' || id) LIKE ?{i}"))
                .collect::<Vec<_>>()
                .join(" AND ")
        };
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let (select, table) = crate::derived::derived_select(kind);
        let order = match kind {
            NodeKind::Process => "score DESC, id",
            _ => "size DESC, cohesion DESC, id",
        };
        let sql =
            format!("SELECT {select} FROM {table} WHERE {filter} ORDER BY {order} LIMIT {limit}");
        let rows: Vec<(crate::read::NodeRow, f64)> =
            self.rows(&sql, rusqlite::params_from_iter(words.iter()), |r| {
                crate::derived::derived_row(kind, r)
            })?;
        let best = rows.iter().map(|r| r.1).fold(f64::MIN, f64::max).max(f64::MIN_POSITIVE);
        let hits = rows
            .into_iter()
            .map(|(node, rank)| SearchHit { node, score: rank / best, relevance: rank })
            .collect::<Vec<_>>();
        let fallback = (!hits.is_empty()).then_some(Fallback::Raw);
        Ok(SearchResult { hits, fallback, fts_query: format!("{} label: {query}", kind.as_str()) })
    }

    fn run_fts(&self, fts: &str, req: &SearchRequest) -> rusqlite::Result<Vec<SearchHit>> {
        let sql = format!(
            "SELECT {cols}, bm25(node_fts, {BM25_WEIGHTS}) AS rank \
             FROM node_fts JOIN node ON node.nid = node_fts.rowid \
             WHERE node_fts MATCH ?1 AND (?2 IS NULL OR node.kind = ?2) \
             ORDER BY rank, node.id LIMIT ?3",
            cols = NODE_COLUMNS
                .split(", ")
                .map(|c| format!("node.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let limit = req.limit.max(1);
        // Over-fetch so the name boost below can lift an exact match from further down.
        let fetch = (limit * 3).clamp(limit, limit + 200);
        let mut stmt = self.tx.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![fts, req.kind, fetch as i64], |r| {
            Ok((node_from_row(r)?, r.get::<_, f64>(16)?))
        })?;
        let query = req.query.trim();
        // bm25() is negative, lower is better: relevance = -bm25, times a boost for a node
        // whose name or qualified name is exactly the query.
        let mut hits: Vec<SearchHit> = rows
            .map(|row| {
                row.map(|(node, bm25)| {
                    let score = -bm25 * name_boost(&node, query);
                    SearchHit { node, score, relevance: score }
                })
            })
            .collect::<Result<_, _>>()?;
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.node.id.cmp(&b.node.id)));
        hits.truncate(limit);
        let best = hits.first().map_or(1.0, |h| h.score).max(1e-9);
        for h in &mut hits {
            h.score = (h.score / best).clamp(0.0, 1.0);
        }
        Ok(hits)
    }
}

/// Ranking boost: exact name (case-sensitive) 2x, exact name ignoring case or exact
/// qualified name 1.5x, else 1x. Symbols beat files with the same name by a hair.
fn name_boost(node: &crate::read::NodeRow, query: &str) -> f64 {
    let kind = if node.kind == "file" { 1.0 } else { 1.01 };
    if node.name == query {
        2.0 * kind
    } else if node.name.eq_ignore_ascii_case(query) || node.qualified_name == query {
        1.5 * kind
    } else {
        kind
    }
}

#[cfg(test)]
mod tests {
    use super::or_terms;

    #[test]
    fn or_terms_quotes_words_and_parts() {
        assert_eq!(
            or_terms("serveHTTP request"),
            "\"servehttp\" OR \"serve\" OR \"http\" OR \"request\""
        );
        assert_eq!(or_terms("(\"x"), "\"x\"");
    }
}
