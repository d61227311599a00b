//! Rust routes, MCP tools and client calls end to end on fixtures: the route and tool nodes a
//! file declares with their same-file HANDLES_ROUTE / HANDLES_TOOL edges (axum chains with
//! in-place nests, actix-web attributes and scopes, rocket attributes mounted in the same
//! file, rmcp tools), and what resolution adds: handlers named by reference in other modules,
//! routes of another file served under a mount prefix (an axum `.nest("/api",
//! users::router())`, a rocket `.mount("/todos", routes![todos::list])`, an actix
//! `.configure(..)` under a scope), and FETCHES from reqwest calls to the routes they match.

use codegraph_tests::{render_fixture_graph, render_fixture_resolution};
use expect_test::expect;

const APPS: &str = r#"
//- /axumapp/src/main.rs
mod admin;
mod users;

use axum::{routing::get, Router};

fn app() -> Router {
    Router::new()
        .route("/", get(root))
        .nest("/api", users::router())
        .nest("/admin", Router::new().route("/stats", get(admin::stats)))
}

async fn root() {}
//- /axumapp/src/users.rs
use axum::{routing::{get, post}, Router};

pub fn router() -> Router {
    Router::new()
        .route("/users", get(list).post(create))
        .route("/users/{id}", get(show))
}

async fn list() {}
async fn create() {}
async fn show() {}
//- /axumapp/src/admin.rs
pub async fn stats() {}
//- /rocketapp/src/main.rs
#[macro_use] extern crate rocket;
mod todos;

#[get("/")]
fn index() -> &'static str { "hi" }

#[launch]
fn rocket() -> _ {
    rocket::build()
        .mount("/", routes![index])
        .mount("/todos", routes![todos::list, todos::create])
}
//- /rocketapp/src/todos.rs
#[get("/")]
pub fn list() {}

#[post("/<id>")]
pub fn create(id: u32) {}
//- /actixapp/src/main.rs
mod orders;

use actix_web::{get, web, App, HttpServer};

#[get("/ping")]
async fn ping() -> &'static str { "pong" }

#[actix_web::main]
async fn main() {
    HttpServer::new(|| {
        App::new()
            .service(web::scope("/v1").service(ping).configure(orders::config))
    });
}
//- /actixapp/src/orders.rs
use actix_web::web;

pub fn config(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/orders/{id}").route(web::get().to(show)));
}

async fn show() {}
//- /mcpserver/src/lib.rs
use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};

pub struct AddArgs {
    pub a: i64,
    pub b: i64,
}

#[tool_router]
impl Calculator {
    /// Adds two numbers.
    #[tool]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> String { String::new() }
}
//- /client/src/main.rs
async fn fetch(client: &reqwest::Client, id: u32) {
    client.get(format!("http://localhost:3000/api/users/{id}")).send().await;
    reqwest::get("http://localhost:8000/todos/").await;
}
"#;

