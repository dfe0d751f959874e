#!/usr/bin/env python3
"""A slow OpenAI-compatible model endpoint on loopback, for the streaming benchmark.

POST /v1/chat/completions answers a streamed completion: PIECES chunks of text, one every PAUSE seconds, then
the usage and [DONE]. Many thousands of requests may be open at once (asyncio, one task per connection).

Usage: fake_model.py PORT [PIECES] [PAUSE]
"""
import asyncio
import json
import sys


async def handle(reader, writer, pieces, pause):
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        if length:
            await reader.readexactly(length)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
        await writer.drain()
        for i in range(pieces):
            await asyncio.sleep(pause)
            chunk = {"choices": [{"index": 0, "delta": {"content": "word%d " % i}, "finish_reason": None}]}
            writer.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
            await writer.drain()
        done = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        usage = {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": pieces,
                                          "total_tokens": 5 + pieces}}
        writer.write(b"data: " + json.dumps(done).encode() + b"\n\n")
        writer.write(b"data: " + json.dumps(usage).encode() + b"\n\ndata: [DONE]\n\n")
        await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main():
    port = int(sys.argv[1])
    pieces = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    pause = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
    server = await asyncio.start_server(lambda r, w: handle(r, w, pieces, pause), "127.0.0.1", port,
                                        backlog=4096)
    print("fake model on", port, flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
