r"""Control limits over a study's batches: did agreement drop beyond noise?

The first batches of a study (of each revision of its guidelines: a new
revision starts a new baseline) form the reference period, as in phase I of a
Shewhart chart; each later batch is set against them. The baseline is their
inverse-variance weighted mean, and the lower control limit allows for the new
batch's own sampling error and for the baseline's:

.. math:: \bar\theta = \frac{\sum_{s \in B} \hat\theta_s / se_s^2}{\sum_{s \in B} 1/se_s^2},
          \qquad
          LCL_t = \bar\theta - z_{1-a}\sqrt{se_t^2 + \Big(\sum_{s \in B} 1/se_s^2\Big)^{-1}}

and the batch is flagged when :math:`\hat\theta_t < LCL_t`. This is a
Shewhart chart for individual observations with limits estimated from a
reference period (Montgomery 2009, *Introduction to Statistical Quality
Control*, 6th ed., sec. 6.4 and ch. 4 on phase I and phase II), with each
batch's own standard error in place of a moving range, since batches differ in
size, and the baseline's error added as in a prediction interval: under
constant agreement (and approximately normal estimates) a batch is flagged with
probability :math:`a` (one-sided; default 5%). The reference period is the
first ``baseline`` batches (default 5); a batch is judged once at least three
earlier batches of its revision are known (until the period is complete, all of
them form the baseline). A batch that is itself flagged never enters the baseline,
so one bad batch cannot lower the limit the next ones are held to; the reason of a
later flag says how many were left out. A batch's SE is its analytic SE, or, for intervals
without one, half the interval's width over :math:`z_{1-(1-c)/2}`.

Because the baseline is fixed, a drop of :math:`\delta` that persists is
flagged at each later batch with probability
:math:`\Phi((b + \delta - z_{1-a} s) / se)` given the baseline's error
:math:`b \sim N(0, se_B^2)`, :math:`s = \sqrt{se^2 + se_B^2}`;
:func:`batches_to_detect` averages over :math:`b` to give the number of batches
within which the chart raises with a given probability.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.inference.display import Tabular

from .store import Figure, Run, with_interval

__all__ = ["DriftChart", "DriftPoint", "annotator_charts", "batches_to_detect", "charts",
           "control_chart"]

#: Earlier batches needed before a batch can be flagged.
MIN_BASELINE = 3
#: Batches of the reference period.
BASELINE = 5
#: The last batches a chart's table lists (flagged ones are always listed).
LISTED = 50


@dataclass(frozen=True)
class DriftPoint:
    """One batch on the chart."""

    run_id: int | None
    time: str
    source: str | None
    estimate: float
    se: float
    low: float
    high: float
    baseline: float
    lower_limit: float
    n_baseline: int
    flagged: bool
    reason: str | None
    confidence_level: float = 0.95
    method: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; undefined numbers are ``None``; the batch's interval is
        ``confidence_interval``."""
        return with_interval({k: (None if isinstance(x, float) and not math.isfinite(x) else x)
                               for k, x in vars(self).items()})


@dataclass(frozen=True)
class DriftChart(Tabular):
    """A coefficient over a study's batches, with control limits."""

    study: str
    coefficient: str
    points: tuple[DriftPoint, ...]
    false_alarm: float
    threshold: float | None
    rater: str = ""

    @property
    def flagged(self) -> tuple[DriftPoint, ...]:
        """The batches whose agreement dropped beyond noise."""
        return tuple(p for p in self.points if p.flagged)

    def listed(self, last: int = LISTED) -> tuple[tuple[DriftPoint, ...], int]:
        """``(points, n_left_out)``: the batches a table lists, in order: the last
        ``last`` and every flagged one before them; the others are counted, so a chart of
        10^5 batches is listed in a screen, not 10^5 rows (all are in ``points``).

        >>> pts = tuple(DriftPoint(i, "", None, 0.7, 0.05, 0.6, 0.8, 0.7, 0.6, 5,
        ...                        i == 3, None) for i in range(100))
        >>> shown, left = DriftChart("s", "k", pts, 0.05, None).listed(2)
        >>> [p.run_id for p in shown], left
        ([3, 98, 99], 97)
        """
        cut = max(len(self.points) - last, 0)
        shown = tuple(p for j, p in enumerate(self.points) if j >= cut or p.flagged)
        return shown, len(self.points) - len(shown)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {"study": self.study, "coefficient": self.coefficient,
                "annotator": self.rater or None, "false_alarm": self.false_alarm,
                "threshold": self.threshold,
                "method": "Shewhart lower limit from earlier batches (Montgomery 2009, ch. 6)",
                "points": [p.to_dict() for p in self.points]}


