"""The ConnectZ reference judge, solver and engine: ``judge``,
``judge_bytes``, ``explain``, ``explain_bytes``, ``Verdict``, ``solve``,
``weak``, ``best``, ``scores``, ``read_book``, ``Engine``, ``board``,
``BoardVerdict`` and ``render_svg``, as documented in ``connectz_reference``.

This module and ``connectz_reference`` are one: in a folder that holds your
own ``connectz.py`` (as the brief names it), ``import connectz`` finds that
file first, so import the reference as ``connectz_reference`` there.
"""

from connectz_reference import (
    DEFAULT_TABLE_MB,
    BoardVerdict,
    Engine,
    Verdict,
    __all__,
    __version__,
    best,
    board,
    explain,
    explain_bytes,
    judge,
    judge_bytes,
    read_book,
    render_svg,
    scores,
    solve,
    weak,
)
