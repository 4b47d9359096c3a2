"""The ConnectZ reference judge: ``judge``, ``judge_bytes``, ``explain``,
``explain_bytes`` and ``Verdict``, as documented in ``connectz_reference``.

This module and ``connectz_reference`` are one: in a folder that holds your
own ``connectz.py`` (as the brief names it), ``import connectz`` finds that
file first, so import the reference as ``connectz_reference`` there.
"""

from connectz_reference import (
    Verdict,
    __all__,
    __version__,
    explain,
    explain_bytes,
    judge,
    judge_bytes,
)
