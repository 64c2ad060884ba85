"""Games of your own: any object with the methods of `GameProtocol`, explored from its
start in Python (each state once, by its key) and handed to the library as a game graph
in one call, to be solved and played by every tool as a catalog game is."""

from __future__ import annotations

import hashlib
import math
import os
import random
import re
import sys
from collections import deque
from functools import partial
from itertools import count
from heapq import heappop, heappush
from types import BuiltinFunctionType, BuiltinMethodType, CodeType, FunctionType, MethodType, ModuleType
from typing import Any, Callable, Dict, Hashable, List, NamedTuple, Optional, Protocol, Sequence, Tuple, Union

from ._native import Explorer, ZermeloError

Cell = Tuple[Optional[str], Optional[str], Optional[str]]
"""A cell of a picture: its text, its colour and the text of the move a click on it plays."""

Grid = Sequence[Sequence[Union[None, str, Dict[str, Any]]]]
"""A picture as a game draws it: rows from the top, each cell `None`, a text, or a dict of
`text`, `color` (e.g. `"#d66038"`) and `move` (the move a click on it plays)."""

Outcome = Union[None, int, str, Sequence[int]]
"""`None` while the game goes on; at its end the winning seat, `"draw"`, or the points of
every seat."""


class GameProtocol(Protocol):
    """A game of your own, as `zermelo.open` takes it: any object with these methods (no
    base class to inherit). States are any values the methods agree on; a state is never
    changed once made (`play` returns a new one). Optional methods and attributes, used
    when present:

    - `canonical(state)`: the state standing for all those the game's symmetries make
      of it: only these are explored, so positions are counted as classes (the game's
      `classes` says so), and the moves after a move are those of the class's state
    - `parse_move(state, text)`: the move a player's `text` names at `state` (e.g.
      `"B2"` or `"b 2"` for `"b2"`), for the moves given to the game from its start
    - `key(state)`: a hashable key, equal for states that are the same position (default:
      the state itself, which must then be hashable); its text (`str`) is the position's
      notation, so keys of different positions must print differently
    - `move_text(move)`: a move's notation (default `str(move)`)
    - `render(state)`: the board as text
    - `picture(state)`: a grid board, rows from the top, each cell `None`, a text, or a
      dict of `text`, `color` and `move` (the move a click on it plays)
    - `heuristic(state)`: a whole number, higher where the seat to move is better off (for
      the depth-limited `search` player)
    - `name` (the game's name, default the class's), `seat_names`, and `version` (a
      string: a new version makes saved tables stale)
    """

    def start(self) -> Any:
        """The state the game starts from."""
        ...

    def to_move(self, state: Any) -> int:
        """The seat to move, 0 to seats - 1 (at the end: any seat)."""
        ...

    def moves(self, state: Any) -> Sequence[Any]:
        """The legal moves: strings or any values `str` (or `move_text`) prints
        distinctly; none once the game is over."""
        ...

    def play(self, state: Any, move: Any) -> Any:
        """The state after `move`, a new value."""
        ...

    def outcome(self, state: Any) -> Outcome:
        """`None` while the game goes on; at its end the winning seat, `"draw"`, or a list
        of points per seat."""
        ...


class Explored(NamedTuple):
    """A game graph in flat lists, node `i` the `i`-th state met from the start (node 0)."""

    texts: List[str]
    """Each node's position text: the text of its key."""
    movers: List[int]
    """Each node's seat to move."""
    ends: List[Outcome]
    """Each node's outcome (`None` where the game goes on)."""
    firsts: List[int]
    """Node `i`'s moves are edges `firsts[i]` to `firsts[i + 1] - 1` (`len(movers) + 1` entries)."""
    targets: List[int]
    """Each edge's node reached."""
    labels: List[str]
    """Each edge's move text."""
    boards: Optional[List[str]]
    """Each node's board, when the game can `render` it."""
    heuristics: Optional[List[int]]
    """Each node's `heuristic`, when the game has one."""
    pictures: Optional[List[List[List[Cell]]]]
    """Each node's `picture`, when the game draws one: rows from the top of cells."""


def same(value: Any) -> Any:
    """`value` itself: the key of a game without `key`."""
    return value


def cell_of(cell: Any, text: Callable[[Any], str]) -> Cell:
    """A cell of a picture as the library takes it: its text, colour and move's text."""
    if cell is None or isinstance(cell, str):
        return (cell, None, None)
    label, color, move = cell.get("text"), cell.get("color"), cell.get("move")
    return (
        None if label is None else str(label),
        None if color is None else str(color),
        None if move is None else text(move),
    )


