"""Finding the blazeface binary and its models, and listing the pictures of a scan."""

from __future__ import annotations

import glob
import os
import shutil
from typing import Iterable, List, Optional

from .coprocess import BlazefaceError


def find_binary(option: Optional[str]) -> str:
    """The blazeface executable: `option` when given, else `blazeface` on PATH; an absolute path.

    Raises BlazefaceError when there is none, so that a job fails before it starts.
    """
    if option:
        candidate = option if os.sep in option else (shutil.which(option) or option)
        if not os.path.isfile(candidate):
            raise BlazefaceError(f"the blazeface binary {option!r} does not exist (--binary)")
        if not os.access(candidate, os.X_OK):
            raise BlazefaceError(f"the blazeface binary {option!r} is not executable (--binary)")
        return os.path.abspath(candidate)
    found = shutil.which("blazeface")
    if not found:
        raise BlazefaceError("no blazeface binary: pass --binary PATH or put blazeface on PATH "
                             "(swift build -c release --product blazeface in a swift-blazeface checkout)")
    return os.path.abspath(found)


def find_models_dir(option: Optional[str], binary: str) -> Optional[str]:
    """The models folder to pass as --models-dir, as an absolute path, or None to let the binary look.

    `option` when given; else $BLAZEFACE_MODELS; else None when a Models folder sits beside the binary (the
    binary finds it itself); else ./Models when it exists (the workers do not share the driver's working folder).
    """
    if option:
        if not os.path.isdir(option):
            raise BlazefaceError(f"the models folder {option!r} does not exist (--models-dir)")
        return os.path.abspath(option)
    if os.environ.get("BLAZEFACE_MODELS"):
        return os.path.abspath(os.environ["BLAZEFACE_MODELS"])
    if os.path.isdir(os.path.join(os.path.dirname(binary), "Models")):
        return None
    if os.path.isdir("Models"):
        return os.path.abspath("Models")
    return None


def _walk(folder: str, include_hidden: bool) -> Iterable[str]:
    for root, folders, files in os.walk(folder):
        if not include_hidden:
            folders[:] = [name for name in folders if not name.startswith(".")]
        folders.sort()
        for name in sorted(files):
            if include_hidden or not name.startswith("."):
                yield os.path.join(root, name)


def list_inputs(specs: Iterable[str], extensions: Optional[Iterable[str]] = None,
                include_hidden: bool = False) -> List[str]:
    """The absolute paths of every file under the given folders or matching the given globs, each once, sorted.

    Every entry that is not a folder is listed (FIFOs, broken links and files that are not pictures too: they
    become error rows), unless `extensions` (e.g. ["jpg", "jpeg", "png"]) narrows the list. Names starting with a
    dot are skipped unless `include_hidden`.
    """
    wanted = None
    if extensions:
        wanted = {"." + extension.lower().lstrip(".") for extension in extensions}
    found = set()
    for spec in specs:
        if os.path.isdir(spec):
            matches = [spec]
        else:
            matches = sorted(glob.glob(spec, recursive=True, include_hidden=include_hidden))
            if not matches and os.path.lexists(spec):
                matches = [spec]
            if not matches:
                raise BlazefaceError(f"no file matches {spec!r}")
        for match in matches:
            entries = _walk(match, include_hidden) if os.path.isdir(match) else [match]
            for entry in entries:
                if wanted is None or os.path.splitext(entry)[1].lower() in wanted:
                    found.add(os.path.abspath(entry))
    return sorted(found)
