//! Firewall tests: after one kind of edit, the exact set of salsa queries that re-execute while
//! the daemon recomputes every unit's digest, and the exact set of units whose digest changed.
//!
//! Why it exists: incrementality is the product's headline, and it is easy to lose silently (a
//! query that reads another file's facts, a table that holds line numbers, a hot query that
//! reads the whole file list). Each test builds a small workspace, computes every unit digest
//! once (what the daemon does at start), applies one edit the way the daemon would (new text
//! and new metadata; a new file list on add, delete or rename), recomputes every digest, and
//! compares the executed queries, rendered `query(path)` / `query(dir/)` / `query()` by
//! `codegraph_resolve::describe_key`, with the list the test spells out and justifies. A query
//! missing from the list is work the test says must not happen; a list entry that did not run
//! is a firewall the test expected to be crossed.

use codegraph_db::{Content, Database, FileMeta, SourceFile, Workspace};
use codegraph_parse::Language;
use codegraph_resolve::{describe_key, file_unit_digest, node_unit_digest, node_units};
use codegraph_tests::parse_fixture;
use salsa::{Durability, Setter};
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex};

/// Metadata as the scanner computes it: any byte change changes the hash.
fn meta(text: &str) -> FileMeta {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    FileMeta { hash: format!("{:016x}", h.finish()), ..FileMeta::for_text(text) }
}

fn new_file(db: &Database, path: &str, text: &str, durability: Durability) -> SourceFile {
    SourceFile::builder(
        path.to_string(),
        Language::detect(path, text),
        Content::Text(Arc::from(text)),
        meta(text),
    )
    .durability(durability)
    .new(db)
}

/// A database driven the way the daemon drives it, with a log of executed queries.
struct Session {
    db: Database,
    /// The durability of files as loaded (an edited file is always set LOW).
    durability: Durability,
    workspace: Workspace,
    files: BTreeMap<String, SourceFile>,
    log: Arc<Mutex<Vec<salsa::DatabaseKeyIndex>>>,
    /// The digest last published per unit (file path or package ID).
    published: BTreeMap<String, u64>,
}

impl Session {
    fn new(fixture: &str) -> Session {
        Session::with_durability(fixture, Durability::LOW)
    }

    /// Inputs created with `durability` (files and file list), as a daemon may load them.
    fn with_durability(fixture: &str, durability: Durability) -> Session {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        let db = Database::with_event_callback(Box::new(move |e| {
            if let salsa::EventKind::WillExecute { database_key } = e.kind {
                sink.lock().expect("log").push(database_key);
            }
        }));
        let files: BTreeMap<String, SourceFile> = parse_fixture(fixture)
            .into_iter()
            .map(|f| (f.path.clone(), new_file(&db, &f.path, &f.text, durability)))
            .collect();
        let workspace =
            Workspace::builder(files.values().copied().collect()).durability(durability).new(&db);
        let mut session =
            Session { db, durability, workspace, files, log, published: BTreeMap::new() };
        session.published = session.digests();
        session.log.lock().expect("log").clear();
        session
    }

    /// What the daemon computes after every change: the digest of every unit.
    fn digests(&self) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for (path, &file) in &self.files {
            out.insert(path.clone(), file_unit_digest(&self.db, self.workspace, file));
        }
        for &unit in node_units(&self.db, self.workspace) {
            let digest = node_unit_digest(&self.db, unit);
            out.insert(unit.id(&self.db).to_string(), digest);
        }
        out
    }

    /// Replaces `from` (which must occur once) with `to` in a file's text.
    fn edit(&mut self, path: &str, from: &str, to: &str) {
        let file = self.files[path];
        let old = codegraph_db::text(&self.db, file).to_string();
        assert_eq!(old.matches(from).count(), 1, "{from:?} must occur once in {path}");
        let text = old.replacen(from, to, 1);
        file.set_content(&mut self.db)
            .with_durability(Durability::LOW)
            .to(Content::Text(Arc::from(text.as_str())));
        file.set_meta(&mut self.db).with_durability(Durability::LOW).to(meta(&text));
    }

    fn add(&mut self, path: &str, text: &str) {
        let file = new_file(&self.db, path, text, self.durability);
        self.files.insert(path.to_string(), file);
        self.sync_file_list();
    }

    fn delete(&mut self, path: &str) {
        self.files.remove(path);
        self.sync_file_list();
    }

    fn rename(&mut self, from: &str, to: &str) {
        let text = codegraph_db::text(&self.db, self.files[from]).to_string();
        self.files.remove(from);
        self.add(to, &text);
    }

    fn sync_file_list(&mut self) {
        let files: Vec<SourceFile> = self.files.values().copied().collect();
        self.workspace.set_files(&mut self.db).to(files);
    }

    /// Recomputes every digest: the queries that executed (sorted) and the units to rewrite
    /// (digest changed, new, or `-unit` for a unit that is gone).
    fn recompute(&mut self) -> (Vec<String>, Vec<String>) {
        let digests = self.digests();
        let keys = std::mem::take(&mut *self.log.lock().expect("log"));
        let mut ran: Vec<String> = keys.into_iter().map(|k| describe_key(&self.db, k)).collect();
        ran.sort();
        let mut rewrite: Vec<String> = digests
            .iter()
            .filter(|(unit, d)| self.published.get(*unit) != Some(d))
            .map(|(unit, _)| unit.clone())
            .collect();
        rewrite.extend(
            self.published.keys().filter(|u| !digests.contains_key(*u)).map(|u| format!("-{u}")),
        );
        rewrite.sort();
        self.published = digests;
        (ran, rewrite)
    }
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Asserts what re-ran and what must be rewritten.
#[track_caller]
fn check(session: &mut Session, ran: &[&str], rewrite: &[&str]) {
    let (got_ran, got_rewrite) = session.recompute();
    assert_eq!(got_ran, sorted(ran), "executed queries");
    assert_eq!(got_rewrite, sorted(rewrite), "units to rewrite");
}

/// Three packages: `a` imports `b`; `c` is unrelated. `b` declares an interface `I`, a type
/// `T` whose method lives in another file (so `T` implements `I` across files), and
/// functions with bodies to edit.
///
/// In every Go test, `low_durability_pin()` runs once per revision by design: it reports an
/// untracked read so that `interface_index`, which reads it, has LOW durability from the start
/// (see `go::implements`); its value is `()`, so it never makes anything else re-run. A Go file's resolution is memoized as `resolve_core` (IMPORTS, CALLS, EXTENDS,
/// unresolved sites) and `file_implements` (IMPLEMENTS, which depends on every package's
/// interfaces; a file that declares no type skips that dependency); the digest reads both.
const GO: &str = r#"
//- /go.mod
module m

//- /a/a.go
package a

import "m/b"

// A calls into b.
func A() int {
	return b.B()
}
//- /a/a2.go
package a

func Helper() {}
//- /b/b.go
package b

// I is implemented by T.
type I interface {
	M()
}

// T is a type.
type T struct{}

func B() int {
	// call the helper
	return helper()
}

func helper() int { return 1 }

func other() int { return 2 }
//- /b/methods.go
package b