def name_of(game: object) -> str:
    """The game's name: its `name` attribute, else its class's name in lower case."""
    name = getattr(game, "name", None)
    return str(name) if name else type(game).__name__.lower()


def move_texter(game: object) -> Callable[[Any], str]:
    """The game's `move_text`, else `str`."""
    text: Callable[[Any], str] = getattr(game, "move_text", str)
    return text


class Refused(ValueError):
    """A game refused in one line that says why, raised as it is (not diagnosed again)."""


class OverMemory(ZermeloError):
    """Exploring in memory past its budget (`memory=`)."""


class KeyClash(Refused):
    """Two states of one key that differ: the game's key leaves out part of its state."""


STEP = 4096
"""Positions found between two looks at the memory exploring has taken."""

MAX_SEATS = 32
"""The most seats a game graph has (the library's limit)."""


def resident() -> Optional[int]:
    """The bytes of memory this process holds (Linux's `/proc`, else the peak the system
    reports), `None` where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak) * (1 if sys.platform == "darwin" else 1024)
    except (ImportError, OSError, AttributeError):
        return None


PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
"""The bytes of a memory page."""


def allowed(memory: Optional[int]) -> Optional[int]:
    """The bytes exploring may add to the process: `memory` when given, else nine tenths
    of the memory the machine has free when it starts (what a solve may take, short of
    running the machine out), `None` where the system does not say."""
    if memory is not None:
        return memory
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024 * 9 // 10
    except (OSError, ValueError, IndexError):
        pass
    return None


def shown_bytes(n: int) -> str:
    """Bytes in words: `1.5 GB`."""
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


class Rules:
    """A game's methods as exploring calls them."""

    def __init__(self, game: GameProtocol) -> None:
        self.game = game
        self.key: Optional[Callable[[Any], Hashable]] = getattr(game, "key", None)
        self.canonical: Callable[[Any], Any] = getattr(game, "canonical", same)
        # A board the key's text holds already (OpenSpiel's) is not kept.
        self.render: Optional[Callable[[Any], object]] = None if getattr(game, "board_in_key", False) else getattr(game, "render", None)
        self.heuristic: Optional[Callable[[Any], int]] = getattr(game, "heuristic", None)
        self.picture: Optional[Callable[[Any], Grid]] = getattr(game, "picture", None)
        self.names = getattr(game, "seat_names", None)
        self.seats = frozenset(range(len(self.names) if self.names else MAX_SEATS))
        self.text = move_texter(game)
        self.play: Callable[[Any, Any], Any] = game.play
        if self.canonical is not same:
            self.play = partial(play_canonical, game.play, self.canonical)

    def begin(self, checked: bool) -> Tuple[Any, Explorer]:
        """The start's state and a native graph holding it (node 0)."""
        game = self.game
        try:
            state = game.start()
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as e:
            raise ValueError(f"{name_of(game)}: start() raised {said(e)} (at the start)") from e
        try:
            state = self.canonical(state)
            return state, Explorer(state if self.key is None else self.key(state), self.text, checked)
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as e:
            raise diagnose(game, state, [], e) from e


