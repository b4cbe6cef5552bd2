#!/usr/bin/env python3
"""Adds Ultralytics YOLO detectors to the conformance zoo: models built from Ultralytics' yaml files with random
(seeded) weights, exported through Ultralytics' default TFLite path (format="litert": litert-torch, NCHW float32
input, boxes normalized by the image size). Writes the .tflite files into --out and merges their entries into
--out/manifest.json (the format make_zoo.py writes; the other entries are kept).

    python Tests/Conformance/Zoo/make_yolo.py --out ZOO_DIR [--imgsz 320] [--models yolo11n,yolov8n,yolo11n_w8a32]

Needs the environment of requirements-yolo.txt (ultralytics, torch, litert-torch, ai-edge-quantizer,
ai-edge-litert). Models:
  yolo11n.tflite        YOLO("yolo11n.yaml").export(format="litert", imgsz=IMGSZ)            float32
  yolov8n.tflite        YOLO("yolov8n.yaml").export(format="litert", imgsz=IMGSZ)            float32
  yolo11n_w8a32.tflite  the same yolo11n (same weights), export(..., quantize="w8a32"): int8 weights, float32
                        activations (ai-edge-quantizer recipe dynamic_wi8_afp32, no calibration data)

Offline: nothing is downloaded. The script sets YOLO_OFFLINE=1 (Ultralytics then skips its DNS probe, its
analytics events and any pip auto-install in check_requirements) and, unless YOLO_CONFIG_DIR is set, points
YOLO_CONFIG_DIR at a temporary folder so that no settings file is written into the home directory. The float
and w8a32 exports need no asset (no font, no calibration images: only quantize=8 / "w8a16" would need a
dataset such as coco8, which is not used here). The exporter writes next to the yaml's base name in the
current directory, so the script exports in a temporary folder and moves the file into --out.

Random weights alone make a useless test: a YOLO built from its yaml has BatchNorm layers with running mean 0
and variance 1, so the features shrink layer after layer (std 1e-5..1e-9 at the head's inputs) and the output is a
function of the anchor grid only. So, like make_zoo.py, before exporting every BatchNorm's running statistics
are set from one training-mode pass over a few random 0..1 images (momentum 1, then restored), and the class
logits' bias (initialised by Detect.bias_init to log(5 / nc / (640 / stride)^2), about -9..-12, which makes
every score ~1e-5 and so invisible next to the box coordinates in a max-relative error) is set to 0. The
output is then checked (std of the raw box/DFL and class logits, spread of the scores) and recorded in
manifest.json ("check"), together with LiteRT's error against PyTorch on the same input.
"""
import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from importlib import metadata

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts

os.environ.setdefault("YOLO_OFFLINE", "1")
_CONFIG_DIR = None
if "YOLO_CONFIG_DIR" not in os.environ:
    _CONFIG_DIR = tempfile.mkdtemp(prefix="yolo-config-")
    os.environ["YOLO_CONFIG_DIR"] = _CONFIG_DIR
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402

import make_zoo  # noqa: E402  (next to this script: file_entry, write_manifest, run_litert, rel_err, log)
import tflite_ops  # noqa: E402

SEED = 20240611
CALIBRATION_IMAGES = 4
INPUT_RANGE = (0.0, 1.0)
INPUT_RANGE_NOTE = "Ultralytics feeds RGB pixels / 255 (0..1), NCHW"
# zoo name: (yaml, quantize argument of YOLO.export)
YOLO_MODELS = {
    "yolo11n": ("yolo11n.yaml", None),
    "yolov8n": ("yolov8n.yaml", None),
    "yolo11n_w8a32": ("yolo11n.yaml", "w8a32"),
}
VERSIONS = ("ultralytics", "torch", "litert-torch", "litert-converter", "ai-edge-quantizer", "ai-edge-litert",
            "numpy")

log = make_zoo.log


def build(yaml, torch, YOLO):
    """YOLO(yaml) with random weights seeded by SEED (independent of which other models are built)."""
    torch.manual_seed(SEED)
    with contextlib.redirect_stdout(io.StringIO()):
        return YOLO(yaml)


def head_stats(net, x, torch):
    """PyTorch's exported-layout output for x (boxes divided by the image size, as the LiteRT export does) and
    the spread of the raw head outputs (DFL box logits and class logits)."""
    net.eval()
    with torch.no_grad():
        y, raw = net(x)
    y = y.clone()
    h, w = x.shape[2], x.shape[3]
    y[:, :4] /= torch.tensor([w, h, w, h], dtype=y.dtype).view(1, 4, 1)
    # Spread over the positions of each level, per channel, averaged: what the features contribute (the class
    # bias differs per level, so a plain std would not be 0 even for constant features).
    sizes = [f.shape[2] * f.shape[3] for f in raw["feats"]]

    def spatial_std(t):
        return float(np.mean([part.std(dim=2).mean().item() for part in t.split(sizes, dim=2)]))
    stats = {"box_logit_std": spatial_std(raw["boxes"]), "class_logit_std": spatial_std(raw["scores"]),
             "class_logit_mean": float(raw["scores"].mean())}
    return y.numpy(), stats


