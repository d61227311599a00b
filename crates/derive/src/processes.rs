//! Execution flows ("processes"): where a request, a tool call or a program starts, and the
//! chain of calls it runs through, so that an agent can see which flows a change touches
//! without tracing calls by hand.
//!
//! The rules, in order:
//! 1. **Entry points.** Only non-test symbols qualify (test functions and anything in test
//!    code are never entries, and walks never step into test code). A symbol's score tier is
//!    the highest that applies:
//!    - [`ENDPOINT_SCORE`] = 3.0: the handler of a route or a tool (the target of a
//!      HANDLES_ROUTE edge from a route node or a HANDLES_TOOL edge from a tool node, any
//!      weight, any symbol kind);
//!    - [`MAIN_SCORE`] = 2.0: a program's entry (`NodeIn::program_entry`: Go's `main`,
//!      never exported) or an exported function named `main`;
//!    - [`UNCALLED_EXPORT_SCORE`] = 1.0: an exported function or method with no internal
//!      caller, that is, no incoming CALLS edge of weight >= [`ProcessConfig::min_weight`]
//!      from non-test code other than itself (a low-confidence name-only guess does not hide
//!      an entry).
//!
//!    The score of a process is its tier plus [`STEP_BONUS`] (0.01) per step of its flow, so
//!    longer flows rank first within a tier and tiers never overlap (flows have at most 99
//!    steps).
//! 2. **Walk.** From each entry, a breadth-first walk along CALLS edges of weight >=
//!    [`ProcessConfig::min_weight`] (0.5; parallel edges count with their highest weight;
//!    self-calls are ignored). A node's callees are queued in order of decreasing weight, ties
//!    by callee ID, so the steps list the entry's direct callees first, then theirs, and the
//!    most confident calls first within a level. No node is visited twice, so cycles end;
//!    nodes more than [`ProcessConfig::max_depth`] (8) calls away are not reached, and the walk
//!    stops at [`ProcessConfig::max_steps`] steps (30, entry included). Breadth-first rather
//!    than a greedy depth-first trace: on the Go standard library a depth-first walk spends
//!    its 30 steps deep inside the first callee's plumbing (`fmt` printers, `sync.Pool`), so
//!    every flow looked alike; breadth-first keeps a flow about what its entry does.
//! 3. **Trivial tails.** A *trivial helper* is a symbol with no followable callee whose body
//!    spans at most 3 lines (`end_line - start_line <= 2`) or whose name (its last `.` segment)
//!    is getter-like: `get`, `is`, `has` or `set` (first letter in either case) followed by
//!    nothing, `_` or an upper-case letter, or one of `String`, `Error`, `toString`,
//!    `valueOf`. Having no callee, a trivial helper can only end a path of the walk; every such
//!    tail is trimmed (not recorded, and it costs no step). The entry is never trimmed.
//! 4. **Drop and deduplicate.** Flows with fewer than 2 steps are dropped. Flows are then taken
//!    by decreasing score (ties by entry ID), and one whose step set is contained in the step
//!    set of a flow already taken (from a higher-scored entry) is dropped.
//! 5. **Cap.** At most [`ProcessConfig::max_processes`] (300) processes are kept, the first in
//!    that order: an agent reads a list of flows, and the long tail of uncalled exports is
//!    noise.
//!
//! IDs are `proc:` + the entry's ID (one process per entry), so they survive unrelated edits.
//! Labels are `GET /users/:id -> getUser` for a route handler (the route with the smallest ID
//! if several share the handler), `add -> handleAdd` for a tool handler, otherwise the entry's
//! name.

use codegraph_schema::{EdgeKind, NodeKind};

use crate::canon::Canon;
use crate::input::GraphInput;

/// Tier of a route or tool handler.
pub const ENDPOINT_SCORE: f64 = 3.0;
/// Tier of a `main` function.
pub const MAIN_SCORE: f64 = 2.0;
/// Tier of an exported function or method that nothing (outside tests) calls.
pub const UNCALLED_EXPORT_SCORE: f64 = 1.0;
/// Added to the tier per step of the flow.
pub const STEP_BONUS: f64 = 0.01;
/// Most steps a flow may have whatever the configuration, so that tiers never overlap.
const STEPS_LIMIT: usize = 99;