def explore(game: GameProtocol, max_positions: int = 10_000_000, memory: Optional[int] = None, checked: bool = True) -> "Found":
    """Every state reachable from `game.start()`, each once by its key, in a native graph
    (`Found`: each position a 128-bit fingerprint of its key, its key's text and flat
    arrays; each distinct move's text once), handed over `BATCH` positions at a time:
    `game`'s methods called once per position and move, nothing else per state (a
    state is dropped once its moves are known). Keys are checked, not trusted
    (`checked`): a sample of the states whose key was met before (each with the chance
    `max(1/256, min(1, 128 / r))`, `r` the repeats met so far, drawn from a fixed seed:
    every repeat of a game with fewer than 128; a game in which a share `f` of its `R`
    repeats disagree goes unfound with a chance of about `exp(-f * R / 256)`) must agree
    with the first state of that key on the seat to move, the outcome and the moves'
    texts, and so must their children; what the first state said is read back from the
    graph, so nothing more is kept per position. More than `max_positions`
    positions, or more than `memory` bytes (default: `allowed`), raise `ZermeloError`;
    a method that fails or breaks the protocol, or two states of one key that differ,
    `ValueError` naming the method (or the key) and the moves from the start; Ctrl-C
    stops it at once. `_workers.explore` explores on worker processes too."""
    rules = Rules(game)
    key, render, heuristic, picture, names, seats, text = rules.key, rules.render, rules.heuristic, rules.picture, rules.names, rules.seats, rules.text
    to_move, moves, play, outcome = game.to_move, game.moves, rules.play, game.outcome
    state, graph = rules.begin(checked)
    # States wait in a queue, each dropped once its moves are known; what is kept of
    # the positions lives in `graph` (native): fingerprints of their keys, not keys.
    queue = deque([state])
    boards: List[str] = []
    scores: List[int] = []
    pictures: List[List[List[Cell]]] = []
    pop, extend = queue.popleft, queue.extend

    def note(state: Any) -> None:
        """Keeps what the game's optional methods say of a position."""
        if render:
            boards.append(str(render(state)))
        if heuristic:
            scores.append(int(heuristic(state)))
        if picture:
            pictures.append([[cell_of(c, text) for c in row] for row in picture(state)])

    def path(node: int, after: Sequence[Any] = ()) -> List[str]:
        """The moves from the start to `node` (then `after`), in their notation."""
        _, _, _, firsts, targets, labels = graph.lists()
        return path_to(node, firsts, targets, labels) + shown(list(after), text)

    budget, base = allowed(memory), resident()

    def checkpoint(found: int) -> int:
        """Refuses a game past its positions or memory; the next count to look at."""
        if found > max_positions:
            raise too_many(game, max_positions)
        now = resident()
        if budget is not None and base is not None and now is not None and now - base > budget:
            raise OverMemory(
                f"{name_of(game)}: exploring took more than {shown_bytes(budget)} of memory after {found:,} positions "
                f"(memory={budget}): give it more memory, or a smaller game"
            )
        return found + STEP

    repeats = Repeats(game, graph, key, play, text, path)
    keeping = bool(render or heuristic or picture)
    mark = checkpoint(1)
    due = math.inf
    node = 0
    batch: List[Any] = []
    try:
        while queue:
            batch = [pop() for _ in range(min(BATCH, len(queue)))]
            movers: List[int] = []
            ends: List[Outcome] = []
            counts: List[int] = []
            keys: List[Any] = []
            children: List[Any] = []
            played: List[Any] = []
            add_mover, add_end, add_count = movers.append, ends.append, counts.append
            add_keys, add_children, add_played = keys.extend, children.extend, played.extend
            for state in batch:
                end = outcome(state)
                mover = to_move(state)
                if mover not in seats:
                    raise bad_seat(game, mover, len(seats), path(node + len(movers)))
                add_mover(mover)
                add_end(end)
                if keeping:
                    note(state)
                legal = moves(state)
                if legal.__class__ is not list:
                    legal = list(legal)
                kids = [play(state, move) for move in legal]
                add_count(len(kids))
                add_played(legal)
                add_children(kids)
                add_keys(kids if key is None else map(key, kids))
            try:
                new, checks = graph.batch(movers, ends, counts, keys, played)
            except (KeyboardInterrupt, MemoryError):
                raise
            except Exception as e:
                at = graph.failed_at or 0
                raise diagnose(game, batch[at], path(node + at), e) from e
            extend(map(children.__getitem__, new))
            for where_, parent, j in checks:
                repeats.add(j, children[where_], parent, played[where_])
                due = min(due, j)
            node += len(batch)
            if graph.positions >= mark:
                mark = checkpoint(graph.positions)
            if node - 1 >= due:
                due = repeats.settle(node - 1)
        repeats.settle(node)
    except (KeyboardInterrupt, MemoryError, ZermeloError, Refused):
        raise
    except Exception as e:
        at = next(i for i, s in enumerate(batch) if s is state)
        raise diagnose(game, state, path(node + at), e) from e
    if not names:
        unnamed(game, graph, path)
    return Found(
        graph,
        boards if render else None,
        scores if heuristic else None,
        pictures if picture else None,
    )


