"""The report model: plain, frozen data built from results; renderers only format it.

Every number is kept at full precision (``nan`` where undefined); every label,
rater name and unit id is kept as text exactly as read, and each renderer
escapes it for its medium. :func:`accord.report` builds a :class:`Report`;
``to_dict()``/``to_json()``, ``to_markdown()``, ``to_html()`` and the rich
console (``rich.print(report)``) render it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accord.report._notebook import Notebook

if TYPE_CHECKING:
    from accord.inference.results import AgreementResult
    from accord.interpret.interpretation import BenchmarkResult, Interpretation
    from accord.interpret.marginal import MarginalTest
    from accord.report.annotators_section import AnnotatorsSection
    from accord.report.groups_section import GroupsSection
    from accord.report.job import Job
    from accord.report.judge_lab_model import JudgeLabSection
    from accord.report.judge_section import JudgeSection
    from accord.report.multilabel_section import MultilabelSection
    from accord.report.shapes_section import ShapesSection
    from accord.report.spans_section import SpansSection
    from accord.study.protocol import Decision

#: The renderers by format ("dict", "json", "markdown", "html", "console", "save"), filled
#: in by :mod:`accord.report.output`: the model itself knows no output format.
RENDERERS: dict[str, Callable[..., Any]] = {}

#: The report document's version: the same number as every command's ``--json`` (raised
#: when a key is renamed or removed).
SCHEMA_VERSION = 3
SCHEMA_ID = "https://accord.invalid/schemas/report/3"

__all__ = [
    "SCHEMA_VERSION", "BootstrapSummary", "CategoryRow", "ClassRow", "CoefficientRow",
    "ConfusedPair", "DataSummary", "FigureRow", "KappaContext", "PairAnalysis",
    "RaterMatrix", "RaterRow", "ReferenceSection", "RegisterRow", "Report", "Settings",
    "StudySection", "SystemEvaluation", "UnitRow", "UnitsSection", "Worksheet",
]


@dataclass(frozen=True)
class DataSummary:
    """What the data hold, and what the reader dropped (from ``annotations.audit``)."""

    source: str
    n_units: int
    n_raters: int
    raters: tuple[str, ...]
    kinds: tuple[str, ...]
    categories: tuple[str, ...]
    category_counts: tuple[int, ...]
    level: str
    n_ratings: int
    rows_read: int
    dropped: tuple[tuple[str, int], ...]
    notes: tuple[str, ...]
    units_rated_once: int
    units_complete: int
    audit: tuple[str, ...]
    #: What was guessed (layout, columns, level) or dropped by a choice: first lines of
    #: every rendering.
    caveats: tuple[str, ...] = ()
    ratings_reader_used: int = -1
    """Ratings the reader kept (``audit.ratings_used``); more than ``n_ratings`` when
    raters or units were left out of the analysis afterwards (-1: not known)."""
    weights: str | None = None
    """The agreement weights applied (``None`` or ``"identity"``: none)."""
    label_sets: int = 0
    """Set-valued ratings (several labels per rating): the number of distinct label sets;
    ``categories`` are then the labels and ``category_counts`` the ratings giving each
    (0: one label per rating)."""

    @property
    def n_missing(self) -> int:
        """Ratings dropped as missing values."""
        return sum(n for why, n in self.dropped if why == "missing value")

    @property
    def n_skipped(self) -> int:
        """Records dropped for any other reason (skipped tasks, missing ids, ...)."""
        return sum(n for why, n in self.dropped if why != "missing value")


@dataclass(frozen=True)
class Settings:
    """How the report was computed."""

    confidence_level: float
    method: str
    n_resamples: int | None
    seed: int | None
    scale: str | None
    weights: str | None
    level: str | None


@dataclass(frozen=True)
class CoefficientRow:
    """One coefficient: estimate, SE, interval, interpretation and benchmark."""

    coefficient: str
    title: str
    citation: str
    chance_corrected: bool
    estimate: float
    se: float
    observed: float
    expected: float
    n_units: int
    n_raters: int
    ci_low: float
    ci_high: float
    confidence_level: float
    method: str
    n_excluded: int
    ci_note: str | None
    undefined_reason: str | None
    interpretation: Interpretation | None
    benchmark: BenchmarkResult | None
    details: Mapping[str, Any] = field(default_factory=dict)
    variant: str = ""
    """How the coefficient treated the scale: ``"quadratic weights"``, ``"ordinal"``,
    ``"unweighted"`` (on ordered data), or empty."""

    @property
    def defined(self) -> bool:
        """Whether the estimate is a number."""
        return self.undefined_reason is None and self.estimate == self.estimate

    @property
    def label(self) -> str:
        """The title with the variant, e.g. ``Cohen's kappa (quadratic weights)``."""
        from accord.inference.results import labelled

        return labelled(self.title, self.variant)


