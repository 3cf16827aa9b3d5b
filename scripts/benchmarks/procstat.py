"""CPU and memory of a process, read from /proc (Linux), and the machine's description."""

from __future__ import annotations

import os
import platform
import re
import sys

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` so far, in seconds (/proc/PID/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def rss_bytes(pid: int) -> int:
    """Resident set size of ``pid`` in bytes (/proc/PID/status ``VmRSS``)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise ValueError(f"no VmRSS for pid {pid}")


def machine() -> dict:
    """``{"loadavg_1min", "nproc", "cpu", "python", "kernel"}`` of this machine (the load
    average says how busy it was with other work when the run started)."""
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.+)$", f.read(), re.M)
            if m:
                cpu = m.group(1).strip()
    except OSError:
        pass
    return {
        "loadavg_1min": os.getloadavg()[0],
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": sys.version.split()[0],
        "kernel": platform.release(),
    }


class CpuMeter:
    """The CPU share of ``pid`` between ``start()`` and ``stop()``: a fraction of one core."""

    def __init__(self, pid: int, clock) -> None:
        self.pid, self.clock = pid, clock

    def start(self) -> None:
        self._cpu0, self._t0 = cpu_seconds(self.pid), self.clock()

    def stop(self) -> float:
        return (cpu_seconds(self.pid) - self._cpu0) / max(self.clock() - self._t0, 1e-9)
