"""The crowd report's model parts: "The model as an annotator" and "Relabel these first".

Given a model's class probabilities (``accord.report(..., annotators_model=P)``,
``accord report --model FILE``), the Annotators section's consensus takes the model as
one more annotator (:func:`accord.consensus`'s ``model=``, see
:mod:`accord.annotators._model`), and the section gains two parts:

* **The model as an annotator**: how it voted, the weight the fit gave its vote beside
  the median annotator's (:attr:`~accord.annotators.result.ModelVoice.weight`), its
  estimated accuracy with Wilson's interval over the units it scored
  (:attr:`~accord.annotators.result.ModelVoice.accuracy`), and its agreement with the
  consensus: the share of the units it voted on (scored, top probability not shared)
  whose consensus label is its top label, with Wilson's interval.
* **Relabel these first**: the ``SHOWN`` units of :meth:`Consensus.relabel
  <accord.annotators.result.Consensus.relabel>`, each with its reason (``accord
  consensus --relabel K`` lists more).

Both are built from the library's :class:`~accord.annotators.result.Consensus`, so the
report shows its figures; the renderers show the same text cells (:func:`cells`), each
escaping them for its medium.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["ModelVoiceSection", "RelabelRow", "Share", "model_voice_section"]

MODEL_TITLE = "The model as an annotator"
RELABEL_TITLE = "Relabel these first"
#: The units listed under "Relabel these first".
SHOWN = 10
#: What the weight of the model's vote is, by method.
WEIGHT_MEANING = {
    "majority": "majority vote learns no reliability, so the model breaks the crowd's ties "
                "only (a tied unit takes the tied label it puts most probability on, still "
                "listed as tied) and its vote has no weight",
    "wawa": "Wawa weighs its top label by its agreement with the majority, as each "
            "annotator's",
}
LOG_ODDS = ("the log-odds one vote adds for its label at the estimated accuracy; 0 is "
            "chance, negative below it")


@dataclass(frozen=True)
class Share:
    """A share with its Wilson interval, at full precision (``nan`` where undefined)."""

    estimate: float
    se: float
    ci_low: float
    ci_high: float
    n_units: int
    confidence_level: float
    method: str = "wilson"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: estimate, se, n_units and the ``confidence_interval``."""
        return {"estimate": _finite(self.estimate), "se": _finite(self.se),
                "n_units": self.n_units,
                "confidence_interval": {"low": _finite(self.ci_low),
                                        "high": _finite(self.ci_high),
                                        "confidence_level": self.confidence_level,
                                        "method": self.method}}


@dataclass(frozen=True)
class RelabelRow:
    """One unit to relabel: its consensus label and quality, the probabilities that one
    more label changes or confirms it, the expected information gain, and why."""

    unit: str
    label: str
    quality: float
    p_change: float
    p_confirm: float
    gain: float
    n_ratings: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (undefined numbers are ``None``)."""
        return {k: _finite(x) if isinstance(x, float) else x for k, x in self.__dict__.items()}


@dataclass(frozen=True)
class ModelVoiceSection:
    """What the model got in the consensus, and the units to relabel first.

    Attributes
    ----------
    method, vote : str
        The consensus method, and how the model voted (``"soft"``, ``"top label"``,
        ``"tie-break"`` or ``"weighted"``).
    n_units, n_units_crowd : int
        The units the model scored, of the crowd's.
    weight, crowd_weight : float
        The weight of its vote and the median annotator's
        (:attr:`~accord.annotators.result.ModelVoice.weight`).
    accuracy, agreement : Share
        Its estimated accuracy, and its agreement with the consensus, each with Wilson's
        interval.
    relabel_score : str or None
        The relabel ranking's score; ``None`` when the units are not ranked
        (``relabel_note`` says why).
    relabel_accuracy : float
        The accuracy assumed for the next annotator.
    relabel : tuple of RelabelRow
    """

    method: str
    vote: str
    n_units: int
    n_units_crowd: int
    weight: float
    crowd_weight: float
    accuracy: Share
    agreement: Share
    relabel_score: str | None
    relabel_accuracy: float
    relabel: tuple[RelabelRow, ...]
    relabel_note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the model's figures, and the units to relabel under ``relabel``."""
        return {"vote": self.vote, "n_units": self.n_units,
                "n_units_crowd": self.n_units_crowd, "weight": _finite(self.weight),
                "crowd_weight": _finite(self.crowd_weight),
                "accuracy": self.accuracy.to_dict(), "agreement": self.agreement.to_dict(),
                "relabel": {"score": self.relabel_score,
                            "accuracy": _finite(self.relabel_accuracy),
                            "note": self.relabel_note,
                            "results": [r.to_dict() for r in self.relabel]}}


def model_voice_section(c: Any, confidence_level: float) -> ModelVoiceSection:
    """The parts of consensus ``c`` (fitted with ``model=``) that the report shows."""
    voice = c.model
    ci = voice.accuracy.confidence_interval(confidence_level)
    accuracy = Share(voice.accuracy.estimate, voice.accuracy.se, ci.low, ci.high,
                     voice.n_units, confidence_level)
    score, assumed, rows, note = _relabel(c)
    return ModelVoiceSection(c.method, voice.vote, voice.n_units, len(c.units), voice.weight,
                             voice.crowd_weight, accuracy, _agreement(c, confidence_level),
                             score, assumed, rows, note)


