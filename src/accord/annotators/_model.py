"""A model's class probabilities as one more annotator of a consensus (``model=``).

The model's probabilities ``P_u(v)`` (rows units, columns labels) enter the fit as
the ratings of one more annotator, whose reliability is fitted with the crowd's,
never fixed.

The model is given in one of two forms:

* **probabilities**: a mapping ``{unit: {label: probability}}``, or a pandas or polars
  frame with one row per unit (ids in a ``unit`` column, else the pandas index) and one
  column per label; each row sums to 1.
* **a top label and its confidence**: a frame whose columns besides ``unit`` are exactly
  ``label`` and ``confidence``, or a mapping ``{unit: (label, confidence)}``. A top
  label ``l`` with confidence ``c`` becomes the probabilities ``c`` on ``l`` and
  ``(1 - c) / (k - 1)`` on each of the crowd's ``k - 1`` other categories. The even
  spread is an assumption (the model's runner-up labels are not known); the row is
  then a soft rating like any other, so the two forms give the same consensus when
  their probabilities agree. A confidence below ``1 / k`` puts more on each other label
  than on ``l``. Refused, one sentence each: a confidence outside [0, 1] or not a
  number, a label not among the crowd's categories, and a unit given twice.

* Dawid-Skene, one-coin and MACE: a **soft likelihood**. The model's term in unit ``u``'s
  log-posterior for class ``c`` is ``sum_v P_u(v) log theta_model[c, v]``: its
  probabilities act as fractional ratings, so the M step fits its confusion matrix
  from the expected counts ``sum_u P(T_u = c | ...) P_u(v)`` exactly as Dawid &
  Skene (1979) fit an annotator's from whole ratings (one-coin: one accuracy, the
  expected share of mass on the inferred class; MACE: its knowing and guessing
  weights and its guessing strategy from the expected counts of each label it gave
  ``P_u(v)`` split, as Hovy et al. (2013) split a rating, by the posterior that it
  knew). A model no better than chance gets
  a confusion matrix whose rows are alike, and so no say (under MACE a small one: the
  guessing strategy fitted to the posterior is not uniform, so a uniform model's soft
  rating keeps a little competence at the fixed point, a few percent of an annotator's
  weight). Goh et al. (2022,
  CROWDLAB) also use the model's probabilities, but mix them into the consensus with a
  weight set by a formula (the model's accuracy against the consensus relative to
  always answering the most common class, times the square root of the mean ratings
  per unit); here the model is an annotator of the latent-class model, its confusion
  matrix learned by EM like the others'. A spread prediction counts for less than a
  confident one (a model whose probabilities are 0 or 1 is an annotator over its top
  label); the measured effect is in ``benchmarks/RESULTS.md``.
* Majority vote: the model **breaks the crowd's ties only**. Majority vote learns no
  reliability, so the model has no fitted weight to vote with, and a fixed one (one
  vote, as an annotator's) would let a model no better than chance outvote the crowd
  where it splits narrowly. The vote shares are the crowd's; a unit the crowd ties on
  takes the tied label the model puts most probability on, and stays listed in
  ``Consensus.tied`` (``Consensus.tie_break`` is ``"model"``). A tie the model leaves
  (a unit it did not score, or equal probabilities on the tied labels) is broken by
  ``tie_break`` (``"first"`` or ``"quality"``, then ``"model, then quality"``).
* Wawa: the model votes its top label as one more rater, weighed like an annotator by
  its agreement with the majority (fitted, not fixed; a unit whose top probability is
  shared by several labels gets no vote from it).
* GLAD takes no model (its unit difficulty multiplies each annotator's expertise,
  which a soft rating does not carry cleanly).

Its estimated accuracy is ``sum_c pi_c theta_model[c, c]`` (the trace of its fitted
confusion weighted by the class prior; one-coin: its accuracy; MACE, whose
``theta[c, c]`` is ``a + (1 - a) xi_c`` with ``a`` its competence and ``xi`` its
guessing strategy: ``a + (1 - a) sum_c pi_c xi_c``): fitted from
probabilities, the expected probability it puts on the true class, which is its
top-1 accuracy only when its probabilities are 0 or 1; for majority and
Wawa, the share of the units it voted on (scored, top probability not shared) whose
consensus label is its top label, tied units left out. The interval is Wilson's
score interval on the units it scored, as for an annotator's accuracy
(:func:`accord.annotators._figures.proportion`): it treats the consensus as the truth,
so it leaves out the uncertainty of the fit.

The weight the fit gave it (:func:`vote_weights`) is the weight of one vote at its
estimated accuracy ``a`` among ``k`` classes, ``w = log(a (k - 1) / (1 - a))``: the
log-odds a vote adds for its label under the one-coin model, the weight of the optimal
weighted majority (Nitzan & Paroush 1982), 0 at chance (``a = 1 / k``) and negative
below it; beside it the median annotator's, from their accuracies read the same way
(Dawid-Skene ``sum_c pi_c theta[r, c, c]``, one-coin their accuracy, MACE
``a_r + (1 - a_r) sum_c pi_c xi[r, c]``). Majority vote gives every annotator's vote
weight 1 and the model none (``weight`` is ``nan``: it only orders tied labels); Wawa
weighs each vote by its voter's agreement with the majority, the model's as well.

References
----------
Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.
Hovy, D. et al. (2013). Learning whom to trust with MACE. *NAACL-HLT*, 1120-1130.
Nitzan, S. & Paroush, J. (1982). Optimal decision rules in uncertain dichotomous
choice situations. *International Economic Review* 23(2), 289-297.
Goh, H. W., Tkachenko, U. & Mueller, J. (2022). CROWDLAB: Supervised learning to
infer consensus labels and quality scores for data with multiple annotators.
*NeurIPS 2022 Human in the Loop Learning Workshop*; arXiv:2210.06812.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.errors import BudgetError, DataError, InvalidParameterError

from ._crowd import Crowd, FloatArray

#: Methods that take ``model=``.
MODEL_METHODS = ("majority", "wawa", "one_coin", "dawid_skene", "mace", "crowdlab")
#: The methods that need a model: they mix its probabilities with the votes.
MODEL_ONLY: tuple[str, ...] = ("crowdlab",)
#: How far a row of probabilities may be from summing to 1.
SUM_TOL = 1e-6


@dataclass(frozen=True)
class ModelInput:
    """The model's probabilities over the crowd's units (a row of zeros where it did not
    score the unit), and whether it scored each."""

    probs: FloatArray
    scored: Any
    #: ``"probabilities"``, or ``"top label"`` (a label and its confidence per unit).
    form: str = "probabilities"

    @property
    def n_scored(self) -> int:
        return int(self.scored.sum())


def refuse_method(method: str, func: str) -> None:
    """One sentence when ``method`` takes no model."""
    if method not in MODEL_METHODS:
        raise InvalidParameterError(
            f"{func}: method={method!r} (accord CLI: --method {method}) takes no model; a "
            "model's probabilities are taken by 'majority', 'wawa', 'one_coin', "
            "'dawid_skene', 'mace' and 'crowdlab'.")


def model_of(data: Any, crowd: Crowd, func: str) -> ModelInput:
    """The model's probabilities as a units x categories array in the crowd's order,
    validated once (see the bad-input sentences below)."""
    _refuse_wide(crowd, func)
    top = _top_labels(data, func)
    if top is not None:
        return _spread(*top, crowd, func)
    units, labels, raw = _table(data, func)
    if not units:
        raise DataError(f"{func}: the model scores no unit (pass model=None to leave it out).")
    cols = _columns(labels, crowd.categories, func)
    rows = _rows(units, crowd.unit_ids, func)
    table = _floats(raw, labels, len(units), func)
    _check_values(table, units, labels, func)
    if isinstance(rows, range) and cols == list(range(crowd.k)):
        # the crowd's units and categories, in its order: the table is the array
        return ModelInput(table, np.ones(crowd.n_units, dtype=bool))
    probs = np.zeros((crowd.n_units, crowd.k))
    probs[np.ix_(rows, cols)] = table
    scored = np.zeros(crowd.n_units, dtype=bool)
    scored[rows] = True
    return ModelInput(probs, scored)


#: The columns (besides the unit's) of a model given as a top label and its confidence.
TOP_LABEL_COLUMNS = ("label", "confidence")


def is_top_label_frame(columns: Any) -> bool:
    """Whether a frame's columns are a top label and its confidence (``label`` and
    ``confidence``, besides ``unit``)."""
    return sorted(str(c) for c in columns if c != "unit") == sorted(TOP_LABEL_COLUMNS)


def _top_labels(data: Any, func: str) -> tuple[list[Any], list[Any], list[Any]] | None:
    """Units, top labels and confidences of a model given in that form, else ``None``."""
    if isinstance(data, Mapping):
        rows = list(data.values())
        if not rows or isinstance(rows[0], Mapping) or not isinstance(rows[0], (tuple, list)):
            return None
        for unit, row in data.items():
            if not isinstance(row, (tuple, list)) or len(row) != 2:
                raise v.fail("model", func, "a mapping {unit: (label, confidence)} when its "
                             "first row is a pair", f"{{{unit!r}: {row!r}, ...}}")
        return list(data), [r[0] for r in rows], [r[1] for r in rows]
    columns = getattr(data, "columns", None)
    if columns is None or not is_top_label_frame(columns):
        return None
    names = list(columns)

    def col(name: str) -> list[Any]:
        x = data[name]
        return list(x.to_list() if hasattr(x, "to_list") else x)

    if "unit" in names:
        units = col("unit")
    elif hasattr(data, "index"):
        units = list(data.index)
    else:
        raise DataError(f"{func}: the model's frame has no 'unit' column: name the column "
                        "that holds the unit ids 'unit' (beside 'label' and 'confidence').")
    return units, col("label"), col("confidence")


def _spread(units: list[Any], labels: list[Any], confidence: list[Any], crowd: Crowd,
            func: str) -> ModelInput:
    """A top label ``l`` with confidence ``c`` per unit as probabilities: ``c`` on ``l``,
    ``(1 - c) / (k - 1)`` on each other category (see the module's docstring)."""
    if not units:
        raise DataError(f"{func}: the model scores no unit (pass model=None to leave it out).")
    k = crowd.k
    at = _match(labels, crowd.categories)
    for unit, label, i in zip(units, labels, at):
        if i is None:
            raise DataError(f"{func}: the model's label {label!r} of unit {unit!r} is not "
                            f"among the crowd's categories ({_few(list(crowd.categories))}).")
    conf = np.array([_number(x) if not isinstance(x, bool) else math.nan
                     for x in confidence], dtype=np.float64)
    bad = ~((conf >= 0) & (conf <= 1))  # NaN included
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"{func}: the model's confidence of unit {units[i]!r} is "
                        f"{confidence[i]!r}; a confidence is the probability of its label, "
                        "a number from 0 to 1.")
    rows = _rows(units, crowd.unit_ids, func)
    cols = np.array([int(i) for i in at if i is not None], dtype=np.int64)
    probs = np.zeros((crowd.n_units, k))
    probs[rows] = ((1.0 - conf) / (k - 1))[:, None]  # a consensus has k >= 2 in use
    probs[rows, cols] = conf
    scored = np.zeros(crowd.n_units, dtype=bool)
    scored[rows] = True
    return ModelInput(probs, scored, "top label")


