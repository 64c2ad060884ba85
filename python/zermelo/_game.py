"""A game opened from its spec, and everything asked of it: solve, moves, graph, count,
a bot's move, one game, a tournament, self-play and the Grundy values."""

from __future__ import annotations

import builtins
import os
import re
import shutil
import threading
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._imported import resolved
from ._openspiel import PREFIX, OpenSpielGame, is_pyspiel_game
from ._openspiel import explored as explore_spiel
from ._openspiel import load as load_openspiel
from ._own import Explored, Found, GameProtocol, OverMemory, allowed, check, graph_head, identity, name_of, parse_moves, verify
from ._workers import explore as explore_game
from ._spill import explore_spilled, spill_folder
from ._options import Bar, Memory, Moves, PathLike, data_folder, given, to_bytes, to_moves
from ._players import Player, seated
from ._record import load, load_as
from ._search import Searcher
from ._results import (
    printed,
    StudyReport,
    Counts,
    Estimate,
    GameInfo,
    GameRecord,
    Graph,
    Grundy,
    PlayerInfo,
    Position,
    Report,
    SeatsReport,
    Solution,
    Standings,
)
from ._state import State


class Game:
    """A game opened from its spec; see `zermelo.open`."""

    def __init__(self, spec: str, data: PathLike = None, source: Optional[GameProtocol] = None) -> None:
        self._data = data_folder(data)
        self._native = _native.Game(spec, self._data)
        self.source = source
        """The game of your own it was explored from (`None` for a catalog game)."""
        self._searcher: Optional[Searcher] = None

    def _search(self, memory: Memory = None) -> Searcher:
        """The search of the game of your own (made once, its table kept between calls;
        `memory` bounds its table)."""
        if self.source is None:
            raise ValueError(f"{self.spec}: strong=False searches a game of your own or an OpenSpiel game; solve a catalog game strongly")
        if self._searcher is None or memory is not None:
            self._searcher = Searcher(self.source, to_bytes(memory))
        return self._searcher

    @property
    def spec(self) -> str:
        """The spec as opened."""
        return self._native.spec

    @property
    def classes(self) -> bool:
        """Whether its positions are classes under the game's symmetries: a game of your
        own with `canonical`, explored one state per class."""
        return callable(getattr(self.source, "canonical", None))

    def _notation(self, moves: Moves, position: Optional[str] = None) -> List[str]:
        """The moves as texts: from the start of a game of your own with `parse_move`,
        the notation of the move it reads in each."""
        texts = to_moves(moves)
        if position is not None or not callable(getattr(self.source, "parse_move", None)):
            return texts
        return parse_moves(self.source, texts)

    @property
    def seats(self) -> int:
        """How many players the game has."""
        return self._native.seats

    def info(self) -> GameInfo:
        """The game's catalog entry: name, summary, how to play, keys, players, solvers, examples."""
        return load_as(GameInfo, self._native.describe())

    def players(self) -> List[PlayerInfo]:
        """The players the game takes, each a dict of `name` and `help`."""
        return self.info().players

    def solvers(self) -> List[str]:
        """The solvers `solve` takes, the default first (empty: the game has one way)."""
        return self._native.solvers()

    def solve(
        self,
        # options: solve
        solver: Optional[str] = None,
        *,
        position: Optional[str] = None,
        force: bool = False,
        save: bool = True,
        memory: Memory = None,
        seconds: Optional[float] = None,
        remoteness: bool = False,
        mover_only: bool = False,
        book: Optional[int] = None,
        # end of options
        progress: bool = True,
        strong: bool = True,
    ) -> Solution:
        """Strongly solves the game from its start (saving its table, as `zermelo solve`
        does, unless `save=False`) and returns the start's value; with `position` (in the
        game's notation, as `moves().position` writes it), that position's value. `memory`
        (bytes or `"8G"`) and `seconds` bound the work; Ctrl-C stops it. A game solved by
        proof (Domineering) answers who wins without the remoteness; `remoteness=True`
        asks its exact solver for how many moves the game lasts too (other games always
        give it). A game of your own (or OpenSpiel's) with `strong=False` values the start
        alone by an alpha-beta search through its own methods, exploring only what the
        answer needs (`memory` bounds its table, default 32 MiB): who wins, and with
        `remoteness=True` how soon (a second search). `mover_only=True` answers for the
        player to move alone, leaving out the outcome class (on a Domineering board that is
        not square, a second proof). `book=N` also values every position up to `N` plies
        from the start and saves them as the game's opening book, which `moves()`, the
        perfect player and the page read before any search."""
        if not strong:
            if position is not None:
                raise ValueError("position: a search starts from the start; moves() values the position after moves")
            return Solution(self._search(memory).solution((), seconds, remoteness))
        with Bar(progress) as bar:
            document, text = self._native.solve(bar, **given("solve", locals()))
        return printed(Solution, document, text)

    def moves(
        self,
        # options: moves
        moves: Moves = None,
        *,
        position: Optional[str] = None,
        all: bool = False,
        memory: Memory = None,
        seconds: Optional[float] = None,
        remoteness: bool = False,
        # end of options
        progress: bool = True,
    ) -> Position:
        """The position after `moves` (a list, or text `a1,b2`) from the start, or from
        `position` (in the game's notation), with the value of every legal move
        (`all=True` lists every move of positions with very many). A game solved by proof
        (Domineering) values the moves win or lose, the winning first;
        `remoteness=True` gives each its remoteness, by the exact solver."""
        with Bar(progress) as bar:
            kw = given("moves", locals(), moves=self._notation(moves, position))
            document, svg, text = self._native.position(bar, **kw)
        return Position(load(document), svg, text)

    def state(self, moves: Moves = None, *, position: Optional[str] = None) -> State[Game]:
        """The position after `moves` from the start (or from `position`) as a `State`
        to step through from the rules alone, with no solve, whatever the game's size: its
        legal moves, `play(move)` giving the next state, its outcome and (the one step that
        solves, within a budget) its exact value."""
        state = State(self, self._notation(moves, position), position)
        state.position  # replays the moves now, so that a bad one raises here
        return state

    def report(
        self,
        # options: report
        depth: int = 1,
        *,
        compensate: Optional[str] = None,
        selfplay: Optional[int] = None,
        player: Optional[str] = None,
        memory: Memory = None,
        seconds: Optional[float] = None,
        # end of options
        progress: bool = True,
    ) -> Union[Report, SeatsReport]:
        """A designer's report from the game's strong solution (solved first when needed,
        within `memory` and `seconds`), as `zermelo report` gives it: every first move's
        value (with `depth=2` the replies to each), the swap rule, each seat's forgiveness
        along perfect play and a certificate of the solved values; with `compensate`
        (`"komi=-5..5"`, `"first=vertical|horizontal"`) the value along that key; with
        `selfplay` that many games for each of `soft:T` and `perfect:P` in both seats. A game
        of more than two seats gets a `SeatsReport`: `selfplay` games (100 unless told) of
        `player` (its first tournament player unless told) in every seat, and each seat's
        exact score where the game solves."""
        with Bar(progress) as bar:
            document, svg, text, page = self._native.report(bar, **given("report", locals()))
        fields = load(document)
        del fields["command"]
        if page is None:
            return SeatsReport(fields, text, document)
        return Report(fields, svg, text, page, document)

    def graph(
        self,
        # options: graph
        symmetry: bool = False,
        *,
        max_positions: int = 100000,
        memory: Memory = None,
        seconds: Optional[float] = None,
        # end of options
        progress: bool = True,
    ) -> Graph:
        """The game graph: every position reachable from the start a node with its value
        and remoteness, every move an edge with the player making it; with `symmetry`, one
        node per class of positions under the game's symmetries, with its `size`. Refused
        (`ZermeloError`) past `max_positions` nodes. `.to_networkx()` gives a networkx
        `DiGraph`; `str()` is the graph in Graphviz DOT, as `zermelo graph` prints it."""
        with Bar(progress) as bar:
            return printed(Graph, *self._native.graph(bar, **given("graph", locals())))

    def count(
        self,
        # options: count
        symmetry: bool = False,
        *,
        # end of options
        progress: bool = True,
    ) -> Counts:
        """Counts complete games and positions (`symmetry=True`: up to the game's symmetries)."""
        with Bar(progress) as bar:
            return printed(Counts, *self._native.count(bar, **given("count", locals())))

    def bot_move(
        self,
        moves: Moves = None,
        player: Player = "perfect",
        # options: bot_move
        *,
        position: Optional[str] = None,
        seed: int = 0,
        memory: Memory = None,
        seconds: Optional[float] = None,
        # end of options
    ) -> str:
        """The move `player` makes after `moves` from the start (or from `position`)."""
        return self._native.bot_move(self._notation(moves, position), seated(player), **given("bot_move", locals()))

    def play(
        self,
        players: Sequence[Player],
        # options: play
        *,
        position: Optional[str] = None,
        seed: int = 0,
        move_time: float = 10.0,
        # end of options
    ) -> GameRecord:
        """Plays one game, `players[i]` in seat `i`, from the start or from `position`; a
        player of your own has `move_time` seconds a move, past which it forfeits (a
        function is left to finish on its own)."""
        chosen = [seated(p) for p in players]
        return printed(GameRecord, *self._native.play(chosen, **given("play", locals())))

    def tournament(
        self,
        players: Optional[Sequence[Player]] = None,
        # options: tournament
        games: int = 100,
        *,
        position: Optional[str] = None,
        seed: int = 0,
        move_time: float = 10.0,
        # end of options
        progress: bool = True,
    ) -> Standings:
        """Plays `games` games between `players` (default: the game's own choice), each
        taking every seat equally often, every game from the start (or from `position`). A player of your own that answers an illegal
        move (or anything but text), answers nothing within `move_time` seconds, or (a
        program) ends, forfeits that game; an exception raised by a Python player stops
        the tournament and is raised here."""
        chosen = [seated(p) for p in players] if players is not None else []
        with Bar(progress) as bar:
            document, text = self._native.tournament(chosen, bar, **given("tournament", locals()))
        return printed(Standings, document, text)

    def selfplay(
        self,
        players: Union[Player, Sequence[Player]],
        # options: selfplay
        games: int = 1000,
        *,
        until: Optional[float] = None,
        seed: int = 0,
        position: Optional[str] = None,
        move_time: float = 10.0,
        # end of options
        progress: bool = True,
    ) -> Estimate:
        """Estimates how each seat fares by self-play: `games` games with `players` (one
        player for every seat, or one per seat) seated, game `i` from the seed `seed + i`,
        on every core, every game from the start (or from `position`). With `until` (a
        share, e.g. 0.05), stops after the first round of 100 games at which every seat's
        95 % interval of its points share is narrower than that: the `estimate` document."""
        seats: List[Player] = [players] if isinstance(players, str) or callable(players) else list(players)
        chosen = [seated(p) for p in seats]
        with Bar(progress) as bar:
            document, text = self._native.selfplay(chosen, bar, **given("selfplay", locals()))
        return printed(Estimate, document, text)

    def grundy(self, to: Optional[int] = None, *, force: bool = False, progress: bool = True) -> Grundy:
        """The Grundy values (nim-values) of a heap game by heap size, to `to`, with the
        period found and proved: the `grundy` document; `force`: the values saved in the
        data folder are computed again."""
        args = {} if to is None else {"to": to}
        found = run_study(self.spec, "grundy", args, data=self._data, progress=progress, force=force)
        return Grundy({**found.document, "series": found.series})

    def study(
        self, name: str, *, plot: PathLike = None, csv: PathLike = None, progress: bool = True, **args: object
    ) -> StudyReport:
        """The game family's own study `name` (`describe().studies` lists them with their
        keys' kinds, ranges and defaults), its keys as keywords, checked against the
        study's declaration (a key it does not take raises `TypeError`, a value of the
        wrong kind or out of range `ValueError`): a `StudyReport`. The chart is written to
        the file `plot`, the rows to the file `csv`, when named."""
        return run_study(self.spec, name, args, data=self._data, plot=plot, csv=csv, progress=progress)

    def __repr__(self) -> str:
        return f"zermelo.open({self.spec!r})"


