//! `codegraph-bench scip-compare OURS.scip THEIRS.scip`: how far the reference occurrences of
//! two SCIP indexes of one root agree (issue 42: ours against scip-typescript's, on >= 95% of
//! the positions both report for symbols defined in the root).
//!
//! Why it exists: the two tools name symbols in different schemes (`codegraph . . .
//! src/`a.ts`/A#m().` against `scip-typescript npm pkg 1.0 src/`a.ts`/A#m().`), so strings cannot
//! be compared; positions can. Each tool's symbol stands for the set of its definition
//! positions in the index (path, line, start column); a symbol no document of the index defines
//! is outside the root and left out, on both sides. A reference occurrence is a position (path,
//! line, start column) with the definitions of its symbols. Then:
//! - `both`: positions both tools report a reference to a root-defined symbol at;
//! - `agree`: those of `both` where a symbol of ours and one of theirs share a definition
//!   position (the same declaration);
//! - agreement = agree / both (the figure); recall-like = agree / theirs (every
//!   position theirs reports), precision-like = agree / ours.
//!
//! `--root DIR --show N` prints N examples of each kind of difference with the source line, to
//! find the classes of disagreement.

use anyhow::{Context, Result, bail};
use protobuf::Message;
use scip::types::{Index, Occurrence, SymbolRole, occurrence::Typed_range};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// (path, 0-based line, start column)
type Pos = (String, i32, i32);

struct Args {
    ours: PathBuf,
    theirs: PathBuf,
    root: Option<PathBuf>,
    show: usize,
    json: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args> {
    let mut files = Vec::new();
    let (mut root, mut show, mut json) = (None, 0, false);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--root" => root = Some(PathBuf::from(args.next().context("--root DIR")?)),
            "--show" => show = args.next().context("--show N")?.parse().context("--show N")?,
            "--json" => json = true,
            _ if a.starts_with("--") => bail!("unknown option {a}"),
            _ => files.push(PathBuf::from(a)),
        }
    }
    let [ours, theirs]: [PathBuf; 2] = files.try_into().map_err(|_| {
        anyhow::anyhow!(
            "usage: scip-compare OURS.scip THEIRS.scip [--root DIR] [--show N] [--json]"
        )
    })?;
    Ok(Args { ours, theirs, root, show, json })
}

/// One index reduced to what the comparison reads.
struct Side {
    /// Symbol key -> its definition positions. A local's key carries its document.
    defs: HashMap<(String, String), BTreeSet<Pos>>,
    /// Reference position -> the keys of the root-defined symbols referenced there.
    refs: BTreeMap<Pos, BTreeSet<(String, String)>>,
    documents: usize,
}

fn start(o: &Occurrence) -> Option<(i32, i32)> {
    match &o.typed_range {
        Some(Typed_range::SingleLineRange(r)) => Some((r.line, r.start_character)),
        Some(Typed_range::MultiLineRange(r)) => Some((r.start_line, r.start_character)),
        _ => Some((*o.range.first()?, *o.range.get(1)?)),
    }
}

fn load(path: &Path) -> Result<Side> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let index = Index::parse_from_bytes(&bytes)
        .with_context(|| format!("{} is not a SCIP index", path.display()))?;
    let key = |doc: &str, symbol: &str| {
        let scope = if symbol.starts_with("local ") { doc } else { "" };
        (scope.to_string(), symbol.to_string())
    };
    let mut defs: HashMap<(String, String), BTreeSet<Pos>> = HashMap::new();
    let mut all_refs: Vec<(Pos, (String, String))> = Vec::new();
    for doc in &index.documents {
        for o in &doc.occurrences {
            let Some((line, col)) = start(o) else { continue };
            if o.symbol.is_empty() {
                continue;
            }
            let pos = (doc.relative_path.clone(), line, col);
            let k = key(&doc.relative_path, &o.symbol);
            if o.symbol_roles & SymbolRole::Definition as i32 != 0 {
                defs.entry(k).or_default().insert(pos);
            } else {
                all_refs.push((pos, k));
            }
        }
    }
    let mut refs: BTreeMap<Pos, BTreeSet<(String, String)>> = BTreeMap::new();
    for (pos, k) in all_refs {
        if defs.contains_key(&k) {
            refs.entry(pos).or_default().insert(k);
        }
    }
    Ok(Side { defs, refs, documents: index.documents.len() })
}

