//! Which languages codegraph understands, how a path maps to one, and what each provider can do.

/// What a language module declares about its language; everything generic code needs (how a
/// path maps to it, how its files and symbols are named, who extracts it) comes from here, so
/// no generic code matches on a language.
pub struct LanguageSpec {
    /// The spelling stored on file nodes (`typescript`, `go`).
    pub name: &'static str,
    /// The tag in symbol IDs (`sym:ts:...`); TypeScript and TSX share `ts`.
    pub id_tag: &'static str,
    /// The file-name extensions (without the dot) the provider reads.
    pub extensions: &'static [&'static str],
    /// Who extracts its facts.
    pub provider: &'static dyn crate::Provider,
    /// The function the language runs as a program's entry whether or not it is exported
    /// (Go: `main`), for execution flows.
    pub program_entry: Option<&'static str>,
    /// The module that owns the language (`module_path!()` of its spec): where code may name
    /// it (the tidy test's rule; TypeScript's module serves TSX and JavaScript too).
    pub module: &'static str,
    /// Files the language claims by their text, not their name; `None`: by name only.
    pub detect: Option<Detect>,
    /// Whether a file of the language is test code, by its path (Go: `_test.go`; TS/JS:
    /// `*.test.*`, `__tests__/`). Stored on every node of the file, so answers (tests listed
    /// apart, impact leaving tests out) and derivations (TESTS, flows) read one rule.
    pub test_file: fn(&str) -> bool,
    /// The number of call expressions in a syntax tree of the language, when its resolver
    /// keeps the call accounting (every call expression is a CALLS edge, an unresolved site
    /// or a call outside the workspace); checked by the accounting goldens and harnesses.
    pub call_expressions: Option<fn(&tree_sitter::Tree, &str) -> usize>,
}

/// The directories most languages keep tests in (`test/`, `tests/`) and test data in
/// (`testdata/`, which holds fixtures of every language); a language's
/// [`LanguageSpec::test_file`] usually starts from [`under_dir`] with these.
pub const TEST_DIRS: &[&str] = &["test", "tests", "testdata"];

/// Whether some directory of `path` (not its file name) is named one of `dirs`.
pub fn under_dir(path: &str, dirs: &[&str]) -> bool {
    path.split('/').rev().skip(1).any(|dir| dirs.contains(&dir))
}

/// The name of the file at `path` (its last component).
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whether the file at `path`, read as `language`, is test code: the language's rule, or for
/// files no provider reads (fixtures, data), whether they lie in a directory of tests or test
/// data of any language.
pub fn is_test_file(language: Option<Language>, path: &str) -> bool {
    match language {
        Some(l) => (l.spec().test_file)(path),
        None => under_dir(path, TEST_DIRS) || under_dir(path, &["__tests__"]),
    }
}

/// How a language claims files by content: among the files whose extension is one of
/// `extensions` (`""`: no extension) and that no language claims by name, those whose text
/// `claims` accepts (`#!/bin/bash` scripts without an extension; YAML with Kubernetes
/// objects).
pub struct Detect {
    pub extensions: &'static [&'static str],
    /// `(path, text)`: whether the file is the language's.
    pub claims: fn(&str, &str) -> bool,
    /// What it claims, for people (`codegraph languages`).
    pub describe: &'static str,
}

