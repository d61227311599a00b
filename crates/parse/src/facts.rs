//! The plain per-file facts every provider produces: symbols, imports, call sites, field
//! accesses, heritage clauses and type hints.
//!
//! These values are what the salsa layer memoizes and compares, so they are `Eq`, hold no syntax
//! tree and no byte offsets (only 1-based lines and columns), and are built in source order so
//! the same text always gives the same facts. Symbols refer to each other by index into
//! [`FileFacts::symbols`] ([`SymbolIdx`]).

use codegraph_schema::NodeKind;

/// Index of a symbol in [`FileFacts::symbols`].
pub type SymbolIdx = u32;

/// Moves `v`'s elements into an allocation of exactly their size and frees the old one.
/// `Vec::shrink_to_fit` asks the allocator to shrink in place, which mimalloc (the release
/// builds' allocator) declines when the new size is at least half the old: a vector grown by
/// doubling then keeps all of its slack.
pub fn fit_exactly<T>(v: &mut Vec<T>) {
    if v.capacity() > v.len() {
        let mut exact = Vec::with_capacity(v.len());
        exact.append(v);
        *v = exact;
    }
}

/// A name in the facts (an identifier, a member, a receiver path segment): at most 24 bytes
/// are held inline, with no allocation of their own. An index keeps every file's facts
/// alive; with `String` names they were one small heap block per name (2.9 M of the 3.7 M
/// blocks of the Go standard library's facts, `examples/facts_memory.rs`).
pub type Name = compact_str::CompactString;

/// Everything one file says about itself, before any cross-file resolution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileFacts {
    /// Declared symbols in source order (a parent always precedes its children).
    pub symbols: Vec<Symbol>,
    pub imports: Vec<Import>,
    pub calls: Vec<CallSite>,
    /// Member reads and writes that are not called (`a.b`, `this.x = 1`), in source order.
    /// Only the TS/JS provider records them; Go leaves this empty.
    pub accesses: Vec<FieldAccess>,
    pub heritage: Vec<Heritage>,
    pub type_hints: Vec<TypeHint>,
    /// HTTP routes and MCP/RPC tools the file declares in code (call- and decorator-shaped
    /// registrations). File-path conventions (Next.js `app/**/route.ts`, `pages/api`) are
    /// derived from paths by resolution, not here.
    pub endpoints: Vec<Endpoint>,
    /// Routers mounted under a prefix (`app.use('/api', router)`, `r.Mount("/api", sub)`), in
    /// source order: what resolution needs to compose route paths across files.
    pub mounts: Vec<Mount>,
    /// HTTP client calls with a recoverable literal or template URL (`fetch('/users')`,
    /// `axios.post(...)`, Go `http.Get(...)`), in source order.
    pub client_calls: Vec<ClientCall>,
    /// TS/JS: the local name `export default NAME` (or `export default function NAME`,
    /// `export default class NAME`) exports, so an importer's default binding finds it under
    /// any local name. `None` without a named default export.
    pub default_export: Option<String>,
    /// TS/JS: `export { local as exported }` without a source, as (local, exported) pairs in
    /// source order (`as default` is [`FileFacts::default_export`]): the module exports the
    /// declaration or import binding `local` under the name `exported` too.
    pub export_aliases: Vec<(String, String)>,
    /// Number of ERROR / MISSING nodes in the syntax tree (0 for a clean parse).
    pub syntax_errors: u32,
    /// Parts of the file left out because they hold template expressions (Helm `{{ }}` in a
    /// manifest) and cannot be read as the language: the file's facts are partial.
    pub template_parts: u32,
    /// Edits of the parse repair the facts were extracted after (0: the text as it is), for
    /// constructs the compiler accepts and the grammar rejects (`typescript::repair`).
    pub repairs: u32,
    /// What only one language's files carry, typed per language ([`LanguageFacts`]).
    pub language_facts: LanguageFacts,
    /// Go: names used as values, not called (`sort.Slice(x, less)`, `{Index}`, `n >
    /// maxLen`, `return f`), one per (enclosing symbol, name) in source order, shaped as call
    /// sites: resolution keeps those that name a package-level function, constant, variable
    /// or type (REFERS_TO).
    pub value_refs: Vec<CallSite>,
    /// Named types the code refers to, shaped as call sites (`T`, or `pkg` + `T`): REFERS_TO
    /// edges to the types. Go: in signatures, fields, `var x T`, `T{}`, `x.(T)`, conversions,
    /// `case T:`, type arguments, one per (enclosing symbol, name) in source order; TS/JS:
    /// annotations; Protobuf: field, rpc and `extend` types (its module says how).
    pub type_refs: Vec<CallSite>,
    /// Markdown: what each section names (inline code, names in fenced code, links), one per
    /// (section, kind, text) in source order: resolution turns those that name one symbol or
    /// file of the workspace into DOC_RELATED edges.
    pub mentions: Vec<Mention>,
}

