//! TypeScript / TSX / JavaScript provider.
//!
//! One provider serves three tree-sitter grammars (TypeScript, TSX, JavaScript): their node kinds
//! mostly agree and the few differences (`field_definition` vs `public_field_definition`, the
//! TS-only declarations) are handled side by side. Extraction is one iterative cursor walk
//! ([`walk`]); the small pure helpers that read callee shapes, type names and property names
//! live in [`shapes`] (shared with the endpoint readers, `crate::endpoints`, which run after the
//! walk).
//!
//! Symbol names follow the compiler-backed oracle (`shared/eval/ts_oracle.js`) exactly, because
//! CALLS edges are scored against it: a qualified name is the chain of enclosing *named*
//! declarations, anonymous functions are transparent, and a few oracle rules that look odd
//! (module-level object-literal properties and variables name the calls inside them, `this.x =
//! function` inside a constructor is `C.constructor.x`) are reproduced on purpose.

mod repair;

/// The text the TypeScript provider parses instead of `text` when `text` has errors (its parse
/// repairs; see `repair.rs`), `None` when no repair applies. For tools that look for the
/// constructs the grammar still rejects (`examples/parse_errors.rs`).
pub fn repaired_text(text: &str) -> Option<String> {
    repair::repair(text).map(|(t, _)| t)
}
pub(crate) mod shapes;
mod walk;

/// The call sites of a TS/JS syntax tree as the compiler counts them, read straight off the
/// tree (not through the extraction walk), for the call-accounting check that every one of
/// them is a CALLS edge, an unresolved site or a call outside the workspace: every
/// `call_expression` and `new_expression`, except a dynamic `import(...)`, a tagged template
/// (`` tag`...` ``, which the compiler does not count either) and a function or class called
/// where it is written (`(function () {})()`, `new class extends B {}()`: they name no callee).
pub fn call_expressions(tree: &tree_sitter::Tree) -> usize {
    let mut count = 0;
    let mut cursor = tree.walk();
    loop {
        let n = cursor.node();
        match n.kind() {
            "new_expression" => {
                let ctor = n.child_by_field_name("constructor").map(shapes::unwrap_expr);
                if ctor.is_some_and(|c| c.kind() != "class") {
                    count += 1;
                }
            }
            "call_expression" => {
                let func = n.child_by_field_name("function").map(shapes::unwrap_expr);
                let skip = func.is_none_or(|f| {
                    matches!(
                        f.kind(),
                        "import"
                            | "function_expression"
                            | "function"
                            | "generator_function"
                            | "arrow_function"
                    )
                }) || shapes::is_tagged_template(n);
                if !skip {
                    count += 1;
                }
            }
            _ => {}
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}

use crate::LanguageSpec;
use crate::Provider;
use crate::facts::FileFacts;
use crate::lang::{Capability, Language};

pub struct TsProvider {
    language: Language,
}

impl TsProvider {
    fn extract_tree(text: &str, tree: &tree_sitter::Tree) -> FileFacts {
        let mut facts = walk::extract(text, tree);
        crate::endpoints::typescript(text, tree, &mut facts);
        facts
    }
}

pub static TYPESCRIPT: TsProvider = TsProvider { language: Language::TypeScript };
pub static TSX: TsProvider = TsProvider { language: Language::Tsx };
pub static JAVASCRIPT: TsProvider = TsProvider { language: Language::JavaScript };

pub static TYPESCRIPT_SPEC: LanguageSpec = LanguageSpec {
    name: "typescript",
    id_tag: "ts",
    extensions: &["ts", "mts", "cts"],
    provider: &TYPESCRIPT,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_ts_test,
    call_expressions: Some(|tree, _| call_expressions(tree)),
};
pub static TSX_SPEC: LanguageSpec = LanguageSpec {
    name: "tsx",
    id_tag: "ts",
    extensions: &["tsx"],
    provider: &TSX,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_ts_test,
    call_expressions: Some(|tree, _| call_expressions(tree)),
};
pub static JAVASCRIPT_SPEC: LanguageSpec = LanguageSpec {
    name: "javascript",
    id_tag: "js",
    extensions: &["js", "jsx", "mjs", "cjs"],
    provider: &JAVASCRIPT,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_ts_test,
    call_expressions: Some(|tree, _| call_expressions(tree)),
};

/// TypeScript / JavaScript test code: `*.test.*` and `*.spec.*` files (Jest, Vitest, Mocha,
/// Jasmine) and anything under `__tests__/`, `test/`, `tests/` or `testdata/` (fixtures).
fn is_ts_test(path: &str) -> bool {
    let name = crate::file_name(path);
    name.contains(".test.")
        || name.contains(".spec.")
        || crate::under_dir(path, crate::TEST_DIRS)
        || crate::under_dir(path, &["__tests__"])
}

impl Provider for TsProvider {
    fn capabilities(&self) -> &'static [Capability] {
        crate::lang::CODE_CAPABILITIES
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(match self.language {
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            _ => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        })
    }

    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let Some(tree) = tree else { return FileFacts::default() };
        // A file with parse errors may hold a construct tsc accepts and the grammar rejects:
        // repaired (lines and columns kept) and kept when the repaired parse is cleaner.
        if tree.root_node().has_error()
            && self.language != Language::JavaScript
            && let Some((repaired, edits)) = repair::repair(text)
            && let Some(better) = crate::parse_tree(self.language, &repaired, None)
            && crate::util::count_errors(&better) < crate::util::count_errors(tree)
        {
            let mut facts = Self::extract_tree(&repaired, &better);
            facts.repairs = edits;
            return facts;
        }
        Self::extract_tree(text, tree)
    }
}
