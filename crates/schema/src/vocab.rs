//! Closed enums for what the graph can contain, each with its stable string spelling.
//!
//! The spellings are part of the public surface (IDs, JSON, SQLite rows), so they never change
//! once published; add new variants instead.

macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident => $text:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $( $(#[$vmeta])* $variant ),+ }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant ),+ ];

            /// The stable spelling used in IDs, JSON and SQLite rows.
            pub const fn as_str(self) -> &'static str {
                match self { $( $name::$variant => $text ),+ }
            }

            /// Parses the stable spelling back; `None` for anything else.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $( $text => Some($name::$variant), )+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(self.as_str())
            }
        }

        /// By its stable spelling, in answers and exports.
        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        /// From the stable spelling (command-line values); the error lists every spelling.
        impl std::str::FromStr for $name {
            type Err = String;

            fn from_str(text: &str) -> Result<Self, String> {
                Self::parse(text).ok_or_else(|| {
                    let all: Vec<&str> = Self::ALL.iter().map(|k| k.as_str()).collect();
                    format!("unknown kind `{text}`; one of: {}", all.join(", "))
                })
            }
        }
    };
}

vocabulary! {
    /// What a node is. Symbol kinds are fine-grained so that filters (`--kind method`) are exact.
    pub enum NodeKind {
        File => "file",
        Package => "package",
        Function => "function",
        Method => "method",
        /// An Elixir macro (`defmacro`, `defguard`): called like a function, expanded at
        /// compile time.
        Macro => "macro",
        Class => "class",
        Interface => "interface",
        TypeAlias => "type_alias",
        /// A defined type that is neither a struct nor an interface (Go `type Celsius
        /// float64`, `type HandlerFunc func(*Context)`): a new type, not another name for one.
        DefinedType => "defined_type",
        Enum => "enum",
        Struct => "struct",
        Variable => "variable",
        Constant => "constant",
        Property => "property",
        /// A parameter or local variable of a function that the function calls (a callback,
        /// a function-valued local): a call through it is a call of that value, an edge to
        /// this node, never to a declaration of the same name further out. Only called
        /// bindings become nodes (TS/JS), named `outer.param`.
        Parameter => "parameter",
        Section => "section",
        /// A TS/JS test block (`describe` / `it` / `test` with a title and a function), named
        /// by its title path (`Calc > adds`).
        Test => "test",
        /// An Elixir module (`defmodule`; `defimpl P, for: T` as `P.T`); a Terraform module
        /// call (`module.eks`). An Elixir protocol is an `interface`.
        Module => "module",
        /// An infrastructure object: a Terraform resource (`aws_vpc.this`) or data source
        /// (`data.aws_iam_policy_document.x`), a Kubernetes object (`Deployment/default/web`).
        Resource => "resource",
        /// A Terraform output (`output.cluster_arn`).
        Output => "output",
        /// A Terraform provider configuration (`provider.aws`, `provider.aws.west`).
        Provider => "provider",
        /// An external command a script runs (`cmd:kubectl`): a concept, not declared in a file.
        Command => "command",
        /// An environment variable scripts read or export (`env:KUBECONFIG`): a concept.
        EnvVar => "env_var",
        /// A container image workloads run (`image:nginx`): a concept.
        Image => "image",
        Route => "route",
        Tool => "tool",
        Process => "process",
        Cluster => "cluster",
    }
}

/// The coarse family of a node kind; it decides the ID prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeCategory {
    File,
    Package,
    Symbol,
    Route,
    Tool,
    Process,
    Cluster,
    /// Named things no file declares but many refer to (commands, environment variables,
    /// container images): one node each for the whole root.
    Concept,
}

impl NodeKind {
    pub const fn category(self) -> NodeCategory {
        match self {
            NodeKind::File => NodeCategory::File,
            NodeKind::Package => NodeCategory::Package,
            NodeKind::Route => NodeCategory::Route,
            NodeKind::Tool => NodeCategory::Tool,
            NodeKind::Process => NodeCategory::Process,
            NodeKind::Cluster => NodeCategory::Cluster,
            NodeKind::Command | NodeKind::EnvVar | NodeKind::Image => NodeCategory::Concept,
            _ => NodeCategory::Symbol,
        }
    }

    /// The tag of a concept kind in its IDs and qualified names (`cmd`, `env`, `image`);
    /// `None` for every other kind.
    pub const fn concept_tag(self) -> Option<&'static str> {
        match self {
            NodeKind::Command => Some("cmd"),
            NodeKind::EnvVar => Some("env"),
            NodeKind::Image => Some("image"),
            _ => None,
        }
    }

    /// Whether members of this kind hang off it with HAS_METHOD / HAS_PROPERTY.
    pub const fn is_type_like(self) -> bool {
        matches!(
            self,
            NodeKind::Class
                | NodeKind::Interface
                | NodeKind::Struct
                | NodeKind::Enum
                | NodeKind::TypeAlias
                | NodeKind::DefinedType
                | NodeKind::Variable
                | NodeKind::Constant
        )
    }

    /// The kind of the edge from a symbol's parent (of kind `parent`) to the symbol (of kind
    /// `self`): a type's methods and properties hang off it with HAS_METHOD / HAS_PROPERTY,
    /// everything else is CONTAINS. Symbol edges are implied by their node rows, never stored
    /// (see [`crate::ddl::EDGE_VIEW`]).
    pub const fn parent_edge(self, parent: NodeKind) -> EdgeKind {
        match self {
            NodeKind::Method if parent.is_type_like() => EdgeKind::HasMethod,
            NodeKind::Property if parent.is_type_like() => EdgeKind::HasProperty,
            _ => EdgeKind::Contains,
        }
    }

    /// Whether a symbol of this kind has a body that can contain call sites.
    pub const fn is_callable(self) -> bool {
        matches!(self, NodeKind::Function | NodeKind::Method | NodeKind::Macro | NodeKind::Test)
    }
}

