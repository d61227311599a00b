//! Full-text search over the snapshot (BM25), with the fallback chain of the DAG-grep spec:
//! the raw query, then the query as one quoted phrase, then (new) its words as prefixes, then
//! its terms OR-joined.
//!
//! The raw form lets users write FTS5 syntax (`Server AND start*`); when it is not valid FTS5
//! or finds nothing, the next form is tried, and the result says which one answered.
//!
//! Recall and ranking on top of BM25, for queries that are plain words:
//! - prefix recall: when the raw or quoted form answers, the prefix form's hits are merged
//!   in, so `ShouldBind` finds `ShouldBindJSON` and `ShouldBindQuery` too, not only the one
//!   node named `ShouldBind`. The prefix form also matches the words written together as the
//!   start of a name (`abort with status` finds `AbortWithStatus`, one token to FTS5).
//! - name boosts: an exact name, then a name whose camel-case parts are the query's words
//!   (`abort with status` ~ `AbortWithStatus`), then a name the query starts.
//! - test code (`NodeRow::test`, its language's rule) ranks after every other hit unless
//!   [`SearchRequest::include_tests`]; it is never removed.

use crate::error::QueryError;
use crate::read::{NODE_COLUMN_COUNT, NODE_COLUMNS, NodeRow, Reader, node_from_row};
use crate::terms::split_identifiers;
use codegraph_schema::NodeKind;
use rusqlite::params;

/// BM25 column weights, in `NODE_FTS` column order: name, qualified_name, signature, doc,
/// path, terms.
const BM25_WEIGHTS: &str = "10.0, 6.0, 2.0, 1.0, 1.0, 3.0";

#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    pub query: String,
    /// Only nodes of this kind.
    pub kind: Option<NodeKind>,
    pub limit: usize,
    /// Rank test code like any other code; by default (false) test hits come after every
    /// other hit (they are kept, not removed).
    pub include_tests: bool,
}

/// Which form of the query produced the hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    Raw,
    Quoted,
    /// Every word as a prefix (`"shouldbind"*`), or the words joined as a name prefix.
    Prefix,
    OrTerms,
}

impl Fallback {
    pub fn as_str(self) -> &'static str {
        match self {
            Fallback::Raw => "raw",
            Fallback::Quoted => "quoted",
            Fallback::Prefix => "prefix",
            Fallback::OrTerms => "or-terms",
        }
    }
}

