//! Bounded answers: every list an answer holds is cut to a window, says how long it really is
//! and how to get the next page, and a default answer is shrunk until it fits an agent's
//! budget (about 4k tokens), so no question costs an agent more than it can read.
//!
//! A [`Window`] is what the caller asked for: how many items per list (`limit`), and optionally
//! one list to page through (`list` + `offset`; the answer then holds that list only). A
//! [`Pager`] applies it while an answer is built and records every list it cut in the answer's
//! `cut` array (`{list, total, offset, shown, next_offset}`), which is the same for the CLI's
//! `--json` and MCP. [`fit`] rebuilds a default answer with a smaller limit until its JSON is
//! under [`DEFAULT_BUDGET_CHARS`].

use serde_json::{Value, json};

/// What a default answer may weigh, in characters of compact JSON: ~4k tokens, at the ~3.3
/// characters a token that ID-heavy answers measure (`codegraph-bench answer-sizes`).
pub(crate) const DEFAULT_BUDGET_CHARS: usize = 13_500;

/// Items per list in a default answer, per operation (then shrunk to fit the budget).
pub(crate) const CONTEXT_LIMIT: usize = 10;
pub(crate) const IMPACT_LIMIT: usize = 25;
pub(crate) const EXPAND_LIMIT: usize = 50;
pub(crate) const DAG_LIMIT: usize = 80;
pub(crate) const ENDPOINT_LIMIT: usize = 5;
pub(crate) const OPEN_LIMIT: usize = 40;

/// Room left in the budget for what is added after an answer is built (`root`, `revision`,
/// `stale`).
const RESERVE_CHARS: usize = 400;

/// The largest `limit` a caller may ask for.
pub(crate) const MAX_LIMIT: usize = 500;

/// Which part of each list an answer shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// Items per list.
    pub limit: usize,
    /// First item shown of the paged list (`list`), 0 otherwise.
    pub offset: usize,
    /// Page this list only (the answer leaves the others out).
    pub list: Option<String>,
    /// Whether the caller chose the limit (then it is not shrunk to fit the budget).
    pub explicit: bool,
}

impl Window {
    /// The window of a request: `limit` if given (at most [`MAX_LIMIT`]; 0 means "as many
    /// as allowed", as `--limit 0` does on every command), else `default`.
    pub fn new(
        limit: Option<usize>,
        default: usize,
        offset: Option<usize>,
        list: Option<String>,
    ) -> Self {
        Window {
            limit: match limit {
                Some(0) => MAX_LIMIT,
                Some(n) => n.min(MAX_LIMIT),
                None => default.clamp(1, MAX_LIMIT),
            },
            offset: offset.unwrap_or(0),
            list,
            explicit: limit.is_some(),
        }
    }

    /// Checks that a paged list is one the answer has.
    pub fn check(&self, lists: &[&str]) -> Result<(), String> {
        match &self.list {
            Some(l) if !lists.contains(&l.as_str()) => {
                Err(format!("this answer has no list `{l}`; pageable lists: {}", lists.join(", ")))
            }
            _ => Ok(()),
        }
    }
}

/// Applies a [`Window`] to the lists of one answer.
pub(crate) struct Pager<'w> {
    w: &'w Window,
    cut: Vec<Value>,
    lists: Vec<&'static str>,
}

impl<'w> Pager<'w> {
    pub fn new(w: &'w Window) -> Self {
        Pager { w, cut: Vec::new(), lists: Vec::new() }
    }

    /// Items per list.
    pub fn limit(&self) -> usize {
        self.w.limit
    }

    /// The window of `items` for the list `name`, each turned into JSON by `f`.
    pub fn list<T>(&mut self, name: &'static str, items: &[T], f: impl Fn(&T) -> Value) -> Value {
        self.list_capped(name, items, usize::MAX, f)
    }

    /// [`Pager::list_capped`] for a list of which the answer holds only the first `items`
    /// of `total_all` (the operation computes a bounded number): the `cut` entry says the real
    /// total and how many were computed, and pages only within those.
    pub fn list_partial<T>(
        &mut self,
        name: &'static str,
        items: &[T],
        cap: usize,
        total_all: usize,
        f: impl Fn(&T) -> Value,
    ) -> Value {
        let before = self.cut.len();
        let shown = self.list_capped(name, items, cap, f);
        if shown.is_null() || total_all <= items.len() {
            return shown;
        }
        let n = shown.as_array().map_or(0, Vec::len);
        if self.cut.len() == before {
            self.cut.push(json!({
                "list": name, "offset": 0, "shown": n, "next_offset": null,
            }));
        }
        if let Some(entry) = self.cut.last_mut() {
            entry["total"] = json!(total_all);
            entry["computed"] = json!(items.len());
        }
        shown
    }

