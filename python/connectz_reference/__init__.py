"""The ConnectZ reference judge, for Python.

ConnectZ is Connect Four on any frame X by Y with any run length Z. A game
file holds ``X Y Z`` on its first line, then one column per line, players
alternating; the judge gives one code: 0 a draw, 1 or 2 a win, 3 incomplete,
4 to 9 the kinds of error.

>>> import connectz
>>> connectz.judge_bytes(b"7 6 4\\n1\\n2\\n1\\n2\\n1\\n2\\n1\\n").code
1

``judge(path)`` and ``judge_bytes(data)`` return a :class:`Verdict`;
``explain(path)`` and ``explain_bytes(data)`` return ``cz explain --json``'s
account as a ``dict``. A bad game is a verdict (code 8 for a malformed file,
9 for one that cannot be read), never an exception; only a wrong kind of
argument raises ``TypeError``. The package also installs the ``connectz``
and ``cz`` commands.

The solver and the engine of ``cz solve`` and ``cz play``: ``solve``,
``weak``, ``best`` and ``scores`` give exact game values of a position (the
columns played from the empty frame, ``"4453"`` or ``[4, 4, 5, 3]``), and
``Engine`` plays at the levels of ``cz play``:

>>> connectz.solve("32164625")
11
>>> connectz.best("6146")
(5, 18)
>>> connectz.Engine("perfect").move("")
4

``board`` gives ``cz board``'s verdict on a grid, and ``render_svg`` the
picture ``cz render`` draws of a game. ``connectz.pettingzoo`` plays
PettingZoo's ``connect_four_v3``.

``connectz`` and ``connectz_reference`` are the same module; the second name
is for folders that hold a ``connectz.py`` of their own (as the brief names
a submission), where ``import connectz`` finds that file first.
"""

from __future__ import annotations

import _thread
import os
import signal
import sys

from . import _native

# Types for checkers only: importing typing costs the `connectz` command
# about 8 ms a run.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

    #: What :func:`judge` and :func:`explain` take: a path as ``str``,
    #: ``bytes`` or any ``os.PathLike``.
    PathArg = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]

    #: A position: the 1-based columns played from the empty frame, as
    #: ``cz solve`` reads them (``"4453"``; ``a`` to ``z`` for columns 10
    #: to 35; ``"."`` or ``""`` for the empty frame) or as ints.
    PositionArg = Union[str, Sequence[int]]

__all__ = [
    "Verdict",
    "judge",
    "judge_bytes",
    "explain",
    "explain_bytes",
    "solve",
    "weak",
    "best",
    "scores",
    "read_book",
    "Engine",
    "BoardVerdict",
    "board",
    "render_svg",
    "DEFAULT_TABLE_MB",
    "__version__",
]

__version__: str = _native.__version__

# Python refuses to read an int of more than 4300 digits from text at once
# (sys.set_int_max_str_digits); longer frames are read in pieces this long.
_DIGITS = 4000


def _int(text: str) -> int:
    """An int from decimal text of any length."""
    if len(text) <= _DIGITS:
        return int(text)
    value = 0
    for start in range(0, len(text), _DIGITS):
        piece = text[start : start + _DIGITS]
        value = value * 10 ** len(piece) + int(piece)
    return value


class Verdict:
    """The judge's verdict on one game file.

    ``code`` is what ``connectz FILE`` prints (0 to 9); ``rule`` the id of
    the spec clause that decided it (``"rule.line"``, ``"format.move"``,
    ...); ``line`` the 1-based line it happened on, if it belongs to one;
    ``why`` the verdict in words. ``frame_text`` holds the header's X, Y and
    Z as decimal text, if the header was read; ``frame`` the same as ints.
    Verdicts are equal when all of these are.
    """

    # A plain class, not a dataclass: `import connectz` stays about a
    # millisecond (dataclasses imports inspect and re), which the
    # `connectz` command pays on every run.
    __slots__ = ("code", "rule", "line", "why", "frame_text")

    def __init__(
        self,
        code: int,
        rule: str,
        line: Optional[int],
        why: str,
        frame_text: Optional[Tuple[str, str, str]],
    ) -> None:
        self.code = code
        self.rule = rule
        self.line = line
        self.why = why
        self.frame_text = frame_text

    def _fields(self) -> Tuple[Any, ...]:
        return (self.code, self.rule, self.line, self.why, self.frame_text)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Verdict(code={self.code!r}, rule={self.rule!r}, line={self.line!r}, "
            f"why={self.why!r}, frame_text={self.frame_text!r})"
        )

    @property
    def frame(self) -> Optional[Tuple[int, int, int]]:
        """The frame (X, Y, Z) as ints, if the header was read. Numbers of
        any length are exact (made on each access: a header of a million
        digits takes a while)."""
        if self.frame_text is None:
            return None
        x, y, z = self.frame_text
        return (_int(x), _int(y), _int(z))


