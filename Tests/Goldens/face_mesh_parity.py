#!/usr/bin/env python3
"""Records MediaPipe 0.10.21's legacy Face Mesh solution for the FaceLandmarker parity tests.

Run through Tests/Goldens/generate.sh (step 6), which creates `.venv-mp-legacy/` with the pins of
requirements-mediapipe-legacy.txt; running this file directly with that venv's python works too once
Models/fetch.sh has fetched the sample pictures.

What is recorded: `mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=10,
refine_landmarks=R, min_detection_confidence=0.5)` for R = True ("refined", face_landmark_with_attention.tflite,
478 landmarks) and R = False ("plain", face_landmark.tflite, 468 landmarks). FaceMesh is a SolutionBase over the
wheel's face_landmark_front_cpu.binarypb that only exposes `multi_face_landmarks`. This script runs the same
binary graph, expanded by MediaPipe's ValidatedGraphConfig, with the same side packets and calculator options,
but as a plain CalculatorGraph that observes more streams:
  face_detections, face_rects_from_detections, face_rects_from_landmarks   (graph outputs)
  face_rect                                  (the ROI of each landmark-loop iteration, after association)
  facelandmarkcpu__face_presence_score       (sigmoid of the model's face flag, per ROI; the landmarks are
                                              dropped when it is not above 0.5)
  face_landmarks                             (per ROI, only when the face is present)
and two added TensorsToFloatsCalculator nodes: the raw face-flag logit, and the model input tensor
(192x192x3 floats) of every ROI. Each run is checked against plain `FaceMesh.process` (identical landmarks).

Writes Tests/Goldens/mediapipe/face_mesh.json (deterministic; every float rounded to 7 significant digits) and,
for INPUT_TENSOR_CASES, face_mesh_input_<picture>_<face>.npy: the model input as uint8 (192, 192, 3) with
input = Float(u8) * Float(1 / 255) in float32 exactly, a float32 product (checked here; the json records the
float32 bytes' sha256 too).
"""
from __future__ import annotations

import json
import os
import sys
from importlib import metadata as importlib_metadata

import numpy as np

from mediapipe_parity import RECIPES as DETECTOR_RECIPES
from recipes import (COMPOSE_NOTE, GRAY, MODELS_DIR, ROOT, ROT90_NOTE, ROTATE_NOTE, build_image, rgb_sha256,
                     sha256_bytes, sha256_file)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "mediapipe")
OUT_JSON = os.path.join(OUT_DIR, "face_mesh.json")

GRAPH = "mediapipe/modules/face_landmark/face_landmark_front_cpu.binarypb"  # relative to the wheel's root
MAX_NUM_FACES = 10
MIN_DETECTION_CONFIDENCE = 0.5
MIN_TRACKING_CONFIDENCE = 0.5  # FaceMesh's default: the face-presence threshold of FaceLandmarkCpu
MODES = {"refined": True, "plain": False}  # results key -> refine_landmarks
LANDMARK_COUNT = {"refined": 478, "plain": 468}
SIGNIFICANT_DIGITS = 7
U8_SCALE = np.float32(1) / np.float32(255)  # ImageToTensor (OpenCV convertTo): input = Float(u8) * Float(1 / 255)
INPUT_TENSOR_CASES = ["astronaut", "astronaut_rotate_cos4_sin3"]  # pictures whose model inputs are stored

A = "astronaut.png"
DETECTOR_PICTURES = ["astronaut", "camera_rgb", "chelsea", "astronaut_wide_1280x720", "astronaut_wide_768x512",
                     "astronaut_portrait_512x900", "astronaut_portrait_512x768", "astronaut_canvas_513x513",
                     "astronaut_pair_512x512", "astronaut_crop_left200_312x512", "astronaut_down2_256x256"]
