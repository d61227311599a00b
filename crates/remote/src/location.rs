//! Where a shared store is, named by a URL, and the OpenDAL operator that reaches it.
//!
//! The URL forms are the ones users already write for these services (`s3://bucket/prefix`,
//! `gs://bucket/prefix`, `azblob://container/prefix`, `webdav+https://host/path`,
//! `redis://host:port[/db][/prefix]`, `file:///dir` or an absolute path). Query parameters pass
//! through to the service's configuration (`?endpoint=http://127.0.0.1:9000&region=eu-west-1`),
//! and credentials come from each service's usual environment variables (`AWS_ACCESS_KEY_ID`,
//! `GOOGLE_APPLICATION_CREDENTIALS`, `AZURE_STORAGE_ACCOUNT` / `AZURE_STORAGE_KEY`, a password in
//! the Redis or WebDAV URL). A location prints only its [`Location::label`]: scheme, host and
//! path, never user information or query parameters, so no secret reaches a note or a log.

use crate::RemoteError;
use std::collections::BTreeMap;

/// A parsed store URL.
#[derive(Clone)]
pub struct Location {
    /// `scheme://host/path` without credentials or parameters: what notes and logs print.
    pub label: String,
    /// The OpenDAL service scheme.
    scheme: &'static str,
    /// The service configuration (may hold secrets: never printed).
    config: BTreeMap<String, String>,
}

impl std::fmt::Debug for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Location").field("label", &self.label).finish_non_exhaustive()
    }
}

/// The URL forms accepted, for error messages.
pub const FORMS: &str = "a directory (an absolute path or file:///dir), s3://bucket/prefix, gs://bucket/prefix, \
     azblob://container/prefix, webdav+https://host/path, redis://host:port[/db][/prefix]";

