//! Elixir provider (`.ex`, `.exs`; tree-sitter-elixir): modules, functions by name and arity,
//! the directives that bring modules into scope, calls with their arity, behaviours and
//! protocol implementations, struct literals, and Phoenix router routes (`router.rs`).
//!
//! Symbols: `defmodule` (kind `module`, named by its full dotted name: a nested module is
//! prefixed by its parent's, as Elixir does), `defprotocol` (`interface`), `defimpl P, for: T`
//! (`module` named `P.T`), `def` / `defp` / `defdelegate` (`function`) and `defmacro` /
//! `defmacrop` / `defguard` / `defguardp` (`macro`), named `name/arity` (qualified
//! `Module.name/arity`): every clause of one name and arity is one symbol spanning them all,
//! and default arguments (`\\`) give one symbol per arity they allow. `defstruct` is a
//! `struct` named `%Module{}`. `@doc` / `@moduledoc` strings are docs; `defp`, `defmacrop`
//! and `defguardp` are not exported.
//!
//! Calls ([`FileFacts::calls`]), named `name/arity` (a pipe's left side is one more argument,
//! `&fun/2` a capture of arity 2): remote calls as `Path([module as written])` (`Repo`,
//! `MyApp.Repo`, `__MODULE__`, an Erlang `:ets`, or a variable `mod` for a dynamic module),
//! local calls with no receiver; `apply/2,3` is recorded as written (resolution reports it
//! dynamic). A `defdelegate` calls its target. Special forms and `Kernel` are not recorded.
//! Calls at module level belong to the module.
//!
//! Directives ([`ImportKind::Module`], resolved by their line against module ranges):
//! `alias A.B` (`Namespace` binding, local `B`; `as:` honoured; `alias A.{B, C}` is two),
//! `import A` (`All`, or `Named("f/2")` per `only:` entry), `use A` / `require A` (no binding).
//! `@behaviour B` and `defimpl` are IMPLEMENTS heritage; `%User{...}` is a value reference
//! `User.__struct__`. Other module attributes (`@spec`, `@type`, `@callback`, `@impl`) hold
//! types and options: no calls are recorded from them.

mod router;

use crate::facts::{
    CallKind, CallSite, Callee, FileFacts, Heritage, HeritageKind, Import, ImportBinding,
    ImportKind, Imported, Receiver, Symbol, SymbolIdx,
};
use crate::grammar::grammar_ids;
use crate::util::{collapse_whitespace, count_errors, end_line, start_col, start_line, to_u32};
use crate::{Capability, LanguageSpec, Provider};
use codegraph_schema::NodeKind;
use std::collections::HashMap;
use tree_sitter::Node;

pub struct ElixirProvider;

pub static ELIXIR: ElixirProvider = ElixirProvider;

pub static ELIXIR_SPEC: LanguageSpec = LanguageSpec {
    name: "elixir",
    id_tag: "ex",
    extensions: &["ex", "exs"],
    provider: &ELIXIR,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_test_module,
    call_expressions: None,
};

/// Elixir test code: ExUnit's `*_test.exs` files and anything under `test/` (support modules), `tests/` or `testdata/`.
fn is_test_module(path: &str) -> bool {
    crate::file_name(path).ends_with("_test.exs") || crate::under_dir(path, crate::TEST_DIRS)
}

grammar_ids! {
    pub(crate) struct Ids {
        kinds {
            call = "call",
            identifier = "identifier",
            alias = "alias",
            dot = "dot",
            arguments = "arguments",
            do_block = "do_block",
            keywords = "keywords",
            atom = "atom",
            string = "string",
            quoted_content = "quoted_content",
            list = "list",
            tuple = "tuple",
            binary_operator = "binary_operator",
            unary_operator = "unary_operator",
            map = "map",
            struct_ = "struct",
            comment = "comment",
            interpolation = "interpolation",
        }
        anon {}
        fields {
            target = "target",
            left = "left",
            right = "right",
            operator = "operator",
            operand = "operand",
            key = "key",
            value = "value",
        }
    }
}

