//! Go cross-file resolution, one fixture per rule: imports (go.mod modules, GOPATH-style
//! directories, vendoring, aliases), package functions, methods through typed receivers,
//! fields and embedding, interface methods, EXTENDS and structural IMPLEMENTS.

use codegraph_tests::render_fixture_resolution;
use expect_test::expect;

#[test]
fn module_imports_and_package_functions() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/app

        go 1.21
        //- /main.go
        package main

        import (
        	"fmt"
        	u "example.com/app/internal/util"
        	"example.com/app/store"
        )

        func main() {
        	helper()
        	u.Trim("x")
        	s := store.New()
        	s.Put("k")
        	fmt.Println(len("x"), int64(3))
        	missing()
        }
        //- /helper.go
        package main

        func helper() {}
        //- /internal/util/util.go
        package util

        func Trim(s string) string { return s }
        //- /store/store.go
        package store

        type Store struct{}

        func New() *Store { return &Store{} }

        func (s *Store) Put(k string) {}
        "#,
    );
    expect![[r#"
        edge IMPORTS file:main.go -> pkg:go:internal/util L5 import-resolved 0.95
        edge IMPORTS file:main.go -> pkg:go:store L6 import-resolved 0.95
        edge CALLS sym:go:main.go:main -> sym:go:helper.go:helper L10 same-package 1.00
        edge CALLS sym:go:main.go:main -> sym:go:internal/util/util.go:Trim L11 import-resolved 0.95
        edge CALLS sym:go:main.go:main -> sym:go:store/store.go:New L12 import-resolved 0.95
        edge CALLS sym:go:main.go:main -> sym:go:store/store.go:Store.Put L13 typed-receiver 0.85
        unresolved main.go:14 fmt.Println in sym:go:main.go:main
        unresolved main.go:15 missing in sym:go:main.go:main
    "#]]
    .assert_eq(&out);
}
