//! Protobuf provider (`.proto`: proto2, proto3 and editions; tree-sitter-proto): the
//! declarations a schema makes, the files it imports, the types its fields and rpcs name, and
//! each rpc as an endpoint, so that a service's wire contract is in the graph beside the code
//! that implements and calls it.
//!
//! Symbols (qualified names leave the package out, like Go's and Java's; the package is
//! [`ProtoFacts::package`]):
//! - `message` (and a proto2 `group`, which declares one): kind `struct`, nested ones named
//!   `Outer.Inner`;
//! - a field (also inside a `oneof`, which is no scope of its own in protobuf, a `map<K, V>`
//!   field, and the fields of an `extend` block, which belong to the scope around it): kind
//!   `property`, `Message.field`;
//! - `enum`: kind `enum`; its values kind `constant`, `Enum.VALUE`;
//! - `service`: kind `interface`; its `rpc`s kind `method`, `Service.Method`, with the
//!   signature as written (`rpc Watch(stream WatchRequest) returns (stream WatchResponse)`).
//!
//! Docs are the comments right above a declaration. Every declaration is exported (protobuf
//! has no file-private names before edition 2024's `local`).
//!
//! Imports: `import "a/b.proto";` is an [`ImportKind::Path`] import of the path as written
//! (relative to an include root the resolver finds), `import public` an
//! [`ImportKind::ReExport`] (its importers see its names too), `import weak` a plain one.
//!
//! Type references ([`FileFacts::type_refs`], shaped as call sites): a field's message or
//! enum type (the value type of a map), an rpc's request and response types, and an
//! `extend`'s target, from the field, the rpc, or the scope around the `extend`. The type as
//! written is split at `.`: `a.b.C` is receiver path `["a", "b"]` and name `C`; a fully
//! qualified `.a.b.C` has an empty first segment (`["", "a", "b"]`). Scalar types are none.
//!
//! Endpoints: each rpc is a route (framework `grpc`, method `GRPC`, path `/pkg.Service/Method`,
//! the path gRPC sends on the wire) handled by its rpc symbol, and each HTTP binding of its
//! `google.api.http` option (and its `additional_bindings`) a route (framework
//! `grpc-gateway`, the binding's method and path with `{name}` and `{name=pattern}` as
//! `:name`) handled by the same rpc.

use crate::facts::{
    CallKind, CallSite, Callee, Endpoint, FileFacts, Handler, Import, ImportKind, LanguageFacts,
    ProtoFacts, Receiver, Symbol, SymbolIdx,
};
use crate::grammar::grammar_ids;
use crate::util::{
    clean_comments, collapse_whitespace, count_errors, end_line, preceding_comments, signature,
    start_col, start_line, text, to_u32,
};
use crate::{Capability, LanguageSpec, Provider};
use codegraph_schema::NodeKind;
use tree_sitter::Node;

pub struct ProtoProvider;

pub static PROTO: ProtoProvider = ProtoProvider;

pub static PROTOBUF_SPEC: LanguageSpec = LanguageSpec {
    name: "protobuf",
    id_tag: "proto",
    extensions: &["proto"],
    provider: &PROTO,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: |path| crate::under_dir(path, crate::TEST_DIRS),
    call_expressions: None,
};

grammar_ids! {
    pub(crate) struct Ids {
        kinds {
            package = "package",
            import = "import",
            option = "option",
            message = "message",
            message_name = "message_name",
            message_body = "message_body",
            enum_ = "enum",
            enum_name = "enum_name",
            enum_body = "enum_body",
            enum_field = "enum_field",
            field = "field",
            oneof = "oneof",
            oneof_field = "oneof_field",
            map_field = "map_field",
            group = "group",
            extend = "extend",
            service = "service",
            service_name = "service_name",
            rpc = "rpc",
            rpc_name = "rpc_name",
            identifier = "identifier",
            full_ident = "full_ident",
            type_ = "type",
            message_or_enum_type = "message_or_enum_type",
            string = "string",
            constant = "constant",
            block_lit = "block_lit",
        }
        anon {
            public = "public",
            dot = ".",
            lbrace = "{",
            eq = "=",
            kw_option = "option",
        }
        fields {
            path = "path",
        }
    }
}

