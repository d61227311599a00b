//! Grep that knows the graph (`codegraph grep`, MCP `code_grep`): a regular expression over
//! the text of the files the published revision indexed (so the scanner's ignore rules, size
//! and binary skips apply), line by line as ripgrep counts them, each matching line then placed
//! in its innermost symbol with that symbol's kind and how many callers and dependents it has
//! ([`codegraph_query::Reader::enclosing_symbols`]), grouped by symbol. An agent learns what
//! each hit is without opening the file.
//!
//! Files are read from the working tree on all cores, through [`crate::scan::WithinReader`]
//! (the path must still resolve inside the root to a regular file). A file whose size or
//! modification time differs from what the revision recorded is searched as it is now and said
//! to have changed: its symbols' lines may be off until the next revision.

use crate::scan::WithinReader;
use codegraph_query::{Enclosing, Reader, SourceRow};
use regex::bytes::{Regex, RegexBuilder};
use std::path::Path;

/// What to look for.
#[derive(Clone, Debug, Default)]
pub struct GrepRequest {
    pub pattern: String,
    pub ignore_case: bool,
    /// The pattern is a literal string, not a regular expression.
    pub fixed_strings: bool,
    /// Only files whose root-relative path contains this.
    pub path: Option<String>,
}

/// One matching line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrepLine {
    pub line: u32,
    /// The line's text (lossy UTF-8, without its line break), cut to [`MAX_LINE_CHARS`].
    pub text: String,
}

/// The matching lines of one symbol (or of a file's lines outside every symbol); its callers
/// and dependents are counted only for the groups an answer shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrepGroup {
    pub file: String,
    /// `None`: lines outside every symbol of the file (imports, top-level code).
    pub symbol: Option<Enclosing>,
    pub lines: Vec<GrepLine>,
    /// The file differs from what the revision indexed (size or modification time).
    pub changed: bool,
}

/// Everything grep found, grouped, in path then line order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrepResult {
    pub groups: Vec<GrepGroup>,
    /// Matching lines in all (what `rg -c` sums).
    pub total_lines: u64,
    /// Files with at least one matching line.
    pub files: u64,
    pub files_searched: u64,
    /// Indexed files that could not be read now, with why.
    pub unreadable: Vec<(String, String)>,
}

/// Longest line text kept in an answer.
pub const MAX_LINE_CHARS: usize = 240;

/// Compiles the request's pattern, with a message that says what is wrong with it.
pub fn compile(req: &GrepRequest) -> Result<Regex, String> {
    if req.pattern.is_empty() {
        return Err("the pattern is empty".into());
    }
    let pattern = if req.fixed_strings { regex::escape(&req.pattern) } else { req.pattern.clone() };
    RegexBuilder::new(&pattern)
        .case_insensitive(req.ignore_case)
        .multi_line(true)
        .size_limit(1 << 24)
        .build()
        .map_err(|e| format!("invalid regular expression: {e}"))
}

/// Searches the indexed files of `reader`'s revision under `root` and places the hits in
/// their symbols; the first `counted` groups (those an answer shows) get their symbol's
/// callers and dependents.
pub fn grep(
    root: &Path,
    reader: &Reader<'_>,
    req: &GrepRequest,
    max_file_size: u64,
    counted: usize,
) -> Result<GrepResult, String> {
    let sources = reader.source_stats().map_err(|e| e.to_string())?;
    grep_while(root, reader, &sources, req, max_file_size, counted, || ()).map(|(r, ())| r)
}

/// [`grep`] over `sources` (the reader's [`Reader::source_stats`]) that runs `during` on this
/// thread while the workers read and search the files (the CLI checks the index's freshness
/// against the tree meanwhile, from the same sources).
pub fn grep_while<T>(
    root: &Path,
    reader: &Reader<'_>,
    sources: &[SourceRow],
    req: &GrepRequest,
    max_file_size: u64,
    counted: usize,
    during: impl FnOnce() -> T,
) -> Result<(GrepResult, T), String> {
    let re = compile(req)?;
    let mut files: Vec<&SourceRow> =
        sources.iter().filter(|f| req.path.as_deref().is_none_or(|p| f.path.contains(p))).collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let (found, during) = search_files(root, &files, &re, max_file_size, during);
    let mut result = GrepResult { files_searched: files.len() as u64, ..Default::default() };
    for (file, outcome) in files.iter().zip(found) {
        let (hits, changed) = match outcome {
            Ok((hits, _)) if hits.is_empty() => continue,
            Ok(found) => found,
            Err(why) => {
                result.unreadable.push((file.path.clone(), why));
                continue;
            }
        };
        result.files += 1;
        result.total_lines += hits.len() as u64;
        let lines: Vec<u32> = hits.iter().map(|h| h.line).collect();
        let symbols = reader.enclosing_symbols(&file.path, &lines).map_err(|e| e.to_string())?;
        for (hit, symbol) in hits.into_iter().zip(symbols) {
            let same = |g: &GrepGroup| match (&g.symbol, &symbol) {
                (Some(a), Some(b)) => a.id == b.id,
                (None, None) => true,
                _ => false,
            };
            match result.groups.last_mut() {
                Some(g) if g.file == file.path && same(g) => g.lines.push(hit),
                _ => result.groups.push(GrepGroup {
                    file: file.path.clone(),
                    symbol,
                    lines: vec![hit],
                    changed,
                }),
            }
        }
    }
    for g in result.groups.iter_mut().take(counted) {
        if let Some(s) = &mut g.symbol {
            reader.count_dependents(s).map_err(|e| e.to_string())?;
        }
    }
    Ok((result, during))
}

