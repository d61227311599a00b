//! Fuzz target: a route's or tool's stored `props` column read from arbitrary bytes parses or
//! is refused, never panics (deep nesting included); whatever parses writes back to JSON that
//! parses to the same properties.
//! The check is `codegraph_tests::fuzz`'s, shared with the stable replay test.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| codegraph_tests::fuzz::endpoint_props(data));