/// The definition positions of the symbols referenced at a position.
fn definitions<'s>(side: &'s Side, keys: &BTreeSet<(String, String)>) -> BTreeSet<&'s Pos> {
    keys.iter().filter_map(|k| side.defs.get(k)).flatten().collect()
}

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let a = parse_args(args)?;
    let ours = load(&a.ours)?;
    let theirs = load(&a.theirs)?;
    let mut both = 0usize;
    let mut agree = 0usize;
    let mut disagree: Vec<(&Pos, BTreeSet<&Pos>, BTreeSet<&Pos>)> = Vec::new();
    for (pos, keys) in &theirs.refs {
        let Some(our_keys) = ours.refs.get(pos) else { continue };
        both += 1;
        let t = definitions(&theirs, keys);
        let o = definitions(&ours, our_keys);
        if t.iter().any(|p| o.contains(p)) {
            agree += 1;
        } else {
            disagree.push((pos, o, t));
        }
    }
    let ratio = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
    let (n_ours, n_theirs) = (ours.refs.len(), theirs.refs.len());
    // Definitions: ours at a position where theirs defines something too (the name's range
    // start), a check of the declaration ranges the comparison above relies on.
    let def_positions = |x: &Side| -> BTreeSet<Pos> {
        x.defs.values().flatten().filter(|p| p.1 != 0 || p.2 != 0).cloned().collect()
    };
    let (our_defs, their_defs) = (def_positions(&ours), def_positions(&theirs));
    let shared_defs = our_defs.intersection(&their_defs).count();
    // Their positions whose symbols are all `local N` (parameters, locals): a graph of
    // declarations models only the called ones, so coverage is also given without them.
    let local = |keys: &BTreeSet<(String, String)>| keys.iter().all(|k| !k.0.is_empty());
    let theirs_global: Vec<&Pos> =
        theirs.refs.iter().filter(|(_, k)| !local(k)).map(|(p, _)| p).collect();
    let both_global = theirs_global.iter().filter(|p| ours.refs.contains_key(**p)).count();
    // Of those, the ones at type parameters (`Observable#[T]`), which a graph of declarations
    // has no node for either.
    let type_param = |keys: &BTreeSet<(String, String)>| {
        keys.iter().all(|(_, s)| {
            scip::symbol::parse_symbol(s)
                .ok()
                .and_then(|p| p.descriptors.last().cloned())
                .is_some_and(|d| {
                    d.suffix.enum_value() == Ok(scip::types::descriptor::Suffix::TypeParameter)
                })
        })
    };
    let theirs_type_params =
        theirs_global.iter().filter(|p| theirs.refs.get(**p).is_some_and(type_param)).count();
    if a.json {
        let v = serde_json::json!({
            "ours": n_ours, "theirs": n_theirs, "both": both, "agree": agree,
            "agreement": ratio(agree, both),
            "recall_like": ratio(agree, n_theirs), "precision_like": ratio(agree, n_ours),
            "documents": {"ours": ours.documents, "theirs": theirs.documents},
            "theirs_global": theirs_global.len(), "both_global": both_global,
            "theirs_type_parameters": theirs_type_params,
            "definitions": {"ours": our_defs.len(), "theirs": their_defs.len(), "both": shared_defs},
        });
        println!("{v}");
    } else {
        println!("documents         ours {}, theirs {}", ours.documents, theirs.documents);
        println!(
            "definitions       ours {}, theirs {}, at the same position {shared_defs} ({:.1}% of ours)",
            our_defs.len(),
            their_defs.len(),
            100.0 * ratio(shared_defs, our_defs.len())
        );
        println!("reference positions to root-defined symbols");
        println!("  ours            {n_ours}");
        println!("  theirs          {n_theirs}");
        println!(
            "  both report     {both}  ({:.1}% of theirs, {:.1}% of ours)",
            100.0 * ratio(both, n_theirs),
            100.0 * ratio(both, n_ours)
        );
        println!(
            "  theirs, non-local symbols {}; both report {both_global} ({:.1}%)",
            theirs_global.len(),
            100.0 * ratio(both_global, theirs_global.len())
        );
        println!("    of which at type parameters {theirs_type_params}");
        println!("  same definition {agree}");
        println!(
            "agreement         {:.2}%  (same definition / both report)",
            100.0 * ratio(agree, both)
        );
        println!(
            "recall-like       {:.2}%  (same definition / theirs)",
            100.0 * ratio(agree, n_theirs)
        );
        println!(
            "precision-like    {:.2}%  (same definition / ours)",
            100.0 * ratio(agree, n_ours)
        );
    }
    if a.show > 0 {
        let mut lines = SourceLines { root: a.root.clone(), files: HashMap::new() };
        println!("\n-- disagreements ({}): position, our definitions, theirs", disagree.len());
        for (pos, o, t) in disagree.iter().take(a.show) {
            println!("{}", lines.show(pos));
            println!(
                "    ours   {}",
                o.iter().map(|p| lines.short(p)).collect::<Vec<_>>().join(", ")
            );
            println!(
                "    theirs {}",
                t.iter().map(|p| lines.short(p)).collect::<Vec<_>>().join(", ")
            );
        }
        let lone: Vec<&Pos> = our_defs.difference(&their_defs).collect();
        println!("\n-- our definitions where theirs defines nothing ({})", lone.len());
        for p in lone.iter().take(a.show) {
            println!("{}", lines.show(p));
        }
        let only = |x: &Side, y: &Side| -> Vec<Pos> {
            x.refs.keys().filter(|p| !y.refs.contains_key(*p)).cloned().collect()
        };
        let ours_only = only(&ours, &theirs);
        println!("\n-- ours only ({})", ours_only.len());
        for p in ours_only.iter().take(a.show) {
            println!("{}", lines.show(p));
        }
        let theirs_only: Vec<Pos> = only(&theirs, &ours)
            .into_iter()
            .filter(|p| theirs.refs.get(p).is_some_and(|k| !local(k)))
            .collect();
        println!("\n-- theirs only, non-local symbols ({})", theirs_only.len());
        for p in theirs_only.iter().take(a.show) {
            println!("{}", lines.show(p));
        }
    }
    Ok(())
}

/// Source lines for examples, each file read once.
struct SourceLines {
    root: Option<PathBuf>,
    files: HashMap<String, Vec<String>>,
}

impl SourceLines {
    fn short(&self, p: &Pos) -> String {
        format!("{}:{}:{}", p.0, p.1 + 1, p.2 + 1)
    }

    fn show(&mut self, p: &Pos) -> String {
        let Some(root) = &self.root else { return self.short(p) };
        let lines = self.files.entry(p.0.clone()).or_insert_with(|| {
            std::fs::read_to_string(root.join(&p.0))
                .map(|t| t.lines().map(str::to_string).collect())
                .unwrap_or_default()
        });
        let text = lines.get(p.1 as usize).map(|l| l.trim()).unwrap_or("");
        format!("{}:{}:{}  {}", p.0, p.1 + 1, p.2 + 1, text)
    }
}
