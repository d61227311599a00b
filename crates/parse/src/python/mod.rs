//! Python provider (`.py`, `.pyi`; tree-sitter-python): classes, functions, methods,
//! properties, module and class variables, imports, call sites with their receivers, base
//! classes and the type hints resolution follows (annotations, constructions, call results).
//!
//! Symbols (qualified by the chain of enclosing `def` / `class` names, the eval convention:
//! `Session.request`, `outer.inner`): `class` (kind `enum` when a base is `Enum`, `IntEnum`,
//! `StrEnum`, `Flag` or `IntFlag`), `def` at module level or nested in a function (`function`),
//! in a class (`method`; `property` when decorated `@property`, `@cached_property` or
//! `@x.setter` / `.getter` / `.deleter`: a setter is a second symbol of the same name),
//! variables assigned at module level (`constant` when the name is UPPER_CASE, else
//! `variable`; a lambda bound to a name is a `function`), class-level assignments and
//! annotations (`property`: dataclass, attrs and pydantic fields are these), and attributes a
//! method assigns on its instance (`self.x = ...`, a `property` of the class unless the class
//! body declares it). Definitions under `if` / `try` are read in every branch (a name defined
//! twice is two symbols, `#2` in its ID). A symbol starts at its `def` / `class` line
//! (decorators are code of the enclosing scope, as the oracle's line rule has it); its
//! signature starts at its first decorator, so decorators are recorded on the symbol. The
//! docstring is the doc. Exported: the name is in `__all__` when the module declares it, else
//! it does not start with `_` (dunder names are public); a nested symbol is exported when its
//! parent is.
//!
//! Imports ([`FileFacts::imports`]): `import a.b.c` is `Package` with one `Namespace` binding
//! (local `None`: the statement binds `a`; `import a.b as d` binds `d` to `a.b`); `from X
//! import a, b as c` is `EsImport` (`TypeOnly` under `if TYPE_CHECKING:`) with `Named`
//! bindings, `from X import *` one `All` binding; the source keeps its leading dots (`.`,
//! `..models`). `__future__` imports are not recorded.
//!
//! This language's encodings in the shared fields (read only by its resolver):
//! - `__all__ = [...]` (and `+=` / `.extend` of literals) is [`FileFacts::export_aliases`],
//!   one `(name, name)` pair per listed name, in order.
//! - Receivers: the first parameter of a method (not a `@staticmethod`) is the instance
//!   (`self`, or the class for a `@classmethod`'s `cls`), whatever its name: `self.m()` is
//!   [`Receiver::This`], `self.a.m()` is `Path(["self", "a"])`, and calling it (`cls()`) is
//!   `This` with an empty name. `super().m()` (with or without arguments) is `Super`. A literal
//!   receiver is a path naming its builtin type (`"".join()` -> `Path(["str"])`; `list`,
//!   `dict`, `set`, `tuple`, `int`, `float`, `bytes`). A callee that is no name (`f()()` aside,
//!   which is `CallResult(f)` with an empty name; `handlers[k](x)`) is `Other` with the
//!   callee's text as its name.
//! - Type hints: annotation texts are normalized ([`normalize_annotation`]): quotes, `Optional`,
//!   `| None`, `ClassVar`, `Final`, `Annotated` and type arguments are dropped, and an
//!   iterable of `X` (`list[X]`, `Sequence[X]`, `Iterator[X]`, `tuple[X, ...]`...) is `X[]`, a
//!   tuple of given types (`tuple[A, B]`) is `(A,B)` (`?` for an element we cannot name), and
//!   `a, b = v` gives each name the element `[i]` of `v` (a path segment, or the name of a
//!   callee whose receiver is the call: `CallResult(Callee { receiver: CallResult(f), name:
//!   "[0]" })`).
//!   `x = f(...)` is `CallResult(f)` (a class called constructs it: resolution decides),
//!   `x = a.b` is `Value(Path(["a", "b"]))`, `for x in a.b:` is `Value(Path(["a", "b",
//!   "[]"]))` (an element of it) and `for x in f():` is `CallResult(Callee { receiver:
//!   CallResult(f), name: "[]" })` (an element of its result; comprehensions too), `with f()
//!   as x:` is `CallResult(f)`, `x = cast(T, v)` is `Annotation(T)`. A function without a
//!   declared return type gets a hint with an empty name holding its first informative
//!   `return` value (locals replaced by what they hold, as for `self.x = v`; `return self`
//!   is `Value(Path(["self"]))`). An instance attribute
//!   `self.x = v` is a hint of the class (scope: the class) whose source was evaluated in the
//!   method: a parameter or local with a known source is replaced by that source, and a hint
//!   that would name a local the class cannot see is dropped, so every hint of a class reads
//!   in module scope.
//! - Calls of a name bound in an enclosing function (a parameter, a local assigned, a loop
//!   or `with` target) are `local` (a call of a value, never of a module-level declaration).
//!
//! [`FileFacts::accesses`]: attributes read or written and not called (`self.x`, `a.b = v`,
//! `del a.b`, the inner `a.b` of `a.b.c()`), with the receiver shapes of calls.
//!
//! Routes (Flask, FastAPI, Django), MCP tools (`FastMCP`), mounts and HTTP client calls
//! (`requests`, `httpx`): `routes.rs`.
//!
//! - [`FileFacts::value_refs`]: names and dotted paths used as values, not called (call
//!   arguments, assigned or returned values, elements of literals, decorators that are not
//!   calls), one per (enclosing symbol, text), locals and `self` paths left out: REFERS_TO.

