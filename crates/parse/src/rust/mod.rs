//! Rust provider (`.rs`; tree-sitter-rust): items, impl blocks, `use` trees, call sites with
//! their receivers (also inside macro invocations), and the declared types resolution follows.
//!
//! Symbols are named as the rust-analyzer oracle names them (`shared/eval/rust_oracle`): the
//! chain of enclosing named declarations joined by `.`, without the module path. A function is
//! `function` (`parse`; nested: `outer.inner`); a function of an `impl` block is `method` named
//! by the impl's self type (last path segment, no generics, `&` or `*`: `Parser.parse`; other
//! self types keep their text without spaces: `[T].iter`); a trait is `interface`, its items
//! `Trait.m` (`method`), `Trait.Item` (`type_alias`), `Trait.N` (`constant`); a struct or union
//! is `struct` with its named fields `S.f` (`property`); an enum is `enum` with its variants
//! `E.V` (`constant`); `const` is `constant`, `static` `variable`, `type` `type_alias`,
//! `macro_rules!` `macro`, an inline `mod m { }` `module`, which does not enter its items'
//! names (`mod tests { fn helper() }` declares `helper`). Closures and async blocks are
//! transparent: their calls belong to the enclosing declaration. A symbol starts at its first
//! attribute (attributes are recorded in the signature: `#[derive(..)]`, `#[cfg(..)]`,
//! `#[test]`); the `///` or `/** */` comments above are its doc. Exported: a visibility
//! modifier (`pub`, `pub(crate)`: seen outside the file), trait items of an exported trait,
//! variants and impl-of-trait methods.
//!
//! This language's encodings in the shared fields (read only by its resolver):
//! - Imports: each leaf of a `use` tree is one [`Import`](crate::facts::Import): `source` is the
//!   path before the leaf joined by `::` (`std::collections`), the binding `Named(leaf)` with
//!   the local name (`as` renames; `{self}` names the path's last segment), a glob `All`.
//!   `pub use` is `ReExport`, else `EsImport`; `extern crate a as b;` is `Package` from `a`,
//!   local `b`. A path in an inline module that starts with `super` climbing out of it is
//!   rewritten to `self::` plus the inline modules still above (inline modules share their
//!   file's namespace for bare names; [`RustFacts::inline_mods`]).
//! - Call sites: `f(x)` is `{ None, f }`; `a::b::f(x)` is `{ Path(["::", "a", "b"]), f }`: an
//!   item path starts with a `::` element, apart from a value chain (`a.b.f()` is `{ Path(["a",
//!   "b"]), f }`); `crate`, `self`, `super` are kept as segments, `Self` in an impl is its self
//!   type's path; generic arguments are dropped (`Vec::<u8>::new()` is `{ Path(["::", "Vec"]),
//!   new }`; `<T as Tr>::m()` is `{ Path(["::", "<as>", "Tr"]), m }` and `<T>::m()` `{
//!   Path(["::", "T"]), m }`); `x.m()` is `{ receiver(x), m }`; a call of anything
//!   else (`(self.cb)(x)`, `f()()`) is `{ Other, "" }`. Calls written inside macro
//!   invocations are read from the token trees (`assert_eq!(f(x), 1)`, `vec![a.b()]`,
//!   `format!("{}", x.m())`), except inside `macro_rules!` definitions.
//! - Receivers: `self` is `This`; a name chain is a `Path` (`a.b.m()` -> `["a", "b"]`,
//!   `self.a.m()` -> `["self", "a"]`, tuple fields `self.0` -> `["self", "0"]`, `a[i].m()` ->
//!   `["a", "[]"]`); a call's result is `CallResult`; `e?` is `CallResult` of a callee named
//!   `?` on `e` (the `Ok`/`Some` value); an expression whose type is written in it is
//!   `Path(["new", T])` (in a value chain `new` is a name no binding has in this encoding: a
//!   `let new` would read as it, a harmless clash): a struct literal `T { .. }`, a cast `e as
//!   T`, a string literal (`str`); a path value (`E::V`, `CONST`) is an item path (`::` first);
//!   `&e`, `*e`, `(e)`, `e.await` are `e`.
//! - Types as written are normalized ([`type_text`]): references, lifetimes, `mut`, `dyn`,
//!   `impl` and whitespace dropped, generic arguments kept (`&'a mut Vec<Foo<'b>>` ->
//!   `Vec<Foo>`), `Self` inside an `impl` replaced by the impl's self type.
//! - Type hints: a parameter (`self` too: the impl's self type, or the trait inside a trait)
//!   and a `let` are scoped to the enclosing function (`let x: T`: `Annotation`; `let x =
//!   T { .. }`: `Construct(T)`; `let x = f()`: `CallResult`; `let x = a.b`: `Value(Path)`;
//!   else `Value(Other)`: unknown but it hides outer names); a named field is an
//!   `Annotation` scoped to its struct, a tuple struct's fields are named `0`, `1`...; a
//!   function's return type, and the type of a `const` or `static`, is `Return(T)` scoped to
//!   it; `for x in e` binds `x` to an element
//!   of `e` (`Value(Path)` ending in `[]`, or `CallResult` of `[]` on a call's result); `if let
//!   Some(x) = e` / `Ok(x)` (also in `while let` and `match` arms on `e`) binds `x` to
//!   `CallResult` of `?` on `e`; a closure parameter without a type is `Value(Other)`, or an
//!   element of the receiver when the closure is passed to an element-consuming method
//!   (`xs.iter().map(|x| ..)`); a type alias `type A = T;` is an `Annotation(T)` named `type`
//!   scoped to the alias. Patterns bind through tuple structs and variants (`E::V(x)`: `x` is
//!   `Value(Path(["::", "E", "V", "()", "0"]))`, field `0` of `E::V`), struct patterns and
//!   tuples (`(a, b)`: fields `0`, `1` of the value). A binding of a `let`, `if let`, `match`
//!   arm or `for` is visible only after what binds it (`let x = x.unwrap();` reads the earlier
//!   `x` on the right): its hint's `line` is where that ends and its `visible` holds the
//!   column right after (only `col` is meaningful for Rust).
//! - [`RustFacts`](crate::facts::RustFacts): impl blocks (self type, trait, their items, type
//!   parameters), `mod x;` declarations with their `#[path]`, and which `use` leaves are
//!   behind a `#[cfg(..)]` (other than `cfg(test)`).
//! - [`FileFacts::value_refs`](crate::facts::FileFacts::value_refs): paths and names passed as
//!   values (`.map(Self::convert)`, `f(parse)`): REFERS_TO when they name a function.
//! - [`FileFacts::accesses`](crate::facts::FileFacts::accesses): field reads and writes.
//! - Heritage: a trait's supertraits are `Extends` of the trait.

