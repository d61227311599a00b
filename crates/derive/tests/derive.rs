//! Exact outputs of the whole-graph derivations on small hand-built graphs: clusters (members,
//! labels, IDs, cohesion) and processes (entry rules, walk bounds, trimming, deduplication),
//! and their independence from input order.

use codegraph_derive::{
    Cluster, ClusterConfig, EdgeIn, GraphInput, NodeIn, Process, ProcessConfig, clusters, processes,
};
use codegraph_schema::{EdgeKind, NodeKind};

/// A graph under construction, nodes named by ID.
#[derive(Default)]
struct G {
    input: GraphInput,
}

impl G {
    fn node(&mut self, kind: NodeKind, file: &str, name: &str) -> &mut NodeIn {
        let prefix = kind.category().id_prefix();
        self.input.nodes.push(NodeIn {
            id: format!("{prefix}:{file}:{name}"),
            kind,
            name: name.to_string(),
            file: Some(file.to_string()),
            exported: false,
            is_test: false,
            program_entry: false,
            start_line: 1,
            end_line: 10,
        });
        self.input.nodes.last_mut().expect("just pushed")
    }

    fn func(&mut self, file: &str, name: &str) -> &mut NodeIn {
        self.node(NodeKind::Function, file, name)
    }

    fn at(&self, name: &str) -> usize {
        self.input.nodes.iter().position(|n| n.name == name).expect("node exists")
    }

    fn edge(&mut self, kind: EdgeKind, src: &str, dst: &str, weight: f64) {
        let (src, dst) = (self.at(src), self.at(dst));
        self.input.edges.push(EdgeIn { src, dst, kind, weight });
    }

    fn calls(&mut self, src: &str, dst: &str, weight: f64) {
        self.edge(EdgeKind::Calls, src, dst, weight);
    }
}

/// Clusters with member names instead of indexes, cohesion to 4 decimals.
fn render_clusters(input: &GraphInput, clusters: &[Cluster]) -> Vec<String> {
    clusters
        .iter()
        .map(|c| {
            let members: Vec<&str> =
                c.members.iter().map(|&m| input.nodes[m].name.as_str()).collect();
            format!("{} | {} | {:.4} | {}", c.id, c.label, c.cohesion, members.join(" "))
        })
        .collect()
}

/// Processes with entry and step IDs instead of indexes, score to 2 decimals.
fn render_processes(input: &GraphInput, processes: &[Process]) -> Vec<String> {
    processes
        .iter()
        .map(|p| {
            let steps: Vec<&str> = p.steps.iter().map(|&s| input.nodes[s].name.as_str()).collect();
            assert_eq!(p.steps.first(), Some(&p.entry), "entry first");
            format!("{} | {:.2} | {} | {}", p.id, p.score, p.label, steps.join(" > "))
        })
        .collect()
}

/// A seeded shuffle (xorshift), so the test needs no random-number crate.
fn shuffled(input: &GraphInput, seed: u64) -> GraphInput {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let mut perm: Vec<usize> = (0..input.nodes.len()).collect();
    for i in (1..perm.len()).rev() {
        perm.swap(i, next(i + 1));
    }
    // perm[new] = old; where[old] = new.
    let mut place = vec![0; perm.len()];
    for (new, &old) in perm.iter().enumerate() {
        place[old] = new;
    }
    let nodes = perm.iter().map(|&old| input.nodes[old].clone()).collect();
    let mut edges: Vec<EdgeIn> = input
        .edges
        .iter()
        .map(|e| EdgeIn {
            src: place.get(e.src).copied().unwrap_or(e.src),
            dst: place.get(e.dst).copied().unwrap_or(e.dst),
            ..e.clone()
        })
        .collect();
    for i in (1..edges.len()).rev() {
        edges.swap(i, next(i + 1));
    }
    GraphInput { nodes, edges }
}