mod repair;
mod routes;
mod walk;

use crate::facts::FileFacts;
use crate::grammar::grammar_ids;
use crate::util::count_errors;
use crate::{Capability, LanguageSpec, Provider};

grammar_ids! {
    /// The grammar's field ids, looked up once: `child_by_field_name` compares the name
    /// with the grammar's field names at every call (it showed in the walk's profile).
    pub(crate) struct Fields {
        kinds {}
        anon {}
        fields {
            alias = "alias",
            arguments = "arguments",
            attribute = "attribute",
            body = "body",
            condition = "condition",
            consequence = "consequence",
            definition = "definition",
            function = "function",
            key = "key",
            left = "left",
            module_name = "module_name",
            name = "name",
            object = "object",
            parameters = "parameters",
            return_type = "return_type",
            right = "right",
            superclasses = "superclasses",
            r#type = "type",
            value = "value",
        }
    }
}

/// The field ids of tree-sitter-python.
pub(crate) fn fields() -> &'static Fields {
    static FIELDS: std::sync::OnceLock<Fields> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| Fields::of(&tree_sitter_python::LANGUAGE.into()))
}

pub struct PythonProvider;

pub static PYTHON: PythonProvider = PythonProvider;

pub static PYTHON_SPEC: LanguageSpec = LanguageSpec {
    name: "python",
    id_tag: "py",
    extensions: &["py", "pyi"],
    provider: &PYTHON,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_test_file,
    call_expressions: Some(|tree, _| call_expressions(tree)),
};

/// Python test code: pytest's `test_*.py` / `*_test.py`, `conftest.py`, and anything under a
/// `test`, `tests` or `testdata` directory.
fn is_test_file(path: &str) -> bool {
    let name = crate::file_name(path);
    let stem = name.strip_suffix(".py").or_else(|| name.strip_suffix(".pyi")).unwrap_or(name);
    stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem == "conftest"
        || crate::under_dir(path, crate::TEST_DIRS)
}

impl Provider for PythonProvider {
    fn capabilities(&self) -> &'static [Capability] {
        crate::lang::CODE_CAPABILITIES
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_python::LANGUAGE.into())
    }

    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let Some(tree) = tree else { return FileFacts::default() };
        // A file with parse errors may hold a construct CPython accepts and the grammar
        // rejects: repaired (lines kept) and kept when the repaired parse is cleaner.
        let errors = count_errors(tree);
        if errors > 0
            && let Some((repaired, edits)) = repair::repair(text)
            && let Some(better) = crate::parse_tree(crate::Language::Python, &repaired, None)
            && count_errors(&better) < errors
        {
            let mut facts = extract_tree(&repaired, &better);
            facts.repairs = edits;
            return facts;
        }
        extract_tree(text, tree)
    }
}

fn extract_tree(text: &str, tree: &tree_sitter::Tree) -> FileFacts {
    let mut facts = walk::extract(text, tree);
    routes::extract(text, tree, &mut facts);
    facts.syntax_errors = count_errors(tree);
    facts
}

