//! The fuzz targets' checks (`codegraph_tests::fuzz`) on stable, in every `cargo test`: each
//! target's committed seeds (`fuzz/seeds/TARGET/`) and a fixed number of seeded mutations of
//! them (bit flips, inserted syntax, deleted and duplicated ranges, splices). The facts
//! decoder gets the encoded facts of the extraction seeds and their mutations. This is the
//! seconds-long CI run; the real fuzzing is `cargo +nightly fuzz run TARGET` (README).

use codegraph_parse::{Language, analyze, encode_facts};
use codegraph_tests::fuzz;
use std::path::Path;

/// Mutations per target (deterministic: the same inputs on every run).
const MUTATIONS: usize = 300;

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    let out: Vec<Vec<u8>> = files.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b"\"",
    b"'",
    b"`",
    b"\n",
    b"<",
    b">",
    b"=>",
    b"func ",
    b"class ",
    b"${",
    b"\\u",
    b"/*",
    b"```",
    b"# ",
    b"{{",
    b"do\n",
    b"end\n",
    b"---\n",
    b": ",
    b"$(",
    b"\xff",
    b"\xe2\x82",
    b"\0",
];

/// One mutation of `seed` (`other` is a second seed to splice from).
fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(5) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            2 => {
                let end = (at + rng.below(64)).min(v.len());
                v.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(128)).min(v.len());
                let copy = v[at..end].to_vec();
                v.splice(at..at, copy);
            }
            _ => {
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(256)).min(other.len());
                v.splice(at..at, other[from..end].iter().copied());
            }
        }
    }
    v
}

/// Runs `check` on every seed and on [`MUTATIONS`] mutations of them.
fn replay(inputs: &[Vec<u8>], seed: u64, check: impl Fn(&[u8])) -> Vec<Vec<u8>> {
    let mut rng = Rng(seed);
    let mut all = inputs.to_vec();
    for _ in 0..MUTATIONS {
        let a = &inputs[rng.below(inputs.len())];
        let b = &inputs[rng.below(inputs.len())];
        all.push(mutate(&mut rng, a, b));
    }
    for input in &all {
        check(input);
    }
    all
}

#[test]
fn extract_go() {
    replay(&seeds("extract_go"), 1, |d| fuzz::extract(Language::Go, d));
}

#[test]
fn extract_typescript() {
    replay(&seeds("extract_typescript"), 2, fuzz::extract_typescript);
}

#[test]
fn extract_markdown() {
    replay(&seeds("extract_markdown"), 3, |d| fuzz::extract(Language::Markdown, d));
}

#[test]
fn extract_terraform() {
    replay(&seeds("extract_terraform"), 6, |d| fuzz::extract(Language::Terraform, d));
}

#[test]
fn extract_shell() {
    replay(&seeds("extract_shell"), 7, |d| fuzz::extract(Language::Shell, d));
}

#[test]
fn extract_kubernetes() {
    replay(&seeds("extract_kubernetes"), 8, |d| fuzz::extract(Language::Kubernetes, d));
}

#[test]
fn extract_elixir() {
    replay(&seeds("extract_elixir"), 9, |d| fuzz::extract(Language::Elixir, d));
}

#[test]
fn extract_python() {
    replay(&seeds("extract_python"), 10, |d| fuzz::extract(Language::Python, d));
}

#[test]
fn extract_java() {
    replay(&seeds("extract_java"), 10, |d| fuzz::extract(Language::Java, d));
}

#[test]
fn extract_rust() {
    replay(&seeds("extract_rust"), 11, |d| fuzz::extract(Language::Rust, d));
}

#[test]
fn extract_protobuf() {
    replay(&seeds("extract_protobuf"), 12, |d| fuzz::extract(Language::Protobuf, d));
}

#[test]
fn endpoint_props() {
    replay(&seeds("endpoint_props"), 4, fuzz::endpoint_props);
}

#[test]
fn facts_decode() {
    // Real blobs: the facts of the extraction seeds, then mutations of those bytes.
    let mut blobs = Vec::new();
    for (target, language) in [
        ("extract_go", Language::Go),
        ("extract_markdown", Language::Markdown),
        ("extract_terraform", Language::Terraform),
        ("extract_elixir", Language::Elixir),
        ("extract_python", Language::Python),
        ("extract_java", Language::Java),
        ("extract_rust", Language::Rust),
        ("extract_protobuf", Language::Protobuf),
    ] {
        for s in seeds(target) {
            blobs.push(encode_facts(&analyze(language, &String::from_utf8_lossy(&s))));
        }
    }
    let all = replay(&blobs, 5, fuzz::facts_decode);
    // The mutations must reach past the header: some mutated blobs still decode.
    let decoded =
        all[blobs.len()..].iter().filter(|b| codegraph_parse::decode_facts(b).is_ok()).count();
    assert!(decoded > 0, "no mutated blob decoded: the mutator never gets past the header");
}
