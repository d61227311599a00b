//! The facts codec against real provider output: every variant of every enum in the facts
//! (endpoints, mounts and client calls included) round-trips, and no damaged blob (truncated, flipped, foreign version,
//! trailing bytes) makes decoding panic.

use codegraph_parse::*;
use codegraph_schema::NodeKind;
use std::collections::BTreeSet;

const GO: &str = r#"package server

import (
	"fmt"
	str "strings"
)

// Base is embedded.
type Base struct{ id int }

// Server serves; its doc has ünïcode.
type Server struct {
	Base
	name  string
	next  *Server
	items []Item
}

type Reader interface {
	fmt.Stringer
	Read() string
}

const Limit = 10

var global = NewServer()

func NewServer() *Server { return &Server{} }

// Start starts.
func (s *Server) Start(n int) error {
	x := NewServer()
	y := Server{}
	z := s.name
	var w Reader
	fmt.Println(str.ToUpper(s.name), x, y, z, w)
	s.next.Start(1)
	NewServer().next.Start(2)
	NewServer().Start(3)
	s.items[0].Do()
	for _, v := range s.items {
		v.Do()
	}
	switch t := w.(type) {
	case *Server:
		t.Start(4)
	}
	return nil
}
"#;

const GO_BROKEN: &str = "package broken\n\nfunc ok() { f(1) }\n\nfunc bad( {\n";

const TS: &str = r#"import def, { named as alias, other } from './a';
import * as ns from 'ns';
import type { T } from './types';
export { x as y, default } from './b';
export * from './c';
export * as grouped from './d';

/** Base doc. */
export class Base<T> implements Runner, Other {
  count: number = 0;
  constructor(private repo: Repo) {}
  run(): void { this.helper(); }
  helper() {}
}

interface Shape<K extends Key = Key> extends Sized<K, any> {}

export enum Color { Red, Green }

type Alias = string;
type Named = Base<number>;
const made: Box<Named> = make();

export class Service extends Base<string> {
  constructor() { super(null); super.run(); }
  go(init: (s: Subscriber<string>) => void): Result {
    const b = new Base();
    const r = make();
    const v = this.count;
    this.count = 2;
    const c = this.repo.cache;
    make().then(done);
    a[0].run();
    list.map((x) => x.id);
    ns.util.deep();
    const later = import('./lazy');
    const opts: Opts = { depth: 1, inner: { deep: true } };
    configure(this, { retries: 2 });
    this.opts = { depth: 2 };
    return r;
  }
}
"#;

const TSX: &str = r#"import React from 'react';
export function App(props: Props) {
  return <div onClick={() => handle()}>{render(props.items)}</div>;
}
"#;

const JS: &str = r#"const fs = require('fs');
const { join } = require('path');
function build() { return new Widget(join('a', 'b')); }
const api = { load() { fs.readFileSync('x'); } };
api.extra = function () { build(); };
module.exports = { build };
"#;

const ROUTES_TS: &str = r#"import express from 'express';
import { Controller, Get, UseGuards } from '@nestjs/common';
const app = express();
app.get('/users/:id', auth, getUser);
app.post('/users', async (req, res) => { res.status(201).json({ id: 1, name }); });
fastify.route({ method: ['GET', 'HEAD'], url: '/gone' });
server.tool('add', 'Adds ünïcode', { a: z.number(), b: z.number() }, async () => ({}));
@Controller('items')
export class Items {
  @Get(':id') @UseGuards(Guard) one() { return { id: 1 }; }
}
function getUser(req, res) { res.json({ id: 1 }); }
app.use('/api', auth, router);
app.use('/legacy', makeRouter());
axios.get('/plain');
export async function load(id) {
  return fetch(`${API}/users/${id}`, { method: 'POST' });
}
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  switch (req.params.name) { case 'echo': return {}; }
});
"#;

const ROUTES_GO: &str = r#"package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

func Routes(r *gin.Engine) {
	v1 := r.Group("/v1", auth)
	v1.GET("/users/:id", func(c *gin.Context) { c.JSON(404, gin.H{"error": "none"}) })
	s.AddTool(mcp.NewTool("hello", mcp.WithString("name")), h.Hello)
	users.Register(v1)
	http.Get(base + "/users")
}
"#;

const MARKDOWN: &str = "# Title\n\nIntro.\n\n## Section ünïcode\n\ntext\n\n### Deeper\n";

const TERRAFORM: &str = r#"
variable "name" { description = "The name" }
module "vpc" {
  source = "./modules/vpc"
  cidr   = var.name
}
resource "aws_vpc" "this" {
  tags       = { n = local.x }
  depends_on = [module.vpc]
}
"#;

