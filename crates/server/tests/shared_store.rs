//! The shared store end to end (issue 42): `codegraph publish` on one "machine" (a cache
//! directory), `codegraph index --cache-from URL` on a fresh clone in another, through a
//! directory, a real Redis server, a real S3-compatible server (moto) and a WebDAV server
//! (WsgiDAV) started here on loopback; the seeded index must equal a `--full` build of the clone. Bad stores (corrupt,
//! truncated, foreign, other-version entries; a store that refuses connections or hangs) must
//! each give a note and a correct index.
//!
//! The servers come from `tests/stores/setup.sh` (Debian's `redis-server`, moto and WsgiDAV
//! from the Python package registry in `target/store-venv`); `.ci/run` runs it.

use codegraph_tests::cli::{assert_ok, git, git_fixture};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use codegraph_tests::seeding::FIXTURE;

const OTHER: &str = r#"
//- /go.mod
module example.com/other
//- /lib/lib.go
package lib

// Hello greets.
func Hello() string { return "hi" }
"#;

const BIN: &str = env!("CARGO_BIN_EXE_codegraph");

/// Runs codegraph with S3 credentials for the moto server (any are accepted; they must never
/// be printed).
fn codegraph_env(cache: &Path, args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Output {
    let mut all = vec![
        ("AWS_ACCESS_KEY_ID", "codegraph-test"),
        ("AWS_SECRET_ACCESS_KEY", "codegraph-test-secret"),
    ];
    all.extend_from_slice(env);
    codegraph_tests::seeding::run(BIN, cache, args, cwd, &all)
}

fn codegraph(cache: &Path, args: &[&str], cwd: &Path) -> Output {
    codegraph_env(cache, args, cwd, &[])
}

fn json(out: Output) -> Value {
    assert_ok(&out);
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

fn index(cache: &Path, root: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["index", "--json", "--no-share"];
    args.extend_from_slice(extra);
    json(codegraph(cache, &args, root))
}

/// The index of `root` in `cache` must equal a from-scratch build of it.
fn assert_same_as_full(cache: &Path, root: &Path, scratch: &Path) {
    codegraph_tests::seeding::assert_same_as_full(BIN, cache, root, scratch);
}

fn head(root: &Path) -> String {
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root)
        .output()
        .expect("test step");
    String::from_utf8(out.stdout).expect("test step").trim().to_string()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("test step")
}

fn wait_for_port(port: u16, what: &str, child: &mut Child) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited before it listened: {status}");
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{what} did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A server process stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A program from `tests/stores/setup.sh`: `$VAR`, else the store venv, else PATH.
fn program(var: &str, venv_bin: &str, name: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let venv =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/store-venv/bin").join(venv_bin);
    if venv.exists() {
        return venv;
    }
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.exists());
    found.unwrap_or_else(|| {
        panic!("{name} is not installed: run tests/stores/setup.sh (or set {var})")
    })
}

/// A Redis server of its own on a free loopback port, nothing persisted.
fn redis() -> (Server, String) {
    let port = free_port();
    let bin = program("CODEGRAPH_TEST_REDIS_SERVER", "redis-server", "redis-server");
    let mut child = Command::new(bin)
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start redis-server");
    wait_for_port(port, "redis-server", &mut child);
    (Server(child), format!("redis://127.0.0.1:{port}/0/cg"))
}

/// An S3-compatible server (moto) of its own on a free loopback port, with a bucket.
fn s3() -> (Server, String) {
    let port = free_port();
    let bin = program("CODEGRAPH_TEST_MOTO_SERVER", "moto_server", "moto_server");
    let mut child = Command::new(bin)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start moto_server");
    wait_for_port(port, "moto_server", &mut child);
    // CreateBucket: moto does not check request signatures.
    let mut conn = TcpStream::connect(("127.0.0.1", port)).expect("test step");
    write!(conn, "PUT /cg-bucket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").expect("test step");
    let mut answer = String::new();
    conn.read_to_string(&mut answer).expect("test step");
    assert!(answer.starts_with("HTTP/1.1 200"), "CreateBucket: {answer}");
    (Server(child), format!("s3://cg-bucket/team/index?endpoint=http://127.0.0.1:{port}"))
}

/// A WebDAV server (WsgiDAV) of its own on a free loopback port, serving a fresh directory.
fn webdav(dir: &Path) -> (Server, String) {
    let port = free_port();
    let bin = program("CODEGRAPH_TEST_WSGIDAV", "wsgidav", "wsgidav");
    let mut child = Command::new(bin)
        .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--auth", "anonymous"])
        .arg("--root")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start wsgidav");
    wait_for_port(port, "wsgidav", &mut child);
    (Server(child), format!("webdav+http://127.0.0.1:{port}/cg"))
}