HEAD = {"crop_x": [140, 300], "crop_y": [20, 250]}  # the astronaut's head and shoulders, 160 x 230
RECIPES = {name: DETECTOR_RECIPES[name] for name in DETECTOR_PICTURES}
RECIPES.update({
    "astronaut_mirror": {"op": "mirror", "src": A, "note": "out[y][x] = in[y][W-1-x]"},
    "astronaut_rot90_k1": {"op": "rot90", "src": A, "k": 1, "note": ROT90_NOTE},
    "astronaut_rot90_k2": {"op": "rot90", "src": A, "k": 2, "note": ROT90_NOTE},
    "astronaut_rot90_k3": {"op": "rot90", "src": A, "k": 3, "note": ROT90_NOTE},
    "astronaut_rotate_cos4_sin3": {"op": "rotate", "src": A, "canvas": [720, 720], "fill": GRAY,
                                   "cos": 4, "sin": 3, "den": 5, "note": ROTATE_NOTE + "; here about 36.87 degrees"},
    "astronaut_rotate_cos4_sinm3": {"op": "rotate", "src": A, "canvas": [720, 720], "fill": GRAY,
                                    "cos": 4, "sin": -3, "den": 5,
                                    "note": ROTATE_NOTE + "; here about -36.87 degrees (counterclockwise)"},
    "astronaut_rotate_cos12_sin5": {"op": "rotate", "src": A, "canvas": [720, 720], "fill": GRAY,
                                    "cos": 12, "sin": 5, "den": 13, "note": ROTATE_NOTE + "; here about 22.62 degrees"},
    "astronaut_group_1280x720": {
        "op": "compose", "canvas": [1280, 720], "fill": GRAY,
        "items": [
            dict(src=A, **HEAD, up=3, at=[0, 15]),
            {"src": A, "crop_x": [130, 320], "crop_y": [10, 280], "up": 2, "at": [480, 0]},
            dict(src=A, **HEAD, up=3, down=2, at=[870, 0]),
            {"src": A, "down": 2, "at": [850, 370]},
            {"src": A, "down": 3, "at": [1110, 370]},
        ],
        "note": COMPOSE_NOTE + "; five faces, about 300, 200, 150, 50 and 33 pixels wide; the short-range "
                               "detector of the face mesh graph finds only the three largest"},
})


# ----------------------------------------------------------------------------------------------------------
# Rounding and JSON

def r7(v: float) -> float:
    """v rounded to SIGNIFICANT_DIGITS significant digits (json writes the shortest repr of the result)."""
    return float(f"{float(v):.{SIGNIFICANT_DIGITS}g}")


def rect_record(rect) -> dict:
    return {"x_center": r7(rect.x_center), "y_center": r7(rect.y_center), "width": r7(rect.width),
            "height": r7(rect.height), "rotation": r7(rect.rotation)}


def detection_record(det) -> dict:
    box = det.location_data.relative_bounding_box
    return {"score": r7(det.score[0]),
            "box": {"xmin": r7(box.xmin), "ymin": r7(box.ymin), "width": r7(box.width), "height": r7(box.height)},
            "keypoints": [[r7(k.x), r7(k.y)] for k in det.location_data.relative_keypoints]}


def landmarks_array(landmark_list) -> list[list[float]]:
    return [[lm.x, lm.y, lm.z] for lm in landmark_list.landmark]


def to_json(value, depth: int = 0) -> str:
    """json with one-space indentation, except that lists of numbers (and null) stay on one line."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {to_json(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(v is None or isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return json.dumps(value, separators=(",", ":"))
        return "[\n" + ",\n".join(inner + to_json(v, depth + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value)


def write_json(path: str, doc: dict, compact: dict[str, str]) -> None:
    """to_json(doc), with the values of `compact` (marker string -> one-line json) put in verbatim."""
    text = to_json(doc)
    for marker, line in compact.items():
        text = text.replace(json.dumps(marker), line, 1)
    with open(path, "w") as f:
        f.write(text)
        f.write("\n")


# ----------------------------------------------------------------------------------------------------------
# MediaPipe

def wheel_root() -> str:
    import mediapipe
    return os.path.dirname(os.path.dirname(os.path.abspath(mediapipe.__file__)))


def graph_config(refine: bool):
    """The expanded face_landmark_front_cpu graph with FaceMesh's options plus two TensorsToFloats nodes."""
    from mediapipe.calculators.tensor import tensors_to_floats_calculator_pb2 as t2f
    from mediapipe.framework import calculator_pb2
    from mediapipe.python._framework_bindings import resource_util, validated_graph_config
    from mediapipe.python.solution_base import SolutionBase

    resource_util.set_resource_dir(wheel_root())
    validated = validated_graph_config.ValidatedGraphConfig()
    validated.initialize(binary_graph_path=os.path.join(wheel_root(), GRAPH))
    config = calculator_pb2.CalculatorGraphConfig()
    config.ParseFromString(validated.binary_config)
    # FaceMesh's calculator_params, applied by SolutionBase's own method (both equal the graph's defaults).
    SolutionBase._modify_calculator_options(None, config, {
        "facedetectionshortrangecpu__facedetectionshortrange__facedetection__TensorsToDetectionsCalculator"
        ".min_score_thresh": MIN_DETECTION_CONFIDENCE,
        "facelandmarkcpu__ThresholdingCalculator.threshold": MIN_TRACKING_CONFIDENCE,
    })
    logit = config.node.add()
    logit.calculator = "TensorsToFloatsCalculator"
    logit.input_stream.append("TENSORS:facelandmarkcpu__face_flag_tensor")
    logit.output_stream.append("FLOAT:extra_face_flag_logit")
    logit.options.Extensions[t2f.TensorsToFloatsCalculatorOptions.ext].activation = \
        t2f.TensorsToFloatsCalculatorOptions.NONE
    inputs = config.node.add()
    inputs.calculator = "TensorsToFloatsCalculator"
    inputs.input_stream.append("TENSORS:facelandmarkcpu__input_tensors")
    inputs.output_stream.append("FLOATS:extra_input_floats")
    return config


