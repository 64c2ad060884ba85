#!/usr/bin/env python3
"""What Python costs: a player of your own per move (a Python function in the process,
and a program over the player protocol), and a solve from Python beside the same solve
from the command line. Run with the package installed (scripts/test makes .venv):

    .venv/bin/python scripts/bench_python.py
"""

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zermelo

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "target" / "release" / "zermelo"
GAMES = 200
# Every game of Dots and Boxes on 4 × 4 dots has exactly 24 moves, one per line.
SPEC, MOVES = "dots:size=4", 24


def best_of(runs, work):
    """The fastest of `runs` timings of `work`, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def per_move():
    game = zermelo.open(SPEC)
    pick = random.Random(1).choice

    def function(position, moves):
        return pick(moves)

    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
    base = best_of(3, lambda: game.tournament(["random", "random"], GAMES, progress=False))
    moves = GAMES * MOVES
    print(f"{SPEC}, {GAMES} games of {MOVES} moves, random against random: {base:.3f} s")
    for label, player in (("Python function", function), ("program (player protocol)", bot)):
        took = best_of(3, lambda: game.tournament([player, player], GAMES, progress=False))
        print(f"{label:27} {took:.3f} s, {1e6 * (took - base) / moves:.1f} µs a move more than `random`")


def solve_speed(spec):
    with tempfile.TemporaryDirectory() as data:
        game = zermelo.open(spec, data)
        py = best_of(3, lambda: game.solve(force=True, save=False, progress=False))
        cmd = [str(CLI), "--data", data, "solve", spec, "--force", "--no-save"]
        cli = best_of(3, lambda: subprocess.run(cmd, check=True, capture_output=True))
        print(f"solve {spec}: Python {py:.3f} s, command line {cli:.3f} s (process start included)")


if __name__ == "__main__":
    per_move()
    for spec in ("pawns:cols=5,rows=8", "mnk:m=5,n=5,k=4", "dots:size=4"):
        solve_speed(spec)
