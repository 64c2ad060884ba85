//! `zermelo serve`: a page to play any game against the perfect bot, and the HTTP API
//! behind it (the same JSON as `zermelo moves` and `zermelo games`).

use std::net::SocketAddr;

use anyhow::{Context, Result};
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use zermelo::Spec;

use crate::commands::{Report, SolveOptions};
use crate::games;

/// The query of `/api/moves`: a game spec and the moves played so far.
#[derive(Deserialize)]
struct MovesQuery {
    spec: String,
    #[serde(default)]
    moves: String,
}

/// Serves the page and the API on `addr` until the process is stopped.
pub fn serve(addr: SocketAddr, opts: SolveOptions) -> Result<Report> {
    let runtime = tokio::runtime::Runtime::new().context("starting the server")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("binding {addr}"))?;
        let local = listener.local_addr()?;
        println!("zermelo is serving on http://{local}/");
        let app = Router::new()
            .route("/", get(|| async { Html(PAGE) }))
            .route("/api/games", get(|| async { Json(crate::games_report().json) }))
            .route(
                "/api/moves",
                get(move |q: Query<MovesQuery>| moves(q.0, opts.clone())),
            );
        axum::serve(listener, app).await.context("serving")?;
        Ok(Report {
            text: String::new(),
            json: json!({}),
        })
    })
}

async fn moves(q: MovesQuery, opts: SolveOptions) -> Response {
    let answer = tokio::task::spawn_blocking(move || -> Result<Report> {
        let moves: Vec<String> = q
            .moves
            .split(',')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect();
        games::open(&q.spec.parse::<Spec>()?)?.moves(&moves, &opts)
    })
    .await;
    match answer {
        Ok(Ok(report)) => Json(report.json).into_response(),
        Ok(Err(e)) => (StatusCode::BAD_REQUEST, Json(json!({"error": format!("{e:#}")}))).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"error": e.to_string()})),
        )
            .into_response(),
    }
}

const PAGE: &str = include_str!("serve.html");
