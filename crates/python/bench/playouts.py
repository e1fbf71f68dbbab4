#!/usr/bin/env python3
"""Random-playout steps per second through the Python API of ``plateau``, for
each game, next to a pure-Python Abalone move generator as the baseline.

A step is one move of a random playout: list the legal moves, pick one at
random, apply it. Playouts start from each game's default variant (seed ``i``
for playout ``i``) and run to the end of the game. Three ways for each game:

- ``text``: ``legal_moves()`` and ``apply(move)`` (moves as text);
- ``actions``: ``legal_actions()`` and ``apply_action(a)`` (integers);
- ``pettingzoo``: the AEC environment (``plateau.pettingzoo.env``, with
  PettingZoo's order-enforcing wrapper), each step observing the acting
  agent (its observation tensor and action mask) and choosing among the
  mask's legal actions, as a learning loop does.

The baseline is written here, straightforwardly, from the rules
(docs/rules/abalone.md): the 61-cell hexagonal board as a dict of cells,
in-line moves of 1 to 3 marbles with sumito pushes (2 against 1, 3 against 1
or 2, never onto a friendly marble, pushing off the board scores), and
broadside moves of 2 or 3 marbles into empty cells. It plays the same random
playouts (push-out at 6 marbles, with the same cap on plies), counts its own
perft for the standard layout as a check (44, 1,936, 98,912), and is timed the
same way. It knows no repetition rule: its playouts stop at 6 marbles pushed
out or at the cap.

Usage: ``python bench/playouts.py [--seconds S]`` (each measurement runs at
least S seconds, default 3).
"""

import argparse
import random
import time

import plateau

# --- The pure-Python baseline -------------------------------------------------

# Rows A (1) to I (9); row r has cells numbered lo..hi.
ROWS = {1: (1, 5), 2: (1, 6), 3: (1, 7), 4: (1, 8), 5: (1, 9), 6: (2, 9), 7: (3, 9), 8: (4, 9), 9: (5, 9)}
CELLS = [(r, n) for r, (lo, hi) in ROWS.items() for n in range(lo, hi + 1)]
ON_BOARD = set(CELLS)
# The six directions as (row, number) steps; DIRS[i] and DIRS[i ^ 1] are opposite.
DIRS = [(0, 1), (0, -1), (1, 1), (-1, -1), (1, 0), (-1, 0)]
# Lines along which a group of 2 or 3 may lie (one of each pair of opposites).
AXES = [(0, 1), (1, 1), (1, 0)]


def name(cell):
    r, n = cell
    return "abcdefghi"[r - 1] + str(n)


def standard_layout():
    """Black on rows A, B and C3–C5; White on I, H and G5–G7."""
    board = {c: 0 for c in CELLS}
    for c in CELLS:
        r, n = c
        if r <= 2 or (r == 3 and 3 <= n <= 5):
            board[c] = 1
        elif r >= 8 or (r == 7 and 5 <= n <= 7):
            board[c] = 2
    return board


class PyAbalone:
    """A position: the board (0 empty, 1 Black, 2 White), the side to move and
    the marbles each side has pushed out."""

    def __init__(self):
        self.board = standard_layout()
        self.to_move = 1
        self.out = {1: 0, 2: 0}

    def over(self):
        return self.out[1] >= 6 or self.out[2] >= 6

    def legal_moves(self):
        """Moves as (kind, cells, direction): kind 'i' in-line (cells from the
        back marble to the front one, along the direction), 'b' broadside."""
        if self.over():
            return []
        me, board = self.to_move, self.board
        moves = []
        mine = [c for c in CELLS if board[c] == me]
        for c in mine:
            for d in DIRS:
                # In-line: c is the back marble; the group is c, c+d, c+2d
                # (as long as it is ours), moving along d.
                group = [c]
                nxt = (c[0] + d[0], c[1] + d[1])
                while True:
                    if nxt not in ON_BOARD:
                        break
                    v = board[nxt]
                    if v == 0:
                        moves.append(("i", tuple(group), d))
                        break
                    if v == me:
                        if len(group) == 3:
                            break
                        group.append(nxt)
                        nxt = (nxt[0] + d[0], nxt[1] + d[1])
                        continue
                    # An opponent marble: a sumito if we outnumber the line.
                    if len(group) < 2:
                        break
                    count = 0
                    p = nxt
                    while p in ON_BOARD and board[p] not in (0, me) and count < len(group):
                        count += 1
                        p = (p[0] + d[0], p[1] + d[1])
                    if count < len(group) and (p not in ON_BOARD or board[p] == 0):
                        moves.append(("i", tuple(group), d))
                    break
        # Broadside: groups of 2 or 3 along an axis, moved sideways.
        for c in mine:
            for a in AXES:
                group = [c]
                for k in (1, 2):
                    nxt = (c[0] + a[0] * k, c[1] + a[1] * k)
                    if nxt not in ON_BOARD or board[nxt] != me:
                        break
                    group.append(nxt)
                    for d in DIRS:
                        if d == a or d == (-a[0], -a[1]):
                            continue
                        if all(
                            (g[0] + d[0], g[1] + d[1]) in ON_BOARD and board[(g[0] + d[0], g[1] + d[1])] == 0
                            for g in group
                        ):
                            moves.append(("b", tuple(group), d))
        return moves

    def apply(self, mv):
        kind, group, d = mv
        board, me = self.board, self.to_move
        if kind == "i":
            front = group[-1]
            p = (front[0] + d[0], front[1] + d[1])
            # Push the opponent's marbles ahead, front first.
            line = []
            while p in ON_BOARD and board[p] not in (0, me):
                line.append(p)
                p = (p[0] + d[0], p[1] + d[1])
            if line:
                if p in ON_BOARD:
                    board[p] = board[line[-1]]
                else:
                    self.out[me] += 1
                for i in range(len(line) - 1, 0, -1):
                    board[line[i]] = board[line[i - 1]]
                board[line[0]] = 0
            board[(front[0] + d[0], front[1] + d[1])] = me
            board[group[0]] = 0
        else:
            for g in group:
                board[g] = 0
            for g in group:
                board[(g[0] + d[0], g[1] + d[1])] = me
        self.to_move = 3 - me

    def copy(self):
        c = PyAbalone.__new__(PyAbalone)
        c.board = dict(self.board)
        c.to_move = self.to_move
        c.out = dict(self.out)
        return c


