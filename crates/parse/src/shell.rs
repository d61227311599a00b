//! Shell provider (`.sh`, `.bash`, and files without an extension whose first line is a
//! `sh`-family shebang; tree-sitter-bash): functions, the commands scripts run,
//! the files they source and the environment variables they use.
//!
//! Symbols: `name() { ... }` and `function name { ... }` (kind `function`, named by their
//! name: shell functions are global once defined), doc from the `#` comments right above.
//!
//! Calls ([`FileFacts::calls`]): every simple command whose name is a literal word, from the
//! innermost function around it (`None` at script level), once per (function, name, line):
//! `kubectl`, `helper`, `./scripts/x.sh`; `trap NAME SIGNAL` calls `NAME`. For `bash x.sh` / `sh x.sh` (and `zsh`, `dash`,
//! `ksh`) the script is a second call named by its path. Resolution decides what a name is:
//! a repository function, a repository script, a builtin, or an external command.
//!
//! Imports: `source PATH` and `. PATH` ([`ImportKind::Path`]) with the path as written, a
//! leading `$(dirname "$0")/`, `${BASH_SOURCE%/*}/`, `$SCRIPT_DIR/`-style directory
//! expansion rewritten to `./` (the script's own directory, which is what such prefixes hold).
//!
//! Environment variables ([`FileFacts::value_refs`], receiver `env`): upper-case names the
//! script reads (`$KUBECONFIG`, `${HOME}`) or exports (`export AWS_REGION=...`), once per
//! (function, name); a name the file assigns without exporting is the script's own variable,
//! unless the assignment reads it (`X=${X:-default}` takes the environment's value first).
//! Shell-maintained names (`BASH_SOURCE`, `FUNCNAME`, `IFS`, `OPTARG`...) are not variables of
//! the environment.

use crate::facts::{
    CallKind, CallSite, Callee, FileFacts, Import, ImportKind, Receiver, Symbol, SymbolIdx,
};
use crate::grammar::grammar_ids;
use crate::util::{count_errors, end_line, start_col, start_line, to_u32, truncate};
use crate::{Capability, LanguageSpec, Provider};
use codegraph_schema::NodeKind;
use std::collections::HashSet;
use tree_sitter::Node;

pub struct ShellProvider;

pub static SHELL: ShellProvider = ShellProvider;

pub static SHELL_SPEC: LanguageSpec = LanguageSpec {
    name: "shell",
    id_tag: "sh",
    extensions: &["sh", "bash"],
    provider: &SHELL,
    program_entry: None,
    module: module_path!(),
    detect: Some(crate::Detect {
        extensions: &[""],
        claims: |_, text| has_shell_shebang(text),
        describe: "files without an extension whose first line is a sh/bash/zsh/dash/ksh shebang",
    }),
    test_file: is_test_script,
    call_expressions: None,
};

/// Shell test code: scripts under `test/`, `tests/` or `testdata/`, and `test_*.sh` / `*_test.sh`.
fn is_test_script(path: &str) -> bool {
    let name = crate::file_name(path);
    crate::under_dir(path, crate::TEST_DIRS)
        || name.starts_with("test_")
        || name.strip_suffix(".sh").is_some_and(|stem| stem.ends_with("_test"))
}

/// A file without an extension is a script when its first line is a `sh`-family shebang
/// (`#!/bin/sh`, `#!/usr/bin/env bash`, `#!/bin/bash -e`).
pub fn has_shell_shebang(text: &str) -> bool {
    let Some(line) = text.lines().next().and_then(|l| l.strip_prefix("#!")) else {
        return false;
    };
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else { return false };
    let program = first.rsplit('/').next().unwrap_or(first);
    let program = if program == "env" {
        match words.find(|w| !w.starts_with('-')) {
            Some(p) => p,
            None => return false,
        }
    } else {
        program
    };
    INTERPRETERS.contains(&program)
}

grammar_ids! {
    pub(crate) struct Ids {
        kinds {
            function_definition = "function_definition",
            command = "command",
            word = "word",
            string = "string",
            raw_string = "raw_string",
            concatenation = "concatenation",
            simple_expansion = "simple_expansion",
            expansion = "expansion",
            variable_name = "variable_name",
            variable_assignment = "variable_assignment",
            declaration_command = "declaration_command",
            comment = "comment",
            string_content = "string_content",
        }
        anon {
            export = "export",
        }
        fields {
            name = "name",
            body = "body",
            argument = "argument",
            value = "value",
        }
    }
}

