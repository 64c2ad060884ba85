"""The page to play a game against the perfect bot, and its HTTP API, served from this
Python process: the same server as `zermelo serve`, so that it also plays the games of
your own this process opened."""

from __future__ import annotations

import inspect
import json
import socket
import threading
import time
import urllib.parse
import urllib.request
from typing import Any, Union

from . import _native
from ._game import Game, open as open_game
from ._own import name_of
from ._options import PathLike, data_folder


def serve(
    game: Union[str, Game, Any, None] = None,
    *,
    port: int = 8080,
    host: str = "127.0.0.1",
    budget: float = 2.0,
    data: PathLike = None,
    background: bool = False,
) -> str:
    """Serves the page of `zermelo serve` (every game of the catalog, and the games of
    your own opened in this process) on `host:port` (port 0: a free one), with `budget`
    seconds of work a request. Returns the page's address, opening `game`; with
    `background`, at once, the server running on a thread until the process ends;
    otherwise it serves until Ctrl-C (which returns to Python, the server thread
    running on). `game` is a spec, an opened `Game`, or a game of your own as
    `zermelo.open` takes it (opened here); a game of your own shows on the page under its
    `name`, with its docstring as how to play it. Without `game`, the catalog's first."""
    if game is None:
        game = json.loads(_native.games())[0]["name"]
    if not isinstance(game, (str, Game)):
        game = open_game(game, data=data)
    spec = game if isinstance(game, str) else game.spec
    if isinstance(game, Game) and game.source is not None:
        _native.offer_own(spec, name_of(game.source), how_to_play(game.source))
    if port == 0:
        with socket.socket() as s:
            s.bind((host, 0))
            port = s.getsockname()[1]
    args = ["--data", data_folder(data), "serve", "--addr", f"{host}:{port}", "--budget", str(budget)]
    server = threading.Thread(target=_native.cli, args=(args,), name=f"zermelo serve {host}:{port}", daemon=True)
    server.start()
    url = f"http://{host}:{port}/?spec={urllib.parse.quote(spec, safe=':=,/')}"
    wait_for(f"http://{host}:{port}/api/games", server)
    print(f"zermelo is serving {spec} on {url}")
    if not background:
        while server.is_alive():
            server.join(0.2)
    return url


def how_to_play(game: object) -> str:
    """The docstring of a game of your own (its class's); empty when it has none of its
    own."""
    if type(game).__module__.split(".")[0] == "zermelo":
        return ""  # a game zermelo wraps (OpenSpiel's): its rules are the graph's
    doc = inspect.getdoc(game) or ""
    return "" if doc == inspect.getdoc(object) else doc


def wait_for(url: str, server: threading.Thread, seconds: float = 30.0) -> None:
    """Waits until the server at `url` answers (`ZermeloError` if its thread ended)."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            if not server.is_alive():
                break
            time.sleep(0.05)
    raise _native.ZermeloError(f"the server did not start on {url}")
