//! A compact binary encoding of [`FileFacts`], so that facts outlive the process that made them.
//!
//! The index stores each file's facts as a blob; a later `codegraph index` in another process
//! restores the facts of unchanged files from that blob instead of reading and re-parsing
//! them. Decoding is therefore on the path of every warm re-index and has to be
//! cheap, and the blobs of a whole tree (the Go standard library: ~5,600 files, ~310k symbols,
//! ~490k call sites) have to stay small.
//!
//! The layout is hand-written (no dependencies): a leading [`CODEC_VERSION`] byte, LEB128
//! varints for integers (zigzag for line deltas), per-blob string interning (a string is
//! written once, then referred to by its position), small integer tags for enums. Node kinds are
//! stored by their stable schema spelling (a per-blob table of the kinds used), so reordering
//! `NodeKind` cannot silently turn one kind into another. **Bump [`CODEC_VERSION`] on any change
//! to the layout or to a tag.** A blob written with another version fails with
//! [`DecodeErrorKind::Version`]; the caller simply re-parses the file (the facts are derived
//! data, never the only copy).
//!
//! Decoding trusts nothing: truncation, unknown tags, invalid UTF-8, overlong varints, trailing
//! bytes, counts larger than the remaining input and symbol indices that point past the
//! symbols are all errors, never panics, and no allocation is larger than the remaining input
//! allows. Chains of call results (`f().g().h()`) are encoded as a depth plus names, not
//! recursively, and decoding refuses depths above [`MAX_CALL_DEPTH`] (providers stop at 8).
//!
//! Layout after the version byte, in order: the Go package (`0` | `1` string), syntax error
//! count, repair count, the Go build constraint (`0` | `1` string), the node-kind table (count, spellings), then symbols, imports, calls, accesses, heritage,
//! type hints, endpoints, mounts and client calls, each a count followed by its items (the
//! `Writer` methods say which fields), then the default export (`0` | `1` string), the export
//! aliases (count, local/exported pairs), the Go
//! string constants (count, name/value pairs), value and type references, mentions and the
//! template part count, then the Java call argument counts (count, varints), then the Rust
//! impls and `mod` declarations, then the Protobuf facts (`0` | `1` package `0` | `1` string,
//! options as count and name/value pairs), then the TypeScript facts (`0` | `1`, type
//! parameters, heritage arguments, aliases, hint type arguments). The Go fields are
//! [`LanguageFacts::Go`]'s, the argument counts [`LanguageFacts::Java`]'s, the impls and mods [`LanguageFacts::Rust`]'s,
//! the Protobuf section [`LanguageFacts::Proto`]'s, the last [`LanguageFacts::Ts`]'s; a file whose
//! fields are all empty decodes as [`LanguageFacts::None`] (what the providers store for it).

use crate::facts::*;
use codegraph_schema::NodeKind;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

/// The layout version written as the first byte. Bump it on any change to the encoding.
pub const CODEC_VERSION: u8 = 24;

/// Deepest chain of call results (`Receiver::CallResult` nesting) that decoding accepts; the
/// providers cap their chains at 8, and a bound keeps a corrupt blob from building a chain
/// whose recursive drop or comparison would overflow the stack.
pub const MAX_CALL_DEPTH: u64 = 64;

/// Encodes a file's facts; [`decode_facts`] gives them back.
pub fn encode_facts(facts: &FileFacts) -> Vec<u8> {
    let strings = facts.symbols.len() + facts.calls.len() + facts.type_hints.len();
    let mut w = Writer {
        out: Vec::with_capacity(64 + 64 * facts.symbols.len() + 8 * facts.calls.len()),
        strings: HashMap::with_capacity_and_hasher(strings, Default::default()),
    };
    w.file(facts);
    w.out
}

/// Whether `bytes` were written by this codec version (its first byte): what a restore can
/// check without decoding.
pub fn facts_codec_matches(bytes: &[u8]) -> bool {
    bytes.first() == Some(&CODEC_VERSION)
}

/// Decodes what [`encode_facts`] wrote. Any malformed input is an error, never a panic.
pub fn decode_facts(bytes: &[u8]) -> Result<FileFacts, DecodeError> {
    let mut r = Reader { buf: bytes, pos: 0, strings: Vec::new(), symbols: 0 };
    let version = r.u8()?;
    if version != CODEC_VERSION {
        return Err(DecodeError {
            offset: 0,
            kind: DecodeErrorKind::Version { found: version, expected: CODEC_VERSION },
        });
    }
    let facts = r.file()?;
    if r.pos != bytes.len() {
        return Err(r.err(DecodeErrorKind::TrailingBytes { count: bytes.len() - r.pos }));
    }
    Ok(facts)
}

/// Why a blob could not be decoded, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset in the blob of the item that could not be read.
    pub offset: usize,
    pub kind: DecodeErrorKind,
}

