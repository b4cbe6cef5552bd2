#!/usr/bin/env python3
"""Builds the conformance zoo: TFLite models with random weights, converted the ways users convert them,
plus MediaPipe's hand and pose models taken from the pinned mediapipe wheel. Writes everything into --out
(keep it outside the repository) together with manifest.json.

    python Tests/Conformance/Zoo/make_zoo.py --out ZOO_DIR [--models mobilenet_v2,tiny_vit] [--no-mediapipe]

Nothing is downloaded except the mediapipe==0.10.21 wheel from PyPI (through pip, checked against its
sha256 in Models/checksums.sha256); give --mediapipe-wheel to use a wheel already on disk.

Keras models: keras.applications with weights=None (and a small ViT-like functional model), seeded. Every
BatchNormalization layer's moving statistics are then reset from one training-mode pass over a few random
images in the model's input range (momentum 0, dropout off), otherwise the activations of a random-weight
network shrink layer after layer (to ~1e-11 at the output) and every comparison passes vacuously.
ConvNeXt's LayerScale factors (initialised to 1e-6, which mutes every residual branch) are set to 1.
After that each model is checked: the std of its output, and for softmax outputs the std of log(output)
(= the std of the logits), are reported in manifest.json ("check"), and each converted file is run once in
LiteRT and compared with Keras.

Each Keras model is converted twice:
  <name>_keras.tflite   tf.lite.TFLiteConverter.from_keras_model(model) (dynamic batch: SHAPE/PACK/... ops)
  <name>_frozen.tflite  a batch-1 tf.function, convert_variables_to_constants_v2, from_concrete_functions
and MobileNetV2 also, from_keras_model with Optimize.DEFAULT, as
  mobilenet_v2_f16.tflite  float16 weights (target_spec.supported_types = [tf.float16])
  mobilenet_v2_w8.tflite   int8 weights, float activations (dynamic-range quantization, no dataset)
"""
import argparse
import contextlib
import gc
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from importlib import metadata

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
import tflite_ops  # noqa: E402  (next to this script)

SEED = 20240611
CALIBRATION_IMAGES = 4

# name: (keras.applications constructor or "tiny_vit", input side, constructor kwargs, input range, why)
KERAS_MODELS = {
    "mobilenet_v2": ("MobileNetV2", 224, {}, (-1.0, 1.0),
                     "no built-in preprocessing; mobilenet_v2.preprocess_input maps pixels to -1..1"),
    "mobilenet_v3_small": ("MobileNetV3Small", 224, {"include_preprocessing": True}, (0.0, 255.0),
                           "built-in Rescaling: raw pixels 0..255"),
    "mobilenet_v3_large": ("MobileNetV3Large", 224, {"include_preprocessing": True}, (0.0, 255.0),
                           "built-in Rescaling: raw pixels 0..255"),
    "efficientnet_b0": ("EfficientNetB0", 224, {}, (0.0, 255.0),
                        "always built in: Rescaling + Normalization, raw pixels 0..255"),
    "resnet50": ("ResNet50", 160, {}, (-128.0, 128.0),
                 "no built-in preprocessing; caffe-style preprocess_input subtracts the channel means"),
    "densenet121": ("DenseNet121", 160, {}, (-2.0, 2.0),
                    "no built-in preprocessing; torch-style preprocess_input gives about -2..2"),
    "convnext_tiny": ("ConvNeXtTiny", 160, {"include_preprocessing": True}, (0.0, 255.0),
                      "built-in Normalization: raw pixels 0..255"),
    "tiny_vit": ("tiny_vit", 64, {}, (-1.0, 1.0),
                 "hand-written functional ViT (patch conv, MultiHeadAttention, LayerNorm, GELU MLP, softmax)"),
}

