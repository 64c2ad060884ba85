"""The value of an OpenSpiel game's start by zermelo's search (`open(search=True)`,
`solve(strong=False)`, then with `remoteness=True`) against OpenSpiel's own `minimax.alpha_beta_search`, both
in-process, each in a fresh process so that peak memory is its own (BENCHMARKS.md).

    .venv/bin/python python/benches/search.py [GAME ...]
"""

import resource
import subprocess
import sys
import time

GAMES = [
    "tic_tac_toe",
    "hex(board_size=3)",
    "breakthrough(rows=5,columns=3)",
    "clobber(rows=4,columns=4)",
    "connect_four(rows=4,columns=5)",
]

ONE = """
import resource, sys, time
import pyspiel
import zermelo
from open_spiel.python.algorithms import minimax
game = pyspiel.load_game(sys.argv[2])
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if sys.argv[1].startswith("zermelo"):
    solved = zermelo.open(game, search=True).solve(strong=False, remoteness=sys.argv[1] == "zermelo+remoteness")
    value = {"win": 1, "draw": 0, "lose": -1}[solved.value]
    extra = f"remoteness {solved.remoteness}, {solved.positions:,} positions searched"
else:
    value, _ = minimax.alpha_beta_search(game)
    extra = ""
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{value:+.0f}|{seconds:.2f}|{peak / 1024:.0f}|{(peak - base) / 1024:.0f}|{extra}")
"""


def main():
    for name in sys.argv[1:] or GAMES:
        row = {}
        for who in ("zermelo", "zermelo+remoteness", "openspiel"):
            out = subprocess.run([sys.executable, "-c", ONE, who, name], capture_output=True, text=True, check=True)
            row[who] = out.stdout.strip().split("|")
        z, r, o = row["zermelo"], row["zermelo+remoteness"], row["openspiel"]
        print(
            f"{name}: first player {z[0]} (zermelo) / {o[0]} (OpenSpiel); zermelo {z[1]} s, peak {z[2]} MiB "
            f"(+{z[3]} MiB, {z[4]}); with the remoteness {r[1]} s, peak {r[2]} MiB ({r[4]}); "
            f"OpenSpiel alpha_beta_search {o[1]} s, peak {o[2]} MiB (+{o[3]} MiB); {float(o[1]) / max(float(z[1]), 1e-3):.1f}x"
        )


if __name__ == "__main__":
    main()
