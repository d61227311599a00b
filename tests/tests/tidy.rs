//! Tidy checks over the workspace's own sources, run by `cargo test`: every Rust file opens
//! with a `//!` doc saying why it exists, and none has trailing whitespace, a todo,
//! unimplemented or dbg macro call, or an ignored test; node/edge kinds and ID prefixes are
//! spelt only in the model crate (`codegraph-schema`); and the crate dependency rules of
//! ARCHITECTURE.md hold (from `cargo metadata`).

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

/// The non-test lines of a source file, numbered from 1: everything before its first
/// `#[cfg(test)]`, without comment lines.
fn product_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| !l.trim_start().starts_with("#[cfg(test)]"))
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l))
}

/// The product sources of the library and binary crates (no `tests/`, `examples/`,
/// `benches/` or `tests.rs`) whose path starts with none of `except`, as (path, text).
fn product_files(root: &Path, except: &[&str]) -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    files
        .into_iter()
        .filter_map(|f| {
            let rel = f.strip_prefix(root).unwrap_or(&f).display().to_string();
            let skip = except.iter().any(|p| rel.starts_with(p))
                || ["/tests/", "/examples/", "/benches/"].iter().any(|d| rel.contains(d))
                || rel.ends_with("/tests.rs");
            (!skip).then(|| (rel, std::fs::read_to_string(&f).unwrap_or_default()))
        })
        .collect()
}

/// The quoted words of a line (`"CALLS"`, `'file'`).
fn quoted_words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for q in ['"', '\''] {
        let parts: Vec<&str> = line.split(q).collect();
        for w in parts.iter().skip(1).step_by(2).take(parts.len().saturating_sub(1) / 2) {
            if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                out.push(*w);
            }
        }
    }
    out
}

fn has_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

/// Marks a justified kind literal (at most [`MAX_JUSTIFIED`] in the workspace).
const JUSTIFIED: &str = "kind literal:";
const MAX_JUSTIFIED: usize = 5;

/// Node and edge kinds are the model crate's enums everywhere else: an edge kind spelt as a
/// literal anywhere, or a node kind spelt as a literal on a line about a `kind` (comparisons,
/// SQL, JSON), fails; so does an ID prefix (`"file:"`, `"sym:"`...) spelt by hand.
#[test]
fn kinds_and_ids_are_spelt_only_in_the_model_crate() {
    use codegraph_schema::{EdgeKind, NodeCategory, NodeKind};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // Not the model crate itself, nor the parser crate: its literals are tree-sitter's node
    // kinds, a different vocabulary that `crates/parse/tests/grammar_names.rs` checks.
    let files = product_files(&root, &["crates/schema/", "crates/parse/"]);
    assert!(files.len() > 30, "found only {} product files", files.len());
    let prefixes: Vec<String> =
        NodeCategory::ALL.iter().map(|c| format!("\"{}:", c.id_prefix())).collect();
    let mut problems = Vec::new();
    let mut justified = Vec::new();
    for (rel, text) in &files {
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in product_lines(text) {
            let about_kind = has_word(line, "kind");
            let mut hits: Vec<String> = quoted_words(line)
                .into_iter()
                .filter(|w| {
                    EdgeKind::parse(w).is_some() || (about_kind && NodeKind::parse(w).is_some())
                })
                .map(|w| format!("kind `{w}`"))
                .collect();
            // `"file:{path}"`, `"proc:"`; not a label such as `"cluster: {}"`.
            let id_prefix = |p: &String| {
                line.match_indices(p.as_str()).any(|(i, _)| !line[i + p.len()..].starts_with(' '))
            };
            hits.extend(prefixes.iter().filter(|p| id_prefix(p)).map(|p| {
                format!("ID prefix `{}` (use codegraph_schema::ids)", p.trim_start_matches('"'))
            }));
            if hits.is_empty() {
                continue;
            }
            let above = n.checked_sub(2).and_then(|i| lines.get(i)).copied().unwrap_or("");
            if line.contains(JUSTIFIED) || above.contains(JUSTIFIED) {
                justified.push(format!("{rel}:{n}"));
            } else {
                problems.push(format!("{rel}:{n}: {}", hits.join(", ")));
            }
        }
    }
    assert!(problems.is_empty(), "spelt outside codegraph-schema:\n{}", problems.join("\n"));
    assert!(
        justified.len() <= MAX_JUSTIFIED,
        "{} justified kind literals (at most {MAX_JUSTIFIED}): {}",
        justified.len(),
        justified.join(", ")
    );
}

