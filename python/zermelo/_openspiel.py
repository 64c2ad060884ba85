"""OpenSpiel games as games of your own: an adapter giving a `pyspiel.Game` the methods of
`GameProtocol` (the optional `open-spiel` extra: `pip install './python[openspiel]'`)."""

from __future__ import annotations

import difflib
import sys
from typing import Any, List, Optional, Sequence, Tuple, Union

from ._own import Found, KeyClash
from ._workers import explore

PREFIX = "openspiel:"
"""The spec prefix of an OpenSpiel game: `openspiel:connect_four(rows=4,columns=5)`."""

Action = Tuple[int, str]
"""A move: OpenSpiel's action number and its text."""


def is_pyspiel_game(obj: object) -> bool:
    """Whether `obj` is a `pyspiel.Game` (pyspiel being imported already if it is one)."""
    pyspiel = sys.modules.get("pyspiel")
    return pyspiel is not None and isinstance(obj, pyspiel.Game)


def load(spec: str) -> OpenSpielGame:
    """The OpenSpiel game of `openspiel:NAME(PARAMS)`."""
    try:
        import pyspiel
    except ImportError:
        raise ValueError(
            f"{spec}: OpenSpiel is not installed (pip install open_spiel, or zermelo's extra: pip install 'zermelo[openspiel]')"
        ) from None
    text = spec[len(PREFIX) :]
    name = text.split("(")[0].strip()
    names = list(pyspiel.registered_names())
    if name not in names:
        closest = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        hint = f"the closest: {', '.join(closest)}" if closest else "pyspiel.registered_names() lists them"
        raise ValueError(f"{spec}: OpenSpiel has no game {name!r} ({hint})")
    try:
        game = pyspiel.load_game(text)
    except Exception as e:
        # OpenSpiel's first line says why; what follows is its list of every game.
        why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ValueError(f"{spec}: OpenSpiel cannot load {text!r}: {why}") from None
    return OpenSpielGame(game)


class OpenSpielGame:
    """A sequential, deterministic, perfect-information OpenSpiel game, as a game of your
    own. The key of a state is its full text with the player to move, never its history:
    states reached by different move orders are one position (transpositions), which is
    what makes the graph small enough to solve; in a game whose play can come back to a
    position, the key also holds the number of moves played, on which OpenSpiel ends it.
    Keys are checked as the game is explored: a text that leaves out something else that
    matters is refused, naming two move sequences. Returns of a
    two-player zero-sum game in -1, 0, 1 are a win, a draw or a loss, other returns of one
    its margin (the winner's return); returns of other games are the points of each seat."""

    board_in_key = True
    """A position's board is its key's text after the first `:`: exploring keeps none."""

    def __init__(self, game: Any) -> None:
        kind = game.get_type()
        import pyspiel

        refused = {
            "simultaneous moves": kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL,
            "chance": kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC,
            "hidden information": kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION,
        }
        for what, found in refused.items():
            if found:
                raise ValueError(f"OpenSpiel's {game} has {what}: zermelo solves games without it")
        self.game = game
        self.name = PREFIX + str(game).replace("()", "")
        self.seat_names = [f"player {i}" for i in range(game.num_players())]
        self.zero_sum = game.num_players() == 2 and kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        self.win_loss = self.zero_sum and game.min_utility() == -1 and game.max_utility() == 1
        self.counted = False
        """Whether a key holds the number of moves played: OpenSpiel ends every game after
        at most `max_game_length()` moves, so where play can come back to a position
        (the state's text not telling how many moves were played) the count is part of
        the position (`zermelo.open` sets it when exploring without it finds a loop)."""

    def start(self) -> Any:
        return self.game.new_initial_state()

    def to_move(self, state: Any) -> int:
        player: int = state.current_player()
        return max(player, 0)

    def moves(self, state: Any) -> List[Action]:
        player = state.current_player()
        return [(a, state.action_to_string(player, a)) for a in state.legal_actions()]

    def play(self, state: Any, move: Action) -> Any:
        return state.child(move[0])

    def key(self, state: Any) -> str:
        if self.counted:
            return f"{state.current_player()}@{state.move_number()}:{state}"
        return f"{state.current_player()}:{state}"

    def move_text(self, move: Action) -> str:
        return move[1]

    def render(self, state: Any) -> str:
        return str(state)

    def outcome(self, state: Any) -> Union[None, int, str, Sequence[int]]:
        if not state.is_terminal():
            return None
        returns = state.returns()
        if self.win_loss and all(r in (-1, 0, 1) for r in returns):
            first, second = returns
            return "draw" if first == second else 0 if first > second else 1
        points = [int(r) for r in returns]
        if points != list(returns):
            raise ValueError(f"returns {returns} are not whole numbers")
        # Zero-sum returns are the margin itself: the winner's return as its points.
        return [max(p, 0) for p in points] if self.zero_sum else points


def explored(game: OpenSpielGame, max_positions: int, memory: Optional[int], workers: int = 1) -> Found:
    """Every position of `game` from its start, keyed by its text where that is enough:
    where play comes back to a position, or two states of one text differ, OpenSpiel's end
    after `max_game_length()` moves is part of the game, and the positions are keyed by the
    number of moves played too; on `workers` processes."""
    if not game.counted:
        try:
            found = explore(game, max_positions, memory, workers=workers)
            if not found.graph.comes_back():
                return found
        except KeyClash:
            pass
        game.counted = True
    return explore(game, max_positions, memory, workers=workers)
