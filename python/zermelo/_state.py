"""A game step by step, as OpenSpiel's `State`: a position of any game (the catalog's or
your own) that lists its legal moves and plays one into a new state from the rules alone,
at once, whatever the game's size, and knows its exact value when asked, so that a search
of your own needs no rules written again."""

from __future__ import annotations

import json
import re
from typing import Any, Dict, Generic, List, Optional, Protocol, Tuple, TypeVar, Union

from ._options import Memory
from ._results import Position, Verdict


class Rules(Protocol):
    """What a state asks of its game (a `Game` gives it): the rules, and the values."""

    _native: Any

    @property
    def spec(self) -> str: ...

    def _notation(self, moves: List[str], position: Optional[str] = None) -> List[str]: ...

    def moves(
        self,
        moves: List[str],
        *,
        position: Optional[str] = None,
        all: bool = False,
        memory: Memory = None,
        seconds: Optional[float] = None,
        progress: bool = True,
    ) -> Position: ...


G = TypeVar("G", bound=Rules)


def natural(text: str) -> List[Union[int, str]]:
    """A sort key putting `a2` before `a10`."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


class State(Generic[G]):
    """A position of `game` after `moves` from the start (or from `position`); see
    `Game.state`. It never changes: `play` gives a new one."""

    def __init__(self, game: G, moves: List[str], position: Optional[str] = None) -> None:
        self.game = game
        """The game."""
        self.moves = moves
        """The moves from the start (or from the position given), in the game's notation."""
        self._from = position
        self._view: Optional[Tuple[Dict[str, Any], Optional[str]]] = None

    def _position(self) -> Dict[str, Any]:
        """The position from the rules alone, its legal moves listed without values (for
        the few games whose positions may have more moves than memory holds: with their
        values), asked of the game once: the fields of the `moves` document."""
        return self._drawn()[0]

    def _drawn(self) -> Tuple[Dict[str, Any], Optional[str]]:
        """The fields of the position's `moves` document and its picture as SVG."""
        if self._view is None:
            ruled = self.game._native.rules(moves=self.moves, position=self._from)
            if ruled is None:
                valued = self.game.moves(self.moves, position=self._from, all=True, progress=False)
                self._view = (valued, valued._repr_svg_())
            else:
                self._view = (json.loads(ruled[0]), ruled[1])
        return self._view

    @property
    def position(self) -> str:
        """The position in the game's notation (what `position=` takes)."""
        return str(self._position()["position"])

    @property
    def text(self) -> str:
        """The board as text."""
        return str(self._position()["board"])

    @property
    def to_move(self) -> str:
        """The player to move (once the game is over: whose turn it would be)."""
        return str(self._position()["to_move"])

    def legal_moves(self) -> List[str]:
        """The legal moves, in the game's notation, in their text's order (numbers by
        value), never by how good they are; none once the game is over."""
        return sorted((str(m["move"]) for m in self._position()["moves"]), key=natural)

    def play(self, move: object) -> State[G]:
        """The state after `move` (a legal move: `ValueError` otherwise)."""
        text = self.game._notation([*self.moves, str(move)], self._from)[-1]
        legal = self.legal_moves()
        if text not in legal:
            where = f"after {','.join(self.moves)}" if self.moves else "at the start"
            raise ValueError(f"{text!r} is not a legal move {where} (legal: {', '.join(legal) or 'none, the game is over'})")
        return State(self.game, [*self.moves, text], self._from)

    def is_over(self) -> bool:
        """Whether the game is over."""
        return bool(self._position()["terminal"])

    def outcome(self) -> Optional[str]:
        """How the game ended (e.g. `"X wins"`, `"draw"`), `None` while it goes on."""
        result: Optional[str] = self._position()["result"]
        return result

    def points(self) -> Optional[List[int]]:
        """The points of every seat so far, in games with points."""
        points: Optional[List[int]] = self._position().get("points")
        return points

    def value(self, *, memory: Memory = None, seconds: Optional[float] = None, progress: bool = True) -> Verdict:
        """The exact value for the player to move: `win`, `lose` or `draw`, with the moves
        to the end or the margin: the one step that solves (or reads the game's solved
        table, or searches), within `memory` (bytes or `"8G"`) and `seconds`, refused
        (`ZermeloError`) past them as `Game.moves` is."""
        fields = self.game.moves(self.moves, position=self._from, memory=memory, seconds=seconds, progress=progress)
        return Verdict({k: fields.get(k) for k in ("value", "remoteness", "margin", "scores")})

    def _repr_svg_(self) -> Optional[str]:
        return self._drawn()[1]

    def _repr_html_(self) -> Optional[str]:
        if self._drawn()[1] is not None:
            return None
        import html

        return f"<pre>{html.escape(self.text)}</pre>"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<State of {self.game.spec} after {self.moves}>"
