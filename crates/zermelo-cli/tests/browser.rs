//! The page of `zermelo serve` in a real browser: headless Chromium, driven over WebDriver
//! by `chromedriver`, plays games by clicking the board and saves screenshots of each
//! game at desktop and phone width under `target/screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); without
//! `/usr/bin/chromedriver` the test says so and passes.

mod common;

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use common::Server;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long the page may take to answer one click (its bot moves included).
const PATIENCE: Duration = Duration::from_secs(60);

/// A child process leading its own process group, killed with the whole group when
/// dropped (so the browsers it started go too, even when the test fails).
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        // SAFETY: kill(2) on our own child's process group; no memory is involved.
        unsafe { libc::kill(-(self.0.id() as i32), libc::SIGKILL) };
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `chromedriver` on a free loopback port, once it accepts connections.
fn start_chromedriver() -> (Process, u16) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Process(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver does not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    (driver, port)
}

async fn connect(port: u16, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let capabilities = json!({"goog:chromeOptions": {"binary": CHROMIUM, "args": args}});
    let Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session")
}

async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css)).await.unwrap().text().await.unwrap()
}

/// The page's state: whether it waits for the human (or the game is over), how many
/// moves were played, the status line and the error line.
async fn page_state(c: &Client) -> (bool, usize, String, String) {
    let v = c
        .execute(
            "const b = document.getElementById('board');
             return [b.dataset.turn || '', b.dataset.played || '0',
                     document.getElementById('status').textContent,
                     document.getElementById('error').textContent];",
            vec![],
        )
        .await
        .unwrap();
    (
        v[0] == "ready",
        v[1].as_str().unwrap().parse().unwrap(),
        v[2].as_str().unwrap().to_string(),
        v[3].as_str().unwrap().to_string(),
    )
}

/// Waits until the page waits for the human with more than `after` moves played.
async fn settled(c: &Client, after: Option<usize>) -> (usize, String) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (ready, played, status, error) = page_state(c).await;
        assert!(error.is_empty(), "the page shows an error: {error}");
        if ready && after.is_none_or(|n| played > n) {
            return (played, status);
        }
        assert!(Instant::now() < deadline, "the page does not settle: {status}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn open(c: &Client, base: &str, query: &str) -> (usize, String) {
    c.goto(&format!("{base}/?{query}")).await.unwrap();
    settled(c, None).await
}

/// The moves the human can click: shapes on the board, else the move buttons.
async fn clickable(c: &Client) -> Vec<Element> {
    let on_board = c.find_all(Locator::Css("#board [data-move]")).await.unwrap();
    if !on_board.is_empty() {
        return on_board;
    }
    c.find_all(Locator::Css("#moves [data-move]")).await.unwrap()
}

/// The value class (`win`, `lose`, `draw`, `unknown`) of a clickable move.
async fn value_of(e: &Element) -> String {
    let class = e.attr("class").await.unwrap().unwrap_or_default();
    let words: Vec<&str> = class.split_whitespace().collect();
    assert!(words.contains(&"move"), "class {class:?}");
    ["win", "lose", "draw", "unknown"]
        .into_iter()
        .find(|v| words.contains(v))
        .unwrap_or_else(|| panic!("no value in class {class:?}"))
        .to_string()
}

/// Plays `count` moves (or until the game ends) by clicking the first clickable move.
async fn click_moves(c: &Client, count: usize) -> String {
    let (mut played, mut status) = settled(c, None).await;
    for _ in 0..count {
        if status.starts_with("Game over") {
            break;
        }
        let moves = clickable(c).await;
        assert!(!moves.is_empty(), "no move to click: {status}");
        moves[0].click().await.unwrap();
        (played, status) = settled(c, Some(played)).await;
    }
    status
}

/// Plays tic-tac-toe to the end against the perfect bot with the values shown, always
/// clicking a move of value `prefer` when there is one; returns the final status.
async fn play_tictactoe(c: &Client, base: &str, prefer: &str) -> String {
    let (mut played, mut status) = open(c, base, "spec=tictactoe&values=on").await;
    assert!(status.contains("Your move"), "{status}");
    // Pointing at a move tells its value.
    let hover = c
        .execute(
            "document.querySelector('#board [data-move]')
               .dispatchEvent(new PointerEvent('pointerover', {bubbles: true}));
             return document.getElementById('hover').textContent;",
            vec![],
        )
        .await
        .unwrap();
    assert!(hover.as_str().unwrap().contains(": draw"), "{hover}");
    while !status.starts_with("Game over") {
        let moves = c.find_all(Locator::Css("#board [data-move]")).await.unwrap();
        assert!(!moves.is_empty(), "tic-tac-toe draws its cells");
        let mut values = Vec::new();
        for m in &moves {
            values.push(value_of(m).await);
        }
        assert!(
            !values.iter().any(|v| v == "win" || v == "unknown"),
            "against the perfect bot no move wins: {values:?}"
        );
        let pick = values.iter().position(|v| v == prefer).unwrap_or(0);
        moves[pick].click().await.unwrap();
        (played, status) = settled(c, Some(played)).await;
    }
    assert!(played >= 5, "{played} moves");
    // The value history has a point for the start and one after every move.
    let deadline = Instant::now() + PATIENCE;
    loop {
        let points = c.find_all(Locator::Css("#chart .point")).await.unwrap().len();
        if points == played + 1 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{points} points in the value history after {played} moves"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    status
}

async fn screenshot(c: &Client, folder: &Path, name: &str) {
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    std::fs::write(folder.join(format!("{name}.png")), png).unwrap();
}

/// The games played by clicking, with the number of moves the human makes in each.
const GAMES: [(&str, &str, usize); 5] = [
    ("tictactoe", "spec=tictactoe&values=on", 2),
    ("pawns", "spec=pawns:cols=3,rows=5&values=on", 2),
    ("nim", "spec=nim:heaps=3/4/5&values=on", 2),
    ("dots", "spec=dots:size=4&values=on", 3),
    ("bigpoints", "spec=bigpoints:board=1221&values=on", 2),
];

fn screenshots_folder() -> PathBuf {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&folder).unwrap();
    folder.canonicalize().unwrap()
}

