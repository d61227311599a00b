//! Golden graphs (nodes, structural edges, IDs) built through the salsa queries.

use codegraph_tests::render_fixture_graph;
use expect_test::expect;

#[test]
fn markdown_sections_nest_with_contains() {
    let out = render_fixture_graph(
        r#"
        //- /docs/a.md
        # A
        ## B
        ## B
        //- /notes.txt
        hello
        "#,
    );
    expect![[r#"
        node file file:docs/a.md L1-3
        node file file:notes.txt L1-1
        node section sym:md:docs/a.md:A L1-3 parent=file:docs/a.md
        node section sym:md:docs/a.md:A.B L2-2 parent=sym:md:docs/a.md:A
        node section sym:md:docs/a.md:A.B#2 L3-3 parent=sym:md:docs/a.md:A
        edge CONTAINS file:docs/a.md -> sym:md:docs/a.md:A structural 1.00
        edge DEFINES file:docs/a.md -> sym:md:docs/a.md:A structural 1.00
        edge DEFINES file:docs/a.md -> sym:md:docs/a.md:A.B structural 1.00
        edge DEFINES file:docs/a.md -> sym:md:docs/a.md:A.B#2 structural 1.00
        edge CONTAINS sym:md:docs/a.md:A -> sym:md:docs/a.md:A.B structural 1.00
        edge CONTAINS sym:md:docs/a.md:A -> sym:md:docs/a.md:A.B#2 structural 1.00
    "#]]
    .assert_eq(&out);
}