/// Facts only one language's files carry, typed per language: generic code never reads them,
/// the language's own resolver does. A language adds a variant here instead of top-level
/// fields. `None` is also what a language's facts are when they hold nothing (so the codec
/// round-trips them: see [`LanguageFacts::normalized`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LanguageFacts {
    #[default]
    None,
    Go(GoFacts),
    Java(JavaFacts),
    Rust(RustFacts),
    Proto(ProtoFacts),
    Ts(TsFacts),
}

/// What a TypeScript file says about its generic types beyond the shared fields: what a
/// written type means when it names a type parameter, an alias, or a base instantiated with
/// arguments (`class ZodObject<T> extends ZodType<.., ZodObjectDef<T>>`, then `this._def`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TsFacts {
    /// Type parameters of classes, interfaces, type aliases, functions and methods, in source
    /// order within each declaring symbol (their position is the argument's).
    pub type_params: Vec<TypeParam>,
    /// The type arguments of heritage clauses that have any: (index in
    /// [`FileFacts::heritage`], each argument reduced as hint types are, empty when it names
    /// no type: `any`, a literal, an object type).
    pub heritage_args: Vec<(u32, Vec<String>)>,
    /// Type aliases whose value names a type (`type ZodTypeAny = ZodType<any, any, any>`):
    /// (alias, that type, reduced as hint types are).
    pub aliases: Vec<(SymbolIdx, String)>,
    /// The type arguments of the generic type an annotation or a return type names:
    /// (index in [`FileFacts::type_hints`] of that `Annotation` / `Return` hint, arguments
    /// reduced as `heritage_args` are): `const ZodType: core.$constructor<ZodType>`.
    pub hint_args: Vec<(u32, Vec<String>)>,
    /// Parameters with a written type, by position: (function or method, 0-based position,
    /// name; its type is the name's hint in the function's scope). What an argument passed
    /// there is typed as (an object literal takes the parameter's type).
    pub params: Vec<(SymbolIdx, u32, String)>,
    /// Object literals whose type their context gives, with their keys (each a write of that
    /// type's member), and the members type queries name, in source order.
    pub literal_keys: Vec<LiteralKeys>,
    /// `this` passed as an argument (`new AnonymousSubject(this, this)`), in source order:
    /// the parameter's type is one the enclosing class must conform to, declared or not.
    pub this_args: Vec<ThisArg>,
}

/// `this` passed as argument `arg` of a call of `callee` ([`TsFacts::this_args`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThisArg {
    pub callee: Callee,
    pub arg: u32,
    /// 1-based line of the `this`.
    pub line: u32,
    /// Nearest enclosing named symbol that exists.
    pub enclosing: Option<SymbolIdx>,
}

