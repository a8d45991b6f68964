"""Systems side by side: the human ceiling, McNemar's test and paired comparisons.

The human ceiling (the "upper bound" of Gale, Church & Yarowsky 1992,
Estimating upper and lower bounds on the performance of word-sense
disambiguation programs, ACL 1992, 249-256) puts a system's figure against the reference next to the
same figure for each human annotator against the same reference, on the same
units, and tests the difference system minus human with a paired bootstrap over
units (:func:`accord.compare`). Two systems on the same units are compared with
McNemar's (1947) exact test on the units exactly one of them gets right.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from accord.errors import DataError
from accord.evaluation._result import Evaluation
from accord.inference._distributions import binom_cdf
from accord.inference.bootstrap import Bootstrap
from accord.inference.ceiling import HumanCeiling
from accord.inference.compare import Comparison, compare
from accord.inference.display import Tabular
from accord.inference.results import AgreementResult

__all__ = ["Evaluations", "HumanCeiling", "McNemar", "mcnemar_exact"]

@dataclass(frozen=True)
class McNemar:
    """McNemar's exact test: do two systems differ in accuracy on the same units?

    ``b`` units are right under ``system_a`` only, ``c`` under ``system_b`` only;
    under the null each of the ``b + c`` discordant units is equally likely to
    go either way, so ``pvalue = min(1, 2 P(Binomial(b + c, 1/2) <= min(b, c)))``
    (McNemar 1947; the exact form as in statsmodels' ``mcnemar(exact=True)``).
    """

    system_a: str
    system_b: str
    b: int
    c: int
    n_units: int
    pvalue: float

    @property
    def statistic(self) -> int:
        """``min(b, c)``, the binomial test statistic."""
        return min(self.b, self.c)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {"system_a": self.system_a, "system_b": self.system_b, "b": self.b,
                "c": self.c, "n_units": self.n_units, "statistic": self.statistic,
                "pvalue": self.pvalue}


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts."""
    return float(min(1.0, 2.0 * binom_cdf(min(b, c), b + c, 0.5)))


@dataclass(frozen=True)
class Evaluations(Tabular, Mapping[str, "Evaluation"]):
    """One :class:`~accord.Evaluation` per system, against the same reference.

    A mapping from system name to its evaluation, with the tests that compare
    systems on the units they share.

    Attributes
    ----------
    reference : str
        The reference rater.
    humans : tuple of str
        Human annotators (not the reference, not a system) used for the ceiling.
    """

    evaluations: Mapping[str, Evaluation]
    reference: Any
    humans: tuple[Any, ...] = ()

    def __getitem__(self, system: str) -> Evaluation:
        try:
            return self.evaluations[system]
        except KeyError:
            raise DataError(f"no system {system!r}; the systems are "
                            f"{list(self.evaluations)!r}.") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.evaluations)

    def __len__(self) -> int:
        return len(self.evaluations)

    def mcnemar(self, system_a: str, system_b: str) -> McNemar:
        """McNemar's exact test of accuracy on the units both systems and the reference labelled.

        Examples
        --------
        >>> import accord
        >>> gold = ["y", "y", "n", "n", "y", "n", "y", "n", "y", "y"]
        >>> evs = accord.evaluate(gold, {"a": ["y", "y", "n", "n", "y", "n", "y", "n", "y", "n"],
        ...                              "b": ["n", "y", "y", "n", "n", "n", "y", "y", "y", "n"]})
        >>> t = evs.mcnemar("a", "b")
        >>> t.b, t.c, round(t.pvalue, 4)
        (4, 0, 0.125)
        """
        a, b = self._correct_on(system_a), self._correct_on(system_b)
        shared = sorted(set(a) & set(b), key=str)
        if not shared:
            raise DataError(f"{system_a!r} and {system_b!r} share no evaluated unit.")
        ra = np.array([a[u] for u in shared])
        rb = np.array([b[u] for u in shared])
        only_a, only_b = int(np.sum(ra & ~rb)), int(np.sum(~ra & rb))
        return McNemar(system_a, system_b, only_a, only_b, len(shared),
                       mcnemar_exact(only_a, only_b))

    def compare(self, system_a: str, system_b: str, figure: str = "macro.f1", *,
                method: Bootstrap | Literal["jackknife"] | None = None,
                confidence_level: float = 0.95) -> Comparison:
        """The paired difference of one figure between two systems (:func:`accord.compare`).

        ``figure`` is a key of :meth:`Evaluation.results`, e.g. ``"macro.f1"``,
        ``"kappa"`` or ``"per_class.spam.recall"``.
        """
        ra = _figure(self[system_a], figure)
        rb = _figure(self[system_b], figure)
        return compare(ra, rb, method=method, confidence_level=confidence_level)

    def _correct_on(self, system: str) -> dict[Any, bool]:
        """Whether the system got each evaluated unit right, by unit id."""
        table = self[system].table
        cells = table.unit_cells
        if cells is None:
            raise DataError(f"{system!r} was evaluated from a table without units; McNemar's "
                            "test needs the labels unit by unit.")
        ids = range(cells.shape[0]) if table.unit_ids is None else table.unit_ids
        right = (cells // table.k) == (cells % table.k)
        return dict(zip(ids, right.tolist()))

    def to_dict(self, confidence_level: float = 0.95, *, method: Bootstrap | str | None = None,
                bootstrap: Bootstrap | None = None) -> dict[str, Any]:
        """JSON-ready mapping: the reference, the humans, each system's evaluation and,
        for every pair of systems, McNemar's test."""
        names = list(self.evaluations)
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
        return {"reference": str(self.reference), "humans": [str(h) for h in self.humans],
                "systems": {str(s): ev.to_dict(confidence_level, method=method,
                                               bootstrap=bootstrap)
                            for s, ev in self.evaluations.items()},
                "mcnemar": [self._mcnemar_or_none(a, b) for a, b in pairs]}

    def _mcnemar_or_none(self, a: str, b: str) -> dict[str, Any]:
        try:
            return self.mcnemar(a, b).to_dict()
        except DataError as exc:
            return {"system_a": str(a), "system_b": str(b), "undefined_reason": str(exc)}

    def __str__(self) -> str:
        return "\n\n".join(str(ev) for ev in self.evaluations.values())


def _figure(ev: Evaluation, figure: str) -> AgreementResult:
    results = ev.results()
    if figure not in results:
        raise DataError(f"no figure {figure!r}; choose one of {sorted(results)[:12]!r} ...")
    out: AgreementResult = results[figure]
    return out


# --------------------------------------------------------------------------- the ceiling
