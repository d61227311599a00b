//! Java provider (`.java`; tree-sitter-java): types, members, imports, call sites with their
//! receivers, heritage and the declared types resolution follows.
//!
//! Symbols (qualified by the chain of enclosing named declarations without the package, the
//! javac oracle's convention: `Outer.Inner.method`): classes and records (`class`),
//! interfaces and annotation types (`interface`), enums (`enum`), methods (`method`),
//! constructors (`method` named `constructor`: `X.constructor`, as TypeScript's), fields
//! (`property`; `constant` when `static final`, and interface constants), enum constants
//! (`constant`, their bodies' methods `E.A.m`), record components (`property`: the accessor
//! `r.x()` names them). Overloads are one symbol each, in declaration order (`X.m`, `X.m#2`
//! in IDs). The methods of an anonymous class are named under the enclosing member
//! (`Outer.start.run`), its calls attributed to them; lambdas and initializer blocks are
//! transparent (a static block's calls belong to its class). A symbol starts at its first
//! modifier or annotation (annotations are recorded in the signature); the Javadoc comment
//! right above is its doc. Exported: `public` or `protected` (interface members are public)
//! and the enclosing type exported.
//!
//! This language's encodings in the shared fields (read only by its resolver):
//! - [`FileFacts::default_export`] is the package clause's name (`org.a.b`), `None` for the
//!   unnamed package.
//! - Imports: `import a.b.C;` is `EsImport` from `a.b` with `Named("C")` (the source may name
//!   a class: `import a.b.Outer.Inner;` is `Named("Inner")` from `a.b.Outer`);
//!   `import a.b.*;` is `All` from `a.b`; `import static a.b.C.m;` / `.*` are `Module` from
//!   `a.b.C` with `Named("m")` / `All`.
//! - Heritage: `extends` of a class and of an interface is `Extends`, `implements` is
//!   `Implements`; targets as written with their type arguments (`Base<Item>`,
//!   `Map.Entry<K,V>`, normalized by [`generic_type_text`]).
//! - Types as written are normalized ([`type_text`]): annotations and type arguments
//!   dropped, each array dimension a `[]` suffix (`String[]`), varargs `T...` as `T[]`; the
//!   types of hints keep their type arguments ([`generic_type_text`]: `Map<String,Item>`).
//! - `for (var x : e)`: `x` is an element of `e`, a `Value(Path)` ending in `[]` for a name
//!   chain, a `CallResult` of a callee named `[]` on a call's result; so is the one parameter
//!   of a lambda passed first to an element-consuming method (`e.forEach(x -> ..)`,
//!   `.filter`, `.map`, `.ifPresent`...): `CallResult` of `[]` on `e`.
//! - Receivers: `this.m()` is `This`, `super.m()` is `Super`; a name chain is a `Path`
//!   (`a.b.m()` -> `["a", "b"]`, `this.a.m()` -> `["this", "a"]`, `a[i].m()` -> `["a", "[]"]`);
//!   an expression whose type is written in it is `Path(["new", T])` (`new` is a keyword, so
//!   no variable has that name): an instance creation `new T(..)`, a cast `(T) e`, a string
//!   literal (`String`), a class literal (`Class`); a call's result is `CallResult`.
//! - Call sites: method invocations (`Call`), instance creations (`New`, named by the type:
//!   `new a.b.C()` is `{ Path(["a", "b"]), "C" }`, an anonymous class names its supertype;
//!   an enum constant with arguments `A(1)` is a `New` of its enum, in the constant),
//!   `this(..)` / `super(..)` (`Call` named `constructor`, receiver `This` / `Super`).
//! - Type hints: a field is an `Annotation` scoped to its class; a parameter, a local, a
//!   for-each, catch or resource variable and a pattern variable are scoped to the enclosing
//!   member (`var x = e` is `Construct(T)` for `new T(..)`, `CallResult` for a call, a
//!   `Value(Path)` for a name chain, else `Value(Other)`: unknown, but a local that hides a
//!   field); a lambda's parameter without a type is `Value(Other)`. A method's declared
//!   return type is `Return(T)` scoped to the method. Hints keep their line: a name declared
//!   twice in one method takes the declaration above the use.
//! - [`crate::facts::JavaFacts::call_args`]: each call site's argument count (overloads).
//! - A method of an anonymous class (`new Sink<T>(..) { void accept(..) }`) or of an enum
//!   constant's body has a hint named `this` scoped to it: the supertype (`Sink`, the enum),
//!   whose members its bare names reach.
//! - [`FileFacts::value_refs`]: method references (`Foo::bar`, `this::m`, `Foo::new` named
//!   `new`), REFERS_TO.
//! - [`FileFacts::accesses`]: field accesses not called (`a.b`, `this.x = v`).
//!
//! Routes (Spring controllers, JAX-RS resources) and MCP tools (Spring AI / LangChain4j
//! `@Tool` in a file importing them, the MCP Java SDK's `new Tool(..)` in a file importing
//! it): `routes.rs`; HTTP client calls (`RestTemplate`, `WebClient`,
//! `java.net.http`): `clients.rs`.

