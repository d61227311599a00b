//! SCIP export (`codegraph export --format scip`): one revision of the index as a SCIP
//! `Index` protobuf, the format Sourcegraph and other code-navigation tools load
//! (`src code-intel upload -file=index.scip`).
//!
//! Why it exists: the graph already knows every declaration and the references resolution tied
//! to one; SCIP lets tools that do not speak our schema navigate them (go to definition, find
//! references, find implementations) without running a language's own indexer.
//!
//! What goes in, from one read transaction:
//! - a `Document` per indexed file that a language reads (file nodes with a language), its
//!   `language` the SCIP `Language` name that matches ours case-insensitively (`TypeScript`,
//!   `Go`...), else our own name (`tsx`, `shell`, `terraform`);
//! - for each symbol node (test blocks excepted: their name is a title, not a name code
//!   uses) a `SymbolInformation` (display name, kind where SCIP has one, documentation: the
//!   signature in a fenced code block, then the doc comment; `signature_documentation` too;
//!   `is_implementation` relationships from its IMPLEMENTS and EXTENDS edges) and a
//!   definition occurrence: its name on its declaration line (the first whole-word
//!   occurrence outside a string on its first lines, as rename plans find it);
//! - reference occurrences for the edges that name a symbol where they are written: CALLS,
//!   REFERS_TO (which covers the types a TS/JS declaration names), ACCESSES, IMPORTS,
//!   EXTENDS, IMPLEMENTS and EMBEDS, each at its recorded line, at the columns where the
//!   target's name stands ([`crate::name_columns`]: a member where it is selected, `x.name`).
//!
//! What stays out: symbols outside the root (calls into dependencies, unresolved call sites)
//! have no node, so they have no occurrences here; an edge whose target's name is not on the
//! edge's line (a call split over lines, a default import under another name) gives no
//! occurrence (counted in [`Summary::unplaced_references`]); a file whose text no longer has
//! the hash the revision indexed gets its symbols but no occurrences (its lines may have
//! moved; counted in [`Summary::changed_files`]).
//!
//! Symbol strings follow the SCIP grammar (`scheme manager name version descriptors`):
//! `codegraph . . . ` then the namespace of the declaring file, one `/` namespace descriptor
//! per path segment (a Go file's namespace is its package directory, since Go declarations
//! are per package; every other file's is its own path), then the symbol's descriptors from
//! its containers down (`Server#start().`): `#` for types (class, interface, type alias, enum,
//! struct), `().` for functions and methods, `!` for macros, `/` for modules, `.` for
//! everything else (variables, constants, properties, sections, resources). A container with
//! no node in the file (a Go method's receiver type, declared in another file of the package)
//! is a type descriptor for a member and a term otherwise. Names that are not simple
//! identifiers are backquoted. Parameters and called locals are `local N`, numbered per
//! document in ID order. The string depends only on the path and the declaration, so the same
//! symbol gets the same string in every export; two declarations that map to the same string
//! (overloads, a platform-specific twin) are one SCIP symbol with several definitions.
//!
//! Positions are 0-based lines and UTF-16 code units from the line start (the
//! `position_encoding` every document states), as TypeScript, LSP and scip-typescript count.
//! The output is deterministic: documents by path, occurrences by range then symbol, symbols
//! by string, and no timestamps, so the same index gives byte-identical files.

use crate::name_columns::{
    after_new, in_string, open_brackets, receiver_before, reference_columns, string_literals,
    word_columns,
};
use crate::scan::{WithinReader, content_hash};
use codegraph_query::{EdgeRow, NodeRow, Reader};
use codegraph_schema::{EdgeKind, NodeCategory, NodeKind, Reason};
use protobuf::{Enum, EnumOrUnknown, Message, MessageField};
use scip::types::descriptor::Suffix;
use scip::types::symbol_information::Kind;
use scip::types::{
    Descriptor, Document, Index, Metadata, Occurrence, Package, PositionEncoding, Relationship,
    Signature, SingleLineRange, Symbol, SymbolInformation, SymbolRole, TextEncoding, ToolInfo,
    occurrence::Typed_range,
};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

/// The scheme of every symbol this export writes.
pub const SCHEME: &str = "codegraph";

use crate::name_columns::NAMED_REFERENCE_KINDS as REFERENCE_KINDS;

