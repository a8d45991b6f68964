"""What each reader looks for in a file's first bytes (or a folder's names).

Detection runs every check here and then imports only the reader that fits, so that
reading a CSV table does not load the tool exports' readers. Each function is the
``sniff`` of the :class:`~accord.readers._base.Reader` of the same name (a test holds
them together): ``sniff(path, head)`` returns a confidence in [0, 1] that ``path``,
whose first bytes are ``head`` (a directory has an empty head), is in that format.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

__all__ = ["BOX_SNIFF", "SNIFF"]

_BOM_BLANKS = b"\xef\xbb\xbf \r\n\t"
_ZIP_MAGIC = b"PK\x03\x04"
_CONLL_TAG = re.compile(r"^(O|[BIESLU]-\S+|\S+-[BIESLU])$")


def label_studio(path: Path, head: bytes) -> float:
    """JSON tasks with ``annotations`` (JSON) or ``annotator`` + ``annotation_id`` (JSON_MIN)."""
    start = head.lstrip(_BOM_BLANKS)[:1]
    if path.is_dir() or start not in (b"[", b"{"):
        return 0.0
    if b'"annotations"' in head and (b'"result"' in head or b'"data"' in head):
        return 0.95
    if b'"annotator"' in head and b'"annotation_id"' in head:
        return 0.9
    return 0.0


def label_studio_csv(path: Path, head: bytes) -> float:
    """A header with ``annotator``, ``annotation_id`` and ``id`` columns."""
    if path.is_dir():
        return 0.0
    first = head.split(b"\n", 1)[0].replace(b'"', b"").strip()
    for sep in (b",", b"\t"):
        cols = {c.strip() for c in first.split(sep)}
        if {b"annotator", b"annotation_id", b"id"} <= cols:
            return 0.95
    return 0.0


def prodigy(path: Path, head: bytes) -> float:
    """JSON Lines with ``_input_hash`` and ``answer``."""
    if path.is_dir() or not head.lstrip().startswith(b"{"):
        return 0.0
    return 0.95 if b'"_input_hash"' in head and b'"answer"' in head else 0.0


def doccano(path: Path, head: bytes) -> float:
    """Per-user JSONL: ``id``, ``text`` and a ``label`` list, ``entities`` or ``annotations``."""
    if path.is_dir():
        files = [p for p in path.iterdir() if p.suffix.lower() == ".jsonl"]
        return 0.7 if files and _doccano_head(_first_bytes(files[0], 4096)) else 0.0
    if path.suffix.lower() == ".zip" or head[:4] == _ZIP_MAGIC:
        import zipfile
        import zlib

        try:
            with zipfile.ZipFile(path) as zf:
                names = [n for n in zf.namelist() if n.lower().endswith(".jsonl")]
                if not names:
                    return 0.0
                with zf.open(names[0]) as fh:
                    return 0.8 if _doccano_head(fh.read(4096)) else 0.0
        except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError,
                EOFError):
            return 0.0
    return 0.8 if _doccano_head(head) else 0.0


def _doccano_head(head: bytes) -> bool:
    first = head.lstrip(_BOM_BLANKS)
    if not first.startswith(b"{") or b'"id"' not in head or b'"_input_hash"' in head:
        return False
    has_text = b'"text"' in head
    return has_text and (
        b'"label": [' in head
        or b'"label":[' in head
        or b'"entities"' in head
        or (b'"annotations"' in head and b'"user"' in head)
    )


def _first_bytes(path: Path, n: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(n)
    except OSError:
        return b""


def brat(path: Path, head: bytes) -> float:
    """A folder holding ``.ann`` files (directly or in annotator subfolders)."""
    if not path.is_dir():
        return 0.0
    try:
        return 0.9 if next(path.rglob("*.ann"), None) is not None else 0.0
    except OSError:
        return 0.0


def inception(path: Path, head: bytes) -> float:
    """``#FORMAT=WebAnno TSV 3`` files, or a folder / zip with ``annotation/`` in it."""
    if head.startswith(b"#FORMAT=WebAnno TSV 3"):
        return 0.95
    if path.is_dir():
        if (path / "annotation").is_dir():
            return 0.9
        first = next(path.rglob("*.tsv"), None)
        return 0.8 if first is not None and _webanno_head(first) else 0.0
    if head[:4] == _ZIP_MAGIC:
        import zipfile
        import zlib

        try:
            with zipfile.ZipFile(path) as zf:
                return (
                    0.9
                    if any(
                        n.startswith("annotation/") and n.endswith(".tsv") for n in zf.namelist()
                    )
                    else 0.0
                )
        except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError,
                EOFError):
            return 0.0
    return 0.0


def _webanno_head(path: Path) -> bool:
    head = _first_bytes(path, 32)
    return head.lstrip(b"\xef\xbb\xbf").startswith(b"#FORMAT=WebAnno TSV 3")


def mturk(path: Path, head: bytes) -> float:
    """A CSV header with ``HITId`` and ``WorkerId``."""
    if path.is_dir():
        return 0.0
    first = head.split(b"\n", 1)[0]
    return 0.95 if b"HITId" in first and b"WorkerId" in first else 0.0


def sagemaker(path: Path, head: bytes) -> float:
    """JSON Lines with a ``<attribute>-metadata`` holding ``job-name`` (or worker answers)."""
    if path.is_dir() or not head.lstrip().startswith(b"{"):
        return 0.0
    if b'-metadata"' in head and (b'"job-name"' in head or b"annotationsFromAllWorkers" in head):
        return 0.9
    return 0.0


