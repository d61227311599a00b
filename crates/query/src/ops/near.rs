//! Near matches for a name or a file that names nothing: "did you mean" by edit distance.
//!
//! A typo (`ShouldBindJSN`, `Nexxt`) is closer in (Damerau-)Levenshtein distance to the name
//! meant than to anything full-text search ranks first (tests whose names contain the words),
//! so suggestions are the nodes whose name is within a distance that grows with the length of
//! the text (case-insensitive), best first: by distance, in the hinted files first, definitions
//! before test code, callables and types before data, exported first. Full-text hits and ID-prefix suggestions fill the
//! remaining places.
//!
//! Cost: the distinct names within the distance's length window are read once from the name
//! index (no row is fetched), and the distance is computed with a cut-off, so a miss on a
//! 300k-node index stays in the tens of milliseconds.

use super::lookup::kind_rank;
use crate::error::QueryError;
use crate::read::{NODE_COLUMNS, NodeRow, Reader, node_from_row};
use crate::search::SearchRequest;
use codegraph_schema::NodeKind;

/// How many suggestions a miss lists.
pub const MAX_SUGGESTIONS: usize = 5;

/// The largest edit distance accepted for a text of `len` characters: none below 3, one up
/// to 5, two up to 9, three beyond.
pub fn max_distance(len: usize) -> usize {
    match len {
        0..=2 => 0,
        3..=5 => 1,
        6..=9 => 2,
        _ => 3,
    }
}

/// The optimal-string-alignment (restricted Damerau-Levenshtein) distance between `a` and
/// `b` (an adjacent transposition counts one), or `None` when it exceeds `max`.
pub fn edit_distance(a: &[char], b: &[char], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let w = b.len() + 1;
    // Three rows: the one before the previous (for transpositions), the previous, this one.
    let mut rows = vec![0usize; 3 * w];
    for (j, cell) in rows[w..2 * w].iter_mut().enumerate() {
        *cell = j;
    }
    // The smallest value of the previous row: a later cell comes from this row or, by a
    // transposition, from the previous one, so both must exceed `max` to stop early.
    let mut prev_best = 0;
    for i in 1..=a.len() {
        let (older, rest) = rows.split_at_mut(w);
        let (prev, cur) = rest.split_at_mut(w);
        cur[0] = i;
        let mut best = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(older[j - 2] + 1);
            }
            cur[j] = d;
            best = best.min(d);
        }
        if best > max && prev_best > max {
            return None;
        }
        prev_best = best;
        // Rotate: older <- prev, prev <- cur.
        rows.copy_within(w..3 * w, 0);
    }
    let d = rows[w + b.len()];
    (d <= max).then_some(d)
}

/// Names whose lowercase form is within [`max_distance`] of `needle`'s, with the distance,
/// closest first (then by name); `files` picks file names instead of other nodes' names.
fn near_names(
    reader: &Reader<'_>,
    needle: &str,
    files: bool,
) -> Result<Vec<(usize, String)>, QueryError> {
    let needle: Vec<char> = needle.to_lowercase().chars().collect();
    let max = max_distance(needle.len());
    if max == 0 {
        return Ok(Vec::new());
    }
    let lo = needle.len().saturating_sub(max) as i64;
    let hi = (needle.len() + max) as i64;
    let sql = if files {
        "SELECT DISTINCT name FROM node WHERE id >= 'file:' AND id < 'file;' \
         AND length(name) BETWEEN ?1 AND ?2"
    } else {
        "SELECT DISTINCT name FROM node WHERE length(name) BETWEEN ?1 AND ?2"
    };
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut buf: Vec<char> = Vec::new();
    reader.each_row(
        sql,
        [lo, hi],
        |r| r.get::<_, String>(0),
        |name| {
            buf.clear();
            buf.extend(name.chars().flat_map(char::to_lowercase));
            if let Some(d) = edit_distance(&needle, &buf, max) {
                out.push((d, name));
            }
        },
    )?;
    out.sort();
    Ok(out)
}

