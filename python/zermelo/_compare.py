"""Checking a game of your own against another implementation of the same game (a
catalog game, say): random games played in both, move by move, the rules first, then
the values."""

from __future__ import annotations

import random
from typing import Any, Dict, Hashable, List, Optional, Tuple, Union

from ._game import Game, open
from ._native import ZermeloError
from ._own import GameProtocol, move_texter, normal, short, where
from ._options import PathLike
from ._state import State

Side = Union[str, GameProtocol, Game]
"""A game to compare: a spec, a game of your own or an opened game."""

End = Union[None, str, Tuple[str, int], Tuple[int, ...]]
"""How a game ended, as compared: `None` while it goes on, `"draw"`, `("win", seat)` or
the points of every seat."""

Look = Tuple[Optional[int], Dict[str, Any], End]
"""What one side shows of a position: the seat to move (while the game goes on), the
legal moves by their text, and how the game ended."""


class Comparison:
    """What `compare` found: `agree`, and otherwise the moves from the start to the first
    position where the two games differ, and how."""

    def __init__(self, games: int, positions: int, moves: Optional[List[str]] = None, difference: str = "") -> None:
        self.games = games
        """The games played."""
        self.positions = positions
        """The positions met (each once)."""
        self.moves = moves
        """The moves from the start to the first position that differs (`None`: none does)."""
        self.difference = difference
        """How it differs: a rule (the moves, the player to move, the outcome, or the first
        game's key) before any value."""

    @property
    def agree(self) -> bool:
        """Whether the two games agreed on every position met."""
        return self.moves is None

    def __bool__(self) -> bool:
        return self.agree

    def __str__(self) -> str:
        if self.agree:
            return f"{self.games} games and {self.positions} positions agree"
        return f"the games differ {where(self.moves or [])}: {self.difference}"

    __repr__ = __str__


class Own:
    """A game of your own played by its methods, its moves by their text; its keys
    checked as exploring checks them: two states of one key must show the same, and the
    same move from them must reach one key."""

    def __init__(self, game: GameProtocol) -> None:
        self.game = game
        self.text = move_texter(game)
        self.key = getattr(game, "key", lambda s: s)
        names = getattr(game, "seat_names", None)
        self.names = [str(n) for n in names] if names else None
        self.seen: Dict[Hashable, Tuple[Look, List[str]]] = {}
        self.after: Dict[Tuple[Hashable, str], Tuple[Hashable, List[str]]] = {}
        self.last: Hashable = None

    def name(self, seat: int) -> str:
        """A seat by its name and number."""
        return f"{self.names[seat]} (seat {seat})" if self.names and 0 <= seat < len(self.names) else f"seat {seat}"

    def start(self) -> Any:
        return self.game.start()

    def ident(self, state: Any) -> Hashable:
        key: Hashable = self.key(state)
        return key

    def look(self, state: Any) -> Look:
        outcome = self.game.outcome(state)
        moves = {self.text(m): m for m in self.game.moves(state)}
        end: Any = normal(outcome) if not isinstance(outcome, int) else ("win", outcome)
        return (None if outcome is not None else self.game.to_move(state), moves, end)

    def play(self, state: Any, move: Any) -> Any:
        return self.game.play(state, move)

    def keyed(self, state: Any, seen: Look, moves: List[str]) -> str:
        """How the state after `moves` breaks the game's key ("" when it does not)."""
        k = self.key(state)
        (seat, legal, end), before = self.seen.setdefault(k, (seen, list(moves)))
        if (seat, set(legal), end) != (seen[0], set(seen[1]), seen[2]):
            return f"the first game's key {short(k)} names two states that differ ({where(before)}; {where(moves)})"
        if moves:
            parent, move = self.last, moves[-1]
            reached, first = self.after.setdefault((parent, move), (k, list(moves)))
            if reached != k:
                return (
                    f"the first game's key {short(parent)} names two states ({where(first[:-1])}; {where(moves[:-1])}) "
                    f"that differ one move later: {move} leads to {short(reached)} and to {short(k)}"
                )
        self.last = k
        return ""


class Opened:
    """An opened game played through its states."""

    def __init__(self, game: Game) -> None:
        self.game = game
        # The seats' names by number, as a tournament lists them.
        seats = game.tournament(["random"] * game.seats, games=game.seats, progress=False).seats
        self.names = [s.name for s in sorted(seats, key=lambda s: s.seat)]

    def name(self, seat: int) -> str:
        return f"{self.names[seat]} (seat {seat})"

    def start(self) -> State[Game]:
        return self.game.state()

    def ident(self, state: State[Game]) -> Hashable:
        return state.position

    def look(self, state: State[Game]) -> Look:
        moves = {m: m for m in state.legal_moves()}
        seat = self.names.index(state.to_move)
        if not state.is_over():
            return (seat, moves, None)
        points, result = state.points(), state.outcome() or ""
        if points is not None:
            return (None, moves, tuple(points))
        if result.endswith(" wins"):
            return (None, moves, ("win", self.names.index(result[: -len(" wins")])))
        return (None, moves, result)

    def play(self, state: State[Game], move: Any) -> State[Game]:
        return state.play(move)

    def keyed(self, state: State[Game], seen: Look, moves: List[str]) -> str:
        return ""


