"""Which units to send for one more label: the expected information gain of a label.

For unit ``u`` with posterior ``p_u`` (the one :mod:`.label_quality` reads its scores
from), one more label ``V`` from an annotator of the crowd's mean accuracy ``s`` (the
mean label quality of the ratings, ``s = mean_i Q[u_i, v_i]``) under the one-coin model
(``P(V = v | T = c) = s`` when ``v = c``, else ``b = (1 - s) / (k - 1)``), is worth

``IG_u = H(p_u) - sum_v P(V = v) H(p_u | V = v)``,

the mutual information between the unit's true label and its next label (expected
information gain, in nats; Lindley 1956; MacKay 1992 sec. 2). It is large where the
posterior is spread and one label can move it; it is 0 where the label is settled.
Each unit's reason gives its consensus quality, its ratings, and the probability that
after the next label the posterior's top class is not its consensus label ``l_u``
(``sum_v P(V = v) [argmax p_u(. | v) != l_u]``: a vote the one-coin posterior of a
majority or Wawa fit disagrees with shows a low quality and a high chance of change),
and the probability that the next label confirms it (``P(V = l_u)``). Everything is O(n k): with
``Z_v = b + (s - b) p(v)``, ``H(p | v)`` follows from ``H(p)`` and ``p(v)`` alone.

Scored this way the budget goes where it moves the consensus; the simulation test
(``tests/test_annotators_relabel.py``) shows relabelling the suggested units raises
accuracy faster than relabelling units drawn at random.

References
----------
Lindley, D. V. (1956). On a measure of the information provided by an experiment.
*Ann. Math. Statist.* 27(4), 986-1005.
MacKay, D. J. C. (1992). Information-based objective functions for active data
selection. *Neural Computation* 4(4), 590-604.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.inference.display import Backend, Tabular, frame
from accord.inference.results import _jsonable

from ._crowd import FloatArray

__all__ = ["Relabel", "information_gain"]


def _xlogx(x: FloatArray) -> FloatArray:
    return np.where(x > 0, x * np.log(np.where(x > 0, x, 1.0)), 0.0)


def information_gain(post: FloatArray, s: float, labels: Any = None
                     ) -> tuple[FloatArray, FloatArray]:
    """Per unit: the expected information gain of one more label from a one-coin
    annotator of accuracy ``s``, and the probability that after it the top class is not
    the unit's label (``labels``: one code per unit; by default the top class of
    ``post``, so: that the label changes the top class)."""
    n, k = post.shape
    s = float(np.clip(s, 1.0 / k, 1.0 - 1e-12))
    b = (1.0 - s) / (k - 1)
    ent = -_xlogx(post).sum(axis=1)
    z = b + (s - b) * post  # P(V = v), units x categories
    neg = -ent[:, None]  # sum_c p log p
    # sum_c p'(c) log p'(c) with p'(c) = p(c) w_c / Z_v, w_c = s (c = v) or b (c != v)
    rest = (b / z) * ((neg - _xlogx(post)) + (1.0 - post) * (np.log(b) - np.log(z)))
    own = _xlogx(post * s / z)
    after = -(rest + own)
    gain = ent - (z * after).sum(axis=1)
    rows = np.arange(n)
    top = post.argmax(axis=1)
    label = top if labels is None else np.asarray(labels)
    # after V = v the top class is v where p(v) s > p(top) b, else it stays top
    moves = post * s > post[rows, top][:, None] * b
    moves[rows, top] = False
    after_top = np.where(moves, np.arange(k)[None, :], top[:, None])
    change = (z * (after_top != label[:, None])).sum(axis=1)
    return np.maximum(gain, 0.0), change


@dataclass(frozen=True, eq=False)
class Relabel(Tabular):
    """The units to send for one more label, best first (see :mod:`.relabel`).

    Attributes
    ----------
    score : str
        The score's name: ``"expected information gain"`` (nats).
    accuracy : float
        The accuracy ``s`` assumed for the next annotator (the crowd's mean label quality).
    units, labels : tuple
        The chosen units and their current consensus labels.
    gain, quality, p_change, p_confirm : arrays
        Per chosen unit: the expected information gain, the consensus quality, and the
        probability that the next label changes or confirms the consensus label.
    n_ratings : array
    reasons : tuple of str
        One sentence per unit.
    """

    score: str
    accuracy: float
    units: tuple[Any, ...]
    labels: tuple[Any, ...]
    gain: FloatArray
    quality: FloatArray
    p_change: FloatArray
    p_confirm: FloatArray
    n_ratings: Any
    reasons: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.units)

    def rows(self) -> list[dict[str, Any]]:
        """One mapping per unit, best first: unit, label, gain, quality, p_change,
        p_confirm, n_ratings, reason."""
        return [{"unit": u, "label": lab, "gain": float(g), "quality": float(q),
                 "p_change": float(pc), "p_confirm": float(pf), "n_ratings": int(n),
                 "reason": r}
                for u, lab, g, q, pc, pf, n, r in zip(
                    self.units, self.labels, self.gain, self.quality, self.p_change,
                    self.p_confirm, self.n_ratings, self.reasons)]

    def to_frame(self, *, backend: Backend | None = None) -> Any:
        """A frame of :meth:`rows`: pandas when installed, else polars."""
        return frame(self.rows(), backend=backend, func="Relabel.to_frame")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision: the score, the accuracy assumed for the
        next annotator, and :meth:`rows` under ``results``."""
        return {"score": self.score, "accuracy": self.accuracy,
                "results": [{k: _jsonable(x) for k, x in r.items()} for r in self.rows()]}

    def __str__(self) -> str:
        return f"Relabel({len(self.units)} units by {self.score})"

    def _frame_rows(self) -> list[dict[str, Any]]:
        return self.rows()


def relabel_of(c: Any, q_post: FloatArray, quality: Any, k: Any) -> Relabel:
    """The ``k`` units of consensus ``c`` with the largest expected information gain
    (ties: lower quality first, then unit order)."""
    v.positive_int(k, param="k", func="Consensus.relabel")
    s = float(quality.annotator_labels.mean()) if quality.annotator_labels.size else (
        float(quality.consensus.mean()))
    gain, change = information_gain(q_post, s, c.label_codes)
    order = np.lexsort((np.arange(gain.shape[0]), quality.consensus, -gain))[:k]
    codes = c.label_codes
    n_cat = q_post.shape[1]
    s_eff = float(np.clip(s, 1.0 / n_cat, 1.0 - 1e-12))
    b = (1.0 - s_eff) / (n_cat - 1)
    confirm = b + (s_eff - b) * q_post[np.arange(codes.shape[0]), codes]
    reasons = tuple(_reason(c, quality, int(i), float(gain[i]), float(change[i]),
                            float(confirm[i])) for i in order.tolist())
    return Relabel("expected information gain", s, tuple(c.units[i] for i in order),
                   tuple(quality.labels[i] for i in order), gain[order],
                   quality.consensus[order], change[order], confirm[order],
                   c.n_ratings[order], reasons)


def _reason(c: Any, quality: Any, i: int, gain: float, change: float, confirm: float) -> str:
    n = int(c.n_ratings[i])
    flag = " (tied)" if quality.tied[i] else ""
    return (f"label {quality.labels[i]!r}{flag} is right with probability "
            f"{quality.consensus[i]:.2f} on {n} rating{'s' if n != 1 else ''}; one more "
            f"label moves the posterior's top class off it with probability {change:.2f}, "
            f"confirms it with {confirm:.2f} (expected gain {gain:.3f} nats).")
