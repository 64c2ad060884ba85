//! `zermelo serve`: a page to play any game against the perfect bot, and the HTTP API
//! behind it (the same JSON as `zermelo moves` and `zermelo games`).
//!
//! Opened games and their loaded tables stay in a cache shared by requests (bounded in
//! memory, least recently used out). A request never starts work over its budget: too
//! large answers 422; work whose client went away, or past its time, is stopped. A session
//! reads a table file again once it is replaced (say, repaired), without a restart.
//!
//! The server's memory budget is shared: at most as many requests work at once as the
//! machine has cores ([`Work`]), each within an equal share of the budget, which every
//! player and solver honours; the others wait for a turn, up to their time budget. A
//! request holds its turn until its work has ended, not only until it is answered, so
//! work that is being stopped still counts against the budget.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use zermelo::session::{Options, Session};
use zermelo::Error;

use crate::render;
use crate::report::Report;

/// The longest query string a request may send.
const MAX_QUERY: usize = 8 * 1024;
/// The largest body a request may send (the API takes none).
const MAX_BODY: usize = 16 * 1024;
/// The most opened games the cache keeps, whatever memory they hold.
const MAX_SESSIONS: usize = 64;
/// Seconds a request's work may run past its time budget before its cancel flag is set
/// (the work stops at its own deadline first, answering what it can).
const STOP_AFTER_SECONDS: f64 = 0.5;
/// Seconds a request waits after that for its work to stop before it is answered with 503.
const GRACE_SECONDS: f64 = 3.0;

/// Turns to work: at most `turns` requests work at once, each within `share` bytes.
struct Work {
    turns: Arc<tokio::sync::Semaphore>,
    count: usize,
    share: u64,
}

impl Work {
    /// As many turns as the work has threads (`--threads`, else the cores), sharing
    /// `memory` bytes equally.
    fn new(memory: u64) -> Work {
        let count = rayon::current_num_threads();
        Work {
            turns: Arc::new(tokio::sync::Semaphore::new(count)),
            count,
            share: memory / count as u64,
        }
    }
}

/// Hands the memory that ended work freed back to the system, on a thread of its own: the
/// allocator otherwise keeps it for the threads that used it. A request's work sends a
/// word when it ends; trims run one at a time, one for any number of words.
fn memory_janitor() -> std::sync::mpsc::Sender<()> {
    let (ended, words) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        while words.recv().is_ok() {
            while words.try_recv().is_ok() {}
            #[cfg(all(target_os = "linux", target_env = "gnu"))]
            // SAFETY: malloc_trim only returns free memory of the allocator to the system.
            unsafe {
                libc::malloc_trim(0);
            }
        }
    });
    ended
}

/// Keeps the allocator to a few arenas, about one for each request at work: memory one
/// request's work freed is then taken again by the next, instead of lying in an arena of
/// its own.
fn few_arenas(turns: usize) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter, before the server's threads start.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, i32::try_from(turns + 2).unwrap_or(i32::MAX));
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = turns;
}

/// Opened games, most recently used last, with the memory each holds.
struct Cache {
    sessions: Vec<(String, Arc<dyn Session>)>,
    limit: u64,
    /// The specs that read files on this machine it may open (`--game`).
    offered: Vec<String>,
}

impl Cache {
    /// The session of `spec`, opened now or taken from the cache.
    fn get(&mut self, spec: &str) -> Result<Arc<dyn Session>, Error> {
        if let Some(i) = self.sessions.iter().position(|(s, _)| s == spec) {
            let entry = self.sessions.remove(i);
            let session = entry.1.clone();
            self.sessions.push(entry);
            return Ok(session);
        }
        if zermelo::catalog::reads_files(spec) && !self.offered.iter().any(|o| o == spec) {
            return Err(Error::Unsupported(format!(
                "{spec} reads a file on the server, which serves only the files it was started \
                 with (zermelo serve --game SPEC)"
            )));
        }
        let session: Arc<dyn Session> = Arc::from(zermelo::catalog::open(spec)?);
        self.sessions.push((spec.to_string(), session.clone()));
        Ok(session)
    }

    /// Drops the least recently used sessions while the cache holds more than its limits.
    fn trim(&mut self) {
        while self.sessions.len() > MAX_SESSIONS || (self.sessions.len() > 1 && self.held() > self.limit) {
            self.sessions.remove(0);
        }
    }

    fn held(&self) -> u64 {
        self.sessions.iter().map(|(_, s)| s.held_bytes()).sum()
    }
}

struct App {
    opts: Options,
    cache: Mutex<Cache>,
    work: Work,
    /// Told when a request's work ends ([`memory_janitor`]).
    ended: std::sync::mpsc::Sender<()>,
}

/// Sets its flag when dropped: the request it belongs to ended, answered or not.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The query of `/api/moves` and `/api/bot`: a game spec, the position play started from
/// (the game's start when absent or empty) and the moves played since.
#[derive(Deserialize)]
struct GameQuery {
    spec: String,
    /// The position to start from, in the game's notation (`--position`).
    #[serde(default)]
    position: String,
    #[serde(default)]
    moves: String,
    /// `/api/moves`: list every legal move.
    #[serde(default)]
    all: bool,
    /// `/api/bot`: the player that moves (default: the game's first default player,
    /// `perfect` wherever it can play).
    player: Option<String>,
    /// `/api/bot`: the seed of its random choices.
    #[serde(default)]
    seed: u64,
}

impl GameQuery {
    fn moves(&self) -> Vec<String> {
        self.moves
            .split(',')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect()
    }
}