const SHELL: &str =
    "#!/bin/sh\nsource ./lib.sh\n# Runs.\nrun() { kubectl get pods -n \"$NS\"; }\nrun\n";

const MANIFESTS: &str = "# Web.\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Name }}\n";

const ELIXIR: &str = "defmodule A.B do\n  alias A.C\n  import A.D, only: [f: 1]\n  use X\n  @doc \"Runs.\"\n  def run(x, y \\\\ 1), do: x |> C.go() |> f()\nend\n";

const RUST: &str = r#"
mod other;
#[cfg(feature = "x")]
use crate::other::Thing;

pub struct Buf;

impl<'a> From<&'a str> for Buf {
    fn from(s: &'a str) -> Buf { Buf }
}

impl Buf {
    pub fn make() -> Buf {
        Buf::from("text");
        Buf::from(&b"bytes"[..])
    }
}
"#;

fn samples() -> Vec<(&'static str, FileFacts)> {
    vec![
        ("go", analyze(Language::Go, GO)),
        ("go-broken", analyze(Language::Go, GO_BROKEN)),
        ("ts", analyze(Language::TypeScript, TS)),
        ("tsx", analyze(Language::Tsx, TSX)),
        ("js", analyze(Language::JavaScript, JS)),
        ("routes-ts", analyze(Language::TypeScript, ROUTES_TS)),
        ("routes-go", analyze(Language::Go, ROUTES_GO)),
        ("md", analyze(Language::Markdown, MARKDOWN)),
        ("tf", analyze(Language::Terraform, TERRAFORM)),
        ("sh", analyze(Language::Shell, SHELL)),
        ("k8s", analyze(Language::Kubernetes, MANIFESTS)),
        ("ex", analyze(Language::Elixir, ELIXIR)),
        ("rs", analyze(Language::Rust, RUST)),
    ]
}

/// One exhaustive `match` per enum, naming each variant; the expected list is built from the
/// same arms. A new variant does not compile until it gets an arm here, and then the coverage
/// test fails until a sample produces it.
macro_rules! variants {
    ($fn_name:ident, $all:ident, $ty:ty { $($pat:pat => $label:literal),+ $(,)? }) => {
        fn $fn_name(v: &$ty) -> &'static str {
            match v {
                $($pat => $label),+
            }
        }
        const $all: &[&str] = &[$($label),+];
    };
}

variants!(import_kind, IMPORT_KINDS, ImportKind {
    ImportKind::EsImport => "EsImport",
    ImportKind::TypeOnly => "TypeOnly",
    ImportKind::ReExport => "ReExport",
    ImportKind::Require => "Require",
    ImportKind::Dynamic => "Dynamic",
    ImportKind::Package => "Package",
    ImportKind::Path => "Path",
    ImportKind::Module => "Module",
});

variants!(imported, IMPORTEDS, Imported {
    Imported::Default => "Default",
    Imported::Namespace => "Namespace",
    Imported::All => "All",
    Imported::Named(_) => "Named",
});

variants!(call_kind, CALL_KINDS, CallKind {
    CallKind::Call => "Call",
    CallKind::New => "New",
    CallKind::Declared => "Declared",
});

variants!(receiver, RECEIVERS, Receiver {
    Receiver::None => "None",
    Receiver::This => "This",
    Receiver::Super => "Super",
    Receiver::Path(_) => "Path",
    Receiver::CallResult(_) => "CallResult",
    Receiver::Other => "Other",
});

variants!(heritage_kind, HERITAGE_KINDS, HeritageKind {
    HeritageKind::Extends => "Extends",
    HeritageKind::Implements => "Implements",
    HeritageKind::Embeds => "Embeds",
});

variants!(hint_source, HINT_SOURCES, HintSource {
    HintSource::Annotation(_) => "Annotation",
    HintSource::Construct(_) => "Construct",
    HintSource::CallResult(_) => "CallResult",
    HintSource::Return(_) => "Return",
    HintSource::Callback { .. } => "Callback",
    HintSource::ParamFn { .. } => "ParamFn",
    HintSource::Value(_) => "Value",
});

variants!(literal_context, LITERAL_CONTEXTS, LiteralContext {
    LiteralContext::Type(_) => "Type",
    LiteralContext::Argument { .. } => "Argument",
    LiteralContext::Assigned(_) => "Assigned",
});

variants!(endpoint_kind, ENDPOINT_KINDS, EndpointKind {
    EndpointKind::Route => "Route",
    EndpointKind::Tool => "Tool",
});