/// Nesting deeper than this (messages in messages) is left out: no schema nests so far, and
/// the walk recurses.
const MAX_DEPTH: usize = 64;

/// The HTTP methods a `google.api.http` rule names by key.
const HTTP_KEYS: &[(&str, &str)] =
    &[("get", "GET"), ("put", "PUT"), ("post", "POST"), ("delete", "DELETE"), ("patch", "PATCH")];

impl Provider for ProtoProvider {
    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Symbols, Capability::Imports, Capability::Types, Capability::Routes]
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_proto::LANGUAGE.into())
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
            proto: ProtoFacts::default(),
            rpcs: Vec::new(),
        };
        x.scope(tree.root_node(), None, 0);
        x.endpoints();
        let mut facts = x.facts;
        facts.language_facts = LanguageFacts::Proto(x.proto).normalized();
        facts
    }
}

/// An rpc seen by the walk: its symbol, its service's symbol, and its HTTP bindings
/// (method, path, line).
struct Rpc {
    idx: SymbolIdx,
    service: SymbolIdx,
    bindings: Vec<(String, String, u32)>,
}

struct Extractor<'s> {
    ids: Ids,
    src: &'s str,
    facts: FileFacts,
    proto: ProtoFacts,
    rpcs: Vec<Rpc>,
}

