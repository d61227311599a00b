//! `codegraph mcp`: the agent-facing surface. Serves one or more code roots over the Model
//! Context Protocol, on stdio (default) or streamable HTTP, and owns the index lifecycle of
//! each root (built or refreshed on first use, then kept fresh by a file watcher).
//!
//! stdout carries the protocol and nothing else; logs go to stderr. The HTTP transport binds
//! loopback unless told otherwise, and a non-loopback address needs `--allow-remote` and a
//! bearer token (`CODEGRAPH_MCP_TOKEN`), which every request must then present.

pub mod roots;
pub mod tools;

#[cfg(test)]
mod tests;

use anyhow::{Context, Result, bail};
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use roots::{RootHandle, RootOptions, RootSet};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tools::CodegraphMcp;

/// How `codegraph mcp` was asked to run.
pub struct McpOptions {
    /// Serve streamable HTTP on this address instead of stdio.
    pub http: Option<SocketAddr>,
    /// Allow a non-loopback HTTP address (requires a token).
    pub allow_remote: bool,
    /// The bearer token HTTP requests must present (`CODEGRAPH_MCP_TOKEN`).
    pub token: Option<String>,
    /// An HTTP session without a request for this long is closed and its memory freed.
    pub session_idle: Duration,
    /// Offer the read-only `graph_query` tool (`--allow-graph-query`).
    pub graph_query: bool,
}

/// How the HTTP transport serves (besides its listener and roots).
#[derive(Clone, Debug)]
pub struct HttpServe {
    /// The bearer token every request must carry, if any.
    pub token: Option<String>,
    /// Accept any `Host` (remote clients; the token guards them).
    pub any_host: bool,
    /// Idle sessions are closed after this long ([`DEFAULT_SESSION_IDLE`] by default).
    pub session_idle: Duration,
    /// Connections served at once ([`MAX_CONNECTIONS`]).
    pub max_connections: usize,
    /// Time to send a request's header ([`HEADER_TIMEOUT`]).
    pub header_timeout: Duration,
    /// Offer the read-only `graph_query` tool (off unless the operator allows it).
    pub graph_query: bool,
}

impl HttpServe {
    /// The defaults, with a token or not.
    pub fn new(token: Option<String>, any_host: bool) -> HttpServe {
        HttpServe {
            token,
            any_host,
            session_idle: DEFAULT_SESSION_IDLE,
            max_connections: MAX_CONNECTIONS,
            header_timeout: HEADER_TIMEOUT,
            graph_query: false,
        }
    }
}

/// How long an HTTP session may stay idle: sessions a client never DELETEs (~73 KB each)
/// are reclaimed after it.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(300);

/// Builds the root set: each root canonical, with its index path (`--db` only for one root).
pub fn root_set(
    roots: &[PathBuf],
    db: Option<&std::path::Path>,
    opts: &RootOptions,
) -> Result<Arc<RootSet>> {
    let roots: Vec<PathBuf> =
        if roots.is_empty() { vec![PathBuf::from(".")] } else { roots.to_vec() };
    if db.is_some() && roots.len() > 1 {
        bail!("--db names one index file; it cannot serve {} roots (drop --db)", roots.len());
    }
    let mut handles: Vec<Arc<RootHandle>> = Vec::new();
    for r in &roots {
        let root = codegraph_engine::paths::canonical_root(r)?;
        if handles.iter().any(|h| h.root == root) {
            continue;
        }
        let db = codegraph_engine::paths::db_path(&root, db)?;
        handles.push(RootHandle::new(root, db, opts.clone()));
    }
    let cwd = std::env::current_dir().ok().and_then(|c| std::fs::canonicalize(c).ok());
    Ok(Arc::new(RootSet::new(handles, cwd.as_deref())))
}

/// Runs the server until the client disconnects (stdio) or SIGINT/SIGTERM.
pub fn run(roots: Arc<RootSet>, opts: McpOptions) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .thread_name("codegraph-mcp")
        .build()
        .context("cannot start the async runtime")?;
    let result = runtime.block_on(async {
        match opts.http {
            None => serve_stdio(roots.clone(), opts.graph_query).await,
            Some(addr) => serve_http(roots.clone(), addr, &opts).await,
        }
    });
    roots.stop_all();
    // Workers finish the batch they are publishing (a commit is atomic either way).
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    result
}