variants!(handler, HANDLERS, Handler {
    Handler::Reference(_) => "Reference",
    Handler::Symbol(_) => "Symbol",
    Handler::Inline => "Inline",
    Handler::Unknown => "Unknown",
});

#[derive(Default)]
struct Seen(BTreeSet<(&'static str, &'static str)>);

impl Seen {
    fn receiver(&mut self, r: &Receiver) {
        self.0.insert(("Receiver", receiver(r)));
        if let Receiver::CallResult(c) = r {
            self.callee(c);
        }
    }

    fn callee(&mut self, c: &Callee) {
        self.receiver(&c.receiver);
    }

    fn facts(&mut self, f: &FileFacts) {
        for i in &f.imports {
            self.0.insert(("ImportKind", import_kind(&i.kind)));
            for b in &i.bindings {
                self.0.insert(("Imported", imported(&b.imported)));
            }
        }
        for c in f.calls.iter().chain(&f.value_refs) {
            self.0.insert(("CallKind", call_kind(&c.kind)));
            self.callee(&c.callee);
        }
        for a in &f.accesses {
            self.receiver(&a.receiver);
        }
        for h in &f.heritage {
            self.0.insert(("HeritageKind", heritage_kind(&h.kind)));
        }
        for h in &f.type_hints {
            self.0.insert(("HintSource", hint_source(&h.source)));
            match &h.source {
                HintSource::CallResult(c) | HintSource::Callback { callee: c, .. } => {
                    self.callee(c)
                }
                HintSource::Value(r) => self.receiver(r),
                _ => {}
            }
        }
        for k in f.ts().map_or(&[][..], |t| &t.literal_keys) {
            self.0.insert(("LiteralContext", literal_context(&k.context)));
            if let LiteralContext::Argument { callee, .. } = &k.context {
                self.callee(callee);
            }
        }
        for e in &f.endpoints {
            self.0.insert(("EndpointKind", endpoint_kind(&e.kind)));
            self.0.insert(("Handler", handler(&e.handler)));
            if let Handler::Reference(c) = &e.handler {
                self.callee(c);
            }
        }
        for m in &f.mounts {
            self.callee(&m.target);
        }
    }
}

#[test]
fn samples_cover_every_variant() {
    let mut seen = Seen::default();
    for (_, f) in samples() {
        seen.facts(&f);
    }
    let mut missing = Vec::new();
    for (ty, all) in [
        ("ImportKind", IMPORT_KINDS),
        ("Imported", IMPORTEDS),
        ("CallKind", CALL_KINDS),
        ("Receiver", RECEIVERS),
        ("HeritageKind", HERITAGE_KINDS),
        ("HintSource", HINT_SOURCES),
        ("LiteralContext", LITERAL_CONTEXTS),
        ("EndpointKind", ENDPOINT_KINDS),
        ("Handler", HANDLERS),
    ] {
        for v in all {
            if !seen.0.contains(&(ty, *v)) {
                missing.push(format!("{ty}::{v}"));
            }
        }
    }
    assert!(missing.is_empty(), "no sample produces {missing:?}; add a snippet that does");
}

