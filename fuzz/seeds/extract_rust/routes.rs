// Web handlers as axum and actix-web register them, and a client call.
use axum::{routing::{get, post}, Router, extract::Path};

async fn list() -> &'static str { "[]" }
async fn show(Path(id): Path<u64>) -> String { format!("{id}") }

pub fn app() -> Router {
    Router::new()
        .route("/items", get(list).post(create))
        .route("/items/:id", get(show))
        .nest("/api", Router::new().route("/health", get(|| async { "ok" })))
}

#[actix_web::get("/users/{id}")]
async fn user(id: web::Path<u32>) -> impl Responder { HttpResponse::Ok().body(id.to_string()) }

#[post("/users")]
async fn create() -> impl Responder { reqwest::Client::new().get("http://svc/x").send().await }
