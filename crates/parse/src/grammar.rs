//! Tree-sitter node kinds and field names by id: the one way the providers declare the grammar
//! names they match by number ([`grammar_ids!`]), and the check that every declared name
//! exists in a grammar the table serves ([`missing`]), so a misspelt name fails a test instead
//! of silently never matching. Names the providers spell inline are checked by
//! `tests/grammar_names.rs`.

/// What a declared name is in the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Name {
    /// A named node kind (`call_expression`).
    Kind,
    /// An anonymous node kind, a token (`(`, `*`).
    Anon,
    /// A field name (`function`).
    Field,
}

/// Declares a struct of grammar ids: `kinds` (named node kinds), `anon` (tokens) and `fields`,
/// each `ident = "name"`. `Struct::of(language)` resolves them (a name the language lacks gets
/// 0, which no node has: a TypeScript-only kind simply never matches in JavaScript) and
/// `Struct::NAMES` lists them for [`missing`].
macro_rules! grammar_ids {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            kinds { $($k:ident = $kn:literal),* $(,)? }
            anon { $($a:ident = $an:literal),* $(,)? }
            fields { $($f:ident = $fname:literal),* $(,)? }
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug)]
        $vis struct $name {
            $($vis $k: u16,)*
            $($vis $a: u16,)*
            $($vis $f: u16,)*
        }

        #[allow(dead_code)]
        impl $name {
            /// Every declared name with what it is.
            $vis const NAMES: &'static [(&'static str, $crate::grammar::Name)] = &[
                $(($kn, $crate::grammar::Name::Kind),)*
                $(($an, $crate::grammar::Name::Anon),)*
                $(($fname, $crate::grammar::Name::Field),)*
            ];

            /// The ids of the declared names in `lang`.
            $vis fn of(lang: &tree_sitter::Language) -> Self {
                $name {
                    $($k: lang.id_for_node_kind($kn, true),)*
                    $($a: lang.id_for_node_kind($an, false),)*
                    // 0 is never a field id, so an unknown field simply never matches.
                    $($f: lang.field_id_for_name($fname).map_or(0, |f| f.get()),)*
                }
            }
        }
    };
}

pub(crate) use grammar_ids;

/// The declared names that none of `grammars` has (empty when the table is right).
#[cfg(test)]
pub(crate) fn missing(
    names: &[(&'static str, Name)],
    grammars: &[tree_sitter::Language],
) -> Vec<&'static str> {
    names
        .iter()
        .filter(|(name, what)| {
            !grammars.iter().any(|g| match what {
                Name::Kind => g.id_for_node_kind(name, true) != 0,
                Name::Anon => g.id_for_node_kind(name, false) != 0,
                Name::Field => g.field_id_for_name(name).is_some(),
            })
        })
        .map(|(name, _)| *name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    grammar_ids! {
        struct Probe {
            kinds { call = "call_expression", typo = "call_expresion" }
            anon { lparen = "(" }
            fields { f_function = "function", f_typo = "functoin" }
        }
    }

    #[test]
    fn resolves_ids_and_reports_what_a_grammar_lacks() {
        let go: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
        let ids = Probe::of(&go);
        assert!(ids.call != 0 && ids.lparen != 0 && ids.f_function != 0);
        assert_eq!((ids.typo, ids.f_typo), (0, 0));
        assert_eq!(missing(Probe::NAMES, &[go]), ["call_expresion", "functoin"]);
    }
}
