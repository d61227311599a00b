//! `codegraph-bench answer-sizes`: what the default answers cost an agent, in characters and
//! tokens (`o200k_base`, the tokenizer of current OpenAI models, via tiktoken-rs; other models'
//! tokenizers differ by some percent).
//!
//! Each corpus is indexed by the release binary into a scratch database; then the questions
//! agents ask most are put to the CLI with `--json`, whose answers are the MCP tools' answers
//! (the MCP server adds only `root`): the context, impact and open of the symbols with the
//! largest neighbourhoods, route impact of `/`, a DAG grep and an expansion. The budget is
//! 16,000 characters per default answer; the table says which answers were cut (and so carry
//! totals and a next offset).

use crate::accuracy::{index_scratch, remove_scratch};
use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The budget a default answer must stay under.
const BUDGET_CHARS: usize = 16_000;

struct Corpus {
    name: &'static str,
    root: &'static str,
    /// CLI arguments of each question (the root and database are added).
    questions: &'static [&'static [&'static str]],
}

const CORPORA: &[Corpus] = &[
    Corpus {
        name: "openai",
        root: "npm/node_modules/openai/src",
        questions: &[
            &["context", "APIResource"],
            &["impact", "APIResource"],
            &["impact", "sym:ts:client.ts:OpenAI.buildRequest"],
            &["context", "sym:ts:client.ts:OpenAI"],
            &["impact", "sym:ts:client.ts:OpenAI"],
            &["open", "sym:ts:client.ts:OpenAI"],
            &["route-impact", "/"],
            &["dag-grep", "request"],
            &["expand", "APIResource", "--direction", "in"],
            &["search", "create"],
        ],
    },
    Corpus {
        name: "gin",
        root: "/usr/share/gocode/src/github.com/gin-gonic/gin",
        questions: &[
            &["context", "sym:go:context.go:Context"],
            &["impact", "sym:go:context.go:Context"],
            &["impact", "sym:go:context.go:Context.Next"],
            &["context", "sym:go:gin.go:Engine"],
            &["open", "sym:go:gin.go:Engine"],
            &["route-impact", "/"],
            &["dag-grep", "router"],
            &["expand", "sym:go:context.go:Context", "--direction", "in"],
        ],
    },
    Corpus {
        name: "go-stdlib",
        root: "/usr/lib/go-1.19/src",
        questions: &[
            &["context", "sym:go:errors/errors.go:New"],
            &["impact", "sym:go:errors/errors.go:New"],
            &["impact", "pkg:go:io"],
            &["context", "sym:go:io/io.go:Writer"],
            &["impact", "sym:go:io/io.go:Writer.Write"],
            &["open", "sym:go:net/http/server.go:Server"],
            &["route-impact", "/"],
            &["dag-grep", "http server"],
            &["expand", "sym:go:fmt/print.go:Sprintf", "--direction", "in"],
        ],
    },
];

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let (corpora, only) = crate::report::corpus_args(args)?;
    let bin = crate::sibling_binary()?;
    let bpe = tiktoken_rs::o200k_base().map_err(|e| anyhow::anyhow!("tokenizer: {e}"))?;
    println!("| corpus | question | characters | tokens | cut lists | within budget |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut worst = (0usize, 0usize, String::new());
    for c in CORPORA.iter().filter(|c| only.as_deref().is_none_or(|o| c.name.contains(o))) {
        let root = corpora.join(c.root);
        if !root.is_dir() {
            println!("| {} | (corpus missing: run shared/eval/setup.sh) | | | | |", c.name);
            continue;
        }
        let (db, _) = index_scratch(&bin, c.name, &root)?;
        let result = (|| -> Result<()> {
            for q in c.questions {
                let text = ask(&bin, &root, &db, q)?;
                let chars = text.chars().count();
                let tokens = bpe.encode_with_special_tokens(&text).len();
                let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                let cut: Vec<String> = v["cut"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| {
                        format!(
                            "{} {}/{}",
                            x["list"].as_str().unwrap_or("?"),
                            x["shown"],
                            x["total"]
                        )
                    })
                    .collect();
                let question = q.join(" ");
                println!(
                    "| {} | `{question}` | {chars} | {tokens} | {} | {} |",
                    c.name,
                    if cut.is_empty() { "-".to_string() } else { cut.join(", ") },
                    if chars <= BUDGET_CHARS { "yes" } else { "**no**" }
                );
                if chars > worst.0 {
                    worst = (chars, tokens, format!("{} `{question}`", c.name));
                }
            }
            Ok(())
        })();
        remove_scratch(&db);
        result?;
    }
    println!();
    println!("largest answer: {} characters, {} tokens ({})", worst.0, worst.1, worst.2);
    Ok(())
}

/// The `--json` answer of one CLI question (an error answer, e.g. an ambiguous name, counts
/// too: it is what the agent reads).
fn ask(bin: &Path, root: &Path, db: &Path, q: &[&str]) -> Result<String> {
    let out = Command::new(bin)
        .args(q)
        .args(["--root", &root.to_string_lossy(), "--db", &db.to_string_lossy(), "--json"])
        .output()
        .with_context(|| format!("running {}", bin.display()))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if text.is_empty() {
        bail!(
            "`codegraph {}` printed nothing: {}",
            q.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(text)
}
