"""Every public name of :mod:`accord`, imported at once.

``import accord`` does not import this module: :mod:`accord` loads it the first time a
public name is used (``accord.cohen_kappa``), so that ``import accord`` and the command
line start without numpy and scipy. Add a public name here and to ``accord.__all__``.
"""

from accord import datasets, distances
from accord.annotations import Annotations, Audit
from accord.annotators import AnnotatorQuality, Annotators, Consensus, annotators, consensus
from accord.coefficients import (
    REGISTRY,
    MultilabelAgreement,
    accuracy,
    balanced_accuracy,
    bangdiwala_b,
    brennan_prediger,
    category_agreement,
    cohen_kappa,
    conger_kappa,
    f1,
    finn,
    fleiss_kappa,
    gwet_ac1,
    icc,
    janson_olsson_iota,
    kappa_max,
    kendall_w,
    krippendorff_alpha,
    light_kappa,
    mcc,
    mean_pearson,
    mean_spearman,
    multilabel_agreement,
    pabak,
    percent_agreement,
    precision,
    recall,
    robinson_a,
    scott_pi,
    span_f1,
)
from accord.compare import Comparison, compare
from accord.diagnostics import label_distribution, leave_one_rater_out, unit_agreement
from accord.disagreements import disagreements
from accord.errors import (
    AccordError,
    ConvergenceWarning,
    DataError,
    DegenerateDataWarning,
    FormatError,
    UndeclaredOrderWarning,
)
from accord.evaluation import Evaluation, Evaluations, evaluate
from accord.inference import Bootstrap
from accord.interpretation import (
    SCALES,
    BenchmarkResult,
    Interpretation,
    Scale,
    benchmark,
    interpret,
)
from accord.judge import alt_test, judge_agreement, preferences
from accord.marginal import (
    MarginalTest,
    bhapkar_test,
    bowker_test,
    marginal_tests,
    mcnemar_test,
    rater_bias,
    stuart_maxwell_test,
)
from accord.multilabel_metrics import MultilabelEvaluation, evaluate_multilabel
from accord.pairwise import pairwise
from accord.planning import SamplePlan, plan_sample_size
from accord.power import PowerPlan, plan_lower_limit, plan_power
from accord.readers import formats, read
from accord.report import Report, report
from accord.results import AgreementResult, ConfidenceInterval
from accord.spans import (
    SpanAgreement,
    SpanEvaluation,
    evaluate_spans,
    span_agreement,
    token_agreement,
    token_annotations,
    unitizing_alpha,
)
from accord.study import Study, load_study
from accord.tables import CoincidenceMatrix, ContingencyTable, RaterCounts, RatingMatrix
