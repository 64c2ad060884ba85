"""zermelo: strongly solve, play and analyse two-player games of perfect information.

>>> import zermelo
>>> game = zermelo.open("tictactoe")
>>> game.solve().value
'draw'
>>> game.moves(["a1", "b2"]).value
'draw'

Every game of the command line is here, by the same spec (`zermelo.games()` lists them),
with the same answers: each result is a dict with the fields of the command's JSON
document (`docs/schema.json`), readable as attributes too, and drawn in notebooks.

A player is a name (`"perfect"`, `"random"`, `"mcts"`, ...), a program speaking the
player protocol (`"cmd:python3 bot.py"`), or a Python function
`f(position, moves) -> move` (or `f(position, moves, turn)` to see the seat, the player
to move and the board), positions and moves in the game's notation.
"""

from __future__ import annotations

import builtins
import functools
import html
import inspect
import json
import os
import warnings
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from . import _native
from ._native import ZermeloError

__all__ = [
    "Counts",
    "Balance",
    "BalanceMap",
    "Estimate",
    "Game",
    "GameRecord",
    "Graph",
    "Grundy",
    "Position",
    "Record",
    "Solution",
    "Standings",
    "StudyReport",
    "ZermeloError",
    "balance",
    "estimate",
    "games",
    "open",
    "set_threads",
    "study",
]

Player = Union[str, Callable[..., str]]