MEDIAPIPE_REQUIREMENT = "mediapipe==0.10.21"
MEDIAPIPE_WHEEL = "mediapipe-0.10.21-cp311-cp311-manylinux_2_28_x86_64.whl"
# file in the zoo: (path inside the wheel, input range, why); ranges from the ImageToTensorCalculator
# options (output_tensor_float_range) of the graph that runs the model.
MEDIAPIPE_MODELS = {
    "palm_detection_full.tflite": ("mediapipe/modules/palm_detection/palm_detection_full.tflite",
                                   (0.0, 1.0), "palm_detection_cpu.pbtxt: float range 0..1"),
    "palm_detection_lite.tflite": ("mediapipe/modules/palm_detection/palm_detection_lite.tflite",
                                   (0.0, 1.0), "palm_detection_cpu.pbtxt: float range 0..1"),
    "hand_landmark_full.tflite": ("mediapipe/modules/hand_landmark/hand_landmark_full.tflite",
                                  (0.0, 1.0), "hand_landmark_cpu.pbtxt: float range 0..1"),
    "hand_landmark_lite.tflite": ("mediapipe/modules/hand_landmark/hand_landmark_lite.tflite",
                                  (0.0, 1.0), "hand_landmark_cpu.pbtxt: float range 0..1"),
    "hand_recrop.tflite": ("mediapipe/modules/holistic_landmark/hand_recrop.tflite",
                           (0.0, 1.0), "hand_recrop_by_roi_cpu.pbtxt: float range 0..1"),
    "pose_detection.tflite": ("mediapipe/modules/pose_detection/pose_detection.tflite",
                              (-1.0, 1.0), "pose_detection_cpu.pbtxt: float range -1..1"),
    "pose_landmark_full.tflite": ("mediapipe/modules/pose_landmark/pose_landmark_full.tflite",
                                  (0.0, 1.0), "pose_landmark_by_roi_cpu.pbtxt: float range 0..1"),
    # Not in the wheel: MediaPipe downloads it at run time from Google's storage, which the zoo does not do.
    "pose_landmark_lite.tflite": ("mediapipe/modules/pose_landmark/pose_landmark_lite.tflite",
                                  (0.0, 1.0), "pose_landmark_by_roi_cpu.pbtxt: float range 0..1"),
}

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def log(*args):
    print(*args, flush=True)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tensor_details(path):
    from ai_edge_litert.interpreter import Interpreter
    it = Interpreter(model_path=path)

    def describe(d):
        return {"name": d["name"], "shape": [int(v) for v in d["shape"]],
                "shape_signature": [int(v) for v in d["shape_signature"]], "dtype": np.dtype(d["dtype"]).name}
    return [describe(d) for d in it.get_input_details()], [describe(d) for d in it.get_output_details()]


def run_litert(path, x):
    """Outputs of the .tflite file at path for the single input x (one thread, default delegate)."""
    from ai_edge_litert.interpreter import Interpreter
    it = Interpreter(model_path=path, num_threads=1)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]).copy() for d in it.get_output_details()]


def file_entry(zoo, file_name, **extra):
    path = os.path.join(zoo, file_name)
    inputs, outputs = tensor_details(path)
    ops = tflite_ops.operator_counts(path)
    entry = {"file": file_name, "size_bytes": os.path.getsize(path), "sha256": sha256(path),
             "operators": sorted(ops), "operator_counts": ops, "inputs": inputs, "outputs": outputs}
    entry.update(extra)
    return entry


# ----------------------------------------------------------------------------------------------- Keras