fn endpoint_lines(rendered: &str) -> String {
    rendered
        .lines()
        .filter(|l| {
            l.contains(" route:") && l.starts_with("node")
                || l.contains(" tool:") && l.starts_with("node")
                || l.contains("HANDLES_")
                || l.contains("FETCHES")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn declared_routes_and_tools() {
    expect![[r#"
        node route route:actixapp/src/main.rs:GET /v1/ping L5-5 parent=file:actixapp/src/main.rs
        node route route:actixapp/src/orders.rs:GET /orders/:id L4-4 parent=file:actixapp/src/orders.rs
        node route route:axumapp/src/main.rs:GET / L8-8 parent=file:axumapp/src/main.rs
        node route route:axumapp/src/main.rs:GET /admin/stats L10-10 parent=file:axumapp/src/main.rs
        node route route:axumapp/src/users.rs:GET /users L5-5 parent=file:axumapp/src/users.rs
        node route route:axumapp/src/users.rs:GET /users/:id L6-6 parent=file:axumapp/src/users.rs
        node route route:axumapp/src/users.rs:POST /users L5-5 parent=file:axumapp/src/users.rs
        node route route:rocketapp/src/main.rs:GET / L4-4 parent=file:rocketapp/src/main.rs
        node route route:rocketapp/src/todos.rs:GET / L1-1 parent=file:rocketapp/src/todos.rs
        node route route:rocketapp/src/todos.rs:POST /:id L4-4 parent=file:rocketapp/src/todos.rs
        node tool tool:mcpserver/src/lib.rs:add L11-11 parent=file:mcpserver/src/lib.rs
        edge HANDLES_ROUTE route:actixapp/src/main.rs:GET /v1/ping -> sym:rs:actixapp/src/main.rs:ping L5 same-file 0.95
        edge HANDLES_ROUTE route:rocketapp/src/main.rs:GET / -> sym:rs:rocketapp/src/main.rs:index L4 same-file 0.95
        edge HANDLES_ROUTE route:rocketapp/src/todos.rs:GET / -> sym:rs:rocketapp/src/todos.rs:list L1 same-file 0.95
        edge HANDLES_ROUTE route:rocketapp/src/todos.rs:POST /:id -> sym:rs:rocketapp/src/todos.rs:create L4 same-file 0.95
        edge HANDLES_TOOL tool:mcpserver/src/lib.rs:add -> sym:rs:mcpserver/src/lib.rs:Calculator.add L11 same-file 0.95
    "#]]
    .assert_eq(&endpoint_lines(&render_fixture_graph(APPS)));
}

#[test]
fn mounted_routes_handlers_and_fetches() {
    expect![[r#"
        node route route:actixapp/src/main.rs:GET /v1/orders/:id L12 "GET /v1/orders/:id [actix-web] (registered at actixapp/src/orders.rs:4, mounted under /v1)"
        node route route:axumapp/src/main.rs:GET /api/users L9 "GET /api/users [axum] (registered at axumapp/src/users.rs:5, mounted under /api)"
        node route route:axumapp/src/main.rs:GET /api/users/:id L9 "GET /api/users/:id [axum] (registered at axumapp/src/users.rs:6, mounted under /api)"
        node route route:axumapp/src/main.rs:POST /api/users L9 "POST /api/users [axum] (registered at axumapp/src/users.rs:5, mounted under /api)"
        node route route:rocketapp/src/main.rs:GET /todos L11 "GET /todos [rocket] (registered at rocketapp/src/todos.rs:1, mounted under /todos)"
        node route route:rocketapp/src/main.rs:POST /todos/:id L11 "POST /todos/:id [rocket] (registered at rocketapp/src/todos.rs:4, mounted under /todos)"
        edge HANDLES_ROUTE route:actixapp/src/main.rs:GET /v1/orders/:id -> sym:rs:actixapp/src/orders.rs:show L12 same-file 0.95
        edge HANDLES_ROUTE route:actixapp/src/orders.rs:GET /orders/:id -> sym:rs:actixapp/src/orders.rs:show L4 same-file 0.95
        edge HANDLES_ROUTE route:axumapp/src/main.rs:GET / -> sym:rs:axumapp/src/main.rs:root L8 same-file 0.95
        edge HANDLES_ROUTE route:axumapp/src/main.rs:GET /admin/stats -> sym:rs:axumapp/src/admin.rs:stats L10 import-resolved 0.95
        edge HANDLES_ROUTE route:axumapp/src/main.rs:GET /api/users -> sym:rs:axumapp/src/users.rs:list L9 same-file 0.95
        edge HANDLES_ROUTE route:axumapp/src/main.rs:GET /api/users/:id -> sym:rs:axumapp/src/users.rs:show L9 same-file 0.95
        edge HANDLES_ROUTE route:axumapp/src/main.rs:POST /api/users -> sym:rs:axumapp/src/users.rs:create L9 same-file 0.95
        edge HANDLES_ROUTE route:axumapp/src/users.rs:GET /users -> sym:rs:axumapp/src/users.rs:list L5 same-file 0.95
        edge HANDLES_ROUTE route:axumapp/src/users.rs:GET /users/:id -> sym:rs:axumapp/src/users.rs:show L6 same-file 0.95
        edge HANDLES_ROUTE route:axumapp/src/users.rs:POST /users -> sym:rs:axumapp/src/users.rs:create L5 same-file 0.95
        edge HANDLES_ROUTE route:rocketapp/src/main.rs:GET /todos -> sym:rs:rocketapp/src/todos.rs:list L11 same-file 0.95
        edge HANDLES_ROUTE route:rocketapp/src/main.rs:POST /todos/:id -> sym:rs:rocketapp/src/todos.rs:create L11 same-file 0.95
        edge FETCHES sym:rs:client/src/main.rs:fetch -> route:axumapp/src/main.rs:GET /api/users/:id L2 url-match 0.70
        edge FETCHES sym:rs:client/src/main.rs:fetch -> route:rocketapp/src/main.rs:GET /todos L3 url-match 0.70
    "#]]
    .assert_eq(&endpoint_lines(&render_fixture_resolution(APPS)));
}
