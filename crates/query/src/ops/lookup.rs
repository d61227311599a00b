//! Turning what a user typed (a node ID, a name or qualified name, a package- or
//! module-qualified name, a file path, a `path:line`) into exactly one node, or saying why
//! not: every operation starts here, so that no operation guesses.
//!
//! The forms, tried in this order:
//! 1. An exact node ID (`file:src/a.ts` is one: an ID wins over every other reading).
//! 2. `path:line` (or `path:line:column`, optionally with the `file:` prefix): the path is a
//!    root-relative file path or a unique suffix of one (`gin.go:55`), and the answer is the
//!    innermost symbol whose lines contain the line. No symbol there is
//!    [`QueryError::NotFound`] naming the nearest symbols, never the file in disguise.
//! 3. Nodes whose name or qualified name equals the text (and, for a path, the file node).
//! 4. Only when 3 finds nothing, a dotted text read as `CONTAINER.QualifiedName`
//!    ([`MatchedBy::Container`]): for Go the container is the package (its package name, the
//!    last segment of its directory, or a trailing part of that directory: `errors.New`,
//!    `http.Server.ListenAndServe`, `net/http.ListenAndServe`); for other languages it is
//!    the file's module (its base name without the extension, or the directory of an
//!    `index` file: `utils.formatDate`); and a text that ends a longer qualified name at a
//!    dot (`Inner.run` for `Outer.Inner.run`, [`MatchedBy::QualifiedSuffix`]).
//!
//! Candidates are narrowed by the optional file and kind hints. One candidate is the answer;
//! several are [`QueryError::Ambiguous`] with the first [`MAX_CANDIDATES`] ranked and the
//! total; none is [`QueryError::NotFound`] (or [`QueryError::UnknownId`] for ID-shaped text)
//! with near matches ([`super::near`]), and says where it looked ([`Searched`]): a file hint
//! that no indexed path contains is reported as such, not as a missing name.

use super::{dir_of, near};
use crate::error::QueryError;
use crate::read::{NODE_COLUMNS, NodeRow, Reader, node_from_row};
use codegraph_schema::{NodeCategory, NodeKind, ids};
use std::collections::HashMap;

/// What to look up: an ID or a name, with optional hints.
#[derive(Clone, Debug, Default)]
pub struct Target {
    pub query: String,
    /// Keep candidates whose file path contains this text.
    pub file: Option<String>,
    /// Keep candidates of this node kind.
    pub kind: Option<NodeKind>,
}

impl Target {
    pub fn new(query: impl Into<String>) -> Target {
        Target { query: query.into(), file: None, kind: None }
    }
}

/// How a candidate matched the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchedBy {
    QualifiedName,
    Name,
    Path,
    /// `PKG.Name` / `module.Name`: the text's head names the node's Go package or module.
    Container,
    /// The text ends the node's qualified name at a dot (`Inner.run` for `Outer.Inner.run`).
    QualifiedSuffix,
    /// `path:line`: the innermost symbol whose lines contain the line.
    Line,
}

impl MatchedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchedBy::QualifiedName => "qualified name",
            MatchedBy::Name => "name",
            MatchedBy::Path => "path",
            MatchedBy::Container => "package or module and name",
            MatchedBy::QualifiedSuffix => "end of qualified name",
            MatchedBy::Line => "line",
        }
    }
}

/// One of several nodes a name could mean.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub node: NodeRow,
    pub matched_by: MatchedBy,
}

impl Candidate {
    /// `ID (kind, file:line)`.
    pub fn describe(&self) -> String {
        let at = match (&self.node.file, self.node.start_line) {
            (Some(f), Some(l)) if self.node.kind != NodeKind::File => format!(", {f}:{l}"),
            _ => String::new(),
        };
        format!("{} ({}{at})", self.node.id, self.node.kind)
    }
}

/// Where a lookup that found nothing looked: it shapes the message of
/// [`QueryError::NotFound`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Searched {
    /// Every node's ID, name and qualified name.
    #[default]
    Everywhere,
    /// Only the `files` indexed files whose path contains `hint` (the file hint).
    FilesContaining { hint: String, files: u64 },
    /// No indexed file path contains `hint` (the file hint), so nothing was looked up.
    NoFileContains { hint: String },
    /// `path:line` where no indexed file path is `path` or ends with `/path`.
    NoFileAt { path: String },
    /// `path:line`: the file exists but no symbol's lines contain `line` (the file has
    /// `lines` lines, when known).
    Line { path: String, line: u32, lines: Option<u32> },
}

