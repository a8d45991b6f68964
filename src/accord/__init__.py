"""accord: inter-annotator agreement, exact and honest.

Every coefficient returns an :class:`AgreementResult` with its estimate, the
observed and chance agreement behind it, a standard error where the literature
gives one, and ``confidence_interval()``.

>>> import accord
>>> res = accord.cohen_kappa(["yes", "no", "yes", "yes"], ["yes", "no", "no", "yes"])
>>> round(res.estimate, 3)
0.5
"""

from accord import datasets, distances
from accord.annotations import Annotations, Audit
from accord.coefficients import (
    REGISTRY,
    MultilabelAgreement,
    brennan_prediger,
    category_agreement,
    cohen_kappa,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    icc,
    kappa_max,
    krippendorff_alpha,
    light_kappa,
    multilabel_agreement,
    pabak,
    percent_agreement,
    scott_pi,
)
from accord.compare import Comparison, compare
from accord.diagnostics import label_distribution, leave_one_rater_out, unit_agreement
from accord.disagreements import disagreements
from accord.errors import (
    AccordError,
    DataError,
    DegenerateDataWarning,
    FormatError,
    UndeclaredOrderWarning,
)
from accord.inference import Bootstrap
from accord.interpretation import (
    SCALES,
    BenchmarkResult,
    Interpretation,
    Scale,
    benchmark,
    interpret,
)
from accord.multilabel_metrics import MultilabelEvaluation, evaluate_multilabel
from accord.pairwise import pairwise
from accord.planning import SamplePlan, plan_sample_size
from accord.readers import formats, read
from accord.report import Report, report
from accord.results import AgreementResult, ConfidenceInterval
from accord.study import Study, load_study
from accord.tables import CoincidenceMatrix, ContingencyTable, RaterCounts, RatingMatrix

__version__ = "0.1.0"

__all__ = [
    "REGISTRY",
    "SCALES",
    "AccordError",
    "AgreementResult",
    "Annotations",
    "Audit",
    "BenchmarkResult",
    "Bootstrap",
    "CoincidenceMatrix",
    "Comparison",
    "ConfidenceInterval",
    "ContingencyTable",
    "DataError",
    "DegenerateDataWarning",
    "FormatError",
    "Interpretation",
    "MultilabelAgreement",
    "MultilabelEvaluation",
    "RaterCounts",
    "RatingMatrix",
    "Report",
    "SamplePlan",
    "Scale",
    "Study",
    "UndeclaredOrderWarning",
    "__version__",
    "benchmark",
    "brennan_prediger",
    "category_agreement",
    "cohen_kappa",
    "compare",
    "conger_kappa",
    "datasets",
    "disagreements",
    "distances",
    "evaluate_multilabel",
    "fleiss_kappa",
    "formats",
    "gwet_ac1",
    "icc",
    "interpret",
    "kappa_max",
    "krippendorff_alpha",
    "label_distribution",
    "leave_one_rater_out",
    "light_kappa",
    "load_study",
    "multilabel_agreement",
    "pabak",
    "pairwise",
    "percent_agreement",
    "plan_sample_size",
    "read",
    "report",
    "scott_pi",
    "unit_agreement",
]
