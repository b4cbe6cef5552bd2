#!/usr/bin/env python3
"""The anchor for Benchmarks/serve_load.py: MediaPipe behind FastAPI + uvicorn, mirroring `blazeface serve`'s
POST /v1/detect and POST /v1/analyze (the body is the picture's bytes, image/jpeg or image/png; JSON answers).

One file, two environments, because the two MediaPipe versions cannot share a venv (both are the distribution
"mediapipe"; 1.2.2 wants numpy 2, 0.10.21's legacy solutions want numpy < 2):

  /v1/detect   MediaPipe Tasks FaceDetector (mediapipe==1.2.2, Tests/Goldens/requirements-mediapipe.txt), IMAGE
               mode, min_detection_confidence 0.5, min_suppression_threshold 0.5, on the short-range BlazeFace
               (Models/mediapipe_face_detection_short_range.tflite, which carries the metadata Tasks needs; when it
               is missing, Models/face_detection_short_range.tflite with the metadata Tests/Goldens/mediapipe_parity.py
               adds, in a temporary copy). Exactly as Tests/Goldens/mediapipe_parity.py creates the detector.
  /v1/analyze  MediaPipe's legacy FaceMesh (mediapipe==0.10.21, Tests/Goldens/requirements-mediapipe-legacy.txt):
               mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=10, refine_landmarks=True,
               min_detection_confidence=0.5), as Tests/Goldens/face_mesh_parity.py makes it: the short-range detector,
               then the attention mesh (478 landmarks) per face. The answer is compact like ours (a box from the
               landmarks and seven named points per face; MP_ANALYZE_LANDMARKS=1 adds all 478). Ours also computes
               head pose, eyes, smile and capture quality, which this anchor does not: it does less work per face.

The endpoints the installed mediapipe can serve are the ones this process offers (the other answers 501); the
environment variable MP_ENDPOINTS (detect, analyze or detect,analyze) narrows them. Each uvicorn worker process
loads its models once, at import, before it accepts a connection; a lock per model serializes inference within a
worker (MediaPipe's graphs are not re-entrant), while the event loop keeps reading bodies and decoding (OpenCV,
libjpeg-turbo / libpng) in the thread pool. GET /healthz answers {"status": "ok", "pid": ..., "endpoints": [...]}.

Run (from the repo root):
  .venv-serve/bin/uvicorn --app-dir Benchmarks mediapipe_server:app --port 8601 --workers 2 --no-access-log
  .venv-serve-legacy/bin/uvicorn --app-dir Benchmarks mediapipe_server:app --port 8602 --workers 2 --no-access-log
Benchmarks/compare_serve.sh creates both venvs and runs the comparison.
"""
from __future__ import annotations

import os
import sys
import tempfile
import threading
from importlib import metadata as importlib_metadata

import cv2
import numpy as np
from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODELS_DIR = os.environ.get("BLAZEFACE_MODELS", os.path.join(ROOT, "Models"))
MP_VERSION = importlib_metadata.version("mediapipe")
KEYPOINT_NAMES = ["right_eye", "left_eye", "nose_tip", "mouth_center", "right_ear_tragion", "left_ear_tragion"]
MIN_DETECTION_CONFIDENCE = 0.5
MIN_SUPPRESSION_THRESHOLD = 0.5
MAX_NUM_FACES = 10
MAX_PIXELS = 50_000_000  # as blazeface serve's --max-pixels default
# analyze answers compactly, as ours does (a box and a few points per face, not the 478 landmarks, whose JSON
# would cost the anchor ~25 KB of serialization per face); MP_ANALYZE_LANDMARKS=1 adds every landmark.
NAMED_LANDMARKS = {"noseTip": 1, "rightEyeOuter": 33, "leftEyeOuter": 263, "mouthRight": 61, "mouthLeft": 291,
                   "rightIris": 468, "leftIris": 473}
ALL_LANDMARKS = os.environ.get("MP_ANALYZE_LANDMARKS", "") == "1"

# mediapipe 0.10.x still ships the legacy solutions (FaceMesh); 1.x has only the Tasks API.
LEGACY = int(MP_VERSION.split(".")[0]) == 0
_wanted = {e.strip() for e in os.environ.get("MP_ENDPOINTS", "detect,analyze").split(",") if e.strip()}
ENDPOINTS = sorted(_wanted & ({"analyze"} if LEGACY else {"detect"}))
if not ENDPOINTS:
    sys.exit(f"mediapipe_server: mediapipe {MP_VERSION} serves none of MP_ENDPOINTS={sorted(_wanted)} "
             "(detect needs mediapipe 1.x, analyze needs 0.10.x)")


# ----------------------------------------------------------------------------------------------------------
# Models: loaded once per worker process, at import

