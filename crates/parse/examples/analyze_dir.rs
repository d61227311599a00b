//! Runs every provider over a directory tree and prints totals (or one file's facts), to check a
//! provider against a real corpus: `cargo run --release -p codegraph-parse --example analyze_dir
//! -- DIR [--print REL_PATH]`.

mod common;

use codegraph_parse::{Language, analyze, render::render_facts};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: analyze_dir DIR [--print REL_PATH]");
        std::process::exit(2);
    };
    if let Some(pos) = args.iter().position(|a| a == "--print") {
        let rel = args.get(pos + 1).cloned().unwrap_or_default();
        let text = String::from_utf8_lossy(&std::fs::read(dir.join(&rel)).unwrap_or_default())
            .into_owned();
        match Language::from_path(&rel) {
            Some(lang) => print!("{}", render_facts(&analyze(lang, &text))),
            None => eprintln!("no provider for {rel}"),
        }
        return;
    }
    let files = common::files_under(&dir);
    // language -> (files, bytes, symbols, imports, calls, hints, heritage, files with errors)
    let mut totals: BTreeMap<&str, [u64; 8]> = BTreeMap::new();
    let start = Instant::now();
    for path in &files {
        let rel = path.strip_prefix(&dir).unwrap_or(path).to_string_lossy().into_owned();
        let Some(lang) = Language::from_path(&rel) else {
            continue;
        };
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let facts = analyze(lang, &text);
        let t = totals.entry(lang.as_str()).or_default();
        t[0] += 1;
        t[1] += bytes.len() as u64;
        t[2] += facts.symbols.len() as u64;
        t[3] += facts.imports.len() as u64;
        t[4] += facts.calls.len() as u64;
        t[5] += facts.type_hints.len() as u64;
        t[6] += facts.heritage.len() as u64;
        t[7] += u64::from(facts.syntax_errors > 0);
    }
    println!("language files bytes symbols imports calls hints heritage files_with_errors");
    for (lang, t) in &totals {
        println!("{lang} {}", t.map(|n| n.to_string()).join(" "));
    }
    println!("elapsed {:.2?} (one thread, parse + extract)", start.elapsed());
}
