//! A YAML syntax tree (tree-sitter-yaml) read as plain values with their lines: what the
//! Kubernetes provider walks. Mappings keep their keys in order; scalars are unquoted (the
//! common escapes of double-quoted scalars decoded); anchors and tags are looked through; an
//! alias reads as null (a manifest that needs one is rare, and guessing its target is worse).

use crate::grammar::grammar_ids;
use tree_sitter::Node;

grammar_ids! {
    pub(crate) struct Ids {
        kinds {
            document = "document",
            block_node = "block_node",
            flow_node = "flow_node",
            block_mapping = "block_mapping",
            block_mapping_pair = "block_mapping_pair",
            flow_mapping = "flow_mapping",
            flow_pair = "flow_pair",
            block_sequence = "block_sequence",
            block_sequence_item = "block_sequence_item",
            flow_sequence = "flow_sequence",
            plain_scalar = "plain_scalar",
            double_quote_scalar = "double_quote_scalar",
            single_quote_scalar = "single_quote_scalar",
            block_scalar = "block_scalar",
            comment = "comment",
        }
        anon {}
        fields {
            key = "key",
            value = "value",
        }
    }
}

/// A YAML value with the 1-based line it starts on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Map(Vec<(String, Value)>, u32),
    Seq(Vec<Value>, u32),
    Scalar(String, u32),
    Null(u32),
}

impl Value {
    pub fn line(&self) -> u32 {
        match self {
            Value::Map(_, l) | Value::Seq(_, l) | Value::Scalar(_, l) | Value::Null(l) => *l,
        }
    }

    /// The value of a mapping's key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(pairs, _) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value at a path of keys.
    pub fn at(&self, path: &[&str]) -> Option<&Value> {
        path.iter().try_fold(self, |v, k| v.get(k))
    }

    /// A scalar's text.
    pub fn str(&self) -> Option<&str> {
        match self {
            Value::Scalar(s, _) => Some(s),
            _ => None,
        }
    }

    /// A scalar at a path of keys.
    pub fn str_at(&self, path: &[&str]) -> Option<&str> {
        self.at(path).and_then(Value::str)
    }

    /// A sequence's items (none for anything else).
    pub fn items(&self) -> &[Value] {
        match self {
            Value::Seq(items, _) => items,
            _ => &[],
        }
    }

    /// A mapping's pairs (none for anything else).
    pub fn pairs(&self) -> &[(String, Value)] {
        match self {
            Value::Map(pairs, _) => pairs,
            _ => &[],
        }
    }
}

pub(crate) struct Reader<'s> {
    pub ids: Ids,
    pub src: &'s str,
}

impl<'s> Reader<'s> {
    fn text(&self, n: Node<'_>) -> &'s str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    /// The value of a document node (`None` for an empty document).
    pub fn document(&self, doc: Node<'_>) -> Option<Value> {
        let mut c = doc.walk();
        let body = doc
            .named_children(&mut c)
            .find(|n| n.kind_id() == self.ids.block_node || n.kind_id() == self.ids.flow_node)?;
        Some(self.value(body, 0))
    }

    fn line(n: Node<'_>) -> u32 {
        u32::try_from(n.start_position().row + 1).unwrap_or(u32::MAX)
    }

    fn value(&self, n: Node<'_>, depth: u32) -> Value {
        let line = Self::line(n);
        if depth > 64 {
            return Value::Null(line);
        }
        let k = n.kind_id();
        if k == self.ids.block_node || k == self.ids.flow_node || k == self.ids.block_sequence_item
        {
            // Look through anchors and tags: the content is the last named child that is not
            // a comment.
            let mut c = n.walk();
            let inner = n.named_children(&mut c).filter(|x| x.kind_id() != self.ids.comment).last();
            return match inner {
                Some(i) if self.is_content(i) => self.value(i, depth + 1),
                _ => Value::Null(line),
            };
        }
        if k == self.ids.block_mapping || k == self.ids.flow_mapping {
            let mut pairs = Vec::new();
            let mut c = n.walk();
            for p in n.named_children(&mut c) {
                if p.kind_id() != self.ids.block_mapping_pair && p.kind_id() != self.ids.flow_pair {
                    continue;
                }
                let key = p
                    .child_by_field_id(self.ids.key)
                    .map(|k| self.value(k, depth + 1))
                    .and_then(|v| v.str().map(str::to_string));
                let Some(key) = key else { continue };
                let value = p
                    .child_by_field_id(self.ids.value)
                    .map_or(Value::Null(Self::line(p)), |v| self.value(v, depth + 1));
                pairs.push((key, value));
            }
            return Value::Map(pairs, line);
        }
        if k == self.ids.block_sequence || k == self.ids.flow_sequence {
            let mut c = n.walk();
            let items = n
                .named_children(&mut c)
                .filter(|x| x.kind_id() != self.ids.comment)
                .map(|x| self.value(x, depth + 1))
                .collect();
            return Value::Seq(items, line);
        }
        if k == self.ids.plain_scalar {
            return Value::Scalar(self.text(n).trim().to_string(), line);
        }
        if k == self.ids.double_quote_scalar {
            return Value::Scalar(unescape(strip(self.text(n), '"')), line);
        }
        if k == self.ids.single_quote_scalar {
            return Value::Scalar(strip(self.text(n), '\'').replace("''", "'"), line);
        }
        if k == self.ids.block_scalar {
            let t = self.text(n);
            let body = t.split_once('\n').map_or("", |(_, b)| b);
            let lines: Vec<&str> = body.lines().map(str::trim).collect();
            return Value::Scalar(lines.join("\n"), line);
        }
        Value::Null(line)
    }

    fn is_content(&self, n: Node<'_>) -> bool {
        let k = n.kind_id();
        [
            self.ids.block_mapping,
            self.ids.flow_mapping,
            self.ids.block_sequence,
            self.ids.flow_sequence,
            self.ids.plain_scalar,
            self.ids.double_quote_scalar,
            self.ids.single_quote_scalar,
            self.ids.block_scalar,
            self.ids.block_node,
            self.ids.flow_node,
        ]
        .contains(&k)
    }
}

fn strip(s: &str, q: char) -> &str {
    let s = s.strip_prefix(q).unwrap_or(s);
    s.strip_suffix(q).unwrap_or(s)
}

/// The escapes manifests use in double-quoted scalars (`\"`, `\\`, `\n`, `\t`); others kept.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}
