#!/usr/bin/env python3
"""A greedy Dots and Boxes player for zermelo's player protocol (docs/player-protocol.md).

It takes a box whenever it can (the move that completes the most boxes), else draws a
line that gives no box away (one that leaves no box with three sides), else any line.

Lines are named as zermelo names them: `1ab` joins the dots a1 and b1 (a horizontal line
in row 1), `12a` joins a1 and a2 (a vertical line in column a). Try it:

    zermelo tournament dots:size=3 --players 'cmd:python3 examples/bots/greedy_dots.py',random
"""

import os
import random
import sys


def sides(line):
    """The boxes a line borders, each named by its lower-left dot (row, column)."""
    if line[1].isdigit():  # vertical: rows r and r+1, column c
        r, c = int(line[0]), ord(line[2]) - ord("a")
        return [(r, c - 1), (r, c)]
    r, c = int(line[0]), ord(line[1]) - ord("a")  # horizontal: row r, columns c and c+1
    return [(r - 1, c), (r, c)]


def box_lines(box):
    """The four lines around a box."""
    r, c = box
    a, b = chr(ord("a") + c), chr(ord("a") + c + 1)
    return [f"{r}{a}{b}", f"{r + 1}{a}{b}", f"{r}{r + 1}{a}", f"{r}{r + 1}{b}"]


def choose(drawn, moves, rng):
    """The greedy move among `moves`, given the lines already `drawn`."""
    def filled(box, extra):
        return sum(line in drawn or line == extra for line in box_lines(box))

    def real(box):
        # A box exists when all its lines are on the board: drawn or still to draw.
        return all(line in drawn or line in legal for line in box_lines(box))

    legal = set(moves)
    takes = {m: sum(real(b) and filled(b, m) == 4 for b in sides(m)) for m in moves}
    best = max(takes.values())
    if best > 0:
        return rng.choice([m for m in moves if takes[m] == best])
    safe = [m for m in moves if all(not real(b) or filled(b, m) < 3 for b in sides(m))]
    return rng.choice(safe or moves)


def main():
    rng = random.Random(os.environ.get("ZERMELO_SEED"))
    drawn, moves = set(), []
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "position":
            lines = rest.split("|")[0]
            drawn = set() if lines == "-" else set(lines.split(","))
        elif word == "moves":
            moves = rest.split()
        elif word == "go":
            print(choose(drawn, moves, rng), flush=True)
        elif word == "quit":
            break


if __name__ == "__main__":
    main()
