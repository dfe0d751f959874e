"""What a pause costs the next burst, for `bench.py --only-pause`.

A server gives its heap back when it is idle (IdleHeap), and a burst that follows regrows it. For each JDK, two
servers of this build, warmed alike, are left idle for each pause of `--pauses` and then loaded with blocking runs
of the four-node workflow for `--seconds` ("after the pause"), and at once again as long ("steady"): one as an
operator starts it, one told to keep its heap (`-XX:G1PeriodicGCInterval=0`, G1's own behaviour). Each round loads
them in turn, the order swapped from round to round; the medians of `--rounds` rounds are printed.
"""
import statistics
import tempfile
import time

from bench import RUN_BODY, RUN_PATH, ROOT, Server, log, wrk

VARIANTS = (("as started", ()), ("heap kept", ("-XX:G1PeriodicGCInterval=0",)))


def measure(java, pauses, seconds, rounds):
    """{variant: {pause: {"after": [(rps, p99)], "steady": [(rps, p99)]}}} for one JDK."""
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
        servers = []
        try:
            for (name, jvm), data in zip(VARIANTS, (first, second)):
                server = Server(java, data, jvm=jvm)
                servers.append((name, server, server.import_app(ROOT / "bench" / "apps" / "four-nodes.yml")
                                ["api_key"]))
            for _ in range(2):
                for _, server, key in servers:
                    wrk(server.base + RUN_PATH, 15, warmup=0, method="POST", body=RUN_BODY, key=key)
            results = {name: {pause: {"after": [], "steady": []} for pause in pauses} for name, _, _ in servers}
            for pause in pauses:
                for round_ in range(rounds):
                    for name, server, key in (servers if round_ % 2 == 0 else list(reversed(servers))):
                        log("  %s, %d s pause, round %d" % (name, pause, round_ + 1))
                        time.sleep(pause)
                        for kind in ("after", "steady"):
                            out = wrk(server.base + RUN_PATH, seconds, warmup=0, method="POST", body=RUN_BODY,
                                      key=key)
                            results[name][pause][kind].append((out["rps"], out["p99_ms"]))
            return results
        finally:
            for _, server, _ in servers:
                server.stop()


def lines(results):
    """A table per JDK: each pause and variant, the median runs a second and p99 after the pause and steady."""
    out = []
    for jdk, figures in results.items():
        out += ["", "%s:" % jdk, "",
                "| pause | server | runs/s after the pause | p99 | runs/s steady | p99 |", "|---|---|---|---|---|---|"]
        for pause in next(iter(figures.values())):
            for name, _ in VARIANTS:
                after, steady = figures[name][pause]["after"], figures[name][pause]["steady"]
                out.append("| %d s | %s | %s | %.1f ms | %s | %.1f ms |" % (
                    pause, name, format(round(statistics.median(r for r, _ in after)), ","),
                    statistics.median(p for _, p in after),
                    format(round(statistics.median(r for r, _ in steady)), ","),
                    statistics.median(p for _, p in steady)))
    return out