def control_chart(runs: Sequence[Run], coefficient: str, *, false_alarm: float = 0.05,
                  min_baseline: int = MIN_BASELINE, baseline: int = BASELINE,
                  rater: str = "") -> DriftChart:
    """The control chart of ``coefficient`` over ``runs`` (one study, in time order).

    Parameters
    ----------
    runs : sequence of Run
        The study's runs, oldest first (as :meth:`Store.runs` returns them).
    coefficient : str
    false_alarm : float
        One-sided probability that a batch is flagged when agreement did not change.
    min_baseline : int
        Earlier batches with a standard error needed before a batch can be flagged.
    baseline : int
        Batches of the reference period (per revision).
    rater : str
        ``""`` for the whole batch's figure; an annotator's name for their own figure
        (the reference period is then the annotator's first batches).

    Examples
    --------
    Five batches at kappa 0.75 (SE 0.05), then one at 0.55: the baseline is 0.75
    with SE 0.05 / sqrt(5), so the lower limit is
    ``0.75 - 1.6449 * sqrt(0.05**2 + 0.05**2 / 5) = 0.66``:

    >>> from accord.history.store import Figure, Run
    >>> runs = [Run(f"2026-01-0{t}", "s", (Figure("cohen_kappa", k, 0.05),))
    ...         for t, k in enumerate([0.75] * 5 + [0.55], start=1)]
    >>> chart = control_chart(runs, "cohen_kappa")
    >>> last = chart.points[-1]
    >>> round(last.lower_limit, 4), last.flagged
    (0.6599, True)
    """
    from scipy import stats

    _check_rate(false_alarm)
    z = float(stats.norm.ppf(1.0 - false_alarm))
    study = runs[0].study if runs else ""
    threshold = None if rater else next(
        (r.threshold for r in reversed(runs) if r.threshold is not None
         and (r.rule or "").split(" ")[0] == coefficient), None)
    points: list[DriftPoint] = []
    reference: dict[str | None, list[tuple[float, float]]] = {}
    left_out: dict[str | None, int] = {}  # flagged batches kept out of the baseline
    for run in runs:
        fig = run.figure(coefficient, rater)
        if fig is None:
            continue
        earlier = reference.setdefault(run.revision, [])
        name = f"annotator {rater!r}: {coefficient}" if rater else coefficient
        point = _point(run, fig, earlier, z, false_alarm, min_baseline, name,
                       left_out.get(run.revision, 0))
        points.append(point)
        usable = math.isfinite(point.se) and point.se > 0 and math.isfinite(point.estimate)
        if usable and len(earlier) < baseline:
            if point.flagged:
                left_out[run.revision] = left_out.get(run.revision, 0) + 1
            else:
                earlier.append((point.estimate, point.se))
    return DriftChart(study, coefficient, tuple(points), false_alarm, threshold, rater)


def _check_rate(rate: float) -> None:
    if not (isinstance(rate, float | int) and 0.0 < rate < 0.5):
        raise v.fail("false_alarm", "control_chart", "a probability in (0, 0.5)", rate)


def figure_se(fig: Figure) -> float:
    """The figure's SE, or its interval's half-width over the normal quantile."""
    if math.isfinite(fig.se):
        return fig.se
    from scipy import stats  # only here: the import statement costs 40 us per batch

    if math.isfinite(fig.low) and math.isfinite(fig.high) and math.isfinite(
            fig.confidence_level):
        return (fig.high - fig.low) / (2.0 * float(stats.norm.ppf(0.5 + fig.confidence_level
                                                                  / 2.0)))
    return math.nan


def _point(run: Run, fig: Figure, earlier: list[tuple[float, float]], z: float,
           false_alarm: float, min_baseline: int, coefficient: str,
           left_out: int = 0) -> DriftPoint:
    se = figure_se(fig)
    nan = math.nan
    base, limit, flagged, reason = nan, nan, False, None
    if len(earlier) >= min_baseline and math.isfinite(se) and math.isfinite(fig.estimate):
        weights = [1.0 / s**2 for _, s in earlier]
        base = sum(w * e for w, (e, _) in zip(weights, earlier)) / sum(weights)
        limit = base - z * math.sqrt(se**2 + 1.0 / sum(weights))
        if fig.estimate < limit:
            flagged = True
            reason = (f"{coefficient} {fig.estimate:.4f} is below the lower control limit "
                      f"{limit:.4f} (baseline {base:.4f} from the first {len(earlier)} batches"
                      + (f", {left_out} flagged batch(es) left out" if left_out else "")
                      + f"; one-sided false-alarm rate {false_alarm:.0%}): agreement dropped "
                      "beyond sampling noise")
    return DriftPoint(run.id, run.time, run.source, fig.estimate, se, fig.low, fig.high, base,
                      limit, len(earlier), flagged, reason, fig.confidence_level, fig.method)


