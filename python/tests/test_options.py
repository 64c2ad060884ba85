"""Each command's options are declared once, in the library: the native methods check
their keywords against that declaration, and the signatures of the stub and of `Game` are
written from its dump (docs/options.json) by scripts/options.py."""

import importlib.util
import inspect
import json
from pathlib import Path

import pytest

import zermelo
from zermelo import _native

ROOT = Path(__file__).resolve().parents[2]
DECLARED = json.loads((ROOT / "docs" / "options.json").read_text())["commands"]

def _script():
    """scripts/options.py, which writes the signatures from the dump."""
    spec = importlib.util.spec_from_file_location("options_from_dump", ROOT / "scripts" / "options.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_dump_is_what_the_native_module_declares():
    assert json.loads(_native.declared())["commands"] == DECLARED


@pytest.mark.parametrize("path", ["python/zermelo/_native.pyi", "python/zermelo/_game.py"])
def test_the_signatures_are_written_from_the_declarations(path):
    script = _script()
    commands = {c["command"]: c for c in DECLARED}
    text = (ROOT / path).read_text()
    stale = [m.group(2) for m in script.BLOCK.finditer(text) if m.group(0) not in script.written(text, commands, path.endswith(".pyi"))]
    assert not stale, f"{path}: the options of {stale} are stale: run scripts/schema"


def test_every_declared_keyword_is_in_the_signature_of_its_method():
    for command in DECLARED:
        method = getattr(zermelo.Game, command["command"], None)
        if method is None:  # `rules` is asked through `State`
            continue
        parameters = inspect.signature(method).parameters
        for option in (o for o in command["options"] if o["python"]):
            assert option["name"] in parameters, (command["command"], option["name"])
            first = parameters[option["name"]].kind == inspect.Parameter.POSITIONAL_OR_KEYWORD
            assert first == (option["python"] == "first"), (command["command"], option["name"])


def test_a_keyword_not_declared_is_a_type_error_that_names_it(tmp_path):
    game = _native.Game("tictactoe", str(tmp_path))
    with pytest.raises(TypeError, match=r"^report\(\) got an unexpected keyword argument 'html'$"):
        game.report(html="x.html")  # the command line's only
    with pytest.raises(TypeError, match=r"^count\(\) got an unexpected keyword argument 'symetry'$"):
        game.count(symetry=True)


def test_a_value_of_the_wrong_type_is_a_value_error_in_python_words(tmp_path):
    game = zermelo.open("tictactoe", tmp_path)
    with pytest.raises(ValueError, match=r"^force='yes': give True or False$"):
        game.solve(force="yes", progress=False)
    with pytest.raises(ValueError, match=r"^seed='1': give a whole number$"):
        game.play(["random", "random"], seed="1")
    with pytest.raises(ValueError, match=r"^move_time: '0.0' is not a number of seconds from 0.001 to 86400$"):
        game.play(["random", "random"], move_time=0)
    with pytest.raises(ValueError, match=r"^seconds=\[\]: give a number$"):
        game.moves(seconds=[], progress=False)


def test_declared_defaults_are_the_signatures_defaults():
    graph = inspect.signature(zermelo.Game.graph).parameters
    assert graph["max_positions"].default == 100_000
    play = inspect.signature(zermelo.Game.play).parameters
    assert play["move_time"].default == 10.0 and play["seed"].default == 0
    assert inspect.signature(zermelo.Game.solve).parameters["save"].default is True
