"""The solver, the engine, the board snapshot and the picture, installed,
against the `cz` command the same wheel installs: run with pytest from a
clone after installing the package (python/README.md)."""

import doctest
import os
import signal
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

import pytest

import connectz
import connectz_reference
import connectz_reference.pettingzoo

ROOT = Path(__file__).resolve().parents[2]
SOLVER_DATA = ROOT / "crates" / "games" / "tests" / "data" / "solver"
CASES = ROOT / "tests" / "cases"


def cz():
    path = Path(sysconfig.get_path("scripts")) / "cz"
    assert path.is_file(), "cz is installed with the package"
    return str(path)


def cz_solve(positions, *flags, width=7, height=6, connect=4):
    """`cz solve`'s line for each position: its tokens after the position."""
    text = "".join(p + "\n" for p in positions)
    frame = ["--width", str(width), "--height", str(height), "--connect", str(connect)]
    out = subprocess.run(
        [cz(), "solve", "--jobs", "1", *frame, *flags],
        input=text,
        capture_output=True,
        text=True,
    )
    lines = out.stdout.splitlines()
    assert len(lines) == len(positions), out.stderr
    answers = []
    for position, line in zip(positions, lines):
        shown, _, rest = line.partition(" ")
        assert shown == position
        answers.append(rest)
    return answers


def sample(name, every, offset):
    """Every `every`-th position of a benchmark set from `offset` (lines
    `position score`), as (position, score)."""
    lines = (SOLVER_DATA / name).read_text().splitlines()
    out = []
    for line in lines[offset::every]:
        position, score = line.split()
        out.append((position, int(score)))
    return out


# Held-out-like: lines the Rust tests step over (they take every 20th and
# 50th line from the first), from all three sets; scores of every column on
# the middle and end sets (the losing columns of a begin position can take
# seconds each).
SAMPLE = sample("Test_L3_R1", 97, 13) + sample("Test_L2_R1", 97, 29) + sample("Test_L1_R1", 131, 7)
SCORES_SAMPLE = sample("Test_L3_R1", 199, 41) + sample("Test_L2_R1", 331, 3)


def test_the_docstring_examples_run():
    for module, least in [(connectz_reference, 26), (connectz_reference.pettingzoo, 10)]:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0
        assert result.attempted >= least, f"{module.__name__}: {result.attempted} examples"


def test_solve_best_and_weak_agree_with_cz_solve_and_the_benchmark_sets():
    assert len(SAMPLE) >= 25
    positions = [p for p, _ in SAMPLE]
    strong = cz_solve(positions, "--best")
    weak = cz_solve(positions, "--weak")
    for (position, score), cz_best, cz_weak in zip(SAMPLE, strong, weak):
        cz_score, cz_column = cz_best.split()
        assert connectz.solve(position) == score == int(cz_score), position
        column, best_score = connectz.best(position)
        assert (best_score, str(column)) == (score, cz_column), position
        assert connectz.weak(position) == int(cz_weak) == (score > 0) - (score < 0), position
        # The same position as a list of ints.
        assert connectz.solve([int(c) for c in position]) == score


def test_scores_are_the_scores_of_the_moves_by_cz_solve():
    """Every column: None when full; minus `cz solve` of the position after
    the move; and a move that completes a run (which `cz solve` calls
    invalid: the game is over) scores the position's own score."""
    assert len(SCORES_SAMPLE) >= 6
    children = [p + str(c) for p, _ in SCORES_SAMPLE for c in range(1, 8)]
    answers = iter(cz_solve(children))
    winning_columns = 0
    for position, score in SCORES_SAMPLE:
        got = connectz.scores(position)
        assert len(got) == 7
        for column in range(1, 8):
            answer = next(answers)
            if "is full" in answer:
                assert got[column - 1] is None, (position, column)
            elif "completes a run" in answer:
                assert got[column - 1] == score, (position, column)
                winning_columns += 1
            else:
                assert got[column - 1] == -int(answer), (position, column, answer)
        assert max(s for s in got if s is not None) == score
    # A position where the side to move completes a run at once.
    assert connectz.scores("121212")[0] == connectz.solve("121212") == 18


