"""What :func:`accord.read` gives for an image export: its boxes, polygons or keypoints.

An export of COCO, CVAT or Label Studio may hold boxes, polygons (outlines) or keypoints.
:func:`accord.read` puts the table of the shape it reads in ``Annotations.meta`` under
the shape's name (``"boxes"``: a :class:`~accord.readers.boxes.BoxTable`, what
:func:`accord.box_agreement` takes; ``"polygons"``: a
:class:`~accord.readers.polygons.PolygonTable`; ``"keypoints"``: a
:class:`~accord.readers.keypoints.KeypointTable`), read as
:func:`accord.polygon_agreement` and :func:`accord.keypoint_agreement` read them.

Which shape: ``shapes=`` names it; by default the one shape the export holds. A COCO
annotation's ``bbox`` beside its ``segmentation`` or ``keypoints`` is the box of that
same object, not another shape (and COCO's person keypoints sit on annotations that
also hold the person's outline), so a COCO file is read as its keypoints, else its
polygons, else its boxes, and a caveat names the others and the ``shapes=`` that reads
them. A CVAT or
Label Studio export whose regions are of several shapes (a ``<box>`` here, a
``<polygon>`` there) is refused in one sentence naming them and ``shapes=``.

The readers of :func:`accord.read` for these exports (``COCO``, ``CVAT``,
``LABEL_STUDIO_BOXES``) are here, above the modules of each format and shape, which
they call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord.errors import FormatError
from accord.readers import _sniff
from accord.readers._base import Reader

__all__ = ["COCO", "CVAT", "LABEL_STUDIO_BOXES", "SHAPES", "pick_shape", "read_shape"]

#: The shapes, from the least to the most specific.
SHAPES = ("boxes", "polygons", "keypoints")


def pick_shape(paths: list[Path], name: str, options: dict[str, Any]) -> tuple[str, str]:
    """The shape to read from ``paths`` (export ``name``) and the caveat that says so (empty
    when the export holds that shape only)."""
    from accord.readers.shape_formats import shapes_held

    chosen = options.get("shapes")
    if chosen is not None and chosen not in SHAPES:
        raise FormatError(f"accord.read: shapes={chosen!r} is not a shape; expected one of "
                          f"{list(SHAPES)!r}.")  # fmt: skip
    held = shapes_held(paths) or ("boxes",)
    objects = tuple(k for k in held if k != "boxes") if name == "coco" else held
    objects = objects or ("boxes",)
    if chosen is None and len(objects) > 1 and name != "coco":
        source = f"{paths[0]} holds" if len(paths) == 1 else f"{len(paths)} files hold"
        commands = " or ".join(f"accord {k}" for k in objects)
        raise FormatError(f"{source} {_listed(objects)}; read one of them with "
                          f"shapes={objects[0]!r} (or {_listed(objects[1:], 'or')}; accord "
                          f"CLI: {commands}).")
    shape = chosen if chosen is not None else objects[-1]
    others = tuple(k for k in held if k != shape)
    if not others:
        return shape, ""
    picks = " or ".join(f"shapes={k!r}" for k in others)
    return shape, (f"read as {shape}: the export also holds {_listed(others)} "
                   f"(read them with {picks})")


def _listed(names: tuple[str, ...], word: str = "and") -> str:
    quoted = [repr(n) if word == "or" else n for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} {word} {quoted[-1]}"


def read_shape(paths: list[Path], name: str, shape: str, options: dict[str, Any]) -> Any:
    """The Annotations of the polygons or keypoints of ``paths``: no labels per image, the
    table in ``meta[shape]``."""
    from accord.readers._box_rows import as_annotations
    from accord.readers.shape_formats import read_keypoints, read_polygons

    key = options.get("rater") if len(paths) == 1 else None
    if shape == "polygons":
        table = read_polygons(paths, rater_key=key, func="accord.read")
    else:
        names = options.get("names")
        if names is not None and name == "coco":
            raise FormatError("accord.read: names= names the keypoints of a table, CVAT "
                              "points or Label Studio; a COCO file names them in its "
                              "category's 'keypoints' list, so leave names= out.")
        table = read_keypoints(paths, rater_key=key, names=names, func="accord.read")
    return as_annotations(table, name, paths, shape)


def _with(ann: Any, caveat: str) -> Any:
    if caveat:
        ann.audit = ann.audit.with_caveats(caveat)
    return ann


def _keyed(name: str, paths: list[Path], options: dict[str, Any]) -> Any:
    """A COCO or CVAT export (``name``) as its shapes, or as its boxes with the annotator
    in ``rater=`` when one file holds every annotator's."""
    from accord.readers._box_rows import as_annotations

    shape, caveat = pick_shape(paths, name, options)
    if shape != "boxes":
        return _with(read_shape(paths, name, shape, options), caveat)
    if name == "coco":
        from accord.readers.coco import read_coco as read
    else:
        from accord.readers.cvat import read_cvat as read
    key = options.get("rater") if len(paths) == 1 else None
    table = read(paths, rater_key=key, func="accord.read")
    return _with(as_annotations(table, name, paths), caveat)


def _coco(paths: list[Path], options: dict[str, Any]) -> Any:
    return _keyed("coco", paths, options)


def _cvat(paths: list[Path], options: dict[str, Any]) -> Any:
    return _keyed("cvat", paths, options)


def _label_studio(paths: list[Path], options: dict[str, Any]) -> Any:
    from accord.readers._box_rows import as_annotations
    from accord.readers.label_studio_boxes import read_label_studio_boxes

    name = "label_studio_boxes"
    if options.get("field") is not None:
        raise FormatError(f"accord.read: field={options['field']!r} selects a question whose "
                          "labels are read, and this Label Studio export is read for its "
                          "regions; read its labels with format='label_studio' and this field=.")
    shape, caveat = pick_shape(paths, name, options)
    if shape != "boxes":
        return _with(read_shape(paths, name, shape, options), caveat)
    table = read_label_studio_boxes(paths, func="accord.read")
    return _with(as_annotations(table, name, paths), caveat)


COCO = Reader("coco", "COCO JSON (boxes, polygons or keypoints; one file per annotator, "
              "or rater= naming the annotation key)", _sniff.coco, _coco,
              ("shapes", "names"))
CVAT = Reader("cvat", "CVAT for images 1.1 XML with boxes, polygons or points (one job "
              "export per annotator)", _sniff.cvat, _cvat, ("shapes", "names"))
LABEL_STUDIO_BOXES = Reader(
    "label_studio_boxes", "Label Studio JSON export with rectanglelabels, polygonlabels or "
    "keypointlabels (one annotation per annotator, converted from percent to pixels)",
    _sniff.label_studio_boxes, _label_studio, ("shapes", "names"))
