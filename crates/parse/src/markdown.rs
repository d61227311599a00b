//! Markdown provider: headings become `section` symbols nested by level.
//!
//! A line scanner rather than a grammar: ATX (`# Title`) and setext (`Title` over `===`/`---`)
//! headings, skipping fenced code blocks. A section spans from its heading to the line before
//! the next heading of the same or a higher level (or the end of the file). Its qualified name
//! is the chain of enclosing headings joined by `.`, so a heading text containing dots is kept
//! as written in `name` but the chain stays readable.

use crate::Provider;
use crate::facts::{FileFacts, Symbol, SymbolIdx};
use crate::lang::{Capability, Language};
use crate::util::{collapse_whitespace, to_u32};
use codegraph_schema::NodeKind;

pub struct MarkdownProvider;

pub static MARKDOWN: MarkdownProvider = MarkdownProvider;

impl Provider for MarkdownProvider {
    fn language(&self) -> Language {
        Language::Markdown
    }

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
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            if let Some((ch, n)) = fence {
                if indent < 4 && trimmed.chars().take_while(|&c| c == ch).count() >= n {
                    let rest = trimmed.trim_start_matches(ch);
                    if rest.trim().is_empty() {
                        fence = None;
                    }
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
            // A setext heading consumes its underline too.
            i += if atx_heading(trimmed).is_some() { 1 } else { 2 };
        }
        facts
    }
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