func (t T) M() {}
//- /c/c.go
package c

func C() {}
"#;

/// Four modules: `app` imports `base` (a class it extends) and `util` (a function it calls);
/// `standalone` is unrelated.
const TS: &str = r#"
//- /src/base.ts
export class Base {
  greet(): string {
    return "hi";
  }
}
//- /src/util.ts
export function helper(): number {
  // the answer
  return other();
}

export function other(): number {
  return 2;
}
//- /src/app.ts
import { Base } from "./base";
import { helper } from "./util";

export class App extends Base {
  run(): number {
    this.greet();
    return helper();
  }
}
//- /src/standalone.ts
export function alone(): void {}
"#;

/// The harness itself: with no change, nothing executes and nothing is rewritten.
#[test]
fn no_change_runs_nothing() {
    for fixture in [GO, TS] {
        let mut s = Session::new(fixture);
        check(&mut s, &[], &[]);
    }
}

/// Digests depend on rows only: a second database (other IDs, other interning order, and a
/// fresh `RandomState` if one were used anywhere) gives the same digests, and reverting an edit
/// gives the original digest back.
#[test]
fn digests_depend_on_rows_only() {
    for fixture in [GO, TS] {
        let mut first = Session::new(fixture);
        let second = Session::new(fixture);
        assert_eq!(first.published, second.published);
        let original = first.published.clone();
        let (path, from, to) = if fixture == GO {
            ("b/b.go", "return helper()", "return other()")
        } else {
            ("src/util.ts", "return other();", "return 3;")
        };
        first.edit(path, from, to);
        first.recompute();
        assert_ne!(first.published, original);
        first.edit(path, to, from);
        first.recompute();
        assert_eq!(first.published, original);
    }
}

/// A function-body edit (a call to another function) re-runs the edited file's own per-file
/// queries and nothing else. Each of them reads the facts, so each re-executes, and only the
/// file node (new size and hash) and the resolution (a new CALLS target) change; the file's
/// declarations (`file_decls`) and summary compare equal, so `b`'s package table, its package
/// unit, and the importer `a/a.go` are not touched. `file_implements(b/b.go)` does not re-run:
/// it reads the file's summary and its package's IMPLEMENTS, both equal.
#[test]
fn go_function_body_edit_reruns_only_its_file() {
    let mut s = Session::new(GO);
    s.edit("b/b.go", "return helper()", "return other()");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            "parse(b/b.go)",
            "facts_of(b/b.go)",
            "file_node(b/b.go)",
            "symbol_ids(b/b.go)",
            "file_graph(b/b.go)",
            "file_rows_digest(b/b.go)",
            "file_endpoints(b/b.go)",
            "go_file_summary(b/b.go)",
            "file_imports(b/b.go)",
            "file_decls(b/b.go)",
            "resolve_core(b/b.go)",
            "composed_routes(b/b.go)",
            "file_unit_digest(b/b.go)",
        ],
        &["b/b.go"],
    );
}

/// Whitespace and comment edits that keep every line in place leave the facts equal: only the
/// parse and the facts re-run (and the durability pin), plus the file node, whose size
/// and hash columns did change (so the file unit is rewritten, with only that row different).
#[test]
fn go_comment_and_whitespace_edit_stops_at_the_facts() {
    let mut s = Session::new(GO);
    s.edit("b/b.go", "\t// call the helper\n", "\t// calls   the helper  \n");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            "parse(b/b.go)",
            "facts_of(b/b.go)",
            "file_node(b/b.go)",
            "file_rows_digest(b/b.go)",
            "file_unit_digest(b/b.go)",
        ],
        &["b/b.go"],
    );
}

/// A comment that adds a line moves everything below it: the facts change (symbol and call
/// lines), so the file's per-file queries re-run, and its graph (symbol lines) and resolution
/// (call-site lines) change. Nothing outside the file holds its line numbers: its summary,
/// declarations and IDs compare equal, so no other file and no package re-runs.
#[test]
fn go_line_shifting_comment_reruns_only_its_file() {
    let mut s = Session::new(GO);
    s.edit("b/b.go", "\t// call the helper\n", "\t// call the helper\n\t// (it is cheap)\n");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            "parse(b/b.go)",
            "facts_of(b/b.go)",
            "file_node(b/b.go)",
            "symbol_ids(b/b.go)",
            "file_graph(b/b.go)",
            "file_rows_digest(b/b.go)",
            "file_endpoints(b/b.go)",
            "go_file_summary(b/b.go)",
            "file_imports(b/b.go)",
            "file_decls(b/b.go)",
            "resolve_core(b/b.go)",
            "composed_routes(b/b.go)",
            "file_unit_digest(b/b.go)",
        ],
        &["b/b.go"],
    );
}

/// An exported signature edit that resolution can see (`B`'s result type becomes the named
/// type `T`; resolution does not type-check bodies) changes `b/b.go`'s declarations and so
/// `b`'s package table. Everything that read that table re-executes: the files of `b` (their
/// own package scope), the importer `a/a.go` (it looked up `b.B`), and `b`'s interface list and
/// IMPLEMENTS check. All of them compare equal (so does the interface index), no file's
/// IMPLEMENTS edges re-run, and the only digest that re-runs is `b/b.go`'s (its graph holds the
/// new signature). `a/a2.go` (same package as the importer, no use of `b`) and `c/c.go` are
/// not touched.
#[test]
fn go_exported_signature_edit_reruns_the_packages_readers() {
    let mut s = Session::new(GO);
    s.edit("b/b.go", "func B() int {", "func B() T {");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            "parse(b/b.go)",
            "facts_of(b/b.go)",
            "file_node(b/b.go)",
            "symbol_ids(b/b.go)",
            "file_graph(b/b.go)",
            "file_rows_digest(b/b.go)",
            "file_endpoints(b/b.go)",
            "go_file_summary(b/b.go)",
            "file_imports(b/b.go)",
            "file_decls(b/b.go)",
            "package_table(b/)",
            "package_interfaces(b/)",
            "package_implements(b/)",
            "resolve_core(a/a.go)",
            "resolve_core(b/b.go)",
            "composed_routes(b/b.go)",
            "resolve_core(b/methods.go)",
            "file_unit_digest(b/b.go)",
        ],
        &["b/b.go"],
    );
}

