//! Identifier splitting for full-text search: `parseHTTPRequest_v2` -> `parse http request v2`.
//!
//! FTS5's unicode61 tokenizer keeps `parseHTTPRequest` as one token, so a search for "request"
//! would miss it; the `terms` column holds the split words of names and paths.

/// Splits identifiers at case changes and non-alphanumerics, lowercased and space-joined.
/// Digits stay with the word before them (`v2`, `base64 encode`).
pub fn split_identifiers(text: &str) -> String {
    let mut out = String::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let chars: Vec<char> = word.chars().collect();
        let mut start = 0;
        for i in 1..=chars.len() {
            let boundary = i == chars.len() || {
                let (prev, cur) = (chars[i - 1], chars[i]);
                let next = chars.get(i + 1).copied();
                (prev.is_lowercase() && cur.is_uppercase())
                    || (prev.is_uppercase()
                        && cur.is_uppercase()
                        && next.is_some_and(|n| n.is_lowercase()))
                    || (prev.is_numeric() && cur.is_uppercase())
            };
            if boundary {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.extend(chars[start..i].iter().flat_map(|c| c.to_lowercase()));
                start = i;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_identifiers;

    #[test]
    fn splits_camel_snake_and_acronyms() {
        assert_eq!(split_identifiers("parseHTTPRequest_v2"), "parse http request v2");
        assert_eq!(split_identifiers("Server.ServeHTTP"), "server serve http");
        assert_eq!(split_identifiers("net/http/server.go"), "net http server go");
        assert_eq!(split_identifiers("__init__"), "init");
        assert_eq!(split_identifiers("base64Encode"), "base64 encode");
        assert_eq!(split_identifiers(""), "");
    }
}
