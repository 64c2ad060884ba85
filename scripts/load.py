#!/usr/bin/env python3
"""A bounded load test of `zermelo serve`: N GET requests of one path, C at a time over
keep-alive connections; prints requests/s and the p50/p99 latency, then stops.

    python3 scripts/load.py http://127.0.0.1:PORT '/api/moves?spec=tictactoe' [N] [C]
"""
import asyncio
import sys
import time
from urllib.parse import urlsplit


async def client(host, port, path, todo, latencies, statuses):
    reader, writer = await asyncio.open_connection(host, port)
    request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
    while todo[0] > 0:
        todo[0] -= 1
        start = time.perf_counter()
        writer.write(request)
        await writer.drain()
        status_line = await reader.readline()
        length = 0
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        await reader.readexactly(length)
        latencies.append(time.perf_counter() - start)
        statuses[status_line.split()[1].decode()] = statuses.get(status_line.split()[1].decode(), 0) + 1
    writer.close()


async def main():
    base, path = sys.argv[1], sys.argv[2]
    total = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    concurrency = int(sys.argv[4]) if len(sys.argv) > 4 else 32
    url = urlsplit(base)
    todo, latencies, statuses = [total], [], {}
    start = time.perf_counter()
    await asyncio.gather(
        *(client(url.hostname, url.port, path, todo, latencies, statuses) for _ in range(concurrency))
    )
    seconds = time.perf_counter() - start
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(
        f"{path}: {len(latencies)} requests, {concurrency} at a time, in {seconds:.2f} s: "
        f"{len(latencies) / seconds:.0f} requests/s, p50 {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, "
        f"statuses {statuses}"
    )


asyncio.run(main())