class Repeats:
    """States whose key was met before, each waiting to be checked against the first
    state of its key once that one's moves are known (see `explore`)."""

    def __init__(
        self,
        game: GameProtocol,
        graph: Explorer,
        key: Optional[Callable[[Any], Hashable]],
        play: Callable[[Any, Any], Any],
        text: Callable[[Any], str],
        path: Callable[..., List[str]],
    ) -> None:
        self.game, self.graph, self.key, self.play, self.text, self.path = game, graph, key, play, text, path
        # By the node they must agree with: (node, order, state, how it was reached: a
        # node, the moves after it, and the repeat whose child it is).
        self.waiting: List[Tuple[int, int, Any, Tuple[int, Tuple[Any, ...], Optional[int]]]] = []
        self.tick = count().__next__
        self.printed: Dict[Any, str] = {}

    def add(self, node: int, state: Any, parent: int, move: Any) -> None:
        """A state of `node`'s key reached from `parent` by `move`, to check."""
        heappush(self.waiting, (node, self.tick(), state, (parent, (move,), None)))

    def texted(self, move: Any) -> str:
        """A move's text, printed once per distinct (hashable) move."""
        try:
            return self.printed[move]
        except KeyError:
            self.printed[move] = self.text(move)
            return self.printed[move]
        except TypeError:
            return self.text(move)

    def look(self, state: Any) -> Tuple[Any, Any, Dict[str, Any]]:
        """What a state says: its seat to move, outcome and moves by their text."""
        game = self.game
        return game.to_move(state), game.outcome(state), {self.texted(m): m for m in game.moves(state)}

    def settle(self, done: int) -> float:
        """Checks the waiting repeats of nodes up to `done`; the next node one waits for."""
        game, graph, key, path, text, waiting = self.game, self.graph, self.key, self.path, self.text, self.waiting
        while waiting and waiting[0][0] <= done:
            node, _, state, (origin, after, parent) = heappop(waiting)
            try:
                mover, end, legal = self.look(state)
            except (KeyboardInterrupt, MemoryError):
                raise
            except Exception as e:
                raise diagnose(game, state, path(origin, after), e) from e
            first_mover, first_end, labels, reached_at = graph.node(node)
            what = differ(mover, end, set(legal), first_mover, first_end, set(labels))
            if what and parent is None:
                raise clash(game, graph.text(node), path(node), path(origin, after), f": {what}")
            if what and parent is not None:
                later = f" one move later: by {text(after[-1])}, {what} ({where(path(node))}; {where(path(origin, after))})"
                raise clash(game, graph.text(parent), path(parent), path(origin, after[:-1]), later)
            if parent is not None:
                continue
            # Its children against the first state's, one move later.
            reached = dict(zip(labels, reached_at))
            for label, move in legal.items():
                child = self.play(state, move)
                j = graph.find(child if key is None else key(child))
                if j != reached[label]:
                    theirs = "a position never met" if j is None else short(graph.text(j))
                    later = f" one move later: {label} leads to {short(graph.text(reached[label]))} in the first, to {theirs} in the second"
                    raise clash(game, graph.text(node), path(node), path(origin, after), later)
                heappush(waiting, (j, self.tick(), child, (origin, (*after, move), node)))
        return waiting[0][0] if waiting else math.inf


BATCH = 512
"""Positions handed to the native graph at once."""


class Found:
    """An explored game graph held natively (`_native.Explorer`): node `i` the `i`-th
    state met from the start (node 0); its flat lists (`Explored`) made on demand."""

    def __init__(self, graph: Explorer, boards: Optional[List[str]], heuristics: Optional[List[int]], pictures: Optional[List[List[List[Cell]]]]) -> None:
        self.graph, self.boards, self.heuristics, self.pictures = graph, boards, heuristics, pictures

    @property
    def positions(self) -> int:
        """How many positions were found."""
        return self.graph.positions

    def lists(self) -> Explored:
        """The graph as flat lists (what is saved)."""
        texts, movers, ends, firsts, targets, labels = self.graph.lists()
        return Explored(texts, movers, ends, firsts, targets, labels, self.boards, self.heuristics, self.pictures)

    @property
    def movers(self) -> List[int]:
        return self.lists().movers

    @property
    def ends(self) -> List[Outcome]:
        return self.lists().ends

    @property
    def firsts(self) -> List[int]:
        return self.lists().firsts

    @property
    def targets(self) -> List[int]:
        return self.lists().targets

    @property
    def labels(self) -> List[str]:
        return self.lists().labels

    @property
    def texts(self) -> List[str]:
        return self.lists().texts


def short(key: object, width: int = 60) -> str:
    """A key's text on one line, cut to `width` characters."""
    shown = repr(str(key))
    return shown if len(shown) <= width else shown[: width - 3] + "..."


