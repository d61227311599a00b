//! The one iterative cursor walk that turns a TS/TSX/JS syntax tree into [`FileFacts`].
//!
//! The walk keeps two stacks: the ancestors of the current node (so no `Node::parent` call, which
//! tree-sitter answers by descending from the root, is needed on the hot path) and *frames*, one
//! per node that the oracle treats as a container (named declaration) or as a function (for its
//! "inside a function" rule). A frame is popped when the walk leaves the node that owns it.
//!
//! Some oracle containers are not worth a symbol unless something needs them: a non-function
//! property of an object literal outside any function (`const cfg = { a: { b: f() } }` names the
//! call's caller `cfg.a.b`). Those frames are *lazy*: their symbol is materialised, parents
//! first, only when a call site or a nested symbol needs it, so a 1 MB data literal costs no
//! symbols while the naming still matches the oracle.

use super::shapes::{
    arg_names, assignment_name, callee_of, dotted, first_named, has_token, heritage_target,
    is_fn_or_class_value, is_function_expr, is_tagged_template, path_of, prop_name, string_content,
    type_args, type_name, unwrap_expr,
};
use crate::facts::{
    CallKind, CallSite, Callee, FieldAccess, FileFacts, Heritage, HeritageKind, HintSource, Import,
    ImportBinding, ImportKind, Imported, LanguageFacts, LiteralContext, LiteralKeys, Name,
    Receiver, Symbol, SymbolIdx, ThisArg, TsFacts, TypeHint, TypeParam,
};
use crate::util::{self, end_line, start_col, start_line, text, to_u32};
use codegraph_schema::NodeKind;
use std::collections::{HashMap, HashSet};
use tree_sitter::{Node, Tree};

mod declarations;
mod facts;
mod frames;

/// Longest assignment target (`a.b.c = function`) that still names the function.
const MAX_ASSIGN_TARGET: usize = 200;

/// Deepest nesting of literals (and arrays) inside a typed literal whose keys are recorded.
const MAX_LITERAL_PATH: u32 = 4;

pub(super) fn extract(src: &str, tree: &Tree) -> FileFacts {
    let mut w = Walker {
        src,
        facts: FileFacts::default(),
        export: Vec::new(),
        frames: Vec::new(),
        anc: Vec::new(),
        func_depth: 0,
        qmap: HashMap::new(),
        exported_names: HashSet::new(),
        locals: HashSet::new(),
        local_fns: HashSet::new(),
        seen_refs: HashSet::new(),
        bindings: Vec::new(),
        called: Vec::new(),
        called_seen: HashSet::new(),
        ts: TsFacts::default(),
        reading_signature: false,
        held_signature_refs: Vec::new(),
    };
    w.run(tree.root_node());
    let mut facts = w.finish();
    facts.syntax_errors = util::count_errors(tree);
    facts
}

/// How a symbol's `exported` flag is decided once the whole file is seen.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Export {
    Yes,
    No,
    /// Exported when its parent is (class / interface / enum members, namespace exports).
    Parent,
}

struct Frame<'t> {
    /// `Node::id` of the node whose exit pops this frame.
    owner: usize,
    /// A function-like node (the oracle's FUNC_LIKE): declarations inside are "in a function".
    func: bool,
    /// Contributes a name to qualified names (an oracle container).
    named: bool,
    sym: Option<SymbolIdx>,
    /// Lazy container: the `pair` to materialise as a Property symbol when first needed.
    lazy: Option<Node<'t>>,
    /// Index of the nearest named frame below this one.
    prev_named: Option<usize>,
    /// A namespace / module body: `export` inside exports a member.
    ns: bool,
    /// Inside `declare` (members of ambient namespaces are implicitly exported).
    ambient: bool,
}

