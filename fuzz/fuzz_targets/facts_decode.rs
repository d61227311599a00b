//! Fuzz target: decoding stored facts from arbitrary bytes (a damaged or foreign `source.facts`
//! blob) returns an error or facts, never panics; whatever decodes re-encodes to a blob that
//! decodes to the same facts.
//! The check is `codegraph_tests::fuzz`'s, shared with the stable replay test.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| codegraph_tests::fuzz::facts_decode(data));
