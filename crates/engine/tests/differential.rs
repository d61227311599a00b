//! Randomized differential test of the incremental engine: seeded sequences of random edits
//! (body edits, renamed functions, renamed and deleted files, new files, syntax errors and
//! their repair, line shifts, Markdown mentions) over a small Go + TypeScript + Markdown +
//! Terraform + shell + Kubernetes + Elixir + Python + Java + Rust + Protobuf tree (Python packages whose
//! `__init__.py` may be deleted or moved, turning a package into a namespace package; Java
//! classes calling across packages through imports, static imports, fields and
//! inheritance; a Rust crate whose modules call each other through `use crate::..` leaves and
//! globs, fields, `Self::new()`, trait impls and default methods, and an integration test
//! naming the crate, whose `Cargo.toml` may rename it; Protobuf packages whose messages name
//! each other's types through an include root, and services whose rpcs are routes that Python
//! servicer and TypeScript server classes handle) (with scripts without an extension,
//! which a line shift above their shebang turns into plain files and back, and manifests a
//! syntax error turns into a left-out template),
//! applied through `Engine::sync_paths` as a watcher reports them; after every step the whole
//! index (every node, edge and unresolved call site, and the snapshot's counts) must equal a
//! full rebuild of the tree as it then is.
//!
//! CI runs a few fixed seeds briefly. A longer run, with other seeds:
//! `CODEGRAPH_DIFF_SEEDS=1..200 CODEGRAPH_DIFF_STEPS=60 cargo test --release -p codegraph-engine
//! --test differential` (a failing seed is printed with its step; rerun it alone with
//! `CODEGRAPH_DIFF_SEEDS=N`).

use codegraph_engine::engine::Engine;
use codegraph_engine::index::IndexOptions;
use codegraph_query::Store;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn opts(full: bool) -> IndexOptions {
    IndexOptions { full, ..IndexOptions::plain() }
}

/// A small seeded generator (PCG-style LCG): the same seed gives the same edits everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// Function names the generated files declare and call: a call may name a function declared
/// in the same file, in another file or package, or nowhere (an unresolved site).
const NAMES: &[&str] = &["alpha", "beta", "gamma", "delta", "omega", "sigma", "tau", "rho"];
const GO_PACKAGES: &[&str] = &["core", "util", "api"];
const TS_DIRS: &[&str] = &["src", "src/lib"];
/// Python packages under the source root `py`.
const PY_DIRS: &[&str] = &["py/app", "py/app/sub"];
/// Java package directories (`com.app`, `com.app.sub`) under the source root `java`.
const JAVA_DIRS: &[&str] = &["java/com/app", "java/com/app/sub"];
/// Rust module directories of the crate `rs` (`crate::..`, `crate::sub::..`).
const RS_DIRS: &[&str] = &["rs/src", "rs/src/sub"];
/// The Rust modules the generated files name: (module path, its type).
const RS_MODULES: &[(&str, &str)] = &[("a", "A"), ("b", "B"), ("sub", "Sub"), ("sub::c", "C")];
/// Protobuf package directories under the include root `proto` (`pa/pa.proto` imports
/// `pb/pb.proto` and back).
const PROTO_DIRS: &[&str] = &["proto/pa", "proto/pb"];
/// Terraform modules: the root module calls the child.
const TF_DIRS: &[&str] = &["infra", "infra/net"];

