//! What a rename must know of TypeScript and JavaScript beyond the graph
//! ([`crate::renames`]): the members the runtime itself calls by name.
//!
//! Why it exists: TypeScript types are structural, and some member names belong to protocols
//! of the language and its runtime, not to any declaration in the root. Every function has
//! `call`, `apply` and `bind`, so a function is a valid value of any interface whose only
//! member is `call(..)` (rxjs passes plain functions as its `Operator`s): renaming the
//! interface's `call` breaks those uses, and the graph records no edge for them. `await` and
//! promise resolution call `then`; string conversion calls `toString` and `valueOf`;
//! `JSON.stringify` calls `toJSON`; an event target calls `handleEvent`. A rename of a method
//! with one of these names may break (or silently change) code the graph cannot see, so a
//! plan names the protocol and `--apply` asks for `--force`.

/// (member name, what calls it or has it).
const PROTOCOL_MEMBERS: &[(&str, &str)] = &[
    ("call", "Function.prototype.call"),
    ("apply", "Function.prototype.apply"),
    ("bind", "Function.prototype.bind"),
    ("then", "PromiseLike.then"),
    ("toString", "Object.prototype.toString"),
    ("valueOf", "Object.prototype.valueOf"),
    ("toJSON", "JSON.stringify's toJSON"),
    ("handleEvent", "EventListenerObject.handleEvent"),
];

/// The runtime protocols a method named `name` takes part in (see the module doc), whatever
/// its signature: a structural type matches on the name first.
pub(crate) fn protocol_members(name: &str) -> Vec<String> {
    PROTOCOL_MEMBERS.iter().filter(|(n, _)| *n == name).map(|(_, p)| p.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::protocol_members;

    #[test]
    fn protocol_members_by_name() {
        assert_eq!(protocol_members("call"), ["Function.prototype.call"]);
        assert_eq!(protocol_members("then"), ["PromiseLike.then"]);
        assert!(protocol_members("next").is_empty());
        assert!(protocol_members("Call").is_empty());
    }
}