/// A new file in package `b`. The file list changed, so the queries that read it re-run:
/// `go_files`, then the import layout and the package list (both equal: no new directory) and
/// every package's file list (only `b/` changed). `b`'s name, table and unit graph re-run
/// because its file list did; the table changed (a new function), so its readers re-execute
/// and compare equal. The new file's own queries run for the first time (it declares no type,
/// so its `file_implements` does not read `b`'s IMPLEMENTS). Packages `a` and `c` re-run
/// nothing but their file lists.
#[test]
fn go_new_file_reruns_its_package_only() {
    let mut s = Session::new(GO);
    s.add("b/extra.go", "package b\n\nfunc Extra() {}\n");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            "concept_files()",
            "language_dirs(terraform)",
            "go_files()",
            "go_layout()",
            "node_units()",
            "go_dir_files(a/)",
            "go_dir_files(b/)",
            "go_dir_files(c/)",
            "package_name(b/)",
            "package_table(b/)",
            "package_unit_graph(b/)",
            "node_unit_digest(pkg:go:b)",
            "package_interfaces(b/)",
            "package_implements(b/)",
            "resolve_core(a/a.go)",
            "resolve_core(b/b.go)",
            "resolve_core(b/methods.go)",
            "parse(b/extra.go)",
            "facts_of(b/extra.go)",
            "file_node(b/extra.go)",
            "symbol_ids(b/extra.go)",
            "file_graph(b/extra.go)",
            "file_rows_digest(b/extra.go)",
            "file_endpoints(b/extra.go)",
            "go_file_summary(b/extra.go)",
            "file_imports(b/extra.go)",
            "file_decls(b/extra.go)",
            "resolve_core(b/extra.go)",
            "composed_routes(b/extra.go)",
            "file_implements(b/extra.go)",
            "file_unit_digest(b/extra.go)",
        ],
        &["b/extra.go", "pkg:go:b"],
    );
}

/// Deleting `b/methods.go` takes `T.M` away: `b`'s table changes, so `T` no longer implements
/// `I` and the IMPLEMENTS edge leaves `b/b.go`'s rows (that file declares `T`:
/// `file_implements(b/b.go)` changes). `I`'s method set is unchanged, so the interface index
/// compares equal and no other package's IMPLEMENTS check re-runs. The package unit loses a
/// CONTAINS and a HAS_METHOD edge.
#[test]
fn go_deleted_file_reruns_its_package_only() {
    let mut s = Session::new(GO);
    s.delete("b/methods.go");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            "concept_files()",
            "language_dirs(terraform)",
            "go_files()",
            "go_layout()",
            "node_units()",
            "go_dir_files(a/)",
            "go_dir_files(b/)",
            "go_dir_files(c/)",
            "package_name(b/)",
            "package_table(b/)",
            "package_unit_graph(b/)",
            "node_unit_digest(pkg:go:b)",
            "package_interfaces(b/)",
            "package_implements(b/)",
            "resolve_core(a/a.go)",
            "resolve_core(b/b.go)",
            "file_implements(b/b.go)",
            "file_unit_digest(b/b.go)",
        ],
        &["-b/methods.go", "b/b.go", "pkg:go:b"],
    );
}

/// A rename is a delete plus an add under another path: the new file's queries run, package
/// `c`'s table changes (its function now lives in another file) and so does its unit (the
/// CONTAINS edge). Nothing reads `c`'s table besides its interface list (`c` declares no
/// type, so no file of `c` ever asked for its IMPLEMENTS check), and packages `a` and `b`
/// re-run only their file lists.
#[test]
fn go_renamed_file_reruns_its_package_only() {
    let mut s = Session::new(GO);
    s.rename("c/c.go", "c/cc.go");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            "concept_files()",
            "language_dirs(terraform)",
            "go_files()",
            "go_layout()",
            "node_units()",
            "go_dir_files(a/)",
            "go_dir_files(b/)",
            "go_dir_files(c/)",
            "package_name(c/)",
            "package_table(c/)",
            "package_unit_graph(c/)",
            "node_unit_digest(pkg:go:c)",
            "package_interfaces(c/)",
            "parse(c/cc.go)",
            "facts_of(c/cc.go)",
            "file_node(c/cc.go)",
            "symbol_ids(c/cc.go)",
            "file_graph(c/cc.go)",
            "file_rows_digest(c/cc.go)",
            "file_endpoints(c/cc.go)",
            "go_file_summary(c/cc.go)",
            "file_imports(c/cc.go)",
            "file_decls(c/cc.go)",
            "resolve_core(c/cc.go)",
            "composed_routes(c/cc.go)",
            "file_implements(c/cc.go)",
            "file_unit_digest(c/cc.go)",
        ],
        &["-c/c.go", "c/cc.go", "pkg:go:c"],
    );
}

/// A function-body edit in `util.ts` (a new call) re-runs that file's per-file queries only.
/// `app.ts` imports `util.ts` but reads it through `file_index` (exports, symbols without
/// lines, module-level hints) and `symbol_ids`, which compare equal; the hints of function
/// scopes (`file_local_hints`) only `util.ts` would read, and its new call of a declaration
/// (no parameter or local, as the walker marks) does not.
#[test]
fn ts_function_body_edit_reruns_only_its_file() {
    let mut s = Session::new(TS);
    s.edit("src/util.ts", "return 2;", "return helper();");
    check(
        &mut s,
        &[
            "parse(src/util.ts)",
            "facts_of(src/util.ts)",
            "file_node(src/util.ts)",
            "symbol_ids(src/util.ts)",
            "file_graph(src/util.ts)",
            "file_rows_digest(src/util.ts)",
            "file_endpoints(src/util.ts)",
            "composed_routes(src/util.ts)",
            "file_index(src/util.ts)",
            "file_modules(src/util.ts)",
            "resolve_file(src/util.ts)",
            "file_unit_digest(src/util.ts)",
        ],
        &["src/util.ts"],
    );
}

/// A comment line added inside `helper` shifts `helper`'s end and everything below: the file's
/// graph and its call-site lines change. No cross-file table holds lines, so the importer
/// `app.ts` does not re-run.
#[test]
fn ts_line_shifting_comment_reruns_only_its_file() {
    let mut s = Session::new(TS);
    s.edit("src/util.ts", "  // the answer\n", "  // the answer\n  // (for now)\n");
    check(
        &mut s,
        &[
            "parse(src/util.ts)",
            "facts_of(src/util.ts)",
            "file_node(src/util.ts)",
            "symbol_ids(src/util.ts)",
            "file_graph(src/util.ts)",
            "file_rows_digest(src/util.ts)",
            "file_endpoints(src/util.ts)",
            "composed_routes(src/util.ts)",
            "file_index(src/util.ts)",
            "file_modules(src/util.ts)",
            "resolve_file(src/util.ts)",
            "file_unit_digest(src/util.ts)",
        ],
        &["src/util.ts"],
    );
}

/// Renaming the export `helper` that `app.ts` imports changes `util.ts`'s symbols, IDs and
/// exports: `app.ts` re-resolves (its import binding and its call no longer resolve, so its rows
/// change), while `base.ts` and `standalone.ts`, which do not import `util.ts`, do not re-run.
#[test]
fn ts_exported_signature_edit_reruns_its_importers_only() {
    let mut s = Session::new(TS);
    s.edit("src/util.ts", "export function helper()", "export function assist()");
    check(
        &mut s,
        &[
            "parse(src/util.ts)",
            "facts_of(src/util.ts)",
            "file_node(src/util.ts)",
            "symbol_ids(src/util.ts)",
            "file_graph(src/util.ts)",
            "file_rows_digest(src/util.ts)",
            "file_endpoints(src/util.ts)",
            "composed_routes(src/util.ts)",
            "file_index(src/util.ts)",
            "file_modules(src/util.ts)",
            "resolve_file(src/util.ts)",
            "resolve_file(src/app.ts)",
            "file_unit_digest(src/util.ts)",
            "file_unit_digest(src/app.ts)",
        ],
        &["src/app.ts", "src/util.ts"],
    );
}

