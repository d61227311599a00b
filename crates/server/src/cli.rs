//! Command definitions (clap) and their human / `--json` output.

use crate::answer::{edge_json, node_json, source_lines};
use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use codegraph_engine::fresh::freshness;
use codegraph_engine::index::{IndexOptions, IndexSummary};
use codegraph_engine::paths::{canonical_root, db_path};
use codegraph_engine::scan::DEFAULT_MAX_FILE_SIZE;
use codegraph_query::{EdgeRow, NodeRow, QueryError, SearchRequest, Store};
use codegraph_schema::{NodeCategory, NodeKind, ids};
use serde_json::{Value, json};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "codegraph",
    version,
    about = "Incremental code graph of a repository or worktree"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Index database (default: a per-user cache directory keyed by the root).
    #[arg(long, global = true, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Machine-readable output.
    #[arg(long, global = true)]
    json: bool,
    /// The code root (a repository or worktree), the same as the positional ROOT; `mcp`
    /// takes it several times. Default: the nearest directory up from the current one that
    /// has an index, else the git worktree root, else the current directory.
    #[arg(id = "root_flag", long = "root", global = true, value_name = "ROOT")]
    root_flags: Vec<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Index a code root and publish a new revision.
    Index {
        /// The code root (a repository or worktree); also `--root`. Default: the nearest
        /// indexed directory up from here, else the git worktree root, else here.
        root: Option<PathBuf>,
        /// Files larger than this many bytes are skipped.
        #[arg(long, default_value_t = DEFAULT_MAX_FILE_SIZE)]
        max_file_size: u64,
        /// Rebuild from scratch instead of updating the existing index.
        #[arg(long)]
        full: bool,
        /// Never start this root's first index from a sibling worktree's index.
        #[arg(long)]
        no_share: bool,
        /// A root with no index yet starts from the snapshot of its nearest published ancestor
        /// commit in this shared store (see `publish`); `CODEGRAPH_CACHE_FROM` stands for it.
        #[arg(long, value_name = "URL")]
        cache_from: Option<String>,
        /// Verify every page of the index first (SQLite's quick_check) and rebuild it if it
        /// is damaged. Without it the check runs only when the last writer did not finish or
        /// a query met a damaged page.
        #[arg(long)]
        check: bool,
        /// Also mine git history for files that usually change together (CO_CHANGED edges).
        /// The setting is kept in the index: later `index`, `watch`, `mcp` and queries keep
        /// the edges current (recomputed when HEAD or the indexed files change).
        #[arg(long, conflicts_with = "no_cochange")]
        cochange: bool,
        /// How many of the latest commits `--cochange` reads (also changes a kept setting).
        #[arg(long, value_name = "N")]
        cochange_commits: Option<usize>,
        /// Turn co-change off for this index and drop its CO_CHANGED edges.
        #[arg(long)]
        no_cochange: bool,
    },
    /// Publish the root's index for its HEAD commit to a shared store, so other machines
    /// start from it (`index`/`watch`/`mcp --cache-from URL`). Brings the index up to date
    /// first; idempotent (an entry already there is not uploaded again). Meant for a CI job
    /// on every push to the main branch.
    Publish {
        /// The code root (a repository or worktree); also `--root`. Default: the nearest
        /// indexed directory up from here, else the git worktree root, else here.
        root: Option<PathBuf>,
        /// The store: file:///dir (or a path), s3://bucket/prefix, gs://bucket/prefix,
        /// azblob://container/prefix, webdav+https://host/path, redis://host:port[/db].
        /// Credentials come from each service's usual environment variables.
        #[arg(long, value_name = "URL")]
        to: String,
        /// Files larger than this many bytes are skipped.
        #[arg(long, default_value_t = DEFAULT_MAX_FILE_SIZE)]
        max_file_size: u64,
        /// Publish even when the tree differs from HEAD (the snapshot is still named by
        /// HEAD; a root seeded from it re-derives the files that differ from its own).
        #[arg(long)]
        allow_dirty: bool,
    },
    /// Index a code root, then keep the index fresh as files change (until SIGINT/SIGTERM).
    Watch {
        /// The code root (a repository or worktree); also `--root`. Default: the nearest
        /// indexed directory up from here, else the git worktree root, else here.
        root: Option<PathBuf>,
        /// Files larger than this many bytes are skipped.
        #[arg(long, default_value_t = DEFAULT_MAX_FILE_SIZE)]
        max_file_size: u64,
        /// Quiet time after the last file event before a revision is published.
        #[arg(long, default_value_t = 10)]
        debounce_ms: u64,
        /// Batches naming more paths than this are applied as a full rescan.
        #[arg(long, default_value_t = 1000)]
        max_batch_paths: usize,
        /// Never start this root's first index from a sibling worktree's index.
        #[arg(long)]
        no_share: bool,
        /// A root with no index yet starts from the snapshot of its nearest published ancestor
        /// commit in this shared store (see `publish`); `CODEGRAPH_CACHE_FROM` stands for it.
        #[arg(long, value_name = "URL")]
        cache_from: Option<String>,
    },
    /// Serve roots to coding agents over MCP (stdio, or streamable HTTP with --http).
    Mcp {
        /// Code roots to serve (repositories, worktrees; also `--root`, repeatable); default:
        /// found from the current directory like the other commands.
        #[arg(value_name = "ROOT")]
        roots: Vec<PathBuf>,
        /// Serve streamable HTTP on this address (e.g. 127.0.0.1:7300 or localhost:7300; port
        /// 0 picks one) instead of stdio.
        #[arg(long, value_name = "ADDR", value_parser = http_addr)]
        http: Option<std::net::SocketAddr>,
        /// Allow a non-loopback --http address; needs CODEGRAPH_MCP_TOKEN.
        #[arg(long)]
        allow_remote: bool,
        #[command(flatten)]
        serve: ServeArgs,
        /// With --http: close a session after this many seconds without a request.
        #[arg(long, default_value_t = crate::mcp::DEFAULT_SESSION_IDLE.as_secs())]
        session_idle_secs: u64,
        /// Turn co-change (CO_CHANGED edges from git history) on for every served root, as
        /// `index --cochange` does; the setting is kept in each root's index.
        #[arg(long)]
        cochange: bool,
        /// Also offer `graph_query`: read-only SQL over the documented views of the graph
        /// (`codegraph query --schema`). Off by default: raw queries are the operator's call.
        #[arg(long)]
        allow_graph_query: bool,
    },
    /// Serve a read-only web view of roots (search, node pages, impact and DAG-grep graphs)
    /// on a local HTTP address.
    Web {
        /// Code roots to serve (repositories, worktrees; also `--root`, repeatable); default:
        /// found from the current directory like the other commands.
        #[arg(value_name = "ROOT")]
        roots: Vec<PathBuf>,
        /// The address to listen on (port 0 picks one).
        #[arg(long, value_name = "ADDR", value_parser = http_addr, default_value = crate::web::DEFAULT_ADDR)]
        http: std::net::SocketAddr,
        /// Allow a non-loopback --http address; needs CODEGRAPH_MCP_TOKEN, which every request
        /// must then carry as a bearer token.
        #[arg(long)]
        allow_remote: bool,
        #[command(flatten)]
        serve: ServeArgs,
    },
    /// Show the published revision, its counts and skips, and whether it is stale.
    Status {
        /// The code root (a repository or worktree); also `--root`. Default: the nearest
        /// indexed directory up from here, else the git worktree root, else here.
        root: Option<PathBuf>,
        /// List every skipped path, not only the first 20.
        #[arg(long)]
        all: bool,
    },
    /// Full-text search (BM25) over names, qualified names, signatures, docs and paths.
    Search {
        /// Words, a name, a prefix (`ShouldBind`) or a qualified name.
        query: String,
        /// Only nodes of this kind (function, method, class, file, ...).
        #[arg(long)]
        kind: Option<NodeKind>,
        /// Most hits (default 20; in --json shrunk to stay under ~4k tokens unless given).
        #[arg(long)]
        limit: Option<usize>,
        /// Rank test code with the rest (by default tests come after definitions).
        #[arg(long)]
        include_tests: bool,
        /// The code root; also `--root`. Default: the nearest indexed directory up from here,
        /// else the git worktree root.
        #[arg(value_name = "ROOT")]
        root: Option<PathBuf>,
    },
    /// Answer a question no other command foresaw: one read-only SQL SELECT over the
    /// documented views of the graph (`--schema` lists them). Writes, PRAGMA, ATTACH and
    /// other tables are refused; a deadline and a row limit stop runaway queries.
    Query {
        /// One SELECT (or WITH ... SELECT) statement, e.g. "SELECT src, line FROM edges WHERE
        /// dst = 'sym:go:a.go:Run' AND kind = 'CALLS'".
        #[arg(required_unless_present = "schema")]
        sql: Option<String>,
        /// Print the views and their columns instead of running a query.
        #[arg(long)]
        schema: bool,
        /// Most rows printed (the answer says when there were more).
        #[arg(long, default_value_t = 200)]
        limit: usize,
        /// Stop the query after this many milliseconds.
        #[arg(long, default_value_t = 10_000)]
        timeout_ms: u64,
        /// The code root; also `--root`. Default: the nearest indexed directory up from here,
        /// else the git worktree root.
        #[arg(value_name = "ROOT")]
        root: Option<PathBuf>,
    },
    /// Plan the rename of a symbol: every edit (path, line, columns, old and new text) the
    /// graph knows of, with its reason and confidence; unsure mentions and collisions apart.
    /// `--apply` writes it to the working tree.
    Rename(crate::ops_cli::RenameArgs),
    /// Search the indexed files' text with a regular expression; each matching line is
    /// shown in its innermost symbol, with that symbol's kind, callers and dependents.
    Grep {
        /// A regular expression (Rust `regex` syntax, like ripgrep's), matched line by line.
        pattern: String,
        /// Match case-insensitively.
        #[arg(short = 'i', long)]
        ignore_case: bool,
        /// The pattern is a literal string.
        #[arg(short = 'F', long)]
        fixed_strings: bool,
        /// Only files whose root-relative path contains this.
        #[arg(long, value_name = "TEXT")]
        path: Option<String>,
        /// Most groups (symbols) shown; the totals count every match.
        #[arg(long, default_value_t = 30)]
        limit: usize,
        /// Skip files larger than this many bytes (as the index did).
        #[arg(long, default_value_t = DEFAULT_MAX_FILE_SIZE)]
        max_file_size: u64,
        /// The code root; also `--root`. Default: the nearest indexed directory up from here,
        /// else the git worktree root.
        #[arg(value_name = "ROOT")]
        root: Option<PathBuf>,
    },
    /// List the HTTP routes the code registers: method, path, framework, where, handler.
    Routes {
        /// Most routes listed (the total is always said).
        #[arg(long, default_value_t = 200)]
        limit: usize,
        /// The code root; also `--root`. Default: the nearest indexed directory up from here,
        /// else the git worktree root.
        #[arg(value_name = "ROOT")]
        root: Option<PathBuf>,
    },
    /// List the MCP / RPC tools the code registers: name, framework, where, handler.
    Tools {
        /// Most tools listed (the total is always said).
        #[arg(long, default_value_t = 200)]
        limit: usize,
        /// The code root; also `--root`. Default: the nearest indexed directory up from here,
        /// else the git worktree root.
        #[arg(value_name = "ROOT")]
        root: Option<PathBuf>,
    },
    /// Show a node (by ID or name): its fields, source lines and edges.
    Open {
        /// A node ID (`sym:go:pkg/a.go:Server.Start`, `file:src/a.ts`, `proc:...`) or any
        /// TARGET the other commands take (`Server.Start`, `http.Get`, `pkg/a.go:40`).
        id: String,
        #[command(flatten)]
        page: crate::ops_cli::PageOpts,
        /// The code root; also `--root`. Default: the nearest indexed directory up from here,
        /// else the git worktree root.
        #[arg(value_name = "ROOT")]
        root: Option<PathBuf>,
    },
    /// Dump the whole graph.
    Export {
        /// The code root (a repository or worktree); also `--root`. Default: the nearest
        /// indexed directory up from here, else the git worktree root, else here.
        root: Option<PathBuf>,
        /// Output format: `jsonl`, one JSON object per line (`type` node, edge or
        /// unresolved); `scip`, a SCIP index (protobuf; with `-o index.scip`).
        #[arg(long, value_enum, default_value_t = ExportFormat::Jsonl)]
        format: ExportFormat,
        /// Write to this file instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Also export execution flows and clusters (computed first if they lag): `process`
        /// and `cluster` nodes, ENTRY_POINT_OF, STEP_IN_PROCESS (with `step`) and MEMBER_OF
        /// edges.
        #[arg(long)]
        derived: bool,
    },
    /// A symbol's container, members, callers, callees, heritage, imports and related files.
    Context(crate::ops_cli::ContextArgs),
    /// What depends on a symbol (upstream) or what it depends on (downstream), by depth.
    Impact(crate::ops_cli::ImpactArgs),
    /// The symbols the git diff touches and their upstream impact.
    DiffImpact(crate::ops_cli::DiffImpactArgs),
    /// Shortest paths from one symbol to another over CALLS and HAS_METHOD.
    Trace(crate::ops_cli::TraceArgs),
    /// The typed neighbourhood of a node: direction, depth, budget.
    Expand(crate::ops_cli::ExpandArgs),
    /// An explanation subgraph for a text query: seeds, weighted expansion, DAG layers.
    DagGrep(crate::ops_cli::DagGrepArgs),
    /// An HTTP route's declaration, middleware, response keys, handler and its callers/callees.
    RouteImpact(crate::ops_cli::EndpointArgs),
    /// An MCP/RPC tool's description, input fields, handler and its callers/callees.
    ToolContext(crate::ops_cli::EndpointArgs),
    /// Execution flows: entry points (route/tool handlers, main, uncalled exports) and the
    /// call chains from them; one flow's steps; or the flows a symbol is a step of.
    Flows(crate::ops_cli::DerivedArgs),
    /// Functional clusters (Leiden communities of the call/import/heritage graph); one
    /// cluster's members; or a symbol's cluster.
    Clusters(crate::ops_cli::DerivedArgs),
    /// The query events log: one line per CLI query and MCP tool call (time, surface,
    /// operation, root, revision, duration, answer size); `CODEGRAPH_EVENTS=off` turns it off.
    Events {
        /// How many of the last events to show.
        #[arg(long, default_value_t = 20)]
        tail: usize,
    },
    /// The indexes in the cache directory: list them, remove one, or collect those whose
    /// root is gone or that another indexer version wrote.
    Cache {
        #[command(subcommand)]
        action: CacheAction,
    },
    /// The version of codegraph, of what it extracts and stores, and where indexes live.
    Version,
    /// The languages codegraph reads and what it extracts from each (other text files are
    /// indexed as files only).
    Languages,
    /// Print a shell completion script (e.g. `codegraph completions bash >
    /// ~/.local/share/bash-completion/completions/codegraph`).
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff; `codegraph man > codegraph.1 && man ./codegraph.1`).
    Man,
    /// Internal: computes and stores the flows and clusters of the index at DB unless they
    /// are current (the MCP server runs it as a child process, so that whole-graph work never
    /// stays in the server's memory).
    #[command(hide = true)]
    DeriveFlows {
        /// The index database.
        db: PathBuf,
    },
}