class Record(dict):
    """A result: a dict of the fields of its JSON document, also read as attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self) -> list:
        return sorted(set(super().__dir__()) | set(self))


def _load(text: str) -> Any:
    """A JSON document, every object in it a `Record`."""
    return json.loads(text, object_hook=Record)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """An HTML table."""
    cells = lambda tag, row: "".join(f"<{tag}>{html.escape(str(c))}</{tag}>" for c in row)
    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f"<table><thead><tr>{cells('th', header)}</tr></thead><tbody>{body}</tbody></table>"


def _verdict(v: dict) -> str:
    """A value in words: `win in 5`, `lose by 2`, `draw`."""
    word = v.get("value") or "unknown"
    if v.get("margin") is not None:
        return f"{word} by {abs(v['margin'])}" if v["margin"] else word
    if v.get("remoteness") is not None and word != "draw":
        return f"{word} in {v['remoteness']}"
    return word


class Solution(Record):
    """The `solve` document: the value of the start for the first player, and what it took."""

    def _repr_html_(self) -> str:
        rows = [("game", self["game"]), ("value", _verdict(self)), ("for", self["to_move"])]
        rows += [(k, self[k]) for k in ("positions", "solver", "seconds") if k in self]
        rows += [(f["label"], f["value"]) for f in self.get("details", [])]
        return _table(("", ""), rows)


class Position(Record):
    """The `moves` document: a position, its value and every legal move's value; drawn as
    its board in notebooks, each move marked by its value (green wins, yellow draws, red
    loses; the number is the moves to the end, or the margin)."""

    def __init__(self, fields: dict, svg: Optional[str]):
        super().__init__(fields)
        self._svg = svg

    @property
    def best(self) -> list:
        """The moves the perfect player picks from."""
        return [m["move"] for m in self["moves"] if m.get("best")]

    @property
    def value(self) -> Optional[str]:
        """`win`, `lose` or `draw` for the player to move (`None` when not known)."""
        return self.get("value")

    def _repr_svg_(self) -> Optional[str]:
        return self._svg

    def __str__(self) -> str:
        moves = "\n".join(f"  {m['move']:<10} {_verdict(m)}{'  best' if m.get('best') else ''}" for m in self["moves"])
        return f"{self['board']}\n{self['to_move']} to move\n{moves}"


class Counts(Record):
    """The `count` document: complete games and positions, with their outcomes."""


class GameRecord(Record):
    """The `play` document: the players, the moves, the result (and any forfeit)."""


class Standings(Record):
    """The `tournament` document: one row per player (wins, draws, losses, forfeits and
    points with their 95 % interval), one per seat with each player's results in it, and
    the players' ratings in games of more than two seats."""

    def _repr_html_(self) -> str:
        share = lambda s: f"{100 * s['share']:.1f}"
        interval = lambda s: f"{100 * s['low']:.1f}–{100 * s['high']:.1f}"
        header = ("player", "wins", "shared", "draws", "losses", "forfeits", "win %", "points %", "95 % interval")
        rows = [
            (r["player"], r["wins"], r["shared"], r["draws"], r["losses"], r["forfeits"], f"{r['win_pct']:.1f}",
             share(r["points_share"]), interval(r["points_share"]))
            for r in self["players"]
        ]
        seat_rows = [
            (seat["name"], who, r["wins"], r["shared"], r["draws"], r["losses"], share(r["points_share"]),
             interval(r["points_share"]))
            for seat in self.get("seats", [])
            for who, r in [("(all)", seat)] + [(p["player"], p) for p in seat["players"]]
        ]
        seat_header = ("seat", "player", "wins", "shared", "draws", "losses", "points %", "95 % interval")
        text = f"<p>{self['games']} games of {html.escape(self['game'])}</p>" + _table(header, rows)
        text += _table(seat_header, seat_rows)
        if self.get("ratings"):
            ratings = [(r["player"], f"{r['elo']:+.0f}", f"{r['error']:.0f}") for r in self["ratings"]]
            text += _table(("player", "Bradley–Terry rating (Elo)", "standard error"), ratings)
        return text

    def plot(self, ax=None):
        """Two panels (matplotlib): the wins, draws and losses of each player as stacked
        bars, and the points share of each seat and of each player in it, with the 95 %
        intervals as error bars. `ax`: a pair of axes to draw on; returns the pair."""
        import matplotlib.pyplot as plt

        height = max(3.0, 0.6 + 0.5 * len(self["players"]))
        ax = ax if ax is not None else plt.subplots(1, 2, figsize=(12, height))[1]
        players, seats = ax
        names = [r["player"] for r in self["players"]]
        left = [0.0] * len(names)
        for key, colour in (("win_pct", "#3aa845"), ("shared_pct", "#7cc47f"), ("draw_pct", "#e2b600"), ("loss_pct", "#d64541")):
            widths = [r[key] for r in self["players"]]
            players.barh(names, widths, left=left, color=colour, label=key.split("_")[0])
            left = [a + b for a, b in zip(left, widths)]
        players.set_xlabel(f"% of {self['games']} games")
        players.set_xlim(0, 100)
        players.legend(loc="lower right", fontsize="small")
        groups = [[("all", seat)] + [(p["player"], p) for p in seat["players"]] for seat in self["seats"]]
        width = 0.8 / len(groups[0])
        for k, label in enumerate(name for name, _ in groups[0]):
            shares = [g[k][1]["points_share"] for g in groups]
            x = [i + (k - (len(groups[0]) - 1) / 2) * width for i in range(len(groups))]
            y = [100 * s["share"] for s in shares]
            errors = [[100 * (s["share"] - s["low"]) for s in shares], [100 * (s["high"] - s["share"]) for s in shares]]
            seats.bar(x, y, width, yerr=errors, capsize=3, label=label, color="#555555" if k == 0 else None)
        seats.set_xticks(range(len(groups)), [seat["name"] for seat in self["seats"]])
        seats.set_ylabel("points %")
        seats.set_title("points by seat (bars: 95 % intervals)", fontsize="medium")
        seats.set_ylim(0, 105)
        seats.legend(loc="upper right", fontsize="small")
        return ax


class Graph(Record):
    """The `graph` document: `nodes` (`id`, `position`, `seat`, `player`, `terminal`,
    `result`, `value`, `remoteness`, `size`) and `edges` (`source`, `target`, `move`,
    `seat`, `player`, `count`), the start node first."""

    def to_networkx(self):
        """The graph as a networkx `DiGraph`, every field an attribute of its node or edge."""
        import networkx as nx

        g = nx.DiGraph(game=self["game"], symmetry=self["symmetry"])
        for node in self["nodes"]:
            g.add_node(node["id"], **{k: v for k, v in node.items() if k != "id"})
        for edge in self["edges"]:
            g.add_edge(edge["source"], edge["target"], **{k: v for k, v in edge.items() if k not in ("source", "target")})
        return g

    def _repr_html_(self) -> str:
        kind = "classes" if self["symmetry"] else "positions"
        return f"<p>{html.escape(self['game'])}: {len(self['nodes']):,} {kind} of {self['positions']:,} positions, {len(self['edges']):,} edges</p>"


