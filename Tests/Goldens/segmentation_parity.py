#!/usr/bin/env python3
"""Records MediaPipe 0.10.21's legacy Selfie Segmentation solution for the PersonSegmenter parity tests.

Run through Tests/Goldens/generate.sh (step 7), which creates `.venv-mp-legacy/` with the pins of
requirements-mediapipe-legacy.txt; running this file directly with that venv's python works too once
Models/fetch.sh has fetched the sample pictures. Not run in CI.

What is recorded: `mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=M).process(rgb)` for
M = 0 ("general", selfie_segmentation.tflite, 256x256) and M = 1 ("landscape", selfie_segmentation_landscape.tflite,
144x256): the `segmentation_mask`, float32 at the picture's size. Before running, the script checks that the wheel's
graph (selfie_segmentation_cpu.binarypb) still has the options the Swift pipeline copies (ImageToTensorCalculator:
256x256 or 256x144, keep_aspect_ratio false, range 0..1, BORDER_ZERO; TensorsToSegmentationCalculator: activation
NONE, upsampled to the input size).

Video: MediaPipe's SegmentationSmoothingCalculator (combine_with_previous_ratio SMOOTHING_RATIO, the value of its
pose graph) with a PreviousLoopbackCalculator feeding back the smoothed mask, as pose_segmentation_filtering.pbtxt
wires it, run on the general model's masks of VIDEO_FRAMES in order; the smoothed masks of the frames after the
first are stored like the others (`video` in the json; the first frame passes through unchanged, checked).

Writes Tests/Goldens/mediapipe/segmentation.json (deterministic) and one 8-bit grayscale PNG per picture and model,
segmentation_<model>_<picture>.png: byte = numpy.rint(clip(mask, 0, 1) * 255) (round half to even), so a stored byte
b stands for the float b / 255 within 0.5 / 255. The json records, per mask, the float32 mask's sha256, its mean,
its fraction above 0.5, and the exact float32 values at a few pixels.
"""
from __future__ import annotations

import json
import os
import sys
from importlib import metadata as importlib_metadata

import numpy as np

from recipes import COMPOSE_NOTE, GRAY, MODELS_DIR, ROT90_NOTE, build_image, rgb_sha256, sha256_bytes, sha256_file

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "mediapipe")
OUT_JSON = os.path.join(OUT_DIR, "segmentation.json")

GRAPH = "mediapipe/modules/selfie_segmentation/selfie_segmentation_cpu.binarypb"  # relative to the wheel's root
MODELS = {  # results key -> (model_selection, wheel file under mediapipe/modules/, Models/ file, tensor H x W)
    "general": (0, "selfie_segmentation/selfie_segmentation.tflite", "selfie_segmentation.tflite", (256, 256)),
    "landscape": (1, "selfie_segmentation/selfie_segmentation_landscape.tflite",
                  "selfie_segmentation_landscape.tflite", (144, 256)),
}
# Pixels whose exact float32 values the json records: fractions of (width - 1, height - 1).
PROBES = [(0.5, 0.5), (0.5, 0.25), (0.25, 0.75), (0.75, 0.6), (0.0, 0.0), (1.0, 1.0)]

SMOOTHING_RATIO = 0.7
VIDEO_FRAMES = ["astronaut", "astronaut_mirror", "astronaut"]
SMOOTHING_GRAPH = """
input_stream: "mask_frame"
output_stream: "smoothed_frame"
node { calculator: "ToImageCalculator" input_stream: "IMAGE_CPU:mask_frame" output_stream: "IMAGE:mask" }
node { calculator: "SegmentationSmoothingCalculator" input_stream: "MASK:mask" input_stream: "MASK_PREVIOUS:previous"
       output_stream: "MASK_SMOOTHED:smoothed"
       options { [mediapipe.SegmentationSmoothingCalculatorOptions.ext] { combine_with_previous_ratio: RATIO } } }
node { calculator: "PreviousLoopbackCalculator" input_stream: "MAIN:mask" input_stream: "LOOP:smoothed"
       input_stream_info: { tag_index: "LOOP" back_edge: true } output_stream: "PREV_LOOP:previous" }
node { calculator: "FromImageCalculator" input_stream: "IMAGE:smoothed" output_stream: "IMAGE_CPU:smoothed_frame" }
"""

