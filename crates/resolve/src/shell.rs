//! Shell resolution: what each command a script runs is, and which files it sources.
//!
//! Rules for a command name, in order:
//! 1. a function the script defines, or one defined by a file it sources (transitively,
//!    through `source` / `.` of repository files): CALLS, `same-file` / `import-resolved`;
//! 2. a relative path (it has a `/` or ends in `.sh` / `.bash`): the repository file it names,
//!    relative to the script's directory, else to the root: CALLS to the file,
//!    `import-resolved`; a path to no repository file is an unresolved site;
//! 3. a shell builtin or keyword (`echo`, `cd`, `set`, `[`...): nothing;
//! 4. exactly one function of that name among the repository's shell files (a library
//!    sourced through a variable path): CALLS, `name-only`;
//! 5. anything else (an absolute path included: `/etc/eks/bootstrap.sh` is the machine's) is
//!    an external command: REFERS_TO the concept `cmd:NAME`.
//!
//! `source PATH` resolves like rule 2 and IMPORTS the file. Environment variables the
//! provider found become REFERS_TO `env:NAME`. Concepts are node units (`units.rs`).
//!
//! Incrementality: [`sh_decls`] is one file's function names and sourced paths (no lines), an
//! `Eq` firewall; [`sh_functions`] indexes them for the workspace and changes only when a
//! function is added, removed or renamed.

use crate::graph::{Edge, symbol_ids};
use crate::ids::{Id, file_id, join, parent_dir};
use crate::keys::FileKey;
use crate::languages::LanguageResolver;
use crate::layout::{LanguageKey, language_dirs, lookup};
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use crate::units::concept_edge;
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{ImportKind, Language, Receiver};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use std::collections::{HashMap, HashSet};

pub(crate) struct ShellResolver;

pub(crate) static SHELL_RESOLVER: ShellResolver = ShellResolver;

/// Builtins and keywords: commands that are the shell's own, neither functions nor programs.
const BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "[[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// One file's functions (name, ID) and the files it sources (resolved paths).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ShDecls {
    pub functions: Vec<(String, Id)>,
    pub sources: Vec<String>,
}

/// A path as a script names it: relative to its directory, else to the root; the repository
/// file that exists there.
fn script_path(
    db: &dyn salsa::Database,
    workspace: Workspace,
    dir: &str,
    path: &str,
) -> Option<SourceFile> {
    if path.starts_with('/') || path.contains('$') {
        return None;
    }
    let local = join(dir, path).and_then(|p| lookup(db, workspace, &p));
    local.or_else(|| join("", path).and_then(|p| lookup(db, workspace, &p)))
}

#[salsa::tracked(returns(ref))]
pub(crate) fn sh_decls<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> ShDecls {
    let (workspace, file) = (key.workspace(db), key.file(db));
    let facts = &file_facts(db, file);
    let ids = symbol_ids(db, file);
    let dir = parent_dir(file.path(db));
    ShDecls {
        functions: facts
            .symbols
            .iter()
            .zip(ids.iter())
            .map(|(s, id)| (s.name.clone(), id.clone()))
            .collect(),
        sources: facts
            .imports
            .iter()
            .filter(|i| i.kind == ImportKind::Path)
            .filter_map(|i| script_path(db, workspace, dir, &i.source))
            .map(|f| f.path(db).clone())
            .collect(),
    }
}

