#!/usr/bin/env python3
"""A player for any zermelo game: a uniformly random legal move.

It speaks zermelo's player protocol (docs/player-protocol.md): zermelo writes the game,
then for every turn the seat, the position, the legal moves and `go`; the bot answers its
move on one line. Try it:

    zermelo tournament tictactoe --players perfect,'cmd:python3 examples/bots/random_bot.py'
"""

import os
import random
import sys


def main():
    rng = random.Random(os.environ.get("ZERMELO_SEED"))
    moves = []
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "moves":
            moves = rest.split()
        elif word == "go":
            print(rng.choice(moves), flush=True)
        elif word == "quit":
            break


if __name__ == "__main__":
    main()
