//! End-to-end runs of the graph-operation commands (`context`, `impact`, `trace`, `expand`,
//! `dag-grep`, `diff-impact`) on a small git repository: exact human output, the JSON fields
//! every answer carries, ambiguous and unknown names, and a diff with modified, added and
//! deleted files before and after re-indexing.

use expect_test::expect;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const FIXTURE: &str = r#"
//- /src/util.ts
export function log(msg: string) {
  console.log(msg);
}

export function unused() {
  return 1;
}
//- /src/server.ts
import { log } from "./util";

export class Server {
  start(): void {
    log("start");
    this.stop();
  }
  stop(): void {
    log("stop");
  }
}
//- /src/app.ts
import { Server } from "./server";

export function main() {
  const s = new Server();
  s.start();
}
//- /src/cli.ts
import { main } from "./app";

export function start() {
  main();
}
//- /src/old.ts
import { log } from "./util";

export function legacy() {
  log("legacy");
}
"#;

fn codegraph(args: &[&str], cwd: &Path) -> Output {
    codegraph_tests::cli::run(env!("CARGO_BIN_EXE_codegraph"), args, cwd)
}

use codegraph_tests::cli::git;

struct Repo {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    db: String,
}

impl Repo {
    fn new() -> Repo {
        Repo::with(FIXTURE)
    }

    fn with(fixture: &str) -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical temp dir").join("repo");
        std::fs::create_dir_all(&root).expect("create repo dir");
        codegraph_tests::write_fixture(&root, fixture);
        git(&root, &["init", "-q", "-b", "main"]);
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "init"]);
        let db = dir.path().join("index.db").to_string_lossy().into_owned();
        let r = Repo { _dir: dir, root, db };
        r.ok(&["index"]);
        r
    }

    /// Runs `codegraph CMD ARGS --root ROOT --db DB` (or `CMD ARGS ROOT --db DB` for `index`
    /// and `export`).
    fn run(&self, args: &[&str]) -> Output {
        let root = self.root.to_str().expect("utf-8 root");
        let mut all: Vec<&str> = args.to_vec();
        if args[0] == "index" || args[0] == "export" {
            all.push(root);
        } else {
            all.extend(["--root", root]);
        }
        all.extend(["--db", &self.db]);
        codegraph(&all, &self.root)
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: exit {:?}\nstdout: {}\nstderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        serde_json::from_str(&self.ok(&all)).expect("JSON output")
    }
}

