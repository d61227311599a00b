//! TESTS edges of one test file, shared by the languages: a test (a Go test function, a TS/JS
//! test block) -> each non-test symbol it calls or names, and the test file -> each file
//! those are in. Targets in test files (helpers, fixtures) are not tested code.

use crate::graph::Edge;
use crate::ids::{Id, file_id};
use codegraph_db::SourceFile;
use codegraph_schema::{EdgeKind, Reason};
use std::collections::HashSet;

/// The TESTS edges of one test file, in first-seen order: one per (test, target) at its
/// first line, and one per tested file.
#[derive(Default)]
pub(crate) struct Tested {
    seen: HashSet<(Id, Id)>,
    pairs: Vec<(Id, Id, Reason, u32)>,
    files: Vec<(Id, Reason)>,
}

impl Tested {
    /// Test `test` exercises `target` (its ID, file, the reason it resolved and the line).
    pub(crate) fn add(
        &mut self,
        db: &dyn salsa::Database,
        test: Option<&Id>,
        (dst, target_file, reason, line): (&Id, SourceFile, Reason, u32),
    ) {
        let Some(test) = test else { return };
        if crate::graph::is_test(db, target_file) {
            return;
        }
        let path = target_file.path(db);
        if self.seen.insert((test.clone(), dst.clone())) {
            self.pairs.push((test.clone(), dst.clone(), reason, line));
            let file = file_id(path);
            if !self.files.iter().any(|(f, _)| *f == file) {
                self.files.push((file, reason));
            }
        }
    }

    /// The edges: test -> target, then test file `fid` -> tested file.
    pub(crate) fn into_edges(self, fid: &Id) -> impl Iterator<Item = Edge> + '_ {
        let pairs = self.pairs.into_iter().map(|(test, target, reason, line)| {
            Edge::new(test, target, EdgeKind::Tests, reason, line)
        });
        let files = self
            .files
            .into_iter()
            .map(move |(file, reason)| Edge::new(fid.clone(), file, EdgeKind::Tests, reason, 0));
        pairs.chain(files)
    }
}
