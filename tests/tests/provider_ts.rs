//! Golden facts of the TypeScript / TSX / JavaScript provider, one test per rule group. Symbol
//! names follow the compiler oracle (shared/eval/ts_oracle.js).

use codegraph_tests::render_fixture_facts;
use expect_test::expect;

#[test]
fn functions_and_nesting() {
    let out = render_fixture_facts(
        r#"
        //- /src/fns.ts
        /** Adds. */
        export function add(a: number, b: number): number {
          function inner() { return helper(); }
          const local = () => inner();
          const notSymbol = 1;
          return local() + notSymbol;
        }
        export function* gen() { yield 1; }
        export default function () { add(1, 2); }
        async function later(): Promise<Result | null> { await add(1, 2); }
        "#,
    );
    expect![[r#"
        //- src/fns.ts
        sym function add L2-7 exported sig="function add(a: number, b: number): number" doc="Adds."
        sym function add.inner L3-3 in=add sig="function inner()"
        sym function add.local L4-4 in=add sig="const local = () =>"
        sym function gen L8-8 exported sig="function* gen()"
        sym function default L9-9 exported sig="function ()"
        sym function later L10-10 sig="async function later(): Promise<Result | null>"
        call L3:29 helper in add.inner
        call L4:23 inner in add.local
        call L6:10 local in add local
        call L9:30 add in default
        call L10:56 add in later
        type call L10:25 Promise in later
        type call L10:33 Result in later
        hint L10 later  -> Promise<Result>
    "#]]
    .assert_eq(&out);
}

#[test]
fn classes_members_and_overloads() {
    let out = render_fixture_facts(
        r#"
        //- /src/cls.ts
        // The service.
        export abstract class Service<T> extends Base<T> implements Runner {
          static instances = 0;
          count = 1;
          private cache?: Cache;
          #secret = "x";
          onClick = () => this.run();
          handler = function () {};
          constructor(private readonly repo: Repo, public name: string, plain: number) {
            super(name);
          }
          run(): void;
          run(x: number): void;
          /** Runs. */
          run(x?: number): void { this.repo.save(x); }
          get size(): number { return this.count; }
          set size(v: number) { this.count = v; }
          abstract stop(): void;
          static { Service.instances = init(); }
        }
        const Anon = class extends Service<number> { stop() {} };
        "#,
    );
    expect![[r##"
        //- src/cls.ts
        sym class Service L2-20 exported sig="abstract class Service<T> extends Base<T> implements Runner" doc="The service."
        sym property Service.instances L3-3 exported in=Service sig="static instances = 0"
        sym property Service.count L4-4 exported in=Service sig="count = 1"
        sym property Service.cache L5-5 in=Service sig="private cache?: Cache"
        sym property Service.#secret L6-6 in=Service sig="#secret = \"x\""
        sym method Service.onClick L7-7 exported in=Service sig="onClick = () =>"
        sym method Service.handler L8-8 exported in=Service sig="handler = function ()"
        sym method Service.constructor L9-11 exported in=Service sig="constructor(private readonly repo: Repo, public name: string, plain: number)"
        sym property Service.repo L9-9 in=Service sig="private readonly repo: Repo"
        sym property Service.name L9-9 exported in=Service sig="public name: string"
        sym method Service.run L15-15 exported in=Service sig="run(x?: number): void" doc="Runs."
        sym method Service.size L16-16 exported in=Service sig="get size(): number"
        sym method Service.size L17-17 exported in=Service sig="set size(v: number)"
        sym method Service.stop L18-18 exported in=Service sig="abstract stop(): void"
        sym method Service.static L19-19 in=Service sig="static"
        sym class Anon L21-21 sig="const Anon = class extends Service<number>"
        sym method Anon.stop L21-21 in=Anon sig="stop()"
        call L7:24 this.run in Service.onClick
        call L10:5 super.constructor in Service.constructor
        call L15:37 this.repo.save in Service.run
        call L19:32 init in Service.static
        ref call L19:12 Service in Service.static
        type call L2:47 T in Service
        type call L5:19 Cache in Service.cache
        type call L9:38 Repo in Service.constructor
        read L15 this.repo in Service.run
        read L16 this.count in Service.size
        write L17 this.count in Service.size
        write L19 Service.instances in Service.static
        heritage Service Extends Base<T>
        heritage Service Implements Runner
        heritage Anon Extends Service<_>
        type-param Service T
        param Service.constructor #0 repo
        hint L5 Service cache : Cache
        hint L9 Service repo : Repo
        hint L9 Service.constructor repo : Repo
    "##]].assert_eq(&out);
}

#[test]
fn interfaces_type_aliases_enums() {
    let out = render_fixture_facts(
        r#"
        //- /src/types.ts
        export interface Repo extends Base, Other<T> {
          save(x: number): Promise<void>;
          readonly items: Item[];
          new (x: number): Repo;
        }
        export type Handler = { onEvent(e: Event): void; name: string };
        type Id = string;
        export enum Color { Red, "Dark-Green" = 2, Blue = compute() }
        //- /src/lib.d.ts
        declare function g(a: string): void;
        declare function g(a: number): void;
        declare class Widget { render(): void; }
        interface Local { x: number }
        "#,
    );
    expect![[r#"
        //- src/types.ts
        sym interface Repo L1-5 exported sig="interface Repo extends Base, Other<T>"
        sym method Repo.save L2-2 exported in=Repo sig="save(x: number): Promise<void>"
        sym property Repo.items L3-3 exported in=Repo sig="readonly items: Item[]"
        sym method Repo.constructor L4-4 exported in=Repo sig="new (x: number): Repo"
        sym type_alias Handler L6-6 exported sig="type Handler"
        sym method Handler.onEvent L6-6 exported in=Handler sig="onEvent(e: Event): void"
        sym property Handler.name L6-6 exported in=Handler sig="name: string"
        sym type_alias Id L7-7 sig="type Id = string;"
        sym enum Color L8-8 exported sig="enum Color"
        sym property Color.Red L8-8 exported in=Color sig="Red"
        sym property Color.Dark-Green L8-8 exported in=Color sig="\"Dark-Green\" = 2"
        sym property Color.Blue L8-8 exported in=Color sig="Blue = compute()"
        call L8:51 compute in Color.Blue
        type call L1:37 Other in Repo
        type call L1:43 T in Repo
        type call L2:20 Promise in Repo.save
        type call L3:19 Item in Repo.items
        type call L4:20 Repo in Repo.constructor
        type call L6:36 Event in Handler.onEvent
        heritage Repo Extends Base
        heritage Repo Extends Other<T>
        param Handler.onEvent #0 e
        hint L2 Repo.save  -> Promise<_>
        hint L3 Repo items : Item
        hint L6 Handler.onEvent e : Event
        //- src/lib.d.ts
        sym function g L2-2 exported sig="function g(a: number): void;"
        sym class Widget L3-3 exported sig="class Widget"
        sym method Widget.render L3-3 exported in=Widget sig="render(): void"
        sym interface Local L4-4 sig="interface Local"
        sym property Local.x L4-4 in=Local sig="x: number"
    "#]]
    .assert_eq(&out);
}

#[test]
fn module_variables_object_literals_prototype() {
    let out = render_fixture_facts(
        r#"
        //- /src/vars.js
        const LIMIT = 10;
        let counter = 0, other;
        var legacy;
        const { a, b: [c, d = 1], ...rest } = load();
        export const api = {
          list() { return fetchAll(); },
          get: function (id) { return fetchOne(id); },
          remove: (id) => drop(id),
          nested: { deep: () => go(), value: 1 },
          config: { retries: compute() },
          plain: 1,
        };
        function Widget() {}
        Widget.prototype.render = function () { draw(); };
        Unknown.prototype.other = function () {};
        const Klass = class Named { m() {} };
        "#,
    );
    expect![[r#"
        //- src/vars.js
        sym constant LIMIT L1-1 sig="const LIMIT = 10"
        sym variable counter L2-2 sig="let counter = 0"
        sym variable other L2-2 sig="let counter = 0, other"
        sym variable legacy L3-3 sig="var legacy"
        sym constant a L4-4 sig="const { a, b: [c, d = 1], ...rest } = load()"
        sym constant c L4-4 sig="const { a, b: [c, d = 1], ...rest } = load()"
        sym constant d L4-4 sig="const { a, b: [c, d = 1], ...rest } = load()"
        sym constant rest L4-4 sig="const { a, b: [c, d = 1], ...rest } = load()"
        sym constant api L5-12 exported sig="const api"
        sym method api.list L6-6 exported in=api sig="list()"
        sym method api.get L7-7 exported in=api sig="get: function (id)"
        sym method api.remove L8-8 exported in=api sig="remove: (id) =>"
        sym property api.nested L9-9 exported in=api sig="nested: { deep: () => go(), value: 1 }"
        sym method api.nested.deep L9-9 exported in=api.nested sig="deep: () =>"
        sym property api.config L10-10 exported in=api sig="config: { retries: compute() }"
        sym property api.config.retries L10-10 exported in=api.config sig="retries: compute()"
        sym function Widget L13-13 sig="function Widget()"
        sym method Widget.render L14-14 in=Widget sig="Widget.prototype.render = function ()"
        sym method Unknown.other L15-15 sig="Unknown.prototype.other = function ()"
        sym class Klass L16-16 sig="const Klass = class Named"
        sym method Klass.m L16-16 in=Klass sig="m()"
        call L4:39 load in <module>
        call L6:19 fetchAll in api.list
        call L7:31 fetchOne in api.get
        call L8:19 drop in api.remove
        call L9:25 go in api.nested.deep
        call L10:22 compute in api.config.retries
        call L14:41 draw in Widget.render
        ref call L14:1 Widget in <module>
        ref call L15:1 Unknown in <module>
        write L14 Widget.prototype.render in <module>
        read L14 Widget.prototype in <module>
        write L15 Unknown.prototype.other in <module>
        read L15 Unknown.prototype in <module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn namespaces() {
    let out = render_fixture_facts(
        r#"
        //- /src/ns.ts
        export namespace Outer.Inner {
          export function f() { g(); }
          function hidden() {}
          export const k = 1;
        }
        namespace Solo { setup(); }
        declare module "pkg" {
          function h(): void;
        }
        declare global {
          interface Window { app: App }
        }
        "#,
    );
    expect![[r#"
        //- src/ns.ts
        sym variable Outer L1-5 exported sig="namespace Outer.Inner"
        sym variable Outer.Inner L1-5 exported in=Outer sig="namespace Outer.Inner"
        sym function Outer.Inner.f L2-2 exported in=Outer.Inner sig="function f()"
        sym function Outer.Inner.hidden L3-3 in=Outer.Inner sig="function hidden()"
        sym constant Outer.Inner.k L4-4 exported in=Outer.Inner sig="const k = 1"
        sym variable Solo L6-6 sig="namespace Solo"
        sym variable pkg L7-9 exported sig="module \"pkg\""
        sym function pkg.h L8-8 exported in=pkg sig="function h(): void;"
        sym variable global L10-12 sig="declare global"
        sym interface global.Window L11-11 in=global sig="interface Window"
        sym property global.Window.app L11-11 in=global.Window sig="app: App"
        call L2:25 g in Outer.Inner.f
        call L6:18 setup in Solo
        type call L11:27 App in global.Window.app
        hint L11 global.Window app : App
    "#]]
    .assert_eq(&out);
}

#[test]
fn exports_inline_clause_default() {
    let out = render_fixture_facts(
        r#"
        //- /src/exp.ts
        export const a = 1;
        const b = 2;
        function c() {}
        class D { m() {} private p() {} }
        export { b, c as renamed };
        export default D;
        //- /src/eq.ts
        class E {}
        export = E;
        //- /src/anon.ts
        export default class { go() {} }
        "#,
    );
    expect![[r#"
        //- src/exp.ts
        sym constant a L1-1 exported sig="const a = 1"
        sym constant b L2-2 exported sig="const b = 2"
        sym function c L3-3 exported sig="function c()"
        sym class D L4-4 exported sig="class D"
        sym method D.m L4-4 exported in=D sig="m()"
        sym method D.p L4-4 in=D sig="private p()"
        //- src/eq.ts
        sym class E L1-1 exported sig="class E"
        //- src/anon.ts
        sym class default L1-1 exported sig="class"
        sym method default.go L1-1 exported in=default sig="go()"
    "#]]
    .assert_eq(&out);
}

#[test]
fn imports_reexports_require_dynamic() {
    let out = render_fixture_facts(
        r#"
        //- /src/imp.ts
        import d, { a, b as c } from "./m";
        import * as ns from "./ns";
        import "./side";
        import type { T } from "./types";
        import { type U, type V } from "./types2";
        import { type W, x } from "./mixed";
        export * from "./all";
        export * as nsx from "./nsx";
        export { a as b2, default } from "./re";
        export { default as Def } from "./re2";
        import fs = require("fs");
        async function load() { const m = await import("./lazy"); }
        //- /src/req.js
        const path = require("path");
        const { join, resolve: res } = require("path");
        const one = require("./one").one;
        require("./side-effect");
        function lazy() { return require("./inner"); }
        "#,
    );
    expect![[r#"
        //- src/imp.ts
        sym function load L12-12 sig="async function load()"
        import L1 EsImport "./m" default as d a b as c
        import L2 EsImport "./ns" * as ns
        import L3 EsImport "./side"
        import L4 TypeOnly "./types" T
        import L5 TypeOnly "./types2" U V
        import L6 EsImport "./mixed" W x
        import L7 ReExport "./all" all
        import L8 ReExport "./nsx" * as nsx
        import L9 ReExport "./re" a as b2 default
        import L10 ReExport "./re2" default as Def
        import L11 Require "fs" * as fs
        import L12 Dynamic "./lazy"
        //- src/req.js
        sym constant path L1-1 sig="const path = require(\"path\")"
        sym constant join L2-2 sig="const { join, resolve: res } = require(\"path\")"
        sym constant res L2-2 sig="const { join, resolve: res } = require(\"path\")"
        sym constant one L3-3 sig="const one = require(\"./one\").one"
        sym function lazy L5-5 sig="function lazy()"
        import L1 Require "path" * as path
        import L2 Require "path" join resolve as res
        import L3 Require "./one" one
        import L4 Require "./side-effect"
        import L5 Require "./inner"
        call L1:14 require in path
        call L2:32 require in <module>
        call L3:13 require in one
        call L4:1 require in <module>
        call L5:26 require in lazy
        read L3 require().one in one
    "#]]
    .assert_eq(&out);
}

#[test]
fn call_shapes() {
    let out = render_fixture_facts(
        r#"
        //- /src/calls.ts
        class A extends B {
          constructor() { super(); super.init(); }
          m() {
            f();
            this.g();
            this.svc.h();
            a.b.c();
            a?.opt();
            make().then();
            make().x.y();
            items[0].first();
            obj["key"]();
            (await p).done();
            new Foo();
            new ns.Bar(1);
            [1, 2].map((x) => transform(x));
            (function () { iife(); })();
            tag`template`;
            pipe(a)(b);
          }
        }
        top();
        "#,
    );
    expect![[r#"
        //- src/calls.ts
        sym class A L1-21 sig="class A extends B"
        sym method A.constructor L2-2 in=A sig="constructor()"
        sym method A.m L3-20 in=A sig="m()"
        call L2:19 super.constructor in A.constructor
        call L2:34 super.init in A.constructor
        call L4:5 f in A.m
        call L5:10 this.g in A.m
        call L6:14 this.svc.h in A.m
        call L7:9 a.b.c in A.m
        call L8:8 a.opt in A.m
        call L9:12 make().then in A.m
        call L9:5 make in A.m
        call L10:14 ?.y in A.m
        call L10:5 make in A.m
        call L11:14 ?.first in A.m
        call L12:9 ?.key in A.m
        call L13:15 ?.done in A.m
        new L14:9 Foo in A.m
        new L15:12 ns.Bar in A.m
        call L16:12 Array.map in A.m
        call L16:23 transform in A.m
        call L17:20 iife in A.m
        call L19:5 pipe(). in A.m
        call L19:5 pipe in A.m
        call L22:1 top in <module>
        ref call L7:5 a in A.m
        ref call L11:5 items in A.m
        ref call L12:5 obj in A.m
        ref call L13:12 p in A.m
        ref call L15:9 ns in A.m
        ref call L19:13 b in A.m
        read L6 this.svc in A.m
        read L7 a.b in A.m
        read L10 make().x in A.m
        heritage A Extends B
        hint L16 A.m x = param 0 of arg 0 of Array.map()
    "#]]
    .assert_eq(&out);
}

#[test]
fn callers_follow_the_oracle() {
    let out = render_fixture_facts(
        r#"
        //- /src/callers.ts
        const x = compute();
        const cfg = { a: { b: build() }, c: [plain()] };
        @Component({ factory: () => create() })
        export class C {
          @Input() field = initField();
          @HostListener("click")
          onClick() {}
          constructor(@Inject(TOKEN) t: T) {}
        }
        function outer() {
          const cb = function named() { inNamed(); };
          return { next() { inNext(); }, val: valueCall() };
        }
        function ctor() { this.handler = () => inHandler(); }
        "#,
    );
    expect![[r#"
        //- src/callers.ts
        sym constant x L1-1 sig="const x = compute()"
        sym constant cfg L2-2 sig="const cfg"
        sym property cfg.a L2-2 in=cfg sig="a: { b: build() }"
        sym property cfg.a.b L2-2 in=cfg.a sig="b: build()"
        sym property cfg.c L2-2 in=cfg sig="c: [plain()]"
        sym class C L4-9 exported sig="class C"
        sym method C.factory L3-3 exported in=C sig="factory: () =>"
        sym property C.field L5-5 exported in=C sig="field = initField()"
        sym method C.onClick L7-7 exported in=C sig="onClick()"
        sym method C.constructor L8-8 exported in=C sig="constructor(@Inject(TOKEN) t: T)"
        sym function outer L10-13 sig="function outer()"
        sym function outer.cb L11-11 in=outer sig="const cb = function named()"
        sym method outer.next L12-12 in=outer sig="next()"
        sym function ctor L14-14 sig="function ctor()"
        sym method ctor.handler L14-14 in=ctor sig="this.handler = () =>"
        call L1:11 compute in x
        call L2:23 build in cfg.a.b
        call L2:38 plain in cfg.c
        call L3:2 Component in C
        call L3:29 create in C.factory
        call L5:4 Input in C.field
        call L5:20 initField in C.field
        call L6:4 HostListener in C.onClick
        call L8:16 Inject in C.constructor
        call L11:33 inNamed in outer.cb
        call L12:21 inNext in outer.next
        call L12:39 valueCall in outer
        call L14:40 inHandler in ctor.handler
        ref call L8:23 TOKEN in C.constructor
        type call L8:33 T in C.constructor
        write L14 this.handler in ctor
        param C.constructor #0 t
        literal-key L3 ({} as arg 0 of Component()).factory in C
        hint L1 <module> x = compute()
        hint L8 C.constructor t : T
    "#]]
    .assert_eq(&out);
}

#[test]
fn heritage_clauses() {
    let out = render_fixture_facts(
        r#"
        //- /src/her.ts
        class A extends Base<T> implements I, ns.J<K> {}
        class M extends mixin(Base) {}
        class N extends ns.Base {}
        interface K extends L, ns.M<N> {}
        //- /src/her.js
        class P extends Q {}
        "#,
    );
    expect![[r#"
        //- src/her.ts
        sym class A L1-1 sig="class A extends Base<T> implements I, ns.J<K>"
        sym class M L2-2 sig="class M extends mixin(Base)"
        sym class N L3-3 sig="class N extends ns.Base"
        sym interface K L4-4 sig="interface K extends L, ns.M<N>"
        call L2:17 mixin in M
        ref call L2:23 Base in M
        ref call L3:17 ns in N
        type call L1:22 T in A
        type call L1:42 ns.J in A
        type call L1:44 K in A
        type call L4:27 ns.M in K
        type call L4:29 N in K
        heritage A Extends Base<T>
        heritage A Implements I
        heritage A Implements ns.J
        heritage N Extends ns.Base
        heritage K Extends L
        heritage K Extends ns.M<N>
        //- src/her.js
        sym class P L1-1 sig="class P extends Q"
        heritage P Extends Q
    "#]]
    .assert_eq(&out);
}

#[test]
fn type_hints() {
    let out = render_fixture_facts(
        r#"
        //- /src/hints.ts
        let top: Foo | null;
        const made = new ns.Made<T>();
        const got = factory();
        class S {
          field: readonly Item[];
          constructor(private dep: Dep | undefined) {}
          run(arg: Arg, n: number, opt?: Opt<X>, ...rest: Rest[]): Promise<Out> {
            const local = await this.fetch();
            const built = new Builder();
            let typed: pkg.Type;
            let skip: string | number;
            return local;
          }
        }
        const arrow = (a: A): R => a;
        "#,
    );
    expect![[r#"
        //- src/hints.ts
        sym variable top L1-1 sig="let top: Foo | null"
        sym constant made L2-2 sig="const made = new ns.Made<T>()"
        sym constant got L3-3 sig="const got = factory()"
        sym class S L4-14 sig="class S"
        sym property S.field L5-5 in=S sig="field: readonly Item[]"
        sym method S.constructor L6-6 in=S sig="constructor(private dep: Dep | undefined)"
        sym property S.dep L6-6 in=S sig="private dep: Dep | undefined"
        sym method S.run L7-13 in=S sig="run(arg: Arg, n: number, opt?: Opt<X>, ...rest: Rest[]): Promise<Out>"
        sym function arrow L15-15 sig="const arrow = (a: A): R =>"
        new L2:21 ns.Made in made
        call L3:13 factory in got
        call L8:30 this.fetch in S.run
        new L9:23 Builder in S.run
        ref call L2:18 ns in made
        type call L1:10 Foo in top
        type call L2:26 T in made
        type call L5:19 Item in S.field
        type call L6:28 Dep in S.constructor
        type call L7:12 Arg in S.run
        type call L7:34 Opt in S.run
        type call L7:38 X in S.run
        type call L7:51 Rest in S.run
        type call L7:60 Promise in S.run
        type call L7:68 Out in S.run
        type call L10:20 pkg.Type in S.run
        type call L15:19 A in arrow
        type call L15:23 R in arrow
        param S.constructor #0 dep
        param S.run #0 arg
        param S.run #2 opt
        param S.run #3 rest
        param arrow #0 a
        hint L1 <module> top : Foo
        hint L2 <module> made = new ns.Made
        hint L3 <module> got = factory()
        hint L5 S field : Item
        hint L6 S dep : Dep
        hint L6 S.constructor dep : Dep
        hint L7 S.run  -> Promise<Out>
        hint L7 S.run arg : Arg
        hint L7 S.run opt : Opt
        hint L7 S.run rest : Rest
        hint L8 S.run local = this.fetch()
        hint L9 S.run built = new Builder
        hint L10 S.run typed : pkg.Type
        hint L15 arrow  -> R
        hint L15 arrow a : A
    "#]].assert_eq(&out);
}

#[test]
fn alias_narrowing_and_loop_hints() {
    let out = render_fixture_facts(
        r#"
        //- /src/alias.ts
        function f(this: Ctx, t: Logic, xs: X[]) {
          const self = this;
          const { a, b: bee, c = 1, d: { e } } = this.cfg!;
          const list = [new Item()];
          const field = (self.x as Y).z;
          for (const x of xs) {}
          for (const k in xs) {}
          for await (const y of xs) {}
          if (t instanceof ns.C && other instanceof D) {}
          const [p] = xs;
        }
        "#,
    );
    expect![[r#"
        //- src/alias.ts
        sym function f L1-11 sig="function f(this: Ctx, t: Logic, xs: X[])"
        new L4:21 Item in f
        ref call L9:20 ns in f
        ref call L9:28 other in f
        ref call L9:45 D in f
        type call L1:18 Ctx in f
        type call L1:26 Logic in f
        type call L1:37 X in f
        type call L5:28 Y in f
        read L3 this.cfg.a in f
        read L3 this.cfg.b in f
        read L3 this.cfg.c in f
        read L3 this.cfg in f
        read L5 ?.z in f
        read L5 self.x in f
        read L9 ns.C in f
        param f #1 t
        param f #2 xs
        hint L1 f this : Ctx
        hint L1 f t : Logic
        hint L1 f xs : X
        hint L2 f self = this
        hint L3 f a = this.cfg.a
        hint L3 f bee = this.cfg.b
        hint L3 f c = this.cfg.c
        hint L4 f list = new Item
        hint L6 f x = xs
        hint L9 f t : ns.C
        hint L9 f other : D
    "#]]
    .assert_eq(&out);
}

#[test]
fn tsx_file() {
    let out = render_fixture_facts(
        r#"
        //- /src/App.tsx
        import React from "react";
        export function App({ name }: Props): JSX.Element {
          const [v, setV] = useState<number>(0);
          return <div onClick={() => setV(v + 1)}>{format(name)}<Child /></div>;
        }
        "#,
    );
    expect![[r#"
        //- src/App.tsx
        sym function App L2-5 exported sig="function App({ name }: Props): JSX.Element"
        sym parameter App.setV L3-3 in=App sig="[v, setV] = useState<number>(0)"
        import L1 EsImport "react" default as React
        call L3:21 useState in App
        call L4:30 setV in App local
        call L4:44 format in App
        type call L2:31 Props in App
        type call L2:43 JSX.Element in App
        hint L2 App  -> JSX.Element
    "#]]
    .assert_eq(&out);
}

#[test]
fn commonjs_js_file() {
    let out = render_fixture_facts(
        r#"
        //- /lib/server.js
        'use strict';
        const http = require('http');
        const app = require('./app')({ logger: true });
        function Server(opts) { this.opts = opts; }
        Server.prototype.listen = function listen(port) {
          return http.createServer().listen(port);
        };
        exports.create = function (opts) { return new Server(opts); };
        module.exports.version = () => '1.0';
        module.exports = { Server, helper() { run(); } };
        "#,
    );
    expect![[r#"
        //- lib/server.js
        sym constant http L2-2 sig="const http = require('http')"
        sym constant app L3-3 sig="const app = require('./app')({ logger: true })"
        sym function Server L4-4 exported sig="function Server(opts)"
        sym method Server.listen L5-7 in=Server sig="Server.prototype.listen = function listen(port)"
        sym function create L8-8 exported sig="exports.create = function (opts)"
        sym function version L9-9 exported sig="module.exports.version = () =>"
        sym method helper L10-10 exported sig="helper()"
        import L2 Require "http" * as http
        import L3 Require "./app"
        call L2:14 require in http
        call L3:13 require(). in app
        call L3:13 require in app
        call L6:30 http.createServer().listen in Server.listen
        call L6:15 http.createServer in Server.listen
        new L8:47 Server in create
        call L10:39 run in helper
        ref call L5:1 Server in <module>
        ref call L6:10 http in Server.listen
        write L4 this.opts in Server
        write L5 Server.prototype.listen in <module>
        read L5 Server.prototype in <module>
        write L8 exports.create in <module>
        write L9 module.exports.version in <module>
        read L9 module.exports in <module>
        write L10 module.exports in <module>
        literal-key L10 (module.exports = {}).Server in <module>
        literal-key L10 (module.exports = {}).helper in <module>
        hint L8 create  -> Server
    "#]].assert_eq(&out);
}

#[test]
fn syntax_errors_give_partial_facts() {
    let out = render_fixture_facts(
        r#"
        //- /src/broken.ts
        export function ok() { call(); }
        function broken( {
        class C { m() { this.x(; } }
        "#,
    );
    expect![[r#"
        //- src/broken.ts
        sym function ok L1-1 exported sig="function ok()"
        sym method m L3-3 sig="m()"
        call L1:24 call in ok
        call L3:22 this.x in m
        syntax_errors 3
    "#]]
    .assert_eq(&out);
}

#[test]
fn empty_and_deeply_nested_files() {
    let out = render_fixture_facts(
        r#"
        //- /src/empty.ts
        //- /src/comment.js
        // nothing here
        "#,
    );
    expect![[r#"
        //- src/empty.ts
        //- src/comment.js
    "#]]
    .assert_eq(&out);
    // Deep nesting must not overflow the stack.
    let deep = format!("{}f(){}", "(() => ".repeat(5000), ")".repeat(5000));
    let facts = codegraph_parse::analyze(codegraph_parse::Language::TypeScript, &deep);
    assert!(facts.symbols.is_empty());
    let chain = format!("x{}", ".a()".repeat(5000));
    let facts = codegraph_parse::analyze(codegraph_parse::Language::JavaScript, &chain);
    assert_eq!(facts.calls.len(), 5000);
}

#[test]
fn field_accesses_reads_and_writes() {
    let out = render_fixture_facts(
        r#"
        //- /src/acc.ts
        class C {
          x = 0;
          #p = 1;
          m(o: C) {
            this.x = this.x + 1;
            this.x += 2;
            this.#p++;
            delete o.x;
            (this.x) = 3;
            this.y.z();
            this.m(o);
            new ns.K();
            f().y;
            super.s;
            a[0].q = 1;
            (o.m!)(o);
          }
        }
        const cfg = { a: { b: Color.Red } };
        type T = typeof cfg.a;
        "#,
    );
    expect![[r##"
        //- src/acc.ts
        sym class C L1-18 sig="class C"
        sym property C.x L2-2 in=C sig="x = 0"
        sym property C.#p L3-3 in=C sig="#p = 1"
        sym method C.m L4-17 in=C sig="m(o: C)"
        sym constant cfg L19-19 sig="const cfg"
        sym type_alias T L20-20 sig="type T = typeof cfg.a;"
        call L10:12 this.y.z in C.m
        call L11:10 this.m in C.m
        new L12:12 ns.K in C.m
        call L13:5 f in C.m
        call L16:8 o.m in C.m
        ref call L12:9 ns in C.m
        ref call L15:5 a in C.m
        ref call L19:23 Color in cfg
        ref call L20:17 cfg in T
        type call L4:8 C in C.m
        write L5 this.x in C.m
        read L5 this.x in C.m
        write L6 this.x in C.m
        write L7 this.#p in C.m
        write L8 o.x in C.m
        write L9 this.x in C.m
        read L10 this.y in C.m
        read L13 f().y in C.m
        read L14 super.s in C.m
        write L15 ?.q in C.m
        read L19 Color.Red in cfg
        alias T = cfg.a
        param C.m #0 o
        literal-key L20 ({}: cfg).a in T
        hint L4 C.m o : C
    "##]]
    .assert_eq(&out);
}

/// Parse repair (issue 19): each construct the TypeScript compiler accepts and
/// tree-sitter-typescript rejects parses after a repair that keeps lines and columns, so the
/// facts are whole (no syntax errors), point at the original lines, and say a repair was made.
#[test]
fn parse_repair_of_constructs_the_grammar_rejects() {
    let out = render_fixture_facts(
        r#"
        //- /src/overloads.ts
        export const pipe: {
          <A>(a: A): A
          <A, B>(a: A, ab: (a: A) => B): B
        } = function (a: any, ...fns: any[]) {
          return fns.reduce((acc, f) => f(acc), a);
        };
        export function use() {
          return pipe(1, double);
        }
        function double(x: number) {
          return x * 2;
        }
        //- /src/documented.ts
        export interface Channel<
          out A,
          in B = unknown
        > {}
        export const replicate: {
          /**
           * Curried.
           */
          (n: number): <A>(a: A) => Array<A>

          /**
           * Data first.
           */
          <
            A
          >(a: A, n: number): Array<A>
        } = dual<
          (n: number) => <A>(a: A) => Array<A>,
          <A>(a: A, n: number) => Array<A>
        >(2, (a: unknown, n: number) => fill(a, n));
        export const run = <R>(rt: R) =>
          <A>(a: A) => fill(rt, 1);
        function fill(a: unknown, n: number) {
          return [a];
        }
        //- /src/hkt.d.ts
        export declare const map: <A, B>(f: (a: A) => B) => (fa: import('./HKT').Kind<'IO', A>) => import('./HKT').Kind<'IO', B>
        export declare function lift<in out T>(x: T): T
        export type * from './types'
        export declare function after(): void
        "#,
    );
    expect![[r#"
        //- src/overloads.ts
        sym function pipe L1-6 exported sig="const pipe: { <A>(a: A): A; <A, B>(a: A, ab: (a: A) => B): B } = function (a: any, ...fns: any[])"
        sym function use L7-9 exported sig="function use()"
        sym function double L10-12 sig="function double(x: number)"
        sym parameter pipe.f L5-5 in=pipe sig="f"
        call L5:14 fns.reduce in pipe
        call L5:33 f in pipe local
        call L8:10 pipe in use
        ref call L8:18 double in use
        type call L2:10 A in pipe
        type call L3:30 B in pipe
        hint L5 pipe acc = param 0 of arg 0 of fns.reduce()
        hint L5 pipe f = param 1 of arg 0 of fns.reduce()
        repairs 1
        //- src/documented.ts
        sym interface Channel L1-4 exported sig="interface Channel< A, B = unknown >"
        sym constant replicate L5-20 exported sig="const replicate: { /** * Curried. */ (n: number): <A>(a: A) => Array<A>; /** * Data first. */ < A >(a: A, n: number): Array<A> } = dual< (n: number) => <A>(a: A) => Array<A>, <A>(a: A, n: number) => A"
        sym function run L21-22 exported sig="const run = <R>(rt: R) =>"
        sym function fill L23-25 sig="function fill(a: unknown, n: number)"
        call L17:5 dual in replicate
        call L20:33 fill in replicate
        call L22:16 fill in run
        type call L9:23 A in replicate
        type call L9:29 Array in replicate
        type call L21:28 R in run
        type call L22:10 A in run
        type-param Channel A
        type-param Channel B
        type-param run R
        param run #0 rt
        param run #0 a
        hint L20 replicate a = param 0 of arg 1 of dual()
        hint L20 replicate n = param 1 of arg 1 of dual()
        hint L21 run rt : R
        hint L22 run a : A
        repairs 3
        //- src/hkt.d.ts
        sym constant map L1-1 exported sig="const map: <A, B>(f: (a: A) => B) => (fa: Kind<'IO', A>) => Kind<'IO', B>"
        sym function lift L2-2 exported sig="function lift< T>(x: T): T"
        sym function after L4-4 exported sig="function after(): void"
        import L3 ReExport "./types" all
        type call L1:41 A in map
        type call L1:47 B in map
        type call L1:74 Kind in map
        type call L2:43 T in lift
        type-param lift T
        param lift #0 x
        hint L2 lift  -> T
        hint L2 lift x : T
        repairs 4
    "#]]
    .assert_eq(&out);
}

#[test]
fn test_blocks_are_symbols_named_by_title_path() {
    let out = render_fixture_facts(
        r#"
        //- /src/calc.test.ts
        describe("Calc", () => {
          it("adds  two\n numbers", () => { add(1, 2); });
          test.skip(`later`, function () {});
          it("no function");
          it.each([1])("each %s", () => {});
        });
        "#,
    );
    expect![[r#"
        //- src/calc.test.ts
        sym test $describe Calc L1-6 name=Calc sig="describe(\"Calc\","
        sym test $describe Calc.$it adds two\n numbers L2-2 name=Calc > adds two\n numbers in=$describe Calc sig="it(\"adds two\\n numbers\","
        sym test $describe Calc.$test later L3-3 name=Calc > later in=$describe Calc sig="test.skip(`later`,"
        call L1:1 describe in <module>
        call L2:3 it in $describe Calc
        call L2:37 add in $describe Calc.$it adds two\n numbers
        call L3:8 test.skip in $describe Calc
        call L4:3 it in $describe Calc
        call L5:3 it.each(). in $describe Calc
        call L5:6 it.each in $describe Calc
        ref call L3:3 test in $describe Calc.$test later
        ref call L5:3 it in $describe Calc
    "#]]
    .assert_eq(&out);
}