/// Members of a type named at their lines: the keys of an object literal whose type its
/// context gives (`const t: T = { a: 1 }`, `{ a } as T`, `{ a } satisfies T`, `return { a }`
/// from a function declared `(): T`, `f({ a })` where `f(x: T)`, a field or default
/// parameter `x: T = { a }`, and the literals nested in such a literal's values: in `{ a: {
/// b: 1 } }`, `b` is a member of `T.a`'s type), or the member a type query names (`typeof
/// X.prototype.m`). One record per literal: its keys share the context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralKeys {
    /// Where the outermost typed literal gets its type.
    pub context: LiteralContext,
    /// The keys from that literal down to this literal (`["a"]` for `b` above).
    pub path: Vec<Name>,
    /// Nearest enclosing named symbol that exists; `None` at module level. The context's
    /// type is read in its scope.
    pub enclosing: Option<SymbolIdx>,
    /// The keys as written (`a`, `'a'` unquoted; a method's or a shorthand's name), each with
    /// its 1-based line.
    pub keys: Vec<(Name, u32)>,
}

/// Where a typed object literal's type comes from ([`LiteralKey`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralContext {
    /// A written type (an annotation, `as T`, `satisfies T`, a declared return type), reduced
    /// as hint types are.
    Type(String),
    /// Argument `arg` (0-based) of a call of `callee` (`new` too): the type of the callee's
    /// parameter at that position.
    Argument { callee: Callee, arg: u32 },
    /// Assigned to a name or path (`x = {..}`, `this.x = {..}`): the type that holds.
    Assigned(Vec<Name>),
}

/// `T extends Bound` of a generic declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeParam {
    /// The class, interface, type alias, function or method that declares it.
    pub symbol: SymbolIdx,
    pub name: String,
    /// The constraint, reduced as hint types are; `None` when absent or naming no type.
    pub constraint: Option<String>,
}

/// What a Protobuf file says beyond the shared fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProtoFacts {
    /// The `package` clause (`etcdserverpb`, `google.api`).
    pub package: Option<String>,
    /// File options with a string value, in source order (`go_package`, `java_package`).
    pub options: Vec<(String, String)>,
}

/// What a Rust file says beyond the shared fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RustFacts {
    /// `impl` blocks in source order.
    pub impls: Vec<RustImpl>,
    /// `mod x;` declarations (modules in other files), in source order.
    pub mods: Vec<RustMod>,
    /// The indices (in [`FileFacts::imports`]) of `use` leaves behind a `#[cfg(..)]` other
    /// than `cfg(test)`: they may be compiled out, so names they bring rank after ungated
    /// ones (a glob included).
    pub gated_imports: Vec<u32>,
    /// The first argument of each `Type::from(x)` / `Type::try_from(x)` call (its index in
    /// [`FileFacts::calls`], the argument's shape as a receiver): which of a type's several
    /// `From<A>` impls is called depends on its type.
    pub from_args: Vec<(u32, Receiver)>,
}

/// One `impl` block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RustImpl {
    /// The self type, normalized with its generic arguments (`Parser<T>`, `[T]`).
    pub self_ty: String,
    /// The implemented trait, normalized (`fmt::Display`, `From<u8>`); `None`: inherent.
    pub trait_: Option<String>,
    /// 1-based line of the `impl`.
    pub line: u32,
    /// The symbols declared directly in it (methods, associated consts and types).
    pub items: Vec<SymbolIdx>,
    /// The names of its type parameters (`impl<T, U>`).
    pub type_params: Vec<String>,
}

/// A `mod x;` declaration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RustMod {
    pub name: String,
    /// The `#[path = "..."]` attribute's value, as written.
    pub path: Option<String>,
    /// 1-based line.
    pub line: u32,
}

/// What a Java file says beyond the shared fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JavaFacts {
    /// The number of arguments of each call site, index-aligned with
    /// [`FileFacts::calls`]: what overload choice by arity reads.
    pub call_args: Vec<u32>,
}

/// What a Go file says about its package.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoFacts {
    /// The `package` clause name.
    pub package: Option<String>,
    /// The package-level string constants and variables whose value this file alone
    /// determines (`RaftPrefix = "/raft"`, `keysPath = apiPrefix + "/keys"`), sorted by name:
    /// what route paths in other files of the package, or importing it, may name.
    pub string_consts: Vec<(String, String)>,
    /// The `//go:build` expression before the package clause, as written.
    pub build_constraint: Option<String>,
}