#[test]
fn samples_exercise_the_optional_parts() {
    let all = samples();
    let facts: Vec<&FileFacts> = all.iter().map(|(_, f)| f).collect();
    let syms = || facts.iter().flat_map(|f| &f.symbols);
    assert!(syms().any(|s| s.doc.is_some()));
    assert!(syms().any(|s| s.exported));
    assert!(syms().any(|s| s.parent.is_some()));
    assert!(syms().any(|s| !s.name.is_ascii()));
    assert!(facts.iter().any(|f| f.go().is_some_and(|g| g.package.is_some())));
    assert!(facts.iter().any(|f| f.syntax_errors > 0));
    let ts = || facts.iter().filter_map(|f| f.ts());
    assert!(ts().flat_map(|t| &t.type_params).any(|p| p.constraint.is_some()));
    assert!(ts().flat_map(|t| &t.type_params).any(|p| p.constraint.is_none()));
    assert!(ts().flat_map(|t| &t.heritage_args).any(|(_, a)| a.iter().any(String::is_empty)));
    assert!(ts().any(|t| !t.aliases.is_empty()));
    assert!(ts().any(|t| !t.hint_args.is_empty()));
    assert!(ts().any(|t| !t.params.is_empty()));
    assert!(ts().flat_map(|t| &t.literal_keys).any(|k| !k.path.is_empty()));
    assert!(ts().flat_map(|t| &t.literal_keys).any(|k| k.enclosing.is_some()));
    assert!(ts().flat_map(|t| &t.literal_keys).any(|k| k.keys.len() > 1));
    assert!(ts().any(|t| !t.this_args.is_empty()));
    let rs = || facts.iter().filter_map(|f| f.rust());
    assert!(rs().any(|r| r.from_args.len() > 1));
    assert!(rs().any(|r| !r.gated_imports.is_empty()));
    assert!(rs().flat_map(|r| &r.impls).any(|i| i.trait_.is_some()));
    assert!(rs().flat_map(|r| &r.impls).any(|i| i.trait_.is_none()));
    assert!(rs().any(|r| !r.mods.is_empty()));
    assert!(facts.iter().any(|f| f.template_parts > 0));
    assert!(facts.iter().flat_map(|f| &f.accesses).any(|a| a.write));
    assert!(facts.iter().flat_map(|f| &f.accesses).any(|a| !a.write));
    assert!(facts.iter().flat_map(|f| &f.calls).any(|c| c.enclosing.is_none()));
    let eps = || facts.iter().flat_map(|f| &f.endpoints);
    assert!(eps().any(|e| e.description.is_some()));
    assert!(eps().any(|e| e.description.is_none()));
    assert!(eps().any(|e| !e.fields.is_empty()));
    assert!(eps().any(|e| !e.response_keys.is_empty()));
    assert!(eps().any(|e| !e.status_codes.is_empty()));
    assert!(eps().any(|e| !e.middleware.is_empty()));
    assert!(eps().any(|e| !e.receiver.is_empty()));
    assert!(eps().any(|e| e.enclosing.is_some()));
    assert!(eps().any(|e| e.enclosing.is_none()));
    let mounts = || facts.iter().flat_map(|f| &f.mounts);
    assert!(mounts().any(|m| m.call));
    assert!(mounts().any(|m| !m.call));
    assert!(mounts().any(|m| !m.middleware.is_empty()));
    assert!(mounts().any(|m| m.enclosing.is_some()));
    assert!(mounts().any(|m| m.enclosing.is_none()));
    assert!(mounts().any(|m| matches!(m.target.receiver, Receiver::Path(_))));
    let clients = || facts.iter().flat_map(|f| &f.client_calls);
    assert!(clients().any(|c| c.has_base));
    assert!(clients().any(|c| !c.has_base));
    assert!(clients().any(|c| c.enclosing.is_some()));
    assert!(clients().any(|c| c.enclosing.is_none()));
}

#[test]
fn provider_facts_round_trip() {
    for (name, f) in samples() {
        let blob = encode_facts(&f);
        assert_eq!(blob[0], CODEC_VERSION);
        assert_eq!(decode_facts(&blob), Ok(f.clone()), "{name}");
        assert_eq!(encode_facts(&f), blob, "{name}: encoding is deterministic");
    }
}

fn sym(kind: NodeKind, name: &str, qn: &str, parent: Option<SymbolIdx>) -> Symbol {
    Symbol {
        kind,
        name: name.to_string(),
        qualified_name: qn.to_string(),
        parent,
        start_line: 1,
        end_line: 1,
        signature: String::new(),
        doc: None,
        exported: false,
    }
}

fn chain(depth: usize) -> Callee {
    let mut c = Callee { receiver: Receiver::Path(vec!["a".into()]), name: "f0".into() };
    for i in 1..=depth {
        c = Callee { receiver: Receiver::CallResult(Box::new(c)), name: format!("f{i}").into() };
    }
    c
}