impl NodeCategory {
    /// Every category.
    pub const ALL: &'static [NodeCategory] = &[
        NodeCategory::File,
        NodeCategory::Package,
        NodeCategory::Symbol,
        NodeCategory::Route,
        NodeCategory::Tool,
        NodeCategory::Process,
        NodeCategory::Cluster,
        NodeCategory::Concept,
    ];

    /// The prefix of IDs of nodes in this category (`file:`, `sym:`, ...).
    pub const fn id_prefix(self) -> &'static str {
        match self {
            NodeCategory::File => "file",
            NodeCategory::Package => "pkg",
            NodeCategory::Symbol => "sym",
            NodeCategory::Route => "route",
            NodeCategory::Tool => "tool",
            NodeCategory::Process => "proc",
            NodeCategory::Cluster => "cluster",
            NodeCategory::Concept => "concept",
        }
    }
}

vocabulary! {
    /// What an edge means. Each kind has a default confidence weight ([`EdgeKind::default_weight`]).
    pub enum EdgeKind {
        /// Package -> file, file -> top-level symbol, symbol -> nested symbol, section -> subsection.
        Contains => "CONTAINS",
        /// File -> every symbol declared in it.
        Defines => "DEFINES",
        Imports => "IMPORTS",
        Calls => "CALLS",
        Extends => "EXTENDS",
        Implements => "IMPLEMENTS",
        /// Type -> method.
        HasMethod => "HAS_METHOD",
        /// Type -> property / field / enum member.
        HasProperty => "HAS_PROPERTY",
        Accesses => "ACCESSES",
        HandlesRoute => "HANDLES_ROUTE",
        Fetches => "FETCHES",
        HandlesTool => "HANDLES_TOOL",
        EntryPointOf => "ENTRY_POINT_OF",
        StepInProcess => "STEP_IN_PROCESS",
        MemberOf => "MEMBER_OF",
        RefersTo => "REFERS_TO",
        Tests => "TESTS",
        /// A Markdown section -> a symbol, file or route it names (code spans, fenced code,
        /// links to repository files). A contextual hint, not runtime coupling.
        DocRelated => "DOC_RELATED",
        /// File <-> file: the two usually change in the same commits (git history, opt-in).
        /// Empirical, not structural; its weight is the pair's confidence.
        CoChanged => "CO_CHANGED",
        /// Go: a struct or interface -> a type it embeds (whose fields and methods it
        /// promotes). Classes and interfaces that extend use EXTENDS.
        Embeds => "EMBEDS",
    }
}

impl EdgeKind {
    /// Confidence of an edge of this kind when nothing more specific is known.
    pub const fn default_weight(self) -> f64 {
        match self {
            EdgeKind::Contains
            | EdgeKind::Defines
            | EdgeKind::HasMethod
            | EdgeKind::HasProperty
            | EdgeKind::Imports
            | EdgeKind::Extends
            | EdgeKind::Embeds
            | EdgeKind::HandlesRoute
            | EdgeKind::HandlesTool
            | EdgeKind::EntryPointOf
            | EdgeKind::StepInProcess
            | EdgeKind::MemberOf => 1.0,
            EdgeKind::Calls | EdgeKind::Implements => 0.9,
            EdgeKind::Accesses | EdgeKind::Tests => 0.8,
            EdgeKind::Fetches | EdgeKind::RefersTo => 0.7,
            EdgeKind::DocRelated => 0.75,
            EdgeKind::CoChanged => 0.5,
        }
    }

    /// Edges that describe the shape of the code rather than its behaviour.
    pub const fn is_structural(self) -> bool {
        matches!(
            self,
            EdgeKind::Contains | EdgeKind::Defines | EdgeKind::HasMethod | EdgeKind::HasProperty
        )
    }
}

