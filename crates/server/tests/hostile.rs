//! Hostile trees (issue 25): what the index recorded is never trusted when source text is read
//! again at query time. After indexing, the file behind a node is replaced by a symlink to a
//! secret outside the root, by a symlink to `/dev/zero`, or by a FIFO: `open` must answer at
//! once, show none of it, and say why.

use codegraph_tests::cli::{assert_ok, git_fixture, run};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_codegraph");

/// `codegraph open ID` in `root`, failing the test (not hanging it) if it takes over 20 s.
fn open(root: &Path, id: &str, json: bool) -> String {
    let mut args = vec!["open", id];
    if json {
        args.push("--json");
    }
    let mut child = Command::new(BIN)
        .args(&args)
        .current_dir(root)
        .env("CODEGRAPH_CACHE_DIR", root.join(".cache-not-used"))
        .env("CODEGRAPH_EVENTS", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codegraph open");
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("`codegraph open {id}` did not answer within 20 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    assert_ok(&out);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn source_reads_apply_the_scanners_rules_again() {
    let (_dir, base, root) = git_fixture(
        "//- /src/a.ts\nexport function alpha() {\n  return 1;\n}\n\
         //- /src/b.ts\nexport function beta() {\n  return 2;\n}\n",
    );
    assert_ok(&run(BIN, &["index"], &root));
    // Before: the source is shown.
    let text = open(&root, "sym:ts:src/a.ts:alpha", false);
    assert!(text.contains("     2 |   return 1;"), "{text}");

    // A symlink to a secret outside the root.
    let secret = base.join("secret.txt");
    std::fs::write(&secret, "TOP-SECRET line one\nTOP-SECRET line two\n").expect("write");
    std::fs::remove_file(root.join("src/a.ts")).expect("rm");
    std::os::unix::fs::symlink(&secret, root.join("src/a.ts")).expect("symlink");
    let text = open(&root, "sym:ts:src/a.ts:alpha", false);
    assert!(!text.contains("TOP-SECRET"), "{text}");
    assert!(text.contains("source not shown: src/a.ts: now resolves to"), "{text}");
    assert!(text.contains("outside the root; not read (symlink-outside-root)"), "{text}");
    let json = open(&root, "sym:ts:src/a.ts:alpha", true);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["source"], serde_json::Value::Null, "{v}");
    assert!(v["notes"].to_string().contains("symlink-outside-root"), "{v}");
    assert!(!json.contains("TOP-SECRET"));

    // A symlink to an endless device: refused without reading.
    std::fs::remove_file(root.join("src/a.ts")).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", root.join("src/a.ts")).expect("symlink");
    let text = open(&root, "sym:ts:src/a.ts:alpha", false);
    assert!(text.contains("source not shown: src/a.ts:"), "{text}");

    // A FIFO nobody writes to: refused at once (opened without blocking).
    std::fs::remove_file(root.join("src/b.ts")).expect("rm");
    let mk = Command::new("mkfifo").arg(root.join("src/b.ts")).status().expect("mkfifo");
    assert!(mk.success());
    let text = open(&root, "sym:ts:src/b.ts:beta", false);
    assert!(
        text.contains("source not shown: src/b.ts: now a FIFO, not a file; not read (not-regular)"),
        "{text}"
    );
}
