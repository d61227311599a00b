//! `codegraph web`: the read-only web view over HTTP. It serves the same roots the MCP server
//! would (one worker per root keeps its index fresh; pages read the published snapshot through
//! read-only connections, one snapshot per page) and draws the pages with `codegraph-web`.
//!
//! The same rules as `mcp --http`: loopback only unless `--allow-remote` with a bearer token
//! (`CODEGRAPH_MCP_TOKEN`); a `Host` that is not this machine's (when serving loopback) and a
//! foreign browser `Origin` are refused with 403 (DNS rebinding); only GET and HEAD (405
//! otherwise). Nothing here writes an index or picks a root the server was not given.

use crate::mcp::roots::{RootHandle, RootSet};
use anyhow::{Context, Result, bail};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use codegraph_web::{Page, PageError, Shell};
use std::net::SocketAddr;
use std::sync::Arc;

/// The address `codegraph web` listens on by default.
pub const DEFAULT_ADDR: &str = "127.0.0.1:7400";

/// The cookie a `?token=` link sets, so a browser can use a token-guarded view.
const TOKEN_COOKIE: &str = "codegraph_token";

/// The `token=` value of a query string, if any.
fn query_token(query: &str) -> Option<String> {
    codegraph_web::html::parse_query(query).into_iter().find(|(k, _)| k == "token").map(|(_, v)| v)
}

/// Largest file a node page reads for its source excerpt.
const MAX_SOURCE_BYTES: u64 = 8 << 20;

/// How the web view is served.
pub struct WebOptions {
    pub addr: SocketAddr,
    pub allow_remote: bool,
    /// The bearer token every request must carry (required with `--allow-remote`).
    pub token: Option<String>,
}

/// Runs the web view until SIGINT/SIGTERM.
pub fn run(roots: Arc<RootSet>, opts: WebOptions) -> Result<()> {
    let loopback = opts.addr.ip().is_loopback();
    if !loopback && !opts.allow_remote {
        bail!(
            "{} is not a loopback address: serving the code graph beyond this machine needs --allow-remote and a bearer token in CODEGRAPH_MCP_TOKEN",
            opts.addr
        );
    }
    if !loopback && opts.token.as_deref().is_none_or(str::is_empty) {
        bail!("--allow-remote needs a bearer token: set CODEGRAPH_MCP_TOKEN");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .thread_name("codegraph-web")
        .build()
        .context("cannot start the async runtime")?;
    for r in roots.all() {
        r.ensure_started();
    }
    let result = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(opts.addr)
            .await
            .with_context(|| format!("cannot listen on {}", opts.addr))?;
        let local = listener.local_addr().context("cannot read the bound address")?;
        // The one line a launcher (or a test) may parse; always printed.
        eprintln!("codegraph web: listening on http://{local}/");
        let stop = tokio_util::sync::CancellationToken::new();
        let on_signal = {
            let stop = stop.clone();
            async move {
                crate::mcp::shutdown_signal().await;
                stop.cancel();
            }
        };
        tokio::spawn(on_signal);
        let router = router(roots.clone(), opts.token.clone(), !loopback);
        crate::mcp::serve_connections(
            listener,
            router,
            crate::mcp::MAX_CONNECTIONS,
            crate::mcp::HEADER_TIMEOUT,
            stop,
        )
        .await;
        Ok(())
    });
    roots.stop_all();
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    result
}

/// Every request goes to [`handle`] after the guard.
fn router(roots: Arc<RootSet>, token: Option<String>, any_host: bool) -> axum::Router {
    let token: Option<Arc<str>> = token.filter(|t| !t.is_empty()).map(Into::into);
    axum::Router::new().fallback(move |req: axum::extract::Request| {
        let roots = roots.clone();
        let token = token.clone();
        async move {
            if let Some(refused) = guard(&req, token.as_deref(), any_host) {
                return refused;
            }
            let head = req.method() == Method::HEAD;
            let query = req.uri().query().unwrap_or("");
            let mut resp = handle(roots, req.uri().path(), query).await;
            if head {
                *resp.body_mut() = axum::body::Body::empty();
            }
            // A browser cannot send a bearer header: a link with `?token=` sets a cookie that
            // later requests carry.
            if let Some(t) =
                token.as_deref().filter(|t| query_token(query).is_some_and(|q| q == *t))
                && let Ok(v) = HeaderValue::from_str(&format!(
                    "{TOKEN_COOKIE}={t}; HttpOnly; SameSite=Strict; Path=/"
                ))
            {
                resp.headers_mut().insert(header::SET_COOKIE, v);
            }
            resp
        }
    })
}

/// The refusal for a request the view must not answer, if it is one.
fn guard(req: &axum::extract::Request, token: Option<&str>, any_host: bool) -> Option<Response> {
    let headers = req.headers();
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    if !any_host && !host.is_some_and(crate::mcp::is_loopback_name) {
        return Some(
            (StatusCode::FORBIDDEN, "Host not allowed: codegraph web serves this machine only\n")
                .into_response(),
        );
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let ok = origin.to_str().ok().is_some_and(|o| crate::mcp::origin_allowed(o, host));
        if !ok {
            return Some(
                (
                    StatusCode::FORBIDDEN,
                    "Origin not allowed: codegraph serves this machine's clients only\n",
                )
                    .into_response(),
            );
        }
    }
    if let Some(expected) = token {
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| crate::mcp::bearer_matches(v, expected));
        let cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().strip_prefix(TOKEN_COOKIE)?.strip_prefix('='))
            .any(|c| crate::mcp::constant_time_eq(c.as_bytes(), expected.as_bytes()));
        let in_query = query_token(req.uri().query().unwrap_or(""))
            .is_some_and(|q| crate::mcp::constant_time_eq(q.as_bytes(), expected.as_bytes()));
        if !(bearer || cookie || in_query) {
            return Some(
                (
                    StatusCode::UNAUTHORIZED,
                    "missing or wrong token: send `Authorization: Bearer TOKEN`, or open a page once with `?token=TOKEN` (it sets a cookie)\n",
                )
                    .into_response(),
            );
        }
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r =
            (StatusCode::METHOD_NOT_ALLOWED, "the web view is read-only: GET and HEAD only\n")
                .into_response();
        r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return Some(r);
    }
    None
}