fn cap(name: &str) -> String {
    let mut c = name.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

/// A Go file of package `pkg`: two functions and a method, calling local, imported and
/// unknown functions.
fn go_file(rng: &mut Rng, pkg: &str) -> String {
    let other = rng.pick(GO_PACKAGES);
    let mut s = format!("package {pkg}\n\n");
    let import = other != pkg;
    if import {
        let _ = writeln!(s, "import \"example.com/m/{other}\"\n");
    }
    for _ in 0..2 {
        let name = cap(rng.pick(NAMES));
        let _ = writeln!(s, "// {name} does things.\nfunc {name}(x int) int {{");
        for _ in 0..1 + rng.below(3) {
            let callee = cap(rng.pick(NAMES));
            if import && rng.below(2) == 0 {
                let _ = writeln!(s, "\tx += {other}.{callee}(x)");
            } else {
                let _ = writeln!(s, "\tx += {callee}(x)");
            }
        }
        s.push_str("\treturn x\n}\n\n");
    }
    let ty = cap(rng.pick(NAMES)) + "T";
    let callee = cap(rng.pick(NAMES));
    let _ = writeln!(
        s,
        "type {ty} struct{{ n int }}\n\nfunc (t *{ty}) Run() int {{ return {callee}(t.n) }}"
    );
    s
}

/// A Protobuf file of the package its directory names: maybe an import of the other
/// package's file, two messages whose fields name local, imported, unknown and scalar types,
/// and a service whose rpc takes them and has an HTTP binding.
fn proto_file(rng: &mut Rng, dir: &str) -> String {
    let pkg = dir.rsplit('/').next().unwrap_or(dir);
    let other = if pkg == "pa" { "pb" } else { "pa" };
    let mut s = format!("syntax = \"proto3\";\npackage {pkg};\n\n");
    let import = rng.below(3) != 0;
    if import {
        let _ = writeln!(s, "import \"{other}/{other}.proto\";\n");
    }
    for _ in 0..2 {
        let name = cap(rng.pick(NAMES));
        let _ = writeln!(s, "// {name} holds things.\nmessage {name} {{");
        for i in 0..1 + rng.below(3) {
            let ty = match rng.below(3) {
                0 => cap(rng.pick(NAMES)),
                1 => format!("{other}.{}", cap(rng.pick(NAMES))),
                _ => "string".to_string(),
            };
            let _ = writeln!(s, "  {ty} f{i} = {};", i + 1);
        }
        s.push_str("}\n\n");
    }
    // Lower-case rpc names, so Python servicer methods (`def alpha(self, x)`) can handle them.
    let (rpc, req, resp) = (rng.pick(NAMES), cap(rng.pick(NAMES)), cap(rng.pick(NAMES)));
    let _ = writeln!(
        s,
        "service {}Svc {{\n  rpc {rpc}({req}) returns ({resp}) {{\n    option (google.api.http) = {{ get: \"/v1/{pkg}/{{id}}\" }};\n  }}\n}}",
        cap(pkg)
    );
    s
}

/// A TypeScript module: an import of a sibling module, two functions, a class whose method
/// calls them, and a generic class hierarchy.
fn ts_file(rng: &mut Rng, dir: &str, modules: &[String]) -> String {
    let mut s = String::new();
    let here = modules.iter().filter(|m| m.starts_with(dir)).collect::<Vec<_>>();
    if let Some(m) = here.get(rng.below(here.len() + 1)) {
        let stem = Path::new(m.as_str()).file_stem().and_then(|x| x.to_str()).unwrap_or("x");
        let imported = rng.pick(NAMES);
        let _ = writeln!(s, "import {{ {imported} }} from './{stem}';\n");
    }
    for _ in 0..2 {
        let name = rng.pick(NAMES);
        let _ = writeln!(s, "/** {name} */\nexport function {name}(x: number): number {{");
        for _ in 0..1 + rng.below(3) {
            let _ = writeln!(s, "  x += {}(x);", rng.pick(NAMES));
        }
        s.push_str("  return x;\n}\n\n");
    }
    let class = cap(rng.pick(NAMES)) + "Service";
    // Sometimes a gRPC server of the Protobuf package `pb`'s service, whose rpcs it may name.
    let server = rng.pick(&["", " implements IPbSvcServer"]);
    let _ = writeln!(
        s,
        "export class {class}{server} {{\n  run(): number {{ return {}(1) + this.stop(); }}\n  stop(): number {{ return 0; }}\n  {}(): number {{ return 1; }}\n}}",
        rng.pick(NAMES),
        rng.pick(NAMES)
    );
    // A generic hierarchy: a member typed by the base's type parameter, bound by the
    // subclass's heritage argument (or its constraint); names drawn so that edits rename the
    // argument, the constraint or the method and the calls lose or gain their target.
    let (def, bound, m, n) =
        (cap(rng.pick(NAMES)), cap(rng.pick(NAMES)), rng.pick(NAMES), rng.pick(NAMES));
    let _ = writeln!(
        s,
        "\nexport interface {def}Def {{ {m}(): number }}\nexport interface {bound}Def {{ {n}(): number }}\n\
         export class Holder<D extends {bound}Def> {{\n  d!: D;\n  base(): number {{ return this.d.{n}(); }}\n}}\n\
         export class {def}Holder extends Holder<{def}Def> {{\n  use(): number {{ return this.d.{m}(); }}\n}}",
    );
    s
}

/// A Terraform file: a variable, a local and a resource referring to (maybe undeclared)
/// variables of its module; in the root module, a call of the child module passing an input
/// and reading one of its outputs.
fn tf_file(rng: &mut Rng, dir: &str) -> String {
    let (v, w, r) = (rng.pick(NAMES), rng.pick(NAMES), rng.pick(NAMES));
    let mut s = format!(
        "variable \"{v}\" {{}}\n\nlocals {{\n  {r}_name = \"${{var.{w}}}-x\"\n}}\n\n\
         resource \"null_resource\" \"{r}\" {{\n  triggers = {{ a = var.{v}, b = local.{r}_name }}\n}}\n\n\
         output \"{r}\" {{ value = null_resource.{r}.id }}\n"
    );
    if dir == "infra" {
        let (input, out) = (rng.pick(NAMES), rng.pick(NAMES));
        let _ = write!(
            s,
            "\nmodule \"net_{r}\" {{\n  source = \"./net\"\n  {input} = var.{v}\n}}\n\n\
             output \"via_{r}\" {{ value = module.net_{r}.{out} }}\n"
        );
    }
    s
}

/// A shell script: two functions calling each other, a sourced library's function and an
/// external command, reading an environment variable. `alpha(` style calls never occur, so
/// body edits rename declarations (`alpha() {`) and callers lose or gain their target.
fn sh_file(rng: &mut Rng, shebang: bool) -> String {
    let (f, g, h) = (rng.pick(NAMES), rng.pick(NAMES), rng.pick(NAMES));
    let env = rng.pick(NAMES).to_ascii_uppercase();
    let head = if shebang { "#!/bin/bash\n" } else { "" };
    format!(
        "{head}source ./lib.sh\n\n{f}() {{\n  {g}\n  kubectl get \"${env}\"\n}}\n\n\
         {g}() {{\n  {h} arg\n}}\n\n{f}\n"
    )
}

/// Manifests: a Deployment with pod labels and a config map reference, and a Service whose
/// selector may or may not match a workload of any file.
fn k8s_file(rng: &mut Rng, n: usize) -> String {
    let (app, sel, cfg) = (rng.pick(NAMES), rng.pick(NAMES), rng.pick(NAMES));
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d{n}\nspec:\n  template:\n    \
         metadata:\n      labels: {{app: {app}}}\n    spec:\n      containers:\n      - image: {app}:1\n        \
         envFrom:\n        - configMapRef: {{name: {cfg}}}\n---\napiVersion: v1\nkind: Service\n\
         metadata:\n  name: s{n}\nspec:\n  selector: {{app: {sel}}}\n---\napiVersion: v1\n\
         kind: ConfigMap\nmetadata:\n  name: {app}\n"
    )
}

