"""The co-process against the real blazeface binary: real faces, error rows, restarts."""

import json
import os
import signal
import subprocess

import pyarrow as pa
import pytest

from blazeface_ray import SCHEMA, BlazefaceBatch, PictureRunner, build_command
from blazeface_ray.coprocess import BlazefaceError, check_binary


def alone(binary, models, path, task="detect"):
    """The image's entry of `blazeface <task> --json PATH`, run on that file alone."""
    result = subprocess.run([binary, task, path, "--json", "--models-dir", models], capture_output=True)
    document = json.loads(result.stdout)
    (entry,) = document["images"]
    return entry


def test_faces_equal_the_cli_run_on_each_file_alone(binary, models, samples):
    runner = PictureRunner(build_command(binary, "detect", 2, models))
    try:
        rows = runner.run(samples)
    finally:
        runner.close()
    assert [row["path"] for row in rows] == samples
    total = 0
    for row in rows:
        reference = alone(binary, models, row["path"])
        assert row["error"] is None
        assert (row["width"], row["height"]) == (reference["width"], reference["height"])
        # Python's floats round-trip the binary's doubles exactly: equal values are equal bits.
        assert json.loads(row["faces"]) == reference["faces"]
        assert row["face_count"] == len(reference["faces"])
        total += row["face_count"]
    assert total >= 20   # the group photos have 5 faces each; three landscapes have none
    assert runner.restarts == 0


def test_bad_inputs_are_error_rows_and_the_batch_goes_on(binary, models, samples, tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture\n")
    truncated = tmp_path / "half.png"
    truncated.write_bytes(open([p for p in samples if p.endswith(".png")][0], "rb").read()[:300])
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    fifo = tmp_path / "pipe.jpg"
    os.mkfifo(fifo)
    paths = [samples[0], str(tmp_path / "missing.jpg"), str(tmp_path), str(text), str(truncated), str(empty),
             str(fifo), "two\nlines.jpg", "", samples[1]]
    runner = PictureRunner(build_command(binary, "detect", 2, models))
    try:
        rows = runner.run(paths)
    finally:
        runner.close()
    assert [row["path"] for row in rows] == paths
    assert rows[0]["error"] is None and rows[-1]["error"] is None
    for row in rows[1:-1]:
        assert row["error"], row
        assert row["faces"] is None and row["width"] is None
    assert "No such file" in rows[1]["error"]
    assert "directory" in rows[2]["error"]
    assert "line break" in rows[7]["error"] and "empty" in rows[8]["error"]
    assert runner.restarts == 0


def test_one_process_for_many_batches_and_a_restart_after_a_kill(binary, models, samples):
    runner = PictureRunner(build_command(binary, "detect", 1, models))
    try:
        first = runner.run(samples[:4])
        pid = runner.coprocess.pid
        second = runner.run(samples[4:8])
        assert runner.coprocess.pid == pid
        os.kill(pid, signal.SIGKILL)
        third = runner.run(samples[8:])
        assert runner.coprocess.pid != pid
        assert runner.restarts == 1 and "SIGKILL" in runner.deaths[0]
    finally:
        runner.close()
    rows = first + second + third
    assert [row["path"] for row in rows] == samples
    assert all(row["error"] is None for row in rows)


def test_the_callable_class_returns_the_schema(binary, models, samples):
    batch = BlazefaceBatch(binary, task="analyze", threads=2, models_dir=models)
    try:
        table = batch(pa.table({"path": samples[:3]}))
        as_dict = batch({"path": pa.array(samples[3:5]).to_numpy(zero_copy_only=False)})
    finally:
        batch.runner.close()
    assert table.schema == SCHEMA and as_dict.schema == SCHEMA
    assert table.column("path").to_pylist() == samples[:3]
    faces = json.loads(table.column("faces")[0].as_py())
    assert faces and "pose" in faces[0] and "smiling" in faces[0]
    assert faces == alone(binary, models, samples[0], task="analyze")["faces"]


def test_an_all_error_batch_keeps_the_schema(binary, models, tmp_path):
    batch = BlazefaceBatch(binary, models_dir=models)
    try:
        table = batch(pa.table({"path": [str(tmp_path / "a.jpg"), str(tmp_path / "b.png")]}))
    finally:
        batch.runner.close()
    assert table.schema == SCHEMA
    assert table.column("error").null_count == 0 and table.column("width").null_count == 2


def test_missing_models_is_a_clear_error_before_any_picture(binary, tmp_path):
    with pytest.raises(BlazefaceError, match="not found"):
        check_binary(build_command(binary, "detect", 1, str(tmp_path)))
    runner = PictureRunner(build_command(binary, "detect", 1, str(tmp_path)))
    with pytest.raises(BlazefaceError, match="cannot run"):
        runner.run(["/nowhere.jpg"])