/// How many lines from a symbol's first one its name is looked for (decorators, a signature
/// split over lines).
const DECLARATION_LINES: u32 = 8;

/// How many lines an import's brackets are followed over (`import {` with one name a line).
const MAX_STATEMENT_LINES: usize = 2000;

/// What the export needs besides the index.
#[derive(Clone, Debug)]
pub struct Options<'a> {
    /// The version written in `Metadata.tool_info`.
    pub tool_version: &'a str,
    /// Files larger than this are not read (the index's own limit).
    pub max_file_size: u64,
}

/// What an export wrote and what it could not place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub documents: usize,
    /// Distinct SCIP symbols (`SymbolInformation` entries).
    pub symbols: usize,
    pub definitions: usize,
    pub references: usize,
    /// Symbols whose name was not found near their declaration line (no definition occurrence).
    pub unplaced_definitions: usize,
    /// Reference edges whose target's name is not on their line.
    pub unplaced_references: usize,
    /// Files that changed since the revision was indexed (symbols kept, occurrences left out).
    pub changed_files: usize,
    /// Files that could not be read (symbols kept, occurrences left out).
    pub unreadable_files: usize,
}

/// One revision of the index as a SCIP index. `root` is the indexed root (canonical).
pub fn export(
    root: &Path,
    reader: &Reader<'_>,
    opts: &Options<'_>,
) -> Result<(Index, Summary), String> {
    let err = |e: codegraph_query::QueryError| e.to_string();
    let mut nodes: Vec<NodeRow> = Vec::new();
    reader.for_each_node(|n| nodes.push(n)).map_err(err)?;
    let mut edges: Vec<EdgeRow> = Vec::new();
    let mut has_method: Vec<EdgeRow> = Vec::new();
    reader
        .for_each_edge(|e| {
            if REFERENCE_KINDS.contains(&e.kind) {
                edges.push(e)
            } else if e.kind == EdgeKind::HasMethod {
                has_method.push(e)
            }
        })
        .map_err(err)?;
    let hashes: HashMap<String, String> =
        reader.source_stats().map_err(err)?.into_iter().map(|s| (s.path, s.hash)).collect();
    let graph = Graph::new(&nodes);
    let mut summary = Summary::default();

    // Documents: every file a language reads, by path.
    let mut docs: BTreeMap<&str, Doc> = BTreeMap::new();
    for n in &nodes {
        if let (NodeKind::File, Some(path), Some(language)) = (n.kind, &n.file, &n.language) {
            docs.insert(path, Doc::new(path, language));
        }
    }

    // Symbol strings: globals by declaration, locals numbered per document in ID order.
    let mut symbols: Vec<Option<String>> = vec![None; nodes.len()];
    let mut locals: HashMap<&str, usize> = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        let Some(file) = graph.exported_file(i) else { continue };
        if !docs.contains_key(file) {
            continue;
        }
        symbols[i] = if n.kind == NodeKind::Parameter {
            let next = locals.entry(file).or_insert(0);
            *next += 1;
            Some(format!("local {next}"))
        } else {
            graph.global_symbol(i)
        };
    }

    // Source lines, each file read once; `None`: unreadable or changed since indexed.
    let mut files = WithinReader::new(root);
    let mut texts: HashMap<&str, Option<Vec<String>>> = HashMap::new();
    for path in docs.keys() {
        let text = match files.read(path, opts.max_file_size) {
            Ok(bytes) if hashes.get(*path).is_some_and(|h| *h == content_hash(&bytes)) => {
                Some(String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect())
            }
            Ok(_) => {
                summary.changed_files += 1;
                None
            }
            Err(_) => {
                summary.unreadable_files += 1;
                None
            }
        };
        texts.insert(path, text);
    }
    let line_of = |path: &str, line: u32| -> Option<&str> {
        let lines = texts.get(path)?.as_ref()?;
        lines.get((line as usize).checked_sub(1)?).map(String::as_str)
    };

    // Definitions, and the information of each symbol in the document of its first node.
    // (the document for a local, "" for a global; the symbol). Membership only: hashed, since
    // symbol strings share long prefixes (ordered-set compares were 12% of an export).
    let mut informed: HashSet<(&str, &str)> = HashSet::new();
    // A type that implements or extends another implements it, and so does each of its
    // methods the other's method of the same name (an override, an interface method).
    let mut methods: HashMap<&str, BTreeMap<&str, Vec<&str>>> = HashMap::new();
    for e in &has_method {
        if let Some(&m) = graph.by_id.get(e.dst.as_str()) {
            methods.entry(&e.src).or_default().entry(&nodes[m].name).or_default().push(&e.dst);
        }
    }
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for e in edges.iter().filter(|e| matches!(e.kind, EdgeKind::Implements | EdgeKind::Extends)) {
        pairs.push((&e.src, &e.dst));
        let (Some(sub), Some(sup)) = (methods.get(e.src.as_str()), methods.get(e.dst.as_str()))
        else {
            continue;
        };
        for (name, ms) in sub {
            for o in sup.get(name).into_iter().flatten() {
                pairs.extend(ms.iter().map(|m| (*m, *o)));
            }
        }
    }
    let mut relationships: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for (s, d) in pairs {
        if let (Some(s), Some(d)) = (graph.symbol_of(&symbols, s), graph.symbol_of(&symbols, d))
            && s != d
            && !is_local(s)
            && !is_local(d)
        {
            relationships.entry(s).or_default().insert(d);
        }
    }

    // Each document is a module, defined at its start (as scip-typescript has it), named where
    // an import names its file.
    let mut modules: HashMap<&str, String> = HashMap::new();
    for (path, doc) in docs.iter_mut() {
        let symbol = graph.module_symbol(path);
        let mut info = SymbolInformation::new();
        info.symbol = symbol.clone();
        info.display_name = path.rsplit('/').next().unwrap_or(path).to_string();
        info.kind = EnumOrUnknown::new(Kind::File);
        doc.symbols.push(info);
        if texts.get(path).is_some_and(Option::is_some) {
            doc.occurrences.push(occurrence(0, (0, 0), &symbol, SymbolRole::Definition));
        }
        modules.insert(path, symbol);
    }
    let mut definitions: HashMap<&str, BTreeSet<(u32, u32)>> = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        let (Some(symbol), Some(file)) = (symbols[i].as_deref(), n.file.as_deref()) else {
            continue;
        };
        let Some(doc) = docs.get_mut(file) else { continue };
        let scope = if is_local(symbol) { file } else { "" };
        if informed.insert((scope, symbol)) {
            let related = relationships.get(symbol);
            doc.symbols.push(information(symbol, n, &doc.language, related));
        }
        if texts.get(file).is_some_and(Option::is_none) {
            continue;
        }
        let start = n.start_line.unwrap_or(0);
        let end = n.end_line.unwrap_or(start).max(start).min(start + DECLARATION_LINES);
        let found = (start.max(1)..=end).find_map(|l| {
            let text = line_of(file, l)?;
            let col = word_columns(text, &n.name).into_iter().find(|&c| !in_string(text, c))?;
            Some((l, col, text))
        });
        match found {
            Some((line, col, text)) => {
                let range = utf16_range(text, col, &n.name);
                definitions.entry(file).or_default().insert((line - 1, range.0));
                doc.occurrences.push(occurrence(line - 1, range, symbol, SymbolRole::Definition));
                summary.definitions += 1;
            }
            None => summary.unplaced_definitions += 1,
        }
    }

    // References: each edge's target named on its line, in the document of its source.
    let mut seen: BTreeSet<(&str, u32, u32, &str)> = BTreeSet::new();
    for e in &edges {
        let (Some(&s), Some(&d)) =
            (graph.by_id.get(e.src.as_str()), graph.by_id.get(e.dst.as_str()))
        else {
            continue;
        };
        let Some(file) = nodes[s].file.as_deref() else { continue };
        let Some(lines) = texts.get(file).and_then(Option::as_ref) else { continue };
        // An import names what it binds on its line or on the lines its brackets span
        // (`import {` ... `} from './x'`).
        let mut span = vec![e.line];
        if e.kind == EdgeKind::Imports && e.line > 0 {
            let mut depth = lines.get(e.line as usize - 1).map_or(0, |l| open_brackets(l));
            let mut l = e.line;
            while depth > 0 && span.len() < MAX_STATEMENT_LINES {
                l += 1;
                let Some(text) = lines.get(l as usize - 1) else { break };
                depth += open_brackets(text);
                span.push(l);
            }
        }
        // An import of a file: the string that names it.
        if let (NodeKind::File, Some(target)) = (nodes[d].kind, nodes[d].file.as_deref())
            && let Some(symbol) = modules.get(target)
        {
            let Some(doc) = docs.get_mut(file) else { continue };
            let found = span.iter().find_map(|&l| {
                let text = line_of(file, l)?;
                let (start, end, _) =
                    string_literals(text).into_iter().find(|(_, _, s)| names_file(s, target))?;
                let from: usize = text.chars().take(start).map(char::len_utf16).sum();
                let len: usize =
                    text.chars().skip(start).take(end - start).map(char::len_utf16).sum();
                Some((l - 1, (from as u32, (from + len) as u32)))
            });
            if let Some((line, range)) = found
                && seen.insert((file, line, range.0, symbol))
            {
                doc.occurrences.push(occurrence(line, range, symbol, SymbolRole::Import));
                summary.references += 1;
            }
            continue;
        }
        let Some(symbol) = symbols[d].as_deref() else { continue };
        // A local is named only in its own document.
        if e.line == 0 || (is_local(symbol) && nodes[d].file.as_deref() != Some(file)) {
            continue;
        }
        let Some(doc) = docs.get_mut(file) else { continue };
        let target = &nodes[d];
        let member = matches!(target.kind, NodeKind::Method | NodeKind::Property);
        let found = span.iter().find_map(|&l| {
            let text = line_of(file, l)?;
            let mut cols: Vec<usize> = reference_columns(text, &target.name, member)
                .into_iter()
                .filter(|&c| !in_string(text, c))
                .collect();
            if member {
                cols = by_receiver(text, cols, &e.reason);
            }
            (!cols.is_empty()).then_some((l, text, cols))
        });
        let Some((at, text, mut cols)) = found else {
            summary.unplaced_references += 1;
            continue;
        };
        // A call of a class whose constructor is a node of its own is a `new` expression: it
        // names the constructor (as scip-typescript has it), and only where the class is
        // constructed (`x: X = new X()`: the type is another edge's reference).
        let mut symbol = symbol;
        if e.kind == EdgeKind::Calls
            && let Some(ctor) = graph.constructors.get(&d).and_then(|&c| symbols[c].as_deref())
        {
            let built: Vec<usize> = cols.iter().copied().filter(|&c| after_new(text, c)).collect();
            if !built.is_empty() {
                (symbol, cols) = (ctor, built);
            }
        }
        let role = if e.kind == EdgeKind::Imports {
            SymbolRole::Import
        } else {
            SymbolRole::UnspecifiedSymbolRole
        };
        let line = at - 1;
        for col in cols {
            let range = utf16_range(text, col, &target.name);
            // A declaration's own name is its definition, not a reference.
            if definitions.get(file).is_some_and(|d| d.contains(&(line, range.0))) {
                continue;
            }
            if seen.insert((file, line, range.0, symbol)) {
                doc.occurrences.push(occurrence(line, range, symbol, role));
                summary.references += 1;
            }
        }
    }

    summary.symbols = informed.len() + modules.len();
    summary.documents = docs.len();
    let mut index = Index::new();
    let mut metadata = Metadata::new();
    let mut tool = ToolInfo::new();
    tool.name = SCHEME.to_string();
    tool.version = opts.tool_version.to_string();
    metadata.tool_info = MessageField::some(tool);
    metadata.project_root = file_uri(root);
    metadata.text_document_encoding = EnumOrUnknown::new(TextEncoding::UTF8);
    index.metadata = MessageField::some(metadata);
    for (_, doc) in docs {
        index.documents.push(doc.finish());
    }
    Ok((index, summary))
}