/// Two obvious communities (`net/http`, `encoding/json`) joined by one weak call, plus nodes
/// and edges that must be ignored.
fn two_communities() -> G {
    let mut g = G::default();
    g.node(NodeKind::Struct, "net/http/server.go", "Server");
    g.node(NodeKind::Interface, "net/http/server.go", "Handler");
    g.node(NodeKind::Struct, "net/http/conn.go", "conn");
    g.func("net/http/internal/serve.go", "serve");
    g.node(NodeKind::Struct, "encoding/json/decode.go", "Decoder");
    g.node(NodeKind::Struct, "encoding/json/encode.go", "Encoder");
    g.func("encoding/json/encode.go", "Marshal");
    g.func("encoding/json/decode.go", "Unmarshal");
    // Ignored: a file, a route, a test function, an isolated function, a called parameter.
    g.node(NodeKind::File, "net/http/server.go", "server.go");
    g.node(NodeKind::Parameter, "encoding/json/encode.go", "Marshal.f");
    g.node(NodeKind::Route, "api/app.go", "GET /x");
    g.func("net/http/server_test.go", "TestServe").is_test = true;
    g.func("lonely/lonely.go", "lonely");

    // net/http: internal 2.7 + 1 + 1 + 1 + 2 = 7.7; degrees Server 4.7, serve 4, Handler 3.7:
    // `serve` is outside the dominant folder, so the label names Server and Handler.
    g.calls("Server", "Handler", 1.0);
    g.calls("Handler", "Server", 0.9);
    g.edge(EdgeKind::Implements, "Server", "Handler", 0.8);
    g.calls("Server", "conn", 1.0);
    g.calls("Server", "serve", 1.0);
    g.calls("Handler", "serve", 1.0);
    g.calls("conn", "serve", 1.0);
    g.calls("conn", "serve", 1.0);
    // encoding/json: internal 5.8; degrees Decoder 3, Marshal 3, Encoder 2.8, Unmarshal 2.8.
    g.calls("Marshal", "Encoder", 1.0);
    g.calls("Unmarshal", "Decoder", 1.0);
    g.calls("Marshal", "Unmarshal", 1.0);
    g.edge(EdgeKind::Extends, "Encoder", "Decoder", 1.0);
    g.calls("Marshal", "Decoder", 1.0);
    g.edge(EdgeKind::Implements, "Unmarshal", "Encoder", 0.8);
    // The weak bridge.
    g.calls("serve", "Marshal", 0.3);
    // Ignored edges: file -> symbol, route -> handler, test calls, a self-loop, structural.
    g.edge(EdgeKind::Imports, "server.go", "Marshal", 1.0);
    g.edge(EdgeKind::HandlesRoute, "GET /x", "serve", 1.0);
    g.calls("TestServe", "serve", 1.0);
    g.calls("TestServe", "Decoder", 1.0);
    g.calls("serve", "serve", 1.0);
    g.calls("Marshal", "Marshal.f", 1.0);
    g.edge(EdgeKind::Contains, "server.go", "Server", 1.0);
    // Bad edges are skipped, not fatal.
    g.input.edges.push(EdgeIn { src: 0, dst: 999, kind: EdgeKind::Calls, weight: 1.0 });
    g.input.edges.push(EdgeIn { src: 0, dst: 4, kind: EdgeKind::Calls, weight: f64::NAN });
    g
}

#[test]
fn two_communities_joined_by_a_weak_edge() {
    let g = two_communities();
    let out = clusters(&g.input, &ClusterConfig::default()).expect("clusters");
    assert_eq!(
        render_clusters(&g.input, &out),
        [
            // 5.8 / (5.8 + 0.3)
            "cluster:encoding/json-Decoder-Marshal | encoding/json: Decoder, Marshal | 0.9508 | Decoder Unmarshal Encoder Marshal",
            // 7.7 / (7.7 + 0.3)
            "cluster:net/http-Server-Handler | net/http: Server, Handler | 0.9625 | conn serve Handler Server",
        ]
    );
}

#[test]
fn clusters_ignore_input_order() {
    let g = two_communities();
    let config = ClusterConfig::default();
    let base = render_clusters(&g.input, &clusters(&g.input, &config).expect("clusters"));
    for seed in 1..20 {
        let s = shuffled(&g.input, seed);
        let out = clusters(&s, &config).expect("clusters");
        assert_eq!(render_clusters(&s, &out), base, "seed {seed}");
    }
}

/// A few hundred symbols in loosely coupled groups: enough for Leiden's random order to matter.
fn random_graph(nodes: usize, edges: usize, seed: u64) -> GraphInput {
    let mut state = seed | 1;
    let mut next = move |bound: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) % bound as u64) as usize
    };
    let mut input = GraphInput::default();
    for i in 0..nodes {
        let folder = i % 17;
        input.nodes.push(NodeIn {
            id: format!("sym:go:pkg{folder}/f.go:fn{i}"),
            kind: NodeKind::Function,
            name: format!("fn{i}"),
            file: Some(format!("pkg{folder}/f.go")),
            exported: i % 3 == 0,
            is_test: false,
            program_entry: false,
            start_line: 1,
            end_line: 1 + (i % 7) as u32,
        });
    }
    for _ in 0..edges {
        let src = next(nodes);
        // Mostly within the same folder, sometimes anywhere.
        let dst = if next(5) == 0 { next(nodes) } else { (src + 17 * next(nodes / 17)) % nodes };
        let weight = [1.0, 0.95, 0.9, 0.8, 0.3][next(5)];
        input.edges.push(EdgeIn { src, dst, kind: EdgeKind::Calls, weight });
    }
    input
}