def normal(end: Outcome) -> Outcome:
    """An outcome as compared: points as a tuple."""
    return tuple(end) if isinstance(end, (list, tuple)) else end


def differ(mover: Any, end: Outcome, legal: set[str], first_mover: Any, first_end: Outcome, first_legal: set[str]) -> str:
    """How a state differs from the first of its key, in words ("" when it agrees)."""
    if mover != first_mover:
        return f"the seat to move is {first_mover!r} in the first and {mover!r} in the second"
    if normal(end) != normal(first_end):
        return f"the outcome is {first_end!r} in the first and {end!r} in the second"
    if legal != first_legal:
        only = sorted(first_legal - legal)[:5], sorted(legal - first_legal)[:5]
        return f"the moves differ: {', '.join(only[0]) or 'none'} only in the first, {', '.join(only[1]) or 'none'} only in the second"
    return ""


def clash(game: object, key: str, first: List[str], second: List[str], what: str) -> KeyClash:
    """The refusal of two states of the key `key`, reached by the moves `first` and
    `second`, that differ as `what` says."""
    return KeyClash(
        f"{name_of(game)}: two states of the key {short(key)} ({where(first)}; {where(second)}) differ{what}; "
        "give the game a key(state) of its own that tells them apart (docs/guide/your-own-game.md)"
    )


def bad_seat(game: object, mover: object, seats: int, path: List[str]) -> Refused:
    """The refusal of a seat to move that is no seat."""
    return Refused(f"{name_of(game)}: to_move(state) gave {mover!r}, not a seat 0..{seats - 1} ({where(path)})")


def unnamed(game: object, graph: Explorer, path: Callable[[int], List[str]]) -> None:
    """Refuses seats without names numbered from past 0: a seat below the highest one to
    move that never moves, never wins and never scores (seats count from 0; a game
    numbering them otherwise gives `seat_names`)."""
    movers = graph.movers()
    highest = max(movers, default=0)
    idle = set(range(highest)) - set(movers)
    if idle:  # rare: only then are the outcomes read
        for end in graph.lists()[2]:
            idle -= {i for i, p in enumerate(end) if p} if isinstance(end, (list, tuple)) else {end}
    if idle:
        raise Refused(
            f"{name_of(game)}: to_move(state) gives seat {highest} ({where(path(movers.index(highest)))}) but seat "
            f"{min(idle)} never moves, wins or scores: seats count from 0 (or give the game seat_names)"
        )


def parse_moves(game: Any, texts: List[str]) -> List[str]:
    """The notation of the moves `texts` from the start, each read by the game's
    `parse_move` and printed by its `move_text`; from the first that is no legal move, the
    texts as given (for the library to refuse). A `parse_move` that raises is named."""
    canonical: Callable[[Any], Any] = getattr(game, "canonical", same)
    text = move_texter(game)
    state = canonical(game.start())
    read: List[str] = []
    for given in texts:
        try:
            move = game.parse_move(state, given)
        except Exception as e:
            raise ValueError(f"{name_of(game)}: parse_move(state, {given!r}) raised {said(e)} ({where(read)})") from e
        legal = {text(m): m for m in game.moves(state)}
        if text(move) not in legal:
            return read + texts[len(read) :]
        read.append(text(move))
        state = canonical(game.play(state, legal[text(move)]))
    return read


def play_canonical(play: Callable[[Any, Any], Any], canonical: Callable[[Any], Any], state: Any, move: Any) -> Any:
    """The class's state after `move`: `canonical` of what `play` gives."""
    return canonical(play(state, move))


def texts_of(moves: List[Any], text: Callable[[Any], str]) -> List[str]:
    """The text of every move, each distinct move printed once where moves are hashable."""
    try:
        printed: Dict[Any, str] = dict.fromkeys(moves, "")
    except TypeError:
        return list(map(text, moves))
    for move in printed:
        printed[move] = text(move)
    return list(map(printed.__getitem__, moves))


def shown(moves: List[Any], text: Callable[[Any], str]) -> List[str]:
    """The text of every move, `str` where `text` fails."""
    try:
        return texts_of(moves, text)
    except Exception:
        return list(map(str, moves))


def too_many(game: object, limit: int) -> ZermeloError:
    """The error of a game with more than `limit` positions."""
    return ZermeloError(f"{name_of(game)} has more than {limit:,} positions (max_positions={limit})")


