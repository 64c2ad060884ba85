"""Games of your own explored past memory into the data folder: sorted runs of
fingerprints on disk, the same values as exploring in memory, resumed after a stop."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pytest

import zermelo
from zermelo._own import explore
from zermelo._spill import explore_spilled
from test_search import loops_file, random_graph
from test_workers import Heaps


def values(game):
    """Every position's value and remoteness, by its text."""
    graph = game.graph(max_positions=10**7, progress=False)
    return {n.position: (n.value, n.remoteness) for n in graph.nodes}


def in_memory(game, data):
    return zermelo.open(game, data / "memory", save=False, spill=False)


def state_of(data):
    (folder,) = (data / "spilled").iterdir()
    return folder, json.loads((folder / "state.json").read_text())


@pytest.mark.parametrize("game", [lambda: Heaps(223), loops_file, lambda: random_graph(3, size=60)], ids=["heaps", "loops", "random"])
def test_spilled_values_equal_those_explored_in_memory(game, tmp_path):
    spilled = zermelo.open(game(), tmp_path, spill=True, memory="1M")
    assert values(spilled) == values(in_memory(game(), tmp_path))
    assert spilled.solve(progress=False).value == in_memory(game(), tmp_path).solve(progress=False).value


def test_a_big_game_spills_into_sorted_runs(tmp_path):
    game = zermelo.open(Heaps(223), tmp_path, spill=True, memory="1M")
    folder, state = state_of(tmp_path)
    assert state["done"] and state["created"] == state["processed"] == explore(Heaps(223)).positions
    assert state["runs"], "a table past its budget went to runs on disk"
    for run in state["runs"]:
        records = (folder / run).read_bytes()
        prints = [int.from_bytes(records[i : i + 16], "little") for i in range(0, len(records), 20)]
        assert prints == sorted(prints) and len(set(prints)) == len(prints)
    # Opened again, it is installed from the folder, not explored again.
    again = zermelo.open(Heaps(223), tmp_path, memory="1M")
    assert values(again) == values(game)


PAST_MEMORY = """
import sys, warnings
sys.path.insert(0, {tests!r})
from test_workers import Heaps
import zermelo
with warnings.catch_warnings(record=True) as said:
    warnings.simplefilter("always")
    game = zermelo.open(Heaps(400), {data!r}, memory="2M", save=False, spill={spill})
searched = isinstance(game, zermelo.SearchedGame)
print(game.solve(progress=False, strong=not searched).value, type(game).__name__, *[str(w.message) for w in said], sep="\\n")
"""


def past_memory(data, spill):
    """The start's value, the kind of game opened and the warnings said, of two heaps of
    400 opened in a process of its own (so that its memory grows from what it starts
    with) within 2 MB."""
    script = PAST_MEMORY.format(tests=os.path.dirname(__file__), data=str(data), spill=spill)
    value, kind, *said = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.splitlines()
    return value, kind, said


def test_past_memory_a_game_spills_rather_than_being_refused(tmp_path):
    value, kind, said = past_memory(tmp_path, None)
    assert kind == "Game" and any("explored again into" in w for w in said), said
    assert value == in_memory(Heaps(400), tmp_path).solve(progress=False).value
    _, state = state_of(tmp_path)
    assert state["done"] and state["runs"]


def test_spill_false_keeps_the_search_fallback(tmp_path):
    _, kind, said = past_memory(tmp_path, False)
    assert kind == "SearchedGame" and any("answered by search" in w for w in said), said
    assert not (tmp_path / "spilled").exists()


class Stopping(Heaps):
    """Two heaps whose `play` raises KeyboardInterrupt (as Ctrl-C does) at its `stop`-th call."""

    def __init__(self, n, stop):
        super().__init__(n)
        self.calls, self.stop = 0, stop

    def play(self, state, move):
        self.calls += 1
        if self.calls == self.stop:
            raise KeyboardInterrupt
        return super().play(state, move)


def test_an_interrupted_exploring_resumes_with_the_same_answer(tmp_path):
    folder = str(tmp_path / "spilled" / "heaps")
    with pytest.raises(KeyboardInterrupt):
        explore_spilled(Stopping(150, 60_000), folder, 1 << 20, 10**7, progress=False, every=0)
    state = json.loads(Path(folder, "state.json").read_text())
    assert not state["done"] and 0 < state["processed"] < 2 * 151**2 and state["runs"]
    resumed = explore_spilled(Heaps(150), folder, 1 << 20, 10**7, progress=False, every=0)
    assert resumed.done and resumed.created == resumed.processed == explore(Heaps(150)).positions
    spec = resumed.install("heaps-resumed")
    assert values(zermelo.open(spec, tmp_path)) == values(in_memory(Heaps(150), tmp_path))


KILLED = """
import sys
sys.path.insert(0, {tests!r})
from test_workers import Heaps
from zermelo._own import explore
from zermelo._spill import explore_spilled
explore_spilled(Heaps(150), {folder!r}, 1 << 20, 10**7, progress=False, every=0)
"""


def test_a_killed_exploring_resumes_with_the_same_answer(tmp_path):
    folder = str(tmp_path / "spilled" / "heaps")
    script = KILLED.format(tests=os.path.dirname(__file__), folder=folder)
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)])
    state = Path(folder, "state.json")
    try:
        while child.poll() is None and not (state.exists() and json.loads(state.read_text())["processed"] > 10_000):
            time.sleep(0.01)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert not json.loads(state.read_text())["done"]
    resumed = explore_spilled(Heaps(150), folder, 1 << 20, 10**7, progress=False, every=0)
    assert resumed.created == resumed.processed == explore(Heaps(150)).positions
    spec = resumed.install("heaps-killed")
    assert values(zermelo.open(spec, tmp_path)) == values(in_memory(Heaps(150), tmp_path))


def test_a_failing_method_is_named_with_its_position(tmp_path):
    class Broken(Heaps):
        def moves(self, state):
            if state[:2] == (100, 90):
                raise RuntimeError("no moves here")
            return super().moves(state)

    with pytest.raises(ValueError, match=r"moves\(state\) raised RuntimeError: no moves here \(at the position '\(100, 90, [01]\)'\)"):
        zermelo.open(Broken(100), tmp_path, spill=True, memory="1M")


def test_max_positions_holds_when_spilling(tmp_path):
    with pytest.raises(zermelo.ZermeloError, match="more than 1,000 positions"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            zermelo.open(Heaps(100), tmp_path, spill=True, max_positions=1000)
