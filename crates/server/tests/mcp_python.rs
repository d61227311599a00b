//! Drives the real `codegraph mcp` binary with the official MCP Python SDK
//! (tests/mcp/e2e_client.py), over stdio and over streamable HTTP. The other MCP tests use
//! rmcp, the library the server is built on, so they cannot catch a wire format that only
//! rmcp accepts; a third-party client can. The SDK is installed by `bash tests/mcp/setup.sh`
//! (into target/mcp-venv; CI runs it) or found through `CODEGRAPH_TEST_PYTHON`. Without it
//! these tests fail rather than skip, so a missing install step cannot pass unnoticed.

use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = r#"
//- /src/greet.ts
export function greet(name: string): string { return "hi " + name; }
//- /src/main.ts
import { greet } from "./greet";
export function main() { return greet("a"); }
"#;

const INSTALL_HINT: &str = "install the MCP Python SDK with `bash tests/mcp/setup.sh` (it creates \
     target/mcp-venv), or set CODEGRAPH_TEST_PYTHON to a python that can `import mcp`";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The interpreter that has the SDK; panics with how to install it when there is none.
fn python() -> PathBuf {
    let py = match std::env::var_os("CODEGRAPH_TEST_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => workspace().join("target/mcp-venv/bin/python"),
    };
    assert!(py.exists(), "no Python interpreter at {}: {INSTALL_HINT}", py.display());
    let out = Command::new(&py)
        .args(["-c", "import mcp"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}; {INSTALL_HINT}", py.display()));
    assert!(
        out.status.success(),
        "`{} -c 'import mcp'` failed: {}\n{INSTALL_HINT}",
        py.display(),
        String::from_utf8_lossy(&out.stderr).trim()
    );
    py
}

/// Writes the fixture into a fresh git repository and runs the Python client on it.
fn run_client(transport: &str) {
    let py = python();
    let (_dir, base, root) = codegraph_tests::cli::git_fixture(FIXTURE);

    let script = workspace().join("tests/mcp/e2e_client.py");
    let out = Command::new(&py)
        .arg(&script)
        .arg("--codegraph")
        .arg(env!("CARGO_BIN_EXE_codegraph"))
        .arg("--root")
        .arg(&root)
        .args(["--transport", transport])
        .env("CODEGRAPH_CACHE_DIR", base.join("cache"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(&root)
        .output()
        .expect("run the Python MCP client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "Python MCP client ({transport}) failed: {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(stdout.contains("ok: "), "no summary from the client:\n{stdout}\n{stderr}");
    println!("{}", stdout.trim());
}

#[test]
fn python_sdk_over_stdio() {
    run_client("stdio");
}

#[test]
fn python_sdk_over_http() {
    run_client("http");
}
