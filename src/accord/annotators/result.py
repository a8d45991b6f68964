"""The :class:`Consensus` result: inferred labels, posteriors and how the fit went."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.inference.display import Backend, Tabular, frame
from accord.inference.results import AgreementResult, _jsonable

from ._crowd import row_max, row_total

__all__ = ["Consensus", "ModelVoice"]


@dataclass(frozen=True, eq=False)
class ModelVoice:
    """What a model given as ``model=`` got in a consensus (see :mod:`._model`).

    Attributes
    ----------
    vote : {"soft", "top label", "tie-break", "weighted"}
        How it voted: its probabilities as a soft likelihood (one-coin, Dawid-Skene,
        MACE), its top label as one more rater (Wawa), the crowd's ties only (majority:
        a tied unit takes the tied label it puts most probability on), or its
        probabilities mixed with the votes at the weight :attr:`weight` (CROWDLAB).
    n_units : int
        The units it scored (it has no voice on the others).
    accuracy : AgreementResult
        Its estimated accuracy (``model_accuracy``): ``sum_c pi_c theta[c, c]`` of its
        fitted confusion matrix (one-coin: its fitted accuracy; MACE:
        ``a + (1 - a) sum_c pi_c xi_c`` from its competence ``a`` and guessing strategy
        ``xi``). Fitted from its
        probabilities, this is the expected probability it puts on the true class (its
        top-1 accuracy when they are 0 or 1, lower when they are spread). Majority and
        Wawa: the share of the units it voted on whose consensus label is its top
        label; CROWDLAB: the same share over the units it scored that were rated more
        than once (``1 - e_m``). ``confidence_interval()`` is Wilson's interval over
        those units.
    confusion : (k, k) array or None
        Dawid-Skene: its fitted confusion matrix (rows = true class); else ``None``.
    weight, crowd_weight : float
        The weight of its vote in the fit, and the median annotator's on the same scale:
        one-coin, Dawid-Skene and MACE, ``log(a (k - 1) / (1 - a))`` at the estimated
        accuracy ``a`` (the log-odds one vote adds for its label; 0 at chance, negative
        below); majority vote, 1 for every annotator's vote and ``nan`` for the model's
        (it breaks ties only, with no weight); Wawa, the voter's agreement with the
        majority (see :mod:`accord.annotators._model`); CROWDLAB, its weight in the
        mixture ``w_m`` and the median annotator's ``w_j`` (at most 1; see
        :mod:`accord.annotators._crowdlab`).
    """

    vote: str
    n_units: int
    accuracy: AgreementResult
    confusion: NDArray[np.float64] | None = field(default=None, repr=False)
    weight: float = math.nan
    crowd_weight: float = math.nan

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready mapping at full precision, the accuracy with its interval."""
        return {"vote": self.vote, "n_units": self.n_units,
                "weight": _jsonable(self.weight), "crowd_weight": _jsonable(self.crowd_weight),
                "accuracy": self.accuracy.to_dict(confidence_level),
                "confusion": None if self.confusion is None else _jsonable(self.confusion)}


