//! Every tree-sitter node kind and field name the providers use exists in the grammar(s) they
//! run on, so a misspelt name fails here instead of silently never matching.
//!
//! One check for all the ways the providers name grammar things: the id tables
//! (`grammar_ids!` structs, resolved once per grammar) are checked through their `missing`
//! lists by the crate's own unit tests; this test reads the providers' sources and checks the
//! names they spell inline: `child_by_field_name("x")` and the other field helpers, `kind() ==
//! "x"` comparisons, `kind("x")`, `has_token(node, "x")`, the arms of every `match` on a kind
//! and the patterns of every `matches!` on one. A name is valid when one of the file's grammars
//! has it (the TypeScript provider runs on three grammars; a TypeScript-only kind simply never
//! matches in JavaScript).

use std::path::{Path, PathBuf};

fn grammars_of(rel: &str) -> Vec<(&'static str, tree_sitter::Language)> {
    let ts = || -> Vec<(&'static str, tree_sitter::Language)> {
        vec![
            ("typescript", tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()),
            ("tsx", tree_sitter_typescript::LANGUAGE_TSX.into()),
            ("javascript", tree_sitter_javascript::LANGUAGE.into()),
        ]
    };
    let go = || -> Vec<(&'static str, tree_sitter::Language)> {
        vec![("go", tree_sitter_go::LANGUAGE.into())]
    };
    if rel.starts_with("terraform") {
        return vec![("hcl", tree_sitter_hcl::LANGUAGE.into())];
    }
    if rel.starts_with("kubernetes") {
        return vec![("yaml", tree_sitter_yaml::LANGUAGE.into())];
    }
    if rel.starts_with("elixir") {
        return vec![("elixir", tree_sitter_elixir::LANGUAGE.into())];
    }
    if rel.starts_with("java") {
        return vec![("java", tree_sitter_java::LANGUAGE.into())];
    }
    if rel.starts_with("rust") {
        return vec![("rust", tree_sitter_rust::LANGUAGE.into())];
    }
    if rel.starts_with("protobuf") {
        return vec![("proto", tree_sitter_proto::LANGUAGE.into())];
    }
    if rel.starts_with("python") {
        return vec![("python", tree_sitter_python::LANGUAGE.into())];
    }
    if rel.starts_with("shell") {
        return vec![("bash", tree_sitter_bash::LANGUAGE.into())];
    }
    if rel.contains("typescript") || rel.contains("endpoints/ts") {
        ts()
    } else if rel.starts_with("go") || rel.contains("endpoints/go") {
        go()
    } else {
        let mut all = ts();
        all.extend(go());
        all
    }
}

fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("read src").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap_or(&p).display().to_string();
            let text = std::fs::read_to_string(&p).expect("read source");
            // Only product code: tests spell inputs, not grammar names.
            let text = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            (rel, text)
        })
        .collect()
}

/// The `"snake_case"` literals of `text`.
fn literals(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parts: Vec<&str> = text.split('"').collect();
    for (i, w) in parts.iter().enumerate() {
        if i % 2 == 1
            && !w.is_empty()
            && w.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            && !parts[i - 1].ends_with('\\')
        {
            out.push(w.to_string());
        }
    }
    out
}

/// The literal right after each occurrence of `call` (`child_by_field_name(` ...): its first
/// string argument, or the one after the first comma for two-argument helpers.
fn args_after(line: &str, call: &str, second: bool) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in line.match_indices(call) {
        let rest = &line[i + call.len()..];
        let rest = if second { rest.split_once(',').map_or("", |(_, r)| r) } else { rest };
        let rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix('"')
            && let Some((w, _)) = r.split_once('"')
        {
            out.push(w.to_string());
        }
    }
    out
}

#[derive(Debug, PartialEq)]
enum Use {
    Kind,
    Field,
}