/// The protobuf bytes of `index`.
pub fn encode(index: &Index) -> Result<Vec<u8>, String> {
    index.write_to_bytes().map_err(|e| format!("encoding the SCIP index: {e}"))
}

/// A document being filled.
struct Doc {
    path: String,
    /// Our language name (signatures' code blocks).
    language: String,
    occurrences: Vec<Occurrence>,
    symbols: Vec<SymbolInformation>,
}

impl Doc {
    fn new(path: &str, language: &str) -> Doc {
        Doc {
            path: path.to_string(),
            language: language.to_string(),
            occurrences: Vec::new(),
            symbols: Vec::new(),
        }
    }

    fn finish(mut self) -> Document {
        self.occurrences.sort_by(|a, b| {
            (&a.range, &a.symbol, a.symbol_roles).cmp(&(&b.range, &b.symbol, b.symbol_roles))
        });
        self.symbols.sort_by(|a, b| a.symbol.cmp(&b.symbol));
        let mut doc = Document::new();
        doc.relative_path = self.path;
        doc.language = scip_language(&self.language);
        doc.position_encoding =
            EnumOrUnknown::new(PositionEncoding::UTF16CodeUnitOffsetFromLineStart);
        doc.occurrences = self.occurrences;
        doc.symbols = self.symbols;
        doc
    }
}