A = "astronaut.png"
C = "camera.png"
RECIPES = {
    "astronaut": {"op": "file", "file": A},
    "camera_rgb": {"op": "file", "file": C, "note": "8-bit grayscale PNG; R = G = B = gray value (PIL convert('RGB'))"},
    "astronaut_mirror": {"op": "mirror", "src": A, "note": "out[y][x] = in[y][W-1-x]"},
    "astronaut_rot90_k1": {"op": "rot90", "src": A, "k": 1, "note": ROT90_NOTE},
    "astronaut_crop_left200_312x512": {"op": "crop", "src": A, "crop_x": [200, 512], "crop_y": [0, 512],
                                       "note": "a portrait crop: the person cut by the left edge"},
    "astronaut_down2_256x256": {"op": "compose", "canvas": [256, 256], "fill": GRAY,
                                "items": [{"src": A, "down": 2, "at": [0, 0]}],
                                "note": COMPOSE_NOTE + "; the general model's own size: no resampling either way"},
    "astronaut_top_256x144": {"op": "compose", "canvas": [256, 144], "fill": GRAY,
                              "items": [{"src": A, "crop_y": [0, 288], "down": 2, "at": [0, 0]}],
                              "note": COMPOSE_NOTE + "; the landscape model's own size"},
    "astronaut_wide_1280x720": {"op": "place", "src": A, "canvas": [1280, 720], "fill": GRAY, "at": [640, 104],
                                "note": "a 16:9 frame, the person right of centre"},
    "camera_landscape_455x256": {"op": "compose", "canvas": [455, 256], "fill": GRAY,
                                 "items": [{"src": C, "down": 2, "at": [100, 0]}],
                                 "note": COMPOSE_NOTE + "; an odd width"},
    "astronaut_small_100x75": {"op": "compose", "canvas": [100, 75], "fill": GRAY,
                               "items": [{"src": A, "crop_x": [0, 500], "crop_y": [0, 375], "down": 5, "at": [0, 0]}],
                               "note": COMPOSE_NOTE + "; smaller than the masks: the resize reduces"},
}


def wheel_root() -> str:
    import mediapipe
    return os.path.dirname(os.path.dirname(os.path.abspath(mediapipe.__file__)))


def check_graph() -> None:
    """Stops when the wheel's graph differs from what the Swift pipeline copies."""
    from mediapipe.calculators.tensor import image_to_tensor_calculator_pb2 as i2t
    from mediapipe.calculators.tensor import tensors_to_segmentation_calculator_pb2 as t2s
    from mediapipe.framework import calculator_pb2
    from mediapipe.framework.tool import switch_container_pb2 as sw

    config = calculator_pb2.CalculatorGraphConfig()
    with open(os.path.join(wheel_root(), GRAPH), "rb") as f:
        config.ParseFromString(f.read())
    nodes = {n.calculator: n for n in config.node}
    contained = nodes["SwitchContainer"].options.Extensions[sw.SwitchContainerOptions.ext].contained_node
    for (selection, _, _, (h, w)), node in zip(sorted(MODELS.values()), contained):
        o = node.options.Extensions[i2t.ImageToTensorCalculatorOptions.ext]
        got = (o.output_tensor_width, o.output_tensor_height, o.keep_aspect_ratio, o.output_tensor_float_range.min,
               o.output_tensor_float_range.max, o.border_mode)
        want = (w, h, False, 0.0, 1.0, i2t.ImageToTensorCalculatorOptions.BORDER_ZERO)
        if got != want:
            sys.exit(f"error: model_selection {selection}: ImageToTensor options {got}, expected {want}")
    seg = nodes["TensorsToSegmentationCalculator"]
    if seg.options.Extensions[t2s.TensorsToSegmentationCalculatorOptions.ext].activation != \
            t2s.TensorsToSegmentationCalculatorOptions.NONE or "OUTPUT_SIZE:input_size" not in seg.input_stream:
        sys.exit("error: TensorsToSegmentationCalculator is not activation NONE upsampled to the input size")


def model_info() -> dict:
    out = {}
    for key, (selection, wheel_file, ours, (h, w)) in MODELS.items():
        sha = sha256_file(os.path.join(wheel_root(), "mediapipe", "modules", wheel_file))
        local = os.path.join(MODELS_DIR, ours)
        if os.path.exists(local) and sha256_file(local) != sha:
            sys.exit(f"error: {local} differs from the wheel's {wheel_file}")
        out[key] = {"model_selection": selection, "wheel_file": "mediapipe/modules/" + wheel_file,
                    "models_file": ours, "sha256": sha, "tensor_height": h, "tensor_width": w}
    return out


