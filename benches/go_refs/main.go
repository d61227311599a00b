// go_refs: ground-truth REFERS_TO pairs for Go packages, from go/types' Uses map.
//
// usage: go_refs -root DIR [-tests] PATTERN... > refs.jsonl
//
// Prints one JSONL record per distinct (user, target) pair where a declaration of the loaded
// packages is named and not called: a package-level type, constant or variable, or a function
// or method used as a value. The user is the enclosing declaration the way codegraph names it:
// `F`, `Type.Method` (function literals are transparent), a type for its own fields and
// signatures, a var or const spec's first name, else "<module>". Left out, as codegraph leaves
// them out: a method's receiver type, embedded fields and interface elements (EMBEDS), a
// declaration naming itself, anything whose target is outside the loaded packages.
// Embedding is printed apart, kind "embeds": a struct or interface type -> each named type it
// embeds (what codegraph's EMBEDS edges say).
// Built like the shared go_oracle: GO111MODULE=off GOPATH=/usr/share/gocode go build.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

type rec struct {
	File       string `json:"file"`
	Symbol     string `json:"symbol"`
	Line       int    `json:"line"`
	TargetFile string `json:"target_file"`
	Target     string `json:"target"`
	Kind       string `json:"kind"`
}

var (
	root  = flag.String("root", "", "report files relative to this directory")
	tests = flag.Bool("tests", false, "include _test.go files")
)