/// Names (last `.` segment) that make a leaf a trivial helper whatever its length.
const TRIVIAL_NAMES: [&str; 4] = ["String", "Error", "toString", "valueOf"];
/// Getter- and setter-like prefixes (matched with the first letter in either case).
const TRIVIAL_PREFIXES: [&str; 4] = ["get", "is", "has", "set"];

/// Tuning of [`processes()`].
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessConfig {
    /// Deepest call level a walk reaches (the entry is level 0). Default 8.
    pub max_depth: usize,
    /// Most steps per flow, entry included; clamped to 2..=99. Default 30.
    pub max_steps: usize,
    /// Lowest CALLS weight that is followed and that counts as a caller. Default 0.5.
    pub min_weight: f64,
    /// Most processes returned. Default 300.
    pub max_processes: usize,
}

impl Default for ProcessConfig {
    fn default() -> Self {
        ProcessConfig { max_depth: 8, max_steps: 30, min_weight: 0.5, max_processes: 300 }
    }
}

/// One execution flow.
#[derive(Clone, Debug, PartialEq)]
pub struct Process {
    /// `proc:` + the entry's node ID.
    pub id: String,
    /// Index into [`GraphInput::nodes`] of the entry point.
    pub entry: usize,
    /// Tier plus [`STEP_BONUS`] per step.
    pub score: f64,
    /// Indexes into [`GraphInput::nodes`], in walk order, entry first.
    pub steps: Vec<usize>,
    /// `GET /users/:id -> getUser`, or the entry's name.
    pub label: String,
}

/// Scored entry points and their flows; see the module doc for the rules.
pub fn processes(input: &GraphInput, config: &ProcessConfig) -> Vec<Process> {
    let canon = Canon::new(input);
    let n = canon.len();
    let max_steps = config.max_steps.clamp(2, STEPS_LIMIT);
    let walkable: Vec<bool> =
        (0..n).map(|r| canon.is_symbol(r) && !canon.node(r).is_test).collect();

    // Followable callees (highest weight of parallel edges), callers, endpoint handlers.
    let mut callees: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut has_caller = vec![false; n];
    let mut endpoint: Vec<Option<usize>> = vec![None; n];
    for e in &canon.edges {
        match e.kind {
            EdgeKind::Calls if e.src != e.dst && e.weight >= config.min_weight => {
                if !canon.node(e.src).is_test {
                    has_caller[e.dst] = true;
                }
                if walkable[e.src] && walkable[e.dst] {
                    let list = &mut callees[e.src];
                    match list.last_mut() {
                        Some(last) if last.0 == e.dst => last.1 = last.1.max(e.weight),
                        _ => list.push((e.dst, e.weight)),
                    }
                }
            }
            EdgeKind::HandlesRoute | EdgeKind::HandlesTool if walkable[e.dst] => {
                let from =
                    if e.kind == EdgeKind::HandlesRoute { NodeKind::Route } else { NodeKind::Tool };
                if canon.kind(e.src) == from {
                    // Edges are sorted by source rank: the first one seen has the smallest ID.
                    endpoint[e.dst].get_or_insert(e.src);
                }
            }
            _ => {}
        }
    }
    for list in &mut callees {
        list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    }
    let trivial: Vec<bool> = (0..n)
        .map(|r| {
            let node = canon.node(r);
            callees[r].is_empty()
                && (node.end_line.saturating_sub(node.start_line) <= 2 || trivial_name(&node.name))
        })
        .collect();

    // Entries and their flows.
    struct Flow {
        entry: usize,
        score: f64,
        steps: Vec<usize>,
    }
    let mut flows: Vec<Flow> = Vec::new();
    let mut visited = vec![0u32; n];
    let mut generation = 0u32;
    let mut depths: Vec<usize> = Vec::new();
    for r in 0..n {
        let Some(tier) = entry_tier(&canon, r, walkable[r], endpoint[r].is_some(), has_caller[r])
        else {
            continue;
        };
        generation = generation.wrapping_add(1);
        if generation == 0 {
            visited.fill(0);
            generation = 1;
        }
        visited[r] = generation;
        // Breadth-first: `steps` is the queue; `depths[i]` is the call level of `steps[i]`.
        let mut steps = vec![r];
        depths.clear();
        depths.push(0);
        let mut head = 0;
        'walk: while head < steps.len() {
            let (node, depth) = (steps[head], depths[head]);
            head += 1;
            if depth >= config.max_depth {
                continue;
            }
            for &(callee, _) in &callees[node] {
                if steps.len() >= max_steps {
                    break 'walk;
                }
                if visited[callee] == generation || trivial[callee] {
                    continue;
                }
                visited[callee] = generation;
                steps.push(callee);
                depths.push(depth + 1);
            }
        }
        if steps.len() >= 2 {
            let score = tier + STEP_BONUS * steps.len() as f64;
            flows.push(Flow { entry: r, score, steps });
        }
    }
    flows.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.entry.cmp(&b.entry)));

    // Drop flows contained in a higher-scored one; keep at most `max_processes`.
    let mut kept: Vec<(Flow, Vec<usize>)> = Vec::new();
    let mut containing: Vec<Vec<usize>> = vec![Vec::new(); n];
    for flow in flows {
        if kept.len() >= config.max_processes {
            break;
        }
        let rarest = flow.steps.iter().min_by_key(|&&s| (containing[s].len(), s));
        let subsumed = rarest.is_some_and(|&s| {
            containing[s].iter().any(|&k| {
                let set = &kept[k].1;
                flow.steps.iter().all(|x| set.binary_search(x).is_ok())
            })
        });
        if subsumed {
            continue;
        }
        let mut set = flow.steps.clone();
        set.sort_unstable();
        for &s in &set {
            containing[s].push(kept.len());
        }
        kept.push((flow, set));
    }

    kept.into_iter()
        .map(|(flow, _)| {
            let node = canon.node(flow.entry);
            let label = match endpoint[flow.entry] {
                Some(ep) => format!("{} -> {}", canon.node(ep).name, node.name),
                None => node.name.clone(),
            };
            Process {
                id: codegraph_schema::ids::process(&node.id),
                entry: canon.index(flow.entry),
                score: flow.score,
                steps: flow.steps.iter().map(|&s| canon.index(s)).collect(),
                label,
            }
        })
        .collect()
}