impl LanguageFacts {
    /// `None` for a language's facts that hold nothing, else unchanged.
    pub fn normalized(self) -> LanguageFacts {
        match self {
            LanguageFacts::Go(g) if g == GoFacts::default() => LanguageFacts::None,
            LanguageFacts::Java(j) if j == JavaFacts::default() => LanguageFacts::None,
            LanguageFacts::Rust(r) if r == RustFacts::default() => LanguageFacts::None,
            LanguageFacts::Proto(p) if p == ProtoFacts::default() => LanguageFacts::None,
            LanguageFacts::Ts(t) if t == TsFacts::default() => LanguageFacts::None,
            other => other,
        }
    }
}

impl FileFacts {
    /// Gives back the unused capacity of every list. Extraction pushes as it walks, so each
    /// list ends with up to half its capacity unused; a cold index keeps every file's facts
    /// until resolution ends, and on the Go standard library that slack was ~70 MB
    /// (`examples/facts_memory.rs`).
    pub fn shrink_to_fit(&mut self) {
        fit_exactly(&mut self.symbols);
        fit_exactly(&mut self.imports);
        fit_exactly(&mut self.calls);
        fit_exactly(&mut self.accesses);
        fit_exactly(&mut self.heritage);
        fit_exactly(&mut self.type_hints);
        fit_exactly(&mut self.endpoints);
        fit_exactly(&mut self.mounts);
        fit_exactly(&mut self.client_calls);
        fit_exactly(&mut self.export_aliases);
        fit_exactly(&mut self.value_refs);
        fit_exactly(&mut self.type_refs);
        fit_exactly(&mut self.mentions);
    }

    /// The Go facts, when the file has any.
    pub fn go(&self) -> Option<&GoFacts> {
        match &self.language_facts {
            LanguageFacts::Go(g) => Some(g),
            _ => None,
        }
    }

    /// The Java facts, when the file has any.
    pub fn java(&self) -> Option<&JavaFacts> {
        match &self.language_facts {
            LanguageFacts::Java(j) => Some(j),
            _ => None,
        }
    }

    /// The Rust facts, when the file has any.
    pub fn rust(&self) -> Option<&RustFacts> {
        match &self.language_facts {
            LanguageFacts::Rust(r) => Some(r),
            _ => None,
        }
    }

    /// The Protobuf facts, when the file has any.
    pub fn proto(&self) -> Option<&ProtoFacts> {
        match &self.language_facts {
            LanguageFacts::Proto(p) => Some(p),
            _ => None,
        }
    }

    /// The TypeScript facts, when the file has any.
    pub fn ts(&self) -> Option<&TsFacts> {
        match &self.language_facts {
            LanguageFacts::Ts(t) => Some(t),
            _ => None,
        }
    }

    /// The Go facts to fill (a Go provider's), made when there are none yet.
    pub fn go_mut(&mut self) -> &mut GoFacts {
        if !matches!(self.language_facts, LanguageFacts::Go(_)) {
            self.language_facts = LanguageFacts::Go(GoFacts::default());
        }
        match &mut self.language_facts {
            LanguageFacts::Go(g) => g,
            // Just made above.
            _ => unreachable!("Go facts were just made"),
        }
    }
}

/// A name or path a Markdown section mentions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    pub kind: MentionKind,
    /// As written, trimmed: `NewRouter`, `mux.Router.HandleFunc`, `docs/api.md`.
    pub text: String,
    /// 1-based line of the mention.
    pub line: u32,
    /// The innermost section it is in; `None` before the first heading.
    pub section: Option<SymbolIdx>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MentionKind {
    /// An inline code span: a name, a qualified name, a call (`NewRouter()`) or a path.
    Code,
    /// A name called or selected in a fenced code block (`mux.NewRouter(`, `r.HandleFunc(`).
    Fenced,
    /// A link's target (`[guide](docs/guide.md)`), fragment and query removed.
    Link,
}