async fn serve_stdio(roots: Arc<RootSet>, graph_query: bool) -> Result<()> {
    let server = CodegraphMcp::new(roots, graph_query)
        .serve(checked_stdio())
        .await
        .context("the MCP client did not complete the handshake on stdin/stdout")?;
    tokio::select! {
        r = server.waiting() => { r.context("the MCP session failed")?; }
        _ = shutdown_signal() => {}
    }
    Ok(())
}

/// Stdin and stdout for the MCP transport, with a gate in front: a line that is not JSON
/// (or not UTF-8) gets a JSON-RPC parse error (-32700, with the request's `id` when one can be
/// read) and a `tools/call` without `params` an invalid-params error (-32602), instead of
/// silence that leaves the client waiting. The transport's own output and these answers reach
/// stdout through one writer, a whole line at a time.
///
/// The gate also bounds the requests in flight to [`MAX_IN_FLIGHT`]: a request waits at the
/// gate (and the client's pipe fills, which is the queue) until an earlier one is answered or
/// cancelled. 1,000 pipelined `symbol_context` calls took an unbounded server to 1.4 GB.
fn checked_stdio() -> (tokio::io::DuplexStream, tokio::io::DuplexStream) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    const PIPE: usize = 1 << 16;
    let (to_server, from_gate) = tokio::io::duplex(PIPE);
    let (to_gate, from_server) = tokio::io::duplex(PIPE);
    let (lines_tx, mut lines_rx) = tokio::sync::mpsc::channel::<Vec<u8>>(64);
    let permits = Arc::new(tokio::sync::Semaphore::new(MAX_IN_FLIGHT));
    // Request ID (as JSON text) -> its slot, released when the answer goes out.
    let held: Arc<std::sync::Mutex<HashMap<String, tokio::sync::OwnedSemaphorePermit>>> =
        Arc::default();
    let release = {
        let held = held.clone();
        move |id: &str| {
            held.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
        }
    };
    // The one writer of stdout.
    tokio::spawn(async move {
        let mut out = tokio::io::stdout();
        while let Some(line) = lines_rx.recv().await {
            if out.write_all(&line).await.is_err() || out.flush().await.is_err() {
                break;
            }
        }
    });
    // The transport's messages, line by line.
    let answers = lines_tx.clone();
    tokio::spawn(async move {
        let mut reader = BufReader::new(from_server);
        loop {
            let mut line = Vec::new();
            match reader.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if let Some(id) = answered_id(&line) {
                        release(&id);
                    }
                    if answers.send(line).await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    // The gate on stdin.
    tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut to_server = to_server;
        loop {
            let mut line = Vec::new();
            match stdin.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            match gate(&line) {
                Ok(passage) => {
                    match passage {
                        Passage::Request(id) => {
                            let Ok(permit) = permits.clone().acquire_owned().await else { break };
                            held.lock().unwrap_or_else(|e| e.into_inner()).insert(id, permit);
                        }
                        Passage::Cancel(id) => {
                            held.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
                        }
                        Passage::Other => {}
                    }
                    if to_server.write_all(&line).await.is_err() {
                        break;
                    }
                }
                Err(answer) => {
                    tracing::warn!("{}", answer["error"]["message"].as_str().unwrap_or_default());
                    let mut bytes = answer.to_string().into_bytes();
                    bytes.push(b'\n');
                    if lines_tx.send(bytes).await.is_err() {
                        break;
                    }
                }
            }
        }
        // End of input: the transport sees it and ends the session.
        let _ = to_server.shutdown().await;
    });
    (from_gate, to_gate)
}

/// Requests a stdio client may have in flight at once; more wait at the gate.
const MAX_IN_FLIGHT: usize = 8;

