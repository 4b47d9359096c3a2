"""The engine as a player of PettingZoo's ``connect_four_v3``
(``pip install connectz[pettingzoo]`` installs PettingZoo with it).

An observation there is a dict: ``observation``, of shape (6, 7, 2), holds
the agent to move's counters in channel 0 and its opponent's in channel 1,
row 0 the top of the board; ``action_mask`` marks the open columns; an
action is a 0-based column. The solver needs a position, the moves that
reach the board: :func:`position` finds an order of them from the board
alone (any order that stacks every column as it stands, the players
alternating, reaches the same position and so the same scores), so a player
needs no history and can join a game at any point.

>>> from connectz.pettingzoo import Opponent
>>> empty = [[[0, 0] for _ in range(7)] for _ in range(6)]
>>> Opponent("perfect")({"observation": empty, "action_mask": [1] * 7})
3

In the environment (see ``python/examples/pettingzoo_game.py``)::

    from pettingzoo.classic import connect_four_v3
    from connectz.pettingzoo import Opponent

    env = connect_four_v3.env()
    env.reset(seed=1)
    engine = Opponent("perfect")
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
        elif agent == "player_0":
            env.step(engine(observation))
        else:
            env.step(int(observation["action_mask"].nonzero()[0][0]))

The module does not import PettingZoo: an observation is the dict, or its
board alone, anything indexed as ``board[row][column][channel]`` (a NumPy
array or nested lists).
"""

from __future__ import annotations

from . import Engine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Union

__all__ = ["Opponent", "position", "action"]

#: The frame of ``connect_four_v3``.
ROWS, COLUMNS = 6, 7


def _stacks(board: Any) -> List[List[int]]:
    """Each column's counters bottom-up: 0 the agent to move's, 1 the
    opponent's."""
    if hasattr(board, "tolist"):
        board = board.tolist()
    if len(board) != ROWS or any(len(row) != COLUMNS for row in board):
        raise ValueError(f"an observation's board is {ROWS} rows of {COLUMNS} columns of 2 channels")
    stacks: List[List[int]] = []
    for c in range(COLUMNS):
        stack: List[int] = []
        for r in range(ROWS - 1, -1, -1):
            mine, theirs = board[r][c][0], board[r][c][1]
            if mine and theirs:
                raise ValueError(f"row {r} column {c} holds both players' counters")
            if not (mine or theirs):
                if any(board[above][c][0] or board[above][c][1] for above in range(r)):
                    raise ValueError(f"column {c} has a counter above an empty cell (row {r})")
                break
            stack.append(0 if mine else 1)
        stacks.append(stack)
    return stacks


def _board(observation: Any) -> Any:
    return observation["observation"] if isinstance(observation, dict) else observation


def position(observation: Any) -> List[int]:
    """The 1-based columns of a game that reaches the board of
    ``observation`` with its agent to move, as :func:`connectz.solve` and
    :class:`connectz.Engine` read a position. A board that no alternating
    game reaches raises ``ValueError``.

    >>> board = [[[0, 0] for _ in range(7)] for _ in range(6)]
    >>> board[5][3] = [0, 1]   # the opponent's counter in the middle
    >>> position({"observation": board})
    [4]
    """
    stacks = _stacks(_board(observation))
    counters = [s for stack in stacks for s in stack]
    mine, theirs = counters.count(0), counters.count(1)
    # The agent to move moved first when both have as many counters.
    if mine == theirs:
        first = 0
    elif theirs == mine + 1:
        first = 1
    else:
        raise ValueError(
            f"the agent to move has {mine} counters and its opponent {theirs}: "
            "no alternating game gives the side to move fewer, or two fewer"
        )
    order = _order(stacks, first)
    if order is None:
        raise ValueError("no alternating game stacks the columns this way")
    return [c + 1 for c in order]


def _order(stacks: List[List[int]], first: int) -> Optional[List[int]]:
    """Columns (0-based) in an order that builds ``stacks``, the side
    ``first`` first: found backwards, taking each time a top counter of the
    side that moved last, depth first, remembering heights that lead
    nowhere (a board within reach has at most 7^7 of them)."""
    heights = [len(s) for s in stacks]
    total = sum(heights)
    dead = set()
    taken: List[int] = []

    def back(heights: List[int], left: int) -> bool:
        if left == 0:
            return True
        key = tuple(heights)
        if key in dead:
            return False
        # Move `left` (1-based) was the first side's when it is odd.
        side = first if left % 2 == 1 else 1 - first
        for c in range(COLUMNS):
            h = heights[c]
            if h and stacks[c][h - 1] == side:
                heights[c] = h - 1
                taken.append(c)
                if back(heights, left - 1):
                    return True
                taken.pop()
                heights[c] = h
        dead.add(key)
        return False

    if not back(heights, total):
        return None
    return taken[::-1]


# The engines `action` makes for a level, kept: a perfect one's table takes
# milliseconds to make.
_ENGINES: Dict[str, Engine] = {}


def action(observation: Any, engine: Union[Engine, str] = "perfect") -> int:
    """The action (a 0-based column) of ``engine`` (an :class:`Engine`, or a
    level for one kept by this module) for the agent to move in
    ``observation``; it is always one the ``action_mask`` allows.

    >>> board = [[[0, 0] for _ in range(7)] for _ in range(6)]
    >>> for row, column in [(5, 3), (4, 3), (3, 3)]:
    ...     board[row][column] = [0, 1]   # three of the opponent's stacked
    >>> for row, column in [(5, 0), (5, 1)]:
    ...     board[row][column] = [1, 0]
    >>> action(board)                   # block the fourth on top
    3
    """
    if isinstance(engine, str):
        level = engine
        engine = _ENGINES.get(level) or _ENGINES.setdefault(level, Engine(level))
    column = engine.move(position(observation)) - 1
    mask = observation.get("action_mask") if isinstance(observation, dict) else None
    if mask is not None and not mask[column]:
        raise ValueError(f"the engine chose column {column}, which the action mask closes")
    return column


class Opponent:
    """A ``connect_four_v3`` player: called with an observation, it returns
    the action of :class:`connectz.Engine` at ``level`` (``"easy"``,
    ``"medium"`` or ``"perfect"``), for whichever agent is to move. ``seed``
    seeds the easy level (``None``: from ``os.urandom``); ``table_mb`` and
    ``jobs`` are the perfect level's (see :class:`connectz.Engine`)."""

    __slots__ = ("engine",)

    def __init__(self, level: str = "perfect", seed: Optional[int] = None, **engine: Any) -> None:
        self.engine = Engine(level, 7, 6, 4, seed, **engine)

    def __call__(self, observation: Dict[str, Any]) -> int:
        return action(observation, self.engine)

    def __repr__(self) -> str:
        return f"Opponent({self.engine.level!r})"