impl Searched {
    /// The message of a [`QueryError::NotFound`] for `query`, without the suggestions.
    pub fn describe(&self, query: &str) -> String {
        match self {
            Searched::Everywhere => format!("no symbol named `{query}`"),
            Searched::FilesContaining { hint, files } => format!(
                "no symbol named `{query}` in the {files} indexed file{} whose path contains `{hint}`",
                if *files == 1 { "" } else { "s" }
            ),
            Searched::NoFileContains { hint } => format!(
                "no indexed file path contains `{hint}` (looking for `{query}` there): the file hint is a part of a path relative to the root"
            ),
            Searched::NoFileAt { path } => {
                format!("no indexed file is `{path}` or has a path ending in `/{path}`")
            }
            Searched::Line { path, line, lines: Some(n) } if line > n => {
                format!("{path} has {n} lines in the index: no symbol spans line {line}")
            }
            Searched::Line { path, line, .. } => format!(
                "no symbol spans line {line} of {path} (it is outside every function, type and declaration of the file)"
            ),
        }
    }

    /// How the suggestions of a [`QueryError::NotFound`] are introduced.
    pub fn suggestion_intro(&self) -> &'static str {
        match self {
            Searched::Line { .. } => "the nearest symbols",
            Searched::NoFileAt { .. } | Searched::NoFileContains { .. } => "similar files",
            _ => "did you mean",
        }
    }
}

/// Ranking of candidates: callable and type-like symbols before data, data before sections
/// and files.
pub(crate) fn kind_rank(kind: NodeKind) -> u8 {
    match kind {
        NodeKind::Function
        | NodeKind::Method
        | NodeKind::Class
        | NodeKind::Interface
        | NodeKind::Struct
        | NodeKind::TypeAlias
        | NodeKind::DefinedType
        | NodeKind::Enum => 0,
        NodeKind::Constant | NodeKind::Variable => 1,
        NodeKind::Property | NodeKind::Parameter => 2,
        NodeKind::Package | NodeKind::File => 4,
        _ => 3,
    }
}

/// Whether the text is shaped like a node ID (`sym:...`, `file:...`, `pkg:...`).
fn looks_like_id(text: &str) -> bool {
    ids::category(text).is_some()
}

/// `path:line` or `path:line:column` (an optional `file:` prefix dropped): the path and the
/// line, when the text has that shape (a line of 0 is not one).
fn parse_file_line(text: &str) -> Option<(&str, u32)> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (mut head, mut line) = text.rsplit_once(':')?;
    if !digits(line) {
        return None;
    }
    // `path:line:column`: the column is dropped.
    if let Some((h, l)) = head.rsplit_once(':')
        && digits(l)
    {
        (head, line) = (h, l);
    }
    let path = ids::file_path(head).unwrap_or(head);
    let path = path.strip_prefix("./").unwrap_or(path);
    let line: u32 = line.parse().ok()?;
    (line > 0 && !path.is_empty() && !looks_like_id(path)).then_some((path, line))
}

/// At most this many candidates are listed for an ambiguous name.
pub const MAX_CANDIDATES: usize = 10;

/// The SQL range of file node IDs (`file:` up to, not including, `file;`): a range scan of
/// the ID index visits the file nodes only.
const FILE_IDS: &str = "id >= 'file:' AND id < 'file;'";

