//! Test support: running git with a fixed identity in a fixture repository.

use std::path::Path;

/// Runs git in `root` with a fixed identity; panics when it fails.
pub(crate) fn git(root: &Path, args: &[&str]) {
    let ok = std::process::Command::new("git")
        .args(args)
        .current_dir(root)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .status()
        .expect("git")
        .success();
    assert!(ok, "git {args:?}");
}
