"""The results: one `Record` type per JSON document of `docs/schema.json` (and per object
nested in one), its fields declared as there, drawn in notebooks."""

from __future__ import annotations

import builtins
import dataclasses
import functools
import html
import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Type, TypeVar, Union

from . import _native
from ._record import Record

Big = Union[int, str]
"""A count: a number, or a string of digits when it exceeds 64 bits; past 128 bits, the
string "more than 3.4 × 10^38"."""


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """An HTML table."""

    def cells(tag: str, row: Sequence[Any]) -> str:
        return "".join(f"<{tag}>{html.escape(str(c))}</{tag}>" for c in row)

    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f"<table><thead><tr>{cells('th', header)}</tr></thead><tbody>{body}</tbody></table>"


@functools.lru_cache(maxsize=None)
def palette() -> Dict[str, Any]:
    """The colours every front end draws with (the page, the pictures, the report's
    charts): `win`, `draw`, `lose` and `unknown`, each an `ink` and a `fill`; the
    `seats`' colours; from the Okabe–Ito palette, told apart with any common colour
    vision deficiency."""
    loaded: Dict[str, Any] = json.loads(_native.palette())
    return loaded


class Printed(Record):
    """A result that prints as the command line prints it (`str()`), when it came with
    that text."""

    _text: Optional[str] = None

    def __str__(self) -> str:
        return self._text if self._text is not None else super().__str__()


_Shown = TypeVar("_Shown", bound=Printed)


def printed(cls: Type[_Shown], document: Union[str, Dict[str, Any]], text: str) -> _Shown:
    """The JSON document `document` (its text, or loaded) as a `cls` that prints as `text`."""
    from ._record import load

    result = cls(load(document) if isinstance(document, str) else document)
    result._text = text.rstrip("\n")
    return result


def _chip(value: Optional[str], words: str) -> str:
    """A value in words on its outcome's colour, for tables in notebooks."""
    tint = palette().get(value or "unknown", palette()["unknown"])
    return f"<span style='background:{tint['fill']};padding:0 0.4em;border-radius:0.6em'>{html.escape(words)}</span>"


def _verdict(v: Dict[str, Any]) -> str:
    """A value in words: `win in 5`, `lose by 2`, `draw`."""
    word: str = v.get("value") or "unknown"
    if v.get("margin") is not None:
        return f"{word} by {abs(v['margin'])}" if v["margin"] else word
    if v.get("remoteness") is not None and word != "draw":
        return f"{word} in {v['remoteness']}"
    return word


class Verdict(Record):
    """A value for the player concerned (`None` when not computed): `win`, `lose` or
    `draw`, with the moves to the end, the margin or the scores where the game has them."""

    value: Optional[str]
    remoteness: Optional[int]
    margin: Optional[int]
    scores: Optional[List[int]]


class Fact(Record):
    """A detail of a game's own: its key, a label to show and a value."""

    key: str
    label: str
    value: Union[Big, float, List[int]]


class Solution(Verdict, Printed):
    """The `solve` document: the value of the start for the first player, and what it took."""

    game: str
    position: Optional[str]
    to_move: str
    positions: Big
    solver: str
    seconds: float
    details: List[Fact]

    def _repr_html_(self) -> str:
        rows: List[Tuple[Any, Any]] = [("game", self.game), ("value", _verdict(self)), ("for", self.to_move)]
        if self.get("position") is not None:
            rows.insert(1, ("position", self.position))
        rows += [(k, self[k]) for k in ("positions", "solver", "seconds") if k in self]
        rows += [(f.label, f.value) for f in self.get("details", [])]
        return _table(("", ""), rows)


class Move(Verdict):
    """A legal move and its value for the player making it."""

    move: str
    best: bool
    note: Optional[str]


class Shape(Record):
    """A shape of a board's picture."""

    kind: str
    x: float
    y: float
    w: float
    h: float
    label: Optional[str]
    owner: Optional[int]
    color: Optional[str]
    move: Optional[str]


class Picture(Record):
    """A board as shapes to draw (`notes` may be absent)."""

    width: float
    height: float
    shapes: List[Shape]
    notes: List[str]