def side(game: Union[GameProtocol, Game]) -> Union[Own, Opened]:
    """A game to compare, played by its Python methods where it has them."""
    if isinstance(game, Game):
        return Own(game.source) if game.source is not None else Opened(game)
    return Own(game)


def compare(
    mine: Side,
    theirs: Side,
    games: int = 100,
    *,
    seed: int = 0,
    values: Optional[bool] = None,
    max_positions: int = 100_000,
    data: PathLike = None,
) -> Comparison:
    """Plays `games` random games in both games at once, the moves in `theirs`' notation
    (e.g. a student's Dots and Boxes against `"dots:size=3"`), and reports the first move
    sequence after which a rule differs: the legal moves, the player to move (seats are
    matched by number, so the player who moves at the start must be the same seat), the
    outcome, or the first game's key (two states of one key that differ); then, with
    `values` (default: when `mine` has at most `max_positions` positions), the first
    position met whose value differs; else that they agree. Either game may be a spec, a
    game of your own or an opened game."""
    if isinstance(theirs, str):
        theirs = open(theirs, data)
    if isinstance(mine, str):
        mine = open(mine, data)
    a, b = side(mine), side(theirs)
    met: Dict[Hashable, List[str]] = {}
    rng = random.Random(seed)
    for played in range(1, games + 1):
        x, y = a.start(), b.start()
        moves: List[str] = []
        while True:
            seen_a, seen_b = a.look(x), b.look(y)
            found = differ(seen_a, seen_b, a, b) or a.keyed(x, seen_a, moves) or b.keyed(y, seen_b, moves)
            if found:
                return Comparison(played, len(met), moves, found)
            met.setdefault(a.ident(x), list(moves))
            legal = sorted(seen_a[1])
            if not legal:
                break
            move = rng.choice(legal)
            x, y = a.play(x, seen_a[1][move]), b.play(y, seen_b[1][move])
            moves.append(move)
    solved = valued(mine, values, max_positions, data)
    if solved is not None and isinstance(theirs, Game):
        for moves in met.values():
            found = values_differ(solved, theirs, moves)
            if found:
                return Comparison(games, len(met), moves, found)
    return Comparison(games, len(met))


def differ(mine: Look, theirs: Look, a: Union[Own, Opened], b: Union[Own, Opened]) -> str:
    """How a rule differs at two positions, in the seat names of both games ("" when
    they agree)."""
    (seat_a, legal_a, end_a), (seat_b, legal_b, end_b) = mine, theirs
    if end_a != end_b:
        return f"the outcome differs: {show(end_a, a)} in the first, {show(end_b, b)} in the second"
    if seat_a != seat_b:
        return f"the player to move differs: {a.name(seat_a or 0)} in the first, {b.name(seat_b or 0)} in the second"
    if set(legal_a) != set(legal_b):
        only_a = sorted(set(legal_a) - set(legal_b))
        only_b = sorted(set(legal_b) - set(legal_a))
        return f"legal moves differ: only in the first {', '.join(only_a) or 'none'}; only in the second {', '.join(only_b) or 'none'}"
    return ""


def show(end: End, game: Union[Own, Opened]) -> str:
    """An outcome in words, in the game's seat names."""
    if end is None:
        return "the game goes on"
    if end == "draw":
        return "a draw"
    if len(end) == 2 and end[0] == "win":
        return f"a win for {game.name(int(end[1]))}"
    return f"points {', '.join(map(str, end))}"


def valued(mine: Union[GameProtocol, Game], values: Optional[bool], max_positions: int, data: PathLike) -> Optional[Game]:
    """The first game opened (solved on demand) when values are to be compared: by
    default only where it has at most `max_positions` positions."""
    if values is False:
        return None
    try:
        return mine if isinstance(mine, Game) else open(mine, data, max_positions=max_positions)
    except ZermeloError:
        if values:
            raise
        return None


def values_differ(mine: Game, theirs: Game, moves: List[str]) -> str:
    """How the values of the position after `moves` differ in two games, in words
    ("" when they agree)."""
    a, b = mine.state(moves), theirs.state(moves)
    x, y = a.value(), b.value()
    keys = ("value", "margin")
    if all(x.get(k) is None or y.get(k) is None or x.get(k) == y.get(k) for k in keys):
        return ""
    return f"the value differs: {verdict(x, a.to_move)} in the first, {verdict(y, b.to_move)} in the second"


def verdict(value: Any, to_move: str) -> str:
    """A value in words: `win in 5 for X`, `win by 2 for player 1`."""
    by = f" by {value.margin}" if value.get("margin") is not None else ""
    within = f" in {value.remoteness}" if value.get("remoteness") is not None else ""
    return f"{value.value}{by}{within} for {to_move}"
