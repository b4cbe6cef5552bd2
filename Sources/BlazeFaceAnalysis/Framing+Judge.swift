extension Framing {
    /// The components, score and hints of a face's measurements against this framing (see `FaceQuality`).
    /// - Parameter m: what was measured on the face and the picture.
    /// - Returns: the face's score, components and hints, with `m`.
    public func judge(_ m: FaceQuality.Measurements) -> FaceQuality {
        func band(_ value: Double, _ range: ClosedRange<Double>) -> Double {
            abs(value - (range.lowerBound + range.upperBound) / 2) / ((range.upperBound - range.lowerBound) / 2)
        }
        let sharpness = minimumSharpness / max(m.sharpness, 0)
        let exposure = band(m.luminance, luminance)
        let frontality = max(abs(m.yaw) / maximumYaw, abs(m.pitch) / maximumPitch, abs(m.roll) / maximumRoll)
        let eyes = m.eyeOpen.map { Double(1 - $0) / Double(1 - minimumEyeOpen) } ?? 0
        let size = band(m.headHeight, headHeight)
        let horizontal = abs(m.eyeX - horizontalCentre) / horizontalTolerance
        let vertical = band(m.eyeLine, eyeLine)
        let components = FaceQuality.Components(
            sharpness: FaceQuality.falloff(sharpness), exposure: FaceQuality.falloff(exposure),
            frontality: FaceQuality.falloff(frontality), eyesOpen: FaceQuality.falloff(eyes),
            size: FaceQuality.falloff(size), centring: FaceQuality.falloff(max(horizontal, vertical)))

        var hints = CaptureHints()
        if m.headHeight < headHeight.lowerBound { hints.insert(.tooSmall) }
        if m.headHeight > headHeight.upperBound { hints.insert(.tooLarge) }
        if horizontal > 1 || !eyeLine.contains(m.eyeLine) { hints.insert(.offCentre) }
        if frontality > 1 { hints.insert(.lookStraight) }
        if let eyeOpen = m.eyeOpen, eyeOpen < minimumEyeOpen { hints.insert(.eyesClosed) }
        if m.luminance < luminance.lowerBound { hints.insert(.tooDark) }
        if m.luminance > luminance.upperBound { hints.insert(.tooBright) }
        if !(m.sharpness >= minimumSharpness) { hints.insert(.blurry) }
        return FaceQuality(score: components.product, components: components, measurements: m, hints: hints)
    }
}
