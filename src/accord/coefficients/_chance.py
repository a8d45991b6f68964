"""Chance-agreement terms of the two-rater coefficients, vectorised over samples.

Each function takes row and column marginal *proportions* ``r`` and ``c`` of
shape ``(B, k)`` (one row per sample: the data, or a bootstrap resample) and
the agreement weights ``w`` (``None`` = identity) and returns ``p_e`` of shape
``(B,)``. Notation of Gwet (2014, ch. 2-3): ``pi_k = (p_k+ + p_+k) / 2``.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import NDArray

Chance = Literal["cohen", "scott", "gwet", "bp", "none"]
Arr = NDArray[np.float64]


def p_e(kind: Chance, r: Arr, c: Arr, w: Arr | None) -> Arr:
    """Chance agreement of the named coefficient."""
    q = r.shape[1]
    if kind == "cohen":
        return np.einsum("bi,bi->b", r, c) if w is None else np.einsum("bi,ij,bj->b", r, w, c)
    return pooled_p_e(kind, (r + c) / 2.0, w, q)


def pooled_p_e(kind: str, pi: Arr, w: Arr | None, q: int) -> Arr:
    """Chance agreement from pooled category proportions ``pi`` (shape (B, q)).

    ``"scott"``/``"fleiss"``: ``sum_kl w_kl pi_k pi_l``; ``"gwet"``:
    ``T_w / (q (q - 1)) sum_k pi_k (1 - pi_k)``; ``"bp"``: ``T_w / q^2``; else 0.
    Shared by the two-rater (``pi`` = mean of the two margins) and many-rater forms.
    """
    if kind in ("scott", "fleiss"):
        return np.einsum("bk,bk->b", pi, pi) if w is None else np.einsum("bk,kl,bl->b", pi, w, pi)
    total_w = float(q) if w is None else float(w.sum())
    if kind == "gwet":
        if q < 2:
            return np.full(pi.shape[0], np.nan)
        return total_w * np.sum(pi * (1.0 - pi), axis=1) / (q * (q - 1.0))
    if kind == "bp":
        return np.full(pi.shape[0], total_w / q**2)
    return np.zeros(pi.shape[0])


def chance_corrected(p_o: Arr, p_e: Arr) -> Arr:
    """(p_o - p_e) / (1 - p_e), nan where p_e = 1 (the coefficient is 0/0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (p_o - p_e) / (1.0 - p_e)
    out[~(1.0 - p_e > 1e-12)] = np.nan
    return out
