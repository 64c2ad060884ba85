//! A program of your own as a player, over the line protocol of `docs/player-protocol.md`:
//! it reads the game, then for every turn its seat, the position, the legal moves and the
//! time it has, and writes its move as one line.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::external::{Mover, Turn};
use super::groups;
use crate::Error;

/// The version of the protocol, sent first.
pub const PROTOCOL: u32 = 1;

/// The longest line a program may write, newline excluded: a longer one forfeits at once.
pub const MAX_LINE: usize = 64 * 1024;

/// How long a program may take to leave after `quit` before it is stopped.
const GRACE: Duration = Duration::from_secs(1);

/// How often a wait for a move looks whether the program ended or the work was stopped.
const TICK: Duration = Duration::from_millis(50);

/// Lines read ahead of the game: a program that writes more waits until they are read.
const QUEUED_LINES: usize = 64;

/// A program started by a shell command line, asked for a move every turn; it is started
/// at its first turn and again after a forfeit that ended it.
pub struct Program {
    line: String,
    seed: u64,
    move_time: Duration,
    cancel: Option<Arc<AtomicBool>>,
    running: Option<Running>,
}

/// A started program: what it is told, and its output's lines as they come.
struct Running {
    child: Child,
    input: Sender<String>,
    lines: Receiver<Said>,
}

/// What a program wrote: a line, or more than [`MAX_LINE`] bytes without a newline.
enum Said {
    Line(String),
    TooLong,
}

impl Program {
    /// The program run by `line` (through `sh -c`) with `ZERMELO_SEED` set to `seed`,
    /// allowed `move_time` a move; a wait for its move ends at once when `cancel` is set.
    pub fn new(
        line: &str,
        seed: u64,
        move_time: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Self, Error> {
        if line.trim().is_empty() {
            return Err(Error::Unsupported(
                "cmd: needs a command line, e.g. cmd:python3 examples/bots/random_bot.py".into(),
            ));
        }
        Ok(Program {
            line: line.trim().to_string(),
            seed,
            move_time,
            cancel,
            running: None,
        })
    }

    /// Starts the program in a process group of its own, which [`groups`] stops with
    /// zermelo, under a [`guard`] that stops the group when zermelo dies. Its standard
    /// error is copied to zermelo's, so that nothing it leaves behind holds zermelo's open.
    fn start(&self, game: &str) -> Result<Running, Error> {
        let parent = std::process::id() as libc::pid_t;
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg(&self.line)
            .env("ZERMELO_SEED", self.seed.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        // SAFETY: between fork and exec the child only forks and, as the guard, makes
        // async-signal-safe calls until it exits.
        unsafe {
            command.pre_exec(move || match libc::fork() {
                -1 => Err(std::io::Error::last_os_error()),
                0 => Ok(()),
                program => guard(program, parent),
            });
        }
        let mut child = groups::spawn(&mut command)
            .map_err(|e| Error::Io(format!("cannot start '{}': {e}", self.line)))?;
        let (input, output, errors) = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(i), Some(o), Some(e)) => (i, o, e),
            _ => return Err(Error::Io(format!("cannot talk to '{}'", self.line))),
        };
        let (send, lines) = sync_channel(QUEUED_LINES);
        std::thread::spawn(move || read_lines(output, &send));
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut { errors }, &mut std::io::stderr());
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
        groups::stop(&mut self.child);
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
        let cancelled = || self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
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
        let why = loop {
            if cancelled() {
                if let Some(r) = self.running.take() {
                    r.stop(Duration::ZERO);
                }
                return Err(Error::Cancelled);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break format!("no move within {} s", self.move_time.as_secs_f64());
            }
            match running.lines.recv_timeout(left.min(TICK)) {
                Ok(Said::Line(line)) if line.trim().is_empty() => continue,
                Ok(Said::Line(line)) => return Ok(line.trim().to_string()),
                Ok(Said::TooLong) => {
                    break format!("wrote a line of more than {} KiB", MAX_LINE >> 10);
                }
                Err(RecvTimeoutError::Timeout) => {
                    // A program that ended while something it started holds its output
                    // open ended all the same.
                    if let Ok(Some(status)) = running.child.try_wait() {
                        match running.lines.recv_timeout(TICK) {
                            Ok(Said::Line(line)) if !line.trim().is_empty() => {
                                return Ok(line.trim().to_string())
                            }
                            _ => break format!("the program ended ({status})"),
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    break match exit(&mut running.child, GRACE) {
                        Some(status) => format!("the program ended ({status})"),
                        None => "the program closed its output".to_string(),
                    };
                }
            }
        };
        Err(self.forfeit(why))
    }
}

/// The first process of a program's group, which zermelo started: it waits for the
/// `program` (the command line, forked from it), then ends as the program did. Told by
/// the system when zermelo (`parent`) dies, however it died, it kills the whole group.
///
/// # Safety
/// Called between fork and exec: it only makes async-signal-safe calls.
unsafe fn guard(program: libc::pid_t, parent: libc::pid_t) -> ! {
    extern "C" fn orphaned(_: libc::c_int) {
        // SAFETY: kill(2) on this process's own group.
        unsafe { libc::kill(0, libc::SIGKILL) };
    }
    for sig in [libc::SIGINT, libc::SIGHUP, libc::SIGQUIT] {
        libc::signal(sig, libc::SIG_DFL);
    }
    libc::signal(libc::SIGTERM, orphaned as *const () as libc::sighandler_t);
    // The program's pipes and the one std's spawn waits on stay with the program alone.
    #[cfg(target_os = "linux")]
    let closed = libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) == 0;
    #[cfg(not(target_os = "linux"))]
    let closed = false;
    if !closed {
        let mut open = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut open);
        for fd in 0..open.rlim_cur.min(1 << 16) as libc::c_int {
            libc::close(fd);
        }
    }
    // Told when zermelo dies (on Linux; elsewhere the group lives on after a SIGKILL).
    #[cfg(target_os = "linux")]
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
    if libc::getppid() != parent {
        orphaned(libc::SIGTERM);
    }
    let mut status = 0;
    loop {
        match libc::waitpid(program, &mut status, 0) {
            found if found == program => break,
            -1 if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => continue,
            _ => libc::_exit(1),
        }
    }
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        libc::signal(sig, libc::SIG_DFL);
        libc::kill(libc::getpid(), sig);
        libc::_exit(128 + sig);
    }
    libc::_exit(libc::WEXITSTATUS(status))
}

/// Stops every program started and still running, with every process it started: for a
/// front end about to end the process.
pub fn stop_programs() {
    groups::stop_all();
}

/// Sends the lines of a program's `output` as they come, each at most [`MAX_LINE`]
/// bytes (invalid UTF-8 replaced): a longer one is sent as [`Said::TooLong`] and ends the
/// reading, so that a program never makes zermelo hold more than one line of its output.
fn read_lines(output: ChildStdout, send: &std::sync::mpsc::SyncSender<Said>) {
    let mut output = BufReader::new(output);
    loop {
        let mut line = Vec::new();
        let read = (&mut output)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) if line.last() == Some(&b'\n') || line.len() <= MAX_LINE => {
                let text = String::from_utf8_lossy(&line).into_owned();
                if send.send(Said::Line(text)).is_err() {
                    return;
                }
            }
            Ok(_) => {
                let _ = send.send(Said::TooLong);
                return;
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
