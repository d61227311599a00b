//! Routes and tools as graph nodes: the exact route/tool nodes, their CONTAINS edges and the
//! HANDLES_ROUTE / HANDLES_TOOL edges to handlers (same-file ones from the file graph,
//! by-reference ones from resolution), including the routes Next.js file paths imply.

use codegraph_tests::{render_fixture_graph, render_fixture_resolution};
use expect_test::{Expect, expect};

/// The endpoint lines of the file graph and the HANDLES edges of resolution.
fn check(fixture: &str, expected: Expect) {
    let graph = render_fixture_graph(fixture);
    let resolved = render_fixture_resolution(fixture);
    let mut out = String::new();
    for line in graph.lines().chain(resolved.lines()) {
        if line.contains("route:") || line.contains("tool:") {
            out.push_str(line);
            out.push('\n');
        }
    }
    expected.assert_eq(&out);
}

#[test]
fn nextjs_app_router_and_pages_api_routes_come_from_paths() {
    check(
        r#"
        //- /app/users/[id]/route.ts
        import { load } from "../../../lib/db";
        export async function GET(req: Request) { return load(); }
        export async function POST(req: Request) { return load(); }
        export function helper() {}
        //- /src/app/(shop)/cart/route.js
        export const dynamic = "force-dynamic";
        export function DELETE() {}
        //- /app/users/page.tsx
        export function GET() {}
        //- /pages/api/health.ts
        export default function handler(req, res) { res.status(200).json({ ok: true }); }
        //- /pages/api/[...slug].ts
        export default async function (req, res) {}
        //- /lib/db.ts
        export function load() {}
        "#,
        expect![[r#"
            node route route:app/users/[id]/route.ts:GET /users/:id L2-2 parent=file:app/users/[id]/route.ts
            node route route:app/users/[id]/route.ts:POST /users/:id L3-3 parent=file:app/users/[id]/route.ts
            node route route:pages/api/[...slug].ts:ANY /api/:slug* L1-1 parent=file:pages/api/[...slug].ts
            node route route:pages/api/health.ts:ANY /api/health L1-1 parent=file:pages/api/health.ts
            node route route:src/app/(shop)/cart/route.js:DELETE /cart L2-2 parent=file:src/app/(shop)/cart/route.js
            edge CONTAINS file:app/users/[id]/route.ts -> route:app/users/[id]/route.ts:GET /users/:id structural 1.00
            edge CONTAINS file:app/users/[id]/route.ts -> route:app/users/[id]/route.ts:POST /users/:id structural 1.00
            edge CONTAINS file:pages/api/[...slug].ts -> route:pages/api/[...slug].ts:ANY /api/:slug* structural 1.00
            edge CONTAINS file:pages/api/health.ts -> route:pages/api/health.ts:ANY /api/health structural 1.00
            edge CONTAINS file:src/app/(shop)/cart/route.js -> route:src/app/(shop)/cart/route.js:DELETE /cart structural 1.00
            edge HANDLES_ROUTE route:app/users/[id]/route.ts:GET /users/:id -> sym:ts:app/users/[id]/route.ts:GET L2 same-file 0.95
            edge HANDLES_ROUTE route:app/users/[id]/route.ts:POST /users/:id -> sym:ts:app/users/[id]/route.ts:POST L3 same-file 0.95
            edge HANDLES_ROUTE route:pages/api/[...slug].ts:ANY /api/:slug* -> sym:ts:pages/api/[...slug].ts:default L1 same-file 0.95
            edge HANDLES_ROUTE route:pages/api/health.ts:ANY /api/health -> sym:ts:pages/api/health.ts:handler L1 same-file 0.95
            edge HANDLES_ROUTE route:src/app/(shop)/cart/route.js:DELETE /cart -> sym:js:src/app/(shop)/cart/route.js:DELETE L2 same-file 0.95
        "#]],
    );
}

#[test]
fn express_routes_tie_to_imported_and_inline_handlers() {
    check(
        r#"
        //- /src/users.ts
        export function getUser(req, res) { res.json({ id: 1, name: "a" }); }
        export function auth(req, res, next) { next(); }
        //- /src/app.ts
        import express from "express";
        import { getUser, auth } from "./users";
        const app = express();
        app.get("/users/:id", auth, getUser);
        app.post("/users", (req, res) => { res.status(201).json({ ok: true }); });
        export function start() {
          app.delete("/users/:id", auth, (req, res) => res.sendStatus(204));
        }
        "#,
        expect![[r#"
            node route route:src/app.ts:DELETE /users/:id L7-7 parent=file:src/app.ts
            node route route:src/app.ts:GET /users/:id L4-4 parent=file:src/app.ts
            node route route:src/app.ts:POST /users L5-5 parent=file:src/app.ts
            edge CONTAINS file:src/app.ts -> route:src/app.ts:DELETE /users/:id structural 1.00
            edge CONTAINS file:src/app.ts -> route:src/app.ts:GET /users/:id structural 1.00
            edge CONTAINS file:src/app.ts -> route:src/app.ts:POST /users structural 1.00
            edge HANDLES_ROUTE route:src/app.ts:DELETE /users/:id -> sym:ts:src/app.ts:start.$DELETE /users/:id L7 same-file 0.95
            edge HANDLES_ROUTE route:src/app.ts:POST /users -> sym:ts:src/app.ts:$POST /users L5 same-file 0.95
            edge HANDLES_ROUTE route:src/app.ts:GET /users/:id -> sym:ts:src/users.ts:getUser L4 import-resolved 0.95
        "#]],
    );
}

#[test]
fn go_handlers_and_mcp_tools_tie_to_their_functions() {
    check(
        r#"
        //- /go.mod
        module example.com/svc

        go 1.22
        //- /main.go
        package main

        import (
        	"net/http"

        	"github.com/mark3labs/mcp-go/mcp"
        	"github.com/mark3labs/mcp-go/server"
        )

        func main() {
        	http.HandleFunc("GET /items/{id}", getItem)
        	s := server.NewMCPServer("svc", "1.0")
        	s.AddTool(mcp.NewTool("lookup", mcp.WithDescription("Looks an item up"), mcp.WithString("id")), lookupTool)
        }

        func getItem(w http.ResponseWriter, r *http.Request) {
        	w.WriteHeader(http.StatusOK)
        }
        //- /tools.go
        package main

        func lookupTool() {}
        "#,
        expect![[r#"
            node route route:main.go:GET /items/:id L11-11 parent=file:main.go
            node tool tool:main.go:lookup L13-13 parent=file:main.go
            edge CONTAINS file:main.go -> route:main.go:GET /items/:id structural 1.00
            edge CONTAINS file:main.go -> tool:main.go:lookup structural 1.00
            edge HANDLES_ROUTE route:main.go:GET /items/:id -> sym:go:main.go:getItem L11 same-package 1.00
            edge HANDLES_TOOL tool:main.go:lookup -> sym:go:tools.go:lookupTool L13 same-package 1.00
        "#]],
    );
}

#[test]
fn client_calls_fetch_the_routes_they_match() {
    check(
        r#"
        //- /server/app.ts
        import express from "express";
        const app = express();
        app.get("/users/:id", (req, res) => res.json({ id: 1 }));
        app.post("/users", (req, res) => res.status(201).json({}));
        app.all("/health", (req, res) => res.send("ok"));
        //- /web/api.ts
        import axios from "axios";
        export async function loadUser(id: string) {
          return fetch(`/users/${id}`);
        }
        export function createUser(u) {
          return axios.post("https://api.example.com/users", u);
        }
        export function ping() {
          return fetch("/health", { method: "HEAD" });
        }
        export function missing() {
          return fetch("/nothing/here");
        }
        "#,
        expect![[r#"
            node route route:server/app.ts:ANY /health L5-5 parent=file:server/app.ts
            node route route:server/app.ts:GET /users/:id L3-3 parent=file:server/app.ts
            node route route:server/app.ts:POST /users L4-4 parent=file:server/app.ts
            edge CONTAINS file:server/app.ts -> route:server/app.ts:ANY /health structural 1.00
            edge CONTAINS file:server/app.ts -> route:server/app.ts:GET /users/:id structural 1.00
            edge CONTAINS file:server/app.ts -> route:server/app.ts:POST /users structural 1.00
            edge HANDLES_ROUTE route:server/app.ts:ANY /health -> sym:ts:server/app.ts:$ANY /health L5 same-file 0.95
            edge HANDLES_ROUTE route:server/app.ts:GET /users/:id -> sym:ts:server/app.ts:$GET /users/:id L3 same-file 0.95
            edge HANDLES_ROUTE route:server/app.ts:POST /users -> sym:ts:server/app.ts:$POST /users L4 same-file 0.95
            edge FETCHES sym:ts:web/api.ts:createUser -> route:server/app.ts:POST /users L6 url-match 0.80
            edge FETCHES sym:ts:web/api.ts:loadUser -> route:server/app.ts:GET /users/:id L3 url-match 0.80
            edge FETCHES sym:ts:web/api.ts:ping -> route:server/app.ts:ANY /health L9 url-match 0.80
        "#]],
    );
}

/// A router value mounts the routes registered on its variable; a plugin function the routes
/// registered inside it; a client fetching the composed path reaches the composed route. The
/// composed route belongs to the mounting file (ID, file, line), its signature says where the
/// route is registered.
#[test]
fn routers_mounted_under_a_prefix_serve_composed_paths() {
    check(
        r#"
        //- /src/routes/users.ts
        import { Router } from "express";
        import { getUser } from "../handlers";
        export const router = Router();
        router.get("/:id", getUser);
        router.post("/", (req, res) => res.status(201).json({ ok: true }));
        //- /src/handlers.ts
        export function getUser(req, res) { res.json({ id: 1 }); }
        //- /src/plugin.ts
        export async function admin(fastify) {
          fastify.get("/stats", async () => ({ n: 1 }));
        }
        //- /src/app.ts
        import express from "express";
        import { router as users } from "./routes/users";
        const app = express();
        app.use("/api/users", auth, users);
        function auth(req, res, next) { next(); }
        //- /src/admin.ts
        import Fastify from "fastify";
        import { admin } from "./plugin";
        const fastify = Fastify();
        fastify.register(admin, { prefix: "/admin" });
        //- /web/client.ts
        export function load() { return fetch("/api/users/7"); }
        "#,
        expect![[r#"
            node route route:src/plugin.ts:GET /stats L2-2 parent=file:src/plugin.ts
            node route route:src/routes/users.ts:GET /:id L4-4 parent=file:src/routes/users.ts
            node route route:src/routes/users.ts:POST / L5-5 parent=file:src/routes/users.ts
            edge CONTAINS file:src/plugin.ts -> route:src/plugin.ts:GET /stats structural 1.00
            edge CONTAINS file:src/routes/users.ts -> route:src/routes/users.ts:GET /:id structural 1.00
            edge CONTAINS file:src/routes/users.ts -> route:src/routes/users.ts:POST / structural 1.00
            edge HANDLES_ROUTE route:src/plugin.ts:GET /stats -> sym:ts:src/plugin.ts:admin.$GET /stats L2 same-file 0.95
            edge HANDLES_ROUTE route:src/routes/users.ts:POST / -> sym:ts:src/routes/users.ts:$POST / L5 same-file 0.95
            node route route:src/admin.ts:GET /admin/stats L4 "GET /admin/stats [express] responds: {n} (registered at src/plugin.ts:2, mounted under /admin)"
            node route route:src/app.ts:GET /api/users/:id L4 "GET /api/users/:id [express] middleware: auth (registered at src/routes/users.ts:4, mounted under /api/users)"
            node route route:src/app.ts:POST /api/users L4 "POST /api/users [express] middleware: auth responds: {ok} status: 201 (registered at src/routes/users.ts:5, mounted under /api/users)"
            edge CONTAINS file:src/admin.ts -> route:src/admin.ts:GET /admin/stats structural 1.00
            edge CONTAINS file:src/app.ts -> route:src/app.ts:GET /api/users/:id structural 1.00
            edge CONTAINS file:src/app.ts -> route:src/app.ts:POST /api/users structural 1.00
            edge HANDLES_ROUTE route:src/admin.ts:GET /admin/stats -> sym:ts:src/plugin.ts:admin.$GET /stats L4 same-file 0.95
            edge HANDLES_ROUTE route:src/app.ts:GET /api/users/:id -> sym:ts:src/handlers.ts:getUser L4 import-resolved 0.95
            edge HANDLES_ROUTE route:src/app.ts:POST /api/users -> sym:ts:src/routes/users.ts:$POST / L4 same-file 0.95
            edge HANDLES_ROUTE route:src/routes/users.ts:GET /:id -> sym:ts:src/handlers.ts:getUser L4 import-resolved 0.95
            edge FETCHES sym:ts:web/client.ts:load -> route:src/app.ts:GET /api/users/:id L1 url-match 0.80
        "#]],
    );
}

/// `export default router` imported under another name (and `export { r as default }`) is the
/// router variable: its routes are mounted under the prefix.
#[test]
fn default_exported_routers_mount_under_any_local_name() {
    check(
        r#"
        //- /src/routes/items.ts
        import { Router } from "express";
        const router = Router();
        router.get("/:id", (req, res) => res.json({ id: req.params.id }));
        export default router;
        //- /src/routes/orders.js
        const express = require("express");
        const r = express.Router();
        r.delete("/:id", (req, res) => res.sendStatus(204));
        export { r as default };
        //- /src/app.ts
        import express from "express";
        import itemsRouter from "./routes/items";
        import orders from "./routes/orders";
        const app = express();
        app.use("/items", itemsRouter);
        app.use("/orders", orders);
        "#,
        expect![[r#"
            node route route:src/routes/items.ts:GET /:id L3-3 parent=file:src/routes/items.ts
            node route route:src/routes/orders.js:DELETE /:id L3-3 parent=file:src/routes/orders.js
            edge CONTAINS file:src/routes/items.ts -> route:src/routes/items.ts:GET /:id structural 1.00
            edge CONTAINS file:src/routes/orders.js -> route:src/routes/orders.js:DELETE /:id structural 1.00
            edge HANDLES_ROUTE route:src/routes/items.ts:GET /:id -> sym:ts:src/routes/items.ts:$GET /:id L3 same-file 0.95
            edge HANDLES_ROUTE route:src/routes/orders.js:DELETE /:id -> sym:js:src/routes/orders.js:$DELETE /:id L3 same-file 0.95
            node route route:src/app.ts:DELETE /orders/:id L6 "DELETE /orders/:id [express] status: 204 (registered at src/routes/orders.js:3, mounted under /orders)"
            node route route:src/app.ts:GET /items/:id L5 "GET /items/:id [express] responds: {id} status: 200 (registered at src/routes/items.ts:3, mounted under /items)"
            edge CONTAINS file:src/app.ts -> route:src/app.ts:DELETE /orders/:id structural 1.00
            edge CONTAINS file:src/app.ts -> route:src/app.ts:GET /items/:id structural 1.00
            edge HANDLES_ROUTE route:src/app.ts:DELETE /orders/:id -> sym:js:src/routes/orders.js:$DELETE /:id L6 same-file 0.95
            edge HANDLES_ROUTE route:src/app.ts:GET /items/:id -> sym:ts:src/routes/items.ts:$GET /:id L5 same-file 0.95
        "#]],
    );
}

/// Go: chi `Mount` of a router built by a function of another package, and a gin group passed
/// to a registration function, compose the prefix with the routes registered inside.
#[test]
fn go_mounts_compose_routes_registered_in_the_mounted_function() {
    check(
        r#"
        //- /go.mod
        module example.com/app
        //- /main.go
        package main

        import (
        	"net/http"

        	"example.com/app/users"
        	"github.com/go-chi/chi/v5"
        )

        func main() {
        	r := chi.NewRouter()
        	r.Mount("/api/users", users.Routes())
        	http.ListenAndServe(":8080", r)
        }
        //- /users/routes.go
        package users

        import (
        	"net/http"

        	"github.com/go-chi/chi/v5"
        )

        func Routes() chi.Router {
        	r := chi.NewRouter()
        	r.Get("/{id}", getUser)
        	return r
        }

        func getUser(w http.ResponseWriter, r *http.Request) {}
        //- /shop/gin.go
        package shop

        import "github.com/gin-gonic/gin"

        func Setup(e *gin.Engine) {
        	registerItems(e.Group("/v1"))
        }

        func registerItems(g *gin.RouterGroup) {
        	g.GET("/items", listItems)
        }

        func listItems(c *gin.Context) {}
        "#,
        expect![[r#"
            node route route:shop/gin.go:GET /items L10-10 parent=file:shop/gin.go
            node route route:users/routes.go:GET /:id L11-11 parent=file:users/routes.go
            edge CONTAINS file:shop/gin.go -> route:shop/gin.go:GET /items structural 1.00
            edge CONTAINS file:users/routes.go -> route:users/routes.go:GET /:id structural 1.00
            node route route:main.go:GET /api/users/:id L12 "GET /api/users/:id [chi] (registered at users/routes.go:11, mounted under /api/users)"
            node route route:shop/gin.go:GET /v1/items L6 "GET /v1/items [gin] (registered at shop/gin.go:10, mounted under /v1)"
            edge CONTAINS file:main.go -> route:main.go:GET /api/users/:id structural 1.00
            edge CONTAINS file:shop/gin.go -> route:shop/gin.go:GET /v1/items structural 1.00
            edge HANDLES_ROUTE route:main.go:GET /api/users/:id -> sym:go:users/routes.go:getUser L12 same-package 1.00
            edge HANDLES_ROUTE route:shop/gin.go:GET /items -> sym:go:shop/gin.go:listItems L10 same-package 1.00
            edge HANDLES_ROUTE route:shop/gin.go:GET /v1/items -> sym:go:shop/gin.go:listItems L6 same-package 1.00
            edge HANDLES_ROUTE route:users/routes.go:GET /:id -> sym:go:users/routes.go:getUser L11 same-package 1.00
        "#]],
    );
}

/// Go paths naming constants of another file of the package or of an imported package are
/// evaluated by resolution; a path held by a parameter is no route.
#[test]
fn go_paths_from_other_files_constants() {
    check(
        r#"
        //- /go.mod
        module example.com/app
        //- /api/paths.go
        package api

        const (
        	RaftPrefix  = "/raft"
        	membersPath = "/members"
        )
        //- /api/peer.go
        package api

        import (
        	"net/http"

        	"example.com/app/lease"
        )

        func NewPeerHandler(mux *http.ServeMux, p string) {
        	mux.Handle(RaftPrefix, raft)
        	mux.Handle(RaftPrefix+"/", raft)
        	mux.HandleFunc(membersPath, members)
        	mux.Handle(lease.Prefix+"/renew", lease.Handler())
        	mux.Handle(p, raft)
        	mux.Handle(lease.Missing, raft)
        }

        var raft http.Handler

        func members(w http.ResponseWriter, r *http.Request) {}
        //- /lease/lease.go
        package lease

        import "net/http"

        const Prefix = "/leases"

        func Handler() http.Handler { return nil }
        "#,
        expect![[r#"
            node route route:api/peer.go:ANY /leases/renew L13 "ANY /leases/renew [net/http]"
            node route route:api/peer.go:ANY /members L12 "ANY /members [net/http]"
            node route route:api/peer.go:ANY /raft L10 "ANY /raft [net/http]"
            node route route:api/peer.go:ANY /raft/ L11 "ANY /raft/ [net/http]"
            edge CONTAINS file:api/peer.go -> route:api/peer.go:ANY /leases/renew structural 1.00
            edge CONTAINS file:api/peer.go -> route:api/peer.go:ANY /members structural 1.00
            edge CONTAINS file:api/peer.go -> route:api/peer.go:ANY /raft structural 1.00
            edge CONTAINS file:api/peer.go -> route:api/peer.go:ANY /raft/ structural 1.00
            edge HANDLES_ROUTE route:api/peer.go:ANY /leases/renew -> sym:go:lease/lease.go:Handler L13 import-resolved 0.95
            edge HANDLES_ROUTE route:api/peer.go:ANY /members -> sym:go:api/peer.go:members L12 same-package 1.00
        "#]],
    );
}

/// Route and tool properties written by resolution read back in the query layer, whatever
/// their values hold (line breaks, `=`, the list separator).
#[test]
fn props_round_trip() {
    let mut e = codegraph_parse::Endpoint::route(
        "express",
        "GET",
        "/users/:id".into(),
        codegraph_parse::Handler::Unknown,
    );
    e.middleware = vec!["auth".into(), "rate\nLimit".into()];
    e.response_keys = vec!["id".into(), "a=b".into()];
    e.status_codes = vec![200, 404];
    let text = codegraph_resolve::endpoints::props(&e, Some(("src/r.ts", 4, "/api")));
    let p = codegraph_query::ops::endpoints::EndpointProps::parse(&text).expect("props");
    assert_eq!(p.kind, codegraph_schema::NodeKind::Route);
    assert_eq!((p.method.as_deref(), p.path.as_deref()), (Some("GET"), Some("/users/:id")));
    assert_eq!(p.middleware, vec!["auth", "rate Limit"]);
    assert_eq!(p.response_keys, vec!["id", "a=b"]);
    assert_eq!(p.status_codes, vec![200, 404]);
    assert_eq!(p.registered.as_deref(), Some("src/r.ts:4"));
    assert_eq!(p.mounted_under.as_deref(), Some("/api"));
    let mut t = codegraph_parse::Endpoint::route(
        "mcp-sdk",
        "",
        "find_user".into(),
        codegraph_parse::Handler::Unknown,
    );
    t.kind = codegraph_parse::EndpointKind::Tool;
    t.fields = vec!["id".into()];
    let p = codegraph_query::ops::endpoints::EndpointProps::parse(
        &codegraph_resolve::endpoints::props(&t, None),
    )
    .expect("props");
    assert_eq!((p.kind, p.name.as_deref()), (codegraph_schema::NodeKind::Tool, Some("find_user")));
    assert_eq!(p.fields, vec!["id"]);
    assert!(p.middleware.is_empty() && p.status_codes.is_empty());
    assert_eq!(codegraph_query::ops::endpoints::EndpointProps::parse("garbage\nstatus=x"), None);
}

/// A handler written in place is a symbol of its own (`setup.$GET /ping`): the calls it makes
/// are its own (not the enclosing function's), its parameters type them, the enclosing
/// function's locals it captures still resolve, and HANDLES_ROUTE / HANDLES_TOOL point at it.
#[test]
fn handlers_written_in_place_are_symbols_with_their_own_calls() {
    let fixture = r#"
        //- /go.mod
        module example.com/app

        go 1.21
        //- /server.go
        package main

        import "github.com/gin-gonic/gin"

        type Store struct{}

        func (s *Store) Load() {}

        func audit() {}

        func setup(r *gin.Engine) {
        	store := &Store{}
        	audit()
        	r.GET("/ping", func(c *gin.Context) {
        		store.Load()
        		audit()
        	})
        }
        //- /tools.ts
        import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
        function lookup(q: string) { return q; }
        export function getServer() {
          const server = new McpServer({ name: "x", version: "1" });
          server.registerTool("find", { description: "Finds" }, async ({ q }) => {
            return lookup(q);
          });
          return server;
        }
        "#;
    let resolved = render_fixture_resolution(fixture);
    let wanted: Vec<&str> =
        resolved.lines().filter(|l| l.contains("CALLS") || l.contains("HANDLES")).collect();
    expect![[r#"
        edge CALLS sym:go:server.go:setup -> sym:go:server.go:audit L13 same-package 1.00
        edge CALLS sym:go:server.go:setup.$GET /ping -> sym:go:server.go:Store.Load L15 typed-receiver 0.85
        edge CALLS sym:go:server.go:setup.$GET /ping -> sym:go:server.go:audit L16 same-package 1.00
        edge CALLS sym:ts:tools.ts:getServer.$tool find -> sym:ts:tools.ts:lookup L6 same-file 0.95
    "#]]
    .assert_eq(&(wanted.join("\n") + "\n"));
    let graph = render_fixture_graph(fixture);
    let handlers: Vec<&str> = graph.lines().filter(|l| l.contains('$')).collect();
    expect![[r#"
        node function sym:go:server.go:setup.$GET /ping L14-17 parent=sym:go:server.go:setup
        node function sym:ts:tools.ts:getServer.$tool find L5-7 parent=sym:ts:tools.ts:getServer
        edge DEFINES file:server.go -> sym:go:server.go:setup.$GET /ping structural 1.00
        edge DEFINES file:tools.ts -> sym:ts:tools.ts:getServer.$tool find structural 1.00
        edge HANDLES_ROUTE route:server.go:GET /ping -> sym:go:server.go:setup.$GET /ping L14 same-file 0.95
        edge CONTAINS sym:go:server.go:setup -> sym:go:server.go:setup.$GET /ping structural 1.00
        edge CONTAINS sym:ts:tools.ts:getServer -> sym:ts:tools.ts:getServer.$tool find structural 1.00
        edge HANDLES_TOOL tool:tools.ts:find -> sym:ts:tools.ts:getServer.$tool find L5 same-file 0.95
    "#]]
    .assert_eq(&(handlers.join("\n") + "\n"));
}

/// FETCHES stay with what can serve the call (issue 19): a test's `fetch('/')` names the route
/// its own file declares, not every `GET /` of the repository; a front-end package with no
/// routes of its own reaches its API package; a path many files serve links the nearest few
/// (at most 3), not all of them.
#[test]
fn client_calls_fetch_the_nearest_servers_only() {
    let fixture = r#"
        //- /package.json
        {"name": "framework"}
        //- /test/a.test.js
        const app = require("express")();
        app.get("/", (req, res) => res.send("a"));
        function t() { return fetch("/"); }
        //- /test/b.test.js
        const app = require("express")();
        app.get("/", (req, res) => res.send("b"));
        function t() { return fetch("/"); }
        //- /examples/hello.js
        const app = require("express")();
        app.get("/", (req, res) => res.send("hello"));
        //- /web/package.json
        {"name": "web"}
        //- /web/src/client.js
        export function load() { return fetch("/api/users"); }
        export function everywhere() { return fetch("/shared"); }
        //- /api/package.json
        {"name": "api"}
        //- /api/server.js
        const app = require("express")();
        app.get("/api/users", (req, res) => res.json([]));
        //- /api/a/one.js
        const app = require("express")();
        app.get("/shared", (req, res) => res.send("1"));
        //- /api/b/two.js
        const app = require("express")();
        app.get("/shared", (req, res) => res.send("2"));
        //- /api/c/three.js
        const app = require("express")();
        app.get("/shared", (req, res) => res.send("3"));
        //- /api/d/four.js
        const app = require("express")();
        app.get("/shared", (req, res) => res.send("4"));
        "#;
    let out: String = render_fixture_resolution(fixture)
        .lines()
        .filter(|l| l.contains("FETCHES"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        edge FETCHES sym:js:test/a.test.js:t -> route:test/a.test.js:GET / L3 url-match 0.90
        edge FETCHES sym:js:test/b.test.js:t -> route:test/b.test.js:GET / L3 url-match 0.90
        edge FETCHES sym:js:web/src/client.js:everywhere -> route:api/a/one.js:GET /shared L2 url-match 0.90
        edge FETCHES sym:js:web/src/client.js:everywhere -> route:api/b/two.js:GET /shared L2 url-match 0.90
        edge FETCHES sym:js:web/src/client.js:everywhere -> route:api/c/three.js:GET /shared L2 url-match 0.90
        edge FETCHES sym:js:web/src/client.js:load -> route:api/server.js:GET /api/users L1 url-match 0.90
    "#]]
    .assert_eq(&out);
}