def _verdict(raw: Tuple[int, str, Optional[int], str, Optional[Any]]) -> Verdict:
    code, rule, line, why, frame = raw
    return Verdict(code, rule, line, why, None if frame is None else tuple(frame))


def _path(path: Any, function: str) -> str:
    if isinstance(path, bytes):
        return os.fsdecode(path)
    if isinstance(path, (str, os.PathLike)):
        path = os.fspath(path)
        return os.fsdecode(path) if isinstance(path, bytes) else path
    raise TypeError(
        f"{function}() takes a path (str, bytes or os.PathLike), not {type(path).__name__}"
    )


def _data(data: Any, function: str) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    hint = ": encode the text, or open the file in binary mode" if isinstance(data, str) else ""
    raise TypeError(f"{function}() takes bytes, not {type(data).__name__}{hint}")


def judge(path: PathArg) -> Verdict:
    """The verdict on the game file at ``path``, read in bounded memory.

    A path that cannot be read is code 9, not an exception; a path of the
    wrong type raises ``TypeError``.
    """
    return _verdict(_native.judge_path(_path(path, "judge")))


def judge_bytes(data: Union[bytes, bytearray, memoryview]) -> Verdict:
    """The verdict on ``data``, a whole game file's bytes.

    ``str`` raises ``TypeError``: a game file is bytes (its line ends and
    any stray byte are part of the verdict).
    """
    return _verdict(_native.judge_bytes(_data(data, "judge_bytes")))


def explain(path: PathArg) -> Dict[str, Any]:
    """``cz explain --json FILE``'s account of the game file at ``path``, as
    a ``dict``: code, name, rule, line, reason, the verdict and every fault
    found, the frame, the counters placed, the board and the winning run."""
    import json

    return json.loads(_native.explain_path(_path(path, "explain")))


def explain_bytes(data: Union[bytes, bytearray, memoryview], name: str = "-") -> Dict[str, Any]:
    """The same account of ``data``, a whole game file's bytes; ``name`` is
    its ``path``."""
    import json

    return json.loads(_native.explain_bytes(_data(data, "explain_bytes"), str(name)))


#: The transposition table's size in megabytes unless asked otherwise (as
#: ``cz solve``'s ``--table-mb``).
DEFAULT_TABLE_MB: int = _native.DEFAULT_TABLE_MB

# A table larger than any machine's memory: asked for, it is a MemoryError.
_MOST_MB = 1 << 40


def _table_mb(table_mb: int) -> int:
    if not isinstance(table_mb, int):
        raise TypeError(f"table_mb is an int, not {type(table_mb).__name__}")
    if table_mb < 1:
        raise ValueError(f"table_mb must be at least 1, not {table_mb}")
    return table_mb if table_mb < _MOST_MB else _MOST_MB


_MOST_JOBS = 1024  # the solver's MAX_JOBS

# Larger than any frame's side or run: the native side takes it whole, then
# says the frame is too large (or cannot be won), rather than overflowing.
_MOST_SIDE = (1 << 63) - 1


def _whole(name: str, value: int) -> int:
    # A bool is an int to Python, but not a number of columns.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} is an int, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    if value > _MOST_SIDE:
        raise ValueError(f"{name} {value} is more than any frame takes (at most {_MOST_SIDE})")
    return value


def _frame(width: int, height: int, connect: int) -> Tuple[int, int, int]:
    return (_whole("width", width), _whole("height", height), _whole("connect", connect))


