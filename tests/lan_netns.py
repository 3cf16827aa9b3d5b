"""A private LAN made of Linux network namespaces, for the tests that need several hosts or
multicast (tests/test_lan_*.py). Not a test module itself.

``Lan`` creates, with names unique to this run: one namespace holding a bridge ``br0``, and one
namespace per host whose ``eth0`` is one end of a veth pair, the other end (``p<N>``) a port of
the bridge. Each host gets ``lo`` up, IPv6 off, the private address ``10.77.0.<N>/24`` (it exists only
inside these namespaces) and a multicast route (``224.0.0.0/4`` on ``eth0``), so multicast never
leaves the LAN. Everything is created inside the namespaces (``ip -n``): nothing is added to, or
sent on, the machine's own interfaces. Processes run with ``ip netns exec``, never in the test's
own namespace. Leaving the ``with`` block (also on an error) kills the processes and deletes
the namespaces, which deletes their links.

Needs root and iproute2: ``skip_reason()`` says why they are missing, for ``pytest.skip``.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import budget

REPO = Path(__file__).resolve().parent.parent
PREFIX = "nvytest"
SUBNET = "10.77.0"
_NAME = re.compile(rf"^{PREFIX}-(\d+)-[0-9a-f]{{6}}-\w+$")


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10, check=check)


def skip_reason() -> str | None:
    """Why the LAN tests cannot run here (None: they can): not root, no iproute2, or the kernel
    or container refuses new network namespaces."""
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root (run the LAN tests as root)"
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is not installed"
    probe = f"{PREFIX}-{os.getpid()}-{secrets.token_hex(3)}-probe"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    _ip("netns", "del", probe, check=False)
    return None


def remove_stale() -> None:
    """Delete namespaces that earlier runs of these tests left behind: only names of this
    module's pattern whose creating process is gone (a test run that was killed)."""
    listed = _ip("netns", "list", check=False).stdout.split("\n")
    for line in listed:
        name = line.split(" ")[0]
        m = _NAME.match(name)
        if m and not Path(f"/proc/{m.group(1)}").exists():
            _ip("netns", "del", name, check=False)


@attrs.define
class Host:
    """One host of the LAN: its namespace, its address and the bridge port its link plugs into."""

    name: str
    netns: str
    address: str
    port: str