mod clients;
mod routes;
mod walk;

use crate::facts::FileFacts;
use crate::grammar::grammar_ids;
use crate::util::count_errors;
use crate::{Capability, LanguageSpec, Provider};

pub struct JavaProvider;

pub static JAVA: JavaProvider = JavaProvider;

pub static JAVA_SPEC: LanguageSpec = LanguageSpec {
    name: "java",
    id_tag: "java",
    extensions: &["java"],
    provider: &JAVA,
    program_entry: None,
    module: module_path!(),
    detect: None,
    test_file: is_test_file,
    call_expressions: Some(|tree, _| call_expressions(tree)),
};

grammar_ids! {
    /// The grammar's kinds and fields, looked up once.
    pub(crate) struct Ids {
        kinds {
            class_declaration = "class_declaration",
            interface_declaration = "interface_declaration",
            enum_declaration = "enum_declaration",
            record_declaration = "record_declaration",
            annotation_type_declaration = "annotation_type_declaration",
            method_declaration = "method_declaration",
            constructor_declaration = "constructor_declaration",
            compact_constructor_declaration = "compact_constructor_declaration",
            annotation_type_element_declaration = "annotation_type_element_declaration",
            field_declaration = "field_declaration",
            constant_declaration = "constant_declaration",
            enum_constant = "enum_constant",
            method_invocation = "method_invocation",
            object_creation_expression = "object_creation_expression",
            explicit_constructor_invocation = "explicit_constructor_invocation",
            method_reference = "method_reference",
            field_access = "field_access",
            local_variable_declaration = "local_variable_declaration",
            formal_parameter = "formal_parameter",
            spread_parameter = "spread_parameter",
            enhanced_for_statement = "enhanced_for_statement",
            catch_formal_parameter = "catch_formal_parameter",
            resource = "resource",
            lambda_expression = "lambda_expression",
            instanceof_expression = "instanceof_expression",
            type_pattern = "type_pattern",
            assignment_expression = "assignment_expression",
            import_declaration = "import_declaration",
            package_declaration = "package_declaration",
            class_body = "class_body",
            line_comment = "line_comment",
            block_comment = "block_comment",
            string_literal = "string_literal",
        }
        anon {}
        fields {
            name = "name",
            body = "body",
            r#type = "type",
            object = "object",
            parameters = "parameters",
            arguments = "arguments",
            value = "value",
            field = "field",
            constructor = "constructor",
            left = "left",
            right = "right",
            array = "array",
            dimensions = "dimensions",
        }
    }
}

/// The ids of tree-sitter-java.
pub(crate) fn ids() -> &'static Ids {
    static IDS: std::sync::OnceLock<Ids> = std::sync::OnceLock::new();
    IDS.get_or_init(|| Ids::of(&tree_sitter_java::LANGUAGE.into()))
}

/// Java test code: anything under a test directory (`src/test/java`), and the names Maven's
/// test runners pick (`Test*.java`, `*Test.java`, `*Tests.java`, `*TestCase.java`, and
/// integration tests `*IT.java`).
fn is_test_file(path: &str) -> bool {
    let name = crate::file_name(path);
    let stem = name.strip_suffix(".java").unwrap_or(name);
    stem.starts_with("Test")
        || stem.ends_with("Test")
        || stem.ends_with("Tests")
        || stem.ends_with("TestCase")
        || stem.ends_with("IT")
        || crate::under_dir(path, crate::TEST_DIRS)
}

impl Provider for JavaProvider {
    fn capabilities(&self) -> &'static [Capability] {
        crate::lang::CODE_CAPABILITIES
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_java::LANGUAGE.into())
    }

    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let Some(tree) = tree else { return FileFacts::default() };
        let mut facts = walk::extract(text, tree);
        facts.syntax_errors = count_errors(tree);
        facts
    }
}