/// What a stdin line the gate lets through is.
#[derive(Debug, PartialEq, Eq)]
enum Passage {
    /// A request (it has a method and an ID; the ID as JSON text): it takes a slot.
    Request(String),
    /// `notifications/cancelled` for the request with this ID: its slot is free.
    Cancel(String),
    /// A notification, a response to the server, a blank line.
    Other,
}

/// The ID (as JSON text) of the request a transport line answers, if it is an answer.
fn answered_id(line: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    (v.get("method").is_none() && (v.get("result").is_some() || v.get("error").is_some()))
        .then(|| v.get("id").map(serde_json::Value::to_string))
        .flatten()
}

/// Whether a stdin line may go to the MCP transport (and what it is), else the JSON-RPC
/// error to answer.
fn gate(line: &[u8]) -> Result<Passage, serde_json::Value> {
    let error = |id: &serde_json::Value, code: i64, message: String| {
        Err(
            serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
        )
    };
    let text = match std::str::from_utf8(line) {
        Ok(t) => t,
        Err(e) => {
            // The id, if the rest of the line is JSON.
            let lossy = String::from_utf8_lossy(line);
            let id = serde_json::from_str::<serde_json::Value>(&lossy)
                .ok()
                .map_or(serde_json::Value::Null, |v| v["id"].clone());
            return error(&id, -32700, format!("parse error: the line is not UTF-8 ({e})"));
        }
    };
    if text.trim().is_empty() {
        return Ok(Passage::Other);
    }
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return error(&serde_json::Value::Null, -32700, format!("parse error: {e}"));
        }
    };
    if v["method"] == "tools/call"
        && v.get("id").is_some()
        && v.get("params").is_none_or(serde_json::Value::is_null)
    {
        return error(
            &v["id"],
            -32602,
            "invalid params: tools/call needs params with a tool name".into(),
        );
    }
    if v["method"] == "notifications/cancelled" {
        let id = &v["params"]["requestId"];
        return Ok(if id.is_null() { Passage::Other } else { Passage::Cancel(id.to_string()) });
    }
    Ok(match v.get("id") {
        Some(id) if v.get("method").is_some() && !id.is_null() => Passage::Request(id.to_string()),
        _ => Passage::Other,
    })
}

pub(crate) async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