/// `--http ADDR`: an IP address with a port, or a host name with a port (`localhost:7300`),
/// resolved here; a name with several addresses takes its first IPv4 one.
fn http_addr(s: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::ToSocketAddrs;
    if let Ok(a) = s.parse() {
        return Ok(a);
    }
    let addrs: Vec<std::net::SocketAddr> = s
        .to_socket_addrs()
        .map_err(|e| format!("{s} is not HOST:PORT or IP:PORT ({e})"))?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| format!("{s} resolves to no address"))
}

#[derive(Subcommand, Debug)]
enum CacheAction {
    /// Every index: its root, revision, size, and whether `gc` would collect it.
    List,
    /// Remove the index of each ROOT (a root that no longer exists is matched by name).
    Rm {
        /// Roots whose index to remove.
        #[arg(required = true, value_name = "ROOT")]
        paths: Vec<PathBuf>,
    },
    /// Remove the indexes whose root is gone, that another indexer version wrote, or that
    /// cannot be read (never one a running watch / mcp keeps).
    Gc {
        /// Say what would be removed, remove nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ExportFormat {
    Jsonl,
    /// A SCIP index (protobuf): definitions, references and relationships of the root's
    /// symbols, for Sourcegraph (`src code-intel upload -file=index.scip`) and other SCIP
    /// tools.
    Scip,
}

pub fn run() -> Result<()> {
    let cli = Cli::parse();
    let timer = cli.command.operation().map(|op| {
        let args: Vec<String> = std::env::args().skip(2).collect();
        crate::events::Timer::start("cli", op, json!(args))
    });
    let result = dispatch(cli);
    if let Some(t) = timer {
        let mut printed = crate::events::take_printed();
        let opened = crate::events::take_opened();
        // A text answer does not carry its revision: the one the command opened stands in.
        if let (Some(Value::String(text)), Some((_, revision))) = (&printed, &opened) {
            printed = Some(json!({"text": text, "revision": revision}));
        }
        let error = result.as_ref().err().map(|e| format!("{e:#}"));
        t.record(opened.as_ref().map(|o| o.0.as_str()), printed.as_ref(), error.as_deref());
    }
    result
}

impl Command {
    /// The operation a query command runs, as the events log names it (`None`: not a query).
    fn operation(&self) -> Option<&'static str> {
        Some(match self {
            Command::Status { .. } => "status",
            Command::Search { .. } => "search",
            Command::Query { .. } => "query",
            Command::Grep { .. } => "grep",
            Command::Rename(_) => "rename",
            Command::Routes { .. } => "routes",
            Command::Tools { .. } => "tools",
            Command::Open { .. } => "open",
            Command::Context(_) => "context",
            Command::Impact(_) => "impact",
            Command::DiffImpact(_) => "diff-impact",
            Command::Trace(_) => "trace",
            Command::Expand(_) => "expand",
            Command::DagGrep(_) => "dag-grep",
            Command::RouteImpact(_) => "route-impact",
            Command::ToolContext(_) => "tool-context",
            Command::Flows(_) => "flows",
            Command::Clusters(_) => "clusters",
            _ => return None,
        })
    }
}

/// How `mcp` and `web` run the roots they serve.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Files larger than this many bytes are skipped.
    #[arg(long, default_value_t = DEFAULT_MAX_FILE_SIZE)]
    max_file_size: u64,
    /// Quiet time after the last file event before a revision is published.
    #[arg(long, default_value_t = 10)]
    debounce_ms: u64,
    /// Seconds a request waits for a root's first index before answering that it is being
    /// built.
    #[arg(long, default_value_t = 30)]
    build_wait_secs: u64,
    /// Never start a root's first index from a sibling worktree's index.
    #[arg(long)]
    no_share: bool,
    /// A root with no index yet starts from the snapshot of its nearest published ancestor
    /// commit in this shared store (see `publish`); `CODEGRAPH_CACHE_FROM` stands for it.
    #[arg(long, value_name = "URL")]
    cache_from: Option<String>,
}

