"""A game of your own explored past memory into the data folder, against the same game
explored in memory (BENCHMARKS.md): one run per process, the two heaps of `N` (a move
takes 1 or 2 from one heap, 2 (N + 1)^2 positions, four moves each).

    .venv/bin/python python/benches/spill.py memory N
    .venv/bin/python python/benches/spill.py spill N MEMORY DATA

`memory` explores in memory (`save=False`); `spill` explores into `DATA/spilled/` with
`memory=MEMORY` (its table of fingerprints a quarter of it), resuming a stopped run
there. Each prints the seconds to open (explore and install) and to solve, the start's
value, the process's peak memory, and for `spill` the bytes on disk.
"""

import os
import resource
import sys
import time

import zermelo

sys.path.insert(0, os.path.dirname(__file__))
from explore import TwoHeaps  # noqa: E402


def peak() -> str:
    """The process's peak resident memory, in words."""
    return f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GiB"


def folder_bytes(folder: str) -> int:
    """The bytes of the files under `folder`."""
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(folder) for f in files)


def main() -> None:
    how, n = sys.argv[1], int(sys.argv[2])
    game = TwoHeaps(n)
    begin = time.perf_counter()
    cpu = time.process_time()
    if how == "memory":
        opened = zermelo.open(game, save=False, spill=False, max_positions=10**9)
    else:
        memory, data = sys.argv[3], sys.argv[4]
        opened = zermelo.open(game, data, spill=True, memory=memory, max_positions=10**9)
    explored, explored_cpu = time.perf_counter() - begin, time.process_time() - cpu
    print(f"opened: {explored:.1f} s ({explored_cpu:.1f} s CPU), peak {peak()}", flush=True)
    begin = time.perf_counter()
    solution = opened.solve(progress=False, save=False)
    print(f"solved: {time.perf_counter() - begin:.1f} s, start {solution.value}, peak {peak()}", flush=True)
    if how == "spill":
        print(f"on disk: {folder_bytes(os.path.join(sys.argv[4], 'spilled')) / 2**30:.2f} GiB", flush=True)


if __name__ == "__main__":
    main()
