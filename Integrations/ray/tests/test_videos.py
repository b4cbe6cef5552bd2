"""scan-videos: blazeface track per video, the per-frame files and the summary rows."""

import json
import os
import subprocess
import sys
import tempfile
import shutil

import pyarrow.parquet as pq
import pytest

from blazeface_ray.videos import track_video

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_clip(path, frames=45, rate=15):
    """A face (the obama sample) sliding across a dark frame, MPEG-4 at `rate` frames a second."""
    av = pytest.importorskip("av")
    import numpy
    from PIL import Image

    samples = os.path.join(PACKAGE_ROOT, "..", "..", "Models", "samples", "obama.jpg")
    if not os.path.exists(samples):
        pytest.skip("no Models/samples")
    face = Image.open(samples).convert("RGB").resize((300, 375))
    with av.open(str(path), "w") as container:
        stream = container.add_stream("mpeg4", rate=rate)
        stream.width, stream.height, stream.pix_fmt = 640, 480, "yuv420p"
        for index in range(frames):
            canvas = Image.new("RGB", (640, 480), (30, 40, 50))
            canvas.paste(face, (20 + index * 6, 50))
            for packet in stream.encode(av.VideoFrame.from_ndarray(numpy.asarray(canvas), format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def test_a_video_gives_its_ids_and_time_on_screen_as_the_binary_says(binary, models, tmp_path):
    clip = tmp_path / "walk.mkv"
    make_clip(clip)
    row = track_video(str(clip), binary, str(tmp_path), threads=1, models_dir=models)
    assert row["error"] is None and row["frames"] == 45 and row["ids"] == 1
    (track,) = json.loads(row["tracks"])
    assert track["frames"] == 45 and track["seconds"] == pytest.approx(3.0, abs=1e-3)
    alone = subprocess.run([binary, "track", str(clip), "--models-dir", models], capture_output=True, text=True)
    assert "ID 1: 3.00 s on screen" in alone.stdout             # the text summary of a run of its own agrees
    with open(row["frames_file"]) as frames:
        assert len(frames.readlines()) == 45

    half = tmp_path / "half.mkv"
    half.write_bytes(clip.read_bytes()[:clip.stat().st_size // 2])
    cut = track_video(str(half), binary, str(tmp_path), models_dir=models)
    assert "truncated video" in cut["error"] and 0 < cut["frames"] < 45 and cut["frames_file"]

    text = tmp_path / "notes.mp4"
    text.write_text("not a video")
    bad = track_video(str(text), binary, str(tmp_path), models_dir=models)
    assert "not a video" in bad["error"] and bad["frames"] == 0 and bad["frames_file"] is None
    assert sorted(os.listdir(tmp_path)) == sorted(["walk.mkv", "half.mkv", "notes.mp4",
                                                   os.path.basename(row["frames_file"]),
                                                   os.path.basename(cut["frames_file"])])


def test_scan_videos_on_a_local_ray(binary, models, tmp_path):
    """Starts a local Ray (about 15 s) on 127.0.0.1: two clips, one damaged, a text file named .mp4."""
    (tmp_path / "in").mkdir()
    make_clip(tmp_path / "in" / "a.mkv")
    make_clip(tmp_path / "in" / "b with space.mkv", frames=30)
    (tmp_path / "in" / "c.mp4").write_text("not a video")
    ray_tmp = tempfile.mkdtemp(prefix="bf-ray-")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "blazeface_ray", "scan-videos", "--input", str(tmp_path / "in"),
             "--output", str(tmp_path / "v.parquet"), "--frames-dir", str(tmp_path / "frames"),
             "--binary", binary, "--models-dir", models, "--concurrency", "2"],
            cwd=PACKAGE_ROOT, capture_output=True, text=True, timeout=300,
            env={**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_TMPDIR": ray_tmp})
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = {os.path.basename(row["path"]): row for row in pq.read_table(tmp_path / "v.parquet").to_pylist()}
    assert sorted(rows) == ["a.mkv", "b with space.mkv", "c.mp4"]
    assert (rows["a.mkv"]["frames"], rows["a.mkv"]["ids"]) == (45, 1)
    assert rows["b with space.mkv"]["frames"] == 30 and rows["b with space.mkv"]["error"] is None
    assert rows["c.mp4"]["error"] and rows["c.mp4"]["frames_file"] is None
    assert len(os.listdir(tmp_path / "frames")) == 2
