//! The page of `zermelo serve` in a real browser: headless Chromium, driven over WebDriver
//! by `chromedriver`, plays games by clicking the board, checks that nothing runs off a
//! phone's screen, and saves screenshots of each game at desktop and phone width (the
//! whole page) in `target/screenshots/`, or in the folder `ZERMELO_SCREENSHOTS` names:
//! `ZERMELO_SCREENSHOTS=docs/screenshots` refreshes the committed ones.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` and `scripts/test` install
//! them). Without `/usr/bin/chromedriver` the test fails, saying what to install, when
//! `ZERMELO_BROWSER=required` (as `scripts/test` runs it); otherwise it says on stderr, in
//! capitals, that it skipped the browser, and passes (issue 37, item 20).

mod common;

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use common::{zermelo, Server};

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
        // As on a phone, scrollbars take no room from the page.
        "--hide-scrollbars",
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
    click(c, count, false).await
}

/// Plays `count` moves (or until the game ends) by clicking the first clickable move, or
/// the last when `last`.
async fn click(c: &Client, count: usize, last: bool) -> String {
    let (mut played, mut status) = settled(c, None).await;
    for _ in 0..count {
        if status.starts_with("Game over") {
            break;
        }
        let moves = clickable(c).await;
        assert!(!moves.is_empty(), "no move to click: {status}");
        moves[if last { moves.len() - 1 } else { 0 }]
            .click()
            .await
            .unwrap();
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

/// Makes the page's viewport `width` × `height` CSS pixels (the window is larger by what
/// the browser draws around the page).
async fn set_viewport(c: &Client, width: u32, height: u32) {
    c.set_window_size(width, height).await.unwrap();
    let v = c
        .execute("return [window.innerWidth, window.innerHeight];", vec![])
        .await
        .unwrap();
    let (w, h) = (v[0].as_u64().unwrap() as u32, v[1].as_u64().unwrap() as u32);
    if (w, h) != (width, height) {
        c.set_window_size(2 * width - w.min(width), 2 * height - h.min(height))
            .await
            .unwrap();
    }
}

/// A screenshot of the whole page at the viewport's width: the viewport is made as tall
/// as the page for it, then set back to `height`.
async fn screenshot(c: &Client, folder: &Path, name: &str, width: u32, height: u32) {
    let tall = c
        .execute("return document.documentElement.scrollHeight;", vec![])
        .await
        .unwrap()
        .as_u64()
        .unwrap() as u32;
    set_viewport(c, width, tall.clamp(height, 4000)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    std::fs::write(folder.join(format!("{name}.png")), png).unwrap();
    set_viewport(c, width, height).await;
}

/// What runs past the right edge of the window: the page itself when it scrolls sideways,
/// and every element (text, controls, the board's shapes) whose right edge is beyond it,
/// but for the contents of a box that scrolls sideways (`.scroll`, a wide table), which
/// itself must fit.
async fn overflowing(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "const w = window.innerWidth, bad = [];
             const page = document.documentElement.scrollWidth;
             if (page > w) bad.push(`the page is ${page} px wide`);
             for (const e of document.querySelectorAll('body *')) {
               const r = e.getBoundingClientRect();
               if (r.width === 0 && r.height === 0) continue;
               // A wide table scrolls sideways in its box: the box is checked, not the table.
               const box = e.parentElement && e.parentElement.closest('.scroll');
               if (box && box.getBoundingClientRect().right <= w + 0.5) continue;
               if (r.right > w + 0.5) {
                 const what = e.id ? '#' + e.id : e.tagName.toLowerCase();
                 bad.push(`${what} (${(e.textContent || '').slice(0, 40)}) ends at ${Math.round(r.right)} px`);
               }
             }
             return bad.slice(0, 12);",
            vec![],
        )
        .await
        .unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The smallest width and height, in CSS pixels, of the shapes matching `css` on the page,
/// and how many there are (none: 0 × 0).
async fn smallest(c: &Client, css: &str) -> (f64, f64, usize) {
    let v = c
        .execute(
            "const all = [...document.querySelectorAll(arguments[0])].map((e) => e.getBoundingClientRect());
             if (all.length === 0) return [0, 0, 0];
             return [Math.min(...all.map((r) => r.width)), Math.min(...all.map((r) => r.height)), all.length];",
            vec![json!(css)],
        )
        .await
        .unwrap();
    (
        v[0].as_f64().unwrap(),
        v[1].as_f64().unwrap(),
        v[2].as_u64().unwrap() as usize,
    )
}

/// The text of the board's picture (its labels) and of the notes under it.
async fn board_text(c: &Client) -> String {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#board text')].map((t) => t.textContent).join('|')
               + '\\n' + document.getElementById('notes').textContent;",
            vec![],
        )
        .await
        .unwrap();
    v.as_str().unwrap().to_string()
}

/// Waits until the page shows an error and says what to do, without waiting on anything.
async fn stuck(c: &Client) -> (String, String) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let v = c
            .execute(
                "return [document.getElementById('board').dataset.turn || '',
                         document.getElementById('status').textContent,
                         document.getElementById('error').textContent];",
                vec![],
            )
            .await
            .unwrap();
        let (status, error) = (v[1].as_str().unwrap(), v[2].as_str().unwrap());
        if v[0] == "error" {
            assert!(!error.is_empty(), "an error is shown: {status}");
            return (status.to_string(), error.to_string());
        }
        assert!(
            Instant::now() < deadline,
            "the page does not show its error: {status}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The games played by clicking, with the number of moves the human makes in each and
/// whether the last move on the page is clicked (else the first).
const GAMES: [(&str, &str, usize, bool); 9] = [
    ("tictactoe", "spec=tictactoe&values=on", 2, false),
    ("pawns", "spec=pawns:cols=3,rows=5&values=on", 2, false),
    ("nim", "spec=nim:heaps=3/5/7&values=on", 2, true),
    ("domineering", "spec=domineering&values=on", 2, false),
    ("dots", "spec=dots:size=4&values=on", 3, false),
    ("dots5", "spec=dots:size=5&values=on", 3, false),
    ("bigpoints", "spec=bigpoints:board=1221&values=on", 2, false),
    (
        "bigpoints3",
        "spec=bigpoints:players=3&bot=mcts&values=on",
        3,
        false,
    ),
    (
        "bigpoints5",
        "spec=bigpoints:players=5&bot=mcts&values=on",
        2,
        false,
    ),
];

/// Where the screenshots go: the folder `ZERMELO_SCREENSHOTS` names (relative to the
/// repository), else `target/screenshots/`, so that a test run leaves the committed ones
/// in `docs/screenshots/` as they are.
fn screenshots_folder() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let folder = match std::env::var_os("ZERMELO_SCREENSHOTS") {
        Some(dir) => root.join(dir),
        None => root.join("target/screenshots"),
    };
    std::fs::create_dir_all(&folder).unwrap();
    folder.canonicalize().unwrap()
}

/// Whether `chromedriver` is there; without it, fails under `ZERMELO_BROWSER=required`,
/// else says on stderr that the browser was skipped.
fn browser_present() -> bool {
    if Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    let missing = format!("{CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)");
    assert!(
        std::env::var("ZERMELO_BROWSER").as_deref() != Ok("required"),
        "the browser test needs a browser: {missing}"
    );
    eprintln!("\n*** BROWSER TEST SKIPPED: {missing}; no page was tested in a browser ***\n");
    false
}

#[test]
fn the_report_page_shows_its_headings_and_plot_on_desktop_and_phone() {
    if !browser_present() {
        return;
    }
    let scratch = std::env::temp_dir().join(format!("zermelo-browser-report-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let page = scratch.join("report.html");
    let data = scratch.join("data");
    let out = common::zermelo(&[
        "--data",
        data.to_str().unwrap(),
        "report",
        "tictactoe",
        "--selfplay",
        "100",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (_driver, port) = start_chromedriver();
    let folder = screenshots_folder();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let c = connect(port, &scratch.join("profile")).await;
        c.goto(&format!("file://{}", page.display())).await.unwrap();
        assert_eq!(text(&c, "h1").await, "tictactoe");
        let mut headings = Vec::new();
        for h in c.find_all(Locator::Css("h2")).await.unwrap() {
            headings.push(h.text().await.unwrap());
        }
        for shown in [
            "First moves",
            "The swap rule",
            "Forgiveness along perfect play",
            "Certificate",
        ] {
            assert!(headings.iter().any(|h| h == shown), "{shown} in {headings:?}");
        }
        for (width, height, device) in [(1200, 900, "desktop"), (390, 844, "phone")] {
            set_viewport(&c, width, height).await;
            let (w, h, plots) = smallest(&c, "svg").await;
            assert!(
                plots >= 1 && w > 0.0 && h > 0.0,
                "{device}: the plot is drawn ({w} x {h} px)"
            );
            assert!(w <= width as f64, "{device}: the plot fits the screen ({w} px)");
            let over = overflowing(&c).await;
            assert!(over.is_empty(), "{device}: runs off the screen: {over:?}");
            screenshot(&c, &folder, &format!("report-{device}"), width, height).await;
        }
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn chromium_plays_games_by_clicking_the_page() {
    if !browser_present() {
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
        set_viewport(&c, 1200, 900).await;

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

        // An error never leaves the page waiting: a bot that cannot move says so, and
        // picking another bot goes on.
        c.goto(&format!("{base}/?spec=tictactoe&starts=bot&bot=nobody"))
            .await
            .unwrap();
        let (status, error) = stuck(&c).await;
        assert!(status.contains("could not move"), "{status}");
        assert!(error.contains("unknown player"), "{error}");
        c.execute(
            "const b = document.getElementById('bot'); b.value = 'random';
             b.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
        let (played, status) = settled(&c, None).await;
        assert!(played == 1 && status.contains("Your move (O)"), "{status}");
        // A game too big to value here still shows its board and moves, its value not
        // known here with the reason (issue 37, item 15), and the form still opens another.
        c.goto(&format!("{base}/?spec=pawns:cols=8,rows=8"))
            .await
            .unwrap();
        let (_, status) = settled(&c, None).await;
        assert!(status.contains("Your move (White)"), "{status}");
        assert!(!clickable(&c).await.is_empty(), "the moves are on the board");
        let details = c
            .execute("return document.getElementById('details').textContent;", vec![])
            .await
            .unwrap();
        let details = details.as_str().unwrap();
        assert!(
            details.contains("Value not known here") && details.contains("GiB"),
            "{details}"
        );
        c.execute(
            "const s = document.getElementById('spec'); s.value = 'nim:heaps=2/2';
             s.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
        let (_, status) = settled(&c, None).await;
        assert!(status.contains("Your move"), "{status}");

        // Dots and Boxes on 4 x 4 boxes without a book: the perfect bot cannot play it in a
        // request, so the bot is the game's own player, and the page says so.
        let (_, status) = open(&c, &base, "spec=dots:size=5").await;
        assert!(status.contains("Your move"), "{status}");
        let status = click_moves(&c, 2).await;
        let played = text(&c, "#played").await;
        assert!(
            played.matches(',').count() >= 3,
            "the bot answered twice: {played} ({status})"
        );
        let note = text(&c, "#botnote").await;
        assert!(note.contains("cannot play") && note.contains("strong"), "{note}");
        let bot = c
            .find(Locator::Id("bot"))
            .await
            .unwrap()
            .prop("value")
            .await
            .unwrap();
        assert_eq!(bot.as_deref(), Some("strong"));
        let details = text(&c, "#details").await;
        assert!(
            !details.contains(" s, more than"),
            "no estimate of the search's time: {details}"
        );

        // Domineering on 11 x 11 under a short budget: the bot's proof does not end within
        // a request, so it plays the move its search ranks first, and the page says so.
        let quick = Server::start_with(&scratch.join("quick"), &["--budget", "2"]);
        let quick_base = format!("http://{}", quick.addr);
        let (_, status) = open(&c, &quick_base, "spec=domineering:rows=11,cols=11").await;
        assert!(status.contains("Your move"), "{status}");
        click_moves(&c, 1).await;
        let played = text(&c, "#played").await;
        assert_eq!(played.matches(',').count(), 1, "the bot answered: {played}");
        let note = text(&c, "#botnote").await;
        assert!(note.contains("no proof within the time"), "{note}");
        drop(quick);
        // 8 × 8 ten dominoes in, against the perfect bot: its answer and the value of every
        // move are proved within the request's time (the value chart's early positions are
        // not, and show as gaps). A server of its own for each width, so that the chart's
        // requests of one page do not keep the other's waiting.
        for (width, height, device) in [(1200, 900, "desktop"), (390, 844, "phone")] {
            let server = Server::start_with(&scratch.join(format!("eight-{device}")), &["--budget", "2"]);
            set_viewport(&c, width, height).await;
            let query = "spec=domineering:rows=8,cols=8&moves=c3,d5,f2,a6,e7,g4,h5,e1,b1,a4&values=on";
            open(&c, &format!("http://{}", server.addr), query).await;
            let status = click(&c, 1, false).await;
            assert!(status.contains("Your move"), "{status}");
            assert!(text(&c, "#botnote").await.is_empty(), "the bot proved its move");
            let moves = c.find_all(Locator::Css("#board [data-move]")).await.unwrap();
            let valued = c
                .find_all(Locator::Css("#board .move.win, #board .move.lose"))
                .await
                .unwrap();
            assert_eq!(valued.len(), moves.len(), "a value on every move");
            screenshot(&c, &folder, &format!("domineering8-{device}"), width, height).await;
            c.goto("about:blank").await.unwrap();
        }
        set_viewport(&c, 1200, 900).await;

        // Full Big Points with 3 players against MCTS: moves are clicked on the path, the
        // hands show with their points, and the player to move is marked.
        let (_, status) = open(&c, &base, "spec=bigpoints:players=3&bot=mcts&values=on").await;
        assert!(status.contains("Your move (player 1)"), "{status}");
        let drawn = board_text(&c).await;
        for words in [
            "start",
            "stair",
            "▶ player 1",
            "player 2",
            "player 3",
            "points",
            "r+ moves the red pawn",
        ] {
            assert!(drawn.contains(words), "{words:?} on the board: {drawn}");
        }
        let status = click_moves(&c, 4).await;
        let played = text(&c, "#played").await;
        assert!(
            played.matches(',').count() >= 11,
            "4 rounds of 3 players: {played} ({status})"
        );
        assert!(text(&c, "#botnote").await.is_empty(), "the bot was MCTS as asked");

        for (width, height, device) in [(1200, 900, "desktop"), (390, 844, "phone")] {
            set_viewport(&c, width, height).await;
            for (name, query, count, last) in GAMES {
                open(&c, &base, query).await;
                let status = click(&c, count, last).await;
                let played = text(&c, "#played").await;
                assert!(!played.is_empty(), "{name}: {status}");
                let board = c.find(Locator::Id("board")).await.unwrap();
                let (_, _, w, _) = board.rectangle().await.unwrap();
                assert!(w <= width as f64, "{name}: the board fits the {device} screen");
                let over = overflowing(&c).await;
                assert!(over.is_empty(), "{name}: runs off the {device} screen: {over:?}");
                let rules = text(&c, "#rules").await;
                assert!(rules.len() > 40, "{name}: how to play it: {rules:?}");
                if name == "nim" {
                    let notes = text(&c, "#notes").await;
                    assert!(notes.contains("takes it and every token to its right"), "{notes}");
                }
                if name == "dots" {
                    // Every move has its margin written on it, not only on hover: a phone
                    // has none.
                    let moves = c.find_all(Locator::Css("#board [data-move]")).await.unwrap();
                    let marks = c.find_all(Locator::Css("#board text.mark")).await.unwrap();
                    assert_eq!(marks.len(), moves.len(), "{name}: a mark on every move");
                }
                if name == "domineering" {
                    // Proved, every move shows who wins after it in its colour (no
                    // remoteness to write on it).
                    let moves = c.find_all(Locator::Css("#board [data-move]")).await.unwrap();
                    let valued = c
                        .find_all(Locator::Css("#board .move.win, #board .move.lose"))
                        .await
                        .unwrap();
                    assert_eq!(valued.len(), moves.len(), "{name}: a value on every move");
                    // Each domino one shape over its two squares, not two cells.
                    let tiles = c.find_all(Locator::Css("#board rect.tile")).await.unwrap();
                    let moves = text(&c, "#played").await.matches(',').count() + 1;
                    assert_eq!(tiles.len(), moves, "a tile per domino placed");
                }
                if name.starts_with("bigpoints") {
                    // Every move, pawn and disc is big enough to tap, even on a phone.
                    let (w, h, n) = smallest(&c, "#board [data-move] .hit").await;
                    let over = status.starts_with("Game over");
                    assert!(
                        over || (n > 0 && w >= 24.0 && h >= 24.0),
                        "{name}: moves {w} x {h} px"
                    );
                    let (w, h, _) = smallest(&c, "#board circle.hit").await;
                    assert!(w >= 20.0 && h >= 20.0, "{name}: pawns and discs {w} x {h} px");
                }
                screenshot(&c, &folder, &format!("{name}-{device}"), width, height).await;
            }
        }

        // A game given as a graph file, as a program of any language writes one (here
        // the catalog's tic-tac-toe, written by `zermelo graph`), served from its file:
        // its text and a button per move; a move clicked, the bot answers.
        let file = scratch.join("tictactoe-graph.json");
        let written = zermelo(&["graph", "--format", "json", "tictactoe"]);
        assert!(
            written.status.success(),
            "{}",
            String::from_utf8_lossy(&written.stderr)
        );
        std::fs::write(&file, &written.stdout).unwrap();
        let spec = format!("graph:file={}", file.display());
        let served = Server::start_with(&scratch.join("data"), &["--budget", "60", "--game", &spec]);
        let (played, status) = open(&c, &format!("http://{}", served.addr), &format!("spec={spec}")).await;
        assert!(played == 0 && status.contains("Your move"), "{status}");
        assert_eq!(clickable(&c).await.len(), 9, "a button per move");
        // Without a picture, the position is text sized to fit, not a line 100 px high
        // that pushes the moves below the fold.
        let (_, _, _, high) = c
            .find(Locator::Id("board"))
            .await
            .unwrap()
            .rectangle()
            .await
            .unwrap();
        assert!(high < 120.0, "the position's text is {high} px high");
        click_moves(&c, 1).await;
        let played = text(&c, "#played").await;
        assert_eq!(
            played.matches(',').count(),
            1,
            "the human's move and the bot's: {played}"
        );
        assert_eq!(clickable(&c).await.len(), 7, "two cells are taken");
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(&scratch);
    println!("browser screenshots in {}", folder.display());
}
