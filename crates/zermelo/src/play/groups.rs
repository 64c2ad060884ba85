//! The process groups of running player programs, stopped with zermelo: when zermelo is
//! told to end (`SIGTERM`, or `SIGHUP` when its terminal closes), every group is killed
//! before the signal does what it did before (ends zermelo, or runs the handler that was
//! there). Each program also dies with the thread that started it, even after `SIGKILL`
//! ([`super::command`] asks for that).

use std::io;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// The signals that stop every group first.
const SIGNALS: [libc::c_int; 2] = [libc::SIGTERM, libc::SIGHUP];

/// How many groups are known at once; more run, but only these are stopped by a signal.
const SLOTS: usize = 256;

/// The groups running, by their leader's pid (0: a free slot).
static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

/// The actions [`SIGNALS`] had before, installed once.
static PREVIOUS: OnceLock<[libc::sigaction; 2]> = OnceLock::new();

/// Starts `command`, which must start a process group of its own, and keeps its group
/// to stop.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    PREVIOUS.get_or_init(install);
    let child = command.spawn()?;
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = GROUPS.iter().any(|g| {
            g.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
    }
    Ok(child)
}

/// Kills the group `child` leads, forgets it, and waits for `child`.
pub fn stop(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) on the process group the program leads; no memory is touched.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
        for g in &GROUPS {
            let _ = g.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }
    let _ = child.wait();
}

/// Puts [`on_signal`] on every signal of [`SIGNALS`] that is not ignored: the actions
/// there before.
fn install() -> [libc::sigaction; 2] {
    // SAFETY: sigaction(2) with zeroed C structs filled here; the handler only calls
    // async-signal-safe functions.
    unsafe {
        let mut previous: [libc::sigaction; 2] = std::mem::zeroed();
        for (sig, before) in SIGNALS.iter().zip(previous.iter_mut()) {
            libc::sigaction(*sig, std::ptr::null(), before);
            if before.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(*sig, &action, std::ptr::null_mut());
        }
        previous
    }
}

/// Kills every group known (async-signal-safe: only kill(2)).
pub fn stop_all() {
    for g in &GROUPS {
        let pid = g.load(Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: kill(2) on a process group a program leads; no memory is touched.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
        }
    }
}

/// Kills every group, then does what `sig` did before.
extern "C" fn on_signal(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    stop_all();
    let before = PREVIOUS
        .get()
        .and_then(|p| SIGNALS.iter().position(|&s| s == sig).map(|i| p[i]));
    // SAFETY: the handler before was installed by sigaction(2) with these flags, so it has
    // the signature called; signal(2) and raise(2) are async-signal-safe.
    unsafe {
        match before {
            Some(b) if b.sa_sigaction != libc::SIG_DFL && b.sa_sigaction != libc::SIG_IGN => {
                if b.sa_flags & libc::SA_SIGINFO != 0 {
                    let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                        std::mem::transmute(b.sa_sigaction);
                    handler(sig, info, context);
                } else {
                    let handler: extern "C" fn(libc::c_int) = std::mem::transmute(b.sa_sigaction);
                    handler(sig);
                }
            }
            _ => {
                libc::signal(sig, libc::SIG_DFL);
                libc::raise(sig);
            }
        }
    }
}
