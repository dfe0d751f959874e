# Hexaflow's python3 fork server. It is started with an empty environment and one argument, a JSON object
# {"socket": path, "memory_bytes": n, "max_processes": n, "max_answer_bytes": n, "scratch": dir}, and never runs
# code itself. It imports what calls need, picks the strongest isolation this kernel and user allow, and writes
# one line {"ready": true, "isolation": "..."} on stdout. It keeps a few calls prepared: each is a keeper process
# with a sandbox already set up beneath it (namespaces, limits, user). The keeper accepts one connection on the
# Unix socket, passes its request line {"code": ..., "inputs": {...}} to the sandbox, which runs main(**inputs)
# once, relays the one answer line {"ok": <result>} or {"error": "<Type>: <message>"} (or {"crash": "<last line
# the code printed>"} when the sandbox died without answering), and then kills whatever the call started; the
# fork server prepares another. A fresh process per call means that nothing one call changes (a patched module,
# a global, a file in /tmp) is seen by the next. The server ends when its stdin closes (the JVM is gone); a
# keeper dies with the server and a sandbox with its keeper.
#
# Isolation, strongest first, chosen by trying it once at start:
#   namespaces+uid  (root): new PID, mount and IPC namespaces with their own /proc and an empty tmpfs on /tmp,
#                   /var/tmp, /dev/shm and /run/lock; then a dedicated uid per call slot, no capabilities, no new
#                   privileges, RLIMIT_NPROC. The server's processes are not visible and every process the code
#                   starts dies with the namespace's init (the sandbox) when the call ends or is killed.
#   namespaces      (not root, user namespaces allowed): the same namespaces inside a new user namespace whose
#                   root is the server's user; all capabilities are dropped before the code runs.
#   uid             (root, no namespaces): a dedicated uid per call slot, RLIMIT_NPROC, no new privileges, a
#                   scratch directory of its own; at the end every process of that uid is killed. The server's
#                   processes are visible in /proc but their environment is not readable; /tmp is shared.
#   process-group   (neither): the code runs as the server's user in a new session, killed whole at the end. Not
#                   covered: the server's /proc/<pid>/environ is readable, processes that leave the session
#                   (setsid) outlive the call, and nothing bounds how many processes it starts.
import ctypes
import json
import os
import select
import shutil
import signal
import socket
import stat
import sys
import tempfile

# What code nodes commonly import, loaded once here so that a forked call finds it ready.
import base64, collections, datetime, decimal, hashlib, itertools, math, random, re, string, time, uuid  # noqa

CONFIG = json.loads(sys.argv[1])
LIBC = ctypes.CDLL(None, use_errno=True)
LINUX = sys.platform.startswith("linux")  # elsewhere only the uid and process-group isolations can be chosen
if LINUX:
    LIBC.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    LIBC.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]

CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x08000000, 0x10000000, 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 8, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP = 1, 38, 24
SLOT_UID_BASE = 2_000_000_000
FRESH_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")  # the usual world-writable places
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"}


def check(result, what):
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, what + ": " + os.strerror(error))


def prctl(option, value):
    if LINUX:
        check(LIBC.prctl(option, value, 0, 0, 0), "prctl")


def mount(source, target, kind, flags, data=None):
    check(LIBC.mount(source and source.encode(), target.encode(), kind and kind.encode(), flags,
                     data and data.encode()), "mount " + target)


def drop_capabilities():
    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    for capability in range(64):
        LIBC.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0)
    check(LIBC.capset(ctypes.byref(Header(0x20080522, 0)), (Data * 2)()), "capset")


def expose_interpreter():
    """Python's own files stay readable by the call's uid when they live under a closed directory (a python3
    installed under /root): that directory is covered, in this mount namespace only, by an empty tmpfs that holds
    just the installation, so the rest of it stays out of reach."""
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix)}
    openings = {}
    for prefix in prefixes:
        ancestor = ""
        for part in prefix.split("/")[1:-1]:
            ancestor += "/" + part
            if not os.stat(ancestor).st_mode & stat.S_IXOTH:
                openings[prefix] = (ancestor, os.open(prefix, os.O_PATH))
                break
    covered = set()
    for prefix, (ancestor, handle) in openings.items():
        if ancestor not in covered:
            mount("tmpfs", ancestor, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
            covered.add(ancestor)
        os.makedirs(prefix, mode=0o755, exist_ok=True)
        mount("/proc/self/fd/%d" % handle, prefix, None, MS_BIND | MS_REC)
        os.close(handle)


def enter_namespaces(mode):
    """In the keeper, before it forks the sandbox: the sandbox becomes init of a new PID namespace."""
    if mode == "namespaces+uid":
        check(LIBC.unshare(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC), "unshare")
    elif mode == "namespaces":
        uid, gid = os.geteuid(), os.getegid()
        check(LIBC.unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC), "unshare")
        for name, text in (("setgroups", "deny"), ("uid_map", "0 %d 1" % uid), ("gid_map", "0 %d 1" % gid)):
            with open("/proc/self/" + name, "w") as f:
                f.write(text)


