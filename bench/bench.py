#!/usr/bin/env python3
"""Hexaflow's benchmark harness: every figure of BENCHMARKS.md measured side by side on each JDK, in one run.

Each throughput figure is also given as a ratio to the raw ceiling of the same server in the same run (GET
/health under the same load). The results go to bench/target/results.json and, unless --no-write, into the
generated section of BENCHMARKS.md with the machine, the JDKs and the command. Benchmarks report; they never fail
a build. Run it through bench/run.sh, which builds the jars first. --only-postgres measures only the blocking runs on
PostgreSQL (one and two instances on one database, see measure_postgres) and refreshes just those figures.
--only-limits measures blocking runs with every limit of an app on and off, interleaved (see measure_limits).
--only-inline measures blocking runs played on the request's thread and on the engine's, interleaved (see
measure_inline).
--only-start measures cold starts, `java -jar` and bin/hexaflow on an empty and an existing data dir, for one jar or
several interleaved (see starts.py).
--only-runs measures what a kept blocking run costs against the same server's /health, beside the floor server (see
measure_runs).
"""
import argparse
import contextlib
import glob
import json
import os
import platform
import pwd
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from streams import rss_kb

ROOT = Path(__file__).resolve().parent.parent
JAR = ROOT / "app" / "target" / "hexaflow.jar"
BENCH_JAR = ROOT / "bench" / "target" / "benchmarks.jar"
POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")
ADMIN = "bench-admin-token-0123456789abcdef"
BEGIN, END = "<!-- harness:begin -->", "<!-- harness:end -->"
LIMITS_BEGIN, LIMITS_END = "<!-- limits:begin -->", "<!-- limits:end -->"
INLINE_BEGIN, INLINE_END = "<!-- inline:begin -->", "<!-- inline:end -->"
# Every limit of an app on, each far above what a benchmark reaches, so that each is checked and none refuses.
LIMITS_ON = {"rate_per_key": {"per_minute": 2_000_000_000, "burst": 2_000_000_000},
             "rate_per_end_user": {"per_minute": 2_000_000_000, "burst": 2_000_000_000},
             "active_runs": 100_000, "active_runs_per_end_user": 100_000,
             "budgets": [{"scope": scope, "period": period, "measure": "tokens", "amount": 10 ** 15}
                         for scope in ("app", "key", "end_user") for period in ("day", "month")]
             + [{"scope": "app", "period": "month", "measure": "price", "amount": 10 ** 9}]}
NAMES = ["ada", "grace", "alan", "barbara", "donald", "margaret", "linus", "radia", "leslie", "hedy",
         "frances", "edsger", "niklaus", "dennis", "ken", "guido", "james", "tim", "vint", "john"]


def log(*parts):
    print("[bench]", *parts, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, headers=None, timeout=600):
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"null")


class Server:
    """The packaged jar on a data dir, started with one JDK and stopped with SIGTERM."""

    def __init__(self, java, data_dir, env=None, log_name="server.log", jvm=(), jar=None):
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        environment = dict(os.environ, HEXAFLOW_ADMIN_TOKEN=ADMIN, **(env or {}))
        self.log = open(Path(data_dir) / log_name, "ab")
        self.began = time.perf_counter()
        self.process = subprocess.Popen([java, *jvm, "-jar", str(jar or JAR), "--port", str(self.port), "--data-dir",
                                         str(data_dir)], env=environment, stdout=self.log, stderr=self.log)
        deadline = time.time() + 180
        while True:
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if self.process.poll() is not None or time.time() > deadline:
                if self.process.poll() is None:
                    self.process.kill()
                    self.process.wait()
                self.log.close()
                raise RuntimeError("the server on %s did not start; see its %s" % (data_dir, log_name))
            time.sleep(0.01)
        self.started_s = time.perf_counter() - self.began
        # The CPU the start took (every thread, user and system): on a machine others load, the figure that compares.
        self.start_cpu_s = cpu_s([self.process.pid])

    def import_app(self, path):
        return http("POST", self.base + "/admin/apps", Path(path).read_bytes(),
                    {"Authorization": "Bearer " + ADMIN, "Content-Type": "application/yaml"})

    def stop(self, timeout=60):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def wrk(url, seconds, connections=64, warmup=3, threads=2, **env):
    environment = dict(os.environ, **{"WRK_" + k.upper(): v for k, v in env.items()})
    command = ["wrk", "-t%d" % threads, "-c%d" % connections, "--timeout", "10s", "-s",
               str(ROOT / "bench" / "wrk.lua"), url]
    if warmup:
        subprocess.run(command[:1] + ["-d%ds" % warmup] + command[1:], env=environment, capture_output=True,
                       check=True)
    out = subprocess.run(command[:1] + ["-d%ds" % seconds] + command[1:], env=environment, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def wrk_together(urls, seconds, connections=32, warmup=5, **env):
    """One wrk per URL, all at the same time, each -t1 -cCONNECTIONS: their summaries in the order of the URLs."""
    environment = dict(os.environ, **{"WRK_" + k.upper(): v for k, v in env.items()})

    def run(duration):
        processes = [subprocess.Popen(["wrk", "-t1", "-c%d" % connections, "-d%ds" % duration, "--timeout", "10s",
                                       "-s", str(ROOT / "bench" / "wrk.lua"), url], env=environment,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for url in urls]
        outs = [process.communicate() for process in processes]
        for process, (out, err) in zip(processes, outs):
            if process.returncode:
                raise subprocess.CalledProcessError(process.returncode, process.args, out, err)
        return [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]

    if warmup:
        run(warmup)
    return run(seconds)


def proc_times(pid):
    """utime, stime, cutime, cstime of a process in seconds, from /proc/PID/stat (all its threads; zeros when gone)."""
    try:
        fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0, 0.0, 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return tuple(int(field) / tick for field in fields[11:15])


def cpu_s(pids):
    """The CPU time (user + system) the processes have used so far, in seconds."""
    return sum(sum(proc_times(pid)[:2]) for pid in pids)


def streams(mode, server, key, count, inputs, *extra):
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "streams.py"), mode, "127.0.0.1", str(server.port),
                          key, str(count), json.dumps(inputs)] + [str(e) for e in extra], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def total_runs(server, key, query=""):
    return http("GET", server.base + "/v1/workflows/logs?limit=1" + query,
                headers={"Authorization": "Bearer " + key})["total"]