def test_other_frames_agree_with_cz_solve():
    for width, height, connect, positions in [
        (5, 4, 3, [".", "3", "1212", "33"]),
        (8, 8, 4, ["44445555"]),
        (10, 6, 4, ["9a9a9a", "9A9A9A"]),
        (4, 4, 4, ["."]),
    ]:
        frame = dict(width=width, height=height, connect=connect)
        cz_scores = cz_solve(positions, **frame)
        for position, cz_score in zip(positions, cz_scores):
            assert connectz.solve(position, **frame) == int(cz_score), (frame, position)


def test_threads_and_table_sizes_give_the_same_scores():
    for position, score in SAMPLE[:4]:
        assert connectz.solve(position, jobs=2) == score
        assert connectz.solve(position, table_mb=2) == score
        assert connectz.best(position, table_mb=2)[1] == score


@pytest.mark.parametrize("jobs", [0, -1, 1025, 40000, 2**64])
def test_a_thread_count_the_solver_does_not_take_is_a_value_error(jobs):
    # Refused before any thread is asked for (40000 once aborted the
    # interpreter), with the same bounds as cz solve --jobs.
    for call in (connectz.solve, connectz.weak, connectz.best, connectz.scores):
        with pytest.raises(ValueError, match="jobs must be from 1 to 1024"):
            call("4453", jobs=jobs)
    with pytest.raises(ValueError, match="jobs must be from 1 to 1024"):
        connectz.Engine("perfect", jobs=jobs)


def test_a_thread_count_that_is_not_an_int_is_a_type_error():
    for jobs in (True, 2.0, "2"):
        with pytest.raises(TypeError, match="jobs is an int"):
            connectz.solve("4453", jobs=jobs)


def test_the_opening_book_answers_what_the_search_answers():
    # "4453"'s columns lead to positions of the shipped book (seconds of
    # search without it): looked up here, searched by cz solve --no-book.
    got = connectz.scores("4453")
    want = cz_solve(["4453"], "--scores", "--no-book")[0]
    assert " ".join("-" if s is None else str(s) for s in got) == want


def test_the_book_read_ahead_is_the_one_cz_solve_reads():
    # A fresh process, which has not read the book: read_book reads it and
    # counts what `cz solve --stats` says it read; a second call reads
    # nothing more.
    code = "import connectz; print(connectz.read_book(), connectz.read_book())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    first, again = out.stdout.split()
    stats = subprocess.run(
        [cz(), "solve", "--jobs", "1", "--stats"], input="44\n", capture_output=True, text=True
    )
    said = [line for line in stats.stdout.splitlines() if "the shipped book was read" in line]
    assert said, stats.stdout
    assert f"read: {first} positions" in said[0]
    assert first == again and int(first) > 0


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: connectz.solve("4", width=True), TypeError, "width is an int, not bool"),
        (lambda: connectz.scores("4", height=6.0), TypeError, "height is an int, not float"),
        (lambda: connectz.best("4", connect=False), TypeError, "connect is an int, not bool"),
        (lambda: connectz.solve("4", width=2**64), ValueError, "width 18446744073709551616 is more than"),
        (lambda: connectz.solve("4", width=-1), ValueError, "width must be at least 1, not -1"),
        (lambda: connectz.solve("\ud800"), ValueError, "character 1 ('\\ud800') is not a column"),
        (lambda: connectz.solve([4, 2**64]), ValueError, "move 2: 18446744073709551616 is not a column"),
        (lambda: connectz.solve([4, True]), TypeError, "move 2: a column is an int, not bool"),
        (lambda: connectz.Engine("easy", seed="x"), TypeError, "seed is an int or None, not str"),
        (lambda: connectz.Engine("easy", width=True), TypeError, "width is an int, not bool"),
        (lambda: connectz.Engine(4), TypeError, "level is a str, not int"),
        (lambda: connectz.Engine("easy").move([1, 2.5]), TypeError, "move 2: a column is an int"),
    ],
)
def test_arguments_are_checked_where_they_enter_and_named(call, error, words):
    with pytest.raises(error) as raised:
        call()
    assert words in str(raised.value)