/// Publish from the repo in cache A; commit a change; a fresh clone of the new commit in
/// cache B seeds from the published (parent) commit and equals a full build.
fn round_trip(store: &str, label: &str) {
    let (_dir, base, repo) = git_fixture(FIXTURE);
    let ci = base.join("cache-ci");
    let published = json(codegraph(&ci, &["publish", "--json", "--to", store], &repo));
    let first = head(&repo);
    assert_eq!(published["commit"], first.as_str());
    assert_eq!(published["store"], label);
    assert_eq!(published["uploaded_blob"], true);
    assert_eq!(published["wrote_manifest"], true);
    // A second run of the same CI job writes nothing.
    let again = json(codegraph(&ci, &["publish", "--json", "--to", store], &repo));
    assert_eq!(
        (again["uploaded_blob"].clone(), again["wrote_manifest"].clone()),
        (false.into(), false.into())
    );
    assert_eq!(again["blob"], published["blob"]);

    // A commit later: one body edit and a new file.
    std::fs::write(
        repo.join("store/ops.go"),
        "package store\n\n// Add appends an item.\nfunc (s *Store) Add(item string) {\n\ts.items = append(s.items, item, item)\n}\n",
    )
    .expect("test step");
    std::fs::write(
        repo.join("store/len.go"),
        "package store\n\nfunc (s *Store) Len() int { return len(s.items) }\n",
    )
    .expect("test step");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "later"]);

    let clone = base.join("clone");
    git(&base, &["clone", "-q", &repo.display().to_string(), &clone.display().to_string()]);
    let machine = base.join("cache-other");
    let seeded = index(&machine, &clone, &["--cache-from", store]);
    assert_eq!(seeded["mode"], "seeded", "{seeded}");
    let from = seeded["seeded_from"].as_str().unwrap_or_default();
    assert_eq!(from, format!("{label} at {}", &first[..12]));
    assert_eq!(seeded["changed_files"], 2, "{seeded}");
    assert_eq!(seeded["files"].as_u64(), published["files"].as_u64().map(|n| n + 1));
    assert!(!seeded.to_string().contains("codegraph-test-secret"));
    assert_same_as_full(&machine, &clone, &base);

    // The clone at the published commit itself: nothing to re-derive.
    let exact = base.join("exact");
    git(&base, &["clone", "-q", &repo.display().to_string(), &exact.display().to_string()]);
    git(&exact, &["checkout", "-q", &first]);
    let seeded = index(&base.join("cache-third"), &exact, &["--cache-from", store]);
    assert_eq!(seeded["mode"], "seeded", "{seeded}");
    assert_eq!(seeded["changed_files"], 0, "{seeded}");
    assert_same_as_full(&base.join("cache-third"), &exact, &base);
}

#[test]
fn publish_then_seed_through_a_directory() {
    let store = tempfile::tempdir().expect("test step");
    let dir = std::fs::canonicalize(store.path()).expect("test step");
    let url = format!("file://{}", dir.display());
    round_trip(&url, &url);
}

#[test]
fn publish_then_seed_through_redis() {
    let (_server, url) = redis();
    let label = url.clone();
    round_trip(&url, &label);
}

#[test]
fn publish_then_seed_through_an_s3_compatible_store() {
    let (_server, url) = s3();
    round_trip(&url, "s3://cg-bucket/team/index");
}

#[test]
fn publish_then_seed_through_webdav() {
    let served = tempfile::tempdir().expect("test step");
    let (_server, url) = webdav(served.path());
    let label = url.clone();
    round_trip(&url, &label);
}

#[test]
fn the_environment_variable_stands_for_the_flag() {
    let (_dir, base, repo) = git_fixture(FIXTURE);
    let url = format!("file://{}", base.join("store").display());
    json(codegraph(&base.join("ci"), &["publish", "--json", "--to", &url], &repo));
    let out = codegraph_env(
        &base.join("other"),
        &["index", "--json", "--no-share"],
        &repo,
        &[("CODEGRAPH_CACHE_FROM", &url)],
    );
    assert_eq!(json(out)["mode"], "seeded");
}

/// The one entry of a directory store: (blob path, manifest path).
fn entry_files(store: &Path) -> (PathBuf, PathBuf) {
    let find = |sub: &str, ext: &str| -> PathBuf {
        let mut found = Vec::new();
        let mut stack = vec![store.join(sub)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).expect("test step").flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == ext) {
                    found.push(p);
                }
            }
        }
        assert_eq!(found.len(), 1, "{found:?}");
        found.remove(0)
    };
    (find("codegraph/v1/blobs", "zst"), find("codegraph/v1/index", "json"))
}

