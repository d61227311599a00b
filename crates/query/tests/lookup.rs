//! Lookup and search as a person types them, on one hand-built graph shaped like the real
//! repositories where they tripped: a gin-like Go package at the root with a subpackage and
//! tests, two standard-library-like packages, TypeScript modules, a namespace, an `index`
//! file and a name twelve files share. Every answer is exact.

use codegraph_query::ops::lookup::{MatchedBy, Searched, Target};
use codegraph_query::{QueryError, SearchRequest, SnapshotInfo, Store};
use codegraph_schema::Node;
use codegraph_schema::NodeKind;
use expect_test::{Expect, expect};

fn lang(path: &str) -> &'static str {
    if path.ends_with(".go") { "go" } else { "typescript" }
}

fn go_dir(path: &str) -> &str {
    match path.rsplit_once('/') {
        Some((d, _)) => d,
        None => ".",
    }
}

/// The test flag the indexer's language rules store for these paths (Go `_test.go`, TS
/// `*.test.ts`).
fn stored_test(path: &str) -> bool {
    path.ends_with("_test.go") || path.contains(".test.")
}

fn file(path: &str, lines: u32) -> Node {
    Node {
        id: format!("file:{path}").into(),
        kind: NodeKind::File,
        name: path.rsplit('/').next().unwrap_or(path).into(),
        qualified_name: path.into(),
        file: Some(path.into()),
        language: Some(lang(path)),
        start_line: Some(1),
        end_line: Some(lines),
        signature: None,
        doc: None,
        exported: false,
        test: stored_test(path),
        parent: (lang(path) == "go").then(|| format!("pkg:go:{}", go_dir(path)).into()),
        size: Some(100),
        lines: Some(lines),
        hash: Some("h".into()),
        props: None,
    }
}

fn package(dir: &str, name: &str) -> Node {
    Node {
        id: format!("pkg:go:{dir}").into(),
        kind: NodeKind::Package,
        name: name.into(),
        qualified_name: dir.into(),
        file: None,
        language: Some("go"),
        start_line: None,
        end_line: None,
        signature: None,
        doc: None,
        exported: true,
        test: false,
        parent: None,
        size: None,
        lines: None,
        hash: None,
        props: None,
    }
}