    /// [`Pager::list`] for a list that is secondary to its answer: unless it is the list
    /// being paged, it shows at most `cap` items (its `cut` entry says how to page the rest).
    pub fn list_capped<T>(
        &mut self,
        name: &'static str,
        items: &[T],
        cap: usize,
        f: impl Fn(&T) -> Value,
    ) -> Value {
        self.lists.push(name);
        let (start, take) = match &self.w.list {
            Some(l) if l == name => (self.w.offset, self.w.limit),
            Some(_) => (0, 0),
            None => (0, self.w.limit.min(cap)),
        };
        if take == 0 {
            // Another list is paged: this one is left out (removed at the top level).
            return Value::Null;
        }
        let total = items.len();
        let shown: Vec<Value> = items.iter().skip(start).take(take).map(f).collect();
        let end = start.saturating_add(shown.len());
        if end < total || start > 0 {
            self.cut.push(json!({
                "list": name,
                "total": total,
                "offset": start,
                "shown": shown.len(),
                "next_offset": (end < total).then_some(end),
            }));
        }
        Value::Array(shown)
    }

    /// Adds `cut` to the answer (when a list was cut) and, when one list is paged, removes the
    /// other lists this pager produced.
    pub fn finish(self, v: &mut Value) {
        let Value::Object(m) = v else { return };
        if let Some(l) = &self.w.list {
            for name in &self.lists {
                if name != l {
                    m.remove(*name);
                }
            }
        }
        if !self.cut.is_empty() {
            m.insert("cut".into(), Value::Array(self.cut));
        }
    }
}

/// The plain words for an answer's cut lists, in the surface's terms (`list` / `offset`
/// arguments for MCP, `--list` / `--offset` for the CLI).
pub(crate) fn cut_note(v: &Value, mcp: bool) -> Option<String> {
    let cut = v.get("cut")?.as_array()?;
    let parts: Vec<String> = cut
        .iter()
        .filter(|c| c["next_offset"].is_u64())
        .map(|c| format!("{} {} of {}", c["list"].as_str().unwrap_or("?"), c["shown"], c["total"]))
        .collect();
    // Lists of which the operation computed only the first part: paging cannot reach the rest.
    let partial: Vec<String> = cut
        .iter()
        .filter(|c| c["computed"].is_u64())
        .map(|c| {
            format!(
                "{}: the first {} of {} are computed",
                c["list"].as_str().unwrap_or("?"),
                c["computed"],
                c["total"]
            )
        })
        .collect();
    if parts.is_empty() {
        return (!partial.is_empty())
            .then(|| format!("{} (narrow the question to see others)", partial.join("; ")));
    }
    let parts: Vec<String> = parts.into_iter().chain(partial).collect();
    let how = if mcp {
        "call again with `list` and `offset` (next_offset) to page one list, or a larger `limit`"
    } else {
        "page one list with --list NAME --offset N (next_offset), or raise --limit"
    };
    Some(format!("lists cut to fit: {}; {how}", parts.join(", ")))
}

/// Builds an answer with `build(window)`; a default window whose answer is longer than
/// [`DEFAULT_BUDGET_CHARS`] is halved until it fits or is down to one item a list. The answer
/// records the limit used (`limit`) and, when lists were cut, a note in `notes`.
pub(crate) fn fit<E>(
    w: &Window,
    mcp: bool,
    mut build: impl FnMut(&Window) -> Result<Value, E>,
) -> Result<Value, E> {
    let mut w = w.clone();
    loop {
        let mut v = build(&w)?;
        if let Value::Object(m) = &mut v {
            m.insert("limit".into(), json!(w.limit));
        }
        if let Some(note) = cut_note(&v, mcp)
            && let Some(notes) = v.get_mut("notes").and_then(Value::as_array_mut)
        {
            notes.push(json!(note));
        }
        if w.explicit || w.limit <= 1 || v.to_string().len() <= DEFAULT_BUDGET_CHARS - RESERVE_CHARS
        {
            return Ok(v);
        }
        w.limit = (w.limit / 2).max(1);
    }
}

