# The fork server of cz check and cz grade for a candidate run as
# `python SCRIPT FILE`: this interpreter starts once, and every run is a
# fork of it that runs SCRIPT as __main__ with sys.argv = [SCRIPT, FILE],
# as a fresh interpreter would, without paying its start-up again.
#
# Arguments: [--box] SCRIPT (--box: this server is alone in a box, whose
# /tmp, /var/tmp and /dev/shm it empties after each run; the box's /dev is
# read-only and its system-call filter refuses System V and POSIX message
# queue IPC, so no run leaves state for the next).
# Requests on standard input, one per line: CASE TAB LIMIT_US.
# Replies on standard output: the run's pid, then, when it has ended,
#   STATUS PEAK_KB CPU_US ELAPSED_US TIMED_OUT OUT_LEN ERR_LEN UNCLEAN
# and that many bytes of its standard output and error; UNCLEAN is 1 when
# the box's /tmp, /var/tmp or /dev/shm could not be made fresh again after
# the run (its mode restored, emptied), and the server must not serve again.
# A run's standard input is /dev/null, its output and error go to files
# of this server's, and it holds no other descriptor. Its time is held to
# LIMIT_US as cz's supervisor holds a fresh run's: the CPU time of every
# process it ran (orphans too), and its own time (wall-clock time less the
# time it waited for a core). After each run, its process group and any
# process it left behind (this server is their subreaper) are killed and
# reaped, and in a box its /tmp, /var/tmp and /dev/shm are made fresh again:
# their modes restored, emptied, and checked.
#
# Nothing of the candidate's runs in this server, only in its runs: cz
# starts it with -I (no script folder or PYTHONPATH on its path), and with
# -S (no site-packages, whose .pth files are code) when the Python is named
# by a path, which may be a venv of the candidate's. It imports everything
# it needs here, from the interpreter's own library, and each run, once
# forked, puts the script's folder and PYTHONPATH first on its path and,
# after -S, reads its site-packages (site.main()), as a fresh interpreter
# does. (A candidate's ctypes.py once took this server over through its
# own imports: found by a hostile review.)
import atexit
import os
import resource
import runpy
import select
import site
import sys
import time
import traceback

try:
    import ctypes
    LIBC = ctypes.CDLL(None)
except Exception:
    LIBC = None

OUTPUT = 1 << 20


def prctl(option, value):
    """Sets a process option; False when it cannot."""
    try:
        return LIBC is not None and LIBC.prctl(option, value, 0, 0, 0) == 0
    except Exception:
        return False


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


def clean_up(group, boxed):
    """Kills the run's group and every process it left behind, reaps them,
    and returns the CPU time, in seconds, of those it reaped."""
    try:
        os.killpg(group, 9)
    except OSError:
        pass
    if boxed:
        # The box's first process itself (bubblewrap's --as-pid-1), this
        # server kills every other process of the box at once: kill(-1)
        # spares only the caller, and no fork slips in while it runs (the
        # dead are then reaped below). Killing by group and by parent,
        # pass after pass, missed a chain of processes each in a group of
        # its own that grew back a generation for each one killed, and
        # lived into the next case to rewrite its answer.
        try:
            os.kill(-1, 9)
        except OSError:
            pass
    me = os.getpid()
    cpu = 0.0
    for _ in range(1000):
        kids = orphans(me)
        if not kids:
            return cpu
        for kid in kids:
            try:
                os.kill(kid, 9)
            except OSError:
                pass
        for kid in kids:
            try:
                _, _, usage = os.wait4(kid, 0)
                cpu += usage.ru_utime + usage.ru_stime
            except OSError:
                pass
    return cpu


def tree_cpu(me):
    """CPU time, in seconds, of every process below this one (the run, what
    it started, what it left behind: this server is their subreaper): their
    own and their reaped children's."""
    parent = {}
    ticks = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/" + entry + "/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rfind(b")") + 2:].split()
            parent[int(entry)] = int(fields[1])
            ticks[int(entry)] = sum(int(x) for x in fields[11:15])
        except (OSError, ValueError, IndexError):
            continue
    total = 0
    for pid, used in ticks.items():
        p = pid
        for _ in range(4096):
            p = parent.get(p, 0)
            if p == me:
                total += used
                break
            if p <= 1:
                break
    return total / TICKS


def fresh(place):
    """Makes a box's fresh place fresh again: its mode as the box made it
    (a run may have changed it: 0555 would keep its files), then empty but
    for what the box mounted in it (the candidate's own folder, when it
    lies in /tmp). True when it is both; else the next run would not find
    it fresh."""
    try:
        os.chmod(place, 0o1777)
    except OSError:
        pass
    empty(place)
    try:
        left = [name for name in os.listdir(place)
                if not mounted(place, os.path.join(place, name))]
        return left == [] and os.stat(place).st_mode & 0o7777 == 0o1777
    except OSError:
        return False


def mounted(place, path):
    """True when path, in place, is a mount of its own (another device)."""
    try:
        return os.lstat(path).st_dev != os.stat(place).st_dev
    except OSError:
        return False