@dataclass(frozen=True)
class Worksheet:
    """The textbook worksheet of one rater pair: counts, totals, p_o, p_e, kappa.

    ``counts`` is empty when there are too many categories to show
    (``shown`` is then false; the figures are still given). ``p_o``, ``p_e`` and
    ``kappa`` are unweighted; with agreement ``weights`` the weighted figures of the
    same table are ``weighted_p_o``, ``weighted_p_e`` and ``weighted_kappa``.
    """

    raters: tuple[str, str]
    categories: tuple[str, ...]
    counts: tuple[tuple[float, ...], ...]
    row_totals: tuple[float, ...]
    col_totals: tuple[float, ...]
    n: float
    p_o: float
    p_e: float
    kappa: float
    kappa_undefined_reason: str | None
    shown: bool
    weights: str | None = None
    weighted_p_o: float = math.nan
    weighted_p_e: float = math.nan
    weighted_kappa: float = math.nan


@dataclass(frozen=True)
class KappaContext:
    """Why kappa can be low when agreement is high: the figures and the explanation.

    ``prevalence_index`` and ``bias_index`` are the signed Byrt, Bishop & Carlin
    (1993) indices of a 2 x 2 table (``nan`` otherwise); ``marginal_difference``
    is half the summed absolute difference of the raters' marginal proportions
    (equal to ``|bias_index|`` for 2 x 2). ``effects`` names what the
    explanation found (``"prevalence"``, ``"bias"``). ``bias_tests`` are the
    symmetry and marginal homogeneity tests of the table
    (:func:`accord.marginal_tests`), which test the bias the indices describe.
    """

    p_o: float
    p_e: float
    kappa: float
    pabak: float
    ac1: float
    kappa_max: float
    prevalence_index: float
    bias_index: float
    dominant_category: str | None
    dominant_share: float
    marginal_difference: float
    effects: tuple[str, ...]
    explanation: tuple[str, ...]
    bias_tests: tuple[MarginalTest, ...] = ()
    n: float = math.nan
    """The units of the table (rated by both raters): every figure here is on them."""


@dataclass(frozen=True)
class CategoryRow:
    """One category: one-vs-rest kappa (with its interval) and specific agreement."""

    category: str
    kappa: float
    ci_low: float
    ci_high: float
    positive_agreement: float
    negative_agreement: float
    n_rater1: float
    n_rater2: float
    n_both: float
    method: str = "asymptotic"  # of the interval


@dataclass(frozen=True)
class PairAnalysis:
    """Worksheet, kappa context and per-category agreement of one rater pair."""

    raters: tuple[str, str]
    reason: str
    worksheet: Worksheet
    context: KappaContext
    categories: tuple[CategoryRow, ...]


@dataclass(frozen=True)
class RaterRow:
    """One rater: how many units they rated, their label distribution, leave-one-out."""

    rater: str
    kind: str
    n_rated: int
    distribution: tuple[int, ...]
    leave_one_out: float


