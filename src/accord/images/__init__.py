"""Agreement on image regions: boxes matched by IoU.

* :mod:`accord.images.matching`: IoU on arrays and one-to-one matching per image
  and annotator pair (``scipy.optimize.linear_sum_assignment``), and the matched
  groups across annotators;
* :func:`box_agreement`: pairwise F1, mean IoU and Krippendorff's alpha on matched
  objects, per label and per pair, over COCO's IoU thresholds, with a bootstrap
  over images;
* :func:`box_consensus`: one box per object the annotators drew, where a quorum of
  them drew it (CVAT's rule), fused by a mean weighted by each annotator's agreement;
* :func:`keypoint_agreement`: the same figures for keypoints, matched by COCO's
  Object Keypoint Similarity (:mod:`accord.images.keypoints`);
* :func:`polygon_agreement`: the same figures for polygons, matched by their exact IoU
  (shapely, the ``images`` extra; :mod:`accord.images.polygons`);
* :func:`keypoint_consensus` and :func:`polygon_consensus`: the boxes' consensus rules
  with OKS and polygon IoU, keypoints fused point by point and outlines by the weighted
  majority of area;
* :func:`evaluate_boxes`: a model's boxes against a reference: precision, recall
  and F1 at an IoU threshold, and COCO's AP, AP50 and AP75 (as pycocotools), with a
  bootstrap over images;
* :mod:`accord.readers.boxes` (the table of boxes) and :mod:`accord.readers.coco`
  (COCO JSON).
"""

from accord.images.agreement import BoxAgreement, BoxFigures, box_agreement
from accord.images.consensus import BoxConsensus, box_consensus
from accord.images.detection import BoxDetection, evaluate_boxes
from accord.images.keypoint_consensus import KeypointConsensus, keypoint_consensus
from accord.images.keypoints import KeypointAgreement, keypoint_agreement
from accord.images.polygon_consensus import PolygonConsensus, polygon_consensus
from accord.images.polygons import PolygonAgreement, polygon_agreement

__all__ = [
    "BoxAgreement",
    "BoxConsensus",
    "BoxDetection",
    "BoxFigures",
    "KeypointAgreement",
    "KeypointConsensus",
    "PolygonAgreement",
    "PolygonConsensus",
    "box_agreement",
    "box_consensus",
    "evaluate_boxes",
    "keypoint_agreement",
    "keypoint_consensus",
    "polygon_agreement",
    "polygon_consensus",
]