/// The registry: one line per language, `Variant => module::SPEC`. It declares the
/// [`Language`] enum, [`Language::ALL`] in this order, and [`Language::spec`].
macro_rules! languages {
    ($( $(#[$meta:meta])* $variant:ident => $spec:path ),+ $(,)?) => {
        /// A language with a provider.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Language {
            $( $(#[$meta])* $variant ),+
        }

        impl Language {
            /// Every language, in the registry's order.
            pub const ALL: &'static [Language] = &[ $( $(#[$meta])* Language::$variant ),+ ];

            /// What the language's module declares about it.
            pub fn spec(self) -> &'static LanguageSpec {
                match self { $( $(#[$meta])* Language::$variant => &$spec ),+ }
            }
        }
    };
}

languages! {
    TypeScript => crate::typescript::TYPESCRIPT_SPEC,
    Tsx => crate::typescript::TSX_SPEC,
    JavaScript => crate::typescript::JAVASCRIPT_SPEC,
    Go => crate::go::GO_SPEC,
    Markdown => crate::markdown::MARKDOWN_SPEC,
    Terraform => crate::terraform::TERRAFORM_SPEC,
    Shell => crate::shell::SHELL_SPEC,
    Kubernetes => crate::kubernetes::KUBERNETES_SPEC,
    Elixir => crate::elixir::ELIXIR_SPEC,
    Python => crate::python::PYTHON_SPEC,
    Java => crate::java::JAVA_SPEC,
    Rust => crate::rust::RUST_SPEC,
    Protobuf => crate::protobuf::PROTOBUF_SPEC,
    // The example language that proves the registry (tests only).
    #[cfg(feature = "example-language")]
    Toy => crate::toy::TOY_SPEC,
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
    /// The language of a path, from its file name; `None` when no provider understands it.
    pub fn from_path(path: &str) -> Option<Language> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.')?.1;
        Language::ALL.iter().copied().find(|l| l.extensions().contains(&ext))
    }

    /// The language of a file from its path and text: by name ([`Language::from_path`]),
    /// else the first language whose [`Detect`] claims it.
    pub fn detect(path: &str, text: &str) -> Option<Language> {
        Language::from_path(path).or_else(|| {
            let name = path.rsplit('/').next().unwrap_or(path);
            let ext =
                name.rsplit_once('.').map_or("", |(stem, e)| if stem.is_empty() { "" } else { e });
            Language::ALL.iter().copied().find(|l| {
                l.spec()
                    .detect
                    .as_ref()
                    .is_some_and(|d| d.extensions.contains(&ext) && (d.claims)(path, text))
            })
        })
    }

    /// The language stored under this name ([`Language::as_str`]).
    pub fn from_name(name: &str) -> Option<Language> {
        Language::ALL.iter().copied().find(|l| l.as_str() == name)
    }

    /// The file-name extensions (without the dot) this language's provider reads.
    pub fn extensions(self) -> &'static [&'static str] {
        self.spec().extensions
    }

    /// The spelling stored on file nodes.
    pub fn as_str(self) -> &'static str {
        self.spec().name
    }

    /// The tag in symbol IDs (`sym:ts:...`).
    pub fn id_tag(self) -> &'static str {
        self.spec().id_tag
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

    #[test]
    fn test_files_by_language() {
        use Language::*;
        let cases: &[(Option<Language>, &str, bool)] = &[
            (Some(Go), "net/http/server_test.go", true),
            (Some(Go), "x/testdata/y.go", true),
            (Some(Go), "pkg/tests/x.go", true),
            (Some(Go), "src/contest/a.go", false),
            // Other languages' conventions are not Go's.
            (Some(Go), "a.test.go", false),
            (Some(Go), "x/__tests__/y.go", false),
            (Some(TypeScript), "src/a.test.ts", true),
            (Some(Tsx), "src/a.spec.tsx", true),
            (Some(TypeScript), "src/__tests__/a.ts", true),
            (Some(TypeScript), "test/a.ts", true),
            (Some(JavaScript), "lib/a_test.js", false),
            (Some(TypeScript), "src/testing.ts", false),
            (Some(TypeScript), "src/test.ts", false),
            (Some(TypeScript), "latest/a.ts", false),
            (Some(Elixir), "test/my_app/user_test.exs", true),
            (Some(Elixir), "test/support/conn_case.ex", true),
            (Some(Elixir), "lib/my_app/user.ex", false),
            (Some(Shell), "scripts/test_install.sh", true),
            (Some(Shell), "scripts/install_test.sh", true),
            (Some(Shell), "tests/run", true),
            (Some(Shell), "scripts/latest.sh", false),
            (Some(Shell), "cmd/go/testdata/failssh/ssh", true),
            (Some(Markdown), "go/doc/testdata/README.md", true),
            (Some(Terraform), "tests/setup/main.tf", true),
            (Some(Terraform), "modules/vpc/main.tf", false),
            (Some(Kubernetes), "test/e2e/deploy.yaml", true),
            (Some(Kubernetes), "deploy/app.yaml", false),
            (Some(Markdown), "README.md", false),
            (None, "src/__tests__/fixture.json", true),
            (None, "x/testdata/a.txt", true),
            (None, "data/a.json", false),
        ];
        for &(language, path, test) in cases {
            assert_eq!(is_test_file(language, path), test, "{language:?} {path}");
        }
    }
}
