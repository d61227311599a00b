//! Parse repair for constructs the TypeScript compiler accepts and tree-sitter-typescript
//! rejects. A file that parses with errors is rewritten in ways that keep every token that
//! stays on its line and column (a `;` inserted where a line's code ends, a keyword blanked
//! with spaces), parsed again, and extracted from the repaired text when that has fewer
//! errors ([`super::TsProvider`]). Facts carry lines and columns only, so they point at the
//! original text; the file gets a `parse-repaired` note.
//!
//! The constructs (each has a fixture in `tests/tests/provider_ts.rs`):
//! - a generic call signature on the line after another member with no `;` (`{ <A>(a: A): A`
//!   newline `<B>(b: B): B }`, tree-sitter-typescript issue #335), comment lines and blank
//!   lines between them allowed: `;` after the previous member's line;
//! - an import type with type arguments (`import('./x').T<U>`): `import('./x').` blanked, so
//!   the type reads `T<U>`;
//! - variance annotations on type parameters (`<in out T>`): `in` / `out` blanked;
//! - `export type * from './x'` (and `* as ns`): `type` blanked;
//! - an escape in a template literal type (`` type M = `a \`b\` c` ``), which the grammar's
//!   template type does not lex: the escape blanked (its text is no fact).

/// The repaired text and how many edits it took; `None` when no construct was found.
pub(super) fn repair(text: &str) -> Option<(String, u32)> {
    let mut edits = 0;
    let mut out = blank_import_type_qualifiers(text, &mut edits);
    out = blank_variance_and_type_star(&out, &mut edits);
    out = separate_call_signatures(&out, &mut edits);
    out = blank_template_type_escapes(&out, &mut edits);
    (edits > 0).then_some((out, edits))
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// `import('./x').T<` -> `              T<` (same length).
fn blank_import_type_qualifiers(text: &str, edits: &mut u32) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while let Some(found) = text[i..].find("import(") {
        let start = i + found;
        i = start + 7;
        if start > 0 && is_ident(bytes[start - 1]) {
            continue;
        }
        // import( 'literal' ) . Ident <
        let mut j = start + 7;
        while j < bytes.len() && bytes[j] == b' ' {
            j += 1;
        }
        let Some(&quote) = bytes.get(j).filter(|q| matches!(q, b'\'' | b'"')) else { continue };
        let Some(close) = text[j + 1..].find(quote as char).map(|k| j + 1 + k) else { continue };
        if text[j + 1..close].contains('\n') {
            continue;
        }
        let mut k = close + 1;
        while k < bytes.len() && bytes[k] == b' ' {
            k += 1;
        }
        if bytes.get(k) != Some(&b')') || bytes.get(k + 1) != Some(&b'.') {
            continue;
        }
        let name_start = k + 2;
        let mut m = name_start;
        while m < bytes.len() && is_ident(bytes[m]) {
            m += 1;
        }
        // `T<U>` or `T[]`: a type (`import('x')` as a value is followed by `.then(`).
        if m == name_start || !matches!(bytes.get(m), Some(b'<' | b'[')) {
            continue;
        }
        for b in &mut out[start..name_start] {
            *b = b' ';
        }
        *edits += 1;
        i = m;
    }
    // Only ASCII bytes were replaced by spaces: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// `<in out T` -> `<       T` after `<` or `,` in a type parameter list, and
/// `export type *` -> `export      *`.
fn blank_variance_and_type_star(text: &str, edits: &mut u32) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    // Bytes, not `str` slices: `i` may fall inside a multi-byte character.
    let word_at = |i: usize, w: &str| {
        bytes.get(i..).is_some_and(|rest| rest.starts_with(w.as_bytes()))
            && bytes.get(i + w.len()).is_some_and(|&b| b == b' ')
            && (i == 0 || !is_ident(bytes[i - 1]))
    };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' || bytes[i] == b',' {
            // Skip white space (a long parameter list puts one per line), then any run of
            // `in ` / `out ` followed by an identifier.
            let mut j = i + 1;
            loop {
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                // Comments between parameters (`/** @ts-expect-error */`, `///`).
                if bytes[j..].starts_with(b"//") {
                    j += bytes[j..].iter().position(|&b| b == b'\n').unwrap_or(bytes.len() - j);
                } else if bytes[j..].starts_with(b"/*") {
                    match text.get(j + 2..).and_then(|r| r.find("*/")) {
                        Some(end) => j += 2 + end + 2,
                        None => break,
                    }
                } else {
                    break;
                }
            }
            let mut blanked = false;
            loop {
                let w = if word_at(j, "in") {
                    2
                } else if word_at(j, "out") {
                    3
                } else {
                    break;
                };
                let mut k = j + w;
                while k < bytes.len() && bytes[k] == b' ' {
                    k += 1;
                }
                // The parameter's name must follow (not `in` as a name: `<in>`, `<in,`), and
                // then what may follow a type parameter's name (not `out as T`: an argument).
                if !bytes.get(k).is_some_and(|&b| is_ident(b)) || word_at(k, "extends") {
                    break;
                }
                let mut e = k;
                while e < bytes.len() && is_ident(bytes[e]) {
                    e += 1;
                }
                while e < bytes.len() && bytes[e].is_ascii_whitespace() {
                    e += 1;
                }
                let ends_parameter = matches!(bytes.get(e), Some(b',' | b'>' | b'='))
                    || (bytes.get(e..).is_some_and(|r| r.starts_with(b"extends"))
                        && bytes.get(e + 7).is_some_and(u8::is_ascii_whitespace))
                    || word_at(e, "out")
                    || (w == 2 && bytes[k..e].starts_with(b"out"));
                if !ends_parameter {
                    break;
                }
                for b in &mut out[j..j + w] {
                    *b = b' ';
                }
                blanked = true;
                j = k;
            }
            // Only inside what looks like a type parameter list: an identifier before `<`.
            if blanked && bytes[i] == b'<' && !(i > 0 && is_ident(bytes[i - 1])) {
                out[i + 1..j].copy_from_slice(&bytes[i + 1..j]);
                blanked = false;
            }
            if blanked {
                *edits += 1;
            }
        }
        if word_at(i, "export") {
            let mut j = i + 6;
            while j < bytes.len() && bytes[j] == b' ' {
                j += 1;
            }
            if word_at(j, "type") {
                let mut k = j + 4;
                while k < bytes.len() && bytes[k] == b' ' {
                    k += 1;
                }
                if bytes.get(k) == Some(&b'*') {
                    for b in &mut out[j..j + 4] {
                        *b = b' ';
                    }
                    *edits += 1;
                }
            }
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// `type M<T> = `a \`b\` ${T}`` -> the escapes (`\`` here) as spaces: a template literal
/// that is a type alias's whole value (the `=` of a line starting `type` / `export type`,
/// the template on that line or the next). Substitutions `${...}` are skipped whole.
fn blank_template_type_escapes(text: &str, edits: &mut u32) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        // The code before the backtick: `=` then only whitespace, on a `type` line.
        let before = text[..i].trim_end();
        let decl_line = before.rfind('\n').map_or(0, |k| k + 1);
        let head = text[decl_line..].trim_start();
        let is_type = before.ends_with('=')
            && (head.starts_with("type ") || head.starts_with("export type "));
        // Find the template's end (skipping substitutions), blanking escapes when a type.
        let mut j = i + 1;
        let mut depth = 0u32;
        let mut blanked = false;
        while j < bytes.len() {
            match bytes[j] {
                b'\\' if depth == 0 => {
                    if is_type && j + 1 < bytes.len() && bytes[j + 1].is_ascii() {
                        out[j] = b' ';
                        if bytes[j + 1] != b'\n' {
                            out[j + 1] = b' ';
                        }
                        blanked = true;
                    }
                    j += 2;
                    continue;
                }
                b'`' if depth == 0 => break,
                b'$' if depth == 0 && bytes.get(j + 1) == Some(&b'{') => {
                    depth = 1;
                    j += 2;
                    continue;
                }
                b'{' if depth > 0 => depth += 1,
                b'}' if depth > 0 => depth -= 1,
                _ => {}
            }
            j += 1;
        }
        if blanked {
            *edits += 1;
        }
        i = j + 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// A line that starts (after indentation) with a generic call signature `<T...>(` or
/// `<T>(`, after a line whose code does not end a member: `;` after that code.
fn separate_call_signatures(text: &str, edits: &mut u32) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Blank lines and comment lines (a doc comment between overloads is the rule in
    // libraries that document each signature) stand between two members.
    let no_code = |l: &str| {
        let t = l.trim();
        t.is_empty() || t.starts_with("//") || t.starts_with("/*") || t.starts_with('*')
    };
    // `<A>(a: A): A`, or a type parameter list written one per line (`<` alone, then names).
    let starts_signature = |m: usize| {
        let t = lines[m].trim();
        let name_follows = |rest: &str| {
            rest.trim_start()
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'$')
        };
        (t.starts_with('<') && name_follows(&t[1..]) && t.contains(">("))
            || (t == "<" && lines.get(m + 1).is_some_and(|l| name_follows(l)))
    };
    let mut out = String::with_capacity(text.len() + 16);
    for (n, line) in lines.iter().enumerate() {
        let next_starts_signature = !no_code(line)
            && (n + 1..lines.len()).find(|&m| !no_code(lines[m])).is_some_and(starts_signature);
        if !next_starts_signature {
            out.push_str(line);
            continue;
        }
        // Where this line's code ends: before a `//` comment (outside quotes, roughly) and
        // trailing spaces.
        let body = line.trim_end_matches(['\n', '\r']);
        let code_end = comment_start(body).unwrap_or(body.len());
        let code = body[..code_end].trim_end();
        let last = code.bytes().last();
        let ends_member = matches!(
            last,
            None | Some(
                b';' | b',' | b'{' | b'(' | b'[' | b'|' | b'&' | b'=' | b':' | b'?' | b'/' | b'<'
            )
        );
        // `=> ` at a line's end: the arrow's body (a generic function) is on the next line.
        if ends_member || code.ends_with("=>") {
            out.push_str(line);
            continue;
        }
        out.push_str(code);
        out.push(';');
        out.push_str(&line[code.len()..]);
        *edits += 1;
    }
    out
}