class Grundy(Record):
    """The `grundy` document: a heap game's values by heap size, its period and its proof."""

    def plot(self, ax=None):
        """The values by heap size (matplotlib)."""
        import matplotlib.pyplot as plt

        ax = ax or plt.subplots(figsize=(8, 3))[1]
        series = self["series"]
        ax.plot(range(len(series["values"])), series["values"], ".", markersize=3)
        ax.set_xlabel("heap size")
        ax.set_ylabel(series["what"])
        ax.set_title(series["title"])
        return ax


class StudyReport(Record):
    """A study's JSON document, with its report for people (`text`), its rows as CSV text
    (`csv`), its chart as SVG (`svg`, when a `plot` file was named) and the values the
    chart plots (`series`); `None` where the study has none."""

    text: str = ""
    csv: Optional[str] = None
    svg: Optional[str] = None

    def _repr_svg_(self) -> Optional[str]:
        return self.svg


class Balance(Record):
    """The `balance` document: per configuration of Big Points, the share of boards the
    first player wins, draws and loses under perfect play."""

    def _label(self, c: dict) -> str:
        extra = (f"+{c['white']}w" if c["white"] else "") + (f"+{c['black']}k" if c["black"] else "")
        return f"({c['colors']},{c['discs']}){extra}"

    def _repr_html_(self) -> str:
        header = ("config", "boards", "solved", "first %", "draw %", "second %", "seconds")
        rows = [
            (self._label(c), c["boards"], c["solved"], f"{c['first_wins_pct']:.1f}", f"{c['draws_pct']:.1f}",
             f"{c['second_wins_pct']:.1f}", f"{c['seconds']:.2f}")
            for c in self["configs"]
        ]
        return _table(header, rows)

    def plot(self, ax=None):
        """First-player wins, draws and second-player wins per configuration (matplotlib)."""
        import matplotlib.pyplot as plt

        ax = ax or plt.subplots(figsize=(1.5 + 1.1 * len(self["configs"]), 4))[1]
        labels = [self._label(c) for c in self["configs"]]
        bottom = [0.0] * len(labels)
        for key, name, colour in (("first_wins_pct", "first player wins", "#2e6eb4"), ("draws_pct", "draw", "#aaaaaa"),
                                  ("second_wins_pct", "second player wins", "#d66038")):
            heights = [c[key] for c in self["configs"]]
            ax.bar(labels, heights, bottom=bottom, color=colour, label=name)
            bottom = [a + b for a, b in zip(bottom, heights)]
        ax.set_ylabel("boards %")
        ax.set_xlabel("(colours, discs)")
        ax.legend(fontsize="small")
        return ax


class BalanceMap(Record):
    """The balance map of a family of boards: every member solved exactly (who wins, in how
    many moves or by how much), or skipped over its budget with its estimate, or refused.
    `members` holds one dict per member with `game`, `keys`, `status` and the fields of
    `solve`; `to_csv()` writes them, `plot()` draws the heatmap."""

    def __init__(self, doc: dict):
        super().__init__(doc["map"])

    @staticmethod
    def _cell(m: dict) -> str:
        if m["status"] != "solved":
            return "?" if m["status"] == "skipped" else ""
        if m["margin"] is not None:
            return f"{m['margin']:+d}"
        letter = {"win": "W", "lose": "L", "draw": "D"}[m["value"]]
        return letter if m["value"] == "draw" else f"{letter}{m['remoteness']}"

    def rows(self) -> list:
        """One flat dict per member: its varying keys, then status, value, remoteness,
        margin, positions and seconds (for pandas: `pd.DataFrame(map.rows())`)."""
        out = []
        for m in self["members"]:
            row = {k: m["keys"][k] for k in self["keys"]}
            for field in ("game", "status", "value", "remoteness", "margin", "positions", "seconds", "reason"):
                row[field] = m[field]
            out.append(row)
        return out

    def to_csv(self, path: Union[str, os.PathLike]) -> None:
        """Writes one CSV row per member (the columns of `rows()`)."""
        import csv

        rows = self.rows()
        with builtins.open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["game"])
            writer.writeheader()
            writer.writerows(rows)

    def _repr_html_(self) -> str:
        keys = list(self["keys"])
        header = (*keys, "first player", "moves or margin", "positions", "seconds", "note")
        rows = []
        for m in self["members"]:
            how = m["margin"] if m["margin"] is not None else m["remoteness"]
            rows.append((*(m["keys"][k] for k in keys), m["value"] or m["status"], "" if how is None else how,
                         m["positions"] if m["positions"] is not None else "", f"{m['seconds']:.2f}", m["reason"] or ""))
        return _table(header, rows)

    def plot(self, ax=None):
        """The heatmap of the first two varying keys (a third key: its first value's
        panel; pass `ax` per panel for more): blue first-player wins, grey draws, orange
        second-player wins, each cell labelled with its remoteness or margin (matplotlib)."""
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap

        keys = list(self["keys"]) or [None]
        row_key, col_key = (keys[0], keys[1]) if len(keys) > 1 else (None, keys[0])
        members = self["members"]
        if len(keys) > 2:
            first = {k: members[0]["keys"][k] for k in keys[2:]}
            members = [m for m in members if all(m["keys"][k] == v for k, v in first.items())]

        def values(key):
            seen = []
            for m in members:
                v = m["keys"].get(key, "") if key else ""
                if v not in seen:
                    seen.append(v)
            return seen

        rows, cols = values(row_key), values(col_key)
        grid = [[3] * len(cols) for _ in rows]
        ax = ax or plt.subplots(figsize=(1.2 + 0.6 * len(cols), 1.0 + 0.6 * len(rows)))[1]
        for m in members:
            i = rows.index(m["keys"].get(row_key, "") if row_key else "")
            j = cols.index(m["keys"].get(col_key, "") if col_key else "")
            grid[i][j] = {"win": 0, "draw": 1, "lose": 2}.get(m["value"], 3)
            ax.text(j, i, self._cell(m), ha="center", va="center", fontsize="small",
                    color="white" if m["status"] == "solved" else "black")
        ax.imshow(grid, cmap=ListedColormap(["#2e6eb4", "#b9b9b9", "#d66038", "#ffffff"]), vmin=0, vmax=3)
        ax.set_xticks(range(len(cols)), cols)
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(col_key or "")
        ax.set_ylabel(row_key or "")
        ax.set_title(self["family"], fontsize="small")
        return ax


