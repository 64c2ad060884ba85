"""Games of your own: any object with the methods of `GameProtocol`, explored from its
start in Python (each state once, by its key) and handed to the library as a game graph
in one call, to be solved and played by every tool as a catalog game is."""

from __future__ import annotations

import hashlib
import json
import os
import re
import zlib
from bisect import bisect_right
from collections import deque
from functools import partial
from types import CodeType
from typing import Any, Callable, Dict, Hashable, List, NamedTuple, Optional, Protocol, Sequence, Tuple, Union

from ._native import ZermeloError

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


def explore(game: GameProtocol, max_positions: int = 10_000_000) -> Explored:
    """Every state reachable from `game.start()`, each once by its key, as flat lists:
    `game`'s methods called once per position and move, nothing else per state (a
    state is dropped once its moves are known). More than
    `max_positions` positions, or a method that fails or breaks the protocol, raise
    `ValueError` naming the method and the moves from the start; Ctrl-C stops it at once."""
    key: Optional[Callable[[Any], Hashable]] = getattr(game, "key", None)
    canonical: Callable[[Any], Any] = getattr(game, "canonical", same)
    render: Optional[Callable[[Any], object]] = getattr(game, "render", None)
    heuristic: Optional[Callable[[Any], int]] = getattr(game, "heuristic", None)
    picture: Optional[Callable[[Any], Grid]] = getattr(game, "picture", None)
    text = move_texter(game)
    to_move, moves, play, outcome = game.to_move, game.moves, game.play, game.outcome
    if canonical is not same:
        play = partial(play_canonical, game.play, canonical)
    # States wait in a queue, each dropped once its moves are known.
    queue = deque([game.start()])
    ids: Dict[Hashable, int] = {}
    movers: List[int] = []
    ends: List[Outcome] = []
    firsts = [0]
    targets: List[int] = []
    played: List[Any] = []
    boards: List[str] = []
    scores: List[int] = []
    pictures: List[List[List[Cell]]] = []
    get, push, pop = ids.get, queue.append, queue.popleft
    add_mover, add_end, add_first = movers.append, ends.append, firsts.append
    add_target, add_move = targets.append, played.append

    def note(state: Any) -> None:
        """Keeps what the game's optional methods say of a position."""
        if render:
            boards.append(str(render(state)))
        if heuristic:
            scores.append(int(heuristic(state)))
        if picture:
            pictures.append([[cell_of(c, text) for c in row] for row in picture(state)])

    keep = note if render or heuristic or picture else same
    limit = max_positions
    state = queue[0]
    try:
        state = queue[0] = canonical(state)
        ids[state if key is None else key(state)] = 0
        while queue:
            state = pop()
            end = outcome(state)
            add_mover(to_move(state))
            add_end(end)
            keep(state)
            for move in moves(state):
                child = play(state, move)
                k = child if key is None else key(child)
                j = get(k)
                if j is None:
                    j = ids[k] = len(ids)
                    if j >= limit:
                        raise too_many(game, limit)
                    push(child)
                add_target(j)
                add_move(move)
            add_first(len(targets))
    except (KeyboardInterrupt, MemoryError, ZermeloError):
        raise
    except Exception as e:
        raise diagnose(game, state, firsts, targets, shown(played, text), e) from e
    try:
        labels = texts_of(played, text)
    except (KeyboardInterrupt, MemoryError):
        raise
    except Exception as e:
        raise unprintable(game, played, firsts, targets, text, e) from e
    return Explored(
        list(map(str, ids)),
        movers,
        ends,
        firsts,
        targets,
        labels,
        boards if render else None,
        scores if heuristic else None,
        pictures if picture else None,
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
            raise ValueError(f"{name_of(game)}: parse_move(state, {given!r}) raised {type(e).__name__}: {e} ({where(read)})") from e
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


def unprintable(
    game: object, moves: List[Any], firsts: List[int], targets: List[int], text: Callable[[Any], str], error: Exception
) -> ValueError:
    """The error of `move_text` failing on one of `moves`, named with the moves to it."""
    labels = shown(moves, text)
    for e, move in enumerate(moves):
        try:
            text(move)
        except Exception as failed:
            node = bisect_right(firsts, e) - 1
            after = where(path_to(node, firsts, targets, labels))
            return ValueError(f"{name_of(game)}: move_text({move!r}) raised {type(failed).__name__}: {failed} ({after})")
    return ValueError(f"{name_of(game)}: {type(error).__name__}: {error}")


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


def where(moves: List[str]) -> str:
    """The moves from the start, in words."""
    return f"after {','.join(moves)}" if moves else "at the start"


def diagnose(
    game: GameProtocol, state: Any, firsts: List[int], targets: List[int], labels: List[str], error: Exception
) -> ValueError:
    """The error of a method that raised while exploring: calls the state's methods again,
    one at a time, to name the one that fails (the methods are pure functions of the
    state), with the moves from the start to that state."""
    node = len(firsts) - 1
    path = path_to(node, firsts, targets, labels)
    key = getattr(game, "key", None)
    text = move_texter(game)

    def unhashable(k: object, after: List[str]) -> Optional[ValueError]:
        try:
            hash(k)
        except TypeError:
            what = "key(state)" if key else "the state (define key(state) to give a hashable key)"
            return ValueError(f"{name_of(game)}: {what} is unhashable: {type(k).__name__} ({where(after)})")
        return None

    def fails(method: str, call: Callable[[], Any], after: List[str]) -> Optional[ValueError]:
        try:
            call()
        except Exception as e:
            return ValueError(f"{name_of(game)}: {method} raised {type(e).__name__}: {e} ({where(after)})")
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
        return ValueError(f"{name_of(game)}: moves(state) gave {type(moves).__name__}, not a list of moves ({where(path)})")
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
    return ValueError(f"{name_of(game)}: {type(error).__name__}: {error} ({where(path)})")


def check(game: GameProtocol, found: Explored) -> None:
    """Checks what exploring took on trust (once the library refused the graph, to say
    where): an outcome only where there are no moves, moves where there is none, seats in
    range and move texts distinct."""
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


SAVED = "zermelo-graph 1"
"""The format of a saved graph, the first field of its file."""


def code_words(code: CodeType) -> List[str]:
    """What a function's code is made of, without memory addresses: its bytecode, names
    and constants, nested functions included."""
    words = [code.co_code.hex(), *code.co_names]
    for const in code.co_consts:
        words.extend(code_words(const) if isinstance(const, CodeType) else [repr(const)])
    return words


def fingerprint(game: object) -> str:
    """A hash of the game's methods' code and of its attributes: a game changed without
    a new `version` gets another, and is explored again."""
    words: List[str] = []
    for name in sorted(dir(type(game))):
        code = getattr(getattr(type(game), name, None), "__code__", None)
        if isinstance(code, CodeType):
            words += [name, *code_words(code)]
    try:
        attributes = sorted((k, repr(v)) for k, v in vars(game).items())
    except TypeError:
        attributes = []
    words.append(re.sub(r" at 0x[0-9a-fA-F]+", "", repr(attributes)))
    return hashlib.sha256("\0".join(words).encode()).hexdigest()


def write_graph(path: str, head: Dict[str, str], found: Explored) -> None:
    """Saves an explored graph to `path` (zlib-compressed JSON) after `head` (what
    `graph_head` says of the game), in one step: a reader finds the whole file or none."""
    data = zlib.compress(json.dumps([head, *found], separators=(",", ":")).encode(), 1)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    part = f"{path}.{os.getpid()}.part"
    with open(part, "wb") as f:
        f.write(data)
    os.replace(part, path)


def graph_head(name: str, version: str, game: object) -> Dict[str, str]:
    """What a saved graph says of its game: the format, the game's name, version and
    fingerprint."""
    return {"format": SAVED, "name": name, "version": version, "fingerprint": fingerprint(game)}


def read_graph(path: str, head: Dict[str, str]) -> Optional[Explored]:
    """The graph saved at `path` under `head` (what `graph_head` says of the game now);
    `None` where there is none, or it was saved for another game, or it is damaged."""
    try:
        with open(path, "rb") as f:
            saved, *fields = json.loads(zlib.decompress(f.read()))
        if saved != head:
            return None
        found = Explored(*fields)
        if found.pictures is None:
            return found
        pictures: List[List[List[Cell]]] = [[[(text, color, move) for text, color, move in row] for row in rows] for rows in found.pictures]
        return found._replace(pictures=pictures)
    except (OSError, ValueError, TypeError, zlib.error):
        return None