/// An Elixir module calling its own, another module's (through an alias) and unknown
/// functions, with a struct.
fn ex_file(rng: &mut Rng, module: &str) -> String {
    let (f, g, h) = (rng.pick(NAMES), rng.pick(NAMES), rng.pick(NAMES));
    let other = rng.pick(&["Gen.A", "Gen.B"]);
    format!(
        "defmodule {module} do\n  alias {other}, as: O\n  defstruct [:x]\n  def {f}(x), do: {g}(x) |> O.{h}()\n  \
         def {g}(x, y \\\\ 1), do: %{module}{{x: x + y}}\nend\n"
    )
}

/// A Python module: a class whose method calls its own, an imported module's and unknown
/// functions, a function constructing it, and a base class; `__init__.py` re-exports.
fn py_file(rng: &mut Rng, name: &str, n: usize) -> String {
    if name == "__init__.py" {
        return rng
            .pick(&["from .a import *\n", "from . import b\n", "\"\"\"Package.\"\"\"\n"])
            .to_string();
    }
    let (f, g, h) = (rng.pick(NAMES), rng.pick(NAMES), rng.pick(NAMES));
    let other = rng.pick(&["app.a", "app.sub.b", "app"]);
    // `pa_pb2_grpc.PaSvcServicer`: a gRPC servicer of the Protobuf package `pa`'s service.
    let base = rng.pick(&["object", "Base", "o.Base", "pa_pb2_grpc.PaSvcServicer"]);
    let class = cap(rng.pick(NAMES));
    format!(
        "from {other} import {g}\nimport {other} as o\n\n\nclass {class}{n}({base}):\n    \
         def {f}(self, x):\n        return self.{g}(x) + o.{h}(x)\n\n\ndef {g}(x):\n    \
         return {class}{n}().{f}(x) + {h}(x)\n\n\nclass Base:\n    def {h}(self, y):\n        \
         return {f}(y) or super().{g}()\n"
    )
}