class Estimate(Record):
    """The `estimate` document: how each seat fares by self-play, its shares of wins,
    draws, shared wins and points with 95 % intervals, and the length of a game (with, in
    score games, the winner's margin and the first-move advantage in points)."""

    def _repr_html_(self) -> str:
        def pct(s: dict) -> str:
            return f"{100 * s['share']:.1f} [{100 * s['low']:.1f}, {100 * s['high']:.1f}]"

        header = ("seat", "player", "win %", "draw %", "shared win %", "points %")
        rows = [
            (s["seat"] + 1, s["player"], pct(s["win"]), pct(s["draw"]), pct(s["shared_win"]), pct(s["points"]))
            for s in self["seats"]
        ]
        lines = [f"{self['games']} games of {html.escape(self['game'])} (95 % intervals)"]
        lines.append(f"game length {self['plies']['mean']:.1f} plies (sd {self['plies']['sd']:.1f})")
        if self["first_move_advantage"] is not None:
            a = self["first_move_advantage"]
            lines.append(f"first-move advantage {a['mean']:+.2f} points [{a['low']:+.2f}, {a['high']:+.2f}]")
        lines.append(f"{self['games_per_second']:.2f} games/s")
        return "<p>" + "<br>".join(lines) + "</p>" + _table(header, rows)

    def plot(self, ax=None):
        """Each seat's win, shared-win and points shares with their 95 % intervals as
        error bars (matplotlib)."""
        import matplotlib.pyplot as plt

        seats = self["seats"]
        ax = ax or plt.subplots(figsize=(1.5 + 1.2 * len(seats), 4))[1]
        kinds = (("win", "win", "#3aa845"), ("shared_win", "shared win", "#7cc47f"), ("points", "points", "#2e6eb4"))
        width = 0.8 / len(kinds)
        for k, (key, name, colour) in enumerate(kinds):
            xs = [i + (k - 1) * width for i in range(len(seats))]
            shares = [100 * s[key]["share"] for s in seats]
            below = [100 * (s[key]["share"] - s[key]["low"]) for s in seats]
            above = [100 * (s[key]["high"] - s[key]["share"]) for s in seats]
            ax.bar(xs, shares, width, yerr=[below, above], capsize=3, color=colour, label=name)
        ax.axhline(100 / len(seats), color="#888888", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(len(seats)))
        ax.set_xticklabels([f"seat {s['seat'] + 1}\n{s['player']}" for s in seats])
        ax.set_ylabel(f"% of {self['games']} games")
        ax.set_title(self["game"])
        ax.legend(fontsize="small")
        return ax