/// A declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub kind: NodeKind,
    /// Short name (`start`).
    pub name: String,
    /// Chain of enclosing named declarations joined by `.` (`Server.start`, `Type.Method`,
    /// `outer.inner`, `obj.prop`); see shared/eval/README.md.
    pub qualified_name: String,
    /// Enclosing symbol, if any.
    pub parent: Option<SymbolIdx>,
    /// 1-based, inclusive.
    pub start_line: u32,
    /// 1-based, inclusive.
    pub end_line: u32,
    /// Declaration text up to (not including) the body, whitespace collapsed, at most ~200 chars.
    pub signature: String,
    /// Doc comment text with comment markers stripped, `None` when there is none.
    pub doc: Option<String>,
    /// Visible outside the file (TS/JS `export`) or package (Go capitalised name).
    pub exported: bool,
}

/// One import statement / require call / Go import spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// The module specifier as written, quotes removed (`./a`, `react`, `net/http`).
    pub source: String,
    pub kind: ImportKind,
    pub bindings: Vec<ImportBinding>,
    /// 1-based line of the statement.
    pub line: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImportKind {
    /// `import ... from 'x'`, `import 'x'`.
    EsImport,
    /// `import type ... from 'x'`.
    TypeOnly,
    /// `export ... from 'x'` (re-export).
    ReExport,
    /// `require('x')`.
    Require,
    /// `import('x')`.
    Dynamic,
    /// A package imported by its path, its names used qualified (a Go import spec).
    Package,
    /// A module brought into scope by name (Elixir `alias`, `import`, `use`, `require`):
    /// a `Namespace` binding is an alias (its local name), `All` / `Named("f/2")` an import
    /// (all functions, or those of `only:`); no binding: `use` / `require`.
    Module,
    /// A file or directory named by its path: a Terraform `module` block's local `source`
    /// (bindings: the module name as the local of a `Namespace` binding, then one `Named` per
    /// input argument), a shell `source` / `.` of a script.
    Path,
}

/// One name an import brings into (or re-exports from) the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportBinding {
    pub imported: Imported,
    /// The local name (`y` in `import { x as y }`; for re-exports the exported name). For Go,
    /// the package alias when one is written (`_` and `.` included), else `None`.
    pub local: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Imported {
    /// `import d from` / `export { default } from`.
    Default,
    /// `import * as ns from` / `export * as ns from` / Go package import / `const m = require()`.
    Namespace,
    /// `export * from` (every named export).
    All,
    /// `import { x }` / `export { x } from` / `const { x } = require()`.
    Named(String),
}

/// A call or construction site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub callee: Callee,
    pub kind: CallKind,
    /// 1-based line of the callee name (for `a.b.c()`, the line of `c`).
    pub line: u32,
    /// 1-based column (in bytes, as go/types counts) of the callee name. The TypeScript oracle
    /// counts UTF-16 units, so columns differ from it on lines with non-ASCII text.
    pub col: u32,
    /// Nearest enclosing *named* symbol; `None` at module level (`<module>`).
    pub enclosing: Option<SymbolIdx>,
    /// The bare callee names a parameter or local binding of an enclosing function (TS/JS):
    /// the call is of the value it holds (a [`codegraph_schema::NodeKind::Parameter`] symbol
    /// when the binding is not a declaration of its own), never of a declaration of the same
    /// name further out.
    pub local: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallKind {
    Call,
    New,
    /// A dependency declared, not used (Terraform `depends_on`): a reference, never a call.
    Declared,
}

