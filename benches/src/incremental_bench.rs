//! `codegraph-bench incremental DIR`: what an edit costs. On a private copy of the corpus:
//! a cold index, a no-change `codegraph index`, a one-file-change `codegraph index`, then a
//! `codegraph watch` daemon fed real edits (function-body edits and exported-signature
//! renames), each timed from the write to the moment the new revision is published and
//! queryable (the daemon prints its revision line after the commit). Also the daemon's RSS
//! after the first edit and after many. Prints a table; figures go to docs/BENCHMARKS.md.

use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

struct Args {
    dir: PathBuf,
    edits: usize,
    rss_edits: usize,
    bin: PathBuf,
    keep: bool,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args> {
    let dir = PathBuf::from(it.next().context("missing DIR")?);
    let mut a = Args { dir, edits: 60, rss_edits: 0, bin: crate::sibling_binary()?, keep: false };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--edits" => a.edits = it.next().context("--edits N")?.parse()?,
            "--rss-edits" => a.rss_edits = it.next().context("--rss-edits N")?.parse()?,
            "--bin" => a.bin = PathBuf::from(it.next().context("--bin PATH")?),
            "--keep" => a.keep = true,
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(a)
}

/// A place to edit: a file and the 0-based line of a function header ending in `{`, and
/// whether the function is exported (a rename changes what other files can see).
#[derive(Clone, Debug)]
struct Target {
    rel: String,
    line: usize,
    name: String,
    exported: bool,
    lang: crate::SourceLang,
}

fn find_targets(root: &Path) -> Vec<Target> {
    let mut out = Vec::new();
    for crate::EditableSource { rel, lang, text } in crate::editable_sources(root) {
        use crate::SourceLang;
        for (i, l) in text.lines().enumerate() {
            let (header, opens) = match lang {
                SourceLang::Go => (l.strip_prefix("func "), '{'),
                SourceLang::Ts => (l.strip_prefix("export function "), '{'),
                // A top-level function whose header is one line.
                SourceLang::Py => (l.strip_prefix("def "), ':'),
                // A method whose header is one line: `    public int size() {`.
                SourceLang::Java => (java_method_header(l), '{'),
                // A function or method whose header is one line: `    pub fn len(&self) -> usize {`.
                SourceLang::Rust => (rust_fn_header(l), '{'),
            };
            let Some(rest) = header else { continue };
            if !l.ends_with(opens) || rest.starts_with('(') {
                continue;
            }
            let name: String =
                rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if name.is_empty() || !rest[name.len()..].starts_with('(') {
                continue;
            }
            let exported = match lang {
                SourceLang::Go => name.chars().next().is_some_and(char::is_uppercase),
                SourceLang::Ts => true,
                SourceLang::Py => !name.starts_with('_'),
                SourceLang::Java => l.trim_start().starts_with("public "),
                SourceLang::Rust => l.trim_start().starts_with("pub"),
            };
            out.push(Target { rel: rel.clone(), line: i, name, exported, lang });
            break;
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// The part of a Java method header from its name on (`size() {`), for a one-line header
/// with modifiers and a return type; `None` for anything else (types, fields, statements).
fn java_method_header(l: &str) -> Option<&str> {
    let t = l.trim_start();
    let modifiers = ["public ", "protected ", "private ", "static "];
    if !modifiers.iter().any(|m| t.starts_with(m))
        || t.contains(" class ")
        || t.contains(" interface ")
        || t.contains(" enum ")
        || t.contains(" record ")
        || t.contains('=')
        || t.contains(" abstract ")
    {
        return None;
    }
    let open = t.find('(')?;
    let start = t[..open].rfind(' ')? + 1;
    Some(&t[start..])
}

/// The part of a Rust function header from its name on (`len(&self) -> usize {`): an
/// optional visibility (`pub`, `pub(crate)`), the qualifiers `const`, `async`, `unsafe`,
/// `default` and `extern "ABI"`, then `fn `; `None` for anything else.
fn rust_fn_header(l: &str) -> Option<&str> {
    let mut t = l.trim_start();
    if let Some(rest) = t.strip_prefix("pub") {
        t = match rest.strip_prefix('(') {
            Some(scoped) => scoped.split_once(')')?.1,
            None if rest.starts_with(' ') => rest,
            None => return None,
        }
        .trim_start();
    }
    loop {
        let before = t;
        for q in ["const ", "async ", "unsafe ", "default "] {
            if let Some(rest) = t.strip_prefix(q) {
                t = rest.trim_start();
            }
        }
        if let Some(rest) = t.strip_prefix("extern ") {
            t = rest.trim_start();
            if let Some(abi) = t.strip_prefix('"') {
                t = abi.split_once('"')?.1.trim_start();
            }
        }
        if t.len() == before.len() {
            break;
        }
    }
    t.strip_prefix("fn ")
}

/// Deterministic pseudo-random picks.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Inserts a statement at the top of the target's function body.
fn body_edit(root: &Path, t: &Target, n: usize) -> Result<()> {
    let p = root.join(&t.rel);
    let text = std::fs::read_to_string(&p)?;
    let mut lines: Vec<&str> = text.lines().collect();
    let stmt = match t.lang {
        crate::SourceLang::Go => format!("\t_ = {n}"),
        crate::SourceLang::Ts => format!("  void {n};"),
        crate::SourceLang::Py => format!("    _ = {n}"),
        crate::SourceLang::Java => format!("        int cgEdit{n} = {n};"),
        crate::SourceLang::Rust => format!("        let _cg_edit{n} = {n};"),
    };
    lines.insert(t.line + 1, &stmt);
    std::fs::write(&p, lines.join("\n") + "\n")?;
    Ok(())
}

/// Renames the target function (or renames it back), changing what its package exports.
fn signature_edit(root: &Path, t: &Target, renamed: bool) -> Result<()> {
    let p = root.join(&t.rel);
    let text = std::fs::read_to_string(&p)?;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (from, to) = if renamed {
        (format!("{}Renamed(", t.name), format!("{}(", t.name))
    } else {
        (format!("{}(", t.name), format!("{}Renamed(", t.name))
    };
    let line = &mut lines[t.line];
    if !line.contains(&from) {
        bail!("{}:{} has no {from}", t.rel, t.line + 1);
    }
    *line = line.replacen(&from, &to, 1);
    std::fs::write(&p, lines.join("\n") + "\n")?;
    Ok(())
}

fn run_index(bin: &Path, root: &Path, db: &Path) -> Result<(f64, Value)> {
    let start = Instant::now();
    let out = Command::new(bin)
        .args(["index", "--json", "--db"])
        .arg(db)
        .arg(root)
        .output()
        .context("run codegraph index")?;
    let secs = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!("codegraph index failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok((secs, serde_json::from_slice(&out.stdout)?))
}

fn lines_of(child: &mut Child) -> Result<Receiver<Value>> {
    let stdout = child.stdout.take().context("piped stdout")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Ok(v) = serde_json::from_str::<Value>(&line)
                && tx.send(v).is_err()
            {
                break;
            }
        }
    });
    Ok(rx)
}

fn wait_event(rx: &Receiver<Value>, event: &str, timeout: Duration) -> Result<Value> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let v = rx.recv_timeout(left).with_context(|| format!("no `{event}` event"))?;
        if v["event"] == event {
            return Ok(v);
        }
    }
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn summary(label: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{label:<34} n={:<4} p50 {:>8.1} ms  p95 {:>8.1} ms  max {:>8.1} ms",
        ms.len(),
        percentile(&ms, 0.5),
        percentile(&ms, 0.95),
        ms.last().copied().unwrap_or(f64::NAN)
    );
}

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let a = parse_args(args)?;
    let work = std::env::temp_dir().join(format!("codegraph-incr-{}", std::process::id()));
    let root = work.join("root");
    let db = work.join("index.db");
    std::fs::create_dir_all(&work)?;
    // `DIR/.`: the tree's contents even when DIR is a symlink (Debian's Go sources are), so
    // the copy is real files and the edits never reach the original.
    std::fs::create_dir_all(&root)?;
    let status =
        Command::new("cp").arg("-r").arg(format!("{}/.", a.dir.display())).arg(&root).status()?;
    if !status.success() {
        bail!("cannot copy {}", a.dir.display());
    }
    let targets = find_targets(&root);
    if targets.is_empty() {
        bail!("no editable functions under {}", a.dir.display());
    }
    println!(
        "corpus {} ({} editable files), copy at {}",
        a.dir.display(),
        targets.len(),
        root.display()
    );

    let (cold, v) = run_index(&a.bin, &root, &db)?;
    println!(
        "cold index                         {cold:>8.2} s  ({} files, revision {})",
        v["files"], v["revision"]
    );
    let mut nochange = Vec::new();
    for _ in 0..3 {
        let (secs, v) = run_index(&a.bin, &root, &db)?;
        if v["mode"] != "unchanged" {
            bail!("a no-change index published: {v}");
        }
        nochange.push(secs * 1000.0);
    }
    summary("no-change `codegraph index`", nochange);
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut one = Vec::new();
    for i in 0..3 {
        let t = &targets[rng.next(targets.len())];
        body_edit(&root, t, 1_000_000 + i)?;
        let (secs, v) = run_index(&a.bin, &root, &db)?;
        if v["mode"] != "incremental" {
            bail!("a one-file change did not publish: {v}");
        }
        one.push(secs * 1000.0);
    }
    summary("one-file-change `codegraph index`", one);

    let mut child = Command::new(&a.bin)
        .args(["watch", "--json", "--db"])
        .arg(&db)
        .arg(&root)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("spawn codegraph watch")?;
    let rx = lines_of(&mut child)?;
    let result = (|| -> Result<()> {
        wait_event(&rx, "watching", Duration::from_secs(600))?;
        let timeout = Duration::from_secs(30);
        // Agents edit a handful of files over and over: a working set of files, each edited
        // several times. The first edit of a file is reported apart (the daemon computes what
        // other units read of it, its surface, and what its resolution reads, once).
        let working: Vec<&Target> =
            (0..(a.edits / 6).max(1)).map(|_| &targets[rng.next(targets.len())]).collect();
        let (mut first, mut again) = (Vec::new(), Vec::new());
        let mut rss_first = None;
        let mut seen = std::collections::HashSet::new();
        let mut own_only = 0;
        for i in 0..a.edits {
            let t = working[i % working.len()];
            let start = Instant::now();
            body_edit(&root, t, i)?;
            let v = wait_event(&rx, "revision", timeout)?;
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            own_only += usize::from(v["own_units_only"] == true);
            if seen.insert(t.rel.clone()) {
                first.push(ms)
            } else {
                again.push(ms)
            }
            if i == 0 {
                rss_first = rss_kib(child.id());
            }
        }
        summary("watch: body edit, file's first edit", first);
        summary("watch: body edit, repeated edits", again);
        println!("watch: body edits that derived only their own units {own_only} of {}", a.edits);
        let exported: Vec<&Target> = working.iter().copied().filter(|t| t.exported).collect();
        let mut sig = Vec::new();
        for i in 0..if exported.is_empty() { 0 } else { a.edits } {
            let t = exported[(i / 2) % exported.len()];
            let start = Instant::now();
            signature_edit(&root, t, i % 2 == 1)?;
            wait_event(&rx, "revision", timeout)?;
            sig.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        summary("watch: exported signature rename", sig);
        if a.rss_edits > 0 {
            for i in 0..a.rss_edits {
                let t = &targets[rng.next(targets.len())];
                body_edit(&root, t, 2_000_000 + i)?;
                wait_event(&rx, "revision", timeout)?;
            }
            let after = rss_kib(child.id());
            println!(
                "watch RSS after 1st edit {} MiB, after {} more edits {} MiB",
                rss_first.map_or("?".into(), |k| (k / 1024).to_string()),
                a.rss_edits,
                after.map_or("?".into(), |k| (k / 1024).to_string())
            );
        } else if let Some(k) = rss_first {
            println!("watch RSS after the first edit      {} MiB", k / 1024);
        }
        Ok(())
    })();
    let _ = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
    let _ = child.wait();
    if !a.keep {
        let _ = std::fs::remove_dir_all(&work);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_headers_from_the_name_on() {
        assert_eq!(
            rust_fn_header("    pub fn len(&self) -> usize {"),
            Some("len(&self) -> usize {")
        );
        assert_eq!(rust_fn_header("pub(crate) async fn run() {"), Some("run() {"));
        assert_eq!(rust_fn_header("const unsafe extern \"C\" fn raw() {"), Some("raw() {"));
        assert_eq!(rust_fn_header("fn parse<T: A>(x: T) {"), Some("parse<T: A>(x: T) {"));
        assert_eq!(rust_fn_header("public fn x() {"), None);
        assert_eq!(rust_fn_header("impl Parser {"), None);
        assert_eq!(rust_fn_header("    let f = |x| x;"), None);
    }

    /// The edit benches on a Rust tree: the first one-line function of each source file (not
    /// under `tests/`), a body edit after its header and a rename of it, both valid Rust.
    #[test]
    fn rust_targets_body_edits_and_renames() {
        let root = std::env::temp_dir().join(format!("cg-bench-rs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("tests")).unwrap();
        std::fs::write(
            root.join("src/lib.rs"),
            "//! A crate.\nuse std::fmt;\n\nfn parse<T>(x: T) {}\n\nimpl P {\n    pub fn len(&self) -> usize {\n        0\n    }\n}\n",
        )
        .unwrap();
        std::fs::write(root.join("src/util.rs"), "pub(crate) fn helper() {\n}\n").unwrap();
        std::fs::write(root.join("tests/it.rs"), "fn t() {\n}\n").unwrap();
        let targets = find_targets(&root);
        let found: Vec<(&str, usize, &str, bool)> =
            targets.iter().map(|t| (t.rel.as_str(), t.line, t.name.as_str(), t.exported)).collect();
        assert_eq!(found, [("src/lib.rs", 6, "len", true), ("src/util.rs", 0, "helper", true)]);
        body_edit(&root, &targets[1], 7).unwrap();
        signature_edit(&root, &targets[1], false).unwrap();
        let text = std::fs::read_to_string(root.join("src/util.rs")).unwrap();
        let _ = std::fs::remove_dir_all(&root);
        assert_eq!(text, "pub(crate) fn helperRenamed() {\n        let _cg_edit7 = 7;\n}\n");
    }
}
