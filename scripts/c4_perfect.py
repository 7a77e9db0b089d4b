#!/usr/bin/env python3
"""Does Ply play Connect Four perfectly? Ply plays games under UGI at a fixed
movetime (optionally with an opening book) against an opponent, and every
move Ply makes is checked with Pascal Pons' solver: does it keep the
position's game-theoretic value (win, draw or loss), and is it optimal (the
shortest win when winning, the longest loss when losing, as Pons' scores
rank moves)? Prints a table per band of move numbers: moves checked, value
kept %, optimal %, and the positions where Ply lost value.

  scripts/c4_perfect.py --pons /path/to/c4solver [options]

--pons      Pons' solver (reads lines of moves, 1-based columns, on stdin;
            with -a prints the line and the seven columns' scores). It is run
            from an empty directory, so without his opening book: checking
            the first plies costs it minutes (see --check-from).
--ply       the Ply binary (default: target/release/ply, built if missing).
--movetime  milliseconds per Ply move (default 1000).
--book      an opening book for Ply (setoption name BookFile).
--opponent  self (Ply plays both sides, every move checked), random (a move
            that wins at once if there is one, else one that does not let Ply
            win at once if there is one, else any), or perfect (Pons' best
            moves, a random one among equals). Ply alternates sides against
            the others. mixed: random's moves before --check-from, perfect's
            from there on (Ply meets varied openings while its own moves
            are all its own). With --book, perfect's moves in positions
            whose every move the book knows come from the book: a random
            one among those keeping the value (any win, any draw, else the
            longest loss), so that perfect play has variety and costs Pons
            nothing there.
            Default self.
--games     games to play (default 2).
--opening   moves from the start every game begins with (e.g. 4453, the
            base of a book built with --from 4453); not checked.
--random-plies  plies of random-ish moves (as the random opponent's) after
            the opening (seeded, different per game), for variety; not
            checked. Default 0.
--check-from  check Ply's moves only from this move number on (1 = the
            first move of the game; default 1). Moves before it are counted
            as unchecked.
--hash      Ply's Hash in MB (default 256).
--seed      random seed (default 1).
--cache     a file of Pons' answers kept between runs (one `moves s1 .. s7`
            line per position), so that repeated positions cost nothing.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

W, H = 7, 6
BANDS = [(1, 7), (8, 14), (15, 21), (22, 28), (29, 42)]


class Board:
    def __init__(self):
        self.cols = [[] for _ in range(W)]
        self.moves = ""
        self.winner = None

    def legal(self):
        return [c for c in range(W) if len(self.cols[c]) < H] if self.winner is None else []

    def wins_at(self, c, who):
        r = len(self.cols[c])
        if r >= H:
            return False

        def at(x, y):
            if x == c and y == r:
                return who
            return self.cols[x][y] if 0 <= x < W and 0 <= y < len(self.cols[x]) else None

        for dx, dy in [(1, 0), (0, 1), (1, 1), (1, -1)]:
            n = 1
            for s in (1, -1):
                x, y = c + s * dx, r + s * dy
                while 0 <= x < W and 0 <= y < H and at(x, y) == who:
                    n += 1
                    x, y = x + s * dx, y + s * dy
            if n >= 4:
                return True
        return False

    def to_move(self):
        return len(self.moves) % 2

    def play(self, c):
        who = self.to_move()
        if self.wins_at(c, who):
            self.winner = who
        self.cols[c].append(who)
        self.moves += str(c + 1)

    def over(self):
        return self.winner is not None or len(self.moves) == W * H


class Pons:
    """Pons' solver, one process for all questions, answers cached."""

    def __init__(self, path, cache_file):
        self.dir = tempfile.mkdtemp(prefix="c4perfect-")
        self.proc = subprocess.Popen([path, "-a"], cwd=self.dir, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.cache = {}
        self.cache_file = cache_file
        if cache_file and os.path.exists(cache_file):
            with open(cache_file) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) == 8:
                        self.cache[parts[0]] = [int(x) for x in parts[1:]]

    def scores(self, moves):
        """The seven columns' scores (Pons' scale: the side to move wins
        with its k-th last possible stone... higher is better; -1000: the
        column is full)."""
        key = moves or "-"
        if key not in self.cache:
            self.proc.stdin.write(moves + "\n")
            self.proc.stdin.flush()
            parts = self.proc.stdout.readline().split()
            self.cache[key] = [int(x) for x in parts[-7:]]
            if self.cache_file:
                with open(self.cache_file, "a") as f:
                    f.write(key + " " + " ".join(map(str, self.cache[key])) + "\n")
        return self.cache[key]


