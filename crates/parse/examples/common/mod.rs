//! What the examples share: the files of a tree they run the providers over.

use std::path::{Path, PathBuf};

/// Every regular file under `dir`, sorted, without `.git` and `node_modules` directories
/// (unreadable entries are passed over).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                if p.file_name().is_some_and(|n| n == ".git" || n == "node_modules") {
                    continue;
                }
                walk(&p, out);
            } else if ft.is_file() {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}