def seats_of(game: object, movers: List[int]) -> int:
    """How many seats the game has: its `seat_names`, else 2 or the highest seat to move."""
    names = getattr(game, "seat_names", None)
    return len(names) if names else max([2, *(m + 1 for m in movers)])


def path_to(node: int, firsts: List[int], targets: List[int], labels: List[str]) -> List[str]:
    """The moves from the start to `node` along the edges found so far (first found first)."""
    parent: Dict[int, tuple[int, str]] = {}
    for i in range(len(firsts) - 1):
        for e in range(firsts[i], firsts[i + 1]):
            parent.setdefault(targets[e], (i, labels[e]))
    path: List[str] = []
    while node != 0 and node in parent:
        node, label = parent[node]
        path.append(label)
    return path[::-1]


def said(error: BaseException) -> str:
    """An exception in one line: its type and message."""
    return f"{type(error).__name__}: {' '.join(str(error).splitlines())}"


def where(moves: List[str]) -> str:
    """The moves from the start, in words."""
    return f"after {','.join(moves)}" if moves else "at the start"


def diagnose(game: GameProtocol, state: Any, path: List[str], error: Exception) -> Refused:
    """The error of a method that raised while exploring: calls the state's methods again,
    one at a time, to name the one that fails (the methods are pure functions of the
    state), with the moves `path` from the start to that state."""
    key = getattr(game, "key", None)
    text = move_texter(game)

    def unhashable(k: object, after: List[str]) -> Optional[Refused]:
        try:
            hash(k)
        except TypeError:
            what = "key(state)" if key else "the state (define key(state) to give a hashable key)"
            return Refused(f"{name_of(game)}: {what} is unhashable: {type(k).__name__} ({where(after)})")
        return None

    def fails(method: str, call: Callable[[], Any], after: List[str]) -> Optional[Refused]:
        try:
            call()
        except Exception as e:
            return Refused(f"{name_of(game)}: {method} raised {said(e)} ({where(after)})")
        return None

    checks: List[tuple[str, Callable[[], Any]]] = [
        ("outcome(state)", lambda: game.outcome(state)),
        ("to_move(state)", lambda: game.to_move(state)),
        ("moves(state)", lambda: game.moves(state)),
    ]
    if key:
        checks.insert(0, ("key(state)", lambda: key(state)))
    canonical = getattr(game, "canonical", None)
    if canonical:
        checks.insert(0, ("canonical(state)", lambda: canonical(state)))
    for method in ("render", "heuristic", "picture"):
        if getattr(game, method, None):
            checks.append((f"{method}(state)", partial(getattr(game, method), state)))
    for method, call in checks:
        found = fails(method, call, path)
        if found:
            return found
    found = unhashable(key(state) if key else state, path)
    if found:
        return found
    moves = game.moves(state)
    try:
        moves = list(moves)
    except TypeError:
        return Refused(f"{name_of(game)}: moves(state) gave {type(moves).__name__}, not a list of moves ({where(path)})")
    for move in moves:
        found = fails(f"play(state, {move!r})", lambda: game.play(state, move), path)
        if found:
            return found
        found = fails("move_text(move)", lambda: text(move), path)
        if found:
            return found
        child = game.play(state, move)
        found = fails("key(state)", lambda: key(child), path + [text(move)]) if key else None
        if found:
            return found
        found = unhashable(key(child) if key else child, path + [text(move)])
        if found:
            return found
    return Refused(f"{name_of(game)}: {said(error)} ({where(path)})")


def check(game: GameProtocol, found: Union[Explored, "Found"]) -> None:
    """Checks what exploring took on trust (once the library refused the graph, to say
    where): an outcome only where there are no moves, moves where there is none, seats in
    range and move texts distinct."""
    if isinstance(found, Found):
        found = found.lists()
    movers, ends, firsts, targets, labels = found.movers, found.ends, found.firsts, found.targets, found.labels
    seats = seats_of(game, movers)
    for i, end in enumerate(ends):
        count = firsts[i + 1] - firsts[i]
        problem = None
        if end is None and count == 0:
            problem = "outcome(state) is None but moves(state) is empty"
        elif end is not None and count:
            problem = f"outcome(state) is {end!r} but moves(state) still has {count} moves"
        elif end is not None and not valid_outcome(end, seats):
            problem = f"outcome(state) is {end!r}: not a seat 0..{seats - 1}, 'draw' or a list of {seats} points"
        elif not (isinstance(movers[i], int) and 0 <= movers[i] < seats):
            problem = f"to_move(state) is {movers[i]!r}, not a seat 0..{seats - 1}"
        elif len(set(labels[firsts[i] : firsts[i + 1]])) != count:
            problem = "two moves print the same (define move_text(move))"
        if problem:
            raise ValueError(f"{name_of(game)}: {problem} ({where(path_to(i, firsts, targets, labels))})")


