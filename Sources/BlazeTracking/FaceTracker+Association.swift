import BlazeFaceMesh
import BlazeRegions

/// How faces keep their IDs: misses, identity checks, duplicates, and the matching of new meshes to held tracks.
extension FaceTracker {
    /// How much larger or smaller a face may be from one sighting to the next and still be the same face.
    static let maximumSizeChange = 1.6
    /// The weight of a new sighting in a track's running descriptor (the first sightings are averaged equally).
    static let descriptorWeight: Float = 0.1
    /// Sightings a track's descriptor averages before the identity check applies: the first meshes of a face (from
    /// the detection's region, then from the points' region) differ the most from each other.
    static let settledSightings = 4

    /// Whether `mesh`, found in `track`'s region, is the same person: its size is within `maximumSizeChange` of the
    /// track's and its proportions within `identityThreshold` of the track's running descriptor.
    func isSamePerson(_ track: Track, _ mesh: FaceLandmarks) -> Bool {
        let box = mesh.boundingBox
        let size = (box.width + box.height) / 2
        guard size > 0, track.size > 0 else { return false }
        let ratio = size / track.size
        guard ratio < Self.maximumSizeChange, ratio > 1 / Self.maximumSizeChange else { return false }
        return isSameProportions(track, mesh)
    }

    func isSameProportions(_ track: Track, _ mesh: FaceLandmarks) -> Bool {
        guard let threshold = options.identityThreshold, let known = track.descriptor,
              track.descriptorSamples >= Self.settledSightings, let seen = FaceDescriptor(mesh.points) else { return true }
        return known.distance(to: seen) <= threshold
    }

    /// Track `index` was not found on this frame.
    func miss(at index: Int, _ result: inout FaceTrackingResult) {
        if tracks[index].missed == 0 { result.events.append(.missed(id: tracks[index].id)) }
        tracks[index].missed += 1
    }

    /// Track `index` was found as `mesh` (swapped in: the track takes its storage, `mesh` gets the old one).
    func accept(_ mesh: inout FaceLandmarks, at index: Int, time: Double, detected: Bool) {
        let box = mesh.boundingBox
        let center = box.center
        let missed = tracks[index].missed
        let elapsed = time - tracks[index].lastSeen
        if missed <= 2, elapsed > 0 {
            // Followed, or found again after a frame or two (fast motion): the velocity from the displacement,
            // averaged with the last one when the face was followed.
            let vx = (center.x - tracks[index].center.x) / elapsed, vy = (center.y - tracks[index].center.y) / elapsed
            tracks[index].velocity = missed == 0
                ? (0.5 * (tracks[index].velocity.x + vx), 0.5 * (tracks[index].velocity.y + vy)) : (vx, vy)
        } else {
            tracks[index].velocity = (0, 0)
        }
        if missed > 0 { tracks[index].smoother?.reset() }
        swap(&tracks[index].raw, &mesh)
        tracks[index].center = center
        tracks[index].size = (box.width + box.height) / 2
        tracks[index].lastSeen = time
        tracks[index].missed = 0
        tracks[index].framesSeen += 1
        tracks[index].detectedThisFrame = detected
        tracks[index].score = tracks[index].raw.presence
        if let seen = FaceDescriptor(tracks[index].raw.points) {
            let samples = tracks[index].descriptorSamples
            let weight = max(Self.descriptorWeight, 1 / Float(samples + 1))
            tracks[index].descriptor = tracks[index].descriptor?.blended(with: seen, weight: weight) ?? seen
            tracks[index].descriptorSamples = samples + 1
        }
    }

    /// Keeps `mesh` among the meshes waiting for an ID (swapped into the pool's storage).
    func keepCandidate(_ mesh: inout FaceLandmarks) {
        if candidateCount == candidates.count {
            candidates.append(mesh)
        } else {
            swap(&candidates[candidateCount], &mesh)
        }
        candidateCount += 1
    }

    /// The tracker's rule for "the same face" (`OverlapRule.overlapOrCenterInside`: IoU above 0.5, MediaPipe's
    /// rule, or the centre inside). Stricter about duplicates than MediaPipe's video mode, which
    /// `FaceLandmarker.detect(_:tracking:)` keeps to: the tracker must not give one face two IDs (see `OverlapRule`).
    static let sameFace = OverlapRule.overlapOrCenterInside

    /// Whether `box` is a face followed on this frame, by `sameFace`.
    func coversFollowedFace(_ box: Rect) -> Bool {
        tracks.contains { track in
            track.missed == 0 && Self.sameFace.matches(box, track.raw.boundingBox)
        }
    }