def _agreement(c: Any, confidence_level: float) -> Share:
    """The share of the units the model voted on whose consensus label is its top label."""
    from accord.annotators._figures import proportion

    probs = np.asarray(c.soft)
    top = probs.max(axis=1, keepdims=True)
    voted = (probs.sum(axis=1) > 0) & ((probs == top).sum(axis=1) == 1)
    hits = float((probs.argmax(axis=1) == c.label_codes)[voted].sum())
    n = float(voted.sum())
    share = proportion("model_agreement", hits, n, details={}, per_category=None,
                       resampling=None)
    ci = share.confidence_interval(confidence_level)
    return Share(share.estimate, share.se, ci.low, ci.high, int(n), confidence_level)


def _relabel(c: Any) -> tuple[str | None, float, tuple[RelabelRow, ...], str | None]:
    """The ranked units, or why there are none (a vote counted without its ratings)."""
    if c.crowd is None and c.method in ("majority", "wawa"):
        return None, math.nan, (), (
            "The units are not ranked for relabelling: the consensus keeps no ratings to fit.")
    again = c.relabel(SHOWN)
    rows = tuple(RelabelRow(str(r["unit"]), str(r["label"]), r["quality"], r["p_change"],
                            r["p_confirm"], r["gain"], r["n_ratings"], r["reason"])
                 for r in again.rows())
    return again.score, again.accuracy, rows, None


def cells(section: ModelVoiceSection, method_name: str) -> dict[str, Any]:
    """The two parts' lead sentences and tables as text."""
    s = section
    level = f"{s.accuracy.confidence_level * 100:g}%"
    weight = WEIGHT_MEANING.get(s.method)
    if weight is None:
        said = (f"the fit gave its vote a weight of {_num(s.weight)}, against "
                f"{_num(s.crowd_weight)} for the median annotator ({LOG_ODDS})")
    elif s.method == "wawa":
        said = (f"{weight}: {_num(s.weight)}, against {_num(s.crowd_weight)} for the median "
                "annotator")
    else:
        said = weight
    role = ("as a tie-break" if s.vote == "tie-break" else
            f"as one more annotator ({s.vote} vote)")
    model_lead = (f"The model's probabilities entered the {method_name} consensus {role} on "
                  f"{s.n_units:,} of {s.n_units_crowd:,} units; {said}.")
    model_head = ["figure", "estimate", f"{level} CI (Wilson)", "units"]
    model_rows = [
        ["estimated accuracy", _pct(s.accuracy.estimate), _ci(s.accuracy),
         f"{s.accuracy.n_units:,}"],
        ["agrees with the consensus", _pct(s.agreement.estimate), _ci(s.agreement),
         f"{s.agreement.n_units:,}"],
        ["weight of its vote", _num(s.weight), "", ""],
        ["weight of the median annotator's", _num(s.crowd_weight), "", ""],
    ]
    if s.relabel_score is None:
        relabel_lead = s.relabel_note or ""
    else:
        relabel_lead = (f"The {len(s.relabel)} units to send for one more label first, by "
                        f"{s.relabel_score} (the next annotator taken to be right "
                        f"{_pct(s.relabel_accuracy)} of the time), each with its reason "
                        "(accord consensus --relabel K lists more).")
    relabel_head = ["unit", "label", "ratings", "reason"]
    relabel_rows = [[r.unit, r.label, str(r.n_ratings), r.reason] for r in s.relabel]
    return {"model_lead": model_lead, "model_head": model_head, "model_rows": model_rows,
            "relabel_lead": relabel_lead, "relabel_head": relabel_head,
            "relabel_rows": relabel_rows}


def html_parts(section: ModelVoiceSection | None, method_name: str) -> str:
    """The two parts as HTML (empty without a model)."""
    if section is None:
        return ""
    from accord.report._html import _table, e

    c = cells(section, method_name)
    out = [f'<h3 id="model-voice">{MODEL_TITLE}</h3><p>{e(c["model_lead"])}</p>',
           _table(c["model_head"], c["model_rows"], [False, True, True, True]),
           f'<h3 id="relabel">{RELABEL_TITLE}</h3><p>{e(c["relabel_lead"])}</p>']
    if c["relabel_rows"]:
        out.append(_table(c["relabel_head"], c["relabel_rows"],
                          [False, False, True, False]))
    return "".join(out)


def markdown_lines(section: ModelVoiceSection | None, method_name: str) -> list[str]:
    """The two parts as Markdown lines (none without a model)."""
    if section is None:
        return []
    from accord.report._markdown import _table, escape

    c = cells(section, method_name)
    out = [f"### {MODEL_TITLE}", "", escape(c["model_lead"]), ""]
    out += _table(c["model_head"], [[escape(x) for x in row] for row in c["model_rows"]],
                  "lrrr")
    out += [f"### {RELABEL_TITLE}", "", escape(c["relabel_lead"]), ""]
    if c["relabel_rows"]:
        out += _table(c["relabel_head"],
                      [[escape(x) for x in row] for row in c["relabel_rows"]], "llrl")
    return out


def console_parts(section: ModelVoiceSection | None, method_name: str) -> list[Any]:
    """The two parts for the console (none without a model)."""
    if section is None:
        return []
    from rich.text import Text

    from accord.report._rich_table import text_table

    c = cells(section, method_name)
    out: list[Any] = [Text(""), Text(MODEL_TITLE, style="bold"), Text(c["model_lead"]),
                      text_table("The model's figures", c["model_head"], c["model_rows"]),
                      Text(""), Text(RELABEL_TITLE, style="bold"), Text(c["relabel_lead"])]
    if c["relabel_rows"]:
        out.append(text_table("Units to relabel, best first", c["relabel_head"],
                              c["relabel_rows"]))
    return out


def _ci(share: Share) -> str:
    if not (math.isfinite(share.ci_low) and math.isfinite(share.ci_high)):
        return ""
    return f"{_pct(share.ci_low)} to {_pct(share.ci_high)}"


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def _num(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"


def _pct(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{100 * x:.1f}%"
