"""The engine as a player of PettingZoo's ``connect_four_v3``: ``Opponent``,
``position`` and ``action``, as documented in
``connectz_reference.pettingzoo``."""

from connectz_reference.pettingzoo import Opponent, __all__, action, position
