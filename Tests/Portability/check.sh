#!/usr/bin/env bash
# Portability check: what can be verified here, on x86-64 Linux, of the builds for other targets. The toolchain has
# no aarch64 (or Apple) standard library, so `swift build --triple aarch64-unknown-linux-gnu` and
# `swiftc -typecheck -target aarch64-...` stop at "could not find module 'Swift'". This script does what can be
# done without one, for every target of the library products (their closure from `swift package describe`):
#
#  0. check that no library product but BlazeImageIO, BlazeVideoIO and BlazeJobs (on BlazeImageIO) reaches the C codec targets;
#  1. parse every Swift target (the library products' and BlazeKernelsFMA) for aarch64-unknown-linux-gnu
#     (`swiftc -parse -target`): syntax of every file, every `#if` branch included (inactive ones are parsed too);
#  2. compile the dependency-free C targets (CBlazeSync, CBlazeCPU) for aarch64 (`clang -target
#     aarch64-unknown-linux-gnu -fsyntax-only`), which takes their `__aarch64__` branches;
#  3. type-check every Swift target of the library products as an arm64 Linux build would see it, with this
#     x86-64 toolchain: module by module in dependency order (`swiftc -emit-module`, which type-checks every
#     function body), WITHOUT the BlazeKernelsFMA module (as on every non-x86-64 build: KernelInstructionSet's
#     `#if arch(x86_64) && canImport(BlazeKernelsFMA)` takes its other branch) and with `-D BLAZE_KERNELS_FMA` for
#     BlazeKernels, which selects the arm64 branch of `multiplyAdd` (`#if BLAZE_KERNELS_FMA || arch(arm64)`);
#     then BlazeKernels once more without COpenBLAS (the no-BLAS branch of PointwiseConv2D+BLAS.swift).
#
# What is not checked: `canImport(Darwin)` and `canImport(Accelerate)` branches (no Apple SDK here), code
# generation for aarch64, and linking. A new `arch(...)` condition in a library target fails the check until it
# is listed below and selected in step 3. Run from anywhere: `Tests/Portability/check.sh`. Documentation/Kernels.md
# records what was and was not built, and how long this takes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

start=$SECONDS
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The library products' targets, in dependency order (one tab-separated line each: name, kind, path, Swift
# sources). `describe` ignores dependency conditions, so BlazeKernelsFMA is among them (step 3 leaves it out).
swift package describe --type json >"$work/describe.json"
python3 - "$work/describe.json" "$PWD" >"$work/targets.tsv" <<'PY'
import json, os, sys
package = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in package["targets"]}
closure, order = set(), []
def visit(name):
    if name in closure or name not in targets:  # products of other packages are not in `targets`
        return
    closure.add(name)
    for dependency in targets[name].get("target_dependencies", []):
        visit(dependency)
    order.append(name)
for product in package["products"]:
    if "library" in product["type"]:
        for name in product["targets"]:
            visit(name)
# The products an iOS app uses must not reach the C codec targets (Linux/macOS only, from the system).
file_io_products = {"BlazeImageIO", "BlazeVideoIO", "BlazeJobs"}
codec_targets = {"CBlazeImageCodecs", "CBlazeVideoCodecs", "CLibJPEG", "CLibPNG", "CLibWebP", "CLibTIFF", "CGifLib",
                 "CFFmpeg"} | file_io_products
def reach(name, seen):
    if name in seen or name not in targets:
        return seen
    seen.add(name)
    for dependency in targets[name].get("target_dependencies", []):
        reach(dependency, seen)
    return seen
leaks = []
for product in package["products"]:
    if "library" in product["type"] and product["name"] not in file_io_products:
        found = set().union(*(reach(n, set()) for n in product["targets"])) & codec_targets
        if found:
            leaks.append(product["name"] + " reaches " + ", ".join(sorted(found)))
if leaks:
    sys.exit("FAILED: library products that iOS uses depend on Linux/macOS-only targets: " + "; ".join(leaks))
root = sys.argv[2]
for name in order:
    t = targets[name]
    t["path"] = os.path.join(root, t["path"])  # relative to the package root in `describe`
    sources = " ".join(t["path"] + "/" + s for s in t.get("sources", []) if s.endswith(".swift"))
    print("\t".join([name, t["module_type"], t["path"], sources]))
PY

echo "0. no library product but BlazeImageIO, BlazeVideoIO and BlazeJobs depends on the C codec targets"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# Every arch() condition of the library sources must be one that step 3 selects.
known_arch_sites=(
  "Sources/BlazeKernels/Microkernels/LaneVector.swift:#if BLAZE_KERNELS_FMA || arch(arm64)"
  "Sources/BlazeKernels/Common/KernelInstructionSet.swift:#if arch(x86_64) && canImport(BlazeKernelsFMA)"
  "Sources/BlazeKernels/Common/KernelInstructionSet.swift:#if arch(x86_64) && canImport(BlazeKernelsAVX512)"
)
while IFS=$'\t' read -r name kind path _; do
  [ "$kind" = SwiftTarget ] || continue
  while IFS= read -r site; do
    file="${site%%:*}"; rest="${site#*:}"; line="${rest#*:}"; line="$(echo "$line" | sed 's/^ *//')"
    found=0
    for known in "${known_arch_sites[@]}"; do [ "$known" = "$file:$line" ] && found=1; done
    [ "$found" = 1 ] || fail "unlisted arch() condition (add it to Tests/Portability/check.sh and select its branch): $site"
  done < <(grep -rn --include='*.swift' -E '^\s*#(if|elseif).*arch\(' "$path" | sed "s|^$PWD/||" || true)