fn html(status: StatusCode, body: String) -> Response {
    let mut r = (status, body).into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn status_of(e: &PageError) -> StatusCode {
    StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

async fn handle(roots: Arc<RootSet>, path: &str, query: &str) -> Response {
    let req = match codegraph_web::parse_request(path, query) {
        Ok(r) => r,
        Err(e) => {
            return html(status_of(&e), codegraph_web::html::bare_page("error", &e.html(None)));
        }
    };
    match req.page {
        Page::Asset { name } => {
            let (body, ty) = match name {
                "live.js" => (codegraph_web::html::LIVE_JS, "text/javascript; charset=utf-8"),
                _ => (codegraph_web::html::STYLE, "text/css; charset=utf-8"),
            };
            let mut r = body.into_response();
            r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(ty));
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("max-age=300"));
            return r;
        }
        Page::Home => {
            let job = move || {
                let several = roots.all().len() > 1;
                let cards: Vec<(String, Result<String, String>)> = roots
                    .all()
                    .iter()
                    .map(|h| {
                        let name = h.root.display().to_string();
                        let card = with_page(h, several, "", |ctx| {
                            codegraph_web::pages::root_card(ctx).map_err(|e| e.html(None))
                        })
                        .and_then(|r| r);
                        (name, card)
                    })
                    .collect();
                codegraph_web::pages::home(&cards)
            };
            return match tokio::task::spawn_blocking(job).await {
                Ok(body) => html(StatusCode::OK, body),
                Err(e) => html(StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}\n")),
            };
        }
        _ => {}
    }
    let handle = match roots.pick(req.root.as_deref()) {
        Ok(h) => h,
        Err(why) => {
            let e = PageError::BadRequest(why);
            return html(status_of(&e), codegraph_web::html::bare_page("error", &e.html(None)));
        }
    };
    let several = roots.all().len() > 1;
    if req.page == Page::Revision {
        let job = move || -> Result<(i64, bool), String> {
            let mut store = handle.try_store().ok_or("no index published yet")?;
            let answer = store.reader().map_err(|e| e.to_string()).and_then(|reader| {
                let stale = handle.stale(reader.revision(), &reader).map_err(|e| e.to_string())?;
                Ok((reader.revision(), stale))
            });
            handle.give_back(store);
            answer
        };
        return match tokio::task::spawn_blocking(job).await {
            Ok(Ok((revision, stale))) => {
                let mut r = serde_json::json!({"revision": revision, "stale": stale})
                    .to_string()
                    .into_response();
                r.headers_mut()
                    .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
                r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                r
            }
            Ok(Err(why)) => (StatusCode::SERVICE_UNAVAILABLE, why).into_response(),
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}\n"))
                .into_response(),
        };
    }
    let page = req.page;
    let job = move || {
        let text = page.search_text().to_string();
        with_page(&handle, several, &text, |ctx| match codegraph_web::render(&page, ctx) {
            Ok(body) => (StatusCode::OK, body),
            Err(e) => (status_of(&e), ctx.shell.page_titled("error", &e.html(Some(&ctx.shell)))),
        })
    };
    match tokio::task::spawn_blocking(job).await {
        Ok(Ok((status, body))) => html(status, body),
        Ok(Err(why)) => html(
            StatusCode::SERVICE_UNAVAILABLE,
            codegraph_web::html::bare_page(
                "not ready",
                &format!("<h1>Not ready</h1><p>{}</p>", codegraph_web::html::esc(&why)),
            ),
        ),
        Err(e) => html(StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}\n")),
    }
}

/// Runs `f` on one snapshot of `handle`'s root (waiting for a first index up to the root's
/// build wait); `Err` says why there is no snapshot to read.
fn with_page<T>(
    handle: &Arc<RootHandle>,
    several: bool,
    query: &str,
    f: impl FnOnce(&codegraph_web::Ctx<'_, '_>) -> T,
) -> Result<T, String> {
    let mut store = handle.store_reporting(&|_| {}).map_err(|e| e.to_string())?;
    let result = (|| {
        let reader = store.reader().map_err(|e| e.to_string())?;
        let stale = handle.stale(reader.revision(), &reader).map_err(|e| e.to_string())?;
        let root = handle.root.display().to_string();
        let root_dir = handle.root.clone();
        let source = move |rel: &str| read_source(&root_dir, rel);
        let ctx = codegraph_web::Ctx {
            reader: &reader,
            shell: Shell {
                title: "",
                root: &root,
                root_param: several.then_some(root.as_str()),
                revision: reader.revision(),
                stale,
                query,
            },
            source: &source,
        };
        Ok(f(&ctx))
    })();
    handle.give_back(store);
    result
}

/// The text of a root-relative path from the index, if it is a readable file under the root
/// of at most [`MAX_SOURCE_BYTES`].
fn read_source(root: &std::path::Path, rel: &str) -> Option<String> {
    let rel = std::path::Path::new(rel);
    if !rel.components().all(|c| matches!(c, std::path::Component::Normal(_))) {
        return None;
    }
    let path = root.join(rel);
    let meta = std::fs::metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > MAX_SOURCE_BYTES {
        return None;
    }
    let bytes = std::fs::read(&path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}
