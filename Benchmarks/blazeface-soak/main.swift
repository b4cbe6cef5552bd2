// blazeface-soak: runs the pipelines on a stream of frames for a long time and samples the resident memory,
// which must stay flat after warm-up. Build: swift build -c release --product blazeface-soak
// (Benchmarks/soak.sh builds, runs and plots; see Documentation/Reliability.md).
SoakCommand.main()
