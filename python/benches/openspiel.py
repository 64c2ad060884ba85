"""OpenSpiel games solved by zermelo against OpenSpiel's own exact Python algorithms, side
by side (BENCHMARKS.md).

    .venv/bin/python python/benches/openspiel.py
"""

import time

import pyspiel
from open_spiel.python.algorithms import minimax, value_iteration

import zermelo


def timed(work):
    start = time.perf_counter()
    answer = work()
    return answer, time.perf_counter() - start


def main():
    spiel = pyspiel.load_game("tic_tac_toe")
    ours, ours_s = timed(lambda: zermelo.open(spiel).solve(progress=False, save=False))
    values, vi_s = timed(lambda: value_iteration.value_iteration(spiel, depth_limit=-1, threshold=0))
    (ab, _), ab_s = timed(lambda: minimax.alpha_beta_search(spiel))
    print(f"tic_tac_toe: zermelo {ours.value} ({int(ours.positions):,} positions) in {ours_s:.3f} s;"
          f" OpenSpiel value_iteration ({len(values):,} states) {vi_s:.3f} s ({vi_s / ours_s:.1f}x),"
          f" alpha_beta_search (the start only) {ab} in {ab_s:.3f} s")
    spiel = pyspiel.load_game("connect_four(rows=4,columns=5)")
    ours, ours_s = timed(lambda: zermelo.open(spiel).solve(progress=False, save=False))
    print(f"connect_four(rows=4,columns=5): zermelo {ours.value} ({int(ours.positions):,} positions) in {ours_s:.1f} s")


if __name__ == "__main__":
    main()
