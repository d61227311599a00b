//! DOC_RELATED: Markdown sections to the symbols and files they name, one fixture per rule
//! (inline code, fenced code, links, package-qualified names, ambiguity, tests vs production).

use codegraph_tests::render_fixture_resolution;
use expect_test::expect;

#[test]
fn sections_name_symbols_and_files() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/mux
        //- /mux.go
        package mux

        type Router struct{ strict bool }

        func NewRouter() *Router { return &Router{} }

        func (r *Router) HandleFunc(path string, f func()) {}

        func (r *Router) Use(mw func()) {}

        func Vars() map[string]string { return nil }
        //- /route.go
        package mux

        type Route struct{}

        func (r *Route) Use() {}

        func (r *Route) Path(tpl string) *Route { return r }
        //- /mux_test.go
        package mux

        func NewRouterForTest() {}

        func helper() {}
        //- /internal/helper.go
        package internal

        func helper() {}
        //- /vendor/dep/dep.go
        package dep

        func Distinct() {}
        //- /other/o.go
        package other

        func ab() {}
        //- /docs/guide.md
        # Guide

        See the [README](../README.md) and [the router](../mux.go#L3). Placeholders `ab`,
        vendored `Distinct`, a file name `index.html`. Use `NewRouter`; `helper` is not
        exported, and this doc is not under its directory.
        //- /README.md
        Intro mentions `mux.NewRouter()` before any heading.

        # Routing

        Create a router with `NewRouter`, then register handlers:

        ```go
        r := mux.NewRouter()
        r.HandleFunc("/products/{key}", ProductHandler)
        vars := mux.Vars(r)
        func (h spa) Use(w int) {}
        func helper() {}
        http.FileServer(dir).Vars(w, r)
        ```

        ## Middleware

        `Router.Use` adds middleware; `Use` alone is ambiguous; `helper` is the production one.
        A `*Route` has `Path`, a router `strict`. Unknown: `Nope`. See [guide](docs/guide.md),
        [site](https://example.com/x.md) and `route.go`.
        "#,
    );
    let docs: Vec<&str> = out.lines().filter(|l| l.contains(" DOC_RELATED ")).collect();
    expect![[r#"
        edge DOC_RELATED file:README.md -> sym:go:mux.go:NewRouter L1 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing -> sym:go:mux.go:NewRouter L5 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing -> sym:go:mux.go:Vars L10 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing.Middleware -> file:docs/guide.md L19 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing.Middleware -> file:route.go L20 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing.Middleware -> sym:go:internal/helper.go:helper L18 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing.Middleware -> sym:go:mux.go:Router.Use L18 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing.Middleware -> sym:go:mux.go:Router.strict L19 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing.Middleware -> sym:go:route.go:Route L19 doc-mention 0.75
        edge DOC_RELATED sym:md:README.md:Routing.Middleware -> sym:go:route.go:Route.Path L19 doc-mention 0.75
        edge DOC_RELATED sym:md:docs/guide.md:Guide -> file:README.md L3 doc-mention 0.75
        edge DOC_RELATED sym:md:docs/guide.md:Guide -> file:mux.go L3 doc-mention 0.75
        edge DOC_RELATED sym:md:docs/guide.md:Guide -> sym:go:mux.go:NewRouter L4 doc-mention 0.75
    "#]]
    .assert_eq(&(docs.join("\n") + "\n"));
}