vocabulary! {
    /// Why an edge exists. A heuristic edge must carry a reason that says it is one.
    pub enum Reason {
        /// Read directly off the syntax tree (containment, declarations, members).
        Structural => "structural",
        /// Go methods attached to a type declared in another file of the same package.
        SamePackage => "same-package",
        ImportResolved => "import-resolved",
        SameFile => "same-file",
        ThisDispatch => "this-dispatch",
        SuperDispatch => "super-dispatch",
        TypedReceiver => "typed-receiver",
        InterfaceMethod => "interface-method",
        MethodSet => "method-set",
        /// Matched by name alone; low confidence.
        NameOnly => "name-only",
        /// A JavaScript parameter nothing types, typed by its own name: `reply` holds its
        /// package's only class or constructor `Reply` (the member called must exist there).
        /// Heuristic: JavaScript code names parameters after what they hold, and the caller
        /// that passes something else is not seen.
        ParameterName => "parameter-name",
        /// A client call's URL path and method matched a route (FETCHES); the edge's weight
        /// says how well (exact, by parameters, with a base URL).
        UrlMatch => "url-match",
        /// A Markdown section names the target (code span, fenced code, link to a file).
        DocMention => "doc-mention",
        /// Git history: the two files changed together in enough commits (CO_CHANGED).
        CoChange => "co-change",
        /// A dependency the code declares rather than uses (Terraform `depends_on`).
        DependsOn => "depends-on",
        /// Through a module call's interface: a Terraform `module.m.out` to the module's
        /// `output.out`, a module's `var.x` to the call that passes `x`.
        ModuleInterface => "module-interface",
        /// A concept named exactly (a command a script runs, an environment variable it reads,
        /// an image a workload runs).
        ConceptName => "concept-name",
        /// Elixir: a call or reference resolved by module name (aliases expanded) and arity.
        /// Heuristic (the reference spec's 0.85): without macro expansion, a `use` may inject
        /// or override functions the resolver cannot see.
        ModuleName => "module-name",
        /// An object named by kind and name in a manifest field (`configMapRef`,
        /// `serviceAccountName`, an Ingress backend, a `roleRef`).
        NamedReference => "named-reference",
        /// A Service's (or policy's) label selector matches a workload's pod labels.
        LabelSelector => "label-selector",
    }
}

impl Reason {
    /// The confidence an edge gets for this reason.
    pub const fn weight(self) -> f64 {
        match self {
            // A Go method's receiver names its type exactly, whichever file declares it.
            Reason::Structural | Reason::SamePackage => 1.0,
            Reason::ImportResolved | Reason::SameFile => 0.95,
            Reason::ThisDispatch | Reason::SuperDispatch => 0.9,
            Reason::TypedReceiver => 0.85,
            Reason::InterfaceMethod | Reason::MethodSet => 0.8,
            Reason::NameOnly => 0.3,
            Reason::ParameterName => 0.6,
            Reason::UrlMatch => 0.9,
            Reason::DocMention => 0.75,
            Reason::CoChange => 0.5,
            Reason::DependsOn | Reason::ModuleInterface | Reason::ConceptName => 1.0,
            Reason::NamedReference | Reason::LabelSelector => 1.0,
            Reason::ModuleName => 0.85,
        }
    }
}

vocabulary! {
    /// Why a path was skipped, or what is noteworthy about a file that was indexed.
    pub enum DiagnosticCode {
        Binary => "binary",
        TooLarge => "too-large",
        Unreadable => "unreadable",
        SymlinkOutsideRoot => "symlink-outside-root",
        SymlinkLoop => "symlink-loop",
        NotRegular => "not-regular",
        NonUtf8Name => "non-utf8-name",
        WalkError => "walk-error",
        LossyUtf8 => "lossy-utf8",
        SyntaxErrors => "syntax-errors",
        /// Facts come from a repaired text (constructs the compiler accepts and the grammar
        /// rejects; lines and columns kept).
        ParseRepaired => "parse-repaired",
        /// Parts of the file hold template expressions (Helm `{{ }}`) and were left out.
        Templated => "templated",
    }
}

impl DiagnosticCode {
    /// Whether this code means the file was left out of the index.
    pub const fn is_skip(self) -> bool {
        !matches!(
            self,
            DiagnosticCode::LossyUtf8
                | DiagnosticCode::SyntaxErrors
                | DiagnosticCode::ParseRepaired
                | DiagnosticCode::Templated
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip_and_are_unique() {
        fn check<T: Copy + PartialEq + std::fmt::Debug>(
            all: &[T],
            as_str: fn(T) -> &'static str,
            parse: fn(&str) -> Option<T>,
        ) {
            let mut seen = std::collections::HashSet::new();
            for &v in all {
                assert!(seen.insert(as_str(v)), "duplicate spelling {}", as_str(v));
                assert_eq!(parse(as_str(v)), Some(v));
            }
            assert_eq!(parse("no-such-thing"), None);
        }
        check(NodeKind::ALL, NodeKind::as_str, NodeKind::parse);
        check(EdgeKind::ALL, EdgeKind::as_str, EdgeKind::parse);
        check(Reason::ALL, Reason::as_str, Reason::parse);
        check(DiagnosticCode::ALL, DiagnosticCode::as_str, DiagnosticCode::parse);
    }

    #[test]
    fn weights_are_confidences() {
        for k in EdgeKind::ALL {
            let w = k.default_weight();
            assert!((0.0..=1.0).contains(&w), "{k} weight {w}");
        }
        for r in Reason::ALL {
            assert!((0.0..=1.0).contains(&r.weight()), "{r}");
        }
        assert!(Reason::NameOnly.weight() < Reason::TypedReceiver.weight());
    }
}