/// A Java class named after its file: a field of another class, methods calling their own,
/// the field's, a static import's and unknown methods, a construction, a superclass.
fn java_file(rng: &mut Rng, dir: &str, name: &str) -> String {
    let class = name.strip_suffix(".java").unwrap_or(name);
    let package = dir.strip_prefix("java/").unwrap_or(dir).replace('/', ".");
    let (f, g, h) = (rng.pick(NAMES), rng.pick(NAMES), rng.pick(NAMES));
    let other = rng.pick(&["A", "Util", "B"]);
    let import = rng.pick(&["com.app.A", "com.app.Util", "com.app.sub.B", "com.app.*"]);
    let base = rng.pick(&["Object", "A", "com.app.Util"]);
    format!(
        "package {package};\n\nimport {import};\nimport static com.app.Util.{h};\n\n\
         public class {class} extends {base} {{\n    private {other} o = new {other}();\n\n    \
         public int {f}(int x) {{ return this.{g}(x) + o.{h}(x) + {h}(x); }}\n\n    \
         public static int {g}(int x) {{ return new {class}().{f}(x) + {other}.{h}(x); }}\n}}\n"
    )
}

/// A Rust module declaring `ty`: a struct with a field of another module's type, a trait with
/// a default method, an inherent impl (`Self::new()`, `self.method()`, the field's methods, a
/// function named by a path, through the module's `use` alias when it has one, or bare), an
/// impl of its own trait overriding the default, an empty impl of another module's trait (its
/// default bodies are the targets), and a free function.
fn rs_file(rng: &mut Rng, ty: &str) -> String {
    let (f, g, h, t) = (rng.pick(NAMES), rng.pick(NAMES), rng.pick(NAMES), rng.pick(NAMES));
    let (module, other) = rng.pick(RS_MODULES);
    let import = match rng.below(3) {
        0 => format!("use crate::{module}::*;"),
        1 => format!("use crate::{module}::{{{other}, {other}Ops}};"),
        _ => format!("use crate::{module}::{{self as m, {other}, {other}Ops as Ops}};"),
    };
    let tr = if import.contains("as Ops") { "Ops".to_string() } else { format!("{other}Ops") };
    let via =
        if import.contains("self as m") { "m".to_string() } else { format!("crate::{module}") };
    let mods = if ty == "Sub" { "pub mod c;\n\n" } else { "" };
    format!(
        "{mods}{import}\n\n/// {ty} is a type.\npub struct {ty} {{\n    o: {other},\n    n: i32,\n}}\n\n\
         pub trait {ty}Ops {{\n    fn {t}(&self, x: i32) -> i32 {{\n        x\n    }}\n}}\n\n\
         impl {ty} {{\n    pub fn new() -> Self {{\n        {ty} {{ o: {other}::new(), n: 0 }}\n    }}\n\n    \
         pub fn {f}(&self, x: i32) -> i32 {{\n        self.{g}(x) + self.o.{h}(x) + {h}(x)\n    }}\n\n    \
         fn {g}(&self, x: i32) -> i32 {{\n        Self::new().{f}(x) + {via}::{h}(self.n) + self.{t}(x)\n    }}\n}}\n\n\
         impl {ty}Ops for {ty} {{\n    fn {t}(&self, x: i32) -> i32 {{\n        self.o.{t}(x)\n    }}\n}}\n\n\
         impl {tr} for {ty} {{}}\n\npub fn {h}(x: i32) -> i32 {{\n    let t = {ty}::new();\n    \
         t.{t}(x) + {other}::new().{f}(x)\n}}\n"
    )
}

