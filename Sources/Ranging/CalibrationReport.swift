import BeaconModel

/// The fit of one beacon's samples.
public struct BeaconCalibration: Sendable, Hashable, Codable {
    /// The beacon the samples named.
    public var beacon: BeaconIdentity
    /// Its fit.
    public var result: CalibrationResult

    /// Pairs a beacon with its fit.
    public init(beacon: BeaconIdentity, result: CalibrationResult) {
        self.beacon = beacon
        self.result = result
    }
}

/// A beacon whose samples could not be fitted on their own (too few, one distance, …).
public struct BeaconCalibrationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The beacon the samples named.
    public var beacon: BeaconIdentity
    /// Number of samples it had.
    public var count: Int
    /// Why its fit failed.
    public var error: CalibrationError

    /// Pairs a beacon with the reason its fit failed.
    public init(beacon: BeaconIdentity, count: Int, error: CalibrationError) {
        self.beacon = beacon
        self.count = count
        self.error = error
    }

    public var description: String { "\(beacon) (\(count) samples): \(error)" }
}

/// The global fit over every sample plus one fit per beacon named by the samples.
public struct CalibrationReport: Sendable, Hashable {
    /// The fit over all samples together.
    public var all: CalibrationResult
    /// Per-beacon fits, sorted by identity. Empty when no sample names a beacon.
    public var beacons: [BeaconCalibration]
    /// Beacons whose own samples could not be fitted; the global fit applies to them.
    public var failures: [BeaconCalibrationFailure]

    /// A report from its parts.
    public init(all: CalibrationResult, beacons: [BeaconCalibration], failures: [BeaconCalibrationFailure]) {
        self.all = all
        self.beacons = beacons
        self.failures = failures
    }
}

extension PathLossCalibration {
    /// Fits all samples together and, separately, the samples of each beacon they name.
    ///
    /// A beacon whose own samples cannot be fitted (for example all at one distance) is listed
    /// in ``CalibrationReport/failures`` instead of failing the whole report.
    /// - Throws: ``CalibrationError`` when the global fit fails.
    /// - Complexity: O(m log m) for m samples.
    public func fitPerBeacon(_ samples: [CalibrationSample]) throws(CalibrationError) -> CalibrationReport {
        let all = try fit(samples)
        var groups: [BeaconIdentity: (distances: [Double], rssi: [Double])] = [:]
        for sample in samples {
            guard let beacon = sample.beacon else { continue }
            groups[beacon, default: ([], [])].distances.append(sample.distance)
            groups[beacon, default: ([], [])].rssi.append(sample.rssi)
        }
        var beacons: [BeaconCalibration] = []
        var failures: [BeaconCalibrationFailure] = []
        for beacon in groups.keys.sorted() {
            let group = groups[beacon]!
            do {
                let result = try fit(distances: group.distances, rssi: group.rssi)
                beacons.append(BeaconCalibration(beacon: beacon, result: result))
            } catch {
                failures.append(BeaconCalibrationFailure(beacon: beacon, count: group.distances.count, error: error))
            }
        }
        return CalibrationReport(all: all, beacons: beacons, failures: failures)
    }
}
