//! Where a name stands on a line of source: the columns of a whole word, of a name a
//! reference edge points at (a member where it is selected, `x.name`), and whether a column
//! lies inside a string literal.
//!
//! Why it exists: the graph records a reference by its line only (facts hold no byte
//! offsets), so the two answers that need exact columns, rename plans (`rename`) and SCIP
//! occurrences (`scip`), find the name on the recorded line the same way, here.

use codegraph_schema::EdgeKind;

/// The edge kinds whose line names their target where the reference is written (a call, a
/// value or type named, a field read, an import, a supertype): where rename plans edit and
/// SCIP references point. Rename adds the route and tool handlers a registration names.
pub const NAMED_REFERENCE_KINDS: &[EdgeKind] = &[
    EdgeKind::Calls,
    EdgeKind::RefersTo,
    EdgeKind::Accesses,
    EdgeKind::Imports,
    EdgeKind::Extends,
    EdgeKind::Implements,
    EdgeKind::Embeds,
];

/// The columns of `word` on a line an edge says references the target: a member's where it
/// is selected (`x.name`) when the line has such, else all; a non-member's where it is not
/// selected when the line has such (`func f(c context.Context) *Context`), else all (a
/// package-qualified use, `gin.New`).
pub fn reference_columns(text: &str, word: &str, member: bool) -> Vec<usize> {
    reference_columns_except(text, word, member, &[])
}

/// [`reference_columns`] without the columns `except` (the declarations of other symbols of
/// the name on the line: `func (s *Server) Client() *http.Client` names the type `Client` once).
pub fn reference_columns_except(
    text: &str,
    word: &str,
    member: bool,
    except: &[usize],
) -> Vec<usize> {
    let mut cols = word_columns(text, word);
    cols.retain(|c| !except.contains(c));
    let chars: Vec<char> = text.chars().collect();
    let selected = |c: &usize| selected_at(&chars, *c);
    let wanted: Vec<usize> = cols.iter().copied().filter(|c| selected(c) == member).collect();
    if wanted.is_empty() { cols } else { wanted }
}

/// Whether the name at character column `col` is selected (`x.name`, `f().name`), not
/// spread or variadic (`...name`).
pub fn selected_at(chars: &[char], col: usize) -> bool {
    col > 0 && chars[col - 1] == '.' && (col < 2 || chars[col - 2] != '.')
}

/// The receiver written before a selected name at character column `col` (`this` in
/// `this.name`, `opts` in `opts?.name`), if the name is selected from an identifier.
pub fn receiver_before(text: &str, col: usize) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut end = col.checked_sub(1).filter(|&i| chars.get(i) == Some(&'.'))?;
    if end > 0 && chars[end - 1] == '?' {
        end -= 1;
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let start = chars[..end].iter().rposition(|&c| !is_ident(c)).map_or(0, |i| i + 1);
    (start < end).then(|| chars[start..end].iter().collect())
}

/// Whether the name at character column `col` is what a `new` expression constructs:
/// `new X(`, `new ns.X(`.
pub fn after_new(text: &str, col: usize) -> bool {
    let before: String = text.chars().take(col).collect();
    let is_path = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '.';
    let rest = before.trim_end_matches(is_path).trim_end();
    rest.strip_suffix("new")
        .is_some_and(|r| !r.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$'))
}

/// Character columns (0-based) where `word` stands as a whole word in `text`.
pub fn word_columns(text: &str, word: &str) -> Vec<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let chars: Vec<char> = text.chars().collect();
    let w: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    if w.is_empty() || chars.len() < w.len() {
        return out;
    }
    for i in 0..=chars.len() - w.len() {
        if chars[i..i + w.len()] == w[..]
            && (i == 0 || !is_ident(chars[i - 1]))
            && chars.get(i + w.len()).is_none_or(|&c| !is_ident(c))
        {
            out.push(i);
        }
    }
    out
}

/// The string literals of a line that close on it: character columns `[start, end)` with
/// their quotes, and the text between the quotes (escapes left as written).
pub fn string_literals(line: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    let mut escaped = false;
    let mut content = String::new();
    for (i, c) in line.chars().enumerate() {
        match open {
            Some(_) if escaped => {
                escaped = false;
                content.push(c);
            }
            Some(_) if c == '\\' => {
                escaped = true;
                content.push(c);
            }
            Some((q, start)) if c == q => {
                out.push((start, i + 1, std::mem::take(&mut content)));
                open = None;
            }
            Some(_) => content.push(c),
            None if c == '"' || c == '\'' || c == '`' => open = Some((c, i)),
            None => {}
        }
    }
    out
}

/// Brackets (`(`, `[`, `{`) a line opens and does not close, outside strings: how many lines
/// a statement that starts on it goes on for is where this count, summed, comes back to 0.
pub fn open_brackets(line: &str) -> i32 {
    // One pass with the string state of [`in_string`] (asking it per bracket was quadratic in
    // the line's length: most of a SCIP export's time on long generated lines).
    let mut depth = 0;
    let mut open: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match open {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => open = None,
            Some(_) => {}
            None => match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                '"' | '\'' | '`' => open = Some(c),
                _ => {}
            },
        }
    }
    depth
}

/// Whether character column `col` of `line` lies inside a string literal (quotes `"`, `'`
/// and backticks, with backslash escapes) opened earlier on the line.
pub fn in_string(line: &str, col: usize) -> bool {
    let mut open: Option<char> = None;
    let mut escaped = false;
    for c in line.chars().take(col) {
        match open {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => open = None,
            Some(_) => {}
            None if c == '"' || c == '\'' || c == '`' => open = Some(c),
            None => {}
        }
    }
    open.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use codegraph_parse::is_identifier;

    #[test]
    fn whole_words_only() {
        assert_eq!(word_columns("log(x); logger.log(y); catalog", "log"), [0, 15]);
        assert_eq!(word_columns("$log log_x", "log"), Vec::<usize>::new());
        assert_eq!(word_columns("é log", "log"), [2]);
        assert!(is_identifier("logMessage") && is_identifier("_x") && !is_identifier("1x"));
        assert!(!is_identifier("a-b") && !is_identifier(""));
        let line = r#"import { greet } from "./greet"; f('it\'s greet')"#;
        let cols = word_columns(line, "greet");
        let strings: Vec<bool> = cols.iter().map(|&c| in_string(line, c)).collect();
        assert_eq!(strings, [false, true, true]);
        let line = "a = opts?.timeout ?? this.timeout + x.y.timeout + (f()).timeout";
        let receivers: Vec<Option<String>> =
            word_columns(line, "timeout").into_iter().map(|c| receiver_before(line, c)).collect();
        let some = |s: &str| Some(s.to_string());
        assert_eq!(receivers, [some("opts"), some("this"), some("y"), None]);
        assert_eq!(receiver_before("timeout", 0), None);
        let line = "x: A = new A(renew A) as A; new ns.A()";
        let built: Vec<bool> =
            word_columns(line, "A").into_iter().map(|c| after_new(line, c)).collect();
        assert_eq!(built, [false, true, false, false, true]);
        let line = r#"import { a } from './a.js'; f("it\"s", `t`)"#;
        let strings: Vec<(usize, usize, String)> = string_literals(line);
        let s = |a: usize, b: usize, t: &str| (a, b, t.to_string());
        assert_eq!(strings, [s(18, 26, "./a.js"), s(30, 37, r#"it\"s"#), s(39, 42, "t")]);
        assert_eq!(open_brackets("import {"), 1);
        assert_eq!(open_brackets("f(a, '(', [b]) {"), 1);
        assert_eq!(open_brackets("} from './x';"), -1);
    }
}
