//! The example language (`.cgtoy`, feature `example-language`) proves the language registry:
//! it was added as one parse module (`crates/parse/src/toy.rs`), one resolve module
//! (`crates/resolve/src/toy.rs`) and one registry line in each crate, and its files go
//! through the same pipeline as every language: path to language, facts, symbols and their
//! IDs, file nodes, its test-file rule (`*.test.cgtoy`), CALLS edges and unresolved sites.

use codegraph_parse::Language;
use codegraph_tests::{render_fixture_facts, render_fixture_graph, render_fixture_resolution};
use expect_test::expect;

const FIXTURE: &str = r#"
//- /app/main.cgtoy
# Starts everything.
def main
  setup()
  greet()
  missing()
def setup
  greet()
//- /lib/greet.cgtoy
def greet
  log()
def log
//- /app/main.test.cgtoy
def test_main
  main()
"#;

#[test]
fn the_registry_knows_it() {
    assert_eq!(Language::from_path("app/main.cgtoy"), Some(Language::Toy));
    assert!(Language::ALL.contains(&Language::Toy));
    assert_eq!((Language::Toy.as_str(), Language::Toy.id_tag()), ("toy", "toy"));
}

#[test]
fn facts_of_an_example_language_file() {
    expect![[r#"
        //- app/main.cgtoy
        sym function main L2-5 exported sig="def main" doc="Starts everything."
        sym function setup L6-7 exported sig="def setup"
        call L3:3 setup in main
        call L4:3 greet in main
        call L5:3 missing in main
        call L7:3 greet in setup
        //- lib/greet.cgtoy
        sym function greet L1-2 exported sig="def greet"
        sym function log L3-3 exported sig="def log"
        call L2:3 log in greet
        //- app/main.test.cgtoy
        sym function test_main L1-2 exported sig="def test_main"
        call L2:3 main in test_main
    "#]]
    .assert_eq(&render_fixture_facts(FIXTURE));
}

#[test]
fn graph_of_an_example_language_workspace() {
    expect![[r#"
        node file file:app/main.cgtoy L1-7
        node file file:app/main.test.cgtoy L1-2 test
        node file file:lib/greet.cgtoy L1-3
        node function sym:toy:app/main.cgtoy:main L2-5 parent=file:app/main.cgtoy
        node function sym:toy:app/main.cgtoy:setup L6-7 parent=file:app/main.cgtoy
        node function sym:toy:app/main.test.cgtoy:test_main L1-2 parent=file:app/main.test.cgtoy test
        node function sym:toy:lib/greet.cgtoy:greet L1-2 parent=file:lib/greet.cgtoy
        node function sym:toy:lib/greet.cgtoy:log L3-3 parent=file:lib/greet.cgtoy
        edge CONTAINS file:app/main.cgtoy -> sym:toy:app/main.cgtoy:main structural 1.00
        edge DEFINES file:app/main.cgtoy -> sym:toy:app/main.cgtoy:main structural 1.00
        edge CONTAINS file:app/main.cgtoy -> sym:toy:app/main.cgtoy:setup structural 1.00
        edge DEFINES file:app/main.cgtoy -> sym:toy:app/main.cgtoy:setup structural 1.00
        edge CONTAINS file:app/main.test.cgtoy -> sym:toy:app/main.test.cgtoy:test_main structural 1.00
        edge DEFINES file:app/main.test.cgtoy -> sym:toy:app/main.test.cgtoy:test_main structural 1.00
        edge CONTAINS file:lib/greet.cgtoy -> sym:toy:lib/greet.cgtoy:greet structural 1.00
        edge DEFINES file:lib/greet.cgtoy -> sym:toy:lib/greet.cgtoy:greet structural 1.00
        edge CONTAINS file:lib/greet.cgtoy -> sym:toy:lib/greet.cgtoy:log structural 1.00
        edge DEFINES file:lib/greet.cgtoy -> sym:toy:lib/greet.cgtoy:log structural 1.00
    "#]]
    .assert_eq(&render_fixture_graph(FIXTURE));
}

#[test]
fn calls_resolve_through_its_resolver() {
    expect![[r#"
        edge CALLS sym:toy:app/main.cgtoy:main -> sym:toy:app/main.cgtoy:setup L3 same-file 0.95
        edge CALLS sym:toy:app/main.cgtoy:main -> sym:toy:lib/greet.cgtoy:greet L4 name-only 0.30
        edge CALLS sym:toy:app/main.cgtoy:setup -> sym:toy:lib/greet.cgtoy:greet L7 name-only 0.30
        edge CALLS sym:toy:app/main.test.cgtoy:test_main -> sym:toy:app/main.cgtoy:main L2 name-only 0.30
        edge CALLS sym:toy:lib/greet.cgtoy:greet -> sym:toy:lib/greet.cgtoy:log L2 same-file 0.95
        unresolved app/main.cgtoy:5 missing in sym:toy:app/main.cgtoy:main
    "#]]
    .assert_eq(&render_fixture_resolution(FIXTURE));
}
