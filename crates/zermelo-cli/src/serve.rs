//! `zermelo serve`: a page to play any game against the perfect bot, and the HTTP API
//! behind it (the same JSON as `zermelo moves` and `zermelo games`).
//!
//! Opened games and their loaded tables stay in a cache shared by requests (bounded in
//! memory, least recently used out, but the games offered with `--game`, read at the
//! start); a request opens a game not in it outside the cache's lock, in its own turn and
//! budget. Connections are bounded: closed when they send no request's head for
//! [`HEAD_SECONDS`], and at most [`CONNECTIONS_PER_CLIENT`] from one address. A request never starts work over its budget: too
//! large answers 422; work whose client went away, or past its time, is stopped. A session
//! reads a table file again once it is replaced (say, repaired), without a restart.
//!
//! The server's memory budget is shared: requests work in two lanes of turns ([`Work`]),
//! light work (a loaded table's probe, a small game) apart from heavy work so that it
//! never waits behind it, each lane with as many turns as the machine has cores and a
//! client holding at most half of them; each turn works within its share of the budget,
//! which every player and solver honours; the others wait for a turn, up to their time
//! budget. A request holds its turn until its work has ended, not only until it is
//! answered, so work that is being stopped still counts against the budget.

use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{ready, Poll};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use axum::extract::connect_info::ConnectInfo;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::serve::Listener;
use axum::{Extension, Json, Router};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde::Deserialize;
use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite};
use zermelo::error::Words;
use zermelo::session::{Absent, Budget, Options, Session};
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

/// Two lanes of turns to work, so that quick work never waits behind heavy work: a
/// light lane for work known to be small (a loaded table's probe, a small example game, the perfect
/// or random player there) and a heavy lane for the rest. Each has as many turns as the
/// work has threads (at least two), and in each a client (by address) holds at most half
/// of them, so that one client never holds every turn.
struct Work {
    light: Lane,
    heavy: Lane,
}

/// How many times a heavy turn's share of the memory is a light turn's.
const HEAVY_WEIGHT: u64 = 8;

impl Work {
    /// As many turns in each lane as the work has threads (`--threads`, else the cores,
    /// at least two), sharing `memory` bytes: a heavy turn's share [`HEAVY_WEIGHT`] times
    /// a light one's.
    fn new(memory: u64) -> Work {
        let count = rayon::current_num_threads().max(2);
        let unit = memory / ((HEAVY_WEIGHT + 1) * count as u64);
        Work {
            light: Lane::new(count, unit),
            heavy: Lane::new(count, unit * HEAVY_WEIGHT),
        }
    }

    /// Whether a request on `session` is light: a table it loaded answers it, or its game
    /// is one of the catalog's small examples (quick to solve whole), and `player` (a bot
    /// request's) only reads values. Nothing is estimated: an estimate may be work.
    fn light(session: &dyn Session, player: Option<&str>) -> bool {
        let reads_values = player.is_none_or(|p| {
            let name = p.trim().to_ascii_lowercase();
            name == "perfect" || name == "random" || name.starts_with("perfect:")
        });
        let example = || {
            zermelo::catalog::entry_named(session.info().name)
                .is_ok_and(|e| e.examples.contains(&session.spec()))
        };
        reads_values && (session.held_bytes() > 0 || example())
    }
}

/// Turns to work of one kind: at most `count` requests at once, each within `share`
/// bytes, and at most `per_client` of them from one address.
struct Lane {
    turns: Arc<tokio::sync::Semaphore>,
    count: usize,
    share: u64,
    per_client: usize,
    /// The turns each client may still take, for the clients with a request here.
    clients: Mutex<HashMap<IpAddr, Arc<tokio::sync::Semaphore>>>,
}

/// A turn to work, given back when dropped: the lane's and its client's.
type Turn = (
    tokio::sync::OwnedSemaphorePermit,
    tokio::sync::OwnedSemaphorePermit,
);