class BookValues:
    """A Ply book file's values (protocol.md, "Opening books"), keyed as
    Ply keys Connect Four positions: per column from the left, 7 bits
    2^height + the side to move's stones; the smaller of the position's
    and its mirror image's numbers."""

    def __init__(self, path):
        data = open(path, "rb").read()
        end = data.index(b"\n")
        self.values = {}
        for at in range(end + 1, len(data), 9):
            key = int.from_bytes(data[at:at + 8], "little")
            self.values[key] = int.from_bytes(data[at + 8:at + 9], "little", signed=True)

    def key(self, board):
        me = board.to_move()
        fields = [(1 << len(col)) + sum(1 << r for r, who in enumerate(col) if who == me)
                  for col in board.cols]
        number = lambda fs: sum(f << (7 * c) for c, f in enumerate(fs))
        return min(number(fields), number(fields[::-1]))

    def keeping_moves(self, board):
        """The moves that keep the value of `board` (for the side to move),
        when the book knows every move's outcome; else None."""
        results = {}
        for c in board.legal():
            after = Board()
            for ch in board.moves + str(c + 1):
                after.play(int(ch) - 1)
            if after.winner is not None:
                results[c] = (1, 0)
            elif after.over():
                results[c] = (0, 0)
            else:
                v = self.values.get(self.key(after))
                if v is None:
                    return None
                # A loss is put off as long as it can be.
                results[c] = (-((v > 0) - (v < 0)), v if v > 0 else 0)
        best = max(r for r, _ in results.values())
        keep = {c: d for c, (r, d) in results.items() if r == best}
        longest = max(keep.values())
        return [c for c, d in keep.items() if d == longest]


