#!/usr/bin/env python3
"""Rebuilds every detection of Tests/Goldens/mediapipe/detections.json from LiteRT and a written-out version of
MediaPipe Tasks' FaceDetector pipeline, and checks they agree (score and keypoints within 1e-5, pixel boxes
within 1 px). It documents, as code, what MediaPipe Tasks 1.2.2 does, so the Swift FaceDetector can match it.

Runs with the LiteRT goldens venv (`.venv-goldens/`: numpy, pillow, ai-edge-litert), after mediapipe_parity.py:

  .venv-goldens/bin/python Tests/Goldens/mediapipe_crosscheck.py

The pipeline (each step confirmed by this check on every case):
1. Letterbox ROI: the square of side s = max(W, H) centred on the image, left = (W - s) / 2, top = (H - s) / 2
   (may be negative and half-integer).
2. Resampling to the model size S (MediaPipe's CPU ImageToTensor = OpenCV warpPerspective, INTER_LINEAR,
   fixed-point, BORDER_CONSTANT 0), per output column i (rows alike):
     sx = left + i * s / S            (corner-aligned: output pixel i samples at i * s / S, no half-pixel shift)
     X  = floor(sx * 32 + 0.5);       x0 = floor(X / 32);   ax = X mod 32          (1/32-pixel steps)
     v  = (p(y0,x0)*(32-ax)*(32-ay) + p(y0,x0+1)*ax*(32-ay) + p(y0+1,x0)*(32-ax)*ay + p(y0+1,x0+1)*ax*ay
           + 512) >> 10               (integers; pixels outside the image are 0), per channel, giving uint8 v.
   OpenCV computes sx * 32 in double from an inverted, LU-solved perspective matrix, so where sx * 32 is exactly
   k + 1/2 (only when 32 * s / S or the offsets have a half fraction) the rounding direction is decided by that
   matrix's rounding noise, with no fixed rule: it rounds up in every tie of astronaut_canvas_513x513 (the case
   that would fail with ties-to-even, by 4.5e-4 in score), but goes either way for other sizes.
3. Model input = Float(v) * Float(2/255) + Float(-1) (NormalizationOptions mean 127.5, std 127.5).
4. Anchors chosen by input size: 128 -> short-range (strides 8,16,16,16, 2 anchors per cell), 192 -> full-range
   (stride 4, 1 per cell); decode with scale = S; score = sigmoid(clamp(logit, -100, 100)); keep score >= 0.5.
5. Weighted NMS in the model's square space, IoU > 0.5 is a candidate of the top detection (IoU with the top's own
   box); merged corners and keypoints are score-weighted means, merged score = top score.
6. Back to the image: x_img = (x * s + left) / W, y_img = (y * s + top) / H (boxes and keypoints; not clipped).
7. Pixel box (what MediaPipe reports): origin_x = clamp(int(xmin_img * W), 0, W) with int() truncating toward
   zero; width = clamp(int(width_img * W), 0, W); y and height alike.
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402  (LiteRT runner of the goldens)
import mediapipe_parity as mpp  # noqa: E402  (image recipes; imports no mediapipe at module level)

ANCHORS = {128: dict(strides=[8, 16, 16, 16], interpolated=1.0), 192: dict(strides=[4], interpolated=0.0)}
TOL_SCORE, TOL_KEYPOINT, TOL_BOX_PX = 1e-5, 1e-5, 1


def ssd_anchors(size: int, strides: list[int], interpolated: float) -> np.ndarray:
    out, i = [], 0
    while i < len(strides):
        j, per_cell = i, 0
        while j < len(strides) and strides[j] == strides[i]:
            per_cell += 1 + (1 if interpolated > 0 else 0)
            j += 1
        fm = -(-size // strides[i])
        for y in range(fm):
            for x in range(fm):
                out.extend([((x + 0.5) / fm, (y + 0.5) / fm)] * per_cell)
        i = j
    return np.array(out, dtype=np.float64)


def mediapipe_resize(rgb: np.ndarray, size: int) -> np.ndarray:
    h, w = rgb.shape[:2]
    side = max(h, w)
    left, top = (w - side) / 2, (h - side) / 2

    def axis(offset: float):
        fixed = np.floor((offset + np.arange(size) * (side / size)) * 32 + 0.5).astype(np.int64)
        return fixed >> 5, fixed & 31

    x0, ax = axis(left)
    y0, ay = axis(top)
    src = rgb.astype(np.int64)

    def pix(yy, xx):
        inside = ((yy >= 0) & (yy < h))[:, None] & ((xx >= 0) & (xx < w))[None, :]
        v = src[np.clip(yy, 0, h - 1)[:, None], np.clip(xx, 0, w - 1)[None, :]]
        return v * inside[:, :, None]

    ax, ay = ax[None, :, None], ay[:, None, None]
    s = (pix(y0, x0) * (32 - ax) * (32 - ay) + pix(y0, x0 + 1) * ax * (32 - ay)
         + pix(y0 + 1, x0) * (32 - ax) * ay + pix(y0 + 1, x0 + 1) * ax * ay)
    return ((s + 512) >> 10).astype(np.uint8)


def iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def weighted_nms(dets, threshold: float):
    dets = sorted(dets, key=lambda d: -d[0])
    out = []
    while dets:
        top = dets[0]
        cand = [d for d in dets if iou(top[1], d[1]) > threshold]
        rest = [d for d in dets if iou(top[1], d[1]) <= threshold]
        wts = np.array([d[0] for d in cand])
        out.append((top[0], np.average([d[1] for d in cand], axis=0, weights=wts),
                    np.average([d[2] for d in cand], axis=0, weights=wts)))
        if len(rest) == len(dets):
            break
        dets = rest
    return out


def pipeline(model_path: str, rgb: np.ndarray, size: int):
    h, w = rgb.shape[:2]
    side = max(h, w)
    left, top = (w - side) / 2, (h - side) / 2
    x = mediapipe_resize(rgb, size)[None].astype(np.float32) * np.float32(2 / 255) + np.float32(-1)
    reg, cls = generate.run_model(model_path, x)
    reg = reg[0].astype(np.float64)
    score = 1 / (1 + np.exp(-np.clip(cls[0, :, 0].astype(np.float64), -100, 100)))
    anchors = ssd_anchors(size, **ANCHORS[size])
    assert len(anchors) == len(score)
    dets = []
    for i in np.nonzero(score >= mpp.MIN_DETECTION_CONFIDENCE)[0]:
        r, (ax, ay) = reg[i] / size, anchors[i]
        xc, yc, bw, bh = r[0] + ax, r[1] + ay, r[2], r[3]
        if bw < 0 or bh < 0:
            continue
        kp = np.array([(r[4 + 2 * k] + ax, r[5 + 2 * k] + ay) for k in range(6)])
        dets.append((score[i], np.array([xc - bw / 2, yc - bh / 2, xc + bw / 2, yc + bh / 2]), kp))
    out = []
    for s, box, kp in weighted_nms(dets, mpp.MIN_SUPPRESSION_THRESHOLD):
        bx = np.array([(box[0] * side + left) / w, (box[1] * side + top) / h,
                       (box[2] * side + left) / w, (box[3] * side + top) / h])
        k = np.stack([(kp[:, 0] * side + left) / w, (kp[:, 1] * side + top) / h], axis=1)
        px = [min(max(int(bx[0] * w), 0), w), min(max(int(bx[1] * h), 0), h),
              min(max(int((bx[2] - bx[0]) * w), 0), w), min(max(int((bx[3] - bx[1]) * h), 0), h)]
        out.append((s, px, k))
    return out


def main() -> None:
    with open(os.path.join(mpp.OUT_DIR, "detections.json")) as f:
        doc = json.load(f)
    images = mpp.build_images()
    failures, worst = [], {"score": 0.0, "keypoint": 0.0, "box_px": 0}
    for key, fname in mpp.MODELS.items():
        model_path = os.path.join(mpp.MODELS_DIR, fname)
        size = generate.make_interpreter(model_path).get_input_details()[0]["shape"][1]
        for name, rgb in images.items():
            mine = pipeline(model_path, rgb, int(size))
            theirs = doc["results"][key][name]
            if len(mine) != len(theirs):
                failures.append(f"{key}/{name}: {len(mine)} detections, MediaPipe {len(theirs)}")
                continue
            for (s, px, k), t in zip(mine, theirs):
                tb = t["bounding_box"]
                ds = abs(s - t["score"])
                dk = float(np.abs(k - np.array([[p["x"], p["y"]] for p in t["keypoints"]])).max())
                db = max(abs(a - b) for a, b in zip(px, [tb["origin_x"], tb["origin_y"], tb["width"], tb["height"]]))
                worst = {"score": max(worst["score"], ds), "keypoint": max(worst["keypoint"], dk),
                         "box_px": max(worst["box_px"], db)}
                if ds > TOL_SCORE or dk > TOL_KEYPOINT or db > TOL_BOX_PX:
                    failures.append(f"{key}/{name}: |d score| {ds:.2e}, |d keypoint| {dk:.2e}, |d box| {db} px")
    print(f"MediaPipe cross-check: worst |d score| {worst['score']:.2e}, |d keypoint| {worst['keypoint']:.2e}, "
          f"|d box| {worst['box_px']} px")
    if failures:
        sys.exit("MediaPipe cross-check FAILED:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