impl Lane {
    fn new(count: usize, share: u64) -> Lane {
        Lane {
            turns: Arc::new(tokio::sync::Semaphore::new(count)),
            count,
            share,
            per_client: (count / 2).max(1),
            clients: Mutex::new(HashMap::new()),
        }
    }

    /// A turn for `client` in a request that started at `started` with `seconds` of
    /// budget, waiting at most what is left of them; else the answer that the server is
    /// busy (`light`: this is the lane of quick work).
    async fn turn(
        &self,
        client: IpAddr,
        seconds: f64,
        started: Instant,
        light: bool,
    ) -> Result<Turn, Response> {
        let wait = Duration::from_secs_f64(seconds).saturating_sub(started.elapsed());
        self.admit(client, wait).await.ok_or_else(|| {
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the server is busy ({} {} requests at work); try again in a moment",
                    self.count,
                    if light { "quick" } else { "heavy" }
                ),
            )
        })
    }

    /// The budget of work in a turn here: the request's time from now, the turn's share
    /// of the memory, and `cancel`.
    fn budget(&self, request: &Budget, cancel: &Arc<AtomicBool>) -> Budget {
        let seconds = request.seconds.unwrap_or(0.0);
        Budget {
            cancel: Some(cancel.clone()),
            memory: Some(self.share),
            // Every part of the work ends by the request's deadline, counted from now.
            ends: Some(Instant::now() + Duration::from_secs_f64(seconds)),
            ..request.clone()
        }
    }

    /// A turn for `client`, waiting at most `wait` for it; `None` when none came.
    async fn admit(&self, client: IpAddr, wait: Duration) -> Option<Turn> {
        let own = {
            let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
            // A client nobody holds or waits for any more is forgotten.
            clients.retain(|_, s| Arc::strong_count(s) > 1);
            clients
                .entry(client)
                .or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(self.per_client)))
                .clone()
        };
        tokio::time::timeout(wait, async move {
            let mine = own.acquire_owned().await.ok()?;
            let lane = self.turns.clone().acquire_owned().await.ok()?;
            Some((lane, mine))
        })
        .await
        .ok()
        .flatten()
    }
}

/// The address a request came from, whose share of the turns it takes.
#[derive(Clone, Copy)]
struct Client(IpAddr);

/// The server's listener: its connections answer the requests the HTTP layer refuses
/// before any route sees them (a head too large, a malformed request) with the JSON error
/// every other refusal has ([`JsonRefusals`]).
struct Refusals(tokio::net::TcpListener);

impl Listener for Refusals {
    type Io = JsonRefusals<tokio::net::TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (io, addr) = Listener::accept(&mut self.0).await;
        (
            JsonRefusals {
                io,
                pending: Vec::new(),
            },
            addr,
        )
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Listener::local_addr(&self.0)
    }
}

/// A connection whose bodiless refusals from the HTTP layer (400, 414, 431, written
/// before a route sees the request) are replaced by the same status with a JSON error.
struct JsonRefusals<Io> {
    io: Io,
    /// The bytes of a replaced refusal still to be written.
    pending: Vec<u8>,
}

/// The JSON refusal that replaces the HTTP layer's bodiless `head`, if it is one.
fn json_refusal(head: &[u8]) -> Option<Vec<u8>> {
    let head = std::str::from_utf8(head).ok()?;
    if !head.contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let (code, why) = match head.get(..13)? {
        "HTTP/1.1 400 " => (400, "a malformed HTTP request"),
        "HTTP/1.1 414 " => (414, "the address is too long"),
        "HTTP/1.1 431 " => (431, "the request's head is too large"),
        _ => return None,
    };
    let reason = head[13..].split("\r\n").next()?;
    let body = json!({"error": format!("{why}: a query may have at most {MAX_QUERY} bytes")}).to_string();
    Some(
        format!(
            "HTTP/1.1 {code} {reason}\r\ncontent-type: application/json\r\nconnection: close\r\n\
             content-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<Io: AsyncWrite + Unpin> JsonRefusals<Io> {
    /// Writes what is left of a replaced refusal.
    fn drain(&mut self, cx: &mut std::task::Context<'_>) -> Poll<std::io::Result<()>> {
        while !self.pending.is_empty() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.pending))?;
            if n == 0 {
                return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..n);
        }
        Poll::Ready(Ok(()))
    }
}

