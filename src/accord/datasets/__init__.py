"""Example data from the literature, each with its citation, loaded on first use.

Each data set is a small JSON file shipped with accord and read only when asked
for; :func:`load` (or the function named after the data set) returns a frozen
:class:`Dataset` holding the values exactly as published, a description and
the citation, with ``as_annotations()`` / ``as_table()`` to feed a coefficient.

=============================  ======  =========================================
name                           kind    what
=============================  ======  =========================================
``cohen_1960``                 table   Cohen (1960, p. 45): 2 judges, 200 subjects
``feinstein_cicchetti_1990_a``  table   kappa paradox, balanced: p_o .85, kappa .70
``feinstein_cicchetti_1990_b``  table   kappa paradox, skewed: p_o .85, kappa .32
``fleiss_1971``                counts  Fleiss (1971): 30 patients x 5 diagnoses
``fleiss_1971_wide``           wide    the same as 30 x 6 rating slots (R irr)
``gwet_2014_abstractors``      table   Gwet (2014): 2 abstractors, 100 pregnancies
``irr_anxiety``                wide    R irr's anxiety: 20 subjects x 3 raters, 1-6
``krippendorff_2011``          wide    Krippendorff (2011) example C, missing values
``shrout_fleiss_1979``         wide    Shrout & Fleiss (1979): 6 targets x 4 judges
=============================  ======  =========================================

Examples
--------
>>> import accord
>>> ds = accord.datasets.load("feinstein_cicchetti_1990_b")
>>> ds.data
((80, 10), (5, 5))
>>> round(accord.cohen_kappa(ds.as_table()).estimate, 2)
0.32
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.errors import DataError

__all__ = [
    "Dataset",
    "cohen_1960",
    "feinstein_cicchetti_1990_a",
    "feinstein_cicchetti_1990_b",
    "fleiss_1971",
    "fleiss_1971_wide",
    "gwet_2014_abstractors",
    "irr_anxiety",
    "krippendorff_2011",
    "list",
    "load",
    "names",
    "prevalence_paradox",
    "shrout_fleiss_1979",
]

Kind = Literal["wide", "table", "counts"]

_NAMES: tuple[str, ...] = (
    "cohen_1960",
    "feinstein_cicchetti_1990_a",
    "feinstein_cicchetti_1990_b",
    "fleiss_1971",
    "fleiss_1971_wide",
    "gwet_2014_abstractors",
    "irr_anxiety",
    "krippendorff_2011",
    "shrout_fleiss_1979",
)


@dataclass(frozen=True)
class Dataset:
    """A published data set: the values, what they are, and where they come from.

    Attributes
    ----------
    name, title : str
        Key for :func:`load`, and a one-line title.
    kind : {"wide", "table", "counts"}
        ``"wide"``: one row per unit, one column per rater (``None`` = not rated);
        ``"table"``: a k x k two-rater contingency table (rows = first rater);
        ``"counts"``: units x categories, how many raters chose each category.
    data : tuple of tuples
        The values as published.
    description, citation : str
        What the data are, and the reference to cite.
    categories : tuple or None
        The category order (``None`` for numeric ratings such as ICC data).
    category_labels : mapping or None
        What the category codes stand for, where the source names them.
    raters : tuple of str or None
        Column names (wide) or the two raters (table).
    level : str or None
        The level of measurement the source analyses the data at.
    published : mapping of str to float
        Figures printed in the source (rounded as printed), for reference.
    """

    name: str
    title: str
    kind: Kind
    data: tuple[tuple[Any, ...], ...]
    description: str
    citation: str
    categories: tuple[Any, ...] | None = None
    category_labels: Mapping[Any, str] | None = None
    raters: tuple[str, ...] | None = None
    level: str | None = None
    published: Mapping[str, float] = field(default_factory=dict)

    def as_array(self) -> NDArray[Any]:
        """The values as a numpy array (``nan`` where a wide table has no rating)."""
        if self.kind == "wide":
            return np.array([[np.nan if x is None else x for x in row] for row in self.data],
                            dtype=np.float64)
        return np.array(self.data, dtype=np.int64)

    def as_annotations(self) -> Any:
        """The ratings as :class:`~accord.Annotations` (wide data sets only)."""
        from accord.data.annotations import Annotations

        if self.kind != "wide":
            raise DataError(
                f"data set {self.name!r} is a {self.kind} summary without unit-level ratings; "
                "use as_table() instead."
            )
        columns = {r: [row[j] for row in self.data] for j, r in enumerate(self.raters or ())}
        return Annotations.from_wide(columns, categories=self.categories,
                                     level=self.level)  # type: ignore[arg-type]

    def as_table(self) -> Any:
        """The sufficient statistic: a ContingencyTable (table) or RaterCounts (counts)."""
        if self.kind == "table":
            from accord.tables.contingency import ContingencyTable

            return ContingencyTable(self.data, self.categories)
        if self.kind == "counts":
            from accord.tables.rater_counts import RaterCounts

            return RaterCounts(self.data, self.categories)
        raise DataError(
            f"data set {self.name!r} holds unit-level ratings; use as_annotations() "
            "(or pass as_array() to a coefficient)."
        )

    def __repr__(self) -> str:
        return f"Dataset({self.name!r}, kind={self.kind!r}, {len(self.data)} rows: {self.title})"


def names() -> tuple[str, ...]:
    """The names of the bundled data sets, sorted.

    >>> "fleiss_1971" in names()
    True
    """
    return _NAMES


def list() -> builtins.list[Dataset]:  # noqa: A001 - the brief's name, as accord.datasets.list()
    """Every bundled data set (each file is read on first use)."""
    return [load(name) for name in _NAMES]


def load(name: str) -> Dataset:
    """The data set called ``name`` (see :func:`names`), read on first use and cached.

    >>> load("shrout_fleiss_1979").as_array().shape
    (6, 4)
    """
    if not isinstance(name, str):
        raise v.fail("name", "accord.datasets.load", "one of accord.datasets.names()", name)
    return _read(v.choice(name, _NAMES, param="name", func="accord.datasets.load"))


@cache
def _read(name: str) -> Dataset:
    raw = json.loads(resources.files(__package__).joinpath(f"{name}.json").read_text("utf-8"))
    labels = raw.get("category_labels")
    categories = raw.get("categories")
    return Dataset(
        name=raw["name"], title=raw["title"], kind=raw["kind"],
        data=tuple(tuple(row) for row in raw["data"]),
        description=raw["description"], citation=raw["citation"],
        categories=None if categories is None else tuple(categories),
        category_labels=None if labels is None else MappingProxyType(
            {_key(k, categories): text for k, text in labels.items()}),
        raters=None if raw.get("raters") is None else tuple(raw["raters"]),
        level=raw.get("level"),
        published=MappingProxyType(dict(raw.get("published", {}))),
    )


def _key(text: str, categories: builtins.list[Any] | None) -> Any:
    """JSON object keys are strings; map them back to the category they name."""
    for c in categories or ():
        if str(c) == text:
            return c
    return text


def cohen_1960() -> Dataset:
    """Cohen (1960, p. 45): two judges, 200 subjects, three categories (a 3 x 3 table)."""
    return load("cohen_1960")


def feinstein_cicchetti_1990_a() -> Dataset:
    """Feinstein & Cicchetti (1990), balanced table: p_o = .85 and kappa = .70."""
    return load("feinstein_cicchetti_1990_a")


def feinstein_cicchetti_1990_b() -> Dataset:
    """Feinstein & Cicchetti (1990), skewed table: p_o = .85 but kappa = .32."""
    return load("feinstein_cicchetti_1990_b")


def prevalence_paradox() -> tuple[Dataset, Dataset]:
    """The pair of Feinstein & Cicchetti (1990): same p_o = .85, kappa .70 against .32.

    >>> import accord
    >>> [round(accord.cohen_kappa(d.as_table()).estimate, 2) for d in prevalence_paradox()]
    [0.7, 0.32]
    """
    return feinstein_cicchetti_1990_a(), feinstein_cicchetti_1990_b()


def fleiss_1971() -> Dataset:
    """Fleiss (1971): 30 patients, 6 psychiatrists each, 5 diagnoses (units x categories counts)."""
    return load("fleiss_1971")


def fleiss_1971_wide() -> Dataset:
    """The Fleiss (1971) diagnoses as 30 x 6 rating slots, laid out as R irr's ``diagnoses``."""
    return load("fleiss_1971_wide")


def gwet_2014_abstractors() -> Dataset:
    """Gwet (2014): two abstractors classify 100 pregnancies (irrCAC ``cont3x3abstractors``)."""
    return load("gwet_2014_abstractors")


def irr_anxiety() -> Dataset:
    """R irr's ``anxiety``: 20 subjects x 3 raters on a 6-point scale (Kendall's W, Finn)."""
    return load("irr_anxiety")


def krippendorff_2011() -> Dataset:
    """Krippendorff (2011), example C: 4 observers, 12 units, values 1-5, missing values."""
    return load("krippendorff_2011")


def shrout_fleiss_1979() -> Dataset:
    """Shrout & Fleiss (1979), Table 2: 6 targets rated by 4 judges."""
    return load("shrout_fleiss_1979")
