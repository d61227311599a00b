//! Terraform provider (`.tf`, tree-sitter-hcl): every block is a symbol named by Terraform's
//! own address, and every reference in its expressions is a value reference.
//!
//! Symbols: `resource "T" "N"` -> `T.N` and `data "T" "N"` -> `data.T.N` (kind `resource`),
//! `module "N"` -> `module.N` (`module`), `variable "N"` -> `var.N` and each attribute of a
//! `locals` block -> `local.N` (`variable`), `output "N"` -> `output.N` (`output`),
//! `provider "P"` -> `provider.P`, or `provider.P.ALIAS` with an `alias` (`provider`). A
//! variable's or output's `description` is its doc, else the `#` / `//` comments right above.
//!
//! Value references ([`FileFacts::value_refs`]): each traversal that starts at a name
//! (`var.x`, `local.y`, `module.m.out`, `aws_s3_bucket.b.arn`, `data.t.n.attr`), as a path of
//! its attribute names (the last one the callee name), from the block that holds it, once per
//! (block, traversal). Not references: `each`, `count`, `self`, `path`, `terraform`, the
//! variables of `for` expressions and the iterators of `dynamic` blocks. `depends_on` entries
//! are [`CallKind::Declared`]; a `provider = aws.west` argument (and a module's `providers`
//! map values) refer to `provider.aws.west`. `terraform`, `moved` and `removed` blocks hold
//! settings and old addresses, not dependencies: no references.
//!
//! Imports: a `module` block whose `source` is a literal local path (`./x`, `../x`) is an
//! [`ImportKind::Path`] import whose first binding names the module (`Namespace` as `N`) and
//! whose other bindings are the input arguments it passes (`Named`), so resolution can join a
//! module's variables to the call that sets them.

use crate::facts::{
    CallKind, CallSite, Callee, FileFacts, Import, ImportBinding, ImportKind, Imported, Receiver,
    Symbol, SymbolIdx,
};
use crate::grammar::grammar_ids;
use crate::util::{
    collapse_whitespace, count_errors, end_line, line_comments_above, start_col, start_line, to_u32,
};
use crate::{Capability, LanguageSpec, Provider};
use codegraph_schema::NodeKind;
use std::collections::HashSet;
use tree_sitter::Node;

pub struct TerraformProvider;

pub static TERRAFORM: TerraformProvider = TerraformProvider;

pub static TERRAFORM_SPEC: LanguageSpec = LanguageSpec {
    name: "terraform",
    id_tag: "tf",
    extensions: &["tf"],
    provider: &TERRAFORM,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_test_config,
    call_expressions: None,
};

/// Terraform test code: configurations under `test/`, `tests/` or `testdata/` (`terraform test` fixtures,
/// Terratest examples).
fn is_test_config(path: &str) -> bool {
    crate::under_dir(path, crate::TEST_DIRS)
}

grammar_ids! {
    pub(crate) struct Ids {
        kinds {
            body = "body",
            block = "block",
            attribute = "attribute",
            identifier = "identifier",
            string_lit = "string_lit",
            template_literal = "template_literal",
            expression = "expression",
            variable_expr = "variable_expr",
            get_attr = "get_attr",
            for_intro = "for_intro",
            literal_value = "literal_value",
        }
        anon {}
        fields {}
    }
}

/// Roots of traversals that name no block.
const NOT_BLOCKS: &[&str] = &["each", "count", "self", "path", "terraform"];

/// Module block arguments that are meta-arguments, not inputs of the module.
const MODULE_META: &[&str] =
    &["source", "version", "count", "for_each", "providers", "depends_on", "lifecycle"];

impl Provider for TerraformProvider {
    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Symbols, Capability::Imports]
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_hcl::LANGUAGE.into())
    }

    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let mut facts = FileFacts::default();
        let Some(tree) = tree else { return facts };
        facts.syntax_errors = count_errors(tree);
        let grammar = tree.language();
        let mut x = Extractor {
            ids: Ids::of(&grammar),
            src: text,
            facts,
            lines: text.lines().collect(),
            seen: HashSet::new(),
        };
        let root = tree.root_node();
        let (body_id, block_id) = (x.ids.body, x.ids.block);
        let mut cursor = root.walk();
        let bodies: Vec<Node<'_>> =
            root.named_children(&mut cursor).filter(|n| n.kind_id() == body_id).collect();
        for body in bodies {
            let mut c = body.walk();
            let blocks: Vec<Node<'_>> =
                body.named_children(&mut c).filter(|n| n.kind_id() == block_id).collect();
            for block in blocks {
                x.block(block);
            }
        }
        x.facts
    }
}

