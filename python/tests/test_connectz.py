"""The installed package against the workspace's cases: run with pytest
from a clone (`python -m pytest python/tests`), after installing the
package (see python/README.md). Nothing here builds anything."""

import json
import os
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

import connectz

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"


def command(name):
    """The package's command `name`, where pip installed it for this
    interpreter (whether or not its folder is on PATH)."""
    path = Path(sysconfig.get_path("scripts")) / name
    assert path.is_file(), f"{name} is installed with the package"
    return str(path)


def case_files():
    """(path, code) of every case: tests/cases/<code>-<meaning>/<name>.txt."""
    out = []
    for folder in sorted(CASES.iterdir()):
        if folder.is_dir():
            code = int(folder.name.split("-")[0])
            out += [(path, code) for path in sorted(folder.glob("*.txt"))]
    return out


def test_the_cases_are_found():
    files = case_files()
    assert len(files) > 60
    assert {code for _, code in files} == set(range(9))


@pytest.mark.parametrize("path,code", case_files(), ids=lambda v: getattr(v, "name", str(v)))
def test_every_case_has_its_folders_code(path, code):
    assert connectz.judge(path).code == code
    assert connectz.judge(str(path)).code == code
    assert connectz.judge(os.fsencode(path)).code == code
    assert connectz.judge_bytes(path.read_bytes()).code == code
    assert connectz.judge_bytes(bytearray(path.read_bytes())).code == code


def test_the_nine_samples_of_the_brief():
    # The brief's samples: its codes 0 to 8, one each.
    samples = sorted(CASES.glob("*/brief-sample.txt"))
    assert len(samples) == 9
    for path in samples:
        expected = int(path.parent.name.split("-")[0])
        verdict = connectz.judge(path)
        assert verdict.code == expected, path
        assert verdict.rule and verdict.why


def test_a_verdict_says_why():
    v = connectz.judge_bytes(b"7 6 4\n1\n2\n1\n2\n1\n2\n1\n")
    assert (v.code, v.rule, v.line) == (1, "rule.line", 8)
    assert "player 1 completes a run of 4" in v.why
    assert v.frame == (7, 6, 4) and v.frame_text == ("7", "6", "4")
    assert v == connectz.judge_bytes(b"7 6 4\n1\n2\n1\n2\n1\n2\n1\n")
    assert "code=1" in repr(v)
    # Format faults name their clause and line; no header, no frame.
    bad = connectz.judge_bytes(b"7 6 4\n1\nx\n")
    assert (bad.code, bad.rule, bad.line) == (8, "format.move", 3)
    empty = connectz.judge_bytes(b"")
    assert (empty.code, empty.rule, empty.line, empty.frame) == (8, "format.file", 1, None)


def test_numbers_of_any_length_are_exact():
    # A frame wider than any machine word, and wider than Python reads from
    # text at once (4300 digits): the column is outside the frame.
    x = "9" * 5000
    v = connectz.judge_bytes(f"{x} 6 4\n{x}1\n".encode())
    assert v.code == 6
    assert v.frame == (10**5000 - 1, 6, 4)


def test_an_unreadable_path_is_code_9_not_an_exception(tmp_path):
    missing = connectz.judge(tmp_path / "no-such-file.txt")
    assert (missing.code, missing.rule, missing.line) == (9, "code.io", None)
    assert "cannot read" in missing.why
    assert connectz.judge(tmp_path).code == 9  # a directory


@pytest.mark.parametrize("value", [None, 42, 1.5, ["a"], object()])
def test_a_path_of_the_wrong_type_is_a_type_error(value):
    with pytest.raises(TypeError, match="path"):
        connectz.judge(value)
    with pytest.raises(TypeError, match="path"):
        connectz.explain(value)


@pytest.mark.parametrize("value", ["7 6 4\n1\n", None, 42, [1, 2]])
def test_data_of_the_wrong_type_is_a_type_error(value):
    with pytest.raises(TypeError, match="bytes"):
        connectz.judge_bytes(value)
    with pytest.raises(TypeError, match="bytes"):
        connectz.explain_bytes(value)


