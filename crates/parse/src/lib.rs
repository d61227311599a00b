//! Language providers: source text in, plain facts out.
//!
//! Each provider sits behind the [`Provider`] contract, declares what it can extract
//! ([`Capability`]), and turns a file's text (plus, for tree-sitter languages, its syntax tree)
//! into [`FileFacts`]. Parsing never fails: a syntax error yields partial facts and a count of
//! error nodes.
//!
//! Architecture invariant: this crate knows nothing of salsa, SQLite, git, the file system or
//! MCP. It is pure: text in, facts out, so it can be tested with strings alone.

mod codec;
mod elixir;
mod endpoints;
pub mod facts;
mod go;
mod grammar;
mod java;
pub mod kubernetes;
mod lang;
mod markdown;
mod protobuf;
mod python;
mod rust;
pub use java::call_expressions as java_call_expressions;
pub use java::{
    generic_type_text as java_generic_type_text, strip_type_args as java_strip_type_args,
};
pub use python::call_expressions as python_call_expressions;
pub use rust::call_expressions as rust_call_expressions;
pub use rust::{
    impl_name as rust_impl_name, strip_type_args as rust_strip_type_args,
    type_text as rust_type_text,
};
pub use util::is_identifier;
pub mod render;
mod shell;
mod terraform;
#[cfg(feature = "example-language")]
mod toy;
mod typescript;
pub use typescript::call_expressions as typescript_call_expressions;
pub use typescript::repaired_text as typescript_repaired_text;
mod util;

pub use codec::{
    CODEC_VERSION, DecodeError, DecodeErrorKind, MAX_CALL_DEPTH, decode_facts, encode_facts,
    facts_codec_matches,
};
pub use endpoints::resolved_go_route;
pub use facts::*;
pub use go::is_predeclared_type as is_go_predeclared_type;
pub use lang::{
    Capability, Detect, Language, LanguageSpec, TEST_DIRS, file_name, is_test_file, under_dir,
};

use std::cell::RefCell;

/// Version of what the providers extract. Bump it whenever a provider's output for the same
/// text changes: an index holding facts of another version is rebuilt from scratch, since
/// facts restored from it would be stale.
pub const FACTS_VERSION: u32 = 50;

/// What every language provider implements.
pub trait Provider: Send + Sync + 'static {
    /// What this provider extracts; consumers must not expect more.
    fn capabilities(&self) -> &'static [Capability];
    /// The tree-sitter grammar, or `None` for providers that scan text directly.
    fn grammar(&self) -> Option<tree_sitter::Language>;
    /// Extracts the facts of one file. `tree` is the parse of `text` with [`Self::grammar`]
    /// (`None` for grammar-less providers).
    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts;
}

/// The provider for a language (its [`LanguageSpec`]'s).
pub fn provider(language: Language) -> &'static dyn Provider {
    language.spec().provider
}

thread_local! {
    static PARSERS: RefCell<Vec<(Language, tree_sitter::Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Parses `text` with the language's grammar on a per-thread parser; `old` is a previous tree
/// of an edited version of the same file, when available. `None` for grammar-less languages.
pub fn parse_tree(
    language: Language,
    text: &str,
    old: Option<&tree_sitter::Tree>,
) -> Option<tree_sitter::Tree> {
    let grammar = provider(language).grammar()?;
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let pos = match parsers.iter().position(|(l, _)| *l == language) {
            Some(pos) => pos,
            None => {
                let mut parser = tree_sitter::Parser::new();
                // A grammar bundled with this crate always matches the linked tree-sitter ABI;
                // if it ever did not, every parse of the language yields no tree (and no facts).
                parser.set_language(&grammar).ok()?;
                parsers.push((language, parser));
                parsers.len() - 1
            }
        };
        parsers[pos].1.parse(text, old)
    })
}

/// Parses and extracts in one step, dropping the tree (the cold build's workers, tests).
pub fn analyze(language: Language, text: &str) -> FileFacts {
    let tree = parse_tree(language, text, None);
    extract(language, text, tree.as_ref())
}

/// A file's facts from its text and syntax tree, as the index keeps them (lists without
/// unused capacity: every file's facts stay alive while a cold index resolves).
pub fn extract(language: Language, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
    let mut facts = provider(language).extract(text, tree);
    facts.shrink_to_fit();
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the index keeps of a file holds no unused list capacity (`FileFacts::shrink_to_fit`):
    /// every list of a file with several of each kind of fact has capacity equal to length.
    #[test]
    fn extracted_facts_have_no_spare_capacity() {
        let src = "package p\n\nimport \"fmt\"\n\ntype T struct{ a, b, c int }\n\n\
                   func (t *T) M() { fmt.Println(t.a); t.b = 2; g(); h(); k() }\n\n\
                   func g() {}\nfunc h() {}\nfunc k() { x := T{}; x.M(); y := 1; _ = y }\n";
        let f = analyze(Language::Go, src);
        assert_eq!(f.symbols.len(), 8);
        assert_eq!(f.calls.len(), 5);
        assert_eq!(f.symbols.capacity(), f.symbols.len());
        assert_eq!(f.calls.capacity(), f.calls.len());
        assert_eq!(f.type_hints.capacity(), f.type_hints.len());
        assert_eq!(f.imports.capacity(), f.imports.len());
        assert_eq!(f.value_refs.capacity(), f.value_refs.len());
        assert_eq!(f.type_refs.capacity(), f.type_refs.len());
    }

    #[test]
    fn fit_exactly_keeps_the_elements_in_order() {
        let mut v: Vec<u32> = Vec::with_capacity(64);
        v.extend([3, 1, 2]);
        fit_exactly(&mut v);
        assert_eq!(v, [3, 1, 2]);
        assert_eq!(v.capacity(), 3);
        let mut empty: Vec<u32> = Vec::with_capacity(8);
        fit_exactly(&mut empty);
        assert_eq!(empty.capacity(), 0);
    }
}
