//! Doc comments of declarations.

use super::*;

impl<'s> Extractor<'s> {
    /// The doc text of a run of comments directly above a declaration; compiler directives
    /// (`//go:...`, `//line ...`) are not documentation.
    pub(super) fn doc(&self, docs: &[Node<'_>]) -> Option<String> {
        if docs.is_empty() {
            return None;
        }
        clean_comments(
            docs.iter()
                .map(|c| self.text(*c))
                .filter(|t| !t.starts_with("//go:") && !t.starts_with("//line ")),
        )
    }
}