/// A new module in `src/`: the file list changed, so the path layer re-runs (`ts_files`; the
/// Go file grouping, equal, so the package list does not re-run; the config list, equal, so
/// the tsconfig layer does not re-run), and so does the listing of `src/`. `app.ts` probed
/// `src/` to resolve its imports, so its module resolution re-runs and compares equal; files
/// without imports probed nothing. The new file's queries run for the first time.
#[test]
fn ts_new_file_reruns_module_resolution_of_its_directory_only() {
    let mut s = Session::new(TS);
    s.add("src/extra.ts", "export const extra = 1;\n");
    check(
        &mut s,
        &[
            "concept_files()",
            "language_dirs(terraform)",
            "go_files()",
            "ts_files()",
            "ts_config_files()",
            "ts_dir(src/)",
            "file_modules(src/app.ts)",
            "parse(src/extra.ts)",
            "facts_of(src/extra.ts)",
            "file_node(src/extra.ts)",
            "symbol_ids(src/extra.ts)",
            "file_graph(src/extra.ts)",
            "file_rows_digest(src/extra.ts)",
            "file_endpoints(src/extra.ts)",
            "composed_routes(src/extra.ts)",
            "file_modules(src/extra.ts)",
            "resolve_file(src/extra.ts)",
            "file_unit_digest(src/extra.ts)",
        ],
        &["src/extra.ts"],
    );
}

/// Deleting `util.ts`: `app.ts`'s import of `./util` now leads nowhere, so its module
/// resolution and its rows change. Not finding `src/util.ts` any more, the probe goes on to
/// `src/util/index.ts`, so the listing of `src/util/` is computed for the first time.
#[test]
fn ts_deleted_file_reruns_its_importers() {
    let mut s = Session::new(TS);
    s.delete("src/util.ts");
    check(
        &mut s,
        &[
            "concept_files()",
            "language_dirs(terraform)",
            "go_files()",
            "ts_files()",
            "ts_config_files()",
            "ts_dir(src/)",
            "ts_dir(src/util/)",
            "file_modules(src/app.ts)",
            "resolve_file(src/app.ts)",
            "file_unit_digest(src/app.ts)",
        ],
        &["-src/util.ts", "src/app.ts"],
    );
}

/// Renaming a module nobody imports: the path layer and the listing of `src/` re-run, `app.ts`
/// re-checks its imports (equal), and the new path's queries run.
#[test]
fn ts_renamed_file_reruns_only_the_path_layer() {
    let mut s = Session::new(TS);
    s.rename("src/standalone.ts", "src/alone.ts");
    check(
        &mut s,
        &[
            "concept_files()",
            "language_dirs(terraform)",
            "go_files()",
            "ts_files()",
            "ts_config_files()",
            "ts_dir(src/)",
            "file_modules(src/app.ts)",
            "parse(src/alone.ts)",
            "facts_of(src/alone.ts)",
            "file_node(src/alone.ts)",
            "symbol_ids(src/alone.ts)",
            "file_graph(src/alone.ts)",
            "file_rows_digest(src/alone.ts)",
            "file_endpoints(src/alone.ts)",
            "composed_routes(src/alone.ts)",
            "file_modules(src/alone.ts)",
            "resolve_file(src/alone.ts)",
            "file_unit_digest(src/alone.ts)",
        ],
        &["-src/standalone.ts", "src/alone.ts"],
    );
}

/// With durable inputs (files and file list HIGH, an edited file set LOW, as a daemon that
/// wants cheap re-validation loads them), the first edit of a file lowers the durability of
/// everything derived from it, and salsa does not backdate a value whose durability dropped
/// (its readers relied on it being durable). So the first body edit of `b/b.go` re-runs, once,
/// the readers of its IDs, summary and declarations: `b`'s package queries, the files of `b`,
/// and the importer `a/a.go` with its package `a` (which reads `b`'s package name through its
/// imports). Package `c` does not depend on `b/b.go` and is not touched, and no digest but
/// `b/b.go`'s changes. Without the pin on `interface_index` (LOW from the start), every
/// package's IMPLEMENTS check and every file's IMPLEMENTS edges would re-run too. The second
/// edit of the same file costs what an edit costs with LOW inputs.
#[test]
fn durable_inputs_first_edit_reruns_the_files_dependents_once() {
    let mut s = Session::with_durability(GO, Durability::HIGH);
    s.edit("b/b.go", "return helper()", "return other()");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            // The edited file: its chain re-runs as for any body edit.
            "parse(b/b.go)",
            "facts_of(b/b.go)",
            "file_node(b/b.go)",
            "symbol_ids(b/b.go)",
            "file_graph(b/b.go)",
            "file_rows_digest(b/b.go)",
            "file_endpoints(b/b.go)",
            "go_file_summary(b/b.go)",
            "file_imports(b/b.go)",
            "file_decls(b/b.go)",
            "resolve_core(b/b.go)",
            "composed_routes(b/b.go)",
            "file_implements(b/b.go)",
            "file_unit_digest(b/b.go)",
            // Package `b`: its name, table, unit and IMPLEMENTS layers read the file's summary
            // and declarations; the other file of `b` reads the table.
            "package_name(b/)",
            "package_table(b/)",
            "package_interfaces(b/)",
            "package_implements(b/)",
            "package_unit_graph(b/)",
            "node_unit_digest(pkg:go:b)",
            "resolve_core(b/methods.go)",
            "file_unit_digest(b/methods.go)",
            // The interface lists of `a` and `b` lost durability, so the index re-merges them;
            // it was LOW already, so its equal result is backdated and no IMPLEMENTS re-runs.
            "interface_index()",
            // The importer reads `b`'s name (its imports), `b`'s table and `B`'s ID; through
            // its declarations, package `a`'s table and the other file of `a` follow.
            "file_imports(a/a.go)",
            "file_decls(a/a.go)",
            "resolve_core(a/a.go)",
            "file_unit_digest(a/a.go)",
            "package_table(a/)",
            "package_interfaces(a/)",
            "resolve_core(a/a2.go)",
            "file_unit_digest(a/a2.go)",
        ],
        &["b/b.go"],
    );
    s.edit("b/b.go", "return other()", "return helper()");
    check(
        &mut s,
        &[
            "low_durability_pin()",
            "parse(b/b.go)",
            "facts_of(b/b.go)",
            "file_node(b/b.go)",
            "symbol_ids(b/b.go)",
            "file_graph(b/b.go)",
            "file_rows_digest(b/b.go)",
            "file_endpoints(b/b.go)",
            "go_file_summary(b/b.go)",
            "file_imports(b/b.go)",
            "file_decls(b/b.go)",
            "resolve_core(b/b.go)",
            "composed_routes(b/b.go)",
            "file_unit_digest(b/b.go)",
        ],
        &["b/b.go"],
    );
}

/// A Go package and a README that names two of its functions.
const DOCS: &str = r#"
//- /go.mod
module m

//- /b/b.go
package b

