//! The grammar of node IDs, built and taken apart in this one place.
//!
//! IDs are stable and readable: `file:src/a.ts`, `sym:ts:src/a.ts:Server.start`,
//! `pkg:go:net/http`, `route:src/app.ts:GET /users/:id`, `tool:srv.ts:search`,
//! `proc:sym:go:main.go:main`, `cluster:http#2`, `concept:cmd:kubectl`. They are built from paths, qualified names and
//! labels only (never from byte offsets or line numbers), so an edit elsewhere in a file does not
//! change them. A name that repeats within its scope gets `#2`, `#3`... in source order.
//!
//! Why it exists: the resolver builds IDs, the derivations build flow and cluster IDs, and the
//! read model and the front ends recognise them (`is this a file?`, `which file?`); spelling the
//! prefixes by hand in each of them is how two layers drift apart.

use crate::NodeCategory;

fn numbered(base: String, occurrence: u32) -> String {
    if occurrence <= 1 { base } else { format!("{base}#{occurrence}") }
}

/// `file:{path}`.
pub fn file(path: &str) -> String {
    format!("{}:{path}", NodeCategory::File.id_prefix())
}

/// `sym:{tag}:{path}:{qualified_name}` plus `#n` for the n-th duplicate (n >= 2); `tag` is the
/// language's ID tag (`go`, `ts`...).
pub fn symbol(tag: &str, path: &str, qualified_name: &str, occurrence: u32) -> String {
    let prefix = NodeCategory::Symbol.id_prefix();
    numbered(format!("{prefix}:{tag}:{path}:{qualified_name}"), occurrence)
}

/// `pkg:{tag}:{dir}` (`.` for the root directory).
pub fn package(tag: &str, dir: &str) -> String {
    let dir = if dir.is_empty() { "." } else { dir };
    format!("{}:{tag}:{dir}", NodeCategory::Package.id_prefix())
}

/// `route:{file}:{METHOD} {path}` plus `#n` for the n-th duplicate in the file.
pub fn route(file: &str, label: &str, occurrence: u32) -> String {
    numbered(format!("{}:{file}:{label}", NodeCategory::Route.id_prefix()), occurrence)
}

/// `tool:{file}:{name}` plus `#n` for the n-th duplicate in the file.
pub fn tool(file: &str, name: &str, occurrence: u32) -> String {
    numbered(format!("{}:{file}:{name}", NodeCategory::Tool.id_prefix()), occurrence)
}

/// `proc:{entry node ID}`: the execution flow that starts at the entry.
pub fn process(entry: &str) -> String {
    format!("{}:{entry}", NodeCategory::Process.id_prefix())
}

/// `cluster:{slug}` plus `#n` for the n-th cluster with the same slug.
pub fn cluster(slug: &str, occurrence: u32) -> String {
    numbered(format!("{}:{slug}", NodeCategory::Cluster.id_prefix()), occurrence)
}

/// `concept:{tag}:{name}` for a concept kind (`concept:cmd:kubectl`, `concept:env:HOME`,
/// `concept:image:nginx`); `None` for a kind that is not a concept.
pub fn concept(kind: crate::NodeKind, name: &str) -> Option<String> {
    let tag = kind.concept_tag()?;
    Some(format!("{}:{tag}:{name}", NodeCategory::Concept.id_prefix()))
}

/// The kind and name of a `concept:` ID (`concept:cmd:kubectl` -> (`command`, `kubectl`));
/// `None` for any other ID or an unknown tag.
pub fn concept_parts(id: &str) -> Option<(crate::NodeKind, &str)> {
    let (tag, name) = rest(id, NodeCategory::Concept)?.split_once(':')?;
    let kind = crate::NodeKind::ALL.iter().copied().find(|k| k.concept_tag() == Some(tag))?;
    Some((kind, name))
}

/// The category an ID names, from its prefix; `None` when it has no known prefix.
pub fn category(id: &str) -> Option<NodeCategory> {
    let (prefix, _) = id.split_once(':')?;
    NodeCategory::ALL.iter().copied().find(|c| c.id_prefix() == prefix)
}

/// Whether `id` names a node of category `c`.
pub fn is(id: &str, c: NodeCategory) -> bool {
    rest(id, c).is_some()
}

/// The file path of a `file:` ID; `None` for any other ID.
pub fn file_path(id: &str) -> Option<&str> {
    rest(id, NodeCategory::File)
}

/// What follows the `{prefix}:` of an ID of category `c`; `None` for IDs of other categories.
pub fn rest(id: &str, c: NodeCategory) -> Option<&str> {
    id.strip_prefix(c.id_prefix())?.strip_prefix(':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_round_trips() {
        assert_eq!(file("src/a.ts"), "file:src/a.ts");
        assert_eq!(symbol("ts", "src/a.ts", "Server.start", 1), "sym:ts:src/a.ts:Server.start");
        assert_eq!(symbol("go", "a.go", "init", 2), "sym:go:a.go:init#2");
        assert_eq!(package("go", "net/http"), "pkg:go:net/http");
        assert_eq!(package("go", ""), "pkg:go:.");
        assert_eq!(route("app.ts", "GET /u/:id", 1), "route:app.ts:GET /u/:id");
        assert_eq!(tool("srv.ts", "search", 3), "tool:srv.ts:search#3");
        assert_eq!(process("sym:go:m.go:main"), "proc:sym:go:m.go:main");
        assert_eq!(cluster("http", 2), "cluster:http#2");
        assert_eq!(category("proc:sym:go:m.go:main"), Some(NodeCategory::Process));
        assert_eq!(category("sym:go:a.go:F"), Some(NodeCategory::Symbol));
        assert_eq!(category("nope:x"), None);
        assert_eq!(category("file"), None);
        assert_eq!(file_path("file:a/b.go"), Some("a/b.go"));
        assert_eq!(file_path("files:a"), None);
        assert_eq!(file_path("sym:go:a.go:F"), None);
        assert!(is("cluster:x", NodeCategory::Cluster));
        let cmd = concept(crate::NodeKind::Command, "kubectl");
        assert_eq!(cmd.as_deref(), Some("concept:cmd:kubectl"));
        assert_eq!(category("concept:env:HOME"), Some(NodeCategory::Concept));
        assert_eq!(concept(crate::NodeKind::Function, "f"), None);
        let image = concept(crate::NodeKind::Image, "nginx:1.25").unwrap_or_default();
        assert_eq!(concept_parts(&image), Some((crate::NodeKind::Image, "nginx:1.25")));
        assert_eq!(concept_parts("concept:nope:x"), None);
        assert_eq!(concept_parts("sym:go:a.go:F"), None);
        assert!(!is("clusterx", NodeCategory::Cluster));
    }
}