def confine(mode, slot, workdir):
    """In the sandbox, before the code: its own /proc and temporary directories, its limits, its user."""
    if mode.startswith("namespaces"):
        mount(None, "/", None, MS_REC | MS_PRIVATE)
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        for directory in FRESH_DIRS:
            if os.path.isdir(directory):
                mount("tmpfs", directory, "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777")
        if mode == "namespaces+uid":
            expose_interpreter()
        workdir = "/tmp"
    os.chdir(workdir)
    import resource
    memory = int(CONFIG["memory_bytes"])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if mode != "process-group":
        processes = int(CONFIG["max_processes"])
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
    if mode in ("namespaces+uid", "uid"):
        uid = SLOT_UID_BASE + slot
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    elif mode == "namespaces":
        drop_capabilities()
    else:
        os.setsid()
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def run(requests, answers):
    """In the sandbox: the code, once, when its request comes."""
    with os.fdopen(requests, "rb") as incoming:
        request = json.loads(incoming.read())
    os.environ.clear()
    os.environ.update(ENVIRONMENT)
    os.environ["HOME"] = os.getcwd()
    try:
        scope = {"__name__": "__main__", "__builtins__": __builtins__}
        exec(compile(request["code"], "<code>", "exec"), scope)
        main = scope.get("main")
        if not callable(main):
            raise NameError("name 'main' is not defined")
        text = json.dumps({"ok": main(**request.get("inputs", {}))}, ensure_ascii=False)
    except MemoryError:
        text = json.dumps({"error": "MemoryError: the code used more memory than it may"})
    except BaseException as error:
        text = json.dumps({"error": type(error).__name__ + ": " + str(error)}, ensure_ascii=False)
    with os.fdopen(answers, "wb") as outgoing:
        outgoing.write((text + "\n").encode("utf-8"))


def sandbox(mode, slot, workdir, requests, answers, printed):
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(printed, 1)
    os.dup2(printed, 2)
    sys.stdout = sys.stderr = os.fdopen(2, "w", buffering=1, encoding="utf-8", closefd=False)
    try:
        confine(mode, slot, workdir)
    except BaseException as error:
        print("the sandbox could not be set up: %s" % error, file=sys.stderr, flush=True)
        os._exit(70)
    run(requests, answers)
    sys.stderr.flush()
    os._exit(0)