def _detector_model_path() -> str:
    bundled = os.path.join(MODELS_DIR, "mediapipe_face_detection_short_range.tflite")
    if os.path.isfile(bundled):
        return bundled
    # The bare model with the metadata Tasks needs, built as the parity goldens build it.
    sys.path.insert(0, os.path.join(ROOT, "Tests", "Goldens"))
    from mediapipe_parity import add_metadata  # noqa: E402
    with open(os.path.join(MODELS_DIR, "face_detection_short_range.tflite"), "rb") as f:
        augmented = add_metadata(f.read(), "face_detection_short_range")
    path = os.path.join(tempfile.mkdtemp(prefix="mp-serve-"), "face_detection_short_range.tflite")
    with open(path, "wb") as f:
        f.write(augmented)
    return path


def _make_detector():
    from mediapipe.tasks.python import vision
    from mediapipe.tasks.python.core import base_options
    options = vision.FaceDetectorOptions(
        base_options=base_options.BaseOptions(model_asset_path=_detector_model_path()),
        running_mode=vision.RunningMode.IMAGE,
        min_detection_confidence=MIN_DETECTION_CONFIDENCE,
        min_suppression_threshold=MIN_SUPPRESSION_THRESHOLD)
    return vision.FaceDetector.create_from_options(options)


def _make_face_mesh():
    import mediapipe as mp
    return mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=MAX_NUM_FACES,
                                           refine_landmarks=True,
                                           min_detection_confidence=MIN_DETECTION_CONFIDENCE)


DETECTOR = _make_detector() if "detect" in ENDPOINTS else None
FACE_MESH = _make_face_mesh() if "analyze" in ENDPOINTS else None
DETECTOR_LOCK = threading.Lock()
FACE_MESH_LOCK = threading.Lock()


# ----------------------------------------------------------------------------------------------------------
# Work (run in the thread pool)

class BadPicture(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _decode(body: bytes) -> np.ndarray:
    """RGB uint8, HxWx3, from JPEG or PNG bytes (grayscale and alpha dropped to RGB, as ours does)."""
    if not body:
        raise BadPicture(415, "unsupported_media_type", "the body is empty")
    bgr = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
    if bgr is None:
        raise BadPicture(422, "undecodable", "the picture cannot be decoded")
    if bgr.shape[0] * bgr.shape[1] > MAX_PIXELS:
        raise BadPicture(422, "too_many_pixels", "the picture has too many pixels")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def _detect(body: bytes) -> dict:
    import mediapipe as mp
    rgb = _decode(body)
    height, width = rgb.shape[:2]
    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb))
    with DETECTOR_LOCK:
        result = DETECTOR.detect(image)
    faces = []
    for d in result.detections:
        bb = d.bounding_box
        faces.append({
            "score": float(d.categories[0].score),
            "box": {"x": int(bb.origin_x), "y": int(bb.origin_y), "width": int(bb.width), "height": int(bb.height)},
            "keypoints": [{"name": KEYPOINT_NAMES[i], "x": float(k.x) * width, "y": float(k.y) * height}
                          for i, k in enumerate(d.keypoints)],
        })
    return {"width": width, "height": height, "faces": faces}


def _analyze(body: bytes) -> dict:
    rgb = _decode(body)
    height, width = rgb.shape[:2]
    with FACE_MESH_LOCK:
        result = FACE_MESH.process(rgb)
    faces = []
    for landmarks in result.multi_face_landmarks or []:
        points = [(lm.x * width, lm.y * height, lm.z * width) for lm in landmarks.landmark]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        face = {"box": {"x": min(xs), "y": min(ys), "width": max(xs) - min(xs), "height": max(ys) - min(ys)},
                "landmarkCount": len(points),
                "named": {name: points[i] for name, i in NAMED_LANDMARKS.items() if i < len(points)}}
        if ALL_LANDMARKS:
            face["landmarks"] = points
        faces.append(face)
    return {"width": width, "height": height, "faces": faces}


# ----------------------------------------------------------------------------------------------------------
# HTTP

app = FastAPI(title="MediaPipe anchor for blazeface serve", docs_url=None, redoc_url=None)
ACCEPTED_TYPES = {"image/jpeg", "image/png"}


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _serve(request: Request, endpoint: str, work) -> JSONResponse:
    if endpoint not in ENDPOINTS:
        return _error(501, "not_served", f"this process (mediapipe {MP_VERSION}) does not serve /v1/{endpoint}")
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type not in ACCEPTED_TYPES:
        return _error(415, "unsupported_media_type", "send image/jpeg or image/png")
    body = await request.body()
    try:
        return JSONResponse(await run_in_threadpool(work, body))
    except BadPicture as e:
        return _error(e.status, e.code, e.message)


@app.post("/v1/detect")
async def detect(request: Request) -> JSONResponse:
    return await _serve(request, "detect", _detect)


@app.post("/v1/analyze")
async def analyze(request: Request) -> JSONResponse:
    return await _serve(request, "analyze", _analyze)


@app.get("/healthz")
async def healthz() -> dict:
    return {"status": "ok", "pid": os.getpid(), "mediapipe": MP_VERSION, "endpoints": ENDPOINTS}
