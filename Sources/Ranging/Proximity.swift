/// Coarse distance classes, as CoreLocation reports them for beacons.
public enum Proximity: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// No usable reading (none yet, or none for longer than the classifier's timeout).
    case unknown
    /// Within about 0.5 m: the phone is held at the beacon.
    case immediate
    /// Within about 3 m.
    case near
    /// Farther than about 3 m.
    case far

    /// The class of `distance` metres with fixed boundaries and no hysteresis; a distance
    /// that is NaN, infinite or not positive gives ``unknown``.
    public init(distance: Double, thresholds: ProximityThresholds = .init()) {
        guard distance.isFinite, distance > 0 else {
            self = .unknown
            return
        }
        if distance < thresholds.immediate {
            self = .immediate
        } else if distance < thresholds.near {
            self = .near
        } else {
            self = .far
        }
    }

    public var description: String { rawValue }

    /// Order from the beacon outwards (immediate 0, near 1, far 2); nil for unknown.
    var rank: Int? {
        switch self {
        case .immediate: return 0
        case .near: return 1
        case .far: return 2
        case .unknown: return nil
        }
    }
}

/// Class boundaries and hysteresis of a ``ProximityClassifier``.
public struct ProximityThresholds: Sendable, Hashable, Codable {
    /// Boundary between immediate and near, metres.
    public var immediate: Double
    /// Boundary between near and far, metres.
    public var near: Double
    /// Hysteresis as a distance ratio (≥ 1): a boundary b is crossed outwards above b · ratio
    /// and inwards below b / ratio. 1.25 is ±1.9 dB at n = 2, about half the filtered RSSI
    /// noise's 2σ swing at the defaults.
    public var hysteresisRatio: Double
    /// Seconds a new class must hold before it is reported (0 = at once). The first class
    /// after ``Proximity/unknown`` is reported at once.
    public var dwell: Double
    /// Seconds without a reading after which the class becomes ``Proximity/unknown``.
    public var timeout: Double

    /// Boundaries 0.5 m and 3 m, hysteresis ratio 1.25, dwell 1 s, timeout 5 s. Invalid
    /// values (non-finite, negative, a ratio below 1, near ≤ immediate) are replaced by these
    /// defaults.
    public init(
        immediate: Double = 0.5, near: Double = 3.0, hysteresisRatio: Double = 1.25,
        dwell: Double = 1.0, timeout: Double = 5.0
    ) {
        let validBounds = immediate.isFinite && near.isFinite && immediate > 0 && near > immediate
        self.immediate = validBounds ? immediate : 0.5
        self.near = validBounds ? near : 3.0
        self.hysteresisRatio = hysteresisRatio.isFinite && hysteresisRatio >= 1 ? hysteresisRatio : 1.25
        self.dwell = dwell.isFinite && dwell >= 0 ? dwell : 1.0
        self.timeout = timeout.isFinite && timeout > 0 ? timeout : 5.0
    }
}

/// Turns a stream of distance estimates into a proximity class that does not flap at a boundary.
///
/// Two mechanisms hold the class: the boundary moves away from the current class by the
/// hysteresis ratio (so noise of that size cannot cross back), and a new class is reported only
/// after it has held for the dwell time. Feed it distances from a smoothed RSSI (the median
/// distance of an ``RSSIKalmanFilter`` output, say); raw readings at σ = 4 dB swing by a factor
/// of 1.6 per standard deviation, more than any sensible hysteresis.
///
/// - Complexity: O(1) per update, no allocation.
public struct ProximityClassifier: Sendable, Hashable {
    /// Boundaries and hysteresis.
    public var thresholds: ProximityThresholds
    /// The class reported after the last update.
    public private(set) var proximity: Proximity = .unknown
    private var candidate: Proximity?
    private var candidateSince = 0.0
    private var lastReading: Double?
    private var lastTime: Double?

    /// A classifier starting in ``Proximity/unknown``.
    public init(thresholds: ProximityThresholds = .init()) {
        self.thresholds = thresholds
    }

    /// Feeds the distance estimate `distance` metres (nil when the beacon was not heard) at
    /// `time` seconds and returns the class to report.
    /// - Throws: ``FilterInputError`` for a time before the previous one, a non-finite time, or
    ///   a distance that is NaN, infinite or not positive; the state is then unchanged.
    public mutating func update(distance: Double?, at time: Double) throws(FilterInputError) -> Proximity {
        guard time.isFinite else { throw .nonFiniteTime(time) }
        if let lastTime, time < lastTime { throw .timeWentBackwards(previous: lastTime, current: time) }
        if let distance, !(distance.isFinite && distance > 0) { throw .invalidValue(distance) }
        lastTime = time
        guard let distance else {
            if let lastReading, time - lastReading <= thresholds.timeout { return proximity }
            proximity = .unknown
            candidate = nil
            return proximity
        }
        lastReading = time
        let target = classify(distance)
        if target == proximity {
            candidate = nil
        } else if proximity == .unknown || thresholds.dwell == 0 {
            proximity = target
            candidate = nil
        } else if candidate != target {
            candidate = target
            candidateSince = time
        } else if time - candidateSince >= thresholds.dwell {
            proximity = target
            candidate = nil
        }
        return proximity
    }

    /// Forgets the history; the class becomes ``Proximity/unknown``.
    public mutating func reset() {
        proximity = .unknown
        candidate = nil
        lastReading = nil
        lastTime = nil
    }

    /// The class of `distance` with each boundary moved away from the current class.
    private func classify(_ distance: Double) -> Proximity {
        let ratio = thresholds.hysteresisRatio
        let rank = proximity.rank
        // Boundary between classes of rank k and k + 1: favour the side the current class is on.
        func boundary(_ b: Double, between k: Int) -> Double {
            guard let rank else { return b }
            return rank <= k ? b * ratio : b / ratio
        }
        if distance < boundary(thresholds.immediate, between: 0) { return .immediate }
        if distance < boundary(thresholds.near, between: 1) { return .near }
        return .far
    }
}
