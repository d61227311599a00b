//! What the front ends share about the graph query (`codegraph query`, MCP `graph_query`):
//! when a query needs the derived flows and clusters, and the text table a person reads.

use codegraph_query::{Cell, GraphAnswer};

/// The views whose rows are derived after publishing (computed on demand before a query
/// that names them).
const DERIVED_VIEWS: &[&str] = &["flows", "flow_steps", "clusters", "cluster_members"];

/// Whether the query names a derived view (a word of its text, case-insensitive): then the
/// flows and clusters are brought up to date before it runs. Only a cost decision; what the
/// query may read is the guard's.
pub(crate) fn reads_derived(sql: &str) -> bool {
    sql.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| DERIVED_VIEWS.iter().any(|v| v.eq_ignore_ascii_case(w)))
}

/// Widest column of the text table (longer values are cut with `…`).
const MAX_WIDTH: usize = 60;

/// The answer as an aligned text table: a header, a rule, one line per row.
pub(crate) fn table(a: &GraphAnswer) -> String {
    let render = |c: &Cell| -> String {
        let s = match c {
            Cell::Null => "NULL".to_string(),
            Cell::Integer(i) => i.to_string(),
            Cell::Real(r) => format!("{r}"),
            Cell::Text { text, cut } => {
                if *cut {
                    format!("{text}…")
                } else {
                    text.clone()
                }
            }
            Cell::Blob(n) => format!("<blob {n} bytes>"),
        };
        let s = s.replace(['\n', '\t'], " ");
        match s.char_indices().nth(MAX_WIDTH - 1) {
            Some((end, _)) => format!("{}…", &s[..end]),
            None => s,
        }
    };
    let rows: Vec<Vec<String>> = a.rows.iter().map(|r| r.iter().map(render).collect()).collect();
    let mut widths: Vec<usize> = a.columns.iter().map(|c| c.chars().count()).collect();
    for r in &rows {
        for (w, v) in widths.iter_mut().zip(r) {
            *w = (*w).max(v.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, (v, w)) in cells.iter().zip(&widths).enumerate() {
            if i + 1 == cells.len() {
                s.push_str(v);
            } else {
                s.push_str(v);
                s.push_str(&" ".repeat(w.saturating_sub(v.chars().count()) + 2));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&a.columns);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&line(&rule));
    for r in &rows {
        out.push_str(&line(r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_views_are_named_words_not_substrings() {
        assert!(reads_derived("SELECT * FROM Flows"));
        assert!(reads_derived("select node from cluster_members where cluster = 'x'"));
        assert!(!reads_derived("SELECT * FROM nodes WHERE name = 'overflows'"));
    }

    #[test]
    fn table_aligns_columns_and_marks_cut_values() {
        let a = GraphAnswer {
            columns: vec!["id".into(), "n".into()],
            rows: vec![
                vec![Cell::Text { text: "file:a.go".into(), cut: false }, Cell::Integer(3)],
                vec![Cell::Text { text: "x".into(), cut: true }, Cell::Null],
            ],
            truncated: false,
            elapsed_ms: 0,
        };
        assert_eq!(table(&a), "id         n\n---------  ----\nfile:a.go  3\nx…         NULL\n");
    }
}