class Position(Verdict, Printed):
    """The `moves` document: a position, its value and every legal move's value; drawn as
    its board in notebooks, each move marked by its value (blue wins, grey draws, vermillion
    loses; the number is the moves to the end, or the margin)."""

    game: str
    position: str
    board: str
    picture: Optional[Picture]
    to_move: str
    terminal: bool
    result: Optional[str]
    points: Optional[List[int]]
    moves: List[Move]
    moves_total: Big
    details: List[Fact]

    def __init__(self, fields: Dict[str, Any], svg: Optional[str], text: Optional[str] = None) -> None:
        super().__init__(fields)
        self._svg = svg
        self._text = None if text is None else text.rstrip("\n")

    @property
    def best(self) -> List[str]:
        """The moves the perfect player picks from."""
        return [m.move for m in self.moves if m.get("best")]

    def _repr_svg_(self) -> Optional[str]:
        return self._svg

    def _repr_html_(self) -> str:
        """The board (its picture, else its text), the value for the player to move and
        every move's, as `zermelo moves` gives them."""
        board = self._svg or f"<pre>{html.escape(self.board)}</pre>"
        if self.get("result") is not None:
            said = f"game over: {html.escape(str(self.result))}"
        else:
            said = f"{html.escape(self.to_move)} to move: {_chip(self.get('value'), _verdict(self))}"
        rows = "".join(
            f"<tr><td><code>{html.escape(m.move)}</code></td><td>{_chip(m.get('value'), _verdict(m))}</td>"
            f"<td>{'best' if m.get('best') else ''}</td><td>{html.escape(m.get('note') or '')}</td></tr>"
            for m in self.moves
        )
        table = f"<table><thead><tr><th>move</th><th>value</th><th></th><th></th></tr></thead><tbody>{rows}</tbody></table>"
        return f"<div>{board}<p>{said}</p>{table if rows else ''}</div>"


class Tally(Record):
    """Positions or games counted, with their outcomes."""

    total: Big
    terminal: Big
    first_wins: Big
    second_wins: Big
    draws: Big


class Counts(Printed):
    """The `count` document: complete games and positions, with their outcomes."""

    game: str
    symmetry: bool
    games: Optional[Tally]
    positions: Optional[Tally]
    seconds: float
    details: List[Fact]

    def _repr_html_(self) -> str:
        header = ("", "in all", "terminal", "first player wins", "second player wins", "draws")
        rows = []
        for label, tally in (("complete games", self.get("games")), ("positions", self.get("positions"))):
            if tally is not None:
                ended = tally.terminal if label == "positions" else ""
                rows.append((label, tally.total, ended, tally.first_wins, tally.second_wins, tally.draws))
        text = _table(header, rows)
        if self.get("details"):
            text += _table(("", ""), [(f.label, f.value) for f in self.details])
        return text


class GameRecord(Printed):
    """The `play` document: the players, the moves, the result (and any forfeit)."""

    game: str
    position: Optional[str]
    players: List[str]
    moves: List[str]
    result: str
    forfeit: Optional[str]
    points: Optional[List[int]]

    def _repr_html_(self) -> str:
        rows: List[Tuple[Any, Any]] = [("players", ", ".join(self.players)), ("result", self.result)]
        if self.get("forfeit"):
            rows.append(("forfeit", self.forfeit))
        if self.get("points") is not None:
            rows.append(("points", " - ".join(str(p) for p in self.points or [])))
        rows.append(("moves", " ".join(self.moves)))
        return _table(("", ""), rows)


class Share(Record):
    """A share of games (0 to 1) with its 95 % interval."""

    share: float
    low: float
    high: float


class ForfeitReason(Record):
    """Why a player forfeited games of a tournament, and how many."""

    why: str
    games: int


class Standing(Record):
    """A player's row of a tournament."""

    player: str
    wins: int
    shared: int
    draws: int
    losses: int
    forfeits: int
    forfeit_reasons: List[ForfeitReason]
    win_pct: float
    shared_pct: float
    draw_pct: float
    loss_pct: float
    points: float
    points_share: Share


class SeatResults(Record):
    """The results of one seat of a tournament, or of one player in it."""

    games: int
    wins: int
    shared: int
    draws: int
    losses: int
    points: float
    win_share: Share
    points_share: Share


class SeatPlayer(SeatResults):
    """A player's results in one seat."""

    player: str