def form_note(model: ModelInput, k: int) -> str | None:
    """The note of a model given as a top label and its confidence (the assumption)."""
    if model.form != "top label":
        return None
    rest = ("1 - c on the other category" if k == 2 else
            f"(1 - c) / {k - 1} on each of the {k - 1} other categories")
    return (f"The model gave a top label and its confidence c per unit, read as the "
            f"probabilities c on that label and {rest} (an assumption: its other labels' "
            "probabilities were not given).")


def tie_codes(model: ModelInput, posterior: Any, tied: Any) -> Any:
    """Per unit, the tied top label of ``posterior`` the model puts most probability on
    (``-1`` where the unit is not tied, the model did not score it, or it puts its most
    on two or more of the tied labels)."""
    n = model.probs.shape[0]
    out = np.full(n, -1, dtype=np.int64)
    rows = np.flatnonzero(np.asarray(tied) & np.asarray(model.scored))
    if not rows.size:
        return out
    post = posterior[rows]
    post = np.asarray(post.toarray() if hasattr(post, "toarray") else post)
    is_top = post == post.max(axis=1, keepdims=True)
    p = np.where(is_top, model.probs[rows], -np.inf)
    best = p.max(axis=1, keepdims=True)
    alone = (p == best).sum(axis=1) == 1
    out[rows[alone]] = p[alone].argmax(axis=1)
    return out


