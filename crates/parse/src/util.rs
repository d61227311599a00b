//! Small helpers shared by the tree-sitter providers: text of a node, lines, signatures, doc
//! comments, error counts. Nothing language-specific lives here.

use tree_sitter::{Node, Tree};

/// Longest signature kept, in bytes (cut at a char boundary).
pub const MAX_SIGNATURE: usize = 200;

/// Longest doc comment kept, in bytes (cut at a char boundary).
pub const MAX_DOC: usize = 2000;

/// The source text of a node. Tree-sitter node ranges always lie on char boundaries of the text
/// they came from, so this only yields "" for a tree of some other text.
pub fn text<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// 1-based first line of a node.
pub fn start_line(node: Node<'_>) -> u32 {
    to_u32(node.start_position().row) + 1
}

/// 1-based last line of a node.
pub fn end_line(node: Node<'_>) -> u32 {
    to_u32(node.end_position().row) + 1
}

/// 1-based column (bytes) of a node's start.
pub fn start_col(node: Node<'_>) -> u32 {
    to_u32(node.start_position().column) + 1
}

pub fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Cuts `s` to at most `max` bytes at a char boundary.
pub fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Collapses runs of whitespace to one space and trims.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(MAX_SIGNATURE + 8));
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > MAX_SIGNATURE {
            break;
        }
    }
    truncate(&out, MAX_SIGNATURE).to_string()
}

/// The declaration text of `decl` up to the start of `body` (the whole declaration when there
/// is no body), whitespace collapsed and capped at [`MAX_SIGNATURE`].
pub fn signature(decl: Node<'_>, body: Option<Node<'_>>, src: &str) -> String {
    let start = decl.start_byte();
    let end = body.map_or(decl.end_byte(), |b| b.start_byte()).max(start);
    // Never look at more than a bounded prefix: a huge object literal has no useful signature.
    let end = end.min(start + MAX_SIGNATURE * 4);
    let raw = src.get(start..end).or_else(|| {
        let mut e = end;
        while e > start && !src.is_char_boundary(e) {
            e -= 1;
        }
        src.get(start..e)
    });
    let mut sig = collapse_whitespace(raw.unwrap_or(""));
    while sig.ends_with(['{', '=', ' ']) {
        sig.pop();
    }
    sig
}

/// Comment nodes directly above `node` (each on the line right before the next, no blank line
/// in between), outermost first. `is_comment` says which node kinds are comments.
pub fn preceding_comments<'t>(node: Node<'t>, is_comment: impl Fn(&str) -> bool) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut next_line = node.start_position().row;
    let mut cur = node.prev_sibling();
    while let Some(c) = cur {
        if !is_comment(c.kind()) || c.end_position().row + 1 < next_line {
            break;
        }
        // A trailing comment on the previous statement's line is not a doc comment.
        if c.end_position().row == next_line && !out.is_empty() {
            break;
        }
        next_line = c.start_position().row;
        out.push(c);
        cur = c.prev_sibling();
    }
    out.reverse();
    out
}

/// Strips comment markers (`//`, `/*`, `/**`, `*/`, leading `*`) from comment texts and joins
/// the lines; `None` when nothing is left.
pub fn clean_comments<'a>(comments: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut lines: Vec<&str> = Vec::new();
    for c in comments {
        let c = c.trim();
        let body = if let Some(rest) = c.strip_prefix("/*") {
            let rest = rest.strip_prefix('*').unwrap_or(rest);
            rest.strip_suffix("*/").unwrap_or(rest)
        } else {
            c
        };
        for line in body.lines() {
            let l = line.trim();
            let l = l.strip_prefix("//").unwrap_or(l);
            let l = l.strip_prefix('/').unwrap_or(l);
            let l = if l.starts_with('*') && !l.starts_with("*/") { &l[1..] } else { l };
            lines.push(l.trim());
        }
    }
    while lines.first().is_some_and(|l| l.is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return None;
    }
    Some(truncate(&lines.join("\n"), MAX_DOC).to_string())
}

/// The comment lines right above 0-based line `row` of `lines` (contiguous, no blank line
/// between), outermost first, each stripped of the first of `markers` it starts with (and a
/// `/*` one of its closing `*/`), joined by newlines; `None` when there are none. For line
/// comment languages whose grammar keeps comments apart from the declarations they document
/// (HCL, YAML); `lines` is the file's `str::lines`, collected once per file.
pub fn line_comments_above(lines: &[&str], row: usize, markers: &[&str]) -> Option<String> {
    let mut out = Vec::new();
    let mut r = row;
    while r > 0 {
        let line = lines.get(r - 1).map_or("", |l| l.trim());
        let Some((marker, body)) =
            markers.iter().find_map(|m| line.strip_prefix(m).map(|b| (*m, b)))
        else {
            break;
        };
        let body = if marker == "/*" { body.strip_suffix("*/").unwrap_or(body) } else { body };
        out.push(body.trim());
        r -= 1;
    }
    out.reverse();
    let doc = out.join("\n").trim().to_string();
    (!doc.is_empty()).then_some(doc)
}

/// Number of ERROR and MISSING nodes in a tree (0 without walking when the tree is clean).
pub fn count_errors(tree: &Tree) -> u32 {
    let root = tree.root_node();
    if !root.has_error() {
        return 0;
    }
    let mut count = 0u32;
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            count = count.saturating_add(1);
        }
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    count
}

/// A type's text without its `<..>` arguments (`Map.Entry<K, V>[]` -> `Map.Entry[]`,
/// `a::Foo<T, U<V>>` -> `a::Foo`): the Java and Rust providers' (and resolvers') base type.
pub fn strip_angle_args(ty: &str) -> String {
    let mut out = String::with_capacity(ty.len());
    let mut depth = 0u32;
    for c in ty.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A name the languages we read take as an identifier (letters, digits, `_` and `$`, not
/// starting with a digit): what a doc mention can name, what a rename may introduce.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_comment_styles() {
        assert_eq!(clean_comments(["/** Hello\n * world\n */"]).as_deref(), Some("Hello\nworld"));
        assert_eq!(clean_comments(["// a", "// b"]).as_deref(), Some("a\nb"));
        assert_eq!(clean_comments(["/// x"]).as_deref(), Some("x"));
        assert_eq!(clean_comments(["/* */"]), None);
    }

    #[test]
    fn collapses_and_truncates() {
        assert_eq!(collapse_whitespace("  a \n\t b  "), "a b");
        let long = "é".repeat(300);
        assert!(collapse_whitespace(&long).len() <= MAX_SIGNATURE);
        assert_eq!(truncate("héllo", 2), "h");
    }
}
