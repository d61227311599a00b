//! Rename plans (`codegraph rename`, MCP `rename_plan`): every place that must change for a
//! symbol's rename, as exact edits (path, line, column range, old text, new text) with a
//! confidence and a reason, from what the graph knows: the declaration, and each reference an
//! edge records with its line (calls, references, reads and writes, imports, heritage, handler
//! registrations). On each such line the name is found as a whole word. Text mentions the
//! graph does not explain (comments, strings, another symbol of the same name) are listed
//! apart as unsure, never mixed into the edits; names that would collide are reported.
//!
//! The plan is read-only; [`apply`] writes it to the working tree, refusing when a file it
//! touches differs from what the revision indexed (the plan's lines would be wrong).

use crate::name_columns::{in_string, reference_columns, word_columns};
use crate::scan::{WithinReader, content_hash};
use codegraph_parse::is_identifier;
use codegraph_query::{NodeRow, Reader, SourceRow};
use codegraph_schema::{EdgeKind, NodeCategory, NodeKind};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::rc::Rc;

/// One text edit: `old` at `line`, characters `col_start..col_end` (1-based, end exclusive),
/// becomes `new`.
#[derive(Clone, Debug, PartialEq)]
pub struct RenameEdit {
    pub path: String,
    pub line: u32,
    pub col_start: u32,
    pub col_end: u32,
    pub old: String,
    pub new: String,
    /// In [0, 1]: the declaration 1, a reference its edge's confidence, a text mention 0.
    pub confidence: f64,
    /// `declaration`, the edge kind that makes it a reference (`CALLS`, `IMPORTS`...), or
    /// `text mention`.
    pub reason: String,
}

/// What a rename of `target` to `new_name` would change.
#[derive(Clone, Debug)]
pub struct RenamePlan {
    pub target: NodeRow,
    pub new_name: String,
    /// The edits, by path, line and column.
    pub edits: Vec<RenameEdit>,
    /// Whole-word mentions of the name the graph does not explain (first [`MAX_UNSURE`]).
    pub unsure: Vec<RenameEdit>,
    pub unsure_total: usize,
    /// Symbols already named `new_name` where the rename would clash or shadow.
    pub collisions: Vec<String>,
    pub notes: Vec<String>,
}

/// Unsure mentions a plan lists (the rest are counted).
pub const MAX_UNSURE: usize = 200;

/// The edge kinds whose line is a reference to their target written by name: the shared
/// list, and the route and tool handlers a registration names.
fn is_reference(kind: EdgeKind) -> bool {
    crate::name_columns::NAMED_REFERENCE_KINDS.contains(&kind)
        || matches!(kind, EdgeKind::HandlesRoute | EdgeKind::HandlesTool)
}

