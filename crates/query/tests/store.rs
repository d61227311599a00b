//! The store on a small hand-made graph: publish, read back, search fallbacks, unknown IDs,
//! schema handling, and snapshot isolation between a reader and a publishing writer.

use codegraph_query::{Diagnostic, Fallback, QueryError, SearchRequest, SnapshotInfo, Store};
use codegraph_schema::{DiagnosticCode, EdgeKind, NodeKind, Reason};
use codegraph_schema::{Edge, Node};

fn node(id: &str, kind: NodeKind, name: &str, qn: &str, sig: Option<&str>) -> Node {
    Node {
        id: id.into(),
        kind,
        name: name.into(),
        qualified_name: qn.into(),
        file: Some("src/server.ts".into()),
        language: Some("typescript"),
        start_line: Some(1),
        end_line: Some(3),
        signature: sig.map(str::to_string),
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

/// A class with a method in one file. The symbols' DEFINES and parent edges are implied by
/// their rows (`file`, `parent`); the one stored edge is a call.
fn graph() -> (Vec<Node>, Vec<Edge>) {
    let mut class = node(
        "sym:ts:src/server.ts:Server",
        NodeKind::Class,
        "Server",
        "Server",
        Some("export class Server"),
    );
    class.parent = Some("file:src/server.ts".into());
    let mut method = node(
        "sym:ts:src/server.ts:Server.handleRequest",
        NodeKind::Method,
        "handleRequest",
        "Server.handleRequest",
        Some("handleRequest(req: Request)"),
    );
    method.parent = Some(class.id.clone());
    let nodes = vec![
        class,
        method,
        node("file:src/server.ts", NodeKind::File, "server.ts", "src/server.ts", None),
    ];
    let edges = vec![Edge::new(
        "sym:ts:src/server.ts:Server.handleRequest".into(),
        "sym:ts:src/server.ts:Server".into(),
        EdgeKind::Calls,
        Reason::SameFile,
        2,
    )];
    (nodes, edges)
}

fn publish(store: &mut Store, nodes: &[Node], edges: &[Edge]) -> i64 {
    let info =
        SnapshotInfo { root: "/r".into(), indexer_version: "t".into(), ..SnapshotInfo::default() };
    let diags = vec![Diagnostic {
        path: "a.bin".into(),
        code: DiagnosticCode::Binary,
        detail: "NUL".into(),
    }];
    store
        .publish(
            &info,
            &nodes.iter().collect::<Vec<_>>(),
            &edges.iter().collect::<Vec<_>>(),
            &diags,
        )
        .expect("publish")
}

#[test]
fn publish_then_read_one_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut w = Store::open(&path).unwrap();
    let (nodes, edges) = graph();
    assert_eq!(publish(&mut w, &nodes, &edges), 1);

    let mut r = Store::open_read_only(&path).unwrap();
    let reader = r.reader().unwrap();
    let st = reader.status().unwrap();
    assert_eq!(st.snapshot.revision, 1);
    assert_eq!(
        (st.snapshot.files, st.snapshot.symbols, st.snapshot.edges, st.snapshot.skipped),
        (1, 2, 5, 1)
    );
    assert_eq!(
        st.edges_by_kind,
        vec![
            ("CALLS".into(), 1),
            ("CONTAINS".into(), 1),
            ("DEFINES".into(), 2),
            ("HAS_METHOD".into(), 1)
        ]
    );
    assert_eq!(
        st.nodes_by_kind,
        vec![("class".into(), 1), ("file".into(), 1), ("method".into(), 1)]
    );
    let opened = reader.open("sym:ts:src/server.ts:Server").unwrap();
    assert_eq!(opened.outgoing.len(), 1);
    assert_eq!(opened.outgoing[0].kind, codegraph_schema::EdgeKind::HasMethod);
    assert_eq!(opened.outgoing[0].weight, 1.0);
    let incoming: Vec<(&str, &str, u32)> =
        opened.incoming.iter().map(|e| (e.kind.as_str(), e.src.as_str(), e.line)).collect();
    assert_eq!(
        incoming,
        vec![
            ("CALLS", "sym:ts:src/server.ts:Server.handleRequest", 2),
            ("CONTAINS", "file:src/server.ts", 0),
            ("DEFINES", "file:src/server.ts", 0),
        ]
    );
}

#[test]
fn search_fallback_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut w = Store::open(&path).unwrap();
    let (nodes, edges) = graph();
    publish(&mut w, &nodes, &edges);
    let reader = w.reader().unwrap();
    let search = |q: &str, kind: Option<&str>| {
        reader
            .search(&SearchRequest {
                query: q.into(),
                kind: kind.and_then(codegraph_schema::NodeKind::parse),
                limit: 10,
                include_tests: false,
            })
            .unwrap()
    };

    let r = search("Server", None);
    assert_eq!(r.fallback, Some(Fallback::Raw));
    assert_eq!(r.hits[0].node.id, "sym:ts:src/server.ts:Server");
    assert_eq!(r.hits[0].score, 1.0);
    assert!(r.hits.iter().all(|h| h.score > 0.0 && h.score <= 1.0));

    // Split identifier terms: "request" finds handleRequest.
    let r = search("request", Some("method"));
    assert_eq!(r.hits.len(), 1);
    assert_eq!(r.hits[0].node.id, "sym:ts:src/server.ts:Server.handleRequest");

    // Invalid FTS5 syntax falls back to the quoted phrase.
    let r = search("handleRequest(req", None);
    assert_eq!(r.fallback, Some(Fallback::Quoted));
    assert_eq!(r.hits[0].node.id, "sym:ts:src/server.ts:Server.handleRequest");

    // No phrase match: OR-joined terms.
    let r = search("server widget", None);
    assert_eq!(r.fallback, Some(Fallback::OrTerms));
    assert_eq!(r.fts_query, "\"server\" OR \"widget\"");

    let r = search("nothing_like_it", None);
    assert_eq!(r.fallback, None);
    assert!(r.hits.is_empty());

    assert!(matches!(
        reader.search(&SearchRequest {
            query: "  ".into(),
            kind: None,
            limit: 5,
            include_tests: false
        }),
        Err(QueryError::EmptyQuery)
    ));
    // A pasted wall of text is refused at once (it used to take seconds to minutes), and
    // a query at the limit still runs.
    let wall = vec!["server"; 16_000].join(" ");
    let t = std::time::Instant::now();
    let err = reader
        .search(&SearchRequest { query: wall, kind: None, limit: 5, include_tests: false })
        .unwrap_err();
    assert!(t.elapsed() < std::time::Duration::from_secs(1), "{:?}", t.elapsed());
    assert!(matches!(err, QueryError::QueryTooLong { words: 16_000, max: 64 }), "{err}");
    assert!(err.to_string().starts_with("the search query has 16000 words; at most 64"));
    let at_limit = vec!["server"; 64].join(" ");
    let r = reader
        .search(&SearchRequest { query: at_limit, kind: None, limit: 5, include_tests: false })
        .unwrap();
    assert!(!r.hits.is_empty());
}