impl ServeArgs {
    /// The served roots of `roots` (the current one when empty), each run with these options.
    fn root_set(
        &self,
        roots: Vec<PathBuf>,
        db: Option<&std::path::Path>,
        cochange: bool,
    ) -> Result<std::sync::Arc<crate::mcp::roots::RootSet>> {
        let root_opts = crate::mcp::roots::RootOptions {
            max_file_size: self.max_file_size,
            share: !self.no_share,
            cache_from: crate::shared_store::cache_from(self.cache_from.as_deref()),
            cochange,
            debounce: std::time::Duration::from_millis(self.debounce_ms),
            build_wait: std::time::Duration::from_secs(self.build_wait_secs),
            deriver: std::env::current_exe().ok(),
            ..Default::default()
        };
        let roots = if roots.is_empty() { vec![write_root(None, db)?] } else { roots };
        crate::mcp::root_set(&roots, db, &root_opts)
    }
}

impl Command {
    /// Folds the global `--root` flags into the command's own root argument.
    fn merge_roots(&mut self, flags: &[PathBuf]) -> Result<()> {
        use crate::ops_cli as o;
        let slot: &mut Option<PathBuf> = match self {
            Command::Mcp { roots, .. } | Command::Web { roots, .. } => {
                roots.extend(flags.iter().cloned());
                return Ok(());
            }
            Command::Events { .. }
            | Command::DeriveFlows { .. }
            | Command::Version
            | Command::Cache { .. }
            | Command::Languages
            | Command::Completions { .. }
            | Command::Man => {
                if !flags.is_empty() {
                    bail!("this command takes no root");
                }
                return Ok(());
            }
            Command::Index { root, .. }
            | Command::Publish { root, .. }
            | Command::Watch { root, .. }
            | Command::Status { root, .. }
            | Command::Search { root, .. }
            | Command::Query { root, .. }
            | Command::Grep { root, .. }
            | Command::Routes { root, .. }
            | Command::Tools { root, .. }
            | Command::Open { root, .. }
            | Command::Export { root, .. } => root,
            Command::Context(o::ContextArgs { root, .. })
            | Command::Impact(o::ImpactArgs { root, .. })
            | Command::DiffImpact(o::DiffImpactArgs { root, .. })
            | Command::Trace(o::TraceArgs { root, .. })
            | Command::Expand(o::ExpandArgs { root, .. })
            | Command::Rename(o::RenameArgs { root, .. })
            | Command::DagGrep(o::DagGrepArgs { root, .. })
            | Command::RouteImpact(o::EndpointArgs { root, .. })
            | Command::ToolContext(o::EndpointArgs { root, .. })
            | Command::Flows(o::DerivedArgs { root, .. })
            | Command::Clusters(o::DerivedArgs { root, .. }) => root,
        };
        *slot = one_root(slot.take(), flags)?;
        Ok(())
    }
}

