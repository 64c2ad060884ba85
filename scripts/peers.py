"""What the side-by-side scripts (`connect4_peers.py`, `domineering_peers.py`) share."""

import subprocess
import tempfile
import time


def timed(command, stdin=None):
    """Runs `command` under `/usr/bin/time`: its output, wall seconds, peak memory in MiB."""
    with tempfile.NamedTemporaryFile("r") as report:
        timer = ["/usr/bin/time", "-o", report.name, "-f", "%M"]
        started = time.perf_counter()
        done = subprocess.run(timer + command, input=stdin, capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - started
        kib = report.read().split()[-1]
    return done.stdout, seconds, int(kib) / 1024
