"""accord: inter-annotator agreement, exact and honest.

Every coefficient returns an :class:`AgreementResult` with its estimate, the
observed and chance agreement behind it, a standard error where the literature
gives one, and ``confidence_interval()``.

>>> import accord
>>> res = accord.cohen_kappa(["yes", "no", "yes", "yes"], ["yes", "no", "no", "yes"])
>>> round(res.estimate, 3)
0.5
"""

from accord import datasets
from accord.annotations import Annotations, Audit
from accord.coefficients import (
    REGISTRY,
    bangdiwala_b,
    brennan_prediger,
    category_agreement,
    cohen_kappa,
    conger_kappa,
    finn,
    fleiss_kappa,
    gwet_ac1,
    icc,
    janson_olsson_iota,
    kappa_max,
    kendall_w,
    krippendorff_alpha,
    light_kappa,
    mean_pearson,
    mean_spearman,
    pabak,
    percent_agreement,
    robinson_a,
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
from accord.marginal import (
    MarginalTest,
    bhapkar_test,
    bowker_test,
    marginal_tests,
    mcnemar_test,
    rater_bias,
    stuart_maxwell_test,
)
from accord.pairwise import pairwise
from accord.planning import SamplePlan, plan_sample_size
from accord.power import PowerPlan, plan_lower_limit, plan_power
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
    "MarginalTest",
    "PowerPlan",
    "RaterCounts",
    "RatingMatrix",
    "Report",
    "SamplePlan",
    "Scale",
    "Study",
    "UndeclaredOrderWarning",
    "__version__",
    "bangdiwala_b",
    "benchmark",
    "bhapkar_test",
    "bowker_test",
    "brennan_prediger",
    "category_agreement",
    "cohen_kappa",
    "compare",
    "conger_kappa",
    "datasets",
    "disagreements",
    "finn",
    "fleiss_kappa",
    "formats",
    "gwet_ac1",
    "icc",
    "interpret",
    "janson_olsson_iota",
    "kappa_max",
    "kendall_w",
    "krippendorff_alpha",
    "label_distribution",
    "leave_one_rater_out",
    "light_kappa",
    "load_study",
    "marginal_tests",
    "mcnemar_test",
    "mean_pearson",
    "mean_spearman",
    "pabak",
    "pairwise",
    "percent_agreement",
    "plan_lower_limit",
    "plan_power",
    "plan_sample_size",
    "rater_bias",
    "read",
    "report",
    "robinson_a",
    "scott_pi",
    "stuart_maxwell_test",
    "unit_agreement",
]