/// Serves the page and the API on `addr` until the process is stopped.
pub fn serve(addr: SocketAddr, opts: Options, cache_bytes: u64, games: Vec<String>) -> Result<Report> {
    // Every game offered opens now, so that a bad one stops the server before it starts.
    for spec in &games {
        zermelo::catalog::open(spec).map_err(anyhow::Error::from)?;
    }
    let work = Work::new(opts.budget.bytes());
    few_arenas(work.count);
    let runtime = tokio::runtime::Runtime::new().context("starting the server")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("binding {addr}"))?;
        let local = listener.local_addr()?;
        println!("zermelo is serving on http://{local}/");
        for spec in &games {
            println!("{spec}: http://{local}/?spec={}", query_text(spec));
        }
        let app = Arc::new(App {
            opts,
            cache: Mutex::new(Cache {
                sessions: Vec::new(),
                limit: cache_bytes,
                offered: games,
            }),
            work,
            ended: memory_janitor(),
        });
        let router = Router::new()
            .route("/", get(|| async { Html(PAGE) }))
            .route("/api/games", get(|| async { Json(render::games().json) }))
            .route("/api/moves", get(moves))
            .route("/api/bot", get(bot))
            .fallback(|uri: Uri| async move {
                error(StatusCode::NOT_FOUND, &format!("no such page: {}", uri.path()))
            })
            .method_not_allowed_fallback(|| async {
                error(StatusCode::METHOD_NOT_ALLOWED, "this path answers GET only")
            })
            .layer(DefaultBodyLimit::max(MAX_BODY))
            .with_state(app);
        axum::serve(listener, router).await.context("serving")?;
        Ok(Report {
            text: String::new(),
            json: json!({}),
        })
    })
}

/// `text` escaped for a URL's query.
fn query_text(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({"error": message}))).into_response()
}

/// The status of a library error: the client's fault (400), too big (422), or ours.
fn status(e: &Error) -> StatusCode {
    match e {
        Error::TooBig(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Error::Spec(_)
        | Error::Move { .. }
        | Error::Position { .. }
        | Error::Unsupported(_)
        | Error::Forfeit { .. } => StatusCode::BAD_REQUEST,
        Error::Cancelled => StatusCode::SERVICE_UNAVAILABLE,
        Error::Database { .. } | Error::Io(_) | Error::Quit | Error::Conformance(_) => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}

/// Runs `work` on a blocking thread, when a turn to work is free, with the request's
/// budget (its share of the memory) and a cancel flag that is set when the client goes
/// away or the time runs out.
async fn run(
    app: Arc<App>,
    uri: &Uri,
    query: Result<Query<GameQuery>, axum::extract::rejection::QueryRejection>,
    work: impl FnOnce(&dyn Session, &GameQuery, &Options) -> Result<serde_json::Value, Error> + Send + 'static,
) -> Response {
    if uri.query().is_some_and(|q| q.len() > MAX_QUERY) {
        return error(
            StatusCode::URI_TOO_LONG,
            &format!("the query is longer than {MAX_QUERY} bytes"),
        );
    }
    let Query(q) = match query {
        Ok(q) => q,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.body_text()),
    };
    let seconds = app.opts.budget.seconds.unwrap_or(0.0);
    let wait = Duration::from_secs_f64(seconds);
    let turn = match tokio::time::timeout(wait, app.work.turns.clone().acquire_owned()).await {
        Ok(Ok(turn)) => turn,
        _ => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the server is busy ({} requests at work); try again in a moment",
                    app.work.count
                ),
            )
        }
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let mut opts = app.opts.clone();
    opts.budget.cancel = Some(cancel.clone());
    opts.budget.memory = Some(app.work.share);
    // Every part of the work ends by the request's deadline, counted from now.
    opts.budget.ends = Some(std::time::Instant::now() + Duration::from_secs_f64(seconds));
    opts.position = Some(q.position.clone()).filter(|p| !p.trim().is_empty());
    let mut task = tokio::task::spawn_blocking(move || {
        // The cache is locked only to find the session, not while it works.
        let session = app.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&q.spec);
        let answer = session.and_then(|session| work(session.as_ref(), &q, &opts));
        app.cache.lock().unwrap_or_else(|e| e.into_inner()).trim();
        let _ = app.ended.send(());
        // The turn is given back once the work has ended, answered or not.
        drop(turn);
        answer
    });
    let answer = |done: Result<Result<serde_json::Value, Error>, tokio::task::JoinError>| match done {
        Ok(Ok(json)) => Json(json).into_response(),
        Ok(Err(e)) => error(status(&e), &e.to_string()),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    };
    let budget = Duration::from_secs_f64(seconds + STOP_AFTER_SECONDS);
    if let Ok(done) = tokio::time::timeout(budget, &mut task).await {
        return answer(done);
    }
    cancel.store(true, Ordering::Relaxed);
    match tokio::time::timeout(Duration::from_secs_f64(GRACE_SECONDS), &mut task).await {
        Ok(done) => answer(done),
        Err(_) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the request took too long and was stopped",
        ),
    }
}

async fn moves(
    State(app): State<Arc<App>>,
    uri: Uri,
    query: Result<Query<GameQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    run(app, &uri, query, |session, q, opts| {
        let mut opts = opts.clone();
        opts.all_moves = q.all;
        Ok(render::position(&session.position(&q.moves(), &opts)?).json)
    })
    .await
}

async fn bot(
    State(app): State<Arc<App>>,
    uri: Uri,
    query: Result<Query<GameQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    run(app, &uri, query, |session, q, opts| {
        let player = q
            .player
            .clone()
            .unwrap_or_else(|| session.default_players().remove(0));
        let chosen = session.bot_move(&q.moves(), &player, q.seed, opts)?;
        Ok(json!({"command": "bot", "game": session.spec(), "player": player, "move": chosen}))
    })
    .await
}

const PAGE: &str = include_str!("serve.html");