impl<Io: AsyncRead + Unpin> AsyncRead for JsonRefusals<Io> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<Io: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<Io> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        ready!(self.drain(cx))?;
        match json_refusal(buf) {
            Some(refusal) => {
                self.pending = refusal;
                // Taken whole; what is left goes out on the next write or flush.
                let _ = self.drain(cx)?;
                Poll::Ready(Ok(buf.len()))
            }
            None => Pin::new(&mut self.io).poll_write(cx, buf),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
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

/// Opened games, most recently used last, with the memory each holds. The games offered
/// with `--game` are opened at the start and stay; the others are opened by requests
/// (outside the cache's lock, in a turn of their lane) and dropped least recently used
/// first.
struct Cache {
    sessions: Vec<(String, Arc<dyn Session>)>,
    limit: u64,
    /// The specs that read files on this machine it may open (`--game`).
    offered: Vec<String>,
}

impl Cache {
    /// The session of `spec` if it is open (then the most recently used), `None` if it
    /// is to be opened, or why it may not be.
    fn find(&mut self, spec: &str) -> Result<Option<Arc<dyn Session>>, Error> {
        if let Some(i) = self.sessions.iter().position(|(s, _)| s == spec) {
            let entry = self.sessions.remove(i);
            let session = entry.1.clone();
            self.sessions.push(entry);
            return Ok(Some(session));
        }
        if zermelo::catalog::reads_files(spec) && !self.offered.iter().any(|o| o == spec) {
            return Err(Error::Unsupported(format!(
                "{spec} reads a file on the server, which serves only the files it was started \
                 with (zermelo serve --game SPEC)"
            )));
        }
        Ok(None)
    }

    /// Keeps `session`, just opened for `spec`, unless another request opened it first:
    /// the session kept.
    fn keep(&mut self, spec: &str, session: Arc<dyn Session>) -> Arc<dyn Session> {
        if let Some(found) = self.find(spec).ok().flatten() {
            return found;
        }
        self.sessions.push((spec.to_string(), session.clone()));
        session
    }

    /// Drops the least recently used sessions, but the most recent and those offered,
    /// while the cache holds more than its limits.
    fn trim(&mut self) {
        while self.sessions.len() > MAX_SESSIONS || self.held() > self.limit {
            let last = self.sessions.len().saturating_sub(1);
            let Some(oldest) = self.sessions[..last]
                .iter()
                .position(|(s, _)| !self.offered.contains(s))
            else {
                break;
            };
            self.sessions.remove(oldest);
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

impl App {
    /// The answer to a library error: its status, and its message with the tables named
    /// by their names in the data folder (the server's own folders are not the client's
    /// business).
    fn refusal(&self, e: &Error) -> Response {
        let mut message = e.worded(&RequestWords);
        let data = &self.opts.data_dir;
        for folder in [Some(data.clone()), data.canonicalize().ok()]
            .into_iter()
            .flatten()
        {
            let prefix = format!("{}/", folder.display().to_string().trim_end_matches('/'));
            message = message.replace(&prefix, "");
        }
        error(status(e), &message)
    }
}

/// The server's words for what a client can change: a request's budget, and the query's
/// parameters (`depth=2`); a job too big for a request points to the terminal.
struct RequestWords;

impl Words for RequestWords {
    fn option(&self, option: &str, value: Option<&str>) -> String {
        format!("{option}={}", value.unwrap_or_default())
    }

    fn memory(&self, bytes: &str, _given: bool) -> String {
        format!("the {bytes} a request may use")
    }

    fn seconds(&self, seconds: f64) -> String {
        format!("the {seconds} s a request may take")
    }

    fn budget(&self, bytes: &str, given: bool, seconds: Option<f64>) -> String {
        match seconds {
            Some(s) => format!("a request's budget ({s} s, {bytes}) allows"),
            None => format!("{} allows", self.memory(bytes, given)),
        }
    }

    fn switch(&self, option: &str) -> String {
        format!("`zermelo solve --{option}` in a terminal")
    }

    fn merge(&self, into: Option<&str>) -> String {
        format!("{} in a terminal", crate::merge_command(into))
    }

    fn elsewhere(&self) -> &str {
        "; the bot `search` plays it here, and `zermelo moves` in a terminal values it without a \
         time limit (`zermelo solve` saves a table the server reads, for games that keep one)"
    }
}

/// The words of the server's start, where a game offered opens within `--cache-memory`.
struct CacheWords;

impl Words for CacheWords {
    fn option(&self, option: &str, value: Option<&str>) -> String {
        crate::Flags.option(option, value)
    }

    fn memory(&self, bytes: &str, _given: bool) -> String {
        format!("--cache-memory {bytes}")
    }

    fn merge(&self, into: Option<&str>) -> String {
        crate::Flags.merge(into)
    }
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
    /// The game (asked for by name when absent: [`run`]).
    #[serde(default)]
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

/// A game of your own opened in this process (a game written in Python), as the page
/// shows it: its name and how to play it, in place of the generic graph's.
#[derive(Clone, Debug, serde::Serialize)]
pub struct OwnGame {
    /// The spec that opens it.
    pub spec: String,
    /// Its name.
    pub name: String,
    /// How to play it (its docstring); empty when it has none.
    pub how_to_play: String,
}

/// The games of your own the page offers, the latest described last.
static OWN_GAMES: Mutex<Vec<OwnGame>> = Mutex::new(Vec::new());

/// Offers `game` on the page of every server of this process, replacing what was said of
/// its spec before.
pub fn offer_own(game: OwnGame) {
    let mut own = OWN_GAMES.lock().unwrap_or_else(|e| e.into_inner());
    own.retain(|g| g.spec != game.spec);
    own.push(game);
}

/// The catalog as `zermelo games --json` lists it, with the games of your own opened in
/// this process under `own`.
fn catalog() -> serde_json::Value {
    let mut games = render::games().json;
    let own = OWN_GAMES.lock().unwrap_or_else(|e| e.into_inner()).clone();
    games["own"] = json!(own);
    games
}

/// Serves the page and the API on `addr` until the process is stopped.
pub fn serve(addr: SocketAddr, opts: Options, cache_bytes: u64, games: Vec<String>) -> Result<Report> {
    // Every game offered opens now, within the cache's memory, and stays open: a bad one,
    // or one too large, stops the server before it starts.
    let mut sessions = Vec::new();
    for spec in &games {
        let budget = Budget::default().with_memory(cache_bytes);
        let session = zermelo::catalog::open_within(spec, &budget)
            .map_err(|e| anyhow::anyhow!("--game {spec}: {}", e.worded(&CacheWords)))?;
        sessions.push((spec.clone(), Arc::<dyn Session>::from(session)));
    }
    let work = Work::new(opts.budget.bytes());
    few_arenas(work.light.count + work.heavy.count);
    let runtime = tokio::runtime::Runtime::new().context("starting the server")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("binding {addr}"))?;
        let local = listener.local_addr()?;
        // Where it serves, said once; a reader that has gone away stops no server.
        let mut said = format!("zermelo is serving on http://{local}/\n");
        for spec in &games {
            said += &format!("{spec}: http://{local}/?spec={}\n", query_text(spec));
        }
        let mut out = std::io::stdout();
        let _ = out.write_all(said.as_bytes()).and_then(|()| out.flush());
        let app = Arc::new(App {
            opts,
            cache: Mutex::new(Cache {
                sessions,
                limit: cache_bytes,
                offered: games,
            }),
            work,
            ended: memory_janitor(),
        });
        let router = Router::new()
            .route("/", get(|| async { Html(page()) }))
            .route("/api/games", get(|| async { Json(catalog()) }))
            .route("/api/moves", get(moves))
            .route("/api/bot", get(bot))
            .fallback(|uri: Uri| async move {
                error(StatusCode::NOT_FOUND, &format!("no such page: {}", uri.path()))
            })
            .method_not_allowed_fallback(|| async {
                error(
                    StatusCode::METHOD_NOT_ALLOWED,
                    "this path answers GET and HEAD only",
                )
            })
            .layer(DefaultBodyLimit::max(MAX_BODY))
            .with_state(app);
        accept(listener, router, Arc::new(Connections::new(open_files()))).await;
        Ok(Report {
            text: String::new(),
            json: json!({}),
        })
    })
}

/// Seconds a connection may take to send a request's head, counted from when it opened
/// or its last answer was sent: one that sends nothing, or idles between requests, is
/// closed after them (a browser opens another when it next asks).
const HEAD_SECONDS: u64 = 5;
/// The most connections one address may hold open at once; more are closed at once.
const CONNECTIONS_PER_CLIENT: usize = 64;

/// The connections open, by address, within the server's caps: at most
/// [`CONNECTIONS_PER_CLIENT`] from one address, and at most `most` in all, so that the
/// files the process may open are never all taken by idle sockets.
struct Connections {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
    most: usize,
}

/// A connection counted in [`Connections`] until dropped.
struct Held(Arc<Connections>, IpAddr);

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.0.open.lock().unwrap_or_else(|e| e.into_inner());
        open.0 -= 1;
        if let Some(n) = open.1.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.1);
            }
        }
    }
}

