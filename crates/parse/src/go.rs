//! Go provider: turns a tree-sitter-go syntax tree into [`FileFacts`].
//!
//! Why it exists: Go is one of the indexed languages, and its facts must name things exactly as
//! the compiler-backed oracle (`shared/eval/go_oracle`) does, so CALLS edges can be scored: a
//! method is `Type.Method` (receiver base type, no `*`, no type arguments, no package), calls in
//! a package-level `var` initialiser belong to the var (the first name of its spec), calls in func
//! literals belong to the enclosing declaration, everything else at package level is `<module>`.
//!
//! How: one pass over the top-level declarations handles the declaration structure (symbols,
//! docs, fields, interface elements, imports, parameter hints) by looking only at shallow
//! children; then each declaration's subtree is walked once, iteratively, with a `TreeCursor`
//! for call sites and local type hints. Node kinds and fields are compared by numeric id
//! (resolved once per process), and strings are only allocated for facts that are kept. Nothing
//! recurses on nesting depth, so deep or broken input cannot overflow the stack.

use crate::LanguageSpec;
use crate::Provider;
use crate::facts::*;
use crate::lang::Capability;
use crate::util::{
    clean_comments, count_errors, end_line, signature, start_col, start_line, text, to_u32,
};
use codegraph_schema::NodeKind;
use std::collections::HashSet;
use std::sync::OnceLock;
use tree_sitter::{Node, Tree};

mod calls;
mod declarations;
mod docs;
mod hints;

pub struct GoProvider;

pub static GO: GoProvider = GoProvider;

pub static GO_SPEC: LanguageSpec = LanguageSpec {
    name: "go",
    id_tag: "go",
    extensions: &["go"],
    provider: &GO,
    program_entry: Some("main"),
    module: module_path!(),
    detect: None,
    test_file: is_go_test,
    call_expressions: None,
};

/// Go test code: `_test.go` files (what `go test` compiles), `testdata/` (which the go tool
/// ignores: fixtures), and `test/` / `tests/` directories (integration suites).
fn is_go_test(path: &str) -> bool {
    crate::file_name(path).ends_with("_test.go") || crate::under_dir(path, crate::TEST_DIRS)
}

impl Provider for GoProvider {
    fn capabilities(&self) -> &'static [Capability] {
        crate::lang::CODE_CAPABILITIES
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_go::LANGUAGE.into())
    }

    fn extract(&self, text: &str, tree: Option<&Tree>) -> FileFacts {
        let Some(tree) = tree else {
            return FileFacts::default();
        };
        let mut ex = Extractor {
            src: text,
            k: kinds(),
            facts: FileFacts::default(),
            tparams: Vec::new(),
            import_names: None,
            scopes: Vec::new(),
            locals: HashSet::new(),
            seen_values: HashSet::new(),
            seen_types: HashSet::new(),
        };
        ex.top_level(tree.root_node());
        let mut facts = ex.facts;
        facts.syntax_errors = count_errors(tree);
        crate::endpoints::go(text, tree, &mut facts);
        dedup_accesses(&mut facts.accesses);
        facts
    }
}

/// One access per (enclosing symbol, receiver, field, read or write), the first in source
/// order: a function that reads `s.mu` twenty times depends on the field once, and the facts
/// (and the ACCESSES edges after them) stay proportional to what a function touches.
fn dedup_accesses(accesses: &mut Vec<FieldAccess>) {
    let mut seen: std::collections::HashMap<(Option<SymbolIdx>, bool, String), Vec<usize>> =
        std::collections::HashMap::new();
    let mut keep = Vec::with_capacity(accesses.len());
    for a in accesses.drain(..) {
        let bucket = seen.entry((a.enclosing, a.write, a.name.to_string())).or_default();
        if bucket
            .iter()
            .any(|&i: &usize| keep.get(i).is_some_and(|k: &FieldAccess| k.receiver == a.receiver))
        {
            continue;
        }
        bucket.push(keep.len());
        keep.push(a);
    }
    *accesses = keep;
}

/// The Go grammar's ids ([`GoIds`], by deref) and per-kind tables: which kinds the walk looks
/// inside ([`NO_CALLS_INSIDE`], [`NOTHING_INSIDE_WITHOUT_PAREN`]), whose direct values
/// [`Extractor::value_refs`] reads ([`VALUE_CONTAINERS`]) and which are the roots of type
/// expressions ([`TYPE_ROOTS`]).
struct Kinds {
    ids: GoIds,
    /// Per kind id: whether [`Extractor::walk`] looks inside.
    inside: Vec<Inside>,
    /// Per kind id: a node whose direct values [`Extractor::value_refs`] reads.
    value_container: Vec<bool>,
    /// Per kind id: the root of a type expression.
    type_root: Vec<bool>,
}

