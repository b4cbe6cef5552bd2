extension AnchorOptions {
    /// Generates the anchors exactly as MediaPipe's `SsdAnchorsCalculator` does.
    ///
    /// Layers are processed in groups of consecutive layers with the same stride; a group shares the grid
    /// of its first layer. Within a group the order is rows (outermost), then columns, then the anchors of
    /// the cell: for each layer of the group, one per aspect ratio followed by the interpolated anchor (when
    /// `interpolatedScaleAspectRatio > 0`). Centres are `((x + offsetX) / width, (y + offsetY) / height)`
    /// in feature-map cells.
    ///
    /// - Returns: the anchors, normalized to the model input, in the order of the model's output rows.
    /// - Throws: `AnchorError` when a size or stride is not positive, an array does not have one entry per
    ///   layer, a floating-point option is not finite (or a scale or aspect ratio not positive), the options
    ///   generate no anchors, or more than `maximumAnchorCount`.
    public func generateAnchors() throws(AnchorError) -> [Anchor] {
        let plan = try makePlan()
        var anchors: [Anchor] = []
        anchors.reserveCapacity(plan.count)
        for group in plan.groups {
            let width = Float(group.featureMapWidth)
            let height = Float(group.featureMapHeight)
            for y in 0..<group.featureMapHeight {
                let yCenter = (Float(y) + anchorOffsetY) / height
                for x in 0..<group.featureMapWidth {
                    let xCenter = (Float(x) + anchorOffsetX) / width
                    for size in group.sizes {
                        anchors.append(Anchor(
                            xCenter: xCenter, yCenter: yCenter,
                            width: fixedAnchorSize ? 1 : size.width,
                            height: fixedAnchorSize ? 1 : size.height
                        ))
                    }
                }
            }
        }
        return anchors
    }

    /// The number of anchors `generateAnchors()` returns, computed without generating them.
    ///
    /// - Returns: the number of anchors, at most `maximumAnchorCount`.
    /// - Throws: the same errors as `generateAnchors()`.
    public func anchorCount() throws(AnchorError) -> Int {
        try makePlan().count
    }
}

// MARK: - Validation and layout

/// One group of consecutive layers sharing a stride, hence a grid.
struct AnchorGroup {
    var featureMapWidth: Int
    var featureMapHeight: Int
    /// Width and height of each anchor in a cell, in order.
    var sizes: [(width: Float, height: Float)]
}

struct AnchorPlan {
    var groups: [AnchorGroup]
    var count: Int
}

extension AnchorOptions {
    /// MediaPipe's `CalculateScale`: linear from `minScale` to `maxScale` over the layers, evaluated (as
    /// there) in double precision after the float difference `maxScale - minScale`; the mean of the two
    /// when there is a single layer.
    static func scale(min minScale: Float, max maxScale: Float, layer: Int, layerCount: Int) -> Float {
        if layerCount == 1 {
            return (minScale + maxScale) * 0.5
        }
        let range = Double(maxScale - minScale)
        return Float(Double(minScale) + range * Double(layer) / (Double(layerCount) - 1.0))
    }

