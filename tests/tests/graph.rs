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
    assert_eq!(ran, vec!["file_facts", "parse"], "{ran:?}");
    assert_eq!(file_facts(&db, file).symbols[0].name, "F");
}
