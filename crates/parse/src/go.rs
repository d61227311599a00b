//! Go provider (tree-sitter-go). Being written: see issue 2.

use crate::Provider;
use crate::facts::FileFacts;
use crate::lang::{Capability, Language};

pub struct GoProvider;

pub static GO: GoProvider = GoProvider;

impl Provider for GoProvider {
    fn language(&self) -> Language {
        Language::Go
    }

    fn capabilities(&self) -> &'static [Capability] {
        &[
            Capability::Symbols,
            Capability::Imports,
            Capability::Calls,
            Capability::Types,
        ]
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_go::LANGUAGE.into())
    }

    fn extract(&self, _text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        FileFacts {
            syntax_errors: tree.map_or(0, crate::util::count_errors),
            ..FileFacts::default()
        }
    }
}
