//! `codegraph export --format scip` end to end: a TypeScript and Go fixture indexed, exported
//! as SCIP, read back with the `scip` crate; the exact definitions, references, ranges and
//! relationships of named symbols, byte-identical output from the same index, and the errors
//! of a root with no index, a missing root and `--derived`.

use expect_test::expect;
use protobuf::Message;
use scip::types::{Document, Index, SymbolRole, occurrence::Typed_range};
use std::path::Path;
use std::process::Output;

const FIXTURE: &str = r#"
//- /src/shapes.ts
/** A shape. */
export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(private side: number) {}
  area(): number {
    return this.side * this.side;
  }
}
//- /src/main.ts
import { Square, Shape } from "./shapes";
import {
  helper,
} from "./util";

export function total(shapes: Shape[]): number {
  const s = new Square(2);
  return helper(s.area());
}
//- /src/util.ts
export function helper(n: number): number {
  return n;
}
//- /pkg/store/store.go
package store

// Store keeps things.
type Store struct {
	items []string
}
//- /pkg/store/ops.go
package store

// Add appends an item.
func (s *Store) Add(item string) {
	s.items = append(s.items, item)
}

func NewStore() *Store {
	s := &Store{}
	s.Add("x")
	return s
}
//- /notes.txt
not a source file
"#;

fn codegraph(args: &[&str], cwd: &Path) -> Output {
    codegraph_tests::cli::run(env!("CARGO_BIN_EXE_codegraph"), args, cwd)
}

struct Repo {
    dir: tempfile::TempDir,
    root: std::path::PathBuf,
    db: String,
}

fn indexed() -> Repo {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical temp dir").join("repo");
    std::fs::create_dir_all(&root).expect("create repo dir");
    codegraph_tests::write_fixture(&root, FIXTURE);
    let db = dir.path().join("index.db").to_string_lossy().into_owned();
    let root_s = root.to_string_lossy().into_owned();
    codegraph_tests::cli::assert_ok(&codegraph(&["index", &root_s, "--db", &db], &root));
    Repo { dir, root, db }
}

/// Exports the repo's index as SCIP to `name` in its temp dir; returns the bytes.
fn export(r: &Repo, name: &str) -> Vec<u8> {
    let out = r.dir.path().join(name);
    let (root, out_s) = (r.root.to_string_lossy(), out.to_string_lossy());
    let run =
        codegraph(&["export", &root, "--db", &r.db, "--format", "scip", "-o", &out_s], &r.root);
    codegraph_tests::cli::assert_ok(&run);
    let note = String::from_utf8_lossy(&run.stderr);
    assert!(note.contains("5 documents"), "summary on stderr: {note}");
    std::fs::read(&out).expect("export written")
}

fn range(o: &scip::types::Occurrence) -> (i32, i32, i32) {
    let Some(Typed_range::SingleLineRange(r)) = &o.typed_range else {
        panic!("single-line typed range expected: {o:?}")
    };
    // The legacy three-element form says the same.
    assert_eq!(o.range, vec![r.line, r.start_character, r.end_character]);
    (r.line, r.start_character, r.end_character)
}

/// One line per occurrence (`line:start-end role symbol`) and per symbol, by document.
fn render(index: &Index) -> String {
    let mut out = String::new();
    for d in &index.documents {
        out.push_str(&format!("{} ({})\n", d.relative_path, d.language));
        for o in &d.occurrences {
            let (l, s, e) = range(o);
            let role = match o.symbol_roles {
                r if r & SymbolRole::Definition as i32 != 0 => "def",
                r if r & SymbolRole::Import as i32 != 0 => "import",
                _ => "ref",
            };
            out.push_str(&format!("  {l}:{s}-{e} {role} {}\n", o.symbol));
        }
        for s in &d.symbols {
            let rel: Vec<&str> = s.relationships.iter().map(|r| r.symbol.as_str()).collect();
            out.push_str(&format!(
                "  symbol {} {:?} `{}` impl={rel:?} doc={:?}\n",
                s.symbol,
                s.kind.enum_value_or_default(),
                s.display_name,
                s.documentation
            ));
        }
    }
    out
}

