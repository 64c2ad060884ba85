"""Exploring a game of your own against the floor its code sets: a plain loop calling the
game's methods once per position and move, each position once; with `checks`, what
checking the keys (and verifying a saved graph) costs (BENCHMARKS.md).

    .venv/bin/python python/benches/explore.py [checks]
    .venv/bin/python python/benches/explore.py workers heaps|c4x4|c4x5 N
"""

import subprocess
import sys
import time
from collections import deque

import zermelo
from zermelo._own import explore, verify

CELLS = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    """The guide's tic-tac-toe (docs/guide/your-own-game.md)."""

    name = "bench-tictactoe"

    def start(self):
        return "........."

    def to_move(self, state):
        return (9 - state.count(".")) % 2

    def moves(self, state):
        if self.outcome(state) is not None:
            return []
        return [CELLS[i] for i, cell in enumerate(state) if cell == "."]

    def play(self, state, move):
        i = CELLS.index(move)
        return state[:i] + "XO"[self.to_move(state)] + state[i + 1 :]

    def outcome(self, state):
        for a, b, c in LINES:
            if state[a] != "." and state[a] == state[b] == state[c]:
                return "XO".index(state[a])
        return None if "." in state else "draw"


class TwoHeaps:
    """Two heaps of `n`; a move takes 1 or 2 from one heap; who takes the last counter
    wins: 2 (n + 1)^2 positions, with methods as cheap as Python allows (the worst case
    for the exploring's own cost)."""

    name = "bench-two-heaps"
    MOVES = [(1, 0), (2, 0), (0, 1), (0, 2)]

    def __init__(self, n):
        self.n = n

    def start(self):
        return (self.n, self.n, 0)

    def to_move(self, state):
        return state[2]

    def moves(self, state):
        a, b, _ = state
        return [m for m in self.MOVES if m[0] <= a and m[1] <= b]

    def play(self, state, move):
        return (state[0] - move[0], state[1] - move[1], 1 - state[2])

    def outcome(self, state):
        return None if state[0] or state[1] else 1 - state[2]


def bare(game, limit=None):
    """The floor: every position once (the first `limit`), each method called once per
    position and move."""
    key = getattr(game, "key", lambda state: state)
    start = game.start()
    seen, queue = {key(start)}, deque([start])
    while queue and (limit is None or len(seen) < limit):
        state = queue.popleft()
        game.outcome(state)
        game.to_move(state)
        for move in game.moves(state):
            child = game.play(state, move)
            k = key(child)
            if k not in seen:
                seen.add(k)
                queue.append(child)
    return len(seen)


def explore_until(game, limit):
    """Exploring the first `limit` positions (refused at the next one)."""
    try:
        explore(game, limit)
    except zermelo.ZermeloError:
        pass


def best(work, times):
    """The shortest of `times` runs, in seconds."""
    runs = []
    for _ in range(times):
        start = time.perf_counter()
        work()
        runs.append(time.perf_counter() - start)
    return min(runs)


def main():
    for game, times in [(TicTacToe(), 7), (TwoHeaps(720), 3)]:
        floor = best(lambda: bare(game), times)
        explored = best(lambda: explore(game), times)
        whole = best(lambda: zermelo.open(game).solve(progress=False, save=False), times)
        positions = explore(game).positions
        print(
            f"{game.name}: {positions:,} positions; bare loop {floor:.3f} s, explore {explored:.3f} s "
            f"({explored / floor:.2f}x), opened and solved {whole:.3f} s"
        )
    try:
        import pyspiel
    except ImportError:
        return
    from zermelo._openspiel import OpenSpielGame

    game, limit = OpenSpielGame(pyspiel.load_game("connect_four(rows=4,columns=5)")), 150_000
    floor = best(lambda: bare(game, limit), 3)
    explored = best(lambda: explore_until(game, limit), 3)
    print(f"{game.name}, its first {limit:,} positions: bare loop {floor:.2f} s, explore {explored:.2f} s ({explored / floor:.2f}x)")