/// Interpreters whose first argument is a script to run.
const INTERPRETERS: &[&str] = &["bash", "sh", "zsh", "dash", "ksh"];

/// Names the shell itself maintains: not environment variables.
const SHELL_VARIABLES: &[&str] = &[
    "BASH_SOURCE",
    "BASH_REMATCH",
    "BASH_LINENO",
    "BASH_VERSION",
    "BASHPID",
    "FUNCNAME",
    "LINENO",
    "RANDOM",
    "SECONDS",
    "IFS",
    "OPTARG",
    "OPTIND",
    "PIPESTATUS",
    "PPID",
    "EUID",
    "UID",
    "REPLY",
];

impl Provider for ShellProvider {
    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Symbols, Capability::Imports, Capability::Calls]
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_bash::LANGUAGE.into())
    }

    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let mut facts = FileFacts::default();
        let Some(tree) = tree else { return facts };
        facts.syntax_errors = count_errors(tree);
        let grammar = tree.language();
        let mut x = Extractor {
            ids: Ids::of(&grammar),
            src: text,
            facts,
            seen_calls: HashSet::new(),
            reads: Vec::new(),
            exports: Vec::new(),
            assigned: HashSet::new(),
            self_reads: HashSet::new(),
        };
        x.walk(tree.root_node(), None);
        x.finish_env();
        x.facts
    }
}

struct Extractor<'s> {
    ids: Ids,
    src: &'s str,
    facts: FileFacts,
    seen_calls: HashSet<(Option<SymbolIdx>, String, u32)>,
    /// Upper-case variable reads: (name, line, col, enclosing), in source order.
    reads: Vec<(String, u32, u32, Option<SymbolIdx>)>,
    /// Exported names, same shape.
    exports: Vec<(String, u32, u32, Option<SymbolIdx>)>,
    /// Names assigned without `export`.
    assigned: HashSet<String>,
    /// Names whose assignment reads them (`X=${X:-d}`).
    self_reads: HashSet<String>,
}

impl<'s> Extractor<'s> {
    fn text(&self, n: Node<'_>) -> &'s str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    fn walk(&mut self, node: Node<'_>, enclosing: Option<SymbolIdx>) {
        let k = node.kind_id();
        if k == self.ids.function_definition {
            let idx = self.function(node, enclosing);
            let mut c = node.walk();
            for ch in node.named_children(&mut c) {
                self.walk(ch, idx.or(enclosing));
            }
            return;
        }
        if k == self.ids.command {
            self.command(node, enclosing);
        } else if k == self.ids.simple_expansion || k == self.ids.expansion {
            self.expansion(node, enclosing);
        } else if k == self.ids.variable_assignment {
            self.assignment(node, enclosing);
        }
        let mut c = node.walk();
        for ch in node.named_children(&mut c) {
            self.walk(ch, enclosing);
        }
    }

    fn function(&mut self, node: Node<'_>, parent: Option<SymbolIdx>) -> Option<SymbolIdx> {
        let name_node = node.child_by_field_id(self.ids.name)?;
        let name = self.text(name_node).to_string();
        if name.is_empty() {
            return None;
        }
        let body = node.child_by_field_id(self.ids.body);
        let head_end = body.map_or(node.end_byte(), |b| b.start_byte());
        let sig = self.src.get(node.start_byte()..head_end).unwrap_or("");
        let sig = crate::util::collapse_whitespace(sig);
        let idx = to_u32(self.facts.symbols.len());
        self.facts.symbols.push(Symbol {
            kind: NodeKind::Function,
            name: name.clone(),
            qualified_name: name,
            parent,
            start_line: start_line(node),
            end_line: end_line(node),
            signature: truncate(&sig, 200).to_string(),
            doc: self.doc_above(node),
            exported: true,
        });
        Some(idx)
    }

    /// The `#` comments right above `node` (no blank line between), `#` stripped. A shebang
    /// is no doc.
    fn doc_above(&self, node: Node<'_>) -> Option<String> {
        let mut lines = Vec::new();
        let mut next_row = node.start_position().row;
        let mut cur = node.prev_sibling();
        while let Some(c) = cur {
            if c.kind_id() != self.ids.comment || c.end_position().row + 1 != next_row {
                break;
            }
            let t = self.text(c);
            if t.starts_with("#!") {
                break;
            }
            lines.push(t.trim_start_matches('#').trim().to_string());
            next_row = c.start_position().row;
            cur = c.prev_sibling();
        }
        lines.reverse();
        let doc = lines.join("\n").trim().to_string();
        (!doc.is_empty()).then_some(doc)
    }

    /// A word-like argument's literal text (`word`, a quoted string without expansions, a raw
    /// string), with a leading script-directory expansion (`$(dirname "$0")/x`) as `./x`.
    fn literal_path(&self, arg: Node<'_>) -> Option<String> {
        let k = arg.kind_id();
        if k == self.ids.word {
            return Some(self.text(arg).to_string());
        }
        if k == self.ids.raw_string {
            return Some(self.text(arg).trim_matches('\'').to_string());
        }
        if k == self.ids.string || k == self.ids.concatenation {
            // `"$(dirname "$0")/util.sh"`, `"${DIR}/lib.sh"`, `$DIR/lib.sh`: an expansion
            // first, then literal text starting with `/`.
            let mut c = arg.walk();
            let parts: Vec<Node<'_>> = arg.named_children(&mut c).collect();
            let literal = |n: &Node<'_>| {
                n.kind_id() == self.ids.string_content || n.kind_id() == self.ids.word
            };
            match parts.as_slice() {
                [only] if literal(only) => return Some(self.text(*only).to_string()),
                [first, rest @ ..]
                    if !literal(first) && !rest.is_empty() && rest.iter().all(literal) =>
                {
                    let tail: String = rest.iter().map(|n| self.text(*n)).collect();
                    return tail.strip_prefix('/').map(|t| format!("./{t}"));
                }
                _ => return None,
            }
        }
        None
    }

