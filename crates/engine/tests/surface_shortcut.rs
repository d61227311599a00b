//! The surface shortcut (issue 45): an edit that adds or removes no file and keeps what other
//! units read of each edited file derives only the edited files' own units; any other edit
//! derives every unit. Each case states which path the edit takes and which units it
//! rewrites, and the engine runs in verification mode (every unit derived as well, a
//! difference an error), so a wrong shortcut fails here too.

use codegraph_engine::engine::{Applied, Engine};
use codegraph_engine::index::IndexOptions;
use std::path::{Path, PathBuf};

fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

fn sync(engine: &mut Engine, root: &Path, paths: &[&str]) -> Applied {
    let abs: Vec<PathBuf> = paths.iter().map(|p| root.join(p)).collect();
    engine.sync_paths(&abs).expect("sync")
}

const CORE: &str = "package core\n\nfunc Alpha(x int) int {\n\treturn x + 1\n}\n";
const API: &str = "package api\n\nimport \"example.com/m/core\"\n\nfunc Serve() int {\n\treturn core.Alpha(1)\n}\n";
const LIB_TS: &str = "export function helper(n: number): number {\n  return n * 2;\n}\n";
const APP_TS: &str = "import { helper } from \"./lib\";\n\nexport function main(): number {\n  return helper(2);\n}\n";
const README: &str = "# Docs\n\nSee `core.Alpha` and `helper`.\n";

fn tree() -> (tempfile::TempDir, PathBuf, Engine) {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical");
    let root = base.join("root");
    write(&root, "go.mod", "module example.com/m\n\ngo 1.21\n");
    write(&root, "core/core.go", CORE);
    write(&root, "api/api.go", API);
    write(&root, "web/lib.ts", LIB_TS);
    write(&root, "web/app.ts", APP_TS);
    write(&root, "README.md", README);
    let (mut engine, _) =
        Engine::open(&root, &base.join("index.db"), &IndexOptions::plain()).expect("open");
    engine.set_verify_surface(true);
    (dir, root, engine)
}

#[test]
fn body_edits_derive_only_their_own_units() {
    let (_dir, root, mut engine) = tree();

    // A Go function body: only core.go's unit.
    write(&root, "core/core.go", &CORE.replace("x + 1", "x + 2"));
    let a = sync(&mut engine, &root, &["core/core.go"]);
    assert!(a.own_units_only, "a body edit keeps the surface");
    assert_eq!(a.units_rewritten, 1);

    // Lines shifted by a comment: the file's own rows move, nobody else's.
    write(&root, "core/core.go", &format!("// shifted\n{}", CORE.replace("x + 1", "x + 2")));
    let a = sync(&mut engine, &root, &["core/core.go"]);
    assert!(a.own_units_only, "a line shift keeps the surface");
    assert_eq!(a.units_rewritten, 1);

    // A TypeScript body and a Go body in one batch.
    write(&root, "web/lib.ts", &LIB_TS.replace("n * 2", "n * 3"));
    write(&root, "api/api.go", &API.replace("core.Alpha(1)", "core.Alpha(2)"));
    let a = sync(&mut engine, &root, &["web/lib.ts", "api/api.go"]);
    assert!(a.own_units_only);
    assert_eq!(a.units_rewritten, 2);

    // A Markdown paragraph that names the same code.
    write(&root, "README.md", &format!("{README}\nMore words.\n"));
    let a = sync(&mut engine, &root, &["README.md"]);
    assert!(a.own_units_only, "the same mentions keep a doc's surface");
    assert_eq!(a.units_rewritten, 1);
}

#[test]
fn edits_other_units_can_see_take_the_full_path() {
    let (_dir, root, mut engine) = tree();

    // A renamed exported function: its caller in another package loses its target.
    write(&root, "core/core.go", &CORE.replace("Alpha", "Beta"));
    let a = sync(&mut engine, &root, &["core/core.go"]);
    assert!(!a.own_units_only, "a renamed declaration changes the surface");
    // core.go, api.go (its call is now unresolved) and README.md (`core.Alpha` names nothing).
    assert_eq!(a.units_rewritten, 3);

    // A new file: the file list changed.
    write(&root, "core/more.go", "package core\n\nfunc Alpha(x int) int {\n\treturn x\n}\n");
    let a = sync(&mut engine, &root, &["core/more.go"]);
    assert!(!a.own_units_only, "a new file changes the file list");

    // A doc that names something new.
    write(&root, "README.md", &format!("{README}\nAnd `main`.\n"));
    let a = sync(&mut engine, &root, &["README.md"]);
    assert!(!a.own_units_only, "a new mention changes a doc's surface");

    // A manifest resolution reads as text.
    write(&root, "go.mod", "module example.com/m\n\ngo 1.22\n");
    let a = sync(&mut engine, &root, &["go.mod"]);
    assert!(!a.own_units_only, "a file read as text has no surface");

    // A removed file.
    std::fs::remove_file(root.join("web/app.ts")).expect("rm");
    let a = sync(&mut engine, &root, &["web/app.ts"]);
    assert!(!a.own_units_only, "a removed file changes the file list");
}
