#!/usr/bin/env python3
"""Hexaflow's benchmark harness: every figure of BENCHMARKS.md measured side by side on each JDK, in one run.

Each throughput figure is also given as a ratio to the raw ceiling of the same server in the same run (GET
/health under the same load). The results go to bench/target/results.json and, unless --no-write, into the
generated section of BENCHMARKS.md with the machine, the JDKs and the command. Benchmarks report; they never fail
a build. Run it through bench/run.sh, which builds the jars first.
"""
import argparse
import glob
import json
import os
import platform
import shutil
import signal
import socket
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
ADMIN = "bench-admin-token-0123456789abcdef"
BEGIN, END = "<!-- harness:begin -->", "<!-- harness:end -->"
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

    def __init__(self, java, data_dir, env=None):
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        environment = dict(os.environ, HEXAFLOW_ADMIN_TOKEN=ADMIN, **(env or {}))
        self.log = open(Path(data_dir) / "server.log", "ab")
        self.began = time.perf_counter()
        self.process = subprocess.Popen([java, "-jar", str(JAR), "--port", str(self.port), "--data-dir",
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
                raise RuntimeError("the server on %s did not start; see its server.log" % data_dir)
            time.sleep(0.01)
        self.started_s = time.perf_counter() - self.began

    def import_app(self, path):
        return http("POST", self.base + "/admin/apps", Path(path).read_bytes(),
                    {"Authorization": "Bearer " + ADMIN, "Content-Type": "application/yaml"})

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def wrk(url, seconds, connections=64, warmup=3, **env):
    environment = dict(os.environ, **{"WRK_" + k.upper(): v for k, v in env.items()})
    command = ["wrk", "-t2", "-c%d" % connections, "--timeout", "10s", "-s", str(ROOT / "bench" / "wrk.lua"), url]
    if warmup:
        subprocess.run(command[:1] + ["-d%ds" % warmup] + command[1:], env=environment, capture_output=True,
                       check=True)
    out = subprocess.run(command[:1] + ["-d%ds" % seconds] + command[1:], env=environment, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def streams(mode, server, key, count, inputs, *extra):
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "streams.py"), mode, "127.0.0.1", str(server.port),
                          key, str(count), json.dumps(inputs)] + [str(e) for e in extra], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def total_runs(server, key, query=""):
    return http("GET", server.base + "/v1/workflows/logs?limit=1" + query,
                headers={"Authorization": "Bearer " + key})["total"]


def measure_start(java, tries=3):
    starts, rss = [], []
    for _ in range(tries):
        with tempfile.TemporaryDirectory() as data:
            server = Server(java, data)
            starts.append(server.started_s)
            time.sleep(2)
            rss.append(rss_kb(server.process.pid) / 1024)
            server.stop()
    return {"start_s": starts, "idle_rss_mb": rss}


def measure_server(java, seconds):
    """The ceiling, blocking runs, the campus feed and the first frame, on one fresh server."""
    with tempfile.TemporaryDirectory() as data:
        server = Server(java, data)
        try:
            four = server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")["api_key"]
            results = {}
            log("  GET /health")
            results["health"] = wrk(server.base + "/health", seconds, warmup=5)
            log("  blocking runs")
            run_body = json.dumps({"inputs": {"name": "bench"}, "response_mode": "blocking", "user": "bench"})
            wrk(server.base + "/v1/workflows/run", 5, warmup=0, method="POST", body=run_body, key=four)
            before = total_runs(server, four)
            results["blocking"] = wrk(server.base + "/v1/workflows/run", seconds, warmup=0, method="POST",
                                      body=run_body, key=four)
            time.sleep(1)
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
    parser.add_argument("--no-write", action="store_true", help="leave BENCHMARKS.md as it is")
    parser.add_argument("--command", default="bench/run.sh", help=argparse.SUPPRESS)
    args = parser.parse_args()

    jdks = find_jdks(args.jdk)
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
        path = ROOT / "BENCHMARKS.md"
        text = path.read_text()
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        path.write_text(head + BEGIN + "\n" + report + END + tail)
        log("wrote", path)


def render(r):
    jdks = list(r["jdks"])
    m = r["machine"]
    lines = ["", "Measured %s on %d cores (%s), %d GiB, %s; %s and the server on the same machine; %s." % (
        r["date"], m["cores"], m["cpu"], m["memory_gib"], m["os"], m["wrk"], ", ".join(
            "%s: %s" % (name, r["jdks"][name]["version"]) for name in jdks)),
        "Command: `%s` (builds the jars, then `python3 bench/bench.py`). Each load figure is %s, after a warm-up;"
        " ratios are to `GET /health` of the same server in the same run." % (r["command"], "wrk -t2 -c64 for "
                                                                             "the stated time"), ""]

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
    row("5. jar size", "", ["%.1f MB" % r["jar_mb"] for n in jdks])
    e = {n: r["jdks"][n]["engine"] for n in jdks}
    row("6. engine overhead per node (JMH, 10 pass-through nodes)", "< 50 µs",
        ["%.1f µs" % (e[n]["passThroughRun"]["us_per_run"] / 10) for n in jdks])
    row("6. per node with Jinjava / Rhino work (10-node mixed workflow)", "< 50 µs",
        ["%.1f µs" % (e[n]["mixedRun"]["us_per_run"] / 10) for n in jdks])
    lines.append("")
    lines.append("The logs' %d runs were written by `bench/src/main/java/dev/hexaflow/bench/SeedRuns.java` through"
                 " the server's own run repository in %.0f s (see that class for their shape); keyword searches"
                 " use first names, each in about 1%% of the runs; the logs are read with 4 connections." % (
                     r["logs_seed"]["runs"], r["logs_seed"]["seconds"]))
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
