"""Checking a game of your own against another implementation of the same game (a
catalog game, say): random games played in both, move by move."""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ._game import Game, open
from ._own import GameProtocol, move_texter
from ._options import PathLike
from ._state import State

Side = Union[str, GameProtocol, Game]
"""A game to compare: a spec, a game of your own or an opened game."""

Look = Tuple[Optional[str], List[str], Any]
"""What one side shows of a position: the player to move (while the game goes on), the
legal moves sorted, and how the game ended (`None` while it goes on)."""


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
        """How it differs."""

    @property
    def agree(self) -> bool:
        """Whether the two games agreed on every position met."""
        return self.moves is None

    def __bool__(self) -> bool:
        return self.agree

    def __str__(self) -> str:
        if self.agree:
            return f"{self.games} games and {self.positions} positions agree"
        where = f"after {','.join(self.moves or [])}" if self.moves else "at the start"
        return f"the games differ {where}: {self.difference}"

    __repr__ = __str__


class Own:
    """A game of your own played by its methods, its moves by their text."""

    def __init__(self, game: GameProtocol) -> None:
        self.game = game
        self.text = move_texter(game)
        self.key: Callable[[Any], Any] = getattr(game, "key", lambda s: s)

    def start(self) -> Any:
        return self.game.start()

    def ident(self, state: Any) -> Any:
        return self.key(state)

    def look(self, state: Any) -> Tuple[Look, Dict[str, Any]]:
        outcome = self.game.outcome(state)
        moves = {self.text(m): m for m in self.game.moves(state)}
        seat = None if outcome is not None else str(self.game.to_move(state))
        end: Any = outcome
        if isinstance(outcome, (list, tuple)):
            end = list(outcome)
        elif isinstance(outcome, int):
            end = ("win", str(outcome))
        return (seat, sorted(moves), end), moves

    def play(self, state: Any, move: Any) -> Any:
        return self.game.play(state, move)


class Opened:
    """An opened game played through its states."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def start(self) -> State:
        return self.game.state()

    def ident(self, state: State) -> Any:
        return state.position

    def look(self, state: State) -> Tuple[Look, Dict[str, Any]]:
        moves = {m: m for m in state.legal_moves()}
        if not state.is_over():
            return (state.to_move, sorted(moves), None), moves
        points, result = state.points(), state.outcome() or ""
        if points is not None:
            end: Any = list(points)
        elif result.endswith(" wins"):
            end = ("win", result[: -len(" wins")])
        else:
            end = result
        return (None, sorted(moves), end), moves

    def play(self, state: State, move: Any) -> State:
        return state.play(move)


def side(game: Union[GameProtocol, Game]) -> Union[Own, Opened]:
    """A game to compare, played by its Python methods where it has them."""
    if isinstance(game, Game):
        return Own(game.source) if game.source is not None else Opened(game)
    return Own(game)


class Seats:
    """Which player of one game is which of the other's, learnt as they move."""

    def __init__(self) -> None:
        self.pairs: Dict[Tuple[int, str], str] = {}

    def same(self, mine: Optional[str], theirs: Optional[str]) -> bool:
        """Whether `mine` (of the first game) and `theirs` name the same player, learning
        the pair the first time either is met."""
        if mine is None or theirs is None:
            return mine == theirs
        known = self.pairs.setdefault((0, mine), theirs)
        back = self.pairs.setdefault((1, theirs), mine)
        return known == theirs and back == mine


def ends_agree(mine: Any, theirs: Any, seats: Seats) -> bool:
    """Whether two outcomes agree: the same winner, both a draw, or the same points."""
    if isinstance(mine, tuple) and isinstance(theirs, tuple):
        return seats.same(mine[1], theirs[1])
    return bool(mine == theirs)


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
    sequence after which the legal moves, the player to move or the outcome differ, or
    that they agree. With `values` (default: when `mine` has at most `max_positions`
    positions), the value of every position met is compared too. Either game may be a
    spec, a game of your own or an opened game."""
    if isinstance(theirs, str):
        theirs = open(theirs, data)
    if isinstance(mine, str):
        mine = open(mine, data)
    a, b = side(mine), side(theirs)
    solved = valued(mine, values, max_positions, data)
    other = theirs if isinstance(theirs, Game) and solved is not None else None
    seats = Seats()
    met: set[Any] = set()
    rng = random.Random(seed)
    for played in range(1, games + 1):
        x, y = a.start(), b.start()
        moves: List[str] = []
        while True:
            (seat_a, legal_a, end_a), by_a = a.look(x)
            (seat_b, legal_b, end_b), by_b = b.look(y)
            found = differ(seat_a, legal_a, end_a, seat_b, legal_b, end_b, seats)
            if not found and solved is not None and other is not None:
                found = values_differ(solved, other, moves)
            if found:
                return Comparison(played, len(met), moves, found)
            met.add(a.ident(x))
            if not legal_a:
                break
            move = rng.choice(legal_a)
            x, y = a.play(x, by_a[move]), b.play(y, by_b[move])
            moves.append(move)
    return Comparison(games, len(met))


def differ(
    seat_a: Optional[str],
    legal_a: List[str],
    end_a: Any,
    seat_b: Optional[str],
    legal_b: List[str],
    end_b: Any,
    seats: Seats,
) -> str:
    """How two positions differ, in words ("" when they agree)."""
    if legal_a != legal_b:
        only_a = sorted(set(legal_a) - set(legal_b))
        only_b = sorted(set(legal_b) - set(legal_a))
        return f"legal moves differ: only in the first {only_a}, only in the second {only_b}"
    if (end_a is None) != (end_b is None):
        return f"the outcome is {show(end_a)} in the first, {show(end_b)} in the second"
    if end_a is None and not seats.same(seat_a, seat_b):
        return f"the player to move differs: {seat_a} in the first, {seat_b} in the second"
    if end_a is not None and not ends_agree(end_a, end_b, seats):
        return f"the outcome differs: {show(end_a)} in the first, {show(end_b)} in the second"
    return ""


def show(end: Any) -> str:
    """An outcome in words."""
    return f"a win for {end[1]}" if isinstance(end, tuple) else repr(end)


def valued(mine: Union[GameProtocol, Game], values: Optional[bool], max_positions: int, data: PathLike) -> Optional[Game]:
    """The first game opened (solved on demand) when values are to be compared."""
    if values is False:
        return None
    try:
        return mine if isinstance(mine, Game) else open(mine, data, max_positions=max_positions)
    except Exception:
        if values:
            raise
        return None


def values_differ(mine: Game, theirs: Game, moves: List[str]) -> str:
    """How the values of the position after `moves` differ in two games ("" when equal)."""
    a = mine.state(moves).value()
    b = theirs.state(moves).value()
    keys = ("value", "margin")
    if all(a.get(k) is None or b.get(k) is None or a.get(k) == b.get(k) for k in keys):
        return ""
    return f"the value differs: {dict(a)} in the first, {dict(b)} in the second"