fn dispatch(mut cli: Cli) -> Result<()> {
    let json = cli.json;
    cli.command.merge_roots(&cli.root_flags)?;
    match cli.command {
        Command::Index {
            root,
            max_file_size,
            full,
            no_share,
            cache_from,
            check,
            cochange,
            cochange_commits,
            no_cochange,
        } => {
            let root = write_root(root, cli.db.as_deref())?;
            let db = db_path(&root, cli.db.as_deref())?;
            if check && db.exists() {
                // The writer checks an index marked suspect before it trusts it.
                codegraph_engine::guard::mark_suspect(&db);
            }
            let progress = !json && std::io::stderr().is_terminal();
            let summary = codegraph_engine::engine::index(
                &root,
                &db,
                &IndexOptions {
                    max_file_size,
                    progress,
                    full,
                    share: !no_share,
                    cache_from: crate::shared_store::cache_from(cache_from.as_deref()),
                    counter: None,
                },
            )?;
            let cochange = index_cochange(
                &summary.root,
                &summary.db,
                cochange || cochange_commits.is_some(),
                cochange_commits,
                no_cochange,
            )?;
            let accounting = Store::open_read_only(&summary.db)
                .ok()
                .and_then(|mut s| s.reader().ok()?.file_accounting().ok());
            print_index(&summary, accounting.as_ref(), cochange.as_ref(), json)
        }
        Command::Publish { root, to, max_file_size, allow_dirty } => {
            // A mistyped URL fails before the index is brought up to date.
            codegraph_remote::Location::parse(&to)?;
            let root = write_root(root, cli.db.as_deref())?;
            let db = db_path(&root, cli.db.as_deref())?;
            let progress = !json && std::io::stderr().is_terminal();
            let opts = IndexOptions {
                max_file_size,
                progress,
                full: false,
                share: true,
                cache_from: None,
                counter: None,
            };
            let summary = codegraph_engine::engine::index(&root, &db, &opts)?;
            let store = crate::shared_store::Remote::new(&to);
            let report =
                codegraph_engine::remote::publish(&summary.root, &summary.db, &store, allow_dirty)?;
            print_publish(&report, json)
        }
        Command::Watch {
            root,
            max_file_size,
            debounce_ms,
            max_batch_paths,
            no_share,
            cache_from,
        } => {
            let root = write_root(root, cli.db.as_deref())?;
            let db = db_path(&root, cli.db.as_deref())?;
            let progress = !json && std::io::stderr().is_terminal();
            let index_opts = IndexOptions {
                max_file_size,
                progress,
                full: false,
                share: !no_share,
                cache_from: crate::shared_store::cache_from(cache_from.as_deref()),
                counter: None,
            };
            let opts = crate::watch_cmd::WatchOptions {
                debounce: std::time::Duration::from_millis(debounce_ms),
                max_batch_paths,
                json,
            };
            crate::watch_cmd::run_watch(&root, &db, &index_opts, &opts, |s| {
                if json { Ok(()) } else { print_index(s, None, None, false) }
            })
        }
        Command::Mcp {
            roots,
            http,
            allow_remote,
            serve,
            session_idle_secs,
            cochange,
            allow_graph_query,
        } => {
            let set = serve.root_set(roots, cli.db.as_deref(), cochange)?;
            let token = std::env::var("CODEGRAPH_MCP_TOKEN").ok().filter(|t| !t.is_empty());
            let session_idle = std::time::Duration::from_secs(session_idle_secs.max(1));
            crate::mcp::run(
                set,
                crate::mcp::McpOptions {
                    http,
                    allow_remote,
                    token,
                    session_idle,
                    graph_query: allow_graph_query,
                },
            )
        }
        Command::Web { roots, http, allow_remote, serve } => {
            let set = serve.root_set(roots, cli.db.as_deref(), false)?;
            let token = std::env::var("CODEGRAPH_MCP_TOKEN").ok().filter(|t| !t.is_empty());
            crate::web::run(set, crate::web::WebOptions { addr: http, allow_remote, token })
        }
        Command::Status { root, all } => status(root, cli.db.as_deref(), all, json),
        Command::Search { query, root, kind, limit, include_tests } => {
            let (root, mut store) = open_store(root, cli.db.as_deref())?;
            let db_path = store.path().to_path_buf();
            if kind.is_some_and(|k| matches!(k, NodeKind::Process | NodeKind::Cluster)) {
                crate::ops_cli::ensure_flows(&db_path);
            }
            let reader = store.reader()?;
            let window = crate::page::Window::new(limit, 20, None, None);
            let result = reader.search(&SearchRequest {
                query,
                kind,
                limit: window.limit,
                include_tests,
            })?;
            let stale = codegraph_engine::fresh::is_stale(&root, &db_path, &reader)?;
            if json {
                let revision = reader.revision();
                let v = crate::page::answer(&window, crate::answer::SEARCH_LISTS, false, |p| {
                    let mut v = crate::answer::search_json(&result, p);
                    v["revision"] = json!(revision);
                    v["stale"] = json!(stale);
                    v
                })
                .map_err(anyhow::Error::msg)?;
                print_json(&v)
            } else {
                let mut out: Vec<u8> = Vec::new();
                match result.fallback {
                    None => writeln!(
                        out,
                        "no matches (revision {}{})",
                        reader.revision(),
                        stale_note(stale)
                    )?,
                    Some(f) => writeln!(
                        out,
                        "{} hit(s), revision {}{}, answered by the {} form: {}",
                        result.hits.len(),
                        reader.revision(),
                        stale_note(stale),
                        f.as_str(),
                        result.fts_query
                    )?,
                }
                for h in &result.hits {
                    writeln!(out, "{:.3}  {:<10} {}", h.score, h.node.kind, h.node.id)?;
                    if let Some(sig) = &h.node.signature {
                        writeln!(out, "       {}  {sig}", location(&h.node))?;
                    }
                }
                emit_text(&out, reader.revision(), stale)
            }
        }
        Command::Grep { pattern, ignore_case, fixed_strings, path, limit, max_file_size, root } => {
            let req =
                codegraph_engine::grep::GrepRequest { pattern, ignore_case, fixed_strings, path };
            grep(req, limit, max_file_size, root, cli.db.as_deref(), json)
        }
        Command::Routes { limit, root } => {
            endpoints(NodeKind::Route, limit, root, cli.db.as_deref(), json)
        }
        Command::Tools { limit, root } => {
            endpoints(NodeKind::Tool, limit, root, cli.db.as_deref(), json)
        }
        Command::Query { sql, schema, limit, timeout_ms, root } => {
            graph_query(sql, schema, limit, timeout_ms, root, cli.db.as_deref(), json)
        }
        Command::Open { id, page, root } => {
            let (root, mut store) = open_store(root, cli.db.as_deref())?;
            let db_path = store.path().to_path_buf();
            if ids::is(&id, NodeCategory::Process) || ids::is(&id, NodeCategory::Cluster) {
                crate::ops_cli::ensure_flows(&db_path);
            }
            let reader = store.reader()?;
            // A flow or a cluster, as MCP's open_node shows them.
            if let Some(d) =
                crate::answer::load_derived(&reader, &id, false).map_err(anyhow::Error::msg)?
            {
                let stale = codegraph_engine::fresh::is_stale(&root, &db_path, &reader)?;
                let stamp = reader.derived_stamp()?;
                let flows_at = crate::answer::flows_at_json(stamp.as_ref(), reader.revision());
                let revision = reader.revision();
                if json {
                    return crate::ops_cli::print_paged(
                        &page,
                        crate::page::OPEN_LIMIT,
                        crate::answer::DERIVED_LISTS,
                        |p| {
                            let mut v = crate::answer::derived_json(&d, flows_at.clone(), p);
                            v["revision"] = json!(revision);
                            v["stale"] = json!(stale);
                            v
                        },
                    );
                }
                let mut out: Vec<u8> = Vec::new();
                match &d {
                    crate::answer::Derived::Flow(f) => {
                        writeln!(
                            out,
                            "{}  (process \"{}\", score {:.2}, revision {revision}{})",
                            f.id,
                            f.label,
                            f.score,
                            stale_note(stale)
                        )?;
                        for (i, s) in f.steps.iter().enumerate() {
                            writeln!(out, "  {:>2}. {s}", i + 1)?;
                        }
                    }
                    crate::answer::Derived::Cluster(c, members) => {
                        writeln!(
                            out,
                            "{}  (cluster \"{}\", {} members, cohesion {:.2}, revision {revision}{})",
                            c.id,
                            c.label,
                            members.len(),
                            c.cohesion,
                            stale_note(stale)
                        )?;
                        for m in members {
                            writeln!(out, "  {m}")?;
                        }
                    }
                }
                return emit_text(&out, revision, stale);
            }
            // An ID, or any name the other commands take (`Server.start`, `gin.go:55`).
            let stale_now = || codegraph_engine::fresh::is_stale(&root, &db_path, &reader);
            let node = crate::ops_cli::lookup(
                &reader,
                codegraph_query::ops::lookup::Target::new(id),
                json,
                &stale_now,
            )?;
            let opened = reader.open(&node.id)?;
            let stale = stale_now()?;
            let unresolved = reader.unresolved_of(&node.id)?;
            let max_size =
                reader.max_file_size()?.unwrap_or(codegraph_engine::scan::DEFAULT_MAX_FILE_SIZE);
            let source = source_lines(&root, &opened.node, max_size);
            if json {
                let revision = reader.revision();
                crate::ops_cli::print_paged(
                    &page,
                    crate::page::OPEN_LIMIT,
                    crate::answer::OPEN_LISTS,
                    |p| {
                        let mut v = crate::answer::open_json(&opened, &source, &unresolved, p);
                        v["revision"] = json!(revision);
                        v["stale"] = json!(stale);
                        v
                    },
                )
            } else {
                let n = &opened.node;
                let mut out: Vec<u8> = Vec::new();
                writeln!(
                    out,
                    "{}  ({}, revision {}{})",
                    n.id,
                    n.kind,
                    reader.revision(),
                    stale_note(stale)
                )?;
                writeln!(out, "  name: {}  qualified: {}", n.name, n.qualified_name)?;
                writeln!(out, "  at: {}", location(n))?;
                if let Some(sig) = &n.signature {
                    writeln!(out, "  signature: {sig}")?;
                }
                if let Some(doc) = &n.doc {
                    writeln!(out, "  doc: {}", doc.replace('\n', "\n       "))?;
                }
                if let Err(why) = &source {
                    writeln!(out, "  source not shown: {why}")?;
                }
                if let Ok(Some(s)) = &source {
                    writeln!(out)?;
                    for (i, l) in s.lines.iter().enumerate() {
                        writeln!(out, "{:>6} | {l}", s.first_line + i as u32)?;
                    }
                    if s.total > s.lines.len() {
                        writeln!(out, "       | ... {} more line(s)", s.total - s.lines.len())?;
                    }
                }
                writeln!(out)?;
                for e in &opened.outgoing {
                    writeln!(out, "  -> {:<13} {}{}", e.kind, e.dst, edge_suffix(e))?;
                }
                for e in &opened.incoming {
                    writeln!(out, "  <- {:<13} {}{}", e.kind, e.src, edge_suffix(e))?;
                }
                for (line, callee) in &unresolved {
                    writeln!(out, "  ?? unresolved call {callee} (line {line})")?;
                }
                emit_text(&out, reader.revision(), stale)
            }
        }
        Command::Export { root, format: ExportFormat::Scip, output, derived } => {
            export_scip(root, output, derived, cli.db.as_deref(), json)
        }
        Command::Export { root, format: ExportFormat::Jsonl, output, derived } => {
            if derived {
                let root = query_root(root.clone(), cli.db.as_deref())?;
                let db = db_path(&root, cli.db.as_deref())?;
                if db.exists() {
                    crate::ops_cli::ensure_flows(&db);
                }
            }
            let (_, mut store) = open_store(root, cli.db.as_deref())?;
            let reader = store.reader()?;
            let sink: Box<dyn Write> = match &output {
                Some(p) => Box::new(
                    std::fs::File::create(p)
                        .with_context(|| format!("cannot create {}", p.display()))?,
                ),
                None => Box::new(std::io::stdout().lock()),
            };
            let mut lines = JsonLines { sink: std::io::BufWriter::new(sink), error: None };
            reader.for_each_node(|n| lines.write("node", node_json(&n)))?;
            reader.for_each_edge(|e| lines.write("edge", edge_json(&e)))?;
            if derived {
                export_derived(&reader, &mut lines)?;
            }
            reader.for_each_unresolved(|file, line, caller, callee| {
                lines.write(
                    "unresolved",
                    json!({"file": file, "line": line, "caller": caller, "callee": callee}),
                )
            })?;
            let JsonLines { mut sink, error: io_err } = lines;
            if let Some(e) = io_err {
                return Err(e).context("writing the export");
            }
            sink.flush().context("writing the export")?;
            Ok(())
        }
        Command::Context(a) => crate::ops_cli::context(a, cli.db.as_deref(), json),
        Command::Impact(a) => crate::ops_cli::impact(a, cli.db.as_deref(), json),
        Command::DiffImpact(a) => crate::ops_cli::diff_impact(a, cli.db.as_deref(), json),
        Command::Trace(a) => crate::ops_cli::trace(a, cli.db.as_deref(), json),
        Command::Expand(a) => crate::ops_cli::expand(a, cli.db.as_deref(), json),
        Command::Rename(a) => crate::ops_cli::rename(a, cli.db.as_deref(), json),
        Command::DagGrep(a) => crate::ops_cli::dag_grep(a, cli.db.as_deref(), json),
        Command::RouteImpact(a) => crate::ops_cli::endpoint(a, false, cli.db.as_deref(), json),
        Command::ToolContext(a) => crate::ops_cli::endpoint(a, true, cli.db.as_deref(), json),
        Command::Flows(a) => crate::ops_cli::flows(a, cli.db.as_deref(), json),
        Command::Clusters(a) => crate::ops_cli::clusters(a, cli.db.as_deref(), json),
        Command::Events { tail } => events(tail, json),
        Command::Version => version(json),
        Command::Cache { action } => cache(action, json),
        Command::Languages => languages(json),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "codegraph", &mut std::io::stdout());
            Ok(())
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
            // One section per subcommand, as `git help` lists them.
            for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
                writeln!(out, ".SH \"{}\"", sub.get_name().to_uppercase())?;
                let sub = sub.clone().bin_name(format!("codegraph {}", sub.get_name()));
                let man = clap_mangen::Man::new(sub);
                man.render_synopsis_section(&mut out)?;
                man.render_description_section(&mut out)?;
                man.render_options_section(&mut out)?;
            }
            Ok(())
        }
        Command::DeriveFlows { db } => {
            let (revision, computed) = codegraph_engine::derived::ensure_current(&db)?;
            // Co-change (when enabled for the index) is derived off the edit path too.
            if let Err(e) = codegraph_engine::cochange::ensure_db(&db) {
                tracing::warn!("co-change not updated: {e:#}");
            }
            writeln!(std::io::stdout(), "{}", json!({"revision": revision, "computed": computed}))?;
            Ok(())
        }
    }
}

/// JSONL output that remembers the first write error (the row callbacks cannot return one).
struct JsonLines<W: Write> {
    sink: W,
    error: Option<std::io::Error>,
}

impl<W: Write> JsonLines<W> {
    /// Writes `{"type": kind, ...fields}` as one line.
    fn write(&mut self, kind: &str, fields: Value) {
        let mut v = json!({ "type": kind });
        if let (Value::Object(m), Value::Object(f)) = (&mut v, fields) {
            m.extend(f);
        }
        if self.error.is_none() {
            self.error = writeln!(self.sink, "{v}").err();
        }
    }
}

/// The stored flows and clusters as export lines: `process` and `cluster` nodes, then
/// ENTRY_POINT_OF, STEP_IN_PROCESS (with `step`) and MEMBER_OF edges.
fn export_derived<W: Write>(
    reader: &codegraph_query::Reader<'_>,
    lines: &mut JsonLines<W>,
) -> Result<()> {
    // A derived node: no file or lines; its own fields in `extra`.
    let node = |id: &str, kind: NodeKind, label: &str, extra: Value| {
        let mut v = json!({
            "id": id, "kind": kind, "name": label, "qualified_name": label,
            "file": null, "start_line": null, "end_line": null,
        });
        if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
            m.extend(e);
        }
        v
    };
    for f in reader.flows(0)? {
        let extra =
            json!({"score": crate::answer::round(f.score), "steps": f.steps, "entry": f.entry});
        lines.write("node", node(&f.id, NodeKind::Process, &f.label, extra));
    }
    for c in reader.clusters(0)? {
        let extra = json!({"cohesion": crate::answer::round(c.cohesion), "size": c.size});
        lines.write("node", node(&c.id, NodeKind::Cluster, &c.label, extra));
    }
    reader.for_each_derived_edge(|kind, src, dst, step| {
        let mut v = json!({
            "kind": kind.as_str(), "src": src, "dst": dst,
            "weight": kind.default_weight(), "reason": "structural", "line": null,
        });
        if step > 0 {
            v["step"] = json!(step);
        }
        lines.write("edge", v)
    })?;
    Ok(())
}

