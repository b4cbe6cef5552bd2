// blazeface-bench: load time, per-invoke latency, GFLOP/s, allocations and memory of the interpreter on
// each model, the whole FaceDetector.detect path on a frame, and a per-operator profile.
// Build: swift build -c release --product blazeface-bench   (see Documentation/Benchmarks.md)
BenchCommand.main()