def output_check(y, stats, nc):
    y = np.asarray(y, np.float64)
    boxes, scores = y[:, :4], y[:, 4:4 + nc]
    check = {"output_std": float(y.std()), "output_mean": float(y.mean()), "output_min": float(y.min()),
             "output_max": float(y.max()), "output_max_abs": float(np.abs(y).max()),
             "box_std": float(boxes.std()), "score_std": float(scores.std()), "score_min": float(scores.min()),
             "score_max": float(scores.max())}
    check.update(stats)
    # Degenerate: the head sees (almost) constant features, or the scores do not register next to the boxes.
    check["degenerate"] = bool(not np.isfinite(y).all() or stats["box_logit_std"] < 1e-3
                               or stats["class_logit_std"] < 1e-3 or check["score_std"] < 1e-3 * check["output_max_abs"])
    return check


def wake_up(model, torch, images):
    """Resets every BatchNorm's running statistics from one training-mode pass over images and zeroes the class
    logits' bias; returns what was changed."""
    from ultralytics.nn.modules import Detect

    net = model.model
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    saved = [m.momentum for m in norms]
    for m in norms:
        m.momentum = 1.0  # running := this batch's statistics
    net.train()
    with torch.no_grad():
        net(images)
    net.eval()
    for m, momentum in zip(norms, saved):
        m.momentum = momentum
    heads = [m for m in net.modules() if isinstance(m, Detect)]
    biases = 0
    for det in heads:
        for branch in det.cv3:
            branch[-1].bias.data[:det.nc] = 0.0
            biases += 1
    return {"batch_norm_reset": len(norms), "class_bias_zeroed": biases}