/// The nodes, indexed by ID, with what symbol strings need.
struct Graph<'n> {
    nodes: &'n [NodeRow],
    by_id: HashMap<&'n str, usize>,
    /// File path -> the qualified name of the package node it hangs under, if any.
    packages: HashMap<&'n str, &'n str>,
    /// Class -> its `constructor` method node.
    constructors: HashMap<usize, usize>,
}

impl<'n> Graph<'n> {
    fn new(nodes: &'n [NodeRow]) -> Graph<'n> {
        let by_id: HashMap<&str, usize> =
            nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        let mut packages = HashMap::new();
        for n in nodes {
            if let (NodeKind::File, Some(file), Some(parent)) = (n.kind, &n.file, &n.parent)
                && let Some(&p) = by_id.get(parent.as_str())
                && nodes[p].kind == NodeKind::Package
            {
                packages.insert(file.as_str(), nodes[p].qualified_name.as_str());
            }
        }
        let mut constructors = HashMap::new();
        for (i, n) in nodes.iter().enumerate() {
            if n.kind == NodeKind::Method
                && n.name == "constructor"
                && let Some(&p) = n.parent.as_deref().and_then(|p| by_id.get(p))
                && nodes[p].kind == NodeKind::Class
            {
                constructors.insert(p, i);
            }
        }
        Graph { nodes, by_id, packages, constructors }
    }

    /// The file of node `i` if it is a symbol the export writes.
    fn exported_file(&self, i: usize) -> Option<&'n str> {
        let n = &self.nodes[i];
        let symbol = n.kind.category() == NodeCategory::Symbol && n.kind != NodeKind::Test;
        (symbol && !n.name.is_empty()).then_some(n.file.as_deref()).flatten()
    }

