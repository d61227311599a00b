//! TypeScript / JavaScript cross-file resolution: exact IMPORTS, CALLS, EXTENDS, IMPLEMENTS and
//! ACCESSES edges (and unresolved sites) of multi-file fixtures, one test per resolution rule.

use codegraph_tests::render_fixture_resolution;
use expect_test::{Expect, expect};

fn check(fixture: &str, expected: Expect) {
    expected.assert_eq(&render_fixture_resolution(fixture));
}

#[test]
fn relative_imports_probe_extensions_index_and_js_for_ts() {
    check(
        r#"
        //- /src/a.ts
        export function a() {}
        //- /src/util/index.ts
        export function u() {}
        //- /src/c.tsx
        export function c() {}
        //- /src/main.ts
        import { a } from "./a.js";
        import { u } from "./util";
        import { c } from "./c";
        import { missing } from "./nope";
        import lodash from "lodash";
        export function main() {
          a();
          u();
          c();
          lodash();
          local();
          missing();
        }
        function local() {}
        "#,
        expect![[r#"
            edge IMPORTS file:src/main.ts -> file:src/a.ts L1 import-resolved 0.95
            edge IMPORTS file:src/main.ts -> file:src/c.tsx L3 import-resolved 0.95
            edge IMPORTS file:src/main.ts -> file:src/util/index.ts L2 import-resolved 0.95
            edge IMPORTS file:src/main.ts -> sym:ts:src/a.ts:a L1 import-resolved 0.95
            edge IMPORTS file:src/main.ts -> sym:ts:src/c.tsx:c L3 import-resolved 0.95
            edge IMPORTS file:src/main.ts -> sym:ts:src/util/index.ts:u L2 import-resolved 0.95
            edge CALLS sym:ts:src/main.ts:main -> sym:ts:src/a.ts:a L7 import-resolved 0.95
            edge CALLS sym:ts:src/main.ts:main -> sym:ts:src/c.tsx:c L9 import-resolved 0.95
            edge CALLS sym:ts:src/main.ts:main -> sym:ts:src/main.ts:local L11 same-file 0.95
            edge CALLS sym:ts:src/main.ts:main -> sym:ts:src/util/index.ts:u L8 import-resolved 0.95
            unresolved src/main.ts:12 missing in sym:ts:src/main.ts:main
        "#]],
    );
}

#[test]
fn tsconfig_paths_and_base_url_follow_extends() {
    check(
        r#"
        //- /tsconfig.base.json
        {
          // comments and trailing commas are allowed
          "compilerOptions": {
            "baseUrl": "./src",
            "paths": { "@lib/*": ["lib/*"], },
          },
        }
        //- /tsconfig.json
        { "extends": "./tsconfig.base.json", "compilerOptions": { "strict": true } }
        //- /src/lib/math.ts
        export function add() {}
        //- /src/core/log.ts
        export function log() {}
        //- /src/app.ts
        import { add } from "@lib/math";
        import { log } from "core/log";
        add();
        log();
        "#,
        expect![[r#"
            edge IMPORTS file:src/app.ts -> file:src/core/log.ts L2 import-resolved 0.95
            edge IMPORTS file:src/app.ts -> file:src/lib/math.ts L1 import-resolved 0.95
            edge IMPORTS file:src/app.ts -> sym:ts:src/core/log.ts:log L2 import-resolved 0.95
            edge CALLS file:src/app.ts -> sym:ts:src/core/log.ts:log L4 import-resolved 0.95
            edge IMPORTS file:src/app.ts -> sym:ts:src/lib/math.ts:add L1 import-resolved 0.95
            edge CALLS file:src/app.ts -> sym:ts:src/lib/math.ts:add L3 import-resolved 0.95
        "#]],
    );
}

#[test]
fn monorepo_workspace_packages_by_name_and_exports() {
    check(
        r#"
        //- /packages/core/package.json
        { "name": "@acme/core", "exports": { ".": "./dist/index.js", "./extra": "./src/extra.ts" } }
        //- /packages/core/src/index.ts
        export function coreFn() {}
        //- /packages/core/src/extra.ts
        export function extraFn() {}
        //- /packages/app/package.json
        { "name": "app", "main": "main.js" }
        //- /packages/app/main.ts
        import { coreFn } from "@acme/core";
        import { extraFn } from "@acme/core/extra";
        import { external } from "@other/pkg";
        export function run() {
          coreFn();
          extraFn();
          external();
        }
        "#,
        expect![[r#"
            edge IMPORTS file:packages/app/main.ts -> file:packages/core/src/extra.ts L2 import-resolved 0.95
            edge IMPORTS file:packages/app/main.ts -> file:packages/core/src/index.ts L1 import-resolved 0.95
            edge IMPORTS file:packages/app/main.ts -> sym:ts:packages/core/src/extra.ts:extraFn L2 import-resolved 0.95
            edge IMPORTS file:packages/app/main.ts -> sym:ts:packages/core/src/index.ts:coreFn L1 import-resolved 0.95
            edge CALLS sym:ts:packages/app/main.ts:run -> sym:ts:packages/core/src/extra.ts:extraFn L6 import-resolved 0.95
            edge CALLS sym:ts:packages/app/main.ts:run -> sym:ts:packages/core/src/index.ts:coreFn L5 import-resolved 0.95
        "#]],
    );
}

/// `theDefault` stays unresolved: the facts do not say which declaration `export default
/// function def` makes the default (a direct `import def` is matched by name instead).
#[test]
fn reexport_chains_with_aliases_defaults_and_a_cycle() {
    check(
        r#"
        //- /src/impl.ts
        export function impl() {}
        export default function def() {}
        //- /src/mid.ts
        export { impl as renamed } from "./impl";
        export { default as theDefault } from "./impl";
        export * from "./cycle";
        //- /src/cycle.ts
        export * from "./mid";
        export function inCycle() {}
        //- /src/index.ts
        export * from "./mid";
        //- /src/use.ts
        import { renamed, theDefault, inCycle, nowhere } from "./index";
        import def from "./impl";
        renamed();
        theDefault();
        inCycle();
        def();
        nowhere();
        "#,
        expect![[r#"
            edge IMPORTS file:src/cycle.ts -> file:src/mid.ts L1 import-resolved 0.95
            edge IMPORTS file:src/index.ts -> file:src/mid.ts L1 import-resolved 0.95
            edge IMPORTS file:src/mid.ts -> file:src/cycle.ts L3 import-resolved 0.95
            edge IMPORTS file:src/mid.ts -> file:src/impl.ts L1 import-resolved 0.95
            edge IMPORTS file:src/mid.ts -> file:src/impl.ts L2 import-resolved 0.95
            edge IMPORTS file:src/mid.ts -> sym:ts:src/impl.ts:def L2 import-resolved 0.95
            edge IMPORTS file:src/mid.ts -> sym:ts:src/impl.ts:impl L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> file:src/impl.ts L2 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> file:src/index.ts L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/cycle.ts:inCycle L1 import-resolved 0.95
            edge CALLS file:src/use.ts -> sym:ts:src/cycle.ts:inCycle L5 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/impl.ts:def L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/impl.ts:def L2 import-resolved 0.95
            edge CALLS file:src/use.ts -> sym:ts:src/impl.ts:def L4 import-resolved 0.95
            edge CALLS file:src/use.ts -> sym:ts:src/impl.ts:def L6 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/impl.ts:impl L1 import-resolved 0.95
            edge CALLS file:src/use.ts -> sym:ts:src/impl.ts:impl L3 import-resolved 0.95
            unresolved src/use.ts:7 nowhere in file:src/use.ts
        "#]],
    );
}

#[test]
fn commonjs_require_and_namespace_imports() {
    check(
        r#"
        //- /lib/util.js
        exports.helper = function () {};
        function inner() {}
        //- /lib/main.js
        const util = require("./util");
        const { helper } = require("./util");
        const fs = require("fs");
        util.helper();
        helper();
        fs.readFileSync("x");
        //- /src/ns.ts
        export function f() {}
        export class K { static make() {} }
        //- /src/use.ts
        import * as ns from "./ns";
        ns.f();
        ns.K.make();
        new ns.K();
        ns.gone();
        "#,
        expect![[r#"
            edge IMPORTS file:lib/main.js -> file:lib/util.js L1 import-resolved 0.95
            edge IMPORTS file:lib/main.js -> file:lib/util.js L2 import-resolved 0.95
            edge IMPORTS file:lib/main.js -> sym:js:lib/util.js:helper L2 import-resolved 0.95
            edge CALLS file:lib/main.js -> sym:js:lib/util.js:helper L4 import-resolved 0.95
            edge CALLS file:lib/main.js -> sym:js:lib/util.js:helper L5 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> file:src/ns.ts L1 import-resolved 0.95
            edge CALLS file:src/use.ts -> sym:ts:src/ns.ts:K L4 import-resolved 0.95
            edge CALLS file:src/use.ts -> sym:ts:src/ns.ts:K.make L3 import-resolved 0.95
            edge CALLS file:src/use.ts -> sym:ts:src/ns.ts:f L2 import-resolved 0.95
            unresolved src/use.ts:5 ns.gone in file:src/use.ts
        "#]],
    );
}

#[test]
fn this_and_super_through_an_imported_base_class() {
    check(
        r#"
        //- /src/base.ts
        export class Base {
          constructor() {}
          hello() {}
          shared() {}
        }
        //- /src/derived.ts
        import { Base } from "./base";
        export interface Named { name(): string }
        export interface Greeter extends Named { greet(): void }
        export class Derived extends Base implements Greeter {
          constructor() {
            super();
          }
          name() { return "d"; }
          greet() {
            this.hello();
            super.shared();
            this.name();
            this.nothing();
          }
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/derived.ts -> file:src/base.ts L1 import-resolved 0.95
            edge IMPORTS file:src/derived.ts -> sym:ts:src/base.ts:Base L1 import-resolved 0.95
            edge EXTENDS sym:ts:src/derived.ts:Derived -> sym:ts:src/base.ts:Base L4 import-resolved 0.95
            edge IMPLEMENTS sym:ts:src/derived.ts:Derived -> sym:ts:src/derived.ts:Greeter L4 same-file 0.95
            edge CALLS sym:ts:src/derived.ts:Derived.constructor -> sym:ts:src/base.ts:Base L6 super-dispatch 0.90
            edge CALLS sym:ts:src/derived.ts:Derived.greet -> sym:ts:src/base.ts:Base.hello L10 this-dispatch 0.90
            edge CALLS sym:ts:src/derived.ts:Derived.greet -> sym:ts:src/base.ts:Base.shared L11 super-dispatch 0.90
            edge CALLS sym:ts:src/derived.ts:Derived.greet -> sym:ts:src/derived.ts:Derived.name L12 this-dispatch 0.90
            edge EXTENDS sym:ts:src/derived.ts:Greeter -> sym:ts:src/derived.ts:Named L3 same-file 0.95
            unresolved src/derived.ts:13 this.nothing in sym:ts:src/derived.ts:Derived.greet
        "#]],
    );
}

#[test]
fn typed_receivers_of_each_kind() {
    check(
        r#"
        //- /src/svc.ts
        export class Repo { find() {} }
        export class Service {
          constructor(private repo: Repo) {}
          field: Repo;
          run() {
            this.repo.find();
            this.field.find();
          }
        }
        export function makeRepo(): Repo { return new Repo(); }
        //- /src/use.ts
        import { Repo, Service, makeRepo } from "./svc";
        export function use(param: Repo) {
          const built = new Service(new Repo());
          built.run();
          const annotated: Repo = param;
          annotated.find();
          param.find();
          const made = makeRepo();
          made.find();
          makeRepo().find();
          makeRepo().missing();
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/use.ts -> file:src/svc.ts L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/svc.ts:Repo L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/svc.ts:Service L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/svc.ts:makeRepo L1 import-resolved 0.95
            edge REFERS_TO sym:ts:src/svc.ts:Service.constructor -> sym:ts:src/svc.ts:Repo L3 same-file 0.95
            edge REFERS_TO sym:ts:src/svc.ts:Service.field -> sym:ts:src/svc.ts:Repo L4 same-file 0.95
            edge CALLS sym:ts:src/svc.ts:Service.run -> sym:ts:src/svc.ts:Repo.find L6 typed-receiver 0.85
            edge CALLS sym:ts:src/svc.ts:Service.run -> sym:ts:src/svc.ts:Repo.find L7 typed-receiver 0.85
            edge ACCESSES sym:ts:src/svc.ts:Service.run -> sym:ts:src/svc.ts:Service.field L7 this-dispatch 0.90
            edge ACCESSES sym:ts:src/svc.ts:Service.run -> sym:ts:src/svc.ts:Service.repo L6 this-dispatch 0.90
            edge CALLS sym:ts:src/svc.ts:makeRepo -> sym:ts:src/svc.ts:Repo L10 same-file 0.95
            edge REFERS_TO sym:ts:src/svc.ts:makeRepo -> sym:ts:src/svc.ts:Repo L10 same-file 0.95
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:Repo L3 import-resolved 0.95
            edge REFERS_TO sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:Repo L2 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:Repo.find L6 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:Repo.find L7 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:Repo.find L9 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:Repo.find L10 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:Service L3 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:Service.run L4 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:makeRepo L8 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:makeRepo L10 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:use -> sym:ts:src/svc.ts:makeRepo L11 import-resolved 0.95
            unresolved src/use.ts:11 makeRepo().missing in sym:ts:src/use.ts:use
        "#]],
    );
}

#[test]
fn callback_parameters_take_the_callee_declared_type() {
    check(
        r#"
        //- /src/obs.ts
        export class Subscriber { next() {} }
        export class Observable {
          constructor(subscribe?: (this: Observable, subscriber: Subscriber) => void) {}
        }
        export function operate(init: (source: Observable, subscriber: Subscriber) => void) {}
        //- /src/use.ts
        import { Observable, operate } from "./obs";
        export function timer() {
          return new Observable((subscriber) => {
            subscriber.next();
          });
        }
        export function op() {
          return operate((source, subscriber) => {
            subscriber.next();
          });
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/use.ts -> file:src/obs.ts L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/obs.ts:Observable L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/obs.ts:operate L1 import-resolved 0.95
            edge REFERS_TO sym:ts:src/obs.ts:Observable.constructor -> sym:ts:src/obs.ts:Observable L3 same-file 0.95
            edge REFERS_TO sym:ts:src/obs.ts:Observable.constructor -> sym:ts:src/obs.ts:Subscriber L3 same-file 0.95
            edge REFERS_TO sym:ts:src/obs.ts:operate -> sym:ts:src/obs.ts:Observable L5 same-file 0.95
            edge REFERS_TO sym:ts:src/obs.ts:operate -> sym:ts:src/obs.ts:Subscriber L5 same-file 0.95
            edge CALLS sym:ts:src/use.ts:op -> sym:ts:src/obs.ts:Subscriber.next L9 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:op -> sym:ts:src/obs.ts:operate L8 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:timer -> sym:ts:src/obs.ts:Observable L3 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:timer -> sym:ts:src/obs.ts:Subscriber.next L4 typed-receiver 0.85
        "#]],
    );
}

#[test]
fn object_literal_methods_and_nested_functions() {
    check(
        r#"
        //- /src/api.ts
        export const api = {
          get() { this.post(); },
          post() {},
        };
        //- /src/use.ts
        import { api } from "./api";
        export function outer() {
          function inner() {}
          inner();
          api.get();
          console.log("x");
          Promise.resolve();
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/use.ts -> file:src/api.ts L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/api.ts:api L1 import-resolved 0.95
            edge CALLS sym:ts:src/api.ts:api.get -> sym:ts:src/api.ts:api.post L2 this-dispatch 0.90
            edge REFERS_TO sym:ts:src/use.ts:outer -> sym:ts:src/api.ts:api L5 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:outer -> sym:ts:src/api.ts:api.get L5 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:outer -> sym:ts:src/use.ts:outer.inner L4 same-file 0.95
        "#]],
    );
}

#[test]
fn aliases_narrowing_loops_array_elements_and_this_parameters() {
    check(
        r#"
        //- /src/sub.ts
        export class Sub {
          parents: Sub[] | Sub | null;
          kids: Sub[];
          remove() {}
          close() {
            const { parents } = this;
            const { kids: children, missing = 1 } = this;
            parents.remove();
            for (const p of this.kids) { p.remove(); }
            for (const k in this.kids) { k.remove(); }
            children.shift()!.close();
            children.push();
            const self = this;
            self.remove();
            const alias = self.kids;
            alias.pop().remove();
          }
          add(t: Logic) {
            if (t instanceof Sub) { t.remove(); }
            t.close();
          }
        }
        export type Logic = Sub | (() => void);
        //- /src/use.ts
        import { Sub } from "./sub";
        export function run(s: Sub) {
          const queue = [new Sub()];
          queue.shift().close();
          schedule(function (this: Sub) { this.remove(); });
        }
        function schedule(work: (this: Sub) => void) {}
        "#,
        expect![[r#"
            edge IMPORTS file:src/use.ts -> file:src/sub.ts L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/sub.ts:Sub L1 import-resolved 0.95
            edge REFERS_TO sym:ts:src/sub.ts:Logic -> sym:ts:src/sub.ts:Sub L23 same-file 0.95
            edge REFERS_TO sym:ts:src/sub.ts:Sub.add -> sym:ts:src/sub.ts:Logic L18 same-file 0.95
            edge REFERS_TO sym:ts:src/sub.ts:Sub.add -> sym:ts:src/sub.ts:Sub L19 same-file 0.95
            edge CALLS sym:ts:src/sub.ts:Sub.add -> sym:ts:src/sub.ts:Sub.close L20 typed-receiver 0.85
            edge CALLS sym:ts:src/sub.ts:Sub.add -> sym:ts:src/sub.ts:Sub.remove L19 typed-receiver 0.85
            edge CALLS sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.close L11 typed-receiver 0.85
            edge ACCESSES sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.kids L7 this-dispatch 0.90
            edge ACCESSES sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.kids L9 this-dispatch 0.90
            edge ACCESSES sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.kids L10 this-dispatch 0.90
            edge ACCESSES sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.kids L15 typed-receiver 0.85
            edge ACCESSES sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.parents L6 this-dispatch 0.90
            edge CALLS sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.remove L8 typed-receiver 0.85
            edge CALLS sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.remove L9 typed-receiver 0.85
            edge CALLS sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.remove L14 typed-receiver 0.85
            edge CALLS sym:ts:src/sub.ts:Sub.close -> sym:ts:src/sub.ts:Sub.remove L16 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/sub.ts:Sub.kids -> sym:ts:src/sub.ts:Sub L3 same-file 0.95
            edge REFERS_TO sym:ts:src/sub.ts:Sub.parents -> sym:ts:src/sub.ts:Sub L2 same-file 0.95
            edge CALLS sym:ts:src/use.ts:run -> sym:ts:src/sub.ts:Sub L3 import-resolved 0.95
            edge REFERS_TO sym:ts:src/use.ts:run -> sym:ts:src/sub.ts:Sub L2 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:run -> sym:ts:src/sub.ts:Sub.close L4 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:run -> sym:ts:src/sub.ts:Sub.remove L5 this-dispatch 0.90
            edge CALLS sym:ts:src/use.ts:run -> sym:ts:src/use.ts:schedule L5 same-file 0.95
            edge REFERS_TO sym:ts:src/use.ts:schedule -> sym:ts:src/sub.ts:Sub L7 import-resolved 0.95
            unresolved src/sub.ts:10 k.remove in sym:ts:src/sub.ts:Sub.close
            unresolved src/sub.ts:11 children.shift in sym:ts:src/sub.ts:Sub.close
            unresolved src/sub.ts:12 children.push in sym:ts:src/sub.ts:Sub.close
            unresolved src/sub.ts:16 alias.pop in sym:ts:src/sub.ts:Sub.close
            unresolved src/use.ts:4 queue.shift in sym:ts:src/use.ts:run
        "#]],
    );
}

/// ACCESSES: reads and writes of fields, constructor parameter properties, interface and
/// inherited fields, statics, and a method read as a value (`this.bump`); an untyped
/// receiver's member is no edge.
#[test]
fn accesses_of_fields_parameter_properties_interfaces_and_inherited_fields() {
    check(
        r#"
        //- /src/base.ts
        export class Base {
          shared = 0;
          static total = 0;
        }
        export interface Opts { depth: number; name?: string }
        //- /src/main.ts
        import { Base, Opts } from "./base";
        export class Counter extends Base {
          count = 0;
          constructor(private readonly opts: Opts) { super(); }
          bump() {
            this.count++;
            this.count = this.count + 1;
            this.shared += 1;
            delete this.count;
            this.bump;
            return this.opts.depth;
          }
        }
        export function use(c: Counter, raw) {
          const local = new Counter({ depth: 1 });
          local.count = 2;
          c.shared;
          Base.total;
          raw.count;
          Math.PI;
          c.missing;
          return local.count;
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/main.ts -> file:src/base.ts L1 import-resolved 0.95
            edge IMPORTS file:src/main.ts -> sym:ts:src/base.ts:Base L1 import-resolved 0.95
            edge IMPORTS file:src/main.ts -> sym:ts:src/base.ts:Opts L1 import-resolved 0.95
            edge EXTENDS sym:ts:src/main.ts:Counter -> sym:ts:src/base.ts:Base L2 import-resolved 0.95
            edge ACCESSES sym:ts:src/main.ts:Counter.bump -> sym:ts:src/base.ts:Base.shared L8 this-dispatch 0.90
            edge ACCESSES sym:ts:src/main.ts:Counter.bump -> sym:ts:src/base.ts:Opts.depth L11 typed-receiver 0.85
            edge ACCESSES sym:ts:src/main.ts:Counter.bump -> sym:ts:src/main.ts:Counter.bump L10 this-dispatch 0.90
            edge ACCESSES sym:ts:src/main.ts:Counter.bump -> sym:ts:src/main.ts:Counter.count L6 this-dispatch 0.90
            edge ACCESSES sym:ts:src/main.ts:Counter.bump -> sym:ts:src/main.ts:Counter.count L7 this-dispatch 0.90
            edge ACCESSES sym:ts:src/main.ts:Counter.bump -> sym:ts:src/main.ts:Counter.count L9 this-dispatch 0.90
            edge ACCESSES sym:ts:src/main.ts:Counter.bump -> sym:ts:src/main.ts:Counter.opts L11 this-dispatch 0.90
            edge CALLS sym:ts:src/main.ts:Counter.constructor -> sym:ts:src/base.ts:Base L4 super-dispatch 0.90
            edge REFERS_TO sym:ts:src/main.ts:Counter.constructor -> sym:ts:src/base.ts:Opts L4 import-resolved 0.95
            edge REFERS_TO sym:ts:src/main.ts:use -> sym:ts:src/base.ts:Base L18 import-resolved 0.95
            edge ACCESSES sym:ts:src/main.ts:use -> sym:ts:src/base.ts:Base.shared L17 typed-receiver 0.85
            edge ACCESSES sym:ts:src/main.ts:use -> sym:ts:src/base.ts:Base.total L18 import-resolved 0.95
            edge ACCESSES sym:ts:src/main.ts:use -> sym:ts:src/base.ts:Opts.depth L15 typed-receiver 0.85
            edge CALLS sym:ts:src/main.ts:use -> sym:ts:src/main.ts:Counter L15 same-file 0.95
            edge REFERS_TO sym:ts:src/main.ts:use -> sym:ts:src/main.ts:Counter L14 same-file 0.95
            edge ACCESSES sym:ts:src/main.ts:use -> sym:ts:src/main.ts:Counter.count L16 typed-receiver 0.85
            edge ACCESSES sym:ts:src/main.ts:use -> sym:ts:src/main.ts:Counter.count L22 typed-receiver 0.85
        "#]],
    );
}

/// A call we cannot resolve is counted, never dropped (issue 19): a method call on an untyped
/// parameter (`reply.send(...)` in a JavaScript handler) is an unresolved site, so impact can
/// say that callers may be missing; a function's own `call` / `apply` / `bind` is the
/// language's and stays out. A parameter called as a function (`cb(1)`) is listed too: nothing
/// tells it from a declaration we failed to find; so is a callee that is no name
/// (`handlers[kind](...)`, by its text), but not a function expression called in place.
#[test]
fn calls_through_untyped_receivers_are_unresolved_not_dropped() {
    check(
        r#"
        //- /lib/route.js
        function handler(request, reply) {
          reply.send({ ok: true });
          request.log.info("x");
          helper.call(null, 1);
          handlers[request.kind](reply);
          (function now() {})();
        }
        const handlers = {};
        function helper(x) {}
        //- /lib/typed.ts
        export function run(cb: (x: number) => void) {
          cb(1);
        }
        "#,
        expect![[r#"
            edge REFERS_TO sym:js:lib/route.js:handler -> sym:js:lib/route.js:handlers L5 same-file 0.95
            edge REFERS_TO sym:js:lib/route.js:handler -> sym:js:lib/route.js:helper L4 same-file 0.95
            edge CALLS sym:ts:lib/typed.ts:run -> sym:ts:lib/typed.ts:run.cb L2 same-file 0.95
            unresolved lib/route.js:2 reply.send in sym:js:lib/route.js:handler
            unresolved lib/route.js:3 request.log.info in sym:js:lib/route.js:handler
            unresolved lib/route.js:5 ?.handlers[request.kind] in sym:js:lib/route.js:handler
        "#]],
    );
}

/// A JavaScript parameter nothing types is typed by its name when its package declares exactly
/// one class or constructor of that name with the member called (issue 19: fastify's
/// `reply.send(...)` in functions handed a `Reply`): `parameter-name`, 0.6. Not for a member the
/// constructor lacks, a parameter with a type hint naming a type (even one we cannot resolve;
/// JSDoc's `{object}` names none), a local initialized with a call we cannot follow,
/// TypeScript, a name two constructors of the package share, or another package. A JSDoc `@param {Reply} res` types the parameter as an annotation does,
/// through a CommonJS `require` of the constructor's module (`typed-receiver`); a callback's
/// parameter whose callee declares nothing (JavaScript) is typed by its name too.
#[test]
fn javascript_parameters_typed_by_their_name() {
    check(
        r#"
        //- /package.json
        {"name": "web"}
        //- /lib/reply.js
        function Reply(res) { this.res = res; }
        Reply.prototype.send = function (payload) { return this; };
        module.exports = Reply;
        //- /lib/widget.js
        function Widget() {}
        Widget.prototype.draw = function () {};
        //- /lib/widget2.js
        function Widget() {}
        Widget.prototype.draw = function () {};
        //- /lib/handle.js
        function handle(err, request, reply, widget) {
          reply.send(err);
          reply.missing(1);
          widget.draw();
        }
        /** @param {object} reply */
        function loose(reply) { reply.send(1); }
        /** @param {ServerResponse} reply */
        function typed(reply) { reply.send(1); }
        function hook(hooks) { hooks.add((req, reply) => { reply.send(2); }); }
        function local(map) { const reply = map.get(1); reply.send(3); }
        //- /lib/doc.js
        const Reply = require("./reply");
        /**
         * @param {Reply} res what the route answers with
         */
        function viaDoc(res) { res.send(1); }
        //- /lib/typed.ts
        export function f(reply) { reply.send(1); }
        //- /other/package.json
        {"name": "other"}
        //- /other/x.js
        function g(reply) { reply.send(1); }
        "#,
        expect![[r#"
            edge IMPORTS file:lib/doc.js -> file:lib/reply.js L1 import-resolved 0.95
            edge REFERS_TO file:lib/reply.js -> sym:js:lib/reply.js:Reply L2 same-file 0.95
            edge REFERS_TO file:lib/widget.js -> sym:js:lib/widget.js:Widget L2 same-file 0.95
            edge REFERS_TO file:lib/widget2.js -> sym:js:lib/widget2.js:Widget L2 same-file 0.95
            edge CALLS sym:js:lib/doc.js:viaDoc -> sym:js:lib/reply.js:Reply.send L5 typed-receiver 0.85
            edge CALLS sym:js:lib/handle.js:handle -> sym:js:lib/reply.js:Reply.send L2 parameter-name 0.60
            edge CALLS sym:js:lib/handle.js:hook -> sym:js:lib/reply.js:Reply.send L10 parameter-name 0.60
            edge CALLS sym:js:lib/handle.js:loose -> sym:js:lib/reply.js:Reply.send L7 parameter-name 0.60
            unresolved lib/handle.js:3 reply.missing in sym:js:lib/handle.js:handle
            unresolved lib/handle.js:4 widget.draw in sym:js:lib/handle.js:handle
            unresolved lib/handle.js:9 reply.send in sym:js:lib/handle.js:typed
            unresolved lib/handle.js:10 hooks.add in sym:js:lib/handle.js:hook
            unresolved lib/handle.js:11 map.get in sym:js:lib/handle.js:local
            unresolved lib/handle.js:11 reply.send in sym:js:lib/handle.js:local
            unresolved lib/typed.ts:1 reply.send in sym:ts:lib/typed.ts:f
            unresolved other/x.js:1 reply.send in sym:js:other/x.js:g
        "#]],
    );
}

/// CommonJS (issue 19): `require` of a module whose `module.exports` is a function, an object
/// of functions, or built with `exports.x = ...`, called directly, destructured or through the
/// module value.
#[test]
fn commonjs_require_and_module_exports() {
    check(
        r#"
        //- /lib/b.js
        function f() {}
        module.exports = f;
        //- /lib/c.js
        function g() {}
        function h() {}
        module.exports = { g, h };
        //- /lib/d.js
        exports.k = function () {};
        //- /lib/a.js
        const f = require("./b.js");
        const { g } = require("./c");
        const c = require("./c");
        const d = require("./d");
        function main() {
          f();
          g();
          c.h();
          d.k();
        }
        "#,
        expect![[r#"
            edge IMPORTS file:lib/a.js -> file:lib/b.js L1 import-resolved 0.95
            edge IMPORTS file:lib/a.js -> file:lib/c.js L2 import-resolved 0.95
            edge IMPORTS file:lib/a.js -> file:lib/c.js L3 import-resolved 0.95
            edge IMPORTS file:lib/a.js -> file:lib/d.js L4 import-resolved 0.95
            edge IMPORTS file:lib/a.js -> sym:js:lib/c.js:g L2 import-resolved 0.95
            edge REFERS_TO file:lib/b.js -> sym:js:lib/b.js:f L2 same-file 0.95
            edge REFERS_TO file:lib/c.js -> sym:js:lib/c.js:g L3 same-file 0.95
            edge REFERS_TO file:lib/c.js -> sym:js:lib/c.js:h L3 same-file 0.95
            edge CALLS sym:js:lib/a.js:main -> sym:js:lib/b.js:f L6 import-resolved 0.95
            edge CALLS sym:js:lib/a.js:main -> sym:js:lib/c.js:g L7 import-resolved 0.95
            edge CALLS sym:js:lib/a.js:main -> sym:js:lib/c.js:h L8 import-resolved 0.95
            edge CALLS sym:js:lib/a.js:main -> sym:js:lib/d.js:k L9 import-resolved 0.95
        "#]],
    );
}

/// Minified code makes variables' hints name each other (`a` holds `b.x`, `b` holds `a.y`):
/// resolution follows such a cycle only to its depth limit instead of overflowing the stack
/// (an rxjs UMD bundle did, aborting the whole index).
#[test]
fn variables_whose_hints_name_each_other_do_not_recurse_forever() {
    let out = render_fixture_resolution(
        r#"
        //- /min.js
        var a = b.x, b = a.y;
        function f() { a.g(); b.h(); this.k(); }
        var c = this.d, d = c.e;
        c.m();
        "#,
    );
    expect![[r#"
        edge REFERS_TO file:min.js -> sym:js:min.js:c L4 same-file 0.95
        edge REFERS_TO sym:js:min.js:a -> sym:js:min.js:b L1 same-file 0.95
        edge REFERS_TO sym:js:min.js:b -> sym:js:min.js:a L1 same-file 0.95
        edge REFERS_TO sym:js:min.js:d -> sym:js:min.js:c L3 same-file 0.95
        edge REFERS_TO sym:js:min.js:f -> sym:js:min.js:a L2 same-file 0.95
        edge REFERS_TO sym:js:min.js:f -> sym:js:min.js:b L2 same-file 0.95
        unresolved min.js:2 a.g in sym:js:min.js:f
        unresolved min.js:2 b.h in sym:js:min.js:f
        unresolved min.js:2 this.k in sym:js:min.js:f
        unresolved min.js:4 c.m in file:min.js
    "#]]
    .assert_eq(&out);
}

/// REFERS_TO: declarations named and not called, through imports like a call: constants and
/// functions as values (operands, arguments, shorthand properties), types in annotations and
/// `ns.T`; a parameter or local of the same name shadows, a heritage clause is EXTENDS /
/// IMPLEMENTS only.
#[test]
fn values_and_types_named_are_refers_to() {
    let out = render_fixture_resolution(
        r#"
        //- /src/lib.ts
        export const LIMIT = 10;
        export interface Opts { n: number }
        export function helper() {}
        export type Id = string;
        export class Base {}
        //- /src/use.ts
        import { LIMIT, Opts, helper, Id, Base } from "./lib";
        import * as lib from "./lib";
        export function run(o: Opts, id: Id): lib.Opts {
          const next = LIMIT + 1;
          [1].map(helper);
          const cfg = { helper };
          return o;
        }
        export function shadow(LIMIT: number, helper: () => void) {
          const Id = 3;
          return LIMIT * Id + helper.length;
        }
        export class Sub extends Base implements Opts {
          n = LIMIT;
        }
        "#,
    );
    let refs: Vec<&str> = out.lines().filter(|l| l.contains(" REFERS_TO ")).collect();
    expect![[r#"
        edge REFERS_TO sym:ts:src/use.ts:Sub.n -> sym:ts:src/lib.ts:LIMIT L14 import-resolved 0.95
        edge REFERS_TO sym:ts:src/use.ts:run -> sym:ts:src/lib.ts:Id L3 import-resolved 0.95
        edge REFERS_TO sym:ts:src/use.ts:run -> sym:ts:src/lib.ts:LIMIT L4 import-resolved 0.95
        edge REFERS_TO sym:ts:src/use.ts:run -> sym:ts:src/lib.ts:Opts L3 import-resolved 0.95
        edge REFERS_TO sym:ts:src/use.ts:run -> sym:ts:src/lib.ts:helper L5 import-resolved 0.95
    "#]]
    .assert_eq(&(refs.join("\n") + "\n"));
}

/// TESTS from TS/JS test blocks: each `describe` / `it` / `test` with a title and a function
/// is a `test` node named by its title path; its calls (and functions it names) into code
/// outside test files are TESTS edges, and the test file TESTS each file they are in.
/// Helpers in test files are not tested code; hooks (`beforeEach`) belong to their block.
#[test]
fn test_blocks_are_nodes_that_test_what_they_call() {
    let out = render_fixture_resolution(
        r#"
        //- /src/calc.ts
        export function add(a: number, b: number) { return a + b; }
        export function sub(a: number, b: number) { return a - b; }
        export function reset() {}
        //- /src/fixture.test.ts
        export function fixture() {}
        //- /src/calc.test.ts
        import { add, sub, reset } from "./calc";
        import { fixture } from "./fixture.test";
        describe("Calc", () => {
          beforeEach(() => { reset(); fixture(); });
          it("adds", () => {
            expect(add(1, 2)).toBe(3);
          });
          it.only(`subtracts`, function () {
            [1].map(sub);
          });
          describe("nested", () => {
            test("again", () => add(0, 0));
          });
        });
        "#,
    );
    let tests: Vec<&str> = out.lines().filter(|l| l.contains(" TESTS ")).collect();
    expect![[r#"
        edge TESTS file:src/calc.test.ts -> file:src/calc.ts import-resolved 0.95
        edge TESTS sym:ts:src/calc.test.ts:$describe Calc -> sym:ts:src/calc.ts:reset L4 import-resolved 0.95
        edge TESTS sym:ts:src/calc.test.ts:$describe Calc.$describe nested.$test again -> sym:ts:src/calc.ts:add L12 import-resolved 0.95
        edge TESTS sym:ts:src/calc.test.ts:$describe Calc.$it adds -> sym:ts:src/calc.ts:add L6 import-resolved 0.95
        edge TESTS sym:ts:src/calc.test.ts:$describe Calc.$it subtracts -> sym:ts:src/calc.ts:sub L9 import-resolved 0.95
    "#]]
    .assert_eq(&(tests.join("\n") + "\n"));
}

/// A call of a parameter or local binding (a callback, a function-valued local) is a call of
/// that value: an edge to a `parameter` node named `container.name` (the nearest named
/// declaration around the binding, as the compiler's oracle names it), never to a module-level
/// declaration the binding shadows, and never dropped (issue 19: 8.5% of the calls of a
/// functional library). A function-valued `const` inside a function is a declaration of its
/// own (`outer.g`); a parameter of a signature or a function type binds nothing; a module-level
/// callback's parameter hangs off nothing (`req`), and a named function nested in a function
/// calls the outer function's parameter. `export { _await as await }` exports `_await` as
/// `await` too.
#[test]
fn calls_of_parameters_and_locals_are_edges_to_them() {
    check(
        r#"
        //- /src/lib.ts
        export function pipe<A, B>(a: A, ab: (a: A) => B): B {
          return ab(a);
        }
        export function each(xs: number[], { onItem }: { onItem: (x: number) => void }) {
          xs.forEach((x) => { onItem(x); });
        }
        function log(x: unknown) {}
        export function outer(cb: () => void) {
          const run = make();
          run();
          const g = () => 1;
          g();
          log(1);
          [1].map((log) => log(2));
          function inner() { cb(); }
          inner();
        }
        export interface Api { m(cb: () => void): void }
        function make() { return () => {}; }
        const _await = () => 1;
        export { _await as await };
        //- /src/app.js
        const lib = require("./lib");
        app.get("/", (req) => req());
        function handler(req, done) { done(); lib.await(); }
        "#,
        expect![[r#"
            edge IMPORTS file:src/app.js -> file:src/lib.ts L1 import-resolved 0.95
            edge CALLS sym:js:src/app.js:$GET / -> sym:js:src/app.js:req L2 same-file 0.95
            edge CALLS sym:js:src/app.js:handler -> sym:js:src/app.js:handler.done L3 same-file 0.95
            edge CALLS sym:js:src/app.js:handler -> sym:ts:src/lib.ts:_await L3 import-resolved 0.95
            edge CALLS sym:ts:src/lib.ts:each -> sym:ts:src/lib.ts:each.onItem L5 same-file 0.95
            edge CALLS sym:ts:src/lib.ts:outer -> sym:ts:src/lib.ts:log L13 same-file 0.95
            edge CALLS sym:ts:src/lib.ts:outer -> sym:ts:src/lib.ts:make L9 same-file 0.95
            edge CALLS sym:ts:src/lib.ts:outer -> sym:ts:src/lib.ts:outer.g L12 same-file 0.95
            edge CALLS sym:ts:src/lib.ts:outer -> sym:ts:src/lib.ts:outer.inner L16 same-file 0.95
            edge CALLS sym:ts:src/lib.ts:outer -> sym:ts:src/lib.ts:outer.log L14 same-file 0.95
            edge CALLS sym:ts:src/lib.ts:outer -> sym:ts:src/lib.ts:outer.run L10 same-file 0.95
            edge CALLS sym:ts:src/lib.ts:outer.inner -> sym:ts:src/lib.ts:outer.cb L15 same-file 0.95
            edge CALLS sym:ts:src/lib.ts:pipe -> sym:ts:src/lib.ts:pipe.ab L2 same-file 0.95
            unresolved src/app.js:2 app.get in file:src/app.js
            unresolved src/lib.ts:5 xs.forEach in sym:ts:src/lib.ts:each
        "#]],
    );
}

/// A private field (`#cache: QueryCache`) types its receiver as a public one does:
/// `this.#cache.notify()` and `this.#retryer?.notify()` resolve through the field's declared
/// type (held-out TanStack Query core: recall 73.9% -> 90.6%).
#[test]
fn private_fields_type_their_receivers() {
    check(
        r#"
        //- /src/cache.ts
        export class QueryCache { notify(x: number) {} }
        //- /src/query.ts
        import { QueryCache } from './cache'
        export class Query {
          #cache: QueryCache
          cache2: QueryCache
          #retryer?: QueryCache
          constructor(c: QueryCache) { this.#cache = c; this.cache2 = c }
          run() { this.#cache.notify(1); this.cache2.notify(2); this.#retryer?.notify(3); this.#go(); }
          #go() {}
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/query.ts -> file:src/cache.ts L1 import-resolved 0.95
            edge IMPORTS file:src/query.ts -> sym:ts:src/cache.ts:QueryCache L1 import-resolved 0.95
            edge REFERS_TO sym:ts:src/query.ts:Query.#cache -> sym:ts:src/cache.ts:QueryCache L3 import-resolved 0.95
            edge REFERS_TO sym:ts:src/query.ts:Query.#retryer -> sym:ts:src/cache.ts:QueryCache L5 import-resolved 0.95
            edge REFERS_TO sym:ts:src/query.ts:Query.cache2 -> sym:ts:src/cache.ts:QueryCache L4 import-resolved 0.95
            edge REFERS_TO sym:ts:src/query.ts:Query.constructor -> sym:ts:src/cache.ts:QueryCache L6 import-resolved 0.95
            edge ACCESSES sym:ts:src/query.ts:Query.constructor -> sym:ts:src/query.ts:Query.#cache L6 this-dispatch 0.90
            edge ACCESSES sym:ts:src/query.ts:Query.constructor -> sym:ts:src/query.ts:Query.cache2 L6 this-dispatch 0.90
            edge CALLS sym:ts:src/query.ts:Query.run -> sym:ts:src/cache.ts:QueryCache.notify L7 typed-receiver 0.85
            edge ACCESSES sym:ts:src/query.ts:Query.run -> sym:ts:src/query.ts:Query.#cache L7 this-dispatch 0.90
            edge CALLS sym:ts:src/query.ts:Query.run -> sym:ts:src/query.ts:Query.#go L7 this-dispatch 0.90
            edge ACCESSES sym:ts:src/query.ts:Query.run -> sym:ts:src/query.ts:Query.#retryer L7 this-dispatch 0.90
            edge ACCESSES sym:ts:src/query.ts:Query.run -> sym:ts:src/query.ts:Query.cache2 L7 this-dispatch 0.90
        "#]],
    );
}

/// Every call site of a TS/JS file is a CALLS edge, an unresolved site or a call outside the
/// workspace (issue 19): the compiler's count of call and `new` expressions, read off the
/// syntax tree, equals the three together, across the shapes that used to vanish (CommonJS
/// requires, untyped parameters, calls of parameters, computed callees, chains on call results,
/// globals, packages, `super(...)`, optional calls, decorators, calls of interfaces).
#[test]
fn every_call_site_is_accounted_for() {
    let out = codegraph_tests::render_call_accounting(
        r#"
        //- /package.json
        {"name": "app"}
        //- /lib/reply.js
        function Reply(res) { this.res = res; }
        Reply.prototype.send = function (payload) { this.res.end(JSON.stringify(payload)); return this; };
        Reply.prototype.code = function (n) { this.res.statusCode = n; return this; };
        module.exports = Reply;
        //- /lib/route.js
        const Reply = require("./reply");
        const { EventEmitter } = require("events");
        const handlers = {};
        function route(request, reply, done) {
          const r = new Reply(request.raw);
          r.send({ ok: true });
          reply.code(404).send("missing");
          handlers[request.kind](reply);
          (0, handlers.x)();
          done();
          request.log?.info("x");
          setTimeout(() => done(), 1);
          [1, 2].map((x) => x * 2);
          (function now() {})();
          new EventEmitter().emit("x");
          import("./reply").then((m) => m.default);
          tag`x ${1}`;
        }
        function tag() {}
        module.exports = route;
        //- /src/a.ts
        import { Base } from "./b";
        interface Shape { area(): number }
        function dec() { return (t: unknown) => t; }
        @dec()
        export class A extends Base {
          constructor(private s: Shape) { super(); this.s.area(); }
          run(cb: (n: number) => void) { cb(1); this.helper()?.toFixed(); Shape(); }
          helper(): number { return Math.max(1, 2); }
        }
        //- /src/b.ts
        export class Base {}
        "#,
    );
    for line in out.lines() {
        let n: Vec<usize> =
            line.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
        assert_eq!(n[0], n[1] + n[2] + n[3], "{line}");
    }
    expect![[r#"
        lib/reply.js: 2 calls = 0 CALLS + 1 unresolved + 1 external
        lib/route.js: 16 calls = 6 CALLS + 4 unresolved + 6 external
        src/a.ts: 8 calls = 5 CALLS + 2 unresolved + 1 external
        src/b.ts: 0 calls = 0 CALLS + 0 unresolved + 0 external
    "#]]
    .assert_eq(&out);
}

/// Calls on call results whose callee writes no return type (issue 19, chains): `return this`
/// in a method returns its class (a JavaScript constructor's prototype method too), `return
/// new X()` returns `X`; a written return type wins; a `return` inside a callback is the
/// callback's, not the method's.
#[test]
fn chains_through_inferred_returns() {
    check(
        r#"
        //- /src/box.ts
        export class Box {
          static make() { return new Box(); }
          grow() { return this; }
          other(): Other { return this as unknown as Other; }
          later() { [1].forEach(() => { return new Other(); }); return undefined; }
          size() { return 1; }
        }
        export class Other { size() { return 2; } }
        export function use() {
          Box.make().grow().size();
          new Box().other().size();
          new Box().later().size();
        }
        //- /lib/reply.js
        function Reply(res) { this.res = res; }
        Reply.prototype.code = function (n) { this.res.statusCode = n; return this; };
        Reply.prototype.send = function (payload) { return this; };
        module.exports = Reply;
        //- /lib/route.js
        const Reply = require("./reply");
        function route(res) {
          const reply = new Reply(res);
          reply.code(404).send("missing");
        }
        "#,
        expect![[r#"
            edge REFERS_TO file:lib/reply.js -> sym:js:lib/reply.js:Reply L2 same-file 0.95
            edge IMPORTS file:lib/route.js -> file:lib/reply.js L1 import-resolved 0.95
            edge CALLS sym:js:lib/route.js:route -> sym:js:lib/reply.js:Reply L3 import-resolved 0.95
            edge CALLS sym:js:lib/route.js:route -> sym:js:lib/reply.js:Reply.code L4 typed-receiver 0.85
            edge CALLS sym:js:lib/route.js:route -> sym:js:lib/reply.js:Reply.send L4 typed-receiver 0.85
            edge CALLS sym:ts:src/box.ts:Box.later -> sym:ts:src/box.ts:Other L5 same-file 0.95
            edge CALLS sym:ts:src/box.ts:Box.make -> sym:ts:src/box.ts:Box L2 same-file 0.95
            edge REFERS_TO sym:ts:src/box.ts:Box.other -> sym:ts:src/box.ts:Other L4 same-file 0.95
            edge CALLS sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Box L11 same-file 0.95
            edge CALLS sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Box L12 same-file 0.95
            edge REFERS_TO sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Box L10 same-file 0.95
            edge CALLS sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Box.grow L10 typed-receiver 0.85
            edge CALLS sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Box.later L12 typed-receiver 0.85
            edge CALLS sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Box.make L10 same-file 0.95
            edge CALLS sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Box.other L11 typed-receiver 0.85
            edge CALLS sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Box.size L10 typed-receiver 0.85
            edge CALLS sym:ts:src/box.ts:use -> sym:ts:src/box.ts:Other.size L11 typed-receiver 0.85
            unresolved src/box.ts:12 Box().later().size in sym:ts:src/box.ts:use
        "#]],
    );
}

/// The first parameter of an array method's callback (`map`, `forEach`, `find`...) is an
/// element of the receiver's array (`T[]`, `Array<T>`, `ReadonlyArray<T>`), as `xs.pop()`
/// returns one: `this.observers.find((x) => x.refresh())` calls `Observer.refresh`
/// (held-out TanStack Query core: recall 90.6% -> 92.0%). A member the element type declares
/// itself (a `map` method of its own) is that member's call, not an element's; a field without
/// a written type is typed by the `new` that initializes it (`store = new Store()`).
#[test]
fn array_callbacks_take_the_element_type() {
    check(
        r#"
        //- /src/observer.ts
        export class Observer { refresh() {} }
        export class Store { map(f: (o: Observer) => void) {} }
        //- /src/query.ts
        import { Observer, Store } from "./observer";
        export class Query {
          observers: Array<Observer> = [];
          frozen: ReadonlyArray<Observer> = [];
          list: Observer[] = [];
          store = new Store();
          run() {
            this.observers.find((x) => x.refresh());
            this.frozen.forEach((o) => o.refresh());
            this.list.map((o) => o.refresh());
            this.store.map((o) => o.refresh());
          }
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/query.ts -> file:src/observer.ts L1 import-resolved 0.95
            edge IMPORTS file:src/query.ts -> sym:ts:src/observer.ts:Observer L1 import-resolved 0.95
            edge IMPORTS file:src/query.ts -> sym:ts:src/observer.ts:Store L1 import-resolved 0.95
            edge REFERS_TO sym:ts:src/observer.ts:Store.map -> sym:ts:src/observer.ts:Observer L2 same-file 0.95
            edge REFERS_TO sym:ts:src/query.ts:Query.frozen -> sym:ts:src/observer.ts:Observer L4 import-resolved 0.95
            edge REFERS_TO sym:ts:src/query.ts:Query.list -> sym:ts:src/observer.ts:Observer L5 import-resolved 0.95
            edge REFERS_TO sym:ts:src/query.ts:Query.observers -> sym:ts:src/observer.ts:Observer L3 import-resolved 0.95
            edge CALLS sym:ts:src/query.ts:Query.run -> sym:ts:src/observer.ts:Observer.refresh L8 typed-receiver 0.85
            edge CALLS sym:ts:src/query.ts:Query.run -> sym:ts:src/observer.ts:Observer.refresh L9 typed-receiver 0.85
            edge CALLS sym:ts:src/query.ts:Query.run -> sym:ts:src/observer.ts:Observer.refresh L10 typed-receiver 0.85
            edge CALLS sym:ts:src/query.ts:Query.run -> sym:ts:src/observer.ts:Observer.refresh L11 typed-receiver 0.85
            edge CALLS sym:ts:src/query.ts:Query.run -> sym:ts:src/observer.ts:Store.map L11 typed-receiver 0.85
            edge ACCESSES sym:ts:src/query.ts:Query.run -> sym:ts:src/query.ts:Query.frozen L9 this-dispatch 0.90
            edge ACCESSES sym:ts:src/query.ts:Query.run -> sym:ts:src/query.ts:Query.list L10 this-dispatch 0.90
            edge ACCESSES sym:ts:src/query.ts:Query.run -> sym:ts:src/query.ts:Query.observers L8 this-dispatch 0.90
            edge ACCESSES sym:ts:src/query.ts:Query.run -> sym:ts:src/query.ts:Query.store L11 this-dispatch 0.90
            edge CALLS sym:ts:src/query.ts:Query.store -> sym:ts:src/observer.ts:Store L6 import-resolved 0.95
            unresolved src/query.ts:8 this.observers.find in sym:ts:src/query.ts:Query.run
            unresolved src/query.ts:9 this.frozen.forEach in sym:ts:src/query.ts:Query.run
            unresolved src/query.ts:10 this.list.map in sym:ts:src/query.ts:Query.run
        "#]],
    );
}

/// A test title is a string, never a name in scope: a call of `parsedType` inside
/// `test("parsedType", ...)` goes to the function, and `test(...)` inside a block titled
/// "test" calls the test runner (external), not the block.
#[test]
fn test_titles_are_never_call_targets() {
    check(
        r#"
        //- /src/parse.ts
        export function parsedType(x: string) { return x; }
        //- /src/parse.test.ts
        import { parsedType } from "./parse";
        import { describe, test } from "vitest";
        test("parsedType", () => {
          parsedType("a");
        });
        describe("test", () => {
          test("inner", () => { parsedType("b"); });
        });
        test("helper", () => { helper(); });
        "#,
        expect![[r#"
            edge IMPORTS file:src/parse.test.ts -> file:src/parse.ts L1 import-resolved 0.95
            edge TESTS file:src/parse.test.ts -> file:src/parse.ts import-resolved 0.95
            edge IMPORTS file:src/parse.test.ts -> sym:ts:src/parse.ts:parsedType L1 import-resolved 0.95
            edge CALLS sym:ts:src/parse.test.ts:$describe test.$test inner -> sym:ts:src/parse.ts:parsedType L7 import-resolved 0.95
            edge TESTS sym:ts:src/parse.test.ts:$describe test.$test inner -> sym:ts:src/parse.ts:parsedType L7 import-resolved 0.95
            edge CALLS sym:ts:src/parse.test.ts:$test parsedType -> sym:ts:src/parse.ts:parsedType L4 import-resolved 0.95
            edge TESTS sym:ts:src/parse.test.ts:$test parsedType -> sym:ts:src/parse.ts:parsedType L4 import-resolved 0.95
            unresolved src/parse.test.ts:9 helper in sym:ts:src/parse.test.ts:$test helper
        "#]],
    );
}

/// An object literal bound to a name with a written type implements that type: its members
/// are the type's (a rename of `Provider.get` takes `provider.get`); an unannotated literal, a
/// generic wrapper the root does not declare (`Partial<Provider>`) and a non-literal value
/// give no edge.
#[test]
fn annotated_object_literals_implement_their_type() {
    check(
        r#"
        //- /src/provider.ts
        export interface Provider {
          get(): number;
          name: string;
        }

        export const provider: Provider = {
          get() {
            return 1;
          },
          name: "p",
        };

        export const loose = { get() { return 2; } };

        export const partial: Partial<Provider> = { name: "q" };

        export const copy: Provider = provider;
        "#,
        expect![[r#"
            edge REFERS_TO sym:ts:src/provider.ts:copy -> sym:ts:src/provider.ts:Provider L17 same-file 0.95
            edge REFERS_TO sym:ts:src/provider.ts:copy -> sym:ts:src/provider.ts:provider L17 same-file 0.95
            edge REFERS_TO sym:ts:src/provider.ts:partial -> sym:ts:src/provider.ts:Provider L15 same-file 0.95
            edge ACCESSES sym:ts:src/provider.ts:partial -> sym:ts:src/provider.ts:Provider.name L15 typed-receiver 0.85
            edge IMPLEMENTS sym:ts:src/provider.ts:provider -> sym:ts:src/provider.ts:Provider L6 same-file 0.95
            edge REFERS_TO sym:ts:src/provider.ts:provider -> sym:ts:src/provider.ts:Provider L6 same-file 0.95
            edge ACCESSES sym:ts:src/provider.ts:provider -> sym:ts:src/provider.ts:Provider.get L7 typed-receiver 0.85
            edge ACCESSES sym:ts:src/provider.ts:provider -> sym:ts:src/provider.ts:Provider.name L10 typed-receiver 0.85
        "#]],
    );
}

/// Receivers typed by a written annotation (issue 44): a property chain through interface
/// property signatures (`config.memo.guard()`, optional and non-null steps too); a value
/// annotated with a generic interface that shares its name with a function (`interface
/// $constructor<T>` beside `function $constructor`: in a type position, the interface), also
/// when the value shares its own name with an interface; `new Class()` of a parameter is a
/// construction of the value it holds.
#[test]
fn declared_types_of_properties_and_twin_names() {
    check(
        r#"
        //- /src/core.ts
        export interface $constructor<T> {
          init(inst: T, def: unknown): void;
        }
        export function $constructor<T>(name: string): $constructor<T> {
          return null as any;
        }
        //- /src/use.ts
        import * as core from "./core";
        interface Memo { guard(x: number): number; }
        interface Config { memo: Memo; maybe?: Memo }
        export interface $ZodType { x: number }
        export const $ZodType: core.$constructor<$ZodType> = core.$constructor("$ZodType");
        export function run(config: Config, inst: any) {
          config.memo.guard(1);
          config.maybe?.guard(2);
          config.maybe!.guard(3);
          $ZodType.init(inst, 4);
        }
        export function make(Class: any) {
          return new Class();
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/use.ts -> file:src/core.ts L1 import-resolved 0.95
            edge CALLS sym:ts:src/use.ts:$ZodType#2 -> sym:ts:src/core.ts:$constructor#2 L5 import-resolved 0.95
            edge REFERS_TO sym:ts:src/use.ts:Config.maybe -> sym:ts:src/use.ts:Memo L3 same-file 0.95
            edge REFERS_TO sym:ts:src/use.ts:Config.memo -> sym:ts:src/use.ts:Memo L3 same-file 0.95
            edge CALLS sym:ts:src/use.ts:make -> sym:ts:src/use.ts:make.Class L13 same-file 0.95
            edge CALLS sym:ts:src/use.ts:run -> sym:ts:src/core.ts:$constructor.init L10 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/use.ts:run -> sym:ts:src/use.ts:$ZodType#2 L10 same-file 0.95
            edge REFERS_TO sym:ts:src/use.ts:run -> sym:ts:src/use.ts:Config L6 same-file 0.95
            edge ACCESSES sym:ts:src/use.ts:run -> sym:ts:src/use.ts:Config.maybe L8 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:run -> sym:ts:src/use.ts:Config.maybe L9 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:run -> sym:ts:src/use.ts:Config.memo L7 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:run -> sym:ts:src/use.ts:Memo.guard L7 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:run -> sym:ts:src/use.ts:Memo.guard L8 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:run -> sym:ts:src/use.ts:Memo.guard L9 typed-receiver 0.85
        "#]],
    );
}

/// Generic types (issue 44): a member typed by a type parameter of the class that declares it
/// is what the receiver's heritage binds it to (`class ZodObject<T> extends ZodType<T,
/// ZodObjectDef<T>>`: `this._def` is a `ZodObjectDef`), through an intermediate class that
/// passes its own parameter on; an unbound parameter is its constraint (`T extends Base`), and
/// a type alias is what it names, and `Partial<T>` / `Readonly<T>` have `T`'s members. A class
/// declared in a function or a test block is the type its body's `new` and annotations name.
#[test]
fn generic_bindings_constraints_aliases_and_local_classes() {
    check(
        r#"
        //- /src/base.ts
        export interface Def { errorMap(): void }
        export abstract class ZodType<Output = any, D extends Def = Def> {
          readonly _def!: D;
          parse(): Output { return null as any; }
        }
        export type ZodTypeAny = ZodType<any, any>;
        //- /src/object.ts
        import { Def, ZodType, ZodTypeAny } from "./base";
        export interface ObjectDef<T extends ZodTypeAny = ZodTypeAny> extends Def {
          shape(): void;
          item: T;
        }
        export class ZodObject<T extends ZodTypeAny> extends ZodType<string, ObjectDef<T>> {
          keys() {
            this._def.shape();
            this._def.errorMap();
            const def = this._def;
            def.item.parse();
          }
        }
        abstract class Middle<M extends Def> extends ZodType<number, M> {}
        export class Leaf extends Middle<ObjectDef> {
          run() { this._def.shape(); }
        }
        export function first<S extends ZodTypeAny>(s: S) {
          s.parse();
        }
        export function alias(a: ZodTypeAny) {
          a.parse();
        }
        export function partial(p: Partial<ObjectDef>, r: Readonly<Def>) {
          p.shape();
          r.errorMap();
        }
        //- /src/local.test.ts
        import { test } from "vitest";
        test("local classes", () => {
          class Box { open() {} }
          class Crate extends Box {}
          new Crate().open();
          const helper = () => new Box();
          helper();
        });
        export function outer() {
          class Inner { m() {} }
          const i = new Inner();
          i.m();
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/object.ts -> file:src/base.ts L1 import-resolved 0.95
            edge IMPORTS file:src/object.ts -> sym:ts:src/base.ts:Def L1 import-resolved 0.95
            edge IMPORTS file:src/object.ts -> sym:ts:src/base.ts:ZodType L1 import-resolved 0.95
            edge IMPORTS file:src/object.ts -> sym:ts:src/base.ts:ZodTypeAny L1 import-resolved 0.95
            edge REFERS_TO sym:ts:src/base.ts:ZodType -> sym:ts:src/base.ts:Def L2 same-file 0.95
            edge REFERS_TO sym:ts:src/base.ts:ZodTypeAny -> sym:ts:src/base.ts:ZodType L6 same-file 0.95
            edge CALLS sym:ts:src/local.test.ts:$test local classes -> sym:ts:src/local.test.ts:$test local classes.Box.open L5 typed-receiver 0.85
            edge CALLS sym:ts:src/local.test.ts:$test local classes -> sym:ts:src/local.test.ts:$test local classes.Crate L5 same-file 0.95
            edge CALLS sym:ts:src/local.test.ts:$test local classes -> sym:ts:src/local.test.ts:$test local classes.helper L7 same-file 0.95
            edge EXTENDS sym:ts:src/local.test.ts:$test local classes.Crate -> sym:ts:src/local.test.ts:$test local classes.Box L4 same-file 0.95
            edge CALLS sym:ts:src/local.test.ts:$test local classes.helper -> sym:ts:src/local.test.ts:$test local classes.Box L6 same-file 0.95
            edge CALLS sym:ts:src/local.test.ts:outer -> sym:ts:src/local.test.ts:outer.Inner L11 same-file 0.95
            edge CALLS sym:ts:src/local.test.ts:outer -> sym:ts:src/local.test.ts:outer.Inner.m L12 typed-receiver 0.85
            edge EXTENDS sym:ts:src/object.ts:Leaf -> sym:ts:src/object.ts:Middle L15 same-file 0.95
            edge REFERS_TO sym:ts:src/object.ts:Leaf -> sym:ts:src/object.ts:ObjectDef L15 same-file 0.95
            edge ACCESSES sym:ts:src/object.ts:Leaf.run -> sym:ts:src/base.ts:ZodType._def L16 this-dispatch 0.90
            edge CALLS sym:ts:src/object.ts:Leaf.run -> sym:ts:src/object.ts:ObjectDef.shape L16 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/object.ts:Middle -> sym:ts:src/base.ts:Def L14 import-resolved 0.95
            edge EXTENDS sym:ts:src/object.ts:Middle -> sym:ts:src/base.ts:ZodType L14 import-resolved 0.95
            edge EXTENDS sym:ts:src/object.ts:ObjectDef -> sym:ts:src/base.ts:Def L2 import-resolved 0.95
            edge REFERS_TO sym:ts:src/object.ts:ObjectDef -> sym:ts:src/base.ts:ZodTypeAny L2 import-resolved 0.95
            edge EXTENDS sym:ts:src/object.ts:ZodObject -> sym:ts:src/base.ts:ZodType L6 import-resolved 0.95
            edge REFERS_TO sym:ts:src/object.ts:ZodObject -> sym:ts:src/base.ts:ZodTypeAny L6 import-resolved 0.95
            edge REFERS_TO sym:ts:src/object.ts:ZodObject -> sym:ts:src/object.ts:ObjectDef L6 same-file 0.95
            edge CALLS sym:ts:src/object.ts:ZodObject.keys -> sym:ts:src/base.ts:Def.errorMap L9 typed-receiver 0.85
            edge ACCESSES sym:ts:src/object.ts:ZodObject.keys -> sym:ts:src/base.ts:ZodType._def L8 this-dispatch 0.90
            edge ACCESSES sym:ts:src/object.ts:ZodObject.keys -> sym:ts:src/base.ts:ZodType._def L9 this-dispatch 0.90
            edge ACCESSES sym:ts:src/object.ts:ZodObject.keys -> sym:ts:src/base.ts:ZodType._def L10 this-dispatch 0.90
            edge CALLS sym:ts:src/object.ts:ZodObject.keys -> sym:ts:src/base.ts:ZodType.parse L11 typed-receiver 0.85
            edge ACCESSES sym:ts:src/object.ts:ZodObject.keys -> sym:ts:src/object.ts:ObjectDef.item L11 typed-receiver 0.85
            edge CALLS sym:ts:src/object.ts:ZodObject.keys -> sym:ts:src/object.ts:ObjectDef.shape L8 typed-receiver 0.85
            edge CALLS sym:ts:src/object.ts:alias -> sym:ts:src/base.ts:ZodType.parse L22 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/object.ts:alias -> sym:ts:src/base.ts:ZodTypeAny L21 import-resolved 0.95
            edge CALLS sym:ts:src/object.ts:first -> sym:ts:src/base.ts:ZodType.parse L19 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/object.ts:first -> sym:ts:src/base.ts:ZodTypeAny L18 import-resolved 0.95
            edge REFERS_TO sym:ts:src/object.ts:partial -> sym:ts:src/base.ts:Def L24 import-resolved 0.95
            edge CALLS sym:ts:src/object.ts:partial -> sym:ts:src/base.ts:Def.errorMap L26 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/object.ts:partial -> sym:ts:src/object.ts:ObjectDef L24 same-file 0.95
            edge CALLS sym:ts:src/object.ts:partial -> sym:ts:src/object.ts:ObjectDef.shape L25 typed-receiver 0.85
        "#]],
    );
}

/// A callback parameter typed by a type parameter of a generic factory is inferred from the
/// call's contextual type (issue 44): the factory call initializes a name annotated with the
/// type the factory returns, whose arguments bind the factory's parameters. An annotation of
/// another type, or no annotation, leaves the parameter at its constraint.
#[test]
fn callback_parameters_inferred_from_the_annotated_result() {
    check(
        r#"
        //- /src/core.ts
        export interface Trait { trait(): void }
        export interface $constructor<T extends Trait> { init(inst: T): void }
        export interface Other<T> { x: T }
        export function $constructor<T extends Trait>(
          name: string,
          initializer: (inst: T, name: string) => void,
        ): $constructor<T> {
          return null as any;
        }
        //- /src/schemas.ts
        import * as core from "./core";
        export interface ZodType extends core.Trait { check(): void }
        export const ZodType: core.$constructor<ZodType> = core.$constructor("ZodType", (inst) => {
          inst.check();
        });
        export const Loose = core.$constructor("Loose", (inst) => {
          inst.trait();
          inst.check();
        });
        export const Mismatch: core.Other<ZodType> = core.$constructor("M", (inst) => {
          inst.check();
        }) as any;
        "#,
        expect![[r#"
            edge IMPORTS file:src/schemas.ts -> file:src/core.ts L1 import-resolved 0.95
            edge REFERS_TO sym:ts:src/core.ts:$constructor -> sym:ts:src/core.ts:Trait L2 same-file 0.95
            edge REFERS_TO sym:ts:src/core.ts:$constructor#2 -> sym:ts:src/core.ts:Trait L4 same-file 0.95
            edge CALLS sym:ts:src/schemas.ts:Loose -> sym:ts:src/core.ts:$constructor#2 L6 import-resolved 0.95
            edge CALLS sym:ts:src/schemas.ts:Loose -> sym:ts:src/core.ts:Trait.trait L7 typed-receiver 0.85
            edge CALLS sym:ts:src/schemas.ts:Mismatch -> sym:ts:src/core.ts:$constructor#2 L10 import-resolved 0.95
            edge REFERS_TO sym:ts:src/schemas.ts:Mismatch -> sym:ts:src/core.ts:Other L10 import-resolved 0.95
            edge EXTENDS sym:ts:src/schemas.ts:ZodType -> sym:ts:src/core.ts:Trait L2 import-resolved 0.95
            edge CALLS sym:ts:src/schemas.ts:ZodType#2 -> sym:ts:src/core.ts:$constructor#2 L3 import-resolved 0.95
            edge CALLS sym:ts:src/schemas.ts:ZodType#2 -> sym:ts:src/schemas.ts:ZodType.check L4 typed-receiver 0.85
            unresolved src/schemas.ts:8 inst.check in sym:ts:src/schemas.ts:Loose
            unresolved src/schemas.ts:11 inst.check in sym:ts:src/schemas.ts:Mismatch
        "#]],
    );
}

/// References a rename must see (issue 43): the types an overload signature names (the
/// implementation's references, every occurrence: the signatures lie outside its lines, where a
/// rename looks for the other uses), a generic type's own
/// name (`Grouped<K>`, not only its arguments), a nested function passed as a value, and a
/// class declared in a function named as a type there; a type parameter is no reference.
#[test]
fn references_of_overloads_generic_names_and_nested_declarations() {
    check(
        r#"
        //- /src/a.ts
        export interface AnyCatcher { x: number }
        export interface SchedulerLike { y: number }
        export interface Grouped<K> { k: K }
        export function combineLatest<T extends AnyCatcher>(arg: T, s?: SchedulerLike): void;
        export function combineLatest(a: any, scheduler?: SchedulerLike): void;
        export function combineLatest(...args: any[]): void {}
        export interface Opts<K> { duration?: (grouped: Grouped<K>) => void }
        export function outer(x: number) {
          const emitBuffer = (y: number) => y;
          class Local { n = 1 }
          const l: Local = new Local();
          [x].map(emitBuffer);
          return l;
        }
        "#,
        expect![[r#"
            edge REFERS_TO sym:ts:src/a.ts:Opts.duration -> sym:ts:src/a.ts:Grouped L7 same-file 0.95
            edge REFERS_TO sym:ts:src/a.ts:combineLatest -> sym:ts:src/a.ts:AnyCatcher L4 same-file 0.95
            edge REFERS_TO sym:ts:src/a.ts:combineLatest -> sym:ts:src/a.ts:SchedulerLike L4 same-file 0.95
            edge REFERS_TO sym:ts:src/a.ts:combineLatest -> sym:ts:src/a.ts:SchedulerLike L5 same-file 0.95
            edge CALLS sym:ts:src/a.ts:outer -> sym:ts:src/a.ts:outer.Local L11 same-file 0.95
            edge REFERS_TO sym:ts:src/a.ts:outer -> sym:ts:src/a.ts:outer.Local L11 same-file 0.95
            edge REFERS_TO sym:ts:src/a.ts:outer -> sym:ts:src/a.ts:outer.emitBuffer L12 same-file 0.95
        "#]],
    );
}

/// Object literals typed by their context (issue 43: a rename of a member takes the keys that
/// write it): an annotated local, an argument (the callee's parameter type; a constructor's
/// for `new`), `as T` (also inside a conditional's branch), a declared return type, an
/// assignment to a typed local or field, an intersection type (its first member), and the
/// literals nested in a typed literal's values (the member's type). A key of an untyped
/// literal writes nothing we know. A local initialized with `x as T` or `<T>x` holds a `T`,
/// one initialized with a conditional what its first branch with a type holds. A field typed
/// `typeof Action` holds the class: `new this.ctor()` gives an `Action`, and
/// `this.ctor.create()` is the static method. A type query of a class's member (`typeof
/// Action.prototype.schedule`, `typeof Action.create`) names that member. A class passing
/// `this` where an interface is expected implements it (once: a declared `implements` is
/// not repeated).
#[test]
fn object_literal_keys_write_the_members_of_their_contextual_type() {
    check(
        r#"
        //- /src/types.ts
        export interface Observer<T> { next(value: T): void; error?: (e: unknown) => void; }
        export interface Inner { depth: number; }
        export interface Options { retries: number; nested: Inner; }
        export class Action {
          static create(): Action { return new Action(); }
          schedule(): void {}
        }
        export function subscribe(observer: Partial<Observer<number>>, opts?: Options): void {}
        export class Client { constructor(opts: Options) {} }
        export class Subject {
          next(value: number): void {}
          lift(): void { subscribe(this); }
        }
        export class Declared implements Observer<number> {
          next(value: number): void {}
          lift(): void { subscribe(this); }
        }
        //- /src/use.ts
        import { Observer, Options, Action, subscribe, Client } from "./types";
        interface Flush { ready: boolean; actual?: number[] }
        export class Runner {
          ctor: typeof Action = Action;
          run(actual: number[]) {
            const flush: Flush = { actual, ready: false };
            subscribe({ next(v) {}, error: (e) => {} }, { retries: 1, nested: { depth: 2 } });
            new Client({ retries: 3 });
            const o = { next: (v: number) => {} } as Observer<number>;
            const c = Math.random() > 0.5 ? ({ retries: 5 } as Options) : undefined;
            const d = <Options>o;
            c.nested.depth = d.retries;
            new this.ctor().schedule();
            this.ctor.create();
            return flush;
          }
          options(): Options {
            return { retries: 6, nested: { depth: 7 } };
          }
          untyped() {
            return { retries: 8 };
          }
          cfg?: Options;
          assigned() {
            let later: Options;
            later = { retries: 9 };
            this.cfg = { retries: 10 };
            const both: Options & { extra: true } = { retries: 11, extra: true };
          }
        }
        interface Helpers {
          make: typeof Action.prototype.schedule;
          build: typeof Action.create;
        }
        "#,
        expect![[r#"
            edge IMPORTS file:src/use.ts -> file:src/types.ts L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/types.ts:Action L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/types.ts:Client L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/types.ts:Observer L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/types.ts:Options L1 import-resolved 0.95
            edge IMPORTS file:src/use.ts -> sym:ts:src/types.ts:subscribe L1 import-resolved 0.95
            edge CALLS sym:ts:src/types.ts:Action.create -> sym:ts:src/types.ts:Action L5 same-file 0.95
            edge REFERS_TO sym:ts:src/types.ts:Action.create -> sym:ts:src/types.ts:Action L5 same-file 0.95
            edge REFERS_TO sym:ts:src/types.ts:Client.constructor -> sym:ts:src/types.ts:Options L9 same-file 0.95
            edge IMPLEMENTS sym:ts:src/types.ts:Declared -> sym:ts:src/types.ts:Observer L14 same-file 0.95
            edge REFERS_TO sym:ts:src/types.ts:Declared -> sym:ts:src/types.ts:Observer L14 same-file 0.95
            edge CALLS sym:ts:src/types.ts:Declared.lift -> sym:ts:src/types.ts:subscribe L16 same-file 0.95
            edge REFERS_TO sym:ts:src/types.ts:Options.nested -> sym:ts:src/types.ts:Inner L3 same-file 0.95
            edge IMPLEMENTS sym:ts:src/types.ts:Subject -> sym:ts:src/types.ts:Observer L12 typed-receiver 0.85
            edge CALLS sym:ts:src/types.ts:Subject.lift -> sym:ts:src/types.ts:subscribe L12 same-file 0.95
            edge REFERS_TO sym:ts:src/types.ts:subscribe -> sym:ts:src/types.ts:Observer L8 same-file 0.95
            edge REFERS_TO sym:ts:src/types.ts:subscribe -> sym:ts:src/types.ts:Options L8 same-file 0.95
            edge REFERS_TO sym:ts:src/use.ts:Helpers.build -> sym:ts:src/types.ts:Action L33 import-resolved 0.95
            edge ACCESSES sym:ts:src/use.ts:Helpers.build -> sym:ts:src/types.ts:Action.create L33 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/use.ts:Helpers.make -> sym:ts:src/types.ts:Action L32 import-resolved 0.95
            edge ACCESSES sym:ts:src/use.ts:Helpers.make -> sym:ts:src/types.ts:Action.schedule L32 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/use.ts:Runner.assigned -> sym:ts:src/types.ts:Options L25 import-resolved 0.95
            edge ACCESSES sym:ts:src/use.ts:Runner.assigned -> sym:ts:src/types.ts:Options.retries L26 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.assigned -> sym:ts:src/types.ts:Options.retries L27 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.assigned -> sym:ts:src/types.ts:Options.retries L28 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.assigned -> sym:ts:src/use.ts:Runner.cfg L27 this-dispatch 0.90
            edge REFERS_TO sym:ts:src/use.ts:Runner.cfg -> sym:ts:src/types.ts:Options L23 import-resolved 0.95
            edge REFERS_TO sym:ts:src/use.ts:Runner.ctor -> sym:ts:src/types.ts:Action L4 import-resolved 0.95
            edge ACCESSES sym:ts:src/use.ts:Runner.options -> sym:ts:src/types.ts:Inner.depth L18 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/use.ts:Runner.options -> sym:ts:src/types.ts:Options L17 import-resolved 0.95
            edge ACCESSES sym:ts:src/use.ts:Runner.options -> sym:ts:src/types.ts:Options.nested L18 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.options -> sym:ts:src/types.ts:Options.retries L18 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Action.create L14 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Action.schedule L13 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Client L8 import-resolved 0.95
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Inner.depth L7 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Inner.depth L12 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Observer L9 import-resolved 0.95
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Observer.error L7 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Observer.next L7 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Observer.next L9 typed-receiver 0.85
            edge REFERS_TO sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Options L10 import-resolved 0.95
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Options.nested L7 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Options.nested L12 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Options.retries L7 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Options.retries L8 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Options.retries L10 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:Options.retries L12 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:Runner.run -> sym:ts:src/types.ts:subscribe L7 import-resolved 0.95
            edge REFERS_TO sym:ts:src/use.ts:Runner.run -> sym:ts:src/use.ts:Flush L6 same-file 0.95
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/use.ts:Flush.actual L6 typed-receiver 0.85
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/use.ts:Flush.ready L6 typed-receiver 0.85
            edge CALLS sym:ts:src/use.ts:Runner.run -> sym:ts:src/use.ts:Runner.ctor L13 this-dispatch 0.90
            edge ACCESSES sym:ts:src/use.ts:Runner.run -> sym:ts:src/use.ts:Runner.ctor L14 this-dispatch 0.90
        "#]],
    );
}