def _bytes(memory: Union[None, int, str]) -> Optional[int]:
    """Bytes from `1073741824`, `"512M"` or `"8G"`."""
    if memory is None or isinstance(memory, int):
        return memory
    text = str(memory).strip().upper().removesuffix("B")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}.get(text[-1:], 1)
    number = text[:-1] if scale > 1 else text
    try:
        return int(float(number) * scale)
    except ValueError:
        raise ValueError(f"memory must be bytes or a size like 512M or 8G, not {memory!r}") from None


def _moves(moves: Union[None, str, Iterable[str]]) -> list:
    """A list of moves from a list or from text `a1,b2`."""
    if moves is None:
        return []
    if isinstance(moves, str):
        return [m.strip() for m in moves.split(",") if m.strip()]
    return [str(m) for m in moves]


def _player(p: Player) -> Player:
    """A name as it is; a function taking (position, moves) called with the turn too."""
    if isinstance(p, str) or not callable(p):
        return p
    try:
        params = inspect.signature(p).parameters.values()
    except (TypeError, ValueError):
        return p
    positional = [q for q in params if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)]
    if any(q.kind == q.VAR_POSITIONAL for q in params) or len(positional) >= 3:
        return p

    @functools.wraps(p)
    def two(position, moves, turn):
        return p(position, moves)

    return two


class _Bar:
    """Shows long work as a tqdm bar, when tqdm is installed."""

    def __init__(self, show: bool):
        self.tqdm = None
        if show:
            with warnings.catch_warnings():
                # tqdm.auto warns when a notebook lacks ipywidgets, then draws text.
                warnings.simplefilter("ignore")
                try:
                    from tqdm.auto import tqdm

                    self.tqdm = tqdm
                except ImportError:
                    pass
        self.bar = None
        self.what = None

    def __call__(self, what: str, done: int, total: int) -> None:
        if self.tqdm is None:
            return
        if what != self.what:
            self.close()
            self.what = what
            self.bar = self.tqdm(total=total or None, desc=what, delay=0.5, leave=False)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self):
        return self if self.tqdm else None

    def __exit__(self, *exc) -> None:
        self.close()