/// (line, name, use) of every grammar name a source spells inline.
fn names(text: &str) -> Vec<(usize, String, Use)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    // Open `match <kind> {` blocks: the brace depth of their arms.
    let mut depth: i64 = 0;
    let mut kind_matches: Vec<i64> = Vec::new();
    let mut macro_parens: i64 = 0;
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.split("//").next().unwrap_or("");
        let n = i + 1;
        for call in ["child_by_field_name(", "children_by_field_name(", "field_is(", "is_field("] {
            out.extend(args_after(line, call, false).into_iter().map(|w| (n, w, Use::Field)));
        }
        for call in ["kind() == ", "kind() != ", "kind(pi) == ", "kind(pi) != ", "kind(\""] {
            let call = call.trim_end_matches('"');
            out.extend(args_after(line, call, false).into_iter().map(|w| (n, w, Use::Kind)));
        }
        out.extend(args_after(line, "has_token(", true).into_iter().map(|w| (n, w, Use::Kind)));
        // `matches!(x.kind(), "a" | "b")`, possibly over several lines: up to the macro's
        // closing parenthesis.
        let mut part = line;
        if let Some((_, rest)) = line.split_once("matches!(")
            && rest.split(',').next().is_some_and(|first| first.contains("kind"))
        {
            macro_parens = 1;
            part = rest;
        }
        if macro_parens > 0 {
            let mut end = part.len();
            for (j, c) in part.char_indices() {
                macro_parens += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                if macro_parens == 0 {
                    end = j;
                    break;
                }
            }
            out.extend(literals(&part[..end]).into_iter().map(|w| (n, w, Use::Kind)));
        }
        // Arms of a match on a kind: the patterns before `=>` at the arm depth.
        if let Some(&arm_depth) = kind_matches.last()
            && depth == arm_depth
        {
            let pattern = line.split("=>").next().unwrap_or("");
            let pattern = pattern.split(" if ").next().unwrap_or(pattern);
            if pattern.trim_start().starts_with('"') || pattern.trim_start().starts_with("| \"") {
                out.extend(literals(pattern).into_iter().map(|w| (n, w, Use::Kind)));
            }
        }
        let opens = line.matches('{').count() as i64;
        let closes = line.matches('}').count() as i64;
        let trimmed = line.trim();
        if trimmed.starts_with("match ") && trimmed.contains("kind") && trimmed.ends_with('{') {
            kind_matches.push(depth + 1);
        }
        depth += opens - closes;
        while kind_matches.last().is_some_and(|&d| depth < d) {
            kind_matches.pop();
        }
    }
    out
}

#[test]
fn every_inline_grammar_name_exists() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for (rel, text) in sources() {
        let grammars = grammars_of(&rel);
        for (line, name, what) in names(&text) {
            checked += 1;
            let known = grammars.iter().any(|(_, g)| match what {
                Use::Field => g.field_id_for_name(&name).is_some(),
                Use::Kind => {
                    g.id_for_node_kind(&name, true) != 0 || g.id_for_node_kind(&name, false) != 0
                }
            });
            if !known {
                let langs: Vec<&str> = grammars.iter().map(|(n, _)| *n).collect();
                problems.push(format!("{rel}:{line}: {what:?} `{name}` is in none of {langs:?}"));
            }
        }
    }
    assert!(checked > 400, "only {checked} names found: the scanner lost track of the sources");
    eprintln!("{checked} inline grammar names checked");
    assert!(problems.is_empty(), "unknown grammar names:\n{}", problems.join("\n"));
}

#[test]
fn the_scanner_finds_names_in_each_form() {
    let src = r#"
fn f(n: Node) {
    let a = n.child_by_field_name("name");
    if n.kind() == "call_expression" || self.anc_kind(pi) != "class_body" {}
    if has_token(n, "global") {}
    if matches!(n.kind(), "identifier"
        | "this") {}
    match n.kind() {
        "pair" | "spread_element" => {}
        "arrow_function" if x => { let s = "not_a_kind_here"; }
        _ => {}
    }
    let t = "outside";
}
"#;
    let found: Vec<(String, Use)> = names(src).into_iter().map(|(_, n, u)| (n, u)).collect();
    let kinds: Vec<&str> =
        found.iter().filter(|(_, u)| *u == Use::Kind).map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "call_expression",
            "class_body",
            "global",
            "identifier",
            "this",
            "pair",
            "spread_element",
            "arrow_function"
        ]
    );
    assert!(found.contains(&("name".to_string(), Use::Field)));
}