class Seat(SeatResults):
    """A seat of a tournament: its results, then each player's in it."""

    seat: int
    name: str
    players: List[SeatPlayer]


class Rating(Record):
    """A player's Bradley–Terry rating on the Elo scale, with its standard error."""

    player: str
    elo: float
    error: float


class Standings(Printed):
    """The `tournament` document: one row per player (wins, draws, losses, forfeits and
    points with their 95 % interval), one per seat with each player's results in it, and
    the players' ratings in games of more than two seats."""

    game: str
    position: Optional[str]
    games: int
    players: List[Standing]
    seats: List[Seat]
    ratings: Optional[List[Rating]]
    details: List[Fact]

    def _repr_html_(self) -> str:
        def share(s: Share) -> str:
            return f"{100 * s.share:.1f}"

        def interval(s: Share) -> str:
            return f"{100 * s.low:.1f}–{100 * s.high:.1f}"

        header = ("player", "wins", "shared", "draws", "losses", "forfeits", "win %", "points %", "95 % interval")
        rows = [
            (r.player, r.wins, r.shared, r.draws, r.losses, r.forfeits, f"{r.win_pct:.1f}",
             share(r.points_share), interval(r.points_share))
            for r in self.players
        ]
        seat_rows = [
            (seat.name, who, r.wins, r.shared, r.draws, r.losses, share(r.points_share), interval(r.points_share))
            for seat in self.get("seats", [])
            for who, r in [("(all)", seat)] + [(p.player, p) for p in seat.players]
        ]
        seat_header = ("seat", "player", "wins", "shared", "draws", "losses", "points %", "95 % interval")
        text = f"<p>{self.games} games of {html.escape(self.game)}</p>" + _table(header, rows)
        text += _table(seat_header, seat_rows)
        if self.get("ratings"):
            ratings = [(r.player, f"{r.elo:+.0f}", f"{r.error:.0f}") for r in self.ratings or []]
            text += _table(("player", "Bradley–Terry rating (Elo)", "standard error"), ratings)
        return text

    def plot(self, ax: Any = None) -> Any:
        """Two panels (matplotlib): the wins, draws and losses of each player as stacked
        bars, and the points share of each seat and of each player in it, with the 95 %
        intervals as error bars. `ax`: a pair of axes to draw on; returns the pair."""
        import matplotlib.pyplot as plt

        height = max(3.0, 0.6 + 0.5 * len(self.players))
        ax = ax if ax is not None else plt.subplots(1, 2, figsize=(12, height))[1]
        players, seats = ax
        names = [r.player for r in self.players]
        left = [0.0] * len(names)
        tints = palette()
        for key, colour in (("win_pct", tints["win"]["ink"]), ("shared_pct", tints["win"]["fill"]),
                            ("draw_pct", tints["draw"]["fill"]), ("loss_pct", tints["lose"]["ink"])):
            widths = [r[key] for r in self.players]
            players.barh(names, widths, left=left, color=colour, label=key.split("_")[0])
            left = [a + b for a, b in zip(left, widths)]
        players.set_xlabel(f"% of {self.games} games")
        players.set_xlim(0, 100)
        players.legend(loc="lower right", fontsize="small")
        groups: List[List[Tuple[str, SeatResults]]] = [
            [("all", seat)] + [(p.player, p) for p in seat.players] for seat in self.seats
        ]
        width = 0.8 / len(groups[0])
        for k, label in enumerate(name for name, _ in groups[0]):
            shares = [g[k][1].points_share for g in groups]
            x = [i + (k - (len(groups[0]) - 1) / 2) * width for i in range(len(groups))]
            y = [100 * s.share for s in shares]
            errors = [[100 * (s.share - s.low) for s in shares], [100 * (s.high - s.share) for s in shares]]
            seats.bar(x, y, width, yerr=errors, capsize=3, label=label, color=palette()["named"]["black"] if k == 0 else None)
        seats.set_xticks(range(len(groups)), [seat.name for seat in self.seats])
        seats.set_ylabel("points %")
        seats.set_title("points by seat (bars: 95 % intervals)", fontsize="medium")
        seats.set_ylim(0, 105)
        seats.legend(loc="upper right", fontsize="small")
        return ax


