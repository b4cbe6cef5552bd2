#!/usr/bin/env python3
"""Records MediaPipe Tasks' FaceDetector results (mediapipe==1.2.2) for the end-to-end parity tests.

Run through Tests/Goldens/generate.sh (step 5), which creates `.venv-mediapipe/` with the pins of
requirements-mediapipe.txt; running this file directly with that venv's python works too once Models/fetch.sh
has fetched the models and the sample pictures.

Writes
  Tests/Goldens/mediapipe/detections.json  settings, versions, image recipes and every detection (deterministic)
  Tests/Goldens/mediapipe/timings.json     median time of FaceDetector.detect per image (informational; varies)

MediaPipe Tasks only accepts models that carry TFLite metadata with the input normalization. The bare BlazeFace
models have none, so a copy of each model (in a temporary directory, never in Models/) gets a metadata
flatbuffer: input image, RGB, NormalizationOptions mean 127.5 / std 127.5 (input range [-1, 1]), two plain feature
outputs. It is built with the schema modules bundled in the mediapipe wheel (mediapipe.tasks.metadata) and the
flatbuffers package; the metadata bytes are identical to what tflite-support 0.4.4's metadata writer produces
for the same description (checked once by hand). The model's own tensors and buffers are unchanged.

mediapipe_crosscheck.py (run next by generate.sh, in the LiteRT venv) re-derives every detection from LiteRT
and spells out MediaPipe's pipeline step by step (preprocessing, anchors, decoding, NMS, pixel boxes).

No image files are needed beyond Models/samples/: every synthetic picture is a recipe of exact integer
operations on astronaut.png (see RECIPES; the operations are in recipes.py), recorded in detections.json together with the sha256 of its pixels.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata as importlib_metadata

import numpy as np

from recipes import GRAY, MODELS_DIR, ROOT, build_image, sha256_bytes

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "mediapipe")

MODELS = {  # key -> model file (input size 128 -> short-range anchors, 192 -> full-range anchors)
    "short_range": "face_detection_short_range.tflite",
    "full_range": "face_detection_full_range.tflite",
}
MIN_DETECTION_CONFIDENCE = 0.5  # MediaPipe Tasks' defaults
MIN_SUPPRESSION_THRESHOLD = 0.5
NORM_MEAN, NORM_STD = 127.5, 127.5
TIMING_RUNS, TIMING_WARMUP = 20, 3

KEYPOINT_NAMES = ["right_eye", "left_eye", "nose_tip", "mouth_center", "right_ear_tragion", "left_ear_tragion"]

# name -> recipe. Coordinates are pixels, x to the right, y down; "crop" ranges are half-open [start, end).
# Every operation is exact on uint8 RGB; the Swift tests rebuild these pictures and check `rgb_sha256`.
RECIPES = {
    "astronaut": {"op": "file", "file": "astronaut.png"},
    "camera_rgb": {"op": "file", "file": "camera.png",
                   "note": "8-bit grayscale PNG; R = G = B = gray value (PIL convert('RGB'))"},
    "chelsea": {"op": "file", "file": "chelsea.png", "note": "a cat; no human face"},
    "coffee": {"op": "file", "file": "coffee.png", "note": "a cup of coffee; no face"},
    "astronaut_wide_1280x720": {"op": "place", "src": "astronaut.png", "canvas": [1280, 720], "fill": GRAY,
                                "at": [640, 104],
                                "note": "letterbox with padding above and below; face right of centre"},
    "astronaut_wide_1280x720_nms": {"op": "place", "src": "astronaut.png", "canvas": [1280, 720], "fill": GRAY,
                                    "at": [700, 150],
                                    "note": "full range gives two overlapping detections of the one face: weighted "
                                            "NMS compares the rest with the top detection's own box, not the merged "
                                            "one; sensitive to small numeric differences"},
    "astronaut_wide_768x512": {"op": "place", "src": "astronaut.png", "canvas": [768, 512], "fill": GRAY,
                               "at": [256, 0], "note": "astronaut flush right"},
    "astronaut_portrait_512x900": {"op": "place", "src": "astronaut.png", "canvas": [512, 900], "fill": GRAY,
                                   "at": [0, 0], "note": "letterbox with padding left and right; astronaut at the top"},
    "astronaut_portrait_512x768": {"op": "place", "src": "astronaut.png", "canvas": [512, 768], "fill": GRAY,
                                   "at": [0, 256], "note": "astronaut at the bottom"},
    "astronaut_canvas_513x513": {"op": "place", "src": "astronaut.png", "canvas": [513, 513], "fill": GRAY,
                                 "at": [1, 1],
                                 "note": "513 = side: sampling positions i * 513 / S hit exact half steps of 1/32 "
                                         "pixel (rounding ties) for both model sizes"},
    "astronaut_collage_1024x512": {"op": "hconcat", "parts": [{"src": "astronaut.png"}, {"src": "astronaut.png"}],
                                   "note": "two whole copies side by side"},
    "astronaut_pair_512x512": {"op": "hconcat",
                               "parts": [{"src": "astronaut.png", "crop_x": [96, 352]},
                                         {"src": "astronaut.png", "crop_x": [96, 352]}],
                               "note": "columns 96..351 of astronaut twice side by side: two faces at full size"},
    "astronaut_crop_left200_312x512": {"op": "crop", "src": "astronaut.png", "crop_x": [200, 512], "crop_y": [0, 512],
                                       "note": "face cut by the left edge: the pixel box's origin_x clamps to 0"},
    "astronaut_down2_256x256": {"op": "down2", "src": "astronaut.png",
                                "formula": "out[y][x][c] = (a + b + c + d + 2) // 4 with a, b, c, d = in[2y][2x][c], "
                                           "in[2y][2x+1][c], in[2y+1][2x][c], in[2y+1][2x+1][c] (integers)"},
}


# ----------------------------------------------------------------------------------------------------------
# Pictures (the recipe operations live in recipes.py, shared with face_mesh_parity.py)

def build_images() -> dict[str, np.ndarray]:
    return {name: build_image(r) for name, r in RECIPES.items()}


# ----------------------------------------------------------------------------------------------------------
# Model metadata (the bare models have none; MediaPipe Tasks needs the input normalization)

def add_metadata(model_buf: bytes, name: str) -> bytes:
    """Returns the model with a TFLITE_METADATA buffer: input RGB image normalized with (x - 127.5) / 127.5."""
    import flatbuffers
    from mediapipe.tasks.metadata import metadata_schema_py_generated as mfb
    from mediapipe.tasks.metadata import schema_py_generated as sfb

    model = sfb.ModelT.InitFromObj(sfb.Model.GetRootAsModel(model_buf, 0))
    assert not any(m.name == b"TFLITE_METADATA" for m in (model.metadata or [])), "model already has metadata"
    (sg,) = model.subgraphs
    (input_index,) = sg.inputs

    inp = mfb.TensorMetadataT()
    inp.name = sg.tensors[input_index].name.decode()
    inp.content = mfb.ContentT()
    inp.content.contentPropertiesType = mfb.ContentProperties.ImageProperties
    inp.content.contentProperties = mfb.ImagePropertiesT()
    inp.content.contentProperties.colorSpace = mfb.ColorSpaceType.RGB
    norm = mfb.ProcessUnitT()
    norm.optionsType = mfb.ProcessUnitOptions.NormalizationOptions
    norm.options = mfb.NormalizationOptionsT()
    norm.options.mean = [NORM_MEAN]
    norm.options.std = [NORM_STD]
    inp.processUnits = [norm]
    inp.stats = mfb.StatsT()
    inp.stats.max = [(255.0 - NORM_MEAN) / NORM_STD]
    inp.stats.min = [(0.0 - NORM_MEAN) / NORM_STD]
    outs = []
    for i in sg.outputs:
        t = mfb.TensorMetadataT()
        t.name = sg.tensors[i].name.decode()
        t.content = mfb.ContentT()
        t.content.contentPropertiesType = mfb.ContentProperties.FeatureProperties
        t.content.contentProperties = mfb.FeaturePropertiesT()
        t.stats = mfb.StatsT()
        outs.append(t)
    sub = mfb.SubGraphMetadataT()
    sub.inputTensorMetadata = [inp]
    sub.outputTensorMetadata = outs
    md = mfb.ModelMetadataT()
    md.name = name
    md.description = "BlazeFace"
    md.subgraphMetadata = [sub]
    md.minParserVersion = "1.0.0"
    b = flatbuffers.Builder(0)
    b.Finish(md.Pack(b), b"M001")
    md_buf = bytes(b.Output())

    buf = sfb.BufferT()
    buf.data = list(md_buf)
    model.buffers.append(buf)
    entry = sfb.MetadataT()
    entry.name = "TFLITE_METADATA"
    entry.buffer = len(model.buffers) - 1
    model.metadata = (model.metadata or []) + [entry]
    b = flatbuffers.Builder(0)
    b.Finish(model.Pack(b), b"TFL3")
    return bytes(b.Output())


def prepare_models(tmp: str) -> dict[str, dict]:
    out = {}
    for key, fname in MODELS.items():
        src_path = os.path.join(MODELS_DIR, fname)
        with open(src_path, "rb") as f:
            src = f.read()
        aug = add_metadata(src, os.path.splitext(fname)[0])
        path = os.path.join(tmp, fname)
        with open(path, "wb") as f:
            f.write(aug)
        out[key] = {"file": fname, "sha256": sha256_bytes(src), "with_metadata_sha256": sha256_bytes(aug),
                    "path": path}
    return out


# ----------------------------------------------------------------------------------------------------------
# MediaPipe

def make_detector(model_path: str):
    from mediapipe.tasks.python import vision
    from mediapipe.tasks.python.core import base_options
    options = vision.FaceDetectorOptions(
        base_options=base_options.BaseOptions(model_asset_path=model_path),
        running_mode=vision.RunningMode.IMAGE,
        min_detection_confidence=MIN_DETECTION_CONFIDENCE,
        min_suppression_threshold=MIN_SUPPRESSION_THRESHOLD)
    return vision.FaceDetector.create_from_options(options)


def mp_image(rgb: np.ndarray):
    import mediapipe as mp
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb))


def to_record(result, width: int, height: int) -> list[dict]:
    dets = []
    for d in result.detections:
        bb = d.bounding_box
        kps = [{"name": KEYPOINT_NAMES[i], "x": float(k.x), "y": float(k.y),
                "x_px": float(k.x) * width, "y_px": float(k.y) * height} for i, k in enumerate(d.keypoints)]
        dets.append({
            "score": float(d.categories[0].score),
            "bounding_box": {"origin_x": int(bb.origin_x), "origin_y": int(bb.origin_y),
                             "width": int(bb.width), "height": int(bb.height)},
            "keypoints": kps,
        })
    assert all(len(d["keypoints"]) == 6 for d in dets)
    dets.sort(key=lambda d: -d["score"])  # MediaPipe already returns them in this order
    return dets


def timing_child(model_paths: dict[str, str], cpus: list[int] | None) -> dict:
    """Times detect() per (model, image); run in a fresh process so the CPU affinity covers every thread."""
    if cpus is not None:
        os.sched_setaffinity(0, set(cpus))
    images = build_images()
    out = {}
    for key, path in model_paths.items():
        out[key] = {}
        with make_detector(path) as det:
            for name, rgb in images.items():
                img = mp_image(rgb)
                for _ in range(TIMING_WARMUP):
                    det.detect(img)
                ts = []
                for _ in range(TIMING_RUNS):
                    t0 = time.perf_counter_ns()
                    det.detect(img)
                    ts.append(time.perf_counter_ns() - t0)
                out[key][name] = round(statistics.median(ts) / 1e6, 3)
    return out


def run_timing(model_paths: dict[str, str], cpus: list[int] | None) -> dict:
    arg = json.dumps({"models": model_paths, "cpus": cpus})
    res = subprocess.run([sys.executable, os.path.abspath(__file__), "--timing-child", arg],
                         check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


# ----------------------------------------------------------------------------------------------------------

def versions() -> dict[str, str]:
    return {p: importlib_metadata.version(p) for p in ("mediapipe", "numpy", "pillow", "flatbuffers")}


def write_json(path: str, obj) -> None:
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def main() -> None:
    os.makedirs(OUT_DIR, exist_ok=True)
    images = build_images()
    with tempfile.TemporaryDirectory(prefix="blazeface-mp-") as tmp:
        models = prepare_models(tmp)
        results: dict[str, dict] = {}
        for key, m in models.items():
            results[key] = {}
            with make_detector(m["path"]) as det:
                for name, rgb in images.items():
                    h, w = rgb.shape[:2]
                    first = to_record(det.detect(mp_image(rgb)), w, h)
                    again = to_record(det.detect(mp_image(rgb)), w, h)
                    assert first == again, f"{key}/{name}: MediaPipe is not repeatable"
                    results[key][name] = first
        paths = {k: m["path"] for k, m in models.items()}
        cpu0 = sorted(os.sched_getaffinity(0))[0]
        timing_one = run_timing(paths, [cpu0])
        timing_all = run_timing(paths, None)

    doc = {
        "description": "MediaPipe Tasks FaceDetector (IMAGE mode) results for parity tests; see README.md",
        "regenerate": "Tests/Goldens/generate.sh",
        "versions": versions(),
        "settings": {
            "api": "mediapipe.tasks.python.vision.FaceDetector, RunningMode.IMAGE, BaseOptions(model_asset_path), "
                   "default CPU delegate",
            "min_detection_confidence": MIN_DETECTION_CONFIDENCE,
            "min_suppression_threshold": MIN_SUPPRESSION_THRESHOLD,
            "input": "mediapipe.Image(ImageFormat.SRGB, HxWx3 uint8 RGB)",
            "model_metadata": {
                "how": "TFLITE_METADATA flatbuffer added to a temporary copy of each model, built with the schema "
                       "modules bundled in mediapipe (mediapipe.tasks.metadata) and flatbuffers; bytes identical "
                       "to tflite-support 0.4.4's MetadataWriter output for the same description",
                "input": {"content": "ImageProperties, color space RGB",
                          "normalization_mean": [NORM_MEAN], "normalization_std": [NORM_STD],
                          "stats_min": [-1.0], "stats_max": [1.0]},
                "outputs": "two FeatureProperties tensors (regressors, classificators), no labels",
                "min_parser_version": "1.0.0",
            },
        },
        "models": {k: {"file": m["file"], "sha256": m["sha256"], "with_metadata_sha256": m["with_metadata_sha256"]}
                   for k, m in models.items()},
        "output_format": {
            "order": "detections sorted by score, highest first (MediaPipe's own order)",
            "score": "categories[0].score",
            "bounding_box": "pixels as MediaPipe reports them: int(relative * image size) truncated toward zero, then "
                            "clamped to [0, image size] (DetectionTransformationCalculator); width/height likewise "
                            "(origin clamping does not shrink width/height)",
            "keypoints": "normalized x, y as MediaPipe reports them (float32 values, not clipped); x_px = x * width, "
                         "y_px = y * height in double",
            "keypoint_order": KEYPOINT_NAMES,
        },
        "pipeline_reference": "Tests/Goldens/mediapipe_crosscheck.py: MediaPipe's pipeline written out; it "
                              "rebuilds every detection below from LiteRT (agreement ~1e-7)",
        "images": {},
        "results": results,
    }
    for name, rgb in images.items():
        h, w = rgb.shape[:2]
        doc["images"][name] = {"width": w, "height": h, "recipe": RECIPES[name],
                               "rgb_sha256": sha256_bytes(np.ascontiguousarray(rgb).tobytes())}
    write_json(os.path.join(OUT_DIR, "detections.json"), doc)
    write_json(os.path.join(OUT_DIR, "timings.json"), {
        "description": "median wall time of FaceDetector.detect(image) in ms over "
                       f"{TIMING_RUNS} runs after {TIMING_WARMUP} warm-up runs, per model and image; informational, "
                       "machine dependent, not deterministic",
        "versions": versions(),
        "machine": {"cpus_available": len(os.sched_getaffinity(0)), "platform": sys.platform},
        "one_cpu": {"note": "process pinned to one CPU with sched_setaffinity (MediaPipe Tasks' Python API has no "
                            "thread-count option)", "ms": timing_one},
        "all_cpus": {"note": "no affinity restriction", "ms": timing_all},
    })

    print(f"{'model':12s} {'image':32s} {'size':>10s}  n  scores / boxes (x, y, w, h)       ms(1 cpu)")
    for key in results:
        for name, dets in results[key].items():
            im = doc["images"][name]
            desc = "  ".join(f"{d['score']:.3f} ({d['bounding_box']['origin_x']},{d['bounding_box']['origin_y']},"
                             f"{d['bounding_box']['width']},{d['bounding_box']['height']})" for d in dets)
            print(f"{key:12s} {name:32s} {im['width']:>4d}x{im['height']:<5d} {len(dets):2d}  {desc:34s} "
                  f"{timing_one[key][name]:.2f}")

    # sanity checks of the brief
    for key in results:
        a = results[key]["astronaut"]
        assert len(a) == 1 and a[0]["score"] > 0.6, f"{key}: astronaut should give one face with score > 0.6"
        assert len(results[key]["astronaut_pair_512x512"]) == 2, f"{key}: pair should give two faces"
    assert len(results["full_range"]["astronaut_collage_1024x512"]) == 2, "full range: collage should give two faces"
    print(f"Written {os.path.relpath(OUT_DIR, ROOT)}/detections.json and timings.json")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--timing-child":
        cfg = json.loads(sys.argv[2])
        print(json.dumps(timing_child(cfg["models"], cfg["cpus"])))
    else:
        main()
