"""Percentiles of samples (nearest-rank, as most latency reports use)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(samples: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (0 < p <= 100) of ``samples``; NaN when empty."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def summary_us(samples_s: Sequence[float]) -> dict:
    """``{"n", "p50_us", "p99_us", "max_us"}`` of durations in seconds, rounded to 1 µs."""
    return {
        "n": len(samples_s),
        "p50_us": round(percentile(samples_s, 50) * 1e6, 1),
        "p99_us": round(percentile(samples_s, 99) * 1e6, 1),
        "max_us": round(max(samples_s) * 1e6, 1) if samples_s else math.nan,
    }