def test_the_engine_and_cz_play_accept_and_refuse_the_same_frames():
    # A fixed sample of small frames, winnable or not: Engine() refuses a
    # frame exactly when `cz play` does, in the same words (the page's
    # play tab uses the same refusal, held by its own tests).
    import random

    rng = random.Random(43)
    frames = {(rng.randint(1, 9), rng.randint(1, 7), rng.randint(1, 9)) for _ in range(60)}
    frames |= {(7, 6, 4), (3, 3, 5), (2, 1, 2), (7, 6, 100), (1, 1, 1)}
    refused = 0
    for width, height, connect in sorted(frames):
        out = subprocess.run(
            [cz(), "play", "--level", "easy", "--width", str(width), "--height", str(height), "--connect", str(connect)],
            input="q\n",
            capture_output=True,
            text=True,
        )
        try:
            connectz.Engine("easy", width, height, connect)
            engine_says = None
        except ValueError as e:
            engine_says = str(e)
        if out.returncode == 2:
            refused += 1
            assert engine_says is not None and out.stderr.strip() == f"cz: {engine_says}", (width, height, connect)
        else:
            assert out.returncode == 0 and engine_says is None, (width, height, connect, out.stderr, engine_says)
    assert 0 < refused < len(frames)


def test_an_engine_shared_between_threads_takes_their_calls_in_turn():
    # Four threads, one engine: every call answers (none "Already
    # borrowed"), each the column the engine gives alone.
    import threading

    positions = [p for p, _ in SAMPLE[:8]]
    alone = connectz.Engine("perfect", jobs=1)
    want = {p: alone.move(p) for p in positions}
    shared = connectz.Engine("perfect", jobs=1)
    got, errors = [], []

    def play():
        for p in positions * 3:
            try:
                got.append((p, shared.move(p)))
            except Exception as e:  # noqa: BLE001 - any error is the finding
                errors.append(repr(e))

    threads = [threading.Thread(target=play) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(got) == 4 * 3 * len(positions)
    assert all(column == want[p] for p, column in got)


def test_a_full_frame_is_a_draw_with_no_column():
    # A run of 5 never fits one row of 4: the frame fills without a win.
    assert connectz.best("1234", width=4, height=1, connect=5) == (None, 0)
    assert connectz.scores("1234", width=4, height=1, connect=5) == [None] * 4


@pytest.mark.parametrize(
    "position",
    ["44444445", "1111111", "1212121", "8", "0", "12 3", [1, 2, 8], [0], [-1], [4] * 7],
)
def test_an_illegal_position_is_a_value_error_with_the_solvers_message(position):
    with pytest.raises(ValueError) as raised:
        connectz.solve(position)
    message = str(raised.value)
    if isinstance(position, str) and " " not in position:
        # The same words as `cz solve` (which reads a line's first token).
        assert cz_solve([position]) == [f"invalid: {message}"]
    elif isinstance(position, list):
        # An int is named as itself ("move 3: 8 is not a column ...").
        assert message.startswith(f"move {len(position)}: ")
    for call in (connectz.best, connectz.scores, connectz.weak):
        with pytest.raises(ValueError):
            call(position)
    with pytest.raises(ValueError):
        connectz.Engine("easy", seed=1).move(position)


def test_a_list_names_columns_past_9_as_ints():
    assert connectz.solve([9, 10, 9, 10, 9, 10], width=10) == connectz.solve("9a9a9a", width=10) == 27
    with pytest.raises(ValueError, match="move 1: 11 is not a column of the frame"):
        connectz.solve([11], width=10)


@pytest.mark.parametrize("position", [None, 4453, 4.5, b"4453", bytearray(b"44"), ["4"]])
def test_a_position_of_the_wrong_type_is_a_type_error(position):
    with pytest.raises(TypeError):
        connectz.solve(position)


def test_a_frame_the_solver_does_not_take_is_a_value_error():
    with pytest.raises(ValueError, match="too large to solve exactly"):
        connectz.solve(".", width=20, height=6)
    with pytest.raises(ValueError, match="at least 1"):
        connectz.solve(".", connect=0)
    with pytest.raises(ValueError, match="table_mb"):
        connectz.solve(".", table_mb=0)


def run_python(code, timeout=120, **kwargs):
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,
    )