def _position(position: "PositionArg") -> "PositionArg":
    # What the native side cannot read is said here in words that name it.
    if isinstance(position, str):
        try:
            position.encode("utf-8")
        except UnicodeEncodeError as e:
            raise ValueError(
                f"position: character {e.start + 1} ({position[e.start]!r}) is not a column: a lone surrogate, not text"
            ) from None
    elif isinstance(position, (list, tuple)):
        for at, column in enumerate(position, 1):
            if not isinstance(column, int) or isinstance(column, bool):
                raise TypeError(f"move {at}: a column is an int, not {type(column).__name__}")
            if not -(1 << 63) <= column < (1 << 63):
                raise ValueError(f"move {at}: {column} is not a column of the frame")
    return position


def _jobs(jobs: int) -> int:
    # A bool is an int to Python, but not a number of threads.
    if not isinstance(jobs, int) or isinstance(jobs, bool):
        raise TypeError(f"jobs is an int, not {type(jobs).__name__}")
    if not 1 <= jobs <= _MOST_JOBS:
        raise ValueError(f"jobs must be from 1 to {_MOST_JOBS} threads, not {jobs}")
    return jobs


def solve(
    position: PositionArg,
    *,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    table_mb: int = DEFAULT_TABLE_MB,
    jobs: int = 1,
) -> int:
    """The exact score of ``position`` for the side to move, as ``cz solve``
    prints it: 0 for a draw with best play by both; for a win of the side to
    move, (cells + 1) // 2 + 1 minus the counters the winner has played when
    its run is complete (on 7 x 6: 22 minus them); for a loss, the same
    negated.

    ``position`` is the 1-based columns played from the empty frame, as a
    ``str`` (``"4453"``; ``a`` to ``z`` name columns 10 to 35; ``"."`` or
    ``""`` is the empty frame) or a list of ints. The frame is ``width`` x
    ``height`` with runs of ``connect``; the solver takes frames with
    ``width * (height + 1) <= 128`` and ``width <= 35``.

    An illegal position (a column outside the frame, a move into a full
    column, a move after a completed run) raises ``ValueError`` with the
    solver's message; a frame the solver does not take, ``ValueError``; a
    table of ``table_mb`` megabytes that cannot be had, ``MemoryError``.
    The interpreter's lock is released while the solver works on ``jobs``
    threads, and Ctrl-C stops it with ``KeyboardInterrupt``.

    >>> solve("32164625")
    11
    >>> solve([3, 2, 1, 6, 4, 6, 2, 5])
    11
    >>> solve(".", width=4, height=4)
    0
    >>> solve("44445555", width=8, height=8)
    27
    >>> solve("9a9a9a", width=10, height=6)
    27
    >>> solve("1111111")
    Traceback (most recent call last):
    ...
    ValueError: move 7: column 1 is full
    """
    return _native.solve(_position(position), _frame(width, height, connect), False, _table_mb(table_mb), _jobs(jobs))


def weak(
    position: PositionArg,
    *,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    table_mb: int = DEFAULT_TABLE_MB,
    jobs: int = 1,
) -> int:
    """The sign of :func:`solve`'s score, as ``cz solve --weak`` prints it: 1
    when the side to move wins, 0 a draw, -1 a loss (much cheaper to prove).

    >>> weak("32164625"), weak("2252576253462244111563365343671351441"), weak(".", width=4, height=4)
    (1, -1, 0)
    """
    return _native.solve(_position(position), _frame(width, height, connect), True, _table_mb(table_mb), _jobs(jobs))


def best(
    position: PositionArg,
    *,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    table_mb: int = DEFAULT_TABLE_MB,
    jobs: int = 1,
) -> Tuple[Optional[int], int]:
    """A best column for the side to move (1-based) and the position's
    score, as ``cz solve --best`` gives them: the most central column that
    completes a run, else the most central one that keeps the score. On a
    full frame the column is ``None`` (the score is then 0).

    >>> best("6146")
    (5, 18)
    >>> best("2252576253462244111563365343671351441")
    (6, -1)
    """
    return _native.best(_position(position), _frame(width, height, connect), _table_mb(table_mb), _jobs(jobs))