    /// Whether `box` is a mesh already waiting for an ID, by `sameFace`.
    func coversCandidate(_ box: Rect) -> Bool {
        (0..<candidateCount).contains { Self.sameFace.matches(box, candidates[$0].boundingBox) }
    }

    /// Two followed tracks that landed on the same face (one face hid the other): the one that moved less against
    /// its prediction, in face sizes, keeps it; the other is missed.
    func resolveDuplicates(time: Double, _ result: inout FaceTrackingResult) {
        for a in tracks.indices where tracks[a].missed == 0 {
            for b in tracks.indices where b > a && tracks[b].missed == 0 && tracks[a].missed == 0 {
                guard Self.sameFace.matches(tracks[a].raw.boundingBox, tracks[b].raw.boundingBox) else { continue }
                miss(at: surprise(a) <= surprise(b) ? b : a, &result)
            }
        }
    }

    /// How far track `index`'s face is from where its previous position predicted, in face sizes.
    private func surprise(_ index: Int) -> Double {
        let track = tracks[index]
        let previous = track.raw.region.center   // the region the mesh was run on: the prediction
        let dx = track.center.x - previous.x, dy = track.center.y - previous.y
        return (dx * dx + dy * dy).squareRoot() / max(track.size, 1)
    }

    /// Gives every waiting mesh an ID: a held track's when one is near its predicted place (within
    /// `reassociationRadius` face sizes per missed frame), of a similar size and of the same proportions, the
    /// nearest first; a new one otherwise, while fewer than `maximumFaces` faces are followed.
    func associateCandidates(_ frame: ImageView, time: Double, _ result: inout FaceTrackingResult) {
        guard candidateCount > 0 else { return }
        pairs.removeAll(keepingCapacity: true)
        for c in 0..<candidateCount {
            let box = candidates[c].boundingBox
            let center = box.center, size = (box.width + box.height) / 2
            for t in tracks.indices where tracks[t].missed > 0 {
                let track = tracks[t]
                let ratio = size / max(track.size, 1e-9)
                guard ratio < Self.maximumSizeChange, ratio > 1 / Self.maximumSizeChange else { continue }
                let predicted = track.predictedCenter(at: time)
                let dx = center.x - predicted.x, dy = center.y - predicted.y
                let distance = (dx * dx + dy * dy).squareRoot() / track.size
                guard distance <= options.reassociationRadius * Double(track.missed),
                      isSameProportions(track, candidates[c]) else { continue }
                pairs.append((distance, c, t))
            }
        }
        pairs.sort { $0.cost < $1.cost }
        var live = tracks.reduce(0) { $0 + ($1.missed == 0 ? 1 : 0) }
        // A candidate given to a track holds the track's old mesh afterwards, marked with presence -1.
        for pair in pairs where candidates[pair.candidate].presence >= 0 && tracks[pair.track].missed > 0 {
            if let maximum = options.maximumFaces, live >= maximum { break }
            accept(&candidates[pair.candidate], at: pair.track, time: time, detected: true)
            candidates[pair.candidate].presence = -1
            result.events.append(.resumed(id: tracks[pair.track].id))
            live += 1
        }
        for c in 0..<candidateCount where candidates[c].presence >= 0 {
            if let maximum = options.maximumFaces, live >= maximum { break }
            // The new track takes the candidate's storage; the pool's slot gets an empty mesh.
            var mesh = FaceLandmarks(points: [], presence: 0, region: candidates[c].region)
            swap(&mesh, &candidates[c])
            tracks.append(Track(id: nextTrackID(), mesh: mesh, time: time, smoothing: options.smoothing))
            metrics.tracksStarted += 1
            result.events.append(.started(id: tracks[tracks.count - 1].id))
            live += 1
        }
    }

    /// Ends the held tracks missed for longer than `holdFrames` (or `holdSeconds`).
    func endExpiredTracks(time: Double, _ result: inout FaceTrackingResult) {
        var index = 0
        while index < tracks.count {
            let track = tracks[index]
            let expired = track.missed > options.holdFrames
                || (track.missed > 0 && options.holdSeconds.map { time - track.lastSeen > $0 } ?? false)
            if expired {
                endTrack(at: index, &result)
                tracks.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Reports the end of track `index` (the caller removes it).
    func endTrack(at index: Int, _ result: inout FaceTrackingResult) {
        result.events.append(.ended(id: tracks[index].id))
    }
}
