"""100 random moves through `game.state()` on each big game (a new game where one ends):
the mean and the slowest step; nothing is solved.

    .venv/bin/python python/benches/state_steps.py
"""

import random
import tempfile
import time

import zermelo

print("| game | moves | mean step | slowest step |")
print("|---|---|---|---|")
for spec in ["pawns:cols=8,rows=8", "mnk:m=8,n=8,k=5", "domineering:rows=11,cols=11", "dots:size=6", "bigpoints"]:
    game = zermelo.open(spec, tempfile.mkdtemp())
    rng = random.Random(1)
    started = time.perf_counter()
    state, slowest, played = game.state(), 0.0, 0
    while played < 100:
        if state.is_over():
            state = game.state()
        t = time.perf_counter()
        state = state.play(rng.choice(state.legal_moves()))
        state.text, state.to_move
        slowest = max(slowest, time.perf_counter() - t)
        played += 1
    print(f"| `{spec}` | {played} | {1000 * (time.perf_counter() - started) / played:.2f} ms | {1000 * slowest:.2f} ms |")
