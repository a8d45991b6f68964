"""Agreement on boxes at scale: ``accord.box_agreement`` with its bootstrap intervals, and
kalphacv and pycocotools on the same data.

The data: N images x 3 annotators x 10 true boxes (x, y uniform in [0, 600), w, h uniform
in [20, 140), 5 labels), generated in chunks of 20,000 images. Each annotator draws a
jittered copy of each true box (normal noise, sd 3 px, on x, y, w, h), misses it with
probability 0.07, relabels it with probability 0.05 and adds an extra box with
probability 0.05 per true box. The table is built from the arrays as a ``BoxTable``
(reading a CSV is not timed here: ``bench_read.py`` covers readers).

Each size runs in a fresh interpreter (``--child``) that reports its wall and CPU time
for the counts (``box_agreement``: matching every image at the 11 thresholds), for the
intervals (``to_dict()``: the bootstrap interval of every figure at the chosen threshold,
all from one draw of 9,999 resamples of the images by default; the IoU sweep's on
request) and its peak resident memory (``VmHWM``: the process's own
high-water mark).

Peers on the same generator: kalphacv 1.5 (``calculate_iaa`` on COCO-style records, one
alpha per image, no interval) and pycocotools (``COCOeval`` of annotator b's boxes, score
1, against annotator a's as ground truth: its per-image IoU and greedy matching at its ten
thresholds, the closest thing it computes; no interval).

Usage: ``python benchmarks/bench_boxes.py [--images 10000 100000] [--n-resamples 9999]
[--consensus-images 100000] [--kalphacv-images 10000] [--coco-images 10000] [--json]``
(0 leaves a peer out). ``box_consensus`` is timed alone in its own process (one threshold,
no interval).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).parent
LABELS = ("bicycle", "car", "cat", "dog", "person")
CHUNK = 20_000


def generate(n_images: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Columns image, rater, label (codes) and x, y, w, h, built chunk by chunk."""
    rng = np.random.default_rng(seed)
    out: dict[str, list[np.ndarray]] = {k: [] for k in ("image", "rater", "label", "xywh")}
    for start in range(0, n_images, CHUNK):
        m = min(CHUNK, n_images - start)
        xy = rng.uniform(0, 600, (m, 10, 2))
        wh = rng.uniform(20, 140, (m, 10, 2))
        true = np.concatenate([xy, wh], axis=2)
        lab = rng.integers(0, len(LABELS), (m, 10))
        img = np.broadcast_to(np.arange(start, start + m)[:, None], (m, 10))
        for r in range(3):
            box = true + rng.normal(0, 3, true.shape)
            box[..., 2:] = np.maximum(box[..., 2:], 2.0)
            mine = np.where(rng.random((m, 10)) < 0.05,
                            rng.integers(0, len(LABELS), (m, 10)), lab)  # fmt: skip
            keep = rng.random((m, 10)) >= 0.07
            extra = rng.random((m, 10)) < 0.05
            fake = np.concatenate([rng.uniform(0, 600, (m, 10, 2)),
                                   rng.uniform(20, 140, (m, 10, 2))], axis=2)  # fmt: skip
            for sel, boxes in ((keep, box), (extra, fake)):
                out["image"].append(img[sel])
                out["rater"].append(np.full(int(sel.sum()), r))
                out["label"].append(mine[sel] if boxes is box else lab[sel])
                out["xywh"].append(boxes[sel])
    return {k: np.concatenate(v).astype(np.float64 if k == "xywh" else np.int64)
            for k, v in out.items()}  # fmt: skip


def _table(n_images: int) -> Any:
    from accord.readers.boxes import BoxTable

    d = generate(n_images)
    units = tuple(f"img{i:07d}" for i in range(n_images))
    return BoxTable(units, ("a", "b", "c"), LABELS, d["image"], d["rater"], d["label"],
                    d["xywh"], {"rows": len(d["image"]), "boxes": len(d["image"])})


def _vmhwm_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def child_accord(n_images: int, n_resamples: int) -> dict[str, Any]:
    import scipy.optimize  # noqa: F401  (imported before the clock starts)

    import accord

    t = _table(n_images)
    w0, c0 = time.perf_counter(), _cpu()
    res = accord.box_agreement(t, n_resamples=n_resamples)
    w1, c1 = time.perf_counter(), _cpu()
    doc = res.to_dict()
    w2, c2 = time.perf_counter(), _cpu()
    return {"images": n_images, "boxes": len(t), "n_resamples": n_resamples,
            "counts_wall": w1 - w0, "counts_cpu": c1 - c0, "intervals_wall": w2 - w1,
            "intervals_cpu": c2 - c1, "total_wall": w2 - w0, "total_cpu": c2 - c0,
            "peak_rss_mib": _vmhwm_mib(), "f1": doc["f1"]["estimate"],
            "alpha": doc["alpha"]["estimate"], "mean_iou": doc["mean_iou"]["estimate"]}


