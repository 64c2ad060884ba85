"""Refusals from Python that name its own limits, and tournaments that say why each
forfeit was."""

import pytest

import zermelo


def test_item_16_over_budget_names_memory_and_seconds():
    """Item 16: an over-budget error speaks of `memory=` and `seconds=`, not a request."""
    with pytest.raises(zermelo.ZermeloError) as e:
        zermelo.open("mnk:m=8,n=8,k=5").moves(memory=1 << 20)
    assert "memory=1 MiB" in str(e.value)
    assert "request" not in str(e.value)


def test_item_17_forfeits_say_why():
    """Item 17: `Standings` says the reason of each forfeit, with its games."""
    standings = zermelo.open("tictactoe").tournament([lambda p, m: "zz", "random"], games=2)
    row = standings.players[0]
    assert row.forfeits == sum(r.games for r in row.forfeit_reasons)
    assert row.forfeits > 0
    assert all("'zz' is not a legal move" in r.why for r in row.forfeit_reasons)


def test_options_are_named_as_python_names_them(data):
    """The library says which option a refusal is about; Python names it as its keyword."""
    game = zermelo.open("tictactoe", data)
    with pytest.raises(ValueError, match=r"^depth=3: give 1 or 2$"):
        game.report(3, progress=False)
    with pytest.raises(zermelo.ZermeloError, match=r"\(the limit: max_positions=\)$") as e:
        game.graph(max_positions=5, progress=False)
    assert "--" not in str(e.value)
    with pytest.raises(zermelo.ZermeloError) as e:
        zermelo.open("mnk:m=8,n=8,k=5", data).moves(memory=1 << 20, seconds=1, progress=False)
    assert "memory=1 MiB" in str(e.value) and "--" not in str(e.value)


def test_a_table_to_solve_again_says_force_true(data):
    """A table of another format version is refused in Python's words: `force=True`."""
    zermelo.open("pawns:cols=3,rows=4", data).solve(progress=False)
    table = data / "pawns-3x4.zdb"
    stored = bytearray(table.read_bytes())
    stored[8] ^= 0x10
    table.write_bytes(bytes(stored))
    game = zermelo.open("pawns:cols=3,rows=4", data)
    with pytest.raises(zermelo.ZermeloError, match=r"solve again with force=True$") as e:
        game.solve(progress=False)
    assert "--" not in str(e.value)
    game.solve(force=True, progress=False)
    game.solve(progress=False)



def test_a_damaged_sequence_says_force_true(data):
    """A damaged saved sequence says how to compute it again, as Python asks for it."""
    data.mkdir(parents=True)
    (data / "octal-code-0-6.zdb").write_bytes(b"not a database")
    game = zermelo.open("octal:code=0.6", data)
    with pytest.raises(zermelo.ZermeloError) as e:
        game.grundy(to=9999, progress=False)
    assert "run with force=True, to compute the values again" in str(e.value)
    assert "--" not in str(e.value)
    assert game.grundy(to=9999, force=True, progress=False)["source"] == "computed now"
    assert game.grundy(to=9999, progress=False)["source"] == "read from the data folder"
