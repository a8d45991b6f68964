"""Evaluating the raters of an :class:`~accord.Annotations` object against a reference.

The reference is a rater (by default the one rater of kind ``"gold"``); the
systems are raters (by default those of kind ``"model"`` or ``"llm"``); the
other raters of kind ``"human"`` give the human ceiling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord.data.annotations import Annotations
from accord.errors import DataError, InsufficientDataError
from accord.evaluation._inputs import Counted
from accord.tables.contingency import ContingencyTable

SYSTEM_KINDS = ("model", "llm")


@dataclass(frozen=True)
class Roles:
    """Who is the reference, who are the systems and who are the humans."""

    reference: Any
    systems: tuple[Any, ...]
    humans: tuple[Any, ...]


def roles(ann: Annotations, reference: Any, systems: Any) -> Roles:
    """Resolve ``reference=`` and ``systems=`` against the raters and their kinds."""
    ref = _reference(ann, reference)
    if systems is None:
        chosen = tuple(r for r in ann.raters if ann.kinds.get(r) in SYSTEM_KINDS and r != ref)
        if not chosen:
            raise DataError(
                f"no rater is of kind 'model' or 'llm' to evaluate against {ref!r}; name the "
                f"systems with systems=[...] (the raters are {list(ann.raters)!r})."
            )
    else:
        chosen = (systems,) if isinstance(systems, (str, int)) else tuple(systems)
        _exists(ann, chosen, "systems")
        if ref in chosen:
            raise DataError(f"{ref!r} is the reference; it cannot also be one of the systems.")
    humans = tuple(r for r in ann.raters
                   if ann.kinds.get(r, "human") == "human" and r != ref and r not in chosen)
    return Roles(ref, chosen, humans)


def _reference(ann: Annotations, reference: Any) -> Any:
    if reference is not None:
        _exists(ann, (reference,), "reference")
        return reference
    gold = [r for r in ann.raters if ann.kinds.get(r) == "gold"]
    if len(gold) == 1:
        return gold[0]
    which = (f"the raters of kind 'gold' are {gold!r}" if gold
             else f"no rater is of kind 'gold' (the raters are {list(ann.raters)!r})")
    raise DataError(f"name the reference rater with reference=...: {which}.")


def _exists(ann: Annotations, names: Sequence[Any], param: str) -> None:
    missing = [r for r in names if r not in ann.raters]
    if missing:
        raise DataError(f"{param}: rater(s) {missing!r} not found; the raters are "
                        f"{list(ann.raters)!r}.")


def count_raters(ann: Annotations, reference: Any, system: Any,
                 units: np.ndarray[Any, Any] | None = None) -> Counted:
    """The confusion matrix of ``system`` against ``reference`` on the units both labelled.

    ``units`` (a boolean mask over ``ann.units``) restricts the units considered.
    """
    wide = ann.wide()
    ref = wide[:, ann.raters.index(reference)]
    sys_ = wide[:, ann.raters.index(system)]
    scope = np.ones(ref.shape[0], dtype=bool) if units is None else units
    has_ref, has_sys = (ref >= 0) & scope, (sys_ >= 0) & scope
    both = has_ref & has_sys
    if not both.any():
        raise InsufficientDataError(
            f"no unit has both a label from the reference {reference!r} and one from "
            f"{system!r}, so there is nothing to evaluate."
        )
    ids = [u for u, keep in zip(ann.units, both) if keep]
    table = ContingencyTable.from_codes(ref[both], sys_[both], ann.categories, unit_ids=ids)
    table.ordered = ann.ordered
    # as the list API: every unit without a reference label, those no rater labelled too
    empty = int(ann.meta.get("units_without_ratings", 0)) if units is None else 0
    return Counted(table, None, int((scope & ~has_ref).sum()) + empty,
                   int((has_ref & ~has_sys).sum()))


def shared_units(ann: Annotations, raters: Sequence[Any]) -> np.ndarray[Any, Any]:
    """Mask of the units every one of ``raters`` labelled."""
    wide = ann.wide()
    cols = [ann.raters.index(r) for r in raters]
    return np.asarray((wide[:, cols] >= 0).all(axis=1))
