"""Pieces of a vote shared by :func:`accord.consensus`, its model variants and the engines:
ties broken by ``tie_break``, Wawa's weighted votes, the note on annotators Wawa could
not weigh, and the fitted parameters as the result shows them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from accord.errors import DataError

from . import _em
from ._crowd import Crowd, FloatArray, wsum
from .result import Consensus

__all__ = ["broken", "few", "public_parameters", "unweighed_note", "wawa"]


def broken(c: Consensus, tie_break: str, voters: Crowd | None = None) -> Consensus:
    """``c`` with its ties broken by ``tie_break`` (``voters``: the crowd that voted, the
    model's top labels included; else ``c.crowd``)."""
    if tie_break == "first" or not c._tied_mask.any():
        return c
    crowd = voters if voters is not None else c.crowd
    if hasattr(c.posterior, "tocsr"):
        raise DataError("consensus: tie_break='quality' holds units x categories; the crowd "
                        f"has {len(c.categories):,} categories, too many (use 'first').")
    from ._quality_fit import tie_codes

    codes = tie_codes(crowd, np.asarray(c.posterior), _em.majority_posterior(crowd))
    return replace(c, tie_break=tie_break, tie_codes=codes)


def wawa(crowd: Crowd) -> tuple[FloatArray, FloatArray, list[Any]]:
    """Votes weighted by each annotator's agreement with the majority label, and the
    annotators who rated only units with a tied majority (their weight is 0 for want of
    a majority label, not for disagreeing).

    Units whose majority is tied have no majority label and do not count in the
    weights (so the weights do not depend on the order of the categories). A unit
    whose annotators all have weight 0 keeps its plain vote shares.
    """
    shares = _em.majority_posterior(crowd)
    clear = (shares == shares.max(axis=1, keepdims=True)).sum(axis=1) == 1
    majority = np.where(clear, shares.argmax(axis=1), -1)[crowd.unit]
    hits = (crowd.value == majority).astype(np.float64)
    skill = wsum(crowd.rater, hits, crowd.n_raters)
    counted = wsum(crowd.rater, majority >= 0, crowd.n_raters)
    skill /= np.maximum(counted, 1)
    rated = np.bincount(crowd.rater, minlength=crowd.n_raters) > 0
    unweighed = [crowd.rater_ids[int(i)] for i in np.flatnonzero(rated & (counted == 0))]
    n, k = crowd.n_units, crowd.k
    weighted = wsum(crowd.uv, skill[crowd.rater], n * k).reshape(n, k)
    total = weighted.sum(axis=1, keepdims=True)
    votes = crowd.votes()
    zero = total[:, 0] == 0
    weighted[zero], total[zero] = votes[zero], votes[zero].sum(axis=1, keepdims=True)
    return weighted / total, skill, unweighed


def unweighed_note(raters: Sequence[Any]) -> str:
    """The note of a Wawa fit on the annotators whose weight is 0 for want of a majority
    label (shared with the engines' Wawa)."""
    return (f"{len(raters)} annotator(s) rated only units whose majority is tied "
            f"({few(raters)}): Wawa gives them weight 0 (no majority label to agree with), "
            "so their votes count only where every annotator of a unit has weight 0.")


def public_parameters(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The fitted parameters under the names users read (shared with the engines)."""
    if method == "glad":
        return {"alpha": params["alpha"], "beta": np.exp(params["b"])}
    if method == "mace":
        return {"competence": _em.competence(params["knowing"]),
                "strategy": params["strategy"] / params["strategy"].sum(axis=1, keepdims=True)}
    return params


def few(items: Sequence[Any]) -> str:
    shown = ", ".join(repr(x) for x in items[:5])
    return shown + (", ..." if len(items) > 5 else "")
