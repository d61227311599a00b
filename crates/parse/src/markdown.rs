//! Markdown provider: headings become `section` symbols nested by level.
//!
//! A line scanner rather than a grammar: ATX (`# Title`) and setext (`Title` over `===`/`---`)
//! headings, skipping fenced code blocks. A section spans from its heading to the line before
//! the next heading of the same or a higher level (or the end of the file). Its qualified name
//! is the chain of enclosing headings joined by `.`, so a heading text containing dots is kept
//! as written in `name` but the chain stays readable.
//!
//! Each section also records what it mentions ([`Mention`]): inline code spans, names called
//! or selected in fenced code, and link targets. Resolution turns those that name exactly one
//! symbol or file of the workspace into DOC_RELATED edges.

use crate::LanguageSpec;
use crate::Provider;
use crate::facts::{FileFacts, Mention, MentionKind, Symbol, SymbolIdx};
use crate::lang::Capability;
use crate::util::{collapse_whitespace, to_u32};
use codegraph_schema::NodeKind;
use std::collections::HashSet;

pub struct MarkdownProvider;

pub static MARKDOWN: MarkdownProvider = MarkdownProvider;

pub static MARKDOWN_SPEC: LanguageSpec = LanguageSpec {
    name: "markdown",
    id_tag: "md",
    extensions: &["md", "markdown", "mdx"],
    provider: &MARKDOWN,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_test_doc,
    call_expressions: None,
};

/// Markdown under `test/`, `tests/` or `testdata/` documents (or is a fixture of) tests.
fn is_test_doc(path: &str) -> bool {
    crate::under_dir(path, crate::TEST_DIRS)
}

impl Provider for MarkdownProvider {
    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Symbols]
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        None
    }

    fn extract(&self, text: &str, _tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let mut facts = FileFacts::default();
        // (level, symbol index) of the open sections, outermost first.
        let mut open: Vec<(usize, SymbolIdx)> = Vec::new();
        let lines: Vec<&str> = text.lines().collect();
        let last_line = to_u32(lines.len().max(1));
        let mut fence: Option<(char, usize)> = None;
        let mut mentions = Mentions::default();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            let section = open.last().map(|&(_, idx)| idx);
            if let Some((ch, n)) = fence {
                if indent < 4 && trimmed.chars().take_while(|&c| c == ch).count() >= n {
                    let rest = trimmed.trim_start_matches(ch);
                    if rest.trim().is_empty() {
                        fence = None;
                    }
                }
                if fence.is_some() {
                    mentions.code(line, to_u32(i + 1), section);
                }
                i += 1;
                continue;
            }
            if let Some(ch) =
                trimmed.chars().next().filter(|c| indent < 4 && (*c == '`' || *c == '~'))
            {
                let n = trimmed.chars().take_while(|&c| c == ch).count();
                if n >= 3 {
                    fence = Some((ch, n));
                    i += 1;
                    continue;
                }
            }
            let heading = if indent < 4 { atx_heading(trimmed) } else { None }.or_else(|| {
                let next = lines.get(i + 1)?;
                let level = setext_level(next)?;
                let title = line.trim();
                (!title.is_empty() && indent < 4 && !is_block_start(title))
                    .then(|| (level, title.to_string()))
            });
            let Some((level, title)) = heading else {
                mentions.prose(line, to_u32(i + 1), section);
                i += 1;
                continue;
            };
            let line_no = to_u32(i + 1);
            while let Some(&(l, idx)) = open.last() {
                if l < level {
                    break;
                }
                facts.symbols[idx as usize].end_line =
                    line_no.saturating_sub(1).max(facts.symbols[idx as usize].start_line);
                open.pop();
            }
            let parent = open.last().map(|&(_, idx)| idx);
            let name = collapse_whitespace(&title);
            let qualified_name = match parent {
                Some(p) => format!("{}.{}", facts.symbols[p as usize].qualified_name, name),
                None => name.clone(),
            };
            let idx = to_u32(facts.symbols.len());
            facts.symbols.push(Symbol {
                kind: NodeKind::Section,
                signature: format!("{} {}", "#".repeat(level), name),
                name,
                qualified_name,
                parent,
                start_line: line_no,
                end_line: last_line,
                doc: None,
                exported: true,
            });
            open.push((level, idx));
            mentions.prose(&title, line_no, Some(idx));
            // A setext heading consumes its underline too.
            i += if atx_heading(trimmed).is_some() { 1 } else { 2 };
        }
        facts.mentions = mentions.list;
        facts
    }
}

/// The mentions of one file, one per (section, kind, text).
#[derive(Default)]
struct Mentions {
    list: Vec<Mention>,
    seen: HashSet<(Option<SymbolIdx>, MentionKind, String)>,
}

/// Longest inline code span or link target taken as a mention.
const MAX_MENTION: usize = 200;