impl Connections {
    fn new(most: usize) -> Connections {
        Connections {
            open: Mutex::new((0, HashMap::new())),
            most,
        }
    }

    /// The connection from `client` counted, or `None` when it is over a cap.
    fn admit(self: &Arc<Self>, client: IpAddr) -> Option<Held> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let (all, by_client) = &mut *open;
        let mine = by_client.entry(client).or_insert(0);
        if *mine >= CONNECTIONS_PER_CLIENT || *all >= self.most {
            if *mine == 0 {
                by_client.remove(&client);
            }
            return None;
        }
        *mine += 1;
        *all += 1;
        Some(Held(self.clone(), client))
    }
}

/// The most connections the server keeps open: three quarters of the files the process
/// may open (the rest for its tables and data), at least 16.
fn open_files() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the limit into the struct given.
    let files = match unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } {
        0 => usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX),
        _ => 1024,
    };
    (files / 4 * 3).max(16)
}

/// Accepts connections on `listener` and serves `router` on each, within the caps of
/// `connections`, each closed when it sends no request's head for [`HEAD_SECONDS`]
/// (hyper's header read timeout, which also runs while a kept-alive connection idles).
async fn accept(listener: tokio::net::TcpListener, router: Router, connections: Arc<Connections>) {
    let mut listener = Refusals(listener);
    loop {
        // Errors (no file left to accept with) are waited out by axum's listener.
        let (io, addr) = Listener::accept(&mut listener).await;
        let Some(held) = connections.admit(addr.ip()) else {
            drop(io);
            continue;
        };
        let client = ConnectInfo(Client(addr.ip()));
        let service = TowerToHyperService::new(router.clone().layer(Extension(client)));
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(Duration::from_secs(HEAD_SECONDS));
            // A connection that fails (closed, timed out, malformed) ends; nothing to tell.
            let _ = http.serve_connection(TokioIo::new(io), service).await;
            drop(held);
        });
    }
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

