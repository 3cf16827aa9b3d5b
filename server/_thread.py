"""A server in a thread of its own, with its own ``trio.run`` (``neveryu play``)."""

from __future__ import annotations

import threading

import trio

from ._config import ServerConfig
from ._server import Server


class RunningServer:
    """A server running in a background thread. ``port``: where it listens; ``records``: its
    records (``on``, or ``off`` and why); ``stop()`` sends every client ``bye`` and waits for the
    thread to end (``stop(keep_tables=True)``: its tables stay in the journal, to come back
    when a server is started again on the same records); ``error``: what stopped it, if it
    failed."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.port: int | None = None
        self.error: BaseException | None = None
        self._server = Server(config)
        self.records = self._server.records  # open once start() returns
        self._token: trio.lowlevel.TrioToken | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._main, name="neveryu-server", daemon=True)

    def _main(self) -> None:
        async def main() -> None:
            self._token = trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                self.port = await nursery.start(self._server.run)
                self._ready.set()

        try:
            trio.run(main)
        except BaseException as exc:  # reported to the caller through .error
            self.error = exc
        finally:
            self._ready.set()

    def start(self, timeout: float = 10.0) -> RunningServer:
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the server did not start in time")
        if self.error is not None:
            raise RuntimeError(f"the server failed to start: {self.error}") from self.error
        return self

    def stop(self, timeout: float = 10.0, keep_tables: bool = False) -> None:
        """Shut the server down (clients get ``bye``; ``Server.shutdown``) and join its thread."""
        if self._token is not None and self._thread.is_alive():
            try:
                trio.from_thread.run_sync(
                    lambda: self._server.shutdown(keep_tables=keep_tables), trio_token=self._token
                )
            except trio.RunFinishedError:
                pass
        self._thread.join(timeout)

    def __enter__(self) -> RunningServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_in_thread(config: ServerConfig) -> RunningServer:
    """Start a server for ``config`` in a daemon thread; returns once it listens. Raises
    RuntimeError (e.g. the port is taken) or TimeoutError."""
    return RunningServer(config).start()