#[test]
fn chromium_plays_games_by_clicking_the_page() {
    if !Path::new(CHROMEDRIVER).exists() {
        println!(
            "browser test skipped: {CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)"
        );
        return;
    }
    let scratch = std::env::temp_dir().join(format!("zermelo-browser-{}", std::process::id()));
    // A budget that a loaded machine meets: this test is about the page, not the budget.
    let server = Server::start_with(&scratch.join("data"), &["--budget", "60"]);
    let base = format!("http://{}", server.addr);
    let (_driver, port) = start_chromedriver();
    let folder = screenshots_folder();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let c = connect(port, &scratch.join("profile")).await;
        c.set_window_size(1200, 900).await.unwrap();

        // A whole game against the perfect bot: the human keeps the draw, then loses.
        let status = play_tictactoe(&c, &base, "draw").await;
        assert!(
            status.starts_with("Game over") && status.to_lowercase().contains("draw"),
            "perfect play on both sides draws: {status}"
        );
        let status = play_tictactoe(&c, &base, "lose").await;
        assert!(status.starts_with("Game over: O wins"), "{status}");

        // The address restores the game; undo takes back the human's move and the bot's.
        let url = c.current_url().await.unwrap().to_string();
        assert!(url.contains("moves="), "{url}");
        let (played, status) = open(&c, &base, url.split_once('?').unwrap().1).await;
        assert!(status.starts_with("Game over: O wins"), "{status}");
        c.find(Locator::Id("undo")).await.unwrap().click().await.unwrap();
        let (after_undo, status) = settled(&c, None).await;
        assert!(after_undo < played && status.contains("Your move"), "{status}");
        c.find(Locator::Id("redo")).await.unwrap().click().await.unwrap();
        let deadline = Instant::now() + PATIENCE;
        while settled(&c, None).await.0 != played {
            assert!(Instant::now() < deadline, "redo does not come back");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        // The bot's strength and who starts are choices of the page.
        let strengths = c.find_all(Locator::Css("#bot option")).await.unwrap();
        let mut names = Vec::new();
        for o in strengths {
            names.push(o.attr("value").await.unwrap().unwrap_or_default());
        }
        assert!(
            names.iter().any(|n| n == "perfect:0.75"),
            "bot strengths {names:?}"
        );
        let (_, status) = open(&c, &base, "spec=tictactoe&starts=bot&bot=random").await;
        assert!(status.contains("Your move (O)"), "{status}");
        assert_eq!(text(&c, "#played").await.matches(',').count(), 0);

        // An address opens a game at a position (X in a corner, O in the centre, X to
        // move), and keeps it as the game goes on.
        let (played, status) = open(&c, &base, "spec=tictactoe&position=x../.o./...").await;
        assert!(played == 0 && status.contains("Your move (X)"), "{status}");
        assert_eq!(clickable(&c).await.len(), 7, "two cells are taken");
        click_moves(&c, 1).await;
        assert_eq!(clickable(&c).await.len(), 5, "the human's move and the bot's");
        let url = c.current_url().await.unwrap().to_string();
        assert!(url.contains("position=x../.o./..."), "{url}");

        for (width, height, device) in [(1200, 900, "desktop"), (390, 844, "phone")] {
            c.set_window_size(width, height).await.unwrap();
            for (name, query, count) in GAMES {
                open(&c, &base, query).await;
                let status = click_moves(&c, count).await;
                let played = text(&c, "#played").await;
                assert!(!played.is_empty(), "{name}: {status}");
                let board = c.find(Locator::Id("board")).await.unwrap();
                let (_, _, w, _) = board.rectangle().await.unwrap();
                assert!(w <= width as f64, "{name}: the board fits the {device} screen");
                screenshot(&c, &folder, &format!("{name}-{device}")).await;
            }
        }
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(&scratch);
    println!("browser screenshots in {}", folder.display());
}
