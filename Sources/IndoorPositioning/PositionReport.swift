import LinearAlgebra

/// One output position of the pipeline: where a device was at a time, how sure we are, how fast
/// it moved, and how the answer was reached. This is a row of the fixes CSV of `FORMATS.md`.
///
/// The uncertainty is the horizontal covariance ``covariance`` (m²); ``accuracy`` and
/// ``ellipse`` are read from it, so the three always agree: accuracy² = var x + var y (the
/// trace), and the ellipse's semi-axes are the square roots of the covariance's eigenvalues.
public struct PositionReport: Sendable, Hashable {
    /// How a report was produced.
    public enum Source: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// The tracker's estimate after the epoch's samples (the default pipeline).
        case tracked
        /// The Rauch–Tung–Striebel smoothed estimate: over the whole batch
        /// (``PositioningEngine/smooth(_:)``), or over a fixed lag (``PositioningEngine/Configuration/lag``).
        case smoothed
        /// A snapshot fix from this epoch's samples alone (no tracker).
        case fix
        /// A fallback: too few beacons or degenerate geometry; the accuracy says how little is known.
        case fallback
        /// The tracker coasted: no usable sample this epoch, the estimate is a prediction
        /// (see ``PositioningEngine/advance(to:)``).
        case predicted

        /// The case name, as in the fixes CSV (`tracked`, `predicted`, …).
        public var description: String { rawValue }
    }

    /// Time the position stands for, seconds (same epoch as the input samples).
    public var timestamp: Double
    /// The device, when the input names devices.
    public var device: String?
    /// Position in the building frame, metres (z absolute: floor elevation + receiver height in 2D).
    public var position: Point3D
    /// The floor level.
    public var level: Int
    /// Covariance of the horizontal position, m²: `xx`, `xy`, `yy` (east, north). The vertical
    /// terms are zero: the height is given by the floor and the receiver height, not estimated.
    public var covariance: PositionCovariance
    /// Horizontal velocity, metres per second (x east, y north), when a tracker produced the
    /// report (``Source/tracked``, ``Source/smoothed``, ``Source/predicted``); nil for a
    /// snapshot fix or a fallback, which know no motion.
    public var velocity: Point2D?
    /// The zone the phone is in, by the engine's zone rule (`ZonePresence`: one zone of the
    /// floor or none, from the position's probability mass over each zone), nil for none.
    public var zone: String?
    /// The probability of ``zone`` (of being in no zone, when it is nil), 0–1; nil when the
    /// floor has no zones.
    public var zoneProbability: Double?
    /// How the report was produced.
    public var source: Source
    /// Beacons whose samples contributed in this epoch (0 for a prediction).
    public var beaconCount: Int
    /// The device offset Δ in force for this report, dB: how much higher this device reads every
    /// beacon than the path-loss models say (estimated by the tracker, see
    /// ``PositioningEngine/Configuration/deviceOffset``). Nil where no offset applies.
    public var deviceOffset: Double?
    /// The tracker's motion-mode probabilities (standing, strolling, walking) at this report;
    /// nil for a report that is not tracked, or without motion modes.
    public var motion: ModeProbabilities?

    /// A report with its full horizontal covariance (m²) and, when tracked, its velocity (m/s).
    public init(
        timestamp: Double, device: String?, position: Point3D, level: Int,
        covariance: PositionCovariance, velocity: Point2D? = nil,
        zone: String?, source: Source, beaconCount: Int, deviceOffset: Double? = nil
    ) {
        self.timestamp = timestamp
        self.device = device
        self.position = position
        self.level = level
        self.covariance = PositionCovariance(xx: covariance.xx, xy: covariance.xy, yy: covariance.yy)
        self.velocity = velocity
        self.zone = zone
        self.source = source
        self.beaconCount = beaconCount
        self.deviceOffset = deviceOffset
    }

    /// A report known only by its 1-sigma radius `accuracy` (metres): the covariance is taken
    /// isotropic, var x = var y = accuracy²/2, xy = 0.
    public init(
        timestamp: Double, device: String?, position: Point3D, level: Int, accuracy: Double,
        zone: String?, source: Source, beaconCount: Int, deviceOffset: Double? = nil
    ) {
        self.init(
            timestamp: timestamp, device: device, position: position, level: level,
            covariance: Self.isotropic(accuracy: accuracy), zone: zone, source: source,
            beaconCount: beaconCount, deviceOffset: deviceOffset)
    }

    /// 1-sigma horizontal error radius, metres: √(var x + var y) = √trace(``covariance``).
    /// For a well-tuned estimate about 63 % of true positions lie within it (isotropic case).
    /// Setting it rescales the covariance (keeping the ellipse's shape and orientation), or
    /// makes it isotropic when it was zero.
    public var accuracy: Double {
        get { covariance.horizontalRadius }
        set {
            let trace = covariance.xx + covariance.yy
            guard trace > 0, trace.isFinite, newValue.isFinite else {
                covariance = Self.isotropic(accuracy: newValue)
                return
            }
            let scale = newValue * newValue / trace
            covariance = PositionCovariance(
                xx: covariance.xx * scale, xy: covariance.xy * scale,
                yy: covariance.yy * scale)
        }
    }

    /// The 1-sigma error ellipse of the horizontal position: semi-axes in metres (the square
    /// roots of ``covariance``'s eigenvalues) and the major axis's direction in radians
    /// counter-clockwise from east. To draw it, scale both semi-axes by √(χ²₂(p)) = √(−2 ln(1 − p))
    /// for a p-confidence region (2.45 for 95 %).
    public var ellipse: ErrorEllipse { ErrorEllipse(horizontalOf: covariance) }

    /// Speed over ground, metres per second, when the report carries a velocity.
    public var speed: Double? {
        velocity.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
    }

    /// Whether the position is a prediction made without samples (see
    /// ``PositioningEngine/advance(to:)``).
    public var isPredicted: Bool { source == .predicted }

    private static func isotropic(accuracy: Double) -> PositionCovariance {
        let half = accuracy * accuracy / 2
        return PositionCovariance(xx: half, xy: 0, yy: half)
    }
}
