/// RSSI samples paired with where their device probably was when it heard them: the smoothed
/// track's position, linearly interpolated to the sample's time, and its horizontal
/// covariance. The material ``TrafficCalibration`` learns from.
struct TrafficPairs: Sendable {
    struct Pair: Sendable {
        /// The beacon's slot in the calibrator.
        var slot: Int32
        /// Index of the device in ``TrafficPairs/devices``.
        var device: Int32
        /// The reading, dBm.
        var rssi: Double
        /// Receiver position, building frame, metres.
        var receiver: Point3D
        /// Horizontal covariance of the receiver position, m².
        var xx: Double, xy: Double, yy: Double
    }

    private(set) var pairs: [Pair] = []
    /// The devices, in the order first met in the samples given to ``init(samples:)``.
    let devices: [String?]
    private let deviceIndex: [String?: Int32]
    /// Samples that found no usable position (no track around their time, or one too uncertain).
    private(set) var unplaced = 0

    /// No pairs yet, for the devices of `samples`.
    init(samples: [RSSISample]) {
        var devices: [String?] = []
        var index: [String?: Int32] = [:]
        for sample in samples where index[sample.device] == nil {
            index[sample.device] = Int32(devices.count)
            devices.append(sample.device)
        }
        self.devices = devices
        deviceIndex = index
    }

    /// Pairs `samples` (in ``PositioningEngine/inBatchOrder(_:)``) with the `reports` of a
    /// smoothed batch run. Only smoothed (or tracked) reports whose accuracy is at most
    /// `maximumAccuracy` metres serve, only samples between two of them at most `maximumGap`
    /// seconds apart (or within `maximumGap / 2` of one at a track's end), and only beacons on
    /// the report's floor (a floor between them attenuates in a way the model does not hold).
    mutating func add(
        samples: [RSSISample], reports: [PositionReport], calibrator: SiteCalibrator, levels: [Int],
        maximumAccuracy: Double, maximumGap: Double
    ) {
        var tracks: [String?: [PositionReport]] = [:]
        for report in reports where report.source == .smoothed || report.source == .tracked {
            guard report.accuracy <= maximumAccuracy, report.accuracy.isFinite else { continue }
            tracks[report.device, default: []].append(report)
        }
        for key in tracks.keys { tracks[key]?.sort { $0.timestamp < $1.timestamp } }
        var current: String?? = .none
        var track: [PositionReport] = []
        var cursor = 0
        var device: Int32 = 0
        for sample in samples {
            if current == nil || current! != sample.device {
                current = .some(sample.device)
                track = tracks[sample.device] ?? []
                cursor = 0
                device = deviceIndex[sample.device] ?? 0
            }
            guard let slot = calibrator.slot(of: sample.identity) else { continue }
            while cursor < track.count && track[cursor].timestamp < sample.timestamp { cursor += 1 }
            guard let (report, weight, other) = Self.bracket(track, cursor, sample.timestamp, maximumGap) else {
                unplaced += 1
                continue
            }
            guard levels[slot] == report.level else { continue }
            var receiver = report.position
            var xx = report.covariance.xx, xy = report.covariance.xy, yy = report.covariance.yy
            if let other, weight < 1 {
                let w = weight, v = 1 - weight
                receiver = Point3D(
                    x: w * report.position.x + v * other.position.x,
                    y: w * report.position.y + v * other.position.y,
                    z: w * report.position.z + v * other.position.z)
                xx = w * xx + v * other.covariance.xx
                xy = w * xy + v * other.covariance.xy
                yy = w * yy + v * other.covariance.yy
            }
            pairs.append(
                Pair(
                    slot: Int32(slot), device: device, rssi: sample.rssi, receiver: receiver,
                    xx: xx, xy: xy, yy: yy))
        }
    }

    /// The report at or after `time` (index `cursor`) and the one before it, with the weight of
    /// the first in a linear interpolation; nil when the time is not covered.
    private static func bracket(
        _ track: [PositionReport], _ cursor: Int, _ time: Double, _ gap: Double
    )
        -> (PositionReport, Double, PositionReport?)?
    {
        let after = cursor < track.count ? track[cursor] : nil
        let before = cursor > 0 ? track[cursor - 1] : nil
        switch (before, after) {
        case let (before?, after?):
            let span = after.timestamp - before.timestamp
            if span <= gap {
                let weight = span > 0 ? (time - before.timestamp) / span : 1
                return before.level == after.level ? (after, weight, before) : (after, 1, nil)
            }
            if after.timestamp - time <= gap / 2 { return (after, 1, nil) }
            if time - before.timestamp <= gap / 2 { return (before, 1, nil) }
            return nil
        case let (nil, after?):
            return after.timestamp - time <= gap / 2 ? (after, 1, nil) : nil
        case let (before?, nil):
            return time - before.timestamp <= gap / 2 ? (before, 1, nil) : nil
        case (nil, nil):
            return nil
        }
    }
}