class Node(Record):
    """A position of the game graph (with symmetry, a class of `size` positions)."""

    id: int
    position: str
    seat: int
    player: str
    terminal: bool
    result: Optional[str]
    points: Optional[List[int]]
    value: Optional[str]
    remoteness: Optional[int]
    size: int


class Edge(Record):
    """A move of the game graph, and how many moves of the class it stands for."""

    source: int
    target: int
    move: str
    seat: int
    player: str
    count: int


class Graph(Printed):
    """The `graph` document (printed in Graphviz DOT, as `zermelo graph` prints it): the game's `seats` and their `players`' names, `nodes` (`id`,
    `position`, `seat`, `player`, `terminal`, `result`, `points`, `value`, `remoteness`,
    `size`) and `edges` (`source`, `target`, `move`, `seat`, `player`, `count`), the start
    node first."""

    game: str
    symmetry: bool
    directed: bool
    multigraph: bool
    positions: Big
    seats: int
    players: List[str]
    nodes: List[Node]
    edges: List[Edge]

    def to_networkx(self) -> Any:
        """The graph as a networkx `DiGraph`, every field an attribute of its node or edge."""
        import networkx as nx

        g = nx.DiGraph(game=self.game, symmetry=self.symmetry)
        for node in self.nodes:
            g.add_node(node.id, **{k: v for k, v in node.items() if k != "id"})
        for edge in self.edges:
            g.add_edge(edge.source, edge.target, **{k: v for k, v in edge.items() if k not in ("source", "target")})
        return g

    def _repr_html_(self) -> str:
        kind = "classes" if self.symmetry else "positions"
        positions = self.positions
        return f"<p>{html.escape(self.game)}: {len(self.nodes):,} {kind} of {positions:,} positions, {len(self.edges):,} edges</p>"


class Series(Record):
    """Values to plot, by heap size."""

    by_index = {"values": List[int]}
    title: str
    what: str


class Rare(Record):
    """The rare values of a heap game's Grundy sequence."""

    mask: int
    parity: bool
    side: int
    count: int
    first: List[int]


class Grundy(Record):
    """The `grundy` document: a heap game's values by heap size, its period and its proof,
    with `series`, the values plotted."""

    game: str
    preperiod: Optional[int]
    period: Optional[int]
    computed_to: int
    recurrence_to: int
    proven: bool
    source: str
    resumed_from: Optional[int]
    saved: Optional[str]
    seconds: float
    code: str
    grundy_computed_to: int
    grundy_pattern: Optional[List[int]]
    grundy_period: Optional[int]
    grundy_preperiod: Optional[int]
    grundy_recurrence_to: int
    name: Optional[str]
    outcomes: str
    pattern: Optional[Union[str, List[int]]]
    rare: Optional[Rare]
    rule: str
    start: List[int]
    series: Series

    def plot(self, ax: Any = None) -> Any:
        """The values by heap size (matplotlib)."""
        import matplotlib.pyplot as plt

        ax = ax or plt.subplots(figsize=(8, 3))[1]
        values = self.series["values"]
        ax.plot(range(len(values)), values, ".", markersize=3)
        ax.set_xlabel("heap size")
        ax.set_ylabel(self.series.what)
        ax.set_title(self.series.title)
        return ax


class Balance(Printed):
    """The `balance` document of a Big Points sweep: per configuration, the share of
    boards the first player wins, draws and loses under perfect play; printed as
    `zermelo balance` prints it."""

    configs: List[Record]
    seconds: float

    @staticmethod
    def _label(c: Dict[str, Any]) -> str:
        extra = (f"+{c['white']}w" if c["white"] else "") + (f"+{c['black']}k" if c["black"] else "")
        return f"({c['colors']},{c['discs']}){extra}"

    def _repr_html_(self) -> str:
        header = ("config", "boards", "solved", "first %", "draw %", "second %", "seconds")
        rows = [
            (self._label(c), c["boards"], c["solved"], f"{c['first_wins_pct']:.1f}", f"{c['draws_pct']:.1f}",
             f"{c['second_wins_pct']:.1f}", f"{c['seconds']:.2f}")
            for c in self.configs
        ]
        return _table(header, rows)

    def plot(self, ax: Any = None) -> Any:
        """First-player wins, draws and second-player wins per configuration (matplotlib)."""
        import matplotlib.pyplot as plt

        ax = ax or plt.subplots(figsize=(1.5 + 1.1 * len(self.configs), 4))[1]
        labels = [self._label(c) for c in self.configs]
        bottom = [0.0] * len(labels)
        tints = palette()
        for key, name, colour in (("first_wins_pct", "first player wins", tints["win"]["ink"]),
                                  ("draws_pct", "draw", tints["draw"]["fill"]),
                                  ("second_wins_pct", "second player wins", tints["lose"]["ink"])):
            heights = [c[key] for c in self.configs]
            ax.bar(labels, heights, bottom=bottom, color=colour, label=name)
            bottom = [a + b for a, b in zip(bottom, heights)]
        ax.set_ylabel("boards %")
        ax.set_xlabel("(colours, discs)")
        ax.legend(fontsize="small")
        return ax


