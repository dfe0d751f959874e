#!/usr/bin/env python3
"""Streaming-run drivers for the benchmark harness; each prints one JSON line.

  streams.py ttfb HOST PORT KEY COUNT INPUTS_JSON
      COUNT streaming runs one after another, each on a new connection: the time from sending the request to
      the first `data:` frame (workflow_started) and to the end (workflow_finished).
  streams.py hold HOST PORT KEY COUNT INPUTS_JSON SERVER_PID
      COUNT streaming runs at once: how many opened (got their first frame), how many ended succeeded, errors,
      and the server's resident memory before and while all COUNT streams were open.
"""
import asyncio
import json
import socket
import sys
import time


def request(host, port, key, inputs, user):
    body = json.dumps({"inputs": inputs, "response_mode": "streaming", "user": user}).encode()
    return (b"POST /v1/workflows/run HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
            % (host.encode(), port, key.encode(), len(body))) + body


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def ended_status(buffer):
    """The run's status from its workflow_finished frame, or None while it has not come."""
    at = buffer.find(b"workflow_finished")
    if at < 0:
        return None
    end = buffer.find(b"\n\n", at)
    if end < 0:
        return None
    for status in (b"succeeded", b"failed", b"stopped", b"partial-succeeded"):
        if b'"status": "' + status + b'"' in buffer[at:end] or b'"status":"' + status + b'"' in buffer[at:end]:
            return status.decode()
    return "unknown"


def ttfb(host, port, key, count, inputs):
    first, total, failures = [], [], 0
    for i in range(count):
        began = time.perf_counter()
        with socket.create_connection((host, port)) as s:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            s.sendall(request(host, port, key, inputs, "ttfb-%d" % (i % 50)))
            buffer, seen_first = b"", False
            while True:
                data = s.recv(65536)
                if not data:
                    break
                buffer += data
                if not seen_first and b"\ndata: " in buffer:
                    first.append((time.perf_counter() - began) * 1000)
                    seen_first = True
                status = ended_status(buffer)
                if status is not None:
                    total.append((time.perf_counter() - began) * 1000)
                    failures += status != "succeeded"
                    break
            if not seen_first:
                failures += 1
    return {"runs": count, "failures": failures, "first_p50_ms": percentile(first, 50),
            "first_p99_ms": percentile(first, 99), "end_p50_ms": percentile(total, 50),
            "end_p99_ms": percentile(total, 99)}


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def hold(host, port, key, count, inputs, pid):
    opened = asyncio.Event()
    state = {"open": 0, "succeeded": 0, "other": 0, "errors": 0, "first": []}
    began = time.perf_counter()

    async def one(i):
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(request(host, port, key, inputs, "hold-%d" % (i % int(__import__("os").environ.get("USERS", "1000000")))))
            await writer.drain()
            buffer, seen_first = b"", False
            while True:
                data = await reader.read(65536)
                if not data:
                    state["errors"] += 1
                    break
                buffer += data
                if not seen_first and b"\ndata: " in buffer:
                    seen_first = True
                    state["first"].append((time.perf_counter() - began) * 1000)
                    state["open"] += 1
                    if state["open"] == count:
                        opened.set()
                    buffer = buffer[buffer.rfind(b"\n\n"):]
                status = ended_status(buffer)
                if status is not None:
                    state["succeeded" if status == "succeeded" else "other"] += 1
                    break
                if len(buffer) > 4096:
                    buffer = buffer[-4096:]
            writer.close()
        except OSError:
            state["errors"] += 1

    before = rss_kb(pid)
    tasks = [asyncio.ensure_future(one(i)) for i in range(count)]
    try:
        await asyncio.wait_for(opened.wait(), timeout=120)
        all_open_s = time.perf_counter() - began
        await asyncio.sleep(1)
        during = rss_kb(pid)
    except asyncio.TimeoutError:
        all_open_s, during = None, rss_kb(pid)
    await asyncio.gather(*tasks)
    return {"streams": count, "opened": state["open"], "succeeded": state["succeeded"], "other": state["other"],
            "errors": state["errors"], "all_open_s": all_open_s, "first_p50_ms": percentile(state["first"], 50),
            "first_p99_ms": percentile(state["first"], 99), "rss_before_kb": before, "rss_open_kb": during,
            "kb_per_stream": (during - before) / count if count else None,
            "elapsed_s": time.perf_counter() - began}


def main():
    mode, host, port, key, count, inputs = sys.argv[1:7]
    port, count, inputs = int(port), int(count), json.loads(inputs)
    if mode == "ttfb":
        result = ttfb(host, port, key, count, inputs)
    else:
        result = asyncio.run(hold(host, port, key, count, inputs, int(sys.argv[7])))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
