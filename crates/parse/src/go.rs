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

use crate::Provider;
use crate::facts::*;
use crate::lang::{Capability, Language};
use crate::util::{
    clean_comments, count_errors, end_line, signature, start_col, start_line, text, to_u32,
};
use codegraph_schema::NodeKind;
use std::collections::HashSet;
use std::sync::OnceLock;
use tree_sitter::{Node, Tree};

pub struct GoProvider;

pub static GO: GoProvider = GoProvider;

impl Provider for GoProvider {
    fn language(&self) -> Language {
        Language::Go
    }

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
        let bucket = seen.entry((a.enclosing, a.write, a.name.clone())).or_default();
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

/// Declares the node-kind and field ids the extractor compares against, resolved by name once.
macro_rules! ids {
    (
        kinds { $($k:ident = $kn:literal),* $(,)? }
        anon { $($a:ident = $an:literal),* $(,)? }
        fields { $($f:ident = $fname:literal),* $(,)? }
    ) => {
        struct Kinds {
            $($k: u16,)*
            $($a: u16,)*
            $($f: u16,)*
            /// Per kind id: whether [`Extractor::walk`] looks inside (see [`NO_CALLS_INSIDE`]
            /// and [`NOTHING_INSIDE_WITHOUT_PAREN`]).
            inside: Vec<Inside>,
            /// Per kind id: a node whose direct values [`Extractor::value_refs`] reads
            /// ([`VALUE_CONTAINERS`]).
            value_container: Vec<bool>,
            /// Per kind id: the root of a type expression ([`TYPE_ROOTS`]).
            type_root: Vec<bool>,
        }

        fn kinds() -> &'static Kinds {
            static KINDS: OnceLock<Kinds> = OnceLock::new();
            KINDS.get_or_init(|| {
                let lang: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
                let count = lang.node_kind_count();
                // The ids of a list's kinds; id 0 is "end", what an unknown name resolves to:
                // never marked.
                let ids = |list: &'static [&'static str]| {
                    list.iter()
                        .map(|kind| usize::from(lang.id_for_node_kind(kind, true)))
                        .filter(move |&id| id != 0 && id < count)
                };
                let mut inside = vec![Inside::Always; count];
                for (list, class) in [
                    (NO_CALLS_INSIDE, Inside::Never),
                    (NOTHING_INSIDE_WITHOUT_PAREN, Inside::IfParen),
                ] {
                    ids(list).for_each(|id| inside[id] = class);
                }
                let table = |list: &'static [&'static str]| {
                    let mut t = vec![false; count];
                    ids(list).for_each(|id| t[id] = true);
                    t
                };
                Kinds {
                    value_container: table(VALUE_CONTAINERS),
                    type_root: table(TYPE_ROOTS),
                    $($k: lang.id_for_node_kind($kn, true),)*
                    $($a: lang.id_for_node_kind($an, false),)*
                    // 0 is never a field id, so an unknown field simply never matches.
                    $($f: lang.field_id_for_name($fname).map_or(0, |f| f.get()),)*
                    inside,
                }
            })
        }
    };
}