    fn symbol_of<'s>(&self, symbols: &'s [Option<String>], id: &str) -> Option<&'s str> {
        symbols.get(*self.by_id.get(id)?)?.as_deref()
    }

    /// The global SCIP symbol of symbol node `i`.
    fn global_symbol(&self, i: usize) -> Option<String> {
        let n = &self.nodes[i];
        let file = n.file.as_deref()?;
        let mut descriptors: Vec<Descriptor> =
            self.namespace(file).into_iter().map(|s| descriptor(s, Suffix::Namespace)).collect();
        descriptors.extend(self.descriptors(i, 0));
        Some(format_global(descriptors))
    }

    /// The path segments a file's symbols live under: a Go package's directory (the file's
    /// parent is a package node), else the file's own path.
    fn namespace(&self, file: &'n str) -> Vec<&'n str> {
        let path = self.packages.get(file).copied().unwrap_or(file);
        path.split('/').filter(|s| !s.is_empty() && *s != ".").collect()
    }

    /// The symbol of a file as a module: its path's segments as namespaces.
    fn module_symbol(&self, file: &str) -> String {
        let descriptors = file
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .map(|s| descriptor(s, Suffix::Namespace))
            .collect();
        format_global(descriptors)
    }

    /// Symbol node `i`'s descriptors from its outermost container down.
    fn descriptors(&self, i: usize, depth: usize) -> Vec<Descriptor> {
        let n = &self.nodes[i];
        let own = descriptor(&n.name, suffix(n.kind));
        let container = n
            .qualified_name
            .strip_suffix(n.name.as_str())
            .and_then(|p| p.strip_suffix('.'))
            .filter(|p| !p.is_empty());
        let Some(container) = container else { return vec![own] };
        let parent = n.parent.as_deref().and_then(|p| self.by_id.get(p)).copied().filter(|&p| {
            let q = &self.nodes[p];
            q.kind.category() == NodeCategory::Symbol
                && q.qualified_name == container
                && q.file == n.file
        });
        let mut out = match parent {
            Some(p) if depth < 32 => self.descriptors(p, depth + 1),
            _ => {
                let member = matches!(n.kind, NodeKind::Method | NodeKind::Property);
                vec![descriptor(container, if member { Suffix::Type } else { Suffix::Term })]
            }
        };
        out.push(own);
        out
    }
}

