#!/usr/bin/env bash
# Builds the DocC documentation of every library product (`swift package generate-documentation`, through
# swift-docc-plugin) and fails on any warning: the compiler's while building the symbol graphs, the plugin's,
# and DocC's (unresolved symbol or article links, missing parameter documentation, pictures not found in a
# catalog's Resources). Then prints, from the symbol graphs the plugin extracted, each module's share of public
# declarations with a doc comment and the functions whose comment lacks a - Parameters, - Returns or - Throws
# section (Tests/Docs/doc-coverage.py), failing unless every one is documented in full. Used by .ci/run after the tests, which leave the debug build this
# reuses; run from the repository root: `Tests/Docs/check-docs.sh`.
#
# Tests/Docs/known-warnings.txt lists warnings that are accepted for now, one substring a line; each must
# still occur (a fixed one must be removed from the list), and any other warning fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

products=(BlazeFace BlazeFaceMesh BlazeFaceAnalysis BlazeTracking BlazeSegmentation BlazeReports BlazeImaging BlazeRegions
  BlazeModels BlazeAnchors BlazeImageIO BlazeVideoIO BlazeRuntime BlazeTFLite BlazeNPY BlazeJobs)
arguments=()
for product in "${products[@]}"; do arguments+=(--target "$product"); done

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$SECONDS
status=0
swift package generate-documentation "${arguments[@]}" >"$log" 2>&1 || status=$?
echo "generate-documentation: exit $status, $((SECONDS - start)) s"
if [ "$status" -ne 0 ]; then
  cat "$log"
  exit "$status"
fi

# One line per warning: the message and, where DocC gives one, the source position on the line after it.
warnings="$(grep -A1 -E '(^|: )warning: ' "$log" | grep -v '^--$' | paste -d' ' - - | sed 's/  */ /g' || true)"
known=()
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  known+=("$line")
done < Tests/Docs/known-warnings.txt

failed=0
unexpected=0
while IFS= read -r warning; do
  [ -z "$warning" ] && continue
  accepted=0
  for entry in ${known[@]+"${known[@]}"}; do
    if [[ "$warning" == *"$entry"* ]]; then accepted=1; break; fi
  done
  if [ "$accepted" -eq 0 ]; then
    echo "unexpected: $warning"
    unexpected=$((unexpected + 1))
  fi
done <<< "$warnings"
# ("${known[@]+...}": an empty list expands to nothing, also under `set -u` in bash 3.2.)
for entry in ${known[@]+"${known[@]}"}; do
  if [[ "$warnings" != *"$entry"* ]]; then
    echo "no longer warned (remove it from Tests/Docs/known-warnings.txt): $entry"
    failed=1
  fi
done
count="$(printf '%s' "$warnings" | grep -c . || true)"
echo "documentation warnings: $count (${#known[@]} known, $unexpected unexpected)"
if [ "$unexpected" -ne 0 ] || [ "$failed" -ne 0 ]; then
  echo "--- generate-documentation output ---"
  cat "$log"
  exit 1
fi

# Every public declaration documented, with the - Parameters, - Returns and - Throws sections it needs, from the
# plugin's symbol graphs: the table, and what is missing (which fails the check).
graphs="$(find .build -maxdepth 2 -type d -name extracted-symbols 2>/dev/null | head -1)"
if [ -z "$graphs" ]; then
  echo "no symbol graphs under .build/*/extracted-symbols: cannot check doc comments"
  exit 1
fi
python3 Tests/Docs/doc-coverage.py "$graphs" "${products[@]}" --complete