fn sym(path: &str, qn: &str, kind: NodeKind, lines: (u32, u32)) -> Node {
    let tag = if lang(path) == "go" { "go" } else { "ts" };
    let parent = match qn.rsplit_once('.') {
        Some((owner, _)) if tag == "ts" => format!("sym:ts:{path}:{owner}"),
        _ => format!("file:{path}"),
    };
    Node {
        id: format!("sym:{tag}:{path}:{qn}").into(),
        kind,
        name: qn.rsplit('.').next().unwrap_or(qn).into(),
        qualified_name: qn.into(),
        file: Some(path.into()),
        language: Some(lang(path)),
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

fn store() -> (tempfile::TempDir, Store) {
    use NodeKind::*;
    let mut nodes = vec![
        package(".", "gin"),
        package("render", "render"),
        package("net/http", "http"),
        package("errors", "errors"),
        file("gin.go", 30),
        file("context.go", 40),
        file("context_test.go", 60),
        file("render/render.go", 10),
        file("net/http/server.go", 200),
        file("errors/errors.go", 10),
        file("src/utils.ts", 10),
        file("src/auth/index.ts", 10),
        file("src/ns.ts", 10),
        file("src/a/helpers.ts", 5),
        file("src/b/helpers.ts", 5),
        sym("gin.go", "Engine", Struct, (1, 8)),
        sym("gin.go", "New", Function, (10, 20)),
        sym("gin.go", "Engine.Run", Method, (22, 30)),
        sym("context.go", "Context", Struct, (1, 10)),
        sym("context.go", "Context.Next", Method, (12, 16)),
        sym("context.go", "Context.ShouldBind", Method, (18, 20)),
        sym("context.go", "Context.ShouldBindJSON", Method, (22, 24)),
        sym("context.go", "Context.ShouldBindQuery", Method, (26, 28)),
        sym("context.go", "Context.AbortWithStatus", Method, (30, 33)),
        sym("context.go", "Context.AbortWithStatusJSON", Method, (35, 38)),
        sym("context_test.go", "TestContextAbortWithStatus", Function, (1, 9)),
        sym("context_test.go", "TestContextShouldBindJSON", Function, (11, 19)),
        sym("context_test.go", "TestShouldBindJSONError", Function, (21, 29)),
        sym("context_test.go", "TestShouldBindJSONEmpty", Function, (31, 39)),
        sym("context_test.go", "TestShouldBindJSONArray", Function, (41, 49)),
        sym("context_test.go", "TestShouldBindJSONMap", Function, (51, 59)),
        sym("render/render.go", "New", Function, (1, 5)),
        sym("net/http/server.go", "Server", Struct, (10, 20)),
        sym("net/http/server.go", "Server.ListenAndServe", Method, (30, 40)),
        sym("net/http/server.go", "ListenAndServe", Function, (100, 105)),
        sym("errors/errors.go", "New", Function, (5, 8)),
        sym("src/utils.ts", "formatDate", Function, (1, 5)),
        sym("src/auth/index.ts", "login", Function, (1, 5)),
        sym("src/ns.ts", "Outer", Variable, (1, 10)),
        sym("src/ns.ts", "Outer.Inner", Variable, (2, 9)),
        sym("src/ns.ts", "Outer.Inner.run", Function, (3, 5)),
        sym("src/a/helpers.ts", "slug", Function, (1, 3)),
        sym("src/b/helpers.ts", "slug", Function, (1, 3)),
    ];
    for i in 0..12 {
        let path = format!("src/models/m{i:02}.ts");
        nodes.push(file(&path, 10));
        nodes.push(sym(&path, "create", Function, (1, 5)));
    }
    nodes.sort_by(|a, b| a.id.cmp(&b.id));
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(&dir.path().join("lookup.db")).expect("open store");
    let mut p = store.begin_publish().expect("begin");
    p.insert_nodes(nodes.iter()).expect("nodes");
    let info =
        SnapshotInfo { root: "/r".into(), indexer_version: "t".into(), ..Default::default() };
    assert_eq!(p.commit(&info).expect("commit"), 1);
    (dir, store)
}

/// The ID a target resolves to, or the error's message.
fn answer(r: &codegraph_query::Reader<'_>, t: Target) -> String {
    match r.lookup(&t) {
        Ok(n) => n.id,
        Err(e) => format!("error: {e}"),
    }
}

fn q(text: &str) -> Target {
    Target::new(text)
}

fn in_file(text: &str, file: &str) -> Target {
    Target { query: text.into(), file: Some(file.into()), kind: None }
}

fn check(actual: String, expect: Expect) {
    expect.assert_eq(&actual);
}

#[test]
fn package_and_module_qualified_names() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    // Go: the package name (a root package's name is its package clause), the directory's
    // last segment, a trailing part of the directory; `pkg.Type.Method`.
    assert_eq!(answer(&r, q("gin.New")), "sym:go:gin.go:New");
    assert_eq!(answer(&r, q("errors.New")), "sym:go:errors/errors.go:New");
    assert_eq!(answer(&r, q("render.New")), "sym:go:render/render.go:New");
    assert_eq!(answer(&r, q("http.ListenAndServe")), "sym:go:net/http/server.go:ListenAndServe");
    assert_eq!(
        answer(&r, q("net/http.ListenAndServe")),
        "sym:go:net/http/server.go:ListenAndServe"
    );
    assert_eq!(
        answer(&r, q("http.Server.ListenAndServe")),
        "sym:go:net/http/server.go:Server.ListenAndServe"
    );
    assert_eq!(answer(&r, q("gin.Context.Next")), "sym:go:context.go:Context.Next");
    assert_eq!(answer(&r, q("Context.Next")), "sym:go:context.go:Context.Next");
    // TS: the module (base name), an index file's directory, a namespace's tail.
    assert_eq!(answer(&r, q("utils.formatDate")), "sym:ts:src/utils.ts:formatDate");
    assert_eq!(answer(&r, q("auth.login")), "sym:ts:src/auth/index.ts:login");
    assert_eq!(answer(&r, q("Outer.Inner.run")), "sym:ts:src/ns.ts:Outer.Inner.run");
    assert_eq!(answer(&r, q("Inner.run")), "sym:ts:src/ns.ts:Outer.Inner.run");
    assert_eq!(answer(&r, q("ns.Outer.Inner.run")), "sym:ts:src/ns.ts:Outer.Inner.run");
    // How it matched, and ambiguity stays honest.
    let amb = r.lookup(&q("helpers.slug"));
    let Err(QueryError::Ambiguous { total, candidates, .. }) = &amb else { panic!("{amb:?}") };
    assert_eq!(*total, 2);
    assert!(candidates.iter().all(|c| c.matched_by == MatchedBy::Container));
    check(
        answer(&r, q("helpers.slug")),
        expect![
            "error: `helpers.slug` is ambiguous: 2 candidates: sym:ts:src/a/helpers.ts:slug (function, src/a/helpers.ts:1), sym:ts:src/b/helpers.ts:slug (function, src/b/helpers.ts:1); pass one of these IDs, or narrow with --file / --kind"
        ],
    );
    assert_eq!(answer(&r, in_file("helpers.slug", "src/b/")), "sym:ts:src/b/helpers.ts:slug");
    // A head that names no package or module of the symbol.
    check(
        answer(&r, q("render.Next")),
        expect![
            "error: no symbol named `render.Next`; did you mean: sym:go:context.go:Context.Next, pkg:go:render, file:render/render.go, sym:go:render/render.go:New"
        ],
    );
    check(
        answer(&r, q("net.ListenAndServe")),
        expect![
            "error: no symbol named `net.ListenAndServe`; did you mean: sym:go:net/http/server.go:ListenAndServe, sym:go:net/http/server.go:Server.ListenAndServe"
        ],
    );
}

#[test]
fn file_line_targets() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    // An exact ID wins; then `path:line`, `path:line:column`, a unique path suffix.
    assert_eq!(answer(&r, q("file:gin.go")), "file:gin.go");
    assert_eq!(answer(&r, q("gin.go:12")), "sym:go:gin.go:New");
    assert_eq!(answer(&r, q("file:gin.go:12")), "sym:go:gin.go:New");
    assert_eq!(answer(&r, q("context.go:14:3")), "sym:go:context.go:Context.Next");
    assert_eq!(answer(&r, q("context.go:5")), "sym:go:context.go:Context");
    assert_eq!(answer(&r, q("server.go:101")), "sym:go:net/http/server.go:ListenAndServe");
    assert_eq!(
        answer(&r, q("http/server.go:35")),
        "sym:go:net/http/server.go:Server.ListenAndServe"
    );
    // The innermost of nested symbols.
    assert_eq!(answer(&r, q("src/ns.ts:4")), "sym:ts:src/ns.ts:Outer.Inner.run");
    assert_eq!(answer(&r, q("src/ns.ts:2")), "sym:ts:src/ns.ts:Outer.Inner");
    assert_eq!(answer(&r, q("./src/ns.ts:10")), "sym:ts:src/ns.ts:Outer");
    // No symbol there: said so, with the nearest ones and the file.
    let miss = r.lookup(&q("context.go:11"));
    let Err(QueryError::NotFound { searched, .. }) = &miss else { panic!("{miss:?}") };
    assert_eq!(searched, &Searched::Line { path: "context.go".into(), line: 11, lines: Some(40) });
    check(
        answer(&r, q("context.go:11")),
        expect![
            "error: no symbol spans line 11 of context.go (it is outside every function, type and declaration of the file); the nearest symbols: sym:go:context.go:Context, sym:go:context.go:Context.Next, sym:go:context.go:Context.ShouldBind, file:context.go"
        ],
    );
    check(
        answer(&r, q("gin.go:999")),
        expect![
            "error: gin.go has 30 lines in the index: no symbol spans line 999; the nearest symbols: sym:go:gin.go:Engine.Run, sym:go:gin.go:New, sym:go:gin.go:Engine, file:gin.go"
        ],
    );
    check(
        answer(&r, q("helpers.ts:1")),
        expect![
            "error: `helpers.ts:1` is ambiguous: 2 candidates: file:src/a/helpers.ts (file), file:src/b/helpers.ts (file); pass one of these IDs, or narrow with --file / --kind"
        ],
    );
    check(
        answer(&r, q("contxt.go:3")),
        expect![
            "error: no indexed file is `contxt.go` or has a path ending in `/contxt.go`; similar files: file:context.go"
        ],
    );
    // A suffix only counts at a directory boundary.
    check(
        answer(&r, q("ttp/server.go:101")),
        expect![
            "error: no indexed file is `ttp/server.go` or has a path ending in `/ttp/server.go`; similar files: file:net/http/server.go"
        ],
    );
}