struct Extractor<'s> {
    ids: Ids,
    src: &'s str,
    facts: FileFacts,
    /// The file's lines (doc comments are read off them).
    lines: Vec<&'s str>,
    /// (enclosing, traversal, kind) already recorded.
    seen: HashSet<(Option<SymbolIdx>, Vec<String>, u8)>,
}

impl<'s> Extractor<'s> {
    fn text(&self, n: Node<'_>) -> &'s str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    /// The `#` / `//` / `/* */` comment lines right above 0-based line `row`.
    fn doc_above(&self, row: usize) -> Option<String> {
        line_comments_above(&self.lines, row, &["#", "//", "/*"])
    }

    /// The block's type and its labels.
    fn head(&self, block: Node<'_>) -> (&'s str, Vec<&'s str>) {
        let mut kind = "";
        let mut labels = Vec::new();
        let mut c = block.walk();
        for ch in block.named_children(&mut c) {
            if ch.kind_id() == self.ids.identifier && kind.is_empty() {
                kind = self.text(ch);
            } else if ch.kind_id() == self.ids.string_lit {
                labels.push(self.literal(ch));
            } else if ch.kind_id() == self.ids.identifier {
                // An unquoted label (`resource aws_vpc this {}`, old syntax).
                labels.push(self.text(ch));
            } else if ch.kind_id() == self.ids.body {
                break;
            }
        }
        (kind, labels)
    }

    /// The text of a string literal without its quotes (template parts included as written).
    fn literal(&self, s: Node<'_>) -> &'s str {
        let mut c = s.walk();
        let parts: Vec<Node<'_>> =
            s.named_children(&mut c).filter(|n| n.kind_id() == self.ids.template_literal).collect();
        match (parts.first(), parts.last()) {
            (Some(a), Some(b)) => self.src.get(a.start_byte()..b.end_byte()).unwrap_or(""),
            _ => "",
        }
    }

    fn body_of<'t>(&self, block: Node<'t>) -> Option<Node<'t>> {
        let mut c = block.walk();
        block.named_children(&mut c).find(|n| n.kind_id() == self.ids.body)
    }