/// The byte where a `//` comment starts on a line, ignoring `//` inside quotes.
fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if matches!(b, b'\'' | b'"' | b'`') => quote = Some(b),
            None if b == b'/' && bytes.get(i + 1) == Some(&b'/') => return Some(i),
            None => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::repair;

    #[test]
    fn each_construct_keeps_lines_and_columns() {
        let src = "interface F {\n  <A>(a: A): Array<A> // one\n  <B>(b: B): B\n}\n";
        let (out, n) = repair(src).expect("repaired");
        assert_eq!(out, "interface F {\n  <A>(a: A): Array<A>; // one\n  <B>(b: B): B\n}\n");
        assert_eq!(n, 1);

        // Doc comments and blank lines between the two signatures.
        let src = "const f: {\n  (n: number): <A>(a: A) => A[]\n  /**\n   * Doc.\n   */\n\n  <A>(a: A): A[]\n} = g\n";
        let (out, n) = repair(src).expect("repaired");
        assert_eq!(out, src.replacen("=> A[]\n", "=> A[];\n", 1));
        assert_eq!(n, 1);

        let src = "type K = import('./HKT').Kind<'IO', B>\n";
        let (out, n) = repair(src).expect("repaired");
        assert_eq!(
            out,
            format!("type K = {}Kind<'IO', B>\n", " ".repeat("import('./HKT').".len()))
        );
        assert_eq!((out.len(), n), (src.len(), 1));

        let src = "declare function f<in out T, out U extends V>(x: T): T\n";
        let (out, _) = repair(src).expect("repaired");
        assert_eq!(out, "declare function f<       T,     U extends V>(x: T): T\n");

        // Escapes in a template literal type; a value template keeps its escapes.
        let src = "type M<U> =\n  `no \\`Self\\` - ${U}<{ a }>\\``\nconst s = `a \\`b\\``\n";
        let (out, n) = repair(src).expect("repaired");
        assert_eq!(out, "type M<U> =\n  `no   Self   - ${U}<{ a }>  `\nconst s = `a \\`b\\``\n");
        assert_eq!((out.len(), n), (src.len(), 1));

        // Type arguments that are generic function types (`dual<` newline `<A>(a: A) => A`)
        // are no members; a type parameter list one per line starts a signature.
        let src =
            "const d: {\n  <A>(a: A): A\n} = dual<\n  <A>(a: A) => A,\n  <A>(a: A) => A\n>(1, f)\n";
        assert_eq!(repair(src), None);
        let src = "interface U {\n  (a: A): B\n  <\n    C\n  >(c: C): C\n}\n";
        let (out, _) = repair(src).expect("repaired");
        assert_eq!(out, src.replacen("B\n", "B;\n", 1));

        let src = "interface C<\n  out A,\n  in B = unknown\n> {}\n";
        let (out, n) = repair(src).expect("repaired");
        assert_eq!(out, "interface C<\n      A,\n     B = unknown\n> {}\n");
        assert_eq!(n, 2);

        let (out, _) = repair("export type * from './x'\n").expect("repaired");
        assert_eq!(out, "export      * from './x'\n");

        // Multi-byte text around the constructs is kept as it is.
        let src = "/** a ← b */\ndeclare function f<in T>(x: T): T // é\n";
        let (out, _) = repair(src).expect("repaired");
        assert_eq!(out, "/** a ← b */\ndeclare function f<   T>(x: T): T // é\n");

        // Nothing to repair: none of the constructs, or `in` as a type parameter's name.
        assert_eq!(repair("const a = b < c;\nlet x = import('./a').then(f)\n"), None);
        assert_eq!(repair("type T<in> = in\n"), None);
        assert_eq!(repair("f(a,\n  out as any)\n"), None);
        let src = "type F = {\n  <A>(a: A): <_>(s: S<_>) => A\n  <_, A>(s: S<_>, a: A): A\n}\n";
        assert_eq!(repair(src).map(|(t, _)| t), Some(src.replacen("=> A\n", "=> A;\n", 1)));
        let src = "type G<\n  out C extends\n    X,\n> = C\nlet l: import('./log').Log[]\n";
        let (out, n) = repair(src).expect("repaired");
        assert_eq!(
            out,
            format!("type G<\n      C extends\n    X,\n> = C\nlet l: {}Log[]\n", " ".repeat(16))
        );
        assert_eq!(n, 2);
        let src = "const r = <R>(rt: R) =>\n  <A>(a: A) => a\n";
        assert_eq!(repair(src), None);
    }
}
