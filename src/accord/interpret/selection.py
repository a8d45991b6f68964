"""Choosing and running coefficients by registry name, with the options each takes.

The command line and the report both go through :func:`compute`, so they
choose the same default set and route options (``weights``, ``level``,
``form``) the same way.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from typing import Any

from accord.coefficients import REGISTRY
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import InvalidParameterError
from accord.inference.results import AgreementResult

ROUTED_OPTIONS = ("weights", "level", "form", "average", "positive", "mode")


def default_coefficients(annotations: Annotations, *, weights: Any = None) -> list[str]:
    """The coefficients a careful analyst would report for these data.

    Two raters, nominal: percent agreement, Cohen's kappa, Scott's pi, Gwet's AC1,
    Brennan-Prediger (PABAK and kappa max for two categories). Ordinal data or
    weights: weighted Cohen's kappa, AC2 and Krippendorff's alpha. More raters:
    percent agreement, Fleiss' kappa, Gwet's AC1 (on ordinal data AC2 with Gwet's
    ordinal weights, in :func:`compute`) and Krippendorff's alpha.
    Interval or ratio data: Krippendorff's alpha and ICC(2,1).
    """
    level = annotations.level or "nominal"
    two = annotations.n_raters == 2
    if level in ("interval", "ratio"):
        names = ["krippendorff_alpha", "icc"]
    elif two:
        names = ["percent_agreement", "cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger"]
        if len(annotations.categories) == 2 and weights is None and level == "nominal":
            names += ["pabak", "kappa_max"]
        if level == "ordinal" or weights is not None:
            names.append("krippendorff_alpha")
    else:
        names = ["percent_agreement", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha"]
    return [n for n in names if n in REGISTRY]


def accepted_options(name: str) -> set[str]:
    """The keyword options a registered coefficient accepts."""
    return set(_keyword_only(REGISTRY[name].function))


@functools.lru_cache(maxsize=256)
def _keyword_only(function: Any) -> frozenset[str]:
    # read once per function: ``compute --by`` asks for every group (10^4 groups: 4 x 10^4
    # signatures, about 0.3 ms each)
    params = inspect.signature(function).parameters
    return frozenset(p.name for p in params.values() if p.kind is inspect.Parameter.KEYWORD_ONLY)


def compute(
    annotations: Annotations,
    coefficients: Sequence[str] | None = None,
    *,
    weights: Any = None,
    level: str | None = None,
    form: str | None = None,
    raters: Sequence[Any] | None = None,
    average: str | None = None,
    positive: Any = None,
    mode: str | None = None,
) -> list[AgreementResult]:
    """Run the named coefficients (default: :func:`default_coefficients`) on ``annotations``.

    ``weights``, ``level``, ``form``, the classifier options ``average`` and
    ``positive``, and the span matching ``mode``, go to the coefficients that take them
    (weights without a declared level imply the ordinal level for alpha);
    naming one explicitly for a coefficient that does not take it is an error,
    so nothing is silently ignored. ``level`` defaults to the data's level.

    Examples
    --------
    >>> import accord
    >>> ann = accord.Annotations.from_pairs(["a", "b", "a"], ["a", "b", "b"])
    >>> [r.coefficient for r in compute(ann, ["cohen_kappa", "percent_agreement"])]
    ['cohen_kappa', 'percent_agreement']
    """
    if isinstance(coefficients, (str, bytes)):
        raise v.fail("coefficients", "compute", "a list of coefficient names, e.g. "
                     "['cohen_kappa']", coefficients)
    explicit = coefficients is not None
    names = (
        list(coefficients)
        if coefficients is not None
        else default_coefficients(annotations, weights=weights)
    )
    for name in names:
        v.choice(name, sorted(REGISTRY), param="coefficient", func="compute")
    if raters is not None:
        annotations = annotations.select(list(raters))
    # Weights declare an ordered scale: alpha then uses Krippendorff's ordinal metric.
    implied = "ordinal" if weights not in (None, "identity") else None
    given = {"weights": weights, "level": level or annotations.level or implied, "form": form,
             "average": average, "positive": positive, "mode": mode}
    # On ordinal data of many raters the default AC1 becomes AC2 with Gwet's ordinal
    # weights, listed after alpha (the report's headline stays Krippendorff's alpha).
    ac2 = (not explicit and weights is None and given["level"] == "ordinal"
           and annotations.n_raters > 2 and "gwet_ac1" in names)
    if ac2 and "krippendorff_alpha" in names:
        names = [n for n in names if n != "gwet_ac1"] + ["gwet_ac1"]
    out = []
    for name in names:
        accepted = accepted_options(name)
        kwargs = {k: val for k, val in given.items() if val is not None and k in accepted}
        if name == "gwet_ac1" and ac2:
            kwargs["weights"] = "ordinal"
        rejected = [k for k in ("weights", "form", "average", "positive", "mode")
                    if given[k] is not None and k not in accepted]
        if rejected and explicit:
            raise InvalidParameterError(
                f"{name} does not take {', '.join(rejected)}; drop the option or choose a "
                "coefficient that uses it."
            )
        out.append(REGISTRY[name].function(annotations, **kwargs))
    return out