/// What was wrong with a blob.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// Written by another layout version (or not a facts blob at all): re-parse the file.
    Version { found: u8, expected: u8 },
    /// The input ends in the middle of an item.
    Truncated,
    /// A varint longer than 64 bits, or a value too large for its field.
    Overflow { what: &'static str },
    /// A tag that names no variant.
    UnknownTag { what: &'static str, tag: u64 },
    /// A node kind spelling the schema does not know.
    UnknownNodeKind(String),
    /// A count or length larger than the rest of the input could hold.
    BadLength { what: &'static str, len: u64 },
    /// A string that is not UTF-8.
    InvalidUtf8,
    /// A reference to a string not seen yet.
    BadStringRef { index: u64 },
    /// A symbol index past the file's symbols (or a derived name whose parent comes later).
    BadSymbolIndex { index: u64 },
    /// A call-result chain deeper than [`MAX_CALL_DEPTH`].
    TooDeep { depth: u64 },
    /// Bytes left over after the facts.
    TrailingBytes { count: usize },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot decode facts at byte {}: ", self.offset)?;
        match &self.kind {
            DecodeErrorKind::Version { found, expected } => {
                write!(f, "format version {found}, expected {expected}")
            }
            DecodeErrorKind::Truncated => f.write_str("input ends too early"),
            DecodeErrorKind::Overflow { what } => write!(f, "{what} is too large"),
            DecodeErrorKind::UnknownTag { what, tag } => write!(f, "unknown {what} tag {tag}"),
            DecodeErrorKind::UnknownNodeKind(name) => write!(f, "unknown node kind {name:?}"),
            DecodeErrorKind::BadLength { what, len } => {
                write!(f, "{what} length {len} exceeds the remaining input")
            }
            DecodeErrorKind::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            DecodeErrorKind::BadStringRef { index } => {
                write!(f, "reference to string #{index}, which was not defined yet")
            }
            DecodeErrorKind::BadSymbolIndex { index } => {
                write!(f, "symbol index {index} is out of range")
            }
            DecodeErrorKind::TooDeep { depth } => {
                write!(f, "call chain depth {depth} exceeds {MAX_CALL_DEPTH}")
            }
            DecodeErrorKind::TrailingBytes { count } => {
                write!(f, "{count} trailing byte(s) after the facts")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

// Symbol flags (low bits of the symbol header; the local kind index sits above them).
const QN_IS_NAME: u64 = 0; // qualified_name == name
const QN_PARENT: u64 = 1; // parent's qualified_name + "." + name
const QN_PREFIX: u64 = 2; // <string> + "." + name
const QN_EXPLICIT: u64 = 3; // <string>
const SYM_EXPORTED: u64 = 1 << 2;
const SYM_DOC: u64 = 1 << 3;
const SYM_PARENT: u64 = 1 << 4;
const SYM_SIG_NAME: u64 = 1 << 5; // the signature contains the name (written without it)
const SYM_FLAG_BITS: u32 = 6;

// Receiver base tags (3 bits; the call-result depth sits above them).
const RECV_NONE: u64 = 0;
const RECV_THIS: u64 = 1;
const RECV_SUPER: u64 = 2;
const RECV_OTHER: u64 = 3;
/// A path whose length follows.
const RECV_PATH: u64 = 4;
/// A path of 1, 2 or 3 names is tagged `RECV_PATH + len` with no length (most receivers).
const RECV_SHORT_PATH: u64 = 3;
const RECV_TAG_BITS: u32 = 3;

fn import_kind_tag(k: ImportKind) -> u8 {
    match k {
        ImportKind::EsImport => 0,
        ImportKind::TypeOnly => 1,
        ImportKind::ReExport => 2,
        ImportKind::Require => 3,
        ImportKind::Dynamic => 4,
        ImportKind::Package => 5,
        ImportKind::Path => 6,
        ImportKind::Module => 7,
    }
}

fn import_kind_of(tag: u64) -> Option<ImportKind> {
    Some(match tag {
        0 => ImportKind::EsImport,
        1 => ImportKind::TypeOnly,
        2 => ImportKind::ReExport,
        3 => ImportKind::Require,
        4 => ImportKind::Dynamic,
        5 => ImportKind::Package,
        6 => ImportKind::Path,
        7 => ImportKind::Module,
        _ => return None,
    })
}

fn heritage_kind_tag(k: HeritageKind) -> u8 {
    match k {
        HeritageKind::Extends => 0,
        HeritageKind::Implements => 1,
        HeritageKind::Embeds => 2,
    }
}

fn heritage_kind_of(tag: u64) -> Option<HeritageKind> {
    Some(match tag {
        0 => HeritageKind::Extends,
        1 => HeritageKind::Implements,
        2 => HeritageKind::Embeds,
        _ => return None,
    })
}

// Imported tags (2 bits; bit 2 says a local name follows).
const IMP_DEFAULT: u64 = 0;
const IMP_NAMESPACE: u64 = 1;
const IMP_ALL: u64 = 2;
const IMP_NAMED: u64 = 3;
const IMP_LOCAL: u64 = 1 << 2;

// HintSource tags.
const HINT_ANNOTATION: u8 = 0;
const HINT_CONSTRUCT: u8 = 1;
const HINT_CALL_RESULT: u8 = 2;
const HINT_RETURN: u8 = 3;
const HINT_CALLBACK: u8 = 4;
const HINT_PARAM_FN: u8 = 5;
const HINT_VALUE: u8 = 6;

// LiteralContext tags.
const LIT_TYPE: u8 = 0;
const LIT_ARGUMENT: u8 = 1;
const LIT_ASSIGNED: u8 = 2;

// Endpoint header: bit 0 the kind, bits 1-2 the handler, bit 3 "a description follows".
const EP_TOOL: u64 = 1;
const EP_HANDLER_SHIFT: u32 = 1;
const EP_HANDLER_REFERENCE: u64 = 0;
const EP_HANDLER_SYMBOL: u64 = 1;
const EP_HANDLER_INLINE: u64 = 2;
const EP_HANDLER_UNKNOWN: u64 = 3;
const EP_DESCRIPTION: u64 = 1 << 3;
const EP_NAME_EXPR: u64 = 1 << 4;
const EP_HEADER_MAX: u64 = (1 << 5) - 1;

// Client call header: bit 0 "has a base".
const CLIENT_HAS_BASE: u64 = 1;
const CLIENT_HEADER_MAX: u64 = 1;

/// An optional symbol index as one varint: 0 for `None`, index + 1 otherwise.
fn mention_tag(k: MentionKind) -> u8 {
    match k {
        MentionKind::Code => 0,
        MentionKind::Fenced => 1,
        MentionKind::Link => 2,
    }
}

fn mention_kind_of(tag: u8) -> Option<MentionKind> {
    Some(match tag {
        0 => MentionKind::Code,
        1 => MentionKind::Fenced,
        2 => MentionKind::Link,
        _ => return None,
    })
}

fn opt_idx(i: Option<SymbolIdx>) -> u64 {
    i.map_or(0, |i| u64::from(i) + 1)
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

fn delta(from: u32, to: u32) -> u64 {
    zigzag(i64::from(to) - i64::from(from))
}

struct Writer<'f> {
    out: Vec<u8>,
    /// Strings written so far, by position.
    strings: HashMap<&'f str, u64, BuildHasherDefault<FxHasher>>,
}

impl<'f> Writer<'f> {
    fn u8(&mut self, b: u8) {
        self.out.push(b);
    }

    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn count(&mut self, n: usize) {
        self.varint(n as u64);
    }

    /// A new string as `len << 1` and its bytes; a repeated one as `index << 1 | 1`.
    fn str(&mut self, s: &'f str) {
        let next = self.strings.len() as u64;
        match self.strings.entry(s) {
            Entry::Occupied(e) => {
                let v = (*e.get() << 1) | 1;
                self.varint(v);
            }
            Entry::Vacant(e) => {
                e.insert(next);
                self.varint((s.len() as u64) << 1);
                self.out.extend_from_slice(s.as_bytes());
            }
        }
    }

    /// A string outside the interning table (node kind spellings, signatures: they rarely
    /// repeat within a file).
    fn raw_str(&mut self, s: &str) {
        self.count(s.len());
        self.out.extend_from_slice(s.as_bytes());
    }

    fn file(&mut self, f: &'f FileFacts) {
        self.u8(CODEC_VERSION);
        // The Go facts sit where they always did: package, constraint, string constants
        // (empty for a file without them; decoding makes `LanguageFacts::None` of that).
        let go = f.go();
        match go.and_then(|g| g.package.as_ref()) {
            None => self.u8(0),
            Some(p) => {
                self.u8(1);
                self.str(p);
            }
        }
        self.varint(u64::from(f.syntax_errors));
        self.varint(u64::from(f.repairs));
        match go.and_then(|g| g.build_constraint.as_ref()) {
            None => self.u8(0),
            Some(b) => {
                self.u8(1);
                self.str(b);
            }
        }
        self.symbols(&f.symbols);
        self.imports(&f.imports);
        self.sites(f);
        self.type_hints(&f.type_hints);
        self.endpoints(&f.endpoints);
        self.mounts(&f.mounts);
        self.client_calls(&f.client_calls);
        match &f.default_export {
            None => self.u8(0),
            Some(name) => {
                self.u8(1);
                self.str(name);
            }
        }
        self.count(f.export_aliases.len());
        for (local, exported) in &f.export_aliases {
            self.str(local);
            self.str(exported);
        }
        let consts: &[(String, String)] = go.map_or(&[], |g| &g.string_consts);
        self.count(consts.len());
        for (name, value) in consts {
            self.str(name);
            self.str(value);
        }
        self.call_sites(&f.value_refs);
        self.call_sites(&f.type_refs);
        self.mentions(&f.mentions);
        self.varint(u64::from(f.template_parts));
        let args: &[u32] = f.java().map_or(&[], |j| &j.call_args);
        self.count(args.len());
        for a in args {
            self.varint(u64::from(*a));
        }
        self.rust(f.rust());
        match f.proto() {
            None => self.u8(0),
            Some(p) => {
                self.u8(1);
                match &p.package {
                    None => self.u8(0),
                    Some(name) => {
                        self.u8(1);
                        self.str(name);
                    }
                }
                self.count(p.options.len());
                for (name, value) in &p.options {
                    self.str(name);
                    self.str(value);
                }
            }
        }
        self.ts(f.ts());
    }

    /// The TypeScript facts: `0` | `1`, then type parameters (symbol, name, constraint `0` |
    /// `1` string), heritage arguments (clause index, count, strings), aliases (symbol, type),
    /// hint type arguments (hint index, count, strings), parameters (function, position,
    /// name), typed literals (context tag and payload, path count and names, enclosing
    /// delta, key count, then each key's name and line delta), `this` arguments (callee, position, line delta, enclosing delta).
    fn ts(&mut self, t: Option<&'f TsFacts>) {
        let Some(t) = t else { return self.u8(0) };
        self.u8(1);
        self.count(t.type_params.len());
        for p in &t.type_params {
            self.varint(u64::from(p.symbol));
            self.str(&p.name);
            match &p.constraint {
                None => self.u8(0),
                Some(c) => {
                    self.u8(1);
                    self.str(c);
                }
            }
        }
        self.count(t.heritage_args.len());
        for (clause, args) in &t.heritage_args {
            self.varint(u64::from(*clause));
            self.count(args.len());
            for a in args {
                self.str(a);
            }
        }
        self.count(t.aliases.len());
        for (alias, ty) in &t.aliases {
            self.varint(u64::from(*alias));
            self.str(ty);
        }
        self.count(t.hint_args.len());
        for (hint, args) in &t.hint_args {
            self.varint(u64::from(*hint));
            self.count(args.len());
            for a in args {
                self.str(a);
            }
        }
        self.count(t.params.len());
        for (function, position, name) in &t.params {
            self.varint(u64::from(*function));
            self.varint(u64::from(*position));
            self.str(name);
        }
        self.count(t.literal_keys.len());
        let (mut line, mut enclosing) = (0, 0);
        for k in &t.literal_keys {
            match &k.context {
                LiteralContext::Type(ty) => {
                    self.u8(LIT_TYPE);
                    self.str(ty);
                }
                LiteralContext::Argument { callee, arg } => {
                    self.u8(LIT_ARGUMENT);
                    self.callee(callee);
                    self.varint(u64::from(*arg));
                }
                LiteralContext::Assigned(path) => {
                    self.u8(LIT_ASSIGNED);
                    self.count(path.len());
                    for p in path {
                        self.str(p);
                    }
                }
            }
            self.count(k.path.len());
            for p in &k.path {
                self.str(p);
            }
            enclosing = self.idx_delta(enclosing, k.enclosing);
            self.count(k.keys.len());
            for (name, l) in &k.keys {
                self.str(name);
                self.varint(delta(line, *l));
                line = *l;
            }
        }
        self.count(t.this_args.len());
        let (mut line, mut enclosing) = (0, 0);
        for a in &t.this_args {
            self.callee(&a.callee);
            self.varint(u64::from(a.arg));
            self.varint(delta(line, a.line));
            line = a.line;
            enclosing = self.idx_delta(enclosing, a.enclosing);
        }
    }

    /// The Rust facts: impls (self type, trait `0` | `1` string, line, items, type
    /// parameters), then `mod` declarations (name, path `0` | `1` string, line).
    fn rust(&mut self, r: Option<&'f RustFacts>) {
        let (impls, mods): (&[RustImpl], &[RustMod]) =
            r.map_or((&[], &[]), |r| (&r.impls, &r.mods));
        self.count(impls.len());
        for i in impls {
            self.str(&i.self_ty);
            match &i.trait_ {
                None => self.u8(0),
                Some(t) => {
                    self.u8(1);
                    self.str(t);
                }
            }
            self.varint(u64::from(i.line));
            self.count(i.items.len());
            for s in &i.items {
                self.varint(u64::from(*s));
            }
            self.count(i.type_params.len());
            for t in &i.type_params {
                self.str(t);
            }
        }
        self.count(mods.len());
        for m in mods {
            self.str(&m.name);
            match &m.path {
                None => self.u8(0),
                Some(p) => {
                    self.u8(1);
                    self.str(p);
                }
            }
            self.varint(u64::from(m.line));
        }
        let gated: &[u32] = r.map_or(&[], |r| &r.gated_imports);
        self.count(gated.len());
        for g in gated {
            self.varint(u64::from(*g));
        }
        let from_args: &'f [(u32, Receiver)] = r.map_or(&[], |r| &r.from_args);
        self.count(from_args.len());
        for (call, arg) in from_args {
            self.varint(u64::from(*call));
            self.receiver(arg, 0, 0);
        }
    }

    /// Per mention: kind tag, text, line delta, section delta.
    fn mentions(&mut self, mentions: &'f [Mention]) {
        self.count(mentions.len());
        let (mut line, mut section) = (0, 0);
        for m in mentions {
            self.u8(mention_tag(m.kind));
            self.str(&m.text);
            self.varint(delta(line, m.line));
            line = m.line;
            section = self.idx_delta(section, m.section);
        }
    }

    /// Per site: receiver (with the call kind and the local flag), name, line delta, column, enclosing delta.
    fn call_sites(&mut self, sites: &'f [CallSite]) {
        self.count(sites.len());
        let (mut line, mut enclosing) = (0, 0);
        for c in sites {
            let kind = match c.kind {
                CallKind::Call => 0,
                CallKind::New => 1,
                CallKind::Declared => 2,
            };
            self.receiver(&c.callee.receiver, kind | u64::from(c.local) << 2, 3);
            self.str(&c.callee.name);
            self.varint(delta(line, c.line));
            line = c.line;
            self.varint(u64::from(c.col));
            enclosing = self.idx_delta(enclosing, c.enclosing);
        }
    }

    /// The node-kind table, then per symbol: header (`kind << 6 | flags`), name, the qualified
    /// name's prefix or whole text unless it is derived, parent, start line (delta from the
    /// previous symbol's), end line (delta from the start), signature (without the name when
    /// it contains it, preceded by the name's position), doc.
    fn symbols(&mut self, symbols: &'f [Symbol]) {
        // The kinds used, most frequent first so that most headers fit one byte.
        let mut kinds: Vec<(NodeKind, usize)> = Vec::new();
        for s in symbols {
            match kinds.iter_mut().find(|(k, _)| *k == s.kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((s.kind, 1)),
            }
        }
        kinds.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        self.count(kinds.len());
        for (k, _) in &kinds {
            self.raw_str(k.as_str());
        }

        self.count(symbols.len());
        let mut line = 0;
        for (i, s) in symbols.iter().enumerate() {
            let kind = kinds.iter().position(|(k, _)| *k == s.kind).unwrap_or(0) as u64;
            let parent_qn = s
                .parent
                .filter(|&p| (p as usize) < i)
                .and_then(|p| symbols.get(p as usize))
                .map(|p| p.qualified_name.as_str());
            let prefix = s
                .qualified_name
                .strip_suffix(s.name.as_str())
                .and_then(|q| q.strip_suffix('.'))
                .filter(|_| !s.name.is_empty());
            let qn = if s.qualified_name == s.name {
                QN_IS_NAME
            } else if prefix.is_some() && prefix == parent_qn {
                QN_PARENT
            } else if prefix.is_some() {
                QN_PREFIX
            } else {
                QN_EXPLICIT
            };
            let mut flags = qn;
            if s.exported {
                flags |= SYM_EXPORTED;
            }
            if s.doc.is_some() {
                flags |= SYM_DOC;
            }
            if s.parent.is_some() {
                flags |= SYM_PARENT;
            }
            let name_at =
                Some(&s.name).filter(|n| !n.is_empty()).and_then(|n| s.signature.find(n.as_str()));
            if name_at.is_some() {
                flags |= SYM_SIG_NAME;
            }
            self.varint((kind << SYM_FLAG_BITS) | flags);
            self.str(&s.name);
            match (qn, prefix) {
                (QN_PREFIX, Some(p)) => self.str(p),
                (QN_EXPLICIT, _) => self.str(&s.qualified_name),
                _ => {}
            }
            if let Some(p) = s.parent {
                self.varint(u64::from(p));
            }
            self.varint(delta(line, s.start_line));
            line = s.start_line;
            self.varint(delta(s.start_line, s.end_line));
            match name_at {
                Some(at) => {
                    self.count(at);
                    let end = at + s.name.len();
                    self.count(s.signature.len() - s.name.len());
                    self.out.extend_from_slice(&s.signature.as_bytes()[..at]);
                    self.out.extend_from_slice(&s.signature.as_bytes()[end..]);
                }
                None => self.raw_str(&s.signature),
            }
            if let Some(d) = &s.doc {
                // Interned: generated code repeats doc comments.
                self.str(d);
            }
        }
    }

    /// Per import: source, kind, line delta, bindings (tag with a has-local bit, name, local).
    fn imports(&mut self, imports: &'f [Import]) {
        self.count(imports.len());
        let mut line = 0;
        for imp in imports {
            self.str(&imp.source);
            self.u8(import_kind_tag(imp.kind));
            self.varint(delta(line, imp.line));
            line = imp.line;
            self.count(imp.bindings.len());
            for b in &imp.bindings {
                let tag = match &b.imported {
                    Imported::Default => IMP_DEFAULT,
                    Imported::Namespace => IMP_NAMESPACE,
                    Imported::All => IMP_ALL,
                    Imported::Named(_) => IMP_NAMED,
                };
                self.varint(tag | if b.local.is_some() { IMP_LOCAL } else { 0 });
                if let Imported::Named(n) = &b.imported {
                    self.str(n);
                }
                if let Some(l) = &b.local {
                    self.str(l);
                }
            }
        }
    }

    /// Calls (receiver with the kind bit, name, line delta, column, enclosing delta), field
    /// accesses (receiver with the write bit, name, line delta, enclosing delta) and heritage
    /// (symbol, kind, target).
    fn sites(&mut self, f: &'f FileFacts) {
        self.call_sites(&f.calls);

        self.count(f.accesses.len());
        let (mut line, mut enclosing) = (0, 0);
        for a in &f.accesses {
            self.receiver(&a.receiver, u64::from(a.write), 1);
            self.str(&a.name);
            self.varint(delta(line, a.line));
            line = a.line;
            enclosing = self.idx_delta(enclosing, a.enclosing);
        }

        self.count(f.heritage.len());
        for h in &f.heritage {
            self.varint(u64::from(h.symbol));
            self.u8(heritage_kind_tag(h.kind));
            self.str(&h.target);
        }
    }

    /// Per hint: scope delta, name, line delta, source tag and payload.
    fn type_hints(&mut self, hints: &'f [TypeHint]) {
        self.count(hints.len());
        let (mut line, mut scope) = (0, 0);
        for h in hints {
            scope = self.idx_delta(scope, h.scope);
            self.str(&h.name);
            self.varint(delta(line, h.line));
            line = h.line;
            match h.visible {
                None => self.u8(0),
                Some(v) => {
                    self.u8(1);
                    self.varint(u64::from(v.col));
                    self.varint(u64::from(v.end_line));
                    self.varint(u64::from(v.end_col));
                }
            }
            match &h.source {
                HintSource::Annotation(t) => {
                    self.u8(HINT_ANNOTATION);
                    self.str(t);
                }
                HintSource::Construct(t) => {
                    self.u8(HINT_CONSTRUCT);
                    self.str(t);
                }
                HintSource::CallResult(c) => {
                    self.u8(HINT_CALL_RESULT);
                    self.callee(c);
                }
                HintSource::Return(t) => {
                    self.u8(HINT_RETURN);
                    self.str(t);
                }
                HintSource::Callback { callee, arg, param } => {
                    self.u8(HINT_CALLBACK);
                    self.callee(callee);
                    self.varint(u64::from(*arg));
                    self.varint(u64::from(*param));
                }
                HintSource::ParamFn { index, param, ty } => {
                    self.u8(HINT_PARAM_FN);
                    self.varint(u64::from(*index));
                    self.varint(u64::from(*param));
                    self.str(ty);
                }
                HintSource::Value(r) => {
                    self.u8(HINT_VALUE);
                    self.receiver(r, 0, 0);
                }
            }
        }
    }

    /// Per endpoint: header (kind, handler tag, description flag), framework, method, name,
    /// description, fields, response keys, status codes, middleware, the handler's callee or
    /// symbol, receiver path, line delta, enclosing delta.
    fn endpoints(&mut self, endpoints: &'f [Endpoint]) {
        self.count(endpoints.len());
        let (mut line, mut enclosing) = (0, 0);
        for e in endpoints {
            let handler = match e.handler {
                Handler::Reference(_) => EP_HANDLER_REFERENCE,
                Handler::Symbol(_) => EP_HANDLER_SYMBOL,
                Handler::Inline => EP_HANDLER_INLINE,
                Handler::Unknown => EP_HANDLER_UNKNOWN,
            };
            let mut header = handler << EP_HANDLER_SHIFT;
            if e.kind == EndpointKind::Tool {
                header |= EP_TOOL;
            }
            if e.description.is_some() {
                header |= EP_DESCRIPTION;
            }
            if e.name_is_expr {
                header |= EP_NAME_EXPR;
            }
            self.varint(header);
            self.str(&e.framework);
            self.str(&e.method);
            self.str(&e.name);
            if let Some(d) = &e.description {
                self.str(d);
            }
            self.strs(&e.fields);
            self.strs(&e.response_keys);
            self.count(e.status_codes.len());
            for c in &e.status_codes {
                self.varint(u64::from(*c));
            }
            self.strs(&e.middleware);
            match &e.handler {
                Handler::Reference(c) => self.callee(c),
                Handler::Symbol(i) => self.varint(u64::from(*i)),
                Handler::Inline | Handler::Unknown => {}
            }
            self.strs(&e.receiver);
            self.varint(delta(line, e.line));
            line = e.line;
            enclosing = self.idx_delta(enclosing, e.enclosing);
            self.count(e.path_expr.len());
            for piece in &e.path_expr {
                match piece {
                    PathPiece::Text(t) => {
                        self.u8(0);
                        self.str(t);
                    }
                    PathPiece::Name(n) => {
                        self.u8(1);
                        self.strs(n);
                    }
                }
            }
        }
    }

    /// Per mount: framework, prefix, receiver path, target (its receiver header carries the
    /// `call` bit), middleware, line delta, enclosing delta.
    fn mounts(&mut self, mounts: &'f [Mount]) {
        self.count(mounts.len());
        let (mut line, mut enclosing) = (0, 0);
        for m in mounts {
            self.str(&m.framework);
            self.str(&m.prefix);
            self.strs(&m.receiver);
            self.receiver(&m.target.receiver, u64::from(m.call), 1);
            self.str(&m.target.name);
            self.strs(&m.middleware);
            self.varint(delta(line, m.line));
            line = m.line;
            enclosing = self.idx_delta(enclosing, m.enclosing);
        }
    }

    /// Per client call: header (the `has_base` bit), client, method, path, line delta,
    /// enclosing delta.
    fn client_calls(&mut self, calls: &'f [ClientCall]) {
        self.count(calls.len());
        let (mut line, mut enclosing) = (0, 0);
        for c in calls {
            self.varint(if c.has_base { CLIENT_HAS_BASE } else { 0 });
            self.str(&c.client);
            self.str(&c.method);
            self.str(&c.path);
            self.varint(delta(line, c.line));
            line = c.line;
            enclosing = self.idx_delta(enclosing, c.enclosing);
        }
    }

    /// A count and that many interned strings.
    fn strs(&mut self, items: &'f [String]) {
        self.count(items.len());
        for s in items {
            self.str(s);
        }
    }

    /// An optional symbol index (`0` for `None`, index + 1) as a zigzag delta from the previous
    /// one of its section: consecutive sites mostly share their enclosing symbol.
    fn idx_delta(&mut self, prev: u64, i: Option<SymbolIdx>) -> u64 {
        let v = opt_idx(i);
        self.varint(zigzag(v as i64 - prev as i64));
        v
    }

    fn callee(&mut self, c: &'f Callee) {
        self.receiver(&c.receiver, 0, 0);
        self.str(&c.name);
    }

    /// A receiver as one header varint `(depth << 3 | base tag) << extra_bits | extra`, the base
    /// receiver's payload, then the names of the `depth` call results from the innermost out.
    /// `extra` carries a few bits of the enclosing item (call kind, access write flag).
    fn receiver(&mut self, r: &'f Receiver, extra: u64, extra_bits: u32) {
        let mut names: Vec<&'f str> = Vec::new();
        let mut base = r;
        while let Receiver::CallResult(c) = base {
            names.push(&c.name);
            base = &c.receiver;
        }
        let tag = match base {
            Receiver::None => RECV_NONE,
            Receiver::This => RECV_THIS,
            Receiver::Super => RECV_SUPER,
            Receiver::Path(p) if (1..=RECV_SHORT_PATH as usize).contains(&p.len()) => {
                RECV_PATH + p.len() as u64
            }
            Receiver::Path(_) => RECV_PATH,
            // The loop above consumed every call result.
            Receiver::CallResult(_) | Receiver::Other => RECV_OTHER,
        };
        let header = ((names.len() as u64) << RECV_TAG_BITS | tag) << extra_bits | extra;
        self.varint(header);
        if let Receiver::Path(parts) = base {
            if tag == RECV_PATH {
                self.count(parts.len());
            }
            for p in parts {
                self.str(p);
            }
        }
        for n in names.iter().rev() {
            self.str(n);
        }
    }
}

struct Reader<'b> {
    buf: &'b [u8],
    pos: usize,
    /// Strings decoded so far, by position.
    strings: Vec<&'b str>,
    /// The number of symbols, once known: every symbol index must be below it.
    symbols: usize,
}

type Res<T> = Result<T, DecodeError>;

impl<'b> Reader<'b> {
    fn err(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError { offset: self.pos, kind }
    }

    fn err_at(offset: usize, kind: DecodeErrorKind) -> DecodeError {
        DecodeError { offset, kind }
    }

    fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn u8(&mut self) -> Res<u8> {
        let b = *self.buf.get(self.pos).ok_or_else(|| self.err(DecodeErrorKind::Truncated))?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Res<u64> {
        let start = self.pos;
        let mut v = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.u8()?;
            if shift == 63 && b > 1 {
                return Err(Self::err_at(start, DecodeErrorKind::Overflow { what: "varint" }));
            }
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
        }
    }

    fn u32(&mut self, what: &'static str) -> Res<u32> {
        let start = self.pos;
        let v = self.varint()?;
        u32::try_from(v).map_err(|_| Self::err_at(start, DecodeErrorKind::Overflow { what }))
    }

    /// A count of items, each at least `min_size` bytes long: a count the rest of the input
    /// cannot hold is an error, so no allocation outgrows the input.
    fn count(&mut self, what: &'static str, min_size: usize) -> Res<usize> {
        let start = self.pos;
        let n = self.varint()?;
        match usize::try_from(n) {
            Ok(n) if n.saturating_mul(min_size) <= self.remaining() => Ok(n),
            _ => Err(Self::err_at(start, DecodeErrorKind::BadLength { what, len: n })),
        }
    }

    fn line(&mut self, prev: u32) -> Res<u32> {
        let start = self.pos;
        let d = unzigzag(self.varint()?);
        i64::from(prev)
            .checked_add(d)
            .and_then(|l| u32::try_from(l).ok())
            .ok_or_else(|| Self::err_at(start, DecodeErrorKind::Overflow { what: "line" }))
    }

    fn bytes(&mut self, len: u64, what: &'static str, start: usize) -> Res<&'b [u8]> {
        let len = usize::try_from(len)
            .ok()
            .filter(|&l| l <= self.remaining())
            .ok_or_else(|| Self::err_at(start, DecodeErrorKind::BadLength { what, len }))?;
        let s = &self.buf[self.pos..self.pos + len];
        self.pos += len;
        Ok(s)
    }

    fn utf8(bytes: &'b [u8], start: usize) -> Res<&'b str> {
        std::str::from_utf8(bytes).map_err(|_| Self::err_at(start, DecodeErrorKind::InvalidUtf8))
    }

    fn str_ref(&mut self) -> Res<&'b str> {
        let start = self.pos;
        let v = self.varint()?;
        if v & 1 == 1 {
            let index = v >> 1;
            return usize::try_from(index)
                .ok()
                .and_then(|i| self.strings.get(i).copied())
                .ok_or_else(|| Self::err_at(start, DecodeErrorKind::BadStringRef { index }));
        }
        let bytes = self.bytes(v >> 1, "string", start)?;
        let s = Self::utf8(bytes, start)?;
        self.strings.push(s);
        Ok(s)
    }

    /// A string written with `Writer::raw_str`.
    fn raw_str(&mut self) -> Res<&'b str> {
        let start = self.pos;
        let len = self.varint()?;
        Self::utf8(self.bytes(len, "string", start)?, start)
    }

    fn string(&mut self) -> Res<String> {
        self.str_ref().map(str::to_owned)
    }

    /// A name of the facts: held inline when short, so decoding allocates nothing for it.
    fn name(&mut self) -> Res<Name> {
        self.str_ref().map(Name::from)
    }

    fn symbol_idx(&mut self) -> Res<SymbolIdx> {
        let start = self.pos;
        let v = self.varint()?;
        self.check_idx(v, start)
    }

    fn check_idx(&self, v: u64, start: usize) -> Res<SymbolIdx> {
        match u32::try_from(v) {
            Ok(i) if (i as usize) < self.symbols => Ok(i),
            _ => Err(Self::err_at(start, DecodeErrorKind::BadSymbolIndex { index: v })),
        }
    }

    /// See `Writer::idx_delta`; `prev` is updated.
    fn opt_idx(&mut self, prev: &mut u64) -> Res<Option<SymbolIdx>> {
        let start = self.pos;
        let d = unzigzag(self.varint()?);
        let v = (*prev as i64).wrapping_add(d) as u64;
        *prev = v;
        match v {
            0 => Ok(None),
            v => self.check_idx(v - 1, start).map(Some),
        }
    }

    /// See `Writer::rust`.
    /// The Protobuf section: `0`, or `1` then the package and the options.
    fn proto(&mut self) -> Res<Option<ProtoFacts>> {
        let at = self.pos;
        match self.u8()? {
            0 => return Ok(None),
            1 => {}
            t => return Err(Self::unknown(at, "protobuf facts", u64::from(t))),
        }
        let at = self.pos;
        let package = match self.u8()? {
            0 => None,
            1 => Some(self.string()?),
            t => return Err(Self::unknown(at, "protobuf package", u64::from(t))),
        };
        let n = self.count("protobuf options", 2)?;
        let mut options = Vec::with_capacity(n);
        for _ in 0..n {
            options.push((self.string()?, self.string()?));
        }
        Ok(Some(ProtoFacts { package, options }))
    }

    /// (index below `bound`, strings) pairs: heritage and hint type arguments.
    fn indexed_args(&mut self, what: &'static str, bound: usize) -> Res<Vec<(u32, Vec<String>)>> {
        let n = self.count(what, 2)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let at = self.pos;
            let i = self.u32(what)?;
            if i as usize >= bound {
                return Err(Self::unknown(at, what, u64::from(i)));
            }
            let k = self.count(what, 1)?;
            let mut args = Vec::with_capacity(k);
            for _ in 0..k {
                args.push(self.string()?);
            }
            out.push((i, args));
        }
        Ok(out)
    }

    fn ts(&mut self, heritage: usize, hints: usize) -> Res<Option<TsFacts>> {
        let at = self.pos;
        match self.u8()? {
            0 => return Ok(None),
            1 => {}
            t => return Err(Self::unknown(at, "typescript facts", u64::from(t))),
        }
        let n = self.count("type parameters", 3)?;
        let mut type_params = Vec::with_capacity(n);
        for _ in 0..n {
            let symbol = self.symbol_idx()?;
            let name = self.string()?;
            let at = self.pos;
            let constraint = match self.u8()? {
                0 => None,
                1 => Some(self.string()?),
                t => return Err(Self::unknown(at, "type parameter constraint", u64::from(t))),
            };
            type_params.push(TypeParam { symbol, name, constraint });
        }
        let heritage_args = self.indexed_args("heritage clause", heritage)?;
        let n = self.count("type aliases", 2)?;
        let mut aliases = Vec::with_capacity(n);
        for _ in 0..n {
            aliases.push((self.symbol_idx()?, self.string()?));
        }
        let hint_args = self.indexed_args("hint type arguments", hints)?;
        let n = self.count("parameters", 3)?;
        let mut params = Vec::with_capacity(n);
        for _ in 0..n {
            params.push((self.symbol_idx()?, self.u32("parameter position")?, self.string()?));
        }
        let n = self.count("typed literals", 4)?;
        let mut literal_keys = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let at = self.pos;
            let context = match self.u8()? {
                LIT_TYPE => LiteralContext::Type(self.string()?),
                LIT_ARGUMENT => {
                    let callee = self.callee()?;
                    LiteralContext::Argument { callee, arg: self.u32("argument position")? }
                }
                LIT_ASSIGNED => {
                    let m = self.count("assigned path", 1)?;
                    let mut path = Vec::with_capacity(m);
                    for _ in 0..m {
                        path.push(self.name()?);
                    }
                    LiteralContext::Assigned(path)
                }
                t => return Err(Self::unknown(at, "literal context", u64::from(t))),
            };
            let m = self.count("literal key path", 1)?;
            let mut path = Vec::with_capacity(m);
            for _ in 0..m {
                path.push(self.name()?);
            }
            let enclosing = self.opt_idx(&mut prev)?;
            let m = self.count("literal keys", 2)?;
            let mut keys = Vec::with_capacity(m);
            for _ in 0..m {
                let name = self.name()?;
                line = self.line(line)?;
                keys.push((name, line));
            }
            literal_keys.push(LiteralKeys { context, path, enclosing, keys });
        }
        let n = self.count("this arguments", 3)?;
        let mut this_args = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let callee = self.callee()?;
            let arg = self.u32("this argument position")?;
            line = self.line(line)?;
            let enclosing = self.opt_idx(&mut prev)?;
            this_args.push(ThisArg { callee, arg, line, enclosing });
        }
        Ok(Some(TsFacts {
            type_params,
            heritage_args,
            aliases,
            hint_args,
            params,
            literal_keys,
            this_args,
        }))
    }

    fn rust(&mut self) -> Res<RustFacts> {
        let n = self.count("impls", 4)?;
        let mut impls = Vec::with_capacity(n);
        for _ in 0..n {
            let self_ty = self.string()?;
            let at = self.pos;
            let trait_ = match self.u8()? {
                0 => None,
                1 => Some(self.string()?),
                t => return Err(Self::unknown(at, "impl trait", u64::from(t))),
            };
            let line = self.u32("impl line")?;
            let ni = self.count("impl items", 1)?;
            let mut items = Vec::with_capacity(ni);
            for _ in 0..ni {
                let at = self.pos;
                let v = self.varint()?;
                items.push(self.check_idx(v, at)?);
            }
            let type_params = self.strings("impl type parameters")?;
            impls.push(RustImpl { self_ty, trait_, line, items, type_params });
        }
        let n = self.count("mods", 3)?;
        let mut mods = Vec::with_capacity(n);
        for _ in 0..n {
            let name = self.string()?;
            let at = self.pos;
            let path = match self.u8()? {
                0 => None,
                1 => Some(self.string()?),
                t => return Err(Self::unknown(at, "mod path", u64::from(t))),
            };
            let line = self.u32("mod line")?;
            mods.push(RustMod { name, path, line });
        }
        let n = self.count("gated imports", 1)?;
        let mut gated_imports = Vec::with_capacity(n);
        for _ in 0..n {
            gated_imports.push(self.u32("gated import")?);
        }
        let n = self.count("from arguments", 2)?;
        let mut from_args = Vec::with_capacity(n);
        for _ in 0..n {
            let call = self.u32("from call")?;
            let (arg, _) = self.receiver(0)?;
            from_args.push((call, arg));
        }
        Ok(RustFacts { impls, mods, gated_imports, from_args })
    }

    fn unknown(start: usize, what: &'static str, tag: u64) -> DecodeError {
        Self::err_at(start, DecodeErrorKind::UnknownTag { what, tag })
    }

    fn file(&mut self) -> Res<FileFacts> {
        let start = self.pos;
        let package = match self.u8()? {
            0 => None,
            1 => Some(self.string()?),
            t => return Err(Self::unknown(start, "package", u64::from(t))),
        };
        let syntax_errors = self.u32("syntax error count")?;
        let repairs = self.u32("repair count")?;
        let at = self.pos;
        let build_constraint = match self.u8()? {
            0 => None,
            1 => Some(self.string()?),
            t => return Err(Self::unknown(at, "build constraint", u64::from(t))),
        };
        let symbols = self.symbols()?;
        let imports = self.imports()?;

        let calls = self.call_sites("calls")?;

        let n = self.count("accesses", 4)?;
        let mut accesses = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let (receiver, write) = self.receiver(1)?;
            let name = self.string()?;
            line = self.line(line)?;
            let enclosing = self.opt_idx(&mut prev)?;
            accesses.push(FieldAccess {
                receiver,
                name: name.into(),
                line,
                enclosing,
                write: write != 0,
            });
        }

        let n = self.count("heritage", 3)?;
        let mut heritage = Vec::with_capacity(n);
        for _ in 0..n {
            let symbol = self.symbol_idx()?;
            let start = self.pos;
            let tag = u64::from(self.u8()?);
            let kind =
                heritage_kind_of(tag).ok_or_else(|| Self::unknown(start, "heritage kind", tag))?;
            let target = self.string()?;
            heritage.push(Heritage { symbol, kind, target });
        }

        let type_hints = self.type_hints()?;
        let endpoints = self.endpoints()?;
        let mounts = self.mounts()?;
        let client_calls = self.client_calls()?;
        let at = self.pos;
        let default_export = match self.u8()? {
            0 => None,
            1 => Some(self.string()?),
            t => return Err(Self::unknown(at, "default export", u64::from(t))),
        };
        let na = self.count("export aliases", 2)?;
        let mut export_aliases = Vec::with_capacity(na);
        for _ in 0..na {
            export_aliases.push((self.string()?, self.string()?));
        }
        let nc = self.count("string constants", 2)?;
        let mut string_consts = Vec::with_capacity(nc);
        for _ in 0..nc {
            string_consts.push((self.string()?, self.string()?));
        }
        let value_refs = self.call_sites("value references")?;
        let type_refs = self.call_sites("type references")?;
        let mentions = self.mentions()?;
        let template_parts = self.u32("template part count")?;
        let na = self.count("call argument counts", 1)?;
        let mut call_args = Vec::with_capacity(na);
        for _ in 0..na {
            call_args.push(self.u32("call argument count")?);
        }
        let rust = self.rust()?;
        let proto = self.proto()?;
        let ts = self.ts(heritage.len(), type_hints.len())?;
        // A file has one language's facts: TypeScript's, Protobuf's, Rust's, Java's argument
        // counts, else the Go fields.
        let language_facts = if let Some(t) = ts {
            LanguageFacts::Ts(t).normalized()
        } else if let Some(p) = proto {
            LanguageFacts::Proto(p).normalized()
        } else if rust != RustFacts::default() {
            LanguageFacts::Rust(rust)
        } else if call_args.is_empty() {
            LanguageFacts::Go(GoFacts { package, string_consts, build_constraint }).normalized()
        } else {
            LanguageFacts::Java(JavaFacts { call_args })
        };
        Ok(FileFacts {
            template_parts,
            mentions,
            value_refs,
            type_refs,
            default_export,
            export_aliases,
            symbols,
            imports,
            calls,
            accesses,
            heritage,
            type_hints,
            endpoints,
            mounts,
            client_calls,
            syntax_errors,
            repairs,
            language_facts,
        })
    }

    fn call_sites(&mut self, what: &'static str) -> Res<Vec<CallSite>> {
        let n = self.count(what, 5)?;
        let mut out = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let (receiver, extra) = self.receiver(3)?;
            let kind = match extra & 3 {
                0 => CallKind::Call,
                1 => CallKind::New,
                _ => CallKind::Declared,
            };
            let local = extra & 4 != 0;
            let name = self.name()?;
            line = self.line(line)?;
            let col = self.u32("column")?;
            let enclosing = self.opt_idx(&mut prev)?;
            out.push(CallSite {
                callee: Callee { receiver, name },
                kind,
                line,
                col,
                enclosing,
                local,
            });
        }
        Ok(out)
    }

    fn symbols(&mut self) -> Res<Vec<Symbol>> {
        let n = self.count("node kind table", 1)?;
        let mut kinds = Vec::with_capacity(n);
        for _ in 0..n {
            let start = self.pos;
            let name = self.raw_str()?;
            let kind = NodeKind::parse(name).ok_or_else(|| {
                Self::err_at(start, DecodeErrorKind::UnknownNodeKind(name.to_owned()))
            })?;
            kinds.push(kind);
        }

        let n = self.count("symbols", 5)?;
        self.symbols = n;
        let mut symbols: Vec<Symbol> = Vec::with_capacity(n);
        let mut line = 0;
        for i in 0..n {
            let start = self.pos;
            let header = self.varint()?;
            let k = header >> SYM_FLAG_BITS;
            let kind = usize::try_from(k)
                .ok()
                .and_then(|k| kinds.get(k).copied())
                .ok_or_else(|| Self::unknown(start, "node kind index", k))?;
            let name = self.str_ref()?;
            let qn_mode = header & 3;
            let mut qualified_name = match qn_mode {
                QN_IS_NAME => name.to_owned(),
                QN_PREFIX => [self.str_ref()?, ".", name].concat(),
                QN_EXPLICIT => self.string()?,
                // QN_PARENT: known once the parent is read.
                _ => String::new(),
            };
            let parent_start = self.pos;
            let parent = if header & SYM_PARENT != 0 { Some(self.symbol_idx()?) } else { None };
            if qn_mode == QN_PARENT {
                // The parent must come first for its name to be known.
                let Some(p) = parent.filter(|&p| (p as usize) < i) else {
                    let index = parent.map_or(i as u64, u64::from);
                    return Err(Self::err_at(
                        parent_start,
                        DecodeErrorKind::BadSymbolIndex { index },
                    ));
                };
                let parent_qn = symbols.get(p as usize).map_or("", |s| s.qualified_name.as_str());
                qualified_name = [parent_qn, ".", name].concat();
            }
            let start_line = self.line(line)?;
            line = start_line;
            let end_line = self.line(start_line)?;
            let signature = if header & SYM_SIG_NAME != 0 {
                let start = self.pos;
                let at = self.varint()?;
                let rest = self.raw_str()?;
                match usize::try_from(at).ok().filter(|&at| rest.is_char_boundary(at)) {
                    Some(at) => [&rest[..at], name, &rest[at..]].concat(),
                    None => {
                        let (what, len) = ("signature name position", at);
                        return Err(Self::err_at(start, DecodeErrorKind::BadLength { what, len }));
                    }
                }
            } else {
                self.raw_str()?.to_owned()
            };
            let doc = if header & SYM_DOC != 0 { Some(self.string()?) } else { None };
            symbols.push(Symbol {
                kind,
                name: name.to_owned(),
                qualified_name,
                parent,
                start_line,
                end_line,
                signature,
                doc,
                exported: header & SYM_EXPORTED != 0,
            });
        }
        Ok(symbols)
    }

    fn imports(&mut self) -> Res<Vec<Import>> {
        let n = self.count("imports", 4)?;
        let mut imports = Vec::with_capacity(n);
        let mut line = 0;
        for _ in 0..n {
            let source = self.string()?;
            let start = self.pos;
            let tag = u64::from(self.u8()?);
            let kind =
                import_kind_of(tag).ok_or_else(|| Self::unknown(start, "import kind", tag))?;
            line = self.line(line)?;
            let nb = self.count("import bindings", 1)?;
            let mut bindings = Vec::with_capacity(nb);
            for _ in 0..nb {
                let start = self.pos;
                let tag = self.varint()?;
                let imported = match tag & !IMP_LOCAL {
                    IMP_DEFAULT => Imported::Default,
                    IMP_NAMESPACE => Imported::Namespace,
                    IMP_ALL => Imported::All,
                    IMP_NAMED => Imported::Named(self.string()?),
                    _ => return Err(Self::unknown(start, "import binding", tag)),
                };
                let local = if tag & IMP_LOCAL != 0 { Some(self.string()?) } else { None };
                bindings.push(ImportBinding { imported, local });
            }
            imports.push(Import { source, kind, bindings, line });
        }
        Ok(imports)
    }

    fn type_hints(&mut self) -> Res<Vec<TypeHint>> {
        let n = self.count("type hints", 5)?;
        let mut type_hints = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let scope = self.opt_idx(&mut prev)?;
            let name = self.string()?;
            line = self.line(line)?;
            let at = self.pos;
            let visible = match self.u8()? {
                0 => None,
                1 => Some(Visibility {
                    col: self.u32("visibility column")?,
                    end_line: self.u32("visibility end line")?,
                    end_col: self.u32("visibility end column")?,
                }),
                t => return Err(Self::unknown(at, "visibility", u64::from(t))),
            };
            let start = self.pos;
            let source = match self.u8()? {
                HINT_ANNOTATION => HintSource::Annotation(self.string()?),
                HINT_CONSTRUCT => HintSource::Construct(self.string()?),
                HINT_CALL_RESULT => HintSource::CallResult(self.callee()?),
                HINT_RETURN => HintSource::Return(self.string()?),
                HINT_CALLBACK => {
                    let callee = self.callee()?;
                    let arg = self.u32("callback argument")?;
                    let param = self.u32("callback parameter")?;
                    HintSource::Callback { callee, arg, param }
                }
                HINT_PARAM_FN => {
                    let index = self.u32("parameter index")?;
                    let param = self.u32("parameter")?;
                    let ty = self.string()?;
                    HintSource::ParamFn { index, param, ty }
                }
                HINT_VALUE => HintSource::Value(self.receiver(0)?.0),
                t => return Err(Self::unknown(start, "hint source", u64::from(t))),
            };
            type_hints.push(TypeHint { scope, name: name.into(), source, line, visible });
        }
        Ok(type_hints)
    }

    fn endpoints(&mut self) -> Res<Vec<Endpoint>> {
        let n = self.count("endpoints", 11)?;
        let mut endpoints = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let start = self.pos;
            let header = self.varint()?;
            if header > EP_HEADER_MAX {
                return Err(Self::unknown(start, "endpoint header", header));
            }
            let kind = if header & EP_TOOL != 0 { EndpointKind::Tool } else { EndpointKind::Route };
            let framework = self.string()?;
            let method = self.string()?;
            let name = self.string()?;
            let description =
                if header & EP_DESCRIPTION != 0 { Some(self.string()?) } else { None };
            let fields = self.strings("endpoint fields")?;
            let response_keys = self.strings("response keys")?;
            let nc = self.count("status codes", 1)?;
            let mut status_codes = Vec::with_capacity(nc);
            for _ in 0..nc {
                let start = self.pos;
                let v = self.varint()?;
                let c = u16::try_from(v).map_err(|_| {
                    Self::err_at(start, DecodeErrorKind::Overflow { what: "status code" })
                })?;
                status_codes.push(c);
            }
            let middleware = self.strings("middleware")?;
            let handler = match (header >> EP_HANDLER_SHIFT) & 3 {
                EP_HANDLER_REFERENCE => Handler::Reference(self.callee()?),
                EP_HANDLER_SYMBOL => Handler::Symbol(self.symbol_idx()?),
                EP_HANDLER_INLINE => Handler::Inline,
                _ => Handler::Unknown,
            };
            let receiver = self.strings("endpoint receiver")?;
            line = self.line(line)?;
            let enclosing = self.opt_idx(&mut prev)?;
            let np = self.count("path pieces", 2)?;
            let mut path_expr = Vec::with_capacity(np);
            for _ in 0..np {
                let at = self.pos;
                path_expr.push(match self.u8()? {
                    0 => PathPiece::Text(self.string()?),
                    1 => PathPiece::Name(self.strings("path piece name")?),
                    t => return Err(Self::unknown(at, "path piece", u64::from(t))),
                });
            }
            endpoints.push(Endpoint {
                kind,
                framework,
                method,
                name,
                name_is_expr: header & EP_NAME_EXPR != 0,
                description,
                fields,
                response_keys,
                status_codes,
                middleware,
                handler,
                receiver,
                line,
                enclosing,
                path_expr,
            });
        }
        Ok(endpoints)
    }

    fn mounts(&mut self) -> Res<Vec<Mount>> {
        let n = self.count("mounts", 8)?;
        let mut mounts = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let framework = self.string()?;
            let prefix = self.string()?;
            let receiver = self.strings("mount receiver")?;
            let (target_receiver, call) = self.receiver(1)?;
            let name = self.name()?;
            let middleware = self.strings("mount middleware")?;
            line = self.line(line)?;
            let enclosing = self.opt_idx(&mut prev)?;
            mounts.push(Mount {
                framework,
                prefix,
                receiver,
                target: Callee { receiver: target_receiver, name },
                call: call != 0,
                middleware,
                line,
                enclosing,
            });
        }
        Ok(mounts)
    }

    fn mentions(&mut self) -> Res<Vec<Mention>> {
        let n = self.count("mentions", 4)?;
        let mut out = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let start = self.pos;
            let tag = self.u8()?;
            let kind = mention_kind_of(tag)
                .ok_or_else(|| Self::unknown(start, "mention kind", u64::from(tag)))?;
            let text = self.string()?;
            line = self.line(line)?;
            let section = self.opt_idx(&mut prev)?;
            out.push(Mention { kind, text, line, section });
        }
        Ok(out)
    }

    fn client_calls(&mut self) -> Res<Vec<ClientCall>> {
        let n = self.count("client calls", 6)?;
        let mut calls = Vec::with_capacity(n);
        let (mut line, mut prev) = (0, 0);
        for _ in 0..n {
            let start = self.pos;
            let header = self.varint()?;
            if header > CLIENT_HEADER_MAX {
                return Err(Self::unknown(start, "client call header", header));
            }
            let client = self.string()?;
            let method = self.string()?;
            let path = self.string()?;
            line = self.line(line)?;
            let enclosing = self.opt_idx(&mut prev)?;
            calls.push(ClientCall {
                client,
                method,
                path,
                has_base: header & CLIENT_HAS_BASE != 0,
                line,
                enclosing,
            });
        }
        Ok(calls)
    }

    /// See `Writer::strs`.
    fn strings(&mut self, what: &'static str) -> Res<Vec<String>> {
        let n = self.count(what, 1)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(self.string()?);
        }
        Ok(out)
    }

    fn callee(&mut self) -> Res<Callee> {
        let (receiver, _) = self.receiver(0)?;
        let name = self.name()?;
        Ok(Callee { receiver, name })
    }

    /// See `Writer::receiver`; returns the receiver and the `extra` bits.
    fn receiver(&mut self, extra_bits: u32) -> Res<(Receiver, u64)> {
        let start = self.pos;
        let header = self.varint()?;
        let extra = header & ((1 << extra_bits) - 1);
        let header = header >> extra_bits;
        let depth = header >> RECV_TAG_BITS;
        if depth > MAX_CALL_DEPTH {
            return Err(Self::err_at(start, DecodeErrorKind::TooDeep { depth }));
        }
        let mut r = match header & ((1 << RECV_TAG_BITS) - 1) {
            RECV_NONE => Receiver::None,
            RECV_THIS => Receiver::This,
            RECV_SUPER => Receiver::Super,
            RECV_OTHER => Receiver::Other,
            tag => {
                let n = match tag - RECV_PATH {
                    0 => self.count("receiver path", 1)?,
                    short => short as usize,
                };
                let mut parts = Vec::with_capacity(n);
                for _ in 0..n {
                    parts.push(self.name()?);
                }
                Receiver::Path(parts)
            }
        };
        for _ in 0..depth {
            let name = self.name()?;
            r = Receiver::CallResult(Box::new(Callee { receiver: r, name }));
        }
        Ok((r, extra))
    }
}

/// The multiply-rotate hash of rustc (FxHash): the interning table hashes every string of a
/// file, and SipHash's flooding resistance buys nothing for a file's own names.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl FxHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