impl std::ops::Deref for Kinds {
    type Target = GoIds;

    fn deref(&self) -> &GoIds {
        &self.ids
    }
}

/// The kind lists of [`Kinds`]' tables, for the grammar test.
#[cfg(test)]
const KIND_LISTS: &[&[&str]] =
    &[NO_CALLS_INSIDE, NOTHING_INSIDE_WITHOUT_PAREN, VALUE_CONTAINERS, TYPE_ROOTS];

fn kinds() -> &'static Kinds {
    static KINDS: OnceLock<Kinds> = OnceLock::new();
    KINDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
        let count = lang.node_kind_count();
        // The ids of a list's kinds; id 0 is "end", what an unknown name resolves to: never
        // marked.
        let ids = |list: &'static [&'static str]| {
            list.iter()
                .map(|kind| usize::from(lang.id_for_node_kind(kind, true)))
                .filter(move |&id| id != 0 && id < count)
        };
        let mut inside = vec![Inside::Always; count];
        for (list, class) in
            [(NO_CALLS_INSIDE, Inside::Never), (NOTHING_INSIDE_WITHOUT_PAREN, Inside::IfParen)]
        {
            ids(list).for_each(|id| inside[id] = class);
        }
        let table = |list: &'static [&'static str]| {
            let mut t = vec![false; count];
            ids(list).for_each(|id| t[id] = true);
            t
        };
        Kinds {
            ids: GoIds::of(&lang),
            value_container: table(VALUE_CONTAINERS),
            type_root: table(TYPE_ROOTS),
            inside,
        }
    })
}

crate::grammar::grammar_ids! {
    /// The Go grammar's names the extractor matches by id.
    struct GoIds {
        kinds {
            comment = "comment",
            identifier = "identifier",
            type_identifier = "type_identifier",
            package_identifier = "package_identifier",
            package_clause = "package_clause",
            import_declaration = "import_declaration",
            import_spec = "import_spec",
            import_spec_list = "import_spec_list",
            function_declaration = "function_declaration",
            method_declaration = "method_declaration",
            type_declaration = "type_declaration",
            type_spec = "type_spec",
            type_alias = "type_alias",
            struct_type = "struct_type",
            interface_type = "interface_type",
            field_declaration_list = "field_declaration_list",
            field_declaration = "field_declaration",
            method_elem = "method_elem",
            type_elem = "type_elem",
            const_declaration = "const_declaration",
            const_spec = "const_spec",
            var_declaration = "var_declaration",
            var_spec = "var_spec",
            var_spec_list = "var_spec_list",
            short_var_declaration = "short_var_declaration",
            call_expression = "call_expression",
            type_conversion_expression = "type_conversion_expression",
            selector_expression = "selector_expression",
            parenthesized_expression = "parenthesized_expression",
            index_expression = "index_expression",
            type_instantiation_expression = "type_instantiation_expression",
            generic_type = "generic_type",
            qualified_type = "qualified_type",
            pointer_type = "pointer_type",
            slice_type = "slice_type",
            array_type = "array_type",
            implicit_length_array_type = "implicit_length_array_type",
            parenthesized_type = "parenthesized_type",
            composite_literal = "composite_literal",
            unary_expression = "unary_expression",
            parameter_declaration = "parameter_declaration",
            variadic_parameter_declaration = "variadic_parameter_declaration",
            type_parameter_declaration = "type_parameter_declaration",
            map_type = "map_type",
            type_arguments = "type_arguments",
            parameter_list = "parameter_list",
            range_clause = "range_clause",
            type_assertion_expression = "type_assertion_expression",
            type_switch_statement = "type_switch_statement",
            type_case = "type_case",
            func_literal = "func_literal",
            block = "block",
            for_statement = "for_statement",
            if_statement = "if_statement",
            expression_switch_statement = "expression_switch_statement",
            select_statement = "select_statement",
            expression_case = "expression_case",
            default_case = "default_case",
            communication_case = "communication_case",
            assignment_statement = "assignment_statement",
            literal_element = "literal_element",
            keyed_element = "keyed_element",
            literal_value = "literal_value",
            return_statement = "return_statement",
            expression_list = "expression_list",
            inc_statement = "inc_statement",
            dec_statement = "dec_statement",
        }
        anon {
            lparen = "(",
            lbrace = "{",
            amp = "&",
            star = "*",
        }
        fields {
            f_name = "name",
            f_type = "type",
            f_body = "body",
            f_receiver = "receiver",
            f_parameters = "parameters",
            f_result = "result",
            f_value = "value",
            f_left = "left",
            f_right = "right",
            f_function = "function",
            f_arguments = "arguments",
            f_operand = "operand",
            f_field = "field",
            f_package = "package",
            f_path = "path",
            f_type_parameters = "type_parameters",
            f_element = "element",
            f_operator = "operator",
            f_alias = "alias",
            f_length = "length",
        }
    }
}

