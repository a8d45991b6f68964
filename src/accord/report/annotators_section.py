"""The report's annotators section: who pulls agreement down, each with an interval.

Built from :func:`accord.annotators` (three or more raters, no reference): each
annotator's agreement with the consensus labels (with its interval) and with the
others (Cohen's kappa, pairs pooled), the flagged annotators first with their one
sentence. A crowd (more than ``MAX_SHOWN`` annotators) shows the flagged ones and
the most and least reliable few, with the counts (at most ``MAX_FLAGGED`` flagged
ones, the lowest first: ``accord annotators`` lists them all). The intervals are
Wilson's score intervals from each annotator's counts, the interval behind the
library's flags and ``accord annotators``, so the flag sentences and the table give
one figure. The consensus method is the report's choice (``annotators_method``,
``accord report --consensus-method``; Dawid-Skene by default) and the section says it;
the latent-class models (one-coin, Dawid-Skene, GLAD, MACE) add each annotator's
competence, majority vote and Wawa fit no model and say so. Given a model's class
probabilities (``annotators_model``, ``accord report --model``), the consensus takes the
model as one more annotator and the section gains "The model as an annotator" and
"Relabel these first" (:mod:`.model_voice_section`). The renderers show the same text
cells (:func:`cells`), each escaping them for its medium.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from accord.data.annotations import Annotations
from accord.report import model_voice_section as voice

__all__ = ["AnnotatorRow", "AnnotatorsSection", "annotators_section", "cells",
           "check_options"]

TITLE = "Annotators"
#: More annotators than this: only the flagged and the ``FEW`` most and least reliable.
MAX_SHOWN = 30
FEW = 3
#: A crowd's flagged annotators shown, at most (the lowest accuracy first).
MAX_FLAGGED = 10
#: From this many annotators on (a crowd) the section leads the report, before the data
#: and the coefficients: the consensus and the annotators to check come first.
LEADS_FROM = 10
METHOD_NAMES = {
    "majority": "majority vote", "wawa": "Wawa (majority weighted by agreement with it)",
    "one_coin": "one-coin Dawid-Skene", "dawid_skene": "Dawid-Skene (1979)",
    "glad": "GLAD (Whitehill et al. 2009)", "mace": "MACE (Hovy et al. 2013)",
}
METHODS_SHORT = {"majority": "Majority vote", "wawa": "Wawa"}
#: What each model's competence is (majority vote and Wawa fit no model: no entry).
COMPETENCE = {
    "one_coin": "the model's probability that their label is right",
    "dawid_skene": "the model's probability that their label is right",
    "glad": "GLAD's expertise alpha: 0 = guessing, larger is better",
    "mace": "MACE's probability that they know the label rather than guess",
}
#: Said when a consensus method is chosen for a report with no Annotators section.
UNUSED = ("The consensus method chosen for the Annotators section was not used: the "
          "section needs three or more raters of single categorical labels with no "
          "reference, judge or study.")
#: Said when a model is given for a report with no Annotators section.
UNUSED_MODEL = ("The model's probabilities were not used: they enter the consensus of the "
                "Annotators section, which needs three or more raters of single categorical "
                "labels with no reference, judge or study.")
#: The methods that ``accelerate`` speeds up (SQUAREM on the EM iterates).
ACCELERATED = ("one_coin", "dawid_skene")
#: The report's budget for an EM consensus, in passes over the ratings (iterations x
#: ratings; GLAD's M step makes more passes per iteration). Up to 10^7 ratings it is
#: the library's cap of 1,000 iterations; on the 45.6 M-rating crowd of the benchmarks
#: it is 219 iterations, where Dawid-Skene converges in 171 (each pass about 0.5 s of
#: CPU there, in two threads). A fit that reaches it stops, and the section says so on
#: the first screen: its consensus is the last iterate (``accord annotators`` and
#: ``accord.consensus`` fit to convergence).
EM_BUDGET = 10_000_000_000
#: The library's iteration cap (``accord.annotators(max_iter=)``).
MAX_ITER = 1000


@dataclass(frozen=True)
class AnnotatorRow:
    """One annotator's figures, at full precision (``nan`` where undefined): ``n_units``
    rated, ``consensus`` the share of the ``n_compared`` units with a consensus (or
    reference) label that they gave it, with its interval ``ci_low`` to ``ci_high``."""

    name: str
    n_units: int
    consensus: float
    ci_low: float
    ci_high: float
    kappa: float
    flag: str | None
    competence: float = math.nan
    n_compared: int = 0
    method: str = "wilson"  # of the interval

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (undefined numbers are ``None``)."""
        return {k: (None if isinstance(x, float) and not math.isfinite(x) else x)
                for k, x in self.__dict__.items()}


