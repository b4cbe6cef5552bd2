#!/usr/bin/env python3
"""Counts the documented and undocumented public declarations per module from Swift symbol graphs.

    python3 Tests/Docs/doc-coverage.py SYMBOLGRAPH_DIR [MODULE ...] [--list MODULE] [--minimum PERCENT] [--complete]

SYMBOLGRAPH_DIR holds, at any depth, `<Module>.symbols.json` files (and `<Module>@<Other>.symbols.json` for
extensions of other modules' types), as written by `swift package dump-symbol-graph --minimum-access-level
public` (under .build/<triple>/symbolgraph) or by the documentation plugin (under
.build/<triple>/extracted-symbols).

A declaration counts when it is public or open and written in the module's sources (it has a source location
under `Sources/<Module>/`); synthesized members, extension blocks, and members written in another module (a
protocol extension's default implementations, such as BlazeModels' `PipelineFailure` constructors that every
pipeline's error type gets, and the symbols of re-exported modules) are not counted: they are counted, with
their comments, in the module that writes them. It is documented when it has a doc comment of its own.

The style columns count documented functions, initializers and subscripts whose comment lacks a section it
needs: `- Parameter(s)` when they take parameters, `- Returns` when they return a value (initializers and
`Void` excluded), `- Throws` when they throw. An initializer whose comment says that each parameter sets the
property of the same name needs no `- Parameters`.

`--list MODULE` prints that module's undocumented declarations and those missing sections, with file and line;
`--minimum PERCENT` fails (exit 1) when a listed module's coverage is below it; `--complete` fails when any
declaration is undocumented or any function lacks a section it needs, and lists them.
"""
import json
import os
import sys

FUNCTION_KINDS = {"swift.func", "swift.method", "swift.type.method", "swift.init", "swift.subscript",
                  "swift.func.op", "swift.type.subscript"}
SAME_NAME = "sets the property of the same name"


def graph_files(directory):
    """The symbol-graph files under `directory`, at any depth."""
    for root, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            if name.endswith(".symbols.json"):
                yield name, os.path.join(root, name)


def missing_sections(symbol, text):
    """The sections a documented function's comment lacks."""
    if symbol["kind"]["identifier"] not in FUNCTION_KINDS:
        return []
    signature = symbol.get("functionSignature", {})
    declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
    missing = []
    if signature.get("parameters") and "- Parameter" not in text and SAME_NAME not in text:
        missing.append("parameters")
    returns = "".join(fragment["spelling"] for fragment in signature.get("returns", []))
    if (symbol["kind"]["identifier"] != "swift.init" and returns not in ("", "()", "Void")
            and "- Returns" not in text):
        missing.append("returns")
    if ("throws" in declaration or "rethrows" in declaration) and "- Throws" not in text:
        missing.append("throws")
    return missing


def declarations(directory, module):
    """Every counted declaration of `module`: (documented, missing sections, file:line, name) by identifier."""
    seen = {}
    for name, path in graph_files(directory):
        if name.split("@")[0].split(".")[0] != module:
            continue
        with open(path) as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"] == "swift.extension" or "location" not in symbol:
                continue
            comment = symbol.get("docComment")
            text = "\n".join(line["text"] for line in (comment or {}).get("lines", []))
            own = comment is not None and comment.get("module", module) == module and bool(text.strip())
            location = symbol["location"]
            path_in_sources = location["uri"].split("/Sources/", 1)[-1]
            if not path_in_sources.startswith(module + "/"):
                continue  # written in another module, and counted there
            where = f"{path_in_sources}:{location['position']['line'] + 1}"
            title = ".".join(symbol["pathComponents"])
            missing = missing_sections(symbol, text) if own else []
            seen[symbol["identifier"]["precise"]] = (own, missing, where, title)
    return seen


def main(arguments):
    listing = []
    minimum = None
    complete = False
    positional = []
    index = 0
    while index < len(arguments):
        if arguments[index] == "--list":
            listing.append(arguments[index + 1])
            index += 2
        elif arguments[index] == "--complete":
            complete = True
            index += 1
        elif arguments[index] == "--minimum":
            minimum = float(arguments[index + 1])
            index += 2
        else:
            positional.append(arguments[index])
            index += 1
    if not positional:
        print(__doc__)
        return 2
    directory, modules = positional[0], positional[1:]
    if not modules:
        modules = sorted({name.split("@")[0].split(".")[0] for name, _ in graph_files(directory)})
    failed = False
    totals = [0, 0, 0, 0, 0]
    print(f"{'module':<20} {'documented':>10} {'public':>7} {'coverage':>9}   "
          f"{'no params':>9} {'no returns':>10} {'no throws':>9}")
    for module in modules:
        found = declarations(directory, module)
        if not found:
            continue
        documented = sum(1 for own, _, _, _ in found.values() if own)
        counts = [sum(1 for _, missing, _, _ in found.values() if section in missing)
                  for section in ("parameters", "returns", "throws")]
        share = 100.0 * documented / len(found)
        for slot, value in enumerate([documented, len(found)] + counts):
            totals[slot] += value
        print(f"{module:<20} {documented:>10} {len(found):>7} {share:>8.1f}%   "
              f"{counts[0]:>9} {counts[1]:>10} {counts[2]:>9}")
        if minimum is not None and share < minimum:
            failed = True
        incomplete = documented < len(found) or any(counts)
        if complete and incomplete:
            failed = True
        if module in listing or (complete and incomplete):
            for own, missing, where, title in sorted(found.values(), key=lambda item: item[2]):
                if not own:
                    print(f"    undocumented: {title}  ({where})")
                elif missing:
                    print(f"    no {', '.join(missing)}: {title}  ({where})")
    if totals[1]:
        print(f"{'all':<20} {totals[0]:>10} {totals[1]:>7} {100.0 * totals[0] / totals[1]:>8.1f}%   "
              f"{totals[2]:>9} {totals[3]:>10} {totals[4]:>9}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
