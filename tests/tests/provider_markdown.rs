//! Golden facts of the Markdown provider.

use codegraph_tests::render_fixture_facts;
use expect_test::expect;

#[test]
fn headings_become_nested_sections() {
    let out = render_fixture_facts(
        r#"
        //- /docs/guide.md
        # Guide

        Intro text.

        ## Install
        ```sh
        # not a heading
        ```
        ### From source
        Setext Title
        ============
        Sub
        ---
        ## Not closed ##
        "#,
    );
    expect![[r####"
        //- docs/guide.md
        sym section Guide L1-9 exported sig="# Guide"
        sym section Guide.Install L5-9 exported in=Guide sig="## Install"
        sym section Guide.Install.From source L9-9 exported in=Guide.Install sig="### From source"
        sym section Setext Title L10-14 exported sig="# Setext Title"
        sym section Setext Title.Sub L12-13 exported in=Setext Title sig="## Sub"
        sym section Setext Title.Not closed L14-14 exported in=Setext Title sig="## Not closed"
    "####]]
    .assert_eq(&out);
}
