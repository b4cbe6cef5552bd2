"""A stand-in for `blazeface <task> --files-from - --json-lines` that misbehaves on request, for the restart tests.

It answers {"path", "width": 1, "height": 2, "faces": []} per input line, except for paths containing:
  CRASH-ALWAYS       it kills itself with SIGSEGV (a picture that crashes the program every time)
  CRASH-ONCE=FILE    it kills itself with SIGKILL unless FILE exists, which it creates first (a one-off death)
  HANG               it stops answering
  WRONG              it answers for another path
With FAKE_BROKEN set, it prints a message on stderr and exits with status 1 before reading anything.
"""

import json
import os
import signal
import sys
import time

if os.environ.get("FAKE_BROKEN"):
    print("error: model file face_detection_full_range.tflite not found", file=sys.stderr)
    sys.exit(1)

for raw in sys.stdin:
    path = raw.rstrip("\n")
    if not path:
        continue
    if "CRASH-ALWAYS" in path:
        os.kill(os.getpid(), signal.SIGSEGV)
    if "CRASH-ONCE=" in path:
        marker = path.split("CRASH-ONCE=", 1)[1]
        if not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
    if "HANG" in path:
        time.sleep(3600)
    answered = "someone-else" if "WRONG" in path else path
    sys.stdout.write(json.dumps({"path": answered, "width": 1, "height": 2, "faces": []}) + "\n")
    sys.stdout.flush()