/// Opens the index of a root for reading, with an actionable error when there is none.
/// How long a read command waits for a live owner to publish edits it has not yet.
const OWNER_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

fn open_store(root: Option<PathBuf>, db: Option<&Path>) -> Result<(PathBuf, Store)> {
    let root = query_root(root, db)?;
    let path = db_path(&root, db)?;
    // A live watch or mcp process publishes the edits made just before this command first
    // (up to a second), so the revision read below holds them.
    codegraph_engine::owner::ask(&path, OWNER_WAIT);
    match Store::open_read_only(&path) {
        Ok(mut store) => {
            crate::events::opened(&root, store.reader().ok().map(|r| r.revision()));
            Ok((root, store))
        }
        Err(QueryError::NoIndex { .. }) => Err(no_index(&root, &path)),
        Err(e) => Err(e.into()),
    }
}

/// `codegraph export --format scip`: the index's current revision as a SCIP index, to `output`
/// or to standard output when that is not a terminal; what it wrote goes to standard error
/// (standard output may be the index itself).
fn export_scip(
    root: Option<PathBuf>,
    output: Option<PathBuf>,
    derived: bool,
    db: Option<&Path>,
    json: bool,
) -> Result<()> {
    if derived {
        bail!(
            "--derived adds flows and clusters to the JSON lines export; SCIP has no place for them"
        );
    }
    if output.is_none() && std::io::stdout().is_terminal() {
        bail!("a SCIP index is binary: write it to a file with `-o index.scip`");
    }
    let (root, mut store) = open_store(root, db)?;
    let reader = store.reader()?;
    let max_file_size =
        reader.max_file_size()?.unwrap_or(codegraph_engine::scan::DEFAULT_MAX_FILE_SIZE);
    let opts =
        codegraph_engine::scip::Options { tool_version: env!("CARGO_PKG_VERSION"), max_file_size };
    let (index, summary) =
        codegraph_engine::scip::export(&root, &reader, &opts).map_err(anyhow::Error::msg)?;
    let bytes = codegraph_engine::scip::encode(&index).map_err(anyhow::Error::msg)?;
    match &output {
        Some(p) => {
            std::fs::write(p, &bytes).with_context(|| format!("cannot write {}", p.display()))?
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes).and_then(|()| out.flush()).context("writing the export")?;
        }
    }
    let s = &summary;
    let note = if json {
        json!({
            "revision": reader.revision(),
            "documents": s.documents,
            "symbols": s.symbols,
            "definitions": s.definitions,
            "references": s.references,
            "unplaced_definitions": s.unplaced_definitions,
            "unplaced_references": s.unplaced_references,
            "changed_files": s.changed_files,
            "unreadable_files": s.unreadable_files,
        })
        .to_string()
    } else {
        let mut text = format!(
            "SCIP: {} documents, {} symbols, {} definitions, {} references (revision {})",
            s.documents,
            s.symbols,
            s.definitions,
            s.references,
            reader.revision()
        );
        if s.unplaced_definitions + s.unplaced_references > 0 {
            text.push_str(&format!(
                "; names not found on their line: {} declarations, {} references",
                s.unplaced_definitions, s.unplaced_references
            ));
        }
        if s.changed_files + s.unreadable_files > 0 {
            text.push_str(&format!(
                "; {} files changed since indexed and {} unreadable: their occurrences are left out (run `codegraph index` first)",
                s.changed_files, s.unreadable_files
            ));
        }
        text
    };
    writeln!(std::io::stderr(), "{note}")?;
    Ok(())
}

/// The root a read command works on: the directory named (positionally or with `--root`),
/// else the current one, and from there up to the nearest directory with an index, else the
/// git worktree root (`paths::discover_root`; like git, a subdirectory finds its repository).
pub(crate) fn query_root(root: Option<PathBuf>, db: Option<&Path>) -> Result<PathBuf> {
    let start = root.unwrap_or_else(|| PathBuf::from("."));
    Ok(codegraph_engine::paths::discover_root(&start, db)?.0)
}

/// The root `index`, `watch` and `mcp` work on: the directory named, as given; without one,
/// found from the current directory like [`query_root`].
fn write_root(root: Option<PathBuf>, db: Option<&Path>) -> Result<PathBuf> {
    match root {
        Some(r) => canonical_root(&r),
        None => Ok(codegraph_engine::paths::discover_root(Path::new("."), db)?.0),
    }
}

/// The error of a read command on a root that has no index (in it or above it).
pub(crate) fn no_index(root: &Path, db: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "no index for {} or a directory above it (looked for {}): run `codegraph index {}` first",
        root.display(),
        db.display(),
        root.display()
    )
}

/// One root from a positional argument and the global `--root` flag (either form; both
/// only when they agree).
fn one_root(pos: Option<PathBuf>, flags: &[PathBuf]) -> Result<Option<PathBuf>> {
    match (pos, flags) {
        (p, []) => Ok(p),
        (None, [f]) => Ok(Some(f.clone())),
        (Some(p), [f]) if canonical_root(&p).ok() == canonical_root(f).ok() => Ok(Some(p)),
        (Some(p), [f]) => {
            bail!("two roots given: {} and --root {}; name one", p.display(), f.display())
        }
        (_, _) => bail!("this command works on one root; --root was given {} times", flags.len()),
    }
}

fn status(root: Option<PathBuf>, db: Option<&Path>, all: bool, json: bool) -> Result<()> {
    let (root, mut store) = open_store(root, db)?;
    let db_path = store.path().to_path_buf();
    let db_file = db_path.display().to_string();
    let reader = store.reader()?;
    let st = reader.status()?;
    let limit = if all { usize::MAX >> 1 } else { 20 };
    let skips = reader.diagnostics(true, limit)?;
    let snap = &st.snapshot;
    // A live watch / mcp process vouches for its revision; otherwise walk the tree.
    let word = codegraph_engine::fresh::owner_word(&db_path, snap.revision);
    let (vouched, pending) = (word == Some(false), word == Some(true));
    let fresh = if vouched { Default::default() } else { freshness(&root, &db_path, &reader)? };
    let head_now = codegraph_engine::git::head_commit(&root);
    let stale = Some(fresh.stale() || pending);
    let mut why = if fresh.stale() {
        format!(
            "{} file(s) changed since revision {} ({} added, {} modified, {} removed)",
            fresh.changed(),
            snap.revision,
            fresh.added.len(),
            fresh.modified.len(),
            fresh.removed.len()
        )
    } else if vouched {
        "every file event is published (a live watch or mcp process keeps this index)".to_string()
    } else {
        "every indexed file matches the tree".to_string()
    };
    if pending {
        why.push_str("; a live watch or mcp process has file events not published yet");
        if let Some(note) = codegraph_engine::owner::note(&db_path) {
            why.push_str(&format!(" ({note})"));
        }
    }
    if head_now != snap.head_commit {
        why.push_str(&format!(
            "; HEAD is {} (indexed at {})",
            head_now.as_deref().unwrap_or("none"),
            snap.head_commit.as_deref().unwrap_or("none")
        ));
    }
    let list = |v: &[String]| -> Vec<String> { v.iter().take(limit).cloned().collect() };
    let sharing = codegraph_engine::seed::sharing(&root, &db_path, &reader)?;
    let go_prefix = reader.meta("go_import_prefix")?;
    let accounting = reader.file_accounting()?;
    let cochange = codegraph_engine::cochange::stamp(&reader)?;
    if json {
        let counts = |v: &[(String, u64)]| -> Value {
            Value::Object(v.iter().map(|(k, n)| (k.clone(), json!(n))).collect())
        };
        return print_json(&json!({
            "root": snap.root,
            "db": db_file,
            "revision": snap.revision,
            "stale": stale,
            "freshness": why,
            "changed": {
                "added": list(&fresh.added),
                "modified": list(&fresh.modified),
                "removed": list(&fresh.removed),
            },
            "head_commit": snap.head_commit,
            "dirty_files": snap.dirty_files,
            "indexer_version": snap.indexer_version,
            "created_at_ms": snap.created_at_ms,
            "duration_ms": snap.duration_ms,
            "files": snap.files,
            "symbols": snap.symbols,
            "edges": snap.edges,
            "skipped": snap.skipped,
            "unresolved_calls": snap.unresolved,
            "unresolved_by_file": st.unresolved_by_file.iter().map(|(f, n)| json!({"file": f, "count": n})).collect::<Vec<_>>(),
            "nodes_by_kind": counts(&st.nodes_by_kind),
            "edges_by_kind": counts(&st.edges_by_kind),
            "diagnostics_by_code": counts(&st.diagnostics_by_code),
            "skips": skips.iter().map(|d| json!({"path": d.path, "code": d.code, "detail": d.detail})).collect::<Vec<_>>(),
            "repository": sharing.json(),
            "go_import_prefix": go_prefix,
            "files_accounting": accounting_json(&accounting),
            "cochange": cochange,
        }));
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "root      {}", snap.root)?;
    writeln!(
        out,
        "revision  {} (indexer {}, {} ms)",
        snap.revision, snap.indexer_version, snap.duration_ms
    )?;
    writeln!(out, "commit    {}", snap.head_commit.as_deref().unwrap_or("(not a git repository)"))?;
    let label = match stale {
        Some(true) => "stale",
        Some(false) => "fresh",
        None => "unknown",
    };
    writeln!(out, "freshness {label}: {why}")?;
    sharing.write(&mut out)?;
    if let Some(p) = &go_prefix {
        writeln!(out, "go import prefix {p}; no go.mod covers the root")?;
    }
    for (tag, paths) in [("+", &fresh.added), ("~", &fresh.modified), ("-", &fresh.removed)] {
        for p in paths.iter().take(limit) {
            writeln!(out, "  {tag} {p}")?;
        }
    }
    writeln!(
        out,
        "files {}  symbols {}  edges {}  skipped {}",
        snap.files, snap.symbols, snap.edges, snap.skipped
    )?;
    writeln!(out, "files     {}", accounting_line(&accounting))?;
    if !accounting.syntax_errors.is_empty() {
        let shown: Vec<&str> =
            accounting.syntax_errors.iter().take(limit).map(String::as_str).collect();
        writeln!(
            out,
            "syntax errors in {} file(s): {}{}",
            accounting.syntax_errors.len(),
            shown.join(", "),
            if shown.len() < accounting.syntax_errors.len() { " ... (use --all)" } else { "" }
        )?;
    }
    let fmt = |v: &[(String, u64)]| {
        v.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
    };
    writeln!(out, "nodes     {}", fmt(&st.nodes_by_kind))?;
    writeln!(out, "edges     {}", fmt(&st.edges_by_kind))?;
    if let Some(c) = &cochange {
        writeln!(out, "cochange  {} (at revision {})", describe_cochange(c), c["revision"])?;
    }
    if snap.unresolved > 0 {
        writeln!(
            out,
            "unresolved call sites {} (most in: {})",
            snap.unresolved,
            fmt(&st.unresolved_by_file)
        )?;
    }
    if !st.diagnostics_by_code.is_empty() {
        writeln!(out, "notes     {}", fmt(&st.diagnostics_by_code))?;
    }
    for d in &skips {
        writeln!(out, "  skipped {} ({}): {}", d.path, d.code, d.detail)?;
    }
    if !all && (skips.len() as u64) < snap.skipped {
        writeln!(out, "  ... {} more (use --all)", snap.skipped - skips.len() as u64)?;
    }
    Ok(())
}