@dataclass(frozen=True)
class AnnotatorsSection:
    """Per-annotator quality against the consensus of the others.

    Attributes
    ----------
    method : str
        The consensus method (:func:`accord.consensus`).
    accelerate : bool
        Whether one-coin or Dawid-Skene was fitted with SQUAREM (``accelerate=True``).
    reference : str or None
        The rater of kind gold the annotators are measured against (on the units it
        labelled), taken out of the crowd; ``None``: against the consensus.
    n_annotators, n_flagged : int
    rows : tuple of AnnotatorRow
        The annotators shown: flagged first (lowest agreement first), then by agreement
        with the consensus, highest first (a crowd: at most ``MAX_FLAGGED`` flagged and
        the ``FEW`` most and least reliable).
    pool : float
        The share of all ratings that equal the consensus label.
    confidence_level : float
    notes : tuple of str
        The consensus's notes, and for majority vote and Wawa why there is no
        competence (each row's ``competence`` is then ``nan``).
    model : ModelVoiceSection or None
        With a model's probabilities: what the model got in the consensus and the units
        to relabel first (:mod:`.model_voice_section`).
    """

    method: str
    n_annotators: int
    n_flagged: int
    rows: tuple[AnnotatorRow, ...]
    pool: float
    confidence_level: float
    notes: tuple[str, ...] = ()
    accelerate: bool = False
    reference: str | None = None
    model: voice.ModelVoiceSection | None = None

    @property
    def leads(self) -> bool:
        """Whether the section leads the report (a crowd: ``LEADS_FROM`` annotators or more)."""
        return self.n_annotators >= LEADS_FROM

    @property
    def has_model(self) -> bool:
        """Whether the method fits a model of the annotators (a competence per annotator)."""
        return self.method in COMPETENCE

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision."""
        return {"method": self.method, "accelerate": self.accelerate,
                "against": "consensus" if self.reference is None else "reference",
                "reference": self.reference,
                "model_figures": self.has_model, "n_annotators": self.n_annotators,
                "n_flagged": self.n_flagged, "rows": [r.to_dict() for r in self.rows],
                "pool": self.pool if math.isfinite(self.pool) else None,
                "confidence_level": self.confidence_level, "notes": list(self.notes),
                **({} if self.model is None else {"model": self.model.to_dict()})}


def check_options(method: Any, accelerate: Any, func: str, model: Any = None) -> None:
    """The section's options, checked before any work (one sentence each); ``None`` is
    the default method. A model (its probabilities are read with the data) is refused
    for a method that takes none."""
    from accord.data import _validation as v

    if method is not None:
        from accord.annotators.consensus import METHODS

        v.choice(method, METHODS, param="annotators_method", func=func)
    if not isinstance(accelerate, bool):
        raise v.fail("annotators_accelerate", func, "True or False", accelerate)
    if model is not None:
        from accord.annotators._model import MODEL_METHODS
        from accord.errors import InvalidParameterError

        if (method or "dawid_skene") not in MODEL_METHODS:
            raise InvalidParameterError(
                f"{func}: annotators_method={method!r} (accord CLI: --consensus-method "
                f"{method}) takes no model; a model's probabilities are taken by "
                "'majority', 'wawa', 'one_coin', 'dawid_skene' and 'mace'.")


def annotators_section(ann: Annotations, confidence_level: float,
                       method: str = "dawid_skene", accelerate: bool = False,
                       reference: Any = None, model: Any = None) -> AnnotatorsSection:
    """Run :func:`accord.annotators` on ``ann`` (against the rater ``reference`` when
    given; with ``model``, a model's class probabilities, as one more annotator of the
    consensus) and keep what the report shows."""
    import warnings

    from accord.annotators.quality import annotators, display_order
    from accord.errors import ConvergenceWarning

    cap = max(1, min(MAX_ITER, EM_BUDGET // max(ann.n_ratings, 1)))
    with warnings.catch_warnings():
        if cap < MAX_ITER:  # stopping at the budget is said in the section, not warned
            warnings.simplefilter("ignore", ConvergenceWarning)
        q = annotators(ann, method=method,  # type: ignore[arg-type]
                       confidence_level=confidence_level, accelerate=accelerate,
                       reference=reference, max_iter=cap, model=model)
    flagged = list(q.flagged)  # the library's order
    rest = display_order(q)[len(flagged):]
    if len(q) > MAX_SHOWN:
        flagged = flagged[:MAX_FLAGGED]
        rest = rest[:FEW] + rest[-FEW:] if len(rest) > 2 * FEW else rest
    model = method in COMPETENCE
    rows = []
    for r in (*flagged, *rest):  # the flags' own interval (Wilson), so one figure
        ci = r.accuracy.confidence_interval(confidence_level)
        rows.append(AnnotatorRow(str(r.name), r.n_units, r.accuracy.estimate, ci.low,
                                 ci.high, r.agreement.estimate, r.flag,
                                 r.competence if model else math.nan, r.accuracy.n_units,
                                 ci.method))
    notes = tuple(q.consensus.notes) + (() if model else (_no_model(method),))
    if cap < MAX_ITER and not q.consensus.converged:
        notes += (_over_budget(q.consensus, ann.n_ratings),)
    part = (None if q.consensus.model is None
            else voice.model_voice_section(q.consensus, confidence_level))
    return AnnotatorsSection(method, len(q), len(q.flagged), tuple(rows), q.pool_accuracy,
                             confidence_level, notes, accelerate and method in ACCELERATED,
                             None if reference is None else str(reference), part)


def _no_model(method: str) -> str:
    name = METHODS_SHORT.get(method, method)
    return (f"{name} fits no model of the annotators, so the section has no competence and "
            "no confusion matrix per annotator: each is read by their agreement with the "
            "consensus and with the others. One-coin, Dawid-Skene, GLAD and MACE estimate "
            "them (accord annotators gives every annotator's confusion matrix).")


def cells(section: AnnotatorsSection) -> dict[str, Any]:
    """The lead sentence, the table and the notes as text."""
    level = f"{section.confidence_level * 100:g}%"
    name = METHOD_NAMES.get(section.method, section.method)
    fit = " (EM accelerated by SQUAREM)" if section.accelerate else ""
    ref = section.reference
    truth = "consensus label" if ref is None else "reference label"
    against = (f"the {name} consensus{fit} of all {section.n_annotators} annotators"
               if ref is None else
               f"the reference {ref!r} on the units it labelled (the consensus of the "
               f"{section.n_annotators} others, for their model figures: {name}{fit})")
    lead = (f"Each annotator against {against}: the share of their units given the {truth} "
            f"({level} Wilson interval) and Cohen's kappa with the others"
            f"{_competence(section.method)}; all ratings together give the {truth} "
            f"{_pct(section.pool)} of the time.")
    if section.n_flagged:
        lead += f" {section.n_flagged} flagged (interval below the pool's share), first."
    else:
        lead += " None is flagged (no interval lies below the pool's share)."
    if len(section.rows) < section.n_annotators:
        shown_flagged = sum(1 for r in section.rows if r.flag)
        which = ("the flagged ones" if shown_flagged == section.n_flagged else
                 f"the {shown_flagged} flagged ones lowest in agreement")
        lead += (f" Shown: {len(section.rows)} of {section.n_annotators} annotators, "
                 f"{which} and the {FEW} most and {FEW} least in agreement with the "
                 f"{'consensus' if ref is None else 'reference'} (accord annotators lists "
                 "them all).")
    model = section.has_model
    truth_of = "consensus" if ref is None else "reference"
    head = ["annotator", "units" if ref is None else "units with reference",
            f"agrees with {truth_of}", f"{level} CI",
            "kappa vs others", *(["competence"] if model else []), "flagged"]
    rows = [[r.name, str(r.n_units if ref is None else r.n_compared), _pct(r.consensus),
             f"{_pct(r.ci_low)} to {_pct(r.ci_high)}" if math.isfinite(r.ci_low) else "",
             _num(r.kappa), *([_num(r.competence)] if model else []),
             "yes" if r.flag else ""] for r in section.rows]
    flags = [r.flag for r in section.rows if r.flag]
    return {"lead": lead, "head": head, "rows": rows, "flags": flags,
            "notes": list(section.notes)}


def _competence(method: str) -> str:
    meaning = COMPETENCE.get(method)
    return "" if meaning is None else f", and their competence ({meaning})"


def _num(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"


def _pct(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{100 * x:.1f}%"


def html_section(section: AnnotatorsSection | None) -> str:
    """The section as HTML (empty when there is none)."""
    if section is None:
        return ""
    from accord.report._html import _table, e

    c = cells(section)
    return "".join([
        f'<section id="annotators"><h2>{TITLE}</h2><p>{e(c["lead"])}</p>',
        *(f'<p class="flag">{e(f)}</p>' for f in c["flags"]),
        _table(c["head"], c["rows"], [False, *[True] * (len(c["head"]) - 2), False]),
        voice.html_parts(section.model, _name(section)),
        *(f'<p class="note">{e(n)}</p>' for n in c["notes"]), "</section>"])


def markdown_lines(section: AnnotatorsSection | None) -> list[str]:
    """The section as Markdown lines (none when there is no section)."""
    if section is None:
        return []
    from accord.report._markdown import _table, escape

    c = cells(section)
    out = [f"## {TITLE}", "", escape(c["lead"]), ""]
    out += [f"- **flagged:** {escape(f)}" for f in c["flags"]] + ([""] if c["flags"] else [])
    out += _table([escape(h) for h in c["head"]],
                  [[escape(x) for x in row] for row in c["rows"]],
                  "l" + "r" * (len(c["head"]) - 2) + "l")
    out += voice.markdown_lines(section.model, _name(section))
    return out + [f"- {escape(n)}" for n in c["notes"]] + ([""] if c["notes"] else [])


def console_parts(section: AnnotatorsSection | None) -> list[Any]:
    """The lead, the flagged annotators' sentences, the table and the notes."""
    if section is None:
        return []
    from rich.text import Text

    from accord.report._rich_table import text_table

    c = cells(section)
    out: list[Any] = [Text(""), Text(TITLE, style="bold"), Text(c["lead"])]
    out += [Text(f"flagged: {f}", style="bold yellow") for f in c["flags"]]
    against = "the consensus" if section.reference is None else "the reference"
    out.append(text_table(f"{TITLE} against {against}", c["head"], c["rows"]))
    out += voice.console_parts(section.model, _name(section))
    return out + [Text(n, style="dim") for n in c["notes"]]


