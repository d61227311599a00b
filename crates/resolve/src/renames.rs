//! What a rename plan must know of a language beyond the graph, asked through the language's
//! resolver ([`crate::languages::LanguageResolver::outside_interface_methods`] and
//! [`crate::languages::LanguageResolver::named_after`]).
//!
//! Why it exists: the engine's rename plans are language-blind; a few facts about renaming
//! are not edges of the graph but conventions of one language (Go: a method may satisfy a
//! standard-library interface the root does not hold; an example test is named after the
//! identifier it documents, and `go vet` checks it; TypeScript: a method named `call`, `then`
//! or `toString` takes part in a protocol of the runtime that no edge records). Each language
//! states them here, through
//! the registry, and the engine applies them without matching on a language.

use crate::languages::resolver;
use codegraph_parse::Language;
use codegraph_schema::NodeKind;

/// The symbol a rename plan is for, as the conventions need it.
pub struct RenameTarget<'a> {
    pub kind: NodeKind,
    pub name: &'a str,
    /// The type a method belongs to (`T` of `T.M`).
    pub owner: Option<&'a str>,
    /// Its file, relative to the root.
    pub path: &'a str,
}

/// Symbols named after a rename's target by convention: those whose name is `prefix`, or
/// `prefix` + `_` + a suffix (lower-case; upper-case too where `upper_suffixes`), declared as
/// functions in files ending with `file_suffix` in the target's directory.
#[derive(Debug, PartialEq)]
pub struct NamedAfter {
    pub prefix: String,
    /// What `prefix` becomes.
    pub new_prefix: String,
    pub upper_suffixes: bool,
    pub file_suffix: &'static str,
    /// The target's directory (`""` at the root).
    pub dir: String,
    /// Why such a symbol is renamed (an edit's reason).
    pub reason: &'static str,
}

impl NamedAfter {
    /// The new name of the symbol `name` (of `kind`, in `path`) when it is named after the
    /// target, else `None`.
    pub fn renamed(&self, name: &str, kind: NodeKind, path: &str) -> Option<String> {
        let rest = name.strip_prefix(self.prefix.as_str())?;
        let fits = rest.is_empty()
            || rest
                .strip_prefix('_')
                .and_then(|r| r.chars().next())
                .is_some_and(|c| c.is_lowercase() || (self.upper_suffixes && c.is_uppercase()));
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        (fits && kind == NodeKind::Function && path.ends_with(self.file_suffix) && dir == self.dir)
            .then(|| format!("{}{rest}", self.new_prefix))
    }
}

/// The methods of interfaces outside any root (a language's standard library) whose name and
/// signature a method of `language` has: `["io.Reader.Read"]` for a Go
/// `func (r *T) Read(p []byte) (n int, err error)`. A rename plan reports them, since a value
/// of the method's type may be used as such an interface where the graph cannot see.
pub fn outside_interface_methods(language: &str, name: &str, signature: &str) -> Vec<String> {
    Language::from_name(language)
        .map_or_else(Vec::new, |l| resolver(l).outside_interface_methods(name, signature))
}

/// What is named after `target` (of `language`) by convention, renamed with it to `new_name`.
pub fn named_after(
    language: &str,
    target: &RenameTarget<'_>,
    new_name: &str,
) -> Option<NamedAfter> {
    resolver(Language::from_name(language)?).named_after(target, new_name)
}
