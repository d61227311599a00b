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
    assignment_name, callee_of, dotted, first_named, has_token, heritage_target,
    is_fn_or_class_value, is_function_expr, is_tagged_template, path_of, prop_name, string_content,
    type_name, unwrap_expr,
};
use crate::facts::{
    CallKind, CallSite, Callee, FieldAccess, FileFacts, Heritage, HeritageKind, HintSource, Import,
    ImportBinding, ImportKind, Imported, Receiver, Symbol, SymbolIdx, TypeHint,
};
use crate::util::{self, end_line, start_col, start_line, text, to_u32};
use codegraph_schema::NodeKind;
use std::collections::{HashMap, HashSet};
use tree_sitter::{Node, Tree};

/// Longest assignment target (`a.b.c = function`) that still names the function.
const MAX_ASSIGN_TARGET: usize = 200;

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
        seen_refs: HashSet::new(),
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
    /// (enclosing symbol, type or value, text) of the references recorded so far.
    seen_refs: HashSet<(Option<SymbolIdx>, bool, &'s str)>,
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
            if let Some(f) = self.frames.pop()
                && f.func
            {
                self.func_depth = self.func_depth.saturating_sub(1);
                if self.func_depth == 0 {
                    self.locals.clear();
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
            "member_expression" => self.access(node),
            "required_parameter" | "optional_parameter" => {
                if let Some(pattern) = node.child_by_field_name("pattern") {
                    self.declare(pattern);
                }
                self.parameter(node);
            }
            "formal_parameters" => {
                // JavaScript parameters are bare patterns (TypeScript's are wrapped in
                // required / optional parameters, declared when entered).
                let mut c = node.walk();
                let params: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for p in params {
                    if !matches!(p.kind(), "required_parameter" | "optional_parameter") {
                        self.declare(p);
                    }
                }
            }
            "arrow_function" => {
                // `x => ...`: a bare parameter.
                if let Some(p) = node.child_by_field_name("parameter") {
                    self.declare(p);
                }
            }
            "decorator" => self.decorator(node),
            "for_in_statement" => {
                if self.func_depth > 0
                    && let Some(left) = node.child_by_field_name("left")
                {
                    self.declare(left);
                }
                self.for_of(node);
            }
            "binary_expression" => self.instanceof(node),
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
                    self.declare(pattern);
                }
            }
            _ => {}
        }
        if self.frames.last().is_some_and(|f| f.owner == node.id()) {
            return true; // opened ahead of time (decorated member / exported decorated class)
        }
        let pi = self.parent_index();
        self.open(node, pi)
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

    // ----- frames and symbols -----

    fn push_frame(
        &mut self,
        owner: Node<'t>,
        func: bool,
        sym: Option<SymbolIdx>,
        lazy: Option<Node<'t>>,
    ) {
        let named = sym.is_some() || lazy.is_some();
        self.push_frame_full(owner, func, named, sym, lazy, false, false);
    }

    #[allow(clippy::too_many_arguments)]
    fn push_frame_full(
        &mut self,
        owner: Node<'t>,
        func: bool,
        named: bool,
        sym: Option<SymbolIdx>,
        lazy: Option<Node<'t>>,
        ns: bool,
        ambient: bool,
    ) {
        let prev_named = self.top_named();
        let ambient = ambient || self.frames.last().is_some_and(|f| f.ambient);
        if func {
            self.func_depth += 1;
        }
        self.frames.push(Frame {
            owner: owner.id(),
            func,
            named,
            sym,
            lazy,
            prev_named,
            ns,
            ambient,
        });
    }

    fn top_named(&self) -> Option<usize> {
        let last = self.frames.len().checked_sub(1)?;
        let f = self.frames.get(last)?;
        if f.named { Some(last) } else { f.prev_named }
    }

    /// The nearest enclosing named symbol, materialising lazy containers on the way.
    fn scope(&mut self) -> Option<SymbolIdx> {
        let top = self.top_named()?;
        if let Some(s) = self.frames.get(top).and_then(|f| f.sym) {
            return Some(s);
        }
        // Unmaterialised chain, innermost first, down to the first materialised frame.
        let mut chain = Vec::new();
        let mut parent = None;
        let mut j = Some(top);
        while let Some(k) = j {
            let Some(f) = self.frames.get(k) else { break };
            if let Some(s) = f.sym {
                parent = Some(s);
                break;
            }
            chain.push(k);
            j = f.prev_named;
        }
        for &k in chain.iter().rev() {
            let Some(pair) = self.frames.get(k).and_then(|f| f.lazy) else {
                return parent;
            };
            let sym = self.lazy_property(pair, parent);
            if let Some(f) = self.frames.get_mut(k) {
                f.sym = Some(sym);
            }
            parent = Some(sym);
        }
        parent
    }

    /// The nearest enclosing named symbol that already exists, without materialising lazy
    /// containers: a field read inside a module-level data literal is not worth a symbol.
    fn existing_scope(&self) -> Option<SymbolIdx> {
        let mut j = self.top_named();
        while let Some(k) = j {
            let f = self.frames.get(k)?;
            if let Some(s) = f.sym {
                return Some(s);
            }
            j = f.prev_named;
        }
        None
    }

    fn lazy_property(&mut self, pair: Node<'t>, parent: Option<SymbolIdx>) -> SymbolIdx {
        let name =
            pair.child_by_field_name("key").map_or_else(String::new, |k| prop_name(k, self.src));
        self.push_symbol(NewSym {
            kind: NodeKind::Property,
            name,
            qualified: None,
            node: pair,
            parent,
            signature: util::signature(pair, None, self.src),
            doc: self.doc(pair),
            export: Export::Parent,
        })
    }

    fn qualified(&self, sym: SymbolIdx) -> &str {
        self.facts.symbols.get(sym as usize).map_or("", |s| s.qualified_name.as_str())
    }

    fn push_symbol(&mut self, s: NewSym<'t>) -> SymbolIdx {
        let qualified_name = match (s.qualified, s.parent) {
            (Some(q), _) => q,
            (None, Some(p)) => format!("{}.{}", self.qualified(p), s.name),
            (None, None) => s.name.clone(),
        };
        let idx = to_u32(self.facts.symbols.len());
        self.qmap.entry(qualified_name.clone()).or_insert(idx);
        self.facts.symbols.push(Symbol {
            kind: s.kind,
            name: s.name,
            qualified_name,
            parent: s.parent,
            start_line: start_line(s.node),
            end_line: end_line(s.node),
            signature: s.signature,
            doc: s.doc,
            exported: false,
        });
        self.export.push(s.export);
        idx
    }

    /// Export status of a declaration from its wrappers, and the node its doc comment sits on.
    fn decl_context(&self, node: Node<'t>, pi: Option<usize>) -> (Node<'t>, Export) {
        let mut anchor = node;
        let (mut export_kw, mut declare) = (false, false);
        let mut i = pi;
        while let Some(p) = self.anc_at(i) {
            match p.kind() {
                "export_statement" => export_kw = true,
                "ambient_declaration" => declare = true,
                "lexical_declaration" | "variable_declaration" | "expression_statement" => {}
                _ => break,
            }
            anchor = p;
            i = i.and_then(|i| i.checked_sub(1));
        }
        let export = match self.top_named().and_then(|i| self.frames.get(i)) {
            None => {
                if export_kw || declare {
                    Export::Yes
                } else {
                    Export::No
                }
            }
            Some(f) if f.ns && (export_kw || declare || f.ambient) => Export::Parent,
            Some(_) => Export::No,
        };
        (anchor, export)
    }

    fn doc(&self, anchor: Node<'t>) -> Option<String> {
        let comments = util::preceding_comments(anchor, |k| k == "comment");
        if comments.is_empty() {
            return None;
        }
        util::clean_comments(comments.iter().map(|c| text(*c, self.src)))
    }

    /// `util::signature`, but starting after leading decorators.
    fn sig(&self, decl: Node<'t>, body: Option<Node<'t>>) -> String {
        let leading_decorator = decl.child(0).is_some_and(|c| c.kind() == "decorator");
        if !leading_decorator {
            return util::signature(decl, body, self.src);
        }
        let mut cursor = decl.walk();
        let start = decl
            .children(&mut cursor)
            .find(|c| !matches!(c.kind(), "decorator" | "comment"))
            .map_or(decl.start_byte(), |c| c.start_byte());
        self.sig_span(start, body.map_or(decl.end_byte(), |b| b.start_byte()))
    }

    /// The signature rule of `util::signature` over an explicit byte range.
    fn sig_span(&self, start: usize, end: usize) -> String {
        let end = end.max(start).min(start + util::MAX_SIGNATURE * 4);
        let mut e = end.min(self.src.len());
        while e > start && !self.src.is_char_boundary(e) {
            e -= 1;
        }
        let mut sig = util::collapse_whitespace(self.src.get(start..e).unwrap_or(""));
        while sig.ends_with(['{', '=', ' ']) {
            sig.pop();
        }
        sig
    }

    /// A TS overload signature followed by another declaration of the same name (the next
    /// overload or the implementation): only the last one is kept.
    fn superseded(&self, node: Node<'t>, pi: Option<usize>) -> bool {
        let Some(name) = node.child_by_field_name("name") else {
            return false;
        };
        let name = text(name, self.src);
        // Climb `export` / `declare` wrappers to the statement.
        let mut stmt = node;
        let mut i = pi;
        while let Some(p) = self.anc_at(i) {
            if !matches!(p.kind(), "export_statement" | "ambient_declaration") {
                break;
            }
            stmt = p;
            i = i.and_then(|i| i.checked_sub(1));
        }
        let mut next = stmt.next_named_sibling();
        while let Some(n) = next {
            if matches!(n.kind(), "comment" | "decorator") {
                next = n.next_named_sibling();
            } else {
                break;
            }
        }
        let Some(mut next) = next else { return false };
        loop {
            let inner = match next.kind() {
                "export_statement" => next.child_by_field_name("declaration"),
                "ambient_declaration" => first_named(next),
                _ => None,
            };
            match inner {
                Some(n) => next = n,
                None => break,
            }
        }
        matches!(
            next.kind(),
            "function_declaration"
                | "generator_function_declaration"
                | "function_signature"
                | "method_definition"
                | "method_signature"
                | "abstract_method_signature"
        ) && next.child_by_field_name("name").is_some_and(|n| text(n, self.src) == name)
    }

    fn return_hint(&mut self, func: Node<'t>, sym: SymbolIdx) {
        let Some(t) = func.child_by_field_name("return_type") else {
            return;
        };
        if let Some(ty) = type_name(t, self.src) {
            self.facts.type_hints.push(TypeHint {
                scope: Some(sym),
                name: String::new(),
                source: HintSource::Return(ty),
                line: start_line(func),
                visible: None,
            });
        }
    }

    // ----- declarations -----

    /// Pushes a function or class declaration (an anonymous `export default` one is named
    /// `default`) with its signature, doc and export context.
    fn push_declaration(&mut self, node: Node<'t>, pi: Option<usize>, kind: NodeKind) -> SymbolIdx {
        let name = node
            .child_by_field_name("name")
            .map_or_else(|| "default".to_string(), |n| text(n, self.src).to_string());
        let (anchor, export) = self.decl_context(node, pi);
        let parent = self.scope();
        let body = node.child_by_field_name("body");
        let mut doc = self.doc(anchor);
        if doc.is_none() && kind == NodeKind::Function {
            // An implementation inherits the doc of its first overload signature.
            doc = self.overload_doc(anchor);
        }
        self.push_symbol(NewSym {
            kind,
            name,
            qualified: None,
            node,
            parent,
            signature: self.sig(node, body),
            doc,
            export,
        })
    }

    fn open_function(&mut self, node: Node<'t>, pi: Option<usize>) {
        let sym = self.push_declaration(node, pi, NodeKind::Function);
        self.push_frame(node, true, Some(sym), None);
        self.return_hint(node, sym);
    }

    /// The doc comment of the first overload signature right above an implementation.
    fn overload_doc(&self, anchor: Node<'t>) -> Option<String> {
        let mut first = None;
        let mut prev = anchor.prev_named_sibling();
        while let Some(p) = prev {
            let mut inner = p;
            while let Some(n) = match inner.kind() {
                "export_statement" => inner.child_by_field_name("declaration"),
                "ambient_declaration" => first_named(inner),
                _ => None,
            } {
                inner = n;
            }
            if !matches!(
                inner.kind(),
                "function_signature" | "method_signature" | "comment" | "decorator"
            ) {
                break;
            }
            if inner.kind() != "comment" {
                first = Some(p);
            }
            prev = p.prev_named_sibling();
        }
        self.doc(first?)
    }

    fn open_class(&mut self, node: Node<'t>, pi: Option<usize>) {
        let sym = self.push_declaration(node, pi, NodeKind::Class);
        self.push_frame(node, false, Some(sym), None);
        self.class_heritage(node, sym);
    }

    fn class_heritage(&mut self, class: Node<'t>, sym: SymbolIdx) {
        let mut cursor = class.walk();
        let Some(h) = class.named_children(&mut cursor).find(|c| c.kind() == "class_heritage")
        else {
            return;
        };
        let mut hc = h.walk();
        for clause in h.named_children(&mut hc) {
            match clause.kind() {
                "extends_clause" | "implements_clause" => {
                    let kind = if clause.kind() == "extends_clause" {
                        HeritageKind::Extends
                    } else {
                        HeritageKind::Implements
                    };
                    let mut cc = clause.walk();
                    for t in clause.named_children(&mut cc) {
                        if matches!(t.kind(), "type_arguments" | "comment") {
                            continue;
                        }
                        self.heritage(sym, kind, t);
                    }
                }
                "comment" => {}
                // JavaScript: the superclass expression sits directly in the heritage.
                _ => self.heritage(sym, HeritageKind::Extends, clause),
            }
        }
    }

    fn heritage(&mut self, sym: SymbolIdx, kind: HeritageKind, target: Node<'t>) {
        if let Some(target) = heritage_target(target, self.src) {
            self.facts.heritage.push(Heritage { symbol: sym, kind, target });
        }
    }

    fn open_fn_expr(&mut self, node: Node<'t>, pi: Option<usize>) {
        let is_class = node.kind() == "class";
        let parent = self.anc_at(pi);
        let is_field = |field: &str| {
            parent.and_then(|p| p.child_by_field_name(field)).is_some_and(|v| v.id() == node.id())
        };
        let naming = match parent.map_or("", |p| p.kind()) {
            "variable_declarator" | "pair" | "public_field_definition" | "field_definition"
                if is_field("value") =>
            {
                Naming::Transparent { namer: true }
            }
            "assignment_expression" if is_field("right") => match parent
                .and_then(|p| p.child_by_field_name("left"))
                .filter(|l| l.byte_range().len() <= MAX_ASSIGN_TARGET)
            {
                Some(lhs) => Naming::Assign(lhs),
                None => Naming::Transparent { namer: false },
            },
            "export_statement" if node.kind() != "arrow_function" => Naming::Default,
            _ => match node.child_by_field_name("name") {
                Some(n) if node.kind() != "arrow_function" => {
                    Naming::Own(text(n, self.src).to_string())
                }
                _ => Naming::Transparent { namer: false },
            },
        };
        let kind_for = |method: bool| {
            if is_class {
                NodeKind::Class
            } else if method {
                NodeKind::Method
            } else {
                NodeKind::Function
            }
        };
        let body = node.child_by_field_name("body");
        let sym = match naming {
            Naming::Transparent { namer } => {
                // The declarator / property / field that names this expression holds the symbol.
                let named_sym = if namer { self.scope() } else { None };
                self.push_frame(node, !is_class, None, None);
                if let Some(s) = named_sym {
                    if is_class {
                        self.class_heritage(node, s);
                    } else {
                        self.return_hint(node, s);
                    }
                }
                return;
            }
            Naming::Own(name) => {
                let parent = self.scope();
                self.push_symbol(NewSym {
                    kind: kind_for(false),
                    name,
                    qualified: None,
                    node,
                    parent,
                    signature: self.sig(node, body),
                    doc: None,
                    export: Export::No,
                })
            }
            Naming::Default => {
                let (anchor, _) = self.decl_context(node, pi);
                let parent = self.scope();
                self.push_symbol(NewSym {
                    kind: kind_for(false),
                    name: "default".to_string(),
                    qualified: None,
                    node,
                    parent,
                    signature: self.sig(node, body),
                    doc: self.doc(anchor),
                    export: Export::Yes,
                })
            }
            Naming::Assign(lhs) => {
                let Some(sym) = self.assigned(node, lhs, pi, is_class, body) else {
                    return;
                };
                sym
            }
        };
        self.push_frame(node, !is_class, Some(sym), None);
        if is_class {
            self.class_heritage(node, sym);
        } else {
            self.return_hint(node, sym);
        }
    }

    /// The symbol of `lhs = function / class`: named by the oracle's `assignmentName`, reusing
    /// an existing symbol of the same qualified name (`let f; f = () => {}`), hung under `X`
    /// for `X.prototype.m` / `X.m` when `X` is a symbol of this file.
    fn assigned(
        &mut self,
        node: Node<'t>,
        lhs: Node<'t>,
        pi: Option<usize>,
        is_class: bool,
        body: Option<Node<'t>>,
    ) -> Option<SymbolIdx> {
        let lhs_text = text(lhs, self.src);
        let aname = assignment_name(lhs_text);
        let is_exports = {
            let d = dotted(lhs_text);
            d.starts_with("exports.") || d.starts_with("module.exports")
        };
        let scope = self.scope();
        let prefix = scope.map(|s| self.qualified(s).to_string());
        let join = |p: &Option<String>, s: &str| match p {
            Some(p) => format!("{p}.{s}"),
            None => s.to_string(),
        };
        let full = join(&prefix, &aname);
        if let Some(&existing) = self.qmap.get(&full) {
            self.push_frame(node, !is_class, Some(existing), None);
            return None;
        }
        let (parent, short) = match aname.rsplit_once('.') {
            Some((head, last)) => {
                (self.qmap.get(&join(&prefix, head)).copied().or(scope), last.to_string())
            }
            None => (scope, aname.clone()),
        };
        let kind = if is_class {
            NodeKind::Class
        } else if is_exports || lhs.kind() == "identifier" {
            NodeKind::Function
        } else {
            NodeKind::Method
        };
        // Doc and signature start at the statement holding the assignment.
        let stmt = self
            .anc_at(pi.and_then(|i| i.checked_sub(1)))
            .filter(|s| s.kind() == "expression_statement");
        let start = stmt.map_or(lhs.start_byte(), |s| s.start_byte());
        let signature = self.sig_span(start, body.map_or(node.end_byte(), |b| b.start_byte()));
        let doc = stmt.and_then(|s| self.doc(s));
        Some(self.push_symbol(NewSym {
            kind,
            name: short,
            qualified: Some(full),
            node,
            parent,
            signature,
            doc,
            export: if is_exports { Export::Yes } else { Export::No },
        }))
    }

    fn is_private(&self, node: Node<'t>, name: Node<'t>) -> bool {
        if name.kind() == "private_property_identifier" {
            return true;
        }
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .any(|c| c.kind() == "accessibility_modifier" && text(c, self.src) == "private")
    }

    /// Doc anchor of a class member: the first decorator of the run right above it (TS puts
    /// member decorators beside the member in the class body).
    fn member_anchor(&self, node: Node<'t>, in_class: bool) -> Node<'t> {
        let mut anchor = node;
        if in_class {
            while let Some(p) = anchor.prev_named_sibling() {
                if p.kind() != "decorator" {
                    break;
                }
                anchor = p;
            }
        }
        anchor
    }

    /// Export rule for members of object literals: exported with `export default {}` /
    /// `module.exports = {}`, else when the parent symbol is.
    fn object_member_export(&self, pi: Option<usize>) -> Export {
        if self.anc_kind(pi) != "object" {
            return Export::Parent;
        }
        let Some(outer) = self.anc_at(pi.and_then(|i| i.checked_sub(1))) else {
            return Export::Parent;
        };
        match outer.kind() {
            "export_statement" => Export::Yes,
            "assignment_expression" => {
                let lhs = outer
                    .child_by_field_name("left")
                    .map_or(String::new(), |l| dotted(text(l, self.src)));
                if lhs.starts_with("module.exports") || lhs.starts_with("exports.") {
                    Export::Yes
                } else {
                    Export::Parent
                }
            }
            _ => Export::Parent,
        }
    }

    fn open_method(&mut self, node: Node<'t>, pi: Option<usize>, has_body: bool) {
        let name_node = node.child_by_field_name("name");
        let name = match name_node {
            Some(n) => prop_name(n, self.src),
            None if node.kind() == "construct_signature" => "constructor".to_string(),
            None => return,
        };
        let in_class = self.anc_kind(pi) == "class_body";
        let export = if name_node.is_some_and(|n| self.is_private(node, n)) {
            Export::No
        } else if in_class || self.anc_kind(pi) != "object" {
            Export::Parent
        } else {
            self.object_member_export(pi)
        };
        let parent = self.scope();
        let body = node.child_by_field_name("body");
        let anchor = self.member_anchor(node, in_class);
        let doc = self
            .doc(anchor)
            .or_else(|| if in_class && has_body { self.overload_doc(anchor) } else { None });
        let sym = self.push_symbol(NewSym {
            kind: NodeKind::Method,
            name,
            qualified: None,
            node,
            parent,
            signature: self.sig(node, body),
            doc,
            export,
        });
        self.push_frame(node, has_body, Some(sym), None);
        self.return_hint(node, sym);
    }

    fn open_field(&mut self, node: Node<'t>, pi: Option<usize>) {
        let Some(name_node) =
            node.child_by_field_name("name").or_else(|| node.child_by_field_name("property"))
        else {
            return;
        };
        let name = prop_name(name_node, self.src);
        let value = node.child_by_field_name("value");
        let is_fn = value.is_some_and(|v| is_function_expr(unwrap_expr(v).kind()));
        let export = if self.is_private(node, name_node) { Export::No } else { Export::Parent };
        let class = self.scope();
        let anchor = self.member_anchor(node, self.anc_kind(pi) == "class_body");
        let signature = match value.map(unwrap_expr) {
            Some(v) if is_fn => self.sig_span(
                sig_start(node),
                v.child_by_field_name("body").map_or(v.end_byte(), |b| b.start_byte()),
            ),
            _ => self.sig(node, None),
        };
        let sym = self.push_symbol(NewSym {
            kind: if is_fn { NodeKind::Method } else { NodeKind::Property },
            name: name.clone(),
            qualified: None,
            node,
            parent: class,
            signature,
            doc: self.doc(anchor),
            export,
        });
        if let Some(ty) = node.child_by_field_name("type").and_then(|t| type_name(t, self.src)) {
            self.facts.type_hints.push(TypeHint {
                scope: class,
                name,
                source: HintSource::Annotation(ty),
                line: start_line(node),
                visible: None,
            });
        }
        self.push_frame(node, false, Some(sym), None);
    }

    /// Interface / type-literal property signatures, enum members with an initializer.
    fn open_member(&mut self, node: Node<'t>, kind: NodeKind, frame: bool) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let parent = self.scope();
        let sym = self.push_symbol(NewSym {
            kind,
            name: prop_name(name_node, self.src),
            qualified: None,
            node,
            parent,
            signature: util::signature(node, None, self.src),
            doc: self.doc(node),
            export: Export::Parent,
        });
        if frame || kind == NodeKind::Property {
            self.push_frame(node, false, Some(sym), None);
        }
    }

    fn enum_bare_member(&mut self, node: Node<'t>) {
        let parent = self.scope();
        self.push_symbol(NewSym {
            kind: NodeKind::Property,
            name: prop_name(node, self.src),
            qualified: None,
            node,
            parent,
            signature: util::signature(node, None, self.src),
            doc: self.doc(node),
            export: Export::Parent,
        });
    }

    fn open_type_decl(&mut self, node: Node<'t>, pi: Option<usize>, kind: NodeKind) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let (anchor, export) = self.decl_context(node, pi);
        let parent = self.scope();
        let body = match kind {
            NodeKind::TypeAlias => None,
            _ => node.child_by_field_name("body"),
        };
        let signature = match kind {
            NodeKind::TypeAlias => self.sig_span(
                node.start_byte(),
                node.child_by_field_name("value")
                    .filter(|v| v.kind() == "object_type")
                    .map_or(node.end_byte(), |v| v.start_byte()),
            ),
            _ => self.sig(node, body),
        };
        let sym = self.push_symbol(NewSym {
            kind,
            name: text(name_node, self.src).to_string(),
            qualified: None,
            node,
            parent,
            signature,
            doc: self.doc(anchor),
            export,
        });
        self.push_frame(node, false, Some(sym), None);
        if kind == NodeKind::Interface {
            let mut cursor = node.walk();
            let clauses: Vec<Node<'t>> = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "extends_type_clause")
                .collect();
            for clause in clauses {
                let mut cc = clause.walk();
                for t in clause.named_children(&mut cc) {
                    self.heritage(sym, HeritageKind::Extends, t);
                }
            }
        }
    }

    /// `namespace A.B {}`, `module M {}`, `declare module 'x' {}`, `declare global {}`: one
    /// Variable symbol per name segment (a namespace is a runtime object, and NodeKind has no
    /// namespace kind), each a named container as in the oracle (`A.B.f`).
    fn open_namespace(&mut self, node: Node<'t>, pi: Option<usize>) {
        let names: Vec<String> = match node.child_by_field_name("name") {
            Some(n) if n.kind() == "string" => vec![string_content(n, self.src).to_string()],
            Some(n) => dotted(text(n, self.src))
                .split('.')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            None if node.kind() == "ambient_declaration" => vec!["global".to_string()],
            None => return,
        };
        let (anchor, mut export) = self.decl_context(node, pi);
        let declare =
            self.anc_kind(pi) == "ambient_declaration" || node.kind() == "ambient_declaration";
        let body = node.child_by_field_name("body").or_else(|| {
            let mut cursor = node.walk();
            node.named_children(&mut cursor).find(|c| c.kind() == "statement_block")
        });
        let signature = self.sig(node, body);
        let doc = self.doc(anchor);
        for name in names {
            let parent = self.scope();
            let sym = self.push_symbol(NewSym {
                kind: NodeKind::Variable,
                name,
                qualified: None,
                node,
                parent,
                signature: signature.clone(),
                doc: doc.clone(),
                export,
            });
            self.push_frame_full(node, false, true, Some(sym), None, true, declare);
            export = Export::Parent;
        }
    }

    fn open_declarator(&mut self, node: Node<'t>, pi: Option<usize>) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let value = node.child_by_field_name("value");
        let init = value.map(unwrap_expr);
        let init_kind = init.map_or("", |v| v.kind());
        let is_fn = is_function_expr(init_kind);
        let is_class = init_kind == "class";
        let decl = self.anc_at(pi);
        let in_for = matches!(
            self.anc_kind(pi.and_then(|i| i.checked_sub(1))),
            "for_statement" | "for_in_statement"
        );
        let module_level = self.func_depth == 0 && !in_for;
        let scope = self.scope();
        if name_node.kind() != "identifier" {
            if module_level {
                self.destructured(node, name_node, decl, pi, scope);
            }
            if let Some(v) = value {
                self.destructure_hints(name_node, v, scope);
            }
            return;
        }
        let name = text(name_node, self.src).to_string();
        self.variable_hint(node, &name, value, scope);
        if !(module_level || is_fn || is_class) {
            return;
        }
        let kind = if is_fn {
            NodeKind::Function
        } else if is_class {
            NodeKind::Class
        } else if decl.is_some_and(|d| {
            d.kind() == "lexical_declaration"
                && d.child_by_field_name("kind").is_some_and(|k| text(k, self.src) == "const")
        }) {
            NodeKind::Constant
        } else {
            NodeKind::Variable
        };
        let (anchor, export) = self.decl_context(node, pi);
        let start = decl.map_or(node.start_byte(), |d| d.start_byte());
        let end = match init {
            Some(v) if is_fn => {
                v.child_by_field_name("body").map_or(v.end_byte(), |b| b.start_byte())
            }
            Some(v) if is_class => {
                v.child_by_field_name("body").map_or(v.end_byte(), |b| b.start_byte())
            }
            // A data literal says nothing a signature should repeat.
            Some(v) if matches!(v.kind(), "object" | "array") => v.start_byte(),
            _ => node.end_byte(),
        };
        let signature = self.sig_span(start, end);
        let sym = self.push_symbol(NewSym {
            kind,
            name,
            qualified: None,
            node,
            parent: scope,
            signature,
            doc: self.doc(anchor),
            export,
        });
        self.push_frame(node, false, Some(sym), None);
    }

    /// Module-level `const { a, b: [c] } = ...`: one symbol per bound name (no container: the
    /// oracle gives destructuring declarations no name).
    fn destructured(
        &mut self,
        node: Node<'t>,
        pattern: Node<'t>,
        decl: Option<Node<'t>>,
        pi: Option<usize>,
        scope: Option<SymbolIdx>,
    ) {
        let kind = if decl.is_some_and(|d| {
            d.kind() == "lexical_declaration"
                && d.child_by_field_name("kind").is_some_and(|k| text(k, self.src) == "const")
        }) {
            NodeKind::Constant
        } else {
            NodeKind::Variable
        };
        let (anchor, export) = self.decl_context(node, pi);
        let doc = self.doc(anchor);
        let signature =
            self.sig_span(decl.map_or(node.start_byte(), |d| d.start_byte()), node.end_byte());
        for id in bound_names(pattern) {
            self.push_symbol(NewSym {
                kind,
                name: text(id, self.src).to_string(),
                qualified: None,
                node,
                parent: scope,
                signature: signature.clone(),
                doc: doc.clone(),
                export,
            });
        }
    }

    fn variable_hint(
        &mut self,
        node: Node<'t>,
        name: &str,
        value: Option<Node<'t>>,
        scope: Option<SymbolIdx>,
    ) {
        let source = if let Some(t) = node.child_by_field_name("type") {
            type_name(t, self.src).map(HintSource::Annotation)
        } else {
            value.and_then(|v| self.value_hint(v))
        };
        if let Some(source) = source {
            self.facts.type_hints.push(TypeHint {
                scope,
                name: name.to_string(),
                source,
                line: start_line(node),
                visible: None,
            });
        }
    }

    /// `const { a, b: c } = this.x`: each name bound straight from a property holds that
    /// property's value (`this.x.a`, `this.x.b`); nested patterns are skipped.
    fn destructure_hints(&mut self, pattern: Node<'t>, value: Node<'t>, scope: Option<SymbolIdx>) {
        if pattern.kind() != "object_pattern" {
            return;
        }
        let Some(base) = value_path(value, self.src) else { return };
        let mut cursor = pattern.walk();
        let kids: Vec<Node<'t>> = pattern.named_children(&mut cursor).collect();
        for k in kids {
            let (key, local) = match k.kind() {
                "shorthand_property_identifier_pattern" => (text(k, self.src), text(k, self.src)),
                "object_assignment_pattern" => match k.child_by_field_name("left") {
                    Some(l) if l.kind() == "shorthand_property_identifier_pattern" => {
                        (text(l, self.src), text(l, self.src))
                    }
                    _ => continue,
                },
                "pair_pattern" => {
                    let key =
                        k.child_by_field_name("key").filter(|n| n.kind() == "property_identifier");
                    let val = k.child_by_field_name("value").filter(|n| n.kind() == "identifier");
                    match (key, val) {
                        (Some(key), Some(val)) => (text(key, self.src), text(val, self.src)),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let mut path = base.clone();
            path.push(key.to_string());
            self.facts.type_hints.push(TypeHint {
                scope,
                name: local.to_string(),
                source: HintSource::Value(Receiver::Path(path)),
                line: start_line(k),
                visible: None,
            });
        }
    }

    /// `for (const x of a.b)`: `x` holds an element of `a.b`, whose hint type is its element
    /// type already (type names are stripped of `[]`). `for await` and `for ... in` are skipped.
    fn for_of(&mut self, node: Node<'t>) {
        let of = node.child_by_field_name("operator").is_some_and(|o| o.kind() == "of");
        if !of || node.child_by_field_name("kind").is_none() || has_token(node, "await") {
            return;
        }
        let (Some(left), Some(right)) =
            (node.child_by_field_name("left"), node.child_by_field_name("right"))
        else {
            return;
        };
        if left.kind() != "identifier" {
            return;
        }
        let Some(path) = value_path(right, self.src) else { return };
        let scope = self.scope();
        self.facts.type_hints.push(TypeHint {
            scope,
            name: text(left, self.src).to_string(),
            source: HintSource::Value(Receiver::Path(path)),
            line: start_line(node),
            visible: None,
        });
    }

    /// `x instanceof C` narrows `x` to `C`; kept flow-insensitively as a hint of the enclosing
    /// function, read after the declared type (the resolver takes the first hint that names a
    /// class or interface).
    fn instanceof(&mut self, node: Node<'t>) {
        let is_instanceof =
            node.child_by_field_name("operator").is_some_and(|o| o.kind() == "instanceof");
        if !is_instanceof {
            return;
        }
        let (Some(left), Some(right)) =
            (node.child_by_field_name("left"), node.child_by_field_name("right"))
        else {
            return;
        };
        let left = unwrap_expr(left);
        if left.kind() != "identifier" {
            return;
        }
        let Some(ty) = heritage_target(right, self.src) else { return };
        let scope = self.scope();
        self.facts.type_hints.push(TypeHint {
            scope,
            name: text(left, self.src).to_string(),
            source: HintSource::Annotation(ty),
            line: start_line(node),
            visible: None,
        });
    }

    /// `new Foo()` -> Construct, `f()` / `a.b()` / `await f()` -> CallResult, `[new Foo()]` ->
    /// Construct (array types read as their element type), `this` / `a.b` -> Value.
    fn value_hint(&self, value: Node<'t>) -> Option<HintSource> {
        let mut v = unwrap_expr(value);
        if v.kind() == "await_expression" {
            v = unwrap_expr(first_named(v)?);
        }
        if v.kind() == "array" {
            let first = first_named(v).filter(|e| unwrap_expr(*e).kind() == "new_expression")?;
            return self.value_hint(first);
        }
        if let Some(path) = value_path(v, self.src) {
            return Some(HintSource::Value(Receiver::Path(path)));
        }
        match v.kind() {
            "new_expression" => {
                let c = v.child_by_field_name("constructor")?;
                heritage_target(c, self.src).map(HintSource::Construct)
            }
            "call_expression" if !is_tagged_template(v) => {
                let f = v.child_by_field_name("function")?;
                if f.kind() == "import" {
                    return None;
                }
                let (callee, _) = callee_of(f, self.src)?;
                if callee.receiver == Receiver::None && callee.name == "require" {
                    return None;
                }
                Some(HintSource::CallResult(callee))
            }
            _ => None,
        }
    }

    fn open_pair(&mut self, node: Node<'t>, pi: Option<usize>) {
        let Some(key) = node.child_by_field_name("key") else {
            return;
        };
        let value = node.child_by_field_name("value");
        if is_fn_or_class_value(value) {
            let is_class = value.is_some_and(|v| unwrap_expr(v).kind() == "class");
            let parent = self.scope();
            let end = value
                .map(unwrap_expr)
                .and_then(|v| v.child_by_field_name("body"))
                .map_or(node.end_byte(), |b| b.start_byte());
            let sym = self.push_symbol(NewSym {
                kind: if is_class { NodeKind::Class } else { NodeKind::Method },
                name: prop_name(key, self.src),
                qualified: None,
                node,
                parent,
                signature: self.sig_span(node.start_byte(), end),
                doc: self.doc(node),
                export: self.object_member_export(pi),
            });
            self.push_frame(node, false, Some(sym), None);
        } else if self.func_depth == 0 {
            self.push_frame(node, false, None, Some(node));
        }
    }

    // ----- facts that open no frame -----

    /// Adds the names a binding pattern declares to the function's locals.
    fn declare(&mut self, pattern: Node<'t>) {
        for n in bound_names(pattern) {
            self.locals.insert(text(n, self.src));
        }
    }

    /// A type named in an annotation, a type argument, `as T`, `satisfies T`, a generic
    /// constraint...: REFERS_TO the declared type. Not a declaration's own name, and not a
    /// heritage clause (EXTENDS / IMPLEMENTS).
    fn type_ref(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        let Some(parent) = self.anc_at(pi) else { return };
        if parent.child_by_field_name("name").is_some_and(|n| n.id() == node.id())
            || matches!(
                parent.kind(),
                "implements_clause" | "extends_type_clause" | "type_parameter"
            )
        {
            return;
        }
        let name = text(node, self.src);
        self.push_ref(
            true,
            Callee { receiver: Receiver::None, name: name.to_string() },
            node,
            name,
        );
    }

    /// `ns.T` in a type position.
    fn nested_type_ref(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        if matches!(self.anc_kind(pi), "implements_clause" | "extends_type_clause") {
            return;
        }
        let (Some(module), Some(name)) =
            (node.child_by_field_name("module"), node.child_by_field_name("name"))
        else {
            return;
        };
        if module.kind() != "identifier" {
            return;
        }
        let callee = Callee {
            receiver: Receiver::Path(vec![text(module, self.src).to_string()]),
            name: text(name, self.src).to_string(),
        };
        self.push_ref(true, callee, name, text(node, self.src));
    }

    /// A name used as a value, not called: an argument, an element, a returned or assigned
    /// value, an operand, an object's `{ name }` or `key: name`, the object of a member read
    /// (`CONFIG.port`). Resolution keeps what names a module-level declaration of the
    /// workspace (a function, class, constant, variable or enum) through imports like a call.
    fn value_ref(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        let Some(parent) = self.anc_at(pi) else { return };
        let field_is = |f: &str| parent.child_by_field_name(f).is_some_and(|n| n.id() == node.id());
        let value = match parent.kind() {
            "arguments"
            | "array"
            | "return_statement"
            | "binary_expression"
            | "unary_expression"
            | "parenthesized_expression"
            | "ternary_expression"
            | "spread_element"
            | "template_substitution"
            | "await_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
            | "switch_case"
            | "subscript_expression"
            | "jsx_expression"
            | "sequence_expression"
            | "update_expression"
            | "object" => true,
            "pair" | "variable_declarator" | "public_field_definition" | "field_definition" => {
                field_is("value")
            }
            "assignment_expression" | "augmented_assignment_expression" => {
                field_is("right") || field_is("left")
            }
            "member_expression" => field_is("object"),
            "arrow_function" => field_is("body"),
            _ => false,
        };
        if !value {
            return;
        }
        let name = text(node, self.src);
        if self.locals.contains(name)
            || matches!(name, "undefined" | "arguments" | "require" | "module" | "exports")
        {
            return;
        }
        self.push_ref(
            false,
            Callee { receiver: Receiver::None, name: name.to_string() },
            node,
            name,
        );
    }

    fn push_ref(&mut self, ty: bool, callee: Callee, at: Node<'t>, key: &'s str) {
        let enclosing = self.existing_scope();
        if !self.seen_refs.insert((enclosing, ty, key)) {
            return;
        }
        let site = CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(at),
            col: start_col(at),
            enclosing,
        };
        if ty {
            self.facts.type_refs.push(site);
        } else {
            self.facts.value_refs.push(site);
        }
    }

    fn decorator(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        if self.anc_kind(pi) != "class_body" {
            return;
        }
        let mut next = node.next_named_sibling();
        while let Some(n) = next {
            if matches!(n.kind(), "decorator" | "comment") {
                next = n.next_named_sibling();
            } else {
                break;
            }
        }
        let Some(member) = next else { return };
        if self.frames.last().is_some_and(|f| f.owner == member.id()) {
            return;
        }
        self.open(member, pi);
    }

    fn call(&mut self, node: Node<'t>) {
        if is_tagged_template(node) {
            return;
        }
        let Some(func) = node.child_by_field_name("function") else {
            return;
        };
        if func.kind() == "import" {
            if let Some(source) = self.single_string_arg(node) {
                self.facts.imports.push(Import {
                    source,
                    kind: ImportKind::Dynamic,
                    bindings: Vec::new(),
                    line: start_line(node),
                });
            }
            return;
        }
        if func.kind() == "identifier" && text(func, self.src) == "require" {
            self.require(node);
        }
        let Some((callee, name_node)) =
            callee_of(func, self.src).or_else(|| self.called_call_result(func))
        else {
            return;
        };
        let enclosing = self.scope();
        self.facts.calls.push(CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(name_node),
            col: start_col(name_node),
            enclosing,
        });
    }

    /// A member expression that is not called (`a.b()` is a call site, `new a.B()` a
    /// construction): a field read, or a write when it is assigned, updated or deleted.
    fn access(&mut self, node: Node<'t>) {
        // Climb the wrappers `callee_of` looks through: `(a.b)()`, `a.b!()`, `(a.b as F)()`.
        let mut child = node;
        let mut i = self.parent_index();
        let parent = loop {
            let Some(p) = self.anc_at(i) else { return };
            if matches!(
                p.kind(),
                "parenthesized_expression"
                    | "non_null_expression"
                    | "as_expression"
                    | "satisfies_expression"
                    | "type_assertion"
            ) {
                child = p;
                i = i.and_then(|k| k.checked_sub(1));
                continue;
            }
            break p;
        };
        let is =
            |field: &str| parent.child_by_field_name(field).is_some_and(|c| c.id() == child.id());
        let write = match parent.kind() {
            "call_expression" if is("function") => return,
            "new_expression" if is("constructor") => return,
            // `typeof a.b` in a type, `extends ns.Base` (a heritage clause, not a read).
            "type_query" | "extends_clause" | "class_heritage" => return,
            "assignment_expression" | "augmented_assignment_expression" => is("left"),
            "update_expression" => is("argument"),
            "unary_expression" => {
                is("argument")
                    && parent.child_by_field_name("operator").is_some_and(|o| o.kind() == "delete")
            }
            _ => false,
        };
        let Some((callee, name_node)) = callee_of(node, self.src) else {
            return;
        };
        self.facts.accesses.push(FieldAccess {
            receiver: callee.receiver,
            name: callee.name,
            line: start_line(name_node),
            enclosing: self.existing_scope(),
            write,
        });
    }

    /// `f()()` / `require('x')(opts)`: the result of a call is itself called. The compiler
    /// counts (and resolves) these sites, so they are kept with an empty name and the inner
    /// call as receiver, positioned where the compiler puts them (the start of the inner call).
    fn called_call_result(&self, func: Node<'t>) -> Option<(Callee, Node<'t>)> {
        let inner = unwrap_expr(func);
        if inner.kind() != "call_expression" || is_tagged_template(inner) {
            return None;
        }
        let (inner_callee, _) = callee_of(inner.child_by_field_name("function")?, self.src)?;
        Some((
            Callee { receiver: Receiver::CallResult(Box::new(inner_callee)), name: String::new() },
            inner,
        ))
    }

    fn new_expression(&mut self, node: Node<'t>) {
        let Some(ctor) = node.child_by_field_name("constructor") else {
            return;
        };
        let Some((callee, name_node)) = callee_of(ctor, self.src) else {
            return;
        };
        let enclosing = self.scope();
        self.facts.calls.push(CallSite {
            callee,
            kind: CallKind::New,
            line: start_line(name_node),
            col: start_col(name_node),
            enclosing,
        });
    }

    fn single_string_arg(&self, call: Node<'t>) -> Option<String> {
        let args = call.child_by_field_name("arguments")?;
        let mut cursor = args.walk();
        let mut it = args.named_children(&mut cursor).filter(|c| c.kind() != "comment");
        let first = it.next()?;
        if it.next().is_some() || first.kind() != "string" {
            return None;
        }
        Some(string_content(first, self.src).to_string())
    }

    /// `require('m')`: bindings from the declarator it initialises, if any.
    fn require(&mut self, call: Node<'t>) {
        let Some(source) = self.single_string_arg(call) else {
            return;
        };
        let pi = self.parent_index();
        let mut bindings = Vec::new();
        if let Some(p) = self.anc_at(pi) {
            match p.kind() {
                "variable_declarator" => {
                    if let Some(name) = p.child_by_field_name("name") {
                        bindings = self.require_bindings(name);
                    }
                }
                "member_expression" => {
                    let gp = self.anc_at(pi.and_then(|i| i.checked_sub(1)));
                    let prop = p.child_by_field_name("property");
                    let local = gp
                        .filter(|g| g.kind() == "variable_declarator")
                        .and_then(|g| g.child_by_field_name("name"))
                        .filter(|n| n.kind() == "identifier");
                    if let (Some(prop), Some(local)) = (prop, local) {
                        let prop = text(prop, self.src);
                        let local = text(local, self.src);
                        bindings.push(ImportBinding {
                            imported: Imported::Named(prop.to_string()),
                            local: (local != prop).then(|| local.to_string()),
                        });
                    }
                }
                _ => {}
            }
        }
        self.facts.imports.push(Import {
            source,
            kind: ImportKind::Require,
            bindings,
            line: start_line(call),
        });
    }

    fn require_bindings(&self, pattern: Node<'t>) -> Vec<ImportBinding> {
        let mut out = Vec::new();
        match pattern.kind() {
            "identifier" => out.push(ImportBinding {
                imported: Imported::Namespace,
                local: Some(text(pattern, self.src).to_string()),
            }),
            "object_pattern" => {
                let mut cursor = pattern.walk();
                for c in pattern.named_children(&mut cursor) {
                    let (key, local) = match c.kind() {
                        "shorthand_property_identifier_pattern" => (Some(c), None),
                        "object_assignment_pattern" => (c.child_by_field_name("left"), None),
                        "pair_pattern" => {
                            let mut v = c.child_by_field_name("value");
                            if let Some(a) = v.filter(|v| v.kind() == "assignment_pattern") {
                                v = a.child_by_field_name("left");
                            }
                            (c.child_by_field_name("key"), v.filter(|v| v.kind() == "identifier"))
                        }
                        _ => (None, None),
                    };
                    let Some(key) = key else { continue };
                    let key = prop_name(key, self.src);
                    let local =
                        local.map(|l| text(l, self.src)).filter(|l| *l != key).map(str::to_string);
                    out.push(ImportBinding { imported: Imported::Named(key), local });
                }
            }
            _ => {}
        }
        out
    }

    fn import_statement(&mut self, node: Node<'t>) {
        let type_only = has_token(node, "type");
        let mut bindings = Vec::new();
        let mut kind = ImportKind::EsImport;
        let mut source = node.child_by_field_name("source");
        let (mut values, mut specs) = (false, false);
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "import_clause" => {
                    let mut cc = child.walk();
                    for c in child.named_children(&mut cc) {
                        match c.kind() {
                            "identifier" => {
                                values = true;
                                bindings.push(ImportBinding {
                                    imported: Imported::Default,
                                    local: Some(text(c, self.src).to_string()),
                                });
                            }
                            "namespace_import" => {
                                values = true;
                                bindings.push(ImportBinding {
                                    imported: Imported::Namespace,
                                    local: first_named(c).map(|i| text(i, self.src).to_string()),
                                });
                            }
                            "named_imports" => {
                                let mut sc = c.walk();
                                for spec in c.named_children(&mut sc) {
                                    if spec.kind() != "import_specifier" {
                                        continue;
                                    }
                                    let Some(name) = spec.child_by_field_name("name") else {
                                        continue;
                                    };
                                    specs = true;
                                    if !has_token(spec, "type") {
                                        values = true;
                                    }
                                    bindings.push(ImportBinding {
                                        imported: Imported::Named(prop_name(name, self.src)),
                                        local: spec
                                            .child_by_field_name("alias")
                                            .map(|a| text(a, self.src).to_string()),
                                    });
                                }
                            }
                            _ => {}
                        }
                    }
                }
                "import_require_clause" => {
                    kind = ImportKind::Require;
                    source = child.child_by_field_name("source");
                    let mut cc = child.walk();
                    let local = child
                        .named_children(&mut cc)
                        .find(|c| c.kind() == "identifier")
                        .map(|i| text(i, self.src).to_string());
                    bindings.push(ImportBinding { imported: Imported::Namespace, local });
                }
                _ => {}
            }
        }
        let Some(source) = source else { return };
        if kind == ImportKind::EsImport && (type_only || (specs && !values)) {
            kind = ImportKind::TypeOnly;
        }
        self.facts.imports.push(Import {
            source: string_content(source, self.src).to_string(),
            kind,
            bindings,
            line: start_line(node),
        });
    }

    /// CommonJS `module.exports = f` (the module's default, what `require` gives) and
    /// `module.exports = { f, g: g }` (those top-level names exported, as `export { f, g }`).
    fn commonjs_exports(&mut self, node: Node<'t>) {
        let Some(left) = node.child_by_field_name("left") else { return };
        if dotted(text(left, self.src)) != "module.exports" {
            return;
        }
        let Some(right) = node.child_by_field_name("right") else { return };
        match right.kind() {
            "identifier" => {
                let name = text(right, self.src).to_string();
                self.facts.default_export.get_or_insert_with(|| name.clone());
                self.exported_names.insert(name);
            }
            "object" => {
                let mut c = right.walk();
                for member in right.named_children(&mut c) {
                    let name = match member.kind() {
                        "shorthand_property_identifier" => text(member, self.src).to_string(),
                        "pair" => {
                            let (Some(k), Some(v)) = (
                                member.child_by_field_name("key"),
                                member.child_by_field_name("value"),
                            ) else {
                                continue;
                            };
                            let key = prop_name(k, self.src);
                            if v.kind() != "identifier" || text(v, self.src) != key {
                                continue;
                            }
                            key
                        }
                        _ => continue,
                    };
                    self.exported_names.insert(name);
                }
            }
            _ => {}
        }
    }

    fn export_statement(&mut self, node: Node<'t>) {
        if let Some(source) = node.child_by_field_name("source") {
            let mut bindings = Vec::new();
            let mut all = true;
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                match child.kind() {
                    "namespace_export" => {
                        all = false;
                        bindings.push(ImportBinding {
                            imported: Imported::Namespace,
                            local: first_named(child).map(|i| prop_name(i, self.src)),
                        });
                    }
                    "export_clause" => {
                        all = false;
                        let mut sc = child.walk();
                        for spec in child.named_children(&mut sc) {
                            let Some(name) = spec.child_by_field_name("name") else {
                                continue;
                            };
                            let name = prop_name(name, self.src);
                            let local =
                                spec.child_by_field_name("alias").map(|a| prop_name(a, self.src));
                            bindings.push(ImportBinding {
                                imported: if name == "default" {
                                    Imported::Default
                                } else {
                                    Imported::Named(name)
                                },
                                local,
                            });
                        }
                    }
                    _ => {}
                }
            }
            if all {
                bindings.push(ImportBinding { imported: Imported::All, local: None });
            }
            self.facts.imports.push(Import {
                source: string_content(source, self.src).to_string(),
                kind: ImportKind::ReExport,
                bindings,
                line: start_line(node),
            });
            return;
        }
        let is_default = {
            let mut c = node.walk();
            node.children(&mut c).any(|ch| ch.kind() == "default")
        };
        if is_default
            && let Some(name) =
                node.child_by_field_name("declaration").and_then(|d| d.child_by_field_name("name"))
        {
            self.facts.default_export = Some(text(name, self.src).to_string());
        }
        let mut cursor = node.walk();
        let mut decorated = false;
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "export_clause" => {
                    let mut sc = child.walk();
                    for spec in child.named_children(&mut sc) {
                        if let Some(name) = spec.child_by_field_name("name") {
                            let name = prop_name(name, self.src);
                            // `export { router as default }`
                            if spec
                                .child_by_field_name("alias")
                                .is_some_and(|a| prop_name(a, self.src) == "default")
                            {
                                self.facts.default_export = Some(name.clone());
                            }
                            self.exported_names.insert(name);
                        }
                    }
                }
                "identifier" => {
                    let name = text(child, self.src).to_string();
                    if is_default {
                        self.facts.default_export = Some(name.clone());
                    }
                    self.exported_names.insert(name);
                }
                "decorator" => decorated = true,
                _ => {}
            }
        }
        if decorated {
            // Decorators of an exported class precede it inside the export statement; the
            // compiler attributes their calls to the class, so open the class first.
            if let Some(decl) = node
                .child_by_field_name("declaration")
                .filter(|d| matches!(d.kind(), "class_declaration" | "abstract_class_declaration"))
            {
                let pi = self.anc.len().checked_sub(1);
                self.open(decl, pi);
            }
        }
    }

    fn parameter(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        if self.anc_kind(pi) != "formal_parameters" {
            return;
        }
        let owner = self.anc_at(pi.and_then(|i| i.checked_sub(1)));
        let Some(owner) = owner.filter(|o| FUNCTION_OWNERS.contains(&o.kind())) else {
            return;
        };
        if node.child_by_field_name("pattern").is_some_and(|p| p.kind() == "this") {
            // `function (this: T, ...)`: what `this` is where no class says otherwise.
            if let Some(ty) = node.child_by_field_name("type").and_then(|t| type_name(t, self.src))
            {
                let scope = self.scope();
                self.facts.type_hints.push(TypeHint {
                    scope,
                    name: "this".to_string(),
                    source: HintSource::Annotation(ty),
                    line: start_line(node),
                    visible: None,
                });
            }
            return;
        }
        let name = node.child_by_field_name("pattern").and_then(|p| match p.kind() {
            "identifier" => Some(p),
            "rest_pattern" => first_named(p).filter(|i| i.kind() == "identifier"),
            _ => None,
        });
        let Some(name_node) = name else { return };
        let name = text(name_node, self.src).to_string();
        let ty = node.child_by_field_name("type").and_then(|t| type_name(t, self.src));
        let scope = self.scope();
        let is_property = owner.kind() == "method_definition"
            && owner
                .child_by_field_name("name")
                .is_some_and(|n| text(n, self.src) == "constructor")
            && {
                let mut cursor = node.walk();
                node.children(&mut cursor).any(|c| {
                    matches!(c.kind(), "accessibility_modifier" | "override_modifier")
                        || (!c.is_named() && c.kind() == "readonly")
                })
            };
        if is_property {
            let class = scope.and_then(|s| self.facts.symbols.get(s as usize)?.parent);
            let private = self.is_private(node, name_node);
            self.push_symbol(NewSym {
                kind: NodeKind::Property,
                name: name.clone(),
                qualified: None,
                node,
                parent: class,
                signature: util::signature(node, None, self.src),
                doc: None,
                export: if private { Export::No } else { Export::Parent },
            });
            if let Some(ty) = &ty {
                self.facts.type_hints.push(TypeHint {
                    scope: class,
                    name: name.clone(),
                    source: HintSource::Annotation(ty.clone()),
                    line: start_line(node),
                    visible: None,
                });
            }
        }
        let position = self.anc_at(pi).map_or(0, |params| named_position(params, node));
        if ty.is_none() {
            self.param_fn_hints(node, scope, &name, position);
        }
        if let Some(ty) = ty {
            self.facts.type_hints.push(TypeHint {
                scope,
                name,
                source: HintSource::Annotation(ty),
                line: start_line(node),
                visible: None,
            });
        } else if is_function_expr(owner.kind()) {
            self.callback_hint(node, pi, owner, scope, name, position);
        }
    }

    /// `f(..., (a, b) => ...)`: untyped parameters of a function passed as an argument take
    /// their type from the callee's declared callback parameter.
    fn callback_hint(
        &mut self,
        node: Node<'t>,
        pi: Option<usize>,
        owner: Node<'t>,
        scope: Option<SymbolIdx>,
        name: String,
        param: u32,
    ) {
        let up = |k: usize| pi.and_then(|i| i.checked_sub(k));
        let args = self.anc_at(up(2)).filter(|a| a.kind() == "arguments");
        let call = self.anc_at(up(3));
        let (Some(args), Some(call)) = (args, call) else { return };
        let func = match call.kind() {
            "call_expression" => call.child_by_field_name("function"),
            "new_expression" => call.child_by_field_name("constructor"),
            _ => None,
        };
        let Some((callee, _)) = func.and_then(|f| callee_of(f, self.src)) else {
            return;
        };
        let arg = named_position(args, owner);
        self.facts.type_hints.push(TypeHint {
            scope,
            name,
            source: HintSource::Callback { callee, arg, param },
            line: start_line(node),
            visible: None,
        });
    }

    /// `init: (a: A, b: B) => R`: the types of a function-typed parameter's own parameters.
    fn param_fn_hints(&mut self, node: Node<'t>, scope: Option<SymbolIdx>, name: &str, index: u32) {
        let Some(ft) = node
            .child_by_field_name("type")
            .and_then(first_named)
            .filter(|t| t.kind() == "function_type")
        else {
            return;
        };
        let Some(params) = ft.child_by_field_name("parameters") else { return };
        let mut cursor = params.walk();
        // A `this:` parameter declares the receiver, not a position.
        let kids: Vec<Node<'t>> = params
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .filter(|c| {
                c.child_by_field_name("pattern").is_none_or(|p| text(p, self.src) != "this")
            })
            .collect();
        for (j, p) in kids.into_iter().enumerate() {
            let Some(ty) = p.child_by_field_name("type").and_then(|t| type_name(t, self.src))
            else {
                continue;
            };
            self.facts.type_hints.push(TypeHint {
                scope,
                name: name.to_string(),
                source: HintSource::ParamFn {
                    index,
                    param: u32::try_from(j).unwrap_or(u32::MAX),
                    ty,
                },
                line: start_line(node),
                visible: None,
            });
        }
    }

    fn finish(mut self) -> FileFacts {
        if !self.exported_names.is_empty() {
            for (i, s) in self.facts.symbols.iter().enumerate() {
                if s.parent.is_none()
                    && self.exported_names.contains(&s.name)
                    && let Some(e) = self.export.get_mut(i)
                {
                    *e = Export::Yes;
                }
            }
        }
        for i in 0..self.facts.symbols.len() {
            let exported = match self.export.get(i).copied().unwrap_or(Export::No) {
                Export::Yes => true,
                Export::No => false,
                Export::Parent => self.facts.symbols[i]
                    .parent
                    .and_then(|p| self.facts.symbols.get(p as usize))
                    .is_some_and(|p| p.exported),
            };
            self.facts.symbols[i].exported = exported;
        }
        self.facts
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