def _name(section: AnnotatorsSection) -> str:
    return METHOD_NAMES.get(section.method, section.method)


def _over_budget(cons: Any, n_ratings: int) -> str:
    """Why the consensus is an EM fit stopped before converging: the report's budget."""
    return (f"{METHOD_NAMES[cons.method]} stopped after {cons.n_iter} iterations, the "
            f"report's budget of {EM_BUDGET:,} passes over the ratings for {n_ratings:,} "
            f"ratings, before converging (the log-likelihood still moved by "
            f"{cons.last_change:.2g} per rating): the consensus is its last iterate; "
            "accord annotators fits it to convergence.")


def with_annotators(model: Any, ann: Annotations, method: str | None = None,
                    accelerate: bool = False, probabilities: Any = None) -> Any:
    """``model`` with the section (consensus by ``method``, default Dawid-Skene) when its
    job is the raters' and three or more annotators gave categorical labels with no
    reference, judge or study; data with no consensus to infer (one category in use) get
    a note saying why instead, and so does a method, ``accelerate`` or a model's
    ``probabilities`` given for a report with no such section. One rater of kind gold
    (``accord report --gold`` without ``--predicted``) is the reference the other
    annotators are measured against."""
    from dataclasses import replace

    ref = model.reference
    if (ann.n_raters < 3 or ann.set_valued or ann.level in ("interval", "ratio")
            or model.study is not None or model.judge is not None
            or (ref is not None and ref.systems)):
        if method is None and not accelerate and probabilities is None:
            return model
        unused = (() if method is None and not accelerate else (UNUSED,)) + (
            () if probabilities is None else (UNUSED_MODEL,))
        return replace(model, notes=(*model.notes, *unused))
    from accord.errors import BudgetError, InsufficientDataError

    s = model.settings
    try:
        section = annotators_section(ann, s.confidence_level, method or "dawid_skene",
                                     accelerate, _gold(ann), probabilities)
    except InsufficientDataError as exc:  # e.g. one category in use: said, not hidden
        return replace(model, notes=(*model.notes, f"No {TITLE} section: {exc}"))
    except BudgetError as exc:  # a k x k confusion per annotator at thousands of labels
        said = f"No {TITLE} section: {str(exc).removeprefix('annotators: ')}"
        return replace(model, notes=(*model.notes, said), left_out=(*model.left_out, said))
    return replace(model, annotators=section)


def _gold(ann: Annotations) -> Any:
    """The one rater of kind gold (the section needs three raters: it leaves two)."""
    golds = [r for r in ann.raters if ann.kinds.get(r) == "gold"]
    return golds[0] if len(golds) == 1 else None