class Lan:
    """A bridge and hosts in network namespaces; a context manager (see the module docstring)."""

    def __init__(self) -> None:
        self.run_id = f"{PREFIX}-{os.getpid()}-{secrets.token_hex(3)}"
        self.bridge_ns = f"{self.run_id}-br"
        self.hosts: dict[str, Host] = {}
        self.processes: list[subprocess.Popen[str]] = []
        self._namespaces: list[str] = []

    def __enter__(self) -> Lan:
        remove_stale()
        try:
            self._add_netns(self.bridge_ns)
            _ip("-n", self.bridge_ns, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
            _ip("-n", self.bridge_ns, "link", "set", "br0", "up")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _add_netns(self, name: str) -> None:
        _ip("netns", "add", name)
        self._namespaces.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def add_host(self, name: str) -> Host:
        """Add a host named *name* (a word) with the next address: 10.77.0.1, 10.77.0.2, ..."""
        n = len(self.hosts) + 1
        host = Host(name, f"{self.run_id}-{name}", f"{SUBNET}.{n}", f"p{n}")
        self._add_netns(host.netns)
        # No IPv6 on the LAN: its links then send nothing (no router solicitations, no MLD)
        # unless a program does, which lets a test count the packets a host sent.
        subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                host.netns,
                "sh",
                "-c",
                "for f in all default; do echo 1 > /proc/sys/net/ipv6/conf/$f/disable_ipv6; done",
            ],
            capture_output=True,
            timeout=10,
            check=False,
        )
        _ip(
            "-n",
            self.bridge_ns,
            "link",
            "add",
            host.port,
            "type",
            "veth",
            "peer",
            "name",
            "eth0",
            "netns",
            host.netns,
        )
        _ip("-n", self.bridge_ns, "link", "set", host.port, "master", "br0", "up")
        _ip("-n", host.netns, "addr", "add", f"{host.address}/24", "dev", "eth0")
        _ip("-n", host.netns, "link", "set", "eth0", "up")
        _ip("-n", host.netns, "route", "add", "224.0.0.0/4", "dev", "eth0")
        self.hosts[name] = host
        return host

    def cut(self, host: Host) -> None:
        """Pull the host's cable: its bridge port goes down, nothing passes either way."""
        _ip("-n", self.bridge_ns, "link", "set", host.port, "down")

    def mend(self, host: Host) -> None:
        """Plug the host's cable back in."""
        _ip("-n", self.bridge_ns, "link", "set", host.port, "up")

    def sent_packets(self, host: Host) -> int:
        """How many packets *host* has sent on its ``eth0`` so far (the kernel's counter)."""
        out = _ip("-n", host.netns, "-s", "-j", "link", "show", "eth0").stdout
        return int(json.loads(out)[0]["stats64"]["tx"]["packets"])

    def popen(self, host: Host, argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
        """Start *argv* inside *host*'s namespace (``ip netns exec``), in the repository folder,
        with text pipes for stdout and stderr unless told otherwise; killed on close."""
        kwargs.setdefault("stdout", subprocess.PIPE)
        kwargs.setdefault("stderr", subprocess.PIPE)
        kwargs.setdefault("cwd", REPO)
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env.update(kwargs.pop("env", {}))
        proc = subprocess.Popen(
            ["ip", "netns", "exec", host.netns, *argv], text=True, env=env, start_new_session=True, **kwargs
        )
        self.processes.append(proc)
        return proc

    def neveryu(self, host: Host, *args: str, **kwargs: Any) -> subprocess.Popen[str]:
        """Start ``neveryu ARGS...`` (this checkout's) on *host*."""
        return self.popen(host, [sys.executable, "-m", "neveryu.client.cli", *args], **kwargs)

    def run(self, host: Host, argv: Sequence[str], timeout: float) -> subprocess.CompletedProcess[str]:
        """Run *argv* on *host* to its end, within *timeout* seconds scaled by the machine's load
        (tests/budget.py; else kill it and raise
        ``subprocess.TimeoutExpired``); returns its exit status and output."""
        proc = self.popen(host, argv)
        try:
            out, err = proc.communicate(timeout=budget.seconds(timeout))
        except subprocess.TimeoutExpired:
            _kill(proc)
            raise
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def close(self) -> None:
        """Kill every process started here, then delete every namespace (and so every link)."""
        for proc in self.processes:
            _kill(proc)
        for name in reversed(self._namespaces):
            _ip("netns", "del", name, check=False)
        self._namespaces.clear()


def _kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=5)  # not communicate(): a ``Lines`` thread may be reading its pipes
    except subprocess.TimeoutExpired:
        pass


class Lines:
    """The lines a process writes to one of its pipes, collected by a thread as they come, so a
    test can wait for a line under a deadline (``wait_for``) without blocking on the pipe."""

    def __init__(self, pipe: Any) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self._thread.start()

    def _read(self, pipe: Any) -> None:
        for line in pipe:
            self.lines.append(line.rstrip("\n"))

    def find(self, pattern: str) -> re.Match[str] | None:
        """The first line matching the regular expression *pattern*, or None."""
        for line in list(self.lines):
            m = re.search(pattern, line)
            if m:
                return m
        return None

    def text(self) -> str:
        return "\n".join(self.lines)


def wait_for(
    what: str,
    check: Callable[[], Any],
    timeout: float,
    every: float = 0.05,
    detail: Callable[[], str] | None = None,
) -> Any:
    """Poll *check* until it returns something true, and return that; raise AssertionError
    naming *what* (and adding ``detail()``, such as the processes' output) after *timeout*
    seconds, scaled by the machine's load (tests/budget.py)."""
    deadline = time.monotonic() + budget.seconds(timeout)
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            more = f"\n{detail()}" if detail is not None else ""
            raise AssertionError(f"timed out after {timeout} s waiting for {what}{more}")
        time.sleep(every)
