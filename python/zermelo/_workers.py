"""Exploring a game of your own on several processes: each position belongs to the
worker process its key's fingerprint names, which holds its state until it explores it
(calling the game's methods) and then packs its children (`_native.Packer`); this
process joins what the workers found into one native graph (`Explorer.merge`), in the
order a single process finds it, so that the graph is the same node for node.

The work goes in steps, two in flight: a step asks each worker to explore its positions
among the next ids found, and to send the children that the last join found new to
the workers they belong to (pickled, through the workers' inboxes), and the repeats to
check to this process. A worker waits for the states of the positions it explores;
they come from steps before, so none waits for ever."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import signal
import sys
from collections import deque
from typing import Any, Deque, Dict, List, Optional, Sequence, Tuple

from ._native import Packer, ZermeloError
from ._own import (
    BATCH,
    explore as explore_here,
    STEP,
    Cell,
    Found,
    GameProtocol,
    OverMemory,
    Refused,
    Repeats,
    Rules,
    allowed,
    bad_seat,
    cell_of,
    diagnose,
    name_of,
    path_to,
    resident,
    said,
    shown,
    shown_bytes,
    too_many,
    unnamed,
)

WAIT = 0.5
"""Seconds between two looks at whether every worker still runs, while waiting for one."""


def pickles(game: GameProtocol, state: Any, workers: int, forked: bool) -> None:
    """Refuses a game that cannot go to worker processes: its states pickle, and the game
    too where the workers are not `forked` from this process."""
    for what, value in (("the game", game), ("its start's state", state))[forked:]:
        try:
            pickle.dumps(value)
        except Exception as e:
            raise ValueError(
                f"{name_of(game)}: workers={workers} explores on worker processes, which takes a game and states "
                f"that pickle, but {what} does not ({said(e)}); explore it with workers=1"
            ) from None


class Failed(Exception):
    """A worker's report that exploring a position failed, raised in this process."""

    def __init__(self, at: int, what: Any) -> None:
        super().__init__(at, what)
        self.at, self.what = at, what


def work(game: GameProtocol, me: int, inboxes: Sequence[Any], results: Any) -> None:
    """A worker process: explores the positions it is asked to (see the module), until
    told to stop. Ctrl-C is this process's to answer: the worker ignores it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        serve(game, me, inboxes, results)
    except BaseException as e:  # a worker's own failure, told rather than lost
        results.put((me, -1, ("broken", said(e))))


def serve(game: GameProtocol, me: int, inboxes: Sequence[Any], results: Any) -> None:
    """The worker's loop (see `work`)."""
    rules = Rules(game)
    key, render, heuristic, picture, seats, text = rules.key, rules.render, rules.heuristic, rules.picture, rules.seats, rules.text
    to_move, moves, play, outcome = game.to_move, game.moves, rules.play, game.outcome
    packer = Packer(text)
    inbox = inboxes[me]
    held: Dict[int, Any] = {}
    """States by their ids, until explored."""
    kept: Dict[int, Tuple[List[Any], List[Any]]] = {}
    """The children found at each step and their moves, until the next join says which are new."""
    later: Deque[Any] = deque()
    """Messages of this process come while the worker waited for states."""

    def store(message: Tuple[Any, ...]) -> None:
        _, ids, blob = message
        held.update(zip(ids, pickle.loads(blob)))

    while True:
        message = later.popleft() if later else receive(inbox)
        if message[0] == "stop":
            return
        if message[0] == "store":
            store(message)
            continue
        _, step, shipped, ship, checks, ids = message
        children, played = kept.pop(shipped, ([], []))
        going: Dict[int, Tuple[List[int], List[Any]]] = {}
        for child, id_, owner in ship:
            if owner == me:
                held[id_] = children[child]
            else:
                pair = going.setdefault(owner, ([], []))
                pair[0].append(id_)
                pair[1].append(children[child])
        for owner, (to, states) in going.items():
            inboxes[owner].put(("store", to, pickle.dumps(states)))
        checked = pickle.dumps([(children[c], played[c]) for c in checks]) if checks else None
        del children, played
        movers: List[int] = []
        ends: List[Any] = []
        counts: List[int] = []
        keys: List[Any] = []
        kids: List[Any] = []
        moved: List[Any] = []
        boards: List[str] = []
        scores: List[int] = []
        pictures: List[List[List[Cell]]] = []
        at = 0
        try:
            for at, id_ in enumerate(ids):
                while id_ not in held:
                    message = receive(inbox)
                    if message[0] == "store":
                        store(message)
                    elif message[0] == "stop":
                        return
                    else:
                        later.append(message)
                state = held[id_]
                end = outcome(state)
                mover = to_move(state)
                if mover not in seats:
                    raise Failed(at, ("seat", mover))
                movers.append(mover)
                ends.append(end)
                if render:
                    boards.append(str(render(state)))
                if heuristic:
                    scores.append(int(heuristic(state)))
                if picture:
                    pictures.append([[cell_of(c, text) for c in row] for row in picture(state)])
                legal = moves(state)
                if legal.__class__ is not list:
                    legal = list(legal)
                made = [play(state, move) for move in legal]
                counts.append(len(made))
                moved.extend(legal)
                kids.extend(made)
                keys.extend(made if key is None else map(key, made))
            at = -1
            try:
                blob, texts = packer.pack(keys, moved)
            except Exception:
                child = packer.failed_at or 0
                at = next(i for i in range(len(counts)) if sum(counts[: i + 1]) > child)
                raise
            done = ("done", movers, ends, counts, blob, texts, boards, scores, pictures, checked, resident())
        except Failed as e:
            done = failure(held.get(ids[e.at]), e.at, e.what)
        except BaseException as e:
            where = at if at >= 0 else len(movers)
            done = failure(held.get(ids[where]) if where < len(ids) else None, where, e)
        for id_ in ids:
            held.pop(id_, None)
        kept[step] = (kids, moved)
        results.put((me, step, done))


