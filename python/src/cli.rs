//! The command line in the package: `python -m zermelo ...` runs the code of the `zermelo`
//! program, in this process.

use std::ffi::OsString;

use pyo3::prelude::*;

/// Runs the `zermelo` command line with the arguments `argv` (without the program's name),
/// as the `zermelo` program does: the report on stdout, errors on stderr. Returns the exit
/// status: 0 done, 1 failed, 2 a refused command line.
#[pyfunction]
pub fn cli(py: Python<'_>, argv: Vec<String>) -> PyResult<i32> {
    // What Python printed before comes first.
    for stream in ["stdout", "stderr"] {
        py.import("sys")?.getattr(stream)?.call_method0("flush")?;
    }
    let args = std::iter::once("zermelo".to_owned())
        .chain(argv)
        .map(OsString::from);
    let status = {
        let _sigint = KeptSigint::new();
        py.detach(|| zermelo_cli::main_with(args))
    };
    // A Ctrl-C that Python's handler caught meanwhile raises KeyboardInterrupt now.
    py.check_signals()?;
    Ok(status.into())
}

/// The process's Ctrl-C handler, put back when dropped: a long command replaces it with its
/// own (stopping cleanly), which must not outlive the command in a Python program.
#[cfg(unix)]
struct KeptSigint(libc::sigaction);

#[cfg(unix)]
impl KeptSigint {
    fn new() -> Self {
        // SAFETY: reads the current action into a zeroed `sigaction`, a plain C struct.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGINT, std::ptr::null(), &mut action);
            Self(action)
        }
    }
}

#[cfg(unix)]
impl Drop for KeptSigint {
    fn drop(&mut self) {
        // SAFETY: installs an action read from the system before.
        unsafe {
            libc::sigaction(libc::SIGINT, &self.0, std::ptr::null_mut());
        }
    }
}

/// Nothing to keep where Ctrl-C is not a signal handler's.
#[cfg(not(unix))]
struct KeptSigint;

#[cfg(not(unix))]
impl KeptSigint {
    fn new() -> Self {
        Self
    }
}
