import ArgumentParser
import BlazeModels

/// `--max-macs`, `--max-arena-bytes`, `--max-constant-bytes`, `--max-operators`: lower load-time limits
/// (`ModelLimits`) for a model file of unknown origin. A model past one is refused while it loads, with a
/// message that names the limit and what the model asks for; the defaults are the library's.
struct ModelLimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Refuse a model whose one inference needs more multiply-accumulates (default 10^10).",
                               valueName: "N"))
    var maxMacs: Int?

    @Option(help: ArgumentHelp("Refuse a model whose activations need more bytes (default 1 GiB).", valueName: "bytes"))
    var maxArenaBytes: Int?

    @Option(help: ArgumentHelp("Refuse a model that derives more bytes of constants while loading (default 1 GiB).",
                               valueName: "bytes"))
    var maxConstantBytes: Int?

    @Option(help: ArgumentHelp("Refuse a model with more operators (default 16384).", valueName: "N"))
    var maxOperators: Int?

    func validate() throws {
        let given: [(String, Int?)] = [("--max-macs", maxMacs), ("--max-arena-bytes", maxArenaBytes),
                                       ("--max-constant-bytes", maxConstantBytes), ("--max-operators", maxOperators)]
        for case let (flag, value?) in given where value < 1 {
            throw ValidationError("\(flag) must be at least 1, got \(value)")
        }
    }

    /// The library's limits with the ones given replacing theirs.
    var limits: ModelLimits {
        var limits = ModelLimits()
        if let maxMacs { limits.maximumMultiplyAccumulates = maxMacs }
        if let maxArenaBytes { limits.maximumArenaBytes = maxArenaBytes }
        if let maxConstantBytes { limits.maximumConstantBytes = maxConstantBytes }
        if let maxOperators { limits.maximumOperatorCount = maxOperators }
        return limits
    }
}