/// The crate root: its `mod` declarations, a re-export and a function calling into modules.
fn rs_lib(rng: &mut Rng) -> String {
    let (f, g) = (rng.pick(NAMES), rng.pick(NAMES));
    let (module, ty) = rng.pick(RS_MODULES);
    format!(
        "pub mod a;\npub mod b;\npub mod sub;\n\npub use {module}::{ty};\n\n\
         pub fn {f}(x: i32) -> i32 {{\n    {ty}::new().{g}(x) + a::{g}(x) + sub::c::{f}(x)\n}}\n"
    )
}

/// An integration test naming the crate by its package name (`rs-gen`, `rs_gen` in paths;
/// `Cargo.toml` edits rename it): TESTS edges, and paths that stop resolving when the crate
/// is renamed.
fn rs_test(rng: &mut Rng) -> String {
    let (f, g) = (rng.pick(NAMES), rng.pick(NAMES));
    let (module, ty) = rng.pick(RS_MODULES);
    format!(
        "use rs_gen::{module}::{ty};\n\n#[test]\nfn {f}_works() {{\n    let t = {ty}::new();\n    \
         assert_eq!(t.{f}(1), rs_gen::{g}(1));\n}}\n"
    )
}

fn md_file(rng: &mut Rng) -> String {
    format!(
        "# Notes\n\nSee `{}` and `{}Service.run`.\n\n```ts\n{}(2);\n```\n",
        rng.pick(NAMES),
        cap(rng.pick(NAMES)),
        rng.pick(NAMES)
    )
}

/// The tree as the test holds it: path -> text.
struct Tree {
    root: PathBuf,
    files: BTreeMap<String, String>,
    counter: usize,
}

impl Tree {
    fn write(&mut self, path: &str, text: String) {
        let abs = self.root.join(path);
        std::fs::create_dir_all(abs.parent().expect("parent")).expect("mkdir");
        std::fs::write(&abs, &text).expect("write");
        self.files.insert(path.to_string(), text);
    }

    fn remove(&mut self, path: &str) {
        std::fs::remove_file(self.root.join(path)).expect("rm");
        self.files.remove(path);
    }

    fn code_paths(&self) -> Vec<String> {
        self.files.keys().filter(|p| !p.ends_with(".mod")).cloned().collect()
    }

    fn modules(&self) -> Vec<String> {
        self.files.keys().filter(|p| p.ends_with(".ts")).cloned().collect()
    }

    fn new_path(&mut self, rng: &mut Rng) -> String {
        self.counter += 1;
        match rng.below(8) {
            0 | 1 => format!("{}/gen{}.go", rng.pick(GO_PACKAGES), self.counter),
            2 | 3 => format!("{}/gen{}.ts", rng.pick(TS_DIRS), self.counter),
            4 => format!("{}/gen{}.tf", rng.pick(TF_DIRS), self.counter),
            5 => format!("scripts/gen{}.sh", self.counter),
            6 if self.counter.is_multiple_of(2) => format!("scripts/gen{}", self.counter),
            6 if self.counter.is_multiple_of(3) => format!("lib/gen{}.ex", self.counter),
            6 if self.counter.is_multiple_of(5) => format!("k8s/gen{}.yaml", self.counter),
            6 => format!("{}/gen{}.py", rng.pick(PY_DIRS), self.counter),
            _ if self.counter.is_multiple_of(2) => {
                format!("{}/Gen{}.java", rng.pick(JAVA_DIRS), self.counter)
            }
            _ if self.counter.is_multiple_of(3) => {
                format!("{}/gen{}.rs", rng.pick(RS_DIRS), self.counter)
            }
            _ if self.counter.is_multiple_of(5) => {
                format!("{}/gen{}.proto", rng.pick(PROTO_DIRS), self.counter)
            }
            _ => format!("docs/gen{}.md", self.counter),
        }
    }

