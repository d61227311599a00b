//! Rename plans (`codegraph rename`, MCP `rename_plan`): every place that must change for a
//! symbol's rename, as exact edits (path, line, column range, old text, new text) with a
//! confidence and a reason, from what the graph knows: the declaration, and each reference an
//! edge records with its line (calls, references, reads and writes, imports, heritage, handler
//! registrations). On each such line the name is found as a whole word. Text mentions the
//! graph does not explain (comments, strings, another symbol of the same name) are listed
//! apart as unsure, never mixed into the edits; names that would collide are reported.
//!
//! A member (method, property) is renamed with its family: the members of its name on the
//! types its type implements or extends and on those implementing or extending it,
//! transitively (an interface method and its implementations, an override and its base, an
//! object literal annotated with an interface). Member occurrences are told apart by shape:
//! a selection (`x.name`) counts when selected from a receiver an edge line selects it from,
//! `this` / `self`, or a Go method's receiver; a literal's key (`T{name: v}`) when the literal
//! is of the member's own type; a shorthand (`{ name }`) becomes `new: name`. A symbol that
//! also uses another member of the name leaves its ambiguous occurrences unsure. Another
//! symbol's declaration of the name is never an edit; an embedded field and a `declare
//! global` block are refused; TypeScript overload signatures above an implementation are its
//! declarations; Go example tests named after the symbol are renamed with it, and a method
//! with the name and signature of an interface's method outside the root (`io.Reader.Read`) is
//! reported, since its type may be used as that interface where the graph cannot see.
//!
//! The plan is read-only; [`apply`] writes it to the working tree, refusing when a file it
//! touches differs from what the revision indexed (the plan's lines would be wrong).

