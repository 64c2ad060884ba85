//! The `zermelo` program: the command line of [`zermelo_cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    // Output piped into a program that stops reading (`| head`) ends the process quietly,
    // as with other command-line tools, instead of failing to print.
    #[cfg(unix)]
    // SAFETY: restores a signal's default action before any other thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    ExitCode::from(zermelo_cli::main_with(std::env::args_os()))
}