ids! {
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

    // ----- declarations -------------------------------------------------------------------

    /// The top-level declarations, in order. Descends into ERROR nodes (iteratively), so a
    /// syntax error does not hide the declarations it swallowed.
    fn top_level(&mut self, root: Node<'_>) {
        let k = self.k;
        let mut cursor = root.walk();
        if !cursor.goto_first_child() {
            return;
        }
        // Comment run per open level (the root's children, then ERROR children).
        let mut runs: Vec<CommentRun<'_>> = vec![CommentRun::default()];
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            let mut descend = false;
            if let Some(run) = runs.last_mut() {
                if kind == k.comment {
                    // `//go:build EXPR` before the package clause: the file's constraint.
                    if self.facts.package.is_none()
                        && self.facts.build_constraint.is_none()
                        && let Some(expr) = self.text(node).strip_prefix("//go:build ")
                    {
                        self.facts.build_constraint = Some(expr.trim().to_string());
                    }
                    run.add_comment(node);
                } else {
                    let docs = run.take(node);
                    if kind == k.package_clause {
                        self.package(node);
                    } else if kind == k.import_declaration {
                        self.imports(node);
                    } else if kind == k.function_declaration || kind == k.method_declaration {
                        self.function(node, &docs);
                    } else if kind == k.type_declaration {
                        self.type_decl(node, &docs);
                    } else if kind == k.const_declaration || kind == k.var_declaration {
                        self.value_decl(node, &docs);
                    } else if node.is_error() {
                        descend = true;
                    } else {
                        self.walk(node, MODULE);
                    }
                    run.finish(node);
                }
            }
            if descend && cursor.goto_first_child() {
                runs.push(CommentRun::default());
                continue;
            }
            while !cursor.goto_next_sibling() {
                if runs.len() <= 1 || !cursor.goto_parent() {
                    return;
                }
                runs.pop();
            }
        }
    }

    fn package(&mut self, node: Node<'_>) {
        let k = self.k;
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            if child.kind_id() == k.package_identifier {
                self.facts.package = Some(self.text(child).to_string());
            }
        }
    }

    fn imports(&mut self, decl: Node<'_>) {
        let k = self.k;
        let mut c = decl.walk();
        for child in decl.named_children(&mut c) {
            if child.kind_id() == k.import_spec {
                self.import_spec(child);
            } else if child.kind_id() == k.import_spec_list {
                let mut c2 = child.walk();
                for spec in child.named_children(&mut c2) {
                    if spec.kind_id() == k.import_spec {
                        self.import_spec(spec);
                    }
                }
            }
        }
    }

    fn import_spec(&mut self, spec: Node<'_>) {
        let k = self.k;
        let Some(path) = spec.child_by_field_id(k.f_path) else {
            return;
        };
        let raw = self.text(path);
        let source =
            raw.strip_prefix(['"', '`']).and_then(|s| s.strip_suffix(['"', '`'])).unwrap_or(raw);
        let local = spec.child_by_field_id(k.f_name).map(|n| self.text(n).to_string());
        self.facts.imports.push(Import {
            source: source.to_string(),
            kind: ImportKind::Go,
            bindings: vec![ImportBinding { imported: Imported::Namespace, local }],
            line: start_line(spec),
        });
    }

    fn push_symbol(&mut self, sym: Symbol) -> SymbolIdx {
        let idx = to_u32(self.facts.symbols.len());
        self.facts.symbols.push(sym);
        idx
    }

    /// `func F` / `func (r *T) M`: the symbol, parameter / receiver / result hints, then the
    /// calls of the whole declaration.
    fn function(&mut self, node: Node<'_>, docs: &[Node<'_>]) {
        let k = self.k;
        let Some(name_node) = node.child_by_field_id(k.f_name) else {
            self.walk(node, MODULE);
            return;
        };
        let name = self.text(name_node);
        let receiver = node.child_by_field_id(k.f_receiver);
        // Type parameters of the function, and those a generic receiver `T[K]` introduces:
        // hints naming them say nothing about a declared type.
        let mut tparams: Vec<&'s str> = Vec::new();
        let mut recv_type: Option<&str> = None;
        let mut recv_param: Option<(Node<'_>, Node<'_>)> = None;
        if let Some(list) = node.child_by_field_id(k.f_type_parameters) {
            self.type_param_names(list, &mut tparams);
        }
        if let Some(recv) = receiver {
            let mut c = recv.walk();
            if let Some(param) =
                recv.named_children(&mut c).find(|n| n.kind_id() == k.parameter_declaration)
                && let Some(ty) = param.child_by_field_id(k.f_type)
            {
                recv_type = self.receiver_base(ty, &mut tparams);
                recv_param = Some((param, ty));
            }
        }
        let (kind, qualified_name) = match (receiver, recv_type) {
            (Some(_), Some(t)) => (NodeKind::Method, format!("{t}.{name}")),
            (Some(_), None) => (NodeKind::Method, name.to_string()),
            (None, _) => (NodeKind::Function, name.to_string()),
        };
        let body = node.child_by_field_id(k.f_body);
        let idx = self.push_symbol(Symbol {
            kind,
            name: name.to_string(),
            qualified_name,
            parent: None,
            start_line: start_line(node),
            end_line: end_line(node),
            signature: signature(node, body, self.src),
            doc: self.doc(docs),
            exported: is_exported(name),
        });
        let scope = Some(idx);
        self.locals.clear();
        for list in
            [receiver, node.child_by_field_id(k.f_parameters), node.child_by_field_id(k.f_result)]
                .into_iter()
                .flatten()
        {
            self.declare_params(list);
        }
        self.tparams = tparams;
        if let (Some((param, _)), Some(t)) = (recv_param, recv_type) {
            self.param_names(param, |ex, n| {
                ex.hint(scope, n, HintSource::Annotation(t.to_string()));
            });
        }
        if let Some(params) = node.child_by_field_id(k.f_parameters) {
            self.param_hints(params, scope);
        }
        if let Some(result) = node.child_by_field_id(k.f_result)
            && let Some(t) = self.result_type(result)
        {
            self.facts.type_hints.push(TypeHint {
                scope,
                name: String::new(),
                source: HintSource::Return(t),
                line: start_line(result),
                visible: None,
            });
            // Named results are locals too.
            if result.kind_id() == k.parameter_list {
                self.param_hints(result, scope);
            }
        }
        self.walk(node, Ctx::at(scope, scope));
        self.tparams.clear();
        self.locals.clear();
    }

    /// The base type name of a receiver type (`*T[K]` -> `T`), adding `K` to `tparams`.
    fn receiver_base(&self, mut ty: Node<'_>, tparams: &mut Vec<&'s str>) -> Option<&'s str> {
        let k = self.k;
        loop {
            let kind = ty.kind_id();
            if kind == k.pointer_type || kind == k.parenthesized_type {
                ty = ty.named_child(0)?;
            } else if kind == k.generic_type {
                let mut c = ty.walk();
                for arg in ty.named_children(&mut c) {
                    if arg.kind_id() == k.type_arguments {
                        let mut c2 = arg.walk();
                        for elem in arg.named_children(&mut c2) {
                            if let Some(id) = elem.named_child(0)
                                && id.kind_id() == k.type_identifier
                            {
                                tparams.push(self.text(id));
                            }
                        }
                    }
                }
                ty = ty.child_by_field_id(k.f_type)?;
            } else if kind == k.type_identifier {
                return Some(self.text(ty));
            } else {
                return None;
            }
        }
    }

    fn type_param_names(&self, list: Node<'_>, out: &mut Vec<&'s str>) {
        let k = self.k;
        let mut c = list.walk();
        for decl in list.named_children(&mut c) {
            if decl.kind_id() == k.type_parameter_declaration {
                self.field_children(decl, k.f_name, |n| out.push(text(n, self.src)));
            }
        }
    }

    /// Calls `f` with each child of `node` under field `field`.
    fn field_children<'t>(&self, node: Node<'t>, field: u16, mut f: impl FnMut(Node<'t>)) {
        let mut c = node.walk();
        if !c.goto_first_child() {
            return;
        }
        loop {
            if at_field(&c, field) {
                f(c.node());
            }
            if !c.goto_next_sibling() {
                break;
            }
        }
    }

    /// Calls `f` with each declared (non-blank) name of a parameter or spec node.
    fn param_names(&mut self, decl: Node<'_>, mut f: impl FnMut(&mut Self, Node<'_>)) {
        let field = self.k.f_name;
        let mut c = decl.walk();
        if !c.goto_first_child() {
            return;
        }
        loop {
            if at_field(&c, field) {
                let n = c.node();
                if self.text(n) != "_" {
                    f(self, n);
                }
            }
            if !c.goto_next_sibling() {
                break;
            }
        }
    }

    fn param_hints(&mut self, params: Node<'_>, scope: Option<SymbolIdx>) {
        let k = self.k;
        let mut c = params.walk();
        for param in params.named_children(&mut c) {
            let kind = param.kind_id();
            if kind != k.parameter_declaration && kind != k.variadic_parameter_declaration {
                continue;
            }
            let Some(t) = param.child_by_field_id(k.f_type).and_then(|ty| self.type_name(ty))
            else {
                continue;
            };
            self.param_names(param, |ex, n| {
                ex.hint(scope, n, HintSource::Annotation(t.clone()));
            });
        }
    }

    /// The first result type of a signature (`T`, `(T, error)`, `(n T, err error)`).
    fn result_type(&self, result: Node<'_>) -> Option<String> {
        let k = self.k;
        if result.kind_id() != k.parameter_list {
            return self.type_name(result);
        }
        let mut c = result.walk();
        let first = result.named_children(&mut c).find(|n| {
            n.kind_id() == k.parameter_declaration
                || n.kind_id() == k.variadic_parameter_declaration
        })?;
        self.type_name(first.child_by_field_id(k.f_type)?)
    }

    fn hint(&mut self, scope: Option<SymbolIdx>, name: Node<'_>, source: HintSource) {
        self.facts.type_hints.push(TypeHint {
            scope,
            name: self.text(name).to_string(),
            source,
            line: start_line(name),
            visible: self.visibility(name),
        });
    }

    /// Where a local bound at `name` is visible: to the end of the innermost block, `case`,
    /// `for` / `if` / `switch` / `select` statement or func literal the walk is inside (Go's
    /// scopes: a func literal's parameter or a `:=` in an inner block shadows an outer name
    /// only there). `None` outside the walk: a function's own parameters and receiver (the
    /// whole function). Kept by the walk as a stack, not by `Node::parent`, which descends
    /// from the root on every call (that cost 4 s of the Go standard library's index).
    fn visibility(&self, name: Node<'_>) -> Option<Visibility> {
        let &(_, end_line, end_col) = self.scopes.last()?;
        Some(Visibility {
            col: u32::try_from(name.start_position().column + 1).unwrap_or(u32::MAX),
            end_line,
            end_col,
        })
    }

    fn is_scope(&self, kind: u16) -> bool {
        let k = self.k;
        kind == k.func_literal
            || kind == k.block
            || kind == k.for_statement
            || kind == k.if_statement
            || kind == k.expression_switch_statement
            || kind == k.type_switch_statement
            || kind == k.select_statement
            || kind == k.expression_case
            || kind == k.default_case
            || kind == k.type_case
            || kind == k.communication_case
    }

    /// `type X ...` / `type ( ... )`.
    fn type_decl(&mut self, decl: Node<'_>, docs: &[Node<'_>]) {
        let k = self.k;
        let grouped = has_child_kind(decl, k.lparen);
        let group_doc = if grouped { self.doc(docs) } else { None };
        let mut c = decl.walk();
        for (spec, spec_docs) in with_docs(decl.children(&mut c), k.comment) {
            let kind = spec.kind_id();
            if kind != k.type_spec && kind != k.type_alias {
                continue;
            }
            let (outer, doc) = if grouped {
                (spec, self.doc(&spec_docs).or_else(|| group_doc.clone()))
            } else {
                (decl, self.doc(docs))
            };
            self.type_spec(spec, kind == k.type_alias, outer, doc);
        }
        // Calls inside types (array lengths); the types were taken per spec above.
        self.walk(decl, MODULE.without_types());
    }

    fn type_spec(&mut self, spec: Node<'_>, alias: bool, outer: Node<'_>, doc: Option<String>) {
        let k = self.k;
        let Some(name_node) = spec.child_by_field_id(k.f_name) else {
            return;
        };
        let name = self.text(name_node);
        let ty = spec.child_by_field_id(k.f_type);
        let ty_kind = ty.map_or(0, |t| t.kind_id());
        let (kind, body) = if alias {
            (NodeKind::TypeAlias, None)
        } else if ty_kind == k.struct_type {
            let list = ty.and_then(|t| child_of_kind(t, k.field_declaration_list));
            (NodeKind::Struct, list)
        } else if ty_kind == k.interface_type {
            (NodeKind::Interface, ty.and_then(|t| child_of_kind(t, k.lbrace)))
        } else {
            (NodeKind::TypeAlias, None)
        };
        let idx = self.push_symbol(Symbol {
            kind,
            name: name.to_string(),
            qualified_name: name.to_string(),
            parent: None,
            start_line: start_line(outer),
            end_line: end_line(outer),
            signature: signature(outer, body, self.src),
            doc,
            exported: is_exported(name),
        });
        let Some(ty) = ty else { return };
        let mut tparams: Vec<&'s str> = Vec::new();
        if let Some(list) = spec.child_by_field_id(k.f_type_parameters) {
            self.type_param_names(list, &mut tparams);
        }
        self.tparams = tparams;
        // What the type is made of (field types, method signatures, the underlying or aliased
        // type, constraints): references of the type itself (`Server` -> `Handler`).
        let ctx = Ctx::at(Some(idx), None);
        self.type_refs(ty, ctx);
        if let Some(list) = spec.child_by_field_id(k.f_type_parameters) {
            self.type_refs(list, ctx);
        }
        match kind {
            NodeKind::Struct => {
                if let Some(list) = body {
                    self.struct_fields(list, idx, name);
                }
            }
            NodeKind::Interface => self.interface_elems(ty, idx, name),
            _ => {}
        }
        self.tparams.clear();
    }

    fn struct_fields(&mut self, list: Node<'_>, owner: SymbolIdx, owner_name: &str) {
        let k = self.k;
        let mut c = list.walk();
        for (field, docs) in with_docs(list.named_children(&mut c), k.comment) {
            if field.kind_id() != k.field_declaration {
                continue;
            }
            let doc = self.doc(&docs);
            let sig = signature(field, None, self.src);
            let ty = field.child_by_field_id(k.f_type);
            let mut named = false;
            let mut c2 = field.walk();
            if c2.goto_first_child() {
                loop {
                    if at_field(&c2, k.f_name) {
                        named = true;
                        let n = c2.node();
                        let fname = self.text(n);
                        self.member(
                            NodeKind::Property,
                            fname,
                            owner,
                            owner_name,
                            field,
                            sig.clone(),
                            doc.clone(),
                        );
                        if let Some(t) = ty.and_then(|t| self.type_name(t)) {
                            self.hint(Some(owner), n, HintSource::Annotation(t));
                        }
                    }
                    if !c2.goto_next_sibling() {
                        break;
                    }
                }
            }
            if named {
                continue;
            }
            // Embedded field: `T`, `*T`, `pkg.T`, `G[int]`.
            let Some(ty) = ty else { continue };
            let Some(target) = self.type_name(ty) else {
                continue;
            };
            let short = target.rsplit('.').next().unwrap_or(&target).to_string();
            self.member(NodeKind::Property, &short, owner, owner_name, field, sig, doc);
            self.facts.type_hints.push(TypeHint {
                scope: Some(owner),
                name: short,
                source: HintSource::Annotation(target.clone()),
                line: start_line(field),
                visible: None,
            });
            self.facts.heritage.push(Heritage {
                symbol: owner,
                kind: HeritageKind::Embeds,
                target,
            });
        }
    }

    fn interface_elems(&mut self, iface: Node<'_>, owner: SymbolIdx, owner_name: &str) {
        let k = self.k;
        let mut c = iface.walk();
        for (elem, docs) in with_docs(iface.named_children(&mut c), k.comment) {
            let kind = elem.kind_id();
            if kind == k.method_elem {
                let Some(name_node) = elem.child_by_field_id(k.f_name) else {
                    continue;
                };
                let doc = self.doc(&docs);
                let sig = signature(elem, None, self.src);
                let idx = self.member(
                    NodeKind::Method,
                    self.text(name_node),
                    owner,
                    owner_name,
                    elem,
                    sig,
                    doc,
                );
                if let Some(result) = elem.child_by_field_id(k.f_result)
                    && let Some(t) = self.result_type(result)
                {
                    self.facts.type_hints.push(TypeHint {
                        scope: Some(idx),
                        name: String::new(),
                        source: HintSource::Return(t),
                        line: start_line(result),
                        visible: None,
                    });
                }
            } else if kind == k.type_elem && elem.named_child_count() == 1 {
                // An embedded interface (`io.Reader`), not a union or `~T` constraint.
                let Some(ty) = elem.named_child(0) else {
                    continue;
                };
                let tk = ty.kind_id();
                if tk != k.type_identifier && tk != k.qualified_type && tk != k.generic_type {
                    continue;
                }
                if let Some(target) = self.type_name(ty) {
                    self.facts.heritage.push(Heritage {
                        symbol: owner,
                        kind: HeritageKind::Extends,
                        target,
                    });
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn member(
        &mut self,
        kind: NodeKind,
        name: &str,
        owner: SymbolIdx,
        owner_name: &str,
        node: Node<'_>,
        signature: String,
        doc: Option<String>,
    ) -> SymbolIdx {
        self.push_symbol(Symbol {
            kind,
            name: name.to_string(),
            qualified_name: format!("{owner_name}.{name}"),
            parent: Some(owner),
            start_line: start_line(node),
            end_line: end_line(node),
            signature,
            doc,
            exported: is_exported(name),
        })
    }

    /// Package-level `const` / `var` declarations, single or grouped.
    fn value_decl(&mut self, decl: Node<'_>, docs: &[Node<'_>]) {
        let k = self.k;
        let is_var = decl.kind_id() == k.var_declaration;
        // `var ( ... )` wraps its specs in a var_spec_list; `const ( ... )` does not.
        let (container, grouped) = match child_of_kind(decl, k.var_spec_list) {
            Some(list) => (list, true),
            None => (decl, has_child_kind(decl, k.lparen)),
        };
        let group_doc = if grouped { self.doc(docs) } else { None };
        let mut c = container.walk();
        for (spec, spec_docs) in with_docs(container.children(&mut c), k.comment) {
            let kind = spec.kind_id();
            if kind != k.var_spec && kind != k.const_spec {
                if !spec.is_named() {
                    continue;
                }
                self.walk(spec, MODULE);
                continue;
            }
            let (outer, doc) = if grouped {
                (spec, self.doc(&spec_docs).or_else(|| group_doc.clone()))
            } else {
                (decl, self.doc(docs))
            };
            let sig = signature(outer, None, self.src);
            let sym_kind = if is_var { NodeKind::Variable } else { NodeKind::Constant };
            // The oracle attributes a var spec's initialiser calls to its first name.
            let mut first: Option<Option<SymbolIdx>> = None;
            let mut c2 = spec.walk();
            if c2.goto_first_child() {
                loop {
                    if at_field(&c2, k.f_name) {
                        let n = c2.node();
                        let name = self.text(n);
                        if name == "_" {
                            first.get_or_insert(None);
                        } else {
                            let idx = self.push_symbol(Symbol {
                                kind: sym_kind,
                                name: name.to_string(),
                                qualified_name: name.to_string(),
                                parent: None,
                                start_line: start_line(outer),
                                end_line: end_line(outer),
                                signature: sig.clone(),
                                doc: doc.clone(),
                                exported: is_exported(name),
                            });
                            first.get_or_insert(Some(idx));
                        }
                    }
                    if !c2.goto_next_sibling() {
                        break;
                    }
                }
            }
            // The declared type, and the names the value reads, are the first name's.
            let ctx = Ctx::at(first.flatten(), None);
            if let Some(ty) = spec.child_by_field_id(k.f_type) {
                self.type_refs(ty, ctx);
            }
            self.value_refs(spec, ctx);
            if is_var {
                self.var_spec_hints(spec, None);
                if let Some(value) = spec.child_by_field_id(k.f_value) {
                    self.walk(value, ctx);
                }
                if let Some(ty) = spec.child_by_field_id(k.f_type) {
                    self.walk(ty, MODULE.without_types());
                }
            } else {
                self.walk(spec, ctx.without_types());
            }
        }
    }

    // ----- hints ---------------------------------------------------------------------------

    /// `var x T` -> Annotation; `var x = T{}` / `var x = F()` -> Construct / CallResult.
    fn var_spec_hints(&mut self, spec: Node<'_>, scope: Option<SymbolIdx>) {
        let k = self.k;
        if let Some(ty) = spec.child_by_field_id(k.f_type) {
            if let Some(t) = self.type_name(ty) {
                self.param_names(spec, |ex, n| {
                    ex.hint(scope, n, HintSource::Annotation(t.clone()));
                });
            }
            return;
        }
        if let Some(values) = spec.child_by_field_id(k.f_value) {
            let mut names: Vec<Node<'_>> = Vec::new();
            self.field_children(spec, k.f_name, |n| names.push(n));
            self.assign_hints(&names, values, scope);
        }
    }

    /// Pairs names with values (`a, b := x, y`), or gives a single multi-valued call's result
    /// to the first name (`x, err := NewT()`).
    fn assign_hints(&mut self, names: &[Node<'_>], values: Node<'_>, scope: Option<SymbolIdx>) {
        let count = values.named_child_count();
        let mut c = values.walk();
        let mut i = 0;
        for value in values.named_children(&mut c) {
            if value.kind_id() == self.k.comment {
                continue;
            }
            let Some(&name) = names.get(i) else { break };
            i += 1;
            if name.kind_id() != self.k.identifier || self.text(name) == "_" {
                continue;
            }
            if let Some(source) = self.value_hint(value) {
                self.hint(scope, name, source);
            }
            if count == 1 {
                break;
            }
        }
    }

    fn value_hint(&self, value: Node<'_>) -> Option<HintSource> {
        let k = self.k;
        let kind = value.kind_id();
        if kind == k.composite_literal {
            let ty = value.child_by_field_id(k.f_type)?;
            return self.type_name(ty).map(HintSource::Construct);
        }
        if kind == k.unary_expression {
            let op = value.child_by_field_id(k.f_operator)?;
            let operand = value.child_by_field_id(k.f_operand)?;
            if op.kind_id() != k.amp || operand.kind_id() != k.composite_literal {
                return None;
            }
            return self.value_hint(operand);
        }
        if kind == k.call_expression {
            let function = value.child_by_field_id(k.f_function)?;
            if function.kind_id() == k.identifier && self.text(function) == "new" {
                let args = value.child_by_field_id(k.f_arguments)?;
                let ty = args.named_child(0)?;
                return self.type_name(ty).map(HintSource::Construct);
            }
            return self.callee(function).map(|(c, _)| HintSource::CallResult(c));
        }
        if kind == k.type_conversion_expression {
            return self.conversion_callee(value).map(|(c, _)| HintSource::CallResult(c));
        }
        if kind == k.type_assertion_expression {
            let ty = value.child_by_field_id(k.f_type)?;
            return self.type_name(ty).map(HintSource::Annotation);
        }
        self.value_path(value).map(HintSource::Value)
    }

    /// `y`, `a.b`, `a.b[i]`, `*a.b`, `&a.b`, `(a.b)` as a path whose type the resolver knows.
    fn value_path(&self, mut value: Node<'_>) -> Option<Receiver> {
        let k = self.k;
        loop {
            let kind = value.kind_id();
            if kind == k.parenthesized_expression {
                value = value.named_child(0)?;
            } else if kind == k.index_expression {
                value = value.child_by_field_id(k.f_operand)?;
            } else if kind == k.unary_expression {
                let op = value.child_by_field_id(k.f_operator)?;
                if op.kind_id() != k.amp && op.kind_id() != k.star {
                    return None;
                }
                value = value.child_by_field_id(k.f_operand)?;
            } else if kind == k.identifier || kind == k.selector_expression {
                return match self.receiver(value) {
                    Ok(r @ Receiver::Path(_)) => Some(r),
                    _ => None,
                };
            } else {
                return None;
            }
        }
    }

    /// `for _, x := range a.b`: `x` holds an element of `a.b`.
    fn range_hints(&mut self, clause: Node<'_>, scope: Option<SymbolIdx>) {
        let k = self.k;
        let (Some(left), Some(right)) =
            (clause.child_by_field_id(k.f_left), clause.child_by_field_id(k.f_right))
        else {
            return;
        };
        let mut c = left.walk();
        let names: Vec<Node<'_>> = left.named_children(&mut c).collect();
        let [_, name] = names.as_slice() else { return };
        if name.kind_id() != k.identifier || self.text(*name) == "_" {
            return;
        }
        if let Some(path) = self.value_path(right) {
            self.hint(scope, *name, HintSource::Value(path));
        }
    }

    /// `switch v := x.(type) { case *T: ... }`: in a single-type case, `v` is a `T` (the hint
    /// sits on the case line); after the switch, `v` is `x` again.
    fn type_switch_hints(&mut self, switch: Node<'_>, scope: Option<SymbolIdx>) {
        let k = self.k;
        let Some(alias) = switch.child_by_field_id(k.f_alias) else { return };
        let Some(name) = alias.named_child(0) else { return };
        if name.kind_id() != k.identifier {
            return;
        }
        let mut c = switch.walk();
        for case in switch.named_children(&mut c) {
            if case.kind_id() != k.type_case {
                continue;
            }
            let mut types: Vec<Node<'_>> = Vec::new();
            self.field_children(case, k.f_type, |t| types.push(t));
            let [ty] = types.as_slice() else { continue };
            if let Some(t) = self.type_name(*ty) {
                self.facts.type_hints.push(TypeHint {
                    scope,
                    name: self.text(name).to_string(),
                    source: HintSource::Annotation(t),
                    line: start_line(case),
                    visible: None,
                });
            }
        }
        // After the switch, a shadowed name is the outer one again: repeat the hint in effect
        // before the switch, or say the type is unknown.
        let name = self.text(name);
        let start = start_line(switch);
        let before = self
            .facts
            .type_hints
            .iter()
            .rev()
            .find(|h| h.scope == scope && h.name == name && h.line < start)
            .map_or(HintSource::Value(Receiver::Other), |h| h.source.clone());
        self.facts.type_hints.push(TypeHint {
            scope,
            name: name.to_string(),
            source: before,
            line: end_line(switch) + 1,
            visible: None,
        });
    }

    /// A type as a hint name: `*T`, `[]T`, `[N]T`, `G[T]`, `(T)` -> `T`; `pkg.T` kept whole.
    /// `None` for map / func / chan / struct / interface types and type parameters.
    fn type_name(&self, mut ty: Node<'_>) -> Option<String> {
        let k = self.k;
        loop {
            let kind = ty.kind_id();
            if kind == k.type_identifier || kind == k.identifier {
                let t = self.text(ty);
                return (!self.tparams.contains(&t)).then(|| t.to_string());
            } else if kind == k.qualified_type {
                let pkg = ty.child_by_field_id(k.f_package)?;
                let name = ty.child_by_field_id(k.f_name)?;
                return Some(format!("{}.{}", self.text(pkg), self.text(name)));
            } else if kind == k.selector_expression {
                let pkg = ty.child_by_field_id(k.f_operand)?;
                let name = ty.child_by_field_id(k.f_field)?;
                if pkg.kind_id() != k.identifier {
                    return None;
                }
                return Some(format!("{}.{}", self.text(pkg), self.text(name)));
            } else if kind == k.pointer_type || kind == k.parenthesized_type {
                ty = ty.named_child(0)?;
            } else if kind == k.slice_type
                || kind == k.array_type
                || kind == k.implicit_length_array_type
            {
                ty = ty.child_by_field_id(k.f_element)?;
            } else if kind == k.generic_type {
                ty = ty.child_by_field_id(k.f_type)?;
            } else {
                return None;
            }
        }
    }

    // ----- calls ---------------------------------------------------------------------------

    /// Walks a subtree once for call sites and (inside functions) local declaration hints.
    fn walk(&mut self, root: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let mut cursor = root.walk();
        let mut depth = 0usize;
        let base = self.scopes.len();
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            // Leave the scopes of finished siblings and subtrees; enter this node's.
            while self.scopes.len() > base && self.scopes.last().is_some_and(|s| s.0 >= depth) {
                self.scopes.pop();
            }
            if self.is_scope(kind) {
                let end = node.end_position();
                let line = u32::try_from(end.row + 1).unwrap_or(u32::MAX);
                let col = u32::try_from(end.column).unwrap_or(u32::MAX);
                self.scopes.push((depth, line, col));
            }
            if k.value_container.get(usize::from(kind)).copied().unwrap_or(false)
                || (ctx.scope.is_some() && (kind == k.var_spec || kind == k.const_spec))
            {
                self.value_refs(node, ctx);
            }
            if kind == k.composite_literal {
                self.literal_keys(node, ctx);
            }
            if ctx.types
                && k.type_root.get(usize::from(kind)).copied().unwrap_or(false)
                && !matches!(cursor.field_id(), Some(f) if f.get() == k.f_name || f.get() == k.f_receiver)
            {
                // A type where code names one: a signature, `var x T`, `T{}`, `x.(T)`,
                // `T(x)`, `case *T:`, `F[T]`. Not a declaration's own name, not a method's
                // receiver (every method would refer to its type).
                self.type_refs(node, ctx);
            }
            if kind == k.call_expression {
                if let Some(function) = node.child_by_field_id(k.f_function)
                    && let Some((callee, name)) = self.callee(function)
                {
                    self.call(callee, name, ctx);
                }
            } else if kind == k.type_conversion_expression {
                if let Some((callee, name)) = self.conversion_callee(node) {
                    self.call(callee, name, ctx);
                }
            } else if kind == k.selector_expression && ctx.scope.is_some() {
                self.access(node, ctx);
            } else if ctx.scope.is_some() {
                if kind == k.short_var_declaration {
                    if let (Some(left), Some(right)) =
                        (node.child_by_field_id(k.f_left), node.child_by_field_id(k.f_right))
                    {
                        let mut c = left.walk();
                        let names: Vec<Node<'_>> = left.named_children(&mut c).collect();
                        self.assign_hints(&names, right, ctx.scope);
                        self.declare(names);
                    }
                } else if kind == k.var_spec || kind == k.const_spec {
                    if kind == k.var_spec {
                        self.var_spec_hints(node, ctx.scope);
                    }
                    self.param_names(node, |ex, n| ex.declare([n]));
                } else if kind == k.range_clause {
                    self.range_hints(node, ctx.scope);
                    if let Some(left) = node.child_by_field_id(k.f_left) {
                        self.declare_children(left);
                    }
                } else if kind == k.type_switch_statement {
                    self.type_switch_hints(node, ctx.scope);
                    if let Some(alias) = node.child_by_field_id(k.f_alias) {
                        self.declare_children(alias);
                    }
                } else if kind == k.func_literal
                    && let Some(params) = node.child_by_field_id(k.f_parameters)
                {
                    // A function literal is transparent (its calls belong to the enclosing
                    // function), so its parameters are typed locals of that function from
                    // the literal's line on: `return func(c *Context) { c.Next() }`.
                    self.param_hints(params, ctx.scope);
                    self.declare_params(params);
                    if let Some(result) = node.child_by_field_id(k.f_result) {
                        self.declare_params(result);
                    }
                }
            }
            let look_inside = match k.inside.get(usize::from(kind)) {
                Some(Inside::Never) => false,
                // A selector holds a field read; one that is a whole selector was read above.
                Some(Inside::IfParen) if kind == k.selector_expression => self.has_paren(node),
                // In a function every name read counts (REFERS_TO constants and variables);
                // the big generated tables this skips are package-level.
                Some(Inside::IfParen) if ctx.scope.is_some() => true,
                Some(Inside::IfParen) => self.may_name_something(node),
                Some(Inside::Always) | None => true,
            };
            if look_inside && cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                if depth == 0 {
                    self.scopes.truncate(base);
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    self.scopes.truncate(base);
                    return;
                }
                depth -= 1;
            }
        }
    }

    /// Whether `node`'s text, outside string and rune literals, holds a `(`, a `.` (a call,
    /// or a selector that may read a field) or a name (a constant or variable read, `T{`);
    /// see [`NOTHING_INSIDE_WITHOUT_PAREN`]. The generated tables of numbers and strings this
    /// is for (`{0x0041, 0x005a, 1}`, `{"a", "b"}`) hold none: digits and letters inside a
    /// number do not start a name.
    fn may_name_something(&self, node: Node<'_>) -> bool {
        let Some(b) = self.src.as_bytes().get(node.start_byte()..node.end_byte()) else {
            return true;
        };
        let mut quote: Option<u8> = None;
        let mut prev = b' ';
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            match quote {
                Some(q) => {
                    if c == b'\\' && q != b'`' {
                        i += 1;
                    } else if c == q {
                        quote = None;
                    }
                }
                None => {
                    if c == b'"' || c == b'\'' || c == b'`' {
                        quote = Some(c);
                    } else if c == b'(' || c == b'.' || (is_name_start(c) && !is_name_byte(prev)) {
                        return true;
                    }
                }
            }
            prev = c;
            i += 1;
        }
        false
    }

    /// Whether `node`'s text holds a byte `hit` accepts (true when its range is not the text's).
    fn text_has(&self, node: Node<'_>, hit: impl Fn(u8) -> bool) -> bool {
        self.src
            .as_bytes()
            .get(node.start_byte()..node.end_byte())
            .is_none_or(|b| b.iter().any(|&c| hit(c)))
    }

    /// A selector that is not the function of a call: a field read (or written, on the left
    /// of an assignment or in `x.f++`), recorded with its receiver in a callee's shapes;
    /// resolution keeps those that name a struct field. Package members (`http.StatusOK`)
    /// come out too and resolve to no field.
    fn access(&mut self, node: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let parent = node.parent();
        if parent.is_some_and(|p| {
            p.kind_id() == k.call_expression
                && p.child_by_field_id(k.f_function).is_some_and(|f| f.id() == node.id())
        }) {
            return;
        }
        let Some((callee, name)) = self.callee(node) else { return };
        match &callee.receiver {
            Receiver::None | Receiver::Other => return,
            // `pkg.Name`: a package member, not a field (unless a local shadows the import,
            // which is rare enough to leave out).
            Receiver::Path(p) if p.len() == 1 && self.is_import_name(&p[0]) => return,
            _ => {}
        }
        let write = parent.is_some_and(|p| {
            let p = if p.kind() == "expression_list" { p.parent().unwrap_or(p) } else { p };
            (p.kind_id() == k.assignment_statement
                && p.child_by_field_id(k.f_left).is_some_and(|l| {
                    l.start_byte() <= node.start_byte() && node.end_byte() <= l.end_byte()
                }))
                || p.kind_id() == k.inc_statement
                || p.kind_id() == k.dec_statement
        });
        self.facts.accesses.push(FieldAccess {
            receiver: callee.receiver,
            name: callee.name,
            line: start_line(name),
            enclosing: ctx.enclosing,
            write,
        });
    }

    /// Whether `name` is the name an import of this file binds (its alias, or the last
    /// element of its path, which is the package name by convention).
    fn is_import_name(&mut self, name: &str) -> bool {
        // Imports precede every body in a Go file: their names are read once, at the first
        // selector of a body.
        let imports = &self.facts.imports;
        let names = self.import_names.get_or_insert_with(|| {
            imports
                .iter()
                .map(|i| match i.bindings.first().and_then(|b| b.local.clone()) {
                    Some(alias) => alias,
                    None => i.source.rsplit('/').next().unwrap_or(&i.source).to_string(),
                })
                .collect()
        });
        names.iter().any(|n| n == name)
    }

    /// Whether `node`'s text holds a `(` (see [`NOTHING_INSIDE_WITHOUT_PAREN`]).
    fn has_paren(&self, node: Node<'_>) -> bool {
        self.text_has(node, |c| c == b'(')
    }

    /// Names used as values at a container of values ([`VALUE_CONTAINERS`]): call arguments,
    /// composite literal elements (keyed or not), returned values, both sides of `=` and the
    /// right of `:=`, operands, indexes, conditions, `case` values, a `var` / `const` spec's
    /// values. Only bare names and package members are candidates (`less`, `maxLen`,
    /// `strings.Index`); the function's own locals are left out, and resolution keeps those
    /// that name a package-level function, method, constant, variable or type. One per
    /// (enclosing symbol, name). Looked at from the container, not per identifier, since
    /// asking a node for its parent costs a descent from the root.
    fn value_refs(&mut self, node: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let kind = node.kind_id();
        // (node, whether its named children are the values rather than the node itself)
        let parts: [Option<(Node<'_>, bool)>; 2] =
            if kind == k.short_var_declaration || kind == k.range_clause {
                [node.child_by_field_id(k.f_right).map(|n| (n, false)), None]
            } else if kind == k.assignment_statement {
                [
                    node.child_by_field_id(k.f_right).map(|n| (n, false)),
                    node.child_by_field_id(k.f_left).map(|n| (n, false)),
                ]
            } else if kind == k.return_statement {
                [node.named_child(0).map(|n| (n, false)), None]
            } else if kind == k.expression_case || kind == k.var_spec || kind == k.const_spec {
                [node.child_by_field_id(k.f_value).map(|n| (n, false)), None]
            } else {
                [Some((node, true)), None]
            };
        let mut items: Vec<Node<'_>> = Vec::new();
        for (part, children) in parts.into_iter().flatten() {
            if children || part.kind_id() == k.expression_list {
                let mut c = part.walk();
                items.extend(part.named_children(&mut c));
            } else {
                items.push(part);
            }
        }
        for item in items {
            // `{f}` and `{key: f}` hold the value in a literal_element.
            let value = if item.kind_id() == k.keyed_element {
                item.named_child(1).and_then(|v| v.named_child(0))
            } else if item.kind_id() == k.literal_element {
                item.named_child(0)
            } else {
                Some(item)
            };
            if let Some(v) = value {
                self.value_ref(v, ctx);
            }
        }
    }

    /// A value node that is a bare name or a package member (`maxLen`, `strings.Index`),
    /// recorded unless it is a local of the function or already recorded for the symbol.
    fn value_ref(&mut self, v: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let vk = v.kind_id();
        let callee = if vk == k.identifier {
            let name = self.text(v);
            if matches!(name, "nil" | "true" | "false" | "iota" | "_")
                || (ctx.scope.is_some() && self.locals.contains(name))
            {
                return;
            }
            Some((Callee { receiver: Receiver::None, name: name.to_string() }, v))
        } else if vk == k.selector_expression {
            // `pkg.F` only: `x.m` (a method value, or far more often a field) is already
            // an access, which resolution turns into REFERS_TO when it names a method.
            self.callee(v).filter(|(c, _)| {
                matches!(&c.receiver, Receiver::Path(p) if p.len() == 1 && self.is_import_name(&p[0]))
            })
        } else {
            None
        };
        let Some((callee, name)) = callee else { return };
        if !self.seen_values.insert((ctx.enclosing, self.text(v))) {
            return;
        }
        self.facts.value_refs.push(CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(name),
            col: start_col(name),
            enclosing: ctx.enclosing,
        });
    }

    /// The keys of a map, slice or array literal are values (`map[Code]string{CodeNo: "no"}`,
    /// `[...]string{KindA: "a"}`); a struct literal's keys are field names.
    fn literal_keys(&mut self, lit: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let Some(ty) = lit.child_by_field_id(k.f_type) else { return };
        let tk = ty.kind_id();
        if tk != k.map_type
            && tk != k.slice_type
            && tk != k.array_type
            && tk != k.implicit_length_array_type
        {
            return;
        }
        let Some(body) = lit.child_by_field_id(k.f_body) else { return };
        let mut c = body.walk();
        let keys: Vec<Node<'_>> = body
            .named_children(&mut c)
            .filter(|e| e.kind_id() == k.keyed_element)
            .filter_map(|e| e.named_child(0).and_then(|key| key.named_child(0)))
            .collect();
        for key in keys {
            self.value_ref(key, ctx);
        }
    }

    /// The named types a type expression refers to (`map[string]*pkg.T` -> `pkg.T`), one per
    /// (enclosing symbol, name): predeclared types and type parameters left out, and embedded
    /// fields and interface elements too (those are EMBEDS, or constraints).
    fn type_refs(&mut self, root: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let enclosing = ctx.enclosing;
        let mut cursor = root.walk();
        let mut depth = 0usize;
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            let mut inside = true;
            if kind == k.type_identifier {
                inside = false;
                let name = self.text(node);
                if !is_predeclared_type(name) && !self.tparams.contains(&name) {
                    self.type_ref(Receiver::None, name, node, node, enclosing);
                }
            } else if kind == k.qualified_type {
                inside = false;
                if let (Some(pkg), Some(name)) =
                    (node.child_by_field_id(k.f_package), node.child_by_field_id(k.f_name))
                {
                    let receiver = Receiver::Path(vec![self.text(pkg).to_string()]);
                    self.type_ref(receiver, self.text(name), name, node, enclosing);
                }
            } else if kind == k.array_type {
                // `[sniffLen]byte`: the length names a constant.
                if let Some(len) = node.child_by_field_id(k.f_length) {
                    self.value_ref(len, ctx);
                }
            } else if (kind == k.field_declaration && node.child_by_field_id(k.f_name).is_none())
                || kind == k.type_elem
                || kind == k.comment
            {
                inside = false;
            }
            if inside && cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                if depth == 0 {
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
                depth -= 1;
            }
        }
    }

    fn type_ref(
        &mut self,
        receiver: Receiver,
        name: &str,
        name_node: Node<'_>,
        whole: Node<'_>,
        enclosing: Option<SymbolIdx>,
    ) {
        if !self.seen_types.insert((enclosing, self.text(whole))) {
            return;
        }
        self.facts.type_refs.push(CallSite {
            callee: Callee { receiver, name: name.to_string() },
            kind: CallKind::Call,
            line: start_line(name_node),
            col: start_col(name_node),
            enclosing,
        });
    }

    /// Adds the identifiers among `names` to the function's locals.
    fn declare<'t>(&mut self, names: impl IntoIterator<Item = Node<'t>>) {
        for n in names {
            if n.kind_id() == self.k.identifier {
                let name = self.text(n);
                if name != "_" {
                    self.locals.insert(name);
                }
            }
        }
    }

    /// [`Extractor::declare`] for a list node's named children (`a, b :=`, `for k, v :=`).
    fn declare_children(&mut self, list: Node<'_>) {
        let mut c = list.walk();
        let names: Vec<Node<'_>> = list.named_children(&mut c).collect();
        self.declare(names);
    }

    /// Adds the names a parameter list declares to the function's locals.
    fn declare_params(&mut self, list: Node<'_>) {
        let k = self.k;
        let mut c = list.walk();
        let params: Vec<Node<'_>> = list
            .named_children(&mut c)
            .filter(|p| {
                p.kind_id() == k.parameter_declaration
                    || p.kind_id() == k.variadic_parameter_declaration
            })
            .collect();
        for p in params {
            self.param_names(p, |ex, n| ex.declare([n]));
        }
    }

    fn call(&mut self, callee: Callee, name: Node<'_>, ctx: Ctx) {
        self.facts.calls.push(CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(name),
            col: start_col(name),
            enclosing: ctx.enclosing,
        });
    }

    /// `F[int](x)` and `pkg.F[int](x)` parse as conversions to a generic type; `T(x)` to a
    /// named type may too. Those are calls by name; conversions to `[]byte`, `(*T)`... are not.
    fn conversion_callee<'t>(&self, conv: Node<'t>) -> Option<(Callee, Node<'t>)> {
        let k = self.k;
        let mut ty = conv.child_by_field_id(k.f_type)?;
        if ty.kind_id() == k.generic_type {
            ty = ty.child_by_field_id(k.f_type)?;
        }
        let kind = ty.kind_id();
        if kind == k.type_identifier {
            Some((Callee { receiver: Receiver::None, name: self.text(ty).to_string() }, ty))
        } else if kind == k.qualified_type {
            let pkg = ty.child_by_field_id(k.f_package)?;
            let name = ty.child_by_field_id(k.f_name)?;
            Some((
                Callee {
                    receiver: Receiver::Path(vec![self.text(pkg).to_string()]),
                    name: self.text(name).to_string(),
                },
                name,
            ))
        } else {
            None
        }
    }

    /// The callee of a call's function expression and the node of the called name; `None`
    /// when nothing is called by name (func literals, `(*T)(x)`...).
    fn callee<'t>(&self, function: Node<'t>) -> Option<(Callee, Node<'t>)> {
        // Outer-to-inner names of a `f().g().h` chain; the innermost receiver ends the loop.
        let mut chain: Vec<(&'s str, Node<'t>)> = Vec::new();
        let mut f = function;
        let innermost = loop {
            let Some((name, name_node, operand)) = self.named_callee(f) else {
                break None;
            };
            chain.push((name, name_node));
            let Some(op) = operand else {
                break Some(Receiver::None);
            };
            match self.receiver(op) {
                Ok(r) => break Some(r),
                Err(inner) if chain.len() < MAX_CALL_CHAIN => f = inner,
                Err(_) => break Some(Receiver::Other),
            }
        };
        let name_node = chain.first()?.1;
        // `None`: the innermost call has no name (`func(){...}().M()`, `(*T)(x).M()`), so its
        // result is an opaque receiver.
        let mut receiver = innermost.unwrap_or(Receiver::Other);
        let mut callee = None;
        while let Some((name, _)) = chain.pop() {
            let c = Callee { receiver, name: name.to_string() };
            if chain.is_empty() {
                callee = Some(c);
                break;
            }
            receiver = Receiver::CallResult(Box::new(c));
        }
        callee.map(|c| (c, name_node))
    }

    /// Unwraps parentheses and explicit instantiation of a function expression, then gives the
    /// called name, its node, and the selector operand (`None` for a bare name).
    #[allow(clippy::type_complexity)]
    fn named_callee<'t>(&self, mut f: Node<'t>) -> Option<(&'s str, Node<'t>, Option<Node<'t>>)> {
        let k = self.k;
        loop {
            let kind = f.kind_id();
            if kind == k.parenthesized_expression {
                f = f.named_child(0)?;
            } else if kind == k.index_expression {
                f = f.child_by_field_id(k.f_operand)?;
            } else if kind == k.type_instantiation_expression || kind == k.generic_type {
                f = f.child_by_field_id(k.f_type)?;
            } else if kind == k.identifier || kind == k.type_identifier {
                return Some((self.text(f), f, None));
            } else if kind == k.selector_expression {
                let field = f.child_by_field_id(k.f_field)?;
                let operand = f.child_by_field_id(k.f_operand)?;
                return Some((self.text(field), field, Some(operand)));
            } else if kind == k.qualified_type {
                let name = f.child_by_field_id(k.f_name)?;
                let pkg = f.child_by_field_id(k.f_package)?;
                return Some((self.text(name), name, Some(pkg)));
            } else {
                return None;
            }
        }
    }

    /// The receiver of a selector call: a path of identifiers, or `Err(function)` of an inner
    /// call whose result is the receiver, or `Other`.
    fn receiver<'t>(&self, op: Node<'t>) -> Result<Receiver, Node<'t>> {
        let k = self.k;
        let kind = op.kind_id();
        if kind == k.call_expression {
            return match op.child_by_field_id(k.f_function) {
                Some(f) => Err(f),
                None => Ok(Receiver::Other),
            };
        }
        if kind == k.type_conversion_expression {
            return match op.child_by_field_id(k.f_type) {
                Some(t) if t.kind_id() == k.generic_type => Err(t),
                _ => Ok(Receiver::Other),
            };
        }
        // A chain of identifiers `a.b.c`, collected innermost-last.
        let mut parts: Vec<&str> = Vec::new();
        let mut cur = op;
        loop {
            let kind = cur.kind_id();
            if kind == k.identifier || kind == k.package_identifier {
                parts.push(self.text(cur));
                break;
            }
            if kind != k.selector_expression {
                return Ok(Receiver::Other);
            }
            let (Some(field), Some(operand)) =
                (cur.child_by_field_id(k.f_field), cur.child_by_field_id(k.f_operand))
            else {
                return Ok(Receiver::Other);
            };
            parts.push(self.text(field));
            cur = operand;
        }
        Ok(Receiver::Path(parts.iter().rev().map(|s| (*s).to_string()).collect()))
    }

    // ----- docs ----------------------------------------------------------------------------

    /// The doc text of a run of comments directly above a declaration; compiler directives
    /// (`//go:...`, `//line ...`) are not documentation.
    fn doc(&self, docs: &[Node<'_>]) -> Option<String> {
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

    /// A misspelt kind in a table would silently never match: every name must be one of
    /// the grammar's named kinds.
    #[test]
    fn every_kind_in_the_walk_tables_exists_in_the_grammar() {
        let lang: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
        let tables = [NO_CALLS_INSIDE, NOTHING_INSIDE_WITHOUT_PAREN, VALUE_CONTAINERS, TYPE_ROOTS];
        for kind in tables.iter().flat_map(|t| t.iter()) {
            assert_ne!(lang.id_for_node_kind(kind, true), 0, "`{kind}` is no Go node kind");
        }
    }
}