/// Shapes no provider makes today but the types allow: every node kind, extreme numbers,
/// empty and non-ASCII strings, every qualified-name form, a parent after its child.
fn synthetic() -> FileFacts {
    let mut symbols: Vec<Symbol> =
        NodeKind::ALL.iter().map(|&k| sym(k, k.as_str(), k.as_str(), None)).collect();
    let n = symbols.len() as SymbolIdx;
    symbols.push(sym(NodeKind::Method, "m", "file.m", Some(0)));
    symbols.push(sym(NodeKind::Method, "m", "Other.m", None));
    symbols.push(sym(NodeKind::Method, "", "", Some(0)));
    symbols.push(sym(NodeKind::Method, "", "x.", None));
    symbols.push(sym(NodeKind::Property, "ü", "wholly different", Some(n + 5)));
    symbols.push(Symbol {
        signature: "fn ü(ü: ü) -> ü".into(),
        doc: Some(String::new()),
        exported: true,
        start_line: u32::MAX,
        end_line: 0,
        ..sym(NodeKind::Function, "ü", "Parent.ü", Some(n + 4))
    });
    symbols.push(Symbol {
        start_line: 0,
        end_line: u32::MAX,
        ..sym(NodeKind::Variable, "Parent", "Parent", None)
    });
    let callee = chain(MAX_CALL_DEPTH as usize);
    FileFacts {
        symbols,
        imports: vec![Import {
            source: String::new(),
            kind: ImportKind::Package,
            bindings: vec![],
            line: u32::MAX,
        }],
        calls: vec![
            CallSite {
                callee: callee.clone(),
                kind: CallKind::New,
                line: u32::MAX,
                col: u32::MAX,
                enclosing: Some(n + 6),
                local: false,
            },
            CallSite {
                callee: Callee { receiver: Receiver::Path(vec![]), name: Name::default() },
                kind: CallKind::Call,
                line: 0,
                col: 0,
                enclosing: None,
                local: true,
            },
            CallSite {
                callee: Callee {
                    receiver: Receiver::path((0..5).map(|i| format!("p{i}"))),
                    name: "p1".into(),
                },
                kind: CallKind::Call,
                line: 7,
                col: 1,
                enclosing: Some(0),
                local: false,
            },
        ],
        accesses: vec![FieldAccess {
            receiver: Receiver::CallResult(Box::new(chain(2))),
            name: "ü".into(),
            line: 3,
            enclosing: Some(n + 6),
            write: true,
        }],
        heritage: vec![Heritage { symbol: n + 6, kind: HeritageKind::Embeds, target: "ü".into() }],
        type_hints: vec![
            TypeHint {
                scope: Some(n + 6),
                name: String::new().into(),
                source: HintSource::Callback { callee, arg: u32::MAX, param: 0 },
                line: u32::MAX,
                visible: None,
            },
            TypeHint {
                scope: None,
                name: "x".into(),
                source: HintSource::ParamFn { index: u32::MAX, param: u32::MAX, ty: "ü".into() },
                line: 0,
                visible: None,
            },
            TypeHint {
                scope: Some(0),
                name: "x".into(),
                source: HintSource::Value(Receiver::Other),
                line: 0,
                visible: None,
            },
        ],
        endpoints: vec![
            Endpoint {
                kind: EndpointKind::Tool,
                framework: String::new(),
                method: String::new(),
                name: "ü".into(),
                name_is_expr: true,
                description: Some(String::new()),
                fields: vec![String::new(), "ü".into()],
                response_keys: vec![],
                status_codes: vec![0, u16::MAX],
                middleware: vec!["ü".into(); 3],
                handler: Handler::Reference(chain(MAX_CALL_DEPTH as usize)),
                receiver: (0..40).map(|i| format!("r{i}")).collect(),
                line: u32::MAX,
                enclosing: Some(n + 6),
                path_expr: vec![
                    PathPiece::Text("ü".into()),
                    PathPiece::Name(vec![]),
                    PathPiece::Name(vec!["a".into(), "b".into()]),
                ],
            },
            Endpoint {
                kind: EndpointKind::Route,
                framework: "express".into(),
                method: "ANY".into(),
                name: "/".into(),
                name_is_expr: false,
                description: None,
                fields: vec![],
                response_keys: vec!["a".into(), "a".into()],
                status_codes: vec![],
                middleware: vec![],
                handler: Handler::Symbol(n + 6),
                receiver: vec![],
                line: 0,
                enclosing: None,
                path_expr: vec![],
            },
            Endpoint {
                kind: EndpointKind::Route,
                framework: "express".into(),
                method: "GET".into(),
                name: "/".into(),
                name_is_expr: false,
                description: None,
                fields: vec![],
                response_keys: vec![],
                status_codes: vec![],
                middleware: vec![],
                handler: Handler::Unknown,
                receiver: vec![],
                line: 1,
                enclosing: Some(0),
                path_expr: vec![],
            },
        ],
        mounts: vec![
            Mount {
                framework: "ü".into(),
                prefix: String::new(),
                receiver: (0..40).map(|i| format!("m{i}")).collect(),
                target: chain(MAX_CALL_DEPTH as usize),
                call: true,
                middleware: vec![String::new(), "ü".into()],
                line: u32::MAX,
                enclosing: Some(n + 6),
            },
            Mount {
                framework: "chi".into(),
                prefix: "/".into(),
                receiver: vec![],
                target: Callee { receiver: Receiver::Super, name: String::new().into() },
                call: false,
                middleware: vec![],
                line: 0,
                enclosing: None,
            },
        ],
        client_calls: vec![
            ClientCall {
                client: "ü".into(),
                method: String::new(),
                path: "/ü/:param".into(),
                has_base: true,
                line: u32::MAX,
                enclosing: Some(n + 6),
            },
            ClientCall {
                client: "fetch".into(),
                method: "GET".into(),
                path: "/".into(),
                has_base: false,
                line: 0,
                enclosing: None,
            },
        ],
        default_export: Some("ü".into()),
        export_aliases: vec![("_await".into(), "await".into()), (String::new(), "ü".into())],
        syntax_errors: u32::MAX,
        repairs: u32::MAX - 1,
        template_parts: u32::MAX - 2,
        language_facts: LanguageFacts::Go(GoFacts {
            package: Some(String::new()),
            string_consts: vec![(String::new(), "ü".into()), ("a".into(), String::new())],
            build_constraint: Some("linux && (amd64 || arm64)".into()),
        }),
        value_refs: vec![CallSite {
            callee: Callee { receiver: Receiver::Path(vec!["ü".into()]), name: "f".into() },
            kind: CallKind::Call,
            line: 3,
            col: u32::MAX,
            enclosing: Some(n + 6),
            local: false,
        }],
        type_refs: vec![CallSite {
            callee: Callee { receiver: Receiver::None, name: "T".into() },
            kind: CallKind::Call,
            line: u32::MAX,
            col: 0,
            enclosing: None,
            local: false,
        }],
        mentions: vec![
            Mention { kind: MentionKind::Link, text: "ü/a.md".into(), line: 1, section: None },
            Mention {
                kind: MentionKind::Code,
                text: String::new(),
                line: u32::MAX,
                section: Some(n),
            },
            Mention { kind: MentionKind::Fenced, text: "a.b".into(), line: 2, section: Some(0) },
        ],
    }
}

