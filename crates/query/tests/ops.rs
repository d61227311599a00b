//! The graph operations (lookup, symbol context, impact, expand, trace, DAG grep, changed-code
//! impact) on one hand-built graph with exact expected answers: a call cycle, a class
//! hierarchy, a test file, a Go package, unresolved call sites and a name two symbols share.

use codegraph_query::ops::changed::{ChangeKind, FileChange, Hunk};
use codegraph_query::ops::dag_grep::{DagGrepRequest, Mode, Render};
use codegraph_query::ops::expand::ExpandRequest;
use codegraph_query::ops::impact::{ImpactDirection, ImpactRequest, Risk};
use codegraph_query::ops::lookup::Target;
use codegraph_query::ops::trace::TraceRequest;
use codegraph_query::ops::{Direction, render};
use codegraph_query::{QueryError, SnapshotInfo, Store};
use codegraph_schema::{Edge, Node, UnresolvedSite};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use expect_test::{Expect, expect};

/// The test flag the indexer's language rules store for these paths (Go `_test.go`, TS
/// `*.test.ts`).
fn stored_test(path: &str) -> bool {
    path.ends_with("_test.go") || path.contains(".test.")
}

fn file(path: &str, parent: Option<&str>) -> Node {
    Node {
        id: format!("file:{path}").into(),
        kind: NodeKind::File,
        name: path.rsplit('/').next().unwrap_or(path).into(),
        qualified_name: path.into(),
        file: Some(path.into()),
        language: Some(if path.ends_with(".go") { "go" } else { "typescript" }),
        start_line: Some(1),
        end_line: Some(30),
        signature: None,
        doc: None,
        exported: false,
        test: stored_test(path),
        parent: parent.map(Into::into),
        size: Some(100),
        lines: Some(30),
        hash: Some("h".into()),
        props: None,
    }
}

fn sym(path: &str, qn: &str, kind: NodeKind, lines: (u32, u32)) -> Node {
    let lang = if path.ends_with(".go") { "go" } else { "ts" };
    let parent = match qn.rsplit_once('.') {
        Some((owner, _)) => format!("sym:{lang}:{path}:{owner}"),
        None => format!("file:{path}"),
    };
    Node {
        id: format!("sym:{lang}:{path}:{qn}").into(),
        kind,
        name: qn.rsplit('.').next().unwrap_or(qn).into(),
        qualified_name: qn.into(),
        file: Some(path.into()),
        language: Some(if lang == "go" { "go" } else { "typescript" }),
        start_line: Some(lines.0),
        end_line: Some(lines.1),
        signature: Some(format!("{qn}()")),
        doc: None,
        exported: true,
        test: stored_test(path),
        parent: Some(parent.into()),
        size: None,
        lines: None,
        hash: None,
        props: None,
    }
}

fn e(src: &str, dst: &str, kind: EdgeKind, reason: Reason, line: u32) -> Edge {
    Edge::new(src.into(), dst.into(), kind, reason, line)
}

const UTIL: &str = "src/util.ts";
const SERVER: &str = "src/server.ts";
const APP: &str = "src/app.ts";
const CYCLE: &str = "src/cycle.ts";
const TEST: &str = "src/server.test.ts";
const GO: &str = "pkg/store/store.go";

fn s(path: &str, qn: &str) -> String {
    let lang = if path.ends_with(".go") { "go" } else { "ts" };
    format!("sym:{lang}:{path}:{qn}")
}

fn f(path: &str) -> String {
    format!("file:{path}")
}

/// The graph, published with its unresolved call sites, in a temporary store.
fn store() -> (tempfile::TempDir, Store) {
    use EdgeKind::*;
    use NodeKind::*;
    let mut nodes = vec![
        file(UTIL, None),
        file(SERVER, None),
        file(APP, None),
        file(CYCLE, None),
        file(TEST, None),
        file(GO, Some("pkg:go:pkg/store")),
        sym(UTIL, "log", Function, (1, 3)),
        sym(UTIL, "Logger", Class, (5, 12)),
        sym(UTIL, "Logger.write", Method, (6, 8)),
        sym(UTIL, "Logger.level", Property, (9, 9)),
        sym(UTIL, "FileLogger", Class, (14, 18)),
        sym(SERVER, "Server", Class, (3, 20)),
        sym(SERVER, "Server.start", Method, (4, 10)),
        sym(SERVER, "Server.stop", Method, (11, 15)),
        sym(SERVER, "main", Function, (22, 25)),
        sym(APP, "run", Function, (1, 5)),
        sym(APP, "run.cb", Parameter, (1, 1)),
        sym(APP, "start", Function, (6, 9)),
        sym(CYCLE, "ping", Function, (1, 4)),
        sym(CYCLE, "pong", Function, (5, 8)),
        sym(TEST, "testStart", Function, (1, 5)),
        sym(GO, "Store", Struct, (3, 5)),
        sym(GO, "Store.Add", Method, (7, 9)),
    ];
    let mut pkg = file("pkg/store", None);
    pkg.id = "pkg:go:pkg/store".into();
    pkg.kind = NodeKind::Package;
    pkg.name = "store".into();
    pkg.file = None;
    nodes.push(pkg);
    // Go methods hang off their file (the type may be in another file of the package); their
    // HAS_METHOD edge is the package's, stored.
    for n in &mut nodes {
        if n.language == Some("go") && n.kind == Method {
            n.parent = n.file.as_deref().map(|p| f(p).into());
        }
    }
    let st = Reason::Structural;
    // Symbols' DEFINES and parent edges are implied by their rows; only the others are stored.
    let mut edges = Vec::new();
    edges.extend([
        e("pkg:go:pkg/store", &f(GO), Contains, st, 0),
        e(&s(UTIL, "FileLogger"), &s(UTIL, "Logger"), Extends, Reason::SameFile, 0),
        e(&s(GO, "Store"), &s(GO, "Store.Add"), HasMethod, Reason::SamePackage, 0),
        e(&s(SERVER, "Server.start"), &s(UTIL, "log"), Calls, Reason::ImportResolved, 5),
        e(&s(SERVER, "Server.start"), &s(UTIL, "log"), Calls, Reason::ImportResolved, 9),
        e(&s(SERVER, "Server.start"), &s(UTIL, "Logger.write"), Calls, Reason::TypedReceiver, 7),
        e(&s(SERVER, "Server.start"), &s(SERVER, "Server.stop"), Calls, Reason::ThisDispatch, 8),
        e(&s(SERVER, "Server.stop"), &s(UTIL, "log"), Calls, Reason::ImportResolved, 12),
        e(&s(SERVER, "main"), &s(SERVER, "Server.start"), Calls, Reason::TypedReceiver, 23),
        e(&s(APP, "run"), &s(SERVER, "main"), Calls, Reason::ImportResolved, 2),
        e(&s(APP, "run"), &s(APP, "start"), Calls, Reason::SameFile, 3),
        // `run` calls the callback it is handed: not a dependency of `run` (downstream).
        e(&s(APP, "run"), &s(APP, "run.cb"), Calls, Reason::SameFile, 4),
        e(&s(APP, "start"), &s(CYCLE, "ping"), Calls, Reason::ImportResolved, 7),
        e(&s(CYCLE, "ping"), &s(CYCLE, "pong"), Calls, Reason::SameFile, 2),
        e(&s(CYCLE, "pong"), &s(CYCLE, "ping"), Calls, Reason::SameFile, 6),
        e(&s(TEST, "testStart"), &s(SERVER, "Server.start"), Calls, Reason::TypedReceiver, 3),
        e(&f(SERVER), &f(UTIL), Imports, Reason::ImportResolved, 1),
        e(&f(SERVER), &s(UTIL, "log"), Imports, Reason::ImportResolved, 1),
        e(&f(SERVER), &s(UTIL, "Logger"), Imports, Reason::ImportResolved, 1),
        e(&f(APP), &f(SERVER), Imports, Reason::ImportResolved, 1),
        e(&f(APP), &s(SERVER, "main"), Imports, Reason::ImportResolved, 1),
        e(&f(APP), &f(CYCLE), Imports, Reason::ImportResolved, 1),
        e(&f(APP), &s(CYCLE, "ping"), Imports, Reason::ImportResolved, 1),
        e(&f(TEST), &f(SERVER), Imports, Reason::ImportResolved, 1),
        e(&f(TEST), &s(SERVER, "Server"), Imports, Reason::ImportResolved, 1),
    ]);
    let unresolved = [
        (
            SERVER,
            UnresolvedSite {
                line: 13,
                caller: s(SERVER, "Server.stop").into(),
                callee: "this.flush".into(),
            },
        ),
        (APP, UnresolvedSite { line: 4, caller: s(APP, "run").into(), callee: "x.log".into() }),
        (APP, UnresolvedSite { line: 8, caller: s(APP, "start").into(), callee: "log".into() }),
    ];
    publish(nodes, edges, &unresolved, &f(UTIL))
}

