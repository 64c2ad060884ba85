//! A program of your own as a player, over the line protocol of `docs/player-protocol.md`:
//! it reads the game, then for every turn its seat, the position, the legal moves and the
//! time it has, and writes its move as one line.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::external::{Mover, Turn};
use crate::Error;

/// The version of the protocol, sent first.
pub const PROTOCOL: u32 = 1;

/// How long a program may take to leave after `quit` before it is stopped.
const GRACE: Duration = Duration::from_secs(1);

/// A program started by a shell command line, asked for a move every turn; it is started
/// at its first turn and again after a forfeit that ended it.
pub struct Program {
    line: String,
    seed: u64,
    move_time: Duration,
    running: Option<Running>,
}

/// A started program: what it is told, and its output's lines as they come.
struct Running {
    child: Child,
    input: Sender<String>,
    lines: Receiver<String>,
}

impl Program {
    /// The program run by `line` (through `sh -c`) with `ZERMELO_SEED` set to `seed`,
    /// allowed `move_time` a move.
    pub fn new(line: &str, seed: u64, move_time: Duration) -> Result<Self, Error> {
        if line.trim().is_empty() {
            return Err(Error::Unsupported(
                "cmd: needs a command line, e.g. cmd:python3 examples/bots/random_bot.py".into(),
            ));
        }
        Ok(Program {
            line: line.trim().to_string(),
            seed,
            move_time,
            running: None,
        })
    }

    fn start(&self, game: &str) -> Result<Running, Error> {
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(&self.line)
            .env("ZERMELO_SEED", self.seed.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .map_err(|e| Error::Io(format!("cannot start '{}': {e}", self.line)))?;
        let (input, output) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(Error::Io(format!("cannot talk to '{}'", self.line))),
        };
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let (say, said) = channel();
        std::thread::spawn(move || write_all(input, &said));
        let running = Running {
            child,
            input: say,
            lines,
        };
        running.say(format!("protocol {PROTOCOL}\ngame {game}\n"));
        Ok(running)
    }

    /// Ends the program and forfeits for `why`.
    fn forfeit(&mut self, why: String) -> Error {
        if let Some(r) = self.running.take() {
            r.stop(Duration::ZERO);
        }
        Error::forfeit(self.name(), why)
    }
}

impl Running {
    /// Sends `text`; a program that stopped reading is found when its answer does not come.
    fn say(&self, text: String) {
        let _ = self.input.send(text);
    }

    /// Says `quit`, waits up to `grace` for the program to leave, then stops it and every
    /// process it started.
    fn stop(mut self, grace: Duration) {
        self.say("quit\n".into());
        drop(self.input);
        exit(&mut self.child, grace);
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) on the process group the program leads; no memory is touched.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
        }
        let _ = self.child.wait();
    }
}

impl Mover for Program {
    fn name(&self) -> String {
        format!("cmd:{}", self.line)
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<String, Error> {
        if self.running.is_none() {
            self.running = Some(self.start(turn.game)?);
        }
        let running = self.running.as_mut().expect("started above");
        while running.lines.try_recv().is_ok() {}
        running.say(format!(
            "seat {} {}\nposition {}\nmoves {}\ngo {}\n",
            turn.seat,
            turn.to_move,
            turn.position,
            turn.moves.join(" "),
            self.move_time.as_millis()
        ));
        let until = Instant::now() + self.move_time;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match running.lines.recv_timeout(left) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => return Ok(line.trim().to_string()),
                Err(RecvTimeoutError::Timeout) => {
                    let why = format!("no move within {} s", self.move_time.as_secs_f64());
                    return Err(self.forfeit(why));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let why = match exit(&mut running.child, GRACE) {
                        Some(status) => format!("the program ended ({status})"),
                        None => "the program closed its output".to_string(),
                    };
                    return Err(self.forfeit(why));
                }
            }
        }
    }
}

/// How `child` ended, waiting up to `grace` for it; `None` while it runs.
fn exit(child: &mut Child, grace: Duration) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + grace;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
            _ => return None,
        }
    }
}

/// Writes what `said` receives to a program's input, in a thread of its own: a program that
/// does not read never holds up the game, and one that has ended raises no `SIGPIPE` in the
/// process (the signal is blocked in this thread, where the failed write raises it, and is
/// dropped with it). Closes the input when `said` closes.
fn write_all(mut input: ChildStdin, said: &Receiver<String>) {
    // SAFETY: changes only this thread's signal mask, through a set built by sigemptyset.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
    for text in said {
        if input
            .write_all(text.as_bytes())
            .and_then(|()| input.flush())
            .is_err()
        {
            break;
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop(GRACE);
        }
    }
}