func rel(p string) string {
	if r, err := filepath.Rel(*root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return ""
}

func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// targetName names a package-level object the way codegraph does.
func targetName(obj types.Object) (string, string) {
	switch o := obj.(type) {
	case *types.TypeName:
		return o.Name(), "type"
	case *types.Const:
		return o.Name(), "const"
	case *types.Var:
		return o.Name(), "var"
	case *types.Func:
		sig, _ := o.Type().(*types.Signature)
		if sig != nil && sig.Recv() != nil {
			t := sig.Recv().Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := t.(*types.Named); ok {
				return n.Obj().Name() + "." + o.Name(), "method"
			}
			return "", ""
		}
		return o.Name(), "func"
	}
	return "", ""
}

func main() {
	flag.Parse()
	if *root == "" {
		fmt.Fprintln(os.Stderr, "usage: go_refs -root DIR [-tests] PATTERN...")
		os.Exit(2)
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		panic(err)
	}
	*root = abs
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:   *root,
		Tests: *tests,
	}
	pkgs, err := packages.Load(cfg, flag.Args()...)
	if err != nil {
		panic(err)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for _, pkg := range pkgs {
		if pkg.Types != nil {
			loaded[pkg.Types] = true
		}
	}
	seen := map[string]bool{}
	count := 0
	for _, pkg := range pkgs {
		if pkg.TypesInfo == nil {
			continue
		}
		for _, f := range pkg.Syntax {
			file := rel(pkg.Fset.Position(f.Pos()).Filename)
			if file == "" {
				continue
			}
			visitFile(pkg, f, file, func(r rec) {
				key := r.Kind + "\x00" + r.File + "\x00" + r.Symbol + "\x00" + r.TargetFile + "\x00" + r.Target
				if !seen[key] {
					seen[key] = true
					count++
					enc.Encode(r)
				}
			})
		}
	}
	fmt.Fprintf(os.Stderr, "go_refs: %d pairs\n", count)
}

// visitFile emits the references of one file's declarations.
func visitFile(pkg *packages.Package, f *ast.File, file string, emit func(rec)) {
	info := pkg.TypesInfo
	fset := pkg.Fset
	skip := map[*ast.Ident]bool{}
	called := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			fun := unparen(x.Fun)
			if ix, ok := fun.(*ast.IndexExpr); ok {
				fun = ix.X
			}
			if ix, ok := fun.(*ast.IndexListExpr); ok {
				fun = ix.X
			}
			switch fn := fun.(type) {
			case *ast.Ident:
				called[fn] = true
			case *ast.SelectorExpr:
				called[fn.Sel] = true
			}
		case *ast.StructType:
			for _, fl := range x.Fields.List {
				if len(fl.Names) == 0 {
					markAll(fl.Type, skip)
				}
			}
		case *ast.InterfaceType:
			for _, fl := range x.Methods.List {
				if len(fl.Names) == 0 {
					markAll(fl.Type, skip)
				}
			}
		case *ast.FuncDecl:
			if x.Recv != nil {
				for _, fl := range x.Recv.List {
					markAll(fl.Type, skip)
				}
			}
		}
		return true
	})
	use := func(symbol string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || skip[id] {
				return true
			}
			obj := info.Uses[id]
			if obj == nil || obj.Pkg() == nil || !loaded[obj.Pkg()] {
				return true
			}
			_, isFunc := obj.(*types.Func)
			if isFunc && called[id] {
				return true
			}
			if !isFunc && obj.Parent() != obj.Pkg().Scope() {
				return true
			}
			if v, ok := obj.(*types.Var); ok && v.IsField() {
				return true
			}
			name, kind := targetName(obj)
			if name == "" || name == symbol {
				return true
			}
			tf := rel(fset.Position(obj.Pos()).Filename)
			if tf == "" {
				return true
			}
			emit(rec{File: file, Symbol: symbol, Line: fset.Position(id.Pos()).Line, TargetFile: tf, Target: name, Kind: kind})
			return true
		})
	}
	for _, d := range f.Decls {
		switch decl := d.(type) {
		case *ast.FuncDecl:
			name := decl.Name.Name
			if decl.Recv != nil && len(decl.Recv.List) > 0 {
				if r := recvName(decl.Recv.List[0].Type); r != "" {
					name = r + "." + name
				}
			}
			use(name, decl.Type)
			if decl.Body != nil {
				use(name, decl.Body)
			}
		case *ast.GenDecl:
			for _, s := range decl.Specs {
				switch spec := s.(type) {
				case *ast.TypeSpec:
					embeds(pkg, spec, file, emit)
					if spec.TypeParams != nil {
						use(spec.Name.Name, spec.TypeParams)
					}
					use(spec.Name.Name, spec.Type)
				case *ast.ValueSpec:
					name := "<module>"
					for _, n := range spec.Names {
						if n.Name != "_" {
							name = n.Name
							break
						}
					}
					if spec.Type != nil {
						use(name, spec.Type)
					}
					for _, v := range spec.Values {
						use(name, v)
					}
				}
			}
		}
	}
}

// embeds emits the named types a struct or interface type spec embeds.
func embeds(pkg *packages.Package, spec *ast.TypeSpec, file string, emit func(rec)) {
	var fields []*ast.Field
	switch t := spec.Type.(type) {
	case *ast.StructType:
		fields = t.Fields.List
	case *ast.InterfaceType:
		fields = t.Methods.List
	default:
		return
	}
	for _, f := range fields {
		if len(f.Names) != 0 {
			continue
		}
		e := f.Type
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		if ix, ok := e.(*ast.IndexExpr); ok {
			e = ix.X
		}
		var id *ast.Ident
		switch x := e.(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		default:
			continue
		}
		obj, ok := pkg.TypesInfo.Uses[id].(*types.TypeName)
		if !ok || obj.Pkg() == nil || !loaded[obj.Pkg()] {
			continue
		}
		tf := rel(pkg.Fset.Position(obj.Pos()).Filename)
		if tf == "" {
			continue
		}
		emit(rec{File: file, Symbol: spec.Name.Name, Line: pkg.Fset.Position(id.Pos()).Line, TargetFile: tf, Target: obj.Name(), Kind: "embeds"})
	}
}

var loaded = map[*types.Package]bool{}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

func markAll(e ast.Expr, skip map[*ast.Ident]bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			skip[id] = true
		}
		return true
	})
}
