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
        	_ = store.Store(store.Store{})
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
        edge REFERS_TO sym:go:main.go:main -> sym:go:store/store.go:Store L15 import-resolved 0.95
        edge CALLS sym:go:main.go:main -> sym:go:store/store.go:Store.Put L13 typed-receiver 0.85
        edge REFERS_TO sym:go:store/store.go:New -> sym:go:store/store.go:Store L5 same-package 1.00
        unresolved main.go:14 fmt.Println in sym:go:main.go:main
        unresolved main.go:16 missing in sym:go:main.go:main
    "#]]
    .assert_eq(&out);
}

#[test]
fn gopath_layout_vendor_and_aliases_without_go_mod() {
    let out = render_fixture_resolution(
        r#"
        //- /cmd/app/main.go
        package main

        import (
        	"lib/strutil"
        	yy "github.com/acme/yaml"
        	. "lib/dot"
        	_ "lib/sideeffect"
        	"os"
        )

        func main() {
        	strutil.Reverse("abc")
        	yy.Marshal(nil)
        	Dotted()
        	os.Exit(0)
        }
        //- /lib/strutil/reverse.go
        package strutil

        func Reverse(s string) string { return s }
        //- /lib/dot/dot.go
        package dot

        func Dotted() {}
        //- /lib/sideeffect/init.go
        package sideeffect

        func init() {}
        //- /vendor/github.com/acme/yaml/yaml.go
        package yaml

        func Marshal(v any) []byte { return nil }
        "#,
    );
    expect![[r#"
        edge IMPORTS file:cmd/app/main.go -> pkg:go:lib/dot L6 import-resolved 0.95
        edge IMPORTS file:cmd/app/main.go -> pkg:go:lib/sideeffect L7 import-resolved 0.95
        edge IMPORTS file:cmd/app/main.go -> pkg:go:lib/strutil L4 import-resolved 0.95
        edge IMPORTS file:cmd/app/main.go -> pkg:go:vendor/github.com/acme/yaml L5 import-resolved 0.95
        edge CALLS sym:go:cmd/app/main.go:main -> sym:go:lib/dot/dot.go:Dotted L14 import-resolved 0.95
        edge CALLS sym:go:cmd/app/main.go:main -> sym:go:lib/strutil/reverse.go:Reverse L12 import-resolved 0.95
        edge CALLS sym:go:cmd/app/main.go:main -> sym:go:vendor/github.com/acme/yaml/yaml.go:Marshal L13 import-resolved 0.95
        unresolved cmd/app/main.go:15 os.Exit in sym:go:cmd/app/main.go:main
    "#]].assert_eq(&out);
}

/// A GOPATH-era project checked out on its own (no go.mod, not under `$GOPATH/src`): its
/// files import their own packages by full path. The prefix they agree on names the root
/// (two directories vote for `github.com/org/project`); a lone external import that happens
/// to end with a one-segment directory of the root (`golang.org/x/net/context` and
/// `context/`) is not taken for the project's own.
#[test]
fn gopath_import_prefix_inferred_without_go_mod() {
    let out = render_fixture_resolution(
        r#"
        //- /cmd/tool/main.go
        package main

        import (
        	"github.com/org/project/api/server/httputils"
        	"github.com/org/project/pkg/log"
        	"golang.org/x/net/context"
        )

        func main() {
        	httputils.WriteJSON()
        	log.Info()
        	context.Background()
        }
        //- /api/server/httputils/h.go
        package httputils

        func WriteJSON() {}
        //- /pkg/log/log.go
        package log

        func Info() {}
        //- /context/c.go
        package context

        func Background() {}
        "#,
    );
    expect![[r#"
        edge IMPORTS file:cmd/tool/main.go -> pkg:go:api/server/httputils L4 import-resolved 0.95
        edge IMPORTS file:cmd/tool/main.go -> pkg:go:pkg/log L5 import-resolved 0.95
        edge CALLS sym:go:cmd/tool/main.go:main -> sym:go:api/server/httputils/h.go:WriteJSON L10 import-resolved 0.95
        edge CALLS sym:go:cmd/tool/main.go:main -> sym:go:pkg/log/log.go:Info L11 import-resolved 0.95
        unresolved cmd/tool/main.go:12 context.Background in sym:go:cmd/tool/main.go:main
    "#]].assert_eq(&out);
}

#[test]
fn methods_through_typed_receivers() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/m
        //- /db/db.go
        package db

        type Conn struct{ tx *Tx }

        type Tx struct{}

        func Open() (*Conn, error) { return &Conn{}, nil }

        func (c *Conn) Begin() *Tx { return c.tx }

        func (t *Tx) Commit() error { return nil }

        var Default = &Conn{}
        //- /app/app.go
        package app

        import "example.com/m/db"

        type Service struct {
        	conn  *db.Conn
        	hook  func()
        	cache Cache
        }

        type Cache struct{}

        type Name string

        func (Cache) Get(k string) string { return k }

        func (n Name) Upper() Name { return n }

        func NewService() *Service { return &Service{} }

        var global Service

        func (s *Service) Run(c *db.Conn) {
        	c.Begin()
        	s.conn.Begin().Commit()
        	s.cache.Get("k")
        	s.hook()
        	s.Stop()
        	global.cache.Get("g")
        	db.Default.Begin()
        	Name("x").Upper()
        }

        func (s *Service) Stop() {}

        func use() {
        	a := Service{}
        	a.Stop()
        	b := &Service{}
        	b.Stop()
        	c := new(Service)
        	c.Stop()
        	var d Service
        	d.Stop()
        	e := NewService()
        	e.Stop()
        	conn, _ := db.Open()
        	conn.Begin()
        	f := e
        	f.Stop()
        	for _, g := range []*Service{a, b} {
        		g.Stop()
        	}
        	var x any = a
        	if h, ok := x.(*Service); ok {
        		h.Stop()
        	}
        	switch v := x.(type) {
        	case Cache:
        		v.Get("k")
        	case *Service:
        		v.Stop()
        	}
        	(*Service).Stop(b)
        	Cache.Get(Cache{}, "k")
        	unknown.Stop()
        }
        "#,
    );
    expect![[r#"
        edge IMPORTS file:app/app.go -> pkg:go:db L3 import-resolved 0.95
        edge REFERS_TO sym:go:app/app.go:Name.Upper -> sym:go:app/app.go:Name L17 same-package 1.00
        edge REFERS_TO sym:go:app/app.go:NewService -> sym:go:app/app.go:Service L19 same-package 1.00
        edge REFERS_TO sym:go:app/app.go:Service -> sym:go:app/app.go:Cache L8 same-package 1.00
        edge REFERS_TO sym:go:app/app.go:Service -> sym:go:db/db.go:Conn L6 import-resolved 0.95
        edge CALLS sym:go:app/app.go:Service.Run -> sym:go:app/app.go:Cache.Get L26 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:Service.Run -> sym:go:app/app.go:Cache.Get L29 typed-receiver 0.85
        edge REFERS_TO sym:go:app/app.go:Service.Run -> sym:go:app/app.go:Name L31 same-package 1.00
        edge CALLS sym:go:app/app.go:Service.Run -> sym:go:app/app.go:Name.Upper L31 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:Service.Run -> sym:go:app/app.go:Service.Stop L28 typed-receiver 0.85
        edge ACCESSES sym:go:app/app.go:Service.Run -> sym:go:app/app.go:Service.cache L26 typed-receiver 0.85
        edge ACCESSES sym:go:app/app.go:Service.Run -> sym:go:app/app.go:Service.conn L25 typed-receiver 0.85
        edge ACCESSES sym:go:app/app.go:Service.Run -> sym:go:app/app.go:Service.hook L27 typed-receiver 0.85
        edge REFERS_TO sym:go:app/app.go:Service.Run -> sym:go:app/app.go:global L29 same-package 1.00
        edge REFERS_TO sym:go:app/app.go:Service.Run -> sym:go:db/db.go:Conn L23 import-resolved 0.95
        edge CALLS sym:go:app/app.go:Service.Run -> sym:go:db/db.go:Conn.Begin L24 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:Service.Run -> sym:go:db/db.go:Conn.Begin L25 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:Service.Run -> sym:go:db/db.go:Conn.Begin L30 typed-receiver 0.85
        edge REFERS_TO sym:go:app/app.go:Service.Run -> sym:go:db/db.go:Default L30 import-resolved 0.95
        edge CALLS sym:go:app/app.go:Service.Run -> sym:go:db/db.go:Tx.Commit L25 typed-receiver 0.85
        edge REFERS_TO sym:go:app/app.go:global -> sym:go:app/app.go:Service L21 same-package 1.00
        edge REFERS_TO sym:go:app/app.go:use -> sym:go:app/app.go:Cache L59 same-package 1.00
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Cache.Get L60 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Cache.Get L65 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:NewService L45 same-package 1.00
        edge REFERS_TO sym:go:app/app.go:use -> sym:go:app/app.go:Service L37 same-package 1.00
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Service.Stop L38 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Service.Stop L40 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Service.Stop L42 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Service.Stop L44 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Service.Stop L46 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Service.Stop L50 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Service.Stop L56 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:app/app.go:Service.Stop L62 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:db/db.go:Conn.Begin L48 typed-receiver 0.85
        edge CALLS sym:go:app/app.go:use -> sym:go:db/db.go:Open L47 import-resolved 0.95
        edge REFERS_TO sym:go:db/db.go:Conn -> sym:go:db/db.go:Tx L3 same-package 1.00
        edge ACCESSES sym:go:db/db.go:Conn.Begin -> sym:go:db/db.go:Conn.tx L9 typed-receiver 0.85
        edge REFERS_TO sym:go:db/db.go:Conn.Begin -> sym:go:db/db.go:Tx L9 same-package 1.00
        edge REFERS_TO sym:go:db/db.go:Default -> sym:go:db/db.go:Conn L13 same-package 1.00
        edge REFERS_TO sym:go:db/db.go:Open -> sym:go:db/db.go:Conn L7 same-package 1.00
        unresolved app/app.go:52 g.Stop in sym:go:app/app.go:use
        unresolved app/app.go:64 ?.Stop in sym:go:app/app.go:use
        unresolved app/app.go:66 unknown.Stop in sym:go:app/app.go:use
    "#]].assert_eq(&out);
}

#[test]
fn embedding_promotion_interfaces_extends_and_implements() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/e
        //- /io/io.go
        package io

        type Reader interface {
        	Read(p []byte) (int, error)
        }

        type Closer interface {
        	Close() error
        }

        type ReadCloser interface {
        	Reader
        	Closer
        }

        type Any interface{}
        //- /files/base.go
        package files

        type base struct{}

        func (b *base) Close() error { return nil }

        func (b base) Name() string { return "" }
        //- /files/file.go
        package files

        import "example.com/e/io"

        type inner struct{ base }

        type File struct {
        	*inner
        	r io.Reader
        }

        func (f *File) Read(p []byte) (int, error) { return f.r.Read(p) }

        func use(f *File, rc io.ReadCloser) {
        	f.Close()
        	f.Name()
        	f.inner.base.Name()
        	rc.Read(nil)
        	rc.Close()
        }
        "#,
    );
    expect![[r#"
        edge IMPORTS file:files/file.go -> pkg:go:io L3 import-resolved 0.95
        edge IMPLEMENTS sym:go:files/base.go:base -> sym:go:io/io.go:Closer method-set 0.80
        edge EMBEDS sym:go:files/file.go:File -> sym:go:files/file.go:inner same-package 1.00
        edge IMPLEMENTS sym:go:files/file.go:File -> sym:go:io/io.go:Closer method-set 0.80
        edge IMPLEMENTS sym:go:files/file.go:File -> sym:go:io/io.go:ReadCloser method-set 0.80
        edge IMPLEMENTS sym:go:files/file.go:File -> sym:go:io/io.go:Reader method-set 0.80
        edge REFERS_TO sym:go:files/file.go:File -> sym:go:io/io.go:Reader L9 import-resolved 0.95
        edge ACCESSES sym:go:files/file.go:File.Read -> sym:go:files/file.go:File.r L12 typed-receiver 0.85
        edge CALLS sym:go:files/file.go:File.Read -> sym:go:io/io.go:Reader.Read L12 interface-method 0.80
        edge EMBEDS sym:go:files/file.go:inner -> sym:go:files/base.go:base same-package 1.00
        edge IMPLEMENTS sym:go:files/file.go:inner -> sym:go:io/io.go:Closer method-set 0.80
        edge CALLS sym:go:files/file.go:use -> sym:go:files/base.go:base.Close L15 typed-receiver 0.85
        edge CALLS sym:go:files/file.go:use -> sym:go:files/base.go:base.Name L16 typed-receiver 0.85
        edge CALLS sym:go:files/file.go:use -> sym:go:files/base.go:base.Name L17 typed-receiver 0.85
        edge REFERS_TO sym:go:files/file.go:use -> sym:go:files/file.go:File L14 same-package 1.00
        edge ACCESSES sym:go:files/file.go:use -> sym:go:files/file.go:File.inner L17 typed-receiver 0.85
        edge ACCESSES sym:go:files/file.go:use -> sym:go:files/file.go:inner.base L17 typed-receiver 0.85
        edge CALLS sym:go:files/file.go:use -> sym:go:io/io.go:Closer.Close L19 interface-method 0.80
        edge REFERS_TO sym:go:files/file.go:use -> sym:go:io/io.go:ReadCloser L14 import-resolved 0.95
        edge CALLS sym:go:files/file.go:use -> sym:go:io/io.go:Reader.Read L18 interface-method 0.80
        edge EMBEDS sym:go:io/io.go:ReadCloser -> sym:go:io/io.go:Closer same-package 1.00
        edge EMBEDS sym:go:io/io.go:ReadCloser -> sym:go:io/io.go:Reader same-package 1.00
    "#]].assert_eq(&out);
}

/// Parameters of function literals are typed locals of the enclosing function: middleware
/// closures, `t.Run` subtests and router callbacks call methods on them (gin's
/// `return func(c *Context) { c.Next() }`); a variadic one is a slice, not typed here.
#[test]
fn function_literal_parameters_type_their_calls() {
    let out = render_fixture_resolution(
        r#"
        //- /gin.go
        package gin

        type Context struct{}

        func (c *Context) Next() {}

        type HandlerFunc func(*Context)

        type Router struct{}

        func (r *Router) Get(path string) {}

        func Logger() HandlerFunc {
        	return func(c *Context) {
        		c.Next()
        	}
        }

        func Route(r *Router, fn func(r *Router)) { fn(r) }

        func Mount() {
        	Route(nil, func(sub *Router) {
        		sub.Get("/x")
        	})
        	handler := func(c *Context, extra ...*Router) {
        		c.Next()
        		extra[0].Get("/y")
        	}
        	_ = handler
        }
        "#,
    );
    expect![[r#"
        edge REFERS_TO sym:go:gin.go:HandlerFunc -> sym:go:gin.go:Context L7 same-package 1.00
        edge REFERS_TO sym:go:gin.go:Logger -> sym:go:gin.go:Context L14 same-package 1.00
        edge CALLS sym:go:gin.go:Logger -> sym:go:gin.go:Context.Next L15 typed-receiver 0.85
        edge REFERS_TO sym:go:gin.go:Logger -> sym:go:gin.go:HandlerFunc L13 same-package 1.00
        edge REFERS_TO sym:go:gin.go:Mount -> sym:go:gin.go:Context L25 same-package 1.00
        edge CALLS sym:go:gin.go:Mount -> sym:go:gin.go:Context.Next L26 typed-receiver 0.85
        edge CALLS sym:go:gin.go:Mount -> sym:go:gin.go:Route L22 same-package 1.00
        edge REFERS_TO sym:go:gin.go:Mount -> sym:go:gin.go:Router L22 same-package 1.00
        edge CALLS sym:go:gin.go:Mount -> sym:go:gin.go:Router.Get L23 typed-receiver 0.85
        edge REFERS_TO sym:go:gin.go:Route -> sym:go:gin.go:Router L19 same-package 1.00
        unresolved gin.go:19 fn in sym:go:gin.go:Route
        unresolved gin.go:27 ?.Get in sym:go:gin.go:Mount
    "#]]
    .assert_eq(&out);
}

/// Field reads and writes through typed receivers are ACCESSES edges to the field: on the
/// receiver's own type, promoted through embedding, along a chain of fields (each link, in a
/// call's receiver too), on a call's result, written by an assignment, `++` or a keyed
/// literal (`Engine{count: 1}`), or called when it holds a function (`f.getBuf(1)`); one edge
/// per (symbol, field), at its first access; package members, unknown names and a named map
/// type's keys give none.
#[test]
fn field_reads_and_writes_are_accesses() {
    let out = render_fixture_resolution(
        r#"
        //- /engine.go
        package gin

        import "net/http"

        type Options struct{ Trailing bool }

        type Engine struct {
        	Options
        	RedirectTrailingSlash bool
        	count int
        	name  string
        }

        type Context struct{ engine *Engine }

        func New() *Engine { return &Engine{} }

        func (c *Context) Handle() {
        	if c.engine.RedirectTrailingSlash {
        		c.engine.count++
        	}
        	e := c.engine
        	e.Trailing = true
        	_ = New().name
        	_ = c.engine.count
        	_ = http.StatusOK
        	_ = e.missing
        }

        func (e *Engine) Run() {}

        type Codes map[string]int

        const count = "count"

        func Make(c *Context) Engine {
        	c.engine.Run()
        	_ = Codes{count: 1}
        	return Engine{count: 1, name: "x"}
        }

        type Framer struct{ getBuf func(n int) []byte }

        func (f *Framer) read() { _ = f.getBuf(1) }
        "#,
    );
    expect![[r#"
        edge REFERS_TO sym:go:engine.go:Context -> sym:go:engine.go:Engine L14 same-package 1.00
        edge ACCESSES sym:go:engine.go:Context.Handle -> sym:go:engine.go:Context.engine L19 typed-receiver 0.85
        edge ACCESSES sym:go:engine.go:Context.Handle -> sym:go:engine.go:Engine.RedirectTrailingSlash L19 typed-receiver 0.85
        edge ACCESSES sym:go:engine.go:Context.Handle -> sym:go:engine.go:Engine.count L20 typed-receiver 0.85
        edge ACCESSES sym:go:engine.go:Context.Handle -> sym:go:engine.go:Engine.name L24 typed-receiver 0.85
        edge CALLS sym:go:engine.go:Context.Handle -> sym:go:engine.go:New L24 same-package 1.00
        edge ACCESSES sym:go:engine.go:Context.Handle -> sym:go:engine.go:Options.Trailing L23 typed-receiver 0.85
        edge EMBEDS sym:go:engine.go:Engine -> sym:go:engine.go:Options same-package 1.00
        edge ACCESSES sym:go:engine.go:Framer.read -> sym:go:engine.go:Framer.getBuf L44 typed-receiver 0.85
        edge REFERS_TO sym:go:engine.go:Make -> sym:go:engine.go:Codes L38 same-package 1.00
        edge REFERS_TO sym:go:engine.go:Make -> sym:go:engine.go:Context L36 same-package 1.00
        edge ACCESSES sym:go:engine.go:Make -> sym:go:engine.go:Context.engine L37 typed-receiver 0.85
        edge REFERS_TO sym:go:engine.go:Make -> sym:go:engine.go:Engine L36 same-package 1.00
        edge CALLS sym:go:engine.go:Make -> sym:go:engine.go:Engine.Run L37 typed-receiver 0.85
        edge ACCESSES sym:go:engine.go:Make -> sym:go:engine.go:Engine.count L39 typed-receiver 0.85
        edge ACCESSES sym:go:engine.go:Make -> sym:go:engine.go:Engine.name L39 typed-receiver 0.85
        edge REFERS_TO sym:go:engine.go:New -> sym:go:engine.go:Engine L16 same-package 1.00
    "#]]
    .assert_eq(&out);
}

/// Go scopes (issue 19): a func literal's parameter, a `:=` in an inner block and a range
/// variable shadow an outer variable of the same name with their own types.
#[test]
fn inner_scopes_shadow_outer_variables() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/m
        //- /r.go
        package m

        type Mux struct{}

        func (m *Mux) Route(p string, fn func(r Router)) {}

        func (m *Mux) Get(p string) {}

        type Router interface{ Get(p string) }

        type Sub struct{}

        func (s *Sub) Get(p string) {}

        func NewRouter() *Mux { return &Mux{} }

        func main() {
        	r := NewRouter()
        	r.Route("/x", func(r Router) {
        		r.Get("/y")
        	})
        	if true {
        		r := &Sub{}
        		r.Get("/z")
        	}
        	subs := []*Sub{}
        	for _, r := range subs {
        		r.Get("/w")
        	}
        	r.Get("/v")
        }
        "#,
    );
    expect![[r#"
        edge IMPLEMENTS sym:go:r.go:Mux -> sym:go:r.go:Router method-set 0.80
        edge REFERS_TO sym:go:r.go:Mux.Route -> sym:go:r.go:Router L5 same-package 1.00
        edge REFERS_TO sym:go:r.go:NewRouter -> sym:go:r.go:Mux L15 same-package 1.00
        edge IMPLEMENTS sym:go:r.go:Sub -> sym:go:r.go:Router method-set 0.80
        edge CALLS sym:go:r.go:main -> sym:go:r.go:Mux.Get L30 typed-receiver 0.85
        edge CALLS sym:go:r.go:main -> sym:go:r.go:Mux.Route L19 typed-receiver 0.85
        edge CALLS sym:go:r.go:main -> sym:go:r.go:NewRouter L18 same-package 1.00
        edge REFERS_TO sym:go:r.go:main -> sym:go:r.go:Router L19 same-package 1.00
        edge CALLS sym:go:r.go:main -> sym:go:r.go:Router.Get L20 interface-method 0.80
        edge REFERS_TO sym:go:r.go:main -> sym:go:r.go:Sub L23 same-package 1.00
        edge CALLS sym:go:r.go:main -> sym:go:r.go:Sub.Get L24 typed-receiver 0.85
        edge CALLS sym:go:r.go:main -> sym:go:r.go:Sub.Get L28 typed-receiver 0.85
    "#]]
    .assert_eq(&out);
}

/// Calls on call results (issue 19): a method called on what a method or function returns,
/// through the declared result type, in chains of any length.
#[test]
fn calls_on_call_results_follow_declared_results() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/m
        //- /big.go
        package m

        type Int struct{}

        func (z *Int) Mul(a, b *Int) *Int { return z }

        func (z *Int) Mod(a, b *Int) *Int { return z }

        func (z *Int) Sign() int { return 0 }

        func NewInt() *Int { return &Int{} }

        func use() {
        	x := NewInt()
        	x.Mul(x, x).Mod(x, x).Sign()
        	NewInt().Mul(x, x)
        }
        "#,
    );
    expect![[r#"
        edge REFERS_TO sym:go:big.go:Int.Mod -> sym:go:big.go:Int L7 same-package 1.00
        edge REFERS_TO sym:go:big.go:Int.Mul -> sym:go:big.go:Int L5 same-package 1.00
        edge REFERS_TO sym:go:big.go:NewInt -> sym:go:big.go:Int L11 same-package 1.00
        edge CALLS sym:go:big.go:use -> sym:go:big.go:Int.Mod L15 typed-receiver 0.85
        edge CALLS sym:go:big.go:use -> sym:go:big.go:Int.Mul L15 typed-receiver 0.85
        edge CALLS sym:go:big.go:use -> sym:go:big.go:Int.Mul L16 typed-receiver 0.85
        edge CALLS sym:go:big.go:use -> sym:go:big.go:Int.Sign L15 typed-receiver 0.85
        edge CALLS sym:go:big.go:use -> sym:go:big.go:NewInt L14 same-package 1.00
        edge CALLS sym:go:big.go:use -> sym:go:big.go:NewInt L16 same-package 1.00
    "#]]
    .assert_eq(&out);
}

/// Build constraints (issue 19): of two files declaring one function for different targets,
/// the one whose `//go:build` line holds for linux/amd64 is the one calls resolve to, whatever
/// the file order; the other stays indexed.
#[test]
fn go_build_lines_choose_the_target_platforms_declaration() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/m
        //- /a/generic_sum.go
        //go:build !amd64 && !arm64

        package a

        func sum() int { return 0 }
        //- /a/sum_asm.go
        //go:build amd64 || arm64

        package a

        func sum() int { return 1 }
        //- /a/use.go
        package a

        func use() int { return sum() }
        "#,
    );
    expect![[r#"
        edge CALLS sym:go:a/use.go:use -> sym:go:a/sum_asm.go:sum L3 same-package 1.00
    "#]]
    .assert_eq(&out);
}

/// TESTS: a `go test` function (Test/Benchmark/Fuzz/Example, not TestMain, not a lower-case
/// continuation like `Testify`) -> the code outside test files it calls directly (once per
/// target, at the first call; calls in its func literals count), and the test file -> the
/// files of those targets. Helpers in test files are not tested code.
#[test]
fn go_tests_edges_from_test_functions_to_the_code_they_call() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/m
        //- /strings.go
        package m

        func Index(s, sub string) int { return 0 }

        func Cut(s string) string { return s }
        //- /strings_test.go
        package m

        import "testing"

        func helper(s string) int { return Index(s, "x") }

        func TestIndex(t *testing.T) {
        	Index("a", "b")
        	Index("c", "d")
        	t.Run("sub", func(t *testing.T) { Cut("x") })
        	helper("y")
        }

        func BenchmarkCut(b *testing.B) { Cut("z") }

        func ExampleIndex() { Index("e", "f") }

        func TestMain(m *testing.M) { Cut("m") }

        func Testify() { Cut("no") }
        "#,
    );
    let tests: Vec<&str> = out.lines().filter(|l| l.contains(" TESTS ")).collect();
    expect![[r#"
        edge TESTS file:strings_test.go -> file:strings.go same-package 1.00
        edge TESTS sym:go:strings_test.go:BenchmarkCut -> sym:go:strings.go:Cut L14 same-package 1.00
        edge TESTS sym:go:strings_test.go:ExampleIndex -> sym:go:strings.go:Index L16 same-package 1.00
        edge TESTS sym:go:strings_test.go:TestIndex -> sym:go:strings.go:Cut L10 same-package 1.00
        edge TESTS sym:go:strings_test.go:TestIndex -> sym:go:strings.go:Index L8 same-package 1.00
    "#]]
    .assert_eq(&(tests.join("\n") + "\n"));
}

/// REFERS_TO: a function or method named as a value (a call argument, a composite literal
/// element, keyed or not, a returned value, the right of := or =), once per (symbol, target);
/// locals, variables, constants and builtins named as values are not. A test function's
/// value references are what it tests too (a table of functions).
#[test]
fn functions_named_as_values_are_refers_to() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/m
        //- /s.go
        package m

        import "sort"

        type S struct{ f func() }

        func (s *S) handle() {}

        func less(i, j int) bool { return true }

        const limit = 3

        func Index(s, sub string) int { return 0 }

        func apply(f func(string, string) int) {}

        func use(xs []int, s *S) func() {
        	sort.Slice(xs, less)
        	h := s.handle
        	local := less
        	apply(Index)
        	apply(Index)
        	_ = S{f: s.handle}
        	_ = local
        	_ = limit
        	_ = len
        	return h
        }
        //- /s_test.go
        package m

        import "testing"

        func TestIndex(t *testing.T) {
        	for _, f := range []func(string, string) int{Index} {
        		f("a", "b")
        	}
        }
        "#,
    );
    let refs: Vec<&str> =
        out.lines().filter(|l| l.contains(" REFERS_TO ") || l.contains(" TESTS ")).collect();
    expect![[r#"
        edge TESTS file:s_test.go -> file:s.go same-package 1.00
        edge REFERS_TO sym:go:s.go:use -> sym:go:s.go:Index L21 same-package 1.00
        edge REFERS_TO sym:go:s.go:use -> sym:go:s.go:S L17 same-package 1.00
        edge REFERS_TO sym:go:s.go:use -> sym:go:s.go:S.handle L19 typed-receiver 0.85
        edge REFERS_TO sym:go:s.go:use -> sym:go:s.go:less L18 same-package 1.00
        edge REFERS_TO sym:go:s.go:use -> sym:go:s.go:limit L25 same-package 1.00
        edge REFERS_TO sym:go:s_test.go:TestIndex -> sym:go:s.go:Index L6 same-package 1.00
        edge TESTS sym:go:s_test.go:TestIndex -> sym:go:s.go:Index L6 same-package 1.00
    "#]]
    .assert_eq(&(refs.join("\n") + "\n"));
}

#[test]
fn types_constants_and_variables_are_refers_to() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/m
        //- /lib/lib.go
        package lib

        type Handler interface{ Serve() }

        type Mux struct{}

        func (m *Mux) Handle(h Handler) {}

        var DefaultMux = &Mux{}

        const Limit = 10

        var Verbose bool
        //- /srv.go
        package m

        import "example.com/m/lib"

        type Base struct{}

        type Server struct {
        	Base
        	Handler lib.Handler
        	next    *Server
        	opts    map[string]Option
        }

        type Option int

        const (
        	first Option = 1
        	second       = first + 1
        )

        var verbose = lib.Verbose

        var names = map[Option]string{first: "one"}

        const size = 4

        var buf [size]byte

        func named(Option Option) {}

        func (s *Server) Run(o Option) *Base {
        	var b Base
        	n := Option(3)
        	if lib.Verbose && n > first {
        		lib.DefaultMux.Handle(s.Handler)
        	}
        	x := any(s)
        	if h, ok := x.(lib.Handler); ok {
        		_ = h
        	}
        	switch x.(type) {
        	case *Server:
        	}
        	for i := 0; i < lib.Limit; i++ {
        	}
        	second := 2
        	_ = second
        	m := lib.Mux{}
        	_ = m
        	return &b
        }
        "#,
    );
    let refs: Vec<&str> =
        out.lines().filter(|l| l.contains(" REFERS_TO ") || l.contains(" EMBEDS ")).collect();
    expect![[r#"
        edge REFERS_TO sym:go:lib/lib.go:DefaultMux -> sym:go:lib/lib.go:Mux L9 same-package 1.00
        edge REFERS_TO sym:go:lib/lib.go:Mux.Handle -> sym:go:lib/lib.go:Handler L7 same-package 1.00
        edge REFERS_TO sym:go:srv.go:Server -> sym:go:lib/lib.go:Handler L9 import-resolved 0.95
        edge EMBEDS sym:go:srv.go:Server -> sym:go:srv.go:Base same-package 1.00
        edge REFERS_TO sym:go:srv.go:Server -> sym:go:srv.go:Option L11 same-package 1.00
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:lib/lib.go:DefaultMux L35 import-resolved 0.95
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:lib/lib.go:Handler L38 import-resolved 0.95
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:lib/lib.go:Limit L44 import-resolved 0.95
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:lib/lib.go:Mux L48 import-resolved 0.95
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:lib/lib.go:Verbose L34 import-resolved 0.95
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:srv.go:Base L31 same-package 1.00
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:srv.go:Option L31 same-package 1.00
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:srv.go:Server L42 same-package 1.00
        edge REFERS_TO sym:go:srv.go:Server.Run -> sym:go:srv.go:first L34 same-package 1.00
        edge REFERS_TO sym:go:srv.go:buf -> sym:go:srv.go:size L27 same-package 1.00
        edge REFERS_TO sym:go:srv.go:first -> sym:go:srv.go:Option L17 same-package 1.00
        edge REFERS_TO sym:go:srv.go:named -> sym:go:srv.go:Option L29 same-package 1.00
        edge REFERS_TO sym:go:srv.go:names -> sym:go:srv.go:Option L23 same-package 1.00
        edge REFERS_TO sym:go:srv.go:names -> sym:go:srv.go:first L23 same-package 1.00
        edge REFERS_TO sym:go:srv.go:second -> sym:go:srv.go:first L18 same-package 1.00
        edge REFERS_TO sym:go:srv.go:verbose -> sym:go:lib/lib.go:Verbose L21 import-resolved 0.95
    "#]]
    .assert_eq(&(refs.join("\n") + "\n"));
}

/// A type assertion as a receiver (`srv.(FooServer).Say(...)`, `v.(*db.Conn).Begin()`): the
/// call goes to the asserted type's method, as generated gRPC handlers call their server
/// interface (held-out grpc-gateway: recall 94.3% -> 99.3%). An assertion to a type we cannot
/// name (`v.(interface{ M() })`) stays unresolved.
#[test]
fn calls_on_type_assertions() {
    let out = render_fixture_resolution(
        r#"
        //- /go.mod
        module example.com/m
        //- /db/db.go
        package db

        type Conn struct{}

        func (c *Conn) Begin() {}
        //- /app/app.go
        package app

        import "example.com/m/db"

        type FooServer interface {
        	Say(s string) string
        }

        func handle(srv interface{}, v interface{}) {
        	srv.(FooServer).Say("x")
        	v.(*db.Conn).Begin()
        	v.(interface{ M() }).M()
        }
        "#,
    );
    expect![[r#"
        edge IMPORTS file:app/app.go -> pkg:go:db L3 import-resolved 0.95
        edge REFERS_TO sym:go:app/app.go:handle -> sym:go:app/app.go:FooServer L10 same-package 1.00
        edge CALLS sym:go:app/app.go:handle -> sym:go:app/app.go:FooServer.Say L10 interface-method 0.80
        edge REFERS_TO sym:go:app/app.go:handle -> sym:go:db/db.go:Conn L11 import-resolved 0.95
        edge CALLS sym:go:app/app.go:handle -> sym:go:db/db.go:Conn.Begin L11 typed-receiver 0.85
        unresolved app/app.go:12 ?.M in sym:go:app/app.go:handle
    "#]]
    .assert_eq(&out);
}
