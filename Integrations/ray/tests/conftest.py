"""Finds the real blazeface binary and its models for the tests that use them.

BLAZEFACE_BINARY (else `blazeface` on PATH, else the checkout's .build/release/blazeface) and BLAZEFACE_MODELS
(else the checkout's Models folder). Tests that need them are skipped, saying why, when they are missing.
"""

import os
import shutil
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))


def _binary():
    for candidate in (os.environ.get("BLAZEFACE_BINARY"), shutil.which("blazeface"),
                      os.path.join(CHECKOUT, ".build", "release", "blazeface")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    return None


def _models():
    folder = os.environ.get("BLAZEFACE_MODELS") or os.path.join(CHECKOUT, "Models")
    if os.path.isfile(os.path.join(folder, "face_detection_full_range.tflite")):
        return os.path.abspath(folder)
    return None


@pytest.fixture(scope="session")
def binary():
    found = _binary()
    if not found:
        pytest.skip("no blazeface binary (set BLAZEFACE_BINARY or build it: swift build -c release)")
    return found


@pytest.fixture(scope="session")
def models():
    found = _models()
    if not found:
        pytest.skip("no models (run Models/fetch.sh or set BLAZEFACE_MODELS)")
    return found


@pytest.fixture(scope="session")
def samples():
    folder = os.path.join(CHECKOUT, "Models", "samples")
    if not os.path.isdir(folder):
        pytest.skip("no Models/samples (run Models/fetch.sh)")
    return sorted(os.path.join(folder, name) for name in os.listdir(folder))


@pytest.fixture()
def fake_command():
    return [sys.executable, os.path.join(HERE, "fake_blazeface.py")]