    fn content_for(&self, rng: &mut Rng, path: &str) -> String {
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        let name = path.rsplit('/').next().unwrap_or(path);
        if path.ends_with(".go") {
            go_file(rng, dir)
        } else if path.ends_with(".ts") {
            ts_file(rng, dir, &self.modules())
        } else if path.ends_with(".tf") {
            tf_file(rng, dir)
        } else if path.ends_with(".ex") {
            let name = match path {
                "lib/a.ex" => "Gen.A".to_string(),
                "lib/b.ex" => "Gen.B".to_string(),
                _ => format!("Gen.M{}", self.counter),
            };
            ex_file(rng, &name)
        } else if path.ends_with(".yaml") {
            k8s_file(rng, self.counter)
        } else if path.ends_with(".py") {
            py_file(rng, name, self.counter)
        } else if path.ends_with(".java") {
            java_file(rng, dir, name)
        } else if path.ends_with(".proto") {
            proto_file(rng, dir)
        } else if path == "rs/Cargo.toml" {
            "[package]\nname = \"rs-gen\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".to_string()
        } else if path == "rs/src/lib.rs" {
            rs_lib(rng)
        } else if path.starts_with("rs/tests/") {
            rs_test(rng)
        } else if path.ends_with(".rs") {
            let ty = match RS_MODULES.iter().find(|(m, _)| {
                path == format!("rs/src/{}.rs", m.replace("::", "/"))
                    || path == format!("rs/src/{}/mod.rs", m.replace("::", "/"))
            }) {
                Some((_, ty)) => ty.to_string(),
                None => format!("Gen{}", self.counter),
            };
            rs_file(rng, &ty)
        } else if path.ends_with(".sh") || path == "scripts/lib.sh" {
            sh_file(rng, false)
        } else if !name.contains('.') {
            sh_file(rng, true)
        } else {
            md_file(rng)
        }
    }

    /// One random edit; returns what it did and the paths a watcher would report.
    fn step(&mut self, rng: &mut Rng) -> (String, Vec<String>) {
        let paths = self.code_paths();
        let path = rng.pick(&paths);
        let text = self.files[&path].clone();
        if path.ends_with("Cargo.toml") {
            // The package renamed (or back): paths naming the crate resolve or stop.
            let edited = if text.contains("\"rs-gen\"") {
                text.replacen("\"rs-gen\"", "\"rs-gen2\"", 1)
            } else {
                text.replacen("\"rs-gen2\"", "\"rs-gen\"", 1)
            };
            self.write(&path, edited);
            return (format!("rename crate {path}"), vec![path]);
        }
        match rng.below(9) {
            // A body edit: a call renamed to another (maybe unknown) function.
            0 | 1 => {
                let (a, b) = (rng.pick(NAMES), rng.pick(NAMES));
                let edited = text.replacen(&format!("{a}("), &format!("{b}("), 1);
                let edited = edited.replacen(&format!("{}(", cap(a)), &format!("{}(", cap(b)), 1);
                self.write(&path, edited);
                (format!("body edit {path}: {a} -> {b}"), vec![path])
            }
            // A declaration renamed (its callers elsewhere lose or gain their target).
            2 => {
                let (a, b) = (rng.pick(NAMES), rng.pick(NAMES));
                let edited = text
                    .replacen(&format!("function {a}("), &format!("function {b}("), 1)
                    .replacen(&format!("func {}(", cap(a)), &format!("func {}(", cap(b)), 1)
                    .replacen(&format!("def {a}("), &format!("def {b}("), 1)
                    .replacen(&format!("int {a}("), &format!("int {b}("), 1)
                    .replacen(&format!("fn {a}("), &format!("fn {b}("), 1)
                    .replacen(&format!("message {} ", cap(a)), &format!("message {} ", cap(b)), 1);
                self.write(&path, edited);
                (format!("rename decl {path}: {a} -> {b}"), vec![path])
            }
            // Lines shifted by a comment at the top.
            3 => {
                // (Above a script's shebang it makes the file plain text, and back.)
                let comment = if path.ends_with(".md") {
                    "<!-- x -->\n"
                } else if [".tf", ".sh", ".yaml", ".ex", ".py"].iter().any(|e| path.ends_with(e)) {
                    "# shifted\n"
                } else if !path.rsplit('/').next().unwrap_or("").contains('.') {
                    if let Some(rest) = text.strip_prefix("# shifted\n") {
                        self.write(&path, rest.to_string());
                        return (format!("unshift {path}"), vec![path]);
                    }
                    "# shifted\n"
                } else {
                    "// shifted\n"
                };
                self.write(&path, format!("{comment}{text}"));
                (format!("shift {path}"), vec![path])
            }
            // A syntax error, or its repair.
            4 => {
                let broken = "}} (( syntax error {{\n";
                if let Some(fixed) = text.strip_suffix(broken) {
                    self.write(&path, fixed.to_string());
                    (format!("repair {path}"), vec![path])
                } else {
                    self.write(&path, format!("{text}{broken}"));
                    (format!("break {path}"), vec![path])
                }
            }
            // A new file.
            5 | 6 => {
                let new = self.new_path(rng);
                let text = self.content_for(rng, &new);
                self.write(&new, text);
                (format!("new {new}"), vec![new])
            }
            // A file deleted (keep a few).
            7 if paths.len() > 4 => {
                self.remove(&path);
                (format!("delete {path}"), vec![path])
            }
            // A file moved within its language (a rename on disk).
            _ => {
                let name = path.rsplit('/').next().unwrap_or(&path);
                let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
                let dir = match ext {
                    "go" => rng.pick(GO_PACKAGES).to_string(),
                    "ts" => rng.pick(TS_DIRS).to_string(),
                    "tf" => rng.pick(TF_DIRS).to_string(),
                    "sh" | "" => "scripts".to_string(),
                    "yaml" => "k8s".to_string(),
                    "py" => rng.pick(PY_DIRS).to_string(),
                    "java" => rng.pick(JAVA_DIRS).to_string(),
                    "rs" => rng.pick(RS_DIRS).to_string(),
                    "proto" => rng.pick(PROTO_DIRS).to_string(),
                    _ => "docs".to_string(),
                };
                self.counter += 1;
                let to = if ext.is_empty() {
                    format!("{dir}/moved{}", self.counter)
                } else {
                    format!("{dir}/moved{}.{ext}", self.counter)
                };
                let text = if ext == "go" {
                    // Its package clause follows the directory.
                    let old_pkg = path.rsplit_once('/').map_or("", |(d, _)| d);
                    text.replacen(&format!("package {old_pkg}"), &format!("package {dir}"), 1)
                } else {
                    text
                };
                self.remove(&path);
                self.write(&to, text);
                (format!("move {path} -> {to}"), vec![path, to])
            }
        }
    }
}

