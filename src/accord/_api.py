"""Every public name of :mod:`accord`, imported at once.

``import accord`` does not import this module: :mod:`accord` imports the module of a
public name the first time it is used (``accord.cohen_kappa`` imports
:mod:`accord.coefficients` only; see ``accord._WHERE``), so that ``import accord``, the
command line and a first coefficient start without the readers, the report or
scipy.stats. This module names them all at once, for type checkers and for the test that
``_WHERE`` agrees with it. Add a public name here, to ``accord._WHERE`` and to
``accord.__all__``.
"""

from accord import datasets
from accord.annotators import (
    AnnotatorQuality,
    Annotators,
    Consensus,
    ScoreConsensus,
    annotators,
    consensus,
    score_consensus,
)
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
    distances,
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
)
from accord.coefficients.pairwise import pairwise
from accord.data.annotations import Annotations, Audit
from accord.errors import (
    AccordError,
    ConvergenceWarning,
    DataError,
    DegenerateDataWarning,
    FormatError,
    LayoutWarning,
    UndeclaredOrderWarning,
)
from accord.evaluation import Evaluation, Evaluations, evaluate
from accord.history import GroupedResult, Groups, groups
from accord.images import (
    BoxAgreement,
    BoxConsensus,
    BoxDetection,
    KeypointAgreement,
    KeypointConsensus,
    PolygonAgreement,
    PolygonConsensus,
    box_agreement,
    box_consensus,
    evaluate_boxes,
    keypoint_agreement,
    keypoint_consensus,
    polygon_agreement,
    polygon_consensus,
)
from accord.inference import Bootstrap
from accord.inference.compare import Comparison, compare
from accord.inference.homogeneity import HomogeneityTest, homogeneity
from accord.inference.results import AgreementResult, ConfidenceInterval
from accord.interpret.diagnostics import label_distribution, leave_one_rater_out, unit_agreement
from accord.interpret.disagreements import disagreements
from accord.interpret.interpretation import (
    SCALES,
    BenchmarkResult,
    Interpretation,
    Scale,
    benchmark,
    interpret,
)
from accord.interpret.marginal import (
    MarginalTest,
    bhapkar_test,
    bowker_test,
    marginal_tests,
    mcnemar_test,
    rater_bias,
    stuart_maxwell_test,
)
from accord.judge import (
    alt_test,
    bradley_terry,
    judge_agreement,
    judge_calibration,
    judge_consistency,
    judge_panel,
    ppi_mean,
    preferences,
)
from accord.multilabel.metrics import MultilabelEvaluation, evaluate_multilabel
from accord.readers import formats, read
from accord.report import Report, report
from accord.spans import (
    RelationAgreement,
    SpanAgreement,
    SpanEvaluation,
    evaluate_spans,
    gamma,
    relation_agreement,
    span_agreement,
    span_f1,
    token_agreement,
    token_annotations,
    unitizing_alpha,
)
from accord.study.planning import SamplePlan, plan_sample_size
from accord.study.power import PowerPlan, plan_lower_limit, plan_power
from accord.study.protocol import Study, load_study
from accord.tables import CoincidenceMatrix, ContingencyTable, RaterCounts, RatingMatrix