#[test]
fn unusual_facts_round_trip() {
    for f in [FileFacts::default(), synthetic()] {
        assert_eq!(decode_facts(&encode_facts(&f)), Ok(f));
    }
}

fn all_blobs() -> Vec<Vec<u8>> {
    let mut blobs: Vec<Vec<u8>> = samples().iter().map(|(_, f)| encode_facts(f)).collect();
    blobs.push(encode_facts(&synthetic()));
    blobs.push(encode_facts(&FileFacts::default()));
    blobs
}

#[test]
fn every_truncation_is_an_error() {
    for blob in all_blobs() {
        for len in 0..blob.len() {
            let err = decode_facts(&blob[..len]).expect_err("a truncated blob must not decode");
            assert!(err.offset <= len, "{err}");
        }
    }
    let err = decode_facts(&[]).expect_err("empty");
    assert_eq!(err, DecodeError { offset: 0, kind: DecodeErrorKind::Truncated });
}

#[test]
fn another_version_is_a_version_error() {
    for version in [0, CODEC_VERSION.wrapping_add(1), 255] {
        let mut blob = encode_facts(&samples()[0].1);
        blob[0] = version;
        let err = decode_facts(&blob).expect_err("foreign version");
        assert_eq!(
            err,
            DecodeError {
                offset: 0,
                kind: DecodeErrorKind::Version { found: version, expected: CODEC_VERSION },
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
                "cannot decode facts at byte 0: format version {version}, expected {CODEC_VERSION}"
            )
        );
    }
}

#[test]
fn trailing_bytes_are_an_error() {
    for blob in all_blobs() {
        for extra in [&[0u8][..], &[CODEC_VERSION], &[1, 2, 3]] {
            let mut long = blob.clone();
            long.extend_from_slice(extra);
            let err = decode_facts(&long).expect_err("trailing bytes");
            let want = DecodeError {
                offset: blob.len(),
                kind: DecodeErrorKind::TrailingBytes { count: extra.len() },
            };
            assert_eq!(err, want);
        }
    }
}