/// Whether the bytes read now differ from what the revision indexed: another size, or another
/// modification time (or one recorded as too recent to trust) and another git blob ID.
fn changed_since_index(root: &Path, f: &SourceRow, bytes: &[u8]) -> bool {
    if bytes.len() as u64 != f.size {
        return true;
    }
    let mtime = std::fs::metadata(root.join(&f.path)).map_or(0, |m| crate::scan::mtime_ns(&m));
    mtime != f.mtime_ns && crate::scan::content_hash(bytes) != f.hash
}

/// A file's matching lines, and whether it changed since the revision indexed it (looked at
/// only when it has a match).
type Found = Result<(Vec<GrepLine>, bool), String>;

/// Each file's matching lines (or why it could not be read), in `files` order, on all cores.
fn search_files<T>(
    root: &Path,
    files: &[&SourceRow],
    re: &Regex,
    max_size: u64,
    during: impl FnOnce() -> T,
) -> (Vec<Found>, T) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<Found>> = vec![None; files.len()];
    let during = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let next = &next;
                scope.spawn(move || {
                    let mut out = Vec::new();
                    let mut reader = WithinReader::new(root);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(f) = files.get(i) else { break };
                        let found = reader
                            .read(&f.path, max_size)
                            .map(|bytes| {
                                let hits = matching_lines(re, &bytes);
                                let changed =
                                    !hits.is_empty() && changed_since_index(root, f, &bytes);
                                (hits, changed)
                            })
                            .map_err(|d| d.detail);
                        out.push((i, found));
                    }
                    out
                })
            })
            .collect();
        let during = during();
        for h in handles {
            // A worker that panicked leaves its files unanswered (said as unreadable below).
            if let Ok(part) = h.join() {
                for (i, found) in part {
                    slots[i] = Some(found);
                }
            }
        }
        during
    });
    let found = slots
        .into_iter()
        .map(|s| s.unwrap_or_else(|| Err("the search of this file failed".to_string())))
        .collect();
    (found, during)
}

/// The lines of `text` the pattern matches, each once, as ripgrep counts them: a match never
/// spans lines (a match that would is checked again line by line).
pub fn matching_lines(re: &Regex, text: &[u8]) -> Vec<GrepLine> {
    let mut out = Vec::new();
    let mut at = 0; // where the search goes on
    let mut counted = 0; // bytes whose line breaks are counted into `line`
    let mut line: u32 = 1;
    while at <= text.len() {
        let Some(m) = re.find_at(text, at) else { break };
        let start = line_start(text, m.start());
        let end_of = |p: usize| memchr::memchr(b'\n', &text[p..]).map_or(text.len(), |i| p + i);
        if !text[m.start()..m.end()].contains(&b'\n') {
            line += count_breaks(&text[counted..start]);
            counted = start;
            let end = end_of(m.start());
            out.push(GrepLine { line, text: line_text(&text[start..end]) });
            at = end + 1;
            continue;
        }
        // A match across lines: each line it touches is tried alone.
        let last = end_of(m.end().saturating_sub(1).max(m.start()));
        let mut s = start;
        while s <= last && s <= text.len() {
            let e = end_of(s);
            if re.is_match(&text[s..e]) {
                line += count_breaks(&text[counted..s]);
                counted = s;
                out.push(GrepLine { line, text: line_text(&text[s..e]) });
            }
            s = e + 1;
        }
        at = last + 1;
    }
    out
}

fn line_start(text: &[u8], pos: usize) -> usize {
    memchr::memrchr(b'\n', &text[..pos]).map_or(0, |i| i + 1)
}

fn count_breaks(text: &[u8]) -> u32 {
    u32::try_from(memchr::memchr_iter(b'\n', text).count()).unwrap_or(u32::MAX)
}

fn line_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(MAX_LINE_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(pattern: &str, text: &str) -> Vec<(u32, String)> {
        let re = compile(&GrepRequest { pattern: pattern.into(), ..Default::default() })
            .expect("pattern");
        matching_lines(&re, text.as_bytes()).into_iter().map(|l| (l.line, l.text)).collect()
    }

    #[test]
    fn each_matching_line_once_with_its_number() {
        let text = "fn a() {}\nlet x = a(); a();\n\nfn b() {}\r\na";
        assert_eq!(
            lines("a\\(", text),
            [(1, "fn a() {}".to_string()), (2, "let x = a(); a();".to_string())]
        );
        assert_eq!(lines("^fn", text), [(1, "fn a() {}".into()), (4, "fn b() {}".into())]);
        assert_eq!(lines("a$", text), [(5, "a".to_string())]);
        assert_eq!(lines("zzz", text), Vec::<(u32, String)>::new());
    }

    #[test]
    fn matches_never_span_lines() {
        // `\s+` could eat the line break: each line is then tried alone, like ripgrep does.
        let text = "alpha\n  beta\ngamma";
        assert_eq!(lines("a\\s+b", text), Vec::<(u32, String)>::new());
        assert_eq!(lines("\\s+beta", text), [(2, "  beta".to_string())]);
        assert_eq!(lines("ha\\s*$", text), [(1, "alpha".to_string())]);
    }

    #[test]
    fn bad_patterns_say_why() {
        let err = compile(&GrepRequest { pattern: "(".into(), ..Default::default() });
        assert!(err.is_err_and(|e| e.starts_with("invalid regular expression")));
        let fixed = GrepRequest { pattern: "a(".into(), fixed_strings: true, ..Default::default() };
        assert_eq!(matching_lines(&compile(&fixed).expect("literal"), b"x\nfa(b\n").len(), 1);
        let empty = GrepRequest::default();
        assert_eq!(compile(&empty).err().as_deref(), Some("the pattern is empty"));
    }
}