mod clients;
mod macros;
mod routes;
mod walk;

use crate::facts::FileFacts;
use crate::grammar::grammar_ids;
use crate::util::count_errors;
use crate::{Capability, LanguageSpec, Provider};

pub struct RustProvider;

pub static RUST: RustProvider = RustProvider;

pub static RUST_SPEC: LanguageSpec = LanguageSpec {
    name: "rust",
    id_tag: "rs",
    extensions: &["rs"],
    provider: &RUST,
    program_entry: Some("main"),
    module: module_path!(),
    detect: None,
    test_file: is_test_file,
    call_expressions: Some(call_expressions),
};

/// Macro bodies parsed as items inside macro bodies parsed as items... at most this deep.
pub(crate) const MAX_MACRO_NESTING: u32 = 4;

/// Whether a node whose parent has kind `parent` stands among items (a file's or an inline
/// module's).
pub(crate) fn item_level(parent: Option<u16>) -> bool {
    let ids = ids();
    parent.is_some_and(|p| p == ids.source_file || p == ids.declaration_list)
}

/// Whether a macro invocation whose parent and grandparent have kinds `parent` and
/// `grandparent` is written among items, braced (`m! { .. }`) or as a statement (`m!(..);`).
pub(crate) fn item_level_macro(parent: Option<u16>, grandparent: Option<u16>) -> bool {
    if parent == Some(ids().expression_statement) {
        item_level(grandparent)
    } else {
        item_level(parent)
    }
}

