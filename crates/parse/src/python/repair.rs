//! Parse repair for Python that CPython accepts and tree-sitter-python rejects. A file that
//! parses with errors is rewritten without changing its length or its line breaks, parsed
//! again, and extracted from the repaired text when that has fewer errors
//! ([`super::PythonProvider`]); the file gets a `parse-repaired` note.
//!
//! The construct: an attribute access broken after its `.` inside brackets, where the next
//! line is indented less than the line of the `.` (`(bar.` newline, dedented, `baz)`).
//! Inside brackets indentation means nothing, but the grammar's scanner emits a dedent there
//! and the enclosing block ends (CPython's own `test_compile.py` has it). The `.` moves to
//! just before the name on the next line (`bar` newline `.baz`): the same tokens, every line
//! kept, the name's column one to the right.

/// The repaired text and how many edits it took; `None` when no construct was found.
pub(super) fn repair(text: &str) -> Option<(String, u32)> {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut edits = 0u32;
    let mut line_start = 0usize;
    while line_start < bytes.len() {
        let line_end = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |p| line_start + p);
        if let Some(edit) = dot_before_dedent(bytes, line_start, line_end) {
            // Rotate `.`, the line break and the indentation one byte left: the `.` lands
            // right before the name.
            out[edit.0..edit.1].rotate_left(1);
            edits += 1;
        }
        line_start = line_end + 1;
    }
    if edits == 0 {
        return None;
    }
    // Only ASCII bytes moved, and only among themselves: the text stays UTF-8.
    String::from_utf8(out).ok().map(|s| (s, edits))
}

/// For a line whose code ends with `name.` and whose next line starts, indented less, with a
/// name: the byte range from that `.` to the start of the name.
fn dot_before_dedent(bytes: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let line = &bytes[start..end];
    let code_end = line.iter().rposition(|b| !b.is_ascii_whitespace())?;
    // A `#` before it: most likely a comment that ends a sentence.
    if line[code_end] != b'.' || code_end == 0 || line[..code_end].contains(&b'#') {
        return None;
    }
    // The `.` follows a name (not a number: `1.` is a float) or a closing bracket.
    let word = line[..code_end]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let after_name = word > 0 && !line[code_end - word].is_ascii_digit();
    if !(after_name || matches!(line[code_end - 1], b')' | b']')) {
        return None;
    }
    let indent = line.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
    let next = end + 1;
    if next >= bytes.len() {
        return None;
    }
    let next_indent = bytes[next..].iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
    let name = next + next_indent;
    let first = *bytes.get(name)?;
    if next_indent >= indent || !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    // Trailing whitespace after the `.` moves with it; the range ends at the name.
    Some((start + code_end, name))
}

#[cfg(test)]
mod tests {
    use super::repair;

    #[test]
    fn a_dot_before_a_dedented_line_moves_to_the_name() {
        let src = "def f():\n    (bar.\n  baz)\n    return 1\n";
        let (out, n) = repair(src).expect("repaired");
        assert_eq!(n, 1);
        assert_eq!(out, "def f():\n    (bar\n  .baz)\n    return 1\n");
        assert_eq!(out.len(), src.len());
        let (out, _) = repair("def f():\n    x = (bar.\nbaz)\n").expect("repaired");
        assert_eq!(out, "def f():\n    x = (bar\n.baz)\n");
    }

    #[test]
    fn other_line_ends_are_left_alone() {
        // Same or deeper indentation parses as it is; a `.` after no name is no attribute.
        assert_eq!(repair("x = (bar.\n    baz)\n"), None);
        assert_eq!(repair("def f():\n    x = (bar.\n        baz)\n"), None);
        assert_eq!(repair("def f():\n    x = 1.\n  y\n"), None);
        assert_eq!(repair("def f():\n    x = (bar.\n  1)\n"), None);
        assert_eq!(repair("x = a."), None);
        assert_eq!(repair("def f():\n    g()  # no errors.\n  x\n"), None);
    }
}