#[test]
fn unknown_ids_suggest_near_matches() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut w = Store::open(&path).unwrap();
    let (nodes, edges) = graph();
    publish(&mut w, &nodes, &edges);
    let reader = w.reader().unwrap();
    match reader.open("sym:ts:src/server.ts:Server.stop") {
        Err(QueryError::UnknownId { suggestions, .. }) => {
            assert_eq!(
                suggestions,
                vec!["sym:ts:src/server.ts:Server", "sym:ts:src/server.ts:Server.handleRequest"]
            );
        }
        other => panic!("expected UnknownId, got {other:?}"),
    }
    match reader.open("sym:go:x.go:handleRequest") {
        Err(QueryError::UnknownId { suggestions, .. }) => {
            assert_eq!(suggestions, vec!["sym:ts:src/server.ts:Server.handleRequest"]);
        }
        other => panic!("expected UnknownId, got {other:?}"),
    }
}

#[test]
fn missing_and_empty_indexes_are_specific_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.db");
    assert!(matches!(Store::open_read_only(&path), Err(QueryError::NoIndex { .. })));
    let mut w = Store::open(&path).unwrap();
    assert!(matches!(w.reader(), Err(QueryError::NoRevision { .. })));

    // A file a writer is creating (tables, no version row yet) has no revision; it is not
    // "schema version 0" (a concurrent `status` used to say so).
    let creating = dir.path().join("creating.db");
    let c = rusqlite::Connection::open(&creating).unwrap();
    c.execute_batch("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)").unwrap();
    assert!(matches!(Store::open_read_only(&creating), Err(QueryError::NoRevision { .. })));

    // Garbage and a truncated index are named damaged, with what to do; never "no revision".
    let garbage = dir.path().join("garbage.db");
    std::fs::write(&garbage, vec![0x42u8; 9000]).unwrap();
    let e = Store::open_read_only(&garbage).err().expect("damaged");
    assert_eq!(e.damaged_path(), Some(garbage.as_path()), "{e}");
    assert!(
        e.to_string().ends_with(
            "the index is damaged: run `codegraph index` to move it aside and rebuild it"
        ),
        "{e}"
    );
    assert!(Store::check_integrity(&garbage).is_err());
    assert_eq!(Store::check_integrity(&path), Ok(()));
}

