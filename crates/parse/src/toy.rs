//! The example language (`.cgtoy`, feature `example-language`): a grammar-less provider that
//! exists to prove the registry. Adding it took this module, its resolve module
//! (`codegraph_resolve`'s `toy.rs`) and one registry line in each crate; the end-to-end test
//! is `tests/tests/example_language.rs`.
//!
//! The language: `def NAME` declares a function (its body runs to the next `def`), `NAME()`
//! on a line inside it calls NAME, `# text` lines are comments, and a comment right above a
//! `def` is its doc.

use crate::facts::{CallKind, CallSite, Callee, FileFacts, Receiver, Symbol, SymbolIdx};
use crate::{Capability, LanguageSpec, Provider};
use codegraph_schema::NodeKind;

pub struct ToyProvider;

pub static TOY: ToyProvider = ToyProvider;

pub static TOY_SPEC: LanguageSpec = LanguageSpec {
    name: "toy",
    id_tag: "toy",
    extensions: &["cgtoy"],
    provider: &TOY,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_toy_test,
    call_expressions: None,
};

/// Toy test code: `*.test.cgtoy` files.
fn is_toy_test(path: &str) -> bool {
    path.ends_with(".test.cgtoy")
}

impl Provider for ToyProvider {
    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Symbols, Capability::Calls]
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        None
    }

    fn extract(&self, text: &str, _tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let mut facts = FileFacts::default();
        let mut current: Option<SymbolIdx> = None;
        let mut doc: Option<String> = None;
        let lines: Vec<&str> = text.lines().collect();
        for (i, raw) in lines.iter().enumerate() {
            let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let t = raw.trim();
            if let Some(comment) = t.strip_prefix('#') {
                doc = Some(comment.trim().to_string());
                continue;
            }
            if let Some(name) = t.strip_prefix("def ").map(str::trim).filter(|n| is_name(n)) {
                if let Some(prev) = current {
                    facts.symbols[prev as usize].end_line = line.saturating_sub(1).max(1);
                }
                current = u32::try_from(facts.symbols.len()).ok();
                facts.symbols.push(Symbol {
                    kind: NodeKind::Function,
                    name: name.to_string(),
                    qualified_name: name.to_string(),
                    parent: None,
                    start_line: line,
                    end_line: line,
                    signature: format!("def {name}"),
                    doc: doc.take(),
                    exported: true,
                });
                continue;
            }
            doc = None;
            if let Some(name) = t.strip_suffix("()").filter(|n| is_name(n)) {
                let col = u32::try_from(raw.len() - raw.trim_start().len() + 1).unwrap_or(1);
                facts.calls.push(CallSite {
                    callee: Callee { receiver: Receiver::None, name: name.into() },
                    kind: CallKind::Call,
                    line,
                    col,
                    enclosing: current,
                    local: false,
                });
            }
        }
        if let Some(prev) = current {
            let last = u32::try_from(lines.len().max(1)).unwrap_or(u32::MAX);
            facts.symbols[prev as usize].end_line = last;
        }
        facts
    }
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