class MemberEstimate(Record):
    """What solving a member skipped over its budget would take."""

    positions: int
    bytes: int
    seconds: float


class MemberReport(Record):
    """What a designer's report adds to a solved member of a balance map (`zermelo balance --report`):
    its first moves, those keeping its value, each seat's mean share of safe moves along
    perfect play and its certificate's SHA-256 (`None` where left out, with `notes`)."""

    first_moves: int
    keeping: int
    safe: Optional[List[float]]
    sha256: Optional[str]
    notes: List[str]


class Member(Verdict):
    """A member of a balance map: its game and varying `keys` (read by index), whether it
    was solved, skipped or refused, and the fields of `solve`."""

    by_index = {"keys": Dict[str, str]}
    game: str
    status: str
    to_move: Optional[str]
    positions: Optional[Big]
    solver: Optional[str]
    seconds: float
    details: List[Fact]
    estimate: Optional[MemberEstimate]
    reason: Optional[str]
    first_moves: List[Move]
    report: Optional[MemberReport]


class BalanceMap(Printed):
    """The balance map of a family of boards (printed as `zermelo balance` prints it): every member solved exactly (who wins, in how
    many moves or by how much), or skipped over its budget with its estimate, or refused.
    `members` holds one per member with `game`, `keys`, `status` and the fields of
    `solve`; the family's varying `keys` are read by index; `to_csv()` writes them,
    `plot()` draws the heatmap."""

    by_index = {"keys": List[str]}
    family: str
    member_seconds: float
    member_bytes: int
    first_wins: int
    draws: int
    second_wins: int
    skipped: int
    refused: int
    seconds: float
    members: List[Member]

    @staticmethod
    def _cell(m: Member) -> str:
        if m.status != "solved":
            return "?" if m.status == "skipped" else ""
        if m.margin is not None:
            return f"{m.margin:+d}"
        letter = {"win": "W", "lose": "L", "draw": "D"}[m.value or ""]
        return letter if m.value == "draw" else f"{letter}{m.remoteness}"

    @staticmethod
    def _short(f: Dict[str, Any]) -> str:
        """A first move's value, short: `W41`, `L40`, `D`, `+3`, `?` when not valued."""
        if f.get("value") is None:
            return "?"
        if f.get("margin") is not None:
            return f"{f['margin']:+d}"
        letter = {"win": "W", "lose": "L", "draw": "D"}[f["value"]]
        return letter if f["value"] == "draw" or f.get("remoteness") is None else f"{letter}{f['remoteness']}"

    def rows(self) -> List[Dict[str, Any]]:
        """One flat dict per member: its varying keys, then status, value, remoteness,
        margin, positions, seconds, reason and every first move's value, short
        (`first_move_values`: `4:W41 3:D 1:L40`; for pandas: `pd.DataFrame(map.rows())`)."""
        out = []
        for m in self.members:
            row = {k: m["keys"][k] for k in self["keys"]}
            for field in ("game", "status", "value", "remoteness", "margin", "positions", "seconds", "reason"):
                row[field] = m[field]
            row["first_move_values"] = " ".join(f"{f['move']}:{self._short(f)}" for f in m["first_moves"])
            out.append(row)
        return out

    def to_csv(self, path: Union[str, os.PathLike[str]]) -> None:
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
        for m in self.members:
            how = m.margin if m.margin is not None else m.remoteness
            rows.append((*(m["keys"][k] for k in keys), m.value or m.status, "" if how is None else how,
                         m.positions if m.positions is not None else "", f"{m.seconds:.2f}", m.reason or ""))
        return _table(header, rows)

    def plot(self, ax: Any = None) -> Any:
        """The heatmap of the first two varying keys (a third key: its first value's
        panel; pass `ax` per panel for more): blue first-player wins, grey draws, orange
        second-player wins, each cell labelled with its remoteness or margin (matplotlib)."""
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap

        keys: List[Optional[str]] = list(self["keys"]) or [None]
        row_key, col_key = (keys[0], keys[1]) if len(keys) > 1 else (None, keys[0])
        members = self.members
        if len(keys) > 2:
            first = {k: members[0]["keys"][k] for k in keys[2:]}
            members = [m for m in members if all(m["keys"][k] == v for k, v in first.items())]

        def values(key: Optional[str]) -> List[str]:
            seen: List[str] = []
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
            grid[i][j] = {"win": 0, "draw": 1, "lose": 2}.get(m.value or "", 3)
            ax.text(j, i, self._cell(m), ha="center", va="center", fontsize="small",
                    color="white" if m.status == "solved" else "black")
        tints = palette()
        cells = [tints["win"]["ink"], tints["draw"]["fill"], tints["lose"]["ink"], tints["named"]["white"]]
        ax.imshow(grid, cmap=ListedColormap(cells), vmin=0, vmax=3)
        ax.set_xticks(range(len(cols)), cols)
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(col_key or "")
        ax.set_ylabel(row_key or "")
        ax.set_title(self.family, fontsize="small")
        return ax