@dataclass(frozen=True, eq=False)
class Consensus(Tabular):
    """The label inferred for each unit from a crowd's ratings.

    Attributes
    ----------
    method : str
        ``"majority"``, ``"wawa"``, ``"one_coin"``, ``"dawid_skene"``, ``"glad"``,
        ``"mace"`` or ``"crowdlab"``.
    units : tuple
        Unit ids in the row order of :attr:`posterior` (as read).
    categories : tuple
        The column labels of :attr:`posterior`.
    raters : tuple
        The annotators, in the order of the per-annotator parameters.
    posterior : (n_units, n_categories) array
        ``P(true label = c | ratings)``; each row sums to 1. For ``"majority"`` the
        vote shares, for ``"wawa"`` the weighted vote shares. For those two methods on
        a crowd with many categories (units x categories past
        :data:`accord.annotators._sparse.CELL_BUDGET` cells and 16 per rating), a
        ``scipy.sparse.csr_array`` holding only the labels each unit received (the
        other cells are exactly 0).
    n_ratings : (n_units,) array
        The number of ratings of each unit.
    parameters : mapping
        The fitted model: ``prior`` (class prior) and ``confusion`` (raters x true x
        given) for Dawid-Skene; ``prior`` and ``accuracy`` for one-coin; ``alpha``
        (expertise) and ``beta`` (unit ease, ``exp(b)``) for GLAD; ``competence`` and
        ``strategy`` for MACE; ``skill`` for Wawa; for CROWDLAB each annotator's
        ``weight``, its ``agreement`` with the other annotators and the
        ``consensus_likelihood``.
    n_iter : int
        EM iterations run (0 for the voting methods); with ``accelerate=True``, the
        E steps (passes over the ratings), extrapolated points tried included.
    log_likelihood : float
        Log-likelihood of the ratings under the parameters of the last E step (natural
        log; ``nan`` for the voting methods; for MACE the variational bound's data term).
    converged : bool
        Whether the change in log-likelihood per rating fell below ``tol``.
    last_change : float
        The last change in log-likelihood per rating.
    threshold : float
        Units whose top posterior is below it are :attr:`uncertain`.
    notes : tuple of str
        What is worth knowing about the data (units rated once, annotators with one
        rating, labels used by one annotator), one sentence each.
    model : ModelVoice or None
        With ``model=``: the model's vote, its estimated accuracy with an interval and
        (Dawid-Skene) its confusion matrix; its parameters are not in
        :attr:`parameters`, which hold the annotators'.
    tie_break : {"first", "quality", "model", "model, then quality"}
        How the label of a tied unit was chosen (majority and Wawa): the first tied
        category, or the one whose voters agree most with the majority elsewhere;
        majority vote with ``model=``: the tied label the model puts most probability
        on, a tie it leaves taking the first tied category (``"model"``) or the quality
        rule's (``"model, then quality"``). The unit stays in :attr:`tied` either way.
        (CROWDLAB chooses its labels by its own rule, see
        :mod:`accord.annotators._crowdlab`.)
    """

    method: str
    units: tuple[Any, ...]
    categories: tuple[Any, ...]
    raters: tuple[Any, ...]
    posterior: Any = field(repr=False)
    n_ratings: NDArray[np.int64] = field(repr=False)
    parameters: Mapping[str, Any] = field(default_factory=dict, repr=False)
    n_iter: int = 0
    log_likelihood: float = math.nan
    converged: bool = True
    last_change: float = 0.0
    threshold: float = 0.9
    notes: tuple[str, ...] = ()
    model: ModelVoice | None = field(default=None, repr=False)
    tie_break: str = "first"
    #: Per unit, the label code chosen by ``tie_break`` or by CROWDLAB's rule (-1: the
    #: top posterior's first).
    tie_codes: NDArray[np.int64] | None = field(default=None, repr=False)
    #: The crowd's codes and the model's probabilities, for :attr:`quality`.
    crowd: Any = field(default=None, repr=False)
    soft: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        dense = not hasattr(self.posterior, "tocsr")
        for a in (self.posterior if dense else self.posterior.data, self.n_ratings):
            a.flags.writeable = False
        object.__setattr__(self, "parameters", MappingProxyType(dict(self.parameters)))

    @cached_property
    def _top(self) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.bool_]]:
        """Per unit: the top posterior, its first column, and whether it is shared."""
        post = self.posterior
        if hasattr(post, "tocsr"):
            from ._sparse import row_top

            top, arg, count = row_top(post)
            return top, arg, np.asarray(count > 1)
        top = row_max(post)
        return (np.asarray(top), np.asarray(post.argmax(axis=1), dtype=np.int64),
                np.asarray(row_total(post == top[:, None]) > 1))

    @cached_property
    def label_codes(self) -> NDArray[np.int64]:
        """The column of the top posterior of each unit (on a tie, the first, or the one
        ``tie_break="quality"`` chose)."""
        if self.tie_codes is None:
            return self._top[1]
        return np.where(self.tie_codes >= 0, self.tie_codes, self._top[1])

    @cached_property
    def _quality_posterior(self) -> Any:
        """The posterior the quality scores are read from (see :mod:`.label_quality`)."""
        from ._quality_fit import quality_posterior

        return quality_posterior(self)

    @cached_property
    def quality(self) -> Any:
        """:class:`~accord.annotators.label_quality.Quality`: per unit the estimated
        probability that its label is right (EM methods: its posterior; majority and
        Wawa: its one-coin posterior, fitted at the voted cells alone on a crowd of many
        categories), per rating CROWDLAB's label quality; tied and single-rated units
        flagged."""
        from .label_quality import quality_of

        return quality_of(self, self._quality_posterior, self.crowd)

    def relabel(self, k: int = 10) -> Any:
        """:class:`~accord.annotators.relabel.Relabel`: the ``k`` units whose next label
        has the largest expected information gain (majority vote and Wawa: the tied
        units first, then by the chance that one more vote takes the majority off the
        label or ties it), each with its reason."""
        from .relabel import relabel_of

        return relabel_of(self, self._quality_posterior, self.quality, k)

    @cached_property
    def labels(self) -> Mapping[Any, Any]:
        """Unit id -> inferred label (on a tie, the first tied category; see :attr:`tied`)."""
        cats = self.categories
        return MappingProxyType({u: cats[c] for u, c in zip(self.units, self.label_codes)})

    @property
    def confidence(self) -> NDArray[np.float64]:
        """The posterior of each unit's label, in unit order (the top posterior, except
        where CROWDLAB's label is not the final posterior's top)."""
        if self.tie_codes is None:
            return self._top[0]
        codes = self.label_codes
        return np.asarray(self.posterior[np.arange(codes.shape[0]), codes])

    @property
    def _tied_mask(self) -> NDArray[np.bool_]:
        return self._top[2]

    @property
    def tied(self) -> tuple[Any, ...]:
        """Units whose top posterior is shared by two or more categories."""
        return tuple(self.units[i] for i in np.flatnonzero(self._tied_mask))

    @property
    def single_rated(self) -> tuple[Any, ...]:
        """Units rated by one annotator only (under a vote their label is that annotator's;
        under a model it can differ, read through the annotator's fitted errors)."""
        return tuple(self.units[i] for i in np.flatnonzero(self.n_ratings == 1))

    @property
    def uncertain(self) -> tuple[Any, ...]:
        """Units whose top posterior is below :attr:`threshold`, least certain first."""
        return tuple(self.units[i] for i in self._order()[: self._n_uncertain()])

    def _n_uncertain(self) -> int:
        return int((self.confidence < self.threshold).sum())

    def _order(self) -> NDArray[np.int64]:
        """Uncertain units first (least certain first), then the rest in unit order."""
        conf = self.confidence
        low = np.flatnonzero(conf < self.threshold)
        low = low[np.argsort(conf[low], kind="stable")]
        return np.concatenate([low, np.flatnonzero(conf >= self.threshold)]).astype(np.int64)

    def rows(self) -> list[dict[str, Any]]:
        """One mapping per unit (uncertain units first): unit, label, posterior, n_ratings,
        uncertain, tied, single_rated."""
        conf, codes, tied = self.confidence, self.label_codes, self._tied_mask
        return [{"unit": self.units[i], "label": self.categories[codes[i]],
                 "posterior": float(conf[i]), "n_ratings": int(self.n_ratings[i]),
                 "uncertain": bool(conf[i] < self.threshold), "tied": bool(tied[i]),
                 "single_rated": bool(self.n_ratings[i] == 1)}
                for i in self._order().tolist()]

    def to_frame(self, *, backend: Backend | None = None) -> Any:
        """A frame of :meth:`rows` (uncertain units first): pandas when installed, else
        polars (``backend`` chooses)."""
        return frame(self._frame_rows(), backend=backend, func="Consensus.to_frame")

    def _frame_rows(self) -> list[dict[str, Any]]:
        return self.rows()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision; the units under ``results`` as in
        :meth:`rows` (the key ``accord consensus --json`` uses); with ``model=``, the
        model's figures under ``model`` (:meth:`ModelVoice.to_dict`)."""
        return {
            "method": self.method,
            "categories": _jsonable(list(self.categories)),
            "n_units": len(self.units),
            "n_iter": self.n_iter,
            "log_likelihood": _jsonable(self.log_likelihood),
            "converged": self.converged,
            "last_change": _jsonable(self.last_change),
            "threshold": self.threshold,
            "n_uncertain": self._n_uncertain(),
            "n_tied": int(self._tied_mask.sum()),
            "n_single_rated": int((self.n_ratings == 1).sum()),
            "notes": list(self.notes),
            **({} if self.model is None else {"model": self.model.to_dict()}),
            "results": [{k: _jsonable(x) for k, x in row.items()} for row in self.rows()],
        }

    def __str__(self) -> str:
        fit = "" if self.method in ("majority", "wawa") else (
            f", {self.n_iter} iterations{'' if self.converged else ' (not converged)'}")
        return (f"Consensus({self.method}: {len(self.units)} units, "
                f"{self._n_uncertain()} below {self.threshold:g}, "
                f"{int(self._tied_mask.sum())} tied{fit})")