class Game:
    """A game opened from its spec; see `zermelo.open`."""

    def __init__(self, spec: str, data: Union[None, str, os.PathLike] = None):
        data = data if data is not None else os.environ.get("ZERMELO_DATA", "zermelo-data")
        self._data = os.fspath(data)
        self._native = _native.Game(spec, self._data)

    @property
    def spec(self) -> str:
        """The spec as opened."""
        return self._native.spec

    @property
    def seats(self) -> int:
        """How many players the game has."""
        return self._native.seats

    def info(self) -> Record:
        """The game's catalog entry: name, summary, how to play, keys, players, solvers, examples."""
        return Record(_load(self._native.describe()))

    def players(self) -> list:
        """The players the game takes, each a dict of `name` and `help`."""
        return self.info()["players"]

    def solvers(self) -> list:
        """The solvers `solve` takes, the default first (empty: the game has one way)."""
        return self._native.solvers()

    def solve(
        self,
        solver: Optional[str] = None,
        *,
        position: Optional[str] = None,
        force: bool = False,
        save: bool = True,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
        progress: bool = True,
    ) -> Solution:
        """Strongly solves the game from its start (saving its table, as `zermelo solve`
        does, unless `save=False`) and returns the start's value; with `position` (in the
        game's notation, as `moves().position` writes it), that position's value. `memory`
        (bytes or `"8G"`) and `seconds` bound the work; Ctrl-C stops it."""
        with _Bar(progress) as bar:
            text = self._native.solve(solver, position, force, save, _bytes(memory), seconds, bar)
        return Solution(_load(text))

    def moves(
        self,
        moves: Union[None, str, Iterable[str]] = None,
        *,
        position: Optional[str] = None,
        all: bool = False,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
        progress: bool = True,
    ) -> Position:
        """The position after `moves` (a list, or text `a1,b2`) from the start, or from
        `position` (in the game's notation), with the value of every legal move
        (`all=True` lists every move of positions with very many)."""
        with _Bar(progress) as bar:
            text, svg = self._native.position(_moves(moves), position, all, _bytes(memory), seconds, bar)
        return Position(_load(text), svg)

    def graph(
        self,
        symmetry: bool = False,
        *,
        max_positions: int = 100_000,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
        progress: bool = True,
    ) -> "Graph":
        """The game graph: every position reachable from the start a node with its value
        and remoteness, every move an edge with the player making it; with `symmetry`, one
        node per class of positions under the game's symmetries, with its `size`. Refused
        (`ZermeloError`) past `max_positions` nodes. `.to_networkx()` gives a networkx
        `DiGraph`."""
        with _Bar(progress) as bar:
            text = self._native.graph(symmetry, max_positions, _bytes(memory), seconds, bar)
        return Graph(_load(text))

    def count(self, symmetry: bool = False, *, progress: bool = True) -> Counts:
        """Counts complete games and positions (`symmetry=True`: up to the game's symmetries)."""
        with _Bar(progress) as bar:
            return Counts(_load(self._native.count(symmetry, bar)))

    def bot_move(
        self,
        moves: Union[None, str, Iterable[str]] = None,
        player: Player = "perfect",
        *,
        position: Optional[str] = None,
        seed: int = 0,
        memory: Union[None, int, str] = None,
        seconds: Optional[float] = None,
    ) -> str:
        """The move `player` makes after `moves` from the start (or from `position`)."""
        return self._native.bot_move(_moves(moves), _player(player), position, seed, _bytes(memory), seconds)

    def play(
        self,
        players: Sequence[Player],
        *,
        position: Optional[str] = None,
        seed: int = 0,
        move_time: float = 10.0,
    ) -> GameRecord:
        """Plays one game, `players[i]` in seat `i`, from the start or from `position`; a
        player of your own has `move_time` seconds a move."""
        chosen = [_player(p) for p in players]
        return GameRecord(_load(self._native.play(chosen, position, seed, move_time)))

    def tournament(
        self,
        players: Optional[Sequence[Player]] = None,
        games: int = 100,
        *,
        position: Optional[str] = None,
        seed: int = 0,
        move_time: float = 10.0,
        progress: bool = True,
    ) -> Standings:
        """Plays `games` games between `players` (default: the game's own choice), each
        taking every seat equally often, every game from the start (or from `position`). A player of your own that answers an illegal
        move (or a program that times out or ends) forfeits that game; an exception
        raised by a Python player stops the tournament and is raised here."""
        chosen = [_player(p) for p in players] if players is not None else []
        with _Bar(progress) as bar:
            text = self._native.tournament(chosen, games, position, seed, move_time, bar)
        return Standings(_load(text))

    def selfplay(
        self,
        players: Union[Player, Sequence[Player]],
        games: int = 1000,
        *,
        until: Optional[float] = None,
        seed: int = 0,
        position: Optional[str] = None,
        move_time: float = 10.0,
        progress: bool = True,
    ) -> Estimate:
        """Estimates how each seat fares by self-play: `games` games with `players` (one
        player for every seat, or one per seat) seated, game `i` from the seed `seed + i`,
        on every core, every game from the start (or from `position`). With `until` (a
        share, e.g. 0.05), stops after the first round of 100 games at which every seat's
        95 % interval of its points share is narrower than that: the `estimate` document."""
        seated = [players] if isinstance(players, str) or callable(players) else list(players)
        chosen = [_player(p) for p in seated]
        with _Bar(progress) as bar:
            text = self._native.selfplay(chosen, games, until, seed, position, move_time, bar)
        return Estimate(_load(text))

    def grundy(self, to: Optional[int] = None, *, progress: bool = True) -> "Grundy":
        """The Grundy values (nim-values) of a heap game by heap size, to `to`, with the
        period found and proved: the `grundy` document."""
        args = {} if to is None else {"to": to}
        return Grundy(self.study("grundy", progress=progress, **args))

    def study(self, name: str, *, plot=None, csv=None, progress: bool = True, **args) -> "StudyReport":
        """The game family's own study `name` (see `describe()["studies"]`), e.g.
        `"grundy"` of a heap game or `"balance"` of Big Points, with its arguments as
        keywords: its JSON document, with its `text`, `csv` and `svg`. `plot` and `csv`
        name files to write the chart and the rows to."""
        return study(self.spec, name, data=self._data, plot=plot, csv=csv, progress=progress, **args)

    def __repr__(self) -> str:
        return f"zermelo.open({self.spec!r})"


def open(spec: str, data: Union[None, str, os.PathLike] = None) -> Game:
    """Opens the game of `spec` (e.g. `"tictactoe"`, `"pawns:cols=3,rows=5"`,
    `"dots:size=3"`); solved tables are saved in and read from the folder `data` (default:
    `$ZERMELO_DATA`, else `./zermelo-data`, as for the command line). A bad spec raises
    `ValueError`."""
    return Game(spec, data)


