//! Shared test support: a fixture DSL in which one string holds several files.
//!
//! ```text
//! //- /src/a.ts
//! export function a() {}
//! //- /src/b.ts
//! import { a } from "./a";
//! ```
//!
//! Each `//- /path` line starts a new file; the common indentation of the whole fixture is
//! removed first, so fixtures can be indented inside Rust raw strings. The same fixtures feed
//! provider goldens (pure facts), resolution tests and end-to-end CLI runs (written to a temp
//! directory).

use codegraph_parse::{Language, analyze, render::render_facts};
use std::path::Path;

/// One file of a fixture: root-relative path (no leading `/`) and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixtureFile {
    pub path: String,
    pub text: String,
}

/// Parses the fixture DSL. Text before the first `//- ` header is an error, so a typo in a
/// header cannot silently produce an empty fixture.
pub fn parse_fixture(fixture: &str) -> Vec<FixtureFile> {
    let fixture = dedent(fixture);
    let mut files: Vec<FixtureFile> = Vec::new();
    for line in fixture.split_inclusive('\n') {
        if let Some(header) = line.strip_prefix("//- ") {
            let path = header.trim().trim_start_matches('/').to_string();
            assert!(!path.is_empty(), "fixture header without a path");
            files.push(FixtureFile {
                path,
                text: String::new(),
            });
        } else if let Some(file) = files.last_mut() {
            file.text.push_str(line);
        } else {
            assert!(
                line.trim().is_empty(),
                "fixture text before the first `//- /path` header: {line:?}"
            );
        }
    }
    files
}

/// Writes a fixture under `dir`, creating parent directories.
pub fn write_fixture(dir: &Path, fixture: &str) -> Vec<FixtureFile> {
    let files = parse_fixture(fixture);
    for f in &files {
        let path = dir.join(&f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create fixture dir");
        }
        std::fs::write(&path, &f.text).expect("write fixture file");
    }
    files
}

/// Runs the provider of each file and renders its facts, file by file, for a golden.
pub fn render_fixture_facts(fixture: &str) -> String {
    let mut out = String::new();
    for f in parse_fixture(fixture) {
        out.push_str(&format!("//- {}\n", f.path));
        match Language::from_path(&f.path) {
            Some(lang) => out.push_str(&render_facts(&analyze(lang, &f.text))),
            None => out.push_str("(no provider)\n"),
        }
    }
    out
}

fn dedent(s: &str) -> String {
    let indent = s
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::with_capacity(s.len());
    for line in s.split_inclusive('\n') {
        if line.trim().is_empty() {
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line.get(indent..).unwrap_or(line));
        }
    }
    // Drop the leading newline a raw string usually starts with.
    out.trim_start_matches('\n').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_multi_file_fixtures() {
        let files = parse_fixture(
            r#"
            //- /src/a.ts
            export function a() {}

            //- /b.go
            package b
            "#,
        );
        assert_eq!(
            files,
            vec![
                FixtureFile {
                    path: "src/a.ts".into(),
                    text: "export function a() {}\n\n".into()
                },
                FixtureFile {
                    path: "b.go".into(),
                    text: "package b\n".into()
                },
            ]
        );
    }
}