def valid_outcome(end: Outcome, seats: int) -> bool:
    """Whether `end` is a seat, `"draw"` or points of every seat."""
    if end == "draw":
        return True
    if isinstance(end, int):
        return 0 <= end < seats
    return isinstance(end, (list, tuple)) and len(end) == seats and all(isinstance(p, int) for p in end)


PLAIN = (type(None), bool, int, float, complex, str, bytes, range)
"""Values whose `repr` is all there is to them."""

BIG = 10_000
"""Containers longer than this are described by their `repr` alone."""

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
"""A memory address in a `repr`, different in every process."""


def code_words(code: CodeType) -> List[str]:
    """What a function's code is made of, without memory addresses: its bytecode, names
    and constants (sets sorted), nested functions included."""
    words = [code.co_code.hex(), *code.co_names]
    for const in code.co_consts:
        if isinstance(const, CodeType):
            words.extend(code_words(const))
        elif isinstance(const, frozenset):
            words.append(repr(sorted(map(repr, const))))
        else:
            words.append(repr(const))
    return words


def global_names(code: CodeType) -> List[str]:
    """The names a function's code (nested functions included) may read as globals."""
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names.extend(global_names(const))
    return names


def describe(value: Any, words: List[str], seen: set[int]) -> None:
    """Appends to `words` what defines `value`, without memory addresses: plain data by its
    `repr`; containers item by item; a function by its code, defaults, closure values and
    the globals it reads (the functions, classes and data of its own module described in
    turn, others by name); a class by its attributes and methods, its bases' too; any
    other object by its class and its attributes, slots and fields (a `NamedTuple`'s
    too). Each object is described once (`seen`), so cycles end."""
    if isinstance(value, PLAIN):
        words.append(repr(value))
        return
    if id(value) in seen:
        words.append("<again>")
        return
    seen.add(id(value))
    kind = type(value)
    if kind in (list, tuple, dict, set, frozenset) and len(value) > BIG:
        words.append(ADDRESS.sub("", repr(sorted(map(repr, value)) if isinstance(value, (set, frozenset)) else value)))
    elif kind in (list, tuple):
        words.append(f"{kind.__name__}[{len(value)}]")
        for item in value:
            describe(item, words, seen)
    elif kind is dict:
        words.append(f"dict[{len(value)}]")
        for k, v in value.items():
            describe(k, words, seen)
            describe(v, words, seen)
    elif kind in (set, frozenset):
        inner: List[List[str]] = []
        for item in value:
            inner.append([])
            describe(item, inner[-1], seen)
        words.append(repr(sorted(inner)))
    elif isinstance(value, (staticmethod, classmethod)):
        describe(value.__func__, words, seen)
    elif isinstance(value, property):
        for f in (value.fget, value.fset, value.fdel):
            describe(f, words, seen)
    elif isinstance(value, MethodType):
        describe(value.__func__, words, seen)
        describe(value.__self__, words, seen)
    elif isinstance(value, FunctionType):
        describe_function(value, words, seen)
    elif isinstance(value, ModuleType):
        words.append(f"module {value.__name__}")
    elif isinstance(value, type):
        describe_class(value, words, seen)
    elif isinstance(value, (BuiltinFunctionType, BuiltinMethodType)):
        words.append(f"{getattr(value, '__module__', None)}.{value.__qualname__}")
    else:
        describe_object(value, words, seen)


def describe_function(function: FunctionType, words: List[str], seen: set[int]) -> None:
    """A function for `describe`: its code, defaults, closure values and the globals it reads."""
    words.append(f"def {function.__qualname__}")
    words.extend(code_words(function.__code__))
    describe(function.__defaults__, words, seen)
    describe(function.__kwdefaults__, words, seen)
    for cell in function.__closure__ or ():
        try:
            describe(cell.cell_contents, words, seen)
        except ValueError:  # a cell not filled yet
            words.append("<empty>")
    module, space = function.__module__, function.__globals__
    for name in global_names(function.__code__):
        if name not in space:
            continue
        found = space[name]
        words.append(name)
        if isinstance(found, (FunctionType, type)) and found.__module__ != module:
            words.append(f"{found.__module__}.{found.__qualname__}")
        else:
            describe(found, words, seen)