@dataclass(frozen=True)
class RaterMatrix:
    """The rater x rater matrix of a two-rater coefficient (diagonal ``nan``)."""

    coefficient: str
    raters: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]
    n: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class UnitRow:
    """A unit the raters disagree on, with every label (``None`` = not rated)."""

    unit: str
    labels: tuple[str | None, ...]
    n_ratings: int
    agreement: float
    context: tuple[str, ...] = ()
    """The unit's text and other context, one per :attr:`UnitsSection.context_columns`."""


@dataclass(frozen=True)
class UnitsSection:
    """The units with most disagreement (the first ``len(rows)`` of ``n_disagreements``)."""

    raters: tuple[str, ...]
    rows: tuple[UnitRow, ...]
    n_disagreements: int
    n_compared: int
    context_columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class BootstrapSummary:
    """The bootstrap distribution of the primary coefficient, as a histogram."""

    coefficient: str
    kind: str
    n_resamples: int
    n_excluded: int
    seed: int | None
    estimate: float
    ci_low: float
    ci_high: float
    confidence_level: float
    edges: tuple[float, ...]
    counts: tuple[int, ...]
    method: str = "bootstrap"  # of the interval (percentile, bca, ...)


@dataclass(frozen=True)
class RegisterRow:
    """One field of the evidence register: what was declared next to what the data showed.

    ``status`` is ``"ok"``, ``"mismatch"``, ``"warning"``, ``"declared"`` (nothing in
    the data can confirm it) or ``"not declared"``.
    """

    section: str
    item: str
    declared: str
    observed: str
    status: str


@dataclass(frozen=True)
class StudySection:
    """The declared protocol, the register, the decision and the disposition fields."""

    title: str | None
    source: str | None
    metric: str
    rule: str
    register: tuple[RegisterRow, ...]
    decision: Decision
    deviations: tuple[str, ...]
    disposition: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class FigureRow:
    """One classifier figure with its interval (``nan`` limits when there is none)."""

    name: str
    estimate: float
    ci_low: float
    ci_high: float
    method: str
    undefined_reason: str | None


@dataclass(frozen=True)
class ClassRow:
    """One class of a system against the reference."""

    label: str
    support: int
    precision: FigureRow
    recall: FigureRow
    f1: FigureRow


@dataclass(frozen=True)
class ConfusedPair:
    """An error of a system: ``count`` units of reference class ``reference`` labelled
    ``predicted``, with the first few of them (``examples``, in data order)."""

    reference: str
    predicted: str
    count: int
    examples: tuple[str, ...]


@dataclass(frozen=True)
class SystemEvaluation:
    """A system against the reference: confusion matrix (rows = reference), per-class
    figures, the summary, the baselines and the human ceiling (system first, then each
    human, on ``ceiling_figure``)."""

    system: str
    reference: str
    n_units: int
    n_unreferenced: int
    n_unpredicted: int
    confusion: Worksheet
    classes: tuple[ClassRow, ...]
    summary: tuple[FigureRow, ...]
    majority_class: str
    majority_accuracy: float
    chance_accuracy: float
    sentences: tuple[str, ...]
    ceiling_figure: str | None
    ceiling: tuple[FigureRow, ...]
    confused: tuple[ConfusedPair, ...] = ()
    """The most confused class pairs (most units first): the error analysis."""
    ceiling_outcome: str | None = None
    """``"above"``, ``"below"`` (every paired interval of the difference below 0) or
    ``"near"``: the human ceiling's own reading, which the verdict repeats."""


@dataclass(frozen=True)
class ReferenceSection:
    """Model against reference: every system (rater of kind model or llm) against the
    reference rater (kind gold), McNemar's test between systems as sentences."""

    reference: str
    humans: tuple[str, ...]
    systems: tuple[SystemEvaluation, ...]
    comparisons: tuple[str, ...]


