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
(``sum_v P(V = v) [argmax p_u(. | v) != l_u]``; for majority vote and Wawa, the vote's,
below), and the probability that the next label confirms it (``P(V = l_u)``). Everything
is O(n k): with
``Z_v = b + (s - b) p(v)``, ``H(p | v)`` follows from ``H(p)`` and ``p(v)`` alone.

Majority vote and Wawa label a unit by its votes, not by a posterior, so there the
probability of a change is the vote's: with ``W_c`` the unit's (weighted) votes for ``c``
(Wawa: each weighted by its voter's agreement with the majority, the model's vote
included) and ``w`` the next vote's weight (1; Wawa: the annotators' mean weight), the
next vote ``V = v != l_u`` takes the majority off ``l_u`` or ties it when
``max(max_{c != l_u} W_c, W_v + w) >= W_{l_u}``, so
``P(change) = sum_v P(V = v) [that holds]``, with ``P(V = v)`` as above. A tied unit
changes unless the next vote goes to its label; a unanimous unit of five votes cannot
change with one more. The ranking puts the tied units first (one vote settles or
flips them), then the rest by that probability, then by the gain.

On a crowd of many categories, where the vote's one-coin posterior is held at the
voted cells (:mod:`._coin_sparse`), the same figures come from the voted cells: the
classes a unit did not receive share its one factor ``rest_u`` times their prior, so
the sums over them are closed forms or one function of ``rest_u``
(:mod:`._relabel_sparse`); no units x categories array is made.

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
        The score's name: ``"expected information gain"`` (nats); majority vote and
        Wawa: ``"vote change probability (tied units first), then expected information
        gain"``.
    accuracy : float
        The accuracy ``s`` assumed for the next annotator (the crowd's mean label quality).
    units, labels : tuple
        The chosen units and their current consensus labels.
    gain, quality, p_change, p_confirm : arrays
        Per chosen unit: the expected information gain, the consensus quality, and the
        probability that the next label changes or confirms the consensus label (majority
        vote and Wawa: that one more vote takes the majority off it or ties it).
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


#: The score of each kind of consensus.
SCORES = {"posterior": "expected information gain",
          "vote": "vote change probability (tied units first), then expected information gain"}


def next_label(post: FloatArray, s: float) -> FloatArray:
    """``P(V = v)`` per unit: the next label of a one-coin annotator of accuracy ``s``."""
    k = post.shape[1]
    s = float(np.clip(s, 1.0 / k, 1.0 - 1e-12))
    b = (1.0 - s) / (k - 1)
    return np.asarray(b + (s - b) * post)


def vote_change(votes: FloatArray, w: float, labels: Any, p_next: FloatArray) -> FloatArray:
    """Per unit: the probability that one more vote of weight ``w`` (drawn from
    ``p_next``) takes the majority of ``votes`` off the unit's label or ties it."""
    n = votes.shape[0]
    rows = np.arange(n)
    labels = np.asarray(labels)
    own = votes[rows, labels]
    others = votes.copy()
    others[rows, labels] = -np.inf
    runner = others.max(axis=1)
    slack = 1e-9 * np.maximum(np.abs(own), 1.0)
    moves = (np.maximum(runner[:, None], votes + w) >= (own - slack)[:, None])
    moves[rows, labels] = False
    return np.asarray((p_next * moves).sum(axis=1))


def _votes(c: Any) -> tuple[FloatArray, float]:
    """The units' (weighted) votes and the next vote's weight, the model's vote included;
    Wawa's units whose voters all weigh 0 keep their plain votes (weight 1)."""
    from ._crowd import wsum
    from ._model import voting_crowd

    crowd = voting_crowd(c)
    n, k = crowd.n_units, crowd.k
    counts = crowd.votes()
    if c.method == "majority":
        return counts, 1.0
    skill = np.asarray(c.parameters["skill"], dtype=np.float64)
    if c.model is not None:
        skill = np.append(skill, c.model.weight)
    weighted = wsum(crowd.uv, skill[crowd.rater], n * k).reshape(n, k)
    w = float(np.mean(c.parameters["skill"])) if len(c.parameters["skill"]) else 1.0
    plain = weighted.sum(axis=1) <= 0
    if plain.any():  # there the label is the plain vote's: one more vote weighs 1
        weighted[plain] = counts[plain] * (w if w > 0 else 1.0)
    return weighted, (w if w > 0 else 1.0)


def relabel_of(c: Any, q_post: Any, quality: Any, k: Any) -> Relabel:
    """The ``k`` units of consensus ``c`` with the largest expected information gain
    (ties: lower quality first, then unit order); majority vote and Wawa: the tied units
    first, then by the vote's probability of a change, then by the gain."""
    v.positive_int(k, param="k", func="Consensus.relabel")
    s = float(quality.annotator_labels.mean()) if quality.annotator_labels.size else (
        float(quality.consensus.mean()))
    codes = c.label_codes
    index = np.arange(codes.shape[0])
    vote = c.method in ("majority", "wawa")
    if hasattr(q_post, "at"):  # a vote's posterior held at the voted cells
        from . import _relabel_sparse as held

        gain = held.information_gain(q_post, s)
        votes, w = held.votes_of(c)
        change = held.vote_change(votes, w, codes, q_post, s)
        confirm = held.next_label(q_post, s, index, codes)
    else:
        gain, change = information_gain(q_post, s, codes)
        p_next = next_label(q_post, s)
        if vote:
            votes, w = _votes(c)
            change = vote_change(votes, w, codes, p_next)
        confirm = p_next[index, codes]
    if vote:
        order = np.lexsort((index, quality.consensus, -gain, -change, ~quality.tied))[:k]
    else:
        order = np.lexsort((index, quality.consensus, -gain))[:k]
    reasons = tuple(_reason(c, quality, int(i), float(gain[i]), float(change[i]),
                            float(confirm[i]), vote) for i in order.tolist())
    return Relabel(SCORES["vote" if vote else "posterior"], s, tuple(c.units[i] for i in order),
                   tuple(quality.labels[i] for i in order), gain[order],
                   quality.consensus[order], change[order], confirm[order],
                   c.n_ratings[order], reasons)


def _reason(c: Any, quality: Any, i: int, gain: float, change: float, confirm: float,
            vote: bool = False) -> str:
    n = int(c.n_ratings[i])
    flag = " (tied)" if quality.tied[i] else ""
    moves = ("vote takes the majority off it or ties it" if vote else
             "label moves the posterior's top class off it")
    return (f"label {quality.labels[i]!r}{flag} is right with probability "
            f"{quality.consensus[i]:.2f} on {n} rating{'s' if n != 1 else ''}; one more "
            f"{moves} with probability {change:.2f}, confirms it with {confirm:.2f} "
            f"(expected gain {gain:.3f} nats).")
