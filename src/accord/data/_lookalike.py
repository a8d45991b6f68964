"""Categories that look the same but are not: ``'cat'`` and ``'cat '``, a Cyrillic
``'сat'``, ``'café'`` written with a combining accent (NFD) beside the precomposed one
(NFC).

Labels are kept exactly as written (two spellings may be meant), but such pairs are
almost always one label typed or exported two ways, and they split a category's
ratings in two. :func:`look_alike_caveat` says so, once, naming the first groups.
Two labels look alike when they share a *skeleton*: Unicode NFKC normalisation (which
also folds full-width and compatibility forms), runs of whitespace collapsed and
stripped, and the Cyrillic and Greek letters that are drawn like Latin ones mapped to
them (a small subset of Unicode's confusables, UTS #39, enough for labels).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

__all__ = ["LOOK_ALIKE", "look_alike_caveat", "skeleton"]

LOOK_ALIKE = "look-alike labels"
_CONFUSABLE = str.maketrans(
    "асеорхуіѕјԁАВЕКМНОРСТХУІЅЈοΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aceopxyisjdABEKMHOPCTXYISJoABEZHIKMNOPTYX",
)


def skeleton(label: str) -> str:
    """The form two look-alike labels share.

    >>> skeleton(" cat  ") == skeleton("c\\u0430t") == skeleton("ｃａｔ") == "cat"
    True
    >>> skeleton("cafe\\u0301") == skeleton("caf\\u00e9")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", label).translate(_CONFUSABLE).split())


def look_alike_caveat(categories: Sequence[Any]) -> list[str]:
    """One caveat naming the groups of text categories with the same skeleton (none when
    there is no such group)."""
    groups: dict[str, list[str]] = {}
    for c in categories:
        if isinstance(c, str):
            groups.setdefault(skeleton(c), []).append(c)
    clash = [g for g in groups.values() if len(g) > 1]
    if not clash:
        return []
    shown = "; ".join(" and ".join(ascii(x) for x in g[:3]) for g in clash[:3])
    more = f" and {len(clash) - 3} more" if len(clash) > 3 else ""
    return [f"{LOOK_ALIKE}: {len(clash)} group(s) of categories differ only in spaces, "
            f"Unicode normalisation or look-alike letters ({shown}{more}) and are counted "
            "as different categories; correct the data if each group is one label"]
