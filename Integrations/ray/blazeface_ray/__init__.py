"""Ray Data integration of swift-blazeface: one `blazeface --files-from - --json-lines` co-process per actor.

See Documentation/Scaling.md in the swift-blazeface repository.
"""

from .actor import SCHEMA, BlazefaceBatch
from .coprocess import BlazefaceError, CoProcess, CoProcessDied, build_command
from .runner import PictureRunner

__all__ = ["SCHEMA", "BlazefaceBatch", "BlazefaceError", "CoProcess", "CoProcessDied", "PictureRunner",
           "build_command"]
