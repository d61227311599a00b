//! Measures what the watch daemon pays after an edit: re-validating and recomputing every unit
//! digest of a large root, and (with `dump`) writes every derived row of a root, so a refactor
//! of the queries can be checked to leave the rows byte-identical.
//!
//! Why it exists: the daemon's budget (an edit inside a function body -> every unit digest
//! recomputed in well under 50 ms on the Go standard library, 2 cores) is a property of the
//! query structure and of salsa's verification, not of any single query, so it needs a
//! measurement on a real corpus rather than a unit test.
//!
//! Usage (release build; the Go standard library is e.g. `/usr/share/go-1.19/src`):
//! - `cargo run --release -p codegraph-resolve --example incremental_bench -- bench ROOT
//!   [--durability low|high|files] [--parallel] [--edits N]`: loads `ROOT` (files with a
//!   provider language, `go.mod`, `*.json`), computes every digest, then times "apply the edit +
//!   recompute every file and package digest", as the daemon does after each change, for:
//!   `N` revisions that change nothing; `literal` edits (one character inside a string literal:
//!   the facts stay equal) and `new-line` edits (a new statement line with a call at the top of
//!   a function body: that file's facts, graph and resolution change), each in `N` different
//!   files; and `typing` (`N` `new-line` edits in a row to one file).
//!   `--durability`: `low` (every input LOW, the default), `high` (every input HIGH), `files`
//!   (source files HIGH, the file list LOW); an edited file's fields are always set LOW.
//!   `--parallel` recomputes the file digests on all cores. `BENCH_VERBOSE=1` prints, per
//!   edit, how many queries of each kind executed; `BENCH_ONLY=typing` (or another kind) runs
//!   one kind of edit only; `BENCH_TYPING_FILE=io/io.go` chooses the file `typing` edits.
//! - `... -- dump ROOT OUT`: writes the file node, file graph and resolution of every file, then
//!   the package graph, in `Debug` form.