class Mean(Record):
    """A mean with its standard deviation and 95 % interval."""

    mean: float
    sd: float
    low: float
    high: float


class SeatEstimate(Record):
    """How one seat fared by self-play: its counts, and its shares with 95 % intervals."""

    seat: int
    player: str
    wins: int
    shared: int
    draws: int
    losses: int
    win: Share
    draw: Share
    shared_win: Share
    points: Share


class Estimate(Printed):
    """The `estimate` document: how each seat fares by self-play, its shares of wins,
    draws, shared wins and points with 95 % intervals, and the length of a game (with, in
    score games, the winner's margin and the first-move advantage in points)."""

    game: str
    players: List[str]
    games: int
    most_games: int
    until: Optional[float]
    reached: Optional[bool]
    seed: int
    seats: List[SeatEstimate]
    draws: Share
    plies: Mean
    margin: Optional[Mean]
    first_move_advantage: Optional[Mean]
    seconds: float
    games_per_second: float

    def _repr_html_(self) -> str:
        def pct(s: Share) -> str:
            return f"{100 * s.share:.1f} [{100 * s.low:.1f}, {100 * s.high:.1f}]"

        header = ("seat", "player", "win %", "draw %", "shared win %", "points %")
        rows = [
            (s.seat + 1, s.player, pct(s.win), pct(s.draw), pct(s.shared_win), pct(s.points))
            for s in self.seats
        ]
        lines = [f"{self.games} games of {html.escape(self.game)} (95 % intervals)"]
        lines.append(f"game length {self.plies.mean:.1f} plies (sd {self.plies.sd:.1f})")
        if self.first_move_advantage is not None:
            a = self.first_move_advantage
            lines.append(f"first-move advantage {a.mean:+.2f} points [{a.low:+.2f}, {a.high:+.2f}]")
        lines.append(f"{self.games_per_second:.2f} games/s")
        return "<p>" + "<br>".join(lines) + "</p>" + _table(header, rows)

    def plot(self, ax: Any = None) -> Any:
        """Each seat's win, shared-win and points shares with their 95 % intervals as
        error bars (matplotlib)."""
        import matplotlib.pyplot as plt

        seats = self.seats
        ax = ax or plt.subplots(figsize=(1.5 + 1.2 * len(seats), 4))[1]
        tints = palette()
        kinds = (("win", "win", tints["win"]["ink"]), ("shared_win", "shared win", tints["win"]["fill"]),
                 ("points", "points", tints["seats"][3]))
        width = 0.8 / len(kinds)
        for k, (key, name, colour) in enumerate(kinds):
            xs = [i + (k - 1) * width for i in range(len(seats))]
            shares = [100 * s[key].share for s in seats]
            below = [100 * (s[key].share - s[key].low) for s in seats]
            above = [100 * (s[key].high - s[key].share) for s in seats]
            ax.bar(xs, shares, width, yerr=[below, above], capsize=3, color=colour, label=name)
        ax.axhline(100 / len(seats), color=tints["unknown"]["ink"], linewidth=0.8, linestyle="--")
        ax.set_xticks(range(len(seats)))
        ax.set_xticklabels([f"seat {s.seat + 1}\n{s.player}" for s in seats])
        ax.set_ylabel(f"% of {self.games} games")
        ax.set_title(self.game)
        ax.legend(fontsize="small")
        return ax