def _refuse_wide(crowd: Crowd, func: str) -> None:
    """One sentence when a units x categories array of probabilities is past the budget
    of dense state (:mod:`._sparse`): the model's probabilities are held dense."""
    from ._sparse import CELL_BUDGET, CELLS_PER_RATING

    cells = crowd.n_units * crowd.k
    budget = max(CELL_BUDGET, CELLS_PER_RATING * crowd.n_ratings)
    if cells > budget:
        raise BudgetError(f"{func}: a model's probabilities over {crowd.k:,} categories for "
                        f"{crowd.n_units:,} units are {cells:,} cells, past the budget of "
                        f"{budget:,} for {crowd.n_ratings:,} ratings; merge rare labels into "
                        "fewer categories.")


def _table(data: Any, func: str) -> tuple[list[Any], list[Any], Any]:
    """Units, labels and probabilities of a mapping, or a pandas/polars frame (units in a
    column named ``unit``, else, for pandas, the index): the probabilities as one column
    per label, or as a units x labels float array where the frame holds numbers only."""
    if isinstance(data, Mapping):
        units = list(data)
        for unit, row in data.items():
            if not isinstance(row, Mapping):
                raise v.fail("model", func, "a mapping {unit: {label: probability}} or "
                             "{unit: (label, confidence)}, or a data frame",
                             f"{{{unit!r}: {row!r}, ...}}")
        labels = list(dict.fromkeys(x for row in data.values() for x in row))
        return units, labels, [[_number(data[u].get(c, 0.0)) for u in units] for c in labels]
    columns = getattr(data, "columns", None)
    if columns is None:
        raise v.fail("model", func, "a mapping {unit: {label: probability}} or "
                     "{unit: (label, confidence)}, or a pandas or polars data frame (rows "
                     "units, columns labels, or columns label and confidence)",
                     type(data).__name__)
    names = list(columns)
    if "unit" in names:
        units = list(data["unit"].to_list() if hasattr(data["unit"], "to_list")
                     else data["unit"])
        labels = [c for c in names if c != "unit"]
    elif hasattr(data, "index"):
        index = data.index
        # a numpy-backed index gives the same Python scalars by tolist(), at C speed
        units = index.tolist() if isinstance(index.dtype, np.dtype) else list(index)
        values = data.to_numpy()
        if values.dtype.kind in "fiu":  # one numeric block: the columns as one array
            return units, names, np.array(values, dtype=np.float64, order="C")
        labels = names
    else:
        raise DataError(f"{func}: the model's frame has no 'unit' column: name the column "
                        "that holds the unit ids 'unit' (the other columns are the labels).")
    return units, labels, [data[c] for c in labels]


