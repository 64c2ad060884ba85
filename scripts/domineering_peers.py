#!/usr/bin/env python3
"""Domineering side by side with Obsequi: who wins each empty board, Vertical first.

    cargo bench -p zermelo --bench domineering --no-run   # prints the bench's path
    python3 scripts/domineering_peers.py --obsequi /tmp/obsequi/Obsequi \
        --zermelo target/release/zermelo --bench target/release/deps/domineering-HASH \
        --runs 3 5x5 6x6 7x7 8x8

Obsequi (Nathan Bullock's solver) is built by hand in a temporary folder outside the
repository, from its public source; see BENCHMARKS.md, "Domineering at the frontier".
For each board the programs run one after the other, `--runs` times, alternating:
Obsequi; zermelo's proof of the one question Obsequi answers (who wins with Vertical
first), by the bench; and `zermelo solve`, which also answers with Horizontal first for
the outcome class (free on a square board, a second search on others). Each line gives
the median wall time, the peak memory, the nodes each counted, and whether the winners
agree.
"""

import argparse
import json
import re
import statistics
import tempfile

from peers import timed


def obsequi(binary, rows, cols, bits):
    out, seconds, peak = timed([binary], f"solve rows {rows} cols {cols} bits {bits} V\n")
    found = re.search(r"winner (\w), move .*?, nodes ([\d,]+)", out)
    winner = {"V": "Vertical", "H": "Horizontal"}[found.group(1)]
    return winner, int(found.group(2).replace(",", "")), seconds, peak


def proof(bench, rows, cols):
    out, seconds, peak = timed([bench, f"{rows}x{cols}"])
    board, winner, _, nodes, _ = out.splitlines()[-1].split()
    return winner, int(nodes), seconds, peak


def solve(binary, rows, cols, data):
    command = [binary, "--json", "--data", data, "solve", f"domineering:rows={rows},cols={cols}", "--no-save"]
    out, seconds, peak = timed(command)
    solution = json.loads(out)
    winner = "Vertical" if solution["value"] == "win" else "Horizontal"
    nodes = next(d["value"] for d in solution["details"] if d["key"] == "nodes")
    return winner, nodes, seconds, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--obsequi", required=True, help="the Obsequi binary")
    parser.add_argument("--zermelo", default="target/release/zermelo")
    parser.add_argument("--bench", required=True, help="the domineering bench binary")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bits", type=int, default=24, help="Obsequi's table: 2^bits entries")
    parser.add_argument("boards", nargs="+", help="ROWSxCOLS")
    args = parser.parse_args()
    print("| board | Obsequi | nodes | zermelo proof | nodes | ratio | `zermelo solve` (both movers) | agree |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as data:
        for board in args.boards:
            rows, cols = map(int, board.split("x"))
            runs = {"obsequi": [], "proof": [], "solve": []}
            for _ in range(args.runs):
                runs["obsequi"].append(obsequi(args.obsequi, rows, cols, args.bits))
                runs["proof"].append(proof(args.bench, rows, cols))
                runs["solve"].append(solve(args.zermelo, rows, cols, data))
            median = {k: statistics.median(r[2] for r in v) for k, v in runs.items()}
            peak = {k: max(r[3] for r in v) for k, v in runs.items()}
            winners = {r[0] for v in runs.values() for r in v}
            print(
                f"| {rows} × {cols} | {median['obsequi']:.3f} s, {peak['obsequi']:.0f} MiB "
                f"| {runs['obsequi'][0][1]:,} "
                f"| {median['proof']:.3f} s, {peak['proof']:.0f} MiB | {runs['proof'][0][1]:,} "
                f"| {median['proof'] / median['obsequi']:.2f} "
                f"| {median['solve']:.3f} s, {peak['solve']:.0f} MiB "
                f"| {'yes, ' + winners.pop() if len(winners) == 1 else 'NO'} |"
            )


if __name__ == "__main__":
    main()
