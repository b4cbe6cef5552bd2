"""The restart policy against a stand-in co-process that dies, hangs or answers out of turn on request."""

import os

import pytest

from blazeface_ray import PictureRunner
from blazeface_ray.coprocess import BlazefaceError, build_command, unsendable_reason


def paths(count, prefix="/p/"):
    return [f"{prefix}{index}.jpg" for index in range(count)]


def answered(rows):
    return [row["path"] for row in rows if row["error"] is None]


def test_a_death_mid_batch_restarts_once_and_loses_or_repeats_nothing(fake_command, tmp_path):
    batch = paths(20)
    batch[7] = f"/p/CRASH-ONCE={tmp_path / 'm1'}"
    runner = PictureRunner(fake_command)
    try:
        rows = runner.run(batch)
        pid = runner.coprocess.pid
        more = runner.run(paths(5, "/q/"))
        assert runner.coprocess.pid == pid    # the restarted process serves the next batches
    finally:
        runner.close()
    assert [row["path"] for row in rows] == batch
    assert answered(rows) == batch
    assert runner.restarts == 1 and "SIGKILL" in runner.deaths[0]
    assert answered(more) == paths(5, "/q/")


def test_a_picture_that_always_crashes_becomes_an_error_row(fake_command):
    batch = paths(12)
    batch[5] = "/p/CRASH-ALWAYS.jpg"
    runner = PictureRunner(fake_command)
    try:
        rows = runner.run(batch)
        after = runner.run(paths(3, "/r/"))
    finally:
        runner.close()
    assert [row["path"] for row in rows] == batch
    assert answered(rows) == [path for path in batch if "CRASH" not in path]
    assert "died on this picture" in rows[5]["error"] and "SIGSEGV" in rows[5]["error"]
    # two deaths in batch mode, then two on the culprit alone
    assert runner.restarts == 4
    assert answered(after) == paths(3, "/r/")


def test_two_crashing_pictures_in_one_batch(fake_command):
    batch = paths(10)
    batch[2] = "/p/CRASH-ALWAYS-a.jpg"
    batch[8] = "/p/CRASH-ALWAYS-b.jpg"
    runner = PictureRunner(fake_command)
    try:
        rows = runner.run(batch)
    finally:
        runner.close()
    assert [row["path"] for row in rows] == batch
    assert [index for index, row in enumerate(rows) if row["error"]] == [2, 8]


def test_a_hung_picture_times_out_into_an_error_row(fake_command):
    batch = paths(4) + ["/p/HANG.jpg"] + paths(3, "/s/")
    runner = PictureRunner(fake_command, timeout=0.5)
    try:
        rows = runner.run(batch)
    finally:
        runner.close()
    assert [row["path"] for row in rows] == batch
    assert "no answer for 0.5 s" in rows[4]["error"]
    assert answered(rows) == paths(4) + paths(3, "/s/")


def test_an_answer_for_another_path_is_not_taken(fake_command):
    runner = PictureRunner(fake_command)
    try:
        rows = runner.run(["/p/a.jpg", "/p/WRONG.jpg", "/p/b.jpg"])
    finally:
        runner.close()
    assert answered(rows) == ["/p/a.jpg", "/p/b.jpg"]
    assert "where '/p/WRONG.jpg' was expected" in rows[1]["error"]


def test_a_binary_that_cannot_start_fails_the_batch(fake_command, monkeypatch):
    monkeypatch.setenv("FAKE_BROKEN", "1")
    runner = PictureRunner(fake_command)
    with pytest.raises(BlazefaceError, match="not found"):
        runner.run(paths(3))


def test_a_missing_binary_fails_the_batch(tmp_path):
    runner = PictureRunner([str(tmp_path / "no-such-blazeface"), "detect"])
    with pytest.raises(BlazefaceError, match="cannot start"):
        runner.run(paths(1))


def test_paths_that_cannot_be_one_line_never_reach_the_process(fake_command):
    strange = ["", "   ", "a\nb.jpg", "x.jpg\r", "é\udcff.jpg", "/" + "a" * 20000]
    runner = PictureRunner(fake_command)
    try:
        rows = runner.run(strange + ["/p/ok.jpg"])
    finally:
        runner.close()
    assert [bool(row["error"]) for row in rows] == [True] * len(strange) + [False]
    assert all(unsendable_reason(path) for path in strange)
    assert unsendable_reason("/photos/with spaces, commas; and 'quotes' $(not a shell).jpg") is None


def test_spaces_and_shell_characters_travel_unchanged(fake_command):
    weird = ["/p/with spaces.jpg", "/p/$(rm -rf x);`y`.jpg", "/p/tab\there.jpg", " /p/leading-space.jpg"]
    runner = PictureRunner(fake_command)
    try:
        rows = runner.run(weird)
    finally:
        runner.close()
    assert answered(rows) == weird


def test_reserved_options_are_refused():
    with pytest.raises(ValueError, match="set by the integration"):
        build_command("blazeface", "detect", 1, None, ["--threads", "4"])
    with pytest.raises(ValueError, match="task"):
        build_command("blazeface", "segment", 1, None)


def test_closing_the_runner_ends_the_process(fake_command):
    runner = PictureRunner(fake_command)
    runner.run(paths(2))
    process = runner.coprocess.process
    runner.close()
    assert process.returncode == 0 and not os.path.exists(f"/proc/{process.pid}/status")
