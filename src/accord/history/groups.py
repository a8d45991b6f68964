"""One analysis per group of units: batches, guideline versions, languages, teams.

:func:`groups` splits an :class:`~accord.data.annotations.Annotations` by a group
label per unit; :meth:`Groups.apply` runs any coefficient on each group and on
the pooled data, so the groups are shown side by side with their intervals and
can be compared as independent samples (:func:`accord.compare`,
:func:`accord.homogeneity`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError, DegenerateDataWarning
from accord.inference.display import Tabular
from accord.inference.results import AgreementResult

__all__ = ["MISSING_GROUP", "GroupedResult", "Groups", "group_result", "groups"]

#: The name of the group of units that have no group label (``missing="group"``).
MISSING_GROUP = "(missing)"

GroupBy = Mapping[Any, Any] | Sequence[Any] | Callable[[Any], Any]


@dataclass(frozen=True)
class Groups:
    """Annotations split into groups of units, in order of first appearance.

    Attributes
    ----------
    names : tuple of str
        The group labels (as text).
    parts : tuple of Annotations
        The annotations of each group.
    pooled : Annotations
        All the units together.
    notes : tuple of str
        What was decided on the way (units without a group label), one sentence each.
    """

    names: tuple[str, ...]
    parts: tuple[Annotations, ...]
    pooled: Annotations
    notes: tuple[str, ...] = ()

    def __getitem__(self, name: str) -> Annotations:
        return self.parts[self.names.index(name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def items(self) -> list[tuple[str, Annotations]]:
        """``(name, annotations)`` for each group."""
        return list(zip(self.names, self.parts))

    def apply(self, coefficient: Callable[..., AgreementResult], /,
              **options: Any) -> GroupedResult:
        """``coefficient(group, **options)`` on each group and on the pooled units.

        A group that cannot be analysed (fewer than two units, or data the
        coefficient refuses) gets an undefined result whose reason says why, with
        a :class:`~accord.errors.DegenerateDataWarning`; the other groups are kept.
        """
        label = getattr(coefficient, "__name__", "coefficient")
        results = tuple(group_result(lambda a: coefficient(a, **options), name, ann, label)
                        for name, ann in self.items())
        pooled = coefficient(self.pooled, **options)
        return GroupedResult(self.names, results, pooled, self.notes)


@dataclass(frozen=True)
class GroupedResult(Tabular):
    """One coefficient per group, and on the pooled units.

    Attributes
    ----------
    names : tuple of str
    results : tuple of AgreementResult
        One per group, in the order of ``names``.
    pooled : AgreementResult
        On all units together.
    notes : tuple of str
    """

    names: tuple[str, ...]
    results: tuple[AgreementResult, ...]
    pooled: AgreementResult
    notes: tuple[str, ...] = ()

    def __getitem__(self, name: str) -> AgreementResult:
        return self.results[self.names.index(name)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: each group's result, the pooled one and the notes."""
        return {
            "groups": [{"group": n, **r.to_dict()} for n, r in zip(self.names, self.results)],
            "pooled": self.pooled.to_dict(),
            "notes": list(self.notes),
        }


def groups(annotations: Annotations, /, *, by: GroupBy,
           missing: Literal["group", "error"] = "group") -> Groups:
    """Split ``annotations`` into groups of units.

    Parameters
    ----------
    annotations : Annotations
    by : mapping, sequence or callable
        The group of each unit: a mapping from unit label to group, a sequence
        aligned with ``annotations.units``, or a function of the unit label.
    missing : {"group", "error"}
        Units whose group is missing (``None``, NaN, empty text, or absent from a
        mapping): analysed together as the group ``"(missing)"`` (said in
        ``notes``), or refused.

    Returns
    -------
    Groups
        In the order in which the groups first appear among the units.

    Examples
    --------
    >>> import accord
    >>> ann = accord.Annotations.from_long(
    ...     [(u, r, v) for u, pair in zip("abcdef", ["yy", "yn", "nn", "yy", "nn", "ny"])
    ...      for r, v in zip("AB", pair)], unit=0, rater=1, value=2)
    >>> g = accord.groups(ann, by={"a": "pilot", "b": "pilot", "c": "pilot",
    ...                            "d": "week 1", "e": "week 1", "f": "week 1"})
    >>> g.names, [p.n_units for p in g.parts]
    (('pilot', 'week 1'), [3, 3])
    >>> res = g.apply(accord.percent_agreement)
    >>> [round(r.estimate, 4) for r in res.results], round(res.pooled.estimate, 4)
    ([0.6667, 0.6667], 0.6667)
    """
    func = "groups"
    if not isinstance(annotations, Annotations):
        raise v.fail("annotations", func, "an accord.Annotations",
                     f"a {type(annotations).__name__}")
    v.choice(missing, ("group", "error"), param="missing", func=func)
    labels = _labels(annotations, by)
    absent = [u for u, g in zip(annotations.units, labels) if g is None]
    if absent and missing == "error":
        raise DataError(f"{len(absent)} unit(s) have no group (e.g. {absent[0]!r}); give "
                        "every unit a group, or missing='group' to analyse them together.")
    names = [MISSING_GROUP if g is None else g for g in labels]
    order = list(dict.fromkeys(names))
    parts = tuple(_part(annotations, np.array([n == name for n in names]))
                  for name in order)
    notes = (f"{len(absent)} unit(s) have no group; they are analysed together as the "
             f"group {MISSING_GROUP!r}",) if absent else ()
    return Groups(tuple(order), parts, annotations, notes)


def _labels(ann: Annotations, by: GroupBy) -> list[str | None]:
    units = ann.units
    if isinstance(by, Mapping):
        raw = [by.get(u) for u in units]
    elif callable(by):
        raw = [by(u) for u in units]
    elif isinstance(by, Sequence) and not isinstance(by, (str, bytes)):
        if len(by) != len(units):
            raise v.fail("by", "groups", f"a group for each of the {len(units)} units",
                         f"{len(by)} groups")
        raw = list(by)
    else:
        raise v.fail("by", "groups", "a mapping unit -> group, a sequence aligned with the "
                     "units, or a function of the unit", f"a {type(by).__name__}")
    return [None if _is_missing(g) else str(g) for g in raw]


def _is_missing(g: Any) -> bool:
    if g is None:
        return True
    if isinstance(g, float) and math.isnan(g):
        return True
    return isinstance(g, str) and not g.strip()


def _part(ann: Annotations, unit_mask: np.ndarray) -> Annotations:
    unit_codes, rater_codes, _ = ann.codes
    keep = unit_mask[unit_codes]
    return ann._subset(keep, rater_codes[keep], ann.raters)


def group_result(compute: Callable[[Annotations], AgreementResult], name: str,
                 ann: Annotations, coefficient: str) -> AgreementResult:
    """``compute(ann)`` for the group ``name``, or an undefined result that says why not
    (fewer than two units, or data the coefficient refuses), with a
    :class:`~accord.errors.DegenerateDataWarning`."""
    if ann.n_units < 2:
        return _undefined(coefficient, ann, f"group {name!r} has {ann.n_units} unit; "
                          "agreement needs at least two units")
    try:
        return compute(ann)
    except DataError as exc:  # a bad option raises for every group alike: not caught
        return _undefined(coefficient, ann, f"group {name!r}: {exc}")


def _undefined(coefficient: str, ann: Annotations, reason: str) -> AgreementResult:
    warnings.warn(reason, DegenerateDataWarning, stacklevel=4)
    nan = math.nan
    return AgreementResult(coefficient, nan, nan, nan, nan, ann.n_units, ann.n_raters,
                           undefined_reason=reason)