/// Of the columns where a member is selected, those whose receiver fits how the edge was
/// resolved: through the enclosing class's own instance (`this.x`, `self.x`), through `super`,
/// or through another receiver (`opts.x` on a line that also reads `this.x`). All of them
/// when none fits.
fn by_receiver(text: &str, cols: Vec<usize>, reason: &str) -> Vec<usize> {
    let own = |r: &Option<String>| matches!(r.as_deref(), Some("this" | "self" | "cls"));
    let sup = |r: &Option<String>| r.as_deref() == Some("super");
    let fits = |c: &usize| {
        let r = receiver_before(text, *c);
        match Reason::parse(reason) {
            Some(Reason::ThisDispatch) => own(&r),
            Some(Reason::SuperDispatch) => sup(&r),
            Some(Reason::TypedReceiver) => !own(&r) && !sup(&r),
            _ => true,
        }
    };
    let fitting: Vec<usize> = cols.iter().copied().filter(fits).collect();
    if fitting.is_empty() { cols } else { fitting }
}

/// `codegraph . . . ` and the descriptors.
fn format_global(descriptors: Vec<Descriptor>) -> String {
    let mut package = Package::new();
    package.manager = ".".to_string();
    package.name = ".".to_string();
    package.version = ".".to_string();
    let mut symbol = Symbol::new();
    symbol.scheme = SCHEME.to_string();
    symbol.package = MessageField::some(package);
    symbol.descriptors = descriptors;
    scip::symbol::format_symbol(symbol)
}

/// Whether an import's module string names the file `target` (`./a`, `../x/a.js` for
/// `x/a.ts`; `./dir` for `dir/index.ts`): its last segment without extensions is the file's
/// name without extensions, or the directory's name for an `index` file.
fn names_file(module: &str, target: &str) -> bool {
    let stem = |s: &str| s.split('.').next().unwrap_or("").to_string();
    let Some(last) = module.rsplit('/').next().map(stem).filter(|s| !s.is_empty()) else {
        return false;
    };
    let mut parts = target.rsplit('/');
    let file = parts.next().map(stem).unwrap_or_default();
    last == file || (file == "index" && parts.next() == Some(last.as_str()))
}

fn is_local(symbol: &str) -> bool {
    symbol.starts_with("local ")
}

fn descriptor(name: &str, suffix: Suffix) -> Descriptor {
    let mut d = Descriptor::new();
    d.name = name.to_string();
    d.suffix = EnumOrUnknown::new(suffix);
    d
}

/// The descriptor suffix of a symbol kind.
fn suffix(kind: NodeKind) -> Suffix {
    match kind {
        NodeKind::Function | NodeKind::Method => Suffix::Method,
        NodeKind::Macro => Suffix::Macro,
        NodeKind::Class
        | NodeKind::Interface
        | NodeKind::TypeAlias
        | NodeKind::DefinedType
        | NodeKind::Enum
        | NodeKind::Struct => Suffix::Type,
        NodeKind::Module => Suffix::Namespace,
        _ => Suffix::Term,
    }
}

/// The SCIP kind of a symbol kind, where SCIP has one.
fn scip_kind(kind: NodeKind) -> Kind {
    match kind {
        NodeKind::Function => Kind::Function,
        NodeKind::Method => Kind::Method,
        NodeKind::Macro => Kind::Macro,
        NodeKind::Class => Kind::Class,
        NodeKind::Interface => Kind::Interface,
        NodeKind::TypeAlias => Kind::TypeAlias,
        NodeKind::DefinedType => Kind::Type,
        NodeKind::Enum => Kind::Enum,
        NodeKind::Struct => Kind::Struct,
        NodeKind::Variable => Kind::Variable,
        NodeKind::Constant => Kind::Constant,
        NodeKind::Property => Kind::Property,
        NodeKind::Parameter => Kind::Parameter,
        NodeKind::Module => Kind::Module,
        _ => Kind::UnspecifiedKind,
    }
}