impl Reader<'_> {
    /// The one node `target` names; see the module doc for the rules.
    pub fn lookup(&self, target: &Target) -> Result<NodeRow, QueryError> {
        let text = target.query.trim();
        if text.is_empty() {
            return Err(QueryError::EmptyQuery);
        }
        if let Some(node) = self.node(text)? {
            return Ok(node);
        }
        if let Some(node) = self.derived_node(text)? {
            return Ok(node);
        }
        if let Some((path, line)) = parse_file_line(text) {
            return self.lookup_line(text, path, line, target.kind);
        }
        if looks_like_id(text) {
            return Err(QueryError::UnknownId {
                id: text.to_string(),
                suggestions: self.suggest(text)?,
            });
        }
        let searched = match target.file.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
            None => Searched::Everywhere,
            Some(hint) => match self.files_containing(hint)? {
                0 => {
                    return Err(QueryError::NotFound {
                        query: text.to_string(),
                        suggestions: near::near_files(self, hint)?,
                        searched: Searched::NoFileContains { hint: hint.to_string() },
                    });
                }
                files => Searched::FilesContaining { hint: hint.to_string(), files },
            },
        };
        let keep = |c: &Candidate| {
            target.kind.as_ref().is_none_or(|k| &c.node.kind == k)
                && target
                    .file
                    .as_ref()
                    .is_none_or(|f| c.node.file.as_deref().is_some_and(|p| p.contains(f.trim())))
        };
        let mut candidates = self.candidates(text)?;
        candidates.retain(keep);
        if candidates.is_empty() && text.contains('.') {
            candidates = self.container_candidates(text)?;
            candidates.retain(keep);
        }
        match candidates.len() {
            0 => Err(QueryError::NotFound {
                query: text.to_string(),
                suggestions: near::near_matches(
                    self,
                    text,
                    target.kind,
                    target.file.as_deref().map(str::trim),
                )?,
                searched,
            }),
            1 => Ok(candidates.remove(0).node),
            total => {
                candidates.truncate(MAX_CANDIDATES);
                Err(QueryError::Ambiguous { query: text.to_string(), total, candidates })
            }
        }
    }

    /// Nodes whose name or qualified name is `text`, and the file node of a path, ranked:
    /// qualified-name matches first, then exported, then by kind, then by ID.
    fn candidates(&self, text: &str) -> Result<Vec<Candidate>, QueryError> {
        let mut out: Vec<Candidate> = self
            .rows(
                &format!(
                    "SELECT {NODE_COLUMNS} FROM node WHERE name = ?1 OR qualified_name = ?1 ORDER BY id"
                ),
                [text],
                node_from_row,
            )?
            .into_iter()
            .map(|node| {
                let matched_by = if node.kind == NodeKind::File {
                    MatchedBy::Path
                } else if node.qualified_name == text {
                    MatchedBy::QualifiedName
                } else {
                    MatchedBy::Name
                };
                Candidate { node, matched_by }
            })
            .collect();
        if !out.iter().any(|c| c.node.kind == NodeKind::File)
            && let Some(node) = self.node(&ids::file(text))?
        {
            out.push(Candidate { node, matched_by: MatchedBy::Path });
        }
        rank(&mut out);
        Ok(out)
    }

    /// Symbols a dotted `text` names as `CONTAINER.QualifiedName` or as the end of a longer
    /// qualified name (see the module doc), ranked like [`Self::candidates`].
    fn container_candidates(&self, text: &str) -> Result<Vec<Candidate>, QueryError> {
        let Some((_, last)) = text.rsplit_once('.') else { return Ok(Vec::new()) };
        if last.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.rows(
            &format!(
                "SELECT {NODE_COLUMNS} FROM node WHERE name = ?1 AND kind NOT IN ('{}', '{}') ORDER BY id",
                NodeKind::File.as_str(),
                NodeKind::Package.as_str()
            ),
            [last],
            node_from_row,
        )?;
        let suffix = format!(".{text}");
        // File -> the ID of the package node it hangs under (languages with directory
        // packages, e.g. Go), read once per file; `None`: the file is its own module.
        let mut file_package: HashMap<String, Option<String>> = HashMap::new();
        // Package ID -> its name, read once per package.
        let mut package_names: HashMap<String, Option<String>> = HashMap::new();
        let mut out = Vec::new();
        for node in rows {
            if node.qualified_name.ends_with(&suffix) {
                out.push(Candidate { node, matched_by: MatchedBy::QualifiedSuffix });
                continue;
            }
            let Some(file) = node.file.clone() else { continue };
            // Every split of the text at a dot whose tail is the node's qualified name.
            let heads = text
                .match_indices('.')
                .map(|(i, _)| (&text[..i], &text[i + 1..]))
                .filter(|(head, tail)| !head.is_empty() && *tail == node.qualified_name);
            let mut matched = false;
            for (head, _) in heads {
                if !file_package.contains_key(&file) {
                    let parent = self.node(&ids::file(&file))?.and_then(|f| f.parent);
                    let package = parent.filter(|p| ids::is(p, NodeCategory::Package));
                    if let Some(id) = &package
                        && !package_names.contains_key(id)
                    {
                        package_names.insert(id.clone(), self.node(id)?.map(|p| p.name));
                    }
                    file_package.insert(file.clone(), package);
                }
                matched = match file_package.get(&file).and_then(|p| p.as_ref()) {
                    Some(id) => {
                        let name = package_names.get(id).and_then(|n| n.as_deref());
                        package_matches(dir_of(&file), name, head)
                    }
                    None => module_matches(&file, head),
                };
                if matched {
                    break;
                }
            }
            if matched {
                out.push(Candidate { node, matched_by: MatchedBy::Container });
            }
        }
        rank(&mut out);
        Ok(out)
    }

    /// How many indexed file paths contain `hint`.
    fn files_containing(&self, hint: &str) -> Result<u64, QueryError> {
        let n: i64 = self
            .tx
            .prepare_cached(&format!(
                "SELECT COUNT(*) FROM node WHERE {FILE_IDS} AND instr(file, ?1) > 0"
            ))
            .and_then(|mut s| s.query_row([hint], |r| r.get(0)))
            .map_err(self.err())?;
        Ok(n.max(0) as u64)
    }

    /// The file node `path` names: the file at exactly that root-relative path, else the one
    /// file whose path ends with `/path`; several are [`QueryError::Ambiguous`].
    fn file_at(&self, text: &str, path: &str) -> Result<Option<NodeRow>, QueryError> {
        if let Some(node) = self.node(&ids::file(path))? {
            return Ok(Some(node));
        }
        let tail = format!("/{path}");
        let mut files: Vec<Candidate> = self
            .rows(
                &format!("SELECT {NODE_COLUMNS} FROM node WHERE {FILE_IDS} ORDER BY id"),
                [],
                node_from_row,
            )?
            .into_iter()
            .filter(|n| n.file.as_deref().is_some_and(|f| f.ends_with(&tail)))
            .map(|node| Candidate { node, matched_by: MatchedBy::Path })
            .collect();
        match files.len() {
            0 => Ok(None),
            1 => Ok(files.pop().map(|c| c.node)),
            total => {
                // Shallower paths first: `gin.go` before `examples/x/gin.go`.
                files.sort_by(|a, b| {
                    let depth = |c: &Candidate| c.node.id.matches('/').count();
                    (depth(a), &a.node.id).cmp(&(depth(b), &b.node.id))
                });
                files.truncate(MAX_CANDIDATES);
                Err(QueryError::Ambiguous { query: text.to_string(), total, candidates: files })
            }
        }
    }

    /// `path:line`: the innermost symbol (of `kind`, when given) whose lines contain `line`.
    fn lookup_line(
        &self,
        text: &str,
        path: &str,
        line: u32,
        kind: Option<NodeKind>,
    ) -> Result<NodeRow, QueryError> {
        let Some(file) = self.file_at(text, path)? else {
            let base = path.rsplit('/').next().unwrap_or(path);
            return Err(QueryError::NotFound {
                query: text.to_string(),
                suggestions: near::near_files(self, base)?,
                searched: Searched::NoFileAt { path: path.to_string() },
            });
        };
        let path = file.file.clone().unwrap_or_else(|| path.to_string());
        let symbols = self.rows(
            &format!(
                "SELECT {NODE_COLUMNS} FROM node WHERE file = ?1 AND kind NOT IN ('{}', '{}') \
                 AND start_line IS NOT NULL AND end_line IS NOT NULL ORDER BY id",
                NodeKind::File.as_str(),
                NodeKind::Package.as_str()
            ),
            [&path],
            node_from_row,
        )?;
        let span = |n: &NodeRow| (n.start_line.unwrap_or(0), n.end_line.unwrap_or(0));
        let inner = symbols
            .iter()
            .filter(|n| kind.is_none_or(|k| n.kind == k))
            .filter(|n| span(n).0 <= line && line <= span(n).1)
            .min_by(|a, b| {
                let key = |n: &NodeRow| {
                    let (s, e) = span(n);
                    // Smallest span, then the deeper one (same lines: a namespace and the
                    // one nested in it), then callables and types before data.
                    (
                        e - s,
                        std::cmp::Reverse(n.qualified_name.matches('.').count()),
                        kind_rank(n.kind),
                    )
                };
                key(a).cmp(&key(b)).then_with(|| a.id.cmp(&b.id))
            });
        if let Some(node) = inner {
            return Ok(node.clone());
        }
        // The nearest symbols: by their distance in lines from `line`, at most 3, then the
        // file itself (which an operation can take instead).
        let mut nearest: Vec<(u32, &NodeRow)> = symbols
            .iter()
            .filter(|n| kind.is_none_or(|k| n.kind == k))
            .map(|n| {
                let (s, e) = span(n);
                (if line < s { s - line } else { line.saturating_sub(e) }, n)
            })
            .collect();
        nearest.sort_by(|a, b| {
            (a.0, kind_rank(a.1.kind), &a.1.id).cmp(&(b.0, kind_rank(b.1.kind), &b.1.id))
        });
        let mut suggestions: Vec<String> =
            nearest.into_iter().take(3).map(|(_, n)| n.id.clone()).collect();
        suggestions.push(file.id.clone());
        Err(QueryError::NotFound {
            query: text.to_string(),
            suggestions,
            searched: Searched::Line { path, line, lines: file.lines },
        })
    }
}