/// The inside of an item-level macro invocation's braces (`cfg_rt! { .. }` at the top of a
/// module or an impl: `parent` is the kind of the node around it), which holds items: what
/// [`parse_range`] parses.
pub(crate) fn item_macro_body(
    node: tree_sitter::Node<'_>,
    parent: Option<u16>,
) -> Option<tree_sitter::Range> {
    let ids = ids();
    if !item_level(parent) {
        return None;
    }
    let last = u32::try_from(node.named_child_count().checked_sub(1)?).ok()?;
    let tt = node.named_child(last)?;
    if tt.kind_id() != ids.token_tree {
        return None;
    }
    let end = tt.child_count().checked_sub(1)?;
    let (open, close) = (tt.child(0)?, tt.child(end)?);
    if open.kind() != "{" || close.kind() != "}" || close.start_byte() <= open.end_byte() {
        return None;
    }
    Some(tree_sitter::Range {
        start_byte: open.end_byte(),
        end_byte: close.start_byte(),
        start_point: open.end_position(),
        end_point: close.start_position(),
    })
}

/// `range` of `src` parsed as Rust items, with the positions of `src`.
pub(crate) fn parse_range(src: &str, range: tree_sitter::Range) -> Option<tree_sitter::Tree> {
    thread_local! {
        static PARSER: std::cell::RefCell<Option<tree_sitter::Parser>> =
            const { std::cell::RefCell::new(None) };
    }
    PARSER.with(|p| {
        let mut p = p.borrow_mut();
        if p.is_none() {
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&tree_sitter_rust::LANGUAGE.into()).ok()?;
            *p = Some(parser);
        }
        let parser = p.as_mut()?;
        parser.set_included_ranges(&[range]).ok()?;
        let tree = parser.parse(src, None);
        // Back to whole texts for the next use.
        let _ = parser.set_included_ranges(&[]);
        tree
    })
}

grammar_ids! {
    /// The grammar's kinds and fields, looked up once.
    pub(crate) struct Ids {
        kinds {
            function_item = "function_item",
            macro_invocation = "macro_invocation",
            source_file = "source_file",
            declaration_list = "declaration_list",
            expression_statement = "expression_statement",
            function_signature_item = "function_signature_item",
            struct_item = "struct_item",
            union_item = "union_item",
            enum_item = "enum_item",
            enum_variant = "enum_variant",
            trait_item = "trait_item",
            impl_item = "impl_item",
            mod_item = "mod_item",
            const_item = "const_item",
            static_item = "static_item",
            type_item = "type_item",
            associated_type = "associated_type",
            macro_definition = "macro_definition",
            use_declaration = "use_declaration",
            extern_crate_declaration = "extern_crate_declaration",
            field_declaration = "field_declaration",
            ordered_field_declaration_list = "ordered_field_declaration_list",
            call_expression = "call_expression",
            field_expression = "field_expression",
            let_declaration = "let_declaration",
            let_condition = "let_condition",
            match_expression = "match_expression",
            match_arm = "match_arm",
            for_expression = "for_expression",
            closure_expression = "closure_expression",
            parameter = "parameter",
            self_parameter = "self_parameter",
            token_tree = "token_tree",
            attribute_item = "attribute_item",
            inner_attribute_item = "inner_attribute_item",
            line_comment = "line_comment",
            block_comment = "block_comment",
            string_literal = "string_literal",
            raw_string_literal = "raw_string_literal",
            identifier = "identifier",
            argument_list = "arguments",
            assignment_expression = "assignment_expression",
            compound_assignment_expr = "compound_assignment_expr",
            visibility_modifier = "visibility_modifier",
        }
        anon {
            lparen = "(",
            gt = ">",
            shr = ">>",
            lt = "<",
            colons = "::",
            dot = ".",
            r#fn = "fn",
            r#struct = "struct",
        }
        fields {
            name = "name",
            body = "body",
            r#type = "type",
            r#trait = "trait",
            value = "value",
            field = "field",
            function = "function",
            arguments = "arguments",
            parameters = "parameters",
            pattern = "pattern",
            path = "path",
            return_type = "return_type",
            left = "left",
            right = "right",
            macro_ = "macro",
            bounds = "bounds",
            alias = "alias",
            argument = "argument",
            list = "list",
        }
    }
}