def child_consensus(n_images: int) -> dict[str, Any]:
    import scipy.optimize  # noqa: F401

    import accord

    t = _table(n_images)
    w0, c0 = time.perf_counter(), _cpu()
    res = accord.box_consensus(t)
    return {"images": n_images, "boxes": len(t), "wall": time.perf_counter() - w0,
            "cpu": _cpu() - c0, "peak_rss_mib": _vmhwm_mib(), "consensus_boxes": len(res),
            "below_quorum": res.audit["below_quorum"]}


def _records(n_images: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    d = generate(n_images)
    imgs = [{"file_name": f"img{i}", "height": 1000, "width": 1000, "id": i,
             "rater_list": ["a", "b", "c"]} for i in range(n_images)]  # fmt: skip
    anns = [{"image_id": int(i), "category_id": LABELS[int(k)], "bbox": b.tolist(),
             "rater": "abc"[int(r)]}
            for i, r, k, b in zip(d["image"], d["rater"], d["label"], d["xywh"])]  # fmt: skip
    return imgs, anns


def child_kalphacv(n_images: int) -> dict[str, Any]:
    from kalphacv.calculate_iaa import calculate_iaa

    imgs, anns = _records(n_images)
    w0, c0 = time.perf_counter(), _cpu()
    with contextlib.redirect_stdout(io.StringIO()):
        out = calculate_iaa("bbox", {"images": imgs, "annotations": anns}, "rater_list",
                            "rater", [0.5], 0.6, silent=True)
    return {"images": n_images, "boxes": len(anns), "wall": time.perf_counter() - w0,
            "cpu": _cpu() - c0, "peak_rss_mib": _vmhwm_mib(), "alpha": float(out[0.5])}


def child_pycocotools(n_images: int) -> dict[str, Any]:
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    d = generate(n_images)
    a, b = d["rater"] == 0, d["rater"] == 1
    gts = [{"id": k + 1, "image_id": int(i) + 1, "category_id": int(c) + 1, "bbox": x.tolist(),
            "area": float(x[2] * x[3]), "iscrowd": 0}
           for k, (i, c, x) in enumerate(zip(d["image"][a], d["label"][a], d["xywh"][a]))]
    dts = [{"image_id": int(i) + 1, "category_id": int(c) + 1, "bbox": x.tolist(), "score": 1.0}
           for i, c, x in zip(d["image"][b], d["label"][b], d["xywh"][b])]  # fmt: skip
    w0, c0 = time.perf_counter(), _cpu()
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = {"images": [{"id": i + 1} for i in range(n_images)],
                      "categories": [{"id": c + 1, "name": n} for c, n in enumerate(LABELS)],
                      "annotations": gts}  # fmt: skip
        gt.createIndex()
        ev = COCOeval(gt, gt.loadRes(dts), "bbox")
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    return {"images": n_images, "boxes": len(gts) + len(dts), "wall": time.perf_counter() - w0,
            "cpu": _cpu() - c0, "peak_rss_mib": _vmhwm_mib(), "ap50": float(ev.stats[1])}


def _spawn(*args: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(HERE.parent / "src")}
    proc = subprocess.run([sys.executable, __file__, "--child", *args], env=env,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1:] or ["killed"]}
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--images", type=int, nargs="*", default=[10_000, 100_000])
    ap.add_argument("--n-resamples", type=int, default=9999)
    ap.add_argument("--consensus-images", type=int, default=100_000)
    ap.add_argument("--kalphacv-images", type=int, default=10_000)
    ap.add_argument("--coco-images", type=int, default=10_000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", nargs=2, metavar=("WHAT", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        what, n = args.child[0], int(args.child[1])
        run = {"accord": lambda: child_accord(n, args.n_resamples),
               "consensus": lambda: child_consensus(n),
               "kalphacv": lambda: child_kalphacv(n), "pycocotools": lambda: child_pycocotools(n)}
        print(json.dumps(run[what]()))
        return
    rows = [{"tool": "accord", **_spawn("accord", str(n), "--n-resamples", str(args.n_resamples))}
            for n in args.images if n > 0]  # fmt: skip
    if args.consensus_images:
        rows.append({"tool": "accord box_consensus",
                     **_spawn("consensus", str(args.consensus_images))})
    if args.kalphacv_images:
        rows.append({"tool": "kalphacv", **_spawn("kalphacv", str(args.kalphacv_images))})
    if args.coco_images:
        rows.append({"tool": "pycocotools", **_spawn("pycocotools", str(args.coco_images))})
    head = {"python": platform.python_version(), "numpy": np.__version__,
            "load": os.getloadavg(), "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps({"machine": head, "rows": rows}, indent=2))
        return
    print(head)
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
