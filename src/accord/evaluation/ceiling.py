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

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy import stats

from accord.compare import Comparison, compare
from accord.errors import DataError
from accord.evaluation._result import Evaluation
from accord.inference.bootstrap import Bootstrap
from accord.results import AgreementResult, _num

__all__ = ["Evaluations", "HumanCeiling", "McNemar", "mcnemar_exact"]

Outcome = Literal["near", "below", "above"]


@dataclass(frozen=True)
class HumanCeiling:
    """A system's figure against the reference beside each human annotator's.

    Attributes
    ----------
    figure : str
        The figure compared (a key of :meth:`Evaluation.results`, e.g. ``"accuracy"``).
    system : str
        The system's name.
    system_result : AgreementResult
        The system's figure on the units it shares with the reference.
    humans : mapping of str to AgreementResult
        Each human annotator's figure against the same reference, on those units.
    human_agreement : AgreementResult or None
        Percent agreement among the human annotators on those units (pairwise),
        when there are at least two.
    comparisons : mapping of str to Comparison
        The paired difference system minus each human (bootstrap over units).
    outcome : {"near", "below", "above"}
        ``"above"``: the system's estimate exceeds every human's; ``"below"``: every
        paired interval of the difference lies below 0; ``"near"`` otherwise.
    sentence : str
        The outcome in one sentence, with the figures.
    n_units : int
        Units the system and the reference both labelled.
    """

    figure: str
    system: str
    system_result: AgreementResult
    humans: Mapping[str, AgreementResult]
    human_agreement: AgreementResult | None
    comparisons: Mapping[str, Comparison]
    outcome: Outcome
    sentence: str
    n_units: int

    @property
    def human_range(self) -> tuple[float, float]:
        """The lowest and highest human estimate (nan when none is defined)."""
        est = [r.estimate for r in self.humans.values() if r.defined]
        return (min(est), max(est)) if est else (math.nan, math.nan)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        low, high = self.human_range
        return {
            "figure": self.figure, "system": self.system,
            "system_result": self.system_result.to_dict(),
            "humans": {str(h): r.to_dict() for h, r in self.humans.items()},
            "human_range": [_num(low), _num(high)],
            "human_agreement": None if self.human_agreement is None
            else self.human_agreement.to_dict(),
            "comparisons": {str(h): c.to_dict() for h, c in self.comparisons.items()},
            "outcome": self.outcome, "sentence": self.sentence, "n_units": self.n_units,
        }


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
    return float(min(1.0, 2.0 * stats.binom.cdf(min(b, c), b + c, 0.5)))


@dataclass(frozen=True)
class Evaluations(Mapping[str, "Evaluation"]):
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
def ceiling_for(
    system: str, system_result: AgreementResult, humans: Mapping[str, AgreementResult],
    human_agreement: AgreementResult | None, figure: str, method: Bootstrap,
) -> HumanCeiling:
    """Compare the system with each human and word the outcome."""
    comparisons = {h: compare(system_result, r, method=method)
                   for h, r in humans.items() if r.defined and system_result.defined}
    ceiling = HumanCeiling(figure, system, system_result, humans, human_agreement, comparisons,
                           "near", "", system_result.n_units)
    outcome, sentence = _words(ceiling, method)
    return HumanCeiling(figure, system, system_result, humans, human_agreement, comparisons,
                        outcome, sentence, system_result.n_units)


def _words(c: HumanCeiling, method: Bootstrap) -> tuple[Outcome, str]:
    res, (low, high) = c.system_result, c.human_range
    name = c.figure.replace("_", " ").replace(".", " ")
    if not res.defined or not math.isfinite(low):
        return "near", (f"{c.system}'s {name} cannot be set against the human annotators "
                        f"on these {c.n_units} units: a figure is undefined")
    # a figure without an analytic SE (span F1) takes the bootstrap of the comparisons
    ci = (res.confidence_interval(0.95) if math.isfinite(res.se)
          else res.confidence_interval(0.95, method=method))
    head = (f"{c.system}'s {name} ({res.estimate:.2f}, 95% CI {ci.low:.2f}-{ci.high:.2f})")
    span = f"{low:.2f}" if low == high else f"{low:.2f}-{high:.2f}"
    tail = f"on these {c.n_units} units"
    if res.estimate > high:
        return "above", (f"{head} is above every human annotator against the same reference "
                         f"({span}): the reference itself may be the limit {tail}")
    diffs = list(c.comparisons.values())
    if diffs and all(d.interval.high < 0 for d in diffs):
        return "below", (f"{head} is clearly below the human annotators against the same "
                         f"reference ({span}; every paired 95% interval of the difference lies "
                         f"below 0) {tail}")
    where = ("lies within" if low <= res.estimate else "is not clearly below")
    return "near", (f"{head} {where} the human annotators' range against the same reference "
                    f"({span}): near the human ceiling {tail}")