#[test]
fn a_reader_keeps_its_revision_while_a_writer_publishes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut w = Store::open(&path).unwrap();
    let (nodes, edges) = graph();
    publish(&mut w, &nodes, &edges);

    let mut r = Store::open_read_only(&path).unwrap();
    let reader = r.reader().unwrap();
    assert!(reader.node("file:src/server.ts").unwrap().is_some());

    // Revision 2 drops the class; the open reader still sees revision 1 in full.
    let fewer: Vec<Node> = nodes.iter().filter(|n| n.kind != NodeKind::Class).cloned().collect();
    assert_eq!(publish(&mut w, &fewer, &[]), 2);
    assert_eq!(reader.revision(), 1);
    assert!(reader.node("sym:ts:src/server.ts:Server").unwrap().is_some());
    assert_eq!(reader.snapshot().unwrap().symbols, 2);
    drop(reader);

    let reader = r.reader().unwrap();
    assert_eq!(reader.revision(), 2);
    assert!(reader.node("sym:ts:src/server.ts:Server").unwrap().is_none());
    assert_eq!(reader.snapshot().unwrap().symbols, 1);
}

#[test]
fn publishing_twice_gives_identical_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (nodes, edges) = graph();
    let mut dumps = Vec::new();
    for name in ["a.db", "b.db"] {
        let mut w = Store::open(&dir.path().join(name)).unwrap();
        // Input order must not matter.
        let mut n = nodes.clone();
        if name == "b.db" {
            n.reverse();
        }
        publish(&mut w, &n, &edges);
        let reader = w.reader().unwrap();
        let mut rows = Vec::new();
        reader.for_each_node(|n| rows.push(format!("{n:?}"))).unwrap();
        reader.for_each_edge(|e| rows.push(format!("{e:?}"))).unwrap();
        dumps.push(rows);
    }
    assert_eq!(dumps[0], dumps[1]);
    assert_eq!(dumps[0].len(), 8);
}