#[test]
fn out_of_range_references_are_errors() {
    let mut f = FileFacts::default();
    f.symbols.push(sym(NodeKind::Function, "f", "f", None));
    f.calls.push(CallSite {
        callee: chain(0),
        kind: CallKind::Call,
        line: 1,
        col: 1,
        enclosing: Some(1),
        local: false,
    });
    let err = decode_facts(&encode_facts(&f)).expect_err("enclosing past the symbols");
    assert_eq!(err.kind, DecodeErrorKind::BadSymbolIndex { index: 1 });
    assert!(err.to_string().contains("symbol index 1 is out of range"), "{err}");

    f.calls[0].enclosing = Some(0);
    f.calls[0].callee = chain(MAX_CALL_DEPTH as usize + 1);
    let err = decode_facts(&encode_facts(&f)).expect_err("chain too deep");
    assert_eq!(err.kind, DecodeErrorKind::TooDeep { depth: MAX_CALL_DEPTH + 1 });

    // An endpoint handled by, or enclosed in, a symbol past the symbols.
    f.calls.clear();
    let mut e = Endpoint {
        kind: EndpointKind::Route,
        framework: "express".into(),
        method: "GET".into(),
        name: "/".into(),
        name_is_expr: false,
        description: None,
        fields: vec![],
        response_keys: vec![],
        status_codes: vec![],
        middleware: vec![],
        handler: Handler::Symbol(1),
        receiver: vec![],
        line: 1,
        enclosing: None,
        path_expr: vec![],
    };
    f.endpoints.push(e.clone());
    let err = decode_facts(&encode_facts(&f)).expect_err("handler past the symbols");
    assert_eq!(err.kind, DecodeErrorKind::BadSymbolIndex { index: 1 });
    e.handler = Handler::Inline;
    e.enclosing = Some(7);
    f.endpoints = vec![e];
    let err = decode_facts(&encode_facts(&f)).expect_err("enclosing past the symbols");
    assert_eq!(err.kind, DecodeErrorKind::BadSymbolIndex { index: 7 });

    // A mount or a client call enclosed in a symbol past the symbols.
    f.endpoints.clear();
    f.mounts.push(Mount {
        framework: "express".into(),
        prefix: "/api".into(),
        receiver: vec!["app".into()],
        target: chain(0),
        call: false,
        middleware: vec![],
        line: 1,
        enclosing: Some(3),
    });
    let err = decode_facts(&encode_facts(&f)).expect_err("mount enclosing past the symbols");
    assert_eq!(err.kind, DecodeErrorKind::BadSymbolIndex { index: 3 });
    f.mounts.clear();
    f.client_calls.push(ClientCall {
        client: "fetch".into(),
        method: "GET".into(),
        path: "/".into(),
        has_base: false,
        line: 1,
        enclosing: Some(4),
    });
    let err = decode_facts(&encode_facts(&f)).expect_err("client enclosing past the symbols");
    assert_eq!(err.kind, DecodeErrorKind::BadSymbolIndex { index: 4 });

    // TypeScript facts: a type parameter or alias of a symbol past the symbols, heritage
    // arguments of a clause past the clauses.
    f.client_calls.clear();
    let param = TypeParam { symbol: 5, name: "T".into(), constraint: None };
    f.language_facts =
        LanguageFacts::Ts(TsFacts { type_params: vec![param], ..Default::default() });
    let err = decode_facts(&encode_facts(&f)).expect_err("type parameter past the symbols");
    assert_eq!(err.kind, DecodeErrorKind::BadSymbolIndex { index: 5 });
    f.language_facts =
        LanguageFacts::Ts(TsFacts { aliases: vec![(6, "X".into())], ..Default::default() });
    let err = decode_facts(&encode_facts(&f)).expect_err("alias past the symbols");
    assert_eq!(err.kind, DecodeErrorKind::BadSymbolIndex { index: 6 });
    f.language_facts = LanguageFacts::Ts(TsFacts {
        heritage_args: vec![(0, vec!["A".into()])],
        ..Default::default()
    });
    let err = decode_facts(&encode_facts(&f)).expect_err("heritage arguments past the clauses");
    assert!(err.to_string().contains("heritage clause"), "{err}");
    f.language_facts =
        LanguageFacts::Ts(TsFacts { hint_args: vec![(0, vec!["A".into()])], ..Default::default() });
    let err = decode_facts(&encode_facts(&f)).expect_err("hint arguments past the hints");
    assert!(err.to_string().contains("hint type arguments"), "{err}");
    f.language_facts = LanguageFacts::Ts(TsFacts {
        heritage_args: vec![(0, vec!["A".into()])],
        ..Default::default()
    });
    f.heritage.push(Heritage { symbol: 0, kind: HeritageKind::Extends, target: "B".into() });
    assert_eq!(decode_facts(&encode_facts(&f)), Ok(f.clone()));
}

