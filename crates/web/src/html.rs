//! The small HTML toolkit the pages share: escaping, URL encoding of IDs and query values, the
//! page shell (header, search box, revision badge, stale banner) and the assets built into the
//! binary (one stylesheet, one script that polls for a newer revision). No template engine: a
//! page is a `String` written in order, every dynamic text through [`esc`].

use std::fmt::Write;

/// `s` escaped for HTML text and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Percent-encodes every byte of `s` but the unreserved ones and those in `keep`.
fn encode(s: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) || keep.contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A node ID as a path tail (`sym:ts:src/a.ts:Server.start` stays readable).
pub fn enc_path(id: &str) -> String {
    encode(id, b"/:@")
}

/// A query-string value.
pub fn enc_query(v: &str) -> String {
    encode(v, b"/:")
}

/// Decodes `%XX` escapes (and `+` as a space when `plus` is set); invalid escapes stay as
/// they are, and bytes that are not UTF-8 become U+FFFD.
pub fn decode(s: &str, plus: bool) -> String {
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(v) => {
                        out.push(v);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' if plus => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `key=value` pairs of a query string, decoded, in order.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k, true), decode(v, true))
        })
        .collect()
}

/// What every page's shell shows about the snapshot it was rendered from.
pub struct Shell<'a> {
    /// The page title (escaped here).
    pub title: &'a str,
    /// The served root's path, for people.
    pub root: &'a str,
    /// The `root=` parameter links carry (`None`: one root is served, links need none).
    pub root_param: Option<&'a str>,
    pub revision: i64,
    /// The tree changed since `revision` (a newer revision is on its way).
    pub stale: bool,
    /// The search box's text.
    pub query: &'a str,
}

impl Shell<'_> {
    /// `&root=...` (or nothing) for links inside this root.
    pub fn root_suffix(&self) -> String {
        self.root_param.map(|r| format!("&root={}", enc_query(r))).unwrap_or_default()
    }

    /// `?root=...` (or nothing) for links without other parameters.
    pub fn root_only(&self) -> String {
        self.root_param.map(|r| format!("?root={}", enc_query(r))).unwrap_or_default()
    }

    /// The link to a node's page.
    pub fn node_href(&self, id: &str) -> String {
        format!("/node/{}{}", enc_path(id), self.root_only())
    }

    /// The link to a flow's page.
    pub fn flow_href(&self, id: &str) -> String {
        format!("/flows/{}{}", enc_path(id), self.root_only())
    }

    /// The link to a cluster's page.
    pub fn cluster_href(&self, id: &str) -> String {
        format!("/clusters/{}{}", enc_path(id), self.root_only())
    }

    /// The hidden `root` field a form of this root carries (or nothing).
    pub fn root_input(&self) -> String {
        self.root_param
            .map(|r| format!("<input type=\"hidden\" name=\"root\" value=\"{}\">", esc(r)))
            .unwrap_or_default()
    }

    /// The page with `title` instead of the shell's.
    pub fn page_titled(&self, title: &str, body: &str) -> String {
        Shell { title, ..*self }.page(body)
    }

    /// The whole page: `body` inside the shell.
    pub fn page(&self, body: &str) -> String {
        let mut out = String::with_capacity(body.len() + 2048);
        let root_attr = self.root_param.map(esc).unwrap_or_default();
        let _ = write!(
            out,
            "{head}<body data-root=\"{root_attr}\" data-revision=\"{rev}\">\n<header>\
             <a class=\"brand\" href=\"/\">codegraph</a>\
             <form action=\"/search\" method=\"get\" role=\"search\">\
             <input type=\"search\" name=\"q\" value=\"{q}\" placeholder=\"search symbols, files, routes\" aria-label=\"search\">{root_input}\
             <button type=\"submit\">Search</button></form>\
             <nav><a href=\"/routes{ro}\">routes</a> <a href=\"/tools{ro}\">tools</a> <a href=\"/flows{ro}\">flows</a> <a href=\"/clusters{ro}\">clusters</a> <a href=\"/dag{ro}\">DAG grep</a></nav>\
             <span class=\"rev {fresh}\" title=\"{root}\">revision {rev} · {fresh}</span></header>\n",
            head = head(self.title),
            rev = self.revision,
            q = esc(self.query),
            root_input = self.root_input(),
            ro = self.root_only(),
            fresh = if self.stale { "stale" } else { "fresh" },
            root = esc(self.root),
        );
        if self.stale {
            let _ = writeln!(
                out,
                "<p class=\"banner stale\" id=\"stale\">Stale: the tree changed since revision {} \
                 and a newer revision is being built; this page shows revision {}.</p>",
                self.revision, self.revision
            );
        }
        // Filled by the live script when a newer revision is published.
        out.push_str("<p class=\"banner newer\" id=\"newer\" hidden></p>\n<main>\n");
        out.push_str(body);
        out.push_str(
            "\n</main>\n<script src=\"/assets/live.js\" defer></script>\n</body></html>\n",
        );
        out
    }
}

/// The document up to `<body>`: charset, viewport, title, the stylesheet.
fn head(title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · codegraph</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\n",
        esc(title)
    )
}

/// A page with no snapshot behind it (the roots list, an error).
pub fn bare_page(title: &str, body: &str) -> String {
    format!(
        "{}<body>\n<header><a class=\"brand\" href=\"/\">codegraph</a></header>\n<main>\n{body}\n</main>\n</body></html>\n",
        head(title)
    )
}

/// The stylesheet (`/assets/style.css`).
pub const STYLE: &str = include_str!("assets/style.css");

/// The live script (`/assets/live.js`): polls `/api/revision` and says when a newer revision
/// is published, with a reload link; the page itself never changes under the reader.
pub const LIVE_JS: &str = include_str!("assets/live.js");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_encoding() {
        assert_eq!(esc("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
        assert_eq!(enc_path("sym:ts:src/a b.ts:X.y#1"), "sym:ts:src/a%20b.ts:X.y%231");
        assert_eq!(enc_query("GET /a?b=c&d"), "GET%20/a%3Fb%3Dc%26d");
        assert_eq!(decode("GET%20/a%3Fb%3Dc%26d", false), "GET /a?b=c&d");
        assert_eq!(decode("a+b%2", true), "a b%2");
        assert_eq!(decode("%zz%e2%82%ac", false), "%zz€");
        assert_eq!(
            parse_query("q=Server+start&kind=&root=%2Ftmp%2Fr&x"),
            vec![
                ("q".to_string(), "Server start".to_string()),
                ("kind".to_string(), String::new()),
                ("root".to_string(), "/tmp/r".to_string()),
                ("x".to_string(), String::new()),
            ]
        );
    }
}
