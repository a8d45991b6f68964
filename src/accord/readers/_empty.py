"""Label sets: the cell that means "no label applies" read as the empty set.

``accord.read(..., empty_label="none")`` scores the label ``none`` as the empty set;
``empty_label=""`` scores an empty cell so (a blank cell, or one holding only spaces),
which is otherwise a missing rating. Other missing markers (``NA``, ``null``, ...) stay
missing either way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.data.annotations import Annotations


def check_empty_label(text: Any, func: str) -> None:
    """``empty_label`` is None or a string (``""`` for an empty cell)."""
    if text is not None and not isinstance(text, str):
        raise v.fail("empty_label", func, "None or a string such as 'none' ('' for an empty "
                     "cell)", text)


def with_empty_set(ann: Annotations, text: str) -> Annotations:
    """The ratings as label sets, the label ``text`` (``""``: an empty cell) scored as the
    empty set, the reading and its count said as a caveat."""
    sets = ann if ann.set_valued else ann.as_sets()
    target = (text.strip(),) if text.strip() else ()
    hits = np.asarray([c == target or (not text.strip() and c == ("",))
                       for c in sets.categories], dtype=bool)
    cats = [() if hit else c for c, hit in zip(sets.categories, hits)]
    distinct = list(dict.fromkeys(cats))
    remap = np.array([distinct.index(c) for c in cats], dtype=np.int64)
    units, raters, values = sets.codes
    n = int(np.count_nonzero(hits[values])) if values.shape[0] else 0
    what = "empty cell(s)" if not text.strip() else f"rating(s) {text!r}"
    rest = ("other missing markers (NA, null, ...) stay missing ratings" if not text.strip()
            else "an empty cell is a missing rating")
    note = (f"empty_label={text!r}: {n} {what} scored as the empty set (no label applies); "
            f"{rest}")
    return Annotations(units, raters, remap[values], units=sets.units, raters=sets.raters,
                       categories=distinct, level=sets.level, kinds=sets.kinds,
                       field=sets.field, audit=sets.audit.with_caveats(note), spans=sets.spans,
                       meta=sets.meta, set_valued=True)