/// `parsed 18 (go 18), text only 9 (.md 3, .mod 1)`.
fn accounting_line(a: &codegraph_query::FileAccounting) -> String {
    // The eight largest groups by name; the rest summed (`--json` has them all).
    let fmt = |v: &[(String, u64)]| {
        let total: u64 = v.iter().map(|(_, n)| n).sum();
        // One left over is named like the others; more are summed: `+3 kinds: 5 files`.
        let shown = if v.len() == 9 { 9 } else { 8 };
        let mut parts: Vec<String> =
            v.iter().take(shown).map(|(k, n)| format!("{k} {n}")).collect();
        if v.len() > shown {
            let rest: u64 = v[shown..].iter().map(|(_, n)| n).sum();
            parts.push(format!("+{} kinds: {rest} file(s)", v.len() - shown));
        }
        if parts.is_empty() { "0".to_string() } else { format!("{total} ({})", parts.join(", ")) }
    };
    format!("parsed {}, text only {}", fmt(&a.parsed), fmt(&a.text_only))
}

fn accounting_json(a: &codegraph_query::FileAccounting) -> Value {
    let counts = |v: &[(String, u64)]| -> Value {
        Value::Object(v.iter().map(|(k, n)| (k.clone(), json!(n))).collect())
    };
    json!({
        "parsed_by_language": counts(&a.parsed),
        "text_only_by_extension": counts(&a.text_only),
        "syntax_error_files": a.syntax_errors,
    })
}

/// Applies `index`'s co-change flags and brings the edges up to date: the stamp of what was
/// mined (`None` when co-change is off for this index).
fn index_cochange(
    root: &Path,
    db: &Path,
    enable: bool,
    commits: Option<usize>,
    disable: bool,
) -> Result<Option<serde_json::Value>> {
    use codegraph_engine::cochange;
    if disable {
        cochange::configure(db, None)?;
        return Ok(None);
    }
    if enable {
        let n = commits.or(cochange::settings(db)?).unwrap_or(cochange::DEFAULT_COMMITS);
        cochange::configure(db, Some(n))?;
    }
    Ok(match cochange::ensure(db, root)? {
        cochange::Ensured::Off => None,
        cochange::Ensured::Computed(stored, mut stamp) => {
            stamp["edges"] = json!(stored);
            Some(stamp)
        }
        cochange::Ensured::Current => {
            let mut store = Store::open_read_only(db)?;
            cochange::stamp(&store.reader()?)?
        }
    })
}

fn print_publish(r: &codegraph_engine::remote::PublishReport, json: bool) -> Result<()> {
    if json {
        return print_json(&r.json());
    }
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    let mut out = std::io::stdout().lock();
    let what = match (r.uploaded_blob, r.wrote_manifest) {
        (false, false) => "already published",
        (false, true) => "published (snapshot already in the store)",
        _ => "published",
    };
    writeln!(out, "{what}: commit {} of revision {} to {}", r.commit, r.revision, r.store)?;
    if !r.subdir.is_empty() {
        writeln!(out, "  subdir   {}", r.subdir)?;
    }
    writeln!(
        out,
        "  snapshot {} files, {:.1} MiB ({:.1} MiB as stored)",
        r.files,
        mib(r.db_bytes),
        mib(r.compressed_bytes)
    )?;
    writeln!(out, "  blob     {}", r.blob)?;
    writeln!(out, "  manifest {}", r.manifest)?;
    writeln!(out, "  took     {} ms", r.elapsed.as_millis())?;
    Ok(())
}

fn print_index(
    s: &IndexSummary,
    accounting: Option<&codegraph_query::FileAccounting>,
    cochange: Option<&serde_json::Value>,
    json: bool,
) -> Result<()> {
    if json {
        return print_json(&json!({
            "cochange": cochange,
            "files_accounting": accounting.map(accounting_json),
            "root": s.root.display().to_string(),
            "db": s.db.display().to_string(),
            "revision": s.revision,
            "mode": s.mode,
            "changed_files": s.changed_files,
            "units_rewritten": s.units_rewritten,
            "files": s.files,
            "parsed_files": s.parsed_files,
            "symbols": s.symbols,
            "edges": s.edges,
            "unresolved_calls": s.unresolved,
            "lines": s.lines,
            "bytes": s.bytes,
            "skipped": s.skipped,
            "lossy_utf8_files": s.lossy_files,
            "files_with_syntax_errors": s.files_with_syntax_errors,
            "head_commit": s.head_commit,
            "dirty_files": s.dirty_files,
            "timings_ms": {"restore": s.restore_ms, "scan": s.scan_ms, "parse": s.parse_ms, "resolve": s.resolve_ms, "publish": s.publish_ms, "total": s.total_ms},
            "peak_rss_bytes": s.peak_rss_bytes,
            "seeded_from": s.seeded_from,
            "vouched_by_git": s.vouched_files,
            "notes": s.notes,
        }));
    }
    let mut out = std::io::stdout().lock();
    match s.mode {
        "unchanged" => {
            writeln!(out, "{} unchanged since revision {}", s.root.display(), s.revision)?
        }
        "incremental" => writeln!(
            out,
            "updated {} -> revision {} ({} files changed, {} units rewritten)",
            s.root.display(),
            s.revision,
            s.changed_files,
            s.units_rewritten
        )?,
        "seeded" => writeln!(
            out,
            "seeded {} from {} -> revision {} ({} files re-derived, {} reused)",
            s.root.display(),
            s.seeded_from.as_deref().unwrap_or("a sibling worktree"),
            s.revision,
            s.changed_files,
            s.files.saturating_sub(s.changed_files)
        )?,
        _ => writeln!(out, "indexed {} -> revision {}", s.root.display(), s.revision)?,
    }
    for note in &s.notes {
        writeln!(out, "  note     {note}")?;
    }
    writeln!(out, "  db       {}", s.db.display())?;
    writeln!(out, "  files    {} ({} lines, {} bytes)", s.files, s.lines, s.bytes)?;
    if let Some(a) = accounting {
        writeln!(out, "           {}", accounting_line(a))?;
    } else {
        writeln!(out, "           parsed {}", s.parsed_files)?;
    }
    writeln!(out, "  symbols  {}", s.symbols)?;
    writeln!(out, "  edges    {} ({} call sites unresolved)", s.edges, s.unresolved)?;
    let skipped: usize = s.skipped.values().sum();
    let reasons: Vec<String> = s.skipped.iter().map(|(k, n)| format!("{k} {n}")).collect();
    writeln!(
        out,
        "  skipped  {skipped}{}",
        if reasons.is_empty() { String::new() } else { format!(" ({})", reasons.join(", ")) }
    )?;
    if s.lossy_files + s.files_with_syntax_errors > 0 {
        writeln!(
            out,
            "  notes    {} lossy UTF-8, {} with syntax errors",
            s.lossy_files, s.files_with_syntax_errors
        )?;
    }
    if let Some(a) = accounting.filter(|a| !a.syntax_errors.is_empty()) {
        let shown: Vec<&str> = a.syntax_errors.iter().take(10).map(String::as_str).collect();
        let more = a.syntax_errors.len().saturating_sub(shown.len());
        writeln!(
            out,
            "  syntax errors in {} file(s): {}{}",
            a.syntax_errors.len(),
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more (`codegraph status --all`)")
            } else {
                String::new()
            }
        )?;
    }
    if let Some(c) = &s.head_commit {
        writeln!(out, "  commit   {c} ({} dirty files)", s.dirty_files)?;
    }
    if s.vouched_files > 0 {
        writeln!(
            out,
            "  git      {} files with a new modification time vouched for by the git index (not read)",
            s.vouched_files
        )?;
    }
    if s.mode == "full" {
        writeln!(
            out,
            "  time     {} ms (scan {}, parse {}, resolve {}, publish {})",
            s.total_ms, s.scan_ms, s.parse_ms, s.resolve_ms, s.publish_ms
        )?;
    } else {
        writeln!(
            out,
            "  time     {} ms (restore {}, scan {}, derive {}, publish {})",
            s.total_ms, s.restore_ms, s.scan_ms, s.parse_ms, s.publish_ms
        )?;
    }
    if let Some(rss) = s.peak_rss_bytes {
        writeln!(out, "  memory   {} MiB peak RSS", rss / (1024 * 1024))?;
    }
    if let Some(c) = cochange {
        writeln!(out, "  cochange {}", describe_cochange(c))?;
    }
    Ok(())
}