class KeyInfo(Record):
    """A key of a game's spec: its default, its range and what it sets."""

    key: str
    default: str
    range: str
    help: str


class PlayerInfo(Record):
    """A player a game takes, and what it does."""

    name: str
    help: str


class StudyKey(Record):
    """An argument a study takes, and what it sets."""

    name: str
    kind: str
    default: str
    range: str
    help: str


class StudyInfo(Record):
    """A study a game family offers (`game.study(name, ...)`): what it tells, and the
    arguments it takes (`keys`, read by index)."""

    by_index = {"keys": List[StudyKey]}
    name: str
    summary: str


class GameInfo(Record):
    """A game's catalog entry: name, summary, how to play, `keys` (read by index),
    players, solvers, example specs and studies."""

    by_index = {"keys": List[KeyInfo]}
    name: str
    summary: str
    how_to_play: str
    players: List[PlayerInfo]
    solvers: List[str]
    examples: List[str]
    studies: List[StudyInfo]


@dataclasses.dataclass
class StudyReport:
    """What a study found: its JSON document (`document`, as `zermelo` prints it with
    `--json`), its report for people (`text`), its rows as CSV text (`csv`), its chart as
    SVG (`svg`, when a `plot` file was named) and the values the chart plots (`series`);
    `None` where the study has none."""

    document: Record
    text: str
    csv: Optional[str] = None
    svg: Optional[str] = None
    series: Optional[Record] = None

    def __str__(self) -> str:
        return self.text

    def _repr_svg_(self) -> Optional[str]:
        return self.svg


class Certificate(Record):
    """The counts of a solved game and a SHA-256 over its values in a canonical order
    (`rank` over a saved table, `position` over the reachable positions sorted)."""

    order: str
    positions: int
    terminal: Optional[int]
    wins: int
    draws: int
    losses: int
    sha256: str


class PlyRow(Record):
    """How the mover's moves fare at one ply: the mean shares that keep the value, lose
    one step and lose more."""

    ply: int
    seat: int
    positions: int
    keep: float
    one_step: float
    more: float


class SeatForgiveness(Record):
    """One seat's forgiveness: its mean share of safe moves and its critical positions."""

    seat: int
    name: str
    positions: int
    safe: float
    critical: int


class Forgiveness(Record):
    """Forgiveness over the perfect-play subgraph, by ply and by seat, with the critical
    positions (exactly one move keeps the value)."""

    positions: int
    by_ply: List[PlyRow]
    seats: List[SeatForgiveness]
    critical: int
    critical_positions: List[str]


class Replies(Record):
    """The replies to a first move, with their values for the player replying."""

    to_move: str
    total: int
    wins: int
    draws: int
    losses: int
    moves: List[Move]


class FirstMove(Verdict):
    """A first move, its value for the first player, and (at depth 2) the replies."""

    move: str
    replies: Optional[Replies]


class FirstMoves(Record):
    """Every first move's value: how many win, draw and lose, and how many keep the
    game's value."""

    total: int
    wins: int
    draws: int
    losses: int
    keeping: int
    warning: Optional[str]
    moves: List[FirstMove]


class SwapRule(Record):
    """The game under the swap rule: the fairest first moves (those closest to even when none
    draws) and the first player's value."""

    fairest: List[str]
    exact_draw: bool
    value: Verdict


class Strength(Record):
    """How the seats fare with one player (`soft:T`, `perfect:P`) in both: each seat's
    points share and the draws, with 95 % intervals."""

    player: str
    games: int
    first: Share
    second: Share
    draws: Share


