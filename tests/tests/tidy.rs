//! Tidy checks over the workspace's own sources, run by `cargo test`: every Rust file opens
//! with a `//!` doc saying why it exists, and none has trailing whitespace, a todo,
//! unimplemented or dbg macro call, or an ignored test.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "target" || n.to_string_lossy().starts_with('.'))
            {
                continue;
            }
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn sources_are_tidy() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["crates", "tests", "benches"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 30, "found only {} files under {}", files.len(), root.display());
    // Spelled in pieces so this file does not flag itself.
    let banned = [
        ["todo", "!("].concat(),
        ["unimplemented", "!("].concat(),
        ["dbg", "!("].concat(),
        ["#[", "ignore]"].concat(),
    ];
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        if !text.starts_with("//!") {
            problems.push(format!("{rel}: does not start with a `//!` module doc"));
        }
        for (i, line) in text.lines().enumerate() {
            if line.ends_with(' ') || line.ends_with('\t') {
                problems.push(format!("{rel}:{}: trailing whitespace", i + 1));
            }
            for b in &banned {
                if line.contains(b.as_str()) {
                    problems.push(format!("{rel}:{}: contains {b}", i + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "tidy problems:\n{}", problems.join("\n"));
}