OBSERVED = {  # stream -> packet getter name
    "multi_face_landmarks": "proto_list", "face_detections": "proto_list", "face_rects_from_detections": "proto_list",
    "face_rects_from_landmarks": "proto_list", "face_rect": "proto", "face_landmarks": "proto",
    "facelandmarkcpu__face_presence_score": "float", "extra_face_flag_logit": "float",
    "extra_input_floats": "float_list",
}


def run_graph(config, refine: bool, rgb: np.ndarray) -> dict[str, list]:
    """One run of the graph on one picture: every packet of every observed stream, in timestamp order."""
    import mediapipe as mp
    from mediapipe.python import packet_creator, packet_getter

    got: dict[str, list] = {s: [] for s in OBSERVED}

    def observer(name):
        getter = getattr(packet_getter, "get_" + OBSERVED[name])
        return lambda stream, packet: got[name].append((packet.timestamp.value, getter(packet)))

    graph = mp.CalculatorGraph(graph_config=config)
    for name in OBSERVED:
        graph.observe_output_stream(name, observer(name))
    graph.start_run({"num_faces": packet_creator.create_int(MAX_NUM_FACES),
                     "with_attention": packet_creator.create_bool(refine),
                     "use_prev_landmarks": packet_creator.create_bool(False)})
    frame = packet_creator.create_image_frame(data=np.ascontiguousarray(rgb), image_format=mp.ImageFormat.SRGB)
    graph.add_packet_to_input_stream("image", frame.at(33333))
    graph.close()
    for name, packets in got.items():
        stamps = [t for t, _ in packets]
        assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps), f"{name}: timestamps out of order"
    return got


def plain_face_mesh(refine: bool, rgb: np.ndarray) -> list:
    import mediapipe as mp
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=MAX_NUM_FACES,
                                         refine_landmarks=refine,
                                         min_detection_confidence=MIN_DETECTION_CONFIDENCE) as fm:
        res = fm.process(rgb)
    return [landmarks_array(f) for f in (res.multi_face_landmarks or [])]


