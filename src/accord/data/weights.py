"""Agreement weights for ordered categories (Gwet 2014, ch. 3; Cohen 1968).

Weights are computed on category *positions* 1..q in the declared (or sorted
observed) category order, never on the labels themselves, so ``["low", "mid",
"high"]`` and ``[1, 5, 10]`` get the same linear weights. An agreement weight
is 1 on the diagonal and in [0, 1] elsewhere; ``1 - w`` is the disagreement.

=============  ===============================================================
name           w_kl for positions k, l in 1..q
=============  ===============================================================
identity       1 if k == l else 0 (unweighted)
linear         1 - |k - l| / (q - 1)
quadratic      1 - (k - l)^2 / (q - 1)^2
ordinal        1 - M_kl / max M, with M_kl = C(|k - l| + 1, 2)
radical        1 - sqrt|k - l| / sqrt(q - 1)
ratio          1 - ((k - l)/(k + l))^2 / ((q - 1)/(q + 1))^2
circular       1 - sin^2(pi (k - l) / q) / max sin^2
bipolar        1 - d_kl / max d, d_kl = (k - l)^2 / ((k + l - 2)(2q - k - l)), d_kk = 0
=============  ===============================================================

These are the definitions of R's irrCAC (``weights.gen.r``) applied to positions.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.errors import UndeclaredOrderWarning

WeightName = Literal[
    "identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"
]
WEIGHT_NAMES: tuple[str, ...] = (
    "identity",
    "linear",
    "quadratic",
    "ordinal",
    "radical",
    "ratio",
    "circular",
    "bipolar",
)
Weights = WeightName | NDArray[np.floating] | Sequence[Sequence[float]] | None

__all__ = ["WEIGHT_NAMES", "agreement_weights", "is_identity"]


def agreement_weights(
    weights: Any, q: int, *, func: str = "agreement_weights"
) -> NDArray[np.float64]:
    """The q x q agreement-weight matrix for ``weights``.

    Parameters
    ----------
    weights : str, array-like or None
        A name from :data:`WEIGHT_NAMES` (``None`` means ``"identity"``), or a q x q
        matrix of agreement weights: 1 on the diagonal, values in [0, 1]. A
        non-symmetric matrix is allowed (Cohen 1968).
    q : int
        The number of categories.

    Examples
    --------
    >>> agreement_weights("linear", 3)
    array([[1. , 0.5, 0. ],
           [0.5, 1. , 0.5],
           [0. , 0.5, 1. ]])
    """
    if weights is None:
        weights = "identity"
    if isinstance(weights, str):
        name = v.choice(weights, WEIGHT_NAMES, param="weights", func=func)
        return _named(name, q)
    return _validate_matrix(weights, q, func)


def numeric_labels(categories: Sequence[Any]) -> bool:
    """Whether every category label is a number (not a bool): its sorted order is its scale."""
    return all(
        isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, (bool, np.bool_))
        for c in categories
    )


def require_order(weights: Any, categories: Sequence[Any], ordered: bool, func: str, *,
                  uses: str | None = None) -> None:
    """Warn when named distance weights fall on text labels whose order nobody declared.

    ``"linear"``, ``"quadratic"`` and the other named weights measure distances
    between category *positions*: in the declared order, or else the sorted
    observed order (as scikit-learn and irrCAC do). Sorted text (``"high" < "low" <
    "medium"``) is rarely the scale, so an :class:`~accord.UndeclaredOrderWarning`
    says which order was used. ``uses`` names another option that needs the order
    (ordinal alpha) and makes the check unconditional.
    """
    if ordered:
        return
    if uses is None:
        if not isinstance(weights, str) or weights == "identity":
            return
        uses = f"weights={weights!r} measure distances between category positions"
    shown = ", ".join(repr(c) for c in list(categories)[:6])
    more = ", ..." if len(categories) > 6 else ""
    warnings.warn(
        f"{uses}; no order was declared, so the sorted text labels [{shown}{more}] were "
        "taken as the scale: if that is not it, declare the order with categories=[...] "
        "(accord CLI: --categories).",
        UndeclaredOrderWarning,
        stacklevel=v.user_level(),
    )


def is_identity(w: NDArray[np.float64]) -> bool:
    """Whether ``w`` is the identity matrix (unweighted agreement)."""
    return bool(np.array_equal(w, np.eye(w.shape[0])))


def _named(name: str, q: int) -> NDArray[np.float64]:
    if q == 1 or name == "identity":
        return np.eye(q)
    pos = np.arange(1, q + 1, dtype=np.float64)
    k, m = pos[:, None], pos[None, :]
    diff = np.abs(k - m)
    span = float(q - 1)
    if name == "linear":
        return 1.0 - diff / span
    if name == "quadratic":
        return 1.0 - diff**2 / span**2
    if name == "radical":
        return 1.0 - np.sqrt(diff) / np.sqrt(span)
    if name == "ratio":
        return 1.0 - ((k - m) / (k + m)) ** 2 / ((q - 1.0) / (q + 1.0)) ** 2
    if name == "ordinal":
        n_kl = diff + 1.0
        pairs = n_kl * (n_kl - 1.0) / 2.0
        return 1.0 - pairs / pairs.max()
    if name == "circular":
        d = np.sin(np.pi * (k - m) / q) ** 2
        return 1.0 - d / d.max()
    # bipolar
    with np.errstate(divide="ignore", invalid="ignore"):
        d = (k - m) ** 2 / ((k + m - 2.0) * (2.0 * q - k - m))
    d[diff == 0] = 0.0
    return 1.0 - d / d.max()


def _validate_matrix(weights: Any, q: int, func: str) -> NDArray[np.float64]:
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise v.fail(
            "weights", func, f"a weight name or a {q} x {q} numeric matrix", weights
        ) from None
    if w.shape != (q, q):
        raise v.fail(
            "weights",
            func,
            f"a {q} x {q} matrix (one row and column per category)",
            f"an array of shape {w.shape}",
        )
    if not np.all(np.isfinite(w)) or w.min() < 0 or w.max() > 1:
        raise v.fail(
            "weights", func, "a matrix of agreement weights in [0, 1]", "values outside [0, 1]"
        )
    if not np.allclose(np.diag(w), 1.0):
        raise v.fail(
            "weights",
            func,
            "an agreement-weight matrix with 1 on the diagonal",
            np.diag(w).tolist(),
        )
    return w