/// The `Language` enum's name that matches ours case-insensitively, else ours.
fn scip_language(ours: &str) -> String {
    scip::types::Language::VALUES
        .iter()
        .map(|l| format!("{l:?}"))
        .find(|name| name.eq_ignore_ascii_case(ours))
        .unwrap_or_else(|| ours.to_string())
}

fn information(
    symbol: &str,
    n: &NodeRow,
    language: &str,
    related: Option<&BTreeSet<&str>>,
) -> SymbolInformation {
    let mut info = SymbolInformation::new();
    info.symbol = symbol.to_string();
    info.display_name = n.name.clone();
    info.kind = EnumOrUnknown::new(scip_kind(n.kind));
    if let Some(sig) = n.signature.as_deref().filter(|s| !s.is_empty()) {
        info.documentation.push(format!("```{language}\n{sig}\n```"));
        let mut signature = Signature::new();
        signature.language = language.to_string();
        signature.text = sig.to_string();
        info.signature_documentation = MessageField::some(signature);
    }
    if let Some(doc) = n.doc.as_deref().filter(|d| !d.is_empty()) {
        info.documentation.push(doc.to_string());
    }
    for r in related.into_iter().flatten() {
        let mut rel = Relationship::new();
        rel.symbol = r.to_string();
        rel.is_implementation = true;
        info.relationships.push(rel);
    }
    info
}

/// `[start, end)` in UTF-16 code units of `name` at character column `col` of `text`.
fn utf16_range(text: &str, col: usize, name: &str) -> (u32, u32) {
    let start: usize = text.chars().take(col).map(char::len_utf16).sum();
    let len: usize = name.chars().map(char::len_utf16).sum();
    (start as u32, (start + len) as u32)
}

fn occurrence(line: u32, (start, end): (u32, u32), symbol: &str, role: SymbolRole) -> Occurrence {
    let mut o = Occurrence::new();
    // The three-element `range` every consumer reads, and its typed twin for new ones.
    o.range = vec![line as i32, start as i32, end as i32];
    let mut r = SingleLineRange::new();
    r.line = line as i32;
    r.start_character = start as i32;
    r.end_character = end as i32;
    o.typed_range = Some(Typed_range::SingleLineRange(r));
    o.symbol = symbol.to_string();
    o.symbol_roles = role.value();
    o
}

/// `file://` and the path, its bytes outside the unreserved set percent-encoded.
fn file_uri(root: &Path) -> String {
    // The URI scheme, spelt so that no ID prefix is (tests/tidy.rs).
    let mut out = ["file", "://"].concat();
    for b in root.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_count_utf16_units() {
        assert_eq!(utf16_range("let x = f()", 8, "f"), (8, 9));
        // `é` is one unit, `𝑥` two.
        assert_eq!(utf16_range("é𝑥 f", 3, "f"), (4, 5));
        assert_eq!(utf16_range("f 𝑥", 2, "𝑥"), (2, 4));
    }

    #[test]
    fn suffixes_and_languages() {
        let d = |name: &str, s| descriptor(name, s);
        let mut symbol = Symbol::new();
        symbol.scheme = SCHEME.to_string();
        symbol.descriptors = vec![
            d("src", Suffix::Namespace),
            d("a.ts", Suffix::Namespace),
            d("A", Suffix::Type),
            d("m", Suffix::Method),
        ];
        assert_eq!(scip::symbol::format_symbol(symbol), "codegraph . . . src/`a.ts`/A#m().");
        assert_eq!(scip_language("typescript"), "TypeScript");
        assert_eq!(scip_language("go"), "Go");
        assert_eq!(scip_language("terraform"), "terraform");
        assert_eq!(file_uri(Path::new("/a b/c")), "file:///a%20b/c");
        assert!(names_file("./a", "src/a.ts") && names_file("../x/a.js", "x/a.ts"));
        assert!(names_file("./ops", "ops/index.ts") && !names_file("./b", "src/a.ts"));
        assert!(!names_file("", "a.ts") && !names_file("./", "a.ts"));
    }
}