def export(model, imgsz, quantize, workdir):
    """(path of the exported file inside workdir, seconds, captured log)."""
    import logging
    from ultralytics.utils import LOGGER

    captured = io.StringIO()
    handler = logging.StreamHandler(captured)
    saved = LOGGER.handlers, LOGGER.propagate
    LOGGER.handlers, LOGGER.propagate = [handler], False  # Ultralytics' own handler holds the real stdout
    cwd = os.getcwd()
    os.chdir(workdir)
    start = time.time()
    try:
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            f = model.export(format="litert", imgsz=imgsz, quantize=quantize)
    except BaseException:
        sys.stderr.write(captured.getvalue()[-4000:])
        raise
    finally:
        os.chdir(cwd)
        LOGGER.handlers, LOGGER.propagate = saved
    seconds = time.time() - start
    if not f:
        raise RuntimeError("export returned nothing; its log ends with:\n" + captured.getvalue()[-2000:])
    return os.path.join(workdir, f), seconds, captured.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="zoo directory (created; keep it outside the repository)")
    parser.add_argument("--imgsz", type=int, default=320, help="square input side, a multiple of 32 (default 320)")
    parser.add_argument("--models", help="comma-separated names, default all: " + ",".join(YOLO_MODELS))
    parser.add_argument("--verbose", action="store_true", help="print the exporters' own logs")
    args = parser.parse_args()
    names = list(YOLO_MODELS) if not args.models else [n.strip() for n in args.models.split(",") if n.strip()]
    unknown = [n for n in names if n not in YOLO_MODELS]
    if unknown:
        parser.error("unknown model(s) %s; known: %s" % (", ".join(unknown), ", ".join(YOLO_MODELS)))
    if args.imgsz % 32:
        parser.error("--imgsz must be a multiple of 32")

    zoo = os.path.abspath(args.out)
    os.makedirs(zoo, exist_ok=True)
    manifest_path = os.path.join(zoo, "manifest.json")
    manifest = {"models": {}, "not_available": {}}
    if os.path.exists(manifest_path):  # keep every other entry
        with open(manifest_path) as f:
            manifest = json.load(f)
    manifest.setdefault("models", {})
    versions = {}
    for package in VERSIONS:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            pass

    started = time.time()
    import torch
    from ultralytics import YOLO
    log("ultralytics %s, torch %s, litert-torch %s, ai-edge-quantizer %s; imgsz %d" % (
        versions.get("ultralytics"), versions.get("torch"), versions.get("litert-torch"),
        versions.get("ai-edge-quantizer"), args.imgsz))

    gen = torch.Generator().manual_seed(SEED)
    calibration = torch.rand(CALIBRATION_IMAGES, 3, args.imgsz, args.imgsz, generator=gen)
    probe = torch.rand(1, 3, args.imgsz, args.imgsz, generator=gen)

    built = {}  # yaml: (model, reference output, check); yolo11n and yolo11n_w8a32 share one model
    workdir = tempfile.mkdtemp(prefix="zoo-yolo-")
    try:
        for name in names:
            yaml, quantize = YOLO_MODELS[name]
            if yaml not in built:
                start = time.time()
                model = build(yaml, torch, YOLO)
                net = model.model
                nc = net.model[-1].nc
                _, before = head_stats(net, probe, torch)
                changed = wake_up(model, torch, calibration)
                reference, after = head_stats(net, probe, torch)
                check = output_check(reference, after, nc)
                check["before_wake_up"] = before
                check.update(changed)
                params = sum(p.numel() for p in net.parameters())
                log("%s: built in %.1f s; %d parameters; box/class logit std %.3g/%.3g (before the BatchNorm reset "
                    "%.3g/%.3g); scores %.3g..%.3g%s" % (
                        yaml, time.time() - start, params, after["box_logit_std"], after["class_logit_std"],
                        before["box_logit_std"], before["class_logit_std"], check["score_min"], check["score_max"],
                        "  ** DEGENERATE **" if check["degenerate"] else ""))
                built[yaml] = (model, reference, check, params)
            model, reference, check, params = built[yaml]
            file_name = name + ".tflite"
            try:
                exported, seconds, captured = export(model, args.imgsz, quantize, workdir)
            except Exception as error:  # noqa: BLE001 -- record and go on with the next model
                log("  %s: export failed: %s" % (file_name, str(error).splitlines()[0][:300] if str(error) else
                                                  type(error).__name__))
                manifest["models"].pop(name, None)
                manifest.setdefault("failures", {})[file_name] = (str(error) or type(error).__name__).splitlines()[0][:500]
                make_zoo.write_manifest(zoo, manifest)
                continue
            if args.verbose:
                log(captured)
            path = os.path.join(zoo, file_name)
            shutil.move(exported, path)
            x = probe.numpy()
            lite = make_zoo.run_litert(path, x)[0]
            litert_check = {"litert_vs_torch_rel_err": make_zoo.rel_err(lite, reference),
                            "litert_output_std": float(np.asarray(lite, np.float64).std()),
                            "litert_output_min": float(lite.min()), "litert_output_max": float(lite.max())}
            content = tflite_ops.dequantized_copy(path)
            if content is not None:  # hybrid kernels quantize activations at run time; also check the float copy
                from ai_edge_litert.interpreter import Interpreter
                it = Interpreter(model_content=content, num_threads=1)
                it.allocate_tensors()
                it.set_tensor(it.get_input_details()[0]["index"], x)
                it.invoke()
                litert_check["litert_dequantized_copy_vs_torch_rel_err"] = make_zoo.rel_err(
                    it.get_tensor(it.get_output_details()[0]["index"]), reference)
            how = "YOLO(%r).export(format='litert', imgsz=%d%s): litert_torch.convert%s; NCHW input, boxes " \
                  "normalized by the image size; Ultralytics' metadata.json appended as a zip entry" % (
                      yaml, args.imgsz, ", quantize=%r" % quantize if quantize else "",
                      ", then ai-edge-quantizer recipe dynamic_wi8_afp32 (int8 weights, float32 activations)"
                      if quantize == "w8a32" else "")
            entry = make_zoo.file_entry(
                zoo, file_name, family="ultralytics",
                source="ultralytics YOLO(%r), random weights (torch.manual_seed(%d)), %d parameters; BatchNorm "
                       "statistics from %d random 0..1 images, class bias zeroed" % (yaml, SEED, params,
                                                                                     CALIBRATION_IMAGES),
                conversion=how, convert_seconds=round(seconds, 1), imgsz=args.imgsz, seed=SEED,
                input_range=list(INPUT_RANGE), input_range_note=INPUT_RANGE_NOTE,
                check=dict(check, **litert_check), versions=versions)
            manifest["models"][name] = entry
            manifest.get("failures", {}).pop(file_name, None)
            make_zoo.write_manifest(zoo, manifest)
            log("  %-22s %5.1f s  %5.1f MB  in %s out %s; LiteRT vs PyTorch rel err %.3g%s; output %.3g..%.3g std "
                "%.3g" % (file_name, seconds, entry["size_bytes"] / 1e6, entry["inputs"][0]["shape"],
                          " ".join(str(o["shape"]) for o in entry["outputs"]), litert_check["litert_vs_torch_rel_err"],
                          " (dequantized copy %.3g)" % litert_check["litert_dequantized_copy_vs_torch_rel_err"]
                          if "litert_dequantized_copy_vs_torch_rel_err" in litert_check else "",
                          litert_check["litert_output_min"], litert_check["litert_output_max"],
                          litert_check["litert_output_std"]))
            log("    %d operators: %s" % (len(entry["operators"]), " ".join(
                "%s×%d" % (op, n) for op, n in entry["operator_counts"].items())))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if _CONFIG_DIR:
            shutil.rmtree(_CONFIG_DIR, ignore_errors=True)
    make_zoo.write_manifest(zoo, manifest)
    log("%d models in %s/manifest.json; %.0f s" % (len(manifest["models"]), os.path.basename(zoo),
                                                     time.time() - started))


if __name__ == "__main__":
    main()
