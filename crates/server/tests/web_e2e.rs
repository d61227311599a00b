//! `codegraph web` end to end, as a person runs it: the binary serves a fixture repository on
//! a loopback port; every page is fetched over HTTP and its facts checked (callers listed, SVG
//! drawn with the expected node labels, every link on a node page answering), then the
//! refusals (foreign Host and Origin -> 403, POST -> 405, unknown IDs -> 404 with suggestions)
//! and the stale banner while an edit waits to be published, then the newer revision.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const FIXTURE: &str = r#"
//- /src/util.ts
export function helper(x: number): number {
  return x + 1;
}
//- /src/countdown.ts
import { helper } from "./util";
export function countdown(n: number): number {
  return n > 0 ? countdown(n - 1) : helper(n);
}
//- /src/server.ts
import { helper } from "./util";
export class Server {
  start(): number {
    return helper(1);
  }
}
export function boot(): number {
  const s = new Server();
  return s.start();
}
//- /src/app.ts
import express from "express";
import { boot } from "./server";
const app = express();
app.get("/health", (req, res) => {
  res.json({ ok: boot() });
});
//- /src/server.test.ts
import { boot } from "./server";
test("boots", () => {
  boot();
});
"#;

struct Web {
    child: Child,
    addr: String,
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
}

impl Drop for Web {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Web {
    fn start(debounce_ms: u64) -> Web {
        Web::start_with(debounce_ms, &[], None)
    }

    /// Serves the fixture's root and `others` (more roots), with `token` as
    /// CODEGRAPH_MCP_TOKEN.
    fn start_with(debounce_ms: u64, others: &[&Path], token: Option<&str>) -> Web {
        let (dir, base, root) = codegraph_tests::cli::git_fixture(FIXTURE);
        let mut child = Command::new(env!("CARGO_BIN_EXE_codegraph"))
            .args(["web", "--http", "127.0.0.1:0", "--debounce-ms", &debounce_ms.to_string()])
            .arg(&root)
            .args(others)
            .env("CODEGRAPH_CACHE_DIR", base.join("cache"))
            .env("CODEGRAPH_EVENTS", "off")
            .env("CODEGRAPH_MCP_TOKEN", token.unwrap_or(""))
            .env_remove("CODEGRAPH_LOG")
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("start codegraph web");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let addr = loop {
            let line = lines.next().expect("codegraph web exited before listening").expect("read");
            if let Some(rest) = line.strip_prefix("codegraph web: listening on http://") {
                break rest.trim_end_matches('/').to_string();
            }
        };
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Web { child, addr, _dir: dir, root }
    }

    /// Sends a raw request; returns (status, head, body).
    fn request(&self, method: &str, path: &str, extra: &[&str]) -> (u16, String, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
        let has_host = extra.iter().any(|h| h.to_ascii_lowercase().starts_with("host:"));
        let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !has_host {
            req.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for h in extra {
            req.push_str(h);
            req.push_str("\r\n");
        }
        req.push_str("Content-Length: 0\r\n\r\n");
        s.write_all(req.as_bytes()).expect("send");
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("read");
        let text = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").expect("a response head");
        let status: u16 = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status");
        let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            dechunk(body)
        } else {
            body.to_string()
        };
        (status, head.to_string(), body)
    }