use codegraph_db::{Content, Database, FileMeta, SourceFile, Workspace, file_facts};
use codegraph_parse::Language;
use codegraph_resolve::{
    file_graph, file_node, file_unit_digest, node_unit_digest, node_unit_rows, node_units,
    resolve_file,
};
use codegraph_schema::NodeKind;
use salsa::{Durability, Setter};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn walk(root: &Path, rel: &str, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        let path = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            if name != ".git" {
                walk(root, &path, out);
            }
        } else if ft.is_file()
            && (Language::from_path(&path).is_some() || name == "go.mod" || name.ends_with(".json"))
            && let Ok(bytes) = std::fs::read(e.path())
        {
            out.push((path, String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
}

fn meta(text: &str) -> FileMeta {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    FileMeta { hash: format!("{:016x}", h.finish()), ..FileMeta::for_text(text) }
}

struct Loaded {
    db: Database,
    files: Vec<SourceFile>,
    workspace: Workspace,
}

/// Query executions, recorded when `BENCH_VERBOSE` is set.
static EXECUTED: std::sync::Mutex<Vec<salsa::DatabaseKeyIndex>> = std::sync::Mutex::new(Vec::new());

/// `--parallel`: compute the file digests on all cores ([`Database::par_each`]).
static PARALLEL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

static VALIDATED: std::sync::Mutex<Vec<salsa::DatabaseKeyIndex>> =
    std::sync::Mutex::new(Vec::new());

fn verbose() -> bool {
    std::env::var_os("BENCH_VERBOSE").is_some()
}

/// How many queries of each kind executed since the last call.
fn executed_counts(db: &Database) -> String {
    let keys = EXECUTED.lock().map(|mut v| std::mem::take(&mut *v)).unwrap_or_default();
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for k in keys {
        let d = codegraph_resolve::describe_key(db, k);
        *counts.entry(d.split('(').next().unwrap_or("").to_string()).or_default() += 1;
    }
    counts.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
}

/// Input durabilities: `(source files, file list)`.
type Durabilities = (Durability, Durability);

fn load(root: &Path, (file_durability, list_durability): Durabilities) -> Loaded {
    let mut texts = Vec::new();
    walk(root, "", &mut texts);
    texts.sort();
    let db = if verbose() {
        Database::with_event_callback(Box::new(|e| {
            if let salsa::EventKind::WillExecute { database_key } = e.kind
                && let Ok(mut v) = EXECUTED.lock()
            {
                v.push(database_key);
            }
            if let salsa::EventKind::DidValidateMemoizedValue { database_key } = e.kind
                && let Ok(mut v) = VALIDATED.lock()
            {
                v.push(database_key);
            }
        }))
    } else {
        Database::default()
    };
    let files: Vec<SourceFile> = texts
        .iter()
        .map(|(path, text)| {
            SourceFile::builder(
                path.clone(),
                Language::from_path(path),
                Content::Text(Arc::from(text.as_str())),
                meta(text),
            )
            .durability(file_durability)
            .new(&db)
        })
        .collect();
    let workspace = Workspace::builder(files.clone()).durability(list_durability).new(&db);
    Loaded { db, files, workspace }
}

/// Every unit digest, as the daemon computes them after a change.
fn all_digests(db: &Database, ws: Workspace, files: &[SourceFile]) -> u64 {
    if PARALLEL.load(std::sync::atomic::Ordering::Relaxed) {
        // Validate (and recompute) on all cores; the loop below then only reads memos.
        db.par_each(files, |db, f| {
            file_unit_digest(db, ws, f);
        });
    }
    let mut acc = 0u64;
    for &f in files {
        acc = acc.wrapping_add(file_unit_digest(db, ws, f));
    }
    for &u in node_units(db, ws) {
        acc = acc.wrapping_add(node_unit_digest(db, u));
    }
    acc
}

/// The text after an edit of `kind`, or `None` when the file has no place for it.
fn edited(db: &Database, file: SourceFile, kind: &str) -> Option<String> {
    let text = codegraph_db::text(db, file);
    let language = file.language(db)?;
    match kind {
        "literal" => {
            // The first string literal on a line that declares nothing: change one character.
            let start = text.find("(\"")? + 2;
            let c = text[start..].chars().next()?;
            if c == '"' || c == '\\' {
                return None;
            }
            let replacement = if c == 'x' { "y" } else { "x" };
            Some(format!("{}{replacement}{}", &text[..start], &text[start + c.len_utf8()..]))
        }
        _ => {
            // A new first line in the body of the first multi-line function: after the first
            // line from its start that opens a block.
            let facts = &file_facts(db, file);
            let f = facts.symbols.iter().find(|s| {
                matches!(s.kind, NodeKind::Function | NodeKind::Method)
                    && s.end_line > s.start_line + 1
            })?;
            let call =
                if language == Language::Go { "\tprintln()\n" } else { "  console.log();\n" };
            let mut at = 0;
            for (n, line) in text.split_inclusive('\n').enumerate() {
                at += line.len();
                let n = u32::try_from(n + 1).ok()?;
                if n >= f.start_line && line.trim_end().ends_with('{') {
                    return (n < f.end_line)
                        .then(|| format!("{}{call}{}", &text[..at], &text[at..]));
                }
            }
            None
        }
    }
}

fn bench(root: &Path, durability: Durabilities, edits: usize) {
    let t = Instant::now();
    let Loaded { mut db, files, workspace } = load(root, durability);
    let load_ms = t.elapsed().as_millis();
    let t = Instant::now();
    db.prefetch(
        &files,
        |db, f| {
            file_graph(db, f);
        },
        |_, _| {},
    );
    db.par_each(&files, |db, f| {
        file_unit_digest(db, workspace, f);
    });
    all_digests(&db, workspace, &files);
    let cold_ms = t.elapsed().as_millis();
    if verbose() {
        executed_counts(&db);
    }
    let units = node_units(&db, workspace).len();
    println!(
        "{} files, {units} Go packages; load {load_ms} ms, cold digests {cold_ms} ms (all cores); \
         durability of files {:?}, of the file list {:?}; digests recomputed on {}",
        files.len(),
        durability.0,
        durability.1,
        if PARALLEL.load(std::sync::atomic::Ordering::Relaxed) {
            "all cores"
        } else {
            "one thread"
        }
    );

    // A revision that changes nothing: the floor of re-validating every digest.
    let mut noop = Vec::new();
    for _ in 0..edits {
        salsa::Database::synthetic_write(&mut db, Durability::LOW);
        let t = Clock::start();
        all_digests(&db, workspace, &files);
        noop.push(t.elapsed());
        if verbose() {
            let keys = VALIDATED.lock().map(|mut v| std::mem::take(&mut *v)).unwrap_or_default();
            let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
            for k in keys {
                let d = codegraph_resolve::describe_key(&db, k);
                *counts.entry(d.split('(').next().unwrap_or("").to_string()).or_default() += 1;
            }
            eprintln!("validated: {counts:?}");
        }
    }
    report("no-op revision", &mut noop);

    let sources: Vec<SourceFile> = files
        .iter()
        .copied()
        .filter(|&f| matches!(f.language(&db), Some(Language::Go | Language::TypeScript)))
        .collect();
    let step = (sources.len() / (edits * 3).max(1)).max(1);
    let spread: Vec<SourceFile> = sources.iter().copied().step_by(step).collect();
    for kind in ["literal", "new-line", "typing"] {
        if std::env::var("BENCH_ONLY").is_ok_and(|only| only != kind) {
            continue;
        }
        let mut times = Vec::new();
        let mut targets = spread.iter().copied();
        // `BENCH_TYPING_FILE=path` chooses the file `typing` edits.
        let mut typed: Option<SourceFile> = std::env::var("BENCH_TYPING_FILE")
            .ok()
            .and_then(|p| files.iter().copied().find(|f| *f.path(&db) == p))
            .filter(|_| kind == "typing");
        while times.len() < edits {
            let file = match (kind, typed) {
                ("typing", Some(f)) => f,
                _ => match targets.next() {
                    Some(f) => f,
                    None => break,
                },
            };
            let edit_kind = if kind == "literal" { "literal" } else { "new-line" };
            let Some(text) = edited(&db, file, edit_kind) else { continue };
            if kind == "typing" {
                typed = Some(file);
            }
            let t = Clock::start();
            let m = meta(&text);
            file.set_content(&mut db)
                .with_durability(Durability::LOW)
                .to(Content::Text(Arc::from(text.as_str())));
            file.set_meta(&mut db).with_durability(Durability::LOW).to(m);
            all_digests(&db, workspace, &files);
            times.push(t.elapsed());
            if verbose() {
                eprintln!(
                    "{kind} {} {:?}: {}",
                    file.path(&db),
                    t.elapsed().wall,
                    executed_counts(&db)
                );
            }
        }
        let what = match (kind, typed) {
            ("typing", Some(f)) => format!("typing ({} edits to {})", times.len(), f.path(&db)),
            _ => format!("{kind} edit + all digests"),
        };
        report(&what, &mut times);
    }
}

/// CPU time of the calling thread (Linux `schedstat`), so that figures hold on a busy machine.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

/// Wall-clock and thread CPU time since it started.
struct Clock {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Clock {
    fn start() -> Clock {
        Clock { wall: Instant::now(), cpu: thread_cpu() }
    }

    fn elapsed(&self) -> Sample {
        let cpu = self.cpu.zip(thread_cpu()).map(|(a, b)| b.saturating_sub(a));
        Sample { wall: self.wall.elapsed(), cpu }
    }
}

#[derive(Clone, Copy, Debug)]
struct Sample {
    wall: Duration,
    /// The thread's CPU time (without `--parallel`, all the work is on this thread).
    cpu: Option<Duration>,
}

fn report(what: &str, samples: &mut [Sample]) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let stats = |mut v: Vec<Duration>| {
        v.sort();
        let (Some(min), Some(max)) = (v.first(), v.last()) else { return String::new() };
        format!(
            "median {:.1} ms, min {:.1} ms, max {:.1} ms",
            ms(v[v.len() / 2]),
            ms(*min),
            ms(*max)
        )
    };
    if samples.is_empty() {
        println!("{what}: no sample");
        return;
    }
    let wall = stats(samples.iter().map(|s| s.wall).collect());
    let cpu: Option<Vec<Duration>> = samples.iter().map(|s| s.cpu).collect();
    let cpu = cpu.map(|c| format!("; thread CPU {}", stats(c))).unwrap_or_default();
    println!("{what} ({} samples): wall {wall}{cpu}", samples.len());
}

fn dump(root: &Path, out: &Path) -> std::io::Result<()> {
    let Loaded { mut db, files, workspace } = load(root, (Durability::LOW, Durability::LOW));
    db.prefetch(
        &files,
        |db, f| {
            file_graph(db, f);
        },
        |_, _| {},
    );
    let mut w = std::io::BufWriter::new(std::fs::File::create(out)?);
    for &f in &files {
        writeln!(w, "{:?}", file_node(&db, f))?;
        writeln!(w, "{:?}", file_graph(&db, f))?;
        writeln!(w, "{:?}", resolve_file(&db, workspace, f))?;
    }
    writeln!(w, "{:?}", node_unit_rows(&db, workspace))?;
    w.flush()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: incremental_bench bench ROOT [--durability low|high|files] [--parallel] \
                 [--edits N] | dump ROOT OUT";
    match args.first().map(String::as_str) {
        Some("bench") if args.len() >= 2 => {
            let value =
                |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
            let durability = match value("--durability").map(String::as_str) {
                None | Some("low") => (Durability::LOW, Durability::LOW),
                Some("high") => (Durability::HIGH, Durability::HIGH),
                Some("files") => (Durability::HIGH, Durability::LOW),
                Some(other) => {
                    eprintln!("unknown durability {other:?}\n{usage}");
                    std::process::exit(2);
                }
            };
            let parallel = args.iter().any(|a| a == "--parallel");
            PARALLEL.store(parallel, std::sync::atomic::Ordering::Relaxed);
            let edits = value("--edits").and_then(|n| n.parse().ok()).unwrap_or(20);
            bench(Path::new(&args[1]), durability, edits);
        }
        Some("dump") if args.len() == 3 => {
            if let Err(e) = dump(Path::new(&args[1]), Path::new(&args[2])) {
                eprintln!("dump: {e}");
                std::process::exit(1);
            }
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