impl<'s> Extractor<'s> {
    /// The declarations directly in `node` (the file, a message body, an `extend` body), in
    /// the scope of symbol `parent`.
    fn scope(&mut self, node: Node<'_>, parent: Option<SymbolIdx>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            let k = child.kind_id();
            let ids = self.ids;
            if k == ids.package {
                if parent.is_none()
                    && let Some(name) = self.child_of_kind(child, ids.full_ident)
                {
                    self.proto.package = Some(self.squeezed(name));
                }
            } else if k == ids.import {
                self.import(child);
            } else if k == ids.option {
                if parent.is_none()
                    && let Some((name, value)) = self.string_option(child)
                {
                    self.proto.options.push((name, value));
                }
            } else if k == ids.message || k == ids.group {
                let Some(name) = self.child_of_kind(child, ids.message_name) else { continue };
                let body = self.child_of_kind(child, ids.message_body);
                let sig_end = if k == ids.message { body } else { self.anon_child(child, ids.eq) };
                let idx = self.symbol(child, NodeKind::Struct, name, parent, sig_end);
                if let Some(body) = body {
                    self.scope(body, Some(idx), depth + 1);
                }
            } else if k == ids.field || k == ids.oneof_field || k == ids.map_field {
                self.field(child, parent);
            } else if k == ids.oneof {
                // The fields of a oneof are the message's.
                self.scope(child, parent, depth + 1);
            } else if k == ids.enum_ {
                let Some(name) = self.child_of_kind(child, ids.enum_name) else { continue };
                let body = self.child_of_kind(child, ids.enum_body);
                let idx = self.symbol(child, NodeKind::Enum, name, parent, body);
                if let Some(body) = body {
                    self.enum_values(body, idx);
                }
            } else if k == ids.extend {
                // `extend T { ... }`: the fields are declared in the scope around it.
                if let Some(target) = self.child_of_kind(child, ids.full_ident) {
                    let absolute = self.anon_child(child, ids.dot).is_some();
                    self.type_ref(target, absolute, parent);
                }
                if let Some(body) = self.child_of_kind(child, ids.message_body) {
                    self.scope(body, parent, depth + 1);
                }
            } else if k == ids.service {
                self.service(child, parent);
            }
        }
    }

    fn import(&mut self, node: Node<'_>) {
        let Some(path) = node.child_by_field_id(self.ids.path) else { return };
        let source = self.string_value(path);
        if source.is_empty() {
            return;
        }
        let kind = if self.anon_child(node, self.ids.public).is_some() {
            ImportKind::ReExport
        } else {
            ImportKind::Path
        };
        self.facts.imports.push(Import {
            source,
            kind,
            bindings: Vec::new(),
            line: start_line(node),
        });
    }

    fn field(&mut self, node: Node<'_>, parent: Option<SymbolIdx>) {
        let ids = self.ids;
        let Some(name) = self.child_of_kind(node, ids.identifier) else { return };
        let idx = self.symbol(node, NodeKind::Property, name, parent, None);
        if let Some(ty) = self.child_of_kind(node, ids.type_)
            && let Some(named) = self.child_of_kind(ty, ids.message_or_enum_type)
        {
            self.type_ref(named, false, Some(idx));
        }
    }

    fn enum_values(&mut self, body: Node<'_>, parent: SymbolIdx) {
        let mut cursor = body.walk();
        let values: Vec<Node<'_>> = body
            .named_children(&mut cursor)
            .filter(|c| c.kind_id() == self.ids.enum_field)
            .collect();
        for v in values {
            if let Some(name) = self.child_of_kind(v, self.ids.identifier) {
                self.symbol(v, NodeKind::Constant, name, Some(parent), None);
            }
        }
    }

    fn service(&mut self, node: Node<'_>, parent: Option<SymbolIdx>) {
        let ids = self.ids;
        let Some(name) = self.child_of_kind(node, ids.service_name) else { return };
        let lbrace = self.anon_child(node, ids.lbrace);
        let service = self.symbol(node, NodeKind::Interface, name, parent, lbrace);
        let mut cursor = node.walk();
        let rpcs: Vec<Node<'_>> =
            node.named_children(&mut cursor).filter(|c| c.kind_id() == ids.rpc).collect();
        for rpc in rpcs {
            let Some(name) = self.child_of_kind(rpc, ids.rpc_name) else { continue };
            let body = self.anon_child(rpc, ids.lbrace);
            let idx = self.symbol(rpc, NodeKind::Method, name, Some(service), body);
            let mut c = rpc.walk();
            let types: Vec<Node<'_>> = rpc
                .named_children(&mut c)
                .filter(|t| t.kind_id() == ids.message_or_enum_type)
                .collect();
            for t in types {
                self.type_ref(t, false, Some(idx));
            }
            let mut bindings = Vec::new();
            let mut c = rpc.walk();
            let options: Vec<Node<'_>> =
                rpc.named_children(&mut c).filter(|o| o.kind_id() == ids.option).collect();
            for o in options {
                if self.option_name(o).as_deref() == Some("(google.api.http)")
                    && let Some(value) = self.child_of_kind(o, ids.constant)
                {
                    self.http_rule(value, &mut bindings, 0);
                }
            }
            self.rpcs.push(Rpc { idx, service, bindings });
        }
    }

    /// The bindings of one `google.api.http` rule (a `{ post: "/p" body: "*" }` block),
    /// `additional_bindings` included.
    fn http_rule(&self, value: Node<'_>, out: &mut Vec<(String, String, u32)>, depth: usize) {
        if depth > 4 {
            return;
        }
        for (k, c) in self.block_fields(value) {
            if let Some((_, method)) = HTTP_KEYS.iter().find(|(name, _)| *name == k) {
                if let Some(path) = self.string_constant(c) {
                    out.push((method.to_string(), http_path(&path), start_line(c)));
                }
            } else if k == "custom" {
                // `custom { kind: "HEAD" path: "/p" }`.
                let inner = self.block_fields(c);
                let field = |name: &str| {
                    inner
                        .iter()
                        .find(|(k, _)| *k == name)
                        .and_then(|(_, v)| self.string_constant(*v).map(|s| (s, start_line(*v))))
                };
                if let (Some((kind, _)), Some((path, line))) = (field("kind"), field("path")) {
                    out.push((kind.to_ascii_uppercase(), http_path(&path), line));
                }
            } else if k == "additional_bindings" {
                self.http_rule(c, out, depth + 1);
            }
        }
    }

    /// The `key: value` fields directly in a constant's `{ ... }` block, as (key, the value's
    /// `constant` node); an array value gives one field per element.
    fn block_fields<'t>(&self, value: Node<'t>) -> Vec<(&'s str, Node<'t>)> {
        let Some(block) = self.child_of_kind(value, self.ids.block_lit) else { return Vec::new() };
        let mut key = None;
        let mut out = Vec::new();
        let mut cursor = block.walk();
        for c in block.named_children(&mut cursor) {
            if c.kind_id() == self.ids.identifier {
                key = Some(text(c, self.src));
            } else if c.kind_id() == self.ids.constant
                && let Some(k) = key
            {
                out.push((k, c));
            }
        }
        out
    }

    /// The value of a `constant` node that is a string literal.
    fn string_constant(&self, c: Node<'_>) -> Option<String> {
        self.child_of_kind(c, self.ids.string).map(|s| self.string_value(s))
    }

    /// Each rpc as a `GRPC` route, and its HTTP bindings as routes.
    fn endpoints(&mut self) {
        let package = self.proto.package.clone();
        for rpc in std::mem::take(&mut self.rpcs) {
            let (Some(service), Some(method)) = (
                self.facts.symbols.get(rpc.service as usize),
                self.facts.symbols.get(rpc.idx as usize),
            ) else {
                continue;
            };
            let full = match &package {
                Some(p) => format!("/{p}.{}/{}", service.name, method.name),
                None => format!("/{}/{}", service.name, method.name),
            };
            let line = method.start_line;
            let mut e = Endpoint::route("grpc", "GRPC", full, Handler::Symbol(rpc.idx));
            e.line = line;
            e.enclosing = Some(rpc.service);
            self.facts.endpoints.push(e);
            for (verb, path, line) in rpc.bindings {
                let mut e = Endpoint::route("grpc-gateway", &verb, path, Handler::Symbol(rpc.idx));
                e.line = line;
                e.enclosing = Some(rpc.idx);
                self.facts.endpoints.push(e);
            }
        }
    }

    /// A type reference from `from`: `node`'s text split at `.`.
    fn type_ref(&mut self, node: Node<'_>, absolute: bool, from: Option<SymbolIdx>) {
        let written = self.squeezed(node);
        let absolute = absolute || written.starts_with('.');
        let mut parts: Vec<String> =
            written.trim_start_matches('.').split('.').map(str::to_string).collect();
        let Some(name) = parts.pop().filter(|n| !n.is_empty()) else { return };
        if absolute {
            parts.insert(0, String::new());
        }
        let receiver = if parts.is_empty() { Receiver::None } else { Receiver::path(parts) };
        self.facts.type_refs.push(CallSite {
            callee: Callee { receiver, name: name.into() },
            kind: CallKind::Declared,
            line: start_line(node),
            col: start_col(node),
            enclosing: from,
            local: false,
        });
    }

    /// Adds a symbol for `decl` named by `name_node`'s text; its signature runs up to `body`.
    fn symbol(
        &mut self,
        decl: Node<'_>,
        kind: NodeKind,
        name_node: Node<'_>,
        parent: Option<SymbolIdx>,
        body: Option<Node<'_>>,
    ) -> SymbolIdx {
        let name = text(name_node, self.src).to_string();
        let qualified_name = match parent.and_then(|p| self.facts.symbols.get(p as usize)) {
            Some(p) => format!("{}.{name}", p.qualified_name),
            None => name.clone(),
        };
        let mut sig = signature(decl, body, self.src);
        while sig.ends_with([';', ' ']) {
            sig.pop();
        }
        let doc = self.doc(decl);
        let idx = to_u32(self.facts.symbols.len());
        self.facts.symbols.push(Symbol {
            kind,
            name,
            qualified_name,
            parent,
            start_line: start_line(decl),
            end_line: end_line(decl),
            signature: sig,
            doc,
            exported: true,
        });
        idx
    }

    /// The comments right above `decl` (but one that ends the line of the declaration before
    /// it, which is that one's), else the comment that ends `decl`'s own last line
    /// (`NONE = 0; // no sorting`).
    fn doc(&self, decl: Node<'_>) -> Option<String> {
        let is_comment = |n: &Node<'_>| n.kind() == "comment";
        let mut docs = preceding_comments(decl, |k| k == "comment");
        if let Some(first) = docs.first() {
            let mut prev = first.prev_sibling();
            while let Some(p) = prev.filter(is_comment) {
                prev = p.prev_sibling();
            }
            if prev.is_some_and(|p| p.end_position().row == first.start_position().row) {
                docs.remove(0);
            }
        }
        if docs.is_empty()
            && let Some(next) = decl.next_sibling().filter(is_comment)
            && next.start_position().row == decl.end_position().row
        {
            docs.push(next);
        }
        clean_comments(docs.iter().map(|c| text(*c, self.src)))
    }

    /// `option NAME = "value";` with a string value, as (NAME, value).
    fn string_option(&self, node: Node<'_>) -> Option<(String, String)> {
        let name = self.option_name(node)?;
        let value = self.child_of_kind(node, self.ids.constant)?;
        Some((name, self.string_constant(value)?))
    }

    /// An option's name as written, spaces removed: `go_package`, `(google.api.http)`.
    fn option_name(&self, node: Node<'_>) -> Option<String> {
        let eq = self.anon_child(node, self.ids.eq)?;
        let kw = self.anon_child(node, self.ids.kw_option)?;
        let raw = self.src.get(kw.end_byte()..eq.start_byte())?;
        Some(raw.chars().filter(|c| !c.is_whitespace()).collect())
    }

    /// The first named child of kind `kind`.
    fn child_of_kind<'t>(&self, node: Node<'t>, kind: u16) -> Option<Node<'t>> {
        let mut cursor = node.walk();
        node.named_children(&mut cursor).find(|c| c.kind_id() == kind)
    }

    /// The first anonymous child of kind `kind`.
    fn anon_child<'t>(&self, node: Node<'t>, kind: u16) -> Option<Node<'t>> {
        let mut cursor = node.walk();
        node.children(&mut cursor).find(|c| !c.is_named() && c.kind_id() == kind)
    }

    /// A node's text without whitespace or comments between its tokens (`a . b` -> `a.b`).
    fn squeezed(&self, node: Node<'_>) -> String {
        collapse_whitespace(text(node, self.src)).replace(' ', "")
    }

    /// The value of a string literal (adjacent literals concatenated, common escapes
    /// decoded).
    fn string_value(&self, node: Node<'_>) -> String {
        let raw = text(node, self.src);
        let mut out = String::new();
        let mut quote: Option<char> = None;
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            match quote {
                None if c == '"' || c == '\'' => quote = Some(c),
                None => {}
                Some(q) if c == q => quote = None,
                Some(_) if c == '\\' => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(other) => out.push(other),
                    None => {}
                },
                Some(_) => out.push(c),
            }
        }
        out
    }
}