/// The entry tier of rank `r`, if it is an entry point at all.
fn entry_tier(
    canon: &Canon<'_>,
    r: usize,
    walkable: bool,
    handler: bool,
    has_caller: bool,
) -> Option<f64> {
    if !walkable {
        return None;
    }
    if handler {
        return Some(ENDPOINT_SCORE);
    }
    let node = canon.node(r);
    let kind = canon.kind(r);
    if node.program_entry || (kind == NodeKind::Function && node.name == "main" && node.exported) {
        return Some(MAIN_SCORE);
    }
    (kind.is_callable() && node.exported && !has_caller).then_some(UNCALLED_EXPORT_SCORE)
}

/// Whether a name (its last `.` segment) is getter- or setter-like, or a formatting method.
fn trivial_name(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    if TRIVIAL_NAMES.contains(&last) {
        return true;
    }
    TRIVIAL_PREFIXES.iter().any(|prefix| {
        let rest = last
            .strip_prefix(prefix)
            .or_else(|| capitalized(prefix).and_then(|p| last.strip_prefix(p.as_str())));
        rest.is_some_and(|rest| {
            rest.is_empty() || rest.starts_with(|c: char| c == '_' || c.is_uppercase())
        })
    })
}

fn capitalized(word: &str) -> Option<String> {
    let mut chars = word.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trivial_names() {
        for yes in
            ["getName", "GetName", "isEmpty", "IsZero", "has_key", "set", "User.getId", "T.String"]
        {
            assert!(trivial_name(yes), "{yes}");
        }
        for no in ["getaway", "island", "hash", "settle", "run", "Server.Serve", ""] {
            assert!(!trivial_name(no), "{no}");
        }
    }
}
