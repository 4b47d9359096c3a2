"""The ConnectZ reference judge, for Python.

ConnectZ is Connect Four on any frame X by Y with any line length Z. A game
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

``connectz`` and ``connectz_reference`` are the same module; the second name
is for folders that hold a ``connectz.py`` of their own (as the brief names
a submission), where ``import connectz`` finds that file first.
"""

from __future__ import annotations

import os
import sys

from . import _native

# Types for checkers only: importing typing costs the `connectz` command
# about 8 ms a run.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Optional, Tuple, Union

    #: What :func:`judge` and :func:`explain` take: a path as ``str``,
    #: ``bytes`` or any ``os.PathLike``.
    PathArg = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]

__all__ = ["Verdict", "judge", "judge_bytes", "explain", "explain_bytes", "__version__"]

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


def _connectz_command() -> None:
    """The ``connectz`` command: ``connectz FILE`` prints the code."""
    sys.exit(_native.connectz_command(sys.argv[1:]))


def _cz_command() -> None:
    """The ``cz`` command, the toolbox."""
    program = os.path.abspath(sys.argv[0])
    sys.exit(_native.cz_command(program, [program] + sys.argv[1:]))
