r"""Calibration of a judge's probabilities (or scores in [0, 1]) against human 0/1 labels.

* **Brier score** (Brier 1950): :math:`\frac1n \sum_i (s_i - y_i)^2`, a mean over
  items with its standard error :math:`\mathrm{sd}_0 / \sqrt n`;
* **expected calibration error** over ``n_bins`` equal-width bins (Naeini, Cooper &
  Hauskrecht 2015; Guo et al. 2017): :math:`\sum_b \frac{n_b}{n} |\bar y_b - \bar s_b|`,
  written as :math:`\frac1n \sum_b |\sum_{i \in b} (y_i - s_i)|` so that it is a
  function of per-bin sums and resamples by item; its SE is the jackknife's. The
  ECE is biased upward in small samples (Kumar, Liang & Ma 2019): compare judges
  on the same items and bins.
* **recalibration**: an isotonic (pool-adjacent-violators, via
  ``scipy.optimize.isotonic_regression``) or Platt (logistic regression of the
  label on the score, Platt 1999, without his target smoothing) map fitted on one
  random split of the items and scored on the other, never on the same items.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.data._names import DEFAULT_SEED
from accord.errors import DataError, InsufficientDataError
from accord.inference.display import Tabular
from accord.inference.resampling import FloatArray, Resampling
from accord.inference.results import AgreementResult, _jsonable
from accord.judge import _figures as fig
from accord.judge import _logistic

__all__ = ["Bin", "JudgeCalibration", "Recalibration", "judge_calibration"]

Method = Literal["isotonic", "platt"]


@dataclass(frozen=True)
class Bin:
    """One bin of the reliability diagram: ``[low, high)`` (the last one closed)."""

    low: float
    high: float
    n: int
    mean_score: float
    observed_rate: float


@dataclass(frozen=True)
class Recalibration:
    """A recalibration map fitted on one split and scored on the other.

    ``brier_before``/``brier_after`` and ``ece_before``/``ece_after`` are on the
    check split only; ``knots`` is the fitted map: (score, recalibrated) points for
    isotonic (linear in between, constant outside), (intercept, slope) for Platt.
    """

    method: str
    n_fit: int
    n_check: int
    brier_before: AgreementResult
    brier_after: AgreementResult
    ece_before: AgreementResult
    ece_after: AgreementResult
    knots: tuple[tuple[float, float], ...]

    def apply(self, scores: Any) -> FloatArray:
        """The recalibrated probabilities of new scores."""
        return apply_map(self.method, self.knots, np.asarray(scores, dtype=np.float64))


def apply_map(method: str, knots: tuple[tuple[float, float], ...], s: FloatArray) -> FloatArray:
    """Isotonic: linear between knots, constant outside; Platt: the logistic curve."""
    if method == "platt":
        (a, b), = knots
        return np.asarray(1.0 / (1.0 + np.exp(-(a + b * s))), dtype=np.float64)
    xs, ys = (np.asarray(c, dtype=np.float64) for c in zip(*knots))
    return np.asarray(np.interp(s, xs, ys), dtype=np.float64)


@dataclass(frozen=True)
class JudgeCalibration(Tabular):
    """Brier score, ECE, the reliability diagram's bins and a split-sample recalibration."""

    brier: AgreementResult
    ece: AgreementResult
    bins: tuple[Bin, ...]
    recalibration: Recalibration | None

    def sentence(self, confidence_level: float = 0.95) -> str:
        """One sentence: Brier score, ECE and what recalibration did on held-out items."""
        from .sentences import calibration_sentence

        return calibration_sentence(self, confidence_level)

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready mapping; each figure with its interval at ``confidence_level``."""
        rec = self.recalibration
        level = confidence_level
        return {
            "brier": self.brier.to_dict(level), "ece": self.ece.to_dict(level),
            "bins": [{k: _jsonable(getattr(b, k)) for k in b.__dataclass_fields__}
                     for b in self.bins],
            "recalibration": None if rec is None else {
                "method": rec.method, "n_fit": rec.n_fit, "n_check": rec.n_check,
                **{k: getattr(rec, k).to_dict(level) for k in
                   ("brier_before", "brier_after", "ece_before", "ece_after")}},
        }


def judge_calibration(
    scores: Any,
    human_labels: Any,
    *,
    n_bins: int = 10,
    recalibrate: Method | None = "isotonic",
    fit_share: float = 0.5,
    rng: int | np.random.Generator | None = DEFAULT_SEED,
) -> JudgeCalibration:
    """How well a judge's probabilities match the humans' labels, and a recalibration.

    Parameters
    ----------
    scores : sequence of float in [0, 1]
        The judge's probability (or normalised score) that each item is positive.
    human_labels : sequence of 0/1 (or bool)
        The humans' label of each item.
    n_bins : int
        Equal-width bins of the ECE and the reliability diagram.
    recalibrate : {"isotonic", "platt"} or None
        The map fitted on ``fit_share`` of the items (drawn with ``rng``) and scored
        on the rest; ``None`` skips it.
    fit_share : float
        Share of items in the fit split, in (0, 1).
    rng : int, Generator or None
        The random split (default ``accord.data._names.DEFAULT_SEED``, 0: the same split on
        every run; ``None`` draws fresh entropy).

    Returns
    -------
    JudgeCalibration

    Raises
    ------
    DataError
        A score outside [0, 1] or missing; a label that is not 0/1; lengths that differ;
        a split in which the human labels are all of one class.

    Examples
    --------
    >>> import accord
    >>> cal = accord.judge_calibration([0.9, 0.8, 0.3, 0.2, 0.6, 0.1],
    ...                                [1, 1, 0, 0, 0, 0], recalibrate=None)
    >>> round(cal.brier.estimate, 6), round(cal.ece.estimate, 6)
    (0.091667, 0.25)
    """
    func = "judge_calibration"
    s, y = _inputs(scores, human_labels, func)
    v.positive_int(n_bins, param="n_bins", func=func)
    bins = _bin_index(s, n_bins)
    brier = fig.ratio("brier", (s - y) ** 2, np.ones(s.size), reason_if_empty="no item",
                      details={"n_positive": int(y.sum())})
    ece = expected_calibration_error(s, y, bins, n_bins)
    diagram = _diagram(s, y, bins, n_bins)
    rec = None
    if recalibrate is not None:
        v.choice(recalibrate, ("isotonic", "platt"), param="recalibrate", func=func)
        rec = _recalibrate(s, y, n_bins, recalibrate, fit_share, rng, func)
    return JudgeCalibration(brier, ece, diagram, rec)


def expected_calibration_error(s: FloatArray, y: FloatArray, bins: NDArray[np.int64],
                               n_bins: int) -> AgreementResult:
    """ECE from per-bin sums: features per item are (bin one-hot) x (y - s), and 1.

    The jackknife needs only the per-bin sums: leaving item ``i`` out changes its own
    bin's sum ``S_b`` to ``S_b - d_i``, so every leave-one-out value is O(1).
    """
    d = y - s
    sums = np.bincount(bins, weights=d, minlength=n_bins)
    n = s.size
    est = float(np.abs(sums).sum() / n)
    se = math.nan
    if n >= 2:
        loo = (np.abs(sums).sum() - np.abs(sums[bins]) + np.abs(sums[bins] - d)) / (n - 1)
        se = math.sqrt((n - 1) / n * float(np.sum((loo - loo.mean()) ** 2)))

    def statistic(total: FloatArray) -> FloatArray:
        m = total[:, -1]
        return np.where(m > 0, np.abs(total[:, :-1]).sum(axis=1) / np.where(m > 0, m, 1),
                        np.nan)

    def resampling() -> Resampling:
        # scores are mostly distinct: one pattern per item (deduplicating rows costs a sort)
        features = np.zeros((n, n_bins + 1))
        features[np.arange(n), bins] = d
        features[:, n_bins] = 1.0
        return Resampling(features, np.ones(n, dtype=np.int64), statistic,
                          unit_patterns=np.arange(n, dtype=np.int64))

    return AgreementResult(
        coefficient="ece", estimate=est, observed=math.nan, expected=math.nan, se=se,
        n_units=int(n), n_raters=2, details={"n_bins": n_bins, "se_method": "jackknife"},
        bounds=(0.0, 1.0), resampling=resampling, terms=("", ""))


def _inputs(scores: Any, labels: Any, func: str) -> tuple[FloatArray, FloatArray]:
    try:
        s = np.asarray(scores, dtype=np.float64).ravel()
        y = np.asarray(labels, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise DataError(f"{func} needs numeric scores and 0/1 human labels.") from None
    if s.size != y.size:
        raise DataError(f"{func} got {s.size} scores and {y.size} human labels; give one "
                        "label per score.")
    bad = np.flatnonzero(~((s >= 0) & (s <= 1)))
    if bad.size:
        raise DataError(f"{func}: {bad.size} score(s) lie outside [0, 1] or are missing (e.g. "
                        f"{float(s[bad[0]])!r} at position {int(bad[0])}); scores are "
                        "probabilities.")
    bad = np.flatnonzero((y != 0) & (y != 1))
    if bad.size:
        raise DataError(f"{func}: {bad.size} human label(s) are not 0 or 1 (e.g. "
                        f"{float(y[bad[0]])!r} at position {int(bad[0])}).")
    if s.size == 0:
        raise InsufficientDataError(f"{func} needs at least one item.")
    return s, y


def _bin_index(s: FloatArray, n_bins: int) -> NDArray[np.int64]:
    """Bin ``b`` holds ``b / n_bins <= s < (b + 1) / n_bins`` (the last bin also 1.0),
    compared against the edges themselves: ``floor(s * n_bins)`` would put the double
    just below 0.9 in bin 9, as its product rounds up to 9.0."""
    edges = np.arange(1, n_bins, dtype=np.float64) / n_bins
    return np.searchsorted(edges, s, side="right").astype(np.int64)


def _diagram(s: FloatArray, y: FloatArray, bins: NDArray[np.int64], n_bins: int
             ) -> tuple[Bin, ...]:
    n = np.bincount(bins, minlength=n_bins)
    ss = np.bincount(bins, weights=s, minlength=n_bins)
    sy = np.bincount(bins, weights=y, minlength=n_bins)
    return tuple(Bin(b / n_bins, (b + 1) / n_bins, int(n[b]),
                     ss[b] / n[b] if n[b] else math.nan, sy[b] / n[b] if n[b] else math.nan)
                 for b in range(n_bins))


def _recalibrate(s: FloatArray, y: FloatArray, n_bins: int, method: str, share: float,
                 rng: int | np.random.Generator | None, func: str) -> Recalibration:
    if not (isinstance(share, float) and 0.0 < share < 1.0):
        raise v.fail("fit_share", func, "a share in (0, 1)", share)
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    order = gen.permutation(s.size)
    n_fit = int(round(share * s.size))
    fit_idx, check_idx = np.sort(order[:n_fit]), np.sort(order[n_fit:])
    for name, idx in (("fit", fit_idx), ("check", check_idx)):
        if idx.size == 0 or np.unique(y[idx]).size < 2:
            raise DataError(f"{func}: the {name} split of the recalibration ({idx.size} items) "
                            "holds human labels of one class only; give more items of each "
                            "class or recalibrate=None.")
    knots = isotonic_knots(s[fit_idx], y[fit_idx]) if method == "isotonic" else \
        platt_knots(s[fit_idx], y[fit_idx], func)
    sc, yc = s[check_idx], y[check_idx]
    after = np.clip(apply_map(method, knots, sc), 0.0, 1.0)
    one = np.ones(sc.size)
    return Recalibration(
        method, fit_idx.size, check_idx.size,
        fig.ratio("brier", (sc - yc) ** 2, one, reason_if_empty="no item"),
        fig.ratio("brier", (after - yc) ** 2, one, reason_if_empty="no item"),
        expected_calibration_error(sc, yc, _bin_index(sc, n_bins), n_bins),
        expected_calibration_error(after, yc, _bin_index(after, n_bins), n_bins),
        knots)


def isotonic_knots(s: FloatArray, y: FloatArray) -> tuple[tuple[float, float], ...]:
    """Isotonic fit of ``y`` on ``s``: tied scores are pooled first (as scikit-learn does).

    Only the ends of each constant block are kept as knots: linear interpolation
    between them gives the same map.
    """
    xs, inverse, counts = np.unique(s, return_inverse=True, return_counts=True)
    means = np.bincount(inverse, weights=y) / counts
    from scipy.optimize import isotonic_regression

    fitted = isotonic_regression(means, weights=counts.astype(np.float64)).x
    change = np.flatnonzero(np.diff(fitted) != 0)
    keep = np.unique(np.concatenate([[0, xs.size - 1], change, change + 1]))
    return tuple(zip(xs[keep].tolist(), fitted[keep].tolist()))


def platt_knots(s: FloatArray, y: FloatArray, func: str) -> tuple[tuple[float, float], ...]:
    """Maximum-likelihood logistic regression of ``y`` on ``s``: ((intercept, slope),)."""
    res = _logistic.fit(np.column_stack([np.ones(s.size), s]), y)
    if not res.converged:
        raise DataError(f"{func}: the scores separate the human labels of the fit split "
                        "perfectly, so Platt scaling has no finite fit; use "
                        "recalibrate='isotonic'.")
    return ((float(res.coef[0]), float(res.coef[1])),)