class Setting(Verdict):
    """One setting of a key, solved: its value for the first player."""

    setting: str
    game: str
    to_move: str


class Compensation(Record):
    """The value along one key: the settings solved, where the result first changes and
    the fairest settings."""

    key: str
    settings: int
    bisected: bool
    solved: List[Setting]
    changes_at: Optional[str]
    fairest: List[str]


class Report(Verdict, Printed):
    """The `report` document: a designer's report from the strong solution; drawn in
    notebooks as tables and its plot of forgiveness by ply."""

    game: str
    to_move: str
    solver: str
    first_moves: FirstMoves
    swap: SwapRule
    forgiveness: Optional[Forgiveness]
    certificate: Optional[Certificate]
    compensation: Optional[Compensation]
    strengths: Optional[List[Strength]]
    notes: List[str]
    seconds: float

    def __init__(
        self,
        fields: Dict[str, Any],
        svg: Optional[str] = None,
        text: Optional[str] = None,
        page: Optional[str] = None,
        document: Optional[str] = None,
    ) -> None:
        super().__init__(fields)
        self._svg = svg
        self._text = None if text is None else text.rstrip("\n")
        self._page = page
        self._document = document

    def to_json(self) -> str:
        """The report as `zermelo report --json` prints it."""
        return self._document if self._document is not None else json.dumps(self, indent=2)

    def _repr_html_(self) -> str:
        """The page of `zermelo report --html`: its tables and charts."""
        if self._page is not None:
            return self._page
        f = self.first_moves
        text = f"<p><b>{html.escape(self.game)}</b>: {_verdict(self)} for {html.escape(self.to_move)}, who moves first</p>"
        text += f"<p>first moves: {f.total} ({f.wins} win, {f.draws} draw, {f.losses} lose)</p>"
        if f.warning:
            text += f"<p style='color:#a00'><b>{html.escape(f.warning)}</b></p>"
        text += _table(("move", "value"), [(m.move, _verdict(m)) for m in f.moves])
        s = self.swap
        moves = html.escape(", ".join(s.fairest))
        fairest = f"fairest {moves} (an exact draw)" if s.exact_draw else f"no first move draws; the closest to even: {moves}"
        text += f"<p>swap rule: {fairest}; the first player's value: {_verdict(s.value)}</p>"
        if self.forgiveness is not None:
            g = self.forgiveness
            text += _table(
                ("seat", "positions", "safe moves %", "critical positions"),
                [(r.name, r.positions, f"{100 * r.safe:.1f}", r.critical) for r in g.seats],
            )
            text += self._svg or ""
        if self.certificate is not None:
            c = self.certificate
            text += f"<p>certificate ({c.positions} positions, by {c.order}): <code>{c.sha256}</code></p>"
        return text

    def plot(self, ax: Any = None) -> Any:
        """Each seat's mean share of moves that keep the value, by ply (matplotlib), one
        line per seat. `ax`: the axes to draw on; returns them."""
        import matplotlib.pyplot as plt

        ax = ax if ax is not None else plt.subplots(figsize=(8, 4))[1]
        if self.forgiveness is not None:
            for seat in self.forgiveness.seats:
                rows = [r for r in self.forgiveness.by_ply if r.seat == seat.seat]
                ax.plot([r.ply for r in rows], [100 * r.keep for r in rows], marker="o", label=seat.name)
        ax.set_xlabel("ply")
        ax.set_ylabel("moves that keep the value %")
        ax.set_ylim(0, 105)
        ax.set_title(self.game)
        ax.legend()
        return ax


class SeatsReport(Printed):
    """The `report_seats` document: a designer's report on a game of more than two seats,
    each seat's share by self-play and the exact scores where the game solves."""

    game: str
    seats: int
    scores: Optional[List[int]]
    selfplay: Estimate
    notes: List[str]

    def __init__(self, fields: Dict[str, Any], text: Optional[str] = None, document: Optional[str] = None) -> None:
        super().__init__(fields)
        self._text = None if text is None else text.rstrip("\n")
        self._document = document

    def to_json(self) -> str:
        """The report as `zermelo report --json` prints it."""
        return self._document if self._document is not None else json.dumps(self, indent=2)