def kill_all(mode, slot, pid):
    """In the keeper: end the sandbox and everything it started."""
    if mode == "process-group":
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.kill(pid, signal.SIGKILL)  # with namespaces, the death of init ends every process in them
    except OSError:
        pass
    if mode == "uid":
        killer = os.fork()
        if killer == 0:
            try:
                os.setuid(SLOT_UID_BASE + slot)
                for _ in range(1000):
                    os.kill(-1, signal.SIGKILL)  # every process of this slot's uid, setsid or not
            except OSError:
                pass
            os._exit(0)
        os.waitpid(killer, 0)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def keep(listener, taken, mode, slot):
    """One call, prepared before it comes: the sandbox is set up and waits for its request while this keeper
    waits for a connection. Then: pass the request, relay the answer, end the sandbox whole; and end it at once
    if the JVM hangs up (timeout, stop, or the server going away)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    workdir = CONFIG["scratch"]
    if not mode.startswith("namespaces"):
        workdir = tempfile.mkdtemp(dir=CONFIG["scratch"])
        if mode == "uid":
            os.chown(workdir, SLOT_UID_BASE + slot, SLOT_UID_BASE + slot)
    pid = None
    try:
        request_r, request_w = os.pipe()
        answer_r, answer_w = os.pipe()
        printed_r, printed_w = os.pipe()
        enter_namespaces(mode)
        pid = os.fork()
        if pid == 0:
            listener.close()
            for unused in (taken, request_w, answer_r, printed_r):
                os.close(unused)
            sandbox(mode, slot, workdir, request_r, answer_w, printed_w)
        for unused in (request_r, answer_w, printed_w):
            os.close(unused)
    except BaseException:
        time.sleep(0.1)  # not in a tight loop: the fork server replaces this keeper
        os.write(taken, b"+")
        raise
    try:
        connection, _ = listener.accept()
        listener.close()
        os.write(taken, b"+")
        os.close(taken)
        relay(connection, pid, request_w, answer_r, printed_r)
    finally:
        if pid is not None:
            kill_all(mode, slot, pid)
        if workdir != CONFIG["scratch"]:
            shutil.rmtree(workdir, ignore_errors=True)


def relay(connection, pid, request_w, answer_r, printed_r):
    with connection.makefile("rb") as incoming:
        request = incoming.readline()
    try:
        with os.fdopen(request_w, "wb") as outgoing:
            outgoing.write(request)
    except BrokenPipeError:
        pass  # the sandbox died while it was set up: what it printed says why
    limit = int(CONFIG["max_answer_bytes"])
    answer, tail, answered, exited = bytearray(), bytearray(), False, False
    watched = [connection, answer_r, printed_r]
    try:
        ended = os.pidfd_open(pid)
        watched.append(ended)
    except (AttributeError, OSError):
        ended = None
    while not answered and not exited:
        ready, _, _ = select.select(watched, [], [], 0.1 if ended is None else None)
        if connection in ready:
            return  # the JVM hung up
        if answer_r in ready:
            chunk = os.read(answer_r, 65536)
            if not chunk:
                watched.remove(answer_r)
            answer += chunk
            if b"\n" in answer:
                answer = answer[:answer.index(b"\n")]
                answered = True
            elif len(answer) > limit:
                connection.sendall(json.dumps({"too_large": True}).encode() + b"\n")
                return
        if printed_r in ready:
            chunk = os.read(printed_r, 65536)
            if not chunk:
                watched.remove(printed_r)
            tail = (tail + chunk)[-4096:]
        if ended in ready or (ended is None and os.waitpid(pid, os.WNOHANG)[0] != 0):
            exited = True
    if answered:
        connection.sendall(bytes(answer) + b"\n")
    else:
        lines = tail.decode("utf-8", "replace").strip().splitlines()
        connection.sendall(json.dumps({"crash": lines[-1] if lines else ""}).encode() + b"\n")


def probe(mode):
    """Tries the isolation of mode once, as a call would set it up."""
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
            enter_namespaces(mode)
            inner = os.fork()
            if inner == 0:
                try:
                    confine(mode, 0, CONFIG["scratch"])
                    os._exit(0 if not mode.startswith("namespaces") or os.getpid() == 1 else 1)
                except BaseException:
                    os._exit(1)
            os._exit(os.waitstatus_to_exitcode(os.waitpid(inner, 0)[1]))
        except BaseException:
            os._exit(1)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def choose_isolation():
    candidates = ["namespaces+uid", "uid"] if os.geteuid() == 0 else ["namespaces"]
    if not LINUX:
        candidates.remove(candidates[0])
    for mode in candidates:
        if probe(mode):
            return mode
    return "process-group"


def reap(slots):
    while slots:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            slots.clear()
            return
        if pid == 0:
            return
        for slot, keeper in list(slots.items()):
            if keeper == pid:
                del slots[slot]


def serve():
    mode = choose_isolation()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(CONFIG["socket"])
    listener.listen(128)
    taken_r, taken_w = os.pipe()
    spares = max(2, min(4, os.cpu_count() or 2))
    slots = {}

    def prepare():
        slot = next(n for n in range(len(slots) + 1) if n not in slots)
        pid = os.fork()
        if pid == 0:
            os.close(taken_r)
            code = 0
            try:
                keep(listener, taken_w, mode, slot)
            except BaseException:
                code = 1
            os._exit(code)
        slots[slot] = pid

    print(json.dumps({"ready": True, "isolation": mode}), flush=True)  # a call comes to the listen queue
    for _ in range(spares):
        prepare()
    while True:
        ready, _, _ = select.select([sys.stdin.fileno(), taken_r], [], [], 1.0)
        reap(slots)
        if sys.stdin.fileno() in ready and not os.read(sys.stdin.fileno(), 4096):
            return
        if taken_r in ready:
            for _ in os.read(taken_r, 4096):
                prepare()


serve()