func B() int {
	return helper()
}

func helper() int { return 1 }
//- /README.md
# Usage

Call `b.B` (it calls `helper`).
"#;

/// DOC_RELATED firewall: a function-body edit re-runs the file's `doc_names` and
/// `go_package_of` (they read the facts), which compare equal (names, no lines), so the
/// workspace's name index and the README's resolution do not re-run. (No interface here, so
/// no `low_durability_pin`.)
#[test]
fn go_body_edit_does_not_reresolve_docs() {
    let mut s = Session::new(DOCS);
    s.edit("b/b.go", "return helper()", "n := 1\n\treturn helper() + n");
    check(
        &mut s,
        &[
            "go_package_of(b/b.go)",
            "parse(b/b.go)",
            "facts_of(b/b.go)",
            "file_node(b/b.go)",
            "symbol_ids(b/b.go)",
            "file_graph(b/b.go)",
            "file_rows_digest(b/b.go)",
            "file_endpoints(b/b.go)",
            "go_file_summary(b/b.go)",
            "file_imports(b/b.go)",
            "file_decls(b/b.go)",
            "resolve_core(b/b.go)",
            "composed_routes(b/b.go)",
            "doc_names(b/b.go)",
            "file_unit_digest(b/b.go)",
        ],
        &["b/b.go"],
    );
}

/// Editing a Markdown file re-resolves that file alone: its facts, graph and doc edges, and
/// the names its mentions look up (`doc_lookup_keys`, equal here, so neither the set of names
/// the docs mention nor the name index re-runs).
#[test]
fn markdown_edit_reresolves_only_its_doc_edges() {
    let mut s = Session::new(DOCS);
    s.edit("README.md", "(it calls `helper`)", "(see `helper` and `B`)");
    check(
        &mut s,
        &[
            "parse(README.md)",
            "facts_of(README.md)",
            "file_node(README.md)",
            "symbol_ids(README.md)",
            "file_graph(README.md)",
            "file_rows_digest(README.md)",
            "resolve_file(README.md)",
            "file_unit_digest(README.md)",
            "doc_lookup_keys(README.md)",
        ],
        &["README.md"],
    );
}

/// A new declaration changes the name index, so Markdown files re-resolve (their edges may
/// now resolve differently); the README's edges are unchanged here, so only the Go file's
/// unit is rewritten (the package's members are implied by the file's rows).
#[test]
fn new_declaration_reresolves_docs_without_rewriting_them() {
    let mut s = Session::new(DOCS);
    s.edit(
        "b/b.go",
        "func helper() int { return 1 }",
        "func helper() int { return 1 }\n\nfunc Other() {}",
    );
    let (ran, rewrite) = s.recompute();
    assert!(ran.contains(&"name_index()".to_string()), "{ran:?}");
    assert!(ran.contains(&"resolve_file(README.md)".to_string()), "{ran:?}");
    assert_eq!(rewrite, vec!["b/b.go".to_string()]);
}

/// A Markdown edit that mentions a declared name no doc mentioned before changes the set of
/// mentioned names, so the name index is rebuilt with it and the README's unit is rewritten
/// with the new DOC_RELATED edge (the index keeps only mentioned names: a stale set would
/// lose the edge).
#[test]
fn newly_mentioned_name_enters_the_index_and_links() {
    let mut s = Session::new(DOCS);
    s.edit(
        "b/b.go",
        "func helper() int { return 1 }",
        "func helper() int { return 1 }\n\nfunc Other() {}",
    );
    s.recompute();
    let readme = s.files["README.md"];
    let doc_edges = |s: &Session| -> Vec<String> {
        codegraph_resolve::resolve_file(&s.db, s.workspace, readme)
            .edges
            .iter()
            .filter(|e| e.kind == codegraph_schema::EdgeKind::DocRelated)
            .map(|e| e.dst.to_string())
            .collect()
    };
    assert!(!doc_edges(&s).iter().any(|d| d.ends_with(":Other")), "{:?}", doc_edges(&s));
    s.edit("README.md", "(it calls `helper`)", "(it calls `helper`; see `b.Other`)");
    let (ran, rewrite) = s.recompute();
    assert!(ran.contains(&"mentioned_names()".to_string()), "{ran:?}");
    assert!(ran.contains(&"name_index()".to_string()), "{ran:?}");
    assert_eq!(rewrite, vec!["README.md".to_string()]);
    assert!(doc_edges(&s).iter().any(|d| d.ends_with("b/b.go:Other")), "{:?}", doc_edges(&s));
}

/// A Go package and its test file.
const GO_TESTS: &str = r#"
//- /go.mod
module m

//- /b/b.go
package b

func B() int { return 1 }

func C() int { return 2 }
//- /b/b_test.go
package b

import "testing"

func TestB(t *testing.T) {
	B()
}
"#;

/// Editing a test file (a test now calls another function) re-runs that file's own queries
/// only and rewrites only its unit: its TESTS edges are its own resolution's.
#[test]
fn test_file_edit_rewrites_only_its_tests_edges() {
    let mut s = Session::new(GO_TESTS);
    s.edit("b/b_test.go", "\tB()\n", "\tB()\n\tC()\n");
    check(
        &mut s,
        &[
            "parse(b/b_test.go)",
            "facts_of(b/b_test.go)",
            "file_node(b/b_test.go)",
            "symbol_ids(b/b_test.go)",
            "file_graph(b/b_test.go)",
            "file_rows_digest(b/b_test.go)",
            "file_endpoints(b/b_test.go)",
            "go_file_summary(b/b_test.go)",
            "file_imports(b/b_test.go)",
            "file_decls(b/b_test.go)",
            "resolve_core(b/b_test.go)",
            "composed_routes(b/b_test.go)",
            "file_unit_digest(b/b_test.go)",
        ],
        &["b/b_test.go"],
    );
}

/// A Terraform root module with a child module, and two shell scripts (one sources the other).
const INFRA: &str = r#"
//- /main.tf
variable "name" {}
module "vpc" {
  source = "./vpc"
  name   = var.name
}
output "id" { value = module.vpc.id }
//- /other.tf
resource "null_resource" "r" { triggers = { n = var.name } }
//- /vpc/main.tf
variable "name" {}
resource "aws_vpc" "this" { tags = { Name = var.name } }
output "id" { value = aws_vpc.this.id }
//- /run.sh
source ./lib.sh
main() { log hi; kubectl get pods; }
main
//- /lib.sh
log() { echo "$@"; }
//- /k8s/web.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - image: web:1.0
//- /k8s/svc.yaml
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
//- /lib/a.ex
defmodule A do
  alias B.Util
  def run(x), do: Util.go(x)
end
//- /lib/b.ex
defmodule B.Util do
  def go(x), do: x + 1
end
"#;