@dataclass(frozen=True)
class Report(Notebook):
    """The agreement report: one model, several renderers.

    Attributes
    ----------
    title, headline : str
        The report's title and a one-sentence summary.
    data : DataSummary
    settings : Settings
    coefficients : tuple of CoefficientRow
    primary : str or None
        The coefficient the headline (and the study decision) is about.
    pairs : tuple of PairAnalysis  (the worksheets of the rater pairs that matter)
    raters : tuple of RaterRow
    loo_coefficient : str or None
        The coefficient recomputed without each rater (``None`` for two raters).
    matrix : RaterMatrix or None  (pairwise Cohen's kappa; ``None`` for two raters)
    units : UnitsSection
    bootstrap : BootstrapSummary or None
    study : StudySection or None
    notes : tuple of str
        Warnings met while computing (undefined coefficients, ...), as sentences.
    reference : ReferenceSection or None
        Model against reference (data with a rater of kind gold and of kind model or llm).
    results : tuple of AgreementResult
        The results behind the rows, for further use (not serialised).
    judge : JudgeSection or None
        An LLM judge against the humans (``accord.report(..., judge=...)``).
    spans, shapes : SpansSection, ShapesSection or None
        Agreement on spans (on boxes, polygons or keypoints), for data holding only those.
    multilabel : MultilabelSection or None
        Per-label and set agreement, when the ratings are sets of labels.
    job : Job or None
        The question the report answers (raters, a model against a reference, a judge,
        a study's decision, spans, shapes, label sets), its verdict and figure: every
        rendering opens with them.
    annotators : AnnotatorsSection or None
        Per-annotator quality against the consensus (3+ raters; no reference, judge, study).
    judge_lab : JudgeLabSection or None
        The judge lab's questions (``judge_lab=...`` or pairwise preferences): position, length,
        self-preference, ranking, calibration, consistency, PPI: a section each.
    groups : GroupsSection or None
        Each group's main figure, their chart and homogeneity test (``--by``), first.
    left_out : tuple of str
        Parts left out past their budget, one sentence each: shown first, kept in notes.
    """

    title: str
    headline: str
    accord_version: str
    data: DataSummary
    settings: Settings
    coefficients: tuple[CoefficientRow, ...]
    primary: str | None
    pairs: tuple[PairAnalysis, ...]
    raters: tuple[RaterRow, ...]
    loo_coefficient: str | None
    matrix: RaterMatrix | None
    units: UnitsSection
    bootstrap: BootstrapSummary | None
    study: StudySection | None
    notes: tuple[str, ...]
    reference: ReferenceSection | None = None
    results: tuple[AgreementResult, ...] = field(default=(), repr=False, compare=False)
    judge: JudgeSection | None = field(default=None, repr=False)
    spans: SpansSection | None = field(default=None, repr=False)
    multilabel: MultilabelSection | None = field(default=None, repr=False)
    job: Job | None = field(default=None, repr=False)
    annotators: AnnotatorsSection | None = field(default=None, repr=False)
    judge_lab: JudgeLabSection | None = field(default=None, repr=False)
    groups: GroupsSection | None = field(default=None, repr=False)
    shapes: ShapesSection | None = field(default=None, repr=False)
    left_out: tuple[str, ...] = field(default=(), repr=False)

    @property
    def decision(self) -> Decision | None:
        """The study decision, when a study was given."""
        return None if self.study is None else self.study.decision

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping following ``report/schema.json``, at full precision."""
        return dict(RENDERERS["dict"](self))

    def to_json(self, *, indent: int | None = 2) -> str:
        """The JSON document (``null`` for undefined numbers)."""
        return str(RENDERERS["json"](self, indent=indent))

    def to_markdown(self) -> str:
        """The report as Markdown (GitHub-flavoured tables); labels escaped."""
        return str(RENDERERS["markdown"](self))

    def to_html(self) -> str:
        """One self-contained HTML file: inline CSS and SVG plots, no network access."""
        return str(RENDERERS["html"](self))

    def __rich__(self) -> Any:
        return RENDERERS["console"](self)

    def save(self, path: str | Path, *, format: str | None = None) -> Path:
        """Write the report; the format is the suffix's (.html, .md, .json) or ``format``."""
        out: Path = RENDERERS["save"](self, Path(path), format)
        return out
