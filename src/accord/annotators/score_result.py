"""The :class:`ScoreConsensus` result: a score per unit, each annotator's bias and noise."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.inference._normal import norm_ppf
from accord.inference.display import Backend, Tabular, frame
from accord.inference.results import AgreementResult, _jsonable

__all__ = ["ScoreConsensus"]


@dataclass(frozen=True, eq=False)
class ScoreConsensus(Tabular):
    """The score inferred for each unit from a crowd's numeric ratings.

    Attributes
    ----------
    method : str
        ``"mean"``, ``"median"`` or ``"gaussian"``.
    units, raters : tuple
        Unit ids in the order of :attr:`estimates`; the annotators.
    estimates : (n_units,) array
        The score of each unit.
    se : (n_units,) array
        Its standard error: the posterior standard deviation for ``"gaussian"`` (given
        the fitted parameters), ``sd / sqrt(n)`` for ``"mean"``, ``nan`` for
        ``"median"`` and for a mean of one rating.
    n_ratings : (n_units,) array
    bias, noise : mapping
        ``annotator -> AgreementResult`` (see :func:`accord.score_consensus`).
    mu, tau : float
        The mean and standard deviation of the true scores (``"gaussian"``; else ``nan``).
    n_iter, log_likelihood, converged, last_change
        How the EM went (0, ``nan``, True, 0 for the summaries).
    notes : tuple of str
    """

    method: str
    units: tuple[Any, ...]
    raters: tuple[Any, ...]
    estimates: NDArray[np.float64] = field(repr=False)
    se: NDArray[np.float64] = field(repr=False)
    n_ratings: NDArray[np.int64] = field(repr=False)
    bias: Mapping[Any, AgreementResult] = field(repr=False)
    noise: Mapping[Any, AgreementResult] = field(repr=False)
    mu: float = math.nan
    tau: float = math.nan
    n_iter: int = 0
    log_likelihood: float = math.nan
    converged: bool = True
    last_change: float = 0.0
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for a in (self.estimates, self.se, self.n_ratings):
            a.flags.writeable = False
        object.__setattr__(self, "bias", MappingProxyType(dict(self.bias)))
        object.__setattr__(self, "noise", MappingProxyType(dict(self.noise)))

    @cached_property
    def labels(self) -> Mapping[Any, float]:
        """Unit id -> inferred score."""
        return MappingProxyType({u: float(x) for u, x in zip(self.units, self.estimates)})

    @property
    def single_rated(self) -> tuple[Any, ...]:
        """Units rated by one annotator only."""
        return tuple(self.units[i] for i in np.flatnonzero(self.n_ratings == 1))

    def intervals(self, confidence_level: float = 0.95
                  ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Per unit ``estimate -/+ z * se`` (normal quantile; ``nan`` where ``se`` is)."""
        level = v.confidence_level(confidence_level, func="intervals")
        z = float(norm_ppf(0.5 + level / 2.0))
        return self.estimates - z * self.se, self.estimates + z * self.se

    def rows(self, confidence_level: float = 0.95) -> list[dict[str, Any]]:
        """One mapping per unit, in unit order: unit, score, se, low, high, n_ratings
        (:meth:`to_dict` writes the interval as ``confidence_interval``)."""
        low, high = self.intervals(confidence_level)
        return [{"unit": u, "score": float(self.estimates[i]), "se": float(self.se[i]),
                 "low": float(low[i]), "high": float(high[i]),
                 "n_ratings": int(self.n_ratings[i])} for i, u in enumerate(self.units)]

    def to_frame(self, confidence_level: float = 0.95, *,
                 backend: Backend | None = None) -> Any:
        """A frame of :meth:`rows`, the interval as ``ci_low``/``ci_high``: pandas when
        installed, else polars (``backend`` chooses)."""
        return frame(self._frame_rows(confidence_level), backend=backend,
                     func="ScoreConsensus.to_frame")

    def _frame_rows(self, confidence_level: float = 0.95) -> list[dict[str, Any]]:
        return [{"unit": r["unit"], "score": r["score"], "se": r["se"], "ci_low": r["low"],
                 "ci_high": r["high"], "n_ratings": r["n_ratings"]}
                for r in self.rows(confidence_level)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision (undefined numbers are ``null``); the units
        under ``results``, the key ``accord consensus --json`` uses."""
        return {
            "method": self.method, "n_units": len(self.units),
            "mu": _jsonable(self.mu), "tau": _jsonable(self.tau), "n_iter": self.n_iter,
            "log_likelihood": _jsonable(self.log_likelihood), "converged": self.converged,
            "last_change": _jsonable(self.last_change), "notes": list(self.notes),
            "annotators": [{"name": _jsonable(r), "bias": self.bias[r].to_dict(),
                            "noise": self.noise[r].to_dict()} for r in self.raters],
            "results": [_unit(row) for row in self.rows()],
        }

    def sentence(self) -> str:
        """One sentence: the annotator who is furthest off, by bias and by noise."""
        defined = [r for r in self.raters if self.bias[r].defined]
        if not defined:
            return "No annotator's bias is defined."
        far = max(defined, key=lambda r: abs(self.bias[r].estimate))
        loud = max(defined, key=lambda r: self.noise[r].estimate)
        b, n = self.bias[far], self.noise[loud]
        return (f"{len(self.units)} units scored by {self.method}; {far} is the most biased "
                f"({b.estimate:+.3g} against the consensus, {b.details['n_ratings']} ratings) "
                f"and {loud} the noisiest (SD {n.estimate:.3g}).")

    def __str__(self) -> str:
        fit = "" if self.method != "gaussian" else (
            f", {self.n_iter} iterations{'' if self.converged else ' (not converged)'}")
        return f"ScoreConsensus({self.method}: {len(self.units)} units{fit})"


def _unit(row: dict[str, Any]) -> dict[str, Any]:
    """A unit's row for JSON: its normal interval as ``confidence_interval``."""
    out = {k: _jsonable(x) for k, x in row.items() if k not in ("low", "high")}
    out["confidence_interval"] = {"low": _jsonable(row["low"]), "high": _jsonable(row["high"]),
                                  "confidence_level": 0.95, "method": "asymptotic"}
    return out