class Postgres:
    """A throwaway PostgreSQL 15 cluster from Debian's binaries, like the tests' PostgresCluster but durable
    (fsync and synchronous commit on, as a real deployment would keep them): made by initdb in a temporary directory,
    listening on a free port on 127.0.0.1 only, stopped (pg_ctl stop -m fast) and deleted on leaving the `with`,
    whatever happened. PostgreSQL refuses to run as root: as root its binaries run as the postgres user."""

    USER = "postgres"
    PASSWORD = "hexaflow-bench-password"

    @staticmethod
    def missing():
        """Why no cluster can be made here, or None."""
        for name in ("initdb", "pg_ctl", "createdb"):
            if not os.access(POSTGRES_BIN / name, os.X_OK):
                return "PostgreSQL's server binaries are not in %s" % POSTGRES_BIN
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no postgres user to run PostgreSQL as"
            if not shutil.which("runuser"):
                return "running as root and there is no runuser to run PostgreSQL as the postgres user"
        return None

    def __init__(self):
        self.directory = Path(tempfile.mkdtemp(prefix="hexaflow-postgresql-"))
        self.data = self.directory / "data"
        try:
            password = self.directory / "password"
            password.write_text(self.PASSWORD + "\n")
            password.chmod(0o600)
            if os.geteuid() == 0:
                postgres = pwd.getpwnam("postgres")
                for path in (self.directory, password):
                    os.chown(path, postgres.pw_uid, postgres.pw_gid)
            self.run("initdb", "-D", self.data, "-U", self.USER, "--pwfile=%s" % password, "--auth-local=trust",
                     "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync")
            self.port = free_port()
            options = ("-p %d -c listen_addresses=127.0.0.1 -k %s -c fsync=on -c synchronous_commit=on"
                       " -c max_connections=200 -c shared_buffers=256MB" % (self.port, self.directory))
            self.run("pg_ctl", "-D", self.data, "-o", options, "-l", self.directory / "postgresql.log", "-w",
                     "-t", "60", "start")
        except BaseException:
            self.close()
            raise

    def run(self, name, *args):
        command = (["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []) + [
            str(POSTGRES_BIN / name)] + [str(arg) for arg in args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError("%s failed: %s" % (" ".join(command), (done.stdout + done.stderr).strip()[-2000:]))

    def create_database(self, name):
        """A new empty database; the settings a server takes to keep its data there."""
        self.run("createdb", "-h", self.directory, "-p", self.port, "-U", self.USER, name)
        return {"HEXAFLOW_DATABASE_URL": "jdbc:postgresql://127.0.0.1:%d/%s" % (self.port, name),
                "HEXAFLOW_DATABASE_USER": self.USER, "HEXAFLOW_DATABASE_PASSWORD": self.PASSWORD}

    def cpu_s(self):
        """The CPU time every process of the cluster has used so far: the postmaster, its live children (backends,
        writers) and its children that ended (counted into the postmaster's cutime and cstime once reaped)."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        total = sum(proc_times(postmaster))
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    parent = int(Path("/proc/%s/stat" % entry).read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                if parent == postmaster:
                    total += sum(proc_times(int(entry))[:2])
        return total

    def close(self):
        if (self.data / "postmaster.pid").exists():
            try:
                self.run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "-t", "60", "stop")
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                log("  PostgreSQL did not stop fast (%s); stopping it immediately" % e)
                try:
                    self.run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "-t", "30", "stop")
                except (RuntimeError, subprocess.TimeoutExpired) as again:
                    log("  PostgreSQL did not stop: %s; its directory %s is deleted anyway" % (again, self.directory))
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()


RUN_PATH = "/v1/workflows/run"
RUN_BODY = json.dumps({"inputs": {"name": "bench"}, "response_mode": "blocking", "user": "bench"})


def kept_and_cpu(cluster, servers, key, measure):
    """`measure()` (wrk), with the runs it kept in the database and the CPU time of the servers and of PostgreSQL
    over its seconds and the second after (a blocking run's record may be written just after its answer)."""
    before, succeeded = total_runs(servers[0], key), total_runs(servers[0], key, "&status=succeeded")
    java, postgres = cpu_s([server.process.pid for server in servers]), cluster.cpu_s()
    results = measure()
    time.sleep(1)
    results["cpu_s"] = {"server": cpu_s([server.process.pid for server in servers]) - java,
                        "postgres": cluster.cpu_s() - postgres}
    results["kept_runs"] = total_runs(servers[0], key) - before
    results["kept_succeeded"] = total_runs(servers[0], key, "&status=succeeded") - succeeded
    return results


def measure_postgres(java, seconds):
    """Blocking runs of the 4-node workflow on PostgreSQL: one instance on a fresh database (and its `GET /health`
    ceiling), then a second instance on the same database and data dir and both loaded at once, one wrk each."""
    results = {}
    with Postgres() as cluster, tempfile.TemporaryDirectory() as data:
        settings = cluster.create_database("hexaflow_bench")
        servers = []
        try:
            servers.append(Server(java, data, settings))
            first = servers[0]
            results["start_s"] = first.started_s
            four = first.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")["api_key"]
            log("  PostgreSQL, one instance: blocking runs until the JIT has settled")
            # Warmed as --only-runs warms its servers: on two cores the JIT settles over a minute of runs or more
            # (a 5 s warm-up read a third of the runs a second and four times the p99 of a warm server).
            results["warm_up_s"] = warm_runs(first, four)
            log("  PostgreSQL, one instance: GET /health")
            results["health"] = wrk(first.base + "/health", seconds, warmup=5)
            log("  PostgreSQL, one instance: blocking runs")
            results["one"] = kept_and_cpu(cluster, servers, four, lambda: wrk(
                first.base + RUN_PATH, seconds, warmup=0, method="POST", body=RUN_BODY, key=four))
            log("  PostgreSQL, two instances on one database: blocking runs on both at once")
            servers.append(Server(java, data, settings, log_name="server-2.log"))
            results["second_start_s"] = servers[1].started_s
            urls = [server.base + RUN_PATH for server in servers]
            warm_runs(servers[1], four)
            wrk_together(urls, 3, warmup=0, method="POST", body=RUN_BODY, key=four)
            two = kept_and_cpu(cluster, servers, four, lambda: {"instances": wrk_together(
                urls, seconds, warmup=0, method="POST", body=RUN_BODY, key=four)})
            each = two["instances"]
            two["rps"] = sum(instance["rps"] for instance in each)
            two["requests"] = sum(instance["requests"] for instance in each)
            two["errors"] = sum(instance["socket_errors"] + instance["status_errors"] for instance in each)
            two["p99_ms"] = max(instance["p99_ms"] for instance in each)
            results["two"] = two
            return results
        finally:
            for server in reversed(servers):
                server.stop()


def jit_cpu_s(pid):
    """The CPU time the JVM's JIT compiler threads (named "C1 CompilerThre…" and "C2 CompilerThre…") have used."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path("/proc/%d/task" % pid).glob("*"):
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
        if "CompilerThre" in name:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


# A server is warm when its JIT took under this share of its CPU in its last 15 s of runs. On two cores under 64
# connections, JDK 17's one C2 thread needs some 90 s of runs to compile what the runs use (its queue held 76
# methods after 45 s, and a warm server keeps twice the runs a second of one warmed 45 s); JDK 25's, some 45 s.
WARM_JIT_SHARE = 0.05
WARM_ROUNDS = (2, 10)


def warm_until_settled(targets, connections=64):
    """Blocking runs, 15 s at a time on each of `targets` ((process, base URL, key) each) in turn, until each one's
    JIT took under WARM_JIT_SHARE of its CPU in its last 15 s (at least 2 and at most 10 times 15 s): the seconds
    of runs each one took, in the order given."""
    seconds = [0] * len(targets)
    settled = [False] * len(targets)
    for round_ in range(WARM_ROUNDS[1]):
        for i, (process, base, key) in enumerate(targets):
            if settled[i]:
                continue
            cpu, jit = cpu_s([process.pid]), jit_cpu_s(process.pid)
            wrk(base + RUN_PATH, 15, connections=connections, threads=min(2, connections), warmup=0,
                method="POST", body=RUN_BODY, key=key)
            seconds[i] += 15
            share = (jit_cpu_s(process.pid) - jit) / max(cpu_s([process.pid]) - cpu, 1e-9)
            settled[i] = round_ + 1 >= WARM_ROUNDS[0] and share < WARM_JIT_SHARE
        if all(settled):
            break
    log("  warmed %s s of runs (JIT settled: %s)" % (seconds, settled))
    return seconds


def warm_runs(server, key):
    """Blocking runs until the server's JIT has settled (warm_until_settled): the seconds of runs it took."""
    return warm_until_settled([(server.process, server.base, key)])[0]


def postgres_figures(java, seconds, command):
    """measure_postgres, or why it was not measured: benchmarks report, they never fail."""
    missing = Postgres.missing()
    if missing:
        log("  PostgreSQL figures skipped:", missing)
        return {"skipped": missing}
    try:
        results = measure_postgres(java, seconds)
    except Exception as e:
        reason = " ".join(str(e).split())[:400]
        log("  PostgreSQL figures failed:", reason)
        return {"skipped": "failed: %s" % reason}
    results.update(date=time.strftime("%Y-%m-%d"), command=command, seconds=seconds, cores=os.cpu_count())
    return results


def measure_start(java, tries=3):
    """Cold starts, `java -jar` to the first `/health` 200, each on a fresh data dir, and the resident memory 2 s
    after: first as `java -jar` alone, then with an AppCDS archive (JDK 17's dynamic archive: made by one start
    that serves a run and is stopped, as `bin/hexaflow` makes it at its first start, then read by each start)."""
    plain = cold_starts(java, tries, ())
    with tempfile.TemporaryDirectory() as directory:
        archive = Path(directory) / "hexaflow.jsa"
        with tempfile.TemporaryDirectory() as data:
            server = Server(java, data, jvm=("-XX:ArchiveClassesAtExit=%s" % archive,))
            try:
                key = server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")["api_key"]
                http("POST", server.base + RUN_PATH, RUN_BODY.encode(),
                     {"Authorization": "Bearer " + key, "Content-Type": "application/json"})
            finally:
                # The archive is written as the JVM exits: a kill before it ends leaves none (and no CDS figures).
                server.stop(timeout=600)
        cds = cold_starts(java, tries, ("-XX:SharedArchiveFile=%s" % archive,)) if archive.exists() else None
    return {"start_s": plain["start_s"], "start_cpu_s": plain["start_cpu_s"], "idle_rss_mb": plain["idle_rss_mb"],
            "cds": cds, "cds_archive_made": cds is not None}


def cold_starts(java, tries, jvm):
    starts, cpu, rss = [], [], []
    for _ in range(tries):
        with tempfile.TemporaryDirectory() as data:
            server = Server(java, data, jvm=jvm)
            starts.append(server.started_s)
            cpu.append(server.start_cpu_s)
            time.sleep(2)
            rss.append(rss_kb(server.process.pid) / 1024)
            server.stop()
    return {"start_s": starts, "start_cpu_s": cpu, "idle_rss_mb": rss}


def measure_durability(java, seconds, rounds=3):
    """Blocking runs of the four-node workflow a second in each durability mode (HEXAFLOW_DURABILITY), two servers
    up at once and loaded in turn, `rounds` times each, so that the ratio synced / written is of the same minutes."""
    with tempfile.TemporaryDirectory() as written_dir, tempfile.TemporaryDirectory() as synced_dir:
        servers = {}
        try:
            for mode, data in (("written", written_dir), ("synced", synced_dir)):
                server = Server(java, data, env={"HEXAFLOW_DURABILITY": mode})
                servers[mode] = (server, server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")["api_key"])
            warm_until_settled([(server.process, server.base, key) for server, key in servers.values()])
            results = {mode: [] for mode in servers}
            for _ in range(rounds):
                for mode, (server, key) in servers.items():
                    results[mode].append(wrk(server.base + RUN_PATH, seconds, warmup=0, method="POST",
                                             body=RUN_BODY, key=key))
            return results
        finally:
            for server, _ in servers.values():
                server.stop()


def measure_server(java, seconds):
    """The ceiling, blocking runs, the campus feed and the first frame, on one fresh server."""
    with tempfile.TemporaryDirectory() as data:
        server = Server(java, data)
        try:
            four = server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")["api_key"]
            results = {}
            log("  blocking runs until the JIT has settled")
            run_body = json.dumps({"inputs": {"name": "bench"}, "response_mode": "blocking", "user": "bench"})
            results["warm_up_s"] = warm_runs(server, four)
            log("  GET /health")
            results["health"] = wrk(server.base + "/health", seconds, warmup=5)
            log("  blocking runs")
            before = total_runs(server, four)
            cpu = cpu_s([server.process.pid])
            results["blocking"] = wrk(server.base + "/v1/workflows/run", seconds, warmup=0, method="POST",
                                      body=run_body, key=four)
            time.sleep(1)
            results["blocking"]["cpu_s"] = {"server": cpu_s([server.process.pid]) - cpu}
            results["blocking"]["kept_runs"] = total_runs(server, four) - before
            results["blocking"]["kept_succeeded"] = total_runs(server, four, "&status=succeeded")
            log("  streaming runs, each response read to its end")
            stream_body = json.dumps({"inputs": {"name": "bench"}, "response_mode": "streaming", "user": "bench"})
            before = total_runs(server, four)
            results["streaming"] = wrk(server.base + "/v1/workflows/run", seconds, warmup=0, method="POST",
                                       body=stream_body, key=four)
            time.sleep(1)
            results["streaming"]["kept_runs"] = total_runs(server, four) - before
            log("  campus feed, keyed (one hot key, 64 keys) and keyless")
            keys = [http("POST", server.base + "/admin/campus/keys", headers={"Authorization": "Bearer " + ADMIN})
                    ["key"] for _ in range(64)]
            for extension in ("json", "xml", "ics"):
                path = "/v2/events/holidays." + extension
                results["holidays_%s_hot_key" % extension] = wrk(server.base + path + "?key=" + keys[0], seconds)
                results["holidays_%s_many_keys" % extension] = wrk(
                    server.base + path, seconds, paths="|".join(path + "?key=" + key for key in keys))
                results["holidays_" + extension] = wrk(server.base + path, seconds)
            log("  time to first frame")
            streams("ttfb", server, four, 200, {"name": "warm-up"})
            results["ttfb"] = streams("ttfb", server, four, 500, {"name": "ttfb"})
            return results
        finally:
            server.stop()


def measure_streams(java, count, model_port):
    """`count` streaming runs at once against the slow model, on a fresh server warmed by a first round."""
    with tempfile.TemporaryDirectory() as data:
        # Every stream comes from this one address: the share of one address (1000 by default) is lifted.
        server = Server(java, data, {"HEXAFLOW_LLM_BASE_URL": "http://127.0.0.1:%d/v1" % model_port,
                                     "HEXAFLOW_HTTP_REQUESTS_PER_ADDRESS": "0"})
        try:
            slow = server.import_app(ROOT / "bench" / "apps" / "slow-model.yml")["api_key"]
            idle = rss_kb(server.process.pid)
            cold = streams("hold", server, slow, count, {"q": "hello"}, server.process.pid)
            warm = streams("hold", server, slow, count, {"q": "hello"}, server.process.pid)
            warm["cold_all_open_s"] = cold["all_open_s"]
            warm["cold_errors"] = cold["errors"] + cold["other"]
            warm["idle_rss_kb"] = idle
            time.sleep(2)
            warm["threads_after"] = len(os.listdir("/proc/%d/task" % server.process.pid))
            return warm
        finally:
            server.stop()


def seed_logs(java, runs):
    """A data dir holding `runs` finished runs of the four-node app, made by bench's SeedRuns (see its doc)."""
    data = Path(tempfile.mkdtemp(prefix="hexaflow-logs-"))
    server = Server(java, data)
    app = server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")
    server.stop()
    began = time.perf_counter()
    subprocess.run([java, "-cp", str(BENCH_JAR), "dev.hexaflow.bench.SeedRuns", str(data), app["app_id"],
                    app["workflow_id"], str(runs)], check=True, capture_output=True)
    return data, app["api_key"], time.perf_counter() - began


def measure_logs(java, data, key, seconds):
    server = Server(java, data)
    try:
        results = {"start_s": server.started_s}
        headers = {"Authorization": "Bearer " + key}
        cold = []
        for name in NAMES[:3]:
            began = time.perf_counter()
            http("GET", server.base + "/v1/workflows/logs?keyword=%s&status=succeeded" % name, headers=headers)
            cold.append((time.perf_counter() - began) * 1000)
        results["keyword_first_ms"] = cold
        queries = {
            "keyword_status": ["/v1/workflows/logs?keyword=%s&status=succeeded&page=%d" % (n, p)
                               for n in NAMES[:3] for p in (1, 2, 3)],
            "status": ["/v1/workflows/logs?status=%s" % s for s in ("succeeded", "failed", "stopped")],
            "all": ["/v1/workflows/logs?page=%d" % p for p in range(1, 6)],
        }
        for name, paths in queries.items():
            log("  logs:", name)
            results[name] = wrk(server.base + paths[0], seconds, connections=4, warmup=2, key=key,
                                paths="|".join(paths))
        results["total"] = total_runs(server, key)
        return results
    finally:
        server.stop()


def measure_limits(java, seconds, rounds):
    """Blocking runs of the 4-node workflow on one fresh server, with every limit of the app on (set through the
    admin API, so whatever checks the server has are measured) and off (reset to the server's defaults, none),
    interleaved off/on, on/off, ... so that a drift of the machine falls on both alike."""
    with tempfile.TemporaryDirectory() as data:
        server = Server(java, data)
        try:
            app = server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")
            key, path = app["api_key"], server.base + "/admin/apps/%s/limits" % app["app_id"]
            admin = {"Authorization": "Bearer " + ADMIN, "Content-Type": "application/json"}
            run_body = json.dumps({"inputs": {"name": "bench"}, "response_mode": "blocking", "user": "bench"})
            warm_runs(server, key)
            results = {"seconds": seconds, "off": [], "on": []}
            for round_ in range(rounds):
                for state in (("off", "on") if round_ % 2 == 0 else ("on", "off")):
                    if state == "on":
                        shown = http("PUT", path, json.dumps(LIMITS_ON).encode(), admin)
                    else:
                        shown = http("DELETE", path, headers=admin)
                    if shown["own"] != (state == "on"):
                        raise RuntimeError("the limits were not %s: %s" % (state, shown))
                    log("  limits %s, round %d" % (state, round_ + 1))
                    results[state].append(wrk(server.base + "/v1/workflows/run", seconds, warmup=1,
                                              method="POST", body=run_body, key=key))
            return results
        finally:
            server.stop()


class Floor:
    """The floor server (bench/src/.../FloorServer.java): Hexaflow's libraries doing only what a kept blocking run
    must do. Started from the benchmark jar, stopped with SIGTERM; it keeps a run before it answers, so each answer is
    a kept run."""

    KEY = "floor-key-0123456789abcdef"

    def __init__(self, java, data_dir):
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.log = open(Path(data_dir) / "floor.log", "ab")
        self.process = subprocess.Popen([java, "-cp", str(BENCH_JAR), "dev.hexaflow.bench.FloorServer",
                                         str(self.port), str(data_dir), self.KEY], stdout=self.log, stderr=self.log)
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1):
                    break
            except OSError:
                if self.process.poll() is not None or time.time() > deadline:
                    self.stop()
                    raise RuntimeError("the floor server did not start; see %s/floor.log" % data_dir)
                time.sleep(0.05)

    def stop(self, timeout=30):
        Server.stop(self, timeout)


def measure_runs(java, seconds, rounds, baseline, passes=2):
    """What a kept blocking run of the four-node workflow costs, as a share of the same server's /health: one server
    per variant (this build; this build with the writer's linger off; a baseline jar when given; the floor server when
    the benchmark jar is built), all up at once and loaded in turn, /health then runs, `rounds` times, so that each
    ratio is of the same seconds and the variants share the machine's drift. Each round's CPU per run is the server's
    CPU over the runs it kept.

    Two servers of one jar in this harness differed by a sixth on JDK 25, the one started first reading better. A
    second pass with the start order reversed showed the start order was not why: the same server still read
    better started last. What the two had in common was their place at an end of the order, which rounds loaded
    forward and backward in turn, so that the servers at the ends were loaded twice in a row. The rounds now
    rotate the order instead (the same jar then read 0.177 and 0.168, 154 and 161 µs, where it had read 0.186 and
    0.146), and the measure is made in `passes` passes, each with fresh servers, the even ones started and warmed
    in the reverse order."""
    variants = [("this build", None, {}), ("this build, linger 0", None, {"HEXAFLOW_WRITER_LINGER_MICROS": "0"})]
    if baseline:
        variants.insert(0, ("baseline " + Path(baseline).name, baseline, {}))
    if BENCH_JAR.exists():
        variants.append(("floor", None, None))
    results = {name: [] for name, _, _ in variants}
    for pass_ in range(passes):
        order = variants if pass_ % 2 == 0 else list(reversed(variants))
        log(" pass %d: %s first" % (pass_ + 1, order[0][0]))
        for name, figures in measure_runs_pass(java, seconds, rounds, order).items():
            for figure in figures:
                figure["pass"] = pass_ + 1
            results[name].extend(figures)
    return results


def measure_runs_pass(java, seconds, rounds, variants):
    """One pass of `measure_runs`: the variants' servers started and warmed in the order given, then `rounds`
    rounds, each loading them in that order rotated by one more place."""
    with contextlib.ExitStack() as stack:
        servers = []
        try:
            for name, jar, env in variants:
                data = stack.enter_context(tempfile.TemporaryDirectory())
                if env is None:
                    servers.append((name, Floor(java, data), Floor.KEY))
                    continue
                server = Server(java, data, env=env, jar=jar)
                servers.append((name, server, server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")
                                ["api_key"]))
            # Warmed in turn until each one's JIT has settled: a fixed 2 x 15 s left JDK 17's at half its speed.
            for _, server, _ in servers:
                wrk(server.base + "/health", 2, warmup=0)
            warm = warm_until_settled([(server.process, server.base, key) for _, server, key in servers])
            results = {name: [] for name, _, _ in servers}
            for round_ in range(rounds):
                # Rotated, not reversed: a reversed round loads the servers at both ends twice in a row, and
                # those read better (see the docstring above).
                shift = round_ % len(servers)
                for name, server, key in servers[shift:] + servers[:shift]:
                    log("  %s, round %d" % (name, round_ + 1))
                    results[name].append(measure_run_round(server, key, seconds))
            for (name, _, _), warm_s in zip(servers, warm):
                for figures in results[name]:
                    figures["warm_up_s"] = warm_s
            return results
        finally:
            for _, server, _ in servers:
                server.stop()


def measure_run_round(server, key, seconds):
    """/health, then blocking runs, on one server: the runs' figures, their share of /health, CPU per kept run."""
    floor = isinstance(server, Floor)
    health = wrk(server.base + "/health", seconds, warmup=0)
    before, cpu = 0 if floor else total_runs(server, key), cpu_s([server.process.pid])
    runs = wrk(server.base + RUN_PATH, seconds, warmup=0, method="POST", body=RUN_BODY, key=key)
    time.sleep(0.5)
    # wrk counts the answers it read; runs still in flight when it stopped are kept, not counted.
    runs["answered"] = runs["requests"] - runs["status_errors"]
    kept = runs["answered"] if floor else total_runs(server, key) - before
    runs["cpu_us_per_run"] = (cpu_s([server.process.pid]) - cpu) * 1e6 / max(kept, 1)
    runs["kept_runs"] = kept
    runs["health_rps"] = health["rps"]
    runs["share_of_health"] = runs["rps"] / health["rps"]
    return runs


def only_runs(args, jdks, command):
    """A kept run's cost against /health on each JDK: printed, kept in bench/target/runs.json."""
    results = {"machine": machine(), "command": command, "date": time.strftime("%Y-%m-%d"), "jdks": {}}
    for name, java in jdks:
        log(name, java)
        results["jdks"][name] = {"version": jdk_version(java),
                                 "runs": measure_runs(java, args.seconds, args.rounds, args.baseline,
                                                      args.passes)}
    target = ROOT / "bench" / "target"
    target.mkdir(parents=True, exist_ok=True)
    (target / "runs.json").write_text(json.dumps(results, indent=2))
    print(render_runs(results))


def only_pause(args, jdks):
    """What a pause costs the next burst on each JDK: printed."""
    import pauses
    pause_s = [int(p) for p in args.pauses.split(",")]
    results = {}
    for name, java in jdks:
        log(name, java)
        results["%s (%s)" % (name, jdk_version(java))] = pauses.measure(java, pause_s, args.seconds, args.rounds)
    print("%s, %s; `%s`" % (time.strftime("%Y-%m-%d"), machine(), args.command or " ".join(
        ["python3 bench/bench.py"] + sys.argv[1:])))
    print("\n".join(pauses.lines(results)))


def render_runs(r):
    lines = ["%s, %s; `%s`" % (r["date"], r["machine"], r["command"]), "",
             "| JDK | server | runs/s (median) | share of /health (median; each round, pass / pass) | p99 ms (median) "
             "| server CPU µs per kept run (median) | every answered run kept | warmed, s of runs (each pass) |",
             "|---|---|---|---|---|---|---|---|"]
    for jdk, figures in r["jdks"].items():
        for name, rounds in figures["runs"].items():
            median = lambda key: statistics.median(round_[key] for round_ in rounds)
            passes = sorted({round_.get("pass", 1) for round_ in rounds})
            each = " / ".join(", ".join("%.3f" % round_["share_of_health"] for round_ in rounds
                                        if round_.get("pass", 1) == pass_) for pass_ in passes)
            warmed = " / ".join(str(next(round_.get("warm_up_s", "?") for round_ in rounds
                                         if round_.get("pass", 1) == pass_)) for pass_ in passes)
            lines.append("| %s | %s | %s | %.3f (%s) | %.1f | %.0f | %s | %s |" % (
                jdk, name, "{:,.0f}".format(median("rps")), median("share_of_health"), each, median("p99_ms"),
                median("cpu_us_per_run"), all(round_["kept_runs"] >= round_["answered"] for round_ in rounds),
                warmed))
    return "\n".join(lines) + "\n"


def only_limits(args, jdks, command):
    """Blocking runs with limits on and off on each JDK: printed, kept in bench/target/limits.json and, unless
    --no-write, put between the limits markers of BENCHMARKS.md."""
    results = {"machine": machine(), "command": command, "date": time.strftime("%Y-%m-%d"), "jdks": {}}
    for name, java in jdks:
        log(name, java)
        results["jdks"][name] = {"version": jdk_version(java),
                                 "limits": measure_limits(java, args.seconds, args.rounds)}
    target = ROOT / "bench" / "target"
    target.mkdir(parents=True, exist_ok=True)
    (target / "limits.json").write_text(json.dumps(results, indent=2))
    report = render_limits(results)
    print(report)
    if not args.no_write:
        path = ROOT / "BENCHMARKS.md"
        head, rest = path.read_text().split(LIMITS_BEGIN, 1)
        path.write_text(head + LIMITS_BEGIN + "\n" + report + LIMITS_END + rest.split(LIMITS_END, 1)[1])
        log("wrote", path)


def render_limits(r):
    m = r["machine"]
    lines = ["", "Measured %s on %d cores (%s); %s. Command: `%s`. Blocking runs of the 4-node workflow, wrk -t2 -c64,"
             " %d s each after a 1 s warm-up, limits off and on interleaved; the median of the rounds, each round's"
             " runs/s in brackets." % (r["date"], m["cores"], m["cpu"], ", ".join(
                 "%s: %s" % (name, entry["version"]) for name, entry in r["jdks"].items()), r["command"],
                 next(iter(r["jdks"].values()))["limits"]["seconds"]), "",
             "| JDK | limits off: runs/s (p99) | every limit on: runs/s (p99) | on / off | errors off; on |",
             "|---|---|---|---|---|"]

    def median(values):
        ordered = sorted(values)
        return (ordered[(len(ordered) - 1) // 2] + ordered[len(ordered) // 2]) / 2

    for name, entry in r["jdks"].items():
        figures = {}
        for state in ("off", "on"):
            rounds = entry["limits"][state]
            figures[state] = (median([x["rps"] for x in rounds]), median([x["p99_ms"] for x in rounds]),
                              " ".join("%.0f" % x["rps"] for x in rounds),
                              sum(x["socket_errors"] + x["status_errors"] for x in rounds))
        off, on = figures["off"], figures["on"]
        lines.append("| %s | %.0f (%.1f ms) [%s] | %.0f (%.1f ms) [%s] | %s | %d; %d |" % (
            name, off[0], off[1], off[2], on[0], on[1], on[2], "%.2f" % (on[0] / off[0]) if off[0] else "—",
            off[3], on[3]))
    lines.append("")
    return "\n".join(lines)


def measure_inline(java, seconds, rounds, connections=64):
    """Blocking runs of the 4-node workflow on two servers up at once, one playing such runs on the request's
    thread (HEXAFLOW_INLINE_RUNS=true, the default) and one on the engine's (false, as before), each warmed until
    its JIT has settled, then loaded in turn in rounds that alternate which comes first, so that a drift of the
    machine falls on both alike; each round's server CPU per run is read from /proc around its load."""
    with tempfile.TemporaryDirectory() as off_dir, tempfile.TemporaryDirectory() as on_dir:
        servers = {}
        try:
            for mode, data in (("off", off_dir), ("on", on_dir)):
                server = Server(java, data, env={"HEXAFLOW_INLINE_RUNS": "false" if mode == "off" else "true"})
                servers[mode] = (server, server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")["api_key"])
            # On two cores a JIT needs a minute or more of this load to settle: each is warmed in turn until it has.
            warm_until_settled([(server.process, server.base, key) for server, key in servers.values()], connections)
            results = {"seconds": seconds, "connections": connections, "off": [], "on": []}
            load = {"connections": connections, "threads": min(2, connections), "warmup": 0, "method": "POST",
                    "body": RUN_BODY}
            for round_ in range(rounds):
                for mode in (("off", "on") if round_ % 2 == 0 else ("on", "off")):
                    server, key = servers[mode]
                    log("  inline %s, round %d" % (mode, round_ + 1))
                    wrk(server.base + RUN_PATH, 1, key=key, **load)
                    cpu = cpu_s([server.process.pid])
                    figures = wrk(server.base + RUN_PATH, seconds, key=key, **load)
                    figures["cpu_us_per_run"] = (cpu_s([server.process.pid]) - cpu) * 1e6 / max(1, figures["requests"])
                    results[mode].append(figures)
            return results
        finally:
            for server, _ in servers.values():
                server.stop()


def only_inline(args, jdks, command):
    """Blocking runs inline and not on each JDK: printed, kept in bench/target/inline.json and, unless --no-write,
    put between the inline markers of BENCHMARKS.md."""
    results = {"machine": machine(), "command": command, "date": time.strftime("%Y-%m-%d"), "jdks": {}}
    for name, java in jdks:
        log(name, java)
        results["jdks"][name] = {"version": jdk_version(java),
                                 "inline": measure_inline(java, args.seconds, args.rounds, args.connections)}
    target = ROOT / "bench" / "target"
    target.mkdir(parents=True, exist_ok=True)
    (target / "inline.json").write_text(json.dumps(results, indent=2))
    report = render_inline(results)
    print(report)
    if not args.no_write:
        path = ROOT / "BENCHMARKS.md"
        head, rest = path.read_text().split(INLINE_BEGIN, 1)
        path.write_text(head + INLINE_BEGIN + "\n" + report + INLINE_END + rest.split(INLINE_END, 1)[1])
        log("wrote", path)


def render_inline(r):
    m = r["machine"]
    first = next(iter(r["jdks"].values()))["inline"]
    lines = ["", "Measured %s on %d cores (%s); %s. Command: `%s`. Blocking runs of the 4-node workflow, wrk -t%d -c%d,"
             " %d s each after a 1 s warm-up, on two servers up at once, each warmed in turn until its JIT had"
             " settled (on the engine's threads: `HEXAFLOW_INLINE_RUNS=false`; on the request's: the default),"
             " loaded in turn, the order alternating each round; the median of the rounds, each round's figure in"
             " brackets. The ratio is the median of each round's on / off, measured in the same minute." % (
                 r["date"], m["cores"], m["cpu"], ", ".join(
                     "%s: %s" % (name, entry["version"]) for name, entry in r["jdks"].items()), r["command"],
                 min(2, first["connections"]), first["connections"], first["seconds"]), "",
             "| JDK | engine's threads: runs/s (p99) | request's thread: runs/s (p99) | on / off | server CPU per run,"
             " off → on | errors off; on |",
             "|---|---|---|---|---|---|"]

    def median(values):
        ordered = sorted(values)
        return (ordered[(len(ordered) - 1) // 2] + ordered[len(ordered) // 2]) / 2

    for name, entry in r["jdks"].items():
        figures = {}
        for state in ("off", "on"):
            rounds = entry["inline"][state]
            figures[state] = (median([x["rps"] for x in rounds]), median([x["p99_ms"] for x in rounds]),
                              " ".join("%.0f" % x["rps"] for x in rounds),
                              median([x["cpu_us_per_run"] for x in rounds]),
                              " ".join("%.0f" % x["cpu_us_per_run"] for x in rounds),
                              sum(x["socket_errors"] + x["status_errors"] for x in rounds))
        off, on = figures["off"], figures["on"]
        ratios = [b["rps"] / a["rps"] for a, b in zip(entry["inline"]["off"], entry["inline"]["on"]) if a["rps"]]
        lines.append("| %s | %.0f (%.1f ms) [%s] | %.0f (%.1f ms) [%s] | %s [%s] | %.0f → %.0f µs [%s → %s] "
                     "| %d; %d |" % (name, off[0], off[1], off[2], on[0], on[1], on[2],
                        "%.2f" % median(ratios) if ratios else "—", " ".join("%.2f" % x for x in ratios),
                        off[3], on[3], off[4], on[4], off[5], on[5]))
    lines.append("")
    return "\n".join(lines)


def measure_engine(java):
    out = Path(tempfile.mkdtemp()) / "jmh.json"
    subprocess.run([java, "-jar", str(BENCH_JAR), "-f", "1", "-wi", "3", "-i", "5", "-w", "2s", "-r", "2s",
                    "-bm", "avgt", "-tu", "us", "-rf", "json", "-rff", str(out)], check=True, capture_output=True)
    results = {}
    for entry in json.loads(out.read_text()):
        name = entry["benchmark"].rsplit(".", 1)[-1]
        results[name] = {"us_per_run": entry["primaryMetric"]["score"],
                         "error_us": entry["primaryMetric"]["scoreError"]}
    return results


def jdk_version(java):
    out = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()
    return out[1].strip() if len(out) > 1 else out[0]


def jdk_feature(java):
    """The JDK's feature release (17, 25) from the first line of `java -version`."""
    first = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    version = first.split('"')[1]
    return int(version.split(".")[0].split("-")[0].split("+")[0])


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    memory = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                  if line.startswith("MemTotal"))
    system = next((line.split("=", 1)[1].strip('"') for line in Path("/etc/os-release").read_text().splitlines()
                   if line.startswith("PRETTY_NAME")), platform.platform())
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split("[")[0].strip()
    return {"cores": os.cpu_count(), "cpu": cpu, "memory_gib": round(memory / 1024 / 1024), "os": system,
            "wrk": wrk_version, "python": platform.python_version()}


def find_jdks(requested):
    if requested:
        return [(name, path) for name, path in (item.split("=", 1) for item in requested)]
    jdks = [("JDK %d" % jdk_feature("java"), shutil.which("java"))]
    for home in sorted(glob.glob("/usr/lib/jvm/*25*")):
        if Path(home, "bin", "java").exists():
            jdks.append(("JDK 25", str(Path(home, "bin", "java"))))
            break
    return jdks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jdk", action="append", help="NAME=PATH_TO_JAVA (repeatable); default: java on the "
                        "PATH and a JDK 25 under /usr/lib/jvm")
    parser.add_argument("--seconds", type=int, default=10, help="length of each measurement (10)")
    parser.add_argument("--streams", type=int, default=2000, help="streams open at once (2000)")
    parser.add_argument("--log-runs", type=int, default=1_000_000, help="runs kept for the logs (1 000 000)")
    parser.add_argument("--no-write", action="store_true", help="leave BENCHMARKS.md (and with --only-postgres "
                        "bench/target/results.json) as they are")
    parser.add_argument("--only-postgres", action="store_true", help="measure only the blocking runs on PostgreSQL "
                        "(one and two instances) on each JDK, print their table, and put them into the last full "
                        "run's bench/target/results.json and BENCHMARKS.md")
    parser.add_argument("--only-start", action="store_true", help="measure only the cold starts and the idle "
                        "memory on each JDK (see starts.py): java -jar and bin/hexaflow, on an empty and an existing "
                        "data dir, --tries each, and print them")
    parser.add_argument("--jar", action="append", help="with --only-start: NAME=PATH of a jar to start, or NAME=PATH@LAUNCHER "
                        "with its own bin/hexaflow (repeatable, to compare builds in the same minutes); default: "
                        "app/target/hexaflow.jar")
    parser.add_argument("--tries", type=int, default=3, help="with --only-start: cold starts of each kind (3)")
    parser.add_argument("--only-durability", action="store_true", help="measure only the blocking runs in each "
                        "durability mode (written, synced: HEXAFLOW_DURABILITY) on each JDK, and print them")
    parser.add_argument("--only-limits", action="store_true", help="measure only blocking runs with every limit of "
                        "the app on and off, interleaved, on each JDK, print their table, and put it into BENCHMARKS.md")
    parser.add_argument("--only-runs", action="store_true", help="measure only what a kept blocking run costs "
                        "against the same server's /health, interleaved with the writer's linger off and a baseline "
                        "jar (--baseline), on each JDK, and print it")
    parser.add_argument("--baseline", help="with --only-runs: the jar to compare this build with")
    parser.add_argument("--only-inline", action="store_true", help="measure only blocking runs played on the "
                        "request's thread and on the engine's (HEXAFLOW_INLINE_RUNS), interleaved, on each JDK, print "
                        "their table, and put it into BENCHMARKS.md")
    parser.add_argument("--connections", type=int, default=64, help="with --only-inline: connections of the load "
                        "(64)")
    parser.add_argument("--rounds", type=int, default=3, help="with --only-limits, --only-inline, --only-runs or "
                        "--only-pause: "
                        "rounds (3)")
    parser.add_argument("--passes", type=int, default=2, help="with --only-runs: passes, each with fresh servers, the "
                        "even ones started in the reverse order (2)")
    parser.add_argument("--only-pause", action="store_true", help="measure only what a pause costs the next burst "
                        "of blocking runs (see pauses.py), on each JDK, and print it")
    parser.add_argument("--pauses", default="25,75", help="with --only-pause: the pauses, in seconds (25,75)")
    parser.add_argument("--command", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # A stop by SIGTERM unwinds like ^C: the servers and the PostgreSQL cluster are stopped, the temp dirs deleted.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    jdks = find_jdks(args.jdk)
    if args.only_runs:
        return only_runs(args, jdks, args.command or " ".join(["python3 bench/bench.py"] + sys.argv[1:]))
    if args.only_pause:
        return only_pause(args, jdks)
    if args.only_limits:
        return only_limits(args, jdks, args.command or " ".join(["python3 bench/bench.py"] + sys.argv[1:]))
    if args.only_inline:
        return only_inline(args, jdks, args.command or " ".join(["python3 bench/bench.py"] + sys.argv[1:]))
    if args.only_postgres:
        return only_postgres(args, jdks, args.command or " ".join(["python3 bench/bench.py"] + sys.argv[1:]))
    if args.only_start or args.only_durability:
        return only_start_or_durability(args, jdks)
    args.command = args.command or "bench/run.sh"
    results = {"machine": machine(), "command": args.command, "date": time.strftime("%Y-%m-%d"),
               "jar_mb": JAR.stat().st_size / 1e6, "jdks": {}}
    model_port = free_port()
    model = subprocess.Popen([sys.executable, str(ROOT / "bench" / "fake_model.py"), str(model_port), "10", "0.5"],
                             stdout=subprocess.DEVNULL)
    log("seeding %d runs for the logs" % args.log_runs)
    data, key, seeded_s = seed_logs(jdks[0][1], args.log_runs)
    results["logs_seed"] = {"runs": args.log_runs, "seconds": seeded_s}
    try:
        for name, java in jdks:
            log(name, java)
            entry = {"version": jdk_version(java)}
            log(" start and footprint")
            entry["start"] = measure_start(java)
            log(" under load")
            entry["load"] = measure_server(java, args.seconds)
            log(" blocking runs on PostgreSQL, one and two instances")
            entry["postgres"] = postgres_figures(java, args.seconds, args.command)
            log(" %d streams at once" % args.streams)
            entry["load"]["hold"] = measure_streams(java, args.streams, model_port)
            log(" logs over %d runs" % args.log_runs)
            entry["logs"] = measure_logs(java, data, key, args.seconds)
            log(" engine (JMH)")
            entry["engine"] = measure_engine(java)
            results["jdks"][name] = entry
    finally:
        model.terminate()
        shutil.rmtree(data, ignore_errors=True)
    out = ROOT / "bench" / "target" / "results.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    report = render(results)
    print(report)
    if not args.no_write:
        write_report(report)


def write_report(report):
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text()
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    path.write_text(head + BEGIN + "\n" + report + END + tail)
    log("wrote", path)


def only_start_or_durability(args, jdks):
    """The start and memory figures, or the durability modes' runs a second, alone: printed and kept in
    bench/target/start.json or durability.json; BENCHMARKS.md is left as it is."""
    results = {"machine": machine(), "date": time.strftime("%Y-%m-%d"), "jdks": {}}
    if args.only_start:
        import starts
        jars = [tuple(item.split("=", 1)) for item in args.jar] if args.jar else [("this build", str(JAR))]
        results.update(load_before=os.getloadavg(), jars=dict(jars),
                       starts=starts.measure(jdks, jars, args.tries, log), load_after=os.getloadavg(),
                       versions={name: jdk_version(java) for name, java in jdks})
        (ROOT / "bench" / "target").mkdir(parents=True, exist_ok=True)
        (ROOT / "bench" / "target" / "start.json").write_text(json.dumps(results, indent=2))
        print("\n".join(starts.lines(results["starts"])))
        print("load average before %s, after %s" % (results["load_before"], results["load_after"]))
        return
    for name, java in jdks:
        log(name, java)
        results["jdks"][name] = {"version": jdk_version(java)}
        if args.only_start:
            results["jdks"][name]["start"] = measure_start(java)
        else:
            results["jdks"][name]["durability"] = measure_durability(java, args.seconds)
    target = ROOT / "bench" / "target"
    target.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, entry in results["jdks"].items():
        if "start" in entry:
            for label, figures in (("java -jar", entry["start"]), ("with AppCDS", entry["start"]["cds"] or {})):
                if figures:
                    lines.append("%s %s: start %s s (median %.2f, max %.2f), CPU %s s, idle RSS %s MB" % (
                        name, label, ", ".join("%.2f" % s for s in figures["start_s"]),
                        statistics.median(figures["start_s"]), max(figures["start_s"]),
                        ", ".join("%.2f" % s for s in figures["start_cpu_s"]),
                        ", ".join("%.0f" % m for m in figures["idle_rss_mb"])))
        else:
            d = entry["durability"]
            ratios = [s["rps"] / w["rps"] for w, s in zip(d["written"], d["synced"])]
            lines.append("%s blocking runs/s written %s, synced %s; synced / written %s" % (
                name, ", ".join("%.0f" % w["rps"] for w in d["written"]),
                ", ".join("%.0f" % s["rps"] for s in d["synced"]), ", ".join("%.2f" % x for x in ratios)))
    (target / ("start.json" if args.only_start else "durability.json")).write_text(json.dumps(results, indent=2))
    print("\n".join(lines))


def only_postgres(args, jdks, command):
    """The PostgreSQL figures alone: printed, kept in bench/target/postgres.json and, unless --no-write, put in
    place of their earlier values in the last full run's results.json and BENCHMARKS.md (the rest left as it is)."""
    results = {"machine": machine(), "command": command, "date": time.strftime("%Y-%m-%d"), "jdks": {}}
    for name, java in jdks:
        log(name, java)
        results["jdks"][name] = {"version": jdk_version(java),
                                 "postgres": postgres_figures(java, args.seconds, command)}
    target = ROOT / "bench" / "target"
    target.mkdir(parents=True, exist_ok=True)
    (target / "postgres.json").write_text(json.dumps(results, indent=2))
    full, merged = target / "results.json", None
    if full.exists():
        merged = json.loads(full.read_text())
        if all(name in merged["jdks"] for name in results["jdks"]):
            for name, entry in results["jdks"].items():
                merged["jdks"][name]["postgres"] = entry["postgres"]
        else:
            merged = None
    # The table of the JDKs just measured, with H2's figure of the last full run when there is one.
    shown = dict(merged or results, jdks={name: (merged or results)["jdks"][name] for name in results["jdks"]})
    m = results["machine"]
    print("\n".join(["", "PostgreSQL figures measured %s on %d cores (%s); %s." % (
        results["date"], m["cores"], m["cpu"], ", ".join("%s: %s" % (name, entry["version"])
                                                        for name, entry in results["jdks"].items())),
        "Command: `%s`." % command, ""] + render_postgres(shown)))
    if args.no_write:
        return
    if merged is None:
        log("BENCHMARKS.md left as it is: bench/target/results.json holds no full run of %s (run bench/run.sh)"
            % ", ".join(results["jdks"]))
        return
    full.write_text(json.dumps(merged, indent=2))
    write_report(render(merged))


def render(r):
    jdks = list(r["jdks"])
    m = r["machine"]
    lines = ["", "Measured %s on %d cores (%s), %d GiB, %s; %s and the server on the same machine; %s." % (
        r["date"], m["cores"], m["cpu"], m["memory_gib"], m["os"], m["wrk"], ", ".join(
            "%s: %s" % (name, r["jdks"][name]["version"]) for name in jdks)),
        "Command: `%s` (builds the jars, then `python3 bench/bench.py`). Each load figure is %s, after a warm-up;"
        " the server's runs and its `GET /health` once its JIT had settled under blocking runs (%s s of them);"
        " ratios are to `GET /health` of the same server in the same run." % (
            r["command"], "wrk -t2 -c64 for the stated time", ", ".join(
                "%s: %s" % (name, r["jdks"][name]["load"].get("warm_up_s", "?")) for name in jdks)), ""]

    def row(label, target, values):
        lines.append("| %s | %s | %s |" % (label, " | ".join(values), target))

    lines.append("| figure | %s | target |" % " | ".join(jdks))
    lines.append("|---|%s---|" % ("---|" * len(jdks)))
    load = {n: r["jdks"][n]["load"] for n in jdks}
    ceiling = {n: load[n]["health"]["rps"] for n in jdks}
    row("`GET /health` (the raw ceiling), req/s", "", ["%.0f (p99 %.2f ms)" % (ceiling[n], load[n]["health"]
                                                                              ["p99_ms"]) for n in jdks])
    b = {n: load[n]["blocking"] for n in jdks}
    row("1. blocking runs of the 4-node workflow, runs/s (ratio)", "≥ 0.40",
        ["%.0f (%.3f)" % (b[n]["rps"], b[n]["rps"] / ceiling[n]) for n in jdks])
    row("1. … p50 / p99 latency", "p99 < 25 ms", ["%.1f / %.1f ms" % (b[n]["p50_ms"], b[n]["p99_ms"])
                                                  for n in jdks])
    row("1. … runs answered / kept in H2 (errors)", "every run kept",
        ["%d / %d (%d)" % (b[n]["requests"], b[n]["kept_runs"], b[n]["socket_errors"] + b[n]["status_errors"])
         for n in jdks])
    s = {n: load[n].get("streaming") for n in jdks}
    if all(s.values()):
        row("1. streaming runs of the same workflow, each read to its end, runs/s (to blocking)", "≥ 0.50",
            ["%.0f (%.2f)" % (s[n]["rps"], s[n]["rps"] / b[n]["rps"]) for n in jdks])
        row("1. … p50 / p99 latency to the stream's end; runs answered / kept (errors)", "",
            ["%.1f / %.1f ms; %d / %d (%d)" % (s[n]["p50_ms"], s[n]["p99_ms"], s[n]["requests"], s[n]["kept_runs"],
                                                s[n]["socket_errors"] + s[n]["status_errors"]) for n in jdks])
    t = {n: load[n]["ttfb"] for n in jdks}
    row("2. streaming: first `data:` frame, p50 / p99 (500 runs, one at a time)", "p50 < 5 ms",
        ["%.2f / %.2f ms" % (t[n]["first_p50_ms"], t[n]["first_p99_ms"]) for n in jdks])
    h = {n: load[n]["hold"] for n in jdks}
    row("2. %d streams at once, 5 s model stream each (warm JVM): opened / succeeded / errors"
        % h[jdks[0]]["streams"], "no error", ["%d / %d / %d" % (h[n]["opened"], h[n]["succeeded"],
                                                               h[n]["errors"] + h[n]["other"]) for n in jdks])
    row("2. … all open after; first frame p50 / p99", "",
        ["%s s; %.0f / %.0f ms" % ("%.1f" % h[n]["all_open_s"] if h[n]["all_open_s"] else "never",
                                   h[n]["first_p50_ms"] or 0, h[n]["first_p99_ms"] or 0) for n in jdks])
    row("2. … the same on a cold JVM (first round): all open after; errors", "",
        ["%s s; %d" % ("%.1f" % h[n]["cold_all_open_s"] if h[n]["cold_all_open_s"] else "never",
                       h[n]["cold_errors"]) for n in jdks])
    row("2. … resident memory: idle → with all streams open; per open stream", "",
        ["%.0f → %.0f MB; %.0f KB" % (h[n]["idle_rss_kb"] / 1024, h[n]["rss_open_kb"] / 1024,
                                      (h[n]["rss_open_kb"] - h[n]["idle_rss_kb"]) / h[n]["streams"])
         for n in jdks])
    logs = {n: r["jdks"][n]["logs"] for n in jdks}
    row("3. logs over %d runs, keyword + status, a search's first total (3 keywords)" % logs[jdks[0]]["total"],
        "p95 < 50 ms", [", ".join("%.0f" % t for t in logs[n]["keyword_first_ms"]) + " ms" for n in jdks])
    row("3. … the same searches again and their pages 1–3: p50 / p95 (req/s)", "p95 < 50 ms",
        ["%.1f / %.1f ms (%.0f)" % (logs[n]["keyword_status"]["p50_ms"], logs[n]["keyword_status"]["p95_ms"],
                                    logs[n]["keyword_status"]["rps"]) for n in jdks])
    row("3. logs, status only: p50 / p95", "", ["%.1f / %.1f ms" % (logs[n]["status"]["p50_ms"],
                                                                    logs[n]["status"]["p95_ms"]) for n in jdks])
    row("3. logs, no filter, pages 1–5: p50 / p95", "", ["%.1f / %.1f ms" % (logs[n]["all"]["p50_ms"],
                                                                             logs[n]["all"]["p95_ms"]) for n in jdks])
    for extension in ("json", "xml", "ics"):
        plain = "holidays_" + extension
        if plain + "_hot_key" not in load[jdks[0]]:
            continue
        for kind, label in (("_hot_key", "one hot key"), ("_many_keys", "64 keys")):
            row("4. `holidays.%s?key=`, %s: req/s (to keyless), p99" % (extension, label), "≥ 0.80, p99 < 25 ms",
                ["%.0f (%.2f), %.1f ms" % (load[n][plain + kind]["rps"], load[n][plain + kind]["rps"]
                                           / load[n][plain]["rps"], load[n][plain + kind]["p99_ms"]) for n in jdks])
    for extension in ("json", "xml", "ics"):
        key = "holidays_" + extension
        if key in load[jdks[0]]:
            row("4. `holidays.%s`, no key, req/s (ratio to /health)" % extension, "≥ 0.60",
                ["%.0f (%.3f)" % (load[n][key]["rps"], load[n][key]["rps"] / ceiling[n]) for n in jdks])
    starts = {n: r["jdks"][n]["start"] for n in jdks}
    row("5. start, `java -jar` to first answer (3 tries)", "< 1.5 s",
        [", ".join("%.2f" % s for s in starts[n]["start_s"]) + " s" for n in jdks])
    row("5. resident memory, idle after start", "< 200 MB",
        [", ".join("%.0f" % s for s in starts[n]["idle_rss_mb"]) + " MB" for n in jdks])
    if all(starts[n].get("cds") for n in jdks):
        row("5. start with an AppCDS archive (3 cold tries; median, max)", "< 1 s",
            [", ".join("%.2f" % s for s in starts[n]["cds"]["start_s"]) + " s (%.2f, %.2f)" % (
                statistics.median(starts[n]["cds"]["start_s"]), max(starts[n]["cds"]["start_s"])) for n in jdks])
        row("5. resident memory, idle after a start with AppCDS", "< 150 MB",
            [", ".join("%.0f" % s for s in starts[n]["cds"]["idle_rss_mb"]) + " MB" for n in jdks])
    row("5. jar size", "", ["%.1f MB" % r["jar_mb"] for n in jdks])
    e = {n: r["jdks"][n]["engine"] for n in jdks}

    def per_node(n, benchmark):
        # A benchmark that failed (JMH goes on to the next) has no figure: said, not a crash of the report.
        figure = e[n].get(benchmark)
        return "%.1f µs" % (figure["us_per_run"] / 10) if figure else "failed (see bench/target/results.json)"

    row("6. engine overhead per node (JMH, 10 pass-through nodes)", "< 50 µs",
        [per_node(n, "passThroughRun") for n in jdks])
    row("6. per node with Jinjava / GraalJS work (10-node mixed workflow)", "< 50 µs",
        [per_node(n, "mixedRun") for n in jdks])
    lines.append("")
    lines.append("The logs' %d runs were written by `bench/src/main/java/dev/hexaflow/bench/SeedRuns.java` through"
                 " the server's own run repository in %.0f s (see that class for their shape); keyword searches"
                 " use first names, each in about 1%% of the runs; the logs are read with 4 connections." % (
                     r["logs_seed"]["runs"], r["logs_seed"]["seconds"]))
    lines.append("")
    lines.extend(render_postgres(r))
    return "\n".join(lines)


def render_postgres(r):
    """The table of blocking runs on H2 and on PostgreSQL (one and two instances), as lines; none when the results
    hold no PostgreSQL figures (a run before the harness measured them)."""
    jdks = list(r["jdks"])
    pg = {n: r["jdks"][n].get("postgres") for n in jdks}
    if not any(pg.values()):
        return []
    measured = [n for n in jdks if pg[n] and "skipped" not in pg[n]]
    skipped = ["%s: %s" % (n, pg[n]["skipped"]) for n in jdks if pg[n] and "skipped" in pg[n]]
    lines = []
    if measured:
        first = pg[measured[0]]
        lines.append("Blocking runs of the 4-node workflow by where the data is kept: H2 in the data dir (figure 1"
                     " above), and a PostgreSQL 15 started by the harness on the same machine (fsync and synchronous"
                     " commit on, shared_buffers 256MB), first with one instance on a fresh database (wrk -t2 -c64),"
                     " then with a second instance on the same database and data dir, both loaded at once by a wrk"
                     " -t1 -c32 each (64 connections in all); %d s each, each instance warmed until its JIT had"
                     " settled." % first["seconds"])
        if any((pg[n].get("date"), pg[n].get("command")) != (r["date"], r["command"]) for n in measured):
            lines.append("These PostgreSQL figures were measured on %s by `%s`; the H2 figures are from the run"
                         " above." % (first["date"], first["command"]))
        lines.append("")

        def row(label, values):
            lines.append("| %s | %s |" % (label, " | ".join(values)))

        def runs(result):
            return result["kept_runs"] or result["requests"]

        def cpu(result, parts):
            spent = sum(result["cpu_s"].values())
            split = " + ".join("%.2f" % (1000 * result["cpu_s"][part] / runs(result)) for part in parts)
            return "%s%.2f ms (%.0f)" % (split + " = " if len(parts) > 1 else "", 1000 * spent / runs(result),
                                         runs(result) / spent)

        lines.append("| blocking runs of the 4-node workflow | %s |" % " | ".join(measured))
        lines.append("|---|%s" % ("---|" * len(measured)))
        h2 = {n: r["jdks"][n].get("load", {}).get("blocking") for n in measured}
        if any(h2.values()):
            row("H2, one instance: runs/s (p99)", ["%.0f (%.1f ms)" % (h2[n]["rps"], h2[n]["p99_ms"]) if h2[n]
                                                   else "—" for n in measured])
        row("PostgreSQL, one instance: runs/s (p99); its `GET /health`, req/s",
            ["%.0f (%.1f ms); %.0f" % (pg[n]["one"]["rps"], pg[n]["one"]["p99_ms"], pg[n]["health"]["rps"])
             for n in measured])
        row("PostgreSQL, two instances (sum): runs/s (p99 of each)",
            ["%.0f (%s ms)" % (pg[n]["two"]["rps"], " / ".join("%.1f" % i["p99_ms"] for i in pg[n]["two"]
                                                                ["instances"])) for n in measured])
        row("… runs answered / kept in PostgreSQL (errors): one instance; two instances",
            ["%d / %d (%d); %d / %d (%d)" % (
                pg[n]["one"]["requests"], pg[n]["one"]["kept_runs"],
                pg[n]["one"]["socket_errors"] + pg[n]["one"]["status_errors"], pg[n]["two"]["requests"],
                pg[n]["two"]["kept_runs"], pg[n]["two"]["errors"]) for n in measured])
        if all(h2[n] and "cpu_s" in h2[n] for n in measured):
            row("CPU ms per run, H2: the server (runs per core-second)", [cpu(h2[n], ["server"]) for n in measured])
        row("CPU ms per run, PostgreSQL, one instance: server + PostgreSQL (runs per core-second)",
            [cpu(pg[n]["one"], ["server", "postgres"]) for n in measured])
        row("CPU ms per run, PostgreSQL, two instances: servers + PostgreSQL (runs per core-second)",
            [cpu(pg[n]["two"], ["server", "postgres"]) for n in measured])
        lines.append("")
        lines.append("This machine has %d cores, and wrk, the server instances and PostgreSQL all compete for them:"
                     " a second instance shares the cores the first had, so the sum of two shows their contention,"
                     " not what two instances on machines of their own would add up to. CPU ms per run (user +"
                     " system time of the java processes and of every PostgreSQL process over the measured seconds"
                     " and the second after, background work included, wrk's own not counted; per run kept) is the"
                     " figure that carries to a larger machine." % first["cores"])
        lines.append("")
    if skipped:
        lines.extend(["PostgreSQL figures not measured: %s." % "; ".join(skipped), ""])
    return lines


if __name__ == "__main__":
    main()