/// Everything an index says, as comparable text: every node, edge and unresolved site, and
/// the snapshot's own counts.
fn dump(db: &Path) -> String {
    let mut store = Store::open_read_only(db).expect("open");
    let reader = store.reader().expect("reader");
    let mut out = String::new();
    reader.for_each_node(|n| out.push_str(&format!("{n:?}\n"))).expect("nodes");
    reader.for_each_edge(|e| out.push_str(&format!("{e:?}\n"))).expect("edges");
    reader
        .for_each_unresolved(|file, line, caller, callee| {
            out.push_str(&format!("unresolved {file}:{line} {caller} -> {callee}\n"))
        })
        .expect("unresolved");
    let status = reader.status().expect("status");
    let s = &status.snapshot;
    let _ = writeln!(
        out,
        "counts files={} symbols={} edges={} skipped={} unresolved={}\nnodes {:?}\nedges {:?}",
        s.files,
        s.symbols,
        s.edges,
        s.skipped,
        s.unresolved,
        status.nodes_by_kind,
        status.edges_by_kind
    );
    out
}

fn first_difference(a: &str, b: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let only_a: Vec<&&str> = a.iter().filter(|l| !b.contains(l)).take(5).collect();
    let only_b: Vec<&&str> = b.iter().filter(|l| !a.contains(l)).take(5).collect();
    format!("incremental only:\n{only_a:#?}\nfull rebuild only:\n{only_b:#?}")
}