    fn command(&mut self, node: Node<'_>, enclosing: Option<SymbolIdx>) {
        let Some(name_node) = node.child_by_field_id(self.ids.name) else { return };
        let Some(word) = name_node.named_child(0).filter(|w| w.kind_id() == self.ids.word) else {
            return;
        };
        let name = self.text(word);
        let mut c = node.walk();
        let args: Vec<Node<'_>> = match std::num::NonZeroU16::new(self.ids.argument) {
            Some(field) => node.children_by_field_id(field, &mut c).collect(),
            None => Vec::new(),
        };
        let line = start_line(word);
        if name == "source" || name == "." {
            if let Some(path) = args.first().and_then(|a| self.literal_path(*a)) {
                self.facts.imports.push(Import {
                    source: path,
                    kind: ImportKind::Path,
                    bindings: Vec::new(),
                    line,
                });
            }
            return;
        }
        if name == "export" {
            return;
        }
        // `trap cleanup EXIT` runs the function `cleanup`.
        if name == "trap"
            && let Some(handler) = args.first().filter(|a| a.kind_id() == self.ids.word)
        {
            let handler_name = self.text(*handler).to_string();
            if handler_name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                self.call(handler_name, start_line(*handler), start_col(*handler), enclosing);
            }
        }
        self.call(name.to_string(), line, start_col(word), enclosing);
        if INTERPRETERS.contains(&name)
            && let Some(script) = args
                .iter()
                .find(|a| !self.text(**a).starts_with('-'))
                .and_then(|a| self.literal_path(*a).map(|p| (p, *a)))
                .filter(|(p, _)| p.ends_with(".sh") || p.ends_with(".bash") || p.contains('/'))
        {
            self.call(script.0, start_line(script.1), start_col(script.1), enclosing);
        }
    }

    fn call(&mut self, name: String, line: u32, col: u32, enclosing: Option<SymbolIdx>) {
        if name.is_empty() || !self.seen_calls.insert((enclosing, name.clone(), line)) {
            return;
        }
        self.facts.calls.push(CallSite {
            callee: Callee { receiver: Receiver::None, name: name.into() },
            kind: CallKind::Call,
            line,
            col,
            enclosing,
            local: false,
        });
    }

    fn expansion(&mut self, node: Node<'_>, enclosing: Option<SymbolIdx>) {
        let mut c = node.walk();
        let Some(var) = node.named_children(&mut c).find(|n| n.kind_id() == self.ids.variable_name)
        else {
            return;
        };
        let name = self.text(var);
        if is_env_name(name) {
            self.reads.push((name.to_string(), start_line(var), start_col(var), enclosing));
        }
    }

    fn assignment(&mut self, node: Node<'_>, enclosing: Option<SymbolIdx>) {
        let Some(var) = node.named_child(0).filter(|n| n.kind_id() == self.ids.variable_name)
        else {
            return;
        };
        let name = self.text(var);
        if !is_env_name(name) {
            return;
        }
        let exported = node.parent().is_some_and(|p| {
            p.kind_id() == self.ids.declaration_command
                && p.child(0).is_some_and(|k| k.kind_id() == self.ids.export)
        });
        if exported {
            self.exports.push((name.to_string(), start_line(var), start_col(var), enclosing));
        } else {
            self.assigned.insert(name.to_string());
        }
        if let Some(value) = node.child_by_field_id(self.ids.value)
            && self.reads_name(value, name)
        {
            self.self_reads.insert(name.to_string());
        }
    }

    fn reads_name(&self, node: Node<'_>, name: &str) -> bool {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if n.kind_id() == self.ids.variable_name && self.text(n) == name {
                return true;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        false
    }

    /// Records the environment variables: exports, and reads of names the script does not
    /// own; once per (function, name), first occurrence.
    fn finish_env(&mut self) {
        let mut all: Vec<(String, u32, u32, Option<SymbolIdx>)> = Vec::new();
        all.extend(self.exports.iter().cloned());
        all.extend(
            self.reads
                .iter()
                .filter(|(n, ..)| !self.assigned.contains(n) || self.self_reads.contains(n))
                .cloned(),
        );
        all.sort_by_key(|(_, line, col, _)| (*line, *col));
        let mut seen: HashSet<(Option<SymbolIdx>, String)> = HashSet::new();
        for (name, line, col, enclosing) in all {
            if !seen.insert((enclosing, name.clone())) {
                continue;
            }
            self.facts.value_refs.push(CallSite {
                callee: Callee { receiver: Receiver::Path(vec!["env".into()]), name: name.into() },
                kind: CallKind::Call,
                line,
                col,
                enclosing,
                local: false,
            });
        }
    }
}