    /// The attributes of a body: (name, attribute node, its expression).
    fn attributes<'t>(&self, body: Node<'t>) -> Vec<(&'s str, Node<'t>, Option<Node<'t>>)> {
        let mut out = Vec::new();
        let mut c = body.walk();
        for a in body.named_children(&mut c).filter(|n| n.kind_id() == self.ids.attribute) {
            let mut ac = a.walk();
            let mut name = "";
            let mut expr = None;
            for ch in a.named_children(&mut ac) {
                if ch.kind_id() == self.ids.identifier && name.is_empty() {
                    name = self.text(ch);
                } else if ch.kind_id() == self.ids.expression {
                    expr = Some(ch);
                }
            }
            out.push((name, a, expr));
        }
        out
    }

    /// A string-literal expression's text (`"./x"`); `None` for anything else.
    fn string_value(&self, expr: Node<'_>) -> Option<&'s str> {
        let lit = expr.named_child(0).filter(|n| n.kind_id() == self.ids.literal_value)?;
        let s = lit.named_child(0).filter(|n| n.kind_id() == self.ids.string_lit)?;
        Some(self.literal(s))
    }

    fn push_symbol(
        &mut self,
        kind: NodeKind,
        address: String,
        node: Node<'_>,
        signature: String,
        doc: Option<String>,
    ) -> SymbolIdx {
        let idx = to_u32(self.facts.symbols.len());
        self.facts.symbols.push(Symbol {
            kind,
            name: address.clone(),
            qualified_name: address,
            parent: None,
            start_line: start_line(node),
            end_line: end_line(node),
            signature,
            doc,
            exported: true,
        });
        idx
    }

    fn block(&mut self, block: Node<'_>) {
        let (kind, labels) = self.head(block);
        let body = self.body_of(block);
        let head_sig = |labels: &[&str]| {
            let quoted: Vec<String> = labels.iter().map(|l| format!("\"{l}\"")).collect();
            collapse_whitespace(&format!("{kind} {}", quoted.join(" ")))
        };
        let attrs = body.map(|b| self.attributes(b)).unwrap_or_default();
        let description = || {
            attrs
                .iter()
                .find(|(n, _, _)| *n == "description")
                .and_then(|(_, _, e)| e.and_then(|e| self.string_value(e)))
                .map(str::to_string)
        };
        let doc_above = self.doc_above(block.start_position().row);
        let (symbol_kind, address) = match (kind, labels.as_slice()) {
            ("resource", [t, n, ..]) => (NodeKind::Resource, format!("{t}.{n}")),
            ("data", [t, n, ..]) => (NodeKind::Resource, format!("data.{t}.{n}")),
            ("module", [n, ..]) => (NodeKind::Module, format!("module.{n}")),
            ("variable", [n, ..]) => (NodeKind::Variable, format!("var.{n}")),
            ("output", [n, ..]) => (NodeKind::Output, format!("output.{n}")),
            ("provider", [p, ..]) => {
                let alias = attrs
                    .iter()
                    .find(|(n, _, _)| *n == "alias")
                    .and_then(|(_, _, e)| e.and_then(|e| self.string_value(e)));
                let address = match alias {
                    Some(a) => format!("provider.{p}.{a}"),
                    None => format!("provider.{p}"),
                };
                (NodeKind::Provider, address)
            }
            ("locals", _) => {
                for (name, attr, expr) in &attrs {
                    let sig = collapse_whitespace(
                        self.text(*attr).lines().next().unwrap_or("").trim_end_matches('{'),
                    );
                    let doc = self.doc_above(attr.start_position().row);
                    let idx = self.push_symbol(
                        NodeKind::Variable,
                        format!("local.{name}"),
                        *attr,
                        crate::util::truncate(&sig, 200).to_string(),
                        doc,
                    );
                    if let Some(e) = expr {
                        let bound = self.bound_names(*e);
                        self.refs(*e, Some(idx), CallKind::Call, &bound);
                    }
                }
                return;
            }
            // Settings, and the old addresses of refactorings: no dependencies.
            ("terraform" | "moved" | "removed", _) => return,
            _ => {
                // `import`, `check`...: references at module level.
                if let Some(b) = body {
                    let bound = self.bound_names(b);
                    self.refs(b, None, CallKind::Call, &bound);
                }
                return;
            }
        };
        let doc = match symbol_kind {
            NodeKind::Variable | NodeKind::Output => description().or(doc_above),
            _ => doc_above,
        };
        let idx = self.push_symbol(symbol_kind, address, block, head_sig(&labels), doc);
        if kind == "module"
            && let Some(name) = labels.first()
        {
            let source = attrs
                .iter()
                .find(|(n, _, _)| *n == "source")
                .and_then(|(_, _, e)| e.and_then(|e| self.string_value(e)));
            if let Some(source) = source.filter(|s| s.starts_with("./") || s.starts_with("../")) {
                let mut bindings = vec![ImportBinding {
                    imported: Imported::Namespace,
                    local: Some((*name).to_string()),
                }];
                bindings.extend(attrs.iter().filter(|(n, _, _)| !MODULE_META.contains(n)).map(
                    |(n, _, _)| ImportBinding {
                        imported: Imported::Named((*n).to_string()),
                        local: None,
                    },
                ));
                self.facts.imports.push(Import {
                    source: source.to_string(),
                    kind: ImportKind::Path,
                    bindings,
                    line: start_line(block),
                });
            }
        }
        let Some(body) = body else { return };
        let bound = self.bound_names(body);
        for (name, _, expr) in &attrs {
            let Some(expr) = *expr else { continue };
            match *name {
                "depends_on" => self.refs(expr, Some(idx), CallKind::Declared, &bound),
                "provider" if kind != "provider" => self.provider_ref(expr, idx),
                "providers" if kind == "module" => self.provider_map(expr, idx),
                _ => self.refs(expr, Some(idx), CallKind::Call, &bound),
            }
        }
        // Nested blocks (`dynamic`, `lifecycle`, `content`, provisioners...).
        let block_id = self.ids.block;
        let mut c = body.walk();
        let nested: Vec<Node<'_>> =
            body.named_children(&mut c).filter(|n| n.kind_id() == block_id).collect();
        for n in nested {
            self.refs(n, Some(idx), CallKind::Call, &bound);
        }
    }

    /// Names bound inside `node`: `for` expression variables, `dynamic` block iterators.
    fn bound_names(&self, node: Node<'_>) -> HashSet<String> {
        let mut out = HashSet::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if n.kind_id() == self.ids.for_intro {
                let mut c = n.walk();
                for id in n.named_children(&mut c).filter(|x| x.kind_id() == self.ids.identifier) {
                    out.insert(self.text(id).to_string());
                }
            } else if n.kind_id() == self.ids.block {
                let (kind, labels) = self.head(n);
                if kind == "dynamic"
                    && let Some(l) = labels.first()
                {
                    out.insert((*l).to_string());
                    if let Some(b) = self.body_of(n) {
                        for (name, _, e) in self.attributes(b) {
                            if name == "iterator"
                                && let Some(e) = e
                            {
                                out.insert(self.text(e).trim().to_string());
                            }
                        }
                    }
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        out
    }

    /// `providers = { aws = aws.west }` -> references to `provider.aws.west` (the values).
    fn provider_map(&mut self, expr: Node<'_>, idx: SymbolIdx) {
        let mut stack = vec![expr];
        let mut found = Vec::new();
        while let Some(n) = stack.pop() {
            if n.kind_id() == self.ids.variable_expr {
                let path = self.traversal_at(n);
                // Keys are bare names; values are `name.alias` (or a bare default `name`,
                // which names the implicit provider and is no reference).
                if path.len() >= 2 {
                    found.push((path, n));
                }
            }
            let mut c = n.walk();
            let children: Vec<Node<'_>> = n.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
        for (mut path, at) in found {
            path.insert(0, "provider".to_string());
            self.push_ref(path, at, Some(idx), CallKind::Call);
        }
    }

    /// `provider = aws.west` -> a reference to `provider.aws.west`.
    fn provider_ref(&mut self, expr: Node<'_>, idx: SymbolIdx) {
        if let Some((mut path, at)) = self.traversal(expr) {
            path.insert(0, "provider".to_string());
            self.push_ref(path, at, Some(idx), CallKind::Call);
        }
    }

    /// The traversal an `expression` starts with (see [`Extractor::traversal_at`]); `None`
    /// when it does not start at a name.
    fn traversal<'t>(&self, expr: Node<'t>) -> Option<(Vec<String>, Node<'t>)> {
        let root = expr.named_child(0).filter(|n| n.kind_id() == self.ids.variable_expr)?;
        Some((self.traversal_at(root), root))
    }

    /// The root name of a `variable_expr` and the attribute names that follow it. The
    /// grammar sometimes hangs the attributes of an operation's last operand after the whole
    /// operation (`a && var.x` parses as `(a && var) .x`), so when the name has no attribute
    /// siblings, those of the enclosing operation nodes it ends are taken.
    fn traversal_at(&self, root: Node<'_>) -> Vec<String> {
        let mut path = vec![self.text(root).to_string()];
        let mut at = root;
        let mut next = at.next_named_sibling();
        let mut climbs = 0;
        while next.is_none() && climbs < 4 {
            let Some(parent) = at.parent().filter(|p| p.kind_id() != self.ids.expression) else {
                break;
            };
            at = parent;
            next = at.next_named_sibling();
            climbs += 1;
        }
        if climbs > 0 && next.is_some_and(|n| n.kind_id() != self.ids.get_attr) {
            next = None;
        }
        while let Some(n) = next.filter(|n| n.kind_id() == self.ids.get_attr) {
            let mut c = n.walk();
            let Some(id) = n.named_children(&mut c).find(|x| x.kind_id() == self.ids.identifier)
            else {
                break;
            };
            path.push(self.text(id).to_string());
            next = n.next_named_sibling();
        }
        path
    }

    /// Every traversal in `node` (a block or an expression) as a reference from `enclosing`.
    fn refs(
        &mut self,
        node: Node<'_>,
        enclosing: Option<SymbolIdx>,
        kind: CallKind,
        bound: &HashSet<String>,
    ) {
        let mut stack = vec![node];
        let mut found: Vec<(Vec<String>, u32, u32)> = Vec::new();
        while let Some(n) = stack.pop() {
            if n.kind_id() == self.ids.variable_expr {
                let (path, at) = (self.traversal_at(n), n);
                let root = path[0].as_str();
                if path.len() >= 2 && !NOT_BLOCKS.contains(&root) && !bound.contains(root) {
                    found.push((path, start_line(at), start_col(at)));
                }
            }
            let mut c = n.walk();
            let children: Vec<Node<'_>> = n.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
        for (path, line, col) in found {
            self.push_ref_at(path, line, col, enclosing, kind);
        }
    }

    fn push_ref(
        &mut self,
        path: Vec<String>,
        at: Node<'_>,
        enclosing: Option<SymbolIdx>,
        kind: CallKind,
    ) {
        self.push_ref_at(path, start_line(at), start_col(at), enclosing, kind);
    }

    fn push_ref_at(
        &mut self,
        mut path: Vec<String>,
        line: u32,
        col: u32,
        enclosing: Option<SymbolIdx>,
        kind: CallKind,
    ) {
        let tag = match kind {
            CallKind::Declared => 1,
            _ => 0,
        };
        if !self.seen.insert((enclosing, path.clone(), tag)) {
            return;
        }
        let Some(name) = path.pop() else { return };
        self.facts.value_refs.push(CallSite {
            callee: Callee { receiver: Receiver::path(path), name: name.into() },
            kind,
            line,
            col,
            enclosing,
            local: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_names_exist() {
        let missing = crate::grammar::missing(Ids::NAMES, &[tree_sitter_hcl::LANGUAGE.into()]);
        assert!(missing.is_empty(), "{missing:?}");
    }
}
