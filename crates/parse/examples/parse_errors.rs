//! Lists where a file's parse has errors (ERROR and MISSING nodes, first 5 per file) over a
//! directory tree, to find the constructs a grammar rejects: `cargo run --release -p
//! codegraph-parse --example parse_errors -- DIR` (`-- --repaired FILE`: the
//! repaired text of one file). A TypeScript file is parsed as its provider
//! parses it: repaired when that leaves fewer errors.

mod common;

use codegraph_parse::{Language, parse_tree, typescript_repaired_text};
use std::path::PathBuf;

fn errors(node: tree_sitter::Node<'_>, out: &mut Vec<(usize, usize, &'static str)>) {
    if node.is_error() || node.is_missing() {
        let p = node.start_position();
        out.push((p.row + 1, p.column + 1, if node.is_missing() { "MISSING" } else { "ERROR" }));
        return;
    }
    if !node.has_error() {
        return;
    }
    let mut c = node.walk();
    for child in node.children(&mut c) {
        errors(child, out);
    }
}

fn main() {
    if let Some(file) =
        std::env::args().nth(1).filter(|a| a == "--repaired").and(std::env::args().nth(2))
    {
        // The repaired text of one TypeScript file, to diff against the original.
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        print!("{}", typescript_repaired_text(&text).unwrap_or(text));
        return;
    }
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: parse_errors DIR");
        std::process::exit(2);
    };
    let files = common::files_under(&dir);
    for f in files {
        let rel = f.strip_prefix(&dir).unwrap_or(&f).to_string_lossy().into_owned();
        let Some(lang) = Language::from_path(&rel) else { continue };
        let Ok(bytes) = std::fs::read(&f) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        let Some(tree) = parse_tree(lang, &text, None) else { continue };
        let mut found = Vec::new();
        errors(tree.root_node(), &mut found);
        let ts = rel.ends_with(".ts") || rel.ends_with(".tsx") || rel.ends_with(".mts");
        if ts
            && !found.is_empty()
            && let Some(repaired) = typescript_repaired_text(&text)
            && let Some(better) = parse_tree(lang, &repaired, None)
        {
            let mut again = Vec::new();
            errors(better.root_node(), &mut again);
            if again.len() < found.len() {
                found = again;
            }
        }
        let lines: Vec<&str> = text.lines().collect();
        for (line, col, kind) in found.into_iter().take(5) {
            let src = lines.get(line - 1).map_or("", |l| l.trim());
            println!("{rel}:{line}:{col} {kind} | {}", src.chars().take(110).collect::<String>());
        }
    }
}