def test_explain_is_cz_explain_json():
    path = CASES / "6-illegal-column" / "brief-sample.txt"
    account = connectz.explain(path)
    cz = command("cz")
    out = subprocess.run([cz, "explain", "--json", str(path)], capture_output=True, check=True)
    assert account == json.loads(out.stdout)
    assert (account["code"], account["rule"], account["line"]) == (6, "rule.column-range", 5)
    same = connectz.explain_bytes(path.read_bytes(), name=str(path))
    assert same == account


def peak_kb(path):
    """The code of the game at `path`, judged in a process of its own, and
    how much that judging added to the process's peak memory, in KB."""
    probe = textwrap.dedent(
        f"""
        import resource, connectz
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        v = connectz.judge({str(path)!r})
        print(v.code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
        """
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True, text=True)
    code, grown = map(int, out.stdout.split())
    return code, grown


def test_a_large_game_is_read_in_bounded_memory(tmp_path):
    # A long file: a win on line 8, then 20 million more moves (40 MB). The
    # judge reads to the end (a later line could still be malformed) and
    # holds only the 7 x 6 game: column 3 fills, code 5.
    path = tmp_path / "long.txt"
    with open(path, "wb") as f:
        f.write(b"7 6 4\n1\n2\n1\n2\n1\n2\n1\n")
        for _ in range(20):
            f.write(b"3\n" * 1_000_000)
    assert path.stat().st_size > 40_000_000
    code, grown = peak_kb(path)
    assert code == 5
    assert grown < 8_000, f"{grown} KB more to read a 40 MB file"
    # A large game: a row of 2,000,000 cells filled left to right, players
    # alternating, so no run of 3: a draw after 2 million moves (15 MB of
    # file). The game holds 2 million counters; memory grows with them, not
    # with the file.
    path = tmp_path / "row.txt"
    n = 2_000_000
    with open(path, "wb") as f:
        f.write(f"{n} 1 3\n".encode())
        for start in range(0, n, 100_000):
            f.write("".join(f"{c}\n" for c in range(start + 1, start + 100_001)).encode())
    code, grown = peak_kb(path)
    assert code == 0
    assert grown < 64_000, f"{grown} KB for a game of 2 million counters"


def test_the_connectz_command_prints_the_code():
    connectz_cmd = command("connectz")
    for path, code in case_files()[::7]:
        out = subprocess.run([connectz_cmd, str(path)], capture_output=True, check=True)
        assert out.stdout == f"{code}\n".encode(), path
    # No file, or two: the brief's message, exit status 0.
    out = subprocess.run([connectz_cmd], capture_output=True)
    assert (out.returncode, out.stdout) == (0, b"connectz.py: Provide one input file\n")


def test_the_cz_command_runs_the_toolbox(tmp_path):
    cz = command("cz")
    out = subprocess.run([cz, "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "explain" in out.stdout and "grade" in out.stdout
    out = subprocess.run([cz, "--version"], capture_output=True, text=True)
    assert out.stdout.strip() == f"cz {connectz.__version__}"
    # cz check runs another implementation under supervisors that are this
    # same command: the package's own connectz passes every case. Named as a
    # user names it, a bare name found on the PATH (its venv's bin), so that
    # the box is given its install (a program named by a path is run as it
    # is, its install not looked for: it may be a candidate's).
    connectz_cmd = command("connectz")
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(connectz_cmd) + os.pathsep + env.get("PATH", "")
    out = subprocess.run(
        [cz, "check", "--seed", "1", "--", "connectz"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    summary = next(line for line in out.stdout.splitlines() if line.startswith("passed "))
    passed, _, total = summary.split(";")[0].split()[1:4]
    assert passed == total and int(total) > 300, summary
    assert list(tmp_path.iterdir()) == []


def test_the_reference_has_a_name_a_submission_does_not_shadow(tmp_path):
    import connectz_reference

    assert connectz.judge is connectz_reference.judge
    assert connectz.Verdict is connectz_reference.Verdict
    assert set(connectz.__all__) == set(connectz_reference.__all__)
    # A folder with a submission called connectz.py, as the brief names it:
    # there `import connectz` is the submission, connectz_reference the judge.
    (tmp_path / "connectz.py").write_text("print('a submission')\n")
    (tmp_path / "game.txt").write_bytes(b"7 6 4\n1\n2\n1\n2\n1\n2\n1\n")
    probe = "import connectz_reference as r; print(r.judge('game.txt').code)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout == "1\n", out.stderr
