import BlazeFaceMesh

/// How the landmarks and analysis reports describe a mesh's face: one rule for both.
extension FaceLandmarks {
    /// The face's box in a report: its detection's, or the mesh's own bounding box for a face followed without one.
    var reportBox: BoxReport { BoxReport(detection?.boundingBox ?? boundingBox) }

    /// The face's upright rotation in a report: its detection's (0 for a face followed without one), or nil when
    /// the report leaves rotations out.
    /// - Parameter reportsRotation: whether the report gives rotations (`--try-rotations`).
    /// - Returns: 0, 90, 180 or 270; nil without `reportsRotation`.
    func reportRotation(_ reportsRotation: Bool) -> Int? { reportsRotation ? detection?.uprightRotation ?? 0 : nil }
}