#[test]
fn typos_suggest_by_edit_distance() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    // The definition first, not the tests whose names contain the words.
    check(
        answer(&r, q("ShouldBindJSN")),
        expect![
            "error: no symbol named `ShouldBindJSN`; did you mean: sym:go:context.go:Context.ShouldBindJSON, sym:go:context.go:Context.ShouldBind, sym:go:context.go:Context.ShouldBindQuery, sym:go:context_test.go:TestContextShouldBindJSON, sym:go:context_test.go:TestShouldBindJSONArray"
        ],
    );
    check(
        answer(&r, q("Nexxt")),
        expect!["error: no symbol named `Nexxt`; did you mean: sym:go:context.go:Context.Next"],
    );
    check(
        answer(&r, q("Context.Nxet")),
        expect![
            "error: no symbol named `Context.Nxet`; did you mean: sym:go:context.go:Context.Next, sym:go:context.go:Context, file:context.go, sym:go:context.go:Context.ShouldBind, sym:go:context.go:Context.AbortWithStatus"
        ],
    );
    // The kind hint applies to suggestions.
    check(
        answer(
            &r,
            Target {
                query: "formatDat".into(),
                file: None,
                kind: Some(codegraph_schema::NodeKind::Function),
            },
        ),
        expect!["error: no symbol named `formatDat`; did you mean: sym:ts:src/utils.ts:formatDate"],
    );
}