def picture_result(mode: str, name: str, rgb: np.ndarray, config, compact: dict[str, str],
                   tensors: dict[str, np.ndarray]) -> dict:
    refine = MODES[mode]
    run = run_graph(config, refine, rgb)
    def single(stream: str) -> list:
        """The one packet's list of a per-picture output stream (an empty list if the stream sent none)."""
        packets = run[stream]
        assert len(packets) <= 1, f"{name}: {len(packets)} packets on {stream}"
        return packets[0][1] if packets else []

    detections = single("face_detections")
    rois = single("face_rects_from_detections")
    multi = single("multi_face_landmarks")
    rois_lm = single("face_rects_from_landmarks")
    loop_rois = run["face_rect"]
    presence = dict(run["facelandmarkcpu__face_presence_score"])
    logits = dict(run["extra_face_flag_logit"])
    inputs = dict(run["extra_input_floats"])
    landmarks = dict(run["face_landmarks"])

    assert len(rois) == len(detections), f"{name}: {len(rois)} rois for {len(detections)} detections"
    # In IMAGE mode the association step keeps every ROI, in order: the loop's ROIs are the detection ROIs.
    assert [r.SerializeToString() for _, r in loop_rois] == [r.SerializeToString() for r in rois], \
        f"{name}: association changed the ROIs"
    assert sorted(presence) == sorted(logits) == sorted(inputs) == [t for t, _ in loop_rois]
    faces = []
    present = []
    for i, ((stamp, roi), det) in enumerate(zip(loop_rois, detections)):
        p, logit = presence[stamp], logits[stamp]
        assert (stamp in landmarks) == (p > MIN_TRACKING_CONFIDENCE), f"{name}: gate disagrees with presence"
        x = np.asarray(inputs[stamp], dtype=np.float32)
        assert x.size == 192 * 192 * 3
        u8 = np.rint(x * 255).astype(np.uint8)
        exact = bool(np.array_equal(u8.astype(np.float32) * U8_SCALE, x))
        face = {"detection": detection_record(det), "roi": rect_record(roi),
                "presence": r7(p), "face_flag_logit": r7(logit),
                "input_tensor": {"sha256_float32": sha256_bytes(x.tobytes()), "u8_exact": exact}}
        if stamp in landmarks:
            lms = landmarks_array(landmarks[stamp])
            assert len(lms) == LANDMARK_COUNT[mode], f"{name}: {len(lms)} landmarks"
            present.append(lms)
            marker = f"@@landmarks-{mode}-{name}-{i}@@"
            compact[marker] = json.dumps([[r7(v) for v in lm] for lm in lms], separators=(",", ":"))
            face["landmarks"] = marker
            face["roi_from_landmarks"] = rect_record(rois_lm[len(present) - 1])
        else:
            face["landmarks"] = None
            face["roi_from_landmarks"] = None
        if name in INPUT_TENSOR_CASES:
            assert exact, f"{name}: the model input is not Float(u8) * Float(1 / 255)"
            key = f"{name}_{i}"
            if key in tensors:
                assert np.array_equal(tensors[key], u8.reshape(192, 192, 3)), f"{key}: inputs differ between modes"
            tensors[key] = u8.reshape(192, 192, 3)
            face["input_tensor"]["npy"] = f"face_mesh_input_{key}.npy"
        faces.append(face)
    assert len(rois_lm) == len(present)
    assert [landmarks_array(f) for f in multi] == present, f"{name}: multi_face_landmarks differ from the loop"
    plain = plain_face_mesh(refine, rgb)
    assert plain == present, f"{name}/{mode}: FaceMesh.process gives other landmarks than the extended graph"
    return {"faces": faces}


# ----------------------------------------------------------------------------------------------------------

def versions() -> dict[str, str]:
    return {p: importlib_metadata.version(p) for p in ("mediapipe", "numpy", "pillow", "protobuf")}


def model_info() -> dict:
    root = os.path.join(wheel_root(), "mediapipe", "modules")
    out = {}
    for key, wheel_file, ours in [
            ("refined", "face_landmark/face_landmark_with_attention.tflite", "face_landmark_with_attention.tflite"),
            ("plain", "face_landmark/face_landmark.tflite", "mediapipe_face_landmark.tflite"),
            ("detector", "face_detection/face_detection_short_range.tflite",
             "mediapipe_face_detection_short_range.tflite")]:
        sha = sha256_file(os.path.join(root, wheel_file))
        local = os.path.join(MODELS_DIR, ours)
        if os.path.exists(local) and sha256_file(local) != sha:
            sys.exit(f"error: Models/{ours} differs from the wheel's mediapipe/modules/{wheel_file}")
        out[key] = {"wheel_file": "mediapipe/modules/" + wheel_file, "models_file": ours, "sha256": sha}
    return out