#[test]
fn malformed_items_are_specific_errors() {
    let v = CODEC_VERSION;
    let cases: Vec<(Vec<u8>, DecodeError)> = vec![
        // Package tag 2.
        (
            vec![v, 2],
            DecodeError {
                offset: 1,
                kind: DecodeErrorKind::UnknownTag { what: "package", tag: 2 },
            },
        ),
        // A package string longer than the input.
        (
            vec![v, 1, 20, b'a'],
            DecodeError { offset: 2, kind: DecodeErrorKind::BadLength { what: "string", len: 10 } },
        ),
        // A package string that is not UTF-8.
        (vec![v, 1, 2, 0xff], DecodeError { offset: 2, kind: DecodeErrorKind::InvalidUtf8 }),
        // A reference to a string never written.
        (
            vec![v, 1, 1],
            DecodeError { offset: 2, kind: DecodeErrorKind::BadStringRef { index: 0 } },
        ),
        // A varint of eleven bytes.
        (
            vec![v, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
            DecodeError { offset: 2, kind: DecodeErrorKind::Overflow { what: "varint" } },
        ),
        // A syntax error count above u32::MAX.
        (
            vec![v, 0, 0x80, 0x80, 0x80, 0x80, 0x10],
            DecodeError {
                offset: 2,
                kind: DecodeErrorKind::Overflow { what: "syntax error count" },
            },
        ),
        // A node kind spelling the schema does not know.
        (
            vec![v, 0, 0, 0, 0, 1, 3, b'f', b'o', b'o'],
            DecodeError { offset: 6, kind: DecodeErrorKind::UnknownNodeKind("foo".into()) },
        ),
        // A billion symbols in a few bytes.
        (
            vec![v, 0, 0, 0, 0, 0, 0x80, 0x94, 0xeb, 0xdc, 0x03],
            DecodeError {
                offset: 6,
                kind: DecodeErrorKind::BadLength { what: "symbols", len: 1_000_000_000 },
            },
        ),
    ];
    // Empty sections up to the endpoints: package, syntax errors, repairs, build constraint,
    // kinds, symbols, imports, calls, accesses, heritage, hints.
    let empty = vec![v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let mut cases = cases;
    // An endpoint header with a bit no layout defines.
    let mut bad_header = empty.clone();
    bad_header.extend([1, 32]);
    bad_header.extend([0; 10]);
    cases.push((
        bad_header,
        DecodeError {
            offset: 13,
            kind: DecodeErrorKind::UnknownTag { what: "endpoint header", tag: 32 },
        },
    ));
    // A status code above u16::MAX: header (route, reference handler), framework "", method
    // and name repeating it, no fields, no keys, one status 70000.
    let mut big_status = empty.clone();
    big_status.extend([1, 0, 0, 1, 1, 0, 0, 1, 0xf0, 0xa2, 0x04, 0, 0, 0]);
    cases.push((
        big_status,
        DecodeError { offset: 20, kind: DecodeErrorKind::Overflow { what: "status code" } },
    ));
    // A billion endpoints in a few bytes.
    let mut many = empty.clone();
    many.extend([0x80, 0x94, 0xeb, 0xdc, 0x03]);
    cases.push((
        many,
        DecodeError {
            offset: 12,
            kind: DecodeErrorKind::BadLength { what: "endpoints", len: 1_000_000_000 },
        },
    ));
    // No endpoints, then a billion mounts.
    let mut many = empty.clone();
    many.extend([0, 0x80, 0x94, 0xeb, 0xdc, 0x03]);
    cases.push((
        many,
        DecodeError {
            offset: 13,
            kind: DecodeErrorKind::BadLength { what: "mounts", len: 1_000_000_000 },
        },
    ));
    // No endpoints, no mounts, then a billion client calls.
    let mut many = empty.clone();
    many.extend([0, 0, 0x80, 0x94, 0xeb, 0xdc, 0x03]);
    cases.push((
        many,
        DecodeError {
            offset: 14,
            kind: DecodeErrorKind::BadLength { what: "client calls", len: 1_000_000_000 },
        },
    ));
    // A client call header with a bit no layout defines.
    let mut bad_client = empty;
    bad_client.extend([0, 0, 1, 2, 0, 1, 1, 0, 0]);
    cases.push((
        bad_client,
        DecodeError {
            offset: 15,
            kind: DecodeErrorKind::UnknownTag { what: "client call header", tag: 2 },
        },
    ));
    for (bytes, want) in cases {
        assert_eq!(decode_facts(&bytes), Err(want), "{bytes:?}");
    }
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_damage_never_panics() {
    let blobs = all_blobs();
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let (mut decoded, mut rejected) = (0, 0);
    for _ in 0..5000 {
        let mut blob = blobs[rng.below(blobs.len())].clone();
        // One to four damaged bytes, past the version byte (a foreign version stops at once).
        for _ in 0..1 + rng.below(4) {
            let at = 1 + rng.below(blob.len() - 1);
            blob[at] ^= 1 + rng.below(255) as u8;
        }
        match decode_facts(&blob) {
            Ok(f) => {
                // Whatever decodes is well-formed enough to encode again.
                let _ = encode_facts(&f);
                decoded += 1;
            }
            Err(e) => {
                assert!(e.offset <= blob.len(), "{e}");
                assert!(!e.to_string().is_empty());
                rejected += 1;
            }
        }
    }
    assert!(rejected > 1000, "decoded {decoded}, rejected {rejected}");
}