struct Walker<'s, 't> {
    src: &'s str,
    facts: FileFacts,
    export: Vec<Export>,
    frames: Vec<Frame<'t>>,
    anc: Vec<Node<'t>>,
    func_depth: u32,
    /// Qualified name -> first symbol with it (assignment-named functions reuse or hang off it).
    qmap: HashMap<String, SymbolIdx>,
    /// Names exported by a local `export { a }` clause, `export default a` or `export = a`.
    exported_names: HashSet<String>,
    /// Names declared inside the outermost function being walked (and the functions nested in
    /// it): parameters, `let` / `const` / `var`, catch and loop bindings. A reference to one
    /// is a local, never a module-level declaration. Cleared when the walk leaves functions.
    locals: HashSet<&'s str>,
    /// The locals among them bound to a function or class written in place (nested
    /// declarations, each a symbol): a value use of one is a reference.
    local_fns: HashSet<&'s str>,
    /// (enclosing symbol, type or value, text) of the references recorded so far.
    seen_refs: HashSet<(Option<SymbolIdx>, bool, &'s str)>,
    /// The parameters and local bindings of the functions being walked, innermost last (the
    /// scoped counterpart of `locals`): what a bare-name call inside them calls.
    bindings: Vec<Binding<'s, 't>>,
    /// Bindings some call calls: each becomes a [`NodeKind::Parameter`] symbol at the end of
    /// the file's symbols (after every declaration, so their indices do not move when a body
    /// starts or stops calling a callback), unless a declaration already has its name.
    called: Vec<CalledBinding<'t>>,
    /// (container, name) of the entries of `called`.
    called_seen: HashSet<(Option<SymbolIdx>, &'s str)>,
    /// Type parameters, heritage arguments and aliases ([`LanguageFacts::Ts`]).
    ts: TsFacts,
    /// An overload signature's types are being read: references are held, not recorded.
    reading_signature: bool,
    /// References of the overload signatures above an implementation, recorded as its own
    /// once its symbol opens.
    held_signature_refs: Vec<PendingRef<'s, 't>>,
}

/// A reference waiting for its enclosing symbol: (type or value, callee, where, text).
type PendingRef<'s, 't> = (bool, Callee, Node<'t>, &'s str);

/// A parameter, `let` / `const` / `var`, catch or loop binding of a function being walked.
#[derive(Clone, Copy)]
struct Binding<'s, 't> {
    name: &'s str,
    /// The identifier that binds it.
    node: Node<'t>,
    /// `frames.len()` when it was bound: it lives while those frames do, and its container is
    /// the nearest named one among them.
    depth: usize,
}

/// A called binding and the symbol it hangs off (the nearest named declaration around it, as
/// the oracle names a parameter `outer.param`).
struct CalledBinding<'t> {
    parent: Option<SymbolIdx>,
    name: String,
    node: Node<'t>,
}

/// A symbol about to be pushed.
struct NewSym<'t> {
    kind: NodeKind,
    name: String,
    /// Qualified name when it is not `parent.name` (assignment-named functions).
    qualified: Option<String>,
    node: Node<'t>,
    parent: Option<SymbolIdx>,
    signature: String,
    doc: Option<String>,
    export: Export,
}

/// What a function / class expression is named by.
enum Naming<'t> {
    /// No name of its own (callbacks; or its parent declarator / property / field names it).
    Transparent {
        namer: bool,
    },
    Own(String),
    /// `export default function () {}`.
    Default,
    /// `lhs = function () {}`.
    Assign(Node<'t>),
}

/// Longest test title kept in a test block's name.
const MAX_TEST_TITLE: usize = 120;

const FUNCTION_OWNERS: &[&str] = &[
    "function_declaration",
    "generator_function_declaration",
    "function_signature",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
    "method_signature",
    "abstract_method_signature",
];

