"""The span report's unitizing part: Krippendorff's alpha_U and Mathet's gamma, each with
the sentence that says what it counts and when to prefer it.

Built from :func:`accord.unitizing_alpha` and :func:`accord.gamma`; gamma aligns every
document and 30 sampled continua, so the report computes it only up to
:data:`GAMMA_BUDGET` spans and says so on its first screen when it leaves it out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from accord.data.annotations import Annotations
from accord.inference import Bootstrap

__all__ = ["GAMMA_BUDGET", "SENTENCES", "UnitizingRow", "UnitizingSection", "unitizing_section"]

#: the most spans the report aligns for gamma (``accord spans --coefficient gamma`` has none)
GAMMA_BUDGET = 20_000
#: what each counts and when to prefer it, in one sentence
SENTENCES = {
    "unitizing_alpha": "alpha_U (Krippendorff) counts, label by label, the stretches of text "
    "the raters' spans cover differently, against chance: prefer it when one rater's spans "
    "never overlap and their exact extent is what matters.",
    "gamma": "gamma (Mathet) aligns each rater's units one to one (or to nothing) and weighs "
    "how far the aligned units' positions and labels differ, against continua drawn at "
    "random: prefer it when units may overlap or nest, or a near miss of the boundaries "
    "should count as partial agreement.",
}


@dataclass(frozen=True)
class UnitizingRow:
    """One coefficient: its estimate, interval (``nan`` limits when none) and sentence."""

    coefficient: str
    estimate: float
    ci_low: float
    ci_high: float
    method: str
    undefined_reason: str | None
    sentence: str
    details: dict[str, Any]


@dataclass(frozen=True)
class UnitizingSection:
    """alpha_U and gamma (gamma left out past the budget, ``left_out`` saying why)."""

    rows: tuple[UnitizingRow, ...]
    left_out: str | None

    def to_dict(self, confidence_level: float) -> dict[str, Any]:
        def row(r: UnitizingRow) -> dict[str, Any]:
            ci = None if not r.method else {"low": _num(r.ci_low), "high": _num(r.ci_high),
                                            "confidence_level": confidence_level,
                                            "method": r.method}  # fmt: skip
            return {"coefficient": r.coefficient, "estimate": _num(r.estimate), "se": None,
                    "confidence_interval": ci, "undefined_reason": r.undefined_reason,
                    "interpretation": None, "sentence": r.sentence, "details": r.details}

        return {"results": [row(r) for r in self.rows], "left_out": self.left_out}


def unitizing_section(ann: Annotations, raters: list[str] | None, confidence_level: float,
                      boot: Bootstrap, seed: int | None) -> UnitizingSection:  # fmt: skip
    """alpha_U always; gamma when the chosen raters' spans are at most GAMMA_BUDGET. A
    coefficient the data do not allow (alpha_U on discontinuous spans, say) is a row with
    its reason."""
    table = ann.spans
    assert table is not None
    spans = [s for s in table if raters is None or s.rater in raters]
    rows = [_guarded("unitizing_alpha", lambda: _alpha_u(ann, raters))]
    if len(spans) > GAMMA_BUDGET:
        return UnitizingSection(tuple(rows), f"gamma left out: {len(spans):,} spans, over the "
                                f"report's budget of {GAMMA_BUDGET:,}; accord spans "
                                "--coefficient gamma computes it.")  # fmt: skip
    rows.append(_guarded("gamma", lambda: _gamma(spans, confidence_level, boot, seed)))
    return UnitizingSection(tuple(rows), None)


def _guarded(name: str, compute: Any) -> UnitizingRow:
    import warnings

    from accord.errors import AccordError, DegenerateDataWarning

    try:
        with warnings.catch_warnings():  # an undefined figure says why in its row
            warnings.simplefilter("ignore", DegenerateDataWarning)
            return compute()
    except AccordError as exc:
        return UnitizingRow(name, math.nan, math.nan, math.nan, "", str(exc), SENTENCES[name], {})


def _alpha_u(ann: Annotations, raters: list[str] | None) -> UnitizingRow:
    from accord.spans import unitizing_alpha

    res = unitizing_alpha(ann, raters=raters)
    return UnitizingRow("unitizing_alpha", res.estimate, math.nan, math.nan, "",
                        res.undefined_reason, SENTENCES["unitizing_alpha"],
                        {"observed_disagreement": _num(res.observed),
                         "expected_disagreement": _num(res.expected)})  # fmt: skip


def _gamma(spans: list[Any], confidence_level: float, boot: Bootstrap,
           seed: int | None) -> UnitizingRow:  # fmt: skip
    from accord.spans import gamma

    cols = {"doc": [s.unit for s in spans], "annotator": [str(s.rater) for s in spans],
            "label": [str(s.label) for s in spans], "start": [s.start for s in spans],
            "end": [s.end for s in spans]}  # fmt: skip
    res = gamma(cols, rng=0 if seed is None else seed)
    ci = res.confidence_interval(confidence_level, method=boot)
    d = res.details
    return UnitizingRow("gamma", res.estimate, ci.low, ci.high, ci.method, None,
                        SENTENCES["gamma"],
                        {"gamma_cat": d["gamma_cat"],
                         "expected_disorder_se": d["expected_disorder_se"],
                         "n_samples": d["n_samples"]})  # fmt: skip


def unitizing_cells(u: UnitizingSection) -> list[list[str]]:
    """The rows as text: coefficient, estimate, interval, and what else it says."""
    out = []
    for r in u.rows:
        ci = (f"{_f(r.ci_low)} to {_f(r.ci_high)}" if r.method
              else "none (D_e is not a sum over units)" if r.coefficient == "unitizing_alpha"
              else "none")  # fmt: skip
        extra = (f"gamma-cat {_f(r.details['gamma_cat'])}; Monte-Carlo SE of D_e "
                 f"{_f(r.details['expected_disorder_se'])}" if "gamma_cat" in r.details
                 else r.undefined_reason or "")  # fmt: skip
        out.append([r.coefficient, _f(r.estimate), ci, extra])
    return out


UNITIZING_HEAD = ["coefficient", "estimate", "interval", "also"]


def _f(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.4f}"


def _num(x: float) -> float | None:
    return None if not math.isfinite(x) else float(x)