#[test]
fn the_checker_sees_what_it_must() {
    assert_eq!(quoted_words(r#"if n.kind == "file" || e == 'CALLS' {"#), ["file", "CALLS"]);
    assert_eq!(quoted_words(r#"json!({"file": n.file})"#), ["file"]);
    assert!(has_word("n.kind != x", "kind") && !has_word("UnitKind::File", "kind"));
    assert!(!has_word("kinds", "kind"));
    let lines: Vec<_> = product_lines("a\n// b\nc\n#[cfg(test)]\nd").collect();
    assert_eq!(lines, [(1, "a"), (3, "c")]);
}

/// ARCHITECTURE.md's "X must not depend on Y" rules, over each crate's own normal (non-dev)
/// dependency tree as `cargo tree -p CRATE -e normal` resolves it (features as that crate alone
/// enables them), transitively.
#[test]
fn crate_dependency_rules_hold() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tree = |krate: &str| -> Vec<String> {
        let out = std::process::Command::new(&cargo)
            .args(["tree", "-e", "normal", "--prefix", "none", "--format", "{p}"])
            .args(["-p", krate])
            .current_dir(&root)
            .output()
            .expect("cargo tree runs");
        assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .skip(1)
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect()
    };
    let sql: &[&str] = &["rusqlite", "libsqlite3-sys"];
    let rules: &[(&str, &[&str])] = &[
        ("codegraph-schema", &["serde", "rusqlite", "salsa", "tree-sitter"]),
        ("codegraph-parse", &["salsa", "rusqlite", "gix", "notify", "serde", "rmcp", "tokio"]),
        ("codegraph-db", &["rusqlite", "serde", "gix", "notify", "rmcp", "tokio"]),
        ("codegraph-resolve", &["rusqlite", "serde", "gix", "notify", "rmcp", "tokio"]),
        ("codegraph-query", &["salsa", "tree-sitter", "serde", "clap", "rmcp", "tokio"]),
        ("codegraph-derive", &["rusqlite", "salsa", "tree-sitter", "gix", "rmcp", "tokio"]),
        (
            "codegraph-engine",
            &["clap", "rmcp", "tokio", "axum", "hyper", "opendal", "codegraph-remote"],
        ),
        // The shared store: bytes, keys and manifests; no git, SQLite, graph or engine.
        (
            "codegraph-remote",
            &["rusqlite", "gix", "salsa", "tree-sitter", "codegraph-engine", "codegraph-query"],
        ),
        // The web view's pages: HTML from query answers, no HTTP, no engine.
        (
            "codegraph-web",
            &["salsa", "tree-sitter", "tokio", "axum", "hyper", "rmcp", "clap", "codegraph-engine"],
        ),
    ];
    let mut problems = Vec::new();
    for (krate, banned) in rules {
        let deps = tree(krate);
        assert!(!deps.is_empty() || *krate == "codegraph-schema", "{krate}: empty tree");
        for b in *banned {
            if let Some(d) = deps.iter().find(|d| *d == b || d.starts_with(&format!("{b}-"))) {
                problems.push(format!("{krate} depends on {d}"));
            }
        }
        // The web view reads SQLite only through codegraph-query.
        if !krate.ends_with("query")
            && !krate.ends_with("engine")
            && !krate.ends_with("web")
            && let Some(d) = deps.iter().find(|d| sql.contains(&d.as_str()))
        {
            problems.push(format!("{krate} links SQLite ({d})"));
        }
    }
    assert!(problems.is_empty(), "dependency rules broken:\n{}", problems.join("\n"));
}

/// Generic code never matches on a language: `Language::<Variant>` is spelt only in the two
/// registries and in each language's own modules (ARCHITECTURE.md, "Adding a language"): a
/// file or directory named after the language (its name or ID tag, or those of the languages
/// sharing its ID tag or module: `typescript/` serves TSX and JavaScript too), so a new language needs
/// no change here.
#[test]
fn only_registries_and_language_modules_name_a_language() {
    use codegraph_parse::Language;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let registries = ["crates/parse/src/lang.rs", "crates/resolve/src/languages.rs"];
    let own_names = |l: Language| -> Vec<&'static str> {
        Language::ALL
            .iter()
            .filter(|o| o.id_tag() == l.id_tag() || o.spec().module == l.spec().module)
            .flat_map(|o| {
                let module = o.spec().module.rsplit("::").next().unwrap_or("");
                [o.as_str(), o.id_tag(), module]
            })
            .collect()
    };
    let mut problems = Vec::new();
    for (rel, text) in product_files(&root, &registries) {
        let components: Vec<&str> =
            rel.split('/').map(|c| c.strip_suffix(".rs").unwrap_or(c)).collect();
        for (n, line) in product_lines(&text) {
            for &l in Language::ALL {
                let v = format!("Language::{l:?}");
                if has_word(line, &v) && !own_names(l).iter().any(|o| components.contains(o)) {
                    problems.push(format!("{rel}:{n}: {v}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "generic code naming a language:\n{}", problems.join("\n"));
}