/// Up to [`MAX_SUGGESTIONS`] IDs near a `text` that names nothing (of `kind`, when given): by
/// edit distance of the names to its last dotted part (at one distance, nodes in files whose
/// path contains the `file` hint first), then full-text hits, then ID-prefix suggestions.
pub fn near_matches(
    reader: &Reader<'_>,
    text: &str,
    kind: Option<NodeKind>,
    file: Option<&str>,
) -> Result<Vec<String>, QueryError> {
    let hint = file.unwrap_or("");
    let last = text.rsplit('.').next().unwrap_or(text);
    let mut nodes: Vec<(usize, NodeRow)> = Vec::new();
    for (d, name) in near_names(reader, last, false)? {
        // Enough names read to fill the list however the ranking below goes.
        if nodes.len() >= 4 * MAX_SUGGESTIONS {
            break;
        }
        let rows = reader.rows(
            &format!(
                "SELECT {NODE_COLUMNS} FROM node WHERE name = ?1 AND kind <> '{}' \
                 ORDER BY instr(file, ?2) = 0, id LIMIT 50",
                NodeKind::Package.as_str()
            ),
            [name.as_str(), hint],
            node_from_row,
        )?;
        nodes.extend(rows.into_iter().filter(|n| kind.is_none_or(|k| n.kind == k)).map(|n| (d, n)));
    }
    nodes.sort_by(|(da, a), (db, b)| {
        let key = |d: usize, n: &NodeRow| {
            (
                d,
                !n.file.as_deref().is_some_and(|f| f.contains(hint)),
                n.test,
                kind_rank(n.kind),
                !n.exported,
            )
        };
        key(*da, a).cmp(&key(*db, b)).then_with(|| a.id.cmp(&b.id))
    });
    let mut out: Vec<String> = Vec::new();
    let push = |id: String, out: &mut Vec<String>| {
        if out.len() < MAX_SUGGESTIONS && !out.contains(&id) {
            out.push(id);
        }
    };
    for (_, n) in nodes {
        push(n.id, &mut out);
    }
    if out.len() < MAX_SUGGESTIONS {
        let hits = reader.search(&SearchRequest {
            query: text.to_string(),
            kind,
            limit: MAX_SUGGESTIONS,
            include_tests: false,
        })?;
        for h in hits.hits {
            push(h.node.id, &mut out);
        }
    }
    if out.len() < MAX_SUGGESTIONS {
        for s in reader.suggest(text)? {
            push(s, &mut out);
        }
    }
    Ok(out)
}

/// Up to [`MAX_SUGGESTIONS`] file IDs whose base name is near `text`'s base name (by edit
/// distance), shallower paths first.
pub fn near_files(reader: &Reader<'_>, text: &str) -> Result<Vec<String>, QueryError> {
    let base = text.trim_end_matches('/').rsplit('/').next().unwrap_or(text);
    let mut out: Vec<(usize, usize, String)> = Vec::new();
    for (d, name) in near_names(reader, base, true)? {
        if out.len() >= 4 * MAX_SUGGESTIONS {
            break;
        }
        let ids: Vec<String> = reader.rows(
            "SELECT id FROM node WHERE name = ?1 AND id >= 'file:' AND id < 'file;' ORDER BY id LIMIT 20",
            [&name],
            |r| r.get(0),
        )?;
        out.extend(ids.into_iter().map(|id| (d, id.matches('/').count(), id)));
    }
    out.sort();
    Ok(out.into_iter().take(MAX_SUGGESTIONS).map(|(_, _, id)| id).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(a: &str, b: &str, max: usize) -> Option<usize> {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        edit_distance(&a, &b, max)
    }

    #[test]
    fn distances_with_cutoff() {
        assert_eq!(d("shouldbindjsn", "shouldbindjson", 3), Some(1));
        assert_eq!(d("nexxt", "next", 1), Some(1));
        assert_eq!(d("lgo", "log", 1), Some(1));
        assert_eq!(d("abc", "abc", 0), Some(0));
        assert_eq!(d("kitten", "sitting", 3), Some(3));
        assert_eq!(d("kitten", "sitting", 2), None);
        assert_eq!(d("", "ab", 2), Some(2));
        assert_eq!(d("ab", "", 1), None);
        assert_eq!(d("ca", "abc", 3), Some(3));
        assert_eq!(max_distance("Nexxt".len()), 1);
        assert_eq!(max_distance("ShouldBindJSN".len()), 3);
    }
}