/// The shape of what is called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Callee {
    pub receiver: Receiver,
    /// The called name (`f` in `f()`, `c` in `a.b.c()`). Empty when the receiver itself is
    /// called: `f()()` is `{ receiver: CallResult(f), name: "" }`. For `super()` the name is
    /// `constructor` and the callee is the base class (the TypeScript oracle's convention).
    pub name: Name,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Receiver {
    /// A bare name: `f()`, `new Foo()`.
    None,
    /// `this.m()`.
    This,
    /// `super.m()`, or `super()` (name `constructor`).
    Super,
    /// A chain of plain identifiers: `a.m()` -> `["a"]`, `a.b.m()` -> `["a", "b"]`;
    /// `this.x.m()` -> `["this", "x"]`.
    Path(Vec<Name>),
    /// The result of another call: `f().m()`, `a.b().m()`.
    CallResult(Box<Callee>),
    /// Anything else (index expressions, parenthesised expressions, literals...).
    Other,
}

impl Receiver {
    /// A path receiver from its segments (`["a", "b"]` for `a.b.m()`).
    pub fn path<S: Into<Name>>(segments: impl IntoIterator<Item = S>) -> Receiver {
        Receiver::Path(segments.into_iter().map(Into::into).collect())
    }
}

/// A member expression that is read or written but not called: `this.x`, `a.b = 1`, `f().y`.
/// `a.b()` is a [`CallSite`], not an access; in `a.b.c()` the inner `a.b` is an access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldAccess {
    /// What the member is read from, in the same shapes as a callee's receiver.
    pub receiver: Receiver,
    /// The member name as written (`x`, `#x`).
    pub name: Name,
    /// 1-based line of the member name.
    pub line: u32,
    /// Nearest enclosing named symbol that exists (lazy object-literal containers are not
    /// materialised for an access); `None` at module level.
    pub enclosing: Option<SymbolIdx>,
    /// The member is assigned (`a.b = v`, `a.b += v`, `a.b++`) or deleted (`delete a.b`)
    /// rather than read.
    pub write: bool,
}

/// `extends` / `implements` / Go embedding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heritage {
    /// The class / interface / struct that declares the clause.
    pub symbol: SymbolIdx,
    pub kind: HeritageKind,
    /// The named type as written, generics stripped (`Base`, `ns.Base`, `io.Reader`).
    pub target: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeritageKind {
    /// TS `class A extends B`, `interface A extends B`; Go interface embedding.
    Extends,
    /// TS `class A implements I`.
    Implements,
    /// Go struct embedding (field promotion).
    Embeds,
}

/// What a name is known to hold, from a declaration. Type names are as written, with generics,
/// pointers (`*`), arrays and `readonly` stripped (`Foo`, `pkg.Foo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeHint {
    /// The symbol whose scope the name lives in (function for locals/params, class/struct for
    /// fields, the function itself for `Return`); `None` for module level.
    pub scope: Option<SymbolIdx>,
    /// The variable / parameter / field name; empty for `Return`.
    pub name: Name,
    pub source: HintSource,
    /// 1-based line of the declaration.
    pub line: u32,
    /// Go locals: where in the function the binding is visible (a `:=` in an inner block, a
    /// func literal's parameter, a range variable shadow an outer name only there). `None`:
    /// from `line` on, to the end of `scope`.
    pub visible: Option<Visibility>,
}

/// The part of a function where a binding is visible: from (`line`, `col`) of its
/// [`TypeHint`] to (`end_line`, `end_col`), 1-based, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visibility {
    pub col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintSource {
    /// `x: Foo`, `var x Foo`, Go parameter or receiver `r *Foo`, field `f Foo`.
    Annotation(String),
    /// `x = new Foo()`, `x := Foo{}`, `x := &Foo{}`.
    Construct(String),
    /// `x = f()`, `x := NewFoo()`, `x := pkg.New()`: the type is the return type of the callee.
    CallResult(Callee),
    /// The declared return type of the function `scope` (first result for Go).
    Return(String),
    /// TS/JS: `name` is parameter `param` (0-based) of a function expression passed as argument
    /// `arg` (0-based) of a call to `callee` (`operate((source, subscriber) => ...)`): its type
    /// is the callee's declared callback parameter type (contextual typing).
    Callback { callee: Callee, arg: u32, param: u32 },
    /// TS: parameter `name` (at position `index`) of function `scope` is annotated with a
    /// function type whose parameter `param` has type `ty` (`init: (s: Subscriber<R>) => void`).
    ParamFn { index: u32, param: u32, ty: String },
    /// Go: the value of another expression, whose type the resolver works out: `x := y`,
    /// `x := a.b`, `x := a.b[i]` and `for _, x := range a.b` (the element of a collection, as
    /// stripped as any hint type is, so `[]T` and `T` read the same). `Path` receivers, or
    /// `Other` for "no longer known" (a type-switch variable after its switch).
    Value(Receiver),
}