/// A whole paged answer: checks that a paged list exists, builds the answer with `build`
/// through a [`Pager`], and fits it to the budget ([`fit`]).
pub(crate) fn answer(
    w: &Window,
    lists: &[&str],
    mcp: bool,
    mut build: impl FnMut(&mut Pager<'_>) -> Value,
) -> Result<Value, String> {
    w.check(lists)?;
    fit(w, mcp, |w| -> Result<Value, String> {
        let mut p = Pager::new(w);
        let mut v = build(&mut p);
        p.finish(&mut v);
        Ok(v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<usize> {
        (0..n).collect()
    }

    #[test]
    fn lists_are_cut_with_totals_and_next_offsets() {
        let w = Window::new(Some(2), 10, None, None);
        let mut p = Pager::new(&w);
        let mut v = json!({
            "a": p.list("a", &items(5), |i| json!(i)),
            "b": p.list("b", &items(2), |i| json!(i)),
            "notes": [],
        });
        p.finish(&mut v);
        assert_eq!(v["a"], json!([0, 1]));
        assert_eq!(v["b"], json!([0, 1]));
        assert_eq!(
            v["cut"],
            json!([{"list": "a", "total": 5, "offset": 0, "shown": 2, "next_offset": 2}])
        );
    }

    #[test]
    fn partial_lists_say_their_real_total_and_what_was_computed() {
        let w = Window::new(Some(2), 10, None, None);
        let mut p = Pager::new(&w);
        let mut v = json!({"t": p.list_partial("t", &items(3), 8, 40, |i| json!(i)), "notes": []});
        p.finish(&mut v);
        assert_eq!(
            v["cut"],
            json!([{"list": "t", "total": 40, "computed": 3, "offset": 0, "shown": 2, "next_offset": 2}])
        );
        // Paged to the end of what was computed: no next page, the real total said.
        let w = Window::new(Some(2), 10, Some(2), Some("t".into()));
        let mut p = Pager::new(&w);
        let mut v = json!({"t": p.list_partial("t", &items(3), 8, 40, |i| json!(i)), "notes": []});
        p.finish(&mut v);
        assert_eq!(v["cut"][0]["next_offset"], Value::Null);
        assert_eq!(v["cut"][0]["total"], 40);
        let note = cut_note(&v, true).unwrap_or_default();
        assert!(note.contains("t: the first 3 of 40 are computed"), "{note}");
    }

    #[test]
    fn one_list_pages_and_the_others_are_left_out() {
        let w = Window::new(Some(2), 10, Some(4), Some("a".into()));
        let mut p = Pager::new(&w);
        let mut v = json!({
            "a": p.list("a", &items(5), |i| json!(i)),
            "b": p.list("b", &items(2), |i| json!(i)),
            "id": "x",
        });
        p.finish(&mut v);
        assert_eq!(
            v,
            json!({
                "a": [4],
                "id": "x",
                "cut": [{"list": "a", "total": 5, "offset": 4, "shown": 1, "next_offset": null}],
            })
        );
        assert_eq!(w.check(&["a", "b"]), Ok(()));
        assert_eq!(
            Window::new(None, 10, None, Some("c".into())).check(&["a", "b"]),
            Err("this answer has no list `c`; pageable lists: a, b".to_string())
        );
    }

    #[test]
    fn default_answers_shrink_to_the_budget_explicit_ones_do_not() {
        let build = |w: &Window| -> Result<Value, ()> {
            let mut p = Pager::new(w);
            let big = "x".repeat(1000);
            let mut v = json!({"a": p.list("a", &items(100), |_| json!(big)), "notes": []});
            p.finish(&mut v);
            Ok(v)
        };
        let v = fit(&Window::new(None, 50, None, None), true, build).unwrap();
        assert!(v.to_string().len() <= DEFAULT_BUDGET_CHARS, "{}", v.to_string().len());
        assert_eq!(v["limit"], 12);
        assert_eq!(v["cut"][0]["next_offset"], 12);
        assert_eq!(
            v["notes"][0],
            "lists cut to fit: a 12 of 100; call again with `list` and `offset` (next_offset) to page one list, or a larger `limit`"
        );
        let v = fit(&Window::new(Some(30), 50, None, None), false, build).unwrap();
        assert_eq!(v["limit"], 30);
        assert!(v["notes"][0].as_str().is_some_and(|n| n.contains("--list NAME")));
    }
}
