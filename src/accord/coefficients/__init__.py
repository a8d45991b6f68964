"""Agreement coefficients; :data:`REGISTRY` lists every one by name."""

from accord.coefficients._registry import REGISTRY, CoefficientInfo, register
from accord.coefficients.bangdiwala import bangdiwala_b
from accord.coefficients.intraclass import icc
from accord.coefficients.iota import janson_olsson_iota
from accord.coefficients.krippendorff import krippendorff_alpha
from accord.coefficients.many_raters import conger_kappa, fleiss_kappa, light_kappa
from accord.coefficients.scores import finn, kendall_w, mean_pearson, mean_spearman, robinson_a
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
    "bangdiwala_b",
    "brennan_prediger",
    "category_agreement",
    "cohen_kappa",
    "conger_kappa",
    "finn",
    "fleiss_kappa",
    "gwet_ac1",
    "icc",
    "janson_olsson_iota",
    "kappa_max",
    "kendall_w",
    "krippendorff_alpha",
    "light_kappa",
    "mean_pearson",
    "mean_spearman",
    "pabak",
    "percent_agreement",
    "register",
    "robinson_a",
    "scott_pi",
]