/// Node kinds whose subtrees hold no call of a function: types (an array length is a constant
/// expression, so at most a builtin or a conversion), parameter lists, literals, comments.
/// Not descending into them keeps the walk cheap.
const NO_CALLS_INSIDE: &[&str] = &[
    "array_type",
    "channel_type",
    "function_type",
    "generic_type",
    "interface_type",
    "map_type",
    "negated_type",
    "pointer_type",
    "qualified_type",
    "slice_type",
    "struct_type",
    "type_identifier",
    "parenthesized_type",
    "implicit_length_array_type",
    "type_arguments",
    "type_parameter_list",
    "parameter_list",
    "interpreted_string_literal",
    "raw_string_literal",
    "rune_literal",
    "int_literal",
    "float_literal",
    "imaginary_literal",
    "comment",
    "identifier",
    "field_identifier",
    "package_identifier",
];

/// Expression kinds (and statements made only of expressions) that hold a call, a conversion,
/// a function literal or a statement only if their text holds a `(`: every call and
/// conversion has one, and a function literal (`func(`) is the only way from an expression to
/// a statement, hence to a hint. Generated tables (unicode, syscall, crypto) and most call
/// arguments are made of such nodes; [`Extractor::walk`] skips them when their text has none.
const NOTHING_INSIDE_WITHOUT_PAREN: &[&str] = &[
    "expression_list",
    "literal_value",
    "literal_element",
    "keyed_element",
    "composite_literal",
    "binary_expression",
    "unary_expression",
    "selector_expression",
    "index_expression",
    "slice_expression",
    "assignment_statement",
    "inc_statement",
    "dec_statement",
    "send_statement",
    "return_statement",
];

/// Nodes whose direct operands, elements or values may name a function, constant or variable
/// as a value (REFERS_TO): what [`Extractor::value_refs`] reads. `var` / `const` specs are
/// read where they are declared.
const VALUE_CONTAINERS: &[&str] = &[
    "argument_list",
    "literal_value",
    "return_statement",
    "short_var_declaration",
    "assignment_statement",
    "binary_expression",
    "unary_expression",
    "parenthesized_expression",
    "index_expression",
    "slice_expression",
    "send_statement",
    "inc_statement",
    "dec_statement",
    "if_statement",
    "for_clause",
    "expression_switch_statement",
    "expression_case",
    "type_assertion_expression",
    "range_clause",
];

/// Roots of type expressions (and the lists that hold them): where [`Extractor::walk`] takes
/// the named types code refers to ([`Extractor::type_refs`]).
const TYPE_ROOTS: &[&str] = &[
    "type_identifier",
    "qualified_type",
    "generic_type",
    "pointer_type",
    "slice_type",
    "array_type",
    "implicit_length_array_type",
    "map_type",
    "channel_type",
    "function_type",
    "struct_type",
    "interface_type",
    "parenthesized_type",
    "negated_type",
    "parameter_list",
    "type_arguments",
    "type_parameter_list",
];

/// Go's predeclared types: never a reference to a declaration of the workspace
/// ([`is_predeclared_type`]).
const PREDECLARED_TYPES: &[&str] = &[
    "any",
    "bool",
    "byte",
    "comparable",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
];

/// Whether [`Extractor::walk`] looks inside a node of a kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Inside {
    Always,
    Never,
    /// Only when the node's text holds a `(`.
    IfParen,
}

/// Longest `f().g().h()` nesting kept as `CallResult`s; deeper receivers become `Other`, so a
/// long builder chain costs linear, not quadratic, time.
const MAX_CALL_CHAIN: usize = 8;

