"""`python -m zermelo`: the `zermelo` program's command line, with the same output."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "zermelo"


def run(program, args, data):
    """The exit status, stdout and stderr of `program` run with `args`, times left out."""
    out = subprocess.run([*program, "--data", str(data), *args], capture_output=True, text=True)
    return out.returncode, re.sub(r"\d+\.\d+ s\)", "TIME s)", out.stdout), out.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "tictactoe"],
        ["moves", "nim:heaps=1/2/3"],
        ["solve", "tictactoe", "--solver", "nope"],
        ["solve"],
        ["--version"],
    ],
    ids=" ".join,
)
def test_python_m_zermelo_is_the_zermelo_program(args, tmp_path):
    module = run([sys.executable, "-m", "zermelo"], args, tmp_path / "module")
    binary = run([str(BINARY)], args, tmp_path / "binary")
    assert module == binary


def test_python_m_zermelo_json_is_the_zermelo_programs(tmp_path):
    args = ["--json", "solve", "tictactoe"]
    module = run([sys.executable, "-m", "zermelo"], args, tmp_path / "module")
    binary = run([str(BINARY)], args, tmp_path / "binary")
    documents = [json.loads(stdout) for _, stdout, _ in (module, binary)]
    for document in documents:
        assert document.pop("seconds") >= 0
    assert documents[0] == documents[1]


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE here")
def test_a_reader_that_stops_ends_it_quietly(tmp_path):
    """Output piped into a reader gone (`| head`) stops it by SIGPIPE, as the program: no
    traceback, no panic."""
    module = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "--data", str(tmp_path), "graph", "tictactoe"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    module.stdout.close()
    assert module.wait() == -signal.SIGPIPE
    assert module.stderr.read() == b""


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="Ctrl-C is no signal here")
def test_ctrl_c_is_python_s_again_after_a_command_run_in_python(tmp_path):
    """A solve stops cleanly on Ctrl-C by a handler of its own, gone when it returns."""
    from zermelo._native import cli

    # Python's own handler, even where this process was started with Ctrl-C ignored.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert cli(["--data", str(tmp_path), "solve", "tictactoe", "--no-save"]) == 0
        with pytest.raises(KeyboardInterrupt):
            # To the main thread, whose sleep it then ends: sent to the process, the signal
            # may land on one of the solver's threads, seen by Python only after the sleep.
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            time.sleep(5)
    finally:
        signal.signal(signal.SIGINT, before)