def scores(
    position: PositionArg,
    *,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    table_mb: int = DEFAULT_TABLE_MB,
    jobs: int = 1,
) -> List[Optional[int]]:
    """Every column's exact score for the side to move if it plays there,
    left to right, on :func:`solve`'s scale: ``None`` where the column is
    full, minus ``solve`` of the position after the move elsewhere. A column
    that completes a run at once scores that win, which is what ``solve``
    gives the position itself (on 7 x 6, 22 minus the winner's counters with
    that one). The best column's score is always ``solve(position)``.

    >>> scores("2252576253462244111563365343671351441")
    [None, None, None, None, None, -1, -2]
    >>> scores(".", width=5, height=4, connect=3)
    [-5, 6, 6, 6, -5]

    Column 1 completes a run of 3 for the side to move, which then has 3
    counters: (20 + 1) // 2 + 1 - 3 = 8, as ``solve`` scores the position:

    >>> scores("1212", width=5, height=4, connect=3), solve("1212", width=5, height=4, connect=3)
    ([8, 4, -8, -8, -8], 8)
    """
    return _native.scores(_position(position), _frame(width, height, connect), _table_mb(table_mb), _jobs(jobs))


def read_book() -> int:
    """Reads the shipped 7 x 6 opening book now and gives how many positions
    it holds. The solver reads it anyway, once a process, at the first
    7 x 6 position of at most 11 moves it is asked of; reading it ahead
    keeps that time out of the first answer (a game's first move, a timed
    step). Reading it again costs nothing.

    >>> read_book()
    988231
    """
    return _native.read_book()


class Engine:
    """The engine of ``cz play``: ``level`` is ``"easy"`` (wins when it can,
    blocks when it must, else a safe move at random), ``"medium"`` (a
    search of about a quarter second a move) or ``"perfect"`` (the 7 x 6
    opening plan, else the exact solver: every move keeps the position's
    value with the best exact score; on 7 x 6 for as long as the solver
    takes, on other frames within 12 M nodes, past which the medium
    search's move is played and ``choose`` says it is not proven). On frames too
    large for the solver (``width * (height + 1) > 128``) every level plays
    one-ply tactics. On frames of more than 35 columns a position is a list
    of ints.

    ``seed`` seeds the easy level's choices (``None``: one from
    ``os.urandom``). The perfect level's solver has a table of ``table_mb``
    megabytes and ``jobs`` threads (``None``: one for each core, as ``cz
    play``). A frame ``cz play`` refuses, or an unknown level, raises
    ``ValueError``; a table that cannot be had, ``MemoryError``; a number
    that is not an int (a bool included), ``TypeError``. An engine may be
    shared between threads: it takes their calls one at a time.

    >>> engine = Engine("perfect")
    >>> engine.move("")
    4
    >>> engine.choose("2252576253462244111563365343671351441")
    (6, 'exact: loses against best play (score -1)')
    >>> Engine("easy", seed=1).move("445")
    4
    """

    __slots__ = ("level", "frame", "_native", "_lock")

    def __init__(
        self,
        level: str,
        width: int = 7,
        height: int = 6,
        connect: int = 4,
        seed: Optional[int] = None,
        *,
        table_mb: int = DEFAULT_TABLE_MB,
        jobs: Optional[int] = None,
    ) -> None:
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        elif not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed is an int or None, not {type(seed).__name__}")
        if not isinstance(level, str):
            raise TypeError(f"level is a str, not {type(level).__name__}")
        self.level = level
        self.frame = _frame(width, height, connect)
        self._native = _native.NativeEngine(
            level, self.frame, seed % (1 << 64), _table_mb(table_mb), 0 if jobs is None else _jobs(jobs)
        )
        # One move at a time: an engine shared between threads takes their
        # calls in turn (its solver and its easy level's choices are one
        # state), rather than refusing the second ("Already borrowed").
        self._lock = _thread.allocate_lock()

    def choose(self, position: PositionArg) -> Tuple[int, str]:
        """The engine's column (1-based) for the side to move after
        ``position``, and what it thinks of it in words (as ``cz play``
        prints them). An illegal or finished position raises
        ``ValueError``."""
        with self._lock:
            return self._native.play(_position(position))

    def move(self, position: PositionArg) -> int:
        """The engine's column (1-based) for the side to move after
        ``position``."""
        with self._lock:
            return self._native.play(_position(position))[0]

    def __repr__(self) -> str:
        width, height, connect = self.frame
        return f"Engine({self.level!r}, width={width}, height={height}, connect={connect})"