struct Extractor<'s> {
    src: &'s str,
    k: &'static Kinds,
    facts: FileFacts,
    /// Type parameters of the declaration being extracted: a hint naming one says nothing
    /// about a declared type.
    tparams: Vec<&'s str>,
    /// The names this file's imports bind (built on first use; see `is_import_name`).
    import_names: Option<Vec<String>>,
    /// Scopes the walk is inside (blocks, cases, statements with their own scope, func
    /// literals): (cursor depth, end line, end column) of each, innermost last. A local's
    /// binding is visible to the end of the innermost one ([`Extractor::visibility`]).
    scopes: Vec<(usize, u32, u32)>,
    /// Names the function being walked declares (parameters, results, receiver, `:=`, `var`,
    /// `const`, range and type-switch variables, func literal parameters), whatever their
    /// type: names [`Extractor::value_refs`] leaves out, since a local is never a package
    /// declaration. One set per function, filled in source order.
    locals: HashSet<&'s str>,
    /// (enclosing symbol, text) of the value and type references recorded so far: one per
    /// symbol and name, the first in source order (resolution keeps one edge per pair).
    seen_values: HashSet<(Option<SymbolIdx>, &'s str)>,
    seen_types: HashSet<(Option<SymbolIdx>, &'s str)>,
}

/// Where walked code sits: the symbol its calls belong to, the function whose locals its
/// declarations are (`None` at package level), and whether the walk takes the types it meets
/// (off where they were taken with a better enclosing symbol: a type declaration's own
/// types, a package var's or const's declared type).
#[derive(Clone, Copy)]
struct Ctx {
    enclosing: Option<SymbolIdx>,
    scope: Option<SymbolIdx>,
    types: bool,
}

const MODULE: Ctx = Ctx { enclosing: None, scope: None, types: true };

impl Ctx {
    fn at(enclosing: Option<SymbolIdx>, scope: Option<SymbolIdx>) -> Ctx {
        Ctx { enclosing, scope, types: true }
    }

    fn without_types(self) -> Ctx {
        Ctx { types: false, ..self }
    }
}

impl<'s> Extractor<'s> {
    fn text(&self, node: Node<'_>) -> &'s str {
        text(node, self.src)
    }
}

/// The non-comment nodes of `children` (a declaration group, a struct or interface body), each
/// with the comments directly above it (its doc comment candidates).
fn with_docs<'t>(
    children: impl Iterator<Item = Node<'t>>,
    comment: u16,
) -> Vec<(Node<'t>, Vec<Node<'t>>)> {
    let mut run = CommentRun::default();
    let mut out = Vec::new();
    for child in children {
        if child.kind_id() == comment {
            run.add_comment(child);
            continue;
        }
        let docs = run.take(child);
        run.finish(child);
        out.push((child, docs));
    }
    out
}

/// The comments seen among a node's children since the last non-comment child, to find the
/// doc comment of the next declaration without asking tree-sitter for previous siblings.
#[derive(Default)]
struct CommentRun<'t> {
    comments: Vec<Node<'t>>,
    /// Last row of the previous non-comment sibling, to tell trailing comments apart.
    prev_end_row: Option<usize>,
}

impl<'t> CommentRun<'t> {
    fn add_comment(&mut self, c: Node<'t>) {
        if self.comments.is_empty() && self.prev_end_row == Some(c.start_position().row) {
            // `x := 1 // note`: trails the previous declaration, documents nothing below.
            return;
        }
        self.comments.push(c);
    }

    /// The comments directly above `node` (no blank line between), outermost first; clears the
    /// run.
    fn take(&mut self, node: Node<'t>) -> Vec<Node<'t>> {
        let mut next_row = node.start_position().row;
        let mut first = self.comments.len();
        for (i, c) in self.comments.iter().enumerate().rev() {
            if c.end_position().row + 1 < next_row {
                break;
            }
            next_row = c.start_position().row;
            first = i;
        }

        if first == 0 {
            std::mem::take(&mut self.comments)
        } else {
            let out = self.comments.split_off(first);
            self.comments.clear();
            out
        }
    }

    fn finish(&mut self, node: Node<'t>) {
        self.comments.clear();
        self.prev_end_row = Some(node.end_position().row);
    }
}

/// Whether the cursor is on a named node under `field` (a grammar field can also tag the `,`
/// between names, as in `const a, b = 1, 2`).
fn at_field(c: &tree_sitter::TreeCursor<'_>, field: u16) -> bool {
    c.field_id().is_some_and(|id| id.get() == field) && c.node().is_named()
}

/// Whether `name` is one of Go's predeclared types (`int`, `error`, `any`...), which no
/// declaration of the workspace can be.
pub fn is_predeclared_type(name: &str) -> bool {
    PREDECLARED_TYPES.contains(&name)
}

/// A byte that may start a name (ASCII letters, `_`, any byte of a UTF-8 sequence).
fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

/// A byte that may end a name (ASCII letters, digits, `_`, any byte of a UTF-8 sequence).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

fn is_exported(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

fn has_child_kind(node: Node<'_>, kind: u16) -> bool {
    child_of_kind(node, kind).is_some()
}

fn child_of_kind(node: Node<'_>, kind: u16) -> Option<Node<'_>> {
    let mut c = node.walk();

    node.children(&mut c).find(|n| n.kind_id() == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A misspelt name in the id table or a kind list would silently never match: every
    /// name must be the grammar's.
    #[test]
    fn every_grammar_name_exists() {
        let go: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
        let missing = crate::grammar::missing(GoIds::NAMES, std::slice::from_ref(&go));
        assert_eq!(missing, Vec::<&str>::new());
        for kind in KIND_LISTS.iter().flat_map(|t| t.iter()) {
            assert_ne!(go.id_for_node_kind(kind, true), 0, "`{kind}` is no Go node kind");
        }
    }
}