#[test]
fn context_impact_trace_expand_dag_grep() {
    let r = Repo::new();
    expect![[r#"
        sym:ts:src/server.ts:Server.start (method, revision 1)
          at: src/server.ts:4-7
          signature: start(): void
        container:
          <- HAS_METHOD   sym:ts:src/server.ts:Server (class)
        callers:
          src/app.ts:5  sym:ts:src/app.ts:main (function) line 5 [typed-receiver 0.85]
        callees:
          src/server.ts:8  sym:ts:src/server.ts:Server.stop (method) line 6 [this-dispatch 0.90]
          src/util.ts:1  sym:ts:src/util.ts:log (function) line 5 [import-resolved 0.95]
        file imports:
          -> IMPORTS      file:src/util.ts (file) (line 1) [import-resolved 0.95]
        file imported by:
          <- IMPORTS      file:src/app.ts (file) (line 1) [import-resolved 0.95]
        related files: src/app.ts (2), src/util.ts (2)
        flows:
          proc:sym:ts:src/app.ts:main "main" step 3/4 (score 2.04)
          proc:sym:ts:src/cli.ts:start "start" step 4/5 (score 1.05)
        cluster: cluster:src-log-start "src: log, start" (4 member(s), cohesion 0.815)
    "#]]
    .assert_eq(&r.ok(&["context", "Server.start"]));
    expect![[r#"
        upstream impact of sym:ts:src/util.ts:log (revision 1)
        risk medium: 3 direct, 5 node(s) reached, 4 other file(s), 0 other module(s)
        depth 1:
          src/old.ts:4  sym:ts:src/old.ts:legacy (function) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 4) [import-resolved 0.95]
          src/server.ts:5  sym:ts:src/server.ts:Server.start (method) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
          src/server.ts:9  sym:ts:src/server.ts:Server.stop (method) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 9) [import-resolved 0.95]
        depth 2:
          src/app.ts:5  sym:ts:src/app.ts:main (function) 0.807 via CALLS -> sym:ts:src/server.ts:Server.start (line 5) [typed-receiver 0.85]
        depth 3:
          src/cli.ts:4  sym:ts:src/cli.ts:start (function) 0.767 via CALLS -> sym:ts:src/app.ts:main (line 4) [import-resolved 0.95]
        files: src/server.ts (2), src/app.ts (1), src/cli.ts (1), src/old.ts (1)
        modules: src (5)
        flows through the change (2):
          proc:sym:ts:src/app.ts:main "main" step 3/4 (score 2.04) via sym:ts:src/server.ts:Server.start (depth 1)
          proc:sym:ts:src/cli.ts:start "start" step 4/5 (score 1.05) via sym:ts:src/server.ts:Server.start (depth 1)
    "#]].assert_eq(&r.ok(&["impact", "log", "--depth", "4"]));
    expect![[r#"
        trace sym:ts:src/cli.ts:start -> sym:ts:src/util.ts:log (revision 1): 1 path(s)
        path 1 (3 hop(s), confidence 0.767):
          sym:ts:src/cli.ts:start
          -CALLS-> sym:ts:src/app.ts:main (line 4) [import-resolved 0.95]
          -CALLS-> sym:ts:src/server.ts:Server.start (line 5) [typed-receiver 0.85]
          -CALLS-> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
    "#]]
    .assert_eq(&r.ok(&["trace", "sym:ts:src/cli.ts:start", "log"]));
    expect![[r#"
        expand sym:ts:src/app.ts:main (revision 1): 5 node(s), 5 edge(s)
          [0] sym:ts:src/app.ts:main (function)
          [1] sym:ts:src/server.ts:Server (class)
          [1] sym:ts:src/server.ts:Server.start (method)
          [2] sym:ts:src/util.ts:log (function)
          [2] sym:ts:src/server.ts:Server.stop (method)
          sym:ts:src/app.ts:main -CALLS-> sym:ts:src/server.ts:Server (line 4) [import-resolved 0.95]
          sym:ts:src/app.ts:main -CALLS-> sym:ts:src/server.ts:Server.start (line 5) [typed-receiver 0.85]
          sym:ts:src/server.ts:Server.start -CALLS-> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
          sym:ts:src/server.ts:Server.start -CALLS-> sym:ts:src/server.ts:Server.stop (line 6) [this-dispatch 0.90]
          sym:ts:src/server.ts:Server.stop -CALLS-> sym:ts:src/util.ts:log (line 9) [import-resolved 0.95]
    "#]].assert_eq(&r.ok(&["expand", "main", "--edge", "CALLS", "--depth", "3"]));
    expect![[r#"
        revision 1
        dag_grep `stop` (in): 1 seed(s), 5 node(s), 5 edge(s): 2 forward, 0 back, 2 anchor node(s)
        sym:ts:src/server.ts:Server.stop [method] 0.899 (seed)
        `-- <-CALLS- sym:ts:src/server.ts:Server.start [method] 0.688
            `-- <-CALLS- sym:ts:src/app.ts:main [function] 0.422
        anchor file:src/app.ts contains sym:ts:src/app.ts:main
        anchor file:src/server.ts contains sym:ts:src/server.ts:Server.start, sym:ts:src/server.ts:Server.stop
    "#]].assert_eq(&r.ok(&[
        "dag-grep",
        "stop",
        "--k",
        "1",
        "--direction",
        "in",
        "--mode",
        "fts",
    ]));
    expect![[r#"
        flowchart LR
          %% dag_grep `legacy` (out), revision 1
          n0["legacy<br/>function · src/old.ts"]
          n1["log<br/>function · src/util.ts"]
          n2["old.ts<br/>file · src/old.ts"]
          n3["util.ts<br/>file · src/util.ts"]
          n0 -->|CALLS| n1
          n2 -.- n0
          n3 -.- n1
          classDef seed stroke-width:3px
          class n0 seed
    "#]]
    .assert_eq(&r.ok(&["dag-grep", "legacy", "--k", "1", "--render", "mermaid"]));

    for cmd in [
        vec!["context", "log"],
        vec!["impact", "log"],
        vec!["trace", "main", "log"],
        vec!["expand", "main"],
        vec!["dag-grep", "log"],
        vec!["diff-impact"],
    ] {
        let v = r.json(&cmd);
        assert_eq!(
            (v["revision"].as_i64(), v["stale"].as_bool()),
            (Some(1), Some(false)),
            "{cmd:?}: {v}"
        );
    }
    let c = r.json(&["context", "log"]);
    assert_eq!(c["callers"][0]["id"], "sym:ts:src/old.ts:legacy");
    assert_eq!(c["callers"][0]["call_lines"], serde_json::json!([4]));
    let i = r.json(&["impact", "Server", "--direction", "downstream", "--depth", "1"]);
    assert_eq!(i["direction"], "downstream");
    assert_eq!(i["nodes"][0]["depth"], 1);

    // An ambiguous name lists its candidates; in JSON too.
    let out = r.run(&["context", "start"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`start` is ambiguous: 2 candidates: sym:ts:src/cli.ts:start (function, src/cli.ts:3), sym:ts:src/server.ts:Server.start (method, src/server.ts:4)"),
        "{err}"
    );
    let out = r.run(&["impact", "start", "--json"]);
    assert!(!out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    assert_eq!(v["error"], "ambiguous");
    assert_eq!(v["candidates"][1]["id"], "sym:ts:src/server.ts:Server.start");
    assert_eq!(v["candidates"][1]["matched_by"], "name");
    assert_eq!(
        r.ok(&["context", "start", "--kind", "method"]).lines().next(),
        Some("sym:ts:src/server.ts:Server.start (method, revision 1)")
    );

    // Unknown names and IDs suggest near matches.
    let out = r.run(&["expand", "sym:ts:src/server.ts:Server.halt"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown ID `sym:ts:src/server.ts:Server.halt`; did you mean: sym:ts:src/server.ts:Server"), "{err}");
    let out = r.run(&["trace", "main", "logg", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    assert_eq!(
        (v["error"].as_str(), v["query"].as_str()),
        (Some("not_found"), Some("logg")),
        "{v}"
    );
    let out = r.run(&["impact", "log", "--edge", "CALLZ"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown edge kind `CALLZ`"));
}

#[test]
fn diff_impact_of_modified_added_and_deleted_files() {
    let r = Repo::new();
    expect![[r#"
        0 changed file(s), 0 changed symbol(s) (revision 1)
        upstream impact of nothing (revision 1)
        risk low: 0 direct, 0 node(s) reached, 0 other file(s), 0 other module(s)
    "#]]
    .assert_eq(&r.ok(&["diff-impact"]));
    // Change log's body (same line count), delete old.ts, add extra.ts; the index still
    // describes the commit, so old.ts's symbols come from it and extra.ts is not indexed.
    std::fs::write(r.root.join("src/util.ts"), "export function log(msg: string) {\n  console.error(msg);\n}\n\nexport function unused() {\n  return 1;\n}\n").unwrap();
    std::fs::remove_file(r.root.join("src/old.ts")).unwrap();
    std::fs::write(
        r.root.join("src/extra.ts"),
        "import { log } from \"./util\";\n\nexport function extra() {\n  log(\"x\");\n}\n",
    )
    .unwrap();
    expect![[r#"
        3 changed file(s), 2 changed symbol(s) (revision 1, stale: files changed since; run `codegraph index`)
          added src/extra.ts (1 hunk(s), not indexed)
          deleted src/old.ts (1 hunk(s))
            sym:ts:src/old.ts:legacy
          modified src/util.ts (1 hunk(s))
            sym:ts:src/util.ts:log
        note: src/extra.ts is not in the index (not indexable, or added after the index was built: run `codegraph index`)
        note: the index is stale (3 file(s) changed since revision 1): line ranges may not match the diff; run `codegraph index`
        upstream impact of sym:ts:src/old.ts:legacy, sym:ts:src/util.ts:log (revision 1, stale: files changed since; run `codegraph index`)
        risk medium: 2 direct, 4 node(s) reached, 3 other file(s), 0 other module(s)
        depth 1:
          src/server.ts:5  sym:ts:src/server.ts:Server.start (method) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
          src/server.ts:9  sym:ts:src/server.ts:Server.stop (method) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 9) [import-resolved 0.95]
        depth 2:
          src/app.ts:5  sym:ts:src/app.ts:main (function) 0.807 via CALLS -> sym:ts:src/server.ts:Server.start (line 5) [typed-receiver 0.85]
        depth 3:
          src/cli.ts:4  sym:ts:src/cli.ts:start (function) 0.767 via CALLS -> sym:ts:src/app.ts:main (line 4) [import-resolved 0.95]
        files: src/server.ts (2), src/app.ts (1), src/cli.ts (1)
        modules: src (4)
        flows through the change (2):
          proc:sym:ts:src/app.ts:main "main" step 3/4 (score 2.04) via sym:ts:src/server.ts:Server.start (depth 1)
          proc:sym:ts:src/cli.ts:start "start" step 4/5 (score 1.05) via sym:ts:src/server.ts:Server.start (depth 1)
    "#]].assert_eq(&r.ok(&["diff-impact"]));
    // Re-indexed: extra.ts is known, old.ts is gone from the index too.
    r.ok(&["index"]);
    expect![[r#"
        3 changed file(s), 2 changed symbol(s) (revision 2)
          added src/extra.ts (1 hunk(s))
            sym:ts:src/extra.ts:extra
          deleted src/old.ts (1 hunk(s), not indexed)
          modified src/util.ts (1 hunk(s))
            sym:ts:src/util.ts:log
        note: src/old.ts was deleted and is not in the index either: nothing to trace
        upstream impact of sym:ts:src/extra.ts:extra, sym:ts:src/util.ts:log (revision 2)
        risk medium: 2 direct, 4 node(s) reached, 3 other file(s), 0 other module(s)
        depth 1:
          src/server.ts:5  sym:ts:src/server.ts:Server.start (method) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 5) [import-resolved 0.95]
          src/server.ts:9  sym:ts:src/server.ts:Server.stop (method) 0.950 via CALLS -> sym:ts:src/util.ts:log (line 9) [import-resolved 0.95]
        depth 2:
          src/app.ts:5  sym:ts:src/app.ts:main (function) 0.807 via CALLS -> sym:ts:src/server.ts:Server.start (line 5) [typed-receiver 0.85]
        depth 3:
          src/cli.ts:4  sym:ts:src/cli.ts:start (function) 0.767 via CALLS -> sym:ts:src/app.ts:main (line 4) [import-resolved 0.95]
        files: src/server.ts (2), src/app.ts (1), src/cli.ts (1)
        modules: src (4)
        flows through the change (2):
          proc:sym:ts:src/app.ts:main "main" step 3/4 (score 2.04) via sym:ts:src/server.ts:Server.start (depth 1)
          proc:sym:ts:src/cli.ts:start "start" step 4/5 (score 1.05) via sym:ts:src/server.ts:Server.start (depth 1)
    "#]].assert_eq(&r.ok(&["diff-impact"]));
    // Staged: only what is in the git index differs from HEAD.
    git(&r.root, &["add", "src/extra.ts"]);
    let v = r.json(&["diff-impact", "--staged"]);
    assert_eq!(
        v["changed_files"],
        serde_json::json!([{"path": "src/extra.ts", "change": "added", "hunks": 1, "indexed": true, "symbols": ["sym:ts:src/extra.ts:extra"]}]),
        "{v}"
    );
    // Against a base revision: the first commit vs the files on disk.
    git(&r.root, &["commit", "-q", "-am", "second"]);
    let v = r.json(&["diff-impact", "--base", "HEAD~1"]);
    let paths: Vec<&str> =
        v["changed_files"].as_array().unwrap().iter().filter_map(|f| f["path"].as_str()).collect();
    assert_eq!(paths, vec!["src/extra.ts", "src/old.ts", "src/util.ts"], "{v}");
    let out = r.run(&["diff-impact", "--base", "no-such-ref"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown revision `no-such-ref`"));
}

/// Flows and clusters: computed by the first command that shows them after a change, stored
/// with their revision, listed, opened, exported with `--derived`, and recomputed after an
/// edit.
#[test]
fn flows_and_clusters_are_stored_per_revision() {
    let r = Repo::new();
    expect![[r#"
        2 flow(s)
          proc:sym:ts:src/app.ts:main "main" 4 step(s) (score 2.04)
          proc:sym:ts:src/cli.ts:start "start" 5 step(s) (score 1.05)
    "#]]
    .assert_eq(&r.ok(&["flows"]));
    expect![[r#"
        proc:sym:ts:src/cli.ts:start "start" (score 1.05)
           1. sym:ts:src/cli.ts:start (function) src/cli.ts:3-5
           2. sym:ts:src/app.ts:main (function) src/app.ts:3-6
           3. sym:ts:src/server.ts:Server (class) src/server.ts:3-11
           4. sym:ts:src/server.ts:Server.start (method) src/server.ts:4-7
           5. sym:ts:src/server.ts:Server.stop (method) src/server.ts:8-10
    "#]]
    .assert_eq(&r.ok(&["flows", "proc:sym:ts:src/cli.ts:start"]));
    expect![[r#"
        sym:ts:src/util.ts:log is a step of 0 flow(s)
    "#]]
    .assert_eq(&r.ok(&["flows", "log"]));
    expect![[r#"
        2 cluster(s)
          cluster:src-log-start "src: log, start" (4 member(s), cohesion 0.815)
          cluster:src-main-Server "src: main, Server" (3 member(s), cohesion 0.691)
    "#]]
    .assert_eq(&r.ok(&["clusters"]));
    // `open` shows a flow or a cluster like MCP's open_node, paged in JSON.
    expect![[r#"
        proc:sym:ts:src/cli.ts:start  (process "start", score 1.05, revision 1)
           1. sym:ts:src/cli.ts:start
           2. sym:ts:src/app.ts:main
           3. sym:ts:src/server.ts:Server
           4. sym:ts:src/server.ts:Server.start
           5. sym:ts:src/server.ts:Server.stop
    "#]]
    .assert_eq(&r.ok(&["open", "proc:sym:ts:src/cli.ts:start"]));
    // Flows and clusters are searchable by their labels.
    let v = r.json(&["search", "start", "--kind", "process"]);
    assert_eq!(v["hits"][0]["id"], "proc:sym:ts:src/cli.ts:start", "{v}");
    assert_eq!(v["hits"][0]["signature"], "flow of 5 steps from sym:ts:src/cli.ts:start", "{v}");
    let v = r.json(&["search", "src log", "--kind", "cluster"]);
    assert_eq!(v["hits"][0]["id"], "cluster:src-log-start", "{v}");
    assert_eq!(v["hits"].as_array().map(Vec::len), Some(1), "{v}");
    // ENTRY_POINT_OF / STEP_IN_PROCESS / MEMBER_OF are traversable: from a flow to its
    // steps, from a symbol (when asked by kind) to its flows and cluster.
    let v =
        r.json(&["expand", "proc:sym:ts:src/cli.ts:start", "--direction", "in", "--depth", "1"]);
    let reached: Vec<&str> =
        v["nodes"].as_array().expect("nodes").iter().filter_map(|n| n["id"].as_str()).collect();
    assert_eq!(reached[0], "proc:sym:ts:src/cli.ts:start", "{v}");
    assert!(reached.contains(&"sym:ts:src/server.ts:Server.stop"), "{v}");
    assert_eq!(reached.len(), 6, "the flow and its five steps: {v}");
    let v = r.json(&["expand", "log", "--edge", "MEMBER_OF", "--depth", "1"]);
    assert_eq!(v["nodes"][1]["id"], "cluster:src-log-start", "{v}");
    assert_eq!(v["nodes"][1]["kind"], "cluster", "{v}");
    let v = r.json(&[
        "impact",
        "Server.stop",
        "--edge",
        "STEP_IN_PROCESS",
        "--direction",
        "downstream",
    ]);
    let flows: Vec<&str> =
        v["nodes"].as_array().expect("nodes").iter().filter_map(|n| n["id"].as_str()).collect();
    assert_eq!(flows, ["proc:sym:ts:src/app.ts:main", "proc:sym:ts:src/cli.ts:start"], "{v}");
    let v = r.json(&["open", "cluster:src-log-start", "--limit", "2"]);
    assert_eq!(v["kind"], "cluster", "{v}");
    assert_eq!(v["members"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(v["cut"][0]["total"], 4, "{v}");
    let v = r.json(&["flows"]);
    assert_eq!(v["flows_at"]["computed_at_revision"], 1, "{v}");
    assert_eq!(v["flows_at"]["current"], true, "{v}");
    // `log` is a trivial leaf (3 lines, no callee): flows end before it.
    let c = r.json(&["context", "log"]);
    assert_eq!(c["flows_at"]["current"], true, "{c}");
    assert_eq!(c["processes"], serde_json::json!([]), "{c}");
    let c = r.json(&["context", "Server.start"]);
    assert_eq!(c["processes"][0]["id"], "proc:sym:ts:src/app.ts:main", "{c}");
    assert_eq!(c["processes"][0]["step"], 3, "{c}");
    assert!(c["cluster"]["id"].as_str().is_some_and(|id| id.starts_with("cluster:")), "{c}");
    let i = r.json(&["impact", "Server.stop"]);
    assert_eq!(i["flows"][0]["via"], "sym:ts:src/server.ts:Server.stop", "{i}");
    assert_eq!(i["flows"][0]["depth"], 0, "{i}");

    // The derived export: process and cluster nodes, the three edge kinds, the same bytes
    // twice.
    let export = r.ok(&["export", "--derived"]);
    assert_eq!(export, r.ok(&["export", "--derived"]));
    let lines: Vec<Value> =
        export.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    let count = |ty: &str, kind: &str| {
        lines.iter().filter(|v| v["type"] == ty && v["kind"] == kind).count()
    };
    assert_eq!(count("node", "process"), v["flows"].as_array().map_or(0, Vec::len), "{export}");
    assert!(count("node", "cluster") > 0, "{export}");
    assert_eq!(count("edge", "ENTRY_POINT_OF"), count("node", "process"));
    assert!(
        lines.iter().any(|v| v["kind"] == "STEP_IN_PROCESS"
            && v["src"] == "sym:ts:src/app.ts:main"
            && v["dst"] == "proc:sym:ts:src/cli.ts:start"
            && v["step"] == 2),
        "{export}"
    );
    assert!(count("edge", "MEMBER_OF") > 0);
    // Without --derived the export is the graph only.
    assert!(!r.ok(&["export"]).contains("\"process\""));

    // An edit: the next command recomputes them at the new revision.
    std::fs::write(
        r.root.join("src/old.ts"),
        "import { log } from \"./util\";\n\nexport function legacy() {\n  log(\"legacy\");\n  helper();\n}\n\nfunction helper() {\n  log(\"helper\");\n}\n",
    )
    .expect("edit");
    r.ok(&["index"]);
    let v = r.json(&["flows", "legacy"]);
    assert_eq!(v["revision"], 2, "{v}");
    assert_eq!(v["flows_at"]["computed_at_revision"], 2, "{v}");
    assert_eq!(v["flows"][0]["id"], "proc:sym:ts:src/old.ts:legacy", "{v}");
    // legacy -> helper (log, a trivial leaf, ends no flow).
    assert_eq!(v["flows"][0]["steps"], 2, "{v}");

    let out = r.run(&["flows", "proc:sym:ts:src/nope.ts:x"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no flow with ID `proc:sym:ts:src/nope.ts:x`")
    );
}

/// `codegraph query`: one read-only SELECT over the views, in text and JSON, with flows
/// brought up to date when the query names them; writes and other tables refused with exit 1;
/// `--schema` without an index.
#[test]
fn graph_query_reads_the_views_and_refuses_the_rest() {
    let r = Repo::new();
    expect![[r#"
        src                                line
        ---------------------------------  ----
        sym:ts:src/old.ts:legacy           4
        sym:ts:src/server.ts:Server.start  5
        sym:ts:src/server.ts:Server.stop   9
        3 row(s), revision 1, 0 ms
    "#]]
    .assert_eq(&without_ms(&r.ok(&[
        "query",
        "SELECT src, line FROM edges WHERE dst = 'sym:ts:src/util.ts:log' AND kind = 'CALLS' ORDER BY src",
    ])));
    let v = r.json(&[
        "query",
        "SELECT f.label, s.step, s.node FROM flows f JOIN flow_steps s ON s.flow = f.id WHERE f.entry = 'sym:ts:src/cli.ts:start' ORDER BY s.step",
        "--limit",
        "3",
    ]);
    assert_eq!(v["columns"], serde_json::json!(["label", "step", "node"]));
    assert_eq!(
        v["rows"],
        serde_json::json!([
            ["start", 1, "sym:ts:src/cli.ts:start"],
            ["start", 2, "sym:ts:src/app.ts:main"],
            ["start", 3, "sym:ts:src/server.ts:Server"]
        ])
    );
    assert_eq!((v["truncated"].clone(), v["revision"].clone()), (true.into(), 1.into()));
    assert_eq!(v["stale"], false);

    for (sql, words) in [
        ("DELETE FROM node", "read-only"),
        ("SELECT * FROM source", "`source` is not one of the query views"),
        ("ATTACH DATABASE 'x.db' AS x", "ATTACH and DETACH are refused"),
        ("PRAGMA journal_mode = DELETE", "PRAGMA journal_mode is refused"),
    ] {
        let out = r.run(&["query", sql]);
        assert_eq!(out.status.code(), Some(1), "{sql}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{sql}: {err}");
    }
    // The index is unchanged by the refused statements.
    assert_eq!(r.json(&["query", "SELECT COUNT(*) FROM files"])["rows"], serde_json::json!([[5]]));

    let schema = r.ok(&["query", "--schema"]);
    assert!(schema.starts_with("Query views (version 1; SQLite SQL, read-only):"), "{schema}");
    assert!(schema.contains("\nedges: every edge between two nodes"), "{schema}");
}

/// The text answer with its last line's elapsed milliseconds set to 0.
fn without_ms(text: &str) -> String {
    let (body, last) = text.trim_end().rsplit_once('\n').unwrap_or(("", text.trim_end()));
    let last = match last.rsplit_once(", ") {
        Some((head, tail)) if tail.ends_with(" ms") => format!("{head}, 0 ms"),
        _ => last.to_string(),
    };
    format!("{body}\n{last}\n")
}

/// Every query docs/GRAPH_QUERY.md shows runs against the views (here on the fixture: the
/// answers differ, the statements must stay valid).
#[test]
fn documented_graph_queries_stay_valid() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/GRAPH_QUERY.md"),
    )
    .expect("docs/GRAPH_QUERY.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```sql") => current = Some(String::new()),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(q), l) => {
                q.push_str(l);
                q.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(blocks.len() >= 15, "{} queries in the doc", blocks.len());
    let r = Repo::new();
    for sql in &blocks {
        let v = r.json(&["query", sql]);
        assert!(v["columns"].as_array().is_some_and(|c| !c.is_empty()), "{sql}: {v}");
    }
}

/// `codegraph grep`: matching lines under their innermost symbols with kind, callers and
/// dependents, lines outside symbols apart, totals as ripgrep counts them; a file edited since
/// the index is searched as it is now and said to have changed.
#[test]
fn grep_places_matching_lines_in_their_symbols() {
    let r = Repo::new();
    expect![[r#"
        src/old.ts:3-5  function sym:ts:src/old.ts:legacy  (0 caller(s), 0 dependent(s))
          4:   log("legacy");
        src/server.ts:4-7  method sym:ts:src/server.ts:Server.start  (1 caller(s), 1 dependent(s))
          5:     log("start");
        src/server.ts:8-10  method sym:ts:src/server.ts:Server.stop  (1 caller(s), 1 dependent(s))
          9:     log("stop");
        3 matching line(s) in 2 file(s) of 5 searched, 3 group(s), revision 1
    "#]]
    .assert_eq(&r.ok(&["grep", r#"log\(""#]));
    let v = r.json(&["grep", "^import", "--limit", "1"]);
    assert_eq!((v["total"].clone(), v["files"].clone()), (4.into(), 4.into()), "{v}");
    assert_eq!(v["groups_total"], 4);
    assert_eq!(
        v["groups"],
        serde_json::json!([{"symbol": null, "file": "src/app.ts", "hits": [[1, "import { Server } from \"./server\";"]]}])
    );
    assert_eq!(v["cut"][0]["total"], 4);

    std::fs::write(
        r.root.join("src/util.ts"),
        "export function log(msg: string) {\n  console.log(msg); // log it\n}\n",
    )
    .expect("edit");
    let v = r.json(&["grep", "log it"]);
    assert_eq!(v["groups"][0]["symbol"], "sym:ts:src/util.ts:log");
    assert_eq!(v["groups"][0]["changed"], true);
    assert_eq!(v["stale"], true);

    let out = r.run(&["grep", "("]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid regular expression"));
}

/// `codegraph routes` and `codegraph tools`: every route (method, path, framework, where,
/// handler) and tool, with the total, in text and JSON.
#[test]
fn routes_and_tools_are_listed() {
    let (_dir, _base, root) = codegraph_tests::cli::git_fixture(
        r#"
//- /src/app.ts
import express from "express";
const app = express();
export function listUsers(req: any, res: any) { res.json([]); }
app.get("/users", listUsers);
app.post("/users/:id", (req: any, res: any) => { res.send("ok"); });
"#,
    );
    let db = root.parent().expect("parent").join("routes.db");
    let db = db.to_str().expect("utf-8");
    let root_s = root.to_str().expect("utf-8");
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--root", root_s, "--db", db]);
        let out = codegraph(&all, &root);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let out = codegraph(&["index", root_s, "--db", db], &root);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    expect![[r#"
        GET     /users  [express]  src/app.ts:4  -> sym:ts:src/app.ts:listUsers
        POST    /users/:id  [express]  src/app.ts:5  -> sym:ts:src/app.ts:$POST /users/:id
        2 routes, revision 1
    "#]]
    .assert_eq(&run(&["routes"]));
    let v: Value = serde_json::from_str(&run(&["routes", "--json", "--limit", "1"])).expect("json");
    assert_eq!(v["total"], 2);
    assert_eq!(v["routes"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["routes"][0]["method"], "GET");
    assert_eq!(v["cut"][0]["total"], 2);
    assert_eq!(run(&["tools"]), "0 tools, revision 1\n");
}

/// Impact of a method that implements an interface: its definite callers in `nodes`, the
/// callers through the interface apart in `dispatch_callers` (with its own cut), never mixed.
#[test]
fn dispatch_callers_are_listed_apart() {
    let (_dir, _base, root) = codegraph_tests::cli::git_fixture(
        r#"
//- /src/store.ts
export interface Store { get(k: string): string; }
export class MemStore implements Store { get(k: string) { return k; } }
export function direct(m: MemStore) { return m.get("a"); }
//- /src/use.ts
import { Store } from "./store";
export function load(s: Store) { return s.get("x"); }
export function load2(s: Store) { return s.get("y"); }
"#,
    );
    let db = root.parent().expect("parent").join("dispatch.db");
    let (db, root_s) = (db.to_str().expect("utf-8"), root.to_str().expect("utf-8"));
    let out = codegraph(&["index", root_s, "--db", db], &root);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let impact = |extra: &[&str]| -> Value {
        let mut args = vec!["impact", "MemStore.get", "--json", "--root", root_s, "--db", db];
        args.extend(extra);
        let out = codegraph(&args, &root);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("json")
    };
    let v = impact(&[]);
    let ids = |list: &Value| -> Vec<String> {
        list.as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n["id"].as_str().map(String::from))
            .collect()
    };
    assert_eq!(ids(&v["nodes"]), ["sym:ts:src/store.ts:direct"], "{v}");
    assert_eq!(
        ids(&v["dispatch_callers"]),
        ["sym:ts:src/use.ts:load", "sym:ts:src/use.ts:load2"],
        "{v}"
    );
    assert_eq!(v["dispatch_callers"][0]["dispatch"], "sym:ts:src/store.ts:MemStore.get");
    let v = impact(&["--list", "dispatch_callers", "--limit", "1"]);
    assert_eq!(ids(&v["dispatch_callers"]), ["sym:ts:src/use.ts:load"], "{v}");
    assert_eq!(v["cut"][0]["list"], "dispatch_callers", "{v}");
    assert_eq!(v["cut"][0]["total"], 2, "{v}");
}

/// `codegraph rename`: the plan lists the declaration, imports and calls with their columns,
/// unsure text mentions apart; `--apply` writes exactly those edits, and is refused on a stale
/// index.
#[test]
fn rename_plans_and_applies() {
    let r = Repo::new();
    expect![[r#"
        rename sym:ts:src/util.ts:log -> logLine: 6 edit(s) in 3 file(s)
        src/old.ts
          1:10-13  log -> logLine  IMPORTS 0.95
          4:3-6  log -> logLine  CALLS 0.95
        src/server.ts
          1:10-13  log -> logLine  IMPORTS 0.95
          5:5-8  log -> logLine  CALLS 0.95
          9:5-8  log -> logLine  CALLS 0.95
        src/util.ts
          1:17-20  log -> logLine  declaration 1.00
        unsure, not in the plan (1; comments, strings or another symbol of the same name):
          src/util.ts:2:11
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "log", "logLine"]));
    let v = r.json(&["rename", "log", "logLine"]);
    assert_eq!(v["edits_total"], 6);
    assert_eq!(v["files"][0]["path"], "src/old.ts");
    assert_eq!(
        v["files"][0]["edits"][1],
        serde_json::json!({"path": "src/old.ts", "line": 4, "col_start": 3, "col_end": 6,
            "old": "log", "new": "logLine", "confidence": 0.95, "reason": "CALLS"})
    );
    assert_eq!(v["unsure_total"], 1);
    // A name that exists beside the target collides.
    let v = r.json(&["rename", "log", "unused"]);
    assert_eq!(v["collisions"], serde_json::json!(["sym:ts:src/util.ts:unused (same scope)"]));
    // Not an identifier, or not a symbol.
    let out = r.run(&["rename", "log", "log-line"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("`log-line` is not an identifier"));

    r.ok(&["rename", "log", "logLine", "--apply"]);
    let server = std::fs::read_to_string(r.root.join("src/server.ts")).expect("read");
    assert!(server.starts_with("import { logLine } from \"./util\";"), "{server}");
    assert!(server.contains("    logLine(\"start\");") && !server.contains(" log("), "{server}");
    let util = std::fs::read_to_string(r.root.join("src/util.ts")).expect("read");
    assert!(util.contains("export function logLine(msg: string) {\n  console.log(msg);"), "{util}");
    // The index is now stale: a second apply is refused until it is re-indexed.
    let out = r.run(&["rename", "log", "log2", "--apply"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("the index is stale"), "{out:?}");
    r.ok(&["index"]);
    assert!(r.ok(&["rename", "logLine", "log2"]).contains("6 edit(s) in 3 file(s)"));
}

const GO_FIXTURE: &str = r#"
//- /go.mod
module example.com/shapes

go 1.21
//- /shapes.go
package shapes

type Shape interface {
	Area() float64
}

type Square struct{ Side float64 }

func (s Square) Area() float64 { return s.Side * s.Side }

type Circle struct{ R float64 }

func (c *Circle) Area() float64 { return 3 * c.R * c.R }

type Label string

type Named struct {
	Square
	Label Label
}

type Params struct {
	Side float64
}

type Box struct{ Side float64 }

func Total(shapes ...Shape) float64 {
	t := 0.0
	for _, s := range shapes {
		t += s.Area()
	}
	return t
}

func Make(b Box) Square {
	p := Params{
		Side: b.Side,
	}
	return Square{Side: p.Side}
}
"#;

/// Go rename plans: a method takes its family (the interface method and every
/// implementation); an embedded field is refused (its name is its type's); a type named like
/// a field keeps the field's name (another symbol's declaration goes to the unsure list);
/// a field written as a literal key is renamed in its own type's literal only, and where a
/// function also uses another type's field of the name, its selections are unsure.
#[test]
fn rename_go_families_literals_and_same_named_members() {
    let r = Repo::with(GO_FIXTURE);
    expect![[r#"
        rename sym:go:shapes.go:Shape.Area -> Size: 4 edit(s) in 1 file(s)
        shapes.go
          4:2-6  Area -> Size  declaration 1.00
          9:17-21  Area -> Size  declaration (family) 1.00
          13:18-22  Area -> Size  declaration (family) 1.00
          31:10-14  Area -> Size  CALLS 0.80
        note: renamed with its family (the methods it implements, overrides, or is implemented or overridden by; the code would not compile otherwise): sym:go:shapes.go:Circle.Area, sym:go:shapes.go:Square.Area
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "Shape.Area", "Size"]));
    // From an implementation, the same family.
    let v = r.json(&["rename", "Square.Area", "Size"]);
    assert_eq!(v["edits_total"], 4, "{v}");

    let out = r.run(&["rename", "Named.Square", "Base"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "`sym:go:shapes.go:Named.Square` is an embedded field: its name is its type's (`sym:go:shapes.go:Square`); rename the type instead"
        ),
        "{out:?}"
    );

    let v = r.json(&["rename", "sym:go:shapes.go:Label", "Tag"]);
    let edits: Vec<(u64, u64)> = v["files"][0]["edits"]
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| (e["line"].as_u64().unwrap_or(0), e["col_start"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(edits, [(15, 6), (19, 8)], "{v}");
    assert_eq!(v["unsure"][0]["line"], 19, "{v}");
    assert_eq!(v["unsure"][0]["col_start"], 2, "{v}");
    assert_eq!(
        v["unsure"][0]["reason"],
        "the declaration of `sym:go:shapes.go:Named.Label`, another symbol of the name"
    );

    expect![[r#"
        rename sym:go:shapes.go:Params.Side -> Width: 2 edit(s) in 1 file(s)
        shapes.go
          23:2-6  Side -> Width  declaration 1.00
          38:3-7  Side -> Width  ACCESSES 0.85
        unsure, not in the plan (6; comments, strings or another symbol of the same name):
          shapes.go:38:11
          shapes.go:40:24
          shapes.go:7:21
          shapes.go:9:43
          shapes.go:9:52
          shapes.go:26:18
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "Params.Side", "Width"]));
}

const GO_OUTSIDE: &str = r#"
//- /go.mod
module example.com/stream

go 1.19
//- /stream.go
package stream

type Source struct{ data []byte }

func (s *Source) Read(p []byte) (n int, err error) {
	n = copy(p, s.data)
	return n, nil
}

func (s *Source) Reset(data []byte) { s.data = data }

func Drain(s *Source) int {
	buf := make([]byte, 8)
	n, _ := s.Read(buf)
	return n
}

func DrainAll(s *Source) int { return Drain(s) }
//- /convert.go
package stream

type In struct {
	Name string
	Size int
}

type Out struct{ Name string }

func convert(in *In) *Out {
	n := in.Name
	out := &Out{}
	out.Name = in.Name
	_ = n
	return out
}
//- /stream_example_test.go
package stream

func ExampleDrain() { Drain(&Source{}) }

func ExampleDrain_second() { Drain(nil) }

func ExampleDrainAll() { DrainAll(nil) }

func ExampleSource_Read() {}
"#;

/// A Go method with the name and signature of a standard interface's method (`io.Reader.Read`)
/// may be used as that interface where the graph cannot see: the plan names the interface,
/// `--apply` refuses without `--force`, and writes the plan with it. Another method of the type
/// (`Reset(data []byte)`, not `hash.Hash.Reset()`'s signature) is planned as usual.
#[test]
fn rename_go_method_of_a_standard_interface_needs_force() {
    let r = Repo::with(GO_OUTSIDE);
    let v = r.json(&["rename", "Source.Read", "Fill"]);
    assert_eq!(v["outside_interfaces"], serde_json::json!(["io.Reader.Read"]), "{v}");
    assert_eq!(v["edits_total"], 3, "{v}");
    let out = r.run(&["rename", "Source.Read", "Fill", "--apply"]);
    assert!(!out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "not applied: `sym:go:stream.go:Source.Read` has the name and signature of io.Reader.Read, an interface outside this root"
        ),
        "{out:?}"
    );
    let text = std::fs::read_to_string(r.root.join("stream.go")).expect("read");
    assert!(text.contains("func (s *Source) Read(p []byte)"), "{text}");
    r.ok(&["rename", "Source.Read", "Fill", "--apply", "--force"]);
    let text = std::fs::read_to_string(r.root.join("stream.go")).expect("read");
    assert!(
        text.contains("func (s *Source) Fill(p []byte)") && text.contains("s.Fill(buf)"),
        "{text}"
    );
    let v = r.json(&["rename", "Source.Reset", "Load"]);
    assert_eq!(v["outside_interfaces"], serde_json::json!([]), "{v}");
}

/// A function that copies a field between two types of the same field name
/// (`out.Name = in.Name`): renaming `In.Name` renames the selection from `in`, the receiver an
/// edge line selects it from, and leaves `out.Name` unsure; renaming `Out.Name`, whose only
/// edge line has both, renames neither and lists both as unsure.
#[test]
fn rename_go_tells_same_named_fields_apart_by_receiver() {
    let r = Repo::with(GO_OUTSIDE);
    let edits = |v: &Value| -> Vec<(u64, u64, String)> {
        v["files"]
            .as_array()
            .expect("files")
            .iter()
            .flat_map(|f| f["edits"].as_array().cloned().unwrap_or_default())
            .map(|e| {
                (
                    e["line"].as_u64().unwrap_or(0),
                    e["col_start"].as_u64().unwrap_or(0),
                    e["reason"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    let unsure = |v: &Value| -> Vec<(u64, u64)> {
        v["unsure"]
            .as_array()
            .expect("unsure")
            .iter()
            .filter(|e| e["path"] == "convert.go")
            .map(|e| (e["line"].as_u64().unwrap_or(0), e["col_start"].as_u64().unwrap_or(0)))
            .collect()
    };
    let v = r.json(&["rename", "In.Name", "Label"]);
    assert_eq!(
        edits(&v),
        [
            (4, 2, "declaration".to_string()),
            (11, 10, "ACCESSES".to_string()),
            (13, 16, "ACCESSES (same referencing symbol) (same receiver)".to_string())
        ],
        "{v}"
    );
    assert_eq!(unsure(&v), [(13, 6), (8, 18)], "{v}");
    let v = r.json(&["rename", "Out.Name", "Title"]);
    assert_eq!(edits(&v), [(8, 18, "declaration".to_string())], "{v}");
    assert_eq!(unsure(&v), [(13, 6), (13, 16), (11, 10), (4, 2)], "{v}");
}

/// Go example tests are named after what they document (`go vet` checks): renaming `Drain`
/// renames `ExampleDrain` and `ExampleDrain_second`, not `ExampleDrainAll`; renaming the type
/// `Source` renames its method's example `ExampleSource_Read`.
#[test]
fn rename_go_takes_the_examples_named_after_it() {
    let r = Repo::with(GO_OUTSIDE);
    let examples = |v: &Value| -> Vec<(String, String)> {
        v["files"]
            .as_array()
            .expect("files")
            .iter()
            .flat_map(|f| f["edits"].as_array().cloned().unwrap_or_default())
            .filter(|e| e["reason"] == "example test named after it (go vet)")
            .map(|e| {
                (
                    e["old"].as_str().unwrap_or("").to_string(),
                    e["new"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    let v = r.json(&["rename", "sym:go:stream.go:Drain", "Empty"]);
    assert_eq!(
        examples(&v),
        [
            ("ExampleDrain".to_string(), "ExampleEmpty".to_string()),
            ("ExampleDrain_second".to_string(), "ExampleEmpty_second".to_string())
        ],
        "{v}"
    );
    let v = r.json(&["rename", "sym:go:stream.go:Source", "Feed"]);
    assert_eq!(
        examples(&v),
        [("ExampleSource_Read".to_string(), "ExampleFeed_Read".to_string())],
        "{v}"
    );
    let v = r.json(&["rename", "Source.Read", "Fill"]);
    assert_eq!(
        examples(&v),
        [("ExampleSource_Read".to_string(), "ExampleSource_Fill".to_string())],
        "{v}"
    );
    r.ok(&["rename", "sym:go:stream.go:Drain", "Empty", "--apply"]);
    let text = std::fs::read_to_string(r.root.join("stream_example_test.go")).expect("read");
    assert!(
        text.contains("func ExampleEmpty() { Empty(&Source{}) }")
            && text.contains("func ExampleEmpty_second() { Empty(nil) }")
            && text.contains("func ExampleDrainAll() { DrainAll(nil) }"),
        "{text}"
    );
}

const TS_OVERLOADS: &str = r#"
//- /src/pick.ts
export function pick(a: string): string;
/**
 * Picks one.
 * ```ts
 * function demo() {
 * ```
 */
export function pick(a: number): number;
export function pick(a: any): any {
  return a;
}

export class Box {
  get(key: string): string;
  get(key: number): number;
  get(key: any): any {
    return key;
  }
}

declare global {
  interface Window { picked: string }
}
//- /src/use.ts
import { pick } from "./pick";

export const x = pick("a");
//- /src/provider.ts
export interface Provider {
  get(): number;
}

export const provider: Provider = {
  get() {
    return 1;
  },
};

export const n = provider.get();
//- /src/note.ts
export class Note {
  value = 1;
  show(event: { value: number }) {
    const { value } = this;
    const other = event.value;
    return value + other;
  }
}
//- /src/sched.ts
export class Sched {
  expect(x: number): void {}
}
export interface Helpers {
  expect: typeof Sched.prototype.expect;
}
//- /src/operator.ts
export interface Operator {
  call(x: number): void;
}
export const op: Operator = (x: number) => {};
//- /src/observer.ts
export interface Observer {
  next(v: number): void;
  done?: boolean;
}
export function subscribe(o: Partial<Observer>): void {}
export function run() {
  subscribe({ next: (v) => {}, done: true });
  const o = { next(v: number) {} } as Observer;
  return o;
}
"#;

/// TypeScript overload signatures above an implementation are declarations of the same
/// symbol (a comment between them, even one with code in it, does not end them); an
/// interface member's rename takes the members of object literals annotated with the
/// interface; a destructured shorthand property becomes `new: old`; the keys of object
/// literals typed by their context (an argument's parameter type, `as T`) are the type's
/// members, and a literal's own method takes the type's member into its family; a method
/// named after a runtime protocol (`call`: every function has it) needs `--force`; a `declare
/// global` block is refused.
#[test]
fn rename_ts_overloads_and_declare_global() {
    let r = Repo::with(TS_OVERLOADS);
    expect![[r#"
        rename sym:ts:src/pick.ts:pick -> choose: 5 edit(s) in 2 file(s)
        src/pick.ts
          1:17-21  pick -> choose  declaration (overload) 1.00
          8:17-21  pick -> choose  declaration (overload) 1.00
          9:17-21  pick -> choose  declaration 1.00
        src/use.ts
          1:10-14  pick -> choose  IMPORTS 0.95
          3:18-22  pick -> choose  CALLS 0.95
        unsure, not in the plan (1; comments, strings or another symbol of the same name):
          src/use.ts:1:25
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "pick", "choose"]));
    let v = r.json(&["rename", "Box.get", "fetch"]);
    let lines: Vec<u64> = v["files"][0]["edits"]
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| e["line"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(lines, [14, 15, 16], "{v}");
    // An object literal annotated with an interface has the interface's members.
    expect![[r#"
        rename sym:ts:src/provider.ts:Provider.get -> fetch: 3 edit(s) in 1 file(s)
        src/provider.ts
          2:3-6  get -> fetch  declaration 1.00
          6:3-6  get -> fetch  declaration (family) 1.00
          11:27-30  get -> fetch  CALLS 0.85
        unsure, not in the plan (3; comments, strings or another symbol of the same name):
          src/pick.ts:14:3
          src/pick.ts:15:3
          src/pick.ts:16:3
        note: renamed with its family (the methods it implements, overrides, or is implemented or overridden by; the code would not compile otherwise): sym:ts:src/provider.ts:provider.get
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "Provider.get", "fetch"]));
    // A shorthand destructuring of the property keeps its local name.
    expect![[r#"
        rename sym:ts:src/note.ts:Note.value -> amount: 2 edit(s) in 1 file(s)
        src/note.ts
          2:3-8  value -> amount  declaration 1.00
          4:13-18  value -> amount: value  ACCESSES 0.90
        unsure, not in the plan (3; comments, strings or another symbol of the same name):
          src/note.ts:5:25
          src/note.ts:3:17
          src/note.ts:6:12
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "Note.value", "amount"]));
    // The keys of object literals their context types (an argument, `as T`) are the type's
    // members; renaming a literal's own method renames the type's member with it.
    expect![[r#"
        rename sym:ts:src/observer.ts:Observer.next -> push: 3 edit(s) in 1 file(s)
        src/observer.ts
          2:3-7  next -> push  declaration 1.00
          7:15-19  next -> push  ACCESSES 0.85
          8:15-19  next -> push  ACCESSES 0.85
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "Observer.next", "push"]));
    expect![[r#"
        rename sym:ts:src/observer.ts:run.next -> push: 3 edit(s) in 1 file(s)
        src/observer.ts
          2:3-7  next -> push  declaration (family) 1.00
          7:15-19  next -> push  declaration 1.00
          8:15-19  next -> push  ACCESSES (family) 0.85
        note: renamed with its family (the methods it implements, overrides, or is implemented or overridden by; the code would not compile otherwise): sym:ts:src/observer.ts:Observer.next
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "sym:ts:src/observer.ts:run.next", "push"]));
    // A type query names the method; the key beside it declares another type's member.
    expect![[r#"
        rename sym:ts:src/sched.ts:Sched.expect -> check: 2 edit(s) in 1 file(s)
        src/sched.ts
          2:3-9  expect -> check  declaration 1.00
          5:34-40  expect -> check  ACCESSES 0.85
        unsure, not in the plan (1; comments, strings or another symbol of the same name):
          src/sched.ts:5:3
        note: the symbol is exported: code outside this root that uses it is not in the plan
        revision 1
    "#]]
    .assert_eq(&r.ok(&["rename", "Sched.expect", "check"]));
    // Every function has `call`: a function may be used as an `Operator`, which no edge
    // records, so the plan names the protocol and `--apply` needs `--force`.
    let v = r.json(&["rename", "Operator.call", "invoke"]);
    assert_eq!(v["outside_interfaces"], serde_json::json!(["Function.prototype.call"]), "{v}");
    let out = r.run(&["rename", "Operator.call", "invoke", "--apply"]);
    assert!(
        !out.status.success()
            && String::from_utf8_lossy(&out.stderr).contains("Function.prototype.call"),
        "{out:?}"
    );
    let out = r.run(&["rename", "sym:ts:src/pick.ts:global", "world"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is a `declare global` block"),
        "{out:?}"
    );
}
