"""Answers about a game of your own without exploring it: a native alpha-beta search
through the game's own methods (`_native.Search`), its table kept between questions, for
the value of a position, every move's value and the perfect player's move."""

from __future__ import annotations

import time
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import _native
from ._openspiel import OpenSpielGame
from ._own import GameProtocol, move_texter, name_of, play_canonical, same, where

VALUES = {1: "win", 0: "draw", -1: "lose"}
"""A value of the native search, for the seat to move, as the documents name it."""


class Searcher:
    """A game of your own searched from any of its states, within `memory` bytes of table
    (default 32 MiB): positions are told apart by the text of their key (as the game's
    notation does), play that comes back to a position on the current line is a draw (as
    in the graph solver), and the game's `heuristic`, when it has one, orders the moves."""

    def __init__(self, game: GameProtocol, memory: Optional[int] = None) -> None:
        names = getattr(game, "seat_names", None)
        if names is not None and len(names) != 2:
            raise ValueError(f"{name_of(game)}: the search takes games of two seats, not {len(names)}")
        self.game = game
        self.text = move_texter(game)
        canonical: Callable[[Any], Any] = getattr(game, "canonical", same)
        self.play: Callable[[Any, Any], Any] = game.play if canonical is same else partial(play_canonical, game.play, canonical)
        self.canonical = canonical
        key: Callable[[Any], Any] = getattr(game, "key", same)
        heuristic: Optional[Callable[[Any], int]] = getattr(game, "heuristic", None)
        to_move, moves, play, outcome = game.to_move, game.moves, self.play, game.outcome
        over: Optional[Callable[[Any], bool]] = None
        if isinstance(game, OpenSpielGame):
            # OpenSpiel's own calls: the actions without their texts, the children by number.
            import pyspiel

            moves, over = pyspiel.State.legal_actions, pyspiel.State.is_terminal
            play, to_move = pyspiel.State.child, pyspiel.State.current_player
            if not game.counted:
                key = str  # the search tells positions apart by their seat to move too
        self.native = _native.Search(to_move, moves, play, outcome, key, heuristic, memory, over)

    def start(self) -> Any:
        """The state the game starts from (of its class, with `canonical`)."""
        return self.canonical(self.game.start())

    def after(self, texts: Sequence[str]) -> Tuple[Any, List[str]]:
        """The state after the moves `texts` from the start, each named by its text (or
        read by the game's `parse_move`), and the moves' texts; `ValueError` names the
        first that is no legal move."""
        state, read = self.start(), []  # type: Tuple[Any, List[str]]
        parse = getattr(self.game, "parse_move", None)
        for given in texts:
            legal = {self.text(m): m for m in self.game.moves(state)}
            if given not in legal and callable(parse):
                given = self.text(parse(state, given))
            if given not in legal:
                shown = ", ".join(legal) or "none, the game is over"
                raise ValueError(f"{name_of(self.game)}: {given!r} is no legal move ({where(read)}; legal: {shown})")
            read.append(given)
            state = self.play(state, legal[given])
        return state, read

    def value(self, state: Any, seconds: Optional[float] = None, remoteness: bool = True) -> Tuple[str, Optional[int], Optional[int]]:
        """The value of `state` for its seat to move (`"win"`, `"draw"` or `"lose"`), the
        moves to the end (`None` for a draw, and without `remoteness`) and the index of a
        best move in `moves(state)` (`None` at the end)."""
        value, soon, best = self.native.solve(state, seconds, remoteness)
        return VALUES[value], soon, best

    def seat_name(self, seat: int) -> str:
        """A seat's name, as the explored game names it."""
        names = getattr(self.game, "seat_names", None)
        return str(names[seat]) if names else f"player {seat + 1}"

    def solution(self, texts: Sequence[str] = (), seconds: Optional[float] = None, remoteness: bool = True) -> Dict[str, Any]:
        """The `solve` document of the position after `texts`, by the search (the moves
        to the end with `remoteness`)."""
        begun = time.perf_counter()
        before = self.native.searched
        state, _ = self.after(texts)
        value, soon, _ = self.value(state, seconds, remoteness)
        return {
            "game": name_of(self.game),
            "position": str(getattr(self.game, "key", same)(state)) if texts else None,
            "to_move": self.seat_name(self.game.to_move(state)),
            "value": value,
            "remoteness": soon,
            "margin": None,
            "scores": None,
            "positions": self.native.searched - before,
            "solver": "search",
            "seconds": time.perf_counter() - begun,
            "details": [],
        }

    def position(self, texts: Sequence[str] = (), seconds: Optional[float] = None) -> Dict[str, Any]:
        """The `moves` document of the position after `texts`: every legal move's value
        for the seat making it, by the search (one deadline for all), the best first."""
        until = None if seconds is None else time.monotonic() + seconds
        state, _ = self.after(texts)
        seat, end = self.game.to_move(state), self.game.outcome(state)
        moves: List[Dict[str, Any]] = []
        for move in [] if end is not None else list(self.game.moves(state)):
            child = self.play(state, move)
            over = self.game.outcome(child)
            v: str
            r: Optional[int]
            if over is not None:
                v, r = self.end_value(over, seat), 0
            else:
                left = None if until is None else max(until - time.monotonic(), 1e-3)
                v, r, _ = self.value(child, left)
                if self.game.to_move(child) != seat:
                    v = {"win": "lose", "lose": "win", "draw": "draw"}[v]
            moves.append({"move": self.text(move), "value": v, "remoteness": None if r is None or v == "draw" else r + 1})
        rank = {"win": 2, "draw": 1, "lose": 0}

        def score(m: Dict[str, Any]) -> Tuple[int, int]:
            r = m["remoteness"] or 0
            return rank[m["value"]], -r if m["value"] == "win" else r

        moves.sort(key=score, reverse=True)
        top = max(map(score, moves), default=None)
        first = next((m for m in moves if score(m) == top), None)
        value = str(first["value"]) if first else self.end_value(end, seat)
        remoteness = first["remoteness"] if first else None if value == "draw" else 0
        render = getattr(self.game, "render", None)
        key = str(getattr(self.game, "key", same)(state))
        return {
            "game": name_of(self.game),
            "position": key,
            "board": str(render(state)) if callable(render) else key,
            "picture": None,
            "to_move": self.seat_name(seat),
            "terminal": end is not None,
            "result": None if end is None else self.result(end),
            "value": value,
            "remoteness": remoteness,
            "margin": None,
            "scores": None,
            "points": list(end) if isinstance(end, (list, tuple)) else None,
            "moves": [{**m, "margin": None, "scores": None, "best": score(m) == top, "note": None} for m in moves],
            "moves_total": len(moves),
            "details": [],
        }

    def end_value(self, end: Any, seat: int) -> str:
        """An outcome's value for `seat`."""
        if end == "draw":
            return "draw"
        if isinstance(end, int):
            return "win" if end == seat else "lose"
        mine, theirs = end[seat], end[1 - seat]
        return "win" if mine > theirs else "lose" if mine < theirs else "draw"

    def result(self, end: Any) -> str:
        """An outcome in words: who won, or a draw."""
        if end == "draw":
            return "draw"
        if isinstance(end, int):
            return f"{self.seat_name(end)} wins"
        return "-".join(str(p) for p in end)

    def best_move(self, texts: Sequence[str] = (), seconds: Optional[float] = None) -> str:
        """The perfect player's move after `texts`: a best move by the search."""
        state, _ = self.after(texts)
        _, _, best = self.value(state, seconds)
        if best is None:
            raise ValueError(f"{name_of(self.game)}: the game is over ({where(list(texts))})")
        return self.text(list(self.game.moves(state))[best])