/// An HTTP route or an MCP/RPC tool registered in code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    pub kind: EndpointKind,
    /// The API that declared it: `express` (also any `x.get('/p', h)` router of that shape
    /// whose file imports none of the others), `hono` / `koa` / `fastify` (that shape in a file
    /// importing `hono`, `@koa/router` or `koa-router`, `fastify`), `nestjs`, `loopback`,
    /// `net/http`, `gorilla/mux`, `gin`, `echo`, `chi`, `mcp-sdk` (the official TS SDK, and the
    /// official Go SDK), `fastmcp`, `mcp-go`; Rust `axum`, `actix-web`, `rocket`, `rmcp` (the
    /// official Rust MCP SDK); `grpc` (an rpc of a `.proto`, a Go `grpc.ServiceDesc`),
    /// `grpc-gateway`. `grpc-js` / `connect` mark a *registration* ([`Endpoint::is_registration`]).
    pub framework: String,
    /// Route: the upper-case HTTP method, or `ANY`. Tool: empty.
    pub method: String,
    /// Route: the path as this file declares it, normalized: leading `/`, parameters as
    /// `:name` (Go `{id}` and `{id:[0-9]+}` become `:id`), prefixes of groups / controllers /
    /// sub-routers declared in the same file applied. Tool: the tool name.
    pub name: String,
    /// Tool: the name could not be evaluated (a call, a parameter, an import's member):
    /// `name` is the expression as written. The registration is kept, never dropped.
    pub name_is_expr: bool,
    /// Tool: its description literal.
    pub description: Option<String>,
    /// Tool: the names of its input fields, in source order.
    pub fields: Vec<String>,
    /// Route: top-level keys of literal JSON responses in an inline or same-file handler
    /// (`res.json({a, b})`, `c.JSON(200, gin.H{"a": ...})`), sorted, deduplicated.
    pub response_keys: Vec<String>,
    /// Route: literal status codes the handler sends, sorted, deduplicated.
    pub status_codes: Vec<u16>,
    /// Middleware as written (`auth`, `rateLimit(10)` -> `rateLimit`), in order.
    pub middleware: Vec<String>,
    pub handler: Handler,
    /// The receiver the route is registered on (`app`, `router`, `r`), as a path; empty for
    /// decorators and tools. Resolution uses it to apply cross-file mount prefixes.
    pub receiver: Vec<String>,
    /// 1-based line of the registration (the call, or the method decorator).
    pub line: u32,
    /// Nearest enclosing named symbol; `None` at module level.
    pub enclosing: Option<SymbolIdx>,
    /// Route (Go): the path as written when it names string constants this file does not
    /// declare (`mux.Handle(rafthttp.RaftPrefix + "/", h)`), same-file group prefix first.
    /// `name` is then empty: resolution evaluates the pieces against the constants of the
    /// package or the imported package. Empty for every other endpoint.
    pub path_expr: Vec<PathPiece>,
}

/// A piece of a route path written as an expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathPiece {
    /// Literal text (or the value of a same-file constant).
    Text(String),
    /// A constant named by identifier or package-qualified (`RaftPrefix`,
    /// `rafthttp.RaftPrefix`).
    Name(Vec<String>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndpointKind {
    Route,
    Tool,
}

/// What handles an endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Handler {
    /// A function or method named by reference (`getUser`, `users.get`, `h.ServeHTTP`),
    /// resolved like the callee of a call at the registration.
    Reference(Callee),
    /// A symbol this file declares (a decorated controller method; a named function
    /// expression passed in place).
    Symbol(SymbolIdx),
    /// An anonymous function written in place: the calls it makes belong to `enclosing`.
    Inline,
    /// No handler argument was recognised.
    Unknown,
}

