"""Percentiles as the benches compute them, and the printing of their figure lines.

The benches' lines are contracts (CI's log, the issues quote them), and each was written
with one of these definitions; they differ on small samples, so each keeps its own."""

from __future__ import annotations

import statistics


def nearest_rank(values: list[float], q: float) -> float:
    """The q-th percentile (q in 0..100), nearest rank; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-len(ordered) * q // 100) - 1))]


def interpolated(values: list[float], p: float) -> float:
    """The p-th percentile (p in 1..99) by ``statistics.quantiles``; a lone value is its
    own percentile, no values give 0.0."""
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100)[int(p) - 1]


def at_fraction(values: list[float], fraction: float, empty: float = 0.0) -> float:
    """The value at ``fraction`` (0..1) of the way through the sorted values; ``empty``
    for no values."""
    if not values:
        return empty
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def floor_rank(values: list[float], q: float) -> float:
    """The q-th percentile (q in 0..100), the rank rounded down; 0.0 for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] if ordered else 0.0


def percentiles_ms(values: list[float]) -> str:
    """``p50=<ms> p95=<ms> p99=<ms>`` of values in seconds (``-`` for none)."""
    if not values:
        return "p50=- p95=- p99=-"
    return " ".join(f"p{p}={floor_rank(values, p) * 1000:.0f}" for p in (50, 95, 99))


def say(line: str) -> str:
    """Prints a figure line at once (CI's log interleaves the benches' output with their
    workers'), and returns it for the caller's list."""
    print(line, flush=True)
    return line
