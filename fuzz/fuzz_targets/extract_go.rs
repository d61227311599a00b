//! Fuzz target: the Go provider on arbitrary text (lossy UTF-8, as the engine reads files)
//! extracts facts without panicking, and the facts survive the codec unchanged.
//! The check is `codegraph_tests::fuzz`'s, shared with the stable replay test.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| codegraph_tests::fuzz::extract(codegraph_parse::Language::Go, data));