/// One line on the co-change stamp: the commits read, what was skipped, the edges kept.
pub(crate) fn describe_cochange(c: &serde_json::Value) -> String {
    if let Some(note) = c["note"].as_str() {
        return format!("none: {note}");
    }
    let short = |v: &serde_json::Value| v.as_str().map(|s| s[..s.len().min(12)].to_string());
    let range = match (short(&c["oldest"]), short(&c["head"])) {
        (Some(o), Some(h)) => format!(" ({o}..{h})"),
        _ => String::new(),
    };
    let edges = c["edges"].as_u64().map(|n| format!("{n} edges from ")).unwrap_or_default();
    format!(
        "{edges}{} commits{range}, {} merges and {} commits over {} files skipped",
        c["commits"].as_u64().unwrap_or(0),
        c["merges_skipped"].as_u64().unwrap_or(0),
        c["big_commits_skipped"].as_u64().unwrap_or(0),
        codegraph_engine::cochange::MAX_FILES_PER_COMMIT
    )
}

/// `codegraph query`: one read-only SELECT over the query views, or the views themselves.
fn graph_query(
    sql: Option<String>,
    schema: bool,
    limit: usize,
    timeout_ms: u64,
    root: Option<PathBuf>,
    db: Option<&Path>,
    json: bool,
) -> Result<()> {
    if schema {
        if json {
            let views: Vec<Value> = codegraph_schema::query_views::QUERY_VIEWS
                .iter()
                .map(|v| {
                    let columns: Vec<Value> =
                        v.columns.iter().map(|(c, d)| json!({"name": c, "doc": d})).collect();
                    json!({"name": v.name, "doc": v.doc, "columns": columns})
                })
                .collect();
            return print_json(&json!({
                "views_version": codegraph_schema::query_views::QUERY_VIEWS_VERSION,
                "views": views,
            }));
        }
        print!("{}", codegraph_schema::query_views::describe_markdown());
        return Ok(());
    }
    let sql = sql.unwrap_or_default();
    let (root, mut store) = open_store(root, db)?;
    let db_path = store.path().to_path_buf();
    if crate::graph_query::reads_derived(&sql) {
        crate::ops_cli::ensure_flows(&db_path);
    }
    let reader = store.reader()?;
    let budget = codegraph_query::GraphQueryBudget {
        max_rows: limit,
        timeout: std::time::Duration::from_millis(timeout_ms),
        ..Default::default()
    };
    let answer = reader.graph_query(&sql, &budget)?;
    let stale = codegraph_engine::fresh::is_stale(&root, &db_path, &reader)?;
    if json {
        let mut v = crate::answer::graph_query_json(&answer);
        v["revision"] = json!(reader.revision());
        v["stale"] = json!(stale);
        return print_json(&v);
    }
    let mut out: Vec<u8> = Vec::new();
    out.extend(crate::graph_query::table(&answer).as_bytes());
    writeln!(
        out,
        "{} row(s){}, revision {}{}, {} ms",
        answer.rows.len(),
        if answer.truncated { " (more exist: raise --limit or narrow the query)" } else { "" },
        reader.revision(),
        stale_note(stale),
        answer.elapsed_ms
    )?;
    emit_text(&out, reader.revision(), stale)
}

/// `codegraph routes` / `codegraph tools`: every route or tool with where it is registered and
/// its handlers, by ID, the first `limit` of them.
fn endpoints(
    kind: NodeKind,
    limit: usize,
    root: Option<PathBuf>,
    db: Option<&Path>,
    json: bool,
) -> Result<()> {
    let (root, mut store) = open_store(root, db)?;
    let db_path = store.path().to_path_buf();
    let reader = store.reader()?;
    let all = reader.endpoints_with_handlers(kind)?;
    let stale = codegraph_engine::fresh::is_stale(&root, &db_path, &reader)?;
    let props = |n: &NodeRow| {
        n.props
            .as_deref()
            .and_then(codegraph_schema::EndpointProps::parse)
            .unwrap_or_else(|| codegraph_schema::EndpointProps::new(kind, ""))
    };
    let what = if kind == NodeKind::Tool { "tools" } else { "routes" };
    if json {
        let items: Vec<Value> = all
            .iter()
            .take(limit)
            .map(|(n, handlers)| {
                let p = props(n);
                let mut v = json!({
                    "id": n.id,
                    "framework": p.framework,
                    "file": n.file,
                    "line": n.start_line,
                    "handlers": handlers,
                });
                if kind == NodeKind::Tool {
                    v["name"] = json!(p.name.clone().unwrap_or_else(|| n.name.clone()));
                } else {
                    v["method"] = json!(p.method);
                    v["path"] = json!(p.path);
                }
                v
            })
            .collect();
        let mut v = json!({ "total": all.len(), what: items, "revision": reader.revision(), "stale": stale });
        if all.len() > limit {
            v["cut"] = json!([{"list": what, "total": all.len(), "offset": 0, "shown": limit}]);
        }
        return print_json(&v);
    }
    let mut out: Vec<u8> = Vec::new();
    for (n, handlers) in all.iter().take(limit) {
        let p = props(n);
        let label = if kind == NodeKind::Tool {
            p.name.clone().unwrap_or_else(|| n.name.clone())
        } else {
            format!(
                "{:<7} {}",
                p.method.as_deref().unwrap_or("ANY"),
                p.path.as_deref().unwrap_or("")
            )
        };
        let at = format!("{}:{}", n.file.as_deref().unwrap_or("?"), n.start_line.unwrap_or(0));
        let handler = match handlers.as_slice() {
            [] => "(no handler found)".to_string(),
            hs => hs.join(", "),
        };
        writeln!(out, "{label}  [{}]  {at}  -> {handler}", p.framework)?;
    }
    writeln!(
        out,
        "{} {what}{}, revision {}{}",
        all.len(),
        if all.len() > limit { format!(" (first {limit} shown: --limit)") } else { String::new() },
        reader.revision(),
        stale_note(stale)
    )?;
    emit_text(&out, reader.revision(), stale)
}

/// `codegraph grep`: the indexed files' matching lines, grouped by their innermost symbol.
fn grep(
    req: codegraph_engine::grep::GrepRequest,
    limit: usize,
    max_file_size: u64,
    root: Option<PathBuf>,
    db: Option<&Path>,
    json: bool,
) -> Result<()> {
    let (root, mut store) = open_store(root, db)?;
    let db_path = store.path().to_path_buf();
    let reader = store.reader()?;
    // The freshness check stats the tree while the workers read it, from the same sources.
    let sources = reader.source_stats()?;
    let (result, stale) = codegraph_engine::grep::grep_while(
        &root,
        &reader,
        &sources,
        &req,
        max_file_size,
        limit,
        || codegraph_engine::fresh::is_stale_of(&root, &db_path, &reader, &sources),
    )
    .map_err(anyhow::Error::msg)?;
    let stale = stale?;
    if json {
        let mut v = crate::answer::grep_json(&result, limit);
        v["revision"] = json!(reader.revision());
        v["stale"] = json!(stale);
        return print_json(&v);
    }
    let mut out: Vec<u8> = Vec::new();
    for g in result.groups.iter().take(limit) {
        match &g.symbol {
            Some(s) => writeln!(
                out,
                "{}:{}-{}  {} {}  ({} caller(s), {} dependent(s)){}",
                g.file,
                s.start_line,
                s.end_line,
                s.kind,
                s.id,
                s.callers,
                s.dependents,
                if g.changed { "  [changed since indexed]" } else { "" }
            )?,
            None => writeln!(
                out,
                "{}  (outside any symbol){}",
                g.file,
                if g.changed { "  [changed since indexed]" } else { "" }
            )?,
        }
        for l in g.lines.iter().take(crate::answer::GREP_LINES_PER_GROUP) {
            writeln!(out, "  {}: {}", l.line, l.text)?;
        }
        if g.lines.len() > crate::answer::GREP_LINES_PER_GROUP {
            writeln!(
                out,
                "  ... {} more line(s)",
                g.lines.len() - crate::answer::GREP_LINES_PER_GROUP
            )?;
        }
    }
    for (p, why) in &result.unreadable {
        writeln!(out, "not searched: {p}: {why}")?;
    }
    writeln!(
        out,
        "{} matching line(s) in {} file(s) of {} searched, {} group(s){}, revision {}{}",
        result.total_lines,
        result.files,
        result.files_searched,
        result.groups.len(),
        if result.groups.len() > limit {
            format!(" (first {limit} shown: --limit)")
        } else {
            String::new()
        },
        reader.revision(),
        stale_note(stale)
    )?;
    emit_text(&out, reader.revision(), stale)
}

fn stale_note(stale: bool) -> &'static str {
    if stale { ", stale: files changed since; run `codegraph index`" } else { "" }
}

/// Prints a text answer built in `out` and notes it (with its revision) for the events log.
fn emit_text(out: &[u8], revision: i64, stale: bool) -> Result<()> {
    let text = String::from_utf8_lossy(out);
    crate::events::printed(json!({"revision": revision, "stale": stale, "text": text}));
    std::io::stdout().lock().write_all(out)?;
    Ok(())
}

