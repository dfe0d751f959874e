"""Cold starts of the server, each way an operator starts it, for `bench.py --only-start`.

For each JDK and each jar (`--jar NAME=PATH`, several to compare builds in the same minutes), and `--tries` times,
interleaved so that every row shares the machine's conditions:

- `java -jar`, on an empty data directory and on an existing one (made by a start that imported the four-node
  workflow and ran it once);
- `bin/hexaflow` (the launcher itself, run from a copy of the repository's layout holding that jar, with the JDK
  first on the PATH), on an empty and an existing data directory, after the start that made its AppCDS archive
  (JDK 17: `-XX:ArchiveClassesAtExit` at a first start, read by later ones; JDK 19 and later:
  `-XX:+AutoCreateSharedArchive`).

Each start is timed from the process's launch to the first `GET /health` 200 (which waits for the database to be
migrated and prepared), with the CPU the start took (all threads, user and system, from /proc) and the resident
memory 2 s after it answered; the `java -jar` starts on an empty data directory and the launcher's on an existing
one also give it after IDLE_S seconds of idling (the server gives the heap its start freed back once the start is
done: IdleHeap).
"""
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from streams import rss_kb

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "bench-admin-token-0123456789abcdef"
RUN_BODY = json.dumps({"inputs": {"name": "bench"}, "response_mode": "blocking", "user": "bench"}).encode()
IDLE_S = 15
IDLE_ROWS = ("java -jar, empty data dir", "bin/hexaflow, existing data dir")
ROWS = ("java -jar, empty data dir", "java -jar, existing data dir", "bin/hexaflow, empty data dir",
        "bin/hexaflow, existing data dir")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_s(pid):
    try:
        fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Start:
    """One server process, from its launch to its first /health 200; stopped with SIGTERM."""

    def __init__(self, command, data_dir, env):
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.log = open(Path(data_dir).parent / (Path(data_dir).name + ".log"), "ab")
        began = time.perf_counter()
        self.process = subprocess.Popen(command + ["--port", str(self.port), "--data-dir", str(data_dir)],
                                        env=dict(os.environ, HEXAFLOW_ADMIN_TOKEN=ADMIN, **env),
                                        stdout=self.log, stderr=self.log)
        deadline = time.time() + 300
        while not self.answers():
            if self.process.poll() is not None or time.time() > deadline:
                self.stop()
                raise RuntimeError("the server on %s did not start: %s" % (data_dir, " ".join(command)))
            time.sleep(0.005)
        self.started_s = time.perf_counter() - began
        self.cpu_s = cpu_s(self.process.pid)

    def answers(self):
        try:
            with urllib.request.urlopen(self.base + "/health", timeout=1) as response:
                return response.status == 200
        except OSError:
            return False

    def rss_mb(self):
        return rss_kb(self.process.pid) / 1024

    def run_once(self):
        """Imports the four-node workflow and runs it once: what a first request does."""
        request = urllib.request.Request(self.base + "/admin/apps", method="POST",
                                         data=(ROOT / "bench" / "apps" / "four-nodes.yml").read_bytes(),
                                         headers={"Authorization": "Bearer " + ADMIN,
                                                  "Content-Type": "application/yaml"})
        with urllib.request.urlopen(request, timeout=120) as response:
            key = json.loads(response.read())["api_key"]
        request = urllib.request.Request(self.base + "/v1/workflows/run", method="POST", data=RUN_BODY,
                                         headers={"Authorization": "Bearer " + key,
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()

    def stop(self):
        # The archive of a first launcher start is written as the JVM exits: wait for it.
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(600)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


class Layout:
    """One jar with the launcher beside it, as in the repository (bin/hexaflow, app/target/hexaflow.jar), so that
    the launcher runs as written, making its archive in that copy's app/target."""

    def __init__(self, directory, jar, launcher=None):
        self.root = Path(directory)
        (self.root / "bin").mkdir(parents=True)
        (self.root / "app" / "target").mkdir(parents=True)
        shutil.copy2(launcher or ROOT / "bin" / "hexaflow", self.root / "bin" / "hexaflow")
        shutil.copy2(jar, self.root / "app" / "target" / "hexaflow.jar")
        self.jar = self.root / "app" / "target" / "hexaflow.jar"
        self.launcher = self.root / "bin" / "hexaflow"


def start(row, java, layout, data_dir):
    launcher = row.startswith("bin/hexaflow")
    command = [str(layout.launcher)] if launcher else [java, "-jar", str(layout.jar)]
    env = {"PATH": str(Path(java).parent) + os.pathsep + os.environ.get("PATH", "")}
    return Start(command, data_dir, env)


def measure(jdks, jars, tries, log):
    """{jdk: {jar: {row: {start_s, cpu_s, rss_mb, idle_rss_mb}}}}, the tries interleaved across jars and rows."""
    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        for jdk, java in jdks:
            layouts, existing = {}, {}
            for name, jar in jars:
                # NAME=JAR@LAUNCHER starts that jar with a launcher of its own build (an older bin/hexaflow).
                jar, _, launcher = jar.partition("@")
                layouts[name] = Layout(Path(scratch) / jdk.replace(" ", "") / name, jar, launcher or None)
                existing[name] = layouts[name].root / "existing-data"
                log("  %s, %s: the launcher's first start (makes its archive) and the existing data dir" % (jdk, name))
                first = start("bin/hexaflow", java, layouts[name], existing[name])
                try:
                    first.run_once()
                finally:
                    first.stop()
            figures = {name: {row: {"start_s": [], "cpu_s": [], "rss_mb": [], "idle_rss_mb": []} for row in ROWS}
                       for name, _ in jars}
            for attempt in range(tries):
                for name, _ in jars:
                    for row in ROWS:
                        log("  %s, %s, %s (%d of %d)" % (jdk, name, row, attempt + 1, tries))
                        one(row, java, layouts[name], existing[name], figures[name][row])
            results[jdk] = figures
    return results


def one(row, java, layout, existing, figures):
    with tempfile.TemporaryDirectory() as empty:
        data = existing if row.endswith("existing data dir") else Path(empty) / "data"
        server = start(row, java, layout, data)
        try:
            figures["start_s"].append(server.started_s)
            figures["cpu_s"].append(server.cpu_s)
            time.sleep(2)
            figures["rss_mb"].append(server.rss_mb())
            if row in IDLE_ROWS:
                time.sleep(IDLE_S - 2)
                figures["idle_rss_mb"].append(server.rss_mb())
        finally:
            server.stop()


def lines(results):
    out = []
    for jdk, jars in results.items():
        for name, rows in jars.items():
            for row, f in rows.items():
                text = "%s, %s, %s: start %s s (median %.2f), CPU %s s, RSS 2 s after %s MB" % (
                    jdk, name, row, ", ".join("%.2f" % s for s in f["start_s"]), statistics.median(f["start_s"]),
                    ", ".join("%.1f" % s for s in f["cpu_s"]), ", ".join("%.0f" % m for m in f["rss_mb"]))
                if f["idle_rss_mb"]:
                    text += ", %d s after %s MB" % (IDLE_S, ", ".join("%.0f" % m for m in f["idle_rss_mb"]))
                out.append(text)
    return out
