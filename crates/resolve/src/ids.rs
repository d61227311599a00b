//! Stable, readable node IDs: `file:src/a.ts`, `sym:ts:src/a.ts:Server.start`,
//! `pkg:go:net/http`.
//!
//! IDs are built from the path and the qualified name only (never from byte offsets or line
//! numbers), so an edit elsewhere in a file does not change them. Symbols whose qualified name
//! repeats within a file (Go `init`, redeclarations) get `#2`, `#3`... in source order.

use codegraph_parse::Language;
use codegraph_schema::NodeCategory;

/// `file:{path}`.
pub fn file_id(path: &str) -> String {
    format!("{}:{path}", NodeCategory::File.id_prefix())
}

/// `sym:{tag}:{path}:{qualified_name}` plus `#n` for the n-th duplicate (n >= 2).
pub fn symbol_id(language: Language, path: &str, qualified_name: &str, occurrence: u32) -> String {
    let prefix = NodeCategory::Symbol.id_prefix();
    let tag = language.id_tag();
    if occurrence <= 1 {
        format!("{prefix}:{tag}:{path}:{qualified_name}")
    } else {
        format!("{prefix}:{tag}:{path}:{qualified_name}#{occurrence}")
    }
}

/// `pkg:go:{dir}` (`.` for the root directory).
pub fn go_package_id(dir: &str) -> String {
    let dir = if dir.is_empty() { "." } else { dir };
    format!("{}:go:{dir}", NodeCategory::Package.id_prefix())
}

/// The directory part of a root-relative path (`""` for a file at the root).
pub fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_shapes() {
        assert_eq!(file_id("src/a.ts"), "file:src/a.ts");
        assert_eq!(
            symbol_id(Language::TypeScript, "src/a.ts", "Server.start", 1),
            "sym:ts:src/a.ts:Server.start"
        );
        assert_eq!(symbol_id(Language::Go, "a.go", "init", 2), "sym:go:a.go:init#2");
        assert_eq!(go_package_id("net/http"), "pkg:go:net/http");
        assert_eq!(go_package_id(""), "pkg:go:.");
        assert_eq!(parent_dir("net/http/server.go"), "net/http");
        assert_eq!(parent_dir("main.go"), "");
    }
}