/// `codegraph events`: the last `tail` events, one line each (JSON lines with `--json`).
fn events(tail: usize, json: bool) -> Result<()> {
    let events = crate::events::tail(tail)?;
    let mut out = std::io::stdout().lock();
    if events.is_empty() {
        if !json {
            writeln!(out, "no events yet (every CLI query and MCP tool call adds one)")?;
        }
        return Ok(());
    }
    for e in &events {
        if json {
            writeln!(out, "{e}")?;
            continue;
        }
        let s = |k: &str| e[k].as_str().unwrap_or("-").to_string();
        writeln!(
            out,
            "{} {:<4} {:<20} {:>8} ms {:>7} chars ~{:>6} tokens rev {}{}{}{}  {}",
            e["time_ms"].as_u64().map_or("-".to_string(), crate::events::utc_time),
            s("surface"),
            s("operation"),
            e["duration_ms"],
            e["chars"],
            e["tokens_est"],
            e["revision"],
            if e["stale"] == true { " stale" } else { "" },
            if e["truncated"] == true { " cut" } else { "" },
            e.get("error")
                .and_then(Value::as_str)
                .map(|m| format!(" error: {m}"))
                .unwrap_or_default(),
            e["arguments"]
        )?;
    }
    Ok(())
}

/// `codegraph cache list|rm|gc`.
fn cache(action: CacheAction, json: bool) -> Result<()> {
    use codegraph_engine::cache::{self as c, CachedIndex};
    let mib = |b: u64| format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0));
    let entry = |i: &CachedIndex| {
        json!({
            "root": i.root, "dir": i.dir.display().to_string(), "revision": i.revision,
            "indexer_version": i.indexer_version, "bytes": i.bytes,
            "collectable": i.stale, "kept_by_live_process": i.owned,
        })
    };
    let indexes = c::list()?;
    let mut out = std::io::stdout().lock();
    match action {
        CacheAction::List => {
            let total: u64 = indexes.iter().map(|i| i.bytes).sum();
            if json {
                let list: Vec<Value> = indexes.iter().map(entry).collect();
                return print_json(&json!({"cache_dir": c_dir(), "indexes": list, "bytes": total}));
            }
            if indexes.is_empty() {
                writeln!(out, "no indexes in {}", c_dir())?;
                return Ok(());
            }
            for i in &indexes {
                writeln!(
                    out,
                    "{:>10}  rev {:<5} {}{}{}",
                    mib(i.bytes),
                    i.revision.map_or("-".to_string(), |r| r.to_string()),
                    i.root.as_deref().unwrap_or("(unreadable)"),
                    if i.owned { "  [kept by a running watch/mcp]" } else { "" },
                    i.stale.as_ref().map(|w| format!("  [gc: {w}]")).unwrap_or_default()
                )?;
            }
            writeln!(out, "{} index(es), {} in {}", indexes.len(), mib(total), c_dir())?;
            Ok(())
        }
        CacheAction::Rm { paths: roots } => {
            let mut removed = Vec::new();
            for r in &roots {
                let Some(i) = c::find(&indexes, r) else {
                    bail!(
                        "no cached index for {} (`codegraph cache list` shows them)",
                        r.display()
                    );
                };
                c::remove(&i)?;
                removed.push(entry(&i));
                if !json {
                    writeln!(
                        out,
                        "removed the index of {} ({})",
                        i.root.as_deref().unwrap_or("?"),
                        mib(i.bytes)
                    )?;
                }
            }
            if json {
                return print_json(&json!({"removed": removed}));
            }
            Ok(())
        }
        CacheAction::Gc { dry_run } => {
            let mut removed = Vec::new();
            let mut kept = Vec::new();
            let mut freed = 0;
            for i in indexes.iter().filter(|i| i.stale.is_some()) {
                let result = if dry_run || i.owned { Ok(()) } else { c::remove(i) };
                match (result, i.owned) {
                    (Ok(()), false) => {
                        freed += i.bytes;
                        removed.push(entry(i));
                    }
                    (Err(e), _) => kept.push(json!({"index": entry(i), "why": format!("{e:#}")})),
                    (Ok(()), true) => {
                        kept.push(json!({"index": entry(i), "why": "kept by a running watch/mcp"}))
                    }
                }
            }
            if json {
                return print_json(
                    &json!({"dry_run": dry_run, "removed": removed, "kept": kept, "bytes_freed": freed}),
                );
            }
            let verb = if dry_run { "would remove" } else { "removed" };
            for r in &removed {
                writeln!(
                    out,
                    "{verb} {} ({})",
                    r["root"].as_str().or(r["dir"].as_str()).unwrap_or("?"),
                    r["collectable"].as_str().unwrap_or("")
                )?;
            }
            for k in &kept {
                writeln!(
                    out,
                    "kept {}: {}",
                    k["index"]["root"].as_str().unwrap_or("?"),
                    k["why"].as_str().unwrap_or("")
                )?;
            }
            writeln!(out, "{verb} {} index(es), {}", removed.len(), mib(freed))?;
            Ok(())
        }
    }
}

fn c_dir() -> String {
    codegraph_engine::paths::cache_dir()
        .map_or_else(|e| format!("{e:#}"), |d| d.display().to_string())
}

/// `codegraph version`.
fn version(json: bool) -> Result<()> {
    let cache = codegraph_engine::paths::cache_dir().map(|d| d.display().to_string());
    let go = codegraph_engine::index::go_platform();
    let v = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "go_platform": format!("{}/{}", go.0, go.1),
        "indexer_version": codegraph_engine::index::indexer_version(),
        "schema_version": codegraph_schema::ddl::SCHEMA_VERSION,
        "cache_dir": cache.as_ref().ok(),
    });
    if json {
        return print_json(&v);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "codegraph {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(
        out,
        "indexer   {} (an index written by another is rebuilt)",
        codegraph_engine::index::indexer_version()
    )?;
    writeln!(out, "schema    {}", codegraph_schema::ddl::SCHEMA_VERSION)?;
    writeln!(
        out,
        "go build  {}/{} (Go build constraints are read for it; GOOS / GOARCH choose another)",
        go.0, go.1
    )?;
    match cache {
        Ok(d) => writeln!(out, "cache     {d} (CODEGRAPH_CACHE_DIR to move it)")?,
        Err(e) => writeln!(out, "cache     none: {e:#}")?,
    }
    Ok(())
}

/// `codegraph languages`.
fn languages(json: bool) -> Result<()> {
    let langs = codegraph_engine::index::languages();
    if json {
        let list: Vec<Value> = langs
            .iter()
            .map(|l| {
                json!({
                    "language": l.name,
                    "extensions": l.extensions,
                    "by_content": l.by_content,
                    "extracts": l.capabilities,
                })
            })
            .collect();
        return print_json(
            &json!({ "languages": list, "other_text_files": "file nodes only (searchable by path)" }),
        );
    }
    let mut out = std::io::stdout().lock();
    for l in &langs {
        let exts: Vec<String> = l.extensions.iter().map(|e| format!(".{e}")).collect();
        writeln!(out, "{:<11} {:<22} {}", l.name, exts.join(" "), l.capabilities.join(", "))?;
        if let Some(d) = l.by_content {
            writeln!(out, "{:<11} also {d}", "")?;
        }
    }
    writeln!(
        out,
        "other text files are indexed as file nodes (searchable by path), binary files are skipped"
    )?;
    Ok(())
}

fn print_json(v: &Value) -> Result<()> {
    crate::events::printed(v.clone());
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

fn location(n: &NodeRow) -> String {
    match (&n.file, n.start_line, n.end_line) {
        (Some(f), Some(s), Some(e)) => format!("{f}:{s}-{e}"),
        (Some(f), _, _) => f.clone(),
        _ => "-".to_string(),
    }
}

fn edge_suffix(e: &EdgeRow) -> String {
    let mut s = String::new();
    if e.line > 0 {
        s.push_str(&format!(" (line {})", e.line));
    }
    if e.reason != "structural" {
        s.push_str(&format!(" [{} {:.2}]", e.reason, e.weight));
    }
    s
}

#[cfg(test)]
mod tests {
    /// `codegraph help X` explains every argument of every command (a blank `[ROOT]` or
    /// `--depth` leaves a user guessing).
    #[test]
    fn every_argument_has_help_text() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut cmd = <super::Cli as clap::CommandFactory>::command();
        cmd.build();
        let mut missing = Vec::new();
        walk(&cmd, "codegraph", &mut missing);
        assert!(missing.is_empty(), "arguments without help: {missing:#?}");
    }

    #[test]
    fn accounting_names_eight_kinds_then_sums_the_rest() {
        let kinds =
            |n: usize| -> Vec<(String, u64)> { (0..n).map(|i| (format!(".k{i}"), 1)).collect() };
        let line = |text_only: usize| {
            super::accounting_line(&codegraph_query::FileAccounting {
                parsed: vec![("go".into(), 3)],
                text_only: kinds(text_only),
                syntax_errors: Vec::new(),
            })
        };
        assert_eq!(line(0), "parsed 3 (go 3), text only 0");
        // A ninth kind is named, never "1 other kinds 1".
        assert!(line(9).ends_with(".k7 1, .k8 1)"), "{}", line(9));
        assert!(line(11).ends_with(".k7 1, +3 kinds: 3 file(s))"), "{}", line(11));
    }

    #[test]
    fn http_addresses_take_ips_and_host_names() {
        assert_eq!(super::http_addr("127.0.0.1:7300").unwrap().to_string(), "127.0.0.1:7300");
        assert_eq!(super::http_addr("[::1]:0").unwrap().to_string(), "[::1]:0");
        let a = super::http_addr("localhost:7300").unwrap();
        assert!(a.ip().is_loopback() && a.port() == 7300, "{a}");
        assert!(super::http_addr("localhost").is_err());
        assert!(super::http_addr("127.0.0.1:99999").is_err());
    }
}
