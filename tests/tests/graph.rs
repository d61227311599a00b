//! Golden graphs (nodes, structural edges, IDs) built through the salsa queries.

use codegraph_tests::render_fixture_graph;
use expect_test::expect;

#[test]
fn markdown_sections_nest_with_contains() {
    let out = render_fixture_graph(
        r#"
        //- /docs/a.md
        # A
        ## B
        ## B
        //- /notes.txt
        hello
        "#,
    );
    expect![[r#"
        node file file:docs/a.md L1-3
        node file file:notes.txt L1-1
        node section sym:md:docs/a.md:A L1-3 parent=file:docs/a.md
        node section sym:md:docs/a.md:A.B L2-2 parent=sym:md:docs/a.md:A
        node section sym:md:docs/a.md:A.B#2 L3-3 parent=sym:md:docs/a.md:A
        edge CONTAINS file:docs/a.md -> sym:md:docs/a.md:A structural 1.00
        edge DEFINES file:docs/a.md -> sym:md:docs/a.md:A structural 1.00
        edge DEFINES file:docs/a.md -> sym:md:docs/a.md:A.B structural 1.00
        edge DEFINES file:docs/a.md -> sym:md:docs/a.md:A.B#2 structural 1.00
        edge CONTAINS sym:md:docs/a.md:A -> sym:md:docs/a.md:A.B structural 1.00
        edge CONTAINS sym:md:docs/a.md:A -> sym:md:docs/a.md:A.B#2 structural 1.00
    "#]]
    .assert_eq(&out);
}

/// The facts firewall: an edit that changes the text but not the facts (spaces inside a line)
/// re-runs the parse and the facts, and nothing behind them.
#[test]
fn equal_facts_stop_propagation() {
    use codegraph_db::{Content, Database, FileMeta, SourceFile, file_facts};
    use codegraph_parse::Language;
    use codegraph_resolve::file_graph;
    use salsa::Setter;
    use std::sync::{Arc, Mutex};

    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = log.clone();
    let mut db = Database::with_event_callback(Box::new(move |e| {
        if let salsa::EventKind::WillExecute { database_key } = e.kind {
            sink.lock().unwrap().push(format!("{database_key:?}"));
        }
    }));
    let text = "package a\n\nfunc F() int {\n\treturn 1\n}\n";
    let file = SourceFile::new(
        &db,
        "a.go".to_string(),
        Some(Language::Go),
        Content::Text(Arc::from(text)),
        FileMeta::for_text(text),
    );
    assert_eq!(file_graph(&db, file).nodes.len(), 1);
    log.lock().unwrap().clear();

    file.set_content(&mut db)
        .to(Content::Text(Arc::from("package a\n\nfunc F() int {\n\treturn    1\n}\n")));
    let _ = file_graph(&db, file);
    let mut ran: Vec<String> =
        log.lock().unwrap().iter().map(|k| k.split('(').next().unwrap().to_string()).collect();
    ran.sort();
    assert_eq!(ran, vec!["facts_of", "parse"], "{ran:?}");
    assert_eq!(file_facts(&db, file).symbols[0].name, "F");
}

/// Node units of Go: one per directory with Go files, sorted by directory, each with its
/// package node ID; their graphs are the package rows, and `node_unit_rows` is their
/// concatenation.
#[test]
fn package_units_partition_the_package_rows() {
    use codegraph_resolve::{UnitGraph, node_unit_graph, node_unit_rows, node_units};
    let (db, _, ws) = codegraph_tests::fixture_db(
        r#"
        //- /main.go
        package main
        //- /b/b.go
        package b
        type T struct{}
        //- /b/m.go
        package b
        func (T) M() {}
        //- /a/a.go
        package a
        //- /docs/x.md
        # X
        "#,
    );
    let units = node_units(&db, ws);
    let ids: Vec<(&str, &str)> = units.iter().map(|u| (u.key(&db), u.id(&db))).collect();
    assert_eq!(ids, vec![("", "pkg:go:."), ("a", "pkg:go:a"), ("b", "pkg:go:b")]);
    let mut all = UnitGraph::default();
    for &u in units {
        let g = node_unit_graph(&db, u);
        assert_eq!(g.nodes.iter().map(|n| &*n.id).collect::<Vec<_>>(), vec![u.id(&db)]);
        all.nodes.extend(g.nodes.iter().cloned());
        all.edges.extend(g.edges.iter().cloned());
    }
    assert_eq!(&all, node_unit_rows(&db, ws));
    let b = node_unit_graph(&db, units[2]);
    let edges: Vec<String> =
        b.edges.iter().map(|e| format!("{} {} -> {} {}", e.kind, e.src, e.dst, e.reason)).collect();
    assert_eq!(
        edges,
        vec![
            "CONTAINS pkg:go:b -> file:b/b.go structural",
            "CONTAINS pkg:go:b -> file:b/m.go structural",
            "HAS_METHOD sym:go:b/b.go:T -> sym:go:b/m.go:T.M same-package",
        ]
    );
}

/// Sibling roots of one process share a file's graph rows when their inputs at the same path
/// hold the same facts (the same `Arc`), and sharing never changes an answer: rows built from
/// other facts, or from equal facts in another allocation, are the same rows by value.
#[test]
fn file_graph_rows_are_shared_by_facts_and_path_only() {
    use codegraph_db::{Content, Database, FileMeta, SourceFile};
    use codegraph_parse::{Language, analyze};
    use codegraph_resolve::file_graph;
    use std::sync::Arc;

    let text = "package p\n\n// Open opens.\nfunc Open() {}\n\ntype T struct{ x int }\n";
    let facts = Arc::new(analyze(Language::Go, text));
    let input = |db: &Database, path: &str, facts: &Arc<_>| {
        SourceFile::new(
            db,
            path.to_string(),
            Some(Language::Go),
            Content::Stored(Arc::clone(facts)),
            FileMeta::for_text(text),
        )
    };
    let (a, b, c) = (Database::default(), Database::default(), Database::default());
    let (fa, fb) = (input(&a, "p/open.go", &facts), input(&b, "p/open.go", &facts));
    let (ga, gb) = (file_graph(&a, fa), file_graph(&b, fb));
    assert!(Arc::ptr_eq(&ga.nodes, &gb.nodes), "same path and facts: one copy of the rows");
    assert!(Arc::ptr_eq(&ga.edges, &gb.edges));
    // Equal facts in another allocation: built again, equal by value.
    let own = Arc::new(analyze(Language::Go, text));
    let fc = input(&c, "p/open.go", &own);
    let gc = file_graph(&c, fc);
    assert!(!Arc::ptr_eq(&ga.nodes, &gc.nodes));
    assert_eq!(ga, gc);
    // The same facts at another path: other rows (the IDs name the path).
    let d = Database::default();
    let fd = input(&d, "q/open.go", &facts);
    let gd = file_graph(&d, fd);
    let ids: Vec<&str> = gd.nodes.iter().map(|n| &*n.id).collect();
    assert_eq!(ids, ["sym:go:q/open.go:Open", "sym:go:q/open.go:T", "sym:go:q/open.go:T.x"]);
}

/// Sibling databases of one process (one per served root) keep one copy of each resolution
/// that comes out equal (`codegraph_resolve`'s hash-consing), and their own where it differs.
#[test]
fn equal_resolutions_of_sibling_databases_are_one_allocation() {
    use codegraph_resolve::{resolve_file, symbol_ids};
    use codegraph_tests::fixture_db;

    let fixture = |callee: &str| {
        format!(
            "//- /go.mod\nmodule example.com/m\n\
             //- /a/a.go\npackage a\n\nfunc {callee}() {{}}\n\
             //- /b/b.go\npackage b\n\nimport \"example.com/m/a\"\n\nfunc Run() {{\n\ta.Open()\n}}\n"
        )
    };
    let (db1, files1, ws1) = fixture_db(&fixture("Open"));
    let (db2, files2, ws2) = fixture_db(&fixture("Open"));
    let (db3, files3, ws3) = fixture_db(&fixture("Close"));
    let b = |files: &[codegraph_db::SourceFile], db: &codegraph_db::Database| {
        files.iter().copied().find(|f| f.path(db) == "b/b.go").unwrap()
    };
    let (r1, r2, r3) = (
        resolve_file(&db1, ws1, b(&files1, &db1)),
        resolve_file(&db2, ws2, b(&files2, &db2)),
        resolve_file(&db3, ws3, b(&files3, &db3)),
    );
    let calls = |r: &codegraph_resolve::Resolved| {
        r.edges.iter().map(|e| format!("{} {} -> {}", e.kind, e.src, e.dst)).collect::<Vec<_>>()
    };
    assert_eq!(
        calls(r1),
        ["IMPORTS file:b/b.go -> pkg:go:a", "CALLS sym:go:b/b.go:Run -> sym:go:a/a.go:Open"]
    );
    assert!(std::ptr::eq(r1, r2), "equal resolutions: one allocation");
    // The third root's `a.Open` names nothing: its own answer, not its siblings'.
    assert!(!std::ptr::eq(r1, r3));
    assert_eq!(calls(r3), ["IMPORTS file:b/b.go -> pkg:go:a"]);
    assert_eq!(r3.unresolved.len(), 1);
    // Symbol ID lists are shared the same way, and their IDs are one allocation each.
    let a = |files: &[codegraph_db::SourceFile], db: &codegraph_db::Database| {
        files.iter().copied().find(|f| f.path(db) == "a/a.go").unwrap()
    };
    let (ids1, ids2) = (symbol_ids(&db1, a(&files1, &db1)), symbol_ids(&db2, a(&files2, &db2)));
    assert!(std::sync::Arc::ptr_eq(ids1, ids2));
    assert!(std::sync::Arc::ptr_eq(&ids1[0], &r1.edges[1].dst));
}
