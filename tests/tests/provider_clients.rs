//! Golden HTTP client call facts (`fetch`, axios and its instances, ky, got, ofetch, Go
//! net/http), with the URL normalizations resolution matches on, and the look-alikes that must
//! not count: route registrations, unknown receivers, non-literal URLs.
//!
//! Only the `client` lines of the rendered facts are compared (and the file headers); routes
//! are covered by `provider_endpoints`.

use codegraph_tests::render_fixture_facts;
use expect_test::expect;

/// The rendered facts of a fixture, keeping only file headers and client call lines.
fn clients(fixture: &str) -> String {
    let mut out = String::new();
    for line in render_fixture_facts(fixture).lines() {
        if line.starts_with("//- ") || line.starts_with("client ") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn ts_fetch_and_ofetch() {
    let out = clients(
        r#"
        //- /src/api.ts
        const API = process.env.API_URL;
        const USERS = '/api/users';
        export async function load(id: string) {
          const a = await fetch('/users');
          const b = await fetch(`/users/${id}?expand=${x}`, { method: 'POST', body });
          await window.fetch(`${API}/users/${id}/posts`, { method: 'delete' });
          await fetch('https://api.example.com//v1/items/' + id + '#top');
          await fetch(USERS, opts);
          await fetch(`/things/${kind}-list/`, { method: verb });
          return $fetch('/nuxt', { method: 'PATCH' });
        }
        const o = ofetch(`/o/${id}`);
        fetch(url);
        fetch(`${base}`);
        fetch('relative/path');
        fetch();
        "#,
    );
    expect![[r#"
        //- src/api.ts
        client L4 fetch GET /users in=load
        client L5 fetch POST /users/:param in=load
        client L6 fetch DELETE /users/:param/posts base in=load
        client L7 fetch GET /v1/items/:param base in=load
        client L8 fetch ANY /api/users in=load
        client L9 fetch ANY /things/:param/ in=load
        client L10 $fetch PATCH /nuxt in=load
        client L12 ofetch GET /o/:param in=o
    "#]]
    .assert_eq(&out);
}

#[test]
fn ts_axios_ky_got() {
    let out = clients(
        r#"
        //- /src/client.js
        import axios from 'axios';
        import ky from 'ky';
        import got from 'got';
        const api = axios.create({ baseURL: 'https://api.x.com' });
        axios.get('/users');
        axios.post(`/users/${id}/roles`, payload);
        axios.request({ url: '/req', method: 'put' });
        axios({ method: 'delete', url: `/users/${id}` });
        axios('/plain');
        axios.head('http://localhost:3000/health');
        class Repo {
          list() { return api.get('users'); }
          save(u) { return api.post('/users', u); }
        }
        ky.post('/ky', { json: body });
        ky('/ky2', { method: 'options' });
        got.patch(`${base}/got/${id}`);
        got('/got2');
        superagent.get('/sa');
        api.get(path);
        "#,
    );
    expect![[r#"
        //- src/client.js
        client L5 axios GET /users in=<module>
        client L6 axios POST /users/:param/roles in=<module>
        client L7 axios PUT /req in=<module>
        client L8 axios DELETE /users/:param in=<module>
        client L9 axios GET /plain in=<module>
        client L10 axios HEAD /health base in=<module>
        client L12 axios GET /users base in=Repo.list
        client L13 axios POST /users base in=Repo.save
        client L15 ky POST /ky in=<module>
        client L16 ky OPTIONS /ky2 in=<module>
        client L17 got PATCH /got/:param base in=<module>
        client L18 got GET /got2 in=<module>
        client L19 superagent GET /sa in=<module>
    "#]]
    .assert_eq(&out);
}

#[test]
fn ts_look_alikes_are_not_clients() {
    let out = clients(
        r#"
        //- /src/server.ts
        import express from 'express';
        const app = express();
        app.get('/users', getUsers);
        app.post('/users', auth, (req, res) => res.json({}));
        map.get('/x');
        cache.get('/k', 'default');
        router.get('/only-a-path');
        http.get('/x');
        client.get('/x', cfg);
        this.http.post('/api/users', body);
        api.get('/not-an-instance');
        const res = await service.post('/y', payload);
        "#,
    );
    expect![[r#"
        //- src/server.ts
    "#]]
    .assert_eq(&out);
}

#[test]
fn go_net_http_clients() {
    let out = clients(
        r#"
        //- /p/client.go
        package p

        import (
        	"context"
        	"fmt"
        	"net/http"
        )

        func fetch(ctx context.Context, base string, id int) {
        	http.Get("/users")
        	http.Get(base + "/users/" + strconv.Itoa(id))
        	http.Post(fmt.Sprintf("/users/%d/posts?x=%s", id, q), "application/json", nil)
        	http.PostForm("http://localhost:8080/form", vals)
        	http.Head(`/health`)
        	http.NewRequest("PUT", "/items/"+id, body)
        	http.NewRequest(http.MethodDelete, fmt.Sprintf("%s/items/%v", base, id), nil)
        	http.NewRequestWithContext(ctx, method, "/ctx", nil)
        	http.NewRequestWithContext(ctx, "patch", fmt.Sprintf("/100%%/%[1]d", id), nil)
        	http.Get(url)
        	http.Get(fmt.Sprintf(format, id))
        	client.Get("/x")
        	http.HandleFunc("/route", h)
        }
        //- /q/alias.go
        package q

        import nethttp "net/http"

        func f() {
        	nethttp.Get("/aliased")
        	http.Get("/not-net-http")
        }
        //- /r/noimport.go
        package r

        func f() {
        	http.Get("/no-import")
        }
        "#,
    );
    expect![[r#"
        //- p/client.go
        client L10 http GET /users in=fetch
        client L11 http GET /users/:param base in=fetch
        client L12 http POST /users/:param/posts in=fetch
        client L13 http POST /form base in=fetch
        client L14 http HEAD /health in=fetch
        client L15 http PUT /items/:param in=fetch
        client L16 http DELETE /items/:param base in=fetch
        client L17 http ANY /ctx in=fetch
        client L18 http PATCH /100%/:param in=fetch
        //- q/alias.go
        client L6 http GET /aliased in=f
        //- r/noimport.go
    "#]]
    .assert_eq(&out);
}