def tiny_vit(size, keras):
    """A small ViT written as a functional model: 8x8 patches, 2 pre-norm encoder blocks, mean-pool head."""
    layers = keras.layers

    class PositionEmbedding(layers.Layer):
        def build(self, shape):
            self.table = self.add_weight(shape=(shape[1], shape[2]), initializer="random_normal", name="table")

        def call(self, x):
            return x + self.table

    dim, patch = 64, 8
    tokens = (size // patch) ** 2
    inp = keras.Input((size, size, 3), name="image")
    x = layers.Conv2D(dim, patch, strides=patch, name="patchify")(inp)
    x = layers.Reshape((tokens, dim))(x)
    x = PositionEmbedding(name="position")(x)
    for i in range(2):
        h = layers.LayerNormalization(epsilon=1e-6, name="ln_attn_%d" % i)(x)
        h = layers.MultiHeadAttention(num_heads=4, key_dim=dim // 4, name="mha_%d" % i)(h, h)
        x = layers.Add()([x, h])
        h = layers.LayerNormalization(epsilon=1e-6, name="ln_mlp_%d" % i)(x)
        h = layers.Dense(2 * dim, activation="gelu", name="mlp_up_%d" % i)(h)
        h = layers.Dense(dim, name="mlp_down_%d" % i)(h)
        x = layers.Add()([x, h])
    x = layers.LayerNormalization(epsilon=1e-6, name="ln_final")(x)
    x = layers.GlobalAveragePooling1D()(x)
    out = layers.Dense(10, activation="softmax", name="predictions")(x)
    return keras.Model(inp, out, name="tiny_vit")


def build_keras(name, keras):
    ctor, size, kwargs, _, _ = KERAS_MODELS[name]
    keras.utils.set_random_seed(SEED)
    if ctor == "tiny_vit":
        return tiny_vit(size, keras)
    return getattr(keras.applications, ctor)(weights=None, input_shape=(size, size, 3), **kwargs)


def random_images(rng, count, size, lo, hi):
    return rng.uniform(lo, hi, size=(count, size, size, 3)).astype(np.float32)


def wake_up(model, keras, images):
    """Makes a random-weight model's activations non-degenerate; returns what was changed."""
    changed = {}
    # ConvNeXt: LayerScale gamma starts at 1e-6 and would mute every residual branch.
    scales = [l for l in model.layers if type(l).__name__ == "LayerScale"]
    for layer in scales:
        layer.gamma.assign(np.ones(layer.gamma.shape, np.float32))
    if scales:
        changed["layer_scale_set_to_1"] = len(scales)
    norms = [l for l in model.layers if isinstance(l, keras.layers.BatchNormalization)]
    if norms:
        drops = [l for l in model.layers if isinstance(l, keras.layers.Dropout)]
        saved = [(l, l.momentum) for l in norms] + [(l, l.rate) for l in drops]
        for layer in norms:
            layer.momentum = 0.0
        for layer in drops:
            layer.rate = 0.0
        model(images, training=True)  # moving mean/variance := the statistics of this batch
        for layer, value in saved:
            if isinstance(layer, keras.layers.BatchNormalization):
                layer.momentum = value
            else:
                layer.rate = value
        changed["batch_norm_reset"] = len(norms)
    return changed


def output_check(y):
    y = np.asarray(y, np.float64)
    check = {"output_std": float(y.std()), "output_mean": float(y.mean()),
             "output_max_abs": float(np.abs(y).max())}
    if y.min() > 0 and np.allclose(y.sum(axis=-1), 1.0, atol=1e-3):
        check["log_output_std"] = float(np.log(y).std(axis=-1).mean())  # = std of the logits
    spread = check.get("log_output_std", check["output_std"] / max(check["output_max_abs"], 1e-30))
    check["degenerate"] = bool(not np.isfinite(y).all() or spread < 1e-3)
    return check


def rel_err(a, b):
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    return float(np.abs(a - b).max() / max(float(np.abs(b).max()), 1e-6))


def convert(label, make_converter, path):
    start = time.time()
    with contextlib.redirect_stdout(io.StringIO()):  # from_keras_model prints the exported signature
        data = make_converter().convert()
    with open(path, "wb") as f:
        f.write(data)
    seconds = time.time() - start
    log("  %-28s %7.1f s  %6.1f MB" % (label, seconds, len(data) / 1e6))
    return seconds


def make_keras(names, zoo, manifest):
    import tensorflow as tf
    import keras
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    log("TensorFlow %s, Keras %s" % (tf.__version__, keras.__version__))
    for name in names:
        ctor, size, _, (lo, hi), why = KERAS_MODELS[name]
        log("%s (%s, %dx%d, input %g..%g)" % (name, ctor, size, size, lo, hi))
        start = time.time()
        try:
            model = build_keras(name, keras)
        except Exception as error:  # noqa: BLE001 -- record and go on with the next model
            log("  cannot build %s: %s" % (name, str(error).splitlines()[0][:200]))
            manifest.setdefault("failures", {})[name] = str(error).splitlines()[0][:500]
            continue
        rng = np.random.default_rng(SEED)
        changed = wake_up(model, keras, random_images(rng, CALIBRATION_IMAGES, size, lo, hi))
        probe = random_images(rng, 1, size, lo, hi)
        reference = np.asarray(model(probe, training=False))
        check = output_check(reference)
        check.update(changed)
        log("  built in %.1f s; params %d; output std %.4g%s%s" % (
            time.time() - start, model.count_params(), check["output_std"],
            ", log-output std %.4g" % check["log_output_std"] if "log_output_std" in check else "",
            "  ** DEGENERATE **" if check["degenerate"] else ""))

        def from_keras():
            return tf.lite.TFLiteConverter.from_keras_model(model)

        def frozen():
            fn = tf.function(lambda x: model(x, training=False))
            concrete = fn.get_concrete_function(tf.TensorSpec([1, size, size, 3], tf.float32, name="image"))
            return tf.lite.TFLiteConverter.from_concrete_functions(
                [convert_variables_to_constants_v2(concrete)], model)

        def quantized(f16):
            def make():
                converter = tf.lite.TFLiteConverter.from_keras_model(model)
                converter.optimizations = [tf.lite.Optimize.DEFAULT]
                if f16:
                    converter.target_spec.supported_types = [tf.float16]
                return converter
            return make

        variants = [("keras", from_keras, "TFLiteConverter.from_keras_model (dynamic batch)"),
                    ("frozen", frozen, "batch-1 tf.function, convert_variables_to_constants_v2, "
                                       "from_concrete_functions")]
        if name == "mobilenet_v2":
            variants += [("f16", quantized(True), "from_keras_model, Optimize.DEFAULT, supported_types=[float16]"),
                         ("w8", quantized(False), "from_keras_model, Optimize.DEFAULT (dynamic-range int8 "
                                                  "weights, float activations)")]
        for suffix, make_converter, how in variants:
            file_name = "%s_%s.tflite" % (name, suffix)
            path = os.path.join(zoo, file_name)
            try:
                seconds = convert(file_name, make_converter, path)
            except Exception as error:  # noqa: BLE001 -- record and go on with the next variant
                log("  %s: conversion failed: %s" % (file_name, str(error).splitlines()[0][:200]))
                manifest["models"].pop(file_name[:-len(".tflite")], None)
                manifest.setdefault("failures", {})[file_name] = str(error).splitlines()[0][:500]
                continue
            lite = run_litert(path, probe)[0]
            entry = file_entry(
                zoo, file_name, family="keras",
                source="keras.applications.%s(weights=None, input_shape=(%d, %d, 3)%s), seed %d" % (
                    ctor, size, size, "".join(", %s=%r" % kv for kv in KERAS_MODELS[name][2].items()), SEED)
                if ctor != "tiny_vit" else "tiny_vit() in make_zoo.py (input %dx%d), seed %d" % (size, size, SEED),
                conversion=how, convert_seconds=round(seconds, 1),
                input_range=[lo, hi], input_range_note=why,
                check=dict(check, litert_vs_keras_rel_err=rel_err(lite, reference),
                           litert_output_std=float(np.asarray(lite, np.float64).std())))
            manifest["models"][file_name[:-len(".tflite")]] = entry
            manifest.get("failures", {}).pop(file_name, None)
            log("    LiteRT vs Keras: rel err %.3g; %d operators: %s" % (
                entry["check"]["litert_vs_keras_rel_err"], len(entry["operators"]), " ".join(entry["operators"])))
            write_manifest(zoo, manifest)
        del model
        keras.backend.clear_session()
        gc.collect()


# ------------------------------------------------------------------------------------------- MediaPipe


def expected_wheel_sha():
    with open(os.path.join(REPO, "Models", "checksums.sha256")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and parts[1] == MEDIAPIPE_WHEEL:
                return parts[0]
    raise SystemExit("error: %s has no line in Models/checksums.sha256" % MEDIAPIPE_WHEEL)


def make_mediapipe(zoo, manifest, wheel):
    want = expected_wheel_sha()
    tmp = None
    if wheel is None:
        tmp = tempfile.mkdtemp(prefix="zoo-mediapipe-")
        log("Downloading %s (the wheel only; nothing is installed) ..." % MEDIAPIPE_REQUIREMENT)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        "--disable-pip-version-check", "--only-binary=:all:", "--python-version", "3.11",
                        "--platform", "manylinux_2_28_x86_64", MEDIAPIPE_REQUIREMENT, "-d", tmp], check=True)
        wheel = os.path.join(tmp, MEDIAPIPE_WHEEL)
    try:
        got = sha256(wheel)
        if got != want:
            raise SystemExit("error: checksum mismatch for %s: got %s, want %s" % (wheel, got, want))
        with zipfile.ZipFile(wheel) as archive:
            members = set(archive.namelist())
            for file_name, (member, (lo, hi), why) in MEDIAPIPE_MODELS.items():
                key = file_name[:-len(".tflite")]
                if member not in members:
                    log("  %-28s not in the wheel" % file_name)
                    manifest["not_available"][file_name] = "%s is not in the %s wheel (MediaPipe downloads it " \
                                                          "at run time)" % (member, MEDIAPIPE_REQUIREMENT)
                    continue
                with archive.open(member) as src, open(os.path.join(zoo, file_name), "wb") as dst:
                    shutil.copyfileobj(src, dst)
                entry = file_entry(zoo, file_name, family="mediapipe",
                                   source="%s wheel (sha256 %s): %s" % (MEDIAPIPE_REQUIREMENT, want, member),
                                   input_range=[lo, hi], input_range_note=why)
                manifest["models"][key] = entry
                log("  %-28s %6.1f MB  %d operators: %s" % (file_name, entry["size_bytes"] / 1e6,
                                                           len(entry["operators"]), " ".join(entry["operators"])))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    write_manifest(zoo, manifest)


# -------------------------------------------------------------------------------------------- manifest


def write_manifest(zoo, manifest):
    union = {}
    for key, entry in manifest["models"].items():
        for op in entry["operators"]:
            union.setdefault(op, []).append(key)
    manifest["operator_union"] = {op: sorted(users) for op, users in sorted(union.items())}
    manifest["models"] = dict(sorted(manifest["models"].items()))
    path = os.path.join(zoo, "manifest.json")
    with open(path + ".tmp", "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="zoo directory (created; keep it outside the repository)")
    parser.add_argument("--models", help="comma-separated Keras model names to (re)build, default all: "
                                         + ",".join(KERAS_MODELS))
    parser.add_argument("--no-keras", action="store_true", help="build no Keras model")
    parser.add_argument("--no-mediapipe", action="store_true", help="skip the MediaPipe models")
    parser.add_argument("--mediapipe-wheel", help="use this %s file instead of downloading it" % MEDIAPIPE_WHEEL)
    args = parser.parse_args()

    zoo = os.path.abspath(args.out)
    os.makedirs(zoo, exist_ok=True)
    manifest_path = os.path.join(zoo, "manifest.json")
    manifest = {"models": {}, "not_available": {}}
    if os.path.exists(manifest_path):  # rebuilding a part keeps the other entries
        with open(manifest_path) as f:
            manifest = json.load(f)
        manifest.setdefault("not_available", {})
    names = list(KERAS_MODELS) if not args.models else [n.strip() for n in args.models.split(",") if n.strip()]
    unknown = [n for n in names if n not in KERAS_MODELS]
    if unknown:
        parser.error("unknown model(s) %s; known: %s" % (", ".join(unknown), ", ".join(KERAS_MODELS)))
    manifest["seed"] = SEED
    manifest["versions"] = {}
    for package in ("tensorflow", "keras", "ai-edge-litert", "numpy"):
        try:
            manifest["versions"][package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            pass

    started = time.time()
    if not args.no_mediapipe:
        make_mediapipe(zoo, manifest, args.mediapipe_wheel)
    if not args.no_keras:
        make_keras(names, zoo, manifest)
    write_manifest(zoo, manifest)
    log("%d models in %s/manifest.json; %d operators in all; %.0f s" % (
        len(manifest["models"]), os.path.basename(zoo), len(manifest["operator_union"]), time.time() - started))


if __name__ == "__main__":
    main()
