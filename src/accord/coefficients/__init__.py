"""Agreement coefficients; :data:`REGISTRY` lists every one by name.

A name is imported from its module on first use (``from accord.coefficients import
cohen_kappa`` does not load ICC or the multilabel coefficients); the imports under
``TYPE_CHECKING`` name them all for type checkers, and ``tests/test_registry_lazy.py``
checks that :data:`_WHERE` agrees with them.
"""

from typing import TYPE_CHECKING, Any

from accord.coefficients._registry import REGISTRY, CoefficientInfo, register

if TYPE_CHECKING:
    from accord.coefficients.bangdiwala import bangdiwala_b
    from accord.coefficients.classification import (
        accuracy,
        balanced_accuracy,
        f1,
        mcc,
        precision,
        recall,
    )
    from accord.coefficients.intraclass import icc
    from accord.coefficients.iota import janson_olsson_iota
    from accord.coefficients.krippendorff import krippendorff_alpha
    from accord.coefficients.many_raters import conger_kappa, fleiss_kappa, light_kappa
    from accord.coefficients.multilabel import MultilabelAgreement, multilabel_agreement
    from accord.coefficients.paradoxes import category_agreement, kappa_max, pabak
    from accord.coefficients.scores import finn, kendall_w, mean_pearson, mean_spearman, robinson_a
    from accord.coefficients.two_raters import (
        brennan_prediger,
        cohen_kappa,
        gwet_ac1,
        percent_agreement,
        scott_pi,
    )

__all__ = [
    "REGISTRY",
    "CoefficientInfo",
    "accuracy",
    "balanced_accuracy",
    "bangdiwala_b",
    "MultilabelAgreement",
    "brennan_prediger",
    "category_agreement",
    "cohen_kappa",
    "conger_kappa",
    "f1",
    "finn",
    "fleiss_kappa",
    "gwet_ac1",
    "icc",
    "janson_olsson_iota",
    "kappa_max",
    "kendall_w",
    "krippendorff_alpha",
    "light_kappa",
    "mcc",
    "mean_pearson",
    "mean_spearman",
    "multilabel_agreement",
    "pabak",
    "percent_agreement",
    "precision",
    "recall",
    "register",
    "robinson_a",
    "scott_pi",
]


#: Where each public name lives.
_WHERE: dict[str, str] = {
    name: f"accord.coefficients.{module}"
    for module, names in {
        "bangdiwala": "bangdiwala_b",
        "classification": "accuracy balanced_accuracy f1 mcc precision recall",
        "intraclass": "icc",
        "iota": "janson_olsson_iota",
        "krippendorff": "krippendorff_alpha",
        "many_raters": "conger_kappa fleiss_kappa light_kappa",
        "multilabel": "MultilabelAgreement multilabel_agreement",
        "paradoxes": "category_agreement kappa_max pabak",
        "scores": "finn kendall_w mean_pearson mean_spearman robinson_a",
        "two_raters": "brennan_prediger cohen_kappa gwet_ac1 percent_agreement scott_pi",
    }.items()
    for name in names.split()
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        from importlib import import_module

        value = getattr(import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
