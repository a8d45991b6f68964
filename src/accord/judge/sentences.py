"""One plain sentence per judge-lab question, opening with the verdict, for reports.

Each result of the judge lab has a ``sentence(confidence_level=0.95)`` method that
calls the function here (``ppi_mean`` returns a plain ``AgreementResult``, so its
sentence is :func:`ppi_sentence`). Intervals are each figure's own default: the
analytic interval (Wilson, F-based, Fisher information) where the figure has one,
else the jackknife. Numbers are rounded here, for reading; the results keep full
precision.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

from accord.data import _validation as v
from accord.inference.results import AgreementResult, ConfidenceInterval

if TYPE_CHECKING:
    from .bradley_terry import BradleyTerryResult
    from .calibration import JudgeCalibration
    from .consistency import JudgeConsistency
    from .jury import JudgePanel
    from .preferences import PreferenceResult

__all__ = ["bias_sentence", "calibration_sentence", "consistency_sentence", "panel_sentence",
           "ppi_sentence", "ranking_sentence"]


def interval(res: AgreementResult, level: float) -> ConfidenceInterval:
    """The figure's default interval: analytic when it has one, else the jackknife."""
    method: Literal["asymptotic", "jackknife"] = (
        "asymptotic" if math.isfinite(res.se) or res.analytic_interval else "jackknife")
    return res.confidence_interval(level, method=method)


def _pct(res: AgreementResult, level: float) -> str:
    ci = interval(res, level)
    return f"{res.estimate:.0%} ({level:.0%} CI {ci.low:.0%} to {ci.high:.0%})"


def _num(res: AgreementResult, level: float, digits: int = 3) -> str:
    ci = interval(res, level)
    return (f"{res.estimate:.{digits}f} ({level:.0%} CI {ci.low:.{digits}f} to "
            f"{ci.high:.{digits}f})")


def _level(confidence_level: float) -> float:
    return v.confidence_level(confidence_level, func="sentence")


def bias_sentence(res: PreferenceResult, confidence_level: float = 0.95) -> str:
    """Whether the judge prefers longer outputs (and its own family's, when asked).

    Examples
    --------
    >>> import accord
    >>> rows = {"unit": list(range(12)), "rater": ["j"] * 12, "first": ["x", "y"] * 6,
    ...         "second": ["y", "x"] * 6, "verdict": ["A", "B", "A", "A", "B", "A"] * 2,
    ...         "len_1": [90, 20, 80, 30] * 3, "len_2": [30, 70, 10, 60] * 3}
    >>> p = accord.preferences(rows, judge="j", lengths=("len_1", "len_2"))
    >>> print(p.sentence())
    j shows no clear length preference: 50% of 12 decisive verdicts went to the longer output
    (95% CI 25% to 75%).
    """
    level = _level(confidence_level)
    lb = res.length_bias
    if lb is None or not lb.defined:
        parts = ["The length bias is undefined on these pairs" + (
            f" ({lb.undefined_reason})" if lb is not None and lb.undefined_reason else "")]
    else:
        ci = interval(lb, level)
        lean = ("prefers the longer output" if ci.low > 0.5 else "prefers the shorter output"
                if ci.high < 0.5 else "shows no clear length preference")
        parts = [f"{res.judge} {lean}: {lb.estimate:.0%} of {lb.expected:.0f} decisive verdicts "
                 f"went to the longer output ({level:.0%} CI {ci.low:.0%} to {ci.high:.0%})"]
        if res.length_bias_humans is not None and res.length_bias_humans.defined:
            parts.append(f"the humans, on the same pairs, {_pct(res.length_bias_humans, level)}")
    own = res.self_preference
    if own is not None and own.defined:
        parts.append(f"it picks its own family's output in {_pct(own, level)} of "
                     f"{own.expected:.0f} pairs against another family")
        if res.self_preference_humans is not None and res.self_preference_humans.defined:
            parts.append(f"the humans in {_pct(res.self_preference_humans, level)}")
    return "; ".join(parts) + "."


def consistency_sentence(res: JudgeConsistency, confidence_level: float = 0.95, *,
                         target: float = 0.9) -> str:
    """How reliable one run is, and how many runs reach ``target``.

    Examples
    --------
    >>> import accord
    >>> runs = [[4, 4, 5], [2, 3, 2], [5, 5, 5], [1, 2, 1], [3, 3, 4], [2, 2, 2]]
    >>> print(accord.judge_consistency(runs).sentence(target=0.95))
    One run has reliability (ICC(1,1)) 0.897 (95% CI 0.667 to 0.983); 3 run(s) reach 0.95; the
    runs disagree on 67% (95% CI 30% to 90%) of 6 items.
    """
    level = _level(confidence_level)
    need = res.runs_needed(target, confidence_level=level)
    icc = _num(res.icc, level) if res.icc.defined else "undefined"
    runs = (f"{need.details['runs']} run(s) reach {target:g}" if need.defined else
            f"no number of runs reaches {target:g}")
    flips = (f"the runs disagree on {_pct(res.flip_rate, level)} of {res.flip_rate.n_units} "
             "items") if res.flip_rate.defined else "the flip rate is undefined"
    return f"One run has reliability (ICC(1,1)) {icc}; {runs}; {flips}."


