#!/usr/bin/env python3
"""Soak driver: blocking workflow runs at a fixed rate for a fixed time, sampling the server's memory.

Usage: soak.py URL KEY RATE SECONDS PID
Sends RATE runs a second (open loop: each on its schedule, whatever the answers' pace) for SECONDS,
from a pool of worker threads on keep-alive connections; prints one line a minute (runs, errors,
p50/p99 latency, server RSS) and a summary. Exits 1 if any run was not answered 200/succeeded.
"""
import http.client
import json
import queue
import sys
import threading
import time
import urllib.parse

url, key, rate, seconds, pid = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
target = urllib.parse.urlparse(url)
body = json.dumps({"inputs": {"name": "soak"}, "response_mode": "blocking", "user": "soak"})
headers = {"Authorization": "Bearer " + key, "Content-Type": "application/json"}

jobs = queue.Queue()
lock = threading.Lock()
minute = {"runs": 0, "errors": 0, "latencies": []}
total = {"runs": 0, "errors": 0, "late": 0}


def rss_mb():
    with open("/proc/%s/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def worker():
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    while True:
        due = jobs.get()
        if due is None:
            return
        started = time.monotonic()
        ok = False
        try:
            connection.request("POST", target.path, body, headers)
            answer = connection.getresponse()
            data = answer.read()
            ok = answer.status == 200 and json.loads(data)["data"]["status"] == "succeeded"
        except Exception:
            connection.close()
            connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
        latency = time.monotonic() - started
        with lock:
            minute["runs"] += 1
            minute["latencies"].append(latency)
            total["runs"] += 1
            if started - due > 1.0:
                total["late"] += 1
            if not ok:
                minute["errors"] += 1
                total["errors"] += 1


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


threads = [threading.Thread(target=worker, daemon=True) for _ in range(64)]
for thread in threads:
    thread.start()

start = time.monotonic()
print("minute  runs  errors  p50_ms  p99_ms  rss_mb", flush=True)
rss = [rss_mb()]
next_report = start + 60
sent = 0
while time.monotonic() - start < seconds:
    now = time.monotonic()
    due = start + sent / rate
    if due <= now and now < next_report:
        jobs.put(due)
        sent += 1
        continue
    if now >= next_report:
        with lock:
            snapshot = dict(minute)
            minute.update(runs=0, errors=0, latencies=[])
        rss.append(rss_mb())
        print("%6d %5d %7d %7.1f %7.1f %7.0f" % (round((now - start) / 60), snapshot["runs"], snapshot["errors"],
              percentile(snapshot["latencies"], 0.5) * 1000, percentile(snapshot["latencies"], 0.99) * 1000,
              rss[-1]), flush=True)
        next_report += 60
    time.sleep(max(0.0, min(due - now, 0.01)))

for _ in threads:
    jobs.put(None)
for thread in threads:
    thread.join(60)
rss.append(rss_mb())
print("sent %d, answered %d, errors %d, started over 1 s late %d; RSS first %.0f MB, last %.0f MB, max %.0f MB"
      % (sent, total["runs"], total["errors"], total["late"], rss[0], rss[-1], max(rss)))
sys.exit(1 if total["errors"] else 0)
