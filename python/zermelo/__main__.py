"""`python -m zermelo ...`: the `zermelo` command line, run by the package's native code."""

import signal
import sys

from zermelo._native import cli


def main() -> int:
    """Runs the command line as the `zermelo` program does and returns its exit status."""
    # As that program: output piped into a reader that stops reading (`| head`) ends the
    # process quietly, and Ctrl-C ends it (a long solve first stops cleanly, by its own
    # handler) unless the process was started with Ctrl-C ignored.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    return cli(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
