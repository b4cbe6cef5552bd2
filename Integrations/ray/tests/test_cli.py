"""The job script: finding the binary and the inputs, and one real scan on a local Ray."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import pyarrow.parquet as pq
import pytest

from blazeface_ray.cli import main
from blazeface_ray.coprocess import BlazefaceError
from blazeface_ray.inputs import find_binary, list_inputs

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_missing_binary_is_a_clear_error_before_anything_starts(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BlazefaceError, match="no blazeface binary: pass --binary PATH or put blazeface on PATH"):
        find_binary(None)
    assert main(["scan", "--input", str(tmp_path), "--output", str(tmp_path / "o.parquet"),
                 "--binary", str(tmp_path / "blazeface")]) == 2
    assert "does not exist (--binary)" in capsys.readouterr().err
    assert not (tmp_path / "o.parquet").exists()


def test_a_binary_that_is_not_executable_is_refused(tmp_path):
    fake = tmp_path / "blazeface"
    fake.write_text("#!/bin/sh\n")
    with pytest.raises(BlazefaceError, match="not executable"):
        find_binary(str(fake))
    fake.chmod(0o755)
    assert find_binary(str(fake)) == str(fake)


def test_inputs_walk_folders_and_globs_once_each(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    for name in ("a/1.jpg", "a/b/2.PNG", "a/b/3.txt", "a/.4.jpg", ".hidden/5.jpg", "6.jpeg"):
        (tmp_path / name).write_bytes(b"x")
    os.symlink(tmp_path / "nowhere.jpg", tmp_path / "a" / "broken.jpg")
    everything = list_inputs([str(tmp_path)])
    assert [os.path.relpath(p, tmp_path) for p in everything] == ["6.jpeg", "a/1.jpg", "a/b/2.PNG", "a/b/3.txt",
                                                                  "a/broken.jpg"]
    pictures = list_inputs([str(tmp_path / "**" / "*"), str(tmp_path / "a")], extensions=["jpg", "png", "jpeg"])
    assert [os.path.relpath(p, tmp_path) for p in pictures] == ["6.jpeg", "a/1.jpg", "a/b/2.PNG", "a/broken.jpg"]
    assert len(list_inputs([str(tmp_path)], include_hidden=True)) == 7
    with pytest.raises(BlazefaceError, match="no file matches"):
        list_inputs([str(tmp_path / "*.gif")])


def test_a_scan_on_a_local_ray_writes_one_row_per_input(binary, models, samples, tmp_path):
    """Starts a local Ray (about 15 s) on 127.0.0.1, its files under tmp_path: samples and a text file."""
    (tmp_path / "in").mkdir()
    for path in samples[:6]:
        os.symlink(path, tmp_path / "in" / os.path.basename(path))
    (tmp_path / "in" / "notes.jpg").write_text("hello")
    output = tmp_path / "out.parquet"
    ray_tmp = tempfile.mkdtemp(prefix="bf-ray-")   # short: Ray's socket paths must stay under 108 bytes
    try:
        result = subprocess.run(
            [sys.executable, "-m", "blazeface_ray", "scan", "--input", str(tmp_path / "in"), "--output", str(output),
             "--binary", binary, "--models-dir", models, "--concurrency", "2", "--threads", "1", "--batch-size", "2"],
            cwd=PACKAGE_ROOT, capture_output=True, text=True, timeout=300,
            env={**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_TMPDIR": ray_tmp})
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)
    assert result.returncode == 0, result.stderr[-3000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["pictures"] == summary["rows"] == 7 and summary["errors"] == 1
    table = pq.read_table(output).to_pandas().sort_values("path")
    assert sorted(table.path) == sorted(str(tmp_path / "in" / name) for name in os.listdir(tmp_path / "in"))
    assert table.set_index("path").loc[str(tmp_path / "in" / "notes.jpg"), "error"].startswith("no image format recognised")
    assert (table.face_count.dropna() >= 0).all()