def smooth_video(masks: list[np.ndarray]) -> list[np.ndarray]:
    """The masks through MediaPipe's smoothing graph (SMOOTHING_GRAPH), one packet per frame."""
    from google.protobuf import text_format
    from mediapipe.calculators.image import segmentation_smoothing_calculator_pb2  # noqa: F401 (registers the options)
    from mediapipe.framework import calculator_pb2
    from mediapipe.python import packet_creator, packet_getter
    from mediapipe.python._framework_bindings import calculator_graph, image_frame

    config = text_format.Parse(SMOOTHING_GRAPH.replace("RATIO", repr(SMOOTHING_RATIO)),
                               calculator_pb2.CalculatorGraphConfig())
    graph = calculator_graph.CalculatorGraph(graph_config=config)
    out: list[np.ndarray] = []
    graph.observe_output_stream(
        "smoothed_frame", lambda _, p: out.append(np.array(packet_getter.get_image_frame(p).numpy_view(), copy=True)))
    graph.start_run()
    for t, mask in enumerate(masks):
        frame = packet_creator.create_image_frame(image_format=image_frame.ImageFormat.VEC32F1, data=mask)
        graph.add_packet_to_input_stream("mask_frame", frame.at(t))
    graph.close()
    assert len(out) == len(masks) and np.array_equal(out[0], masks[0]), "the first frame must pass through"
    return out


def mask_record(mask: np.ndarray, png: str) -> dict:
    """Writes the PNG and returns the json record of a float mask."""
    from PIL import Image
    h, w = mask.shape
    Image.fromarray(quantize(mask), mode="L").save(os.path.join(OUT_DIR, png), optimize=True)
    probes = []
    for fx, fy in PROBES:
        x, y = round(fx * (w - 1)), round(fy * (h - 1))
        probes.append([x, y, float(mask[y, x])])  # float32 -> double is exact; json keeps 17 digits
    return {"mask_png": png, "sha256_float32": sha256_bytes(np.ascontiguousarray(mask).tobytes()),
            "mean": r7(mask.astype(np.float64).mean()), "foreground_fraction": r7((mask > 0.5).mean()),
            "min": float(mask.min()), "max": float(mask.max()), "probes": probes}


def quantize(mask: np.ndarray) -> np.ndarray:
    return np.rint(np.clip(mask, 0, 1) * 255).astype(np.uint8)


def r7(v: float) -> float:
    return float(f"{float(v):.7g}")


def main() -> None:
    import mediapipe as mp

    check_graph()
    models = model_info()
    images = {name: build_image(recipe) for name, recipe in RECIPES.items()}
    results: dict[str, dict] = {}
    masks: dict[tuple[str, str], np.ndarray] = {}
    for key, (selection, _, _, _) in MODELS.items():
        results[key] = {}
        with mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=selection) as segmenter:
            for name, rgb in images.items():
                mask = segmenter.process(rgb).segmentation_mask
                again = segmenter.process(rgb).segmentation_mask
                assert mask.dtype == np.float32 and mask.shape == rgb.shape[:2], (mask.dtype, mask.shape)
                assert np.array_equal(mask, again), f"{key} {name}: two runs differ"
                h, w = mask.shape
                results[key][name] = mask_record(mask, f"segmentation_{key}_{name}.png")
                masks[(key, name)] = mask
                print(f"{key:9} {name:32} {w}x{h} mean {mask.mean():.4f} fg {(mask > 0.5).mean():.4f}")
    smoothed = smooth_video([masks[("general", name)] for name in VIDEO_FRAMES])
    video = {"model": "general", "combine_with_previous_ratio": SMOOTHING_RATIO, "frames": VIDEO_FRAMES,
             "smoothed": [None] + [mask_record(m, f"segmentation_video_frame{i}.png")
                                  for i, m in enumerate(smoothed) if i > 0]}
    for i, m in enumerate(smoothed[1:], 1):
        raw = masks[("general", VIDEO_FRAMES[i])]
        print(f"video frame {i}: max |smoothed - raw| {np.abs(m - raw).max():.4f}, mean {np.abs(m - raw).mean():.5f}")
    doc = {
        "generator": "Tests/Goldens/segmentation_parity.py",
        "versions": {p: importlib_metadata.version(p) for p in ("mediapipe", "numpy", "pillow", "protobuf")},
        "solution": "mediapipe.solutions.selfie_segmentation.SelfieSegmentation(model_selection=M).process(rgb)"
                    ".segmentation_mask; M = 0 general, M = 1 landscape",
        "quantization": "mask_png byte = numpy.rint(clip(mask, 0, 1) * 255), round half to even; b / 255 is "
                        "within 0.5 / 255 of the float mask",
        "probes": "[x, y, exact float32 mask value] at pixel (x, y)",
        "models": models,
        "images": {name: {"width": int(rgb.shape[1]), "height": int(rgb.shape[0]), "recipe": RECIPES[name],
                          "rgb_sha256": rgb_sha256(rgb)} for name, rgb in images.items()},
        "results": results,
        "video": video,
    }
    with open(OUT_JSON, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    records = [r for m in results.values() for r in m.values()] + video["smoothed"][1:]
    total = sum(os.path.getsize(os.path.join(OUT_DIR, r["mask_png"])) for r in records)
    print(f"wrote {OUT_JSON} and {len(records)} masks ({total} bytes)")


if __name__ == "__main__":
    main()
