"""Agreement coefficients; :data:`REGISTRY` lists every one by name."""

from accord.coefficients._registry import REGISTRY, CoefficientInfo, register
from accord.coefficients.intraclass import icc
from accord.coefficients.krippendorff import krippendorff_alpha
from accord.coefficients.many_raters import conger_kappa, fleiss_kappa, light_kappa
from accord.coefficients.multilabel import MultilabelAgreement, multilabel_agreement
from accord.coefficients.two_raters import (
    brennan_prediger,
    category_agreement,
    cohen_kappa,
    gwet_ac1,
    kappa_max,
    pabak,
    percent_agreement,
    scott_pi,
)

__all__ = [
    "REGISTRY",
    "CoefficientInfo",
    "MultilabelAgreement",
    "brennan_prediger",
    "category_agreement",
    "cohen_kappa",
    "conger_kappa",
    "fleiss_kappa",
    "gwet_ac1",
    "icc",
    "kappa_max",
    "krippendorff_alpha",
    "light_kappa",
    "multilabel_agreement",
    "pabak",
    "percent_agreement",
    "register",
    "scott_pi",
]