use crate::name_columns::{
    in_string, receiver_before, reference_columns_except, selected_at, word_columns,
};
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
    /// Methods of interfaces outside the root (the Go standard library's `io.Reader.Read`)
    /// whose name and signature the target or its family has: a value of its type may be used
    /// as one, which the rename would break where the graph cannot see. `--apply` refuses
    /// unless forced.
    pub outside_interfaces: Vec<String>,
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
    if target.signature.as_deref() == Some("declare global") {
        return Err(format!(
            "`{}` is a `declare global` block: `global` there is syntax, not a name",
            target.id
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
    // An embedded field is named by its type: renaming it is renaming the type.
    if target.kind == NodeKind::Property
        && let Some(parent) = &target.parent
    {
        let embedded =
            reader.open(parent).map_err(err)?.outgoing.into_iter().find(|e| {
                e.kind == EdgeKind::Embeds && e.dst.rsplit(['.', ':']).next() == Some(old)
            });
        if let Some(e) = embedded {
            return Err(format!(
                "`{}` is an embedded field: its name is its type's (`{}`); rename the type instead",
                target.id, e.dst
            ));
        }
    }
    // A method renamed alone would break the interfaces it implements and the overrides and
    // implementations of it: its family is renamed with it.
    // The types whose member is renamed (the target's and its family's): a literal's key is
    // the target's when the literal is of one of them.
    let Family { members: family, owners } =
        if matches!(target.kind, NodeKind::Method | NodeKind::Property) {
            member_family(reader, target)?
        } else {
            Family::default()
        };
    // Other symbols of the same name: their declarations are not references to the target,
    // and a body that uses another member of the name cannot tell the two apart by text.
    let same_named: Vec<NodeRow> = reader
        .symbols_named(old)
        .map_err(err)?
        .into_iter()
        .filter(|n| n.id != target.id && !family.iter().any(|m| m.id == n.id))
        .collect();
    let other_members: BTreeSet<&str> = same_named
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Method | NodeKind::Property))
        .map(|n| n.id.as_str())
        .collect();
    // Where the other members are used: the ranges of the symbols that reference them.
    let mut other_users: Vec<(String, u32, u32)> = Vec::new();
    if matches!(target.kind, NodeKind::Method | NodeKind::Property) {
        for id in &other_members {
            for e in reader.open(id).map_err(err)?.incoming {
                if !is_reference(e.kind) {
                    continue;
                }
                if let Some(n) = reader.node(&e.src).map_err(err)?
                    && let (Some(f), Some(s), Some(t)) = (n.file, n.start_line, n.end_line)
                {
                    other_users.push((f, s, t));
                }
            }
        }
    }
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
    // Where each other symbol of the name is declared (path, line, column): its name there is
    // not a reference to the target. Those that are another type's member (`interface
    // RunHelpers { expectObservable: typeof TestScheduler.prototype.expectObservable }`) are
    // never an edit even on an edge line of a member target (a literal's own member is: its
    // key writes the target).
    let mut other_decls: BTreeMap<(String, u32, usize), String> = BTreeMap::new();
    let mut type_member_decls: BTreeSet<(String, u32, usize)> = BTreeSet::new();
    for n in &same_named {
        let Some(path) = n.file.as_deref() else { continue };
        let Some(lines) = lines_of(path) else { continue };
        let Some((line, col)) = declaration_column(&lines, n, old) else { continue };
        let member = matches!(n.kind, NodeKind::Method | NodeKind::Property);
        if member && let Some(p) = n.parent.as_deref() {
            let typed = reader.node(p).map_err(err)?.is_some_and(|o| {
                matches!(
                    o.kind,
                    NodeKind::Class
                        | NodeKind::Interface
                        | NodeKind::TypeAlias
                        | NodeKind::DefinedType
                        | NodeKind::Enum
                        | NodeKind::Struct
                )
            });
            if typed {
                type_member_decls.insert((path.to_string(), line, col));
            }
        }
        other_decls.insert((path.to_string(), line, col), n.id.clone());
    }
    let decls_on = |path: &str, line: u32| -> Vec<(usize, &str)> {
        other_decls
            .range((path.to_string(), line, 0)..=(path.to_string(), line, usize::MAX))
            .map(|((_, _, c), id)| (*c, id.as_str()))
            .collect()
    };
    let other_decl = |id: &str| format!("the declaration of `{id}`, another symbol of the name");
    let mut edits: Vec<RenameEdit> = Vec::new();
    let mut notes = Vec::new();
    let mut covered: BTreeSet<(String, u32)> = BTreeSet::new();
    let mut missed = 0;
    let mut in_strings: Vec<RenameEdit> = Vec::new();
    // A shorthand property keeps its value's name: `{ value }` -> `{ newName: value }`.
    let shorthand = |mut e: RenameEdit| {
        e.new = format!("{new_name}: {old}");
        e
    };
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

    for symbol in std::iter::once(target).chain(&family) {
        let opened = reader.open(&symbol.id).map_err(err)?;
        // A family member's edits say why they are in the plan.
        let why = |reason: &str| {
            if symbol.id == target.id { reason.to_string() } else { format!("{reason} (family)") }
        };
        // The declaration: the first whole-word occurrence from its first line on.
        if let (Some(path), Some(start)) = (symbol.file.as_deref(), symbol.start_line) {
            let found = lines_of(path).and_then(|lines| declaration_column(&lines, symbol, old));
            match found {
                Some((line, col)) => {
                    covered.insert((path.to_string(), line));
                    edits.push(edit(path, line, col, 1.0, &why("declaration")));
                }
                None => notes.push(format!(
                    "the declaration's name was not found near {path}:{start}: edit it by hand"
                )),
            }
            // Overload signatures written above the implementation the symbol stands for.
            if matches!(symbol.kind, NodeKind::Function | NodeKind::Method)
                && let Some(lines) = lines_of(path)
            {
                for (line, col) in overloads_above(&lines, start, old, symbol.kind) {
                    if covered.insert((path.to_string(), line)) {
                        edits.push(edit(path, line, col, 1.0, &why("declaration (overload)")));
                    }
                }
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
        let member = matches!(symbol.kind, NodeKind::Method | NodeKind::Property);
        // Sources whose lines another member of the name is used on too (`p.Request` and
        // `c.Request` of two types in one function, or in a closure inside it): which
        // occurrence is which, text cannot say.
        let mut ambiguous: BTreeSet<String> = BTreeSet::new();
        if member && !other_members.is_empty() {
            let overlaps = |src: &NodeRow| {
                let (Some(f), Some(s), Some(t)) =
                    (src.file.as_deref(), src.start_line, src.end_line)
                else {
                    return false;
                };
                other_users.iter().any(|(of, os, ot)| of == f && *os <= t && s <= *ot)
            };
            for (_, src) in &references {
                if overlaps(src) {
                    ambiguous.insert(src.id.clone());
                }
            }
        }
        let mixed = |src: &NodeRow| {
            format!("also uses another member named `{old}` ({}): which is which is unsure", src.id)
        };
        // Body (file, first and last line) -> the receivers its edge lines select the target
        // from.
        let mut receivers: BTreeMap<(String, u32, u32), BTreeSet<String>> = BTreeMap::new();
        // Unsure selections on edge lines of bodies that use another member of the name too:
        // (body, the edit it would be, why it is unsure).
        let mut deferred: Vec<((String, u32, u32), RenameEdit, String)> = Vec::new();
        // Body -> the receivers known to hold the target's type: those its edge lines select
        // the target from, and a method's own receiver when the method is of the target's type.
        let mut same_type: BTreeMap<(String, u32, u32), BTreeSet<String>> = BTreeMap::new();
        for (_, src) in &references {
            let (Some(f), Some(s), Some(t)) = (src.file.clone(), src.start_line, src.end_line)
            else {
                continue;
            };
            if !member_owner(src).is_some_and(|o| owners.contains(o)) {
                continue;
            }
            // A Go method's receiver, or `this` in a method of the target's class.
            let r = src.signature.as_deref().and_then(method_receiver);
            same_type.entry((f, s, t)).or_default().insert(r.unwrap_or_else(|| "this".into()));
        }
        for (e, src) in &references {
            let Some(path) = src.file.clone() else { continue };
            if !covered.insert((path.clone(), e.line)) {
                continue;
            }
            if member {
                let Some(lines) = lines_of(&path) else { continue };
                let amb = ambiguous.contains(&src.id);
                let verdicts = member_columns(&lines, e.line, old, &owners, amb, true);
                if verdicts.is_empty() {
                    missed += 1;
                }
                for (col, v) in verdicts {
                    let at = (path.clone(), e.line, col);
                    if type_member_decls.contains(&at)
                        && let Some(id) = other_decls.get(&at)
                    {
                        in_strings.push(edit(&path, e.line, col, 0.0, &other_decl(id)));
                        continue;
                    }
                    // What the target is selected from on the edge's line (`c` in `c.engine`):
                    // the body's other selections from it are the target's too.
                    if v == Verdict::Edit
                        && let Some(text) = lines.get(e.line as usize - 1)
                        && let Some(r) = receiver_before(text, col)
                        && let (Some(s), Some(t)) = (src.start_line, src.end_line)
                    {
                        receivers.entry((path.clone(), s, t)).or_default().insert(r.clone());
                        same_type.entry((path.clone(), s, t)).or_default().insert(r);
                    }
                    match v {
                        Verdict::Edit => {
                            edits.push(edit(&path, e.line, col, e.weight, &why(e.kind.as_str())))
                        }
                        Verdict::Shorthand => edits.push(shorthand(edit(
                            &path,
                            e.line,
                            col,
                            e.weight,
                            &why(e.kind.as_str()),
                        ))),
                        Verdict::Unsure => match (src.start_line, src.end_line) {
                            // Decided once every edge line has said what the target is
                            // selected from.
                            (Some(s), Some(t)) => deferred.push((
                                (path.clone(), s, t),
                                edit(&path, e.line, col, e.weight, &why(e.kind.as_str())),
                                mixed(src),
                            )),
                            _ => in_strings.push(edit(&path, e.line, col, 0.0, &mixed(src))),
                        },
                        Verdict::Skip => {}
                    }
                }
                continue;
            }
            let text = lines_of(&path).and_then(|lines| lines.get(e.line as usize - 1).cloned());
            let decls = decls_on(&path, e.line);
            for (col, id) in &decls {
                in_strings.push(edit(&path, e.line, *col, 0.0, &other_decl(id)));
            }
            let except: Vec<usize> = decls.iter().map(|(c, _)| *c).collect();
            let cols = text
                .as_deref()
                .map(|t| reference_columns_except(t, old, member, &except))
                .unwrap_or_default();
            if cols.is_empty() {
                missed += 1;
                continue;
            }
            for col in cols {
                // `import { greet } from "./greet"`: the module path is text, not the symbol.
                if text.as_deref().is_some_and(|t| in_string(t, col)) {
                    in_strings.push(edit(
                        &path,
                        e.line,
                        col,
                        0.0,
                        "in a string on a reference line",
                    ));
                } else {
                    edits.push(edit(&path, e.line, col, e.weight, &why(e.kind.as_str())));
                }
            }
        }
        // In a body that uses another member of the name too, a selection from a receiver one
        // of its edge lines selects the target from is the target's (`rr.Trailer = t.Trailer`
        // after `t.Trailer, err = ...`): the same variable holds the same type in one body.
        for (body, e, why_unsure) in deferred {
            let same_receiver = lines_of(&e.path)
                .and_then(|ls| ls.get(e.line as usize - 1).cloned())
                .and_then(|text| receiver_before(&text, e.col_start as usize - 1))
                .is_some_and(|r| same_type.get(&body).is_some_and(|k| k.contains(&r)));
            if same_receiver {
                let reason = format!("{} (same receiver)", e.reason);
                edits.push(RenameEdit { confidence: e.confidence * 0.9, reason, ..e });
            } else {
                in_strings.push(RenameEdit { confidence: 0.0, reason: why_unsure, ..e });
            }
        }
        // A symbol that names the target once names it everywhere in its body by that name (the
        // graph keeps one line per reference kind and symbol): its other whole-word occurrences are
        // edits too, a little less sure; a member only where it is selected (`.name`). A type's
        // own members count as referencing it (a Go method's receiver names its type).
        // Body (file, first and last line) -> why it names the target and how surely; the first
        // reference of a body decides.
        let mut bodies: BTreeMap<(String, u32, u32), (&str, f64)> = BTreeMap::new();
        let mut ambiguous_bodies: BTreeMap<(String, u32, u32), String> = BTreeMap::new();
        for (e, src) in &references {
            if src.kind.category() != NodeCategory::Symbol {
                continue;
            }
            if let (Some(f), Some(s), Some(t)) = (src.file.clone(), src.start_line, src.end_line) {
                // A Go method's receiver (`func (c *Context) ...`) is its `this`.
                if let Some(r) = src.signature.as_deref().and_then(method_receiver) {
                    receivers.entry((f.clone(), s, t)).or_default().insert(r);
                }
                if ambiguous.contains(&src.id) {
                    ambiguous_bodies.insert((f.clone(), s, t), mixed(src));
                }
                bodies.entry((f, s, t)).or_insert((e.kind.as_str(), e.weight));
            }
        }
        if !member {
            for m in &opened.outgoing {
                if !matches!(
                    m.kind,
                    EdgeKind::HasMethod | EdgeKind::HasProperty | EdgeKind::Contains
                ) {
                    continue;
                }
                let Some(n) = reader.node(&m.dst).map_err(err)? else { continue };
                if let (Some(f), Some(s), Some(t)) = (n.file, n.start_line, n.end_line) {
                    bodies.entry((f, s, t)).or_insert(("member", 0.9));
                }
            }
        }
        let unknown_receiver =
            "selected from a receiver no reference line of this symbol selects it from".to_string();
        for ((path, start, end), (kind, weight)) in bodies {
            let Some(lines) = lines_of(&path) else { continue };
            let unsure_why = ambiguous_bodies.get(&(path.clone(), start, end));
            for l in start..=end {
                if covered.contains(&(path.clone(), l)) {
                    continue;
                }
                let Some(text) = lines.get(l as usize - 1) else { break };
                let chars: Vec<char> = text.chars().collect();
                let mut any = false;
                let reason = why(&format!("{kind} (same referencing symbol)"));
                if member {
                    // A member where it is selected (`x.name`) or a key of its type's literal;
                    // a selection only from a receiver an edge line selects it from, or
                    // `this` / `self` (another receiver's type is unknown here: unsure).
                    let amb = unsure_why.is_some();
                    let known = receivers.get(&(path.clone(), start, end));
                    let typed = same_type.get(&(path.clone(), start, end));
                    for (col, v) in member_columns(&lines, l, old, &owners, amb, false) {
                        let foreign = v == Verdict::Edit
                            && receiver_before(text, col).is_some_and(|r| {
                                !matches!(r.as_str(), "this" | "self")
                                    && !known.is_some_and(|k| k.contains(&r))
                            });
                        if foreign {
                            in_strings.push(edit(&path, l, col, 0.0, &unknown_receiver));
                            any = true;
                            continue;
                        }
                        // Selected from a receiver an edge line of this body selects the
                        // target from: the target's, though the body uses another member of
                        // the name too.
                        let same_receiver = v == Verdict::Unsure
                            && receiver_before(text, col)
                                .is_some_and(|r| typed.is_some_and(|k| k.contains(&r)));
                        if same_receiver {
                            let reason = format!("{reason} (same receiver)");
                            edits.push(edit(&path, l, col, weight * 0.8, &reason));
                            any = true;
                            continue;
                        }
                        match (v, unsure_why) {
                            (Verdict::Edit, _) => {
                                edits.push(edit(&path, l, col, weight * 0.9, &reason))
                            }
                            (Verdict::Shorthand, _) => {
                                edits.push(shorthand(edit(&path, l, col, weight * 0.9, &reason)))
                            }
                            (Verdict::Unsure, Some(u)) => {
                                in_strings.push(edit(&path, l, col, 0.0, u))
                            }
                            _ => continue,
                        }
                        any = true;
                    }
                    if any {
                        covered.insert((path.clone(), l));
                    }
                    continue;
                }
                let decls = decls_on(&path, l);
                for col in word_columns(text, old) {
                    // Anything but a member only where it is not selected (`http.HandlerFunc`
                    // is another package's), and not where another symbol is declared.
                    if in_string(text, col) || selected_at(&chars, col) {
                        continue;
                    }
                    if let Some((_, id)) = decls.iter().find(|(c, _)| *c == col) {
                        in_strings.push(edit(&path, l, col, 0.0, &other_decl(id)));
                        any = true;
                        continue;
                    }
                    edits.push(edit(&path, l, col, weight * 0.9, &reason));
                    any = true;
                }
                if any {
                    covered.insert((path.clone(), l));
                }
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

    // Symbols named after the target by its language's convention (Go's example tests,
    // which `go vet` checks name an identifier) are renamed with it.
    if let (Some(language), Some(target_file)) = (&target.language, target.file.as_deref()) {
        let named = codegraph_resolve::RenameTarget {
            kind: target.kind,
            name: old,
            owner: member_owner(target),
            path: target_file,
        };
        if let Some(rule) = codegraph_resolve::named_after(language, &named, new_name) {
            for n in reader.symbols_named_with_prefix(&rule.prefix).map_err(err)? {
                let Some(path) = n.file.as_deref() else { continue };
                let Some(renamed) = rule.renamed(&n.name, n.kind, path) else { continue };
                let Some(lines) = lines_of(path) else { continue };
                if let Some((line, col)) = declaration_column(&lines, &n, &n.name) {
                    edits.push(RenameEdit {
                        path: path.to_string(),
                        line,
                        col_start: col as u32 + 1,
                        col_end: (col + n.name.chars().count()) as u32 + 1,
                        old: n.name.clone(),
                        new: renamed,
                        confidence: 1.0,
                        reason: rule.reason.to_string(),
                    });
                }
            }
        }
    }

    // Collisions: a symbol already named `new_name` beside the target (same parent, or the
    // same file at the top level), or in a file that references the target (shadowing).
    let mut collisions = Vec::new();
    let mut seen_files: BTreeSet<String> = edits.iter().map(|e| e.path.clone()).collect();
    seen_files.extend(std::iter::once(target).chain(&family).filter_map(|n| n.file.clone()));
    for path in &seen_files {
        for n in reader.symbols_named_in(path, new_name).map_err(err)? {
            let beside = std::iter::once(target).chain(&family).any(|m| n.parent == m.parent);
            let why = if beside { "same scope" } else { "same file" };
            collisions.push(format!("{} ({why})", n.id));
        }
    }
    // A method with the name and signature of an interface's method outside the root (Go's
    // `io.Reader.Read`) may satisfy it.
    let mut outside_interfaces: Vec<String> = Vec::new();
    for m in std::iter::once(target).chain(&family) {
        if m.kind == NodeKind::Method
            && let (Some(lang), Some(sig)) = (m.language.as_deref(), m.signature.as_deref())
        {
            for i in codegraph_resolve::outside_interface_methods(lang, old, sig) {
                if !outside_interfaces.contains(&i) {
                    outside_interfaces.push(i);
                }
            }
        }
    }
    if !outside_interfaces.is_empty() {
        notes.push(format!(
            "`{old}` is the name (and signature) of {}, outside this root: a value of its type may be used as that interface (or the runtime may call it by name), which the rename would break where the graph cannot see; `--apply` needs `--force`",
            outside_interfaces.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    if !family.is_empty() {
        let ids: Vec<&str> = family.iter().map(|m| m.id.as_str()).collect();
        notes.push(format!(
            "renamed with its family (the methods it implements, overrides, or is implemented or overridden by; the code would not compile otherwise): {}",
            ids.join(", ")
        ));
    }
    if target.exported {
        notes.push(
            "the symbol is exported: code outside this root that uses it is not in the plan"
                .to_string(),
        );
    }
    // One edit per place: a family member's declaration can also be a key an edge names (a
    // method of a literal typed as the interface whose method is renamed); the surest stays.
    edits.sort_by(|a, b| {
        (&a.path, a.line, a.col_start)
            .cmp(&(&b.path, b.line, b.col_start))
            .then(b.confidence.total_cmp(&a.confidence))
    });
    edits.dedup_by(|later, first| {
        (&later.path, later.line, later.col_start) == (&first.path, first.line, first.col_start)
    });
    Ok(RenamePlan {
        target: target.clone(),
        new_name: new_name.to_string(),
        edits,
        unsure,
        unsure_total,
        collisions,
        outside_interfaces,
        notes,
    })
}

/// The type a method belongs to: the segment before its name in its qualified name (`T` of
/// `T.M`, of `pkg.T.M`); `None` for anything but a method.
fn member_owner(n: &NodeRow) -> Option<&str> {
    let (owner, _) = n.qualified_name.rsplit_once('.').filter(|_| n.kind == NodeKind::Method)?;
    Some(owner.rsplit('.').next().unwrap_or(owner))
}

/// Where `symbol` declares `name`: the first whole-word occurrence outside strings from its
/// first line on (at most 8 lines down: a declaration's name precedes its body), as (line,
/// 0-based character column).
fn declaration_column(lines: &[String], symbol: &NodeRow, name: &str) -> Option<(u32, usize)> {
    let start = symbol.start_line?;
    let end = symbol.end_line.unwrap_or(start).max(start);
    (start..=end.min(start + 8)).find_map(|l| {
        let text = lines.get(l as usize - 1)?;
        word_columns(text, name).into_iter().find(|&c| !in_string(text, c)).map(|c| (l, c))
    })
}

/// The overload signatures of function or method `name` right above its implementation at
/// line `start` (TypeScript writes `function f(a: A): R;` lines first): the name's column on
/// each line that declares it (`function name`, or a method line `[modifiers] name(` /
/// `name<`), across blank, comment and continuation lines, up to a line (outside comments)
/// that closes or opens something else (`}`, `{`, an `import`) or 80 lines.
fn overloads_above(lines: &[String], start: u32, name: &str, kind: NodeKind) -> Vec<(u32, usize)> {
    const MODIFIERS: &[&str] = &[
        "export",
        "declare",
        "public",
        "private",
        "protected",
        "static",
        "async",
        "abstract",
        "override",
        "readonly",
        "default",
        "function",
    ];
    let mut out = Vec::new();
    let first = start.saturating_sub(80).max(1);
    for l in (first..start).rev() {
        let Some(text) = lines.get(l as usize - 1) else { break };
        let trimmed = text.trim();
        if ["*", "/*", "//"].iter().any(|c| trimmed.starts_with(c)) {
            continue;
        }
        if trimmed.starts_with('}') || trimmed.ends_with('{') || trimmed.starts_with("import ") {
            break;
        }
        let Some(col) = word_columns(text, name).into_iter().find(|&c| !in_string(text, c)) else {
            continue;
        };
        let chars: Vec<char> = text.chars().collect();
        let before: String = chars[..col].iter().collect();
        let words_before: Vec<&str> = before.split_whitespace().collect();
        let after = chars[col + name.chars().count()..].iter().find(|c| **c != ' ');
        let declares = match kind {
            NodeKind::Function => words_before.last() == Some(&"function"),
            _ => words_before.iter().all(|w| MODIFIERS.contains(w)),
        } && matches!(after, Some('(') | Some('<') | Some('?'));
        if declares {
            out.push((l, col));
        }
    }
    out
}

/// The receiver variable a method's signature names: `c` of `func (c *Context) Copy()`.
fn method_receiver(signature: &str) -> Option<String> {
    let rest = signature.strip_prefix("func (")?;
    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!name.is_empty() && rest[name.len()..].starts_with(' ')).then_some(name)
}

/// What a member's rename does with one occurrence of its name.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Edit,
    /// A shorthand property (`{ value }`, `const { value } = x`): the key is renamed and the
    /// value keeps its name (`{ valueX: value }`).
    Shorthand,
    Unsure,
    Skip,
}

/// The occurrences of a member's name `old` on line `line` (1-based) of `lines`, each with
/// what the rename does with it: a key of a literal of one of `owners` is an edit, of another
/// type skipped; a selection (`x.old`) or a key of a literal of unknown type is an edit, or
/// unsure when the line's symbol also uses another member of the name (`ambiguous`); anything
/// else is skipped. On a line an edge says names the target, one occurrence that is not
/// another type's is the target's however ambiguous, and a line with neither selections nor
/// keys keeps its bare occurrences.
fn member_columns(
    lines: &[String],
    line: u32,
    old: &str,
    owners: &BTreeSet<String>,
    ambiguous: bool,
    edge_line: bool,
) -> Vec<(usize, Verdict)> {
    let Some(text) = lines.get(line as usize - 1) else { return Vec::new() };
    let chars: Vec<char> = text.chars().collect();
    let len = old.chars().count();
    let mut out: Vec<(usize, Verdict)> = Vec::new();
    let mut bare: Vec<usize> = Vec::new();
    for col in word_columns(text, old) {
        if in_string(text, col) {
            continue;
        }
        let v = if selected_at(&chars, col) {
            if ambiguous { Verdict::Unsure } else { Verdict::Edit }
        } else if literal_key(&chars, col, len) {
            // A key of a literal of unknown type (`{ value: 1 }`, a type literal's member)
            // counts only on the edge's own line.
            match literal_type(lines, line, col) {
                Some(t) if owners.contains(&t) => Verdict::Edit,
                Some(_) => Verdict::Skip,
                None if !edge_line => Verdict::Skip,
                None if ambiguous => Verdict::Unsure,
                None => Verdict::Edit,
            }
        } else if shorthand_at(&chars, col, len) {
            // Off the edge's own line nothing says whose property a shorthand names
            // (`const { loaded } = event` beside `this.loaded = loaded`).
            match literal_type(lines, line, col) {
                Some(t) if owners.contains(&t) => Verdict::Shorthand,
                Some(_) => Verdict::Skip,
                None if !edge_line => Verdict::Skip,
                None if ambiguous => Verdict::Unsure,
                None => Verdict::Shorthand,
            }
        } else {
            bare.push(col);
            continue;
        };
        out.push((col, v));
    }
    let renamed = |v: &Verdict| matches!(v, Verdict::Edit | Verdict::Shorthand);
    if edge_line && !out.iter().any(|(_, v)| renamed(v)) {
        let unsure: Vec<usize> =
            out.iter().filter(|(_, v)| *v == Verdict::Unsure).map(|(c, _)| *c).collect();
        if let [one] = unsure.as_slice() {
            let shorthand = shorthand_at(&chars, *one, len);
            for (c, v) in out.iter_mut() {
                if c == one {
                    *v = if shorthand { Verdict::Shorthand } else { Verdict::Edit };
                }
            }
        } else if out.is_empty() {
            out = bare.into_iter().map(|c| (c, Verdict::Edit)).collect();
        }
    }
    out
}

/// Whether the word of `len` characters at `col` is a shorthand property: after `{` or `,`
/// (or first on its line) and before `,`, `}`, a default `= v` or the line's end.
fn shorthand_at(chars: &[char], col: usize, len: usize) -> bool {
    let rest = &chars[(col + len).min(chars.len())..];
    let after = rest.iter().position(|c| *c != ' ' && *c != '\t');
    let closes = match after {
        None => true,
        Some(i) => match rest[i] {
            ',' | '}' => true,
            '=' => !matches!(rest.get(i + 1), Some('=') | Some('>')),
            _ => false,
        },
    };
    let before = chars[..col].iter().rev().copied().find(|c| *c != ' ' && *c != '\t');
    closes && matches!(before, None | Some('{') | Some(','))
}

/// Whether the word of `len` characters at `col` is a key of a literal (`{name: v}`,
/// `, name: v`, or first on its line and followed by `:`), not `name := v` or `a ? name : b`.
fn literal_key(chars: &[char], col: usize, len: usize) -> bool {
    let rest = &chars[(col + len).min(chars.len())..];
    let Some(i) = rest.iter().position(|c| *c != ' ' && *c != '\t') else { return false };
    let colon = rest[i] == ':' && !matches!(rest.get(i + 1), Some('=') | Some(':'));
    let before = chars[..col].iter().rev().copied().find(|c| *c != ' ' && *c != '\t');
    colon && matches!(before, None | Some('{') | Some(','))
}

/// The type named before the `{` that opens the literal around line `line`, column `col`
/// (`LogFormatterParams` in `p := LogFormatterParams{\n  Request: r,`, `T` of `pkg.T{`,
/// `&T{`, `T[int]{`), looking back at most 200 lines; `None` when the brace follows no name
/// (an elided type `{{...}}`, a block).
fn literal_type(lines: &[String], line: u32, col: usize) -> Option<String> {
    let mut depth = 0usize;
    let first = (line as usize).saturating_sub(200).max(1);
    for l in (first..=line as usize).rev() {
        let chars: Vec<char> = lines.get(l - 1)?.chars().collect();
        let end = if l == line as usize { col.min(chars.len()) } else { chars.len() };
        for i in (0..end).rev() {
            match chars[i] {
                '}' => depth += 1,
                '{' if depth > 0 => depth -= 1,
                '{' => {
                    let mut j = i;
                    // `T[int]{`: the type arguments are not the name.
                    if j > 0 && chars[j - 1] == ']' {
                        let mut d = 0usize;
                        while j > 0 {
                            j -= 1;
                            match chars[j] {
                                ']' => d += 1,
                                '[' => {
                                    d -= 1;
                                    if d == 0 {
                                        break;
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
                    let stop = chars[..j].iter().rposition(|c| !is_ident(*c)).map_or(0, |p| p + 1);
                    let name: String = chars[stop..j].iter().collect();
                    // `const { a: b } = x`, `return {`: a keyword opens a pattern or a block.
                    const KEYWORDS: &[&str] = &[
                        "const", "let", "var", "return", "export", "default", "else", "do", "try",
                        "finally", "in", "of", "case", "yield", "await", "throw",
                    ];
                    let typed = name.starts_with(|c: char| c.is_alphabetic() || c == '_')
                        && !KEYWORDS.contains(&name.as_str());
                    return typed.then_some(name);
                }
                _ => {}
            }
        }
    }
    None
}

/// The type a member hangs off: the source of its HAS_METHOD / HAS_PROPERTY edge (a Go
/// method's parent is its file), else its parent.
fn owner_of(reader: &Reader<'_>, member: &NodeRow) -> Result<Option<NodeRow>, String> {
    let err = |e: codegraph_query::QueryError| e.to_string();
    let owner = reader
        .open(&member.id)
        .map_err(err)?
        .incoming
        .into_iter()
        .find(|e| matches!(e.kind, EdgeKind::HasMethod | EdgeKind::HasProperty))
        .map(|e| e.src)
        .or_else(|| member.parent.clone());
    match owner {
        Some(id) => reader.node(&id).map_err(err),
        None => Ok(None),
    }
}

/// Most members a family takes in (a rename of a method every type has is no rename to plan
/// this way).
const MAX_FAMILY: usize = 500;

/// The other members (methods and properties) of `method`'s name that must be renamed with
/// it: those of the types its type implements or extends and of the types that implement or
/// extend its type, and so on from each (an interface method takes every implementation; an
/// implementation takes its interface and the interface's other implementations; an object
/// literal annotated with a type takes the type's). A member's type is the source of its
/// HAS_METHOD / HAS_PROPERTY edge (a Go method hangs off its file), else its parent.
fn member_family(reader: &Reader<'_>, method: &NodeRow) -> Result<Family, String> {
    let err = |e: codegraph_query::QueryError| e.to_string();
    let heritage = |k: EdgeKind| matches!(k, EdgeKind::Implements | EdgeKind::Extends);
    let name = method.name.as_str();
    let mut seen: BTreeSet<String> = BTreeSet::from([method.id.clone()]);
    let mut types_seen: BTreeSet<String> = BTreeSet::new();
    let mut queue: Vec<NodeRow> = vec![method.clone()];
    let mut out = Family::default();
    // Takes member `n` of the name into the family (once), refusing one too big to plan.
    let join = |n: NodeRow,
                seen: &mut BTreeSet<String>,
                out: &mut Family,
                queue: &mut Vec<NodeRow>|
     -> Result<(), String> {
        if n.name != name || !matches!(n.kind, NodeKind::Method | NodeKind::Property) {
            return Ok(());
        }
        seen.insert(n.id.clone());
        out.members.push(n.clone());
        queue.push(n);
        if out.members.len() >= MAX_FAMILY {
            return Err(format!(
                "`{}` belongs to a family of more than {MAX_FAMILY} methods: rename it by hand",
                method.id
            ));
        }
        Ok(())
    };
    while let Some(m) = queue.pop() {
        let Some(owner) = owner_of(reader, &m)? else { continue };
        // A member of an object literal that its context types (`new SafeSubscriber({ next:
        // .. })`, `const p: Provider = { get() {..} }`) is that type's member: the literal's
        // holder has an edge to it on the member's own line.
        let holder = matches!(
            owner.kind,
            NodeKind::Function | NodeKind::Method | NodeKind::Variable | NodeKind::Constant
        );
        if holder && let Some(line) = m.start_line {
            for e in reader.open(&owner.id).map_err(err)?.outgoing {
                let named = e.dst.rsplit(['.', ':']).next() == Some(name);
                if e.kind != EdgeKind::Accesses || e.line != line || !named || seen.contains(&e.dst)
                {
                    continue;
                }
                let Some(n) = reader.node(&e.dst).map_err(err)? else { continue };
                join(n, &mut seen, &mut out, &mut queue)?;
            }
        }
        out.owners.insert(owner.name.clone());
        if !types_seen.insert(owner.id.clone()) {
            continue;
        }
        let o = reader.open(&owner.id).map_err(err)?;
        let related: BTreeSet<&str> = o
            .outgoing
            .iter()
            .filter(|e| heritage(e.kind))
            .map(|e| e.dst.as_str())
            .chain(o.incoming.iter().filter(|e| heritage(e.kind)).map(|e| e.src.as_str()))
            .collect();
        for ty in related {
            for e in reader.open(ty).map_err(err)?.outgoing {
                // A method ID ends with its name (`...:Type.name`): others are not read.
                let named = e.dst.rsplit(['.', ':']).next() == Some(name);
                let member = matches!(e.kind, EdgeKind::HasMethod | EdgeKind::HasProperty);
                if !member || !named || seen.contains(&e.dst) {
                    continue;
                }
                let Some(n) = reader.node(&e.dst).map_err(err)? else { continue };
                join(n, &mut seen, &mut out, &mut queue)?;
            }
        }
    }
    out.members.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

/// A member's family ([`member_family`]): the other members renamed with it, and the names of
/// the types they and the member hang off (a literal of one of those types has them as keys).
#[derive(Default)]
struct Family {
    members: Vec<NodeRow>,
    owners: BTreeSet<String>,
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