/// The ids of tree-sitter-rust.
pub(crate) fn ids() -> &'static Ids {
    static IDS: std::sync::OnceLock<Ids> = std::sync::OnceLock::new();
    IDS.get_or_init(|| Ids::of(&tree_sitter_rust::LANGUAGE.into()))
}

/// Rust test code by path: integration tests (`tests/`), benches (`benches/`) and the usual
/// test directories. Unit tests inside `src/` (`#[cfg(test)] mod tests`) share their file
/// with the code they test; their `#[test]` attribute is in their signatures.
fn is_test_file(path: &str) -> bool {
    crate::under_dir(path, crate::TEST_DIRS) || crate::under_dir(path, &["benches"])
}

impl Provider for RustProvider {
    fn capabilities(&self) -> &'static [Capability] {
        crate::lang::CODE_CAPABILITIES
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_rust::LANGUAGE.into())
    }

    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let Some(tree) = tree else { return FileFacts::default() };
        let mut facts = walk::extract(text, tree);
        routes::extract(text, tree, &mut facts);
        facts.syntax_errors = count_errors(tree);
        facts
    }
}

/// Number of call expressions in a Rust syntax tree of `src`: `call_expression` nodes outside
/// macro definitions and attributes, the calls read from macro invocations' token trees
/// ([`macros::call_name`]), and those of item-level macro bodies parsed as items (as the walk
/// reads them): what the resolver's call accounting adds up to.
pub fn call_expressions(tree: &tree_sitter::Tree, src: &str) -> usize {
    count_calls(tree.root_node(), src, 0)
}

fn count_calls(root: tree_sitter::Node<'_>, src: &str, nesting: u32) -> usize {
    let ids = ids();
    let mut n = 0;
    let mut kids = Vec::new();
    let mut cursor = root.walk();
    // The kinds of the current node's ancestors (`Node::parent` walks down from the root: a
    // stack keeps deep trees linear).
    let mut parents: Vec<u16> = Vec::new();
    'walk: loop {
        let node = cursor.node();
        let k = node.kind_id();
        let item_macro = if k == ids.macro_invocation && nesting < MAX_MACRO_NESTING {
            item_macro_body(node, parents.last().copied())
        } else {
            None
        };
        if k == ids.macro_invocation
            && let Some(bench) = macros::bench_macro(node, src)
            && item_level_macro(
                parents.last().copied(),
                parents.len().checked_sub(2).map(|i| parents[i]),
            )
        {
            n += bench.targets.len();
        }
        let descend = if let Some(range) = item_macro {
            if let Some(sub) = parse_range(src, range) {
                n += count_calls(sub.root_node(), src, nesting + 1);
            }
            false
        } else if k == ids.macro_definition
            || k == ids.attribute_item
            || k == ids.inner_attribute_item
        {
            false
        } else if k == ids.call_expression {
            n += 1;
            true
        } else if k == ids.token_tree {
            kids.clear();
            let mut c = node.walk();
            kids.extend(node.children(&mut c));
            n += (0..kids.len()).filter(|&i| macros::call_name(&kids, i).is_some()).count();
            true
        } else {
            true
        };
        if descend && cursor.goto_first_child() {
            parents.push(k);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
            parents.pop();
        }
    }
    n
}

