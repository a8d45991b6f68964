"""Plots of the judge-lab sections: the strengths of a ranking with their intervals, and
the reliability diagram of a calibration. Drawn as :mod:`accord.report.plots` draws
(phone first, text at least ``FONT`` units, deterministic inline SVG)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from accord.report.plots import FONT, WIDTH, _height, _render, _stack

__all__ = ["reliability_diagram", "strength_intervals"]


def strength_intervals(rows: Sequence[Any], prefix: str = "strengths") -> str | None:
    """Each generator's log-strength with its interval (strongest on top), its name above
    it, and a line at 0 (the mean strength). ``rows`` are ``LabFigure``\\ s."""
    shown = [r for r in rows if math.isfinite(r.estimate)]
    if not shown:
        return None

    def draw(fig: Any) -> None:
        ax = fig.add_subplot()
        ys = _stack(ax, [r.who or r.label for r in shown])
        for yi, r in zip(ys, shown):
            if math.isfinite(r.ci_low) and math.isfinite(r.ci_high):
                ax.plot([r.ci_low, r.ci_high], [yi, yi], color="#4477aa", linewidth=2.0)
            ax.plot([r.estimate], [yi], marker="o", color="#222222", markersize=6)
        ax.axvline(0.0, color="grey", linewidth=0.8)
        values = [x for r in shown for x in (r.ci_low, r.ci_high, r.estimate)
                  if math.isfinite(x)]
        pad = 0.05 * (max(values) - min(values) or 1.0)
        ax.set_xlim(min(values) - pad, max(values) + pad)
        ax.set_xlabel("log-strength (mean 0)")
        fig.suptitle("Strengths and confidence intervals")

    return _render(prefix, WIDTH, 1.4 + _height([r.who or r.label for r in shown]), draw)


def reliability_diagram(bins: Sequence[Any], prefix: str = "reliability") -> str | None:
    """Observed rate against mean predicted score per bin (marker area by the bin's
    items), the diagonal of perfect calibration, and the items per bin underneath."""
    used = [b for b in bins if b.n and math.isfinite(b.mean_score)
            and math.isfinite(b.observed_rate)]
    if not used:
        return None

    def draw(fig: Any) -> None:
        top, bottom = fig.subplots(2, 1, height_ratios=[3, 1], sharex=True)
        top.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1.0,
                 label="perfect calibration")
        biggest = max(b.n for b in used)
        top.plot([b.mean_score for b in used], [b.observed_rate for b in used],
                 color="#4477aa", linewidth=1.4)
        top.scatter([b.mean_score for b in used], [b.observed_rate for b in used],
                    s=[20 + 120 * b.n / biggest for b in used], color="#4477aa", zorder=3)
        top.set_xlim(0, 1)
        top.set_ylim(-0.02, 1.02)
        top.set_ylabel("observed rate")
        top.legend(loc="upper left", frameon=False, fontsize=FONT)
        bottom.bar([(b.low + b.high) / 2 for b in bins], [b.n for b in bins],
                   width=[0.9 * (b.high - b.low) for b in bins], color="#bbbbbb")
        bottom.set_ylabel("items")
        bottom.set_xlabel("mean predicted score")
        fig.suptitle("Reliability diagram")

    return _render(prefix, WIDTH, 4.4, draw)