/// A broken store must give a cold index whose notes say why, equal to a full build.
fn assert_cold_with_note(cache: &Path, root: &Path, base: &Path, url: &str, note: &str) {
    let out = index(cache, root, &["--cache-from", url]);
    assert_eq!(out["mode"], "full", "{out}");
    let notes = out["notes"].to_string();
    assert!(notes.contains(note), "expected a note with {note:?}: {notes}");
    assert_same_as_full(cache, root, base);
    let _ = std::fs::remove_dir_all(cache);
}

#[test]
fn bad_entries_are_ignored_with_a_note() {
    let (_dir, base, repo) = git_fixture(FIXTURE);
    let store = base.join("store");
    let url = format!("file://{}", store.display());
    json(codegraph(&base.join("ci"), &["publish", "--json", "--to", &url], &repo));
    let (blob, manifest) = entry_files(&store);
    let good_blob = std::fs::read(&blob).expect("test step");
    let good_manifest = std::fs::read_to_string(&manifest).expect("test step");
    let cache = base.join("other");

    // Corrupt bytes: the blob no longer hashes to its name.
    let mut bad = good_blob.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0xff;
    std::fs::write(&blob, &bad).expect("test step");
    assert_cold_with_note(&cache, &repo, &base, &url, "does not hash to its name");

    // A truncated upload.
    std::fs::write(&blob, &good_blob[..good_blob.len() / 3]).expect("test step");
    assert_cold_with_note(&cache, &repo, &base, &url, "is shorter than its manifest says");
    std::fs::write(&blob, &good_blob).expect("test step");

    // A manifest this build cannot read, one of another format, one of another indexer.
    std::fs::write(&manifest, "{\"format\": 1, \"commit\": ").expect("test step");
    assert_cold_with_note(&cache, &repo, &base, &url, "not a manifest");
    std::fs::write(&manifest, good_manifest.replace("\"format\": 1", "\"format\": 2"))
        .expect("test step");
    assert_cold_with_note(&cache, &repo, &base, &url, "manifest format 2");
    let mut other_version: Value = serde_json::from_str(&good_manifest).expect("test step");
    other_version["indexer_version"] = "0.0.0-elsewhere".into();
    std::fs::write(&manifest, other_version.to_string()).expect("test step");
    assert_cold_with_note(&cache, &repo, &base, &url, "another commit or scope");

    // A snapshot of another repository filed under this repository's commit.
    std::fs::write(&manifest, &good_manifest).expect("test step");
    let other = base.join("other-repo");
    std::fs::create_dir_all(&other).expect("test step");
    codegraph_tests::write_fixture(&other, OTHER);
    git(&other, &["init", "-q", "-b", "main"]);
    git(&other, &["add", "-A"]);
    git(&other, &["commit", "-q", "-m", "other"]);
    let other_store = base.join("other-store");
    let other_url = format!("file://{}", other_store.display());
    json(codegraph(&base.join("ci-other"), &["publish", "--json", "--to", &other_url], &other));
    let (other_blob, other_manifest) = entry_files(&other_store);
    let mut foreign: Value =
        serde_json::from_str(&std::fs::read_to_string(&other_manifest).expect("test step"))
            .expect("test step");
    foreign["commit"] = head(&repo).into();
    std::fs::write(&manifest, foreign.to_string()).expect("test step");
    let blob_dir = blob.parent().expect("test step");
    std::fs::copy(&other_blob, blob_dir.join(other_blob.file_name().expect("test step")))
        .expect("test step");
    assert_cold_with_note(&cache, &repo, &base, &url, "it describes commit");

    // The good entry again seeds.
    std::fs::write(&manifest, &good_manifest).expect("test step");
    assert_eq!(index(&cache, &repo, &["--cache-from", &url])["mode"], "seeded");
}