def argilla(path: Path, head: bytes) -> float:
    """Records with ``<q>.responses`` (v2 flat), ``responses`` + ``fields`` (v2 nested),
    or ``user_id`` / ``status`` entries (v1)."""
    if path.is_dir() or head.lstrip(_BOM_BLANKS)[:1] not in (b"{", b"["):
        return 0.0
    if b'.responses"' in head:
        return 0.9
    if b'"responses"' in head and b'"fields"' in head:
        return 0.85
    if (
        b'"user_id"' in head
        and b'"status"' in head
        and (b'"external_id"' in head or b"-suggestion" in head)
    ):
        return 0.85
    return 0.0


def conll(path: Path, head: bytes) -> float:
    """Lines of a token and tags (``O``, ``B-PER``, ...), or a ``-DOCSTART-`` line."""
    if path.is_dir() or not head or b"\x00" in head:
        return 0.0
    text = head.decode("utf-8", "replace")
    lines = [ln.split() for ln in text.splitlines()[:200] if ln.strip()]
    if not lines:
        return 0.0
    if lines[0][0] == "-DOCSTART-":
        return 0.9
    tagged = sum(1 for c in lines if len(c) >= 2 and _CONLL_TAG.match(c[-1]))
    share = tagged / len(lines)
    if share < 0.9:
        return 0.0
    return 0.8 if path.suffix.lower() in (".conll", ".iob", ".bio") else 0.6


def coco(path: Path, head: bytes) -> float:
    """A JSON object with ``images``, ``annotations`` and ``categories`` (a COCO file)."""
    if path.is_dir() or path.suffix.lower() != ".json":
        return 0.0
    keys = (b'"images"', b'"annotations"', b'"categories"')
    return 0.9 if head.lstrip(_BOM_BLANKS)[:1] == b"{" and all(k in head for k in keys) else 0.0


def cvat(path: Path, head: bytes) -> float:
    """CVAT for images XML (or its zip) with ``<box``, ``<polygon``, ``<points`` or
    ``<skeleton`` shapes; one of tags only is refused."""
    if path.is_dir():
        return 0.0
    if head[:4] == _ZIP_MAGIC:
        import zipfile
        import zlib

        try:
            with zipfile.ZipFile(path) as zf:
                if "annotations.xml" not in zf.namelist():
                    return 0.0
                with zf.open("annotations.xml") as fh:
                    head = fh.read(len(head) or 65536)
        except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError,
                EOFError):
            return 0.0
    text = head.lstrip(_BOM_BLANKS)
    if not text.startswith(b"<") or b"<annotations" not in text[:8192]:
        return 0.0
    shapes = (b"<box ", b"<polygon ", b"<points ", b"<skeleton ")
    return 0.9 if b"<image " in text and any(t in text for t in shapes) else 0.0


_YOLO_LINE = re.compile(rb"^\s*\d+(\s+[-+0-9.eE]+){2,}\s*$")


def yolo(path: Path, head: bytes) -> float:
    """A folder of annotator folders holding ``class cx cy w h`` text files."""
    if not path.is_dir():
        return 0.0
    try:
        subs = [p for p in path.iterdir() if p.is_dir() and not p.name.startswith(".")]
        files = [f for s in subs for f in [next((t for t in s.rglob("*.txt")
                                                 if t.name != "classes.txt"), None)] if f]
    except OSError:
        return 0.0
    lines = [_first_line(f) for f in files]
    boxes = [ln for ln in lines if ln]
    return 0.8 if len(files) >= 2 and boxes and all(_YOLO_LINE.match(b) for b in boxes) else 0.0


def _first_line(path: Path) -> bytes:
    return next((ln for ln in _first_bytes(path, 4096).splitlines() if ln.strip()), b"")


def label_studio_boxes(path: Path, head: bytes) -> float:
    """Label Studio JSON tasks whose results are ``rectanglelabels``, ``polygonlabels`` or
    ``keypointlabels``."""
    regions = (b'"rectanglelabels"', b'"polygonlabels"', b'"keypointlabels"')
    return 0.95 if label_studio(path, head) and any(r in head for r in regions) else 0.0


def csv(path: Path, head: bytes) -> float:
    """Text with a delimiter on its first line; ``.csv``/``.tsv`` names win."""
    if path.is_dir() or not head:
        return 0.0
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv", ".tab"):
        return 0.5
    first = head.split(b"\n", 1)[0]
    if head.lstrip()[:1] in (b"{", b"[") or b"\x00" in head:
        return 0.0
    return 0.2 if (b"," in first or b"\t" in first or b";" in first) else 0.0


def parquet(path: Path, head: bytes) -> float:
    """The Parquet magic bytes ``PAR1``."""
    return 0.9 if head[:4] == b"PAR1" else 0.0


def jsonl(path: Path, head: bytes) -> float:
    """Lines starting with ``{``."""
    if path.is_dir():
        return 0.0
    return 0.3 if head.lstrip(_BOM_BLANKS).startswith(b"{") else 0.0


#: Reader name to its check.
SNIFF: dict[str, Callable[[Path, bytes], float]] = {
    "label_studio_boxes": label_studio_boxes,
    "label_studio": label_studio,
    "label_studio_csv": label_studio_csv,
    "prodigy": prodigy,
    "doccano": doccano,
    "brat": brat,
    "inception": inception,
    "mturk": mturk,
    "sagemaker": sagemaker,
    "argilla": argilla,
    "coco": coco,
    "cvat": cvat,
    "yolo": yolo,
    "conll": conll,
    "csv": csv,
    "parquet": parquet,
    "jsonl": jsonl,
}

#: The box readers' checks, for :func:`accord.readers.box_formats.read_boxes`.
BOX_SNIFF: dict[str, Callable[[Path, bytes], float]] = {
    "coco": coco,
    "cvat": cvat,
    "label_studio_boxes": label_studio_boxes,
    "yolo": yolo,
}