def _study_arg(value: object) -> str:
    """A study's argument as the library reads it: switches as true/false, lists joined
    by commas."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def study(
    spec: str,
    name: str,
    *,
    data: PathLike = None,
    memory: Memory = None,
    plot: PathLike = None,
    csv: PathLike = None,
    progress: bool = True,
    **args: object,
) -> StudyReport:
    """Runs the study `name` that the game (or family) of `spec` offers, e.g.
    `study("octal:code=0.77", "grundy", to=100)`, its keys as keywords (`zermelo.games()`
    lists each study's, with their kinds, ranges and defaults): a `StudyReport`. The chart
    is written to the file `plot`, the rows to the file `csv`, when named; a study the game
    does not have, or a value of the wrong kind or out of range, raises `ValueError`, a key
    the study does not take `TypeError`."""
    return run_study(spec, name, args, data=data, memory=memory, plot=plot, csv=csv, progress=progress)


def run_study(
    spec: str,
    name: str,
    args: Mapping[str, object],
    *,
    data: PathLike = None,
    memory: Memory = None,
    plot: PathLike = None,
    csv: PathLike = None,
    progress: bool = True,
    force: bool = False,
) -> StudyReport:
    """`study`, its arguments in `args`; `force`: the tables it reads are computed again."""
    values = {k: _study_arg(v) for k, v in args.items()}
    if plot is not None:
        values["plot"] = os.fspath(plot)
    with Bar(progress) as bar:
        text, doc, rows, svg, series = _native.study(
            spec, name, values, data_folder(data), to_bytes(memory), bar, force
        )
    document = load(doc)
    document.pop("command", None)
    if plot is not None and svg is not None:
        with builtins.open(plot, "w", encoding="utf-8") as f:
            f.write(svg)
    if csv is not None:
        if rows is None:
            raise ValueError(f"the {name} study has no rows to write to {os.fspath(csv)}")
        with builtins.open(csv, "w", encoding="utf-8") as f:
            f.write(rows)
    return StudyReport(document, text, rows, svg, None if series is None else load(series))


def open(
    game: Union[str, GameProtocol, Any],
    data: PathLike = None,
    *,
    max_positions: int = 10_000_000,
    explore: bool = False,
    memory: Memory = None,
    search: bool = False,
    save: bool = True,
    workers: int = 1,
    spill: Optional[bool] = None,
) -> Game:
    """Opens the game of a spec (e.g. `"tictactoe"`, `"pawns:cols=3,rows=5"`,
    `"dots:size=3"`, `"openspiel:connect_four(rows=4,columns=5)"`, a game of your own by
    its import path: `"my_games:Race"` or `"path/games.py:Race"`), a game of your own
    (an object with the methods of `GameProtocol`) or an OpenSpiel game
    (`pyspiel.load_game(...)`): a game of your own is explored from its start, every
    position once, its keys checked as it goes, and refused past `max_positions`
    positions or past `memory` (bytes or `"8G"`; default: most of the memory the machine
    has free); its graph is saved in the data folder under its `name` and `version` and
    read back by the next `open` instead of exploring again (when the game's code and
    attributes are as they were, and random games played by its methods agree with the
    saved graph; a changed game must change its `version`, or pass `explore=True`; with
    `save=False` it is neither read nor saved, and the game is explored in the least
    memory).
    Solved tables are saved in and read from the folder `data` (default: `$ZERMELO_DATA`,
    else `./zermelo-data`, as for the command line). A bad spec or game raises `ValueError`.

    With `search=True` a game of your own (or OpenSpiel's) is not explored: `solve(strong=False)`,
    `moves` and the `"perfect"` player answer by an alpha-beta search through its methods,
    looking only at what each answer needs (a `SearchedGame`). A game refused for its
    positions or memory while exploring is opened so too, with a warning saying why.

    With `workers=N` a game of your own (or OpenSpiel's) is explored by `N` worker
    processes, each position by the one its key's fingerprint names: the same graph as
    one process finds, on `N` cores. Its game and states must pickle (`ValueError`
    otherwise); `memory` bounds all the processes together; Ctrl-C or a failing method
    stops every worker.

    A game of your own that outgrows `memory` while exploring is explored again into the
    data folder (`spilled/`), breadth first, its graph on disk and only a table of
    fingerprints in memory (a quarter of `memory`; older fingerprints in sorted runs on
    disk), with a line of progress every few seconds and a checkpoint every minute: a
    stopped exploring (Ctrl-C, a killed process) resumes from its last checkpoint at the
    next `open`, and a finished one is installed from the folder without exploring again.
    `spill=True` explores so from the start, `spill=False` never (a game past `memory` is
    then answered by search). Its states must pickle."""
    if isinstance(game, str):
        if game.startswith(PREFIX):
            game = load_openspiel(game)
        else:
            imported = resolved(game)
            if imported is None:
                if workers != 1:
                    raise ValueError(f"{game}: workers= explores a game of your own; a catalog game solves on every core already")
                return Game(game, data)
            game = imported
    elif is_pyspiel_game(game):
        game = OpenSpielGame(game)
    if search:
        return SearchedGame(game, data, memory)
    return own(game, data, max_positions, explore=explore, memory=memory, save=save, workers=workers, spill=spill)


REQUIRED = ("start", "to_move", "moves", "play", "outcome")
"""The methods every game of your own has."""

EXPLORING = threading.local()
"""The fingerprints of the games this thread is exploring (`EXPLORING.games`)."""


def own(
    game: GameProtocol,
    data: PathLike,
    max_positions: int,
    name: Optional[str] = None,
    explore: bool = False,
    memory: Memory = None,
    save: bool = True,
    workers: int = 1,
    spill: Optional[bool] = None,
) -> Game:
    """A game of your own installed as a game graph under `name` (default: the game's)
    and a short hash of its graph, so that every `Game` keeps its own: read from the
    graph saved for its name and version in the data folder (when the game's code and
    attributes are as they were and `verify` finds the game's methods agree with it),
    else (or with `explore`, or without `save`) explored from its start and saved there
    (unless not to `save`), on `workers` processes, or into the data folder past
    `memory` (`spill`, see `open`). A game whose
    methods open the game itself while it is explored is refused."""
    missing = [m for m in REQUIRED if not callable(getattr(game, m, None))]
    if missing:
        raise ValueError(
            f"zermelo.open takes a spec or a game with the methods {', '.join(REQUIRED)}: "
            f"{type(game).__name__} lacks {', '.join(missing)}"
        )
    graph = re.sub(r"[^A-Za-z0-9_-]+", "-", name or name_of(game)).strip("-") or "game"
    version = str(getattr(game, "version", "1"))
    folder = data_folder(data)
    saved = os.path.join(folder, "graphs", f"{graph}-v{re.sub(r'[^A-Za-z0-9_.-]+', '-', version)}.json.zst")
    head = graph_head(graph, version, game)
    budget = allowed(to_bytes(memory))
    exploring = EXPLORING.__dict__.setdefault("games", set())
    mark = head["fingerprint"]
    if mark in exploring:
        raise ValueError(f"{name_of(game)}: zermelo.open was called on the game while it is being explored (from its own methods)")
    exploring.add(mark)
    spilled = spill_folder(folder, graph, version, mark)
    if explore and os.path.isdir(spilled):
        shutil.rmtree(spilled)
    if spill is None and os.path.exists(os.path.join(spilled, "state.json")):
        spill = True  # a stopped or finished exploring of this game resumes
    try:
        if spill and not isinstance(game, OpenSpielGame):
            return spilled_game(game, data, graph, version, mark, spilled, budget, max_positions)
        read = None if explore or not save else saved_graph(game, head, saved, budget)
        if read is not None:
            differs = verify(game, read[1])
            if not differs:
                return Game(read[0], data, game)
            else:
                warnings.warn(f"{name_of(game)}: the graph saved in {saved} is not this game's ({differs}): explored again", stacklevel=3)
        try:
            if isinstance(game, OpenSpielGame):
                found = explore_spiel(game, max_positions, budget, workers)
                head = graph_head(graph, version, game)
            else:
                found = explore_game(game, max_positions, budget, workers=workers)
        except _native.ZermeloError as e:
            if isinstance(e, OverMemory) and spill is not False and not isinstance(game, OpenSpielGame):
                warnings.warn(f"{e}: explored again into {spilled}", stacklevel=3)
                return spilled_game(game, data, graph, version, mark, spilled, budget, max_positions)
            try:
                searched = SearchedGame(game, data, memory, str(e))
            except ValueError:
                raise e from None  # a game the search does not take: refused as it was
            warnings.warn(f"{e}: opened without exploring, answered by search", stacklevel=3)
            return searched
    finally:
        exploring.discard(mark)
    ident = identity(found.graph.identity(), version, head["fingerprint"])
    try:
        spec = install(game, graph, version, found, ident)
    except (ValueError, TypeError, OverflowError):
        check(game, found)  # says which position breaks the protocol, and how
        raise
    if save:
        try:
            _native.save_graph(spec.split("=", 1)[1], saved, head["fingerprint"], not getattr(game, "board_in_key", False))
        except (OSError, _native.ZermeloError):
            pass  # a folder that cannot be written: explored again next time
    return Game(spec, data, game)


def spilled_game(
    game: GameProtocol, data: PathLike, graph: str, version: str, fingerprint: str, folder: str, memory: Optional[int], max_positions: int
) -> Game:
    """A game of your own explored into `folder` (resumed there, or read back when it
    was explored to its end) and installed from it."""
    found = explore_spilled(game, folder, memory, max_positions)
    names = getattr(game, "seat_names", None)
    ident = identity(f"spilled:{found.created}:{found.edges}", version, fingerprint)
    spec = found.install(f"{graph}-{ident}", [str(n) for n in names] if names else None, version)
    return Game(spec, data, game)


class SearchedGame(Game):
    """A game of your own (or OpenSpiel's) opened without exploring it (`zermelo.open`
    with `search=True`, or a game too big to explore): `solve(strong=False)`, `moves`
    and the `"perfect"` player's `bot_move` answer by an alpha-beta search through its own
    methods; what needs every position raises `ZermeloError` saying why."""

    def __init__(self, source: GameProtocol, data: PathLike = None, memory: Memory = None, why: Optional[str] = None) -> None:
        self._data = data_folder(data)
        self.source = source
        self._searcher = Searcher(source, to_bytes(memory))
        self._why = why or f"{name_of(source)} was opened with search=True, not explored"

    @property
    def spec(self) -> str:
        """The game's name: it has no spec, being installed nowhere."""
        return name_of(self.source)

    @property
    def seats(self) -> int:
        """How many players the game has: two, the search's."""
        return 2

    def _refused(self, what: str) -> _native.ZermeloError:
        """The error of a question that needs every position."""
        return _native.ZermeloError(f"{self._why}: {what} needs every position explored; solve(strong=False), moves and the perfect player answer by search")

    def solve(
        self,
        solver: Optional[str] = None,
        *,
        position: Optional[str] = None,
        force: bool = False,
        save: bool = True,
        memory: Memory = None,
        seconds: Optional[float] = None,
        progress: bool = True,
        remoteness: bool = False,
        strong: bool = True,
        mover_only: bool = False,
        book: Optional[int] = None,
    ) -> Solution:
        """The start's value by search with `strong=False` (see `Game.solve`; the search
        answers for the player to move alone, whatever `mover_only`); a strong solve or an
        opening book raises `ZermeloError`."""
        if strong:
            raise self._refused("a strong solve")
        if book is not None:
            raise self._refused("an opening book")
        return super().solve(solver, position=position, memory=memory, seconds=seconds, remoteness=remoteness, strong=False)

    def moves(
        self,
        moves: Moves = None,
        *,
        position: Optional[str] = None,
        all: bool = False,
        memory: Memory = None,
        seconds: Optional[float] = None,
        progress: bool = True,
        remoteness: bool = False,
    ) -> Position:
        """The position after `moves` from the start with every legal move's value, by
        search within `seconds` (see `Game.moves`)."""
        if position is not None:
            raise ValueError("position: a searched game goes from its start by moves")
        return Position(self._search(memory).position(to_moves(moves), seconds), None)

    def bot_move(
        self,
        moves: Moves = None,
        player: Player = "perfect",
        *,
        position: Optional[str] = None,
        seed: int = 0,
        memory: Memory = None,
        seconds: Optional[float] = None,
    ) -> str:
        """The perfect player's move after `moves`, by search (other players need the
        game explored)."""
        if player != "perfect" or position is not None:
            raise self._refused(f"the player {player!r}" if player != "perfect" else "a position by its text")
        return self._search(memory).best_move(to_moves(moves), seconds)

    def state(self, moves: Moves = None, *, position: Optional[str] = None) -> State[Game]:
        raise self._refused("state()")

    def info(self) -> GameInfo:
        raise self._refused("info()")

    def solvers(self) -> List[str]:
        return ["search"]

    def report(self, *args: Any, **kwargs: Any) -> Report:
        raise self._refused("a report")

    def graph(self, *args: Any, **kwargs: Any) -> Graph:
        raise self._refused("the graph")

    def count(self, *args: Any, **kwargs: Any) -> Counts:
        raise self._refused("a count")

    def play(self, *args: Any, **kwargs: Any) -> GameRecord:
        raise self._refused("playing a game")

    def tournament(self, *args: Any, **kwargs: Any) -> Standings:
        raise self._refused("a tournament")

    def selfplay(self, *args: Any, **kwargs: Any) -> Estimate:
        raise self._refused("self-play")

    def grundy(self, *args: Any, **kwargs: Any) -> Grundy:
        raise self._refused("the Grundy values")

    def study(self, *args: Any, **kwargs: Any) -> StudyReport:
        raise self._refused("a study")

    def __repr__(self) -> str:
        return f"zermelo.open({name_of(self.source)!r}, search=True)"


def saved_graph(game: GameProtocol, head: Dict[str, str], saved: str, limit: Optional[int]) -> Optional[Tuple[str, Explored]]:
    """The graph saved at `saved` for `head` (what `graph_head` says of `game` now) in
    the library's graph file format, installed: its spec and lists; `None` where there is
    none, it is no regular file, it is damaged, it was saved for another game or version,
    or reading it takes more than `limit` bytes. An OpenSpiel game's graph saved with its
    moves counted sets the game to count them."""

    def read(head: Dict[str, str]) -> Optional[Tuple[str, Explored]]:
        board = bool(getattr(game, "board_in_key", False))
        found = _native.read_graph(saved, head["version"], head["fingerprint"], limit, board)
        if found is None:
            return None
        texts, movers, ends, firsts, targets, labels = found[1]
        return found[0], Explored(texts, movers, ends, firsts, targets, labels, None, None, None)

    found = read(head)
    if found is None and isinstance(game, OpenSpielGame) and not game.counted:
        game.counted = True
        found = read(graph_head(head["name"], head["version"], game))
        game.counted = found is not None
    return found


def install(game: GameProtocol, graph: str, version: str, found: Union[Explored, Found], ident: str) -> str:
    """Installs an explored graph of `game` under the name `graph` and its `identity`
    `ident`; the spec opening it."""
    names = getattr(game, "seat_names", None)
    extras: Dict[str, Any] = {
        "seat_names": [str(n) for n in names] if names else None,
        "version": version,
        "boards": found.boards,
        "heuristics": found.heuristics,
        "pictures": found.pictures,
        "board_from_key": bool(getattr(game, "board_in_key", False)),
    }
    name = f"{graph}-{ident}"
    if isinstance(found, Found):
        return found.graph.install(name, **extras)
    return _native.install_graph(
        name, found.texts, found.movers, found.ends, found.firsts, found.targets, found.labels, **extras
    )


def games() -> List[GameInfo]:
    """Every game: its name, summary, how to play, keys, players, solvers and example specs."""
    return [GameInfo(g) for g in load(_native.games())]


def set_threads(threads: int) -> None:
    """Runs solves, searches, sweeps and self-play on `threads` threads instead of one
    per core (as `zermelo --threads N`); answers do not depend on it. Call it once, before
    the first solve: later calls raise `ValueError`, as do 0 and more than 1024 threads."""
    _native.set_threads(int(threads))
