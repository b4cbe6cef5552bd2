# Sourced by the side-by-side scripts (compare_library.sh, compare_serve.sh): MediaPipe's virtual environments.
# Needs $python (the interpreter that creates a venv).

# mediapipe's native library needs the Debian package libusb-1.0-0: installed with apt-get when missing.
ensure_libusb() {
  if ! ldconfig -p 2>/dev/null | grep -q 'libusb-1\.0\.so'; then
    echo "Installing libusb-1.0-0 (mediapipe's native library needs it) ..." >&2
    apt-get install -y -q libusb-1.0-0 >&2 || { apt-get update -q >&2 && apt-get install -y -q libusb-1.0-0 >&2; }
  fi
}

# venv, mediapipe version, requirement files...: true when mediapipe and every pin are installed as pinned.
mediapipe_venv_ok() {
  local venv="$1" version="$2"
  shift 2
  [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$version" "$@" <<'PY' 2>/dev/null
import re, sys
from importlib.metadata import version
for path in sys.argv[2:]:
    for line in open(path):
        m = re.match(r"\s*([A-Za-z0-9_.-]+)(\[[^]]*\])?==([^\s#]+)", line)
        if m:
            assert version(m.group(1)) == m.group(3), line
assert version("mediapipe") == sys.argv[1]
PY
}

# venv, mediapipe version, what else it holds (for the message), requirement files...: creates or refills the
# venv unless every pin is already installed.
mediapipe_venv() {
  local venv="$1" version="$2" what="$3"
  shift 3
  if ! mediapipe_venv_ok "$venv" "$version" "$@"; then
    echo "Creating $venv (mediapipe $version, $what) ..." >&2
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
    local requirements=()
    for file in "$@"; do requirements+=(-r "$file"); done
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
  fi
}