def describe_class(cls: type, words: List[str], seen: set[int]) -> None:
    """A class for `describe`: its name, then its own attributes and methods (but the
    interpreter's dunders), its bases' after."""
    words.append(f"class {cls.__module__}.{cls.__qualname__}")
    if cls.__module__ == "builtins":
        return
    for name, attribute in vars(cls).items():
        if name.startswith("__") and name.endswith("__") and name != "__slots__":
            continue
        words.append(name)
        describe(attribute, words, seen)
    for base in cls.__bases__:
        describe(base, words, seen)


def describe_object(value: Any, words: List[str], seen: set[int]) -> None:
    """Any other object for `describe`: its class, then its attributes, slots and (a
    tuple's) fields; an object with none of these (a native one) by its text."""
    describe(type(value), words, seen)
    found = False
    try:
        attributes = vars(value)
    except TypeError:
        attributes = {}
    for name in sorted(attributes):
        found = True
        words.append(name)
        describe(attributes[name], words, seen)
    for cls in type(value).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in [slots] if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            found = True
            words.append(name)
            describe(getattr(value, name, "<unset>"), words, seen)
    if isinstance(value, tuple):
        found = True
        for item in value:
            describe(item, words, seen)
    if not found:
        words.append(ADDRESS.sub("", f"{value!r} {value}"))


def fingerprint(game: object) -> str:
    """A hash of everything that defines the game object (`describe`): a game changed
    without a new `version` gets another, and is explored again."""
    words: List[str] = []
    try:
        describe(game, words, set())
    except RecursionError:
        words.append("<deep>")  # what was described so far stands for it
    return hashlib.sha256("\0".join(words).encode()).hexdigest()


def graph_head(name: str, version: str, game: object) -> Dict[str, str]:
    """What a saved graph says of its game: its name, version and fingerprint (the
    graph file's `source`, checked when it is read back)."""
    return {"name": name, "version": version, "fingerprint": fingerprint(game)}


def identity(graph: str, version: str, fingerprint: str) -> str:
    """A short hash of an explored graph (`Explorer.identity`), its game's version and
    fingerprint: what names an installed graph (saved with it), so that two games
    differing in any of it get two names."""
    return hashlib.sha256(f"{graph}:{version}:{fingerprint}".encode()).hexdigest()[:8]


def verify(game: GameProtocol, found: Explored, sequences: int = 64, seed: Optional[int] = None) -> str:
    """How the graph `found` (read from a file) differs from `game` along `sequences`
    random move sequences from its start, played by the game's own methods: at each
    position the key's text, the seat to move, the outcome and the moves' texts must be
    those saved. Each sequence stops after `max(16, positions / 2,560)` moves, so that
    the 64 cost about a fortieth of exploring (each position looked at costs about what
    one explored does); "" when they agree. A method that raises is a difference too."""
    key: Callable[[Any], Hashable] = getattr(game, "key", same)
    canonical: Callable[[Any], Any] = getattr(game, "canonical", same)
    text = move_texter(game)
    rng = random.Random(seed)
    length = max(16, len(found.movers) // (40 * sequences))
    moves: List[str] = []
    try:
        for _ in range(sequences):
            state, node, moves = canonical(game.start()), 0, []
            for _ in range(length):
                edges = range(found.firsts[node], found.firsts[node + 1])
                legal = {text(m): m for m in game.moves(state)}
                saved = {found.labels[e]: found.targets[e] for e in edges}
                what = (
                    f"the position is {short(found.texts[node])} in the file and {short(key(state))} in the game"
                    if str(key(state)) != found.texts[node]
                    else differ(game.to_move(state), game.outcome(state), set(legal), found.movers[node], found.ends[node], set(saved))
                )
                if what:
                    return f"{where(moves)}, {what.replace('the first', 'the file').replace('the second', 'the game')}"
                if not legal:
                    break
                label = rng.choice(sorted(legal))
                moves.append(label)
                state, node = canonical(game.play(state, legal[label])), saved[label]
    except (KeyboardInterrupt, MemoryError):
        raise
    except Exception as e:
        return f"{where(moves)}, {said(e)}"
    return ""