def calibration_sentence(res: JudgeCalibration, confidence_level: float = 0.95) -> str:
    """The Brier score and ECE, and what recalibration did on the held-out half.

    Examples
    --------
    >>> import accord
    >>> cal = accord.judge_calibration([0.9, 0.8, 0.3, 0.2, 0.7, 0.1] * 5, [1, 1, 0, 0, 0, 0] * 5,
    ...                                n_bins=5, recalibrate=None)
    >>> print(cal.sentence())
    Brier score 0.113 (95% CI 0.052 to 0.174), expected calibration error 0.267 (95% CI 0.192
    to 0.341).
    """
    level = _level(confidence_level)
    out = (f"Brier score {_num(res.brier, level)}, expected calibration error "
           f"{_num(res.ece, level)}")
    rec = res.recalibration
    if rec is not None and rec.ece_before.defined and rec.ece_after.defined:
        out += (f"; {rec.method} recalibration fitted on {rec.n_fit} items moves the ECE of the "
                f"other {rec.n_check} from {rec.ece_before.estimate:.3f} to "
                f"{rec.ece_after.estimate:.3f} (Brier {rec.brier_before.estimate:.3f} to "
                f"{rec.brier_after.estimate:.3f})")
    return out + "."


def ranking_sentence(res: BradleyTerryResult, confidence_level: float = 0.95, *,
                     method: Any = "asymptotic") -> str:
    """Who ranks first and by how much, with the order effect when fitted.

    Examples
    --------
    >>> import accord
    >>> bt = accord.bradley_terry([("a", "b", "a"), ("b", "a", "a"), ("a", "c", "c"),
    ...                            ("c", "b", "b"), ("b", "c", "c"), ("c", "a", "c")])
    >>> print(bt.sentence())
    c ranks first of 3 with log-strength 0.756 (95% CI -0.780 to 2.293), then a (0.000), b
    (-0.756); 6 comparisons.
    """
    level = _level(confidence_level)
    first = next(iter(res.strength.values()))
    if not first.defined:
        return f"The strengths are undefined: {first.undefined_reason}."
    order = res.ranking()
    top = res.strength[order[0]]
    ci = top.confidence_interval(level, method=method)
    tied = [i for i in order[1:] if top.estimate - res.strength[i].estimate <= 1e-9]
    after = order[1 + len(tied):4 + len(tied)]
    rest = ", ".join(f"{i} ({res.strength[i].estimate:.3f})" for i in after)
    left = len(order) - 1 - len(tied) - len(after)
    more = f" and {left} more" if left > 0 else ""
    who = (f"{order[0]} ranks first" if not tied else
           f"{', '.join(str(i) for i in order[:len(tied)])} and {order[len(tied)]} tie for first")
    then = f", then {rest}{more}" if after else ""
    out = (f"{who} of {len(order)} with log-strength {top.estimate:.3f} "
           f"({level:.0%} CI {ci.low:.3f} to {ci.high:.3f}){then}; "
           f"{res.n_comparisons} comparisons")
    if ci.n_excluded:
        out += f" ({ci.n_excluded} resamples with an infinite strength left out)"
    if res.order_effect is not None and res.order_effect.defined:
        h = res.order_effect.confidence_interval(level, method=method)
        out += (f"; being shown first is worth {res.order_effect.estimate:.3f} log-odds "
                f"({h.low:.3f} to {h.high:.3f})")
    return out + "."


def ppi_sentence(res: AgreementResult, confidence_level: float = 0.95) -> str:
    """The corrected rate of :func:`accord.ppi_mean`, against the judge and humans alone.

    Examples
    --------
    >>> import accord
    >>> est = accord.ppi_mean([1, 0, 1, 1, 0, 1, 1, 1], [1, 0, 1, 0], [1, 0, 0, 0])
    >>> print(ppi_sentence(est))
    The corrected rate is 0.500 (95% CI -0.020 to 1.020); the judge alone says 0.750, the
    humans alone 0.250; the judge is worth 3 human labels here.
    """
    level = _level(confidence_level)
    if not res.defined:
        return f"The corrected rate is undefined: {res.undefined_reason}."
    worth = res.details.get("effective_n")
    tail = "" if worth is None else (
        f"; the judge is worth {worth:.0f} human labels here")
    return (f"The corrected rate is {_num(res, level)}; the judge alone says "
            f"{res.expected:.3f}, the humans alone {res.observed:.3f}{tail}.")


def panel_sentence(res: JudgePanel, confidence_level: float = 0.95) -> str:
    """Whether the panel passes the alternative annotator test, and its effective size."""
    level = _level(confidence_level)
    alt = res.alt_tests["panel"]  # jury.PANEL (jury imports this module: no import back)
    keff = (_num(res.effective_judges, level, 2) if res.effective_judges.defined
            else "an undefined number of")
    passed = [str(j) for j in res.judges if res.alt_tests[j].passed]
    alone = ("no judge passes alone" if not passed else
             f"{len(passed)} of {len(res.judges)} judges pass alone ({_and(passed)})")
    return (f"The {res.combine} panel of {len(res.judges)} judges "
            f"{'passes' if alt.passed else 'fails'} the alternative annotator test (winning "
            f"rate {alt.winning_rate:.2f}); {alone}; the judges are worth {keff} independent "
            "judges.")


def _and(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
