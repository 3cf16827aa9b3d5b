"""A broken outside bot for ``neveryu arena``'s tests: it takes its seat at ``table`` of
``host``:``port`` like a good one, then, once its deal has started, does what ``mode`` says:
``crash`` (exits with code 3), ``hang`` (reads on and never acts) or ``garbage`` (sends a frame
that is not msgpack).

    python arena_broken_bot.py MODE HOST PORT TABLE
"""

from __future__ import annotations

import socket
import struct
import sys

import msgpack


def send(sock: socket.socket, body: dict) -> None:
    data = msgpack.packb(body)
    sock.sendall(struct.pack(">I", len(data)) + data)


def frames(sock: socket.socket):
    buf = b""
    while True:
        while len(buf) >= 4 and len(buf) >= 4 + struct.unpack(">I", buf[:4])[0]:
            n = struct.unpack(">I", buf[:4])[0]
            yield msgpack.unpackb(buf[4 : 4 + n])
            buf = buf[4 + n :]
        chunk = sock.recv(65536)
        if not chunk:
            return
        buf += chunk


def main() -> int:
    mode, host, port, table = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    sock = socket.create_connection((host, port), timeout=60)
    send(
        sock,
        {"t": "hello", "id": 1, "proto": [1, 1], "client": {"name": "broken", "version": "1"}, "name": mode},
    )
    send(sock, {"t": "join_table", "id": 2, "table": table})
    send(sock, {"t": "ready", "id": 3, "ready": True})
    for msg in frames(sock):
        if msg.get("t") == "deal_started":
            if mode == "crash":
                return 3
            if mode == "garbage":
                sock.sendall(b"\x00\x00\x00\x07garbage")
    return 0


if __name__ == "__main__":
    sys.exit(main())