/// Number of call expressions in a Python syntax tree: what the call accounting of the
/// resolver must add up to (each is a CALLS edge, an unresolved site or an external call).
pub fn call_expressions(tree: &tree_sitter::Tree) -> usize {
    let mut n = 0;
    let mut cursor = tree.walk();
    'walk: loop {
        if cursor.node().kind() == "call" {
            n += 1;
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    n
}

/// The container types whose type argument is what iterating them yields.
const ITERABLES: &[&str] = &[
    "list",
    "List",
    "Sequence",
    "MutableSequence",
    "Iterable",
    "Iterator",
    "AsyncIterable",
    "AsyncIterator",
    "Generator",
    "AsyncGenerator",
    "set",
    "Set",
    "frozenset",
    "FrozenSet",
    "AbstractSet",
    "MutableSet",
    "Collection",
    "Deque",
    "deque",
    "tuple",
    "Tuple",
];

/// Wrappers that say something about a name, not its type: their first argument is the type.
const WRAPPERS: &[&str] =
    &["Optional", "ClassVar", "Final", "Annotated", "Type", "type", "Required", "NotRequired"];

/// The type an annotation names, as resolution reads it: a dotted name (`Session`,
/// `models.Response`), `X[]` for an iterable of `X`, or `None` when it names no one type
/// (`dict[str, int]`, `Callable[...]`, a union of two types, `None`, `Any`).
pub fn normalize_annotation(text: &str) -> Option<String> {
    let t = text.trim();
    let t =
        t.strip_prefix(['"', '\'']).and_then(|s| s.strip_suffix(['"', '\''])).map_or(t, str::trim);
    // A union: the one member that is not None.
    let parts = split_top(t, '|');
    if parts.len() > 1 {
        let mut real = parts.iter().filter(|p| !matches!(p.trim(), "None" | "'None'"));
        let one = real.next()?;
        return if real.next().is_some() { None } else { normalize_annotation(one) };
    }
    let (head, args) = match t.find('[') {
        Some(i) if t.ends_with(']') => (t[..i].trim(), Some(&t[i + 1..t.len() - 1])),
        Some(_) => return None,
        None => (t, None),
    };
    if head.is_empty() || !head.split('.').all(is_identifier) {
        return None;
    }
    let last = head.rsplit('.').next().unwrap_or(head);
    if matches!(last, "None" | "Any" | "object" | "Self" | "NoReturn" | "Never") && head != "Self" {
        return None;
    }
    let Some(args) = args else { return Some(head.to_string()) };
    let args = split_top(args, ',');
    match last {
        "Union" => {
            let mut real = args.iter().filter(|p| p.trim() != "None");
            let one = real.next()?;
            if real.next().is_some() { None } else { normalize_annotation(one) }
        }
        l if WRAPPERS.contains(&l) => normalize_annotation(args.first()?),
        l if ITERABLES.contains(&l) => {
            let first = args.first()?;
            // `tuple[A, B]`: one type per element, `(A,B)` (`?` for one we cannot name).
            if matches!(l, "tuple" | "Tuple")
                && !(args.len() == 2 && args.get(1).is_some_and(|a| a.trim() == "..."))
            {
                let parts: Vec<String> = args
                    .iter()
                    .map(|a| normalize_annotation(a).unwrap_or_else(|| "?".into()))
                    .collect();
                if parts.iter().all(|p| p == "?") {
                    return None;
                }
                return Some(format!("({})", parts.join(",")));
            }
            let inner = normalize_annotation(first)?;
            if inner.ends_with("[]") { None } else { Some(format!("{inner}[]")) }
        }
        _ => Some(head.to_string()),
    }
}

/// `s` split at `sep` outside brackets.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// Whether `s` is a Python identifier (ASCII letters, digits, `_`, or any non-ASCII letter).
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_name_is_in_the_grammar() {
        let python: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
        assert_eq!(crate::grammar::missing(Fields::NAMES, &[python]), Vec::<&str>::new());
    }

    #[test]
    fn a_file_the_grammar_rejects_is_repaired_with_its_lines() {
        // CPython accepts an attribute broken after its `.` onto a dedented line inside
        // brackets; the grammar ends the block there.
        // A comment that ends a sentence before a dedent is left alone.
        let src = "class A:\n    def f(self):\n        (bar.\n    baz)\n        return 1  # done.\n    def g(self):\n        return 2\n";
        let tree = crate::parse_tree(crate::Language::Python, src, None).expect("tree");
        assert!(count_errors(&tree) > 0, "the grammar still rejects the construct");
        let facts = PYTHON.extract(src, Some(&tree));
        assert_eq!(facts.syntax_errors, 0);
        assert_eq!(facts.repairs, 1);
        let got: Vec<(&str, u32, u32)> = facts
            .symbols
            .iter()
            .map(|s| (s.qualified_name.as_str(), s.start_line, s.end_line))
            .collect();
        assert_eq!(got, [("A", 1, 7), ("A.f", 2, 5), ("A.g", 6, 7)]);
    }

    #[test]
    fn annotations_normalize_to_one_type() {
        let cases: &[(&str, Option<&str>)] = &[
            ("Session", Some("Session")),
            ("models.Response", Some("models.Response")),
            ("'Session'", Some("Session")),
            ("Optional[Session]", Some("Session")),
            ("t.Optional[\"Flask\"]", Some("Flask")),
            ("Session | None", Some("Session")),
            ("None | Session", Some("Session")),
            ("Union[A, None]", Some("A")),
            ("Union[A, B]", None),
            ("A | B", None),
            ("list[Rule]", Some("Rule[]")),
            ("t.Iterator[Rule]", Some("Rule[]")),
            ("tuple[Rule, ...]", Some("Rule[]")),
            ("tuple[A, B]", Some("(A,B)")),
            ("Tuple[str, Command, List[str]]", Some("(str,Command,str[])")),
            ("tuple[Any, Any]", None),
            ("list[list[A]]", None),
            ("ClassVar[Config]", Some("Config")),
            ("dict[str, A]", Some("dict")),
            ("Any", None),
            ("None", None),
            ("Callable[[int], str]", Some("Callable")),
            ("Self", Some("Self")),
            ("x[", None),
        ];
        for (text, want) in cases {
            assert_eq!(normalize_annotation(text).as_deref(), *want, "{text}");
        }
    }

    #[test]
    fn test_files() {
        for (p, t) in [
            ("tests/test_api.py", true),
            ("src/pkg/test_x.py", true),
            ("pkg/x_test.py", true),
            ("conftest.py", true),
            ("src/pkg/testing.py", false),
            ("src/pkg/api.py", false),
        ] {
            assert_eq!(is_test_file(p), t, "{p}");
        }
    }
}
