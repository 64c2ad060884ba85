"""Every game of OpenSpiel's registry that zermelo may open (sequential, deterministic, of
perfect information), tried at small sizes: opened and solved, refused by the key check
(with why), or refused for its size; and where it opens, zermelo's value at random
positions against OpenSpiel's own `alpha_beta_search` from the same state. Prints the
table of the guide (docs/guide/your-own-game.md).

    .venv/bin/python python/benches/openspiel_registry.py [SECONDS] [MAX_POSITIONS]

Each game runs in a process of its own, stopped after SECONDS (default 120), with at most
MAX_POSITIONS positions (default 2,000,000) and 4 GiB of memory."""

import json
import multiprocessing
import queue
import random
import sys
import tempfile
import time

import pyspiel

SIZES = {
    "amazons": "amazons(board_size=6)",
    "breakthrough": "breakthrough(rows=4,columns=3)",
    "chinese_checkers": "chinese_checkers",
    "clobber": "clobber(rows=3,columns=4)",
    "connect_four": "connect_four(rows=4,columns=4)",
    "cursor_go": "cursor_go(board_size=2,max_cursor_moves=4)",
    "dots_and_boxes": "dots_and_boxes(num_rows=2,num_cols=2,utility_margin=true)",
    "go": "go(board_size=2,max_game_length=12)",
    "gomoku": "gomoku(size=4,connect=3)",
    "havannah": "havannah(board_size=2)",
    "hex": "hex(num_rows=3,num_cols=3)",
    "lines_of_action": "lines_of_action(max_game_length=20)",
    "mnk": "mnk(m=3,n=4,k=3)",
    "nim": "nim(pile_sizes=1;3;5;7)",
    "oware": "oware(num_houses_per_player=2,num_seeds_per_house=2)",
    "quoridor": "quoridor(board_size=3,wall_count=0)",
    "twixt": "twixt(board_size=5,ansi_color_output=false)",
    "y": "y(board_size=4)",
}
"""The parameters tried for each game with size parameters (the others at their only size)."""

SKIPPED = {"efg_game": "reads a game from a file of its own"}
"""Games of the registry left out, and why."""

SAMPLES = 12
"""Random positions of each game that opens valued by both."""


def eligible():
    """The short names of the registry's sequential, deterministic, perfect-information games."""
    sequential = pyspiel.GameType.Dynamics.SEQUENTIAL
    deterministic = pyspiel.GameType.ChanceMode.DETERMINISTIC
    perfect = pyspiel.GameType.Information.PERFECT_INFORMATION
    return [
        t.short_name
        for t in pyspiel.registered_games()
        if t.dynamics == sequential and t.chance_mode == deterministic and t.information == perfect
    ]


def agreement(spiel, game, rng):
    """How many of `SAMPLES` random positions zermelo values as OpenSpiel's alpha-beta
    does (the value for the player to move), and the first that differs."""
    from open_spiel.python.algorithms import minimax

    agreed, checked, differs = 0, 0, None
    for _ in range(SAMPLES):
        state = spiel.new_initial_state()
        for _ in range(rng.randrange(0, 12)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        mover = state.current_player()
        theirs, _ = minimax.alpha_beta_search(spiel, state=state.clone(), maximizing_player_id=mover)
        ours = game.state(position=f"{mover}:{state}").value(progress=False)
        checked += 1
        expected = "win" if theirs > 0 else "lose" if theirs < 0 else "draw"
        margin = ours.get("margin")
        if ours.value == expected and (margin is None or abs(margin) == abs(theirs)):
            agreed += 1
        elif differs is None:
            differs = f"{state.history()}: zermelo {ours.value} {margin}, OpenSpiel {theirs}"
    return agreed, checked, differs


def trial(spec, max_positions, answer):
    """Opens and solves `openspiel:spec` and checks it against alpha-beta: what it found,
    put in `answer`."""
    import resource

    import zermelo

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory() as data:
            game = zermelo.open(f"openspiel:{spec}", data, max_positions=max_positions)
            solved = game.solve(progress=False, save=False)
            found = {"opens": True, "positions": int(solved.positions), "value": solved.value}
            if solved.get("margin") is not None:
                found["margin"] = solved.margin
            found["seconds"] = round(time.perf_counter() - started, 1)
            answer.put(dict(found))
            spiel = pyspiel.load_game(spec)
            if spiel.num_players() == 2:
                try:
                    found["agreed"], found["checked"], found["differs"] = agreement(spiel, game, random.Random(1))
                except NotImplementedError:
                    found["unchecked"] = "OpenSpiel's alpha-beta cannot search it to the end"
    except (ValueError, zermelo.ZermeloError, MemoryError) as e:
        found = {"opens": False, "why": str(e).splitlines()[0], "seconds": round(time.perf_counter() - started, 1)}
    answer.put(found)


def tried(spec, seconds, max_positions):
    """What `trial` found for `spec`, or that it ran out of time."""
    answer = multiprocessing.Queue()
    process = multiprocessing.Process(target=trial, args=(spec, max_positions, answer))
    process.start()
    process.join(seconds)
    stopped = process.is_alive()
    if stopped:
        process.kill()
        process.join()
    found = None
    try:
        while True:
            found = answer.get(timeout=1)
    except queue.Empty:
        pass
    if found is None:
        why = f"not solved within {seconds:.0f} s" if stopped else f"the process ended with code {process.exitcode}"
        return {"opens": False, "why": why}
    if found["opens"] and "checked" not in found and "unchecked" not in found:
        found["unchecked"] = f"OpenSpiel's alpha-beta did not finish within {seconds:.0f} s"
    return found


def row(spec, found):
    """A row of the guide's table."""
    if not found["opens"]:
        why = found["why"].replace("|", "/")
        return f"| `{spec}` | refused | {why if len(why) <= 240 else why[:240] + ' …'} |"
    value = found["value"] + (f" by {found['margin']}" if "margin" in found else "")
    checked = f"{found['agreed']} of {found['checked']} random positions as alpha-beta" if "checked" in found else found.get("unchecked", "")
    return f"| `{spec}` | {found['positions']:,} positions, {value} ({found['seconds']} s) | {checked} |"


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 120.0
    max_positions = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
    print("| game | zermelo | checked, or why refused |")
    print("|---|---|---|")
    for name in sorted(eligible()):
        if name in SKIPPED:
            print(f"| `{name}` | left out | {SKIPPED[name]} |")
            continue
        spec = SIZES.get(name, name)
        found = tried(spec, seconds, max_positions)
        print(row(spec, found), flush=True)
        print(json.dumps({"spec": spec, **found}), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