/// An edit inside a block that keeps every address re-runs that file's chain only; its
/// module's table compares equal, so the other files of the module do not re-resolve.
#[test]
fn terraform_block_edit_reruns_only_its_file() {
    let mut s = Session::new(INFRA);
    s.edit("other.tf", "n = var.name", "n = \"fixed\"");
    check(
        &mut s,
        &[
            "parse(other.tf)",
            "facts_of(other.tf)",
            "file_node(other.tf)",
            "symbol_ids(other.tf)",
            "file_graph(other.tf)",
            "file_rows_digest(other.tf)",
            "tf_decls(other.tf)",
            "resolve_file(other.tf)",
            "file_unit_digest(other.tf)",
        ],
        &["other.tf"],
    );
}

/// A new variable changes the module's table: the module's files re-resolve (a reference may
/// now resolve), the child module and the scripts do not.
#[test]
fn terraform_new_address_reresolves_its_module_only() {
    let mut s = Session::new(INFRA);
    s.edit("other.tf", "resource \"null", "variable \"extra\" {}\nresource \"null");
    check(
        &mut s,
        &[
            "parse(other.tf)",
            "facts_of(other.tf)",
            "file_node(other.tf)",
            "symbol_ids(other.tf)",
            "file_graph(other.tf)",
            "file_rows_digest(other.tf)",
            "tf_decls(other.tf)",
            "resolve_file(other.tf)",
            "file_unit_digest(other.tf)",
            "tf_table(./)",
            "resolve_file(main.tf)",
        ],
        &["other.tf"],
    );
}

/// A new external command in a script adds a concept unit and rewrites the script's unit only.
#[test]
fn shell_new_command_adds_its_concept() {
    let mut s = Session::new(INFRA);
    s.edit("run.sh", "kubectl get pods;", "kubectl get pods; helm list;");
    check(
        &mut s,
        &[
            "parse(run.sh)",
            "facts_of(run.sh)",
            "file_node(run.sh)",
            "symbol_ids(run.sh)",
            "file_graph(run.sh)",
            "file_rows_digest(run.sh)",
            "sh_decls(run.sh)",
            "resolve_file(run.sh)",
            "file_unit_digest(run.sh)",
            "file_concepts(run.sh)",
            "node_units()",
            "concept_graph(concept:cmd:helm)",
            "node_unit_digest(concept:cmd:helm)",
        ],
        &["concept:cmd:helm", "run.sh"],
    );
}

/// Renaming a sourced function re-resolves the scripts that see it; its old callers now name
/// an unknown command (a concept), and the file that defines it is rewritten.
#[test]
fn shell_function_rename_reresolves_its_callers() {
    let mut s = Session::new(INFRA);
    s.edit("lib.sh", "log()", "say()");
    check(
        &mut s,
        &[
            "parse(lib.sh)",
            "facts_of(lib.sh)",
            "file_node(lib.sh)",
            "symbol_ids(lib.sh)",
            "file_graph(lib.sh)",
            "file_rows_digest(lib.sh)",
            "sh_decls(lib.sh)",
            "sh_functions()",
            "resolve_file(lib.sh)",
            "resolve_file(run.sh)",
            "file_unit_digest(lib.sh)",
            "file_unit_digest(run.sh)",
            "file_concepts(run.sh)",
            "node_units()",
            "concept_graph(concept:cmd:log)",
            "node_unit_digest(concept:cmd:log)",
        ],
        &["concept:cmd:log", "lib.sh", "run.sh"],
    );
}

/// A manifest edit that changes nothing the facts keep (replicas) stops at the facts: only
/// the file node (its hash) is rewritten.
#[test]
fn kubernetes_edit_without_new_names_reruns_only_its_file() {
    let mut s = Session::new(INFRA);
    s.edit("k8s/web.yaml", "replicas: 2", "replicas: 3");
    check(
        &mut s,
        &[
            "parse(k8s/web.yaml)",
            "facts_of(k8s/web.yaml)",
            "file_node(k8s/web.yaml)",
            "file_rows_digest(k8s/web.yaml)",
            "file_unit_digest(k8s/web.yaml)",
        ],
        &["k8s/web.yaml"],
    );
}

/// A pod label change re-resolves every manifest (selectors read the table): the Service's
/// unit loses its edge to the Deployment.
#[test]
fn kubernetes_label_change_reresolves_selectors() {
    let mut s = Session::new(INFRA);
    s.edit("k8s/web.yaml", "labels: {app: web}", "labels: {app: api}");
    check(
        &mut s,
        &[
            "parse(k8s/web.yaml)",
            "facts_of(k8s/web.yaml)",
            "file_node(k8s/web.yaml)",
            "symbol_ids(k8s/web.yaml)",
            "file_graph(k8s/web.yaml)",
            "file_rows_digest(k8s/web.yaml)",
            "k8s_decls(k8s/web.yaml)",
            "k8s_table()",
            "resolve_file(k8s/web.yaml)",
            "resolve_file(k8s/svc.yaml)",
            "file_unit_digest(k8s/web.yaml)",
            "file_unit_digest(k8s/svc.yaml)",
            // The Service's rows changed, its concepts (none) did not: the unit list stays.
            "file_concepts(k8s/svc.yaml)",
        ],
        &["k8s/svc.yaml", "k8s/web.yaml"],
    );
}

/// An Elixir body edit keeps the file's names: its declaration list compares equal, the
/// workspace table is not rebuilt and only the edited file re-resolves.
#[test]
fn elixir_body_edit_reruns_only_its_file() {
    let mut s = Session::new(INFRA);
    s.edit("lib/b.ex", "x + 1", "x + 2");
    check(
        &mut s,
        &[
            "parse(lib/b.ex)",
            "facts_of(lib/b.ex)",
            "file_node(lib/b.ex)",
            "file_rows_digest(lib/b.ex)",
            "file_unit_digest(lib/b.ex)",
        ],
        &["lib/b.ex"],
    );
}

/// Renaming a function changes the table: its callers re-resolve and lose their edge.
#[test]
fn elixir_rename_reresolves_callers() {
    let mut s = Session::new(INFRA);
    s.edit("lib/b.ex", "def go(x)", "def went(x)");
    check(
        &mut s,
        &[
            "parse(lib/b.ex)",
            "facts_of(lib/b.ex)",
            "file_node(lib/b.ex)",
            "symbol_ids(lib/b.ex)",
            "file_graph(lib/b.ex)",
            "file_rows_digest(lib/b.ex)",
            "file_endpoints(lib/b.ex)",
            "ex_decls(lib/b.ex)",
            "ex_users(lib/b.ex)",
            "ex_table()",
            "resolve_file(lib/a.ex)",
            "resolve_file(lib/b.ex)",
            "file_unit_digest(lib/a.ex)",
            "file_unit_digest(lib/b.ex)",
        ],
        &["lib/a.ex", "lib/b.ex"],
    );
}

const PY: &str = r#"
//- /app/__init__.py
from .models import Cart
//- /app/models.py
class Cart:
    def add(self, x):
        return self.total(x)

    def total(self, x):
        return x + 1
//- /app/views.py
from app.models import Cart


def show():
    return Cart().add(1)
"#;