/// Plans the rename of the symbol `target` to `new_name`.
pub fn plan(
    root: &Path,
    reader: &Reader<'_>,
    target: &NodeRow,
    new_name: &str,
    max_file_size: u64,
) -> Result<RenamePlan, String> {
    let err = |e: codegraph_query::QueryError| e.to_string();
    if target.kind.category() != NodeCategory::Symbol {
        return Err(format!(
            "only symbols can be renamed; `{}` is a {}",
            target.id,
            target.kind.as_str()
        ));
    }
    if target.kind == NodeKind::Test {
        return Err(format!(
            "`{}` is a test block: its name is its title, a string, not a name code refers to",
            target.id
        ));
    }
    let old = target.name.as_str();
    if !is_identifier(new_name) {
        return Err(format!("`{new_name}` is not an identifier"));
    }
    if new_name == old {
        return Err(format!("`{}` is already named `{new_name}`", target.id));
    }
    let opened = reader.open(&target.id).map_err(err)?;
    let mut files = WithinReader::new(root);
    // Each file read once; its lines shared, not copied, by every pass below.
    let mut texts: HashMap<String, Option<Rc<[String]>>> = HashMap::new();
    let mut lines_of = |path: &str| -> Option<Rc<[String]>> {
        texts
            .entry(path.to_string())
            .or_insert_with(|| {
                files.read(path, max_file_size).ok().map(|b| {
                    String::from_utf8_lossy(&b).lines().map(str::to_string).collect::<Rc<[_]>>()
                })
            })
            .clone()
    };
    let mut edits: Vec<RenameEdit> = Vec::new();
    let mut notes = Vec::new();
    let mut covered: BTreeSet<(String, u32)> = BTreeSet::new();
    let edit = |path: &str, line: u32, col: usize, confidence: f64, reason: &str| RenameEdit {
        path: path.to_string(),
        line,
        col_start: col as u32 + 1,
        col_end: (col + old.chars().count()) as u32 + 1,
        old: old.to_string(),
        new: new_name.to_string(),
        confidence,
        reason: reason.to_string(),
    };

    // The declaration: the first whole-word occurrence from its first line on.
    if let (Some(path), Some(start)) = (target.file.as_deref(), target.start_line) {
        let end = target.end_line.unwrap_or(start).max(start);
        let found = lines_of(path).and_then(|lines| {
            (start..=end.min(start + 8)).find_map(|l| {
                let text = lines.get(l as usize - 1)?;
                word_columns(text, old).into_iter().find(|&c| !in_string(text, c)).map(|c| (l, c))
            })
        });
        match found {
            Some((line, col)) => {
                covered.insert((path.to_string(), line));
                edits.push(edit(path, line, col, 1.0, "declaration"));
            }
            None => notes.push(format!(
                "the declaration's name was not found near {path}:{start}: edit it by hand"
            )),
        }
    }

    // References: each incoming edge of a kind that names the target, on its line, with its
    // source node (read once per source).
    let mut sources: HashMap<&str, Option<NodeRow>> = HashMap::new();
    let mut references: Vec<(&codegraph_query::EdgeRow, NodeRow)> = Vec::new();
    for e in &opened.incoming {
        if !is_reference(e.kind) || e.line == 0 {
            continue;
        }
        if !sources.contains_key(e.src.as_str()) {
            sources.insert(&e.src, reader.node(&e.src).map_err(err)?);
        }
        if let Some(Some(src)) = sources.get(e.src.as_str()) {
            references.push((e, src.clone()));
        }
    }
    let member = matches!(target.kind, NodeKind::Method | NodeKind::Property);
    let mut missed = 0;
    let mut in_strings: Vec<RenameEdit> = Vec::new();
    for (e, src) in &references {
        let Some(path) = src.file.clone() else { continue };
        if !covered.insert((path.clone(), e.line)) {
            continue;
        }
        let text = lines_of(&path).and_then(|lines| lines.get(e.line as usize - 1).cloned());
        let cols = text.as_deref().map(|t| reference_columns(t, old, member)).unwrap_or_default();
        if cols.is_empty() {
            missed += 1;
            continue;
        }
        for col in cols {
            // `import { greet } from "./greet"`: the module path is text, not the symbol.
            if text.as_deref().is_some_and(|t| in_string(t, col)) {
                in_strings.push(edit(&path, e.line, col, 0.0, "in a string on a reference line"));
            } else {
                edits.push(edit(&path, e.line, col, e.weight, e.kind.as_str()));
            }
        }
    }
    // A symbol that names the target once names it everywhere in its body by that name (the
    // graph keeps one line per reference kind and symbol): its other whole-word occurrences are
    // edits too, a little less sure; a member only where it is selected (`.name`). A type's
    // own members count as referencing it (a Go method's receiver names its type).
    // Body (file, first and last line) -> why it names the target and how surely; the first
    // reference of a body decides.
    let mut bodies: BTreeMap<(String, u32, u32), (&str, f64)> = BTreeMap::new();
    for (e, src) in &references {
        if src.kind.category() != NodeCategory::Symbol {
            continue;
        }
        if let (Some(f), Some(s), Some(t)) = (src.file.clone(), src.start_line, src.end_line) {
            bodies.entry((f, s, t)).or_insert((e.kind.as_str(), e.weight));
        }
    }
    if !member {
        for m in &opened.outgoing {
            if !matches!(m.kind, EdgeKind::HasMethod | EdgeKind::HasProperty | EdgeKind::Contains) {
                continue;
            }
            let Some(n) = reader.node(&m.dst).map_err(err)? else { continue };
            if let (Some(f), Some(s), Some(t)) = (n.file, n.start_line, n.end_line) {
                bodies.entry((f, s, t)).or_insert(("member", 0.9));
            }
        }
    }
    for ((path, start, end), (kind, weight)) in bodies {
        let Some(lines) = lines_of(&path) else { continue };
        for l in start..=end {
            if covered.contains(&(path.clone(), l)) {
                continue;
            }
            let Some(text) = lines.get(l as usize - 1) else { break };
            let chars: Vec<char> = text.chars().collect();
            let mut any = false;
            for col in word_columns(text, old) {
                if in_string(text, col) {
                    continue;
                }
                // A member where it is selected (`x.name`); anything else only where it is
                // not (`http.HandlerFunc` is another package's).
                let selected = col > 0 && chars[col - 1] == '.';
                if member != selected {
                    continue;
                }
                let reason = format!("{kind} (same referencing symbol)");
                edits.push(edit(&path, l, col, weight * 0.9, &reason));
                any = true;
            }
            if any {
                covered.insert((path.clone(), l));
            }
        }
    }
    if missed > 0 {
        notes.push(format!(
            "{missed} reference(s) the graph records name the symbol on another line (a call split over lines, an alias): see the unsure list"
        ));
    }

    // Text mentions nothing above explains, from every indexed file.
    let pattern = format!(r"\b{}\b", regex::escape(old));
    let req =
        crate::grep::GrepRequest { pattern, ignore_case: false, fixed_strings: false, path: None };
    let mentions =
        crate::grep::grep(root, reader, &req, max_file_size, 0).map_err(|e| e.to_string())?;
    let mut unsure_total = in_strings.len();
    let mut unsure = in_strings;
    unsure.truncate(MAX_UNSURE);
    for g in &mentions.groups {
        for l in &g.lines {
            if covered.contains(&(g.file.clone(), l.line)) {
                continue;
            }
            let Some(text) = lines_of(&g.file).and_then(|ls| ls.get(l.line as usize - 1).cloned())
            else {
                continue;
            };
            for col in word_columns(&text, old) {
                unsure_total += 1;
                if unsure.len() < MAX_UNSURE {
                    unsure.push(edit(&g.file, l.line, col, 0.0, "text mention"));
                }
            }
        }
    }

    // Collisions: a symbol already named `new_name` beside the target (same parent, or the
    // same file at the top level), or in a file that references the target (shadowing).
    let mut collisions = Vec::new();
    let mut seen_files: BTreeSet<String> = edits.iter().map(|e| e.path.clone()).collect();
    if let Some(f) = &target.file {
        seen_files.insert(f.clone());
    }
    for path in &seen_files {
        for n in reader.symbols_named_in(path, new_name).map_err(err)? {
            let beside = n.parent == target.parent;
            let why = if beside { "same scope" } else { "same file" };
            collisions.push(format!("{} ({why})", n.id));
        }
    }
    // A method that implements or overrides another, or is implemented or overridden: the
    // family must be renamed together, which this plan does not do. Its type is the source of
    // its HAS_METHOD edge (a Go method hangs off its file).
    if target.kind == NodeKind::Method {
        let owner = opened
            .incoming
            .iter()
            .find(|e| e.kind == EdgeKind::HasMethod)
            .map(|e| e.src.clone())
            .or_else(|| target.parent.clone());
        let heritage = |k: EdgeKind| matches!(k, EdgeKind::Implements | EdgeKind::Extends);
        let mut family = Vec::new();
        if let Some(owner) = owner {
            let o = reader.open(&owner).map_err(err)?;
            let related: BTreeSet<&str> = o
                .outgoing
                .iter()
                .filter(|e| heritage(e.kind))
                .map(|e| e.dst.as_str())
                .chain(o.incoming.iter().filter(|e| heritage(e.kind)).map(|e| e.src.as_str()))
                .collect();
            for ty in related {
                let methods = reader.open(ty).map_err(err)?.outgoing;
                for m in methods.iter().filter(|e| e.kind == EdgeKind::HasMethod) {
                    let name = m.dst.rsplit(['.', ':']).next().unwrap_or("");
                    if name == old && m.dst != target.id {
                        family.push(m.dst.clone());
                    }
                }
            }
        }
        if !family.is_empty() {
            family.sort();
            family.dedup();
            notes.push(format!(
                "the method belongs to a family (an interface it implements, or implementations and overrides of it): rename them together or the code will not compile: {}",
                family.join(", ")
            ));
        }
    }
    if target.exported {
        notes.push(
            "the symbol is exported: code outside this root that uses it is not in the plan"
                .to_string(),
        );
    }
    edits.sort_by(|a, b| (&a.path, a.line, a.col_start).cmp(&(&b.path, b.line, b.col_start)));
    Ok(RenamePlan {
        target: target.clone(),
        new_name: new_name.to_string(),
        edits,
        unsure,
        unsure_total,
        collisions,
        notes,
    })
}

