//! Fuzz target: the Protobuf provider on arbitrary bytes extracts facts without panicking, and the
//! facts survive the codec unchanged. The check is `codegraph_tests::fuzz`'s, shared with the
//! stable replay test.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| codegraph_tests::fuzz::extract(codegraph_parse::Language::Protobuf, data));