/// A query that does not parse, in the server's words rather than the parser's.
fn query_error(parser: &str) -> String {
    let why = parser
        .strip_prefix("Failed to deserialize query string: ")
        .unwrap_or(parser);
    format!("a bad query: {why}")
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
        | Error::BadOption { .. }
        | Error::Unsupported(_)
        | Error::Forfeit { .. } => StatusCode::BAD_REQUEST,
        Error::Cancelled => StatusCode::SERVICE_UNAVAILABLE,
        Error::Database { .. } | Error::Io(_) | Error::Quit | Error::Conformance(_) => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}

/// The query of a request, or why it was refused.
type GameQueryResult = Result<Query<GameQuery>, axum::extract::rejection::QueryRejection>;

/// Runs `work` on a blocking thread, when a turn to work is free in its lane (`bot`: the
/// request asks for the move of a player), with the request's budget (its turn's share
/// of the memory) and a cancel flag that is set when the client goes away or the time
/// runs out. A game not yet open is opened first the same way ([`open`]).
async fn run(
    app: Arc<App>,
    client: IpAddr,
    uri: &Uri,
    query: GameQueryResult,
    bot: bool,
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
        Err(e) => return error(StatusCode::BAD_REQUEST, &query_error(&e.body_text())),
    };
    if q.spec.trim().is_empty() {
        return error(
            StatusCode::BAD_REQUEST,
            &format!(
                "give the game: {}?spec={}, or any spec `zermelo games` lists",
                uri.path(),
                zermelo::catalog::entries()[0].info.name
            ),
        );
    }
    let seconds = app.opts.budget.seconds.unwrap_or(0.0);
    let started = Instant::now();
    let mut opts = app.opts.clone();
    opts.position = Some(q.position.clone()).filter(|p| !p.trim().is_empty());
    // A table missing is looked for again by each request: a solve may save it meanwhile.
    opts.absent = Absent::default();
    // The session is found (opened, if need be) and the lane chosen before any turn.
    let cached = app.cache.lock().unwrap_or_else(|e| e.into_inner()).find(&q.spec);
    let session = match cached {
        Ok(Some(session)) => session,
        Ok(None) => match open(&app, client, &q.spec, started).await {
            Ok(session) => session,
            Err(refused) => return refused,
        },
        Err(e) => return app.refusal(&e),
    };
    let found = {
        let player = q.player.clone();
        tokio::task::spawn_blocking(move || {
            let player = bot.then(|| bot_player(session.as_ref(), player));
            let light = Work::light(session.as_ref(), player.as_deref());
            (session, light)
        })
        .await
    };
    let (session, light) = match found {
        Ok(found) => found,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    };
    let lane = if light { &app.work.light } else { &app.work.heavy };
    let turn = match lane.turn(client, seconds, started, light).await {
        Ok(turn) => turn,
        Err(busy) => return busy,
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    opts.budget = lane.budget(&app.opts.budget, &cancel);
    let app_answers = app.clone();
    let task = tokio::task::spawn_blocking(move || {
        let answer = work(session.as_ref(), &q, &opts);
        drop(session);
        app.cache.lock().unwrap_or_else(|e| e.into_inner()).trim();
        let _ = app.ended.send(());
        // The turn is given back once the work has ended, answered or not.
        drop(turn);
        answer
    });
    match finish(task, &cancel, seconds).await {
        // Work that answers an error with its document (moves too big to value) is refused.
        Ok(Ok(json)) if json.get("error").is_some() => {
            (StatusCode::UNPROCESSABLE_ENTITY, Json(json)).into_response()
        }
        Ok(Ok(json)) => Json(json).into_response(),
        Ok(Err(e)) => app_answers.refusal(&e),
        Err(refused) => refused,
    }
}