/// Number of call expressions in a Java syntax tree (method invocations, instance creations,
/// `this(..)` / `super(..)`, enum constants with arguments): what the resolver's call accounting adds up to.
pub fn call_expressions(tree: &tree_sitter::Tree) -> usize {
    let ids = ids();
    let mut n = 0;
    let mut cursor = tree.root_node().walk();
    'walk: loop {
        let node = cursor.node();
        let k = node.kind_id();
        if k == ids.method_invocation
            || k == ids.object_creation_expression
            || k == ids.explicit_constructor_invocation
            || (k == ids.enum_constant && node.child_by_field_id(ids.arguments).is_some())
        {
            n += 1;
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    n
}

/// A type as written, normalized: annotations and type arguments dropped, whitespace removed,
/// each array dimension `[]` (`@NonNull Map.Entry<K, V>[]` -> `Map.Entry[]`).
pub fn type_text(raw: &str) -> String {
    strip_type_args(&generic_type_text(raw))
}

/// A normalized type without its type arguments (`Outer<K>.Inner<V>[]` -> `Outer.Inner[]`,
/// `a::Foo<T>` -> `a::Foo`).
pub use crate::util::strip_angle_args as strip_type_args;

/// A declared type with its type arguments kept, normalized: annotations and whitespace dropped,
/// varargs as `[]`
/// (`Map<String, List<? extends Item>>` -> `Map<String,List<Item>>`; `? super X` is `?`):
/// what a hint says, so resolution can follow `items.get(0)` to `Item`.
pub fn generic_type_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'@' => {
                // An annotation: its name, then a parenthesized argument list if any.
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.')
                {
                    i += 1;
                }
                if i < b.len() && b[i] == b'(' {
                    let mut p = 0;
                    while i < b.len() {
                        match b[i] {
                            b'(' => p += 1,
                            b')' => {
                                p -= 1;
                                if p == 0 {
                                    i += 1;
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                }
                continue;
            }
            b'?' => {
                let rest = raw[i + 1..].trim_start();
                if let Some(bound) = rest.strip_prefix("extends") {
                    // `? extends X` reads as `X`.
                    i = raw.len() - bound.len();
                    continue;
                }
                out.push('?');
                if rest.starts_with("super") {
                    // `? super X`: no element type to read; skip the bound.
                    let mut depth = 0i32;
                    i = raw.len() - rest.len();
                    while i < b.len() {
                        match b[i] {
                            b'<' => depth += 1,
                            b'>' if depth == 0 => break,
                            b'>' => depth -= 1,
                            b',' if depth == 0 => break,
                            _ => {}
                        }
                        i += 1;
                    }
                    continue;
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ => {
                // Multi-byte characters are copied whole.
                let ch = raw[i..].chars().next().unwrap_or(' ');
                out.push(ch);
                i += ch.len_utf8();
                continue;
            }
        }
        i += 1;
    }
    if let Some(base) = out.strip_suffix("...") {
        return format!("{base}[]");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_types_keep_their_arguments() {
        assert_eq!(generic_type_text("List<Item>"), "List<Item>");
        assert_eq!(
            generic_type_text("Map<String, List<? extends Item>>"),
            "Map<String,List<Item>>"
        );
        assert_eq!(generic_type_text("Comparator<? super T>"), "Comparator<?>");
        assert_eq!(generic_type_text("Map<? super K, V>"), "Map<?,V>");
        assert_eq!(generic_type_text("@NonNull Optional<@Valid User>"), "Optional<User>");
        assert_eq!(generic_type_text("T..."), "T[]");
        assert_eq!(generic_type_text("Map.Entry<K, V>[]"), "Map.Entry<K,V>[]");
    }

    #[test]
    fn every_grammar_name_exists() {
        let java: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
        assert_eq!(crate::grammar::missing(Ids::NAMES, &[java]), Vec::<&str>::new());
    }

    #[test]
    fn types_normalize() {
        assert_eq!(type_text("String"), "String");
        assert_eq!(type_text("Map.Entry<K, V>"), "Map.Entry");
        assert_eq!(type_text("List<List<String>>[]"), "List[]");
        assert_eq!(type_text("@NonNull Foo"), "Foo");
        assert_eq!(type_text("@Size(max = 3) java.util.List<T>"), "java.util.List");
        assert_eq!(type_text("int[][]"), "int[][]");
        assert_eq!(type_text("T..."), "T[]");
    }

    #[test]
    fn test_files() {
        assert!(is_test_file("src/test/java/a/FooTest.java"));
        assert!(is_test_file("a/FooTests.java"));
        assert!(is_test_file("a/TestFoo.java"));
        assert!(is_test_file("a/FooTestCase.java"));
        assert!(is_test_file("a/FooIT.java"));
        assert!(is_test_file("src/test/java/a/Helper.java"));
        assert!(!is_test_file("src/main/java/a/Contest.java"));
        assert!(!is_test_file("src/main/java/a/Foo.java"));
    }
}