fn doc<'a>(index: &'a Index, path: &str) -> &'a Document {
    index.documents.iter().find(|d| d.relative_path == path).expect("document")
}

#[test]
fn fixture_exports_exact_definitions_references_and_relationships() {
    let r = indexed();
    let bytes = export(&r, "index.scip");
    let index = Index::parse_from_bytes(&bytes).expect("a SCIP index");

    let meta = index.metadata.as_ref().expect("metadata");
    let tool = meta.tool_info.as_ref().expect("tool info");
    assert_eq!(
        (tool.name.as_str(), tool.version.as_str()),
        ("codegraph", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(meta.project_root, format!("file://{}", r.root.display()));
    assert_eq!(meta.text_document_encoding.value(), scip::types::TextEncoding::UTF8 as i32);
    let paths: Vec<&str> = index.documents.iter().map(|d| d.relative_path.as_str()).collect();
    // Every file a language reads, by path; notes.txt is no source.
    assert_eq!(
        paths,
        ["pkg/store/ops.go", "pkg/store/store.go", "src/main.ts", "src/shapes.ts", "src/util.ts"]
    );

    // Named facts, spelled out.
    let square = "codegraph . . . src/`shapes.ts`/Square#";
    let shapes = doc(&index, "src/shapes.ts");
    let info = shapes.symbols.iter().find(|s| s.symbol == square).expect("Square's information");
    assert_eq!(info.display_name, "Square");
    assert_eq!(info.relationships.len(), 1);
    assert_eq!(info.relationships[0].symbol, "codegraph . . . src/`shapes.ts`/Shape#");
    assert!(info.relationships[0].is_implementation);
    // Its `area` implements the interface's.
    let area =
        shapes.symbols.iter().find(|s| s.symbol == format!("{square}area().")).expect("area");
    let implemented: Vec<(&str, bool)> =
        area.relationships.iter().map(|r| (r.symbol.as_str(), r.is_implementation)).collect();
    assert_eq!(implemented, [("codegraph . . . src/`shapes.ts`/Shape#area().", true)]);
    let def = shapes.occurrences.iter().find(|o| o.symbol == square).expect("Square's definition");
    // `export class Square`: line 6, columns 13..19 (0-based).
    assert_eq!((range(def), def.symbol_roles), ((5, 13, 19), SymbolRole::Definition as i32));
    let main = doc(&index, "src/main.ts");
    let at = |line: i32, col: i32| -> Vec<&str> {
        main.occurrences
            .iter()
            .filter(|o| range(o).0 == line && range(o).1 == col)
            .map(|o| o.symbol.as_str())
            .collect()
    };
    // `new Square(2)` names the constructor; `helper` imported on the line after `import {`.
    assert_eq!(at(6, 16), ["codegraph . . . src/`shapes.ts`/Square#constructor()."]);
    assert_eq!(at(2, 2), ["codegraph . . . src/`util.ts`/helper()."]);
    assert_eq!(at(3, 7), ["codegraph . . . src/`util.ts`/"]);
    let store = doc(&index, "pkg/store/ops.go");
    assert_eq!(store.language, "Go");
    // A Go method lives under its package's namespace and its receiver type.
    assert!(store.occurrences.iter().any(|o| o.symbol == "codegraph . . . pkg/store/Store#Add()."
        && range(o) == (3, 16, 19)
        && o.symbol_roles == SymbolRole::Definition as i32));

    expect![[r#"
        pkg/store/ops.go (Go)
          0:0-0 def codegraph . . . pkg/store/`ops.go`/
          3:16-19 def codegraph . . . pkg/store/Store#Add().
          4:3-8 ref codegraph . . . pkg/store/Store#items.
          4:20-25 ref codegraph . . . pkg/store/Store#items.
          7:5-13 def codegraph . . . pkg/store/NewStore().
          7:17-22 ref codegraph . . . pkg/store/Store#
          9:3-6 ref codegraph . . . pkg/store/Store#Add().
          symbol codegraph . . . pkg/store/NewStore(). Function `NewStore` impl=[] doc=["```go\nfunc NewStore() *Store\n```"]
          symbol codegraph . . . pkg/store/Store#Add(). Method `Add` impl=[] doc=["```go\nfunc (s *Store) Add(item string)\n```", "Add appends an item."]
          symbol codegraph . . . pkg/store/`ops.go`/ File `ops.go` impl=[] doc=[]
        pkg/store/store.go (Go)
          0:0-0 def codegraph . . . pkg/store/`store.go`/
          3:5-10 def codegraph . . . pkg/store/Store#
          4:1-6 def codegraph . . . pkg/store/Store#items.
          symbol codegraph . . . pkg/store/Store# Struct `Store` impl=[] doc=["```go\ntype Store struct\n```", "Store keeps things."]
          symbol codegraph . . . pkg/store/Store#items. Property `items` impl=[] doc=["```go\nitems []string\n```"]
          symbol codegraph . . . pkg/store/`store.go`/ File `store.go` impl=[] doc=[]
        src/main.ts (TypeScript)
          0:0-0 def codegraph . . . src/`main.ts`/
          0:9-15 import codegraph . . . src/`shapes.ts`/Square#
          0:17-22 import codegraph . . . src/`shapes.ts`/Shape#
          0:30-40 import codegraph . . . src/`shapes.ts`/
          2:2-8 import codegraph . . . src/`util.ts`/helper().
          3:7-15 import codegraph . . . src/`util.ts`/
          5:16-21 def codegraph . . . src/`main.ts`/total().
          5:30-35 ref codegraph . . . src/`shapes.ts`/Shape#
          6:16-22 ref codegraph . . . src/`shapes.ts`/Square#constructor().
          7:9-15 ref codegraph . . . src/`util.ts`/helper().
          7:18-22 ref codegraph . . . src/`shapes.ts`/Square#area().
          symbol codegraph . . . src/`main.ts`/ File `main.ts` impl=[] doc=[]
          symbol codegraph . . . src/`main.ts`/total(). Function `total` impl=[] doc=["```typescript\nfunction total(shapes: Shape[]): number\n```"]
        src/shapes.ts (TypeScript)
          0:0-0 def codegraph . . . src/`shapes.ts`/
          1:17-22 def codegraph . . . src/`shapes.ts`/Shape#
          2:2-6 def codegraph . . . src/`shapes.ts`/Shape#area().
          5:13-19 def codegraph . . . src/`shapes.ts`/Square#
          5:31-36 ref codegraph . . . src/`shapes.ts`/Shape#
          6:2-13 def codegraph . . . src/`shapes.ts`/Square#constructor().
          6:22-26 def codegraph . . . src/`shapes.ts`/Square#side.
          7:2-6 def codegraph . . . src/`shapes.ts`/Square#area().
          8:16-20 ref codegraph . . . src/`shapes.ts`/Square#side.
          8:28-32 ref codegraph . . . src/`shapes.ts`/Square#side.
          symbol codegraph . . . src/`shapes.ts`/ File `shapes.ts` impl=[] doc=[]
          symbol codegraph . . . src/`shapes.ts`/Shape# Interface `Shape` impl=[] doc=["```typescript\ninterface Shape\n```", "A shape."]
          symbol codegraph . . . src/`shapes.ts`/Shape#area(). Method `area` impl=[] doc=["```typescript\narea(): number\n```"]
          symbol codegraph . . . src/`shapes.ts`/Square# Class `Square` impl=["codegraph . . . src/`shapes.ts`/Shape#"] doc=["```typescript\nclass Square implements Shape\n```"]
          symbol codegraph . . . src/`shapes.ts`/Square#area(). Method `area` impl=["codegraph . . . src/`shapes.ts`/Shape#area()."] doc=["```typescript\narea(): number\n```"]
          symbol codegraph . . . src/`shapes.ts`/Square#constructor(). Method `constructor` impl=[] doc=["```typescript\nconstructor(private side: number)\n```"]
          symbol codegraph . . . src/`shapes.ts`/Square#side. Property `side` impl=[] doc=["```typescript\nprivate side: number\n```"]
        src/util.ts (TypeScript)
          0:0-0 def codegraph . . . src/`util.ts`/
          0:16-22 def codegraph . . . src/`util.ts`/helper().
          symbol codegraph . . . src/`util.ts`/ File `util.ts` impl=[] doc=[]
          symbol codegraph . . . src/`util.ts`/helper(). Function `helper` impl=[] doc=["```typescript\nfunction helper(n: number): number\n```"]
    "#]]
    .assert_eq(&render(&index));
}

#[test]
fn same_index_gives_identical_bytes() {
    let r = indexed();
    let first = export(&r, "a.scip");
    assert_eq!(export(&r, "b.scip"), first);
    // A full rebuild of the same tree too.
    let root = r.root.to_string_lossy();
    codegraph_tests::cli::assert_ok(&codegraph(
        &["index", &root, "--db", &r.db, "--full"],
        &r.root,
    ));
    assert_eq!(export(&r, "c.scip"), first);
}

#[test]
fn a_file_changed_since_the_index_keeps_its_symbols_without_occurrences() {
    let r = indexed();
    // One more line on top: every recorded line of util.ts would point one line off.
    let util = r.root.join("src/util.ts");
    let text = std::fs::read_to_string(&util).expect("read");
    std::fs::write(&util, format!("// moved\n{text}")).expect("write");
    let out = r.dir.path().join("changed.scip");
    let (root, out_s) = (r.root.to_string_lossy(), out.to_string_lossy());
    let run =
        codegraph(&["export", &root, "--db", &r.db, "--format", "scip", "-o", &out_s], &r.root);
    codegraph_tests::cli::assert_ok(&run);
    let note = String::from_utf8_lossy(&run.stderr);
    assert!(note.contains("1 files changed since indexed"), "{note}");
    let index = Index::parse_from_bytes(&std::fs::read(&out).expect("written")).expect("SCIP");
    let util = doc(&index, "src/util.ts");
    assert!(util.occurrences.is_empty());
    let names: Vec<&str> = util.symbols.iter().map(|s| s.display_name.as_str()).collect();
    assert_eq!(names, ["util.ts", "helper"]);
    // Other documents still reference it where their own lines say so.
    let main = doc(&index, "src/main.ts");
    assert!(
        main.occurrences.iter().any(
            |o| o.symbol == "codegraph . . . src/`util.ts`/helper()." && range(o) == (7, 9, 15)
        )
    );
}

#[test]
fn bad_input_says_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::write(root.join("a.ts"), "export const a = 1;\n").expect("write");
    let db = root.join("none.db").to_string_lossy().into_owned();
    let out = root.join("x.scip").to_string_lossy().into_owned();
    let root_s = root.to_string_lossy().into_owned();

    let no_index =
        codegraph(&["export", &root_s, "--db", &db, "--format", "scip", "-o", &out], &root);
    assert!(!no_index.status.success());
    let err = String::from_utf8_lossy(&no_index.stderr);
    assert!(err.contains("no index for") && err.contains("codegraph index"), "{err}");
    assert!(!root.join("x.scip").exists());

    let missing = root.join("missing").to_string_lossy().into_owned();
    let gone = codegraph(&["export", &missing, "--db", &db, "--format", "scip", "-o", &out], &root);
    assert!(!gone.status.success());
    let err = String::from_utf8_lossy(&gone.stderr);
    assert!(err.contains("missing"), "{err}");

    let derived =
        codegraph(&["export", &root_s, "--format", "scip", "--derived", "-o", &out], &root);
    assert!(!derived.status.success());
    assert!(String::from_utf8_lossy(&derived.stderr).contains("--derived"));
}