/// A type as written, normalized: references, raw pointers, lifetimes, `mut`, `dyn`, `impl`
/// and whitespace dropped, generic arguments kept, a leading `::` dropped (`&'a mut
/// Vec<Foo<'b>>` -> `Vec<Foo>`, `Box<dyn Error + Send>` -> `Box<Error+Send>`).
pub fn type_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\'' {
            // A lifetime: `'a`, `'static`, and the separator after it in an argument list.
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < b.len() && (b[i] == b',' || b[i] == b'+') {
                i += 1;
            }
            continue;
        }
        if c == b'&' || c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'*' {
            // `*const T`, `*mut T`.
            i += 1;
            let rest = raw[i..].trim_start();
            for kw in ["const", "mut"] {
                if let Some(r) = rest.strip_prefix(kw)
                    && r.starts_with(|c: char| c.is_whitespace())
                {
                    i = raw.len() - r.len();
                }
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &raw[start..i];
            let keyword = matches!(word, "mut" | "dyn" | "impl")
                && b.get(i).is_some_and(|c| c.is_ascii_whitespace());
            if !keyword {
                out.push_str(word);
            }
            continue;
        }
        let ch = raw[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    // `<,T>` after a dropped lifetime, and a trailing separator.
    let out = out
        .replace("<,", "<")
        .replace(",>", ">")
        .replace("+>", ">")
        .replace("+,", ",")
        .replace("<>", "");
    let out = out.trim_end_matches('+').to_string();
    match out.strip_prefix("::") {
        Some(rest) => rest.to_string(),
        None => out,
    }
}

/// A normalized type without its type arguments (`Outer<K>.Inner<V>[]` -> `Outer.Inner[]`,
/// `a::Foo<T>` -> `a::Foo`).
pub use crate::util::strip_angle_args as strip_type_args;

/// The name an `impl` block's self type gives its items (the oracle's rule): a path type's
/// last segment without generic arguments (`&mut a::Foo<T>` -> `Foo`); any other type its
/// normalized text (`[T]`, `(A,B)`).
pub fn impl_name(ty: &str) -> String {
    let t = type_text(ty);
    let base = strip_type_args(&t);
    let is_path = base.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':');
    if is_path && !base.is_empty() {
        base.rsplit("::").next().unwrap_or(&base).to_string()
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grammar_name_exists() {
        let rust: tree_sitter::Language = tree_sitter_rust::LANGUAGE.into();
        assert_eq!(crate::grammar::missing(Ids::NAMES, &[rust]), Vec::<&str>::new());
    }

    #[test]
    fn types_normalize() {
        assert_eq!(type_text("&'a mut Vec<Foo<'b>>"), "Vec<Foo>");
        assert_eq!(type_text("Box<dyn Error + Send + 'static>"), "Box<Error+Send>");
        assert_eq!(type_text("Cow<'a, str>"), "Cow<str>");
        assert_eq!(type_text("*const u8"), "u8");
        assert_eq!(type_text("::std::io::Result<()>"), "std::io::Result<()>");
        assert_eq!(type_text("impl Iterator<Item = &'a T>"), "Iterator<Item=T>");
        assert_eq!(type_text("[u8; 4]"), "[u8;4]");
        assert_eq!(type_text("&str"), "str");
        assert_eq!(type_text("dynamo::Dyn"), "dynamo::Dyn");
        assert_eq!(strip_type_args("a::Foo<T, U<V>>"), "a::Foo");
    }

    #[test]
    fn impl_names() {
        assert_eq!(impl_name("Parser<'a, T>"), "Parser");
        assert_eq!(impl_name("&mut a::b::Foo"), "Foo");
        assert_eq!(impl_name("[T]"), "[T]");
        assert_eq!(impl_name("()"), "()");
        assert_eq!(impl_name("(A, B)"), "(A,B)");
    }

    #[test]
    fn test_files() {
        assert!(is_test_file("tests/api.rs"));
        assert!(is_test_file("crates/x/tests/a/b.rs"));
        assert!(is_test_file("benches/b.rs"));
        assert!(!is_test_file("src/tests.rs"));
        assert!(!is_test_file("src/lib.rs"));
    }
}