async fn serve_http(roots: Arc<RootSet>, addr: SocketAddr, opts: &McpOptions) -> Result<()> {
    let loopback = addr.ip().is_loopback();
    if !loopback && !opts.allow_remote {
        bail!(
            "{addr} is not a loopback address: serving the code graph beyond this machine needs --allow-remote and a bearer token in CODEGRAPH_MCP_TOKEN"
        );
    }
    if !loopback && opts.token.as_deref().is_none_or(str::is_empty) {
        bail!("--allow-remote needs a bearer token: set CODEGRAPH_MCP_TOKEN");
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr().context("cannot read the bound address")?;
    // The one line a launcher may parse; always printed, whatever the log level.
    eprintln!("codegraph mcp: listening on http://{local}/mcp");
    let stop = tokio_util::sync::CancellationToken::new();
    let on_signal = {
        let stop = stop.clone();
        async move {
            shutdown_signal().await;
            stop.cancel();
        }
    };
    tokio::spawn(on_signal);
    let serve = HttpServe {
        session_idle: opts.session_idle,
        graph_query: opts.graph_query,
        ..HttpServe::new(opts.token.clone(), !loopback)
    };
    serve_http_on(roots, listener, serve, stop).await
}

/// Serves MCP over streamable HTTP at `/mcp` on a bound listener until `stop` is cancelled.
/// With a token, every request must carry `Authorization: Bearer TOKEN`.
pub async fn serve_http_on(
    roots: Arc<RootSet>,
    listener: tokio::net::TcpListener,
    serve: HttpServe,
    stop: tokio_util::sync::CancellationToken,
) -> Result<()> {
    let HttpServe { token, any_host, session_idle, max_connections, header_timeout, graph_query } =
        serve;
    let mut config = StreamableHttpServerConfig::default();
    config.cancellation_token = stop.child_token();
    if any_host {
        // Remote clients use whatever host name reaches this machine; the token guards it.
        config = config.disable_allowed_hosts();
    }
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(session_idle);
    let service: StreamableHttpService<CodegraphMcp, LocalSessionManager> =
        StreamableHttpService::new(
            move || Ok(CodegraphMcp::new(roots.clone(), graph_query)),
            Arc::new(sessions),
            config,
        );
    let mut router =
        axum::Router::new().nest_service("/mcp", service).layer(axum::middleware::from_fn(guard));
    if let Some(token) = token.filter(|t| !t.is_empty()) {
        let expected: Arc<str> = token.into();
        router = router.layer(axum::middleware::from_fn(
            move |req: axum::extract::Request, next: axum::middleware::Next| {
                let expected = expected.clone();
                async move {
                    let ok = req
                        .headers()
                        .get(axum::http::header::AUTHORIZATION)
                        .and_then(|v| v.to_str().ok())
                        .is_some_and(|v| bearer_matches(v, &expected));
                    if ok {
                        next.run(req).await
                    } else {
                        // The scheme is named, so a client asks for the token instead of
                        // starting an OAuth discovery this server does not offer.
                        axum::response::IntoResponse::into_response((
                            axum::http::StatusCode::UNAUTHORIZED,
                            [(
                                axum::http::header::WWW_AUTHENTICATE,
                                "Bearer realm=\"codegraph\", error=\"invalid_token\"",
                            )],
                            "missing or wrong bearer token (CODEGRAPH_MCP_TOKEN)\n",
                        ))
                    }
                }
            },
        ));
    }
    serve_connections(listener, router, max_connections, header_timeout, stop).await;
    Ok(())
}

/// Connections served at once. One more closes the oldest connection that never sent a whole
/// request header, or, when every connection is a working client, is answered `503` with
/// `Retry-After`: stalled clients can neither hold every descriptor of the process nor lock
/// new clients out (300 stalled requests used to).
pub const MAX_CONNECTIONS: usize = 256;

/// A client must send a request's whole header within this time, else its connection is
/// closed (slow headers arrive before the token check).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// A POST body must arrive within this time (`408` otherwise).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The accept loop of the HTTP transport: at most `max_connections` at once, each with
/// `TCP_NODELAY` (without it every answer on a kept-alive connection waited ~40 ms for the
/// client's delayed ACK) and a header read timeout; on `stop`, connections finish their
/// answers (up to 2 s) and close.
pub(crate) async fn serve_connections(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    max_connections: usize,
    header_timeout: Duration,
    stop: tokio_util::sync::CancellationToken,
) {
    raise_descriptor_limit(max_connections as u64 * 2 + 256);
    let slots = Arc::new(tokio::sync::Semaphore::new(max_connections.max(1)));
    let live: Arc<std::sync::Mutex<std::collections::VecDeque<Conn>>> = Arc::default();
    let mut next_id = 0u64;
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = stop.cancelled() => break,
        };
        let (tcp, _) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors or a reset before accept: wait a little, go on.
                tracing::warn!(error = %e, "cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                // Full: the oldest connection that never sent a whole request header makes
                // room (stalled clients cannot starve new ones); only when every connection
                // is a working client is the newcomer told to come back.
                let victim = {
                    let mut live = live.lock().unwrap_or_else(|e| e.into_inner());
                    let oldest = live.iter().position(|c: &Conn| !c.served.load(Ordering::SeqCst));
                    oldest.and_then(|i| live.remove(i))
                };
                let Some(victim) = victim else {
                    tokio::spawn(refuse_busy(tcp));
                    continue;
                };
                victim.close.cancel();
                match tokio::time::timeout(Duration::from_secs(1), slots.clone().acquire_owned())
                    .await
                {
                    Ok(Ok(slot)) => slot,
                    _ => {
                        tokio::spawn(refuse_busy(tcp));
                        continue;
                    }
                }
            }
        };
        next_id += 1;
        let me = Conn {
            id: next_id,
            served: Arc::new(AtomicBool::new(false)),
            close: tokio_util::sync::CancellationToken::new(),
        };
        let (id, served, close) = (me.id, me.served.clone(), me.close.clone());
        live.lock().unwrap_or_else(|e| e.into_inner()).push_back(me);
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        // Marks the connection as a working client once hyper has read a whole request head.
        let service = hyper::service::service_fn(move |req| {
            served.store(true, Ordering::SeqCst);
            hyper::service::Service::call(&service, req)
        });
        let stop = stop.clone();
        let live = live.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(header_timeout);
            let conn = http.serve_connection(hyper_util::rt::TokioIo::new(tcp), service);
            tokio::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!(error = %e, "HTTP connection ended");
                    }
                }
                () = close.cancelled() => {}
                () = stop.cancelled() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(2), conn).await;
                }
            }
            live.lock().unwrap_or_else(|e| e.into_inner()).retain(|c| c.id != id);
        });
    }
}