/// Opens `spec` for a request from `client` that started at `started`, and keeps it in
/// the cache: in a turn of its lane (the heavy one for a spec that reads a file), within
/// the request's budget, and outside the cache's lock, so that other requests go on
/// meanwhile. Two requests opening one spec at once both open it; the first kept is used.
async fn open(
    app: &Arc<App>,
    client: IpAddr,
    spec: &str,
    started: Instant,
) -> Result<Arc<dyn Session>, Response> {
    let seconds = app.opts.budget.seconds.unwrap_or(0.0);
    let light = !zermelo::catalog::reads_files(spec);
    let lane = if light { &app.work.light } else { &app.work.heavy };
    let turn = lane.turn(client, seconds, started, light).await?;
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let budget = lane.budget(&app.opts.budget, &cancel);
    let (app_opens, spec) = (app.clone(), spec.to_string());
    let task = tokio::task::spawn_blocking(move || {
        let opened = zermelo::catalog::open_within(&spec, &budget).map(|session| {
            let mut cache = app_opens.cache.lock().unwrap_or_else(|e| e.into_inner());
            let kept = cache.keep(&spec, Arc::from(session));
            cache.trim();
            kept
        });
        let _ = app_opens.ended.send(());
        drop(turn);
        opened
    });
    match finish(task, &cancel, seconds).await? {
        Ok(session) => Ok(session),
        Err(e) => Err(app.refusal(&e)),
    }
}