#[test]
fn ambiguity_counts_every_candidate() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    let amb = r.lookup(&q("create"));
    let Err(QueryError::Ambiguous { total, candidates, .. }) = &amb else { panic!("{amb:?}") };
    assert_eq!((*total, candidates.len()), (12, 10));
    check(
        answer(&r, q("create")),
        expect![
            "error: `create` is ambiguous: it names 12 nodes; the first 10: sym:ts:src/models/m00.ts:create (function, src/models/m00.ts:1), sym:ts:src/models/m01.ts:create (function, src/models/m01.ts:1), sym:ts:src/models/m02.ts:create (function, src/models/m02.ts:1), sym:ts:src/models/m03.ts:create (function, src/models/m03.ts:1), sym:ts:src/models/m04.ts:create (function, src/models/m04.ts:1), sym:ts:src/models/m05.ts:create (function, src/models/m05.ts:1), sym:ts:src/models/m06.ts:create (function, src/models/m06.ts:1), sym:ts:src/models/m07.ts:create (function, src/models/m07.ts:1), sym:ts:src/models/m08.ts:create (function, src/models/m08.ts:1), sym:ts:src/models/m09.ts:create (function, src/models/m09.ts:1); pass one of these IDs, or narrow with --file / --kind"
        ],
    );
    check(
        answer(&r, q("New")),
        expect![
            "error: `New` is ambiguous: 3 candidates: sym:go:errors/errors.go:New (function, errors/errors.go:5), sym:go:gin.go:New (function, gin.go:10), sym:go:render/render.go:New (function, render/render.go:1); pass one of these IDs, or narrow with --file / --kind"
        ],
    );
}

