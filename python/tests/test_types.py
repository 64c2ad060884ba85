"""The package's declared types: each result type's fields are its document's properties
in docs/schema.json, with the same JSON types, so the two cannot drift; every answer holds
the fields its type declares; the version is the workspace's."""

import json
import re
import typing
from pathlib import Path

import pytest

import zermelo

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "schema.json").read_text())

# Each type and the schema object it declares, as a path through "$defs", "properties"
# and "items".
DECLARED = {
    zermelo.Verdict: "verdict",
    zermelo.Fact: "fact",
    zermelo.Solution: "solve",
    zermelo.Move: "move",
    zermelo.Shape: "shape",
    zermelo.Picture: "picture",
    zermelo.Position: "moves",
    zermelo.Tally: "tally",
    zermelo.Counts: "count",
    zermelo.GameRecord: "play",
    zermelo.Share: "share",
    zermelo.Standing: "tournament/players",
    zermelo.ForfeitReason: "tournament/players/forfeit_reasons",
    zermelo.SeatResults: "seat_results",
    zermelo.Seat: "tournament/seats",
    zermelo.SeatPlayer: "tournament/seats/players",
    zermelo.Rating: "tournament/ratings",
    zermelo.Standings: "tournament",
    zermelo.Node: "graph_node",
    zermelo.Edge: "graph_edge",
    zermelo.Graph: "graph",
    zermelo.Rare: "grundy/rare",
    zermelo.Grundy: "grundy",
    zermelo.Balance: "balance_sweep",
    zermelo.MemberEstimate: "map_member/estimate",
    zermelo.MemberReport: "map_member/report",
    zermelo.Member: "map_member",
    zermelo.BalanceMap: "balance_map/map",
    zermelo.Mean: "mean",
    zermelo.SeatEstimate: "estimate/seats",
    zermelo.Estimate: "estimate",
    zermelo.KeyInfo: "games/games/keys",
    zermelo.PlayerInfo: "games/games/players",
    zermelo.StudyKey: "games/games/studies/keys",
    zermelo.StudyInfo: "games/games/studies",
    zermelo.GameInfo: "games/games",
    zermelo.Certificate: "certificate",
    zermelo.PlyRow: "forgiveness/by_ply",
    zermelo.SeatForgiveness: "forgiveness/seats",
    zermelo.Forgiveness: "forgiveness",
    zermelo.Replies: "replies",
    zermelo.FirstMove: "first_move",
    zermelo.FirstMoves: "report/first_moves",
    zermelo.SwapRule: "report/swap",
    zermelo.Report: "report",
    zermelo.SeatsReport: "report_seats",
    zermelo.Setting: "setting",
    zermelo.Compensation: "compensation",
    zermelo.Strength: "strength",
}

# The package's documents are the command line's without `command` (the command's name),
# and with a `grundy` document's `series` (the values plotted).
EXTRA = {zermelo.Grundy: {"series"}}


def resolve(node):
    """`node` with its `$ref` followed and its `allOf` parts' properties merged in."""
    if "$ref" in node:
        node = resolve(SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]])
    properties = dict(node.get("properties", {}))
    for part in node.get("allOf", []):
        properties.update(resolve(part).get("properties", {}))
    return {**node, "properties": properties}


def schema_object(path):
    name, *fields = path.split("/")
    node = resolve(SCHEMA["$defs"][name])
    for field in fields:
        node = resolve(node["properties"][field])
        if "items" in node:
            node = resolve(node["items"])
    return node


def properties(path):
    return set(schema_object(path)["properties"])


JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


def schema_kinds(node):
    """The JSON types a schema node allows, an array's as `array of ...`."""
    node = resolve(node)
    if "oneOf" in node:
        return set().union(*(schema_kinds(part) for part in node["oneOf"]))
    if "const" in node or "enum" in node:
        return {JSON_TYPES[type(v)] for v in node.get("enum", [node.get("const")])}
    kinds = node.get("type", "object")
    kinds = {kinds} if isinstance(kinds, str) else set(kinds)
    if "array" in kinds and "items" in node:
        kinds = kinds - {"array"} | {f"array of {k}" for k in schema_kinds(node["items"])}
    return kinds