/// Runs one seed; returns how many of its edits took the surface shortcut.
fn run_seed(seed: u64, steps: usize) -> usize {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical");
    let root = base.join("root");
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5);
    let mut tree = Tree { root: root.clone(), files: BTreeMap::new(), counter: 0 };
    tree.write("go.mod", "module example.com/m\n\ngo 1.21\n".to_string());
    for pkg in GO_PACKAGES {
        let path = format!("{pkg}/{pkg}.go");
        let text = tree.content_for(&mut rng, &path);
        tree.write(&path, text);
    }
    for (i, d) in TS_DIRS.iter().enumerate() {
        for j in 0..2 {
            let path = format!("{d}/m{i}{j}.ts");
            let text = tree.content_for(&mut rng, &path);
            tree.write(&path, text);
        }
    }
    tree.write("README.md", md_file(&mut rng));
    for path in [
        "py/app/__init__.py",
        "py/app/a.py",
        "py/app/sub/__init__.py",
        "py/app/sub/b.py",
        "java/com/app/A.java",
        "java/com/app/Util.java",
        "java/com/app/sub/B.java",
        "rs/Cargo.toml",
        "rs/src/lib.rs",
        "rs/src/a.rs",
        "rs/src/b.rs",
        "rs/src/sub/mod.rs",
        "rs/src/sub/c.rs",
        "rs/tests/it.rs",
        "proto/pa/pa.proto",
        "proto/pb/pb.proto",
    ] {
        let text = tree.content_for(&mut rng, path);
        tree.write(path, text);
    }
    for path in [
        "infra/main.tf",
        "infra/net/main.tf",
        "scripts/lib.sh",
        "scripts/run.sh",
        "bin/deploy",
        "k8s/a.yaml",
        "k8s/b.yaml",
    ] {
        let text = tree.content_for(&mut rng, path);
        tree.write(path, text);
    }
    let db = base.join("index.db");
    let (mut engine, _) = Engine::open(&root, &db, &opts(false)).expect("open");
    // Every edit that takes the surface shortcut also derives every unit and fails on a
    // difference, naming the units the shortcut missed.
    engine.set_verify_surface(true);
    let mut log = Vec::new();
    let mut shortcuts = 0;
    for step in 0..steps {
        let (what, reported) = tree.step(&mut rng);
        log.push(what);
        let abs: Vec<PathBuf> = reported.iter().map(|p| root.join(p)).collect();
        let applied = engine.sync_paths(&abs).unwrap_or_else(|e| {
            panic!("seed {seed}, step {step}: {e:#}\nedits:\n  {}", log.join("\n  "))
        });
        shortcuts += usize::from(applied.own_units_only);
        let full_db = base.join(format!("full-{step}.db"));
        let (full, _) = Engine::open(&root, &full_db, &opts(true)).expect("full build");
        full.release_for_exit();
        let (inc, fresh) = (dump(&db), dump(&full_db));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", full_db.display()));
        }
        assert!(
            inc == fresh,
            "seed {seed}, step {step}: the incremental index differs from a full rebuild\nedits:\n  {}\n{}",
            log.join("\n  "),
            first_difference(&inc, &fresh)
        );
    }
    engine.release_for_exit();
    shortcuts
}

/// `1..5` or `7` or `3,9`: the seeds to run.
fn seeds(spec: &str) -> Vec<u64> {
    spec.split(',')
        .flat_map(|part| match part.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (a.trim().parse().unwrap_or(0), b.trim().parse().unwrap_or(0));
                (a..b).collect::<Vec<u64>>()
            }
            None => part.trim().parse().ok().into_iter().collect(),
        })
        .collect()
}

#[test]
fn random_edit_sequences_equal_a_full_rebuild() {
    let spec = std::env::var("CODEGRAPH_DIFF_SEEDS").unwrap_or_else(|_| "1..9".into());
    let steps = std::env::var("CODEGRAPH_DIFF_STEPS").ok().and_then(|s| s.parse().ok());
    let list = seeds(&spec);
    assert!(!list.is_empty(), "no seeds in CODEGRAPH_DIFF_SEEDS={spec}");
    let mut shortcuts = 0;
    for seed in list {
        shortcuts += run_seed(seed, steps.unwrap_or(30));
    }
    // Body edits and line shifts keep every surface: the shortcut must have been taken (and
    // verified against every unit) many times.
    eprintln!("edits that took the surface shortcut: {shortcuts}");
    assert!(shortcuts >= 10, "only {shortcuts} edits took the surface shortcut");
}

#[test]
fn the_generator_is_deterministic_and_varied() {
    let gen_tree = |seed| {
        let mut rng = Rng(seed);
        (0..4).map(|_| go_file(&mut rng, "core")).collect::<String>()
    };
    assert_eq!(gen_tree(1), gen_tree(1));
    assert_ne!(gen_tree(1), gen_tree(2));
    assert_eq!(seeds("1..4,9"), [1, 2, 3, 9]);
}
