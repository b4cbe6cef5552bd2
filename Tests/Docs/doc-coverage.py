#!/usr/bin/env python3
"""Counts the documented and undocumented public declarations per module from Swift symbol graphs.

    python3 Tests/Docs/doc-coverage.py SYMBOLGRAPH_DIR [MODULE ...] [--list MODULE] [--minimum PERCENT]

SYMBOLGRAPH_DIR holds, at any depth, `<Module>.symbols.json` files (and `<Module>@<Other>.symbols.json` for extensions of other
modules' types), as written by `swift package dump-symbol-graph --minimum-access-level public` (under
.build/<triple>/symbolgraph) or by the documentation plugin (under .build/<triple>/extracted-symbols). A declaration counts when it is public or open and
written in the module's sources (it has a source location); synthesized members, extension blocks and
implementations that only inherit a protocol's documentation from another module are not counted, and a
declaration is documented when it has a doc comment of its own. `--list MODULE` prints the undocumented ones
with their file and line; `--minimum` fails (exit 1) when any listed module is below the percentage.
"""
import json
import os
import sys


def graph_files(directory):
    """The symbol-graph files under `directory`, at any depth."""
    for root, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            if name.endswith(".symbols.json"):
                yield name, os.path.join(root, name)


def declarations(directory, module):
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
            own = comment is not None and comment.get("module", module) == module and any(
                line["text"].strip() for line in comment.get("lines", []))
            location = symbol["location"]
            path = location["uri"].split("/Sources/", 1)[-1]
            where = f"{path}:{location['position']['line'] + 1}"
            title = ".".join(symbol["pathComponents"])
            seen[symbol["identifier"]["precise"]] = (own, where, title)
    return seen


def main(arguments):
    listing = []
    minimum = None
    positional = []
    index = 0
    while index < len(arguments):
        if arguments[index] == "--list":
            listing.append(arguments[index + 1])
            index += 2
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
    total_documented = total = 0
    print(f"{'module':<20} {'documented':>10} {'public':>7} {'coverage':>9}")
    for module in modules:
        found = declarations(directory, module)
        if not found:
            continue
        documented = sum(1 for own, _, _ in found.values() if own)
        share = 100.0 * documented / len(found)
        total_documented += documented
        total += len(found)
        print(f"{module:<20} {documented:>10} {len(found):>7} {share:>8.1f}%")
        if minimum is not None and share < minimum:
            failed = True
        if module in listing:
            for own, where, title in sorted(found.values(), key=lambda item: item[1]):
                if not own:
                    print(f"    undocumented: {title}  ({where})")
    if total:
        print(f"{'all':<20} {total_documented:>10} {total:>7} {100.0 * total_documented / total:>8.1f}%")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
