"""The canonical long table every coefficient reads: (unit, rater, value).

Values are held as integer codes into an ordered tuple of ``categories``;
units and raters as codes into their labels. Missing values (None, NaN, the
empty string and markers the user names) are counted and dropped, never turned
into a category. What was read, used and dropped, and why, is kept in
:attr:`Annotations.audit`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _encoding as enc
from accord.data import _sets
from accord.data import _validation as v
from accord.data._build import _interleave, _repeat_obj, _wide_columns, build_parts
from accord.data._frames import columns_of
from accord.data._names import LEVELS, RATER_KINDS
from accord.data._validation import check_kinds
from accord.data.audit import Audit, Duplicates, Level
from accord.errors import DataError, InsufficientDataError

__all__ = ["LEVELS", "RATER_KINDS", "Annotations", "Audit", "build"]



class Annotations:
    """Ratings as a long table of integer codes, with their labels.

    Build one with :meth:`from_long`, :meth:`from_wide` or :meth:`from_pairs`, or
    read a file with :func:`accord.read`.

    Examples
    --------
    >>> ann = Annotations.from_wide([["a", "a"], ["b", "a"], ["b", None]])
    >>> ann.n_units, ann.raters, ann.categories
    (3, ('rater_1', 'rater_2'), ('a', 'b'))
    >>> list(ann.records())[:2]
    [(0, 'rater_1', 'a'), (0, 'rater_2', 'a')]
    >>> ann.audit.dropped["missing value"]
    1
    """

    __slots__ = (
        "_unit_codes",
        "_rater_codes",
        "_value_codes",
        "units",
        "raters",
        "categories",
        "level",
        "kinds",
        "field",
        "audit",
        "spans",
        "meta",
        "_declared_order",
        "_set_valued",
        "_unit_counts",
    )

    def __init__(
        self,
        unit_codes: NDArray[np.int64],
        rater_codes: NDArray[np.int64],
        value_codes: NDArray[np.int64],
        *,
        units: Sequence[Any],
        raters: Sequence[Any],
        categories: Sequence[Any],
        level: Level | None = None,
        kinds: Mapping[Any, str] | None = None,
        field: str | None = None,
        audit: Audit | None = None,
        spans: Any = None,
        meta: Mapping[str, Any] | None = None,
        declared_order: bool = False,
        set_valued: bool | None = None,
    ) -> None:
        self._unit_codes = np.asarray(unit_codes, dtype=np.int64)
        self._rater_codes = np.asarray(rater_codes, dtype=np.int64)
        self._value_codes = np.asarray(value_codes, dtype=np.int64)
        self.units: tuple[Any, ...] = tuple(units)
        self.raters: tuple[Any, ...] = tuple(raters)
        self.categories: tuple[Any, ...] = tuple(categories)
        self.level: Level | None = level
        self.kinds: dict[Any, str] = {r: (kinds or {}).get(r, "human") for r in self.raters}
        self.field = field
        n = self._value_codes.shape[0]
        self.audit = audit or Audit("Annotations", n, n)
        self.spans = spans
        self.meta: dict[str, Any] = dict(meta or {})
        self._declared_order = bool(declared_order)
        # None: detect (a value that is a tuple, list, set or frozenset is a set of labels)
        self._set_valued = (any(map(_sets.is_set_label, self.categories))
                            if set_valued is None else bool(set_valued))
        self._unit_counts: NDArray[np.int64] | None = None

    # ----------------------------------------------------------------- constructors
    @classmethod
    def from_long(
        cls,
        data: Any,
        *,
        unit: str | int = "unit",
        rater: str | int = "rater",
        value: str | int = "value",
        categories: Sequence[Any] | None = None,
        level: Level | None = None,
        missing: Sequence[Any] = (),
        duplicates: Duplicates = "error",
        multilabel: bool = False,
        require_pairs: bool = True,
    ) -> Annotations:
        """Annotations from a long table: one row per (unit, rater, value).

        Parameters
        ----------
        data : mapping of columns, list of records, 2-D array, or a pandas/polars/pyarrow frame
            The table. For a list of tuples or a 2-D array, ``unit``, ``rater`` and
            ``value`` may be column positions.
        unit, rater, value : str or int
            The columns holding the unit id, the rater id and the label.
        categories : sequence, optional
            The category order; unused categories are kept. Default: sorted observed values.
        level : {"nominal", "ordinal", "interval", "ratio"}, optional
            The level of measurement; interval and ratio require numeric values.
        missing : sequence, optional
            Extra markers of a missing value (None, NaN and "" always are), e.g. ``["NA", "."]``.
        duplicates : {"error", "last"}
            What to do when a rater gave one unit two different values: raise, or keep
            the last one. The error names the route when the repeats look deliberate
            (label sets, pairwise comparisons); with ``"last"`` the ratings dropped
            are counted in ``audit.dropped`` and stated in ``audit.caveats``.
            Identical repeats always collapse.
        multilabel : bool
            The raters were asked for every label that applies: the rows of one
            (unit, rater) are one rating, the set of their labels (a sorted tuple; a
            repeated label counts once). The annotations are then
            :attr:`set_valued`. ``duplicates`` does not apply.
        require_pairs : bool
            Refuse data in which no unit was rated by two raters (agreement compares
            pairs). ``False`` keeps them: a consensus (:func:`accord.consensus`) of a
            crowd whose units were each rated once gives each unit its only label.

        Examples
        --------
        >>> rows = [("u1", "ann", "pos"), ("u1", "bob", "neg"), ("u2", "ann", "pos"),
        ...         ("u2", "bob", "pos")]
        >>> ann = Annotations.from_long(rows, unit=0, rater=1, value=2)
        >>> ann.units, ann.categories
        (('u1', 'u2'), ('neg', 'pos'))

        Several labels per rater and unit:

        >>> rows = [("u1", "ann", "toxic"), ("u1", "ann", "spam"), ("u1", "bob", "spam")]
        >>> ann = Annotations.from_long(rows, unit=0, rater=1, value=2, multilabel=True)
        >>> ann.set_valued, ann.categories, ann.labels
        (True, (('spam',), ('spam', 'toxic')), ('spam', 'toxic'))
        """
        func = "Annotations.from_long"
        cols = columns_of(data, [unit, rater, value], func=func)
        ann = build(cols[0], cols[1], cols[2], categories=categories, level=level,
                    missing=missing, duplicates=duplicates, source=func, multilabel=multilabel)
        return ann.require_pairable() if require_pairs else ann

    @classmethod
    def from_wide(
        cls,
        data: Any,
        *,
        raters: Sequence[str | int] | None = None,
        unit: str | int | None = None,
        categories: Sequence[Any] | None = None,
        level: Level | None = None,
        missing: Sequence[Any] = (),
        separator: str | None = None,
        set_valued: bool = False,
        kinds: Mapping[Any, str] | None = None,
        require_pairs: bool = True,
    ) -> Annotations:
        """Annotations from a wide table: one row per unit, one column per rater.

        Parameters
        ----------
        data : list of rows, 2-D array, mapping of columns, or a pandas/polars/pyarrow frame
            ``None``/``NaN``/"" cells are not rated.
        raters : sequence of column names or positions, optional
            The rater columns. Default: every column but the unit ids, non-ratings by
            name (``comment``, ...) and free text, which a :class:`~accord.LayoutWarning`
            names; a column of ids and a long table are refused (the readers' rules,
            :mod:`accord.data._columns`; see the frames guide).
        unit : column name or position, optional
            A column of unit ids; default: one named like unit ids (``item_id``, ``id``,
            ...) and not among ``raters``, else the row number.
        categories, level, missing
            As in :meth:`from_long`.
        kinds : mapping, optional
            The kind of some raters, e.g. ``{"gpt4": "llm"}`` (others are ``"human"``);
            kinds are ``"human"``, ``"model"``, ``"llm"`` and ``"gold"``.
        separator : str, optional
            A cell holds several labels joined by this string (``"toxic;spam"`` with
            ``separator=";"``): each cell is the set of its labels and the annotations
            are :attr:`set_valued`.
        set_valued : bool
            Read every cell as a set of labels (a single label is a one-label set).
            Cells that are tuples, lists, sets or frozensets always are.
        require_pairs : bool
            As in :meth:`from_long`.

        Examples
        --------
        >>> ann = Annotations.from_wide([["toxic;spam", "spam"], ["", "toxic"]], separator=";")
        >>> ann.set_valued, ann.categories
        (True, (('spam',), ('spam', 'toxic'), ('toxic',)))
        """
        func = "Annotations.from_wide"
        names, columns, unit_ids, caveat = _wide_columns(data, raters, unit, func)
        if separator is not None and (not isinstance(separator, str) or not separator):
            raise v.fail("separator", func, "a non-empty string such as ';'", separator)
        columns, set_valued = _sets.set_columns(columns, separator, set_valued)
        if set_valued and categories is not None:  # declared labels, not declared sets
            _sets.check_labels(columns, categories)
            categories = None
        n = unit_ids.shape[0]
        r = len(names)
        units = np.repeat(unit_ids, r) if unit_ids.dtype != object else _repeat_obj(unit_ids, r)
        rater_arr = np.empty(n * r, dtype=object)
        rater_arr[:] = [names[j] for _ in range(n) for j in range(r)] if n else []
        values = _interleave(columns)
        check_kinds(kinds, names, func=func)
        ann = build(units, rater_arr, values, categories=categories, level=level,
                    missing=missing, duplicates="error", source=func, rater_order=list(names),
                    set_valued=set_valued, caveats=[caveat] if caveat else [], kinds=kinds)
        return ann.require_pairable() if require_pairs else ann

    @classmethod
    def from_pairs(
        cls,
        y1: Any,
        y2: Any,
        *,
        categories: Sequence[Any] | None = None,
        level: Level | None = None,
        missing: Sequence[Any] = (),
        raters: tuple[str, str] = ("rater_1", "rater_2"),
    ) -> Annotations:
        """Annotations from two equally long label sequences (unit i = position i)."""
        a = enc.to_array(y1, name="y1")
        b = enc.to_array(y2, name="y2")
        if a.shape[0] != b.shape[0]:
            raise DataError(
                f"y1 and y2 must have the same length (one label per unit); "
                f"got {a.shape[0]} and {b.shape[0]}."
            )
        return cls.from_wide(
            {raters[0]: a, raters[1]: b}, categories=categories, level=level, missing=missing
        )

    # ----------------------------------------------------------------- views
    @property
    def n_units(self) -> int:
        """Number of units with at least one rating."""
        return len(self.units)

    @property
    def n_raters(self) -> int:
        """Number of raters."""
        return len(self.raters)

    @property
    def n_ratings(self) -> int:
        """Number of (unit, rater, value) ratings."""
        return int(self._value_codes.shape[0])

    @property
    def set_valued(self) -> bool:
        """Whether each rating is a set of labels (multi-label data).

        True when the data were read with ``multilabel=True`` or ``separator=``, or
        when a value is a tuple, list, set or frozenset (the readers keep a
        multi-choice answer as a sorted tuple). Coefficients that need one label per
        rating refuse such data; use :func:`accord.multilabel_agreement` or
        ``krippendorff_alpha(..., level="masi")``.
        """
        return self._set_valued

    @property
    def labels(self) -> tuple[Any, ...]:
        """The distinct single labels: the members of the sets when :attr:`set_valued`."""
        if not self._set_valued:
            return self.categories
        return _sets.sorted_tuple({x for c in self.categories for x in (_sets.canonical(c) or ())})

    def as_sets(self, separator: str | None = None) -> Annotations:
        """The same ratings with every value a sorted tuple of labels (set-valued).

        A single label ``"a"`` becomes ``("a",)``; with ``separator``, a text label
        ``"a;b"`` becomes ``("a", "b")``. Values that become the same set are merged.
        Only the distinct values are looked at, not every rating.

        Examples
        --------
        >>> ann = Annotations.from_wide([["a;b", "b;a"], ["a", "b"]])
        >>> ann.as_sets(";").categories
        (('a',), ('a', 'b'), ('b',))
        """
        if separator is not None and (not isinstance(separator, str) or not separator):
            raise v.fail("separator", "Annotations.as_sets", "a non-empty string such as ';'",
                         separator)
        sets = [_sets.canonical(c, separator) or () for c in self.categories]
        if self._set_valued and sets == list(self.categories):
            return self
        codes, distinct = enc.factorize(_sets.object_array(sets))
        return self._replace_values(codes[self._value_codes], distinct, set_valued=True)

    def _replace_values(self, value_codes: NDArray[np.int64], categories: Sequence[Any],
                        *, set_valued: bool) -> Annotations:
        return Annotations(
            self._unit_codes, self._rater_codes, value_codes, units=self.units,
            raters=self.raters, categories=categories, level=self.level, kinds=self.kinds,
            field=self.field, audit=self.audit, spans=self.spans, meta=self.meta,
            declared_order=self._declared_order, set_valued=set_valued,
        )

    @property
    def ordered(self) -> bool:
        """Whether the category order is a scale: declared, or the labels are numbers.

        Text labels read without ``categories=`` are in sorted order, which weighted
        coefficients and ordinal alpha then use with an
        :class:`~accord.UndeclaredOrderWarning`.
        """
        from accord.data.weights import numeric_labels

        return self._declared_order or numeric_labels(self.categories)

    @property
    def codes(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """The unit, rater and value code arrays (read-only views)."""
        out = (self._unit_codes.view(), self._rater_codes.view(), self._value_codes.view())
        for a in out:
            a.flags.writeable = False
        return out

    def unit_counts(self) -> NDArray[np.int64]:
        """Units x categories: how many ratings put each unit in each category, counted
        once and shared (read-only; :func:`~accord.data._encoding.unit_counts`)."""
        self._unit_counts = enc.unit_counts(self._unit_codes, self._value_codes,
                                            (self.n_units, len(self.categories)),
                                            self._unit_counts)
        return self._unit_counts

    def wide(self) -> NDArray[np.int64]:
        """The units x raters matrix of value codes, ``-1`` where not rated."""
        m = np.full((self.n_units, self.n_raters), -1, dtype=np.int64)
        m[self._unit_codes, self._rater_codes] = self._value_codes
        return m

    def numeric_values(self) -> NDArray[np.float64]:
        """The numeric value of each category (raises for non-numeric labels)."""
        try:
            return np.asarray(self.categories, dtype=np.float64)
        except (TypeError, ValueError):
            raise DataError(
                "numeric values are needed but the categories are not all numbers: "
                f"{list(self.categories)[:5]!r}"
            ) from None

    def records(self) -> Iterator[tuple[Any, Any, Any]]:
        """Yield ``(unit, rater, value)`` with the original labels, in stored order."""
        for u, r, c in zip(self._unit_codes, self._rater_codes, self._value_codes):
            yield self.units[u], self.raters[r], self.categories[c]

    def select(self, raters: Sequence[Any]) -> Annotations:
        """The annotations of the named raters only (in that order)."""
        raters = enc.label_list(raters, param="raters")
        missing = [r for r in raters if r not in self.raters]
        if missing:
            raise DataError(
                f"rater(s) {missing!r} not found; the raters are {list(self.raters)!r}."
            )
        idx = [self.raters.index(r) for r in raters]
        remap = np.full(self.n_raters, -1, dtype=np.int64)
        remap[idx] = np.arange(len(idx))
        keep = remap[self._rater_codes] >= 0
        return self._subset(keep, remap[self._rater_codes[keep]], tuple(raters))

    def humans(self) -> Annotations:
        """Only the raters of kind ``"human"``."""
        return self.select([r for r in self.raters if self.kinds.get(r) == "human"])

    def _subset(
        self, keep: NDArray[np.bool_], rater_codes: NDArray[np.int64], raters: tuple[Any, ...]
    ) -> Annotations:
        unit_codes = self._unit_codes[keep]
        used = np.flatnonzero(np.bincount(unit_codes, minlength=self.n_units))  # sorted, O(n)
        remap = np.full(self.n_units, -1, dtype=np.int64)
        remap[used] = np.arange(used.shape[0])
        units = self.units
        return Annotations(
            remap[unit_codes],
            rater_codes,
            self._value_codes[keep],
            units=[units[u] for u in used.tolist()],
            raters=raters,
            categories=self.categories,
            level=self.level,
            kinds={r: self.kinds[r] for r in raters},
            field=self.field,
            audit=self.audit,
            spans=self.spans,
            meta=self.meta,
            declared_order=self._declared_order,
            set_valued=self._set_valued,
        )

    def with_categories(
        self, categories: Sequence[Any], *, level: Level | None = None
    ) -> Annotations:
        """The same ratings with a declared category order (unused categories kept)."""
        if level is not None:
            v.choice(level, LEVELS, param="level", func="Annotations.with_categories")
        categories = enc.label_list(categories, param="declared categories")
        labels = np.empty(len(self.categories), dtype=object)
        labels[:] = list(self.categories)
        mapped = enc.encode_declared(labels, categories, name="the data")
        return Annotations(
            self._unit_codes,
            self._rater_codes,
            mapped[self._value_codes],
            units=self.units,
            raters=self.raters,
            categories=categories,
            level=level or self.level,
            kinds=self.kinds,
            field=self.field,
            audit=self.audit,
            spans=self.spans,
            meta=self.meta,
            declared_order=True,
            set_valued=self._set_valued,
        )

    def require_pairable(self) -> Annotations:
        """Raise unless there are two raters and at least one unit rated by two of them."""
        if self.n_ratings == 0:
            raise InsufficientDataError(self._no_ratings())
        if self.n_raters < 2:
            raise InsufficientDataError(
                f"agreement needs at least two raters; found {self.n_raters} "
                f"({list(self.raters)!r})."
            )
        per_unit = np.bincount(self._unit_codes, minlength=self.n_units)
        if not np.any(per_unit >= 2):
            raise InsufficientDataError(
                "no unit was rated by two or more raters, so there is nothing to compare."
            )
        return self

    def _no_ratings(self) -> str:
        """Why there is nothing to compare, naming the source and the route for spans or boxes."""
        source = self.audit.source
        n_spans = len(self.spans) if self.spans is not None else 0
        if n_spans:
            return (f"{source}: the data hold spans only ({n_spans} span(s) in field "
                    f"{self.spans.field!r}), no label per unit and rater; compare spans "
                    "with accord.span_agreement (accord CLI: accord spans).")
        if (said := v.shapes_only(self.meta, source)) is not None:
            return said
        dropped = sum(self.audit.dropped.values())
        why = f" ({dropped} missing or skipped)" if dropped else ""
        return f"{source}: the data hold no ratings{why}, so there is nothing to compare."

    def __repr__(self) -> str:
        return (
            f"Annotations(n_units={self.n_units}, raters={list(self.raters)!r}, "
            f"categories={list(self.categories)[:8]!r}{'...' if len(self.categories) > 8 else ''}, "
            f"level={self.level!r}, n_ratings={self.n_ratings}"
            f"{', set_valued=True' if self._set_valued else ''})"
        )


def build(units: NDArray[Any], raters: NDArray[Any], values: NDArray[Any],
          **options: Any) -> Annotations:
    """Encode three aligned columns into :class:`Annotations`, recording the audit.

    The options are those of :func:`accord.data._build.build_parts`, which holds the
    encoding; this does not require two raters (readers use it to show what a file
    holds).
    """
    unit_codes, rater_codes, value_codes, parts = build_parts(units, raters, values, **options)
    return Annotations(unit_codes, rater_codes, value_codes, **parts)