def balance(
    spec: str = "bigpoints",
    configs: Optional[Sequence[str]] = None,
    *,
    seconds: float = 60.0,
    memory: Union[None, int, str] = None,
    data: Union[None, str, os.PathLike] = None,
    every_board: bool = False,
    sample: Optional[int] = None,
    progress: bool = True,
) -> Union[Balance, BalanceMap]:
    """Is a game fair? For a family of boards, a spec whose values may be ranges `A..B`
    or alternatives `A|B` (`"mnk:m=3..5,n=3..5,k=3|4"`, `"pawns:cols=1..4,rows=3..6"`):
    every member solved exactly within `seconds` and `memory` each, as a `BalanceMap`.
    For Big Points (`"bigpoints:colors=2..3,discs=2"`; or, with `configs` such as
    `["2x2", "3x2"]`, of each configuration): every arrangement of the reduced boards
    solved, and how often the first player wins, draws or loses, as a `Balance`. Both are
    the `balance` document `zermelo balance` prints."""
    if _native.has_study(spec, "balance"):
        args = {"configs": list(configs or []), "every_board": every_board}
        if sample is not None:
            args["sample"] = sample
        return Balance(study(spec, "balance", memory=memory, progress=progress, **args))
    with _Bar(progress) as bar:
        if configs or every_board or sample is not None:
            raise ValueError("configs, every_board and sample are for Big Points sweeps (bigpoints:colors=..,discs=..)")
        data = data if data is not None else os.environ.get("ZERMELO_DATA", "zermelo-data")
        text = _native.balance_map(spec, float(seconds), os.fspath(data), _bytes(memory), bar)
    return BalanceMap(_load(text))


def _study_arg(value) -> str:
    """A study argument as the library reads it: switches as true/false, lists joined by commas."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def study(
    spec: str,
    name: str,
    *,
    data: Union[None, str, os.PathLike] = None,
    memory: Union[None, int, str] = None,
    plot: Union[None, str, os.PathLike] = None,
    csv: Union[None, str, os.PathLike] = None,
    progress: bool = True,
    **args,
) -> StudyReport:
    """Runs the study `name` that the game (or family) `spec` names offers, e.g.
    `study("octal:code=0.77", "grundy", to=100)` or `study("bigpoints:colors=2,discs=2",
    "balance")`, with its arguments as keywords: a `StudyReport`. The chart is written to
    the file `plot`, the rows to the file `csv`, when named."""
    data = data if data is not None else os.environ.get("ZERMELO_DATA", "zermelo-data")
    values = {k: _study_arg(v) for k, v in args.items()}
    if plot is not None:
        values["plot"] = os.fspath(plot)
    with _Bar(progress) as bar:
        text, doc, rows, svg, series = _native.study(spec, name, values, os.fspath(data), _bytes(memory), bar)
    report = StudyReport(_load(doc))
    if series is not None:
        report["series"] = _load(series)
    report.text, report.csv, report.svg = text, rows, svg
    if plot is not None and svg is not None:
        with builtins.open(plot, "w", encoding="utf-8") as f:
            f.write(svg)
    if csv is not None:
        if rows is None:
            raise ValueError(f"the {name} study has no rows to write to {os.fspath(csv)}")
        with builtins.open(csv, "w", encoding="utf-8") as f:
            f.write(rows)
    return report


def estimate(
    spec: str,
    players: Union[Player, Sequence[Player]],
    games: int = 1000,
    *,
    until: Optional[float] = None,
    seed: int = 0,
    progress: bool = True,
) -> Estimate:
    """How each seat of the game `spec` fares by self-play, for games too big to solve:
    `zermelo.open(spec).selfplay(...)`, as `zermelo balance SPEC --players ...` prints it."""
    return open(spec).selfplay(players, games, until=until, seed=seed, progress=progress)


def set_threads(threads: int) -> None:
    """Runs solves, searches, sweeps and self-play on `threads` threads instead of one
    per core (as `zermelo --threads N`); answers do not depend on it. Call it once, before
    the first solve: later calls raise `ValueError`."""
    _native.set_threads(int(threads))


def games() -> list:
    """Every game: its name, summary, how to play, keys, players, solvers and example specs."""
    return [Record(g) for g in _load(_native.games())]
