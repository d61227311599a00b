//! `changed_code_impact`: from diff hunks to the symbols they touch, then to what depends on
//! those symbols (upstream impact).
//!
//! The diff itself is IO (git) and is computed by the caller; this module takes files with
//! their hunks. Line numbers of the index describe the tree it was built from, so hunks are
//! matched on their new side (the worktree) for added and modified files, and a deleted file
//! contributes every symbol the index still holds for it. A hunk marks the innermost symbols
//! it overlaps: an enclosing symbol is dropped when the hunk lies entirely inside one of its
//! nested symbols that the hunk also overlaps. A pure deletion marks the symbols that contain
//! both lines around it.

use super::Graph;
use super::impact::{Impact, ImpactRequest, impact_from};
use crate::error::QueryError;
use crate::read::{NODE_COLUMNS, NodeRow, Reader, node_from_row};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Modified => "modified",
            ChangeKind::Deleted => "deleted",
        }
    }
}

/// One hunk, 1-based; a side with `*_lines == 0` is empty and then `*_start` is the line
/// before the change (0 at the top of the file), as in `git diff -U0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hunk {
    pub old_start: u32,
    pub old_lines: u32,
    pub new_start: u32,
    pub new_lines: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    pub path: String,
    pub kind: ChangeKind,
    pub hunks: Vec<Hunk>,
}

/// A changed file as the index sees it.
#[derive(Clone, Debug)]
pub struct ChangedFile {
    pub path: String,
    pub kind: ChangeKind,
    pub hunks: usize,
    /// Whether the index holds the file.
    pub indexed: bool,
    /// IDs of the symbols its hunks touch.
    pub symbols: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct ChangedImpact {
    pub revision: i64,
    pub stale: Option<bool>,
    pub files: Vec<ChangedFile>,
    /// Every touched symbol (the seeds of the impact), by ID.
    pub symbols: Vec<NodeRow>,
    pub impact: Impact,
    pub notes: Vec<String>,
}

impl Reader<'_> {
    pub fn changed_code_impact(
        &self,
        changes: &[FileChange],
        req: &ImpactRequest,
    ) -> Result<ChangedImpact, QueryError> {
        let mut g = Graph::new(self);
        let mut files = Vec::new();
        let mut touched: BTreeMap<String, NodeRow> = BTreeMap::new();
        let mut notes = Vec::new();
        let mut sorted: Vec<&FileChange> = changes.iter().collect();
        sorted.sort_by(|a, b| a.path.cmp(&b.path));
        for change in sorted {
            let symbols: Vec<NodeRow> = self.rows(
                &format!(
                    "SELECT {NODE_COLUMNS} FROM node WHERE file = ?1 \
                     AND kind NOT IN (?2, ?3) ORDER BY start_line, id"
                ),
                [
                    change.path.as_str(),
                    codegraph_schema::NodeKind::File.as_str(),
                    codegraph_schema::NodeKind::Package.as_str(),
                ],
                node_from_row,
            )?;
            let indexed = g.nid(&codegraph_schema::ids::file(&change.path))?.is_some();
            let hit: Vec<NodeRow> = match change.kind {
                ChangeKind::Deleted => symbols,
                ChangeKind::Added | ChangeKind::Modified => {
                    let mut hit: Vec<NodeRow> = Vec::new();
                    for h in &change.hunks {
                        for n in innermost(&symbols, h) {
                            if !hit.iter().any(|x| x.id == n.id) {
                                hit.push(n.clone());
                            }
                        }
                    }
                    hit.sort_by(|a, b| a.id.cmp(&b.id));
                    hit
                }
            };
            if !indexed {
                notes.push(match change.kind {
                    ChangeKind::Deleted => format!(
                        "{} was deleted and is not in the index either: nothing to trace",
                        change.path
                    ),
                    _ => format!(
                        "{} is not in the index (not indexable, or added after the index was built: run `codegraph index`)",
                        change.path
                    ),
                });
            }
            files.push(ChangedFile {
                path: change.path.clone(),
                kind: change.kind,
                hunks: change.hunks.len(),
                indexed,
                symbols: hit.iter().map(|n| n.id.clone()).collect(),
            });
            for n in hit {
                touched.insert(n.id.clone(), n);
            }
        }
        let mut seeds = Vec::new();
        for id in touched.keys() {
            if let Some(nid) = g.nid(id)? {
                seeds.push(nid);
            }
        }
        let impact = impact_from(&mut g, &seeds, req)?;
        Ok(ChangedImpact {
            revision: self.revision(),
            stale: None,
            files,
            symbols: touched.into_values().collect(),
            impact,
            notes,
        })
    }
}

/// The symbols a hunk touches (see the module doc).
fn innermost<'n>(symbols: &'n [NodeRow], h: &Hunk) -> Vec<&'n NodeRow> {
    let range = |n: &NodeRow| Some((n.start_line?, n.end_line?));
    let (lo, hi, deletion) = if h.new_lines == 0 {
        (h.new_start.max(1), h.new_start + 1, true)
    } else {
        (h.new_start, h.new_start + h.new_lines - 1, false)
    };
    let overlapping: Vec<&NodeRow> = symbols
        .iter()
        .filter(|n| {
            range(n).is_some_and(
                |(s, e)| {
                    if deletion { s <= lo && e >= hi } else { s <= hi && e >= lo }
                },
            )
        })
        .collect();
    overlapping
        .iter()
        .copied()
        .filter(|outer| {
            let Some((os, oe)) = range(outer) else { return false };
            !overlapping.iter().any(|inner| {
                inner.id != outer.id
                    && range(inner).is_some_and(|(is, ie)| {
                        is >= os && ie <= oe && (is, ie) != (os, oe) && is <= lo && ie >= hi
                    })
            })
        })
        .collect()
}
