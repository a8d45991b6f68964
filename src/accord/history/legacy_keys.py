"""Runs recorded before JSON schema version 2, read with today's keys.

A run's evidence register is stored as the JSON the recording accord wrote. Up
to schema version 1 that JSON named p_o and p_e ``observed`` and ``expected``
for every coefficient (D_o and D_e for Krippendorff's alpha), an interval
``interval`` (the decision's) and an interpretation's limits ``interval`` as a
``[low, high]`` list. The store is never rewritten (an older accord may still
share it); instead :func:`upgrade_register` renames those keys as they are read,
so a run reads the same whichever accord recorded it:

==========================================  ============================================
recorded as                                 read as
==========================================  ============================================
``observed``, ``expected`` (a coefficient)  ``observed_agreement``, ``expected_agreement``;
                                            ``observed_disagreement``,
                                            ``expected_disagreement`` for the coefficients
                                            of the form 1 - D_o / D_e
``interval`` ``{low, high, ...}``           ``confidence_interval`` ``{low, high, ...}``
``interval`` ``[low, high]``                ``confidence_interval`` ``{low, high,
                                            confidence_level}``
==========================================  ============================================
"""

from __future__ import annotations

from typing import Any

from accord.inference.results import DISAGREEMENT_COEFFICIENTS

__all__ = ["is_current", "upgrade_register"]

_LEGACY_KEYS = ('"observed":', '"expected":', '"interval":')


def is_current(text: str) -> bool:
    """Whether a register's JSON text holds none of the keys of schema version 1 (then
    :func:`upgrade_register` would return it equal, and is skipped: on a store of 10^5
    runs it was most of the reading time).

    >>> is_current('{"confidence_interval": {"low": 0.1}}'), is_current('{"interval": [0, 1]}')
    (True, False)
    """
    return not any(key in text for key in _LEGACY_KEYS)


def upgrade_register(doc: Any) -> Any:
    """``doc`` (a register read from the store) with the keys of schema version 2; a
    register already written with them is returned equal."""
    if isinstance(doc, list):
        return [upgrade_register(x) for x in doc]
    if not isinstance(doc, dict):
        return doc
    family = ("disagreement" if doc.get("coefficient") in DISAGREEMENT_COEFFICIENTS
              else "agreement")
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key in ("observed", "expected") and isinstance(doc.get("coefficient"), str) \
                and (value is None or isinstance(value, (int, float))):
            out[f"{key}_{family}"] = value
        elif key == "interval" and isinstance(value, dict) and {"low", "high"} <= set(value):
            out["confidence_interval"] = upgrade_register(value)
        elif key == "interval" and isinstance(value, list) and len(value) == 2:
            out["confidence_interval"] = {"low": value[0], "high": value[1],
                                          "confidence_level": doc.get("confidence_level")}
        else:
            out[key] = upgrade_register(value)
    return out