impl<'s, 't> Walker<'s, 't> {
    fn run(&mut self, root: Node<'t>) {
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            self.anc.push(node);
            let descend = self.enter(node);
            if descend && cursor.goto_first_child() {
                continue;
            }
            self.leave(node);
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
                let up = cursor.node();
                self.leave(up);
            }
        }
    }

    fn leave(&mut self, node: Node<'t>) {
        self.anc.pop();
        let id = node.id();
        while self.frames.last().is_some_and(|f| f.owner == id) {
            let popped = self.frames.pop();
            let live = self.frames.len();
            while self.bindings.last().is_some_and(|b| b.depth > live) {
                self.bindings.pop();
            }
            if let Some(f) = popped
                && f.func
            {
                self.func_depth = self.func_depth.saturating_sub(1);
                if self.func_depth == 0 {
                    self.locals.clear();
                    self.local_fns.clear();
                }
            }
        }
    }

    /// Index in `anc` of the parent of the node just entered.
    fn parent_index(&self) -> Option<usize> {
        self.anc.len().checked_sub(2)
    }

    fn anc_at(&self, i: Option<usize>) -> Option<Node<'t>> {
        i.and_then(|i| self.anc.get(i).copied())
    }

    fn anc_kind(&self, i: Option<usize>) -> &'t str {
        self.anc_at(i).map_or("", |n| n.kind())
    }

    fn enter(&mut self, node: Node<'t>) -> bool {
        match node.kind() {
            "comment" => return false,
            "import_statement" => {
                self.import_statement(node);
                return false;
            }
            "export_statement" => self.export_statement(node),
            "call_expression" => self.call(node),
            "new_expression" => self.new_expression(node),
            "object" => self.literal_keys(),
            "this" => self.this_argument(),
            "member_expression" => self.access(node),
            "required_parameter" | "optional_parameter" => {
                if let Some(pattern) = node.child_by_field_name("pattern") {
                    let grand = self.parent_index().and_then(|i| i.checked_sub(1));
                    let bind = self.anc_at(grand).is_some_and(|f| has_body(f.kind()));
                    self.declare(pattern, bind);
                }
                self.parameter(node);
            }
            "formal_parameters" => {
                // JavaScript parameters are bare patterns (TypeScript's are wrapped in
                // required / optional parameters, declared when entered).
                let mut c = node.walk();
                let params: Vec<Node<'t>> = node.named_children(&mut c).collect();
                let mut jsdoc: Option<Vec<(String, String)>> = None;
                let bind = has_body(self.anc_kind(self.parent_index()));
                for p in params {
                    if !matches!(p.kind(), "required_parameter" | "optional_parameter") {
                        self.declare(p, bind);
                    }
                    if p.kind() == "identifier" {
                        // JavaScript: the function's JSDoc `@param {Reply} reply` types it.
                        let tags = jsdoc.get_or_insert_with(|| self.jsdoc_params(node));
                        let name = text(p, self.src);
                        if let Some((_, ty)) = tags.iter().find(|(n, _)| n == name) {
                            let scope = self.scope();
                            self.facts.type_hints.push(TypeHint {
                                scope,
                                name: name.into(),
                                source: HintSource::Annotation(ty.clone()),
                                line: start_line(p),
                                visible: None,
                            });
                        }
                    }
                }
            }
            "decorator" => self.decorator(node),
            "for_in_statement" => {
                if self.func_depth > 0
                    && let Some(left) = node.child_by_field_name("left")
                {
                    self.declare(left, true);
                }
                self.for_of(node);
            }
            "binary_expression" => self.instanceof(node),
            "return_statement" => self.inferred_return(node),
            "assignment_expression" => self.commonjs_exports(node),
            "type_identifier" => self.type_ref(node),
            "nested_type_identifier" => {
                self.nested_type_ref(node);
                return false;
            }
            "identifier" | "shorthand_property_identifier" => self.value_ref(node),
            "variable_declarator" | "catch_clause" if self.func_depth > 0 => {
                let field = if node.kind() == "catch_clause" { "parameter" } else { "name" };
                if let Some(pattern) = node.child_by_field_name(field) {
                    self.declare(pattern, true);
                    // `const emitBuffer = () => ..`: a nested declaration (a symbol), whose
                    // uses as a value are references like a module-level function's.
                    if pattern.kind() == "identifier"
                        && node
                            .child_by_field_name("value")
                            .is_some_and(|v| is_fn_or_class_value(Some(v)))
                    {
                        self.local_fns.insert(text(pattern, self.src));
                    }
                }
            }
            _ => {}
        }
        if self.frames.last().is_some_and(|f| f.owner == node.id()) {
            return true; // opened ahead of time (decorated member / exported decorated class)
        }
        let pi = self.parent_index();
        let descend = self.open(node, pi);
        // `x => ...`: a bare parameter, bound inside the arrow's own frame.
        if node.kind() == "arrow_function"
            && let Some(p) = node.child_by_field_name("parameter")
        {
            self.declare(p, true);
        }
        descend
    }

    /// Opens the frame (and symbol) of a declaration node whose parent is `anc[pi]`. Returns
    /// whether to walk its children.
    fn open(&mut self, node: Node<'t>, pi: Option<usize>) -> bool {
        match node.kind() {
            "function_declaration" | "generator_function_declaration" => {
                self.open_function(node, pi);
            }
            "function_signature" => {
                if self.superseded(node, pi) {
                    self.signature_type_refs(node);
                    return false;
                }
                self.open_function(node, pi);
            }
            "class_declaration" | "abstract_class_declaration" => self.open_class(node, pi),
            "class"
            | "function_expression"
            | "function"
            | "generator_function"
            | "arrow_function" => self.open_fn_expr(node, pi),
            "method_definition" => self.open_method(node, pi, true),
            "method_signature" | "abstract_method_signature" => {
                let in_class = self.anc_kind(pi) == "class_body";
                if in_class && self.superseded(node, pi) {
                    self.signature_type_refs(node);
                    return false;
                }
                if in_class || self.type_member_named(pi) {
                    self.open_method(node, pi, false);
                }
            }
            "construct_signature" if self.type_member_named(pi) => {
                self.open_method(node, pi, false);
            }
            "public_field_definition" | "field_definition" => self.open_field(node, pi),
            "property_signature" if self.type_member_named(pi) => {
                self.open_member(node, NodeKind::Property, false);
            }
            "enum_declaration" => self.open_type_decl(node, pi, NodeKind::Enum),
            "interface_declaration" => self.open_type_decl(node, pi, NodeKind::Interface),
            "type_alias_declaration" => self.open_type_decl(node, pi, NodeKind::TypeAlias),
            "enum_assignment" => self.open_member(node, NodeKind::Property, true),
            "property_identifier" | "string" if self.anc_kind(pi) == "enum_body" => {
                self.enum_bare_member(node);
            }
            "internal_module" | "module" => self.open_namespace(node, pi),
            "ambient_declaration" if has_token(node, "global") => {
                self.open_namespace(node, pi);
            }
            "class_static_block" => {
                let parent = self.scope();
                let sym = self.push_symbol(NewSym {
                    kind: NodeKind::Method,
                    name: "static".to_string(),
                    qualified: None,
                    node,
                    parent,
                    signature: "static".to_string(),
                    doc: self.doc(node),
                    export: Export::No,
                });
                self.push_frame(node, true, Some(sym), None);
            }
            "variable_declarator" => self.open_declarator(node, pi),
            "pair" => self.open_pair(node, pi),
            "call_expression" => self.open_test_block(node),
            _ => {}
        }
        true
    }

    /// `describe('Calc', () => ...)`, `it('adds', ...)`, `test.only(...)`: a test block, a
    /// symbol of kind `test` named by its title path (`Calc > adds`) that owns the calls
    /// inside it. Its qualified name starts with `$` (`$it Calc > adds`), which the eval
    /// convention reads as transparent, as it does a handler written in place.
    fn open_test_block(&mut self, node: Node<'t>) {
        let Some(func) = node.child_by_field_name("function") else { return };
        let base = match func.kind() {
            "identifier" => func,
            "member_expression" => match func.child_by_field_name("object") {
                Some(o) if o.kind() == "identifier" => {
                    let prop = func.child_by_field_name("property").map(|p| text(p, self.src));
                    if !matches!(prop, Some("only" | "skip" | "concurrent" | "todo")) {
                        return;
                    }
                    o
                }
                _ => return,
            },
            _ => return,
        };
        let word = text(base, self.src);
        if !matches!(word, "describe" | "it" | "test" | "suite" | "context") {
            return;
        }
        let Some(args) = node.child_by_field_name("arguments") else { return };
        let mut c = args.walk();
        let list: Vec<Node<'t>> = args.named_children(&mut c).collect();
        let (Some(title), Some(body)) = (list.first(), list.get(1)) else { return };
        if !matches!(title.kind(), "string" | "template_string")
            || !matches!(body.kind(), "arrow_function" | "function_expression" | "function")
        {
            return;
        }
        let raw = string_content(*title, self.src);
        let raw = if title.kind() == "template_string" { raw.trim_matches('`') } else { raw };
        let mut title = util::collapse_whitespace(raw);
        if title.len() > MAX_TEST_TITLE {
            let mut end = MAX_TEST_TITLE;
            while !title.is_char_boundary(end) {
                end -= 1;
            }
            title.truncate(end);
        }
        let parent = self.scope();
        let parent_test = parent
            .and_then(|p| self.facts.symbols.get(p as usize))
            .filter(|p| p.kind == NodeKind::Test);
        let name = match parent_test {
            Some(p) => format!("{} > {title}", p.name),
            None => title.clone(),
        };
        let own = format!("${word} {title}");
        let qualified = match parent {
            Some(p) => format!("{}.{own}", self.qualified(p)),
            None => own,
        };
        let sym = self.push_symbol(NewSym {
            kind: NodeKind::Test,
            name,
            qualified: Some(qualified),
            node,
            parent,
            signature: util::signature(node, Some(*body), self.src),
            doc: None,
            export: Export::No,
        });
        self.push_frame(node, false, Some(sym), None);
    }

    /// Whether a member signature whose parent is `anc[pi]` becomes a symbol: members of
    /// interfaces, of a type alias's object type, and of object types nested in such members
    /// (`type T = { a: { b(): void } }`). Object types elsewhere (parameter and variable
    /// annotations, generated ABI tuples in `.d.ts` files) are anonymous shapes, not
    /// declarations worth a symbol each.
    fn type_member_named(&self, pi: Option<usize>) -> bool {
        match self.anc_kind(pi) {
            "interface_body" => true,
            "object_type" => {
                let up = pi.and_then(|i| i.checked_sub(1));
                match self.anc_kind(up) {
                    "type_alias_declaration" => true,
                    "type_annotation" => {
                        let member = self.anc_at(up.and_then(|i| i.checked_sub(1)));
                        member.is_some_and(|m| {
                            m.kind() == "property_signature"
                                && self.frames.last().is_some_and(|f| f.owner == m.id())
                        })
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }
}

/// The identifier path an aliasing value reads (`this`, `a`, `a.b`, `this.x!`), if it is one.
fn value_path(value: Node<'_>, src: &str) -> Option<Vec<String>> {
    let v = unwrap_expr(value);
    match v.kind() {
        "this" | "identifier" => Some(vec![text(v, src).to_string()]),
        "member_expression" => path_of(v, src),
        _ => None,
    }
}

/// Function-like nodes with a body: their parameters are bindings a call can name (those of a
/// signature or a function type are not).
fn has_body(kind: &str) -> bool {
    matches!(
        kind,
        "function_declaration"
            | "generator_function_declaration"
            | "function_expression"
            | "function"
            | "generator_function"
            | "arrow_function"
            | "method_definition"
    )
}

/// Position of `child` among the named, non-comment children of `parent`.
fn named_position(parent: Node<'_>, child: Node<'_>) -> u32 {
    let mut cursor = parent.walk();
    let n = parent
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .take_while(|c| c.id() != child.id())
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Start of a declaration after its leading decorators.
fn sig_start(node: Node<'_>) -> usize {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .find(|c| !matches!(c.kind(), "decorator" | "comment"))
        .map_or(node.start_byte(), |c| c.start_byte())
}

/// The identifiers a destructuring pattern binds, in source order.
fn bound_names(pattern: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![pattern];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => out.push(n),
            "object_pattern" | "array_pattern" | "rest_pattern" => {
                let mut cursor = n.walk();
                let kids: Vec<Node<'_>> = n.named_children(&mut cursor).collect();
                stack.extend(kids.into_iter().rev());
            }
            "pair_pattern" => stack.extend(n.child_by_field_name("value")),
            "assignment_pattern" | "object_assignment_pattern" => {
                stack.extend(n.child_by_field_name("left"));
            }
            _ => {}
        }
    }
    out
}