/// What `task`, work with the cancel flag `cancel` started for a request with `seconds`
/// of budget, gave: it is stopped (its flag set) a little past its time, and the request
/// answered 503 if it has not stopped a while after that.
async fn finish<T>(
    mut task: tokio::task::JoinHandle<T>,
    cancel: &AtomicBool,
    seconds: f64,
) -> Result<T, Response> {
    let failed = |e: tokio::task::JoinError| error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string());
    let budget = Duration::from_secs_f64(seconds + STOP_AFTER_SECONDS);
    if let Ok(done) = tokio::time::timeout(budget, &mut task).await {
        return done.map_err(failed);
    }
    cancel.store(true, Ordering::Relaxed);
    match tokio::time::timeout(Duration::from_secs_f64(GRACE_SECONDS), &mut task).await {
        Ok(done) => done.map_err(failed),
        Err(_) => Err(error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the request took too long and was stopped",
        )),
    }
}

/// The player a bot request asks for: `player`, else the game's first default player.
fn bot_player(session: &dyn Session, player: Option<String>) -> String {
    player.unwrap_or_else(|| session.default_players().remove(0))
}

async fn moves(
    State(app): State<Arc<App>>,
    ConnectInfo(Client(client)): ConnectInfo<Client>,
    uri: Uri,
    query: GameQueryResult,
) -> Response {
    run(app, client, &uri, query, false, |session, q, opts| {
        let mut opts = opts.clone();
        opts.all_moves = q.all;
        match session.position(&q.moves(), &opts) {
            Ok(view) => Ok(render::position(&view).json),
            // Too big to value here: the refusal, with the position and its moves unvalued
            // where they may be listed.
            Err(e @ Error::TooBig(_)) => match session.unvalued(&q.moves(), &opts) {
                Ok(view) => {
                    Ok(json!({"error": e.worded(&RequestWords), "unvalued": render::position(&view).json}))
                }
                Err(_) => Err(e),
            },
            Err(e) => Err(e),
        }
    })
    .await
}

async fn bot(
    State(app): State<Arc<App>>,
    ConnectInfo(Client(client)): ConnectInfo<Client>,
    uri: Uri,
    query: GameQueryResult,
) -> Response {
    run(app, client, &uri, query, true, |session, q, opts| {
        let player = bot_player(session, q.player.clone());
        // A search stopped by the request's time falls back on a move it says it chose so.
        let chosen = session.bot_choice(&q.moves(), &player, q.seed, opts)?;
        let mut answer =
            json!({"command": "bot", "game": session.spec(), "player": player, "move": chosen.notation});
        if let Some(note) = chosen.note {
            answer["note"] = json!(note);
        }
        Ok(answer)
    })
    .await
}

const PAGE: &str = include_str!("serve.html");

/// The page, its colours those of [`zermelo::picture::palette`] (shared with the pictures
/// and the report's charts).
fn page() -> String {
    PAGE.replace("/*PALETTE*/null", &zermelo::picture::palette::json().to_string())
}