/// Publishes one revision of `nodes`, `edges` and unresolved sites in a temporary store.
fn publish(
    mut nodes: Vec<Node>,
    mut edges: Vec<Edge>,
    unresolved: &[(&str, UnresolvedSite)],
    owner: &str,
) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(&dir.path().join("ops.db")).expect("open store");
    nodes.sort_by(|a, b| a.id.cmp(&b.id));
    edges.sort();
    let mut p = store.begin_publish().expect("begin");
    p.insert_nodes(nodes.iter()).expect("nodes");
    p.insert_edges(edges.iter(), owner).expect("edges");
    for (path, site) in unresolved {
        p.insert_unresolved(path, std::iter::once(site)).expect("unresolved");
    }
    let info =
        SnapshotInfo { root: "/r".into(), indexer_version: "t".into(), ..Default::default() };
    assert_eq!(p.commit(&info).expect("commit"), 1);
    (dir, store)
}

fn err_text(r: Result<impl std::fmt::Debug, QueryError>) -> String {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn lookup_ids_names_hints_ambiguity_and_unknowns() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    let id = |t: Target| r.lookup(&t).map(|n| n.id);
    assert_eq!(id(Target::new(s(UTIL, "log"))).unwrap(), s(UTIL, "log"));
    assert_eq!(id(Target::new("log")).unwrap(), s(UTIL, "log"));
    assert_eq!(id(Target::new("Server.start")).unwrap(), s(SERVER, "Server.start"));
    assert_eq!(id(Target::new("src/app.ts")).unwrap(), f(APP));
    let amb = r.lookup(&Target::new("start"));
    let Err(QueryError::Ambiguous { candidates, .. }) = &amb else { panic!("{amb:?}") };
    assert_eq!(
        candidates.iter().map(|c| (c.node.id.as_str(), c.matched_by.as_str())).collect::<Vec<_>>(),
        vec![
            (s(APP, "start").as_str(), "qualified name"),
            (s(SERVER, "Server.start").as_str(), "name")
        ]
    );
    expect![[r#"`start` is ambiguous: 2 candidates: sym:ts:src/app.ts:start (function, src/app.ts:6), sym:ts:src/server.ts:Server.start (method, src/server.ts:4); pass one of these IDs, or narrow with --file / --kind"#]]
        .assert_eq(&err_text(amb));
    let hinted = |kind: Option<&str>, file: Option<&str>| {
        id(Target {
            query: "start".into(),
            kind: kind.map(|k| QueryError::node_kind(k).expect("a kind")),
            file: file.map(str::to_string),
        })
    };
    assert_eq!(hinted(Some("method"), None).unwrap(), s(SERVER, "Server.start"));
    assert_eq!(hinted(None, Some("app.ts")).unwrap(), s(APP, "start"));
    expect!["no symbol named `start` in the 1 indexed file whose path contains `cycle.ts`; did you mean: sym:ts:src/app.ts:start, sym:ts:src/server.ts:Server.start, sym:ts:src/server.test.ts:testStart"]
        .assert_eq(&err_text(hinted(None, Some("cycle.ts"))));
    expect!["no symbol named `Stopp`; did you mean: sym:ts:src/server.ts:Server.stop"]
        .assert_eq(&err_text(id(Target::new("Stopp"))));
    expect!["unknown ID `sym:ts:src/server.ts:Server.halt`; did you mean: sym:ts:src/server.ts:Server, sym:ts:src/server.ts:Server.stop, sym:ts:src/server.ts:Server.start"]
        .assert_eq(&err_text(id(Target::new("sym:ts:src/server.ts:Server.halt"))));
    expect!["unknown node kind `widget`; one of: file, package, function, method, macro, class, interface, type_alias, defined_type, enum, struct, variable, constant, property, parameter, section, test, module, resource, output, provider, command, env_var, image, route, tool, process, cluster"]
    .assert_eq(&QueryError::node_kind("widget").expect_err("not a kind").to_string());
}

fn check(actual: String, expect: Expect) {
    expect.assert_eq(&actual);
}

#[test]
fn symbol_context_of_a_method_and_a_class() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    check(
        render::context(&r.symbol_context(&s(SERVER, "Server.start")).unwrap()),
        expect![[r#"
            sym:ts:src/server.ts:Server.start (method, revision 1)
              at: src/server.ts:4-10
              signature: Server.start()
            container:
              <- HAS_METHOD   sym:ts:src/server.ts:Server (class)
            callers:
              src/server.test.ts:3  sym:ts:src/server.test.ts:testStart (function) line 3 [typed-receiver 0.85]
              src/server.ts:23  sym:ts:src/server.ts:main (function) line 23 [typed-receiver 0.85]
            callees:
              src/server.ts:11  sym:ts:src/server.ts:Server.stop (method) line 8 [this-dispatch 0.90]
              src/util.ts:6  sym:ts:src/util.ts:Logger.write (method) line 7 [typed-receiver 0.85]
              src/util.ts:1  sym:ts:src/util.ts:log (function) line 5, 9 [import-resolved 0.95]
            file imports:
              -> IMPORTS      file:src/util.ts (file) (line 1) [import-resolved 0.95]
            file imported by:
              <- IMPORTS      file:src/app.ts (file) (line 1) [import-resolved 0.95]
              <- IMPORTS      file:src/server.test.ts (file) (line 1) [import-resolved 0.95]
            related files: src/util.ts (3), src/server.test.ts (2), src/app.ts (1)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    check(
        render::context(&r.symbol_context(&s(UTIL, "Logger")).unwrap()),
        expect![[r#"
            sym:ts:src/util.ts:Logger (class, revision 1)
              at: src/util.ts:5-12
              signature: Logger()
            container:
              <- CONTAINS     file:src/util.ts (file)
            members:
              -> HAS_METHOD   sym:ts:src/util.ts:Logger.write (method)
              -> HAS_PROPERTY sym:ts:src/util.ts:Logger.level (property)
            heritage:
              <- EXTENDS      sym:ts:src/util.ts:FileLogger (class) [same-file 0.95]
            imported by:
              <- IMPORTS      file:src/server.ts (file) (line 1) [import-resolved 0.95]
            file imported by:
              <- IMPORTS      file:src/server.ts (file) (line 1) [import-resolved 0.95]
            related files: src/server.ts (2)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    check(
        render::context(&r.symbol_context(&s(UTIL, "log")).unwrap()),
        expect![[r#"
            sym:ts:src/util.ts:log (function, revision 1)
              at: src/util.ts:1-3
              signature: log()
            container:
              <- CONTAINS     file:src/util.ts (file)
            callers:
              src/server.ts:5  sym:ts:src/server.ts:Server.start (method) line 5, 9 [import-resolved 0.95]
              src/server.ts:12  sym:ts:src/server.ts:Server.stop (method) line 12 [import-resolved 0.95]
            imported by:
              <- IMPORTS      file:src/server.ts (file) (line 1) [import-resolved 0.95]
            file imported by:
              <- IMPORTS      file:src/server.ts (file) (line 1) [import-resolved 0.95]
            related files: src/server.ts (4)
            note: 2 unresolved call site(s) elsewhere call something named `log`: callers may be incomplete
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
}

#[test]
fn impact_upstream_downstream_tests_floor_and_risk() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    let up = r.impact(&[s(UTIL, "log")], &ImpactRequest::default()).unwrap();
    assert_eq!(up.risk, Risk::Low);
    check(
        render::impact(&up),
        expect![[r#"
            upstream impact of sym:ts:src/util.ts:log (revision 1)
            risk low: 2 direct, 4 node(s) reached, 2 other file(s), 0 other module(s)
            depth 1:
              src/server.ts:5  sym:ts:src/server.ts:Server.start (method) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
              src/server.ts:12  sym:ts:src/server.ts:Server.stop (method) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 12) [import-resolved 0.95]
            depth 2:
              src/server.ts:23  sym:ts:src/server.ts:main (function) 0.807 via CALLS -> sym:ts:src/server.ts:Server.start (line 23) [typed-receiver 0.85]
            depth 3:
              src/app.ts:2  sym:ts:src/app.ts:run (function) 0.767 via CALLS -> sym:ts:src/server.ts:main (line 2) [import-resolved 0.95]
            files: src/server.ts (3), src/app.ts (1)
            modules: src (4)
            note: 2 unresolved call site(s) call something named `log`: upstream may be incomplete
            note: 1 test node(s) left out (include them with --include-tests)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    let with_tests = ImpactRequest { include_tests: true, max_depth: 1, ..Default::default() };
    check(
        render::impact(&r.impact(&[s(SERVER, "Server.start")], &with_tests).unwrap()),
        expect![[r#"
            upstream impact of sym:ts:src/server.ts:Server.start (revision 1)
            risk low: 2 direct, 2 node(s) reached, 1 other file(s), 0 other module(s)
            depth 1:
              src/server.test.ts:3  sym:ts:src/server.test.ts:testStart (function) 0.850 via CALLS -> sym:ts:src/server.ts:Server.start (line 3) [typed-receiver 0.85]
              src/server.ts:23  sym:ts:src/server.ts:main (function) 0.850 via CALLS -> sym:ts:src/server.ts:Server.start (line 23) [typed-receiver 0.85]
            files: src/server.test.ts (1), src/server.ts (1)
            modules: src (2)
            note: depth limit 1 reached: more nodes lie beyond (raise --depth)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    let floor = ImpactRequest { min_confidence: 0.9, ..Default::default() };
    check(
        render::impact(&r.impact(&[s(UTIL, "Logger.write")], &floor).unwrap()),
        expect![[r#"
            upstream impact of sym:ts:src/util.ts:Logger.write (revision 1)
            risk low: 0 direct, 0 node(s) reached, 0 other file(s), 0 other module(s)
            note: 1 edge(s) below confidence 0.9 not followed
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    let down = ImpactRequest {
        direction: ImpactDirection::Downstream,
        max_depth: 2,
        ..Default::default()
    };
    check(
        render::impact(&r.impact(&[s(APP, "run")], &down).unwrap()),
        expect![[r#"
            downstream impact of sym:ts:src/app.ts:run (revision 1)
            risk low: 2 direct, 4 node(s) reached, 2 other file(s), 0 other module(s)
            depth 1:
              src/app.ts:6  sym:ts:src/app.ts:start (function) 0.950 via CALLS <- sym:ts:src/app.ts:run (line 3) [same-file 0.95]
              src/server.ts:22  sym:ts:src/server.ts:main (function) 0.950 via CALLS <- sym:ts:src/app.ts:run (line 2) [import-resolved 0.95]
            depth 2:
              src/cycle.ts:1  sym:ts:src/cycle.ts:ping (function) 0.902 via CALLS <- sym:ts:src/app.ts:start (line 7) [import-resolved 0.95]
              src/server.ts:4  sym:ts:src/server.ts:Server.start (method) 0.807 via CALLS <- sym:ts:src/server.ts:main (line 23) [typed-receiver 0.85]
            files: src/server.ts (2), src/app.ts (1), src/cycle.ts (1)
            modules: src (4)
            note: 2 call site(s) inside the reached symbols did not resolve: downstream may be incomplete
            note: depth limit 2 reached: more nodes lie beyond (raise --depth)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    let calls_only = ImpactRequest {
        direction: ImpactDirection::Downstream,
        kinds: vec![EdgeKind::Calls],
        max_depth: 10,
        ..Default::default()
    };
    // The cycle ping <-> pong ends the walk instead of looping.
    check(
        render::impact(&r.impact(&[s(CYCLE, "ping")], &calls_only).unwrap()),
        expect![[r#"
            downstream impact of sym:ts:src/cycle.ts:ping (revision 1)
            risk low: 1 direct, 1 node(s) reached, 0 other file(s), 0 other module(s)
            depth 1:
              src/cycle.ts:5  sym:ts:src/cycle.ts:pong (function) 0.950 via CALLS <- sym:ts:src/cycle.ts:ping (line 2) [same-file 0.95]
            files: src/cycle.ts (1)
            modules: src (1)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
}

#[test]
fn expand_depth_budget_and_direction() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    let calls = ExpandRequest { kinds: vec![EdgeKind::Calls], ..Default::default() };
    check(
        render::expand(&r.expand(&s(APP, "run"), &calls).unwrap()),
        expect![[r#"
            expand sym:ts:src/app.ts:run (revision 1): 6 node(s), 5 edge(s)
              [0] sym:ts:src/app.ts:run (function)
              [1] sym:ts:src/app.ts:run.cb (parameter)
              [1] sym:ts:src/app.ts:start (function)
              [1] sym:ts:src/server.ts:main (function)
              [2] sym:ts:src/cycle.ts:ping (function)
              [2] sym:ts:src/server.ts:Server.start (method)
              sym:ts:src/app.ts:run -CALLS-> sym:ts:src/app.ts:run.cb (line 4) [same-file 0.95]
              sym:ts:src/app.ts:run -CALLS-> sym:ts:src/app.ts:start (line 3) [same-file 0.95]
              sym:ts:src/app.ts:run -CALLS-> sym:ts:src/server.ts:main (line 2) [import-resolved 0.95]
              sym:ts:src/app.ts:start -CALLS-> sym:ts:src/cycle.ts:ping (line 7) [import-resolved 0.95]
              sym:ts:src/server.ts:main -CALLS-> sym:ts:src/server.ts:Server.start (line 23) [typed-receiver 0.85]
            note: depth limit 2 reached: more nodes lie beyond
        "#]],
    );
    let tight = ExpandRequest { budget: 3, ..calls.clone() };
    check(
        render::expand(&r.expand(&s(APP, "run"), &tight).unwrap()),
        expect![[r#"
            expand sym:ts:src/app.ts:run (revision 1): 3 node(s), 2 edge(s)
              [0] sym:ts:src/app.ts:run (function)
              [1] sym:ts:src/app.ts:run.cb (parameter)
              [1] sym:ts:src/app.ts:start (function)
              sym:ts:src/app.ts:run -CALLS-> sym:ts:src/app.ts:run.cb (line 4) [same-file 0.95]
              sym:ts:src/app.ts:run -CALLS-> sym:ts:src/app.ts:start (line 3) [same-file 0.95]
            note: budget of 3 nodes reached: 2 more neighbour(s) left out
        "#]],
    );
    let incoming = ExpandRequest { direction: Direction::In, depth: 3, ..calls };
    check(
        render::expand(&r.expand(&s(UTIL, "log"), &incoming).unwrap()),
        expect![[r#"
        expand sym:ts:src/util.ts:log (revision 1): 6 node(s), 7 edge(s)
          [0] sym:ts:src/util.ts:log (function)
          [1] sym:ts:src/server.ts:Server.start (method)
          [1] sym:ts:src/server.ts:Server.stop (method)
          [2] sym:ts:src/server.test.ts:testStart (function)
          [2] sym:ts:src/server.ts:main (function)
          [3] sym:ts:src/app.ts:run (function)
          sym:ts:src/server.ts:Server.start -CALLS-> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
          sym:ts:src/server.ts:Server.start -CALLS-> sym:ts:src/util.ts:log (line 9) [import-resolved 0.95]
          sym:ts:src/server.ts:Server.stop -CALLS-> sym:ts:src/util.ts:log (line 12) [import-resolved 0.95]
          sym:ts:src/server.test.ts:testStart -CALLS-> sym:ts:src/server.ts:Server.start (line 3) [typed-receiver 0.85]
          sym:ts:src/server.ts:main -CALLS-> sym:ts:src/server.ts:Server.start (line 23) [typed-receiver 0.85]
          sym:ts:src/server.ts:Server.start -CALLS-> sym:ts:src/server.ts:Server.stop (line 8) [this-dispatch 0.90]
          sym:ts:src/app.ts:run -CALLS-> sym:ts:src/server.ts:main (line 2) [import-resolved 0.95]
    "#]],
    );
    expect!["unknown ID `sym:ts:src/nope.ts:x`; did you mean: sym:ts:src/app.ts:run, sym:ts:src/util.ts:log, sym:ts:src/app.ts:start, sym:ts:src/app.ts:run.cb, sym:ts:src/cycle.ts:ping"].assert_eq(&err_text(r.expand("sym:ts:src/nope.ts:x", &ExpandRequest::default())));
}

#[test]
fn trace_paths_reverse_and_none() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    let req = TraceRequest::default();
    check(
        render::trace(&r.trace(&s(APP, "run"), &s(UTIL, "log"), &req).unwrap()),
        expect![[r#"
        trace sym:ts:src/app.ts:run -> sym:ts:src/util.ts:log (revision 1): 1 path(s)
        path 1 (3 hop(s), confidence 0.767):
          sym:ts:src/app.ts:run
          -CALLS-> sym:ts:src/server.ts:main (line 2) [import-resolved 0.95]
          -CALLS-> sym:ts:src/server.ts:Server.start (line 23) [typed-receiver 0.85]
          -CALLS-> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
    "#]],
    );
    check(
        render::trace(&r.trace(&s(UTIL, "log"), &s(SERVER, "main"), &req).unwrap()),
        expect![[r#"
        trace sym:ts:src/util.ts:log -> sym:ts:src/server.ts:main (revision 1): 1 path(s)
        path 1 (2 hop(s), confidence 0.807):
          sym:ts:src/server.ts:main
          -CALLS-> sym:ts:src/server.ts:Server.start (line 23) [typed-receiver 0.85]
          -CALLS-> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
        note: no path from sym:ts:src/util.ts:log to sym:ts:src/server.ts:main; these lead from sym:ts:src/server.ts:main to sym:ts:src/util.ts:log
    "#]],
    );
    check(
        render::trace(&r.trace(&s(SERVER, "Server"), &s(UTIL, "Logger.write"), &req).unwrap()),
        expect![[r#"
        trace sym:ts:src/server.ts:Server -> sym:ts:src/util.ts:Logger.write (revision 1): 1 path(s)
        path 1 (2 hop(s), confidence 0.850):
          sym:ts:src/server.ts:Server
          -HAS_METHOD-> sym:ts:src/server.ts:Server.start
          -CALLS-> sym:ts:src/util.ts:Logger.write (line 7) [typed-receiver 0.85]
    "#]],
    );
    check(
        render::trace(&r.trace(&s(CYCLE, "pong"), &s(GO, "Store.Add"), &req).unwrap()),
        expect![[r#"
        trace sym:ts:src/cycle.ts:pong -> sym:go:pkg/store/store.go:Store.Add (revision 1): 0 path(s)
        note: no path within 8 hops over CALLS, HAS_METHOD in either direction
    "#]],
    );
}

#[test]
fn dag_grep_tree_mermaid_cycles_budget_and_direction_in() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    let base = DagGrepRequest {
        query: "ping".into(),
        k: 1,
        edge_types: vec![EdgeKind::Calls],
        render: Some(Render::Tree),
        ..Default::default()
    };
    let cycle = r.dag_grep(&base).unwrap();
    assert_eq!(cycle.layers, vec![vec![s(CYCLE, "ping")], vec![s(CYCLE, "pong")]]);
    assert_eq!(cycle.back_edges.len(), 1);
    check(
        render::dag(&cycle),
        expect![[r#"
            revision 1
            dag_grep `ping` (out): 1 seed(s), 3 node(s), 4 edge(s): 1 forward, 1 back, 1 anchor node(s)
            sym:ts:src/cycle.ts:ping [function] 0.921 (seed)
            `-- -CALLS-> sym:ts:src/cycle.ts:pong [function] 0.744
                `-- back-edge -CALLS-> sym:ts:src/cycle.ts:ping
            anchor file:src/cycle.ts contains sym:ts:src/cycle.ts:ping, sym:ts:src/cycle.ts:pong
        "#]],
    );
    let mermaid =
        r.dag_grep(&DagGrepRequest { render: Some(Render::Mermaid), ..base.clone() }).unwrap();
    check(
        mermaid.rendered.unwrap_or_default(),
        expect![[r#"
            flowchart LR
              %% dag_grep `ping` (out), revision 1
              n0["ping<br/>function · src/cycle.ts"]
              n1["pong<br/>function · src/cycle.ts"]
              n2["cycle.ts<br/>file · src/cycle.ts"]
              n0 -->|CALLS| n1
              n1 -.->|CALLS| n0
              n2 -.- n0
              n2 -.- n1
              classDef seed stroke-width:3px
              class n0 seed
        "#]],
    );

    let start = DagGrepRequest {
        query: "start".into(),
        k: 2,
        mode: Mode::Fts,
        edge_sets: vec!["structural".into()],
        ..base.clone()
    };
    check(
        render::dag(&r.dag_grep(&start).unwrap()),
        expect![[r#"
            revision 1
            dag_grep `start` (out): 2 seed(s), 11 node(s), 14 edge(s): 6 forward, 1 back, 4 anchor node(s)
            sym:ts:src/app.ts:start [function] 0.885 (seed)
            `-- -CALLS-> sym:ts:src/cycle.ts:ping [function] 0.715
                `-- -CALLS-> sym:ts:src/cycle.ts:pong [function] 0.491
            sym:ts:src/server.ts:Server.start [method] 0.884 (seed)
            +-- -CALLS-> sym:ts:src/util.ts:log [function] 0.714
            +-- -CALLS-> sym:ts:src/server.ts:Server.stop [method] 0.676
            |   `-- back-edge -CALLS-> sym:ts:src/util.ts:log
            `-- -CALLS-> sym:ts:src/util.ts:Logger.write [method] 0.639
            anchor file:src/app.ts contains sym:ts:src/app.ts:start
            anchor file:src/cycle.ts contains sym:ts:src/cycle.ts:ping, sym:ts:src/cycle.ts:pong
            anchor file:src/server.ts contains sym:ts:src/server.ts:Server.start, sym:ts:src/server.ts:Server.stop
            anchor file:src/util.ts contains sym:ts:src/util.ts:Logger.write, sym:ts:src/util.ts:log
        "#]],
    );
    let tight = DagGrepRequest { budget: 4, per_node_cap: 2, ..start.clone() };
    let cut = r.dag_grep(&tight).unwrap();
    assert_eq!(cut.stats.nodes - cut.stats.anchors, 4);
    check(
        render::dag(&cut),
        expect![[r#"
            revision 1
            dag_grep `start` (out): 2 seed(s), 4 node(s), 3 edge(s): 3 forward, 0 back, 0 anchor node(s)
            sym:ts:src/app.ts:start [function] 0.885 (seed)
            `-- -CALLS-> sym:ts:src/cycle.ts:ping [function] 0.715
            sym:ts:src/server.ts:Server.start [method] 0.884 (seed)
            `-- -CALLS-> sym:ts:src/util.ts:log [function] 0.714
            warning: budget of 4 nodes reached: 4 anchor node(s) not added
            warning: budget of 4 nodes reached: 1 more node(s) not added
            warning: per_node_cap 2 reached at 1 node(s): their further edges were not fetched
        "#]],
    );
    let incoming = DagGrepRequest {
        query: "log".into(),
        k: 1,
        direction: Direction::In,
        depth: 3,
        include_anchors: false,
        ..base
    };
    check(
        render::dag(&r.dag_grep(&incoming).unwrap()),
        expect![[r#"
            revision 1
            dag_grep `log` (in): 1 seed(s), 6 node(s), 7 edge(s): 6 forward, 1 back, 0 anchor node(s)
            sym:ts:src/util.ts:log [function] 0.921 (seed)
            +-- <-CALLS- sym:ts:src/server.ts:Server.start [method] 0.744
            |   +-- <-CALLS- sym:ts:src/server.test.ts:testStart [function] 0.457
            |   `-- <-CALLS- sym:ts:src/server.ts:main [function] 0.457
            |       `-- <-CALLS- sym:ts:src/app.ts:run [function] 0.267
            `-- <-CALLS- sym:ts:src/server.ts:Server.stop [method] 0.744
                `-- back-edge <-CALLS- sym:ts:src/server.ts:Server.start
        "#]],
    );
    expect!["unknown edge set `semantic`; known: structural"].assert_eq(&err_text(r.dag_grep(
        &DagGrepRequest {
            query: "x".into(),
            edge_sets: vec!["semantic".into()],
            ..Default::default()
        },
    )));
}

#[test]
fn changed_code_maps_hunks_to_innermost_symbols() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    let hunk =
        |new_start, new_lines| Hunk { old_start: new_start, old_lines: 1, new_start, new_lines };
    let changes = vec![
        // Inside Server.start only: the class is not reported.
        FileChange { path: SERVER.into(), kind: ChangeKind::Modified, hunks: vec![hunk(6, 2)] },
        // Spans Logger's header and Logger.write: both.
        FileChange {
            path: UTIL.into(),
            kind: ChangeKind::Modified,
            hunks: vec![hunk(5, 3), hunk(13, 0)],
        },
        FileChange { path: CYCLE.into(), kind: ChangeKind::Deleted, hunks: vec![] },
        FileChange { path: "src/new.ts".into(), kind: ChangeKind::Added, hunks: vec![hunk(1, 4)] },
    ];
    let c = r.changed_code_impact(&changes, &ImpactRequest::default()).unwrap();
    check(
        render::changed(&c),
        expect![[r#"
            4 changed file(s), 5 changed symbol(s) (revision 1)
              deleted src/cycle.ts (0 hunk(s))
                sym:ts:src/cycle.ts:ping
                sym:ts:src/cycle.ts:pong
              added src/new.ts (1 hunk(s), not indexed)
              modified src/server.ts (1 hunk(s))
                sym:ts:src/server.ts:Server.start
              modified src/util.ts (2 hunk(s))
                sym:ts:src/util.ts:Logger
                sym:ts:src/util.ts:Logger.write
            note: src/new.ts is not in the index (not indexable, or added after the index was built: run `codegraph index`)
            upstream impact of sym:ts:src/cycle.ts:ping, sym:ts:src/cycle.ts:pong, sym:ts:src/server.ts:Server.start, sym:ts:src/util.ts:Logger, sym:ts:src/util.ts:Logger.write (revision 1)
            risk medium: 4 direct, 5 node(s) reached, 1 other file(s), 0 other module(s)
            depth 1:
              src/server.ts:1  file:src/server.ts (file) 0.950 via IMPORTS -> sym:ts:src/util.ts:Logger (line 1) [import-resolved 0.95]
              src/app.ts:7  sym:ts:src/app.ts:start (function) 0.950 via CALLS -> sym:ts:src/cycle.ts:ping (line 7) [import-resolved 0.95]
              src/util.ts:14  sym:ts:src/util.ts:FileLogger (class) 0.950 via EXTENDS -> sym:ts:src/util.ts:Logger [same-file 0.95]
              src/server.ts:23  sym:ts:src/server.ts:main (function) 0.850 via CALLS -> sym:ts:src/server.ts:Server.start (line 23) [typed-receiver 0.85]
            depth 2:
              src/app.ts:3  sym:ts:src/app.ts:run (function) 0.902 via CALLS -> sym:ts:src/app.ts:start (line 3) [same-file 0.95]
            files: src/app.ts (2), src/server.ts (2), src/util.ts (1)
            modules: src (5)
            note: 1 node(s) inside the target (members, symbols of a file or package) count as the target: their dependents are included
            note: 1 test node(s) left out (include them with --include-tests)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
}

const STORE_TS: &str = "src/store.ts";
const USE_TS: &str = "src/use.ts";
const REEXPORT_TS: &str = "src/reexport.ts";
const CLIENT_TS: &str = "src/client.ts";
const KV_GO: &str = "pkg/kv/kv.go";
const APP_GO: &str = "pkg/app/app.go";

/// A graph for impact's per-kind rules: an interface, a class implementing it with a field,
/// a subclass overriding the method (and calling `super`), a caller through the interface
/// that handles a route a client fetches, a constructor call, a field read, a file that only
/// re-exports the class, and a Go package imported and called from another package.
fn impact_store() -> (tempfile::TempDir, Store) {
    use EdgeKind::*;
    use NodeKind::*;
    let mut kv = file("pkg/kv", None);
    kv.id = "pkg:go:pkg/kv".into();
    kv.kind = NodeKind::Package;
    kv.name = "kv".into();
    kv.file = None;
    let mut route = file(USE_TS, None);
    route.id = "route:src/use.ts:GET /items".into();
    route.kind = NodeKind::Route;
    route.name = "GET /items".into();
    route.parent = Some(f(USE_TS).into());
    let nodes = vec![
        file(STORE_TS, None),
        file(USE_TS, None),
        file(REEXPORT_TS, None),
        file(CLIENT_TS, None),
        file(KV_GO, Some("pkg:go:pkg/kv")),
        file(APP_GO, None),
        kv,
        route,
        sym(STORE_TS, "Store", Interface, (1, 3)),
        sym(STORE_TS, "Store.get", Method, (2, 2)),
        sym(STORE_TS, "MemStore", Class, (5, 12)),
        sym(STORE_TS, "MemStore.get", Method, (6, 8)),
        sym(STORE_TS, "MemStore.size", Property, (9, 9)),
        sym(STORE_TS, "CachedStore", Class, (14, 20)),
        sym(STORE_TS, "CachedStore.get", Method, (15, 19)),
        sym(USE_TS, "load", Function, (3, 6)),
        sym(USE_TS, "count", Function, (8, 10)),
        sym(USE_TS, "make", Function, (12, 14)),
        sym(USE_TS, "main", Function, (16, 18)),
        sym(CLIENT_TS, "fetchItems", Function, (1, 3)),
        sym(KV_GO, "Get", Function, (3, 5)),
        sym(APP_GO, "Run", Function, (5, 9)),
    ];
    let edges = vec![
        e(&s(STORE_TS, "MemStore"), &s(STORE_TS, "Store"), Implements, Reason::SameFile, 5),
        e(&s(STORE_TS, "CachedStore"), &s(STORE_TS, "MemStore"), Extends, Reason::SameFile, 14),
        e(
            &s(STORE_TS, "CachedStore.get"),
            &s(STORE_TS, "MemStore.get"),
            Calls,
            Reason::SuperDispatch,
            16,
        ),
        e(&s(USE_TS, "load"), &s(STORE_TS, "Store.get"), Calls, Reason::InterfaceMethod, 4),
        e(&s(USE_TS, "count"), &s(STORE_TS, "MemStore.size"), Accesses, Reason::TypedReceiver, 9),
        e(&s(USE_TS, "make"), &s(STORE_TS, "MemStore"), Calls, Reason::ImportResolved, 13),
        e(&s(USE_TS, "main"), &s(USE_TS, "load"), Calls, Reason::SameFile, 17),
        e("route:src/use.ts:GET /items", &s(USE_TS, "load"), HandlesRoute, Reason::SameFile, 20),
        e(&s(CLIENT_TS, "fetchItems"), "route:src/use.ts:GET /items", Fetches, Reason::UrlMatch, 2),
        e(&f(USE_TS), &f(STORE_TS), Imports, Reason::ImportResolved, 1),
        e(&f(USE_TS), &s(STORE_TS, "Store"), Imports, Reason::ImportResolved, 1),
        e(&f(USE_TS), &s(STORE_TS, "MemStore"), Imports, Reason::ImportResolved, 1),
        e(&f(REEXPORT_TS), &f(STORE_TS), Imports, Reason::ImportResolved, 1),
        e(&f(REEXPORT_TS), &s(STORE_TS, "MemStore"), Imports, Reason::ImportResolved, 1),
        e(&f(APP_GO), "pkg:go:pkg/kv", Imports, Reason::ImportResolved, 3),
        e(&s(APP_GO, "Run"), &s(KV_GO, "Get"), Calls, Reason::ImportResolved, 6),
        e("pkg:go:pkg/kv", &f(KV_GO), Contains, Reason::Structural, 0),
    ];
    publish(nodes, edges, &[], &f(STORE_TS))
}

/// Impact follows real dependents per kind of node (module doc of `ops::impact`): a method's
/// callers and dispatch through what it overrides, an interface method's callers up to the
/// route and its client, a type's subtypes, constructors, members' users and bare importers,
/// a field's readers, a file's and a package's importers and callers, and downstream dispatch
/// from an interface call to its implementations. Never the container of a member.
#[test]
fn impact_follows_dependents_per_kind() {
    let (_d, mut st) = impact_store();
    let r = st.reader().unwrap();
    let up = |id: String| render::impact(&r.impact(&[id], &ImpactRequest::default()).unwrap());
    check(
        up(s(STORE_TS, "MemStore.get")),
        expect![[r#"
            upstream impact of sym:ts:src/store.ts:MemStore.get (revision 1)
            risk low: 1 direct, 2 node(s) reached, 0 other file(s), 0 other module(s)
            depth 1:
              src/store.ts:16  sym:ts:src/store.ts:CachedStore.get (method) 0.900 via CALLS -> sym:ts:src/store.ts:MemStore.get (line 16) [super-dispatch 0.90]
            possible callers through dispatch (1; they call a method the target overrides or implements):
              src/use.ts:4  sym:ts:src/use.ts:load (function) 0.760 via CALLS -> sym:ts:src/store.ts:Store.get (line 4) [interface-method 0.80] (dispatch, for sym:ts:src/store.ts:MemStore.get)
            files: src/store.ts (1)
            modules: src (1)
            note: 1 node(s) call a method the target overrides or implements (dispatch): possible callers, not expanded, not counted in the risk
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    check(
        up(s(STORE_TS, "Store.get")),
        expect![[r#"
            upstream impact of sym:ts:src/store.ts:Store.get (revision 1)
            risk low: 1 direct, 4 node(s) reached, 2 other file(s), 0 other module(s)
            depth 1:
              src/use.ts:4  sym:ts:src/use.ts:load (function) 0.800 via CALLS -> sym:ts:src/store.ts:Store.get (line 4) [interface-method 0.80]
            depth 2:
              src/use.ts:20  route:src/use.ts:GET /items (route) 0.760 via HANDLES_ROUTE -> sym:ts:src/use.ts:load (line 20) [same-file 0.95]
              src/use.ts:17  sym:ts:src/use.ts:main (function) 0.760 via CALLS -> sym:ts:src/use.ts:load (line 17) [same-file 0.95]
            depth 3:
              src/client.ts:2  sym:ts:src/client.ts:fetchItems (function) 0.684 via FETCHES -> route:src/use.ts:GET /items (line 2) [url-match 0.90]
            files: src/use.ts (3), src/client.ts (1)
            modules: src (4)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    check(
        up(s(STORE_TS, "MemStore")),
        expect![[r#"
            upstream impact of sym:ts:src/store.ts:MemStore (revision 1)
            risk medium: 5 direct, 6 node(s) reached, 2 other file(s), 0 other module(s)
            depth 1:
              src/reexport.ts:1  file:src/reexport.ts (file) 0.950 via IMPORTS -> sym:ts:src/store.ts:MemStore (line 1) [import-resolved 0.95]
              src/store.ts:14  sym:ts:src/store.ts:CachedStore (class) 0.950 via EXTENDS -> sym:ts:src/store.ts:MemStore (line 14) [same-file 0.95]
              src/use.ts:13  sym:ts:src/use.ts:make (function) 0.950 via CALLS -> sym:ts:src/store.ts:MemStore (line 13) [import-resolved 0.95]
              src/store.ts:16  sym:ts:src/store.ts:CachedStore.get (method) 0.900 via CALLS -> sym:ts:src/store.ts:MemStore.get (line 16) [super-dispatch 0.90]
              src/use.ts:9  sym:ts:src/use.ts:count (function) 0.850 via ACCESSES -> sym:ts:src/store.ts:MemStore.size (line 9) [typed-receiver 0.85]
            possible callers through dispatch (1; they call a method the target overrides or implements):
              src/use.ts:4  sym:ts:src/use.ts:load (function) 0.760 via CALLS -> sym:ts:src/store.ts:Store.get (line 4) [interface-method 0.80] (dispatch, for sym:ts:src/store.ts:MemStore.get)
            files: src/store.ts (2), src/use.ts (2), src/reexport.ts (1)
            modules: src (5)
            note: 2 node(s) inside the target (members, symbols of a file or package) count as the target: their dependents are included
            note: 1 node(s) call a method the target overrides or implements (dispatch): possible callers, not expanded, not counted in the risk
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    check(
        up(s(STORE_TS, "MemStore.size")),
        expect![[r#"
            upstream impact of sym:ts:src/store.ts:MemStore.size (revision 1)
            risk low: 1 direct, 1 node(s) reached, 1 other file(s), 0 other module(s)
            depth 1:
              src/use.ts:9  sym:ts:src/use.ts:count (function) 0.850 via ACCESSES -> sym:ts:src/store.ts:MemStore.size (line 9) [typed-receiver 0.85]
            files: src/use.ts (1)
            modules: src (1)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    check(
        up(f(STORE_TS)),
        expect![[r#"
            upstream impact of file:src/store.ts (revision 1)
            risk medium: 5 direct, 8 node(s) reached, 3 other file(s), 0 other module(s)
            depth 1:
              src/reexport.ts:1  file:src/reexport.ts (file) 0.950 via IMPORTS -> file:src/store.ts (line 1) [import-resolved 0.95]
              src/use.ts:1  file:src/use.ts (file) 0.950 via IMPORTS -> file:src/store.ts (line 1) [import-resolved 0.95]
              src/use.ts:13  sym:ts:src/use.ts:make (function) 0.950 via CALLS -> sym:ts:src/store.ts:MemStore (line 13) [import-resolved 0.95]
              src/use.ts:9  sym:ts:src/use.ts:count (function) 0.850 via ACCESSES -> sym:ts:src/store.ts:MemStore.size (line 9) [typed-receiver 0.85]
              src/use.ts:4  sym:ts:src/use.ts:load (function) 0.800 via CALLS -> sym:ts:src/store.ts:Store.get (line 4) [interface-method 0.80]
            depth 2:
              src/use.ts:20  route:src/use.ts:GET /items (route) 0.760 via HANDLES_ROUTE -> sym:ts:src/use.ts:load (line 20) [same-file 0.95]
              src/use.ts:17  sym:ts:src/use.ts:main (function) 0.760 via CALLS -> sym:ts:src/use.ts:load (line 17) [same-file 0.95]
            depth 3:
              src/client.ts:2  sym:ts:src/client.ts:fetchItems (function) 0.684 via FETCHES -> route:src/use.ts:GET /items (line 2) [url-match 0.90]
            files: src/use.ts (6), src/client.ts (1), src/reexport.ts (1)
            modules: src (8)
            note: 7 node(s) inside the target (members, symbols of a file or package) count as the target: their dependents are included
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    check(
        up("pkg:go:pkg/kv".to_string()),
        expect![[r#"
            upstream impact of pkg:go:pkg/kv (revision 1)
            risk low: 2 direct, 2 node(s) reached, 1 other file(s), 1 other module(s)
            depth 1:
              pkg/app/app.go:3  file:pkg/app/app.go (file) 0.950 via IMPORTS -> pkg:go:pkg/kv (line 3) [import-resolved 0.95]
              pkg/app/app.go:6  sym:go:pkg/app/app.go:Run (function) 0.950 via CALLS -> sym:go:pkg/kv/kv.go:Get (line 6) [import-resolved 0.95]
            files: pkg/app/app.go (2)
            modules: pkg/app (2)
            note: 2 node(s) inside the target (members, symbols of a file or package) count as the target: their dependents are included
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
    let down = ImpactRequest { direction: ImpactDirection::Downstream, ..Default::default() };
    check(
        render::impact(&r.impact(&[s(USE_TS, "main")], &down).unwrap()),
        expect![[r#"
            downstream impact of sym:ts:src/use.ts:main (revision 1)
            risk low: 1 direct, 4 node(s) reached, 1 other file(s), 0 other module(s)
            depth 1:
              src/use.ts:3  sym:ts:src/use.ts:load (function) 0.950 via CALLS <- sym:ts:src/use.ts:main (line 17) [same-file 0.95]
            depth 2:
              src/store.ts:2  sym:ts:src/store.ts:Store.get (method) 0.760 via CALLS <- sym:ts:src/use.ts:load (line 4) [interface-method 0.80]
              src/store.ts:6  sym:ts:src/store.ts:MemStore.get (method) 0.722 via CALLS <- sym:ts:src/use.ts:load (line 4) [interface-method 0.80] (dispatch)
              src/store.ts:15  sym:ts:src/store.ts:CachedStore.get (method) 0.686 via CALLS <- sym:ts:src/use.ts:load (line 4) [interface-method 0.80] (dispatch)
            files: src/store.ts (3), src/use.ts (1)
            modules: src (4)
            note: execution flows and clusters are not computed for this index yet: none are listed
        "#]],
    );
}

/// The graph query over the fixture, on a read-only store (the one every front end reads with).
mod graph_query {
    use super::*;
    use codegraph_query::{Cell, GraphQueryBudget};
    use codegraph_schema::query_views::QUERY_VIEWS;

    fn read_only(dir: &tempfile::TempDir) -> Store {
        Store::open_read_only(&dir.path().join("ops.db")).expect("open read-only")
    }

    fn rows(st: &mut Store, sql: &str) -> Vec<String> {
        let r = st.reader().expect("reader");
        let a = r.graph_query(sql, &GraphQueryBudget::default()).expect("query");
        a.rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| match c {
                        Cell::Null => "NULL".to_string(),
                        Cell::Integer(i) => i.to_string(),
                        Cell::Real(r) => r.to_string(),
                        Cell::Text { text, .. } => text.clone(),
                        Cell::Blob(n) => format!("<{n} bytes>"),
                    })
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .collect()
    }

    fn refused(st: &mut Store, sql: &str) -> String {
        let r = st.reader().expect("reader");
        err_text(r.graph_query(sql, &GraphQueryBudget::default()))
    }

    #[test]
    fn questions_answered_by_one_query() {
        let (dir, _writer) = store();
        let mut st = read_only(&dir);
        // Who calls `log`, and on which lines.
        assert_eq!(
            rows(
                &mut st,
                "SELECT src, line FROM edges WHERE dst = 'sym:ts:src/util.ts:log' AND kind = 'CALLS' ORDER BY src, line"
            ),
            [
                "sym:ts:src/server.ts:Server.start | 5",
                "sym:ts:src/server.ts:Server.start | 9",
                "sym:ts:src/server.ts:Server.stop | 12",
            ]
        );
        // Everything that reaches `Server.stop` through calls, with its distance.
        assert_eq!(
            rows(
                &mut st,
                "WITH RECURSIVE up(id, depth) AS ( \
                   SELECT 'sym:ts:src/server.ts:Server.stop', 0 \
                   UNION SELECT e.src, up.depth + 1 FROM edges e JOIN up ON e.dst = up.id \
                   WHERE e.kind = 'CALLS' AND up.depth < 5) \
                 SELECT id, MIN(depth) FROM up WHERE depth > 0 GROUP BY id ORDER BY 2, 1"
            ),
            [
                "sym:ts:src/server.ts:Server.start | 1",
                "sym:ts:src/server.test.ts:testStart | 2",
                "sym:ts:src/server.ts:main | 2",
                "sym:ts:src/app.ts:run | 3",
            ]
        );
        // Exported functions and methods no call reaches.
        assert_eq!(
            rows(
                &mut st,
                "SELECT n.id FROM nodes n WHERE n.kind IN ('function', 'method') AND n.exported = 1 \
                 AND n.test = 0 AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.dst = n.id AND e.kind = 'CALLS') \
                 ORDER BY n.id"
            ),
            ["sym:go:pkg/store/store.go:Store.Add", "sym:ts:src/app.ts:run"]
        );
        // Unresolved call sites per file, and the revision read.
        assert_eq!(
            rows(
                &mut st,
                "SELECT file, COUNT(*) FROM unresolved_calls GROUP BY file ORDER BY file"
            ),
            ["src/app.ts | 2", "src/server.ts | 1"]
        );
        assert_eq!(rows(&mut st, "SELECT revision, indexer_version FROM revision"), ["1 | t"]);
        // Implied structural edges are there as well (a method's HAS_METHOD from its class).
        assert_eq!(
            rows(
                &mut st,
                "SELECT src, kind FROM edges WHERE dst = 'sym:ts:src/util.ts:Logger.write' AND kind != 'CALLS' ORDER BY kind"
            ),
            ["file:src/util.ts | DEFINES", "sym:ts:src/util.ts:Logger | HAS_METHOD"]
        );
    }

    #[test]
    fn every_view_answers_with_its_documented_columns() {
        let (dir, _writer) = store();
        let mut st = read_only(&dir);
        let r = st.reader().expect("reader");
        for v in QUERY_VIEWS {
            let a = r
                .graph_query(&format!("SELECT * FROM {} LIMIT 1", v.name), &Default::default())
                .unwrap_or_else(|e| panic!("{}: {e}", v.name));
            let documented: Vec<&str> = v.columns.iter().map(|(c, _)| *c).collect();
            assert_eq!(a.columns, documented, "{}", v.name);
        }
    }

    #[test]
    fn writes_attach_pragmas_other_tables_and_runaways_are_refused() {
        let (dir, _writer) = store();
        let mut st = read_only(&dir);
        let cases = [
            ("INSERT INTO nodes (id) VALUES ('x')", "read-only"),
            ("DELETE FROM nodes", "cannot modify nodes because it is a view"),
            ("DELETE FROM node", "read-only"),
            ("UPDATE stored_edge SET weight = 0", "read-only"),
            ("INSERT INTO unit (id, digest) VALUES ('x', 1)", "read-only"),
            ("DROP VIEW nodes", "read-only"),
            ("CREATE TABLE t (x)", "read-only"),
            ("CREATE TEMP TABLE t (x)", "read-only"),
            ("PRAGMA writable_schema = 1", "PRAGMA writable_schema is refused"),
            (
                "SELECT * FROM pragma_table_info('node')",
                "`pragma_table_info` is not one of the query views",
            ),
            ("ATTACH DATABASE '/tmp/x.db' AS x", "ATTACH and DETACH are refused"),
            ("BEGIN", "transactions are refused"),
            ("SELECT * FROM node", "`node` is not one of the query views"),
            ("SELECT facts FROM source", "`source` is not one of the query views"),
            ("SELECT name FROM sqlite_master", "`sqlite_master` is not one of the query views"),
            ("SELECT 1; SELECT 2", "one statement per query"),
            ("SELECT 1; DELETE FROM node", "read-only"),
            ("SELECT load_extension('x')", "the function `load_extension` is refused"),
            ("SELECT nope FROM nodes", "no such column: nope"),
            ("SELECT printf('%.*c', 5000000, 'x')", "string or blob too big"),
            ("   ", "the query is empty"),
        ];
        for (sql, words) in cases {
            let e = refused(&mut st, sql);
            assert!(e.contains(words), "{sql}: {e}");
        }
        // A runaway stops at its deadline.
        let r = st.reader().expect("reader");
        let budget = GraphQueryBudget {
            timeout: std::time::Duration::from_millis(200),
            ..Default::default()
        };
        let e = err_text(r.graph_query(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c",
            &budget,
        ));
        assert!(e.contains("ran out of time (200 ms)"), "{e}");
        drop(r);
        // Nothing was written, and the connection reads its own tables again afterwards (the
        // guard is disarmed outside a graph query).
        let r = st.reader().expect("reader");
        assert_eq!(r.snapshot().expect("snapshot").symbols, 17);
        assert_eq!(r.lookup(&Target::new(s(UTIL, "log"))).expect("lookup").id, s(UTIL, "log"));
    }

    #[test]
    fn rows_and_long_values_are_cut_and_say_so() {
        let (dir, _writer) = store();
        let mut st = read_only(&dir);
        let r = st.reader().expect("reader");
        let budget = GraphQueryBudget { max_rows: 2, max_cell_chars: 5, ..Default::default() };
        let a = r.graph_query("SELECT id FROM nodes ORDER BY id", &budget).expect("query");
        assert!(a.truncated);
        assert_eq!(
            a.rows,
            vec![
                vec![Cell::Text { text: "file:".into(), cut: true }],
                vec![Cell::Text { text: "file:".into(), cut: true }],
            ]
        );
        let a = r.graph_query("SELECT COUNT(*) FROM files", &budget).expect("query");
        assert!(!a.truncated);
        assert_eq!(a.rows, vec![vec![Cell::Integer(6)]]);
        // A writable store (the indexer's) has no guard and refuses graph queries.
        drop(r);
        let (_d2, mut writer) = store();
        let r = writer.reader().expect("reader");
        assert!(err_text(r.graph_query("SELECT 1", &budget)).contains("read-only connections"));
    }
}

/// A walk cut at its node budget says its counts are lower bounds, on the risk line and first
/// among the notes.
#[test]
fn impact_cut_at_the_node_budget_says_its_counts_are_lower_bounds() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    let small = ImpactRequest { max_nodes: 2, ..Default::default() };
    let i = r.impact(&[s(UTIL, "log")], &small).unwrap();
    assert_eq!(i.cut_at, Some(2));
    assert!(i.notes[0].starts_with("the walk stopped at 2 nodes (max_nodes)"), "{:?}", i.notes);
    let text = render::impact(&i);
    let risk = text.lines().nth(1).unwrap_or_default();
    assert!(risk.contains(": at least 2 direct, at least 2 node(s) reached"), "{risk}");
    assert!(risk.ends_with("(the walk stopped at 2 nodes)"), "{risk}");
    let whole = r.impact(&[s(UTIL, "log")], &ImpactRequest::default()).unwrap();
    assert_eq!(whole.cut_at, None);
    assert!(whole.reached() > 2);
}