def checks():
    """Exploring with the keys checked against exploring without, once each, each in a
    process of its own (a second exploring in one process pays for the first's memory):
    the two heaps of 720 (10^6 positions) and OpenSpiel's connect four 4 x 5 (3.9 x 10^6);
    and verifying a saved graph against exploring."""
    for name in ("heaps", "connect_four"):
        runs = {}
        for checked in ("unchecked", "checked"):
            command = [sys.executable, __file__, "once", name, checked]
            runs[checked] = subprocess.run(command, capture_output=True, text=True, check=True).stdout.split()
        if not runs["checked"]:
            continue  # OpenSpiel is not installed
        (positions, wall, cpu), (_, checked, checked_cpu, verified) = runs["unchecked"], runs["checked"]
        print(
            f"{name}: {int(positions):,} positions; explored unchecked {float(wall):.1f} s ({float(cpu):.1f} s CPU), "
            f"checked {float(checked):.1f} s ({float(checked_cpu):.1f} s CPU): {float(checked) / float(wall):.2f}x "
            f"({float(checked_cpu) / float(cpu):.2f}x CPU); a saved graph verified in {float(verified):.2f} s "
            f"({float(verified) / float(checked):.1%} of exploring)"
        )


def once(name, checked):
    """Explores one game (`heaps` or `connect_four`) and prints its positions and the
    seconds it took, on the clock and of CPU; checked, the seconds verifying it too."""
    if name == "heaps":
        game = TwoHeaps(720)
    else:
        try:
            import pyspiel
        except ImportError:
            return
        from zermelo._openspiel import OpenSpielGame

        game = OpenSpielGame(pyspiel.load_game("connect_four(rows=4,columns=5)"))
    start, cpu = time.perf_counter(), time.process_time()
    found = explore(game, checked=checked == "checked")
    print(found.positions, time.perf_counter() - start, time.process_time() - cpu)
    if checked == "checked":
        lists = found.lists()
        print(best(lambda: verify(game, lists), 1))

def floor(name, how):
    """One run in this process: `how` is `bare` (the floor), `explore` (the graph only, and
    the bytes it holds natively, and its moves), or
    `solve` (opened
    afresh in a throw-away folder, its graph saved, and solved, nothing solved saved) or
    `unsaved` (the same without saving the graph); prints the positions, the
    seconds on the clock and of CPU, the peak memory of the process and what it held
    before (bytes)."""
    import resource

    import tempfile

    from zermelo._own import resident

    game = TwoHeaps(720) if name == "heaps" else spiel_game()
    if game is None:
        return
    before = resident()
    start, cpu = time.perf_counter(), time.process_time()
    if how == "bare":
        positions = bare(game)
    elif how == "explore":
        found = explore(game)
        positions = found.positions
        print("held", found.graph.held_bytes(), "bytes,", found.graph.moves, "moves")
    else:
        with tempfile.TemporaryDirectory() as data:
            opened = zermelo.open(game, data, explore=True, save=how == "solve")
            positions = opened.solve(progress=False, save=False)
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(positions, f"{wall:.2f}", f"{used:.2f}", peak, before)


def spiel_game(columns=5):
    """OpenSpiel's connect four 4 x `columns` through the adapter, `None` without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    from zermelo._openspiel import OpenSpielGame

    return OpenSpielGame(pyspiel.load_game(f"connect_four(rows=4,columns={columns})"))


def workers(name, count):
    """One run in this process: the game (`heaps`, `c4x4` or `c4x5`) explored on `count`
    worker processes (1: in this process); prints the positions, the graph's hash (equal
    for every count), the seconds on the clock, the CPU seconds of this process and of
    its workers, and the peak memory of this process and of its largest worker (bytes)."""
    import resource

    game = TwoHeaps(720) if name == "heaps" else spiel_game(int(name[-1]))
    if game is None:
        return
    start, cpu = time.perf_counter(), time.process_time()
    from zermelo._workers import explore as explore_on

    found = explore_on(game, workers=int(count))
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    mine, theirs = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"{name} workers={count}: {found.positions:,} positions, graph {found.graph.identity()}; {wall:.2f} s, "
        f"CPU {used:.2f} s here + {theirs.ru_utime + theirs.ru_stime:.2f} s in workers; "
        f"peak {mine.ru_maxrss >> 10} MiB here, {theirs.ru_maxrss >> 10} MiB the largest worker"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["once"]:
        once(*sys.argv[2:])
    elif sys.argv[1:2] == ["floor"]:
        floor(*sys.argv[2:])
    elif sys.argv[1:2] == ["workers"]:
        workers(*sys.argv[2:])
    else:
        checks() if sys.argv[1:] == ["checks"] else main()
