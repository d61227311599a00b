//! TypeScript / TSX / JavaScript provider. Being written: see issue 2.

use crate::Provider;
use crate::facts::FileFacts;
use crate::lang::{Capability, Language};

pub struct TsProvider {
    language: Language,
}

pub static TYPESCRIPT: TsProvider = TsProvider {
    language: Language::TypeScript,
};
pub static TSX: TsProvider = TsProvider {
    language: Language::Tsx,
};
pub static JAVASCRIPT: TsProvider = TsProvider {
    language: Language::JavaScript,
};

impl Provider for TsProvider {
    fn language(&self) -> Language {
        self.language
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
        Some(match self.language {
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            _ => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        })
    }

    fn extract(&self, _text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        FileFacts {
            syntax_errors: tree.map_or(0, crate::util::count_errors),
            ..FileFacts::default()
        }
    }
}