/// A router (or a function that fills one) mounted under a path prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mount {
    /// What mounts: `express` (`app.use('/api', router)`, `app.use('/api', auth, router)`: the
    /// last argument is the mounted router, earlier ones middleware), `hono`
    /// (`app.route('/api', sub)`), `koa` (`router.use('/api', sub.routes())`), `fastify`
    /// (`fastify.register(plugin, { prefix: '/api' })`), `chi` (`r.Mount("/api", sub)`,
    /// `r.Route("/api", usersRoutes)` with a function reference), `gin` / `echo` (a group passed
    /// to a function: `registerUsers(r.Group("/v1"))`, `users.Register(v1)`); Rust `axum`
    /// (`.nest("/api", users::router())`: a call), `actix-web` (`.configure(f)` under a scope;
    /// an attribute-declared handler `.service(h)` under a scope), `rocket` (each handler of
    /// `.mount("/p", routes![m::h])` declared in another file): a mounted handler (not a call)
    /// prefixes the routes its attributes declare.
    pub framework: String,
    /// The prefix, normalized like route paths (leading `/`, `{id}` -> `:id`), with same-file
    /// group prefixes applied.
    pub prefix: String,
    /// The receiver it is mounted on (`app`, `r`), as a path; for a group passed to a function,
    /// the root receiver of the group.
    pub receiver: Vec<String>,
    /// The mounted thing as a callee-shaped reference: a variable or import name (`router`),
    /// a member chain (`users.router`), a function (`subRouter` for `subRouter()`, `usersRoutes`
    /// for a chi `Route` callback, `registerUsers` for a group passed to it), the router whose
    /// `.routes()` Koa mounts, or `require` for `app.use('/p', require('./users'))` (the
    /// file's `Require` import on the same line names the module).
    pub target: Callee,
    /// The target is a function called to build or fill the router (`subRouter()`,
    /// `registerUsers(r.Group(...))`, `require(...)`); `false` for a router value or a function
    /// passed as a value (a chi `Route` callback, a Fastify plugin).
    pub call: bool,
    /// Middleware applied to the mount, as written (`auth`, `rateLimit(10)` -> `rateLimit`).
    pub middleware: Vec<String>,
    /// 1-based line of the mounting call's name.
    pub line: u32,
    /// Nearest enclosing named symbol; `None` at module level.
    pub enclosing: Option<SymbolIdx>,
}

/// An HTTP client call whose URL path is known from literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientCall {
    /// The client: `fetch` (also `window.fetch`), `$fetch`, `ofetch`, `axios` (also an
    /// instance from `axios.create`), `ky`, `got`, `superagent`; Go `http` (package-level
    /// `http.Get` / `Head` / `Post` / `PostForm`, `http.NewRequest[WithContext]`); Rust
    /// `reqwest`.
    pub client: String,
    /// The upper-case method (`fetch(url)` -> `GET`, `{ method: 'POST' }` -> `POST`,
    /// `axios.put` -> `PUT`), `ANY` when it is not a literal.
    pub method: String,
    /// The URL path: scheme and host dropped, a leading substitution standing for a base URL
    /// dropped, query and fragment dropped, runs of `/` collapsed, a segment with a
    /// substitution (`${id}`, `%d`, `+ id`) as `:param`.
    pub path: String,
    /// A host or a base-URL substitution was dropped (or the client has a base URL): matching
    /// the path against routes is less certain.
    pub has_base: bool,
    /// 1-based line of the called name.
    pub line: u32,
    /// Nearest enclosing named symbol; `None` at module level.
    pub enclosing: Option<SymbolIdx>,
}
