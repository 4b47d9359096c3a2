"""The Python API's overhead per call: `connectz.best` on easy positions,
timed from Python, against the same calls into the solver timed in Rust
(`_native.best_loop_nanoseconds`: the position read, the kept solver
reset, its best column found). Prints each set's medians and their ratio.
A bench, not a test: run it by hand on the installed package,

    python python/benches/overhead.py [rounds]

from a clone (it reads crates/games/tests/data/solver/).
"""

import statistics
import sys
import time
from pathlib import Path

import connectz
from connectz_reference import _native

DATA = Path(__file__).resolve().parents[2] / "crates" / "games" / "tests" / "data" / "solver"


def positions(name, count):
    lines = (DATA / name).read_text().splitlines()[:count]
    return [line.split()[0] for line in lines]


def python_nanoseconds(moves):
    out = []
    for position in moves:
        started = time.perf_counter_ns()
        connectz.best(position)
        out.append(time.perf_counter_ns() - started)
    return out


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"connectz {connectz.__version__}: best(position) from Python and from Rust, one thread,")
    print(f"a {connectz.DEFAULT_TABLE_MB} MB table kept and reset per call; medians over {rounds} rounds")
    print(f"{'set':<28} {'calls':>6} {'Rust':>10} {'Python':>10} {'overhead':>10} {'ratio':>7}")
    for label, name, count in [
        ("End-Easy (Test_L3_R1)", "Test_L3_R1", 1000),
        ("Middle-Easy (Test_L2_R1)", "Test_L2_R1", 200),
        ("Begin-Easy (Test_L1_R1)", "Test_L1_R1", 100),
    ]:
        moves = positions(name, count)
        rust, python = [], []
        # Alternate the two so that both see the same machine.
        for _ in range(rounds):
            rust += _native.best_loop_nanoseconds(moves, (7, 6, 4), connectz.DEFAULT_TABLE_MB)
            python += python_nanoseconds(moves)
        r, p = statistics.median(rust), statistics.median(python)
        print(
            f"{label:<28} {len(moves):>6} {r / 1e3:>8.2f}us {p / 1e3:>8.2f}us "
            f"{(p - r) / 1e3:>8.2f}us {p / r:>7.2f}"
        )


if __name__ == "__main__":
    main()
