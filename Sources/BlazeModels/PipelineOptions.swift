/// A pipeline's options, checked once before anything is loaded.
///
/// A conforming type lists its checks in `problems`, each an `OptionCheck` result (nil when the value is
/// fine); `validate(as:)` throws the first problem as the pipeline's `.invalidOptions`. The thread count and
/// the model limits are checked by `ModelSession` when the model loads.
///
/// ```swift
/// extension MyPipeline.Options: PipelineOptions {
///     public var problems: [String?] {
///         [OptionCheck.fraction(minimumScore, "minimumScore"), OptionCheck.atLeastOne(maximumResults, "maximumResults")]
///     }
/// }
/// try options.validate(as: MyPipelineError.self)
/// ```
public protocol PipelineOptions: Sendable {
    /// One entry per check: the problem's description, or nil when that check passed.
    var problems: [String?] { get }
}

extension PipelineOptions {
    /// The first problem, if any.
    public var firstProblem: String? {
        for problem in problems { if let problem { return problem } }
        return nil
    }

    /// Throws the first problem as `Failure.invalidOptions`.
    /// - Parameter failure: the pipeline's error type.
    /// - Throws: `Failure.pipeline(.invalidOptions(_:))`.
    public func validate<Failure: PipelineFailure>(as failure: Failure.Type) throws(Failure) {
        if let problem = firstProblem { throw .invalidOptions(problem) }
    }
}

/// The checks pipelines' options share, each giving the problem's description or nil. The texts name the
/// option as the Swift API spells it.
public enum OptionCheck {
    /// `value` must lie in 0...1 (NaN does not).
    /// - Parameters:
    ///   - value: the option's value.
    ///   - name: the option's name as the Swift API spells it.
    /// - Returns: the problem's description, or nil when the value is fine.
    public static func fraction(_ value: Float, _ name: String) -> String? {
        (0...1).contains(value) ? nil : "\(name) \(value) is outside 0...1"
    }

    /// `value`, when given, must lie in 0...1.
    /// - Parameters:
    ///   - value: the option's value; nil passes.
    ///   - name: the option's name as the Swift API spells it.
    /// - Returns: the problem's description, or nil when the value is fine.
    public static func fraction(_ value: Float?, _ name: String) -> String? {
        value.flatMap { fraction($0, name) }
    }

    /// `value`, when given, must be at least 1.
    /// - Parameters:
    ///   - value: the option's value; nil passes.
    ///   - name: the option's name as the Swift API spells it.
    /// - Returns: the problem's description, or nil when the value is fine.
    public static func atLeastOne(_ value: Int?, _ name: String) -> String? {
        guard let value, value < 1 else { return nil }
        return "\(name) \(value) must be at least 1"
    }
}