/// `KUBECONFIG`, `AWS_REGION`: upper-case letters, digits and `_`, starting with a letter,
/// and not a name the shell maintains.
fn is_env_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && !SHELL_VARIABLES.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_names_exist() {
        let missing = crate::grammar::missing(Ids::NAMES, &[tree_sitter_bash::LANGUAGE.into()]);
        assert!(missing.is_empty(), "{missing:?}");
    }

    #[test]
    fn shebangs() {
        assert!(has_shell_shebang("#!/bin/sh\necho"));
        assert!(has_shell_shebang("#!/usr/bin/env bash\n"));
        assert!(has_shell_shebang("#!/usr/bin/env -S bash -e\n"));
        assert!(has_shell_shebang("#! /bin/bash -eu"));
        assert!(!has_shell_shebang("#!/usr/bin/env python3\n"));
        assert!(!has_shell_shebang("echo hi\n#!/bin/sh"));
        assert!(!has_shell_shebang(""));
        use crate::Language;
        assert_eq!(Language::detect("bin/deploy", "#!/bin/bash\n"), Some(Language::Shell));
        assert_eq!(Language::detect("bin/tool", "#!/usr/bin/env node\n"), None);
        assert_eq!(Language::detect("Makefile", "all:\n"), None);
        // A name that a language claims wins over the text.
        assert_eq!(Language::detect("a.go", "#!/bin/sh\n"), Some(Language::Go));
        // An extension no detector lists is left alone.
        assert_eq!(Language::detect("x.txt", "#!/bin/sh\n"), None);
    }

    #[test]
    fn env_names() {
        assert!(is_env_name("KUBECONFIG"));
        assert!(is_env_name("AWS_REGION2"));
        assert!(!is_env_name("ns"));
        assert!(!is_env_name("1"));
        assert!(!is_env_name("IFS"));
        assert!(!is_env_name("Mixed"));
    }
}
