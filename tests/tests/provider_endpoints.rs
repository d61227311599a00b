//! Golden endpoint facts (HTTP routes and MCP tools registered in code), one test per framework
//! and tool style, plus the look-alikes that must not count (`map.get('k')`, HTTP clients), and
//! router mounts (`app.use('/api', router)`, `r.Mount("/api", sub)`) per framework.
//!
//! Only the `route` / `tool` lines (or the `mount` lines) of the rendered facts are compared (and
//! the file headers); the other facts of these fixtures are covered by the provider goldens.

use codegraph_tests::render_fixture_facts;
use expect_test::expect;

/// The rendered facts of a fixture, keeping only file headers and the lines starting with one
/// of `kinds`.
fn lines_of(fixture: &str, kinds: &[&str]) -> String {
    let mut out = String::new();
    for line in render_fixture_facts(fixture).lines() {
        if line.starts_with("//- ") || kinds.iter().any(|k| line.starts_with(k)) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// File headers and endpoint lines.
fn endpoints(fixture: &str) -> String {
    lines_of(fixture, &["route ", "tool "])
}

/// File headers and mount lines.
fn mounts(fixture: &str) -> String {
    lines_of(fixture, &["mount "])
}

#[test]
fn express_routes_middleware_and_responses() {
    let out = endpoints(
        r#"
        //- /src/app.js
        const express = require('express');
        const app = express();
        const router = express.Router();
        app.get('/users/:id', auth, validate, getUser);
        app.post('/users', rateLimit(10), passport.authenticate('jwt'), async (req, res) => {
          if (!req.body) return res.status(400).json({ error: 'bad' });
          res.status(201).json({ id: 1, name });
        });
        router.all('*', (req, res) => res.sendStatus(404));
        app.delete(`/items/:id`, [auth, admin], function removeItem(req, res) {
          res.json({ ok: true });
        });
        router.patch('', users.update);
        app.put('//a//b/', this.handler);
        app.options('/wrapped', asyncHandler(async (req, res) => { res.send({ done: 1 }); }));
        app.head('/bound', controller.show.bind(controller));
        function getUser(req, res) {
          res.json({ id: req.params.id, name: 'x' });
        }
        module.exports = function mount(app) {
          app.get('/inside', (req, res) => res.redirect('/elsewhere'));
        };
        "#,
    );
    expect![[r#"
        //- src/app.js
        route L4 express GET /users/:id handler=getUser mw=[auth,validate] keys=[id,name] status=[200] recv=app in=<module>
        route L5 express POST /users handler=sym:$POST /users mw=[rateLimit,passport.authenticate] keys=[error,id,name] status=[201,400] recv=app in=<module>
        route L9 express ANY /* handler=sym:$ANY /* status=[404] recv=router in=<module>
        route L10 express DELETE /items/:id handler=sym:removeItem mw=[auth,admin] keys=[ok] status=[200] recv=app in=<module>
        route L13 express PATCH / handler=users.update recv=router in=<module>
        route L14 express PUT /a/b/ handler=this.handler recv=app in=<module>
        route L15 express OPTIONS /wrapped handler=sym:$OPTIONS /wrapped keys=[done] status=[200] recv=app in=<module>
        route L16 express HEAD /bound handler=controller.show recv=app in=<module>
        route L21 express GET /inside handler=sym:module.exports.$GET /inside status=[302] recv=app in=module.exports
    "#]]
    .assert_eq(&out);
}

#[test]
fn express_route_chains() {
    let out = endpoints(
        r#"
        //- /src/books.ts
        import { Router } from 'express';
        export const router = Router();
        router.route('/books/:id')
          .get(books.show)
          .put(auth, books.update)
          .delete((req, res) => res.status(204).end());
        app.route('/one').get(one);
        "#,
    );
    expect![[r#"
        //- src/books.ts
        route L4 express GET /books/:id handler=books.show recv=router in=<module>
        route L5 express PUT /books/:id handler=books.update mw=[auth] recv=router in=<module>
        route L6 express DELETE /books/:id handler=sym:$DELETE /books/:id status=[204] recv=router in=<module>
        route L7 express GET /one handler=one recv=app in=<module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn hono_koa_and_named_koa_routes() {
    let out = endpoints(
        r#"
        //- /src/hono.ts
        import { Hono } from 'hono';
        const app = new Hono();
        app.get('/hello', (c) => c.json({ message: 'hi', ok: true }));
        app.post('/posts', async (c) => {
          const body = await c.req.json();
          if (!body) return c.json({ error: 'bad' }, 400);
          return c.json({ id: 1 }, 201);
        });
        app.get('/missing', (c) => c.notFound());
        const api = app.get('/a', h1).post('/b', h2);
        //- /src/koa.js
        const Router = require('@koa/router');
        const router = new Router();
        router.get('/users/:id', async (ctx) => {
          ctx.body = { id: ctx.params.id, name: 'n' };
        });
        router.post('create-user', '/users', auth, async (ctx) => {
          ctx.status = 201;
          ctx.body = { created: true };
        });
        router.del('/users/:id', remove);
        "#,
    );
    expect![[r#"
        //- src/hono.ts
        route L3 hono GET /hello handler=sym:$GET /hello keys=[message,ok] status=[200] recv=app in=<module>
        route L4 hono POST /posts handler=sym:$POST /posts keys=[error,id] status=[201,400] recv=app in=<module>
        route L9 hono GET /missing handler=sym:$GET /missing status=[404] recv=app in=<module>
        route L10 hono GET /a handler=h1 recv=app in=api
        route L10 hono POST /b handler=h2 recv=app in=api
        //- src/koa.js
        route L3 koa GET /users/:id handler=sym:$GET /users/:id keys=[id,name] recv=router in=<module>
        route L6 koa POST /users handler=sym:$POST /users mw=[auth] keys=[created] status=[201] recv=router in=<module>
        route L10 koa DELETE /users/:id handler=remove recv=router in=<module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn fastify_full_and_shorthand_routes() {
    let out = endpoints(
        r#"
        //- /src/server.ts
        import Fastify from 'fastify';
        const fastify = Fastify();
        fastify.route({ method: 'GET', url: '/items/:id', handler: getItem, preHandler: [auth] });
        fastify.route({
          method: ['POST', 'PUT'],
          url: '/items',
          onRequest: rateLimit(5),
          async handler(request, reply) {
            reply.code(201).send({ id: 1 });
          },
        });
        fastify.route({ method: 'DELETE', path: '/gone', ...hooks });
        fastify.get('/p', { schema: {} }, async (request, reply) => {
          return { hello: 'world' };
        });
        fastify.get('/q', { preHandler: [auth], handler: qHandler });
        async function getItem(request, reply) {
          return reply.send({ item: 1 });
        }
        "#,
    );
    expect![[r#"
        //- src/server.ts
        route L3 fastify GET /items/:id handler=getItem mw=[auth] keys=[item] status=[200] recv=fastify in=<module>
        route L4 fastify POST /items handler=sym:$POST /items mw=[rateLimit] keys=[id] status=[201] recv=fastify in=<module>
        route L4 fastify PUT /items handler=sym:$POST /items mw=[rateLimit] keys=[id] status=[201] recv=fastify in=<module>
        route L12 fastify DELETE /gone handler=? recv=fastify in=<module>
        route L13 fastify GET /p handler=sym:$GET /p keys=[hello] recv=fastify in=<module>
        route L16 fastify GET /q handler=qHandler mw=[auth] recv=fastify in=<module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn fastify_inline_plugins_compose_their_prefix() {
    // fastify's own examples: the framework is required by a relative path, the plugin is
    // written in place (nested too), and a route's options variable is not middleware.
    let out = endpoints(
        r#"
        //- /examples/route-prefix.js
        const fastify = require('../fastify')({ logger: true })
        const opts = { schema: {} }
        fastify.register(function (instance, options, done) {
          instance.get('/hello', opts, (req, reply) => {
            reply.send({ greet: 'hello' })
          })
          instance.register(async (sub) => {
            sub.route({ method: 'POST', url: '/deep', handler: deep })
          }, { prefix: '/v2', preHandler: [auth] })
          done()
        }, { prefix: '/english' })
        fastify.register(function (instance, options, done) {
          instance.get('/hello', opts, (req, reply) => reply.send({ greet: 'ciao' }))
          done()
        })
        fastify.get('/top', opts, top)
        "#,
    );
    expect![[r#"
        //- examples/route-prefix.js
        route L4 fastify GET /english/hello handler=sym:$GET /english/hello keys=[greet] status=[200] recv=instance in=<module>
        route L8 fastify POST /english/v2/deep handler=deep mw=[auth] recv=sub in=<module>
        route L13 fastify GET /hello handler=sym:$GET /hello keys=[greet] status=[200] recv=instance in=<module>
        route L16 fastify GET /top handler=top recv=fastify in=<module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn nestjs_controllers() {
    let out = endpoints(
        r#"
        //- /src/users.controller.ts
        import { Controller, Get, Post, Delete, All, UseGuards, HttpCode, HttpStatus } from '@nestjs/common';

        @Controller('users')
        @UseGuards(AuthGuard)
        export class UsersController {
          constructor(private svc: UsersService) {}

          @Get(':id')
          findOne(@Param('id') id: string) {
            return { id, name: 'x' };
          }

          @Post()
          @HttpCode(HttpStatus.CREATED)
          @UseGuards(new RolesGuard(), AdminGuard)
          create(@Body() dto: Dto) {
            return this.svc.create(dto);
          }

          @Get()
          all() {
            return [];
          }

          helper() {}
        }

        @Controller({ path: 'admin' })
        class Admin {
          @All('*') any() {}
          @Delete(['a', 'b']) del() {}
        }

        @Controller()
        export class Root {
          @Get('health') @HttpCode(204) health() {}
        }
        "#,
    );
    expect![[r#"
        //- src/users.controller.ts
        route L8 nestjs GET /users/:id handler=sym:UsersController.findOne mw=[AuthGuard] keys=[id,name] in=UsersController
        route L13 nestjs POST /users handler=sym:UsersController.create mw=[AuthGuard,RolesGuard,AdminGuard] status=[201] in=UsersController
        route L20 nestjs GET /users handler=sym:UsersController.all mw=[AuthGuard] in=UsersController
        route L30 nestjs ANY /admin/* handler=sym:Admin.any in=Admin
        route L31 nestjs DELETE /admin/a handler=sym:Admin.del in=Admin
        route L31 nestjs DELETE /admin/b handler=sym:Admin.del in=Admin
        route L36 nestjs GET /health handler=sym:Root.health status=[204] in=Root
    "#]]
    .assert_eq(&out);
}

#[test]
fn loopback_controllers() {
    let out = endpoints(
        r#"
        //- /src/todo.controller.ts
        import { get, post, del, patch, param, api, operation } from '@loopback/rest';

        export class TodoController {
          @get('/todos/{id}', { responses: {} })
          async findById(@param.path.number('id') id: number): Promise<Todo> {
            return this.repo.findById(id);
          }

          @post('/todos')
          async create(@requestBody() todo: Todo) {}

          @del('/todos/{id}')
          async deleteById(id: number) {}

          @operation('patch', '/todos/{id}/done')
          async done(id: number) {}
        }

        @api({ basePath: '/v2' })
        export class PingController {
          @get('/ping')
          ping() {
            return { greeting: 'hi', date: new Date() };
          }
        }
        "#,
    );
    expect![[r#"
        //- src/todo.controller.ts
        route L4 loopback GET /todos/:id handler=sym:TodoController.findById in=TodoController
        route L9 loopback POST /todos handler=sym:TodoController.create in=TodoController
        route L12 loopback DELETE /todos/:id handler=sym:TodoController.deleteById in=TodoController
        route L15 loopback PATCH /todos/:id/done handler=sym:TodoController.done in=TodoController
        route L21 loopback GET /v2/ping handler=sym:PingController.ping keys=[date,greeting] in=PingController
    "#]]
    .assert_eq(&out);
}

#[test]
fn route_handlers_answering_with_web_responses() {
    let out = endpoints(
        r#"
        //- /src/web.ts
        import { Hono } from 'hono';
        import { NextResponse } from 'next/server';
        const app = new Hono();
        app.post('/next', async (c) => {
          if (bad) return NextResponse.json({ error: 'no' }, { status: HttpStatus.BAD_REQUEST });
          return NextResponse.json({ id: 1, created: true }, { status: 201 });
        });
        app.get('/raw', () => new Response('ok', { status: 202 }));
        "#,
    );
    expect![[r#"
        //- src/web.ts
        route L4 hono POST /next handler=sym:$POST /next keys=[created,error,id] status=[201,400] recv=app in=<module>
        route L8 hono GET /raw handler=sym:$GET /raw status=[202] recv=app in=<module>
    "#]]
    .assert_eq(&out);
}

/// Tool names written through same-file constants (issue 19): a property of a constant object
/// (`TOOLS.list_items`, `TOOLS['get_item']`, nested `NAMES.admin.reset`), an enum member, a
/// constant's constant. A name that is none of these is not guessed, and the registration is
/// not dropped either: it is kept under the expression as written, flagged.
#[test]
fn mcp_tool_names_from_constant_objects_and_enums() {
    let out = endpoints(
        r#"
        //- /src/tools.ts
        import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
        const server = new McpServer({ name: 'demo', version: '1.0.0' });
        const TOOLS = { list_items: 'list_items', get_item: "get_item" } as const;
        const NAMES = { admin: { reset: 'admin_reset' } };
        enum Tool { Search = 'search_items', Count = 'count_items' }
        const ALIAS = TOOLS.list_items;
        server.tool(TOOLS.list_items, 'Lists items', async () => ({ content: [] }));
        server.tool(TOOLS['get_item'], async () => ({ content: [] }));
        server.tool(NAMES.admin.reset, async () => ({ content: [] }));
        server.registerTool(Tool.Search, { description: 'Searches' }, async () => ({}));
        server.tool(ALIAS, async () => ({ content: [] }));
        server.tool(Tool.Count, async () => ({ content: [] }));
        server.tool(makeName(), async () => ({ content: [] }));
        "#,
    );
    expect![[r#"
        //- src/tools.ts
        tool L7 mcp-sdk list_items desc="Lists items" handler=sym:$tool list_items in=<module>
        tool L8 mcp-sdk get_item handler=sym:$tool get_item in=<module>
        tool L9 mcp-sdk admin_reset handler=sym:$tool admin_reset in=<module>
        tool L10 mcp-sdk search_items desc="Searches" handler=sym:$tool search_items in=<module>
        tool L11 mcp-sdk list_items handler=sym:$tool list_items in=<module>
        tool L12 mcp-sdk count_items handler=sym:$tool count_items in=<module>
        tool L13 mcp-sdk makeName() (name not evaluated) handler=sym:$tool makeName() in=<module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn mcp_sdk_tool_and_register_tool() {
    let out = endpoints(
        r#"
        //- /src/mcp.ts
        import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
        import { z } from 'zod';
        const server = new McpServer({ name: 'demo', version: '1.0.0' });
        server.tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => ({
          content: [{ type: 'text', text: String(a + b) }],
        }));
        server.tool('ping', async () => ({ content: [] }));
        server.tool('echo', EchoShape, { readOnlyHint: true }, echoHandler);
        const EchoShape = { text: z.string() };
        server.registerTool(
          'multiply',
          { title: 'Mul', description: 'Multiplies', inputSchema: { x: z.number(), y: z.number() } },
          mulHandler,
        );
        server.registerTool('obj', { description: `Obj`, inputSchema: z.object({ q: z.string() }).strict() }, async (args) => ({}));
        const name = 'from-const';
        const config = { description: 'Configured apart', inputSchema: EchoShape };
        export const register = (s) => {
          s.registerTool(name, config, async (args) => ({}));
        };
        "#,
    );
    expect![[r#"
        //- src/mcp.ts
        tool L4 mcp-sdk add desc="Adds two numbers" fields=[a,b] handler=sym:$tool add in=<module>
        tool L7 mcp-sdk ping handler=sym:$tool ping in=<module>
        tool L8 mcp-sdk echo fields=[text] handler=echoHandler in=<module>
        tool L10 mcp-sdk multiply desc="Multiplies" fields=[x,y] handler=mulHandler in=<module>
        tool L15 mcp-sdk obj desc="Obj" fields=[q] handler=sym:$tool obj in=<module>
        tool L19 mcp-sdk from-const desc="Configured apart" fields=[text] handler=sym:register.$tool from-const in=register
    "#]]
    .assert_eq(&out);
}

#[test]
fn fastmcp_add_tool() {
    let out = endpoints(
        r#"
        //- /src/fast.ts
        import { FastMCP } from 'fastmcp';
        import { z } from 'zod';
        const server = new FastMCP({ name: 'x', version: '1.0.0' });
        server.addTool({
          name: 'add',
          description: 'Add two numbers',
          parameters: z.object({ a: z.number(), b: z.number() }),
          execute: async (args) => String(args.a + args.b),
        });
        server.addTool({ name: 'sub', parameters: z.object({ a: z.number() }), async execute(args) { return ''; } });
        server.addTool({ name: 'named', execute: runNamed });
        "#,
    );
    expect![[r#"
        //- src/fast.ts
        tool L4 fastmcp add desc="Add two numbers" fields=[a,b] handler=sym:$tool add in=<module>
        tool L10 fastmcp sub fields=[a] handler=sym:$tool sub in=<module>
        tool L11 fastmcp named handler=runNamed in=<module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn low_level_call_tool_dispatch_with_listed_tools() {
    let out = endpoints(
        r#"
        //- /src/lowlevel.ts
        import { Server } from '@modelcontextprotocol/sdk/server/index.js';
        import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
        const server = new Server({ name: 'x', version: '1' }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, async () => ({
          tools: [
            { name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
            { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
          ],
        }));
        server.setRequestHandler(CallToolRequestSchema, async (request) => {
          switch (request.params.name) {
            case 'add':
              return {};
            case 'echo':
              return {};
            default:
              throw new Error('unknown tool');
          }
        });
        export function setup(s: Server) {
          s.setRequestHandler(CallToolRequestSchema, handleCall);
        }
        async function handleCall(req) {
          const { name } = req.params;
          if (name === 'search') return {};
          if ('fetch' === name) return {};
        }
        "#,
    );
    expect![[r#"
        //- src/lowlevel.ts
        tool L12 mcp-sdk add desc="Adds" fields=[a,b] handler=inline in=<module>
        tool L14 mcp-sdk echo desc="Echoes" fields=[text] handler=inline in=<module>
        tool L25 mcp-sdk search handler=handleCall in=setup
        tool L26 mcp-sdk fetch handler=handleCall in=setup
    "#]]
    .assert_eq(&out);
}

/// Calls shaped like registrations that are not. A Go path held by a name the file does not
/// declare (`r.HandleFunc(pattern, h)`) stays a candidate with its path pieces: only
/// resolution can tell a parameter (no route) from another file's constant (a route; see
/// `endpoints_graph::go_paths_from_other_files_constants`).
#[test]
fn look_alikes_are_not_routes() {
    let out = endpoints(
        r#"
        //- /src/client.ts
        import axios from 'axios';
        const m = new Map();
        m.get('key');
        map.get('/not-a-route');
        axios.get('/users');
        axios.post('/users', payload);
        fetch('/users');
        this.http.post('/api/users', body);
        api.post('/x', data).then((r) => r);
        async function load() {
          const user = await users.get('/u', opts);
          return client.get('/x', cfg);
        }
        const f = () => service.post('/y', payload);
        $.get('/x', function (d) {});
        router.get('/only-a-path');
        cache.get('/k', 'default');
        app.use('/api', router);
        server.tool('no-handler');
        //- /p/client.go
        package p

        func f() {
        	m.Get("key")
        	http.Get("/x")
        	client.Post("/x", "application/json", body)
        	r.HandleFunc(pattern, h)
        }
        "#,
    );
    expect![[r#"
        //- src/client.ts
        //- p/client.go
        route L7 net/http ANY path=pattern handler=h recv=r in=f
    "#]]
    .assert_eq(&out);
}

#[test]
fn go_net_http() {
    let out = endpoints(
        r#"
        //- /p/main.go
        package main

        import (
        	"encoding/json"
        	"net/http"
        )

        func main() {
        	mux := http.NewServeMux()
        	http.HandleFunc("/hello", hello)
        	mux.HandleFunc("GET /items/{id}", getItem)
        	mux.HandleFunc("POST example.com/items/", func(w http.ResponseWriter, r *http.Request) {
        		w.WriteHeader(http.StatusCreated)
        		json.NewEncoder(w).Encode(map[string]any{"id": 1, "ok": true})
        	})
        	mux.Handle("/static/", http.StripPrefix("/static/", http.FileServer(http.Dir("."))))
        	mux.Handle("/files/{path...}", auth(http.HandlerFunc(files)))
        	mux.Handle("/exact/{$}", s.handleExact())
        	mux.Handle("DELETE /items/{id}", http.HandlerFunc(s.deleteItem))
        }

        func hello(w http.ResponseWriter, r *http.Request) {
        	if r.URL.Path != "/hello" {
        		http.NotFound(w, r)
        		return
        	}
        	http.Error(w, "bad", http.StatusBadRequest)
        }

        func files(w http.ResponseWriter, r *http.Request) {}
        "#,
    );
    expect![[r#"
        //- p/main.go
        route L10 net/http ANY /hello handler=hello status=[400,404] recv=http in=main
        route L11 net/http GET /items/:id handler=getItem recv=mux in=main
        route L12 net/http POST /items/ handler=sym:main.$POST /items/ keys=[id,ok] status=[201] recv=mux in=main
        route L16 net/http ANY /static/ handler=http.FileServer mw=[http.StripPrefix] recv=mux in=main
        route L17 net/http ANY /files/:path* handler=files mw=[auth] recv=mux in=main
        route L18 net/http ANY /exact/ handler=s.handleExact recv=mux in=main
        route L19 net/http DELETE /items/:id handler=s.deleteItem recv=mux in=main
    "#]]
    .assert_eq(&out);
}

/// grpc-gateway's generated registrations: the path is a pattern variable whose
/// `runtime.NewPattern` op codes the reader decodes (literals, a captured variable over a
/// concatenation of `*`, a verb); a pattern it cannot decode, or a method that is not a literal,
/// registers nothing.
#[test]
fn go_grpc_gateway_patterns() {
    let out = endpoints(
        r#"
        //- /gw/rpc.pb.gw.go
        package gw

        import "github.com/grpc-ecosystem/grpc-gateway/runtime"

        func RegisterKVHandlerClient(ctx context.Context, mux *runtime.ServeMux, client KVClient) error {
        	mux.Handle("POST", pattern_KV_Range_0, func(w http.ResponseWriter, req *http.Request, pathParams map[string]string) {
        		resp, md, err := request_KV_Range_0(rctx, inboundMarshaler, client, req, pathParams)
        		forward_KV_Range_0(ctx, mux, outboundMarshaler, w, req, resp, mux.GetForwardResponseOptions()...)
        	})
        	mux.Handle("GET", pattern_Shelf_Get_0, func(w http.ResponseWriter, req *http.Request, pathParams map[string]string) {})
        	mux.Handle("DELETE", pattern_Job_Cancel_0, func(w http.ResponseWriter, req *http.Request, pathParams map[string]string) {})
        	mux.Handle("GET", pattern_Broken_0, func(w http.ResponseWriter, req *http.Request, pathParams map[string]string) {})
        	mux.Handle(method, pattern_KV_Range_0, func(w http.ResponseWriter, req *http.Request, pathParams map[string]string) {})
        	return nil
        }

        var (
        	pattern_KV_Range_0 = runtime.MustPattern(runtime.NewPattern(1, []int{2, 0, 2, 1, 2, 2}, []string{"v3", "kv", "range"}, ""))

        	pattern_Shelf_Get_0 = runtime.MustPattern(runtime.NewPattern(1, []int{2, 0, 2, 1, 1, 0, 4, 2, 5, 2}, []string{"v1", "shelves", "name"}, ""))

        	pattern_Job_Cancel_0 = runtime.MustPattern(runtime.NewPattern(1, []int{2, 0, 2, 1, 1, 0, 5, 2}, []string{"v1", "jobs", "id"}, "cancel"))

        	pattern_Broken_0 = runtime.MustPattern(runtime.NewPattern(1, []int{2, 7}, []string{"v1"}, ""))
        )
        "#,
    );
    expect![[r#"
        //- gw/rpc.pb.gw.go
        route L6 grpc-gateway POST /v3/kv/range handler=sym:RegisterKVHandlerClient.$POST /v3/kv/range recv=mux in=RegisterKVHandlerClient
        route L10 grpc-gateway GET /v1/:name handler=sym:RegisterKVHandlerClient.$GET /v1/:name recv=mux in=RegisterKVHandlerClient
        route L11 grpc-gateway DELETE /v1/jobs/:id:cancel handler=sym:RegisterKVHandlerClient.$DELETE /v1/jobs/:id:cancel recv=mux in=RegisterKVHandlerClient
    "#]]
    .assert_eq(&out);
}

/// gRPC as protoc-gen-go-grpc generates it: the service descriptor's methods and streams are
/// `GRPC` routes handled by their handler functions, the client stub's `Invoke` / `NewStream`
/// calls are client calls of the rpc's path (which resolution turns into FETCHES of the
/// route); a path that is not an rpc's is no client call.
#[test]
fn go_grpc_services_and_client_stubs() {
    let out = lines_of(
        r#"
        //- /pb/rpc_grpc.pb.go
        package pb

        func (c *kVClient) Range(ctx context.Context, in *RangeRequest, opts ...grpc.CallOption) (*RangeResponse, error) {
        	out := new(RangeResponse)
        	err := c.cc.Invoke(ctx, "/etcdserverpb.KV/Range", in, out, opts...)
        	return out, err
        }

        func (c *watchClient) Watch(ctx context.Context, opts ...grpc.CallOption) (Watch_WatchClient, error) {
        	stream, err := c.cc.NewStream(ctx, &_Watch_serviceDesc.Streams[0], "/etcdserverpb.Watch/Watch", opts...)
        	other := c.cc.Invoke(ctx, "/not a method", nil, nil)
        	old, err := grpc.NewClientStream(ctx, &_Watch_serviceDesc.Streams[0], c.cc, "/etcdserverpb.Watch/Progress", opts...)
        	return stream, err
        }

        var _KV_serviceDesc = grpc.ServiceDesc{
        	ServiceName: "etcdserverpb.KV",
        	HandlerType: (*KVServer)(nil),
        	Methods: []grpc.MethodDesc{
        		{
        			MethodName: "Range",
        			Handler:    _KV_Range_Handler,
        		},
        		{MethodName: "Put", Handler: _KV_Put_Handler},
        	},
        	Streams: []grpc.StreamDesc{
        		{StreamName: "Watch", Handler: _Watch_Watch_Handler, ServerStreams: true},
        	},
        	Metadata: "rpc.proto",
        }
        "#,
        &["route ", "client "],
    );
    expect![[r#"
        //- pb/rpc_grpc.pb.go
        route L20 grpc GRPC /etcdserverpb.KV/Range handler=_KV_Range_Handler in=_KV_serviceDesc
        route L24 grpc GRPC /etcdserverpb.KV/Put handler=_KV_Put_Handler in=_KV_serviceDesc
        route L27 grpc GRPC /etcdserverpb.KV/Watch handler=_Watch_Watch_Handler in=_KV_serviceDesc
        client L5 grpc GRPC /etcdserverpb.KV/Range in=kVClient.Range
        client L10 grpc GRPC /etcdserverpb.Watch/Watch in=watchClient.Watch
        client L12 grpc GRPC /etcdserverpb.Watch/Progress in=watchClient.Watch
    "#]]
    .assert_eq(&out);
}

/// Paths written as the file's string constants (and `+` of them and literals), as etcd
/// and most Go servers do. A name this file does not declare (another file's constant, but
/// also a parameter) is kept as path pieces for resolution to evaluate.
#[test]
fn go_paths_from_constants() {
    let out = endpoints(
        r#"
        //- /p/routes.go
        package p

        import "net/http"

        const (
        	apiPrefix = "/v2"
        	keysPath  = apiPrefix + "/keys"
        )

        var (
        	statsPrefix = "/stats"
        	probing     = path.Join(apiPrefix, "probing", "../health/")
        )

        func register(mux *http.ServeMux, p string) {
        	mux.HandleFunc(keysPath, keys)
        	mux.HandleFunc(keysPath+"/", keys)
        	mux.Handle(statsPrefix+"/self", http.HandlerFunc(self))
        	mux.HandleFunc((versionPath), version)
        	mux.HandleFunc(probing, version)
        	mux.Handle(p, nil)
        	mux.Handle(other.Path, nil)
        }

        const versionPath = "/version"

        func keys(w http.ResponseWriter, r *http.Request)    {}
        func self(w http.ResponseWriter, r *http.Request)    {}
        func version(w http.ResponseWriter, r *http.Request) {}
        "#,
    );
    expect![[r#"
        //- p/routes.go
        route L16 net/http ANY /v2/keys handler=keys recv=mux in=register
        route L17 net/http ANY /v2/keys/ handler=keys recv=mux in=register
        route L18 net/http ANY /stats/self handler=self recv=mux in=register
        route L19 net/http ANY /version handler=version recv=mux in=register
        route L20 net/http ANY /v2/health handler=version recv=mux in=register
    "#]]
    .assert_eq(&out);
}

/// A registration whose path starts on the line after the call's `(` (common with an options
/// object) is found like a one-line one, in TS/JS and in Go.
#[test]
fn registrations_split_over_lines() {
    let out = endpoints(
        r#"
        //- /test/hooks.test.js
        const fastify = require("fastify")();
        test("x", (t) => {
          try {
            fastify.get(
              "/",
              { preHandler: [async (request, reply) => {}] },
              async (request, reply) => {
                return { hello: "world" };
              }
            );
          } catch (e) {}
        });
        //- /p/gin.go
        package p

        import "github.com/gin-gonic/gin"

        func setup(r *gin.Engine) {
        	r.GET(
        		"/users/:id",
        		getUser,
        	)
        }
        "#,
    );
    expect![[r#"
        //- test/hooks.test.js
        route L4 fastify GET / handler=sym:$test x.$GET / mw=[<inline>] keys=[hello] recv=fastify in=$test x
        //- p/gin.go
        route L6 gin GET /users/:id handler=getUser recv=r in=setup
    "#]]
    .assert_eq(&out);
}

#[test]
fn go_gorilla_mux() {
    let out = endpoints(
        r#"
        //- /p/routes.go
        package main

        import "github.com/gorilla/mux"

        func routes() *mux.Router {
        	r := mux.NewRouter()
        	r.HandleFunc("/products", listProducts).Methods("GET", "POST")
        	r.HandleFunc("/products/{id:[0-9]+}", getProduct).Methods("GET").Name("product")
        	s := r.PathPrefix("/api").Subrouter()
        	s.HandleFunc("/users/{id}", getUser)
        	v := s.PathPrefix("/v1").Subrouter()
        	v.Handle("/x", h).Methods("DELETE")
        	r.Path("/articles").Methods("PUT").HandlerFunc(putArticle)
        	r.PathPrefix("/static/").Handler(fs)
        	return r
        }

        func other(r *mux.Router) {
        	s.HandleFunc("/not-prefixed", h)
        }
        "#,
    );
    expect![[r#"
        //- p/routes.go
        route L7 gorilla/mux GET /products handler=listProducts recv=r in=routes
        route L7 gorilla/mux POST /products handler=listProducts recv=r in=routes
        route L8 gorilla/mux GET /products/:id handler=getProduct recv=r in=routes
        route L10 gorilla/mux ANY /api/users/:id handler=getUser recv=r in=routes
        route L12 gorilla/mux DELETE /api/v1/x handler=h recv=r in=routes
        route L13 gorilla/mux PUT /articles handler=putArticle recv=r in=routes
        route L14 gorilla/mux ANY /static/ handler=fs recv=r in=routes
        route L19 gorilla/mux ANY /not-prefixed handler=h recv=s in=other
    "#]]
    .assert_eq(&out);
}

#[test]
fn go_gin_groups_and_responses() {
    let out = endpoints(
        r#"
        //- /p/gin.go
        package main

        import (
        	"net/http"

        	"github.com/gin-gonic/gin"
        )

        func setup() {
        	r := gin.Default()
        	r.GET("/ping", func(c *gin.Context) {
        		c.JSON(200, gin.H{"message": "pong"})
        	})
        	v1 := r.Group("/v1", authRequired())
        	{
        		v1.POST("/login", rateLimit, loginEndpoint)
        		users := v1.Group("users")
        		users.GET("", listUsers)
        		users.DELETE("/:id", func(c *gin.Context) {
        			c.AbortWithStatus(http.StatusNotFound)
        			c.JSON(http.StatusOK, gin.H{"deleted": true, "id": c.Param("id")})
        		})
        	}
        	r.Any("/any", anyHandler)
        	r.Handle("PATCH", "/patch", patchHandler)
        }

        func loginEndpoint(c *gin.Context) {
        	c.JSON(http.StatusUnauthorized, gin.H{"error": "no"})
        }
        "#,
    );
    expect![[r#"
        //- p/gin.go
        route L11 gin GET /ping handler=sym:setup.$GET /ping keys=[message] status=[200] recv=r in=setup
        route L16 gin POST /v1/login handler=loginEndpoint mw=[authRequired,rateLimit] keys=[error] status=[401] recv=r in=setup
        route L18 gin GET /v1/users handler=listUsers mw=[authRequired] recv=r in=setup
        route L19 gin DELETE /v1/users/:id handler=sym:setup.$DELETE /v1/users/:id mw=[authRequired] keys=[deleted,id] status=[200,404] recv=r in=setup
        route L24 gin ANY /any handler=anyHandler recv=r in=setup
        route L25 gin PATCH /patch handler=patchHandler recv=r in=setup
    "#]]
    .assert_eq(&out);
}

#[test]
fn go_echo() {
    let out = endpoints(
        r#"
        //- /p/echo.go
        package main

        import (
        	"net/http"

        	"github.com/labstack/echo/v4"
        )

        func main() {
        	e := echo.New()
        	e.GET("/users/:id", getUser, mwA, mwB)
        	g := e.Group("/admin", middleware.BasicAuth(check))
        	g.POST("/items", func(c echo.Context) error {
        		return c.JSON(http.StatusCreated, map[string]any{"id": 1})
        	})
        	e.PUT("/empty", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
        }
        "#,
    );
    expect![[r#"
        //- p/echo.go
        route L11 echo GET /users/:id handler=getUser mw=[mwA,mwB] recv=e in=main
        route L13 echo POST /admin/items handler=sym:main.$POST /admin/items mw=[middleware.BasicAuth] keys=[id] status=[201] recv=e in=main
        route L16 echo PUT /empty handler=sym:main.$PUT /empty status=[204] recv=e in=main
    "#]]
    .assert_eq(&out);
}

#[test]
fn go_chi() {
    let out = endpoints(
        r#"
        //- /p/chi.go
        package main

        import (
        	"net/http"

        	"github.com/go-chi/chi/v5"
        	"github.com/go-chi/render"
        )

        func router() http.Handler {
        	r := chi.NewRouter()
        	r.Use(middleware.Logger)
        	r.Get("/", home)
        	r.Route("/users", func(r chi.Router) {
        		r.Get("/{id}", getUser)
        		r.With(paginate).Get("/", listUsers)
        		r.Route("/{id}/posts", func(r chi.Router) {
        			r.Post("/", func(w http.ResponseWriter, r *http.Request) {
        				render.Status(r, http.StatusCreated)
        				render.JSON(w, r, map[string]string{"post": "x"})
        			})
        		})
        	})
        	r.Group(func(r chi.Router) {
        		r.Use(auth)
        		r.Delete("/admin/{id}", del)
        	})
        	r.Method("GET", "/m", h)
        	r.Mount("/api", sub)
        	m.Get("key")
        	return r
        }
        "#,
    );
    expect![[r#"
        //- p/chi.go
        route L13 chi GET / handler=home recv=r in=router
        route L15 chi GET /users/:id handler=getUser recv=r in=router
        route L16 chi GET /users handler=listUsers mw=[paginate] recv=r in=router
        route L18 chi POST /users/:id/posts handler=sym:router.$POST /users/:id/posts keys=[post] status=[201] recv=r in=router
        route L26 chi DELETE /admin/:id handler=del recv=r in=router
        route L28 chi GET /m handler=h recv=r in=router
    "#]]
    .assert_eq(&out);
}

#[test]
fn go_mcp_tools() {
    let out = endpoints(
        r#"
        //- /p/mcpgo.go
        package main

        import (
        	"github.com/mark3labs/mcp-go/mcp"
        	"github.com/mark3labs/mcp-go/server"
        )

        func main() {
        	s := server.NewMCPServer("demo", "1.0.0")
        	s.AddTool(mcp.NewTool("hello_world",
        		mcp.WithDescription("Say hello"),
        		mcp.WithString("name", mcp.Required(), mcp.Description("Name")),
        		mcp.WithNumber("times"),
        	), helloHandler)
        	tool := mcp.NewTool("calc", mcp.WithDescription("Calculate"), mcp.WithBoolean("exact"))
        	s.AddTool(tool, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
        		return nil, nil
        	})
        }
        //- /q/sdk.go
        package main

        import "github.com/modelcontextprotocol/go-sdk/mcp"

        func main() {
        	server := mcp.NewServer(&mcp.Implementation{Name: "greeter"}, nil)
        	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "say hi"}, SayHi)
        }
        "#,
    );
    expect![[r#"
        //- p/mcpgo.go
        tool L10 mcp-go hello_world desc="Say hello" fields=[name,times] handler=helloHandler in=main
        tool L16 mcp-go calc desc="Calculate" fields=[exact] handler=sym:main.$tool calc in=main
        //- q/sdk.go
        tool L7 mcp-sdk greet desc="say hi" handler=SayHi in=main
    "#]]
    .assert_eq(&out);
}

#[test]
fn ts_mounts() {
    let out = mounts(
        r#"
        //- /src/app.js
        const express = require('express');
        const usersRouter = require('./users');
        const app = express();
        const api = express.Router();
        app.use('/api', api);
        app.use('/api/v1/', auth, rateLimit(10), usersRouter);
        api.use('/items/{id}', routes.items);
        app.use('/admin', makeAdminRouter(db));
        app.use('/legacy', require('./legacy'));
        function mountAll(app) {
          app.use('/docs', docs.router);
        }
        app.use(usersRouter);
        app.use('/static', express.static('public'));
        app.use('/public', serveStatic('public', { maxAge: 1 }));
        app.use('/hook', (req, res, next) => next());
        app.use('/only-mw');
        //- /src/hono.ts
        import { Hono } from 'hono';
        const app = new Hono();
        app.route('/books', books);
        app.route('/authors', createAuthors());
        app.use('/api/*', logger());
        //- /src/koa.js
        const Router = require('@koa/router');
        const router = new Router();
        router.use('/users', users.routes(), users.allowedMethods());
        router.use('/posts', auth, posts.routes());
        app.use(router.routes());
        //- /src/fastify.ts
        import Fastify from 'fastify';
        const fastify = Fastify();
        fastify.register(usersPlugin, { prefix: '/users' });
        fastify.register(require('./admin'), { prefix: '/admin', preHandler: [auth] });
        fastify.register(cors, { origin: true });
        fastify.register(import('./lazy'), { prefix: '/lazy' });
        fastify.use('/x', mw);
        "#,
    );
    expect![[r#"
        //- src/app.js
        mount L5 express /api -> api recv=app in=<module>
        mount L6 express /api/v1/ -> usersRouter mw=[auth,rateLimit] recv=app in=<module>
        mount L7 express /items/:id -> routes.items recv=api in=<module>
        mount L8 express /admin -> makeAdminRouter() recv=app in=<module>
        mount L9 express /legacy -> require() recv=app in=<module>
        mount L11 express /docs -> docs.router recv=app in=mountAll
        //- src/hono.ts
        mount L3 hono /books -> books recv=app in=<module>
        mount L4 hono /authors -> createAuthors() recv=app in=<module>
        //- src/koa.js
        mount L3 koa /users -> users recv=router in=<module>
        mount L4 koa /posts -> posts mw=[auth] recv=router in=<module>
        //- src/fastify.ts
        mount L3 fastify /users -> usersPlugin recv=fastify in=<module>
        mount L4 fastify /admin -> require() mw=[auth] recv=fastify in=<module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn go_mounts() {
    let out = mounts(
        r#"
        //- /p/chi.go
        package main

        import "github.com/go-chi/chi/v5"

        func router() http.Handler {
        	r := chi.NewRouter()
        	r.Mount("/api", sub)
        	r.Mount("/admin/{org}", adminRouter())
        	r.With(auth).Mount("/users", users.Routes())
        	r.Route("/v1", func(r chi.Router) {
        		r.Mount("/items", items.Router)
        	})
        	r.Route("/v2", v2Routes)
        	r.Mount(prefix, sub)
        	return r
        }
        //- /p/gin.go
        package main

        import "github.com/gin-gonic/gin"

        func setup(r *gin.Engine) {
        	registerUsers(r.Group("/v1"))
        	api := r.Group("/api", auth)
        	admin := api.Group("admin")
        	users.Register(api)
        	handlers.RegisterAdmin(db, admin)
        	setupRoot(r)
        	log.Println("x", other)
        }
        //- /p/echo.go
        package main

        import "github.com/labstack/echo/v4"

        func main() {
        	e := echo.New()
        	g := e.Group("/admin")
        	routes.Admin(g)
        }
        //- /p/plain.go
        package main

        func main() {
        	r.Mount("/api", sub)
        	register(r.Group("/v1"))
        }
        "#,
    );
    expect![[r#"
        //- p/chi.go
        mount L7 chi /api -> sub recv=r in=router
        mount L8 chi /admin/:org -> adminRouter() recv=r in=router
        mount L9 chi /users -> users.Routes() mw=[auth] recv=r in=router
        mount L11 chi /v1/items -> items.Router recv=r in=router
        mount L13 chi /v2 -> v2Routes recv=r in=router
        //- p/gin.go
        mount L6 gin /v1 -> registerUsers() recv=r in=setup
        mount L9 gin /api -> users.Register() mw=[auth] recv=r in=setup
        mount L10 gin /api/admin -> handlers.RegisterAdmin() mw=[auth] recv=r in=setup
        //- p/echo.go
        mount L8 echo /admin -> routes.Admin() recv=e in=main
        //- p/plain.go
    "#]]
    .assert_eq(&out);
}

/// Routes come from routers: a call of the route shape on a receiver typed as something else
/// (an SDK's HTTP client field, `private _client: OpenAI`, a parameter `api: ApiClient`) is no
/// route, whether or not its result is used; nor is one whose result is returned through a
/// type assertion (`return this._client.post(...) as APIPromise<T>`); a field typed or built
/// as a router, and a parameter typed by a type parameter, still register routes.
#[test]
fn receivers_typed_as_clients_register_no_routes() {
    let out = endpoints(
        r#"
        //- /src/images.ts
        import express from "express";
        import OpenAI from "./client";
        export class Images {
          constructor(private _client: OpenAI) {}
          edit(body: unknown) {
            this._client.post("/images/edits", makeOptions(body));
          }
        }
        export class Server {
          app: express.Express = express();
          routes() { this.app.get("/health", handler); }
        }
        export class Files extends APIResource {
          create(body: unknown) {
            return this._client.post("/files", multipartFormRequestOptions(body)) as APIPromise<File>;
          }
        }
        function plugin<T extends FastifyInstance>(instance: T, api: ApiClient) {
          instance.get("/generic", handler);
          api.get("/not-a-route", handler);
        }
        "#,
    );
    expect![[r#"
        //- src/images.ts
        route L11 express GET /health handler=handler recv=this.app in=Server.routes
        route L19 express GET /generic handler=handler recv=instance in=plugin
    "#]]
    .assert_eq(&out);
}

/// A registration counts only when its receiver is known to be a router or app: declared or
/// built as one (`express.Router()`, `Fastify()`, a chain rooted at `fastify()`), a parameter
/// of a function handed to a plugin call (`register(function (f) {...})`), or named like one
/// (`app`, `router`, `server`, `instance`, `routes`). A receiver made by a client factory, a
/// field or local with no such evidence, or a parameter of an ordinary function is no router.
#[test]
fn routes_need_a_router_receiver() {
    let out = endpoints(
        r#"
        //- /test/plugin.test.js
        const Fastify = require("fastify");
        test("plugins", (t) => {
          const f = Fastify();
          f.register(function (child, opts, done) {
            child.get("/plugin", handler);
            done();
          });
          fastify().get("/chained", handler);
        });
        //- /src/app.js
        const express = require("express");
        const v1 = express.Router();
        v1.get("/users", listUsers);
        const api = createApiClient();
        api.get("/remote", handler);
        svc.post("/elsewhere", handler);
        module.exports = function (app) {
          app.get("/health", health);
        };
        function call(gateway) {
          gateway.get("/through", handler);
        }
        class Sync {
          run() { this.http.get("/poll", handler); this.router.get("/own", handler); }
        }
        "#,
    );
    expect![[r#"
        //- test/plugin.test.js
        route L5 fastify GET /plugin handler=handler recv=child in=$test plugins
        route L8 fastify GET /chained handler=handler in=$test plugins
        //- src/app.js
        route L3 express GET /users handler=listUsers recv=v1 in=<module>
        route L8 express GET /health handler=health recv=app in=module.exports
        route L14 express GET /own handler=handler recv=this.router in=Sync.run
    "#]]
    .assert_eq(&out);
}