/// Writes the plan's edits into the working tree; refuses before writing anything when a file
/// it touches is not what the revision indexed. Returns the files written.
pub fn apply(
    root: &Path,
    plan: &RenamePlan,
    sources: &[SourceRow],
    max_file_size: u64,
) -> Result<usize, String> {
    let mut by_file: BTreeMap<&str, Vec<&RenameEdit>> = BTreeMap::new();
    for e in &plan.edits {
        by_file.entry(e.path.as_str()).or_default().push(e);
    }
    let hashes: HashMap<&str, &str> =
        sources.iter().map(|s| (s.path.as_str(), s.hash.as_str())).collect();
    let mut reader = WithinReader::new(root);
    let mut out: Vec<(&str, String)> = Vec::new();
    for (path, edits) in &by_file {
        let bytes =
            reader.read(path, max_file_size).map_err(|d| format!("{path}: {}", d.detail))?;
        if hashes.get(path).copied() != Some(content_hash(&bytes).as_str()) {
            return Err(format!(
                "{path} changed since the index was built: run `codegraph index` and plan again"
            ));
        }
        let text = String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8"))?;
        out.push((path, apply_edits(&text, edits)?));
    }
    for (path, text) in &out {
        std::fs::write(root.join(path), text).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(out.len())
}

/// `text` with `edits` (all of one file) applied, each checked to still read its old text.
fn apply_edits(text: &str, edits: &[&RenameEdit]) -> Result<String, String> {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let mut sorted: Vec<&&RenameEdit> = edits.iter().collect();
    // From the end of each line, so earlier columns stay valid.
    sorted.sort_by_key(|e| std::cmp::Reverse((e.line, e.col_start)));
    for e in sorted {
        let Some(line) = lines.get_mut(e.line as usize - 1) else {
            return Err(format!("{}:{} is past the end of the file", e.path, e.line));
        };
        let chars: Vec<char> = line.chars().collect();
        let (s, t) = (e.col_start as usize - 1, e.col_end as usize - 1);
        let found: String = chars.get(s..t).map(|c| c.iter().collect()).unwrap_or_default();
        if found != e.old {
            return Err(format!(
                "{}:{}:{} reads `{found}`, not `{}`: the file changed",
                e.path, e.line, e.col_start, e.old
            ));
        }
        *line =
            chars[..s].iter().collect::<String>() + &e.new + &chars[t..].iter().collect::<String>();
    }
    Ok(lines.join("\n"))
}
