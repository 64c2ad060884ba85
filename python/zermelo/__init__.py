"""zermelo: strongly solve, play and analyse two-player games of perfect information.

>>> import zermelo
>>> game = zermelo.open("tictactoe")
>>> game.solve().value
'draw'
>>> game.moves(["a1", "b2"]).value
'draw'

Every game of the command line is here, by the same spec (`zermelo.games()` lists them),
with the same answers: each result is a dict with the fields of the command's JSON
document (`docs/schema.json`), readable as attributes too, its fields declared by its
type (`Solution`, `Position`, ...), and drawn in notebooks.

A player is a name (`"perfect"`, `"random"`, `"mcts"`, ...), a program speaking the
player protocol (`"cmd:python3 bot.py"`), or a Python function
`f(position, moves) -> move` (or `f(position, moves, turn)` to see the seat, the player
to move and the board), positions and moves in the game's notation.
"""

from importlib.metadata import version as _version

from ._compare import Comparison, compare
from ._game import Game, SearchedGame, games, open, set_threads, study
from ._native import ZermeloError
from ._own import GameProtocol
from ._players import Player
from ._record import Record
from ._results import (
    Balance,
    BalanceMap,
    Counts,
    Edge,
    Estimate,
    Fact,
    ForfeitReason,
    GameInfo,
    GameRecord,
    Graph,
    Grundy,
    KeyInfo,
    Mean,
    Member,
    MemberEstimate,
    MemberReport,
    Move,
    Node,
    Picture,
    PlayerInfo,
    Position,
    Rare,
    Rating,
    Seat,
    SeatEstimate,
    SeatPlayer,
    SeatResults,
    Series,
    Shape,
    Share,
    Certificate,
    FirstMove,
    FirstMoves,
    Forgiveness,
    PlyRow,
    Replies,
    Report,
    SeatsReport,
    SeatForgiveness,
    SwapRule,
    Setting,
    Compensation,
    Solution,
    Standing,
    Strength,
    Standings,
    StudyInfo,
    StudyKey,
    StudyReport,
    Tally,
    Verdict,
)
from ._serve import serve
from ._state import State
from ._studies import balance, estimate

__version__: str = _version("zermelo")
"""The package's version: the workspace's (Cargo) version."""

__all__ = [
    "Balance",
    "BalanceMap",
    "Comparison",
    "Counts",
    "Edge",
    "Estimate",
    "Fact",
    "ForfeitReason",
    "Game",
    "SearchedGame",
    "GameInfo",
    "GameProtocol",
    "GameRecord",
    "Graph",
    "Grundy",
    "KeyInfo",
    "Mean",
    "Member",
    "MemberEstimate",
    "MemberReport",
    "Move",
    "Node",
    "Picture",
    "Player",
    "PlayerInfo",
    "Position",
    "Rare",
    "Rating",
    "Record",
    "Seat",
    "SeatEstimate",
    "SeatPlayer",
    "SeatResults",
    "Series",
    "Shape",
    "Share",
    "Certificate",
    "FirstMove",
    "FirstMoves",
    "Forgiveness",
    "PlyRow",
    "Replies",
    "Report",
    "SeatsReport",
    "SeatForgiveness",
    "SwapRule",
    "Setting",
    "Compensation",
    "Solution",
    "Standing",
    "State",
    "Strength",
    "Standings",
    "StudyInfo",
    "StudyKey",
    "StudyReport",
    "Tally",
    "Verdict",
    "ZermeloError",
    "balance",
    "compare",
    "estimate",
    "games",
    "open",
    "serve",
    "set_threads",
    "study",
]