fn by_id(input: &GraphInput, clusters: &[Cluster]) -> Vec<(String, String, Vec<String>, String)> {
    clusters
        .iter()
        .map(|c| {
            let members = c.members.iter().map(|&m| input.nodes[m].id.clone()).collect();
            (c.id.clone(), c.label.clone(), members, format!("{:.12}", c.cohesion))
        })
        .collect()
}

#[test]
fn leiden_is_deterministic_on_a_larger_graph() {
    let input = random_graph(600, 2400, 7);
    let config = ClusterConfig::default();
    let base = by_id(&input, &clusters(&input, &config).expect("clusters"));
    assert!(base.len() > 1, "expected several clusters, got {}", base.len());
    for seed in 1..6 {
        let s = shuffled(&input, seed);
        assert_eq!(by_id(&s, &clusters(&s, &config).expect("clusters")), base, "seed {seed}");
    }
    let procs = |i: &GraphInput| {
        processes(i, &ProcessConfig::default())
            .iter()
            .map(|p| {
                let steps: Vec<&str> = p.steps.iter().map(|&s| i.nodes[s].id.as_str()).collect();
                format!("{} {:.2} {} {}", p.id, p.score, p.label, steps.join(","))
            })
            .collect::<Vec<_>>()
    };
    let base = procs(&input);
    assert!(!base.is_empty());
    for seed in 1..6 {
        assert_eq!(procs(&shuffled(&input, seed)), base, "seed {seed}");
    }
}

#[test]
fn clusters_with_the_same_slug_are_numbered() {
    let mut g = G::default();
    for (file, suffix) in [("x/a.go", "1"), ("x/b.go", "2")] {
        for name in ["f", "g", "h"] {
            let n = g.func(file, name);
            n.id = format!("sym:go:{file}:{name}{suffix}");
        }
        let base = g.input.nodes.len() - 3;
        for (s, d) in [(0, 1), (1, 2), (0, 2)] {
            let kind = EdgeKind::Calls;
            g.input.edges.push(EdgeIn { src: base + s, dst: base + d, kind, weight: 1.0 });
        }
    }
    let out = clusters(&g.input, &ClusterConfig::default()).expect("clusters");
    assert_eq!(
        render_clusters(&g.input, &out),
        ["cluster:x-f-g | x: f, g | 1.0000 | f g h", "cluster:x-f-g#2 | x: f, g | 1.0000 | f g h"]
    );
}

#[test]
fn empty_and_degenerate_graphs() {
    let empty = GraphInput::default();
    assert!(clusters(&empty, &ClusterConfig::default()).expect("clusters").is_empty());
    assert!(processes(&empty, &ProcessConfig::default()).is_empty());
    let only_bad = GraphInput {
        nodes: vec![],
        edges: vec![EdgeIn { src: 3, dst: 4, kind: EdgeKind::Calls, weight: 1.0 }],
    };
    assert!(clusters(&only_bad, &ClusterConfig::default()).expect("clusters").is_empty());
    assert!(processes(&only_bad, &ProcessConfig::default()).is_empty());
    let bad_config = ClusterConfig { resolution: -1.0, ..ClusterConfig::default() };
    assert!(clusters(&two_communities().input, &bad_config).is_err());
}

