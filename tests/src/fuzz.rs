//! The checks of the fuzz targets (`fuzz/fuzz_targets/*.rs`), as plain functions so that the
//! cargo-fuzz targets (nightly, libFuzzer) and the stable replay test
//! (`tests/tests/fuzz_replay.rs`, run by CI over the seed corpus and seeded mutations of it)
//! assert exactly the same things. Each panics on a finding.

use codegraph_parse::{Language, analyze, decode_facts, encode_facts};
use codegraph_schema::EndpointProps;

/// Stored facts decoded from arbitrary bytes: an error or facts, never a panic; what decodes
/// re-encodes to a blob that decodes to the same facts.
pub fn facts_decode(data: &[u8]) {
    if let Ok(facts) = decode_facts(data) {
        let again = decode_facts(&encode_facts(&facts)).expect("re-encoded facts decode");
        assert_eq!(again, facts);
    }
}

/// A provider on arbitrary text (lossy UTF-8, as the engine reads files): facts without a
/// panic, and they survive the codec unchanged.
pub fn extract(language: Language, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let facts = analyze(language, &text);
    assert_eq!(decode_facts(&encode_facts(&facts)).expect("facts decode"), facts);
}

/// The TypeScript provider's three grammars: the first byte picks TS, TSX or JavaScript.
pub fn extract_typescript(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let language = match pick % 3 {
        0 => Language::TypeScript,
        1 => Language::Tsx,
        _ => Language::JavaScript,
    };
    extract(language, rest);
}

/// A `props` column read from arbitrary bytes parses or is refused, never panics; what parses
/// writes back to JSON that parses to the same properties.
pub fn endpoint_props(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Some(p) = EndpointProps::parse(text) {
        assert_eq!(EndpointProps::parse(&p.to_json()), Some(p));
    }
}