/// Candidates best first: how they matched, exported before not, non-test code before tests,
/// callables and types before data, then by ID.
fn rank(out: &mut [Candidate]) {
    out.sort_by(|a, b| {
        let key =
            |c: &Candidate| (c.matched_by, !c.node.exported, c.node.test, kind_rank(c.node.kind));
        key(a).cmp(&key(b)).then_with(|| a.node.id.cmp(&b.node.id))
    });
}

/// Whether `head` names the Go package in `dir` (whose package clause says `name`): the
/// package name, the directory's last segment, or (with a `/`) a trailing part of the
/// directory.
fn package_matches(dir: &str, name: Option<&str>, head: &str) -> bool {
    if name == Some(head) {
        return true;
    }
    if head.contains('/') {
        let head = head.trim_matches('/');
        return dir == head || dir.ends_with(&format!("/{head}"));
    }
    dir.rsplit('/').next() == Some(head)
}

/// Whether `head` names the module of the file at `path`: its base name without the
/// extension (`utils` for `src/utils.ts`, `api` or `api.service` for `api.service.ts`), the
/// directory of an `index` file, or (with a `/`) a trailing part of the extensionless path.
fn module_matches(path: &str, head: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    let stem = stem.strip_suffix(".d").unwrap_or(stem);
    let first = base.split('.').next().unwrap_or(base);
    if head == stem || head == first {
        return true;
    }
    let dir = dir_of(path);
    if first == "index" && dir.rsplit('/').next() == Some(head) {
        return true;
    }
    if head.contains('/') {
        let no_ext = match dir {
            "" => stem.to_string(),
            d => format!("{d}/{stem}"),
        };
        let head = head.trim_matches('/');
        return no_ext == head || no_ext.ends_with(&format!("/{head}"));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_line_shapes() {
        assert_eq!(parse_file_line("gin.go:55"), Some(("gin.go", 55)));
        assert_eq!(parse_file_line("./a/b.ts:7:12"), Some(("a/b.ts", 7)));
        assert_eq!(parse_file_line("file:a/b.go:3"), Some(("a/b.go", 3)));
        assert_eq!(parse_file_line("a.go:0"), None);
        assert_eq!(parse_file_line("a.go:x"), None);
        assert_eq!(parse_file_line(":12"), None);
        assert_eq!(parse_file_line("sym:go:a.go:12"), None);
        assert_eq!(parse_file_line("Server.start"), None);
    }

    #[test]
    fn containers() {
        assert!(package_matches("net/http", Some("http"), "http"));
        assert!(package_matches("net/http", Some("http"), "net/http"));
        assert!(package_matches(".", Some("gin"), "gin"));
        assert!(package_matches("v2", Some("yaml"), "yaml"));
        assert!(!package_matches("net/http", Some("http"), "net"));
        assert!(!package_matches("net/http", Some("http"), "ttp"));
        assert!(module_matches("src/utils.ts", "utils"));
        assert!(module_matches("src/api.service.ts", "api.service"));
        assert!(module_matches("src/api.service.ts", "api"));
        assert!(module_matches("src/types.d.ts", "types"));
        assert!(module_matches("src/auth/index.ts", "auth"));
        assert!(module_matches("src/auth/index.ts", "index"));
        assert!(module_matches("src/lib/utils.ts", "lib/utils"));
        assert!(!module_matches("src/lib/utils.ts", "b/utils"));
        assert!(!module_matches("src/utils.ts", "src"));
    }
}
