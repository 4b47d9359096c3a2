# The fork server of cz check and cz grade for a candidate run as
# `python SCRIPT FILE`: this interpreter starts once, and every run is a
# fork of it that runs SCRIPT as __main__ with sys.argv = [SCRIPT, FILE],
# as a fresh interpreter would, without paying its start-up again.
#
# Requests on standard input, one per line: CASE TAB STDOUT TAB STDERR.
# Replies on standard output: the run's pid (its process group), then,
# when it has ended, its raw wait status and peak resident memory in KiB.
# The run's standard input is /dev/null, its output goes to the two files.
# After each run, its process group and any process it left behind (this
# server is their subreaper) are killed and reaped.
import os
import sys


def orphans(me):
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/" + entry + "/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == me:
            kids.append(int(entry))
    return kids


def clean_up(group):
    try:
        os.killpg(group, 9)
    except OSError:
        pass
    me = os.getpid()
    for _ in range(1000):
        kids = orphans(me)
        if not kids:
            return
        for kid in kids:
            try:
                os.kill(kid, 9)
            except OSError:
                pass
        for kid in kids:
            try:
                os.waitpid(kid, 0)
            except OSError:
                pass


def run(script, case, out, err):
    code = 1
    try:
        os.setpgid(0, 0)
        for path, fd, flags in ((os.devnull, 0, os.O_RDONLY),
                                (out, 1, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (err, 2, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(path, flags, 0o644)
            os.dup2(opened, fd)
            os.close(opened)
        import runpy
        sys.argv = [script, os.fsdecode(case)]
        try:
            runpy.run_path(script, run_name="__main__")
            code = 0
        except SystemExit as e:
            if e.code is None:
                code = 0
            elif isinstance(e.code, int):
                code = e.code & 0xFF
            else:
                print(e.code, file=sys.stderr)
                code = 1
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        import atexit
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        code = 120
    os._exit(code)


def main():
    script = sys.argv[1]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    try:
        import ctypes
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except Exception:
        pass
    requests = os.fdopen(0, "rb", buffering=0)
    line = b""
    while True:
        byte = requests.read(1)
        if not byte:
            return
        if byte != b"\n":
            line += byte
            continue
        case, out, err = line.split(b"\t")
        line = b""
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()
            run(script, case, out, err)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        os.write(1, b"%d\n" % pid)
        _, status, usage = os.wait4(pid, 0)
        clean_up(pid)
        os.write(1, b"%d %d\n" % (status, usage.ru_maxrss))


main()
