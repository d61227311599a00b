//! JSON with comments and trailing commas (tsconfig.json is JSONC): comments and trailing commas
//! are blanked out, then `serde_json` parses the rest. Never fails loudly: bad input is `None`.

use serde_json::Value;

/// Parses JSONC text; `None` when it is not valid even after cleanup.
pub(crate) fn parse(text: &str) -> Option<Value> {
    serde_json::from_str(&clean(text)).ok()
}

/// Removes `//` and `/* */` comments (outside strings) and commas followed only by whitespace
/// and a closing bracket.
fn clean(text: &str) -> String {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            out.push(c);
            if c == b'\\' && i + 1 < b.len() {
                out.push(b[i + 1]);
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_str = true;
                out.push(c);
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
                out.push(b' ');
            }
            b',' => {
                let mut j = i + 1;
                // Look past whitespace and comments for a closing bracket.
                loop {
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'/') {
                        while j < b.len() && b[j] != b'\n' {
                            j += 1;
                        }
                    } else if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'*') {
                        j += 2;
                        while j < b.len() && !(b[j] == b'*' && b.get(j + 1) == Some(&b'/')) {
                            j += 1;
                        }
                        j += 2;
                    } else {
                        break;
                    }
                }
                if !matches!(b.get(j), Some(b'}' | b']')) {
                    out.push(c);
                }
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn comments_and_trailing_commas() {
        let v = parse(
            "{ // c\n \"a\": \"x//y\", /* b */ \"b\": [1, 2,],\n \"c\": {\"d\": 1, /* e */ }, }",
        );
        let v = v.expect("valid jsonc");
        assert_eq!(v["a"], "x//y");
        assert_eq!(v["b"][1], 2);
        assert_eq!(v["c"]["d"], 1);
        assert!(parse("{").is_none());
    }
}