#[derive(Clone, Debug)]
pub struct SearchHit {
    pub node: crate::read::NodeRow,
    /// BM25 relevance normalized to (0, 1]; the most relevant hit has 1.0 (a test hit ranked
    /// after the definitions may be that one).
    pub score: f64,
    /// The raw relevance: `-bm25()` (SQLite's bm25 is negative, lower is better) times the
    /// name boost; not comparable across queries.
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

/// The prefix form of a query of plain words (letters, digits, `_`, `.`, `-`, `/` and
/// spaces; at most 8 words), or `None`: every word of 3 or more characters as a prefix
/// (shorter ones exact), AND-joined; with several words, OR the words written together as the
/// prefix of a name (`abort with status` -> `name: "abortwithstatus"*`).
fn prefix_form(query: &str) -> Option<String> {
    if !query.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | ' ')) {
        return None;
    }
    let ws: Vec<String> = words(query).map(str::to_lowercase).collect();
    if ws.is_empty() || ws.len() > 8 {
        return None;
    }
    let each = |w: &String| {
        if w.chars().count() >= 3 { format!("\"{w}\"*") } else { format!("\"{w}\"") }
    };
    let all: Vec<String> = ws.iter().map(each).collect();
    if !ws.iter().any(|w| w.chars().count() >= 3) {
        return None;
    }
    if ws.len() == 1 {
        return Some(all.join(" "));
    }
    Some(format!("({}) OR name : \"{}\"*", all.join(" "), ws.concat()))
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
        if let Some(kind @ (NodeKind::Process | NodeKind::Cluster)) = req.kind {
            return self.search_derived(kind, raw, req.limit);
        }
        let prefix = prefix_form(raw);
        let forms = [
            (Fallback::Raw, Some(raw.to_string())),
            (Fallback::Quoted, Some(format!("\"{}\"", raw.replace('"', "\"\"")))),
            (Fallback::Prefix, prefix.clone()),
            (Fallback::OrTerms, Some(or_terms(raw))),
        ];
        let mut last = String::new();
        for (fallback, fts) in forms {
            let Some(fts) = fts else { continue };
            if fts.is_empty() || fts == last {
                continue;
            }
            last = fts.clone();
            match self.run_fts(&fts, req) {
                Ok(mut rows) if !rows.is_empty() => {
                    // Prefix recall for the raw and quoted forms (see the module doc).
                    if matches!(fallback, Fallback::Raw | Fallback::Quoted)
                        && let Some(p) = prefix.as_deref().filter(|p| *p != fts)
                    {
                        let more = self.run_fts(p, req).map_err(self.err())?;
                        for row in more {
                            if !rows.iter().any(|r| r.0.id == row.0.id) {
                                rows.push(row);
                            }
                        }
                    }
                    let hits = rank_hits(rows, req);
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

    /// The rows `fts` matches (of the asked kind) with their `bm25()`, best first,
    /// over-fetched so the ranking of [`rank_hits`] can lift a hit from further down.
    fn run_fts(&self, fts: &str, req: &SearchRequest) -> rusqlite::Result<Vec<(NodeRow, f64)>> {
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
        let fetch = (limit * 3).clamp(limit, limit + 200);
        let mut stmt = self.tx.prepare_cached(&sql)?;
        let rows = stmt
            .query_map(params![fts, req.kind.map(NodeKind::as_str), fetch as i64], |r| {
                Ok((node_from_row(r)?, r.get::<_, f64>(NODE_COLUMN_COUNT)?))
            })?;
        rows.collect()
    }
}

/// Hits from rows with their `bm25()`: relevance = -bm25 times the name boost; test code after
/// the rest unless the request includes tests; at most `req.limit`; scores normalized by the
/// most relevant.
fn rank_hits(rows: Vec<(NodeRow, f64)>, req: &SearchRequest) -> Vec<SearchHit> {
    let query = Query::new(req.query.trim());
    let mut hits: Vec<(bool, SearchHit)> = rows
        .into_iter()
        .map(|(node, bm25)| {
            let score = -bm25 * name_boost(&node, &query);
            let test = !req.include_tests && node.test;
            (test, SearchHit { node, score, relevance: score })
        })
        .collect();
    hits.sort_by(|(ta, a), (tb, b)| {
        ta.cmp(tb).then_with(|| b.score.total_cmp(&a.score)).then_with(|| a.node.id.cmp(&b.node.id))
    });
    hits.truncate(req.limit.max(1));
    let best = hits.iter().map(|(_, h)| h.score).fold(1e-9, f64::max);
    hits.into_iter()
        .map(|(_, mut h)| {
            h.score = (h.score / best).clamp(0.0, 1.0);
            h
        })
        .collect()
}

/// The query as the name boost compares it.
struct Query<'q> {
    text: &'q str,
    lower: String,
    /// Its identifier parts (`abort with status` and `AbortWithStatus` both give
    /// `abort with status`).
    parts: String,
}

impl<'q> Query<'q> {
    fn new(text: &'q str) -> Self {
        Query { text, lower: text.to_lowercase(), parts: split_identifiers(text) }
    }
}

/// Ranking boost: exact name (case-sensitive) 2x; exact name ignoring case, exact qualified
/// name, or a name or qualified name whose identifier parts are the query's 1.5x; a name the
/// query (of 3 or more characters) starts, ignoring case, or whose parts start with the
/// query's, 1.25x; else 1x. Symbols beat files with the same name by a hair.
fn name_boost(node: &NodeRow, q: &Query<'_>) -> f64 {
    let kind = if node.kind == NodeKind::File { 1.0 } else { 1.01 };
    let boost = if node.name == q.text {
        2.0
    } else if node.name.eq_ignore_ascii_case(q.text) || node.qualified_name == q.text {
        1.5
    } else if q.parts.is_empty() {
        1.0
    } else {
        let parts = split_identifiers(&node.name);
        if parts == q.parts || split_identifiers(&node.qualified_name) == q.parts {
            1.5
        } else if (q.lower.chars().count() >= 3 && node.name.to_lowercase().starts_with(&q.lower))
            || parts.starts_with(&format!("{} ", q.parts))
        {
            1.25
        } else {
            1.0
        }
    };
    boost * kind
}

#[cfg(test)]
mod tests {
    use super::{or_terms, prefix_form};

    #[test]
    fn or_terms_quotes_words_and_parts() {
        assert_eq!(
            or_terms("serveHTTP request"),
            "\"servehttp\" OR \"serve\" OR \"http\" OR \"request\""
        );
        assert_eq!(or_terms("(\"x"), "\"x\"");
    }

    #[test]
    fn prefix_forms() {
        assert_eq!(prefix_form("ShouldBind").as_deref(), Some("\"shouldbind\"*"));
        assert_eq!(
            prefix_form("abort with status").as_deref(),
            Some("(\"abort\"* \"with\"* \"status\"*) OR name : \"abortwithstatus\"*")
        );
        assert_eq!(prefix_form("go to").as_deref(), None);
        assert_eq!(prefix_form("Server AND start*"), None);
        assert_eq!(prefix_form("handleRequest(req"), None);
    }
}