    fn get(&self, path: &str) -> String {
        let (status, _, body) = self.request("GET", path, &[]);
        assert_eq!(status, 200, "GET {path}:\n{body}");
        body
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// The `href="/..."` links of a page (decoded `&amp;`).
fn links(body: &str) -> Vec<String> {
    body.split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|h| h.starts_with('/'))
        .map(|h| h.replace("&amp;", "&"))
        .collect()
}

/// The `<title>` texts of the SVG's node boxes.
fn svg_node_titles(body: &str) -> Vec<String> {
    let svg = body.split("<svg").nth(1).unwrap_or("");
    svg.split("class=\"node ")
        .skip(1)
        .filter_map(|g| g.split("<title>").nth(1)?.split("</title>").next().map(str::to_string))
        .collect()
}

fn wait_for(what: &str, mut f: impl FnMut() -> bool) {
    let t = Instant::now();
    while !f() {
        assert!(t.elapsed() < Duration::from_secs(60), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn every_page_answers_with_its_facts() {
    let web = Web::start(10);
    // The roots page builds the index on first sight.
    let home = web.get("/");
    assert!(home.contains(&web.root.display().to_string()), "{home}");
    assert!(home.contains("revision 1"), "{home}");
    assert!(home.contains("Languages</b>: typescript 5"), "{home}");

    let search = web.get("/search?q=helper");
    assert!(search.contains("href=\"/node/sym:ts:src/util.ts:helper\""), "{search}");
    let by_kind = web.get("/search?kind=class");
    assert!(by_kind.contains("/node/sym:ts:src/server.ts:Server\""), "{by_kind}");

    let node = web.get("/node/sym:ts:src/util.ts:helper");
    assert!(node.contains("<h1>helper</h1>"), "{node}");
    assert!(node.contains("return x + 1;"), "source lines: {node}");
    assert!(node.contains("Callers <span class=\"muted\">(2)</span>"), "{node}");
    assert!(node.contains("href=\"/node/sym:ts:src/server.ts:Server.start\""), "{node}");
    let titles = svg_node_titles(&node);
    assert_eq!(
        titles,
        vec![
            "sym:ts:src/util.ts:helper".to_string(),
            "sym:ts:src/countdown.ts:countdown".into(),
            "sym:ts:src/server.ts:Server.start".into()
        ]
    );
    // A recursive function is drawn once, with a loop.
    let rec = web.get("/node/sym:ts:src/countdown.ts:countdown");
    assert_eq!(
        svg_node_titles(&rec),
        vec!["sym:ts:src/countdown.ts:countdown".to_string(), "sym:ts:src/util.ts:helper".into()],
        "{rec}"
    );
    // Every link on the node page answers.
    for href in links(&node) {
        let (status, _, body) = web.request("GET", &href, &[]);
        assert_eq!(status, 200, "{href}: {body}");
    }

    let impact = web.get("/impact/sym:ts:src/util.ts:helper?direction=upstream&depth=3");
    let mut titles = svg_node_titles(&impact);
    titles.sort();
    assert_eq!(
        titles,
        vec![
            "sym:ts:src/app.ts:$GET /health".to_string(),
            "sym:ts:src/countdown.ts:countdown".into(),
            "sym:ts:src/server.ts:Server.start".into(),
            "sym:ts:src/server.ts:boot".into(),
            "sym:ts:src/util.ts:helper".into(),
        ],
        "{impact}"
    );
    assert!(impact.contains("1 test node(s) left out"), "{impact}");
    assert!(impact.contains("<h2>Affected files"), "{impact}");
    // With tests, the test file's block is reached too.
    let with_tests = web.get("/impact/sym:ts:src/util.ts:helper?depth=3&tests=1");
    assert!(
        svg_node_titles(&with_tests).iter().any(|t| t.contains("server.test.ts")),
        "{with_tests}"
    );

    let dag = web.get("/dag?q=helper&mode=fts&depth=2&direction=in");
    assert!(dag.contains("class=\"node seed\""), "{dag}");
    assert!(svg_node_titles(&dag).contains(&"sym:ts:src/util.ts:helper".to_string()), "{dag}");

    // The CLI's parameter names: one seed, CALLS only, no file anchors.
    let dag = web.get("/dag?q=boot&mode=fts&seeds=1&edge=CALLS&no-anchors=1&max-nodes=10");
    let mut titles = svg_node_titles(&dag);
    titles.sort();
    assert_eq!(
        titles,
        vec![
            "sym:ts:src/server.ts:Server".to_string(),
            "sym:ts:src/server.ts:Server.start".into(),
            "sym:ts:src/server.ts:boot".into(),
            "sym:ts:src/util.ts:helper".into(),
        ],
        "{dag}"
    );
    let (status, _, body) = web.request("GET", "/dag?q=boot&edge=CALLZ", &[]);
    assert_eq!(status, 400, "{body}");

    let routes = web.get("/routes");
    assert!(routes.contains("GET /health"), "{routes}");
    let tools = web.get("/tools");
    assert!(tools.contains("No tools in this index."), "{tools}");

    // Flows and clusters are computed after the first publish; their pages answer once there.
    wait_for("flows", || web.get("/").contains("/flows/"));
    let home = web.get("/");
    for href in
        links(&home).into_iter().filter(|h| h.starts_with("/flows/") || h.starts_with("/clusters/"))
    {
        let page = web.get(&href);
        assert!(page.contains("<h1>"), "{href}: {page}");
    }
    // The lists of every flow and cluster, linked from the navigation, link to each one.
    let nav = web.get("/routes");
    assert!(nav.contains("href=\"/flows\"") && nav.contains("href=\"/clusters\""), "{nav}");
    for (list, prefix) in [("/flows", "/flows/"), ("/clusters", "/clusters/")] {
        let page = web.get(list);
        let items: Vec<String> =
            links(&page).into_iter().filter(|h| h.starts_with(prefix)).collect();
        assert!(!items.is_empty(), "{list}: {page}");
        for href in items {
            let (status, _, body) = web.request("GET", &href, &[]);
            assert_eq!(status, 200, "{href}: {body}");
        }
    }

    let css = web.get("/assets/style.css");
    assert!(css.contains("svg.cg-graph"));
    let (_, head, _) = web.request("GET", "/assets/live.js", &[]);
    assert!(head.to_ascii_lowercase().contains("content-type: text/javascript"), "{head}");
    let rev = web.get("/api/revision");
    assert_eq!(rev, "{\"revision\":1,\"stale\":false}");
}

#[test]
fn refusals_and_errors() {
    let web = Web::start(10);
    let (status, _, body) = web.request("GET", "/", &["Host: evil.example"]);
    assert_eq!(status, 403, "{body}");
    let (status, _, body) = web.request("GET", "/", &["Origin: http://evil.example"]);
    assert_eq!(status, 403, "{body}");
    let (status, _, _) = web.request("GET", "/", &["Origin: http://localhost:7400"]);
    assert_eq!(status, 200);
    let (status, head, _) = web.request("POST", "/search?q=x", &[]);
    assert_eq!(status, 405);
    assert!(head.contains("GET, HEAD"), "{head}");
    let (status, head, body) = web.request("HEAD", "/", &[]);
    assert_eq!((status, body.as_str()), (200, ""), "{head}");
    let (status, _, body) = web.request("GET", "/node/sym:ts:src/util.ts:helpr", &[]);
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("href=\"/node/sym:ts:src/util.ts:helper\""), "suggestion: {body}");
    let (status, _, _) = web.request("GET", "/nope", &[]);
    assert_eq!(status, 404);
    let (status, _, body) = web.request("GET", "/impact/sym:ts:src/util.ts:helper?depth=99", &[]);
    assert_eq!(status, 400, "{body}");
    let (status, _, body) = web.request("GET", "/search?kind=gizmo", &[]);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("`gizmo` is not a node kind"), "{body}");
    let (status, _, body) = web.request("GET", "/search?q=x&root=/elsewhere", &[]);
    assert_eq!(status, 400, "{body}");
}

#[test]
fn a_pending_edit_shows_the_stale_banner_then_the_newer_revision() {
    // A long debounce keeps the edit pending long enough to see the stale page.
    let web = Web::start(4000);
    let page = web.get("/node/sym:ts:src/util.ts:helper");
    assert!(page.contains("data-revision=\"1\""), "{page}");
    assert!(!page.contains("id=\"stale\""), "{page}");
    write(
        &web.root,
        "src/util.ts",
        "export function helper(x: number): number {\n  return x + 2;\n}\n",
    );
    wait_for("the stale banner", || {
        web.get("/node/sym:ts:src/util.ts:helper").contains("id=\"stale\"")
    });
    wait_for("revision 2", || web.get("/api/revision").contains("\"revision\":2"));
    let page = web.get("/node/sym:ts:src/util.ts:helper");
    assert!(page.contains("data-revision=\"2\"") && page.contains("return x + 2;"), "{page}");
    assert!(!page.contains("id=\"stale\""), "{page}");
}

#[test]
fn several_roots_each_with_their_own_links() {
    let other = tempfile::tempdir().expect("temp dir");
    let other_root = std::fs::canonicalize(other.path()).expect("canonical").join("other");
    std::fs::create_dir_all(other_root.join("lib")).expect("mkdir");
    write(&other_root, "lib/only.ts", "export function onlyHere(): number {\n  return 1;\n}\n");
    let web = Web::start_with(10, &[&other_root], None);
    let home = web.get("/");
    assert!(home.contains(&web.root.display().to_string()), "{home}");
    assert!(home.contains(&other_root.display().to_string()), "{home}");
    // A page must say which root once several are served.
    let (status, _, body) = web.request("GET", "/search?q=onlyHere", &[]);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("several roots are served"), "{body}");
    let root_param = format!("root={}", other_root.display()).replace('/', "%2F");
    let search = web.get(&format!("/search?q=onlyHere&{root_param}"));
    let link = links(&search)
        .into_iter()
        .find(|h| h.starts_with("/node/sym:ts:lib/only.ts:onlyHere"))
        .unwrap_or_else(|| panic!("no link to the other root's node: {search}"));
    assert!(link.contains("root="), "{link}");
    let node = web.get(&link);
    assert!(node.contains("<h1>onlyHere</h1>") && node.contains("return 1;"), "{node}");
    // Every link on it stays in that root.
    for href in links(&node).into_iter().filter(|h| !h.starts_with("/assets/") && h != "/") {
        assert!(href.contains("root="), "{href}");
        let (status, _, body) = web.request("GET", &href, &[]);
        assert_eq!(status, 200, "{href}: {body}");
    }
}

#[test]
fn a_token_guards_every_page_and_a_token_link_sets_a_cookie() {
    let web = Web::start_with(10, &[], Some("s3cret"));
    let (status, _, body) = web.request("GET", "/", &[]);
    assert_eq!(status, 401, "{body}");
    let (status, _, _) = web.request("GET", "/assets/style.css", &["Authorization: Bearer wrong"]);
    assert_eq!(status, 401);
    let (status, _, _) = web.request("GET", "/", &["Authorization: Bearer s3cret"]);
    assert_eq!(status, 200);
    let (status, head, _) = web.request("GET", "/routes?token=s3cret", &[]);
    assert_eq!(status, 200, "{head}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: ").or_else(|| l.strip_prefix("Set-Cookie: ")))
        .and_then(|c| c.split(';').next())
        .unwrap_or_else(|| panic!("no cookie set: {head}"))
        .to_string();
    assert_eq!(cookie, "codegraph_token=s3cret");
    let (status, _, _) = web.request("GET", "/routes", &[&format!("Cookie: a=b; {cookie}")]);
    assert_eq!(status, 200);
    let (status, _, _) = web.request("GET", "/routes", &["Cookie: codegraph_token=nope"]);
    assert_eq!(status, 401);
}

fn write(root: &Path, rel: &str, text: &str) {
    std::fs::write(root.join(rel), text).expect("write");
}

/// Headless Chromium (`CODEGRAPH_TEST_CHROMIUM`, else `chromium` on the PATH; `.ci/run`
/// installs Debian's package) loads the impact and DAG-grep pages: the DOM it builds holds the
/// SVG with the expected nodes, and it saves screenshots of both.
#[test]
fn a_browser_draws_the_impact_and_dag_graphs() {
    let chromium = std::env::var("CODEGRAPH_TEST_CHROMIUM").unwrap_or_else(|_| "chromium".into());
    let probe = Command::new(&chromium).arg("--version").output();
    assert!(
        probe.as_ref().is_ok_and(|o| o.status.success()),
        "no Chromium at `{chromium}`: install Debian's `chromium` package (as .ci/run does) or set CODEGRAPH_TEST_CHROMIUM"
    );
    let web = Web::start(10);
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let browser = |args: &[&str], url: &str| -> String {
        let out = Command::new(&chromium)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"])
            .args(["--no-first-run", "--disable-extensions", "--window-size=1280,900"])
            .arg(format!("--user-data-dir={}", shots.join("profile").display()))
            .args(args)
            .arg(url)
            .output()
            .expect("run chromium");
        assert!(out.status.success(), "chromium: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for (name, path, expected) in [
        (
            "impact",
            "/impact/sym:ts:src/util.ts:helper?depth=3",
            vec![
                "sym:ts:src/app.ts:$GET /health",
                "sym:ts:src/countdown.ts:countdown",
                "sym:ts:src/server.ts:Server.start",
                "sym:ts:src/server.ts:boot",
                "sym:ts:src/util.ts:helper",
            ],
        ),
        (
            "dag",
            "/dag?q=boot&mode=fts&k=1&depth=2&direction=out",
            vec![
                "sym:ts:src/server.ts:Server.start",
                "sym:ts:src/server.ts:boot",
                "sym:ts:src/util.ts:helper",
            ],
        ),
    ] {
        let url = format!("http://{}{}", web.addr, path);
        // Wait for the first index through the page itself.
        web.get(path);
        let dom = browser(&["--dump-dom"], &url);
        let mut titles = svg_node_titles(&dom);
        titles.sort();
        titles.dedup();
        let anchors: Vec<String> =
            titles.into_iter().filter(|t| expected.contains(&t.as_str())).collect();
        assert_eq!(anchors.len(), expected.len(), "{name}: {dom}");
        assert!(dom.contains("<svg") && dom.contains("class=\"cg-graph\""), "{name}: {dom}");
        let png = shots.join(format!("{name}.png"));
        browser(&[&format!("--screenshot={}", png.display())], &url);
        let bytes = std::fs::read(&png).expect("screenshot written");
        assert!(
            bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
            "{name}: {} bytes",
            bytes.len()
        );
    }
}