/// A live HTTP connection, for choosing whom to close when the cap is reached.
struct Conn {
    id: u64,
    /// It has sent at least one whole request header.
    served: Arc<AtomicBool>,
    /// Closes it.
    close: tokio_util::sync::CancellationToken,
}

/// Answers a connection over the cap `503` and closes it.
async fn refuse_busy(mut tcp: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let answer = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain\r\nContent-Length: 38\r\nConnection: close\r\n\r\ntoo many connections: retry in a second";
    let _ = tokio::time::timeout(Duration::from_secs(1), tcp.write_all(answer.as_bytes())).await;
    let _ = tcp.shutdown().await;
}

/// Raises this process's soft limit on open descriptors towards `wanted` (within the hard
/// limit), so the connection cap, not the descriptor limit, is what a flood meets.
fn raise_descriptor_limit(wanted: u64) {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let mut limit = getrlimit(Resource::Nofile);
        let current = limit.current.unwrap_or(u64::MAX);
        let target = limit.maximum.map_or(wanted, |max| wanted.min(max));
        if current < target {
            limit.current = Some(target);
            if let Err(e) = setrlimit(Resource::Nofile, limit) {
                tracing::debug!(error = %e, "cannot raise the descriptor limit");
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = wanted;
}

/// `Authorization: Bearer TOKEN`, the scheme in any case (RFC 9110: schemes are
/// case-insensitive), the token compared in constant time.
pub(crate) fn bearer_matches(header: &str, token: &str) -> bool {
    let Some((scheme, given)) = header.trim().split_once(' ') else { return false };
    scheme.eq_ignore_ascii_case("bearer")
        && constant_time_eq(given.trim().as_bytes(), token.as_bytes())
}

/// Largest request body the guard reads to check that it is JSON.
const MAX_BODY_BYTES: usize = 4 << 20;

/// Checks every HTTP request before the MCP transport sees it: a browser `Origin` must be
/// this machine's (or, when serving remote clients, the host the request names), else 403
/// (DNS-rebinding defence the MCP transport spec requires); a POST body that is not JSON gets
/// a JSON-RPC parse error (-32700) instead of a bare HTTP error.
async fn guard(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    let host = req.headers().get(header::HOST).and_then(|v| v.to_str().ok()).map(str::to_string);
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let allowed = origin.to_str().ok().is_some_and(|o| origin_allowed(o, host.as_deref()));
        if !allowed {
            return (
                StatusCode::FORBIDDEN,
                "Origin not allowed: codegraph serves this machine's clients only\n",
            )
                .into_response();
        }
    }
    if req.method() != axum::http::Method::POST {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let bytes = match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY_BYTES))
        .await
    {
        Ok(Ok(b)) => b,
        Err(_) => {
            return (
                StatusCode::REQUEST_TIMEOUT,
                format!("the request body did not arrive within {} s\n", BODY_TIMEOUT.as_secs()),
            )
                .into_response();
        }
        Ok(Err(_)) => {
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("request body over {MAX_BODY_BYTES} bytes\n"),
            )
                .into_response();
        }
    };
    let refuse = |code: i64, message: String, id: serde_json::Value| {
        let answer = serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": code, "message": message},
        });
        (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "application/json")], answer.to_string())
            .into_response()
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Err(e) => return refuse(-32700, format!("Parse error: {e}"), serde_json::Value::Null),
        Ok(v) => {
            if let Some(why) = not_json_rpc(&v) {
                let id = v.get("id").cloned().unwrap_or(serde_json::Value::Null);
                return refuse(-32600, format!("Invalid Request: {why}"), id);
            }
        }
    }
    next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