/// Special forms and `Kernel` functions and macros: local calls that name no module's function.
const KERNEL: &[&str] = &[
    "if",
    "unless",
    "case",
    "cond",
    "with",
    "for",
    "fn",
    "quote",
    "unquote",
    "unquote_splicing",
    "raise",
    "reraise",
    "throw",
    "try",
    "receive",
    "send",
    "spawn",
    "spawn_link",
    "spawn_monitor",
    "self",
    "is_nil",
    "is_atom",
    "is_binary",
    "is_bitstring",
    "is_list",
    "is_map",
    "is_map_key",
    "is_integer",
    "is_function",
    "is_tuple",
    "is_number",
    "is_float",
    "is_boolean",
    "is_pid",
    "is_port",
    "is_reference",
    "is_struct",
    "is_exception",
    "elem",
    "put_elem",
    "length",
    "hd",
    "tl",
    "map_size",
    "tuple_size",
    "byte_size",
    "bit_size",
    "abs",
    "div",
    "rem",
    "round",
    "trunc",
    "ceil",
    "floor",
    "max",
    "min",
    "not",
    "and",
    "or",
    "in",
    "inspect",
    "to_string",
    "to_charlist",
    "exit",
    "node",
    "make_ref",
    "struct",
    "struct!",
    "get_in",
    "put_in",
    "update_in",
    "pop_in",
    "get_and_update_in",
    "then",
    "tap",
    "match?",
    "binding",
    "dbg",
    "alias",
    "import",
    "require",
    "use",
    "super",
    "defstruct",
    "defexception",
    "defoverridable",
    "defimpl",
    "defprotocol",
    "def",
    "defp",
    "defmacro",
    "defmacrop",
    "defguard",
    "defguardp",
    "defdelegate",
    "defmodule",
    "__MODULE__",
    "__DIR__",
    "__ENV__",
    "__CALLER__",
    "__STACKTRACE__",
    "function_exported?",
    "macro_exported?",
    "var!",
    "destructure",
    "sigil_r",
    "sigil_s",
    "sigil_w",
    "sigil_c",
    "sigil_D",
    "sigil_T",
    "sigil_N",
    "sigil_U",
    "sigil_S",
    "sigil_C",
    "sigil_W",
    "sigil_R",
    "to_timeout",
    "is_non_struct_map",
    "binary_part",
    "binary_slice",
    "apply_with",
    "__block__",
    // Bitstring modifiers (`<<x::size(8)>>`).
    "size",
    "unit",
];

/// What a definition form defines.
fn def_kind(form: &str) -> Option<(NodeKind, bool)> {
    Some(match form {
        "def" | "defdelegate" => (NodeKind::Function, true),
        "defp" => (NodeKind::Function, false),
        "defmacro" | "defguard" => (NodeKind::Macro, true),
        "defmacrop" | "defguardp" => (NodeKind::Macro, false),
        _ => return None,
    })
}

impl Provider for ElixirProvider {
    fn capabilities(&self) -> &'static [Capability] {
        &[
            Capability::Symbols,
            Capability::Imports,
            Capability::Calls,
            Capability::Types,
            Capability::Routes,
        ]
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_elixir::LANGUAGE.into())
    }

    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let mut facts = FileFacts::default();
        let Some(tree) = tree else { return facts };
        facts.syntax_errors = count_errors(tree);
        let mut x = Extractor {
            ids: Ids::of(&tree.language()),
            src: text,
            facts,
            by_name: HashMap::new(),
            pending_doc: None,
        };
        x.body(tree.root_node(), None, None);
        x.facts
    }
}

pub(crate) struct Extractor<'s> {
    pub ids: Ids,
    pub src: &'s str,
    pub facts: FileFacts,
    /// Qualified name -> symbol index: clauses of one function are one symbol.
    by_name: HashMap<String, SymbolIdx>,
    /// The `@doc` string waiting for the next definition.
    pending_doc: Option<String>,
}