#[test]
fn file_hints_that_match_nothing_say_so() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    check(
        answer(&r, in_file("Next", "nosuch.go")),
        expect![
            "error: no indexed file path contains `nosuch.go` (looking for `Next` there): the file hint is a part of a path relative to the root"
        ],
    );
    check(
        answer(&r, in_file("Next", "contxt.go")),
        expect![
            "error: no indexed file path contains `contxt.go` (looking for `Next` there): the file hint is a part of a path relative to the root; similar files: file:context.go"
        ],
    );
    let miss = r.lookup(&in_file("Next", "gin.go"));
    let Err(QueryError::NotFound { searched, .. }) = &miss else { panic!("{miss:?}") };
    assert_eq!(searched, &Searched::FilesContaining { hint: "gin.go".into(), files: 1 });
    check(
        answer(&r, in_file("Next", "gin.go")),
        expect![
            "error: no symbol named `Next` in the 1 indexed file whose path contains `gin.go`; did you mean: sym:go:context.go:Context.Next"
        ],
    );
    check(
        answer(&r, in_file("Nexxt", "context")),
        expect![
            "error: no symbol named `Nexxt` in the 2 indexed files whose path contains `context`; did you mean: sym:go:context.go:Context.Next"
        ],
    );
    assert_eq!(answer(&r, in_file("Next", "context")), "sym:go:context.go:Context.Next");
}

/// `id score` per hit.
fn search(r: &codegraph_query::Reader<'_>, query: &str, include_tests: bool) -> String {
    let res = r
        .search(&SearchRequest { query: query.into(), kind: None, limit: 10, include_tests })
        .expect("search");
    let mut out = format!("{} {}\n", res.fallback.map_or("none", |f| f.as_str()), res.fts_query);
    for h in res.hits {
        out.push_str(&format!("{} {:.3}\n", h.node.id, h.score));
    }
    out
}

#[test]
fn search_ranks_definitions_prefixes_and_camel_case_parts() {
    let (_d, mut st) = store();
    let r = st.reader().unwrap();
    // Prefix recall: not only the one node named ShouldBind; tests after definitions.
    check(
        search(&r, "ShouldBind", false),
        expect![[r#"
            raw ShouldBind
            sym:go:context.go:Context.ShouldBind 1.000
            sym:go:context.go:Context.ShouldBindJSON 0.478
            sym:go:context.go:Context.ShouldBindQuery 0.478
        "#]],
    );
    // Camel-case parts: the method before the test named after it.
    check(
        search(&r, "abort with status", false),
        expect![[r#"
            raw abort with status
            sym:go:context.go:Context.AbortWithStatus 1.000
            sym:go:context.go:Context.AbortWithStatusJSON 0.816
            sym:go:context_test.go:TestContextAbortWithStatus 0.667
        "#]],
    );
    // With tests included, they rank by relevance alone.
    check(
        search(&r, "json", false),
        expect![[r#"
        raw json
        sym:go:context.go:Context.ShouldBindJSON 1.000
        sym:go:context.go:Context.AbortWithStatusJSON 0.979
        sym:go:context_test.go:TestContextShouldBindJSON 1.000
        sym:go:context_test.go:TestShouldBindJSONArray 1.000
        sym:go:context_test.go:TestShouldBindJSONEmpty 1.000
        sym:go:context_test.go:TestShouldBindJSONError 1.000
        sym:go:context_test.go:TestShouldBindJSONMap 1.000
    "#]],
    );
    check(
        search(&r, "json", true),
        expect![[r#"
        raw json
        sym:go:context.go:Context.ShouldBindJSON 1.000
        sym:go:context_test.go:TestContextShouldBindJSON 1.000
        sym:go:context_test.go:TestShouldBindJSONArray 1.000
        sym:go:context_test.go:TestShouldBindJSONEmpty 1.000
        sym:go:context_test.go:TestShouldBindJSONError 1.000
        sym:go:context_test.go:TestShouldBindJSONMap 1.000
        sym:go:context.go:Context.AbortWithStatusJSON 0.979
    "#]],
    );
    check(
        search(&r, "abort with status", true),
        expect![[r#"
            raw abort with status
            sym:go:context.go:Context.AbortWithStatus 1.000
            sym:go:context.go:Context.AbortWithStatusJSON 0.816
            sym:go:context_test.go:TestContextAbortWithStatus 0.667
        "#]],
    );
    // A prefix nothing else matches: answered by the prefix form.
    check(
        search(&r, "ListenAndServ", false),
        expect![[r#"
            prefix "listenandserv"*
            sym:go:net/http/server.go:ListenAndServe 1.000
            sym:go:net/http/server.go:Server.ListenAndServe 0.986
        "#]],
    );
}