/// Why a JSON body is no JSON-RPC 2.0 message this server takes (one request, notification or
/// response object; batches are not part of MCP since 2025-06-18), or `None`.
fn not_json_rpc(v: &serde_json::Value) -> Option<&'static str> {
    let Some(obj) = v.as_object() else {
        return Some(if v.is_array() {
            "batches are not supported: send one JSON-RPC message per request"
        } else {
            "the body must be a JSON-RPC 2.0 object"
        });
    };
    if obj.get("jsonrpc").and_then(serde_json::Value::as_str) != Some("2.0") {
        return Some("`jsonrpc` must be \"2.0\"");
    }
    let is_call = obj.get("method").is_some_and(serde_json::Value::is_string);
    let is_response = obj.contains_key("result") || obj.contains_key("error");
    if !is_call && !is_response {
        return Some(
            "a message needs a string `method` (or is a response with `result` or `error`)",
        );
    }
    None
}

/// Whether a browser origin may talk to this server: a loopback host, or the very host the
/// request was sent to (a remote client's page served by the same name).
pub(crate) fn origin_allowed(origin: &str, host: Option<&str>) -> bool {
    let Some((_, rest)) = origin.split_once("://") else { return false };
    let authority = rest.split('/').next().unwrap_or(rest);
    let origin_host = host_of(authority);
    if matches!(origin_host.as_str(), "localhost" | "127.0.0.1" | "::1") {
        return true;
    }
    host.is_some_and(|h| {
        !origin_host.is_empty() && host_of(h) == origin_host && !is_loopback_name(h)
    })
}

/// The host part of `host[:port]` / `[v6]:port`, lowercased, without brackets.
fn host_of(authority: &str) -> String {
    let h = if let Some(rest) = authority.strip_prefix('[') {
        rest.split(']').next().unwrap_or(rest)
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    h.to_ascii_lowercase()
}

/// Whether a Host header names this machine (then only loopback origins may use it).
pub(crate) fn is_loopback_name(host: &str) -> bool {
    matches!(host_of(host).as_str(), "localhost" | "127.0.0.1" | "::1")
}

/// Compares two secrets in time independent of where they differ.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod guard_tests {
    use super::{bearer_matches, origin_allowed};

    #[test]
    fn the_bearer_scheme_is_case_insensitive_and_the_token_exact() {
        for h in ["Bearer s3cret", "bearer s3cret", "BEARER s3cret", "  Bearer   s3cret "] {
            assert!(bearer_matches(h, "s3cret"), "{h:?}");
        }
        for h in ["Bearer s3cre", "Bearer S3CRET", "Basic s3cret", "s3cret", "Bearer", ""] {
            assert!(!bearer_matches(h, "s3cret"), "{h:?}");
        }
    }

    #[test]
    fn origins_of_this_machine_or_of_the_named_host() {
        for o in
            ["http://localhost:6274", "http://127.0.0.1", "https://[::1]:8080", "http://LOCALHOST"]
        {
            assert!(origin_allowed(o, Some("127.0.0.1:7300")), "{o}");
        }
        for o in ["http://evil.example", "null", "file://", "http://127.0.0.1.evil.example"] {
            assert!(!origin_allowed(o, Some("127.0.0.1:7300")), "{o}");
        }
        // Serving remote clients: a page of the host the request names may call it.
        assert!(origin_allowed("https://graph.example:443", Some("graph.example:7300")));
        assert!(!origin_allowed("https://evil.example", Some("graph.example:7300")));
        assert!(!origin_allowed("https://evil.example", None));
    }
}