class Ply:
    def __init__(self, path, hash_mb, book):
        self.proc = subprocess.Popen([path, "--game", "connect4", "--hash", str(hash_mb)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)
        self.send("ugi")
        self.wait("ugiok")
        if book:
            self.send(f"setoption name BookFile value {book}")
        self.send("isready")
        line = self.wait("readyok", errors=True)
        if line:
            sys.exit(f"ply: {line}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, word, errors=False):
        error = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("ply exited")
            if errors and "error" in line:
                error = line.strip()
            if line.split()[:1] == [word]:
                return error

    def new_game(self):
        self.send("uginewgame")

    def move(self, moves, movetime):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {movetime}")
        info = ""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("ply exited")
            if line.startswith("info") and " score " in line:
                info = line.strip()
            if line.startswith("bestmove"):
                return int(line.split()[1]) - 1, info


def random_ish(board, rng):
    """A move that wins at once if there is one, else one that does not let
    the opponent win at once if there is one, else any."""
    legal = board.legal()
    who = board.to_move()
    wins = [c for c in legal if board.wins_at(c, who)]

    def safe(c):
        after = Board()
        for ch in board.moves + str(c + 1):
            after.play(int(ch) - 1)
        return not any(after.wins_at(d, 1 - who) for d in after.legal())

    return rng.choice(wins or [c for c in legal if safe(c)] or legal)


def main():
    ap = argparse.ArgumentParser(description="Ply's Connect Four moves checked with Pons' solver")
    ap.add_argument("--pons", required=True)
    ap.add_argument("--ply", default="target/release/ply")
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--book")
    ap.add_argument("--opponent", choices=["self", "random", "perfect", "mixed"], default="self")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--opening", default="")
    ap.add_argument("--random-plies", type=int, default=0)
    ap.add_argument("--check-from", type=int, default=1)
    ap.add_argument("--hash", type=int, default=256)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache")
    args = ap.parse_args()
    if args.ply == "target/release/ply" and not os.path.exists(args.ply):
        subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    rng = random.Random(args.seed)
    pons = Pons(args.pons, args.cache)
    ply = Ply(args.ply, args.hash, args.book)
    book_values = BookValues(args.book) if args.book else None
    # Per band: checked, value kept, optimal, unchecked.
    tally = {band: [0, 0, 0, 0] for band in BANDS}
    lapses = []
    results = {"win": 0, "draw": 0, "loss": 0}
    for game in range(args.games):
        board = Board()
        for ch in args.opening:
            board.play(int(ch) - 1)
        for _ in range(args.random_plies):
            if board.over():
                break
            board.play(random_ish(board, rng))
        ply.new_game()
        ply_side = game % 2 if args.opponent != "self" else None
        while not board.over():
            number = len(board.moves) + 1
            if ply_side is None or board.to_move() == ply_side:
                col, info = ply.move(list(board.moves), args.movetime)
                band = next(b for b in BANDS if b[0] <= number <= b[1])
                if number >= args.check_from:
                    s = pons.scores(board.moves)
                    best = max(s)
                    sign = (s[col] > 0) - (s[col] < 0)
                    kept = sign == (best > 0) - (best < 0)
                    tally[band][0] += 1
                    tally[band][1] += kept
                    tally[band][2] += s[col] == best
                    if not kept:
                        lapses.append(f"value lost at {board.moves or 'start'}: played "
                                      f"{col + 1} (score {s[col]}), best {best}; {info}")
                    elif s[col] != best:
                        lapses.append(f"not optimal at {board.moves or 'start'}: played "
                                      f"{col + 1} (score {s[col]}), best {best}; {info}")
                else:
                    tally[band][3] += 1
            elif args.opponent == "perfect" or (args.opponent == "mixed"
                                                and number >= args.check_from):
                keeping = book_values.keeping_moves(board) if book_values else None
                if keeping:
                    col = rng.choice(keeping)
                else:
                    s = pons.scores(board.moves)
                    col = rng.choice([c for c in range(W) if s[c] == max(s)])
            else:
                col = random_ish(board, rng)
            board.play(col)
        if ply_side is not None:
            outcome = ("draw" if board.winner is None
                       else "win" if board.winner == ply_side else "loss")
            results[outcome] += 1
        print(f"game {game + 1}: {board.moves} "
              f"{'draw' if board.winner is None else ('p1' if board.winner == 0 else 'p2') + ' won'}",
              file=sys.stderr, flush=True)
    ply.send("quit")
    book = os.path.basename(args.book) if args.book else "none"
    print(f"Ply movetime {args.movetime} ms, book {book}, opponent {args.opponent}, "
          f"{args.games} games, opening '{args.opening}' + {args.random_plies} random plies")
    if args.opponent != "self":
        print(f"Ply's results: {results['win']} won, {results['draw']} drawn, {results['loss']} lost")
    print("| moves | checked | value kept % | optimal % | unchecked |")
    print("|---|---|---|---|---|")
    total = [0, 0, 0, 0]
    for band in BANDS:
        n, kept, opt, unchecked = tally[band]
        total = [a + b for a, b in zip(total, tally[band])]
        pct = (lambda x: f"{100 * x / n:.1f}") if n else (lambda x: "-")
        print(f"| {band[0]}-{band[1]} | {n} | {pct(kept)} | {pct(opt)} | {unchecked} |")
    n, kept, opt, unchecked = total
    pct = (lambda x: f"{100 * x / n:.1f}") if n else (lambda x: "-")
    print(f"| all | {n} | {pct(kept)} | {pct(opt)} | {unchecked} |")
    for lapse in lapses:
        print(lapse)


if __name__ == "__main__":
    main()