impl Mentions {
    fn push(&mut self, kind: MentionKind, text: &str, line: u32, section: Option<SymbolIdx>) {
        let text = text.trim();
        if text.is_empty() || text.len() > MAX_MENTION {
            return;
        }
        if self.seen.insert((section, kind, text.to_string())) {
            self.list.push(Mention { kind, text: text.to_string(), line, section });
        }
    }

    /// A prose line: inline code spans (a span with spaces is read as code) and link targets.
    fn prose(&mut self, line: &str, line_no: u32, section: Option<SymbolIdx>) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'`' {
                let run = b[i..].iter().take_while(|&&c| c == b'`').count();
                let body = i + run;
                let close = find_run(b, body, run);
                match close {
                    Some(end) => {
                        let span = &line[body..end];
                        if span.trim().contains(char::is_whitespace) {
                            self.code(span, line_no, section);
                        } else {
                            self.push(MentionKind::Code, span, line_no, section);
                        }
                        i = end + run;
                    }
                    None => i = body,
                }
                continue;
            }
            if b[i] == b']' && b.get(i + 1) == Some(&b'(') {
                let start = i + 2;
                let end = b[start..]
                    .iter()
                    .position(|&c| c == b')' || c == b' ')
                    .map_or(b.len(), |p| start + p);
                self.link(&line[start..end], line_no, section);
                i = end;
                continue;
            }
            i += 1;
        }
        // `[label]: target` (a link reference definition).
        let t = line.trim_start();
        if t.starts_with('[')
            && let Some(p) = t.find("]:")
            && let Some(target) = t[p + 2..].split_whitespace().next()
        {
            self.link(target, line_no, section);
        }
    }

    fn link(&mut self, target: &str, line_no: u32, section: Option<SymbolIdx>) {
        let target = target.trim_start_matches('<').trim_end_matches('>');
        let target = target.split(['#', '?']).next().unwrap_or("");
        // Absolute URLs and mail links name nothing in the repository.
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            return;
        }
        self.push(MentionKind::Link, target, line_no, section);
    }

    /// A line of code: dotted names that are called (`mux.NewRouter(`, `r.HandleFunc(`,
    /// `Handle(`) and qualified names that are not (`http.MethodGet`); not a member called on
    /// a call's result (`f(x).Serve(`), nor a name the line declares.
    fn code(&mut self, line: &str, line_no: u32, section: Option<SymbolIdx>) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            let starts = (c.is_ascii_alphabetic() || c == b'_')
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
            if !starts {
                i += 1;
                continue;
            }
            let start = i;
            let mut dots = 0;
            loop {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if i + 1 < b.len()
                    && b[i] == b'.'
                    && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_')
                {
                    dots += 1;
                    i += 1;
                    continue;
                }
                break;
            }
            // `).ServeHTTP(`: a member of a value whose type the line does not say.
            let member = start > 0 && b[start - 1] == b'.';
            if (b.get(i) == Some(&b'(') || dots > 0) && !member && !declares(line, start) {
                self.push(MentionKind::Fenced, &line[start..i], line_no, section);
            }
        }
    }
}

/// Whether the name at `start` is being declared, not used: `func name(`, `function name(`,
/// `func (r T) name(` (an example's own function is not the workspace's).
fn declares(line: &str, start: usize) -> bool {
    let before = line[..start].trim_end();
    before.ends_with("func")
        || before.ends_with("function")
        || (before.ends_with(')') && line.trim_start().starts_with("func "))
}

/// The position of the next run of exactly `n` backticks at or after `from`.
fn find_run(b: &[u8], mut from: usize, n: usize) -> Option<usize> {
    while from < b.len() {
        if b[from] == b'`' {
            let run = b[from..].iter().take_while(|&&c| c == b'`').count();
            if run == n {
                return Some(from);
            }
            from += run;
        } else {
            from += 1;
        }
    }
    None
}

/// `## Title ##` -> (2, "Title").
fn atx_heading(trimmed: &str) -> Option<(usize, String)> {
    let level = trimmed.chars().take_while(|&c| c == '#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &trimmed[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim_end();
    (!title.is_empty()).then(|| title.to_string()).map(|t| (level, t))
}

fn setext_level(line: &str) -> Option<usize> {
    let t = line.trim();
    if t.is_empty() || line.len() - line.trim_start().len() >= 4 {
        return None;
    }
    if t.chars().all(|c| c == '=') {
        Some(1)
    } else if t.chars().all(|c| c == '-') && t.len() >= 2 {
        Some(2)
    } else {
        None
    }
}

/// Lines that cannot be the text of a setext heading (lists, quotes, tables, rules, HTML).
fn is_block_start(t: &str) -> bool {
    t.starts_with(['-', '*', '+', '>', '|', '<', '#']) || t.chars().all(|c| c == '=' || c == '-')
}
