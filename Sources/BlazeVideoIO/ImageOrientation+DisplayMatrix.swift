extension ImageOrientation {
    /// The orientation whose display transform is the linear part of a video's display matrix, in FFmpeg's
    /// convention: a stored pixel (x, y) (y down) is displayed at (a·x + c·y, b·x + d·y), plus a translation.
    /// The matrix must be one of the eight quarter-turn and mirror maps, up to a positive scale (entries of
    /// the same magnitude); nil for other angles, shears or a singular matrix.
    ///
    /// For example FFmpeg's `av_display_rotation_set(m, 90)` (a = 0, b = −1, c = 1, d = 0) is `.left`: the
    /// stored frame is turned 90° counterclockwise to show it; a phone held upright records −90, `.right`.
    /// - Parameters:
    ///   - a: how the displayed x grows with the stored x.
    ///   - b: how the displayed y grows with the stored x.
    ///   - c: how the displayed x grows with the stored y.
    ///   - d: how the displayed y grows with the stored y.
    public init?(displayMatrix a: Double, _ b: Double, _ c: Double, _ d: Double) {
        let scale = max(abs(a), abs(b), abs(c), abs(d))
        guard scale > 0, scale.isFinite else { return nil }
        func unit(_ value: Double) -> Int? {
            let r = value / scale
            if abs(r) < 1e-3 { return 0 }
            if abs(abs(r) - 1) < 1e-3 { return r > 0 ? 1 : -1 }
            return nil
        }
        guard let a = unit(a), let b = unit(b), let c = unit(c), let d = unit(d) else { return nil }
        for orientation in ImageOrientation.allCases where orientation.displayMatrix == (a, b, c, d) {
            self = orientation
            return
        }
        return nil
    }

    /// The linear part (a, b, c, d) of this orientation's display matrix in FFmpeg's convention (see
    /// `init(displayMatrix:_:_:_:)`): the inverse of the map from upright to stored coordinates.
    public var displayMatrix: (a: Int, b: Int, c: Int, d: Int) {
        // storedPoint with a zero size is the linear map L from upright (u, v) to stored (x, y).
        let u = storedPoint(u: 1, v: 0, width: 0, height: 0), v = storedPoint(u: 0, v: 1, width: 0, height: 0)
        let l00 = Int(u.x), l10 = Int(u.y), l01 = Int(v.x), l11 = Int(v.y)
        // L is a signed permutation matrix: its inverse is its transpose. Displayed = L⁻¹ · stored, so
        // x' = l00·x + l10·y and y' = l01·x + l11·y: a = l00, c = l10, b = l01, d = l11.
        return (l00, l01, l10, l11)
    }
}
