//! The structured properties of a route or tool node, one typed struct stored as JSON in the
//! node's `props` column.
//!
//! Why it exists: the resolver writes them and the read model answers from them (route impact,
//! tool context, exports); one type on both sides means a property added or renamed on one side
//! cannot be silently dropped by the other. The JSON is written and read here without a
//! dependency (the resolver and the store must not link serde); it is the exact JSON a
//! serializer would write, so any JSON tool reads the column.

use crate::NodeKind;
use std::fmt::Write as _;

/// A route's or tool's properties. Absent values are left out of the JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndpointProps {
    /// [`NodeKind::Route`] or [`NodeKind::Tool`].
    pub kind: NodeKind,
    /// The framework or SDK that registers it (`express`, `net/http`, `mcp-sdk`...).
    pub framework: String,
    /// Routes: the HTTP method (`ANY` when any; `GRPC` for a gRPC method: path `/pkg.Service/Method`).
    pub method: Option<String>,
    /// Routes: the normalized path (`/users/:id`).
    pub path: Option<String>,
    /// Tools: the tool name.
    pub name: Option<String>,
    /// Tools: the name is the expression as written; no value could be read from it.
    pub name_is_expression: bool,
    /// Tools: the input fields.
    pub fields: Vec<String>,
    pub middleware: Vec<String>,
    /// Top-level keys of literal JSON responses.
    pub response_keys: Vec<String>,
    /// Literal status codes.
    pub status_codes: Vec<u16>,
    /// Mounted routes: where the route itself is registered (`file:line`).
    pub registered: Option<String>,
    /// Mounted routes: the prefix they are served under.
    pub mounted_under: Option<String>,
}

impl EndpointProps {
    /// Empty properties of a route or tool.
    pub fn new(kind: NodeKind, framework: &str) -> EndpointProps {
        EndpointProps {
            kind,
            framework: framework.to_string(),
            method: None,
            path: None,
            name: None,
            name_is_expression: false,
            fields: Vec::new(),
            middleware: Vec::new(),
            response_keys: Vec::new(),
            status_codes: Vec::new(),
            registered: None,
            mounted_under: None,
        }
    }

    /// The stored form: one JSON object, keys in a fixed order, absent values left out.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        put_str(&mut out, "kind", self.kind.as_str());
        put_str(&mut out, "framework", &self.framework);
        for (key, v) in [("method", &self.method), ("path", &self.path), ("name", &self.name)] {
            if let Some(v) = v {
                put_str(&mut out, key, v);
            }
        }
        if self.name_is_expression {
            put_key(&mut out, "name_is_expression");
            out.push_str("true");
        }
        for (key, v) in [
            ("fields", &self.fields),
            ("middleware", &self.middleware),
            ("response_keys", &self.response_keys),
        ] {
            if !v.is_empty() {
                put_key(&mut out, key);
                out.push('[');
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    quote(&mut out, x);
                }
                out.push(']');
            }
        }
        if !self.status_codes.is_empty() {
            put_key(&mut out, "status_codes");
            let codes: Vec<String> = self.status_codes.iter().map(u16::to_string).collect();
            let _ = write!(out, "[{}]", codes.join(","));
        }
        for (key, v) in [("registered", &self.registered), ("mounted_under", &self.mounted_under)] {
            if let Some(v) = v {
                put_str(&mut out, key, v);
            }
        }
        out.push('}');
        out
    }

    /// Reads the stored form back; `None` when it is not valid props (a foreign or corrupt
    /// value is left out of answers, never guessed at). Unknown keys are skipped.
    pub fn parse(text: &str) -> Option<EndpointProps> {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let mut kind = None;
        let mut out = EndpointProps::new(NodeKind::Route, "");
        let mut framework = None;
        p.expect(b'{')?;
        if !p.eat(b'}') {
            loop {
                let key = p.string()?;
                p.expect(b':')?;
                match key.as_str() {
                    "kind" => kind = Some(NodeKind::parse(&p.string()?)?),
                    "framework" => framework = Some(p.string()?),
                    "method" => out.method = Some(p.string()?),
                    "path" => out.path = Some(p.string()?),
                    "name" => out.name = Some(p.string()?),
                    "name_is_expression" => out.name_is_expression = p.boolean()?,
                    "fields" => out.fields = p.list(Parser::string)?,
                    "middleware" => out.middleware = p.list(Parser::string)?,
                    "response_keys" => out.response_keys = p.list(Parser::string)?,
                    "status_codes" => out.status_codes = p.list(Parser::code)?,
                    "registered" => out.registered = Some(p.string()?),
                    "mounted_under" => out.mounted_under = Some(p.string()?),
                    _ => p.skip_value(0)?,
                }
                if p.eat(b'}') {
                    break;
                }
                p.expect(b',')?;
            }
        }
        p.ws();
        if p.i != p.s.len() {
            return None;
        }
        out.kind = kind?;
        out.framework = framework?;
        Some(out)
    }
}

fn put_key(out: &mut String, key: &str) {
    if out.len() > 1 {
        out.push(',');
    }
    quote(out, key);
    out.push(':');
}

fn put_str(out: &mut String, key: &str, v: &str) {
    put_key(out, key);
    quote(out, v);
}

