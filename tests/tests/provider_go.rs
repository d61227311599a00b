//! Golden facts of the Go provider, one test per rule group. The naming conventions follow the
//! compiler-backed oracle (shared/eval/go_oracle): `Type.Method`, func literals transparent,
//! package-level var initialisers attributed to the var.

use codegraph_tests::render_fixture_facts;
use expect_test::expect;

#[test]
fn functions_methods_and_generic_receivers() {
    let out = render_fixture_facts(
        r#"
        //- /p/funcs.go
        package p

        // Hello greets.
        // Second line.
        func Hello(name string) string {
        	return "hi " + name
        }

        //go:noinline
        func helper() {}

        func (s *Server) Start(ctx context.Context) error { return nil }

        func (Server) stop() {}

        // Get reads a key.
        func (m *Map[K, V]) Get(k K) (v V, ok bool) { return }

        func Map2[T any, U any](xs []T, f func(T) U) []U { return nil }
        "#,
    );
    expect![[r#"
        //- p/funcs.go
        package p
        sym function Hello L5-7 exported sig="func Hello(name string) string" doc="Hello greets.\nSecond line."
        sym function helper L10-10 sig="func helper()"
        sym method Server.Start L12-12 exported sig="func (s *Server) Start(ctx context.Context) error"
        sym method Server.stop L14-14 sig="func (Server) stop()"
        sym method Map.Get L17-17 exported sig="func (m *Map[K, V]) Get(k K) (v V, ok bool)" doc="Get reads a key."
        sym function Map2 L19-19 exported sig="func Map2[T any, U any](xs []T, f func(T) U) []U"
        type call L12:36 context.Context in Server.Start
        hint L5 Hello name : string
        hint L5 Hello  -> string
        hint L12 Server.Start s : Server
        hint L12 Server.Start ctx : context.Context
        hint L12 Server.Start  -> error
        hint L17 Map.Get m : Map
    "#]].assert_eq(&out);
}

#[test]
fn types_fields_embedding_and_interface_methods() {
    let out = render_fixture_facts(
        r#"
        //- /p/types.go
        package p

        // Server serves.
        type Server struct {
        	// Addr is where to listen.
        	Addr, host string
        	io.Reader
        	*sync.Mutex
        	Base[int]
        	handlers map[string]Handler
        	next *Server `json:"next"` // trailing note
        }

        type (
        	// Handler handles.
        	Handler interface {
        		fmt.Stringer
        		// Serve serves one request.
        		Serve(w Writer, r *Request) error
        		~int | ~string
        	}
        	ID = string
        	Count int
        	HandlerFunc func(w Writer)
        )

        type List[T any] struct {
        	items []T
        	owner *Server
        }
        "#,
    );
    expect![[r#"
        //- p/types.go
        package p
        sym struct Server L4-12 exported sig="type Server struct" doc="Server serves."
        sym property Server.Addr L6-6 exported in=Server sig="Addr, host string" doc="Addr is where to listen."
        sym property Server.host L6-6 in=Server sig="Addr, host string" doc="Addr is where to listen."
        sym property Server.Reader L7-7 exported in=Server sig="io.Reader"
        sym property Server.Mutex L8-8 exported in=Server sig="*sync.Mutex"
        sym property Server.Base L9-9 exported in=Server sig="Base[int]"
        sym property Server.handlers L10-10 in=Server sig="handlers map[string]Handler"
        sym property Server.next L11-11 in=Server sig="next *Server `json:\"next\"`"
        sym interface Handler L16-21 exported sig="Handler interface" doc="Handler handles."
        sym method Handler.Serve L19-19 exported in=Handler sig="Serve(w Writer, r *Request) error" doc="Serve serves one request."
        sym type_alias ID L22-22 exported sig="ID = string"
        sym defined_type Count L23-23 exported sig="Count int"
        sym defined_type HandlerFunc L24-24 exported sig="HandlerFunc func(w Writer)"
        sym struct List L27-30 exported sig="type List[T any] struct"
        sym property List.items L28-28 in=List sig="items []T"
        sym property List.owner L29-29 in=List sig="owner *Server"
        type call L10:22 Handler in Server
        type call L11:8 Server in Server
        type call L19:11 Writer in Handler
        type call L19:22 Request in Handler
        type call L24:21 Writer in HandlerFunc
        type call L29:9 Server in List
        heritage Server Embeds io.Reader
        heritage Server Embeds sync.Mutex
        heritage Server Embeds Base
        heritage Handler Extends fmt.Stringer
        hint L6 Server Addr : string
        hint L6 Server host : string
        hint L7 Server Reader : io.Reader
        hint L8 Server Mutex : sync.Mutex
        hint L9 Server Base : Base
        hint L11 Server next : Server
        hint L19 Handler.Serve  -> error
        hint L29 List owner : Server
    "#]].assert_eq(&out);
}

#[test]
fn const_and_var_groups_with_docs() {
    let out = render_fixture_facts(
        r#"
        //- /p/values.go
        package p

        // Limits of the thing.
        const (
        	// MaxSize is the biggest.
        	MaxSize = 10
        	minSize = 1 // trailing, not a doc

        	_ = iota
        	A, B = 1, 2
        )

        // Debug turns on logging.
        var Debug bool

        var (
        	count int
        	// ErrBad is returned on bad input.
        	ErrBad = errors.New("bad")
        	_      = check()
        )

        func f() {
        	const local = 1
        	var inner int
        }
        var last = 1 // trailing comment, not the doc of g
        func g() {}
        "#,
    );
    expect![[r#"
        //- p/values.go
        package p
        sym constant MaxSize L6-6 exported sig="MaxSize = 10" doc="MaxSize is the biggest."
        sym constant minSize L7-7 sig="minSize = 1" doc="Limits of the thing."
        sym constant A L10-10 exported sig="A, B = 1, 2" doc="Limits of the thing."
        sym constant B L10-10 exported sig="A, B = 1, 2" doc="Limits of the thing."
        sym variable Debug L14-14 exported sig="var Debug bool" doc="Debug turns on logging."
        sym variable count L17-17 sig="count int"
        sym variable ErrBad L19-19 exported sig="ErrBad = errors.New(\"bad\")" doc="ErrBad is returned on bad input."
        sym function f L23-26 sig="func f()"
        sym variable last L27-27 sig="var last = 1"
        sym function g L28-28 sig="func g()"
        call L19:18 errors.New in ErrBad
        call L20:11 check in <module>
        hint L14 <module> Debug : bool
        hint L17 <module> count : int
        hint L19 <module> ErrBad = errors.New()
        hint L25 f inner : int
    "#]].assert_eq(&out);
}

#[test]
fn imports_plain_aliased_dot_blank_grouped() {
    let out = render_fixture_facts(
        r#"
        //- /p/imports.go
        package p

        import "fmt"
        import str "strings"

        import (
        	"net/http"
        	. "math"
        	_ "embed"
        	raw `os/exec`
        )
        "#,
    );
    expect![[r#"
        //- p/imports.go
        package p
        import L3 Package "fmt" *
        import L4 Package "strings" * as str
        import L7 Package "net/http" *
        import L8 Package "math" * as .
        import L9 Package "embed" * as _
        import L10 Package "os/exec" * as raw
    "#]]
    .assert_eq(&out);
}

#[test]
fn call_shapes() {
    let out = render_fixture_facts(
        r#"
        //- /p/calls.go
        package p

        var table = build(len(x))

        var a, b = first(), second()

        const n = unsafe.Sizeof(x)

        func (s *Server) Run() {
        	local()
        	fmt.Println("x")
        	s.conn.Close()
        	s.get().Do()
        	a.b.get().Do()
        	New().With(1).Build()
        	(s.conn).Close()
        	s.items[0].Close()
        	x.(Closer).Close()
        	Config{}.Apply()
        	T(x)
        	pkg.T(x)
        	[]byte("s")
        	(*T)(nil).M()
        	Map[int](x)
        	slices.Sort[int](xs)
        	go func() {
        		inLiteral()
        	}()
        	defer s.mu.Unlock()
        	func() {}()
        }
        "#,
    );
    expect![[r#"
        //- p/calls.go
        package p
        sym variable table L3-3 sig="var table = build(len(x))"
        sym variable a L5-5 sig="var a, b = first(), second()"
        sym variable b L5-5 sig="var a, b = first(), second()"
        sym constant n L7-7 sig="const n = unsafe.Sizeof(x)"
        sym method Server.Run L9-31 exported sig="func (s *Server) Run()"
        call L3:13 build in table
        call L3:19 len in table
        call L5:12 first in a
        call L5:21 second in a
        call L7:18 unsafe.Sizeof in n
        call L10:2 local in Server.Run
        call L11:6 fmt.Println in Server.Run
        call L12:9 s.conn.Close in Server.Run
        call L13:10 s.get().Do in Server.Run
        call L13:4 s.get in Server.Run
        call L14:12 a.b.get().Do in Server.Run
        call L14:6 a.b.get in Server.Run
        call L15:16 New().With().Build in Server.Run
        call L15:8 New().With in Server.Run
        call L15:2 New in Server.Run
        call L16:11 ?.Close in Server.Run
        call L17:13 ?.Close in Server.Run
        call L18:13 Closer().Close in Server.Run
        call L19:11 ?.Apply in Server.Run
        call L20:2 T in Server.Run
        call L21:6 pkg.T in Server.Run
        call L23:12 ?.M in Server.Run
        call L24:2 Map in Server.Run
        call L25:9 slices.Sort in Server.Run
        call L27:3 inLiteral in Server.Run
        call L29:13 s.mu.Unlock in Server.Run
        ref call L3:23 x in table
        ref call L7:25 x in n
        ref call L18:2 x in Server.Run
        ref call L23:4 T in Server.Run
        type call L18:5 Closer in Server.Run
        type call L24:2 Map in Server.Run
        type call L25:9 slices.Sort in Server.Run
        read L12 s.conn in Server.Run
        read L14 a.b in Server.Run
        read L29 s.mu in Server.Run
        hint L3 <module> table = build()
        hint L5 <module> a = first()
        hint L5 <module> b = second()
        hint L9 Server.Run s : Server
    "#]]
    .assert_eq(&out);
}

#[test]
fn type_hints_from_every_source() {
    let out = render_fixture_facts(
        r#"
        //- /p/hints.go
        package p

        var global Config
        var defaults = Config{}
        var client = http.NewClient()

        type Pair struct {
        	left, right *Node
        	io.Writer
        	fn func()
        }

        func (s *Server[K]) Handle(w http.ResponseWriter, r *http.Request, keys ...K) (*Result, error) {
        	var buf bytes.Buffer
        	var m map[string]int
        	cfg := Config{}
        	p := &Pair{}
        	n := new(Node)
        	q := new(pkg.Queue)
        	res, err := NewResult()
        	c := pkg.New()
        	x, y := Make(), &Other{}
        	_ = Ignored()
        	h := func(z Zed) {}
        	return nil, nil
        }

        func Sum[T Number](xs []T) T { var t T; return t }
        "#,
    );
    expect![[r#"
        //- p/hints.go
        package p
        sym variable global L3-3 sig="var global Config"
        sym variable defaults L4-4 sig="var defaults = Config{}"
        sym variable client L5-5 sig="var client = http.NewClient()"
        sym struct Pair L7-11 exported sig="type Pair struct"
        sym property Pair.left L8-8 in=Pair sig="left, right *Node"
        sym property Pair.right L8-8 in=Pair sig="left, right *Node"
        sym property Pair.Writer L9-9 exported in=Pair sig="io.Writer"
        sym property Pair.fn L10-10 in=Pair sig="fn func()"
        sym method Server.Handle L13-26 exported sig="func (s *Server[K]) Handle(w http.ResponseWriter, r *http.Request, keys ...K) (*Result, error)"
        sym function Sum L28-28 exported sig="func Sum[T Number](xs []T) T"
        call L5:19 http.NewClient in client
        call L18:7 new in Server.Handle
        call L19:7 new in Server.Handle
        call L20:14 NewResult in Server.Handle
        call L21:11 pkg.New in Server.Handle
        call L22:10 Make in Server.Handle
        call L23:6 Ignored in Server.Handle
        type call L3:12 Config in global
        type call L4:16 Config in defaults
        type call L8:15 Node in Pair
        type call L13:35 http.ResponseWriter in Server.Handle
        type call L13:59 http.Request in Server.Handle
        type call L13:81 Result in Server.Handle
        type call L14:16 bytes.Buffer in Server.Handle
        type call L16:9 Config in Server.Handle
        type call L17:8 Pair in Server.Handle
        type call L18:11 Node in Server.Handle
        type call L19:15 pkg.Queue in Server.Handle
        type call L22:19 Other in Server.Handle
        type call L24:14 Zed in Server.Handle
        type call L28:12 Number in Sum
        heritage Pair Embeds io.Writer
        hint L3 <module> global : Config
        hint L4 <module> defaults = new Config
        hint L5 <module> client = http.NewClient()
        hint L8 Pair left : Node
        hint L8 Pair right : Node
        hint L9 Pair Writer : io.Writer
        hint L13 Server.Handle s : Server
        hint L13 Server.Handle w : http.ResponseWriter
        hint L13 Server.Handle r : http.Request
        hint L13 Server.Handle  -> Result
        hint L14 Server.Handle buf : bytes.Buffer
        hint L16 Server.Handle cfg = new Config
        hint L17 Server.Handle p = new Pair
        hint L18 Server.Handle n = new Node
        hint L19 Server.Handle q = new pkg.Queue
        hint L20 Server.Handle res = NewResult()
        hint L21 Server.Handle c = pkg.New()
        hint L22 Server.Handle x = Make()
        hint L22 Server.Handle y = new Other
        hint L24 Server.Handle z : Zed
    "#]].assert_eq(&out);
}

#[test]
fn syntax_errors_give_partial_facts() {
    let out = render_fixture_facts(
        r#"
        //- /p/broken.go
        package p

        func Good() { ok() }

        func Broken( {
        	call()

        type T struct { A int }

        func After() { more() }
        "#,
    );
    expect![[r#"
        //- p/broken.go
        package p
        sym function Good L3-3 exported sig="func Good()"
        sym function Broken L5-11 exported sig="func Broken("
        call L3:15 ok in Good
        call L6:2 call in Broken
        call L10:16 more in Broken
        syntax_errors 3
    "#]]
    .assert_eq(&out);
}

#[test]
fn empty_and_degenerate_files() {
    let out = render_fixture_facts(
        r#"
        //- /p/empty.go
        //- /p/only_package.go
        package only
        //- /p/garbage.go
        }}}((( func func type var
        "#,
    );
    expect![[r#"
        //- p/empty.go
        //- p/only_package.go
        package only
        //- p/garbage.go
        syntax_errors 1
    "#]]
    .assert_eq(&out);
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 20_000;
    let mut src = String::from("package p\n\nfunc F() {\n\tx := ");
    src.push_str(&"(".repeat(depth));
    src.push_str("g()");
    src.push_str(&")".repeat(depth));
    src.push_str("\n\t");
    src.push_str(&"a().".repeat(200));
    src.push_str("z()\n}\n");
    let facts = codegraph_parse::analyze(codegraph_parse::Language::Go, &src);
    assert_eq!(facts.symbols.len(), 1);
    assert!(facts.calls.iter().any(|c| c.callee.name == "g"));
    assert!(facts.calls.iter().any(|c| c.callee.name == "z"));
}

/// Lists of expressions and composite-literal bodies without a `(` are not walked (generated
/// tables); calls, conversions, function literals and hints inside literals that have one are
/// all still found.
#[test]
fn literal_tables_and_calls_inside_literals() {
    let out = render_fixture_facts(
        r#"
        //- /p/tables.go
        package p

        var table = []uint16{0x0041, 0x005a, 0x0061, 0x007a, 0x00aa, 0x00b5, 0x00ba, 0x00c0}

        var (
        	a, b, c = 1, 2, 3
        	names   = map[string]int{"x": 1, "y": size(2)}
        )

        func f() {
        	m := []Item{{Name: "n", Run: func() { x := T{}; g(x) }}, {Name: label(1)}}
        	_ = m
        }
        "#,
    );
    expect![[r#"
        //- p/tables.go
        package p
        sym variable table L3-3 sig="var table = []uint16{0x0041, 0x005a, 0x0061, 0x007a, 0x00aa, 0x00b5, 0x00ba, 0x00c0}"
        sym variable a L6-6 sig="a, b, c = 1, 2, 3"
        sym variable b L6-6 sig="a, b, c = 1, 2, 3"
        sym variable c L6-6 sig="a, b, c = 1, 2, 3"
        sym variable names L7-7 sig="names = map[string]int{\"x\": 1, \"y\": size(2)}"
        sym function f L10-13 sig="func f()"
        call L7:40 size in names
        call L11:50 g in f
        call L11:66 label in f
        type call L11:9 Item in f
        type call L11:45 T in f
        hint L3 <module> table = new uint16
        hint L11 f m = new Item
        hint L11 f x = new T
    "#]]
    .assert_eq(&out);
}

/// Expressions and expression statements without a `(` are skipped by the walk; calls, hints
/// and statements around and inside those with one are all still found.
#[test]
fn expressions_without_parens_skipped_calls_inside_found() {
    let out = render_fixture_facts(
        r#"
        //- /p/expr.go
        package p

        func f(a *A, c []int, ch chan int) int {
        	if a.b != nil && a.ok {
        		v := a.b
        		_ = v
        	}
        	for i := range c {
        		c[i] = a.n + c[i]
        	}
        	ch <- a.get().n
        	x := a.m[c[0]] + len(c)
        	a.n++
        	s := c[1:a.n]
        	t := &T{K: a.n, V: []int{c[0], k(1)}}
        	_, _, _ = x, s, t
        	return a.b.c + g(a.d[h()])
        }
        "#,
    );
    expect![[r#"
        //- p/expr.go
        package p
        sym function f L3-18 sig="func f(a *A, c []int, ch chan int) int"
        call L11:10 a.get in f
        call L12:19 len in f
        call L15:33 k in f
        call L17:17 g in f
        call L17:23 h in f
        type call L3:11 A in f
        type call L15:8 T in f
        read L4 a.b in f
        read L4 a.ok in f
        read L9 a.n in f
        read L11 a.get().n in f
        read L12 a.m in f
        write L13 a.n in f
        write L15 T().K in f
        write L15 T().V in f
        read L17 a.b.c in f
        read L17 a.d in f
        hint L3 f a : A
        hint L3 f c : int
        hint L3 f  -> int
        hint L5 f v = a.b
        hint L15 f t = new T
    "#]]
    .assert_eq(&out);
}