class BoardVerdict:
    """``cz board``'s verdict on a grid: ``answer`` as it prints it
    (``"first player moves"``, ``"second player moves"``, ``"first player
    wins"``, ``"second player wins"``, ``"draw game"``, ``"invalid"`` or
    ``"undecided"``), and for an invalid or undecided grid ``why`` (as
    ``cz board --why`` prints it), else ``None``."""

    __slots__ = ("answer", "why")

    def __init__(self, answer: str, why: Optional[str]) -> None:
        self.answer = answer
        self.why = why

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BoardVerdict):
            return NotImplemented
        return (self.answer, self.why) == (other.answer, other.why)

    def __hash__(self) -> int:
        return hash((self.answer, self.why))

    def __repr__(self) -> str:
        return f"BoardVerdict(answer={self.answer!r}, why={self.why!r})"


def board(
    text: Union[str, bytes],
    connect: int = 4,
    first: Optional[str] = None,
    gravity: bool = True,
    *,
    empty: Optional[str] = None,
) -> BoardVerdict:
    """``cz board``'s verdict on a snapshot: ``text`` holds the grid's rows
    top-down, one per line or joined by ``/`` or ``;``; two symbols are the
    counters, and ``.``, ``_``, ``0`` (and ``empty``) empty cells.
    ``first`` is the symbol of the player who moved first (needed only when
    both have as many counters and it matters); ``gravity=False`` skips the
    checks that counters rest on something and that a game reaches them.

    A grid that cannot be read, or an answer that depends on who moved
    first, raises ``ValueError`` with ``cz board``'s message. The search
    for a game that reaches the grid is bounded (a few seconds at most,
    then ``"undecided"``); Ctrl-C raises ``KeyboardInterrupt`` at once and
    leaves it to end on its own thread.

    >>> board("......./......./......./......./......./...x...")
    BoardVerdict(answer='second player moves', why=None)
    >>> board("x../.../...", connect=3).answer
    'invalid'
    >>> print(board("x../.../...", connect=3).why)
    floating counter at row 1 column 1 (rows from the top)
    """
    data = text.encode() if isinstance(text, str) else _data(text, "board")
    answer, why = _native.board(data, connect, first, empty, gravity)
    return BoardVerdict(answer, why)


def render_svg(path_or_bytes: Union[PathArg, bytes, bytearray, memoryview], title: Optional[str] = None) -> str:
    """``cz render``'s SVG picture of a game: the board, the verdict and,
    for a malformed file, the offending line. A ``str`` or ``os.PathLike``
    is a file's path (titled with its name); ``bytes`` are the file's
    contents (titled ``title``, else ``"game"``).

    >>> svg = render_svg(b"7 6 4\\n1\\n2\\n1\\n2\\n1\\n2\\n1\\n")
    >>> svg.startswith("<svg") and "</svg>" in svg
    True
    """
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        return _native.render_bytes(bytes(path_or_bytes), "game" if title is None else title)
    path = _path(path_or_bytes, "render_svg")
    return _native.render_path(path, os.path.basename(path) if title is None else title)


def _as_native_on_ctrl_c() -> None:
    # Python's own SIGINT handler only notes the signal for Python code,
    # which does not run until the command returns: a search would go on
    # (and its answer be thrown away with a traceback). The commands take
    # Ctrl-C as the native ones do: the process ends at once, by the signal
    # (a shell says 130), and `cz check` and `cz grade` still install their
    # own handler, which cleans up their boxes.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _connectz_command() -> None:
    """The ``connectz`` command: ``connectz FILE`` prints the code."""
    _as_native_on_ctrl_c()
    sys.exit(_native.connectz_command(sys.argv[1:]))


def _cz_command() -> None:
    """The ``cz`` command, the toolbox."""
    _as_native_on_ctrl_c()
    program = os.path.abspath(sys.argv[0])
    sys.exit(_native.cz_command(program, [program] + sys.argv[1:]))