def py_perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for mv in moves:
        child = pos.copy()
        child.apply(mv)
        total += py_perft(child, depth - 1)
    return total


# --- Measurements ---------------------------------------------------------------

CAP = 2_000  # plies: the same cap for both implementations


def measure(seconds, playout):
    """Run playouts (playout(i) returns its number of steps) for at least
    ``seconds``; return (steps per second, steps, playouts)."""
    steps = games = 0
    start = time.perf_counter()
    while True:
        steps += playout(games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, steps, games


def plateau_playout(game):
    def run(i):
        rng = random.Random(i)
        s = plateau.State(game, seed=i)
        n = 0
        while not s.is_terminal() and n < CAP:
            s.apply(rng.choice(s.legal_moves()))
            n += 1
        return n

    return run


def action_playout(game):
    def run(i):
        rng = random.Random(i)
        s = plateau.State(game, seed=i)
        n = 0
        while not s.is_terminal() and n < CAP:
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        return n

    return run


def pettingzoo_playout(game):
    from plateau.pettingzoo import env

    e = env(game)

    def run(i):
        rng = random.Random(i)
        e.reset(seed=i)
        n = 0
        for agent in e.agent_iter():
            obs, reward, termination, truncation, info = e.last()
            if termination or truncation:
                e.step(None)
                continue
            e.step(rng.choice(obs["action_mask"].nonzero()[0]))
            n += 1
            if n >= CAP:
                break
        return n

    return run


def python_playout(i):
    rng = random.Random(i)
    pos = PyAbalone()
    n = 0
    while not pos.over() and n < CAP:
        pos.apply(rng.choice(pos.legal_moves()))
        n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="the least time of each measurement")
    args = ap.parse_args()

    figures = [py_perft(PyAbalone(), d) for d in (1, 2, 3)]
    ours = [plateau.State("abalone").perft(d) for d in (1, 2, 3)]
    assert figures == ours == [44, 1_936, 98_912], (figures, ours)
    print("pure-Python Abalone perft(1-3):", figures, "(the same as plateau's)")

    print(f"{'implementation':<42} {'steps/s':>10} {'steps':>9} {'playouts':>9}")
    rates = {}
    for g in plateau.games():
        for way, playout in (("text", plateau_playout), ("actions", action_playout), ("pettingzoo", pettingzoo_playout)):
            rate, steps, games = measure(args.seconds, playout(g["name"]))
            rates[g["name"], way] = rate
            label = f"plateau {g['name']} ({g['variants'][0]['name']}), {way}"
            print(f"{label:<42} {rate:>10,.0f} {steps:>9,} {games:>9,}")
    rate, steps, games = measure(args.seconds, python_playout)
    print(f"{'pure-Python abalone (standard)':<42} {rate:>10,.0f} {steps:>9,} {games:>9,}")
    for way in ("text", "actions"):
        print(f"plateau abalone ({way}) / pure Python: {rates['abalone', way] / rate:.1f} times faster")


if __name__ == "__main__":
    main()
