"""Listening and accepting on plain (stdlib) sockets, so each connection keeps its socket.

The server writes to a client's socket directly when nothing is waiting to be written to it
(``ClientConnection.flush``: one non-blocking ``send`` instead of waking its writer task), so it
accepts connections itself rather than through ``trio.serve_listeners``, whose streams hide
their socket. The listening behaves like ``trio.open_tcp_listeners`` (one socket per address
``getaddrinfo`` gives, ``SO_REUSEADDR``, IPv6 sockets ``IPV6_V6ONLY``: ``host`` None binds both
``0.0.0.0`` and ``::``), and accepting like ``trio.serve_listeners`` (the same ignored errors, a
pause when the system runs out of file descriptors or memory).
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import sys
from collections.abc import Awaitable, Callable

import trio

log = logging.getLogger("neveryu.server")

BACKLOG = 0xFFFF  # trio's default: as many as the system allows
ACCEPT_AT_ONCE = 64  # connections accepted per wake-up at most (then others get a turn)
CAPACITY_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
CAPACITY_PAUSE = 0.1  # s: the pause after one of those
# The errors of accept(2) that concern only the connection being accepted (trio's list).
IGNORED_ERRNOS = frozenset(
    getattr(errno, name)
    for name in (
        "EPERM",
        "ECONNABORTED",
        "EPROTO",
        "ENETDOWN",
        "ENOPROTOOPT",
        "EHOSTDOWN",
        "ENONET",
        "EHOSTUNREACH",
        "EOPNOTSUPP",
        "ENETUNREACH",
        "ENOSR",
        "ESOCKTNOSUPPORT",
        "EPROTONOSUPPORT",
        "ETIMEDOUT",
        "ECONNRESET",
    )
    if hasattr(errno, name)
)

Handler = Callable[[trio.SocketStream, socket.socket], Awaitable[object]]


async def open_listeners(port: int, host: str | None) -> list[socket.socket]:
    """Non-blocking listening TCP sockets on ``host`` (None: every interface, IPv4 and IPv6)
    and ``port`` (0: a free one; with two sockets each gets its own). Raises ``OSError`` (the
    address is in use, no address family is supported, ...)."""
    addresses = await trio.socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    listeners: list[socket.socket] = []
    unsupported: list[OSError] = []
    try:
        for family, type_, proto, _, address in addresses:
            try:
                sock = socket.socket(family, type_, proto)
            except OSError as exc:
                if exc.errno == errno.EAFNOSUPPORT:
                    unsupported.append(exc)
                    continue
                raise
            try:
                if sys.platform != "win32":
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.setblocking(False)
                sock.bind(address)
                sock.listen(BACKLOG)
                listeners.append(sock)
            except BaseException:
                sock.close()
                raise
    except BaseException:
        close(listeners)
        raise
    if unsupported and not listeners:
        raise OSError(errno.EAFNOSUPPORT, "this system supports none of the address families of that address")
    return listeners


async def accept(listener: socket.socket, handler: Handler, nursery: trio.Nursery) -> None:
    """Accept connections on ``listener`` until cancelled; each one's ``handler(stream, sock)``
    runs in ``nursery`` (``stream``: a ``trio.SocketStream`` over ``sock``, which the caller may
    also write to without blocking). The handler closes the stream."""
    while True:
        await trio.lowlevel.wait_readable(listener)
        for _ in range(ACCEPT_AT_ONCE):
            try:
                sock, _address = listener.accept()
            except BlockingIOError:
                break
            except OSError as exc:
                if exc.errno in IGNORED_ERRNOS:
                    continue
                if exc.errno in CAPACITY_ERRNOS:
                    log.error(
                        "accept returned %s (%s); retrying in %s s",
                        errno.errorcode[exc.errno],
                        os.strerror(exc.errno),
                        CAPACITY_PAUSE,
                    )
                    await trio.sleep(CAPACITY_PAUSE)
                    break
                raise
            try:
                stream = trio.SocketStream(trio.socket.from_stdlib_socket(sock))  # non-blocking, TCP_NODELAY
            except BaseException:
                sock.close()
                raise
            nursery.start_soon(handler, stream, sock)


def close(listeners: list[socket.socket]) -> None:
    """Close listening sockets (a task waiting on one is woken first)."""
    for sock in listeners:
        if sock.fileno() != -1:
            trio.lowlevel.notify_closing(sock)
            sock.close()