impl Location {
    /// Parses a store URL.
    pub fn parse(url: &str) -> Result<Location, RemoteError> {
        let url = url.trim();
        let bad = |why: &str| RemoteError::Url(format!("{why}; expected one of {FORMS}"));
        // An absolute path is a directory store, like its file URL.
        let (scheme, rest) = match url.split_once("://") {
            _ if url.starts_with('/') => ("file", url),
            Some(split) => split,
            None => return Err(bad("not a URL")),
        };
        let (rest, query) = match rest.split_once('?') {
            Some((r, q)) => (r, Some(q)),
            None => (rest, None),
        };
        let (authority, path) = match rest.split_once('/') {
            Some((a, p)) => (a, p.trim_matches('/')),
            None => (rest, ""),
        };
        let (userinfo, host) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, authority),
        };
        let mut config: BTreeMap<String, String> = BTreeMap::new();
        let scheme_lc = scheme.to_ascii_lowercase();
        let label = match path {
            "" => format!("{scheme_lc}://{host}"),
            p => format!("{scheme_lc}://{host}/{p}"),
        };
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let service: &'static str = match scheme_lc.as_str() {
            "file" => {
                if !host.is_empty() && host != "localhost" {
                    return Err(bad("a file URL names a local directory (file:///dir)"));
                }
                if path.is_empty() {
                    return Err(bad("a file URL needs a directory"));
                }
                config.insert("root".into(), format!("/{path}"));
                config.insert("atomic_write_dir".into(), format!("/{path}/.codegraph-tmp"));
                "fs"
            }
            "s3" => {
                if host.is_empty() {
                    return Err(bad("an s3 URL needs a bucket"));
                }
                config.insert("bucket".into(), host.into());
                config.insert("root".into(), format!("/{path}"));
                if let Some(ep) = env("AWS_ENDPOINT_URL_S3").or_else(|| env("AWS_ENDPOINT_URL")) {
                    config.insert("endpoint".into(), ep);
                }
                let region = env("AWS_REGION").or_else(|| env("AWS_DEFAULT_REGION"));
                config.insert("region".into(), region.unwrap_or_else(|| "us-east-1".into()));
                "s3"
            }
            "gs" | "gcs" => {
                if host.is_empty() {
                    return Err(bad("a gs URL needs a bucket"));
                }
                config.insert("bucket".into(), host.into());
                config.insert("root".into(), format!("/{path}"));
                if let Some(p) = env("GOOGLE_APPLICATION_CREDENTIALS") {
                    config.insert("credential_path".into(), p);
                }
                "gcs"
            }
            "azblob" => {
                if host.is_empty() {
                    return Err(bad("an azblob URL needs a container"));
                }
                config.insert("container".into(), host.into());
                config.insert("root".into(), format!("/{path}"));
                if let Some(a) = env("AZURE_STORAGE_ACCOUNT") {
                    config.insert("account_name".into(), a);
                }
                if let Some(k) = env("AZURE_STORAGE_KEY") {
                    config.insert("account_key".into(), k);
                }
                "azblob"
            }
            "webdav+http" | "webdav+https" => {
                let http = scheme_lc.trim_start_matches("webdav+");
                config.insert("endpoint".into(), format!("{http}://{host}"));
                config.insert("root".into(), format!("/{path}"));
                if let Some(u) = userinfo {
                    let (user, pass) = u.split_once(':').unwrap_or((u, ""));
                    config.insert("username".into(), user.into());
                    if !pass.is_empty() {
                        config.insert("password".into(), pass.into());
                    }
                }
                "webdav"
            }
            "redis" | "rediss" => {
                if host.is_empty() {
                    return Err(bad("a redis URL needs host:port"));
                }
                config.insert("endpoint".into(), format!("{scheme_lc}://{host}"));
                let (db, prefix) = match path.split_once('/') {
                    Some((d, p)) if d.parse::<i64>().is_ok() => (Some(d), p),
                    None if path.parse::<i64>().is_ok() => (Some(path), ""),
                    _ => (None, path),
                };
                if let Some(db) = db {
                    config.insert("db".into(), db.into());
                }
                config.insert("root".into(), format!("/{prefix}"));
                if let Some(u) = userinfo {
                    let (user, pass) = u.split_once(':').unwrap_or(("", u));
                    if !user.is_empty() {
                        config.insert("username".into(), user.into());
                    }
                    config.insert("password".into(), pass.into());
                }
                "redis"
            }
            _ => return Err(bad(&format!("unknown scheme `{scheme}`"))),
        };
        if service != "redis" && service != "webdav" && userinfo.is_some() {
            return Err(bad(
                "credentials belong in the service's environment variables, not the URL",
            ));
        }
        for pair in query.into_iter().flat_map(|q| q.split('&')).filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, "true"));
            config.insert(k.to_string(), v.to_string());
        }
        Ok(Location { label, scheme: service, config })
    }

    /// The OpenDAL operator of this location.
    pub(crate) fn operator(&self) -> Result<opendal::Operator, RemoteError> {
        opendal::install_default();
        opendal::Operator::via_iter(self.scheme, self.config.clone())
            .map_err(|e| RemoteError::Store(format!("cannot use {}: {}", self.label, e.kind())))
    }

    /// Whether the service lists keys (Redis does not: lookups then probe commits one by one).
    pub(crate) fn lists(&self) -> bool {
        self.scheme != "redis"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_never_carry_credentials_or_parameters() {
        let l = Location::parse("redis://user:s3cret@127.0.0.1:6379/2/cg?timeout=1")
            .expect("test step");
        assert_eq!(l.label, "redis://127.0.0.1:6379/2/cg");
        assert_eq!(l.config["endpoint"], "redis://127.0.0.1:6379");
        assert_eq!(l.config["db"], "2");
        assert_eq!(l.config["root"], "/cg");
        assert_eq!(l.config["password"], "s3cret");
        assert!(!format!("{l:?}").contains("s3cret"));

        let s = Location::parse(
            "s3://bucket/team/cg?endpoint=http://127.0.0.1:9000&secret_access_key=k",
        )
        .expect("test step");
        assert_eq!(s.label, "s3://bucket/team/cg");
        assert_eq!(s.config["bucket"], "bucket");
        assert_eq!(s.config["root"], "/team/cg");
        assert_eq!(s.config["endpoint"], "http://127.0.0.1:9000");

        let w = Location::parse("webdav+https://me:pw@dav.example/cache/").expect("test step");
        assert_eq!(w.label, "webdav+https://dav.example/cache");
        assert_eq!(w.config["endpoint"], "https://dav.example");

        let f = Location::parse("/srv/cg").expect("test step");
        assert_eq!(f.label, "file:///srv/cg");
        assert_eq!(f.config["root"], "/srv/cg");
    }

    #[test]
    fn bad_urls_say_what_is_accepted() {
        for url in ["srv/cg", "ftp://x/y", "s3:///prefix", "file://host/dir", "s3://k:s@b/p"] {
            let e = Location::parse(url).expect_err("a bad URL").to_string();
            assert!(e.contains("expected one of"), "{url}: {e}");
        }
    }
}