done <"$work/targets.tsv"

# 1. Parse for aarch64.
parse_start=$SECONDS
parsed=0
while IFS=$'\t' read -r name kind path sources; do
  [ "$kind" = SwiftTarget ] || continue
  # shellcheck disable=SC2086 # one word per source file
  swiftc -parse -target aarch64-unknown-linux-gnu -Xfrontend -disable-implicit-concurrency-module-import \
    -Xfrontend -disable-implicit-string-processing-module-import $sources || fail "parse $name (aarch64)"
  parsed=$((parsed + 1))
done <"$work/targets.tsv"
echo "1. parsed $parsed Swift targets for aarch64-unknown-linux-gnu ($((SECONDS - parse_start)) s)"

# 2. The C targets without system-library dependencies, for aarch64.
for name in CBlazeSync CBlazeCPU; do
  for source in Sources/$name/*.c; do
    clang -target aarch64-unknown-linux-gnu -ffreestanding -fsyntax-only -Werror -I "Sources/$name/include" "$source" \
      || fail "clang -fsyntax-only $source (aarch64)"
  done
done
echo "2. compiled CBlazeSync and CBlazeCPU for aarch64 (syntax and semantics, no code)"

# 3. Type-check as a non-x86-64 build, module by module.
check_start=$SECONDS
modules="$work/modules"
mkdir -p "$modules"
module_maps=()
for c_target in $(awk -F'\t' '$2 == "ClangTarget" {print $1 ":" $3}' "$work/targets.tsv"); do
  name="${c_target%%:*}"; path="${c_target#*:}"
  mkdir -p "$work/maps/$name"
  printf 'module %s {\n    umbrella "%s/include"\n    export *\n}\n' "$name" "$path" >"$work/maps/$name/module.modulemap"
  module_maps+=(-Xcc "-fmodule-map-file=$work/maps/$name/module.modulemap" -Xcc -I -Xcc "$path/include")
done
blas_flags=(-Xcc "-fmodule-map-file=$PWD/Sources/COpenBLAS/module.modulemap")
for flag in $(pkg-config --cflags-only-I openblas 2>/dev/null); do blas_flags+=(-Xcc "$flag"); done

typecheck() {  # name sources extra-flags...
  local name="$1" sources="$2"; shift 2
  # shellcheck disable=SC2086 # one word per source file
  swiftc -emit-module -parse-as-library -swift-version 6 -module-name "$name" -package-name swift_blazeface \
    -D SWIFT_PACKAGE -emit-module-path "$modules/$name.swiftmodule" -I "$modules" \
    "${module_maps[@]}" "$@" $sources
}
checked=0
kernel_sources=""
while IFS=$'\t' read -r name kind path sources; do
  [ "$kind" = SwiftTarget ] && [ "$name" != BlazeKernelsFMA ] && [ "$name" != BlazeKernelsAVX512 ] || continue
  extra=("${blas_flags[@]}")  # as SwiftPM does, every module below BlazeKernels sees COpenBLAS's module map
  if [ "$name" = BlazeKernels ]; then
    extra+=(-D BLAZE_KERNELS_FMA)
    kernel_sources="$sources"
  fi
  typecheck "$name" "$sources" "${extra[@]}" || fail "type-check $name (non-x86-64 branches)"
  checked=$((checked + 1))
done <"$work/targets.tsv"
# BlazeKernels once more without OpenBLAS (neither Accelerate nor COpenBLAS importable).
mkdir -p "$work/noblas" && modules_saved="$modules" && modules="$work/noblas"
cp "$modules_saved"/BlazeKernelParameters.swiftmodule "$modules/"
typecheck BlazeKernels "$kernel_sources" -D BLAZE_KERNELS_FMA || fail "type-check BlazeKernels (no BLAS)"
# And with the AVX-512 build's branches (its 16-lane tiles), as BlazeKernelsAVX512 compiles the microkernels.
typecheck BlazeKernels "$kernel_sources" -D BLAZE_KERNELS_FMA -D BLAZE_KERNELS_AVX512 \
  || fail "type-check BlazeKernels (AVX-512 branches)"
echo "3. type-checked $checked Swift targets without BlazeKernelsFMA, arm64 branches selected, + BlazeKernels without BLAS ($((SECONDS - check_start)) s)"

echo "portability check: $failures failure(s), $((SECONDS - start)) s"
[ "$failures" -eq 0 ]