    func validate() throws(AnchorError) {
        guard inputWidth > 0, inputHeight > 0 else {
            throw .invalidInputSize(width: inputWidth, height: inputHeight)
        }
        guard numLayers > 0 else { throw .invalidLayerCount(numLayers) }
        // MediaPipe's loop reads the strides even when feature-map sizes are given (they group the layers
        // and index the scales), so they are always required.
        guard strides.count == numLayers else {
            throw .countMismatch(field: "strides", expected: numLayers, actual: strides.count)
        }
        for (layer, stride) in strides.enumerated() where stride <= 0 {
            throw .invalidStride(layer: layer, stride: stride)
        }
        if !featureMapWidths.isEmpty || !featureMapHeights.isEmpty {
            guard featureMapWidths.count == numLayers else {
                throw .countMismatch(field: "featureMapWidths", expected: numLayers, actual: featureMapWidths.count)
            }
            guard featureMapHeights.count == numLayers else {
                throw .countMismatch(field: "featureMapHeights", expected: numLayers, actual: featureMapHeights.count)
            }
            for layer in 0..<numLayers where featureMapWidths[layer] <= 0 || featureMapHeights[layer] <= 0 {
                throw .invalidFeatureMapSize(
                    layer: layer, width: featureMapWidths[layer], height: featureMapHeights[layer])
            }
        }
        guard minScale.isFinite, minScale > 0, maxScale.isFinite, maxScale > 0 else {
            throw .invalidParameter("minScale \(minScale) and maxScale \(maxScale) must be finite and positive")
        }
        guard anchorOffsetX.isFinite, anchorOffsetY.isFinite else {
            throw .invalidParameter("anchor offsets (\(anchorOffsetX), \(anchorOffsetY)) must be finite")
        }
        for ratio in aspectRatios where !(ratio.isFinite && ratio > 0) {
            throw .invalidParameter("aspect ratio \(ratio) must be finite and positive")
        }
        guard interpolatedScaleAspectRatio.isFinite else {
            throw .invalidParameter("interpolatedScaleAspectRatio \(interpolatedScaleAspectRatio) must be finite")
        }
    }

    func makePlan() throws(AnchorError) -> AnchorPlan {
        try validate()
        let limit = Self.maximumAnchorCount
        let layerCount = strides.count
        var groups: [AnchorGroup] = []
        var total = 0
        var layer = 0
        while layer < numLayers {
            var scales: [Float] = []
            var ratios: [Float] = []
            var last = layer
            while last < layerCount && strides[last] == strides[layer] {
                let scale = Self.scale(min: minScale, max: maxScale, layer: last, layerCount: layerCount)
                if last == 0 && reduceBoxesInLowestLayer {
                    ratios += [1.0, 2.0, 0.5]
                    scales += [0.1, scale, scale]
                } else {
                    for ratio in aspectRatios {
                        ratios.append(ratio)
                        scales.append(scale)
                    }
                    if interpolatedScaleAspectRatio > 0 {
                        let next = last == layerCount - 1
                            ? 1.0
                            : Self.scale(min: minScale, max: maxScale, layer: last + 1, layerCount: layerCount)
                        scales.append((scale * next).squareRoot())
                        ratios.append(interpolatedScaleAspectRatio)
                    }
                }
                last += 1
                // Each anchor of a cell is at least one anchor in total.
                guard scales.count <= limit else { throw .tooManyAnchors(limit: limit) }
            }
            var sizes: [(width: Float, height: Float)] = []
            for (scale, ratio) in zip(scales, ratios) {
                let root = ratio.squareRoot()
                sizes.append((width: scale * root, height: scale / root))
            }

            let width: Int
            let height: Int
            if featureMapWidths.isEmpty {
                // ceil(input / stride), in integers (MediaPipe divides in float; equal below 2^24).
                width = inputWidth / strides[layer] + (inputWidth % strides[layer] == 0 ? 0 : 1)
                height = inputHeight / strides[layer] + (inputHeight % strides[layer] == 0 ? 0 : 1)
            } else {
                width = featureMapWidths[layer]
                height = featureMapHeights[layer]
            }
            // width, height ≥ 1 and sizes.count is bounded by the option arrays; check each product
            // against the limit before forming the next one.
            guard width <= limit, height <= limit / width else { throw .tooManyAnchors(limit: limit) }
            let cells = width * height
            guard sizes.isEmpty || cells <= limit / sizes.count else {
                throw .tooManyAnchors(limit: limit)
            }
            total += cells * sizes.count
            guard total <= limit else { throw .tooManyAnchors(limit: limit) }

            groups.append(AnchorGroup(featureMapWidth: width, featureMapHeight: height, sizes: sizes))
            layer = last
        }
        guard total > 0 else { throw .noAnchors }
        return AnchorPlan(groups: groups, count: total)
    }
}