/// A Python body edit (a call added, the returned value unchanged) keeps the file's table
/// (`py_index`: names, classes, members, hints and returned values without lines) equal: only
/// the edited file re-resolves (its symbol rows are
/// re-derived from the new facts and compare equal).
#[test]
fn python_body_edit_reruns_only_its_file() {
    let mut s = Session::new(PY);
    s.edit("app/models.py", "return self.total(x)", "self.add(x)\n        return self.total(x)");
    check(
        &mut s,
        &[
            "parse(app/models.py)",
            "facts_of(app/models.py)",
            "file_node(app/models.py)",
            "symbol_ids(app/models.py)",
            "file_graph(app/models.py)",
            "file_rows_digest(app/models.py)",
            "file_endpoints(app/models.py)",
            "py_index(app/models.py)",
            "composed_routes(app/models.py)",
            "resolve_file(app/models.py)",
            "file_unit_digest(app/models.py)",
        ],
        &["app/models.py"],
    );
}

/// A new Rust module file (`src/extra.rs`, no `mod extra;` yet): the layout re-runs (the file
/// list changed) and every per-key reader of it compares equal except for what names the new
/// module; the existing files re-resolve nothing. The module key reads as `root path`.
#[test]
fn rust_new_file_reresolves_nothing_else() {
    let mut s = Session::new(RUST);
    s.add("src/extra.rs", "pub fn extra() -> u32 {\n    1\n}\n");
    check(
        &mut s,
        &[
            "composed_routes(src/extra.rs)",
            "concept_files()",
            // The layout re-runs; its per-key readers compare equal.
            "crate_roots()",
            "file_endpoints(src/extra.rs)",
            "facts_of(src/extra.rs)",
            "file_graph(src/extra.rs)",
            "file_rows_digest(src/extra.rs)",
            "file_module(src/cart.rs)",
            "file_module(src/view.rs)",
            "file_node(src/extra.rs)",
            "file_unit_digest(src/extra.rs)",
            "go_files()",
            "impl_heads(src/extra.rs)",
            "impl_table()",
            "language_dirs(terraform)",
            // The modules the existing files looked up: the crate root and `cart`.
            "module_files(src/ )",
            "module_files(src/ cart)",
            "parse(src/extra.rs)",
            "resolve_file(src/extra.rs)",
            "rust_index(src/extra.rs)",
            "rust_layout()",
            "symbol_ids(src/extra.rs)",
        ],
        &["src/extra.rs"],
    );
}

/// Renaming a method changes the file's table: the files that read it re-resolve (the view
/// loses its edge to `Cart.add`).
#[test]
fn python_method_rename_reresolves_its_readers() {
    let mut s = Session::new(PY);
    s.edit("app/models.py", "def add(self, x)", "def put(self, x)");
    check(
        &mut s,
        &[
            "parse(app/models.py)",
            "facts_of(app/models.py)",
            "file_node(app/models.py)",
            "symbol_ids(app/models.py)",
            "file_graph(app/models.py)",
            "file_rows_digest(app/models.py)",
            "file_endpoints(app/models.py)",
            "py_index(app/models.py)",
            "composed_routes(app/models.py)",
            "resolve_file(app/__init__.py)",
            "resolve_file(app/models.py)",
            "resolve_file(app/views.py)",
            "file_unit_digest(app/models.py)",
            "file_unit_digest(app/views.py)",
        ],
        &["app/models.py", "app/views.py"],
    );
}

const JAVA: &str = r#"
//- /src/com/shop/Cart.java
package com.shop;

public class Cart {
    public int add(int x) {
        return total(x);
    }

    int total(int x) {
        return x + 1;
    }
}
//- /src/com/shop/web/View.java
package com.shop.web;

import com.shop.Cart;

public class View {
    int show() {
        return new Cart().add(1);
    }
}
"#;

/// A Java body edit keeps the file's table (`java_index`: package, imports, types, members,
/// field and return types, no lines) equal: the package table is not rebuilt and only the
/// edited file re-resolves.
#[test]
fn java_body_edit_reruns_only_its_file() {
    let mut s = Session::new(JAVA);
    s.edit("src/com/shop/Cart.java", "return total(x);", "total(x);\n        return total(x);");
    check(
        &mut s,
        &[
            "parse(src/com/shop/Cart.java)",
            "facts_of(src/com/shop/Cart.java)",
            "file_node(src/com/shop/Cart.java)",
            "symbol_ids(src/com/shop/Cart.java)",
            "file_graph(src/com/shop/Cart.java)",
            "file_rows_digest(src/com/shop/Cart.java)",
            "file_endpoints(src/com/shop/Cart.java)",
            "java_index(src/com/shop/Cart.java)",
            "composed_routes(src/com/shop/Cart.java)",
            "resolve_file(src/com/shop/Cart.java)",
            "file_unit_digest(src/com/shop/Cart.java)",
        ],
        &["src/com/shop/Cart.java"],
    );
}

/// Renaming a method changes the file's table: the files that read it re-resolve (the view
/// loses its edge to `Cart.add`).
#[test]
fn java_method_rename_reresolves_its_readers() {
    let mut s = Session::new(JAVA);
    s.edit("src/com/shop/Cart.java", "public int add(int x)", "public int put(int x)");
    check(
        &mut s,
        &[
            "parse(src/com/shop/Cart.java)",
            "facts_of(src/com/shop/Cart.java)",
            "file_node(src/com/shop/Cart.java)",
            "symbol_ids(src/com/shop/Cart.java)",
            "file_graph(src/com/shop/Cart.java)",
            "file_rows_digest(src/com/shop/Cart.java)",
            "file_endpoints(src/com/shop/Cart.java)",
            "java_index(src/com/shop/Cart.java)",
            "composed_routes(src/com/shop/Cart.java)",
            // The package clause is unchanged: the package table stays.
            "java_package(src/com/shop/Cart.java)",
            // The package's type table reads the file's index again and comes out equal.
            "package_types(com.shop)",
            "resolve_file(src/com/shop/Cart.java)",
            "resolve_file(src/com/shop/web/View.java)",
            "file_unit_digest(src/com/shop/Cart.java)",
            "file_unit_digest(src/com/shop/web/View.java)",
        ],
        &["src/com/shop/Cart.java", "src/com/shop/web/View.java"],
    );
}

/// A crate: `view` names `Cart` through a `use crate::..` leaf and calls its method and reads
/// its field through a typed parameter.
const RUST: &str = r#"
//- /Cargo.toml
[package]
name = "shop"
version = "0.1.0"
//- /src/lib.rs
pub mod cart;
pub mod view;
//- /src/cart.rs
pub struct Cart {
    pub items: Vec<u32>,
}

impl Cart {
    pub fn add(&mut self, x: u32) -> u32 {
        self.total(x)
    }

    fn total(&self, x: u32) -> u32 {
        x + 1
    }
}
//- /src/view.rs
use crate::cart::Cart;

pub fn show(c: &mut Cart) -> u32 {
    c.add(1) + c.items.len() as u32
}
"#;