def test_a_table_that_cannot_be_had_is_a_memory_error():
    # Under a limit of 1 GiB of address space, tables of 4 GiB and of 10^9
    # MB cannot be had: each is a MemoryError, and the process goes on.
    out = run_python(
        """
        import resource
        limit = 1 << 30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        import connectz
        for mb in (4096, 10**9, 10**30):
            for call in (lambda: connectz.solve("32164625", table_mb=mb),
                         lambda: connectz.Engine("perfect", table_mb=mb)):
                try:
                    call()
                    print("no error")
                except MemoryError as e:
                    print("MemoryError", e)
        print(connectz.solve("32164625", table_mb=8))
        """
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 7, out.stdout
    assert all(line.startswith("MemoryError cannot have") for line in lines[:6]), out.stdout
    assert lines[6] == "11"


def started_child(code):
    """A Python child running `code`, once it has printed "started".

    Its Ctrl-C is Python's own, whatever it inherits: a shell starts a
    background job with SIGINT ignored, and Python then leaves it so."""
    prelude = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
    child = subprocess.Popen(
        [sys.executable, "-u", "-c", prelude + textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert child.stdout.readline().strip() == "started"
    return child


# A position that searches for seconds. On 7 x 6 none does any more that
# a test could name: the shipped book answers every position of at most 10
# moves at once and bounds those of 11 (the slowest of 294 random ones took
# 6.5 M nodes, about 0.4 s). On 9 x 8 there is no book: solving the first
# counter in the centre column had not ended after 20 s, and the perfect
# engine's reply there, which gives up after 12 M nodes and plays the
# medium search's move, took about 3 s.
LONG = "5"
FRAME = "width=9, height=8"


@pytest.mark.parametrize(
    "call",
    [
        f'connectz.solve("{LONG}", {FRAME})',
        f'connectz.scores("{LONG}", {FRAME})',
        f'connectz.best("{LONG}", {FRAME}, jobs=2)',
        f'connectz.Engine("perfect", {FRAME}).move("{LONG}")',
    ],
)
def test_ctrl_c_stops_a_long_solve_with_keyboard_interrupt(call):
    # Each of these searches for seconds (LONG, on a frame with no book).
    # SIGINT comes half a second in; the child says KeyboardInterrupt and
    # how long after the signal it raised. The wall bound is a correctness bound, kept generous (2 s) for
    # a loaded machine; the design is 20 ms of polling plus about a
    # thousand nodes a search thread.
    child = started_child(
        f"""
        import signal, time, connectz
        sent = []
        default = signal.getsignal(signal.SIGINT)
        def mark(number, frame):
            sent.append(time.monotonic())
            default(number, frame)
        signal.signal(signal.SIGINT, mark)
        print("started")
        try:
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("KeyboardInterrupt", time.monotonic() - sent[0])
        """
    )
    try:
        time.sleep(0.5)
        assert child.poll() is None, child.stdout.read()
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().split()
        seen = time.monotonic() - sent
        assert line[0] == "KeyboardInterrupt", line
        assert seen < 2.0, seen
        assert child.wait(timeout=10) == 0
    finally:
        child.kill()
        child.wait()


HARD_BOARD = (
    "x...../x...../o.x.../o.x.x./o.x.x./x.o.o./o.o.o./o.x.x./x.o.o./x.o.o./xxo.x./oox.o./xxx.o./"
    "xxx.x./xoo.o./ooo.o./oox.o./xxx.x./xxx.o./oxo.o./oox.o./xox.x./xox.x./xxo.o./oxx.o./ooo.o./"
    "oxx.x./xxoox./xxoxo./ooxox./xooxx./xxxxo./ooxxo./ooooo./oooxxx/xxoxxx/oxxxxx/oooooo/oxooox"
)


def test_ctrl_c_stops_waiting_for_a_long_board_search():
    # spec/board.md's undecided board: its search runs to its bound (a few
    # seconds); SIGINT 0.3 s in is a KeyboardInterrupt within 2 s (the
    # same generous wall bound), the search left to end on its thread.
    child = started_child(
        f"""
        import connectz
        print("started")
        try:
            print(connectz.board({HARD_BOARD!r}, connect=100, first="x"))
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
        """
    )
    try:
        time.sleep(0.3)
        assert child.poll() is None, child.stdout.read()
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().split()
        assert line == ["KeyboardInterrupt"], line
        assert time.monotonic() - sent < 2.0
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize("flags", [[], ["--jobs", "2"]])
def test_ctrl_c_ends_the_packages_cz_during_a_search(flags):
    # The package's cz runs in a Python process; Ctrl-C ends it as it ends
    # the native cz (by the signal: a shell says 130), with no traceback
    # and no answer thrown away after the search.
    child = subprocess.Popen(
        [cz(), "solve", "--no-book", *flags],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        child.stdin.write(".\n")
        child.stdin.close()
        time.sleep(1.0)
        assert child.poll() is None, child.stderr.read()
        child.send_signal(signal.SIGINT)
        # A generous hang guard: the empty board takes minutes.
        assert child.wait(timeout=30) == -signal.SIGINT
        assert child.stdout.read() == ""
        assert "Traceback" not in child.stderr.read()
    finally:
        child.kill()
        child.wait()


def test_a_long_solve_releases_the_interpreter():
    # A thread solves a position for seconds (LONG); the main thread
    # runs Python meanwhile, which it could not if the solve held the lock.
    out = run_python(
        f"""
        import os, threading, connectz
        solver = threading.Thread(
            target=lambda: connectz.solve("{LONG}", {FRAME}), daemon=True
        )
        solver.start()
        steps = 0
        while steps < 200_000:
            steps += 1
        print(solver.is_alive(), steps)
        os._exit(0)
        """
    )
    assert out.stdout.split() == ["True", "200000"], out.stderr


def test_the_engine_plays_cz_plays_levels():
    perfect = connectz.Engine("perfect", jobs=1)
    # The plan's first move, and a move that wins at once when there is one.
    assert perfect.move("") == 4
    assert perfect.choose("121212") == (1, "completes a run")
    for position, score in SAMPLE[:6]:
        column = perfect.move(position)
        # The column keeps the exact score (r[solve.score]).
        assert connectz.scores(position)[column - 1] == score, position
    easy = [connectz.Engine("easy", seed=7).move("4") for _ in range(3)]
    assert easy[0] == easy[1] == easy[2]
    medium = connectz.Engine("medium")
    assert 1 <= medium.move("44") <= 7
    # A frame too large for the solver: tactics, positions as ints.
    wide = connectz.Engine("perfect", width=100, height=3, connect=4)
    assert wide.move([50, 1, 51, 1, 52]) in (49, 53)
    with pytest.raises(TypeError):
        wide.move("1")
    # 40 x 2 fits the solver, but text names 35 columns at most: ints.
    row = connectz.Engine("easy", width=40, height=2, connect=4, seed=3)
    assert row.move([38, 1, 39, 1, 40]) == 37
    with pytest.raises(ValueError, match="column 1 is full"):
        wide.move([1, 1, 1, 1])
    with pytest.raises(ValueError, match="levels"):
        connectz.Engine("hard")
    with pytest.raises(ValueError, match="cannot be won"):
        connectz.Engine("easy", width=3, height=3, connect=4)
    with pytest.raises(ValueError, match="full"):
        connectz.Engine("easy", width=4, height=1, connect=2).move("1234")


def test_board_is_cz_board_why(tmp_path):
    grids = [
        "......./......./......./......./......./...x...",
        "x../.../...",
        "xxxx/oooo/xoxo",
        "......./......./...x.../...o.../...x.../...o...",
        "xo/ox",
    ]
    for grid in grids:
        path = tmp_path / "grid.txt"
        path.write_text(grid + "\n")
        out = subprocess.run([cz(), "board", "--why", "-z", "3", str(path)], capture_output=True, text=True)
        verdict = connectz.board(grid, connect=3) if out.returncode in (0, 3) else None
        if verdict is None:
            with pytest.raises(ValueError) as raised:
                connectz.board(grid, connect=3)
            assert str(raised.value) in out.stderr
            continue
        expected = verdict.answer + "\n" + ("" if verdict.why is None else f"why: {verdict.why}\n")
        assert out.stdout == expected, grid
    assert connectz.board("x.\nxo", connect=2, gravity=False).answer == "first player wins"
    assert connectz.board(b"xo./ox.", connect=4, first="o").answer == "first player moves"


def test_render_svg_is_cz_render(tmp_path):
    for path in [CASES / "1-win-player-1" / "brief-sample.txt", next((CASES).glob("8-*/*.txt"))]:
        out = tmp_path / "picture.svg"
        subprocess.run([cz(), "render", str(path), "-o", str(out)], check=True, capture_output=True)
        assert connectz.render_svg(path) == out.read_text()
        assert connectz.render_svg(str(path)) == out.read_text()
        assert connectz.render_svg(path.read_bytes(), title=path.name) == out.read_text()
    with pytest.raises(TypeError):
        connectz.render_svg(4453)
