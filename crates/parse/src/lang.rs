//! Which languages codegraph understands, how a path maps to one, and what each provider can do.

/// A language with a provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    TypeScript,
    Tsx,
    JavaScript,
    Go,
    Markdown,
}

/// A kind of fact a provider can extract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capability {
    Symbols,
    Imports,
    Calls,
    Types,
    Routes,
    Tools,
}

/// What the providers of programming languages (Go, TypeScript / JavaScript) extract.
pub const CODE_CAPABILITIES: &[Capability] = &[
    Capability::Symbols,
    Capability::Imports,
    Capability::Calls,
    Capability::Types,
    Capability::Routes,
    Capability::Tools,
];

impl Capability {
    pub const fn as_str(self) -> &'static str {
        match self {
            Capability::Symbols => "symbols",
            Capability::Imports => "imports",
            Capability::Calls => "calls",
            Capability::Types => "types",
            Capability::Routes => "routes",
            Capability::Tools => "tools",
        }
    }
}

impl Language {
    pub const ALL: &'static [Language] = &[
        Language::TypeScript,
        Language::Tsx,
        Language::JavaScript,
        Language::Go,
        Language::Markdown,
    ];

    /// The language of a path, from its file name; `None` when no provider understands it.
    pub fn from_path(path: &str) -> Option<Language> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.')?.1;
        Language::ALL.iter().copied().find(|l| l.extensions().contains(&ext))
    }

    /// The file-name extensions (without the dot) this language's provider reads.
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::TypeScript => &["ts", "mts", "cts"],
            Language::Tsx => &["tsx"],
            Language::JavaScript => &["js", "jsx", "mjs", "cjs"],
            Language::Go => &["go"],
            Language::Markdown => &["md", "markdown", "mdx"],
        }
    }

    /// The spelling stored on file nodes.
    pub const fn as_str(self) -> &'static str {
        match self {
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::JavaScript => "javascript",
            Language::Go => "go",
            Language::Markdown => "markdown",
        }
    }

    /// The tag in symbol IDs (`sym:ts:...`). TypeScript and TSX share `ts`.
    pub const fn id_tag(self) -> &'static str {
        match self {
            Language::TypeScript | Language::Tsx => "ts",
            Language::JavaScript => "js",
            Language::Go => "go",
            Language::Markdown => "md",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_from_paths() {
        assert_eq!(Language::from_path("src/a.ts"), Some(Language::TypeScript));
        assert_eq!(Language::from_path("src/a.d.ts"), Some(Language::TypeScript));
        assert_eq!(Language::from_path("a/b.tsx"), Some(Language::Tsx));
        assert_eq!(Language::from_path("x.cjs"), Some(Language::JavaScript));
        assert_eq!(Language::from_path("x.jsx"), Some(Language::JavaScript));
        assert_eq!(Language::from_path("net/http/server.go"), Some(Language::Go));
        assert_eq!(Language::from_path("README.md"), Some(Language::Markdown));
        assert_eq!(Language::from_path("Makefile"), None);
        assert_eq!(Language::from_path("dir.go/file"), None);
        assert_eq!(Language::from_path("a.txt"), None);
    }
}
