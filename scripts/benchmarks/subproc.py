"""Start a benchmark helper in its own Python process and read the port it listens on."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Helper:
    """``python -m <module> <args>`` in its own process (the project root on its path). The
    helper prints ``PORT <n>`` on its first line once it listens. Use as a context manager;
    leaving it terminates the process (SIGTERM, then SIGKILL after 5 s)."""

    def __init__(self, module: str, *args: str, ready_timeout: float = 30.0, first_path: str = "") -> None:
        self.cmd = [sys.executable, "-m", module, *args]
        self.first_path = first_path  # before the project root on PYTHONPATH (compare: a tree)
        self.ready_timeout = ready_timeout
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None

    @staticmethod
    def env() -> dict[str, str]:
        """This environment with the project root first on PYTHONPATH."""
        return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def __enter__(self) -> Helper:
        env = self.env()
        if self.first_path:
            env["PYTHONPATH"] = self.first_path + os.pathsep + env["PYTHONPATH"]
        self.proc = subprocess.Popen(self.cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + self.ready_timeout
        line = self.proc.stdout.readline()  # the helper prints PORT first; it fails fast otherwise
        if not line.startswith("PORT ") or time.monotonic() > deadline:
            self.close()
            raise RuntimeError(f"{' '.join(self.cmd)} did not start: {line!r}")
        self.port = int(line.split()[1])
        return self

    @property
    def pid(self) -> int:
        return self.proc.pid

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __exit__(self, *exc) -> None:
        self.close()