impl<'s> Extractor<'s> {
    pub fn text(&self, n: Node<'_>) -> &'s str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    pub fn named_children<'t>(&self, n: Node<'t>) -> Vec<Node<'t>> {
        let mut c = n.walk();
        n.named_children(&mut c).filter(|x| x.kind_id() != self.ids.comment).collect()
    }

    /// The identifier a call's target names (`def`, `get`), `None` for a remote call.
    pub fn call_name(&self, call: Node<'_>) -> Option<&'s str> {
        call.child_by_field_id(self.ids.target)
            .filter(|t| t.kind_id() == self.ids.identifier)
            .map(|t| self.text(t))
    }

    /// A call's argument nodes (empty without an argument list).
    pub fn args<'t>(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let mut c = call.walk();
        let args = call.named_children(&mut c).find(|n| n.kind_id() == self.ids.arguments);
        args.map(|a| self.named_children(a)).unwrap_or_default()
    }

    /// The `do ... end` block of a call, or the value of its `do:` keyword.
    pub fn do_body<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        let mut c = call.walk();
        if let Some(b) = call.named_children(&mut c).find(|n| n.kind_id() == self.ids.do_block) {
            return Some(b);
        }
        self.args(call).into_iter().rev().find_map(|a| self.keyword(a, "do"))
    }

    /// The value of `key:` in a keywords argument.
    pub fn keyword<'t>(&self, kw: Node<'t>, key: &str) -> Option<Node<'t>> {
        if kw.kind_id() != self.ids.keywords {
            return None;
        }
        self.named_children(kw).into_iter().find_map(|p| {
            let k = p.child_by_field_id(self.ids.key)?;
            let name = self.text(k).trim().trim_end_matches(':').trim();
            (name == key).then(|| p.child_by_field_id(self.ids.value)).flatten()
        })
    }

    /// The keywords argument of a call, if any.
    pub fn keywords_arg<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        self.args(call).into_iter().find(|a| a.kind_id() == self.ids.keywords)
    }

    /// A string literal's content (no interpolation), `None` for anything else.
    pub fn string(&self, n: Node<'_>) -> Option<String> {
        if n.kind_id() != self.ids.string {
            return None;
        }
        let parts = self.named_children(n);
        if parts.iter().any(|p| p.kind_id() == self.ids.interpolation) {
            return None;
        }
        Some(
            parts
                .iter()
                .filter(|p| p.kind_id() == self.ids.quoted_content)
                .map(|p| self.text(*p))
                .collect(),
        )
    }

    /// An atom's name without the colon (`:index` -> `index`).
    pub fn atom(&self, n: Node<'_>) -> Option<&'s str> {
        (n.kind_id() == self.ids.atom).then(|| self.text(n).trim_start_matches(':'))
    }

    fn push_symbol(&mut self, s: Symbol) -> SymbolIdx {
        let idx = to_u32(self.facts.symbols.len());
        self.by_name.insert(s.qualified_name.clone(), idx);
        self.facts.symbols.push(s);
        idx
    }

    /// The statements of a module body (or the file), with the enclosing module.
    fn body(&mut self, node: Node<'_>, module: Option<SymbolIdx>, scope: Option<SymbolIdx>) {
        for stmt in self.named_children(node) {
            self.statement(stmt, module, scope);
        }
    }

    fn module_name(&self, module: Option<SymbolIdx>) -> Option<String> {
        module.and_then(|m| self.facts.symbols.get(m as usize)).map(|s| s.qualified_name.clone())
    }

    fn statement(&mut self, stmt: Node<'_>, module: Option<SymbolIdx>, scope: Option<SymbolIdx>) {
        // `@doc "..."`, `@moduledoc "..."`, `@behaviour X`.
        if stmt.kind_id() == self.ids.unary_operator
            && let Some(attr) = stmt.child_by_field_id(self.ids.operand)
            && attr.kind_id() == self.ids.call
            && let Some(name) = self.call_name(attr)
        {
            let arg = self.args(attr).into_iter().next();
            match name {
                "doc" => self.pending_doc = arg.and_then(|a| self.string(a)),
                "moduledoc" => {
                    if let (Some(m), Some(doc)) = (module, arg.and_then(|a| self.string(a))) {
                        self.facts.symbols[m as usize].doc = Some(doc);
                    }
                }
                "behaviour" | "behavior" => {
                    if let (Some(m), Some(a)) = (module, arg) {
                        let target = self.text(a).to_string();
                        self.facts.heritage.push(Heritage {
                            symbol: m,
                            kind: HeritageKind::Implements,
                            target,
                        });
                    }
                }
                // `@spec`, `@type`, `@callback`, `@impl`...: types and options, no calls.
                _ => {}
            }
            return;
        }
        if stmt.kind_id() == self.ids.call
            && let Some(form) = self.call_name(stmt)
        {
            match form {
                "defmodule" | "defprotocol" | "defimpl" => {
                    self.module(stmt, form, module);
                    return;
                }
                "alias" | "import" | "use" | "require" => {
                    self.directive(stmt, form);
                    return;
                }
                "defstruct" | "defexception" => {
                    if let Some(m) = module {
                        self.defstruct(stmt, m);
                    }
                    return;
                }
                _ => {}
            }
            if let Some((kind, exported)) = def_kind(form) {
                self.definition(stmt, form, kind, exported, module);
                return;
            }
            if router::is_route_form(form) && module.is_some() {
                router::routes(self, stmt, module);
                // Route forms are macros: their arguments hold no calls to record.
                return;
            }
        }
        self.walk(stmt, module, scope);
    }

    fn module(&mut self, call: Node<'_>, form: &str, parent: Option<SymbolIdx>) {
        let args = self.args(call);
        let Some(first) = args.first() else { return };
        let written = self.text(*first).to_string();
        let (kind, name) = match form {
            "defimpl" => {
                let target = self
                    .keywords_arg(call)
                    .and_then(|k| self.keyword(k, "for"))
                    .map(|t| self.text(t).to_string());
                let name = match &target {
                    Some(t) => format!("{written}.{t}"),
                    None => written.clone(),
                };
                (NodeKind::Module, name)
            }
            "defprotocol" => (NodeKind::Interface, written.clone()),
            _ => (NodeKind::Module, written.clone()),
        };
        let qualified = match self.module_name(parent) {
            Some(p) => format!("{p}.{name}"),
            None => name.clone(),
        };
        let doc = self.pending_doc.take();
        let idx = self.push_symbol(Symbol {
            kind,
            name: name.clone(),
            qualified_name: qualified,
            parent,
            start_line: start_line(call),
            end_line: end_line(call),
            signature: collapse_whitespace(&format!("{form} {}", self.text(*first))),
            doc,
            exported: true,
        });
        if form == "defimpl" {
            self.facts.heritage.push(Heritage {
                symbol: idx,
                kind: HeritageKind::Implements,
                target: written,
            });
        }
        if let Some(body) = self.do_body(call) {
            self.body(body, Some(idx), Some(idx));
        }
    }

    fn directive(&mut self, call: Node<'_>, form: &str) {
        let args = self.args(call);
        let Some(first) = args.first().copied() else { return };
        let line = start_line(call);
        let opts = self.keywords_arg(call);
        // `alias A.{B, C}`: one alias per name in the braces.
        if first.kind_id() == self.ids.dot
            && let (Some(l), Some(r)) =
                (first.child_by_field_id(self.ids.left), first.child_by_field_id(self.ids.right))
            && r.kind_id() == self.ids.tuple
        {
            let base = self.text(l).to_string();
            for item in self.named_children(r) {
                let name = self.text(item).to_string();
                self.import(form, format!("{base}.{name}"), None, opts, line);
            }
            return;
        }
        if first.kind_id() != self.ids.alias && first.kind_id() != self.ids.atom {
            return;
        }
        let source = self.text(first).to_string();
        let as_name = opts.and_then(|o| self.keyword(o, "as")).map(|a| self.text(a).to_string());
        self.import(form, source, as_name, opts, line);
    }

    fn import(
        &mut self,
        form: &str,
        source: String,
        as_name: Option<String>,
        opts: Option<Node<'_>>,
        line: u32,
    ) {
        let bindings = match form {
            "alias" => {
                let local = as_name
                    .unwrap_or_else(|| source.rsplit('.').next().unwrap_or(&source).to_string());
                vec![ImportBinding { imported: Imported::Namespace, local: Some(local) }]
            }
            "import" => match opts.and_then(|o| self.keyword(o, "only")) {
                Some(only) if only.kind_id() == self.ids.list => {
                    let mut named = Vec::new();
                    for kw in self.named_children(only) {
                        for p in self.named_children(kw) {
                            let (Some(k), Some(v)) = (
                                p.child_by_field_id(self.ids.key),
                                p.child_by_field_id(self.ids.value),
                            ) else {
                                continue;
                            };
                            let name = self.text(k).trim().trim_end_matches(':').trim();
                            named.push(ImportBinding {
                                imported: Imported::Named(format!(
                                    "{name}/{}",
                                    self.text(v).trim()
                                )),
                                local: None,
                            });
                        }
                    }
                    named
                }
                _ => vec![ImportBinding { imported: Imported::All, local: None }],
            },
            _ => Vec::new(),
        };
        self.facts.imports.push(Import { source, kind: ImportKind::Module, bindings, line });
    }

    fn defstruct(&mut self, call: Node<'_>, module: SymbolIdx) {
        let full = self.facts.symbols[module as usize].qualified_name.clone();
        let short = full.rsplit('.').next().unwrap_or(&full).to_string();
        let qualified = format!("%{full}{{}}");
        if self.by_name.contains_key(&qualified) {
            return;
        }
        self.push_symbol(Symbol {
            kind: NodeKind::Struct,
            name: format!("%{short}{{}}"),
            qualified_name: qualified,
            parent: Some(module),
            start_line: start_line(call),
            end_line: end_line(call),
            signature: collapse_whitespace(self.text(call)).chars().take(200).collect(),
            doc: None,
            exported: true,
        });
    }

    /// The name and the (min, max) arity of a definition head (`get(id, opts \\ [])` ->
    /// `("get", 1, 2)`), through a guard (`f(x) when ...`).
    fn head(&self, head: Node<'_>) -> Option<(&'s str, usize, usize)> {
        if head.kind_id() == self.ids.binary_operator {
            let op = head.child_by_field_id(self.ids.operator).map(|o| self.text(o));
            if op == Some("when") {
                return self.head(head.child_by_field_id(self.ids.left)?);
            }
            return None;
        }
        if head.kind_id() == self.ids.identifier {
            return Some((self.text(head), 0, 0));
        }
        if head.kind_id() != self.ids.call {
            return None;
        }
        let name = self.call_name(head)?;
        if name == "unquote" {
            return None;
        }
        let args = self.args(head);
        let defaults = args
            .iter()
            .filter(|a| {
                a.kind_id() == self.ids.binary_operator
                    && a.child_by_field_id(self.ids.operator)
                        .is_some_and(|o| self.text(o) == "\\\\")
            })
            .count();
        Some((name, args.len() - defaults, args.len()))
    }

    fn definition(
        &mut self,
        call: Node<'_>,
        form: &str,
        kind: NodeKind,
        exported: bool,
        module: Option<SymbolIdx>,
    ) {
        let args = self.args(call);
        let Some(head_node) = args.first().copied() else { return };
        let Some((name, min, max)) = self.head(head_node) else {
            self.walk(call, module, module);
            return;
        };
        let module_qn = self.module_name(module);
        let doc = self.pending_doc.take();
        let head_text = self.text(head_node);
        let signature: String =
            collapse_whitespace(&format!("{form} {head_text}")).chars().take(200).collect();
        let mut first: Option<SymbolIdx> = None;
        for arity in (min..=max).rev() {
            let short = format!("{name}/{arity}");
            let qualified = match &module_qn {
                Some(m) => format!("{m}.{short}"),
                None => short.clone(),
            };
            let idx = match self.by_name.get(&qualified) {
                // Another clause: the symbol spans every clause.
                Some(&i) => {
                    let s = &mut self.facts.symbols[i as usize];
                    s.end_line = s.end_line.max(end_line(call));
                    i
                }
                None => self.push_symbol(Symbol {
                    kind,
                    name: short,
                    qualified_name: qualified,
                    parent: module,
                    start_line: start_line(call),
                    end_line: end_line(call),
                    signature: signature.clone(),
                    doc: doc.clone(),
                    exported,
                }),
            };
            first.get_or_insert(idx);
        }
        let Some(idx) = first else { return };
        if form == "defdelegate" {
            // `defdelegate f(a), to: M, as: :g` calls `M.g/1`.
            let opts = self.keywords_arg(call);
            if let Some(to) = opts.and_then(|o| self.keyword(o, "to")) {
                let target = opts
                    .and_then(|o| self.keyword(o, "as"))
                    .and_then(|a| self.atom(a))
                    .unwrap_or(name);
                self.facts.calls.push(CallSite {
                    callee: Callee {
                        receiver: Receiver::Path(vec![self.text(to).into()]),
                        name: format!("{target}/{max}").into(),
                    },
                    kind: CallKind::Call,
                    line: start_line(call),
                    col: start_col(to),
                    enclosing: Some(idx),
                    local: false,
                });
            }
            return;
        }
        // The body (and the guard): every argument but the head, and the do block.
        if head_node.kind_id() == self.ids.binary_operator
            && let Some(guard) = head_node.child_by_field_id(self.ids.right)
        {
            self.walk(guard, module, Some(idx));
        }
        for a in args.iter().skip(1) {
            self.walk(*a, module, Some(idx));
        }
        let mut c = call.walk();
        let blocks: Vec<Node<'_>> =
            call.named_children(&mut c).filter(|n| n.kind_id() == self.ids.do_block).collect();
        for b in blocks {
            self.walk(b, module, Some(idx));
        }
    }

    /// Calls and struct literals anywhere under `node`, from `scope`.
    fn walk(&mut self, node: Node<'_>, module: Option<SymbolIdx>, scope: Option<SymbolIdx>) {
        let scope = scope.or(module);
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let k = n.kind_id();
            if k == self.ids.call {
                // A nested definition form inside a block (a `quote`d function, a test).
                if let Some(form) = self.call_name(n)
                    && (matches!(form, "defmodule" | "defprotocol" | "defimpl")
                        || def_kind(form).is_some())
                    && n != node
                {
                    self.statement(n, module, scope);
                    continue;
                }
                self.call(n, scope);
            } else if k == self.ids.unary_operator
                && (self.capture(n, scope)
                    || n.child_by_field_id(self.ids.operator).is_some_and(|o| self.text(o) == "@"))
            {
                // A capture is recorded; a module attribute (`@doc`, `@spec` in a `quote`)
                // holds no calls.
                continue;
            } else if k == self.ids.map {
                self.struct_literal(n, scope);
            }
            let mut c = n.walk();
            let children: Vec<Node<'_>> = n.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
    }

    /// Whether `call` is the right side of a pipe (its first argument comes from the left).
    fn piped(&self, call: Node<'_>) -> bool {
        call.parent().is_some_and(|p| {
            p.kind_id() == self.ids.binary_operator
                && p.child_by_field_id(self.ids.operator).is_some_and(|o| self.text(o) == "|>")
                && p.child_by_field_id(self.ids.right) == Some(call)
        })
    }

    fn call(&mut self, call: Node<'_>, scope: Option<SymbolIdx>) {
        let Some(target) = call.child_by_field_id(self.ids.target) else { return };
        let mut c = call.walk();
        let has_args = call.named_children(&mut c).any(|n| n.kind_id() == self.ids.arguments);
        let arity = self.args(call).len() + usize::from(self.piped(call));
        if target.kind_id() == self.ids.identifier {
            let name = self.text(target);
            if KERNEL.contains(&name) && name != "apply" {
                return;
            }
            self.push_call(Receiver::None, name, arity, target, scope);
            return;
        }
        if target.kind_id() != self.ids.dot {
            return;
        }
        let (Some(left), Some(right)) =
            (target.child_by_field_id(self.ids.left), target.child_by_field_id(self.ids.right))
        else {
            return;
        };
        if right.kind_id() != self.ids.identifier {
            return;
        }
        let lk = left.kind_id();
        let receiver = if lk == self.ids.alias || lk == self.ids.atom {
            self.text(left).to_string()
        } else if lk == self.ids.identifier {
            let v = self.text(left);
            // `u.name` without parentheses is a map field, not a call.
            if !has_args && v != "__MODULE__" {
                return;
            }
            v.to_string()
        } else {
            return;
        };
        self.push_call(
            Receiver::Path(vec![receiver.into()]),
            self.text(right),
            arity,
            right,
            scope,
        );
    }

    fn push_call(
        &mut self,
        receiver: Receiver,
        name: &str,
        arity: usize,
        at: Node<'_>,
        scope: Option<SymbolIdx>,
    ) {
        self.facts.calls.push(CallSite {
            callee: Callee { receiver, name: format!("{name}/{arity}").into() },
            kind: CallKind::Call,
            line: start_line(at),
            col: start_col(at),
            enclosing: scope,
            local: false,
        });
    }

    /// `&fun/2`, `&Mod.fun/2`: a reference to a function of that arity. `true` when handled.
    fn capture(&mut self, n: Node<'_>, scope: Option<SymbolIdx>) -> bool {
        let op = n.child_by_field_id(self.ids.operator).map(|o| self.text(o));
        let Some(inner) = n.child_by_field_id(self.ids.operand) else { return false };
        if op != Some("&") || inner.kind_id() != self.ids.binary_operator {
            return false;
        }
        if inner.child_by_field_id(self.ids.operator).map(|o| self.text(o)) != Some("/") {
            return false;
        }
        let (Some(f), Some(a)) =
            (inner.child_by_field_id(self.ids.left), inner.child_by_field_id(self.ids.right))
        else {
            return false;
        };
        let Ok(arity) = self.text(a).trim().parse::<usize>() else { return false };
        if f.kind_id() == self.ids.identifier {
            let name = self.text(f);
            if !KERNEL.contains(&name) {
                self.push_call(Receiver::None, name, arity, f, scope);
            }
            return true;
        }
        if f.kind_id() == self.ids.call
            && let Some(t) =
                f.child_by_field_id(self.ids.target).filter(|t| t.kind_id() == self.ids.dot)
            && let (Some(l), Some(r)) =
                (t.child_by_field_id(self.ids.left), t.child_by_field_id(self.ids.right))
            && (l.kind_id() == self.ids.alias || l.kind_id() == self.ids.atom)
        {
            let receiver = Receiver::Path(vec![self.text(l).into()]);
            self.push_call(receiver, self.text(r), arity, r, scope);
            return true;
        }
        false
    }

    /// `%User{...}`: a reference to the struct of module `User`.
    fn struct_literal(&mut self, map: Node<'_>, scope: Option<SymbolIdx>) {
        let mut c = map.walk();
        let Some(s) = map.named_children(&mut c).find(|n| n.kind_id() == self.ids.struct_) else {
            return;
        };
        let Some(name) = s.named_child(0).filter(|a| a.kind_id() == self.ids.alias) else { return };
        let site = CallSite {
            callee: Callee {
                receiver: Receiver::Path(vec![self.text(name).into()]),
                name: "__struct__".into(),
            },
            kind: CallKind::Call,
            line: start_line(name),
            col: start_col(name),
            enclosing: scope,
            local: false,
        };
        let dup = self
            .facts
            .value_refs
            .iter()
            .any(|v| v.enclosing == site.enclosing && v.callee == site.callee);
        if !dup {
            self.facts.value_refs.push(site);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_names_exist() {
        let missing = crate::grammar::missing(Ids::NAMES, &[tree_sitter_elixir::LANGUAGE.into()]);
        assert!(missing.is_empty(), "{missing:?}");
    }
}
