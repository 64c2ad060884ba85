"""`python -m zermelo ...`: the `zermelo` command line, run by the package's native code,
where a game may also be one Python opens: `openspiel:NAME(...)`, or a game of your own by
its import path (`my_games:Race`, `path/games.py:Race`)."""

import signal
import sys
from typing import List, Optional

from zermelo._imported import is_import_path
from zermelo._native import cli
from zermelo._openspiel import PREFIX


def data_option(argv: List[str]) -> Optional[str]:
    """The folder `--data D` (or `--data=D`) names, if given."""
    for i, arg in enumerate(argv):
        if arg == "--data" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--data="):
            return arg[len("--data=") :]
    return None


def with_python_games(argv: List[str]) -> List[str]:
    """`argv` with each game only Python opens opened (explored, or read from the data
    folder) and named by the spec the command line opens it by."""
    from zermelo import open as open_game

    data = data_option(argv)
    return [open_game(arg, data).spec if arg.startswith(PREFIX) or is_import_path(arg) else arg for arg in argv]


def main() -> int:
    """Runs the command line as the `zermelo` program does and returns its exit status."""
    # As that program: output piped into a reader that stops reading (`| head`) ends the
    # process quietly, and Ctrl-C ends it (a long solve first stops cleanly, by its own
    # handler) unless the process was started with Ctrl-C ignored.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        argv = with_python_games(sys.argv[1:])
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return cli(argv)


if __name__ == "__main__":
    sys.exit(main())