def main() -> None:
    os.makedirs(OUT_DIR, exist_ok=True)
    images = {name: build_image(r) for name, r in RECIPES.items()}
    compact: dict[str, str] = {}
    tensors: dict[str, np.ndarray] = {}
    results: dict[str, dict] = {}
    for mode, refine in MODES.items():
        config = graph_config(refine)
        results[mode] = {name: picture_result(mode, name, rgb, config, compact, tensors)
                         for name, rgb in images.items()}

    doc = {
        "description": "MediaPipe legacy Face Mesh solution (mediapipe.solutions.face_mesh) results for the "
                       "FaceLandmarker parity tests; see README.md",
        "regenerate": "Tests/Goldens/generate.sh (step 6: face_mesh_parity.py)",
        "versions": versions(),
        "settings": {
            "api": "mediapipe.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=10, "
                   "refine_landmarks=R, min_detection_confidence=0.5); refined: R = True, plain: R = False",
            "graph": GRAPH + " (expanded by ValidatedGraphConfig), side packets num_faces 10, with_attention R, "
                     "use_prev_landmarks false",
            "max_num_faces": MAX_NUM_FACES,
            "min_detection_confidence": MIN_DETECTION_CONFIDENCE,
            "face_presence_threshold": MIN_TRACKING_CONFIDENCE,
            "input": "ImageFrame SRGB, HxWx3 uint8 RGB",
            "extra_streams": "face_detections, face_rects_from_detections, face_rects_from_landmarks, face_rect, "
                             "facelandmarkcpu__face_presence_score, face_landmarks; added TensorsToFloatsCalculator "
                             "nodes on facelandmarkcpu__face_flag_tensor (no activation) and "
                             "facelandmarkcpu__input_tensors",
            "check": "landmarks identical to FaceMesh.process on the same picture",
        },
        "models": model_info(),
        "output_format": {
            "rounding": f"every float rounded to {SIGNIFICANT_DIGITS} significant digits (MediaPipe's are float32)",
            "faces": "one entry per face detection of the graph (face_detections, at most max_num_faces, by score), "
                     "in the graph's order; FaceMesh's multi_face_landmarks are the non-null `landmarks` in this order",
            "detection": "score; box = relative_bounding_box (xmin, ymin, width, height, normalized); keypoints = "
                         "6 relative keypoints [x, y] (right eye, left eye, nose tip, mouth centre, right ear "
                         "tragion, left ear tragion; normalized)",
            "roi": "face_rects_from_detections: NormalizedRect x_center, y_center, width, height (normalized), "
                   "rotation (radians); the crop the landmark model sees",
            "presence": "sigmoid(face_flag_logit) as TensorsToFloatsCalculator computes it; landmarks are kept only "
                        "when presence > face_presence_threshold",
            "landmarks": "[[x, y, z], ...] normalized to the picture (x / width, y / height, z in the scale of x), "
                         "478 (refined) or 468 (plain), as LandmarkProjectionCalculator outputs them; null when "
                         "the face was dropped for low presence",
            "roi_from_landmarks": "face_rects_from_landmarks: the ROI MediaPipe would track with next frame",
            "input_tensor": "the 1x192x192x3 float32 model input (ImageToTensorCalculator, range 0..1): sha256 of "
                            "its bytes; u8_exact = it equals Float(u8) * Float(1 / 255) for uint8 u8 (float32 product, not a division; true everywhere so far); npy (for a few pictures) = "
                            "that uint8 array, shape (192, 192, 3), in mediapipe/",
        },
        "images": {name: {"width": int(rgb.shape[1]), "height": int(rgb.shape[0]), "recipe": RECIPES[name],
                          "rgb_sha256": rgb_sha256(rgb)} for name, rgb in images.items()},
        "results": results,
    }
    write_json(OUT_JSON, doc, compact)
    for key, arr in sorted(tensors.items()):
        np.save(os.path.join(OUT_DIR, f"face_mesh_input_{key}.npy"), arr, allow_pickle=False)

    print(f"{'picture':32s} {'size':>10s}  refined (presence, landmarks?) | plain")
    for name in images:
        def summary(mode):
            return " ".join(f"{f['presence']:.3f}{'' if f['landmarks'] else '(dropped)'}"
                            for f in results[mode][name]["faces"]) or "-"
        im = doc["images"][name]
        print(f"{name:32s} {im['width']:>4d}x{im['height']:<5d} {summary('refined'):28s} | {summary('plain')}")
    print(f"Written {os.path.relpath(OUT_JSON, ROOT)} ({os.path.getsize(OUT_JSON) // 1024} KiB) and "
          f"{len(tensors)} input tensors")


if __name__ == "__main__":
    main()
