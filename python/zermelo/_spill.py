"""Games of your own bigger than memory: explored breadth first into a folder of the data
folder (`_native.Spill`: fingerprints of the positions met lately in a table in memory,
older ones in sorted runs on disk, every explored position's moves appended to files),
with a checkpoint once a minute from which a stopped exploring resumes, then installed
from the files as a game graph."""

from __future__ import annotations

import os
import pickle
import sys
import time
from collections import deque
from typing import Any, List, Optional

from ._native import Spill, ZermeloError
from ._own import BATCH, GameProtocol, Outcome, Refused, Rules, bad_seat, diagnose, name_of, short, too_many

EVERY = 60.0
"""Seconds between two checkpoints."""

SHOWN = 5.0
"""Seconds between two lines of progress."""


def spill_folder(data: str, graph: str, version: str, fingerprint: str) -> str:
    """The folder a game's graph is explored into: by its name, version and fingerprint,
    so that a changed game never resumes another's."""
    return os.path.join(data, "spilled", f"{graph}-v{version}-{fingerprint[:16]}")


def table_budget(memory: Optional[int]) -> int:
    """The bytes the table of fingerprints in memory may take: a quarter of `memory`
    (the states waiting, the batches and the interpreter take the rest), at least 64 KiB."""
    return max(1 << 16, (memory or 4 << 30) // 4)


def explore_spilled(
    game: GameProtocol,
    folder: str,
    memory: Optional[int],
    max_positions: int,
    progress: bool = True,
    every: float = EVERY,
) -> Spill:
    """Every state reachable from `game.start()` explored breadth first into `folder`
    (see the module), its table of fingerprints kept within a quarter of `memory` bytes;
    resumed from the folder's last checkpoint (taken every `every` seconds, between two
    batches: the states left to explore pickled, the files' lengths recorded), so that
    Ctrl-C or a killed process loses at most `every` seconds. Returns the explored graph,
    to install. Keys are not checked against the first state of their fingerprint here
    (exploring in memory does, up to its budget); a method that fails is named with the
    position's key; more than `max_positions` positions raise `ZermeloError`. States must
    pickle (for the checkpoints)."""
    rules = Rules(game)
    key, text, seats = rules.key, rules.text, rules.seats
    to_move, moves, play, outcome = game.to_move, game.moves, rules.play, game.outcome
    start = rules.canonical(game.start())
    graph = Spill(folder, table_budget(memory), start if key is None else key(start), text)
    if graph.done:
        return graph
    if graph.frontier:
        with open(os.path.join(folder, graph.frontier), "rb") as f:
            queue: deque[Any] = deque(pickle.load(f))
        if len(queue) != graph.created - graph.processed:
            raise ZermeloError(f"{name_of(game)}: the spilled graph in {folder} is damaged (its frontier): delete the folder to explore again")
    else:
        queue = deque([start])
    pop, extend = queue.popleft, queue.extend
    waiting: List[Any] = []
    began = shown = saved = time.monotonic()
    first = graph.created
    state: Any = None
    batch: List[Any] = []
    while queue or waiting:
        if not queue:
            extend(map(waiting.__getitem__, graph.settle()))
            waiting = []
            continue
        batch = [pop() for _ in range(min(BATCH, len(queue)))]
        movers: List[int] = []
        ends: List[Outcome] = []
        counts: List[int] = []
        keys: List[Any] = []
        children: List[Any] = []
        played: List[Any] = []
        try:
            for state in batch:
                end = outcome(state)
                mover = to_move(state)
                if mover not in seats:
                    raise bad_seat(game, mover, len(seats), [])
                movers.append(mover)
                ends.append(end)
                legal = moves(state)
                if legal.__class__ is not list:
                    legal = list(legal)
                kids = [play(state, move) for move in legal]
                counts.append(len(kids))
                played.extend(legal)
                children.extend(kids)
                keys.extend(kids if key is None else map(key, kids))
            new, waits = graph.batch(movers, ends, counts, keys, played)
        except (KeyboardInterrupt, MemoryError, ZermeloError, OSError):
            raise
        except Exception as e:
            at = graph.failed_at
            raise at_position(game, batch[at] if at is not None else state, e) from e
        extend(map(children.__getitem__, new))
        waiting.extend(map(children.__getitem__, waits))
        if graph.due:
            extend(map(waiting.__getitem__, graph.settle()))
            waiting = []
        if graph.created > max_positions:
            raise too_many(game, max_positions)
        now = time.monotonic()
        if now - saved >= every:
            extend(map(waiting.__getitem__, graph.settle()))
            waiting = []
            checkpoint(graph, folder, queue)
            saved = now
        if progress and now - shown >= SHOWN:
            shown = now
            rate = (graph.created - first) / max(now - began, 1e-9)
            print(
                f"{name_of(game)}: {graph.created:,} positions found, {graph.processed:,} explored, "
                f"{graph.runs} runs on disk ({graph.disk_bytes() / 2**30:.2f} GiB), "
                f"{graph.held_bytes() / 2**20:.0f} MiB in memory, {rate:,.0f} positions/s",
                file=sys.stderr,
                flush=True,
            )
    graph.commit("", True)
    for name in os.listdir(folder):
        if name.startswith("frontier-"):
            os.remove(os.path.join(folder, name))
    return graph


def checkpoint(graph: Spill, folder: str, queue: "deque[Any]") -> None:
    """Records a checkpoint: the states left to explore pickled into a new frontier file,
    then the graph's files and the file's name (`Spill.commit`); the older file deleted."""
    name = f"frontier-{graph.processed}.pickle"
    temp = os.path.join(folder, name + ".new")
    with open(temp, "wb") as f:
        pickle.dump(list(queue), f, protocol=pickle.HIGHEST_PROTOCOL)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, os.path.join(folder, name))
    old = graph.frontier
    graph.commit(name, False)
    if old and old != name:
        try:
            os.remove(os.path.join(folder, old))
        except OSError:
            pass


def at_position(game: GameProtocol, state: Any, error: Exception) -> Refused:
    """The error of a method that raised while exploring into a folder: named as
    `diagnose` names it, with the position's key rather than the moves to it."""
    found = diagnose(game, state, [], error)
    try:
        key = getattr(game, "key", None)
        where_ = f"at the position {short(key(state) if key else state)}"
    except Exception:
        where_ = "at a position"
    return Refused(str(found).replace("(at the start)", f"({where_})"))
