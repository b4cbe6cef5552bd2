/// How an image is shown in a view of another size.
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    /// Scaled to fill the view, keeping its aspect ratio; the overflow is cropped (centred).
    case aspectFill
    /// Scaled to fit inside the view, keeping its aspect ratio; the rest is empty (centred).
    case aspectFit
}

extension Face {
    /// The face in the coordinates of a view of `viewWidth` x `viewHeight` points that shows an image of
    /// `imageWidth` x `imageHeight` pixels (the upright image) with `contentMode`, centred.
    ///
    /// Returns the face unchanged when either image side is not positive.
    ///
    /// - Parameters:
    ///   - viewWidth: the view's width, in its own units (points).
    ///   - viewHeight: the view's height, in its own units.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    ///   - contentMode: how the view scales the image.
    ///   - mirrored: set for front-camera previews shown mirrored: x is flipped across the view,
    ///     and the keypoints keep their names (the subject's right eye stays `rightEye`). For a camera frame
    ///     given the orientation of `CameraFrameOrientation`, pass its `mirrorsPreview`.
    /// - Returns: the face in the view's coordinates (origin at its top left, y down).
    public func mapped(toViewWidth viewWidth: Double, height viewHeight: Double,
                       imageWidth: Double, imageHeight: Double,
                       contentMode: ContentMode, mirrored: Bool = false) -> Face {
        guard imageWidth > 0, imageHeight > 0 else { return self }
        let sx = viewWidth / imageWidth, sy = viewHeight / imageHeight
        let scale = contentMode == .aspectFill ? max(sx, sy) : min(sx, sy)
        let offsetX = (viewWidth - imageWidth * scale) / 2
        let offsetY = (viewHeight - imageHeight * scale) / 2
        return mapped { p in
            let x = p.x * scale + offsetX
            return Point(x: mirrored ? viewWidth - x : x, y: p.y * scale + offsetY)
        }
    }
}
