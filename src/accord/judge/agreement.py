"""How far a judge agrees with humans, next to how far humans agree with each other.

Every figure is computed on the same units (rated by the judge and at least two
humans) with one coefficient, so the rows can be read side by side; the
differences come with paired bootstrap intervals (:func:`accord.compare`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from accord.coefficients._registry import REGISTRY
from accord.coefficients.pairwise import _shared_units, call_quietly, check_options
from accord.data import _validation as v
from accord.data.annotations import LEVELS, Annotations
from accord.inference.compare import CompareMethod, Comparison, compare
from accord.inference.display import Displayed
from accord.inference.results import AgreementResult, _jsonable
from accord.judge._consensus import consensus_pair, rated_by_panel
from accord.judge._panel import Panel, panel

__all__ = ["JudgeAgreement", "judge_agreement"]

@dataclass(frozen=True)
class JudgeAgreement(Displayed):
    """The judge against the humans, and the humans against each other.

    Attributes
    ----------
    coefficient : str
        Registry name of the coefficient used for every figure.
    judge : object
    humans : tuple
    level : str
        Level of measurement: the consensus is the majority label (nominal, ordinal;
        a tied unit has none) or the mean score (interval, ratio).
    n_units : int
        Units rated by the judge and at least two humans: the units of every figure.
    judge_vs_human : mapping
        ``human -> AgreementResult``: the judge against each human.
    judge_vs_consensus : AgreementResult
        The judge against the consensus of all the humans.
    judge_vs_others, human_vs_others : mapping
        ``human -> AgreementResult``: the judge, and that human, against the consensus
        of the *other* humans (leave one human out): the fair comparison.
    differences : mapping
        ``human -> Comparison``: ``judge_vs_others - human_vs_others`` with a paired
        bootstrap interval over units.
    panel_without_judge, panel_with_judge : AgreementResult or None
        The coefficient over the humans, and over the humans plus the judge (``None``
        for a coefficient of two raters only).
    panel_change : Comparison or None
        ``panel_with_judge - panel_without_judge``, paired over units.
    notes : tuple of str
        Units without a consensus, coefficients left out.
    """

    coefficient: str
    judge: Any
    humans: tuple[Any, ...]
    level: str
    n_units: int
    judge_vs_human: Mapping[Any, AgreementResult] = field(repr=False)
    judge_vs_consensus: AgreementResult = field(repr=False)
    judge_vs_others: Mapping[Any, AgreementResult] = field(repr=False)
    human_vs_others: Mapping[Any, AgreementResult] = field(repr=False)
    differences: Mapping[Any, Comparison] = field(repr=False)
    panel_without_judge: AgreementResult | None = field(repr=False)
    panel_with_judge: AgreementResult | None = field(repr=False)
    panel_change: Comparison | None = field(repr=False)
    notes: tuple[str, ...] = ()

    @property
    def ceiling(self) -> float:
        """Mean agreement of a human with the other humans' consensus (``nan`` if any is)."""
        return _mean(r.estimate for r in self.human_vs_others.values())

    @property
    def judge_level(self) -> float:
        """Mean agreement of the judge with the same consensuses (``nan`` if any is)."""
        return _mean(r.estimate for r in self.judge_vs_others.values())

    def rows(self) -> list[dict[str, Any]]:
        """One row per human: the judge and the human against the others, and the difference."""
        out = []
        for h in self.humans:
            d = self.differences[h]
            out.append({
                "human": h,
                "judge_vs_human": self.judge_vs_human[h].estimate,
                "judge_vs_others": self.judge_vs_others[h].estimate,
                "human_vs_others": self.human_vs_others[h].estimate,
                "difference": d.difference, "low": d.interval.low, "high": d.interval.high,
                "pvalue": d.pvalue,
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision; undefined numbers are ``None``. Each
        ``per_human`` row holds the three figures and the comparison (``difference`` with
        its paired bootstrap interval, ``first`` the judge, ``second`` the human)."""
        def opt(x: AgreementResult | Comparison | None) -> Any:
            return None if x is None else x.to_dict()
        return {
            "coefficient": self.coefficient, "judge": _jsonable(self.judge),
            "humans": [_jsonable(h) for h in self.humans], "level": self.level,
            "n_units": self.n_units, "ceiling": _jsonable(self.ceiling),
            "judge_level": _jsonable(self.judge_level),
            "per_human": [{k: _jsonable(row[k]) for k in ("human", "judge_vs_human",
                                                           "judge_vs_others",
                                                           "human_vs_others")}
                          | self.differences[row["human"]].to_dict() for row in self.rows()],
            "judge_vs_consensus": self.judge_vs_consensus.to_dict(),
            "panel_without_judge": opt(self.panel_without_judge),
            "panel_with_judge": opt(self.panel_with_judge),
            "panel_change": opt(self.panel_change), "notes": list(self.notes),
        }

    def __str__(self) -> str:
        lines = [f"{self.coefficient}, {self.n_units} units: judge {self.judge!r} vs the "
                 f"humans' consensus {_fmt(self.judge_vs_consensus.estimate)}; judge vs the "
                 f"others {_fmt(self.judge_level)}, a human vs the others "
                 f"{_fmt(self.ceiling)} (ceiling)"]
        for row in self.rows():
            lines.append(f"  {row['human']}: judge {_fmt(row['judge_vs_others'])}, human "
                         f"{_fmt(row['human_vs_others'])}, difference "
                         f"{_fmt(row['difference'])} [{_fmt(row['low'])}, {_fmt(row['high'])}]")
        return "\n".join(lines)


def judge_agreement(
    data: Any,
    *,
    judge: Any,
    humans: Sequence[Any] | None = None,
    coefficient: str | None = None,
    level: str | None = None,
    method: CompareMethod | None = None,
    confidence_level: float = 0.95,
    **options: Any,
) -> JudgeAgreement:
    r"""The judge against each human and the humans' consensus, next to the human ceiling.

    With :math:`C_{-h}` the consensus of the humans other than :math:`h` (majority
    label, or mean score), the fair comparison for human :math:`h` is

    .. math:: \Delta_h = A(J, C_{-h}) - A(h, C_{-h})

    where :math:`A` is the chosen coefficient: the judge and the left-out human
    are measured against the same reference on the same units, and
    :math:`\Delta_h` gets a paired bootstrap interval (units resampled together).
    The mean of :math:`A(h, C_{-h})` is the human ceiling. The coefficient over
    the panel with and without the judge shows whether adding the judge as one
    more annotator changes the panel's agreement.

    Parameters
    ----------
    data : Annotations or units x raters table
    judge : str
        The judge's rater name.
    humans : sequence of str, optional
        At least two humans. Default: every other rater of kind ``"human"``.
    coefficient : str, optional
        A name from :data:`accord.REGISTRY`. Default ``"krippendorff_alpha"`` at the
        level of measurement. Follow the level: Cohen's kappa, Gwet's AC1 or alpha
        for categories; weighted kappa (``weights="quadratic"``) or ordinal alpha for
        ordered ones; ``"icc"`` or interval alpha for scores.
    level : {"nominal", "ordinal", "interval", "ratio"}, optional
        Default: the data's declared level, else nominal (interval for ``"icc"``).
        Passed to Krippendorff's alpha; decides the consensus (majority or mean).
    method : Bootstrap or "jackknife", optional
        The paired interval of the differences (default ``Bootstrap()``, as in
        :func:`accord.compare`).
    confidence_level : float
        Coverage of the difference intervals.
    **options
        Passed to the coefficient, e.g. ``weights="quadratic"`` or ``form="ICC2"``.

    Returns
    -------
    JudgeAgreement

    Examples
    --------
    Four humans who each miss one unit in five, and a judge that gives the right label:

    >>> import accord
    >>> data = {"llm": ["x", "y", "x", "y", "x"] * 8,
    ...         "a":   ["y", "y", "x", "y", "x"] * 8,
    ...         "b":   ["x", "x", "x", "y", "x"] * 8,
    ...         "c":   ["x", "y", "y", "y", "x"] * 8,
    ...         "d":   ["x", "y", "x", "x", "x"] * 8}
    >>> res = accord.judge_agreement(data, judge="llm", coefficient="cohen_kappa",
    ...                              method=accord.Bootstrap(n_resamples=500, rng=1))
    >>> round(res.judge_vs_human["a"].estimate, 4), res.judge_vs_consensus.estimate
    (0.6154, 1.0)
    >>> round(res.ceiling, 4), res.judge_level  # a human against the other three; the judge
    (0.5804, 1.0)
    >>> d = res.differences["b"]
    >>> round(d.difference, 4), d.interval.low > 0
    (0.4545, True)
    """
    func = "judge_agreement"
    name = v.choice(coefficient or "krippendorff_alpha", sorted(REGISTRY),
                    param="coefficient", func=func)
    p = panel(data, judge, humans, func=func)
    lvl = _level(level, p.ann, name, func)
    opts = dict(options)
    if name == "krippendorff_alpha":
        opts.setdefault("level", lvl)
    check_options(name, opts, func)
    ann, codes = rated_by_panel(p, func)
    p = Panel(ann, p.judge, p.humans, codes)
    return _build(p, name, lvl, opts, method, confidence_level)


def _level(level: str | None, ann: Annotations, name: str, func: str) -> str:
    if level is not None:
        return str(v.choice(level, LEVELS, param="level", func=func))
    if ann.level is not None:
        return str(ann.level)
    return "interval" if name == "icc" else "nominal"


def _build(p: Panel, name: str, level: str, opts: dict[str, Any], method: CompareMethod | None,
           confidence_level: float) -> JudgeAgreement:
    coef = _Coefficient(name, opts)
    humans = list(range(1, len(p.humans) + 1))
    notes: list[str] = []
    ties: dict[str, int] = {}
    vs_human = {p.humans[i - 1]: coef(_shared_units(p.ann.select([p.judge, p.humans[i - 1]])))
                for i in humans}
    vs_all = coef(consensus_pair(p, 0, humans, level, ties))
    j_others, h_others, diffs = {}, {}, {}
    for i in humans:
        rest = [k for k in humans if k != i]
        h = p.humans[i - 1]
        j_others[h] = coef(consensus_pair(p, 0, rest, level, ties))
        h_others[h] = coef(consensus_pair(p, i, rest, level, ties))
        diffs[h] = _compare(j_others[h], h_others[h], method, confidence_level)
    if ties:
        shown = "; ".join(f"{n} among {who}" for who, n in ties.items())
        notes.append(f"units where the humans compared against are tied have no majority "
                     f"label and are left out of the rows that use it: {shown}.")
    without, with_, change = _panel_rows(p, coef, method, confidence_level, notes)
    return JudgeAgreement(
        name, p.judge, p.humans, level, p.ann.n_units, MappingProxyType(vs_human), vs_all,
        MappingProxyType(j_others), MappingProxyType(h_others), MappingProxyType(diffs),
        without, with_, change, tuple(dict.fromkeys(notes)),
    )


@dataclass(frozen=True)
class _Coefficient:
    name: str
    options: Mapping[str, Any]

    def __call__(self, ann: Annotations) -> AgreementResult:
        return call_quietly(REGISTRY[self.name].function, ann, self.options, self.name,
                            ann.n_raters)


def _panel_rows(p: Panel, coef: _Coefficient, method: CompareMethod | None,
                confidence_level: float, notes: list[str]) -> tuple[Any, Any, Any]:
    if REGISTRY[coef.name].raters != "many":
        notes.append(f"{coef.name} compares two raters only, so the panel's agreement with "
                     "and without the judge is not given; choose a many-rater coefficient.")
        return None, None, None
    without = coef(p.ann.select(list(p.humans)))
    with_ = coef(p.ann)
    return without, with_, _compare(with_, without, method, confidence_level)


def _compare(a: AgreementResult, b: AgreementResult, method: CompareMethod | None,
             confidence_level: float) -> Comparison:
    return compare(a, b, method=method, confidence_level=confidence_level)


def _mean(values: Any) -> float:
    xs = list(values)
    if not xs or not all(math.isfinite(x) for x in xs):
        return math.nan
    return float(np.mean(xs))


def _fmt(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"
