#!/usr/bin/env python3
"""Connect Four 7 x 6 side by side with Pascal Pons' solver: exact scores of positions.

    python3 scripts/connect4_peers.py --pons /tmp/pons/c4solver \
        --zermelo target/release/zermelo --runs 3 43534425 4353442 435344

Pons' solver (PascalPons/connect4) is built by hand in a temporary folder outside the
repository, from its public source (`make c4solver`), and run without its opening book.
For each position the two programs run one after the other, `--runs` times, alternating;
each line gives the median wall time, the peak memory, zermelo's nodes, both scores and
whether they agree. Pons scores a position `s > 0` when the player to move wins with its
disc number `43 - 2s` of the game at the latest (`s < 0`: the other wins so), 0 a draw;
zermelo's `win in N` (or `lose in N`) from a position of `n` discs ends with disc `n + N`,
which is the same score.
"""

import argparse
import json
import statistics

from peers import timed

CELLS = 42


def pons(binary, moves):
    """Pons' score of the position after `moves`, wall seconds and peak MiB."""
    out, seconds, peak = timed([binary], moves + "\n")
    line = out.split()
    if len(line) != 2 or line[0] != moves:
        raise SystemExit(f"unexpected output of {binary}: {out!r}")
    return int(line[1]), seconds, peak


def zermelo(binary, moves):
    """zermelo's score of the position after `moves` (as Pons scores it), nodes, seconds, MiB."""
    out, seconds, peak = timed([binary, "solve", "connect4:cols=7,rows=6", "--position", moves, "--json"])
    solution = json.loads(out)
    nodes = next(f["value"] for f in solution["details"] if f["key"] == "nodes")
    if solution["value"] == "draw":
        return 0, nodes, seconds, peak
    last_disc = len(moves) + solution["remoteness"]
    score = (CELLS + 1 - last_disc + 1) // 2
    return (score if solution["value"] == "win" else -score), nodes, seconds, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pons", required=True, help="Pons' c4solver")
    parser.add_argument("--zermelo", default="target/release/zermelo")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("positions", nargs="+", help="positions as columns 1-7, e.g. 4453")
    args = parser.parse_args()
    print("| position | plies | Pons score | zermelo score | agree | Pons wall | zermelo wall | zermelo nodes | Pons peak | zermelo peak |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for moves in args.positions:
        theirs, ours = [], []
        for _ in range(args.runs):
            theirs.append(pons(args.pons, moves))
            ours.append(zermelo(args.zermelo, moves))
        their_score, our_score = theirs[0][0], ours[0][0]
        agree = all(t[0] == their_score for t in theirs) and all(o[0] == their_score for o in ours)
        print(
            f"| `{moves}` | {len(moves)} | {their_score} | {our_score} | {'yes' if agree else 'NO'} "
            f"| {statistics.median(t[1] for t in theirs):.1f} s | {statistics.median(o[2] for o in ours):.1f} s "
            f"| {ours[0][1]:,} | {max(t[2] for t in theirs):.0f} MiB | {max(o[3] for o in ours):.0f} MiB |",
            flush=True,
        )


if __name__ == "__main__":
    main()