def batches_to_detect(drop: float, se: float, *, baseline_se: float = 0.0,
                      false_alarm: float = 0.05, probability: float = 0.95) -> int:
    """How many batches after a sustained ``drop`` the chart raises, with ``probability``.

    Given the baseline's error ``b``, each later batch is flagged independently
    with probability ``p(b) = Phi((b + drop - z_(1-a) s) / se)``, ``s = sqrt(se^2 +
    baseline_se^2)``, so the chart raises within ``k`` batches with probability
    ``E_b[1 - (1 - p(b))^k]``, ``b ~ N(0, baseline_se^2)`` (Gauss-Hermite
    quadrature, 64 nodes); the result is the smallest ``k`` reaching
    ``probability`` (at most 10,000).

    Examples
    --------
    A drop of 0.1 in kappa, batches with SE 0.05 and a baseline of five batches
    (SE 0.05 / sqrt(5)):

    >>> batches_to_detect(0.1, 0.05, baseline_se=0.05 / 5 ** 0.5)
    5
    """
    from scipy import stats

    _check_rate(false_alarm)
    for value, name in ((se, "se"), (baseline_se, "baseline_se")):
        if not (math.isfinite(value) and value >= 0 and (value > 0 or name != "se")):
            raise v.fail(name, "batches_to_detect", "a positive standard error", value)
    s = math.sqrt(se**2 + baseline_se**2)
    nodes, weights = np.polynomial.hermite_e.hermegauss(64)
    weights = weights / weights.sum()
    p = stats.norm.cdf((nodes * baseline_se + drop - stats.norm.ppf(1 - false_alarm) * s) / se)
    for k in range(1, 10_001):
        if float(np.sum(weights * (1.0 - (1.0 - p) ** k))) >= probability:
            return k
    return 10_001


def charts(runs: Sequence[Run], *, false_alarm: float = 0.05,
           annotators: bool = False) -> list[DriftChart]:
    """A control chart per study and coefficient (whole-batch figures), in order of
    first appearance, then (with ``annotators``) one per study, per-annotator
    coefficient and annotator (:func:`annotator_charts`); studies are kept apart by
    name."""
    keys = dict.fromkeys((r.study, f.coefficient) for r in runs for f in r.figures
                         if not f.rater)
    out = [control_chart([r for r in runs if r.study == study], coefficient,
                         false_alarm=false_alarm) for study, coefficient in keys]
    return out + (annotator_charts(runs, false_alarm=false_alarm) if annotators else [])


def annotator_charts(runs: Sequence[Run], *, false_alarm: float = 0.05) -> list[DriftChart]:
    """A control chart per study, per-annotator coefficient and annotator, in order of
    first appearance: each annotator's trend over the batches they rated, with a lower
    control limit from their own first batches (per revision), so a batch where one
    annotator drifted is flagged with the annotator's name and the reason.

    Examples
    --------
    >>> from accord.history.store import Figure, Run
    >>> runs = [Run(f"2026-01-0{t}", "s", (Figure("majority_agreement", k, 0.05, rater="ann"),
    ...                                    Figure("majority_agreement", 0.8, 0.05, rater="bob")))
    ...         for t, k in enumerate([0.8] * 5 + [0.6], start=1)]
    >>> [(c.rater, [p.run_id for p in c.flagged] if c.flagged else c.flagged)
    ...  for c in annotator_charts(runs)]
    [('ann', [None]), ('bob', ())]
    >>> annotator_charts(runs)[0].flagged[0].reason.split(" is below")[0]
    "annotator 'ann': majority_agreement 0.6000"
    """
    keys = dict.fromkeys((r.study, f.coefficient, f.rater) for r in runs for f in r.figures
                         if f.rater)
    return [control_chart([r for r in runs if r.study == study], coefficient,
                          false_alarm=false_alarm, rater=rater)
            for study, coefficient, rater in keys]