def receive(inbox: Any) -> Any:
    """The next message in a worker's inbox; a worker whose parent process ended ends too."""
    while True:
        try:
            return inbox.get(timeout=WAIT)
        except queue.Empty:
            parent = multiprocessing.parent_process()
            if parent is not None and not parent.is_alive():
                raise SystemExit(1) from None


def failure(state: Any, at: int, error: Any) -> Tuple[Any, ...]:
    """A worker's report of a failure at its `at`-th position: the state and the error,
    pickled where they pickle, else in words."""
    try:
        return ("failed", at, pickle.dumps((state, error)))
    except Exception as e:
        return ("failed", at, pickle.dumps((None, ValueError(f"{said(error) if isinstance(error, BaseException) else error}; {said(e)}"))))


def explore(
    game: GameProtocol, max_positions: int = 10_000_000, memory: Optional[int] = None, checked: bool = True, workers: int = 1
) -> Found:
    """`_own.explore` on `workers` processes: in this one for 1, else on that many worker
    processes (`explore_on`), the graph the same, node for node."""
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 255:
        raise ValueError(f"workers={workers!r}: a number of processes from 1 to 255")
    if workers == 1:
        return explore_here(game, max_positions, memory, checked)
    return explore_on(game, workers, max_positions, memory, checked)


def explore_on(game: GameProtocol, workers: int, max_positions: int, memory: Optional[int], checked: bool) -> Found:
    """`_own.explore` on `workers` worker processes (see the module): the same graph, the
    same checks and refusals; a game or state that does not pickle raises `ValueError`,
    a worker that ends unasked `ZermeloError`; Ctrl-C stops every worker."""
    rules = Rules(game)
    state, graph = rules.begin(checked)
    # Forked where the system forks safely (a game defined in a notebook then needs no
    # import), else started afresh.
    forked = sys.platform == "linux"
    pickles(game, state, workers, forked)
    context: Any = multiprocessing.get_context("fork" if forked else "spawn")
    inboxes = [context.Queue() for _ in range(workers)]
    results = context.Queue()
    processes = [
        context.Process(target=work, args=(game, w, inboxes, results), name=f"zermelo-explore-{w}", daemon=True)
        for w in range(workers)
    ]
    finished = False
    try:
        for p in processes:
            p.start()
        found = join(game, rules, graph, state, workers, inboxes, results, processes, max_positions, memory)
        finished = True
        return found
    finally:
        stop(processes, inboxes, results, finished)


def stop(processes: List[Any], inboxes: List[Any], results: Any, finished: bool) -> None:
    """Ends the workers: asked to stop when exploring finished, else ended at once."""
    if finished:
        for inbox in inboxes:
            inbox.put(("stop",))
        for p in processes:
            p.join(timeout=5)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        if p.pid is not None:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()
    for q in [*inboxes, results]:
        q.cancel_join_thread()
        q.close()