/// Function name -> the IDs of the functions of that name in the workspace's shell files.
#[salsa::tracked(returns(ref))]
pub(crate) fn sh_functions(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> HashMap<String, Vec<Id>> {
    let mut out: HashMap<String, Vec<Id>> = HashMap::new();
    for files in language_dirs(db, LanguageKey::new(db, workspace, Language::Shell)).values() {
        for &f in files {
            for (name, id) in &sh_decls(db, FileKey::new(db, workspace, f)).functions {
                out.entry(name.clone()).or_default().push(id.clone());
            }
        }
    }
    out
}

/// The functions a file sees: its own first (`same-file`), then those of the files it
/// sources, transitively (`import-resolved`).
fn visible_functions(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> HashMap<String, (Id, Reason)> {
    let mut out: HashMap<String, (Id, Reason)> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut queue = vec![(file, Reason::SameFile)];
    while let Some((f, reason)) = queue.pop() {
        if !seen.insert(f.path(db).clone()) || seen.len() > 64 {
            continue;
        }
        let decls = sh_decls(db, FileKey::new(db, workspace, f));
        for (name, id) in &decls.functions {
            out.entry(name.clone()).or_insert_with(|| (id.clone(), reason));
        }
        for p in &decls.sources {
            if let Some(g) =
                lookup(db, workspace, p).filter(|g| g.language(db) == Some(Language::Shell))
            {
                queue.insert(0, (g, Reason::ImportResolved));
            }
        }
    }
    out
}

impl LanguageResolver for ShellResolver {
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        sh_decls(db, key);
        true
    }
    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        let (workspace, file) = (key.workspace(db), key.file(db));
        let facts = &file_facts(db, file);
        let dir = parent_dir(file.path(db));
        let fid = file_id(file.path(db));
        let mut out = Resolved::default();
        for imp in facts.imports.iter().filter(|i| i.kind == ImportKind::Path) {
            if let Some(target) = script_path(db, workspace, dir, &imp.source) {
                out.edges.push(Edge::new(
                    fid.clone(),
                    file_id(target.path(db)),
                    EdgeKind::Imports,
                    Reason::ImportResolved,
                    imp.line,
                ));
            }
        }
        let visible = visible_functions(db, workspace, file);
        // One REFERS_TO per (caller, concept): the first line that uses it.
        let mut concepts: HashSet<(Id, String)> = HashSet::new();
        for call in &facts.calls {
            let caller = caller_id(db, file, call.enclosing);
            let name = call.callee.name.as_str();
            if let Some((id, reason)) = visible.get(name) {
                out.edges.push(Edge::new(caller, id.clone(), EdgeKind::Calls, *reason, call.line));
                continue;
            }
            let external_path = name.starts_with('/') || name.starts_with('~');
            if !external_path
                && (name.contains('/') || name.ends_with(".sh") || name.ends_with(".bash"))
            {
                match script_path(db, workspace, dir, name) {
                    Some(target) => out.edges.push(Edge::new(
                        caller,
                        file_id(target.path(db)),
                        EdgeKind::Calls,
                        Reason::ImportResolved,
                        call.line,
                    )),
                    None => out.unresolved.push(UnresolvedSite {
                        line: call.line,
                        caller,
                        callee: name.to_string(),
                    }),
                }
                continue;
            }
            if BUILTINS.contains(&name) {
                continue;
            }
            match sh_functions(db, workspace).get(name).map(Vec::as_slice) {
                Some([only]) => {
                    out.edges.push(Edge::new(
                        caller,
                        only.clone(),
                        EdgeKind::Calls,
                        Reason::NameOnly,
                        call.line,
                    ));
                }
                Some(_) => out.unresolved.push(UnresolvedSite {
                    line: call.line,
                    caller,
                    callee: name.to_string(),
                }),
                None => {
                    if concepts.insert((caller.clone(), format!("cmd:{name}"))) {
                        out.edges.extend(concept_edge(
                            caller,
                            NodeKind::Command,
                            name,
                            Reason::ConceptName,
                            call.line,
                        ));
                    }
                }
            }
        }
        for r in &facts.value_refs {
            let Receiver::Path(p) = &r.callee.receiver else { continue };
            if p.len() != 1 || p[0] != "env" {
                continue;
            }
            let src = caller_id(db, file, r.enclosing);
            out.edges.extend(concept_edge(
                src,
                NodeKind::EnvVar,
                &r.callee.name,
                Reason::ConceptName,
                r.line,
            ));
        }
        out
    }

    fn has_concepts(&self) -> bool {
        true
    }
}