def empty(folder):
    """Removes everything in folder, whatever its modes, but what is
    mounted in it."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        if mounted(folder, path):
            continue
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, 0o700)
                empty(path)
                os.rmdir(path)
            else:
                os.unlink(path)
        except OSError:
            pass


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def times(pid):
    """CPU time (its own and its reaped children's) and time waited for a
    core, in seconds, of a process; None once it is gone."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            stat = f.read()
        fields = stat[stat.rfind(b")") + 2:].split()
        cpu = sum(int(x) for x in fields[11:15]) / TICKS
    except (OSError, ValueError):
        return None
    waited = 0.0
    try:
        with open("/proc/%d/schedstat" % pid, "rb") as f:
            waited = int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        pass
    return cpu, waited


def output_file():
    if hasattr(os, "memfd_create"):
        return os.memfd_create("cz-run")
    import tempfile
    f = tempfile.TemporaryFile()
    return os.dup(f.fileno())


def read_back(fd):
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    left = OUTPUT
    while left > 0:
        chunk = os.read(fd, min(left, 65536))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    os.close(fd)
    return b"".join(chunks)


def run(script, case, out, err, limit):
    code = 1
    try:
        os.setpgid(0, 0)
        prctl(4, 1)  # PR_SET_DUMPABLE: the run is an ordinary process
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.closerange(3, 1 << 16)
        net = int(limit) * 2 + 2
        resource.setrlimit(resource.RLIMIT_CPU, (net, net + 1))
        # The path a fresh `python SCRIPT` has: the script's folder, then
        # PYTHONPATH, then the library, then site-packages.
        extra = os.environ.get("PYTHONPATH", "").split(os.pathsep)
        sys.path[0:0] = [os.path.dirname(os.path.abspath(script))] + [p for p in extra if p]
        if sys.flags.no_site:
            site.main()
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
            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        code = 120
    os._exit(code)


def wait(pid, limit, boxed):
    """Waits for the run, holding it to its time (its CPU time counts every
    process below this server: the run and all it started, orphans too;
    read every poll in a box, whose /proc holds its own processes only,
    every twentieth otherwise); returns its wait status, resource usage,
    wall-clock time, the most CPU time seen of all its processes, and
    whether its time ran out."""
    start = time.monotonic()
    watch = None
    if hasattr(os, "pidfd_open"):
        try:
            watch = os.pidfd_open(pid)
        except OSError:
            watch = None
    timed_out = False
    pause = 0.001
    me = os.getpid()
    polls = 0
    seen = 0.0
    try:
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            t = times(pid)
            polls += 1
            if boxed or polls % 20 == 0:
                seen = max(seen, tree_cpu(me))
            if t is not None:
                cpu, waited = t
                cpu = max(cpu, seen)
                if cpu >= limit or time.monotonic() - start - waited >= limit:
                    timed_out = True
                    try:
                        os.killpg(pid, 9)
                    except OSError:
                        pass
                    _, status, usage = os.wait4(pid, 0)
                    break
            if watch is not None:
                select.select([watch], [], [], 0.005)
            else:
                time.sleep(pause)
                pause = min(pause * 2, 0.005)
    finally:
        if watch is not None:
            os.close(watch)
    elapsed = time.monotonic() - start
    return status, usage, elapsed, seen, timed_out


def main():
    args = sys.argv[1:]
    boxed = args[:1] == ["--box"]
    if boxed:
        args = args[1:]
    script = args[0]
    prctl(36, 1)  # PR_SET_CHILD_SUBREAPER
    # PR_SET_DUMPABLE: no run may trace this server, or write its memory.
    # A server that cannot say so does not serve: cz runs each case fresh.
    if not prctl(4, 0):
        sys.stderr.write("forkserver: cannot make this server undumpable\n")
        sys.exit(2)
    requests = os.fdopen(0, "rb", buffering=0)
    line = b""
    while True:
        byte = requests.read(1)
        if not byte:
            return
        if byte != b"\n":
            line += byte
            continue
        case, limit = line.split(b"\t")
        limit = int(limit) / 1e6
        line = b""
        out, err = output_file(), output_file()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()
            run(script, case, out, err, limit)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        os.write(1, b"%d\n" % pid)
        status, usage, elapsed, seen, timed_out = wait(pid, limit, boxed)
        left = clean_up(pid, boxed)
        unclean = 0
        if boxed:
            for place in ("/tmp", "/var/tmp", "/dev/shm"):
                if not fresh(place):
                    unclean = 1
        stdout, stderr = read_back(out), read_back(err)
        # The run's, its reaped children's, and what it left behind.
        cpu = max(usage.ru_utime + usage.ru_stime + left, seen)
        timed_out = timed_out or cpu >= limit
        head = b"%d %d %d %d %d %d %d %d\n" % (
            status, usage.ru_maxrss, int(cpu * 1e6), int(elapsed * 1e6),
            1 if timed_out else 0, len(stdout), len(stderr), unclean)
        os.write(1, head)
        for data in (stdout, stderr):
            while data:
                data = data[os.write(1, data):]


main()