def hint_kinds(hint):
    """The JSON types a declared type takes, in the terms of `schema_kinds`."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union:
        return set().union(*(hint_kinds(a) for a in args))
    if origin is list:
        return {f"array of {k}" for k in hint_kinds(args[0])}
    if origin is dict or (isinstance(hint, type) and issubclass(hint, dict)):
        return {"object"}
    return {JSON_TYPES[hint]}


@pytest.mark.parametrize("kind", DECLARED, ids=lambda k: k.__name__)
def test_declared_fields_are_the_schemas(kind):
    declared = set(kind.fields())
    expected = properties(DECLARED[kind]) - {"command"} | EXTRA.get(kind, set())
    assert declared == expected
    # A field that a method would hide is read by index, never declared as an attribute.
    assert not (declared - set(kind.by_index)) & set(dir(kind))
    assert set(kind.by_index) <= set(dir(kind))
    node = schema_object(DECLARED[kind])
    for name in declared - EXTRA.get(kind, set()):
        assert hint_kinds(kind.fields()[name]) == schema_kinds(node["properties"][name]), name


def test_every_result_type_is_checked():
    records = {v for v in vars(zermelo).values() if isinstance(v, type) and issubclass(v, zermelo.Record)}
    # `Series` is the package's own (the values a `Grundy` plots), in no schema.
    assert records - {zermelo.Record, zermelo.Series} == set(DECLARED)


def closed(kind):
    """Whether the schema object of `kind` forbids fields it does not name (a heap game's
    `grundy` document adds its family's own)."""
    if kind not in DECLARED:
        return True
    node = schema_object(DECLARED[kind])
    return node.get("additionalProperties") is False or node.get("unevaluatedProperties") is False


def mismatched(record):
    """The fields of `record`, and of every record in it, that its type does not declare,
    and those it declares that the schema requires but `record` lacks."""
    if isinstance(record, list):
        return [f for r in record for f in mismatched(r)]
    if not isinstance(record, zermelo.Record) or type(record) is zermelo.Record:
        return []  # a value, or an object the schema leaves open
    kind = type(record)
    extra = [f"{kind.__name__}.{f} undeclared" for f in record if f not in kind.fields() and closed(kind)]
    required = set(schema_object(DECLARED[kind]).get("required", [])) if kind in DECLARED else set()
    missing = [f"{kind.__name__}.{f} missing" for f in sorted(required & set(kind.fields()) - set(record))]
    return extra + missing + [f for value in record.values() for f in mismatched(value)]


def test_every_answer_holds_its_declared_fields(data):
    g = zermelo.open("tictactoe", data)
    answers = [g.solve(progress=False), g.moves(["a1"]), g.count(progress=False), g.graph(progress=False)]
    answers += [g.play(["perfect", "random"]), g.tournament(["perfect", "random"], games=4, progress=False)]
    answers += [g.selfplay("random", 100, progress=False), g.info(), zermelo.games()]
    answers += [g.report(2, selfplay=10, progress=False)]
    answers += [zermelo.open("dots:size=2", data).report(compensate="komi=0..1", progress=False)]
    answers += [zermelo.open("subtraction:set=1/2/3", data).grundy(to=20, progress=False)]
    answers += [zermelo.balance("mnk:m=3,n=3,k=3|4", seconds=5, data=data, progress=False)]
    answers += [zermelo.balance("bigpoints:colors=2,discs=2", progress=False)]
    assert [f for answer in answers for f in mismatched(answer)] == []


def test_nested_objects_are_their_declared_types():
    g = zermelo.open("tictactoe")
    view = g.moves(["a1"])
    assert isinstance(view.moves[0], zermelo.Move) and isinstance(view.details, list)
    standings = g.tournament(["perfect", "random"], games=4, progress=False)
    assert isinstance(standings.seats[0].players[0], zermelo.SeatPlayer)
    assert isinstance(standings.players[0].points_share, zermelo.Share)
    counts = g.count(progress=False)
    assert isinstance(counts.games, zermelo.Tally) and counts.games["total"] == 255168
    graph = g.graph(progress=False)
    assert isinstance(graph.nodes[0], zermelo.Node) and isinstance(graph.edges[0], zermelo.Edge)
    info = next(g for g in zermelo.games() if g["keys"])
    assert isinstance(info.players[0], zermelo.PlayerInfo) and isinstance(info["keys"][0], zermelo.KeyInfo)


def test_the_version_is_the_workspaces():
    cargo = (ROOT / "Cargo.toml").read_text()
    workspace = re.search(r'\[workspace\.package\][^\[]*?version\s*=\s*"([^"]+)"', cargo).group(1)
    assert zermelo.__version__ == workspace