def join(
    game: GameProtocol,
    rules: Rules,
    graph: Any,
    state: Any,
    workers: int,
    inboxes: List[Any],
    results: Any,
    processes: List[Any],
    max_positions: int,
    memory: Optional[int],
) -> Found:
    """This process's side of `explore_on`: steps sent, the workers' finds joined."""
    text = rules.text

    def path(node: int, after: Sequence[Any] = ()) -> List[str]:
        """The moves from the start to `node` (then `after`), in their notation."""
        _, _, _, firsts, targets, labels = graph.lists()
        return path_to(node, firsts, targets, labels) + shown(list(after), text)

    budget, base = allowed(memory), resident()
    bases: Dict[int, int] = {}
    now: Dict[int, int] = {}

    def checkpoint(found: int) -> int:
        """Refuses a game past its positions or the memory all processes took; the next
        count to look at."""
        if found > max_positions:
            raise too_many(game, max_positions)
        mine = resident()
        if budget is not None and base is not None and mine is not None:
            taken = mine - base + sum(now[w] - bases[w] for w in now)
            if taken > budget:
                raise OverMemory(
                    f"{name_of(game)}: exploring took more than {shown_bytes(budget)} of memory after {found:,} positions "
                    f"on {workers} processes (memory={budget}): give it more memory, or a smaller game"
                )
        return found + STEP

    repeats = Repeats(game, graph, rules.key, rules.play, text, path)
    owners = bytearray(graph.owners(0, workers))
    inboxes[owners[0]].put(("store", [0], pickle.dumps([state])))
    boards: List[str] = []
    scores: List[int] = []
    pictures: List[List[List[Cell]]] = []
    chunk = BATCH * workers
    # Steps in flight: (step, first id, ids per worker, the repeats asked for: (node it
    # must agree with, node whose move it is) per worker).
    flying: Deque[Tuple[int, int, List[List[int]], List[List[Tuple[int, int]]]]] = deque()
    replies: Dict[Tuple[int, int], Any] = {}
    ship: List[List[Tuple[int, int, int]]] = [[] for _ in range(workers)]
    asked: List[List[int]] = [[] for _ in range(workers)]
    meant: List[List[Tuple[int, int]]] = [[] for _ in range(workers)]
    shipped, step, explored, mark = -1, 0, 0, checkpoint(1)

    def send() -> None:
        """Sends the next step: the last join's children to ship and repeats to check,
        the next ids to explore."""
        nonlocal step, explored, shipped
        until = min(graph.positions, explored + chunk)
        ids: List[List[int]] = [[] for _ in range(workers)]
        for i in range(explored, until):
            ids[owners[i]].append(i)
        for w, inbox in enumerate(inboxes):
            # Each list is the message's now (a queue pickles it later): new ones follow.
            inbox.put(("step", step, shipped, ship[w], asked[w], ids[w]))
            ship[w], asked[w] = [], []
        flying.append((step, explored, ids, meant[:]))
        meant[:] = [[] for _ in range(workers)]
        explored, step = until, step + 1

    def reply(w: int, at: int) -> Any:
        """Worker `w`'s reply to step `at`, waited for."""
        while (w, at) not in replies:
            try:
                who, which, what = results.get(timeout=WAIT)
            except queue.Empty:
                for i, p in enumerate(processes):
                    if not p.is_alive():
                        raise ZermeloError(f"{name_of(game)}: exploring worker {i} ended unexpectedly (exit code {p.exitcode})") from None
                continue
            if what[0] == "broken":
                raise ZermeloError(f"{name_of(game)}: exploring worker {who} failed: {what[1]}")
            replies[(who, which)] = what
        return replies.pop((w, at))

    send()
    while flying:
        at, first, ids, wanted = flying.popleft()
        parts = []
        for w in range(workers):
            what = reply(w, at)
            if what[0] == "failed":
                failed, error = pickle.loads(what[2])
                node = ids[w][what[1]] if what[1] < len(ids[w]) else first
                if isinstance(error, (KeyboardInterrupt, MemoryError)):
                    raise error
                if isinstance(error, tuple) and error[0] == "seat":
                    raise bad_seat(game, error[1], len(rules.seats), path(node))
                if failed is None:
                    raise ValueError(f"{name_of(game)}: a worker could not send what it found ({said(error)}; {path(node)})")
                raise diagnose(game, failed, path(node), error)
            _, movers, ends, counts, blob, texts, w_boards, w_scores, w_pictures, checked, taken = what
            parts.append((movers, ends, counts, blob, texts, w_boards, w_scores, w_pictures))
            if taken is not None:
                bases.setdefault(w, taken)
                now[w] = taken
            if checked is not None:
                for (child, move), (node, parent) in zip(pickle.loads(checked), wanted[w]):
                    repeats.add(node, child, parent, move)
        order = bytes(owners[first : first + sum(len(i) for i in ids)])
        before = graph.positions
        try:
            new, checks = graph.merge(order, [p[:5] for p in parts])
        except (ValueError, TypeError, OverflowError) as e:
            raise Refused(f"{name_of(game)}: {said(e)}") from e
        if rules.render or rules.heuristic or rules.picture:
            lists = [(iter(p[5]), iter(p[6]), iter(p[7])) for p in parts]
            for w in order:
                b, s, c = lists[w]
                if rules.render:
                    boards.append(next(b))
                if rules.heuristic:
                    scores.append(next(s))
                if rules.picture:
                    pictures.append(next(c))
        owners.extend(graph.owners(before, workers))
        for k, (w, child) in enumerate(new):
            ship[w].append((child, before + k, owners[before + k]))
        for w, child, node, j in checks:
            asked[w].append(child)
            meant[w].append((j, node))
        shipped = at
        if graph.positions >= mark:
            mark = checkpoint(graph.positions)
        repeats.settle(first + len(order) - 1)
        while len(flying) < 2 and (explored < graph.positions or any(asked)):
            send()
    repeats.settle(graph.positions)
    if not rules.names:
        unnamed(game, graph, path)
    return Found(
        graph,
        boards if rules.render else None,
        scores if rules.heuristic else None,
        pictures if rules.picture else None,
    )
