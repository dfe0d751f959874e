#!/usr/bin/env python3
"""A slow OpenAI-compatible model endpoint on loopback, for the streaming and model-bound benchmarks.

POST /v1/chat/completions answers a streamed completion: PIECES chunks of text, one every PAUSE seconds, then
the usage and [DONE]. Many thousands of requests may be open at once (asyncio, one task per connection).

A connection is kept for the next request, as real endpoints keep theirs: the stream is sent with chunked
transfer encoding, so its end is marked without closing. With `close` as the fourth argument it answers as it
did before, `Connection: close` and the end of the stream marked by closing, so a client must open a new
connection per call. GET /stats answers how many connections asked for a completion, and how many completions
were asked for.

Usage: fake_model.py PORT [PIECES] [PAUSE] [close]
"""
import asyncio
import json
import sys

STATS = {"connections": 0, "requests": 0}


def chunk(data):
    return b"%x\r\n%s\r\n" % (len(data), data)


async def read_request(reader):
    """The request's method and path, and whether it asked to close; its body is read and dropped."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    method, path = (lines[0].split(b" ") + [b"", b""])[:2]
    length = 0
    close = False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"connection" and value.strip().lower() == b"close":
            close = True
    if length:
        await reader.readexactly(length)
    return method, path, close


async def stream(writer, pieces, pause, keep):
    frame = chunk if keep else (lambda data: data)
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
    writer.write(head + (b"Transfer-Encoding: chunked\r\n\r\n" if keep else b"Connection: close\r\n\r\n"))
    await writer.drain()
    for i in range(pieces):
        await asyncio.sleep(pause)
        piece = {"choices": [{"index": 0, "delta": {"content": "word%d " % i}, "finish_reason": None}]}
        writer.write(frame(b"data: " + json.dumps(piece).encode() + b"\n\n"))
        await writer.drain()
    done = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    usage = {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": pieces,
                                      "total_tokens": 5 + pieces}}
    writer.write(frame(b"data: " + json.dumps(done).encode() + b"\n\n"))
    writer.write(frame(b"data: " + json.dumps(usage).encode() + b"\n\ndata: [DONE]\n\n"))
    if keep:
        writer.write(b"0\r\n\r\n")
    await writer.drain()


async def handle(reader, writer, pieces, pause, keep):
    asked = False
    try:
        while True:
            method, path, close = await read_request(reader)
            if method == b"GET" and path == b"/stats":
                body = json.dumps(STATS).encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                             % (len(body), body))
                await writer.drain()
            else:
                # Counted here, so that the connections asking for the stats are not.
                STATS["connections"] += 0 if asked else 1
                STATS["requests"] += 1
                asked = True
                await stream(writer, pieces, pause, keep and not close)
            if not keep or close:
                break
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main():
    port = int(sys.argv[1])
    pieces = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    pause = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
    keep = not (len(sys.argv) > 4 and sys.argv[4] == "close")
    server = await asyncio.start_server(lambda r, w: handle(r, w, pieces, pause, keep), "127.0.0.1", port,
                                        backlog=4096)
    print("fake model on", port, "keeping connections" if keep else "closing each stream", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
