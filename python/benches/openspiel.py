"""OpenSpiel games solved by zermelo against OpenSpiel's own exact Python algorithms
(`minimax.alpha_beta_search`, which values the start only, and `expectiminimax`, the whole
tree), side by side (BENCHMARKS.md).

    .venv/bin/python python/benches/openspiel.py [SECONDS]

OpenSpiel's alpha-beta on connect four 4x5 runs in a process of its own, stopped after
SECONDS (default 300)."""

import subprocess
import sys
import time

import pyspiel
from open_spiel.python.algorithms import minimax

import zermelo

C4 = "connect_four(rows=4,columns=5)"


def timed(work):
    start = time.perf_counter()
    answer = work()
    return answer, time.perf_counter() - start


def ours(name):
    """zermelo's solve of an OpenSpiel game (exploring it included): its value and positions."""
    solved, seconds = timed(lambda: zermelo.open(pyspiel.load_game(name)).solve(progress=False, save=False))
    return f"zermelo: {solved.value} for the first player, {int(solved.positions):,} positions, {seconds:.2f} s"


def main():
    limit = float(sys.argv[1]) if len(sys.argv) > 1 else 300.0
    spiel = pyspiel.load_game("tic_tac_toe")
    print("tic_tac_toe:", ours("tic_tac_toe"))
    (ab, _), ab_s = timed(lambda: minimax.alpha_beta_search(spiel))
    print(f"  OpenSpiel alpha_beta_search (the start only): {ab} in {ab_s:.2f} s")
    tree, tree_s = timed(lambda: minimax.expectiminimax(spiel.new_initial_state(), 9, None, 0))
    print(f"  OpenSpiel expectiminimax (the whole tree): {tree[0]} in {tree_s:.2f} s")
    print(f"{C4}:", ours(C4))
    code = f"import pyspiel; from open_spiel.python.algorithms import minimax; print(minimax.alpha_beta_search(pyspiel.load_game('{C4}'))[0])"
    try:
        answer, seconds = timed(lambda: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=limit))
        print(f"  OpenSpiel alpha_beta_search (the start only): {answer.stdout.strip()} in {seconds:.1f} s")
    except subprocess.TimeoutExpired:
        print(f"  OpenSpiel alpha_beta_search (the start only): not done after {limit:.0f} s")


if __name__ == "__main__":
    main()
