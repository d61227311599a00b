//! Path conventions every layer must agree on: which files are test code. Resolution (TESTS,
//! DOC_RELATED preferring production code) and answers (tests listed apart) read the same rule.

/// Whether a path looks like test code: Go `_test.go`, JS/TS `*.test.*` / `*.spec.*`, and
/// anything under a `test/`, `tests/`, `__tests__/` or `testdata/` directory.
pub fn is_test_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.ends_with("_test.go") || name.contains(".test.") || name.contains(".spec.") {
        return true;
    }
    path.split('/')
        .rev()
        .skip(1)
        .any(|dir| matches!(dir, "test" | "tests" | "__tests__" | "testdata"))
}