/// `v` as a JSON string.
fn quote(out: &mut String, v: &str) {
    out.push('"');
    for c in v.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Just enough JSON for [`EndpointProps::parse`]: objects, arrays, strings, integers,
/// booleans and null, nested at most [`MAX_DEPTH`] deep.
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

const MAX_DEPTH: u32 = 16;

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        self.eat(b).then_some(())
    }

    fn string(&mut self) -> Option<String> {
        self.expect(b'"')?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let b = *self.s.get(self.i)?;
            self.i += 1;
            match b {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hi = self.hex4()?;
                            if (0xD800..0xDC00).contains(&hi) {
                                // A surrogate pair: `\uD83D\uDE00`.
                                if self.s.get(self.i..self.i + 2)? != b"\\u" {
                                    return None;
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return None;
                                }
                                char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?
                            } else {
                                char::from_u32(hi)?
                            }
                        }
                        _ => return None,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                b if b < 0x20 => return None,
                b => out.push(b),
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = std::str::from_utf8(self.s.get(self.i..self.i + 4)?).ok()?;
        self.i += 4;
        u32::from_str_radix(digits, 16).ok()
    }

    fn code(&mut self) -> Option<u16> {
        self.ws();
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).ok()?.parse().ok()
    }

    fn boolean(&mut self) -> Option<bool> {
        self.ws();
        for (word, v) in [(&b"true"[..], true), (&b"false"[..], false)] {
            if self.s[self.i..].starts_with(word) {
                self.i += word.len();
                return Some(v);
            }
        }
        None
    }

    fn list<T>(&mut self, item: fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.expect(b'[')?;
        let mut out = Vec::new();
        if self.eat(b']') {
            return Some(out);
        }
        loop {
            out.push(item(self)?);
            if self.eat(b']') {
                return Some(out);
            }
            self.expect(b',')?;
        }
    }

    /// Skips any value (of a key this build does not know).
    fn skip_value(&mut self, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        match *self.s.get(self.i)? {
            b'"' => self.string().map(drop),
            b'{' => {
                self.i += 1;
                if self.eat(b'}') {
                    return Some(());
                }
                loop {
                    self.string()?;
                    self.expect(b':')?;
                    self.skip_value(depth + 1)?;
                    if self.eat(b'}') {
                        return Some(());
                    }
                    self.expect(b',')?;
                }
            }
            b'[' => {
                self.i += 1;
                if self.eat(b']') {
                    return Some(());
                }
                loop {
                    self.skip_value(depth + 1)?;
                    if self.eat(b']') {
                        return Some(());
                    }
                    self.expect(b',')?;
                }
            }
            b't' | b'f' => self.boolean().map(drop),
            b'n' if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Some(())
            }
            b'-' | b'0'..=b'9' => {
                self.i += 1;
                while self.s.get(self.i).is_some_and(|b| {
                    b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')
                }) {
                    self.i += 1;
                }
                Some(())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_compact_form() {
        let mut p = EndpointProps::new(NodeKind::Route, "express");
        p.method = Some("GET".into());
        p.path = Some("/u/:id".into());
        p.status_codes = vec![200, 404];
        let text = p.to_json();
        assert_eq!(
            text,
            r#"{"kind":"route","framework":"express","method":"GET","path":"/u/:id","status_codes":[200,404]}"#
        );
        assert_eq!(EndpointProps::parse(&text), Some(p));
        assert_eq!(EndpointProps::parse("kind=route"), None);
        assert_eq!(EndpointProps::parse(r#"{"kind":"nope","framework":"x"}"#), None);
        // `kind` and `framework` are required; trailing bytes are not JSON.
        assert_eq!(EndpointProps::parse(r#"{"framework":"x"}"#), None);
        assert_eq!(EndpointProps::parse(r#"{"kind":"tool","framework":"x"} x"#), None);
        assert_eq!(EndpointProps::parse(r#"{"kind":"tool","framework":"x""#), None);
    }

    #[test]
    fn hostile_values_round_trip() {
        let mut p = EndpointProps::new(NodeKind::Tool, "mcp \"sdk\"\\");
        p.name = Some("a\nb\u{1}\t\u{1f}é😀".into());
        p.name_is_expression = true;
        p.fields = vec![String::new(), "x,y]".into()];
        p.registered = Some("src/a b.ts:4".into());
        let text = p.to_json();
        assert_eq!(
            text,
            r#"{"kind":"tool","framework":"mcp \"sdk\"\\","name":"a\nb\u0001\t\u001fé😀","name_is_expression":true,"fields":["","x,y]"],"registered":"src/a b.ts:4"}"#
        );
        assert_eq!(EndpointProps::parse(&text), Some(p));
        // What other writers may produce: spaces, escapes, unknown keys of any shape.
        let other = r#" { "framework" : "\u0065x\ud83d\ude00\/" , "kind":"route",
            "future": {"a": [1, -2.5e3, null, true, {"b": "c"}]}, "status_codes": [ 200 ] } "#;
        let q = EndpointProps::parse(other).expect("valid props");
        assert_eq!((q.kind, q.framework.as_str()), (NodeKind::Route, "ex😀/"));
        assert_eq!(q.status_codes, vec![200]);
        assert_eq!(EndpointProps::parse(r#"{"kind":"route","framework":"\ud83d"}"#), None);
        let big = r#"{"kind":"route","framework":"x","status_codes":[70000]}"#;
        assert_eq!(EndpointProps::parse(big), None);
        let deep = format!(
            r#"{{"kind":"route","framework":"x","d":{}{}}}"#,
            "[".repeat(40),
            "]".repeat(40)
        );
        assert_eq!(EndpointProps::parse(&deep), None);
    }
}