/// An HTTP rule's path template as a route path: `{name}` and `{name=pattern/*}` are `:name`,
/// a leading `/` added when missing.
fn http_path(template: &str) -> String {
    let mut out = String::with_capacity(template.len() + 1);
    if !template.starts_with('/') {
        out.push('/');
    }
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            rest = &rest[open..];
            break;
        };
        let var = &after[..close];
        let name = var.split('=').next().unwrap_or(var).trim();
        out.push(':');
        out.push_str(name);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_names_exist() {
        let missing = crate::grammar::missing(Ids::NAMES, &[tree_sitter_proto::LANGUAGE.into()]);
        assert!(missing.is_empty(), "{missing:?}");
    }

    #[test]
    fn http_paths() {
        assert_eq!(http_path("/v3/kv/range"), "/v3/kv/range");
        assert_eq!(http_path("/v1/{name=messages/*}"), "/v1/:name");
        assert_eq!(
            http_path("/v1/{parent=shelves/*}/books/{book_id}"),
            "/v1/:parent/books/:book_id"
        );
        assert_eq!(http_path("v1/x"), "/v1/x");
        assert_eq!(http_path("/v1/{broken"), "/v1/{broken");
        assert_eq!(http_path("/v1/things:batchGet"), "/v1/things:batchGet");
    }
}