#[test]
fn a_store_that_refuses_or_hangs_gives_a_note_and_a_cold_index() {
    let (_dir, base, repo) = git_fixture(FIXTURE);
    let closed = free_port();
    let cache = base.join("other");
    assert_cold_with_note(
        &cache,
        &repo,
        &base,
        &format!("redis://127.0.0.1:{closed}"),
        "could not use the shared store",
    );
    assert_cold_with_note(
        &cache,
        &repo,
        &base,
        &format!("s3://b/p?endpoint=http://127.0.0.1:{closed}"),
        "could not use the shared store",
    );
    assert_cold_with_note(&cache, &repo, &base, "ftp://example.invalid/x", "bad store URL");

    // A server that accepts connections and never answers.
    let listener = TcpListener::bind("127.0.0.1:0").expect("test step");
    let port = listener.local_addr().expect("test step").port();
    let held = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = held.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            keep.lock().expect("test step").push(conn);
        }
    });
    for url in
        [format!("redis://127.0.0.1:{port}"), format!("s3://b/p?endpoint=http://127.0.0.1:{port}")]
    {
        let out = json(codegraph_env(
            &cache,
            &["index", "--json", "--no-share", "--cache-from", &url],
            &repo,
            &[("CODEGRAPH_CACHE_TIMEOUT_SECS", "1")],
        ));
        assert_eq!(out["mode"], "full", "{out}");
        assert!(out["notes"].to_string().contains("did not answer within 1s"), "{}", out["notes"]);
        assert_same_as_full(&cache, &repo, &base);
        // With a local index, the store is not consulted at all.
        let again = json(codegraph_env(
            &cache,
            &["index", "--json", "--no-share", "--cache-from", &url],
            &repo,
            &[("CODEGRAPH_CACHE_TIMEOUT_SECS", "30")],
        ));
        assert_eq!(again["mode"], "unchanged");
        assert_eq!(again["notes"], serde_json::json!([]));
        let _ = std::fs::remove_dir_all(&cache);
    }
}

#[test]
fn publish_refuses_a_tree_that_differs_from_head() {
    let (_dir, base, repo) = git_fixture(FIXTURE);
    let url = format!("file://{}", base.join("store").display());
    std::fs::write(repo.join("README.md"), "# Changed\n").expect("test step");
    let out = codegraph(&base.join("ci"), &["publish", "--to", &url], &repo);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("differs from HEAD in 1 file") && err.contains("--allow-dirty"), "{err}");
    assert!(!base.join("store/codegraph").exists());
    let out = json(codegraph(
        &base.join("ci"),
        &["publish", "--json", "--allow-dirty", "--to", &url],
        &repo,
    ));
    assert_eq!(out["wrote_manifest"], true);
    // Bad URLs and roots outside git are refused with the reason.
    let out = codegraph(&base.join("ci"), &["publish", "--to", "ftp://x/y"], &repo);
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected one of"));
}

/// A server process's stdout lines, read on a thread.
fn stdout_lines(child: &mut Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let out = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

#[test]
fn watch_and_mcp_seed_from_the_store_too() {
    let (_dir, base, repo) = git_fixture(FIXTURE);
    let url = format!("file://{}", base.join("store").display());
    json(codegraph(&base.join("ci"), &["publish", "--json", "--to", &url], &repo));
    let commit = head(&repo);

    // `watch`: its first line says where the index came from.
    let cache = base.join("watch-machine");
    let mut watch = Server(
        Command::new(BIN)
            .args(["watch", "--no-share", "--cache-from", &url])
            .arg(&repo)
            .env("CODEGRAPH_CACHE_DIR", &cache)
            .env("CODEGRAPH_EVENTS", "off")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn watch"),
    );
    let lines = stdout_lines(&mut watch.0);
    let first = lines.recv_timeout(Duration::from_secs(60)).expect("watch's first line");
    assert!(
        first.starts_with("seeded ") && first.contains(&format!("from {url} at {}", &commit[..12])),
        "{first}"
    );
    drop(watch);

    // `mcp`: a root served with --cache-from is seeded on first use; status says from where.
    let cache = base.join("mcp-machine");
    let mut mcp = Server(
        Command::new(BIN)
            .args(["mcp", "--no-share", "--cache-from", &url])
            .arg(&repo)
            .env("CODEGRAPH_CACHE_DIR", &cache)
            .env("CODEGRAPH_EVENTS", "off")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn mcp"),
    );
    let mut stdin = mcp.0.stdin.take().expect("piped stdin");
    let lines = stdout_lines(&mut mcp.0);
    let mut send = |v: Value| writeln!(stdin, "{v}").expect("write to mcp");
    send(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}));
    lines.recv_timeout(Duration::from_secs(30)).expect("initialize answer");
    send(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let start = Instant::now();
    let mut id = 2;
    loop {
        send(serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "index_status", "arguments": {}}}));
        let answer = lines.recv_timeout(Duration::from_secs(30)).expect("index_status answer");
        if answer.contains("\\\"phase\\\":\\\"ready\\\"") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "never ready: {answer}");
        std::thread::sleep(Duration::from_millis(200));
        id += 1;
    }
    let status = json(codegraph(&cache, &["status", "--json"], &repo));
    let seeded = &status["repository"]["seeded_from"];
    assert_eq!(seeded["store"], url.as_str(), "{status}");
    assert_eq!(seeded["commit"], commit.as_str());
    assert_eq!(seeded["re_derived"], 0);
}