def _floats(columns: Any, labels: list[Any], n: int, func: str) -> FloatArray:
    """The columns as a units x labels float array, or one sentence naming a column that
    holds something else."""
    if isinstance(columns, np.ndarray):
        return columns
    table = np.empty((n, len(labels)))
    for j, (label, col) in enumerate(zip(labels, columns)):
        try:
            table[:, j] = np.asarray(col, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise DataError(f"{func}: the model's column {label!r} must hold probabilities "
                            f"({e}).") from None
    return table


def _number(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def _match(names: list[Any], known: tuple[Any, ...]) -> Sequence[int | None]:
    """Each name's position in ``known``: equal, else equal as text (a CSV's header or
    ids read as text against the crowd's numbers); a ``range`` when ``names`` are
    ``known`` itself, in its order."""
    if (len(names) == len(known) and tuple(names) == known
            and list(map(type, names)) == list(map(type, known))):
        return range(len(known))  # the crowd's own ids, in its order
    exact = {x: i for i, x in enumerate(known)}
    text: dict[str, int] | None = None  # made at the first name not found as it is
    out: list[int | None] = []
    for name in names:
        try:
            out.append(exact[name])
        except (KeyError, TypeError):
            if text is None:
                text = {str(x): i for i, x in enumerate(known)}
            out.append(text.get(str(name)))
    return out


def _columns(labels: list[Any], categories: tuple[Any, ...], func: str) -> list[int]:
    if not labels:
        raise DataError(f"{func}: the model gives no label column.")
    at = _match(labels, categories)
    stray = [c for c, i in zip(labels, at) if i is None]
    if stray:
        raise DataError(f"{func}: the model's columns {_few(stray)} are not among the crowd's "
                        f"categories ({_few(list(categories))}).")
    if len(set(at)) < len(at):
        raise DataError(f"{func}: two of the model's columns name the same category.")
    return [int(i) for i in at if i is not None]


def _rows(units: list[Any], unit_ids: tuple[Any, ...], func: str) -> Sequence[int]:
    """Each unit's row in the crowd (a ``range``: the crowd's units in its order), or one
    sentence: a unit the crowd does not have, or one given twice."""
    at = _match(units, unit_ids)
    if isinstance(at, range):
        return at
    stray = [u for u, i in zip(units, at) if i is None]
    if stray:
        raise DataError(f"{func}: the model scored {len(stray)} unit(s) the crowd does not "
                        f"have ({_few(stray, 3)}); give the model's probabilities for the "
                        "crowd's units only.")
    rows = [int(i) for i in at if i is not None]
    if len(set(rows)) < len(rows):
        seen: set[int] = set()
        for u, i in zip(units, rows):
            if i in seen:
                raise DataError(f"{func}: the model scores the unit {u!r} twice.")
            seen.add(i)
    return rows


def _check_values(table: FloatArray, units: list[Any], labels: list[Any], func: str) -> None:
    bad = ~np.isfinite(table) | (table < 0)
    if bad.any():
        i, j = (int(x[0]) for x in np.nonzero(bad))
        raise DataError(f"{func}: the model's probabilities must be numbers from 0 to 1; unit "
                        f"{units[i]!r}, label {labels[j]!r} has {float(table[i, j])!r}.")
    sums = table.sum(axis=1)
    off = np.flatnonzero(np.abs(sums - 1.0) > SUM_TOL)
    if off.size:
        i = int(off[0])
        raise DataError(f"{func}: the model's probabilities of unit {units[i]!r} sum to "
                        f"{float(sums[i])!r}, not 1 ({off.size} unit(s) off by more than "
                        f"{SUM_TOL:g}); give each unit's probabilities over the crowd's "
                        "categories (they are not normalised for you).")


def unscored_note(model: ModelInput) -> str | None:
    """The note on units the model did not score (it has no voice there)."""
    missing = int(model.scored.shape[0] - model.n_scored)
    if not missing:
        return None
    return (f"The model did not score {missing} of {model.scored.shape[0]} unit(s): there the "
            "consensus is the crowd's alone.")


def top_votes(model: ModelInput) -> tuple[Any, Any]:
    """The units the model votes on (scored, top probability not shared) and its vote."""
    probs = model.probs
    top = probs.max(axis=1, keepdims=True)
    clear = model.scored & ((probs == top).sum(axis=1) == 1)
    units = np.flatnonzero(clear).astype(np.int64)
    return units, probs[units].argmax(axis=1).astype(np.int64)


def voting_crowd(c: Any) -> Crowd:
    """The crowd whose votes made the vote-based consensus ``c``: with the model's top
    labels as one more rater where the model voted (Wawa), the crowd alone where it
    breaks ties only (majority) or was not given."""
    if c.soft is None or c.model is None or c.model.vote != "top label":
        return c.crowd
    return voters(c.crowd, np.asarray(c.soft))


def voters(crowd: Crowd, probs: FloatArray) -> Crowd:
    """The crowd with the model's top labels (``probs``) as one more rater's ratings."""
    units, votes = top_votes(ModelInput(probs, probs.sum(axis=1) > 0))
    r = crowd.n_raters
    return Crowd(np.concatenate([crowd.unit, units]),
                 np.concatenate([crowd.rater, np.full(units.shape[0], r, dtype=np.int64)]),
                 np.concatenate([crowd.value, votes]), crowd.unit_ids,
                 (*crowd.rater_ids, "model"), crowd.categories)


def _few(items: list[Any], n: int = 5) -> str:
    shown = ", ".join(repr(x) for x in items[:n])
    return shown + (", ..." if len(items) > n else "")


def vote_weight(accuracy: Any, k: int) -> FloatArray:
    """``log(a (k - 1) / (1 - a))`` of each accuracy ``a`` (clipped to 1e-12 from 0 and 1,
    so a perfect voter weighs about 27.6 + log(k - 1), not infinity)."""
    a = np.clip(np.asarray(accuracy, dtype=np.float64), 1e-12, 1.0 - 1e-12)
    return np.asarray(np.log(a * (k - 1) / (1.0 - a)))


def vote_weights(method: str, params: Mapping[str, Any], prior: Any, model_accuracy: float,
                 k: int) -> tuple[float, float]:
    """The model's weight and the median annotator's (see the module's docstring);
    ``params`` are the annotators' public parameters, ``prior`` the class prior."""
    if method == "dawid_skene":
        crowd = np.einsum("rcc,c->r", params["confusion"], prior)
    elif method == "mace":
        a = np.asarray(params["competence"])
        crowd = a + (1.0 - a) * (np.asarray(params["strategy"]) @ prior)
    else:
        crowd = np.asarray(params["accuracy"])
    return (float(vote_weight(model_accuracy, k)),
            float(np.median(vote_weight(crowd, k))) if crowd.size else math.nan)