/// Names of the files in `dir`, sorted.
fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list the directory")
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_first_build_is_written_beside_the_index_and_renamed_into_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    assert!(Store::is_unpublished(&path), "no file yet");
    // What a killed first build leaves behind (no process has this ID), and an empty file.
    std::fs::write(dir.path().join("i.db.building-4000000001"), b"partial").unwrap();
    std::fs::write(&path, b"").unwrap();
    assert!(Store::is_unpublished(&path), "an empty file");

    let mut w = Store::open_bulk(&path).unwrap();
    let building = format!("i.db.building-{}", std::process::id());
    assert_eq!(files_in(dir.path()), vec!["i.db".to_string(), building.clone()]);
    let (nodes, edges) = graph();
    assert_eq!(publish(&mut w, &nodes, &edges), 1);
    // Nothing is visible at the index's path until the rename.
    assert!(matches!(Store::open_read_only(&path), Err(QueryError::NoRevision { .. })));

    let w = w.install(&path).unwrap();
    assert!(!files_in(dir.path()).contains(&building));
    assert!(!Store::is_unpublished(&path), "a published revision");
    {
        let mut r = Store::open_read_only(&path).unwrap();
        let reader = r.reader().unwrap();
        assert_eq!(reader.revision(), 1);
        assert_eq!(reader.snapshot().unwrap().symbols, 2);
    }
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        let page: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        let journal: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
        assert_eq!((page, journal.as_str()), (16384, "wal"));
    }
    // The installed database is an ordinary WAL database that later revisions update.
    let mut w = w;
    assert_eq!(publish(&mut w, &nodes[..1], &[]), 2);
    {
        let mut r = Store::open_read_only(&path).unwrap();
        assert_eq!(r.reader().unwrap().revision(), 2);
    }
    // The last connection to close (a writer) removes the write-ahead files.
    drop(w);
    assert_eq!(files_in(dir.path()), vec!["i.db".to_string()]);
}

#[test]
fn a_database_with_a_revision_or_a_live_log_is_not_built_beside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let w = Store::open(&path).unwrap();
    // Open by a writer: its write-ahead log exists, so someone may be reading.
    assert!(!Store::is_unpublished(&path));
    drop(w);
    // Closed and without a revision: nothing anyone could read.
    assert!(Store::is_unpublished(&path));
    let mut w = Store::open(&path).unwrap();
    let (nodes, edges) = graph();
    publish(&mut w, &nodes, &edges);
    drop(w);
    assert!(!Store::is_unpublished(&path));
    // A file that is not a database is left alone (the normal open reports it).
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database at all, just text").unwrap();
    assert!(!Store::is_unpublished(&junk));
}

#[test]
fn an_abandoned_bulk_build_leaves_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let w = Store::open_bulk(&path).unwrap();
    w.discard_bulk();
    assert!(files_in(dir.path()).is_empty());
    // A published database is only closed, never removed, even if a name looks like a build's.
    let other = dir.path().join("x.db.building-1");
    Store::open(&other).unwrap().discard_bulk();
    assert_eq!(files_in(dir.path()), vec!["x.db.building-1".to_string()]);
}

/// A query whose client went away is stopped: an interrupt from another thread makes the
/// running statement fail with SQLite's "interrupted", and the connection serves on.
#[test]
fn an_interrupt_stops_a_running_query_and_the_connection_serves_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let (nodes, edges) = graph();
    let mut w = Store::open(&path).unwrap();
    publish(&mut w, &nodes, &edges);
    let mut store = Store::open_read_only(&path).unwrap();
    let interrupt = store.interrupt_handle();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop = done.clone();
    let nagger = std::thread::spawn(move || {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !stop.load(std::sync::atomic::Ordering::SeqCst)
            && std::time::Instant::now() < deadline
        {
            interrupt.interrupt();
        }
    });
    let request = SearchRequest {
        query: "store add server".into(),
        kind: None,
        limit: 10,
        include_tests: false,
    };
    let mut interrupted = None;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while interrupted.is_none() && std::time::Instant::now() < deadline {
        if let Err(e) = store.reader().and_then(|r| r.search(&request)) {
            interrupted = Some(e.to_string());
        }
    }
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    nagger.join().unwrap();
    let e = interrupted.expect("some statement was interrupted");
    // An interrupt that lands while SQLite connects the FTS table fails the statement with
    // "vtable constructor failed" rather than "interrupted"; either way the statement stopped.
    assert!(e.contains("interrupted") || e.contains("vtable constructor failed"), "{e}");
    assert!(!store.reader().unwrap().search(&request).unwrap().hits.is_empty());
}
