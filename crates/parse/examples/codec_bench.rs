//! Measures the facts codec on a real tree: analyzes every Go / TypeScript / TSX / JavaScript
//! file under a directory, then encodes and decodes all their facts and prints the sizes and
//! times. `cargo run --release -p codegraph-parse --example codec_bench -- DIR [ROUNDS]`
//! (ROUNDS, default 3: the encode and decode times printed are the best round's).

mod common;

use codegraph_parse::{FileFacts, Language, analyze, decode_facts, encode_facts};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: codec_bench DIR [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(3).max(1);
    let paths = common::files_under(&dir);

    let mut facts: Vec<FileFacts> = Vec::new();
    let mut source_bytes = 0u64;
    let start = Instant::now();
    for path in &paths {
        let code =
            matches!(path.extension().and_then(|e| e.to_str()), Some("go" | "ts" | "tsx" | "js"));
        let Some(lang) = Language::from_path(&path.to_string_lossy()).filter(|_| code) else {
            continue;
        };
        let Ok(bytes) = std::fs::read(path) else { continue };
        source_bytes += bytes.len() as u64;
        facts.push(analyze(lang, &String::from_utf8_lossy(&bytes)));
    }
    let analyze_time = start.elapsed();

    let count = |f: fn(&FileFacts) -> usize| facts.iter().map(f).sum::<usize>();
    println!(
        "files {} symbols {} imports {} calls {} accesses {} heritage {} hints {}",
        facts.len(),
        count(|f| f.symbols.len()),
        count(|f| f.imports.len()),
        count(|f| f.calls.len()),
        count(|f| f.accesses.len()),
        count(|f| f.heritage.len()),
        count(|f| f.type_hints.len()),
    );
    println!("analyze {} ms (one thread)", ms(analyze_time));

    let mut blobs: Vec<Vec<u8>> = Vec::new();
    let mut best_encode = Duration::MAX;
    let mut best_decode = Duration::MAX;
    let mut failures = 0usize;
    for _ in 0..rounds {
        let start = Instant::now();
        blobs = facts.iter().map(encode_facts).collect();
        best_encode = best_encode.min(start.elapsed());

        let start = Instant::now();
        let decoded: Vec<_> = blobs.iter().map(|b| decode_facts(b)).collect();
        best_decode = best_decode.min(start.elapsed());

        failures =
            decoded.iter().zip(&facts).filter(|(d, f)| !matches!(d, Ok(d) if d == *f)).count();
    }
    let encoded: u64 = blobs.iter().map(|b| b.len() as u64).sum();
    println!(
        "source {source_bytes} bytes, encoded {encoded} bytes ({:.1}% of source, {:.0} bytes/file)",
        100.0 * encoded as f64 / source_bytes.max(1) as f64,
        encoded as f64 / facts.len().max(1) as f64,
    );
    println!(
        "encode {} ms, decode {} ms (best of {rounds}, one thread); round-trip failures {failures}",
        ms(best_encode),
        ms(best_decode),
    );
    if failures > 0 {
        std::process::exit(1);
    }
}