/// A Rust body edit keeps the file's table (`rust_index`: items, `use` leaves, impl blocks
/// and their items, field, return and alias types, generics, no lines) and its impl heads
/// equal: the workspace's impl table is not rebuilt and only the edited file re-resolves.
#[test]
fn rust_body_edit_reruns_only_its_file() {
    let mut s = Session::new(RUST);
    s.edit(
        "src/cart.rs",
        "        self.total(x)\n",
        "        self.total(x);\n        self.total(x)\n",
    );
    check(
        &mut s,
        &[
            "parse(src/cart.rs)",
            "facts_of(src/cart.rs)",
            "file_node(src/cart.rs)",
            "symbol_ids(src/cart.rs)",
            "file_graph(src/cart.rs)",
            "file_rows_digest(src/cart.rs)",
            "file_endpoints(src/cart.rs)",
            "rust_index(src/cart.rs)",
            // Reads the facts; its answer (the impl blocks' self types) is unchanged, so the
            // impl table stays.
            "impl_heads(src/cart.rs)",
            "composed_routes(src/cart.rs)",
            "resolve_file(src/cart.rs)",
            "file_unit_digest(src/cart.rs)",
        ],
        &["src/cart.rs"],
    );
}

/// Renaming a method changes the file's table: the files that read it re-resolve (the view
/// loses its edge to `Cart.add`); the module layout and the impl table stay.
#[test]
fn rust_method_rename_reresolves_its_readers() {
    let mut s = Session::new(RUST);
    s.edit("src/cart.rs", "pub fn add(", "pub fn put(");
    check(
        &mut s,
        &[
            "parse(src/cart.rs)",
            "facts_of(src/cart.rs)",
            "file_node(src/cart.rs)",
            "symbol_ids(src/cart.rs)",
            "file_graph(src/cart.rs)",
            "file_rows_digest(src/cart.rs)",
            "file_endpoints(src/cart.rs)",
            "rust_index(src/cart.rs)",
            "impl_heads(src/cart.rs)",
            "composed_routes(src/cart.rs)",
            "resolve_file(src/cart.rs)",
            "resolve_file(src/view.rs)",
            "file_unit_digest(src/cart.rs)",
            "file_unit_digest(src/view.rs)",
        ],
        &["src/cart.rs", "src/view.rs"],
    );
}

/// A field added to a struct changes its file's table: the view, which reads `Cart`'s fields
/// through its parameter's type, re-resolves; its rows (the call and the field read) compare
/// equal, so its digest is not recomputed and only the struct's file is rewritten.
#[test]
fn rust_field_added_reresolves_its_readers() {
    let mut s = Session::new(RUST);
    s.edit(
        "src/cart.rs",
        "    pub items: Vec<u32>,\n",
        "    pub items: Vec<u32>,\n    pub count: u32,\n",
    );
    check(
        &mut s,
        &[
            "parse(src/cart.rs)",
            "facts_of(src/cart.rs)",
            "file_node(src/cart.rs)",
            "symbol_ids(src/cart.rs)",
            "file_graph(src/cart.rs)",
            "file_rows_digest(src/cart.rs)",
            "file_endpoints(src/cart.rs)",
            "rust_index(src/cart.rs)",
            "impl_heads(src/cart.rs)",
            "composed_routes(src/cart.rs)",
            "resolve_file(src/cart.rs)",
            "resolve_file(src/view.rs)",
            "file_unit_digest(src/cart.rs)",
        ],
        &["src/cart.rs"],
    );
}

const PROTO: &str = r#"
//- /proto/a/a.proto
syntax = "proto3";
package a;

import "b/b.proto";

message Req {
  b.Item item = 1;
}

service Svc {
  rpc Get(Req) returns (b.Item);
}
//- /proto/b/b.proto
syntax = "proto3";
package b;

message Item {
  string name = 1;
}
//- /proto/c/c.proto
syntax = "proto3";
package c;

message Other {
  int32 n = 1;
}
"#;

/// A field added to a message keeps its file's declarations (`proto_decls`: full type names
/// and public imports) equal, so the type table is not rebuilt: the edited file re-resolves,
/// and so does the file whose edges point at its symbols (their IDs are read by index, which
/// the new field shifts), but not the file that names nothing of it; only the edited file's
/// rows change.
#[test]
fn protobuf_field_added_reresolves_only_its_readers() {
    let mut s = Session::new(PROTO);
    s.edit("proto/b/b.proto", "string name = 1;", "string name = 1;\n  int64 size = 2;");
    check(
        &mut s,
        &[
            "parse(proto/b/b.proto)",
            "facts_of(proto/b/b.proto)",
            "file_node(proto/b/b.proto)",
            "symbol_ids(proto/b/b.proto)",
            "file_graph(proto/b/b.proto)",
            "file_rows_digest(proto/b/b.proto)",
            "file_endpoints(proto/b/b.proto)",
            "proto_decls(proto/b/b.proto)",
            "resolve_file(proto/a/a.proto)",
            "resolve_file(proto/b/b.proto)",
            "file_unit_digest(proto/b/b.proto)",
        ],
        &["proto/b/b.proto"],
    );
}

/// A message renamed changes the workspace's type table: every Protobuf file re-resolves,
/// and only the importer's rows change (it loses its REFERS_TO edges).
#[test]
fn protobuf_message_rename_reresolves_its_readers() {
    let mut s = Session::new(PROTO);
    s.edit("proto/b/b.proto", "message Item", "message Entry");
    check(
        &mut s,
        &[
            "parse(proto/b/b.proto)",
            "facts_of(proto/b/b.proto)",
            "file_node(proto/b/b.proto)",
            "symbol_ids(proto/b/b.proto)",
            "file_graph(proto/b/b.proto)",
            "file_rows_digest(proto/b/b.proto)",
            "file_endpoints(proto/b/b.proto)",
            "proto_decls(proto/b/b.proto)",
            "proto_table()",
            "resolve_file(proto/a/a.proto)",
            "resolve_file(proto/b/b.proto)",
            "resolve_file(proto/c/c.proto)",
            "file_unit_digest(proto/a/a.proto)",
            "file_unit_digest(proto/b/b.proto)",
        ],
        &["proto/a/a.proto", "proto/b/b.proto"],
    );
}

const GRPC_TS: &str = r#"
//- /protos/hello.proto
syntax = "proto3";
package hello;
service Greeter {
  rpc SayHello (Req) returns (Req);
}
message Req {}
//- /src/server.ts
import { IGreeterServer } from './gen/hello_grpc_pb';
export class GreeterImpl implements IGreeterServer {
  sayHello(call: any, cb: any): void {}
}
//- /src/app.ts
import express from 'express';
const app = express();
app.get('/users', (req, res) => { res.json({}); });
"#;

/// A servicer class reads the gRPC routes only (`grpc_route_table`, which compares equal
/// while they do): an HTTP route's path changing elsewhere rebuilds the route table but does
/// not re-resolve the servicer's file.
#[test]
fn http_route_edit_does_not_reresolve_grpc_servicers() {
    let mut s = Session::new(GRPC_TS);
    s.edit("src/app.ts", "'/users'", "'/accounts'");
    let (ran, _) = s.recompute();
    assert!(ran.contains(&"route_table()".to_string()), "{ran:?}");
    assert!(ran.contains(&"grpc_route_table()".to_string()), "{ran:?}");
    assert!(!ran.contains(&"resolve_file(src/server.ts)".to_string()), "{ran:?}");
}