/// Every entry rule and walk rule on one graph.
fn flows() -> G {
    let mut g = G::default();
    // A route handler with a 4-step chain that ends on a trivial getter.
    g.node(NodeKind::Route, "api/app.ts", "GET /users/:id");
    g.func("api/users.ts", "getUser").exported = true;
    g.func("api/users.ts", "loadUser").exported = true;
    g.func("db/query.ts", "queryDb").exported = true; // called by loadUser: not an entry
    let getter = g.node(NodeKind::Method, "db/row.ts", "Row.getRowId");
    getter.end_line = 40; // long, but getter-like and a leaf: trivial
    g.edge(EdgeKind::HandlesRoute, "GET /users/:id", "getUser", 1.0);
    g.calls("getUser", "loadUser", 0.95);
    g.calls("loadUser", "queryDb", 0.95);
    g.calls("queryDb", "Row.getRowId", 0.85);
    // A tool handler whose flow is contained in the route's: deduplicated.
    g.node(NodeKind::Tool, "api/tools.ts", "get_user");
    g.edge(EdgeKind::HandlesTool, "get_user", "loadUser", 1.0);

    // Go main (not exported): breadth-first, heavier callee first within a level.
    g.func("cmd/app/main.go", "main").program_entry = true;
    g.func("cmd/app/main.go", "parseFlags");
    g.func("cmd/app/run.go", "run");
    g.func("fmtx/format.go", "formatUser").exported = true; // called by run: not an entry
    let clamp = g.func("cmd/app/run.go", "clamp");
    (clamp.start_line, clamp.end_line) = (3, 5); // a 3-line leaf: trivial
    g.calls("main", "parseFlags", 0.95);
    g.calls("main", "run", 1.0);
    g.calls("run", "formatUser", 0.9);
    g.calls("run", "clamp", 1.0);

    // An exported function that only a test calls, into a cycle, past a low-confidence edge.
    g.func("sync/fetch.go", "FetchAll").exported = true;
    g.func("sync/fetch.go", "cycA");
    g.func("sync/fetch.go", "cycB");
    g.func("sync/guess.go", "guessed");
    g.calls("FetchAll", "cycA", 0.9);
    g.calls("cycA", "cycB", 0.9);
    g.calls("cycB", "cycA", 0.9);
    g.calls("FetchAll", "guessed", 0.3);
    g.calls("guessed", "formatUser", 1.0);
    // Test code: never an entry, and its calls do not count as callers.
    let test = g.func("sync/fetch_test.go", "TestFetchAll");
    test.exported = true;
    test.is_test = true;
    g.calls("TestFetchAll", "FetchAll", 1.0);
    g.calls("TestFetchAll", "cycA", 1.0);
    // An exported function whose only callee is trivial: a one-step flow, dropped.
    g.func("util/id.go", "NewID").exported = true;
    g.calls("NewID", "clamp", 1.0);
    g
}

#[test]
fn processes_follow_the_documented_rules() {
    let g = flows();
    let out = processes(&g.input, &ProcessConfig::default());
    assert_eq!(
        render_processes(&g.input, &out),
        [
            "proc:sym:api/users.ts:getUser | 3.03 | GET /users/:id -> getUser | getUser > loadUser > queryDb",
            "proc:sym:cmd/app/main.go:main | 2.04 | main | main > run > parseFlags > formatUser",
            "proc:sym:sync/fetch.go:FetchAll | 1.03 | FetchAll | FetchAll > cycA > cycB",
        ]
    );
}

#[test]
fn processes_ignore_input_order() {
    let g = flows();
    let config = ProcessConfig::default();
    let base = render_processes(&g.input, &processes(&g.input, &config));
    for seed in 1..20 {
        let s = shuffled(&g.input, seed);
        assert_eq!(render_processes(&s, &processes(&s, &config)), base, "seed {seed}");
    }
}

#[test]
fn walks_are_bounded_and_processes_capped() {
    let mut g = G::default();
    for i in 0..50 {
        g.func("chain/chain.go", &format!("c{i:02}")).exported = i == 0;
    }
    for i in 0..49 {
        g.calls(&format!("c{i:02}"), &format!("c{:02}", i + 1), 1.0);
    }
    let depth_bound = processes(&g.input, &ProcessConfig::default());
    assert_eq!(depth_bound.len(), 1);
    assert_eq!(depth_bound[0].steps.len(), 9, "entry plus 8 levels");

    // A wide fan-out hits the step bound instead.
    let mut g = G::default();
    g.func("fan/fan.go", "Root").exported = true;
    for i in 0..40 {
        g.func("fan/fan.go", &format!("leaf{i:02}"));
        g.calls("Root", &format!("leaf{i:02}"), 1.0);
    }
    let step_bound = processes(&g.input, &ProcessConfig::default());
    assert_eq!(step_bound[0].steps.len(), 30);
    assert_eq!(g.input.nodes[step_bound[0].steps[29]].name, "leaf28", "callees in ID order");

    let capped =
        processes(&flows().input, &ProcessConfig { max_processes: 2, ..Default::default() });
    assert_eq!(capped.len(), 2);
}
