import BeaconModel
import Foundation
import Monitoring
import Ranging
import TestSupport

/// A seeded walk along a 200-m corridor (y = 2) past beacons, circles and zones, with packet
/// dropouts: the truth, the beacon sightings a phone hears and the tracked positions an engine
/// would report, for the monitoring tests and the figures of `Docs/Evidence/MonitoringStudies.md`.
///
/// The walker goes from x = 0 to x = 200 in legs of 5–15 m at 1.0–1.3 m/s, pausing after a leg
/// with probability 0.2 for 2–6 s. Each beacon is heard 4 times per second (jittered) with
/// RSSI = P₀ − 10 n log₁₀ d + N(0, σ²) (P₀ −59 dBm, n 2.5, σ 4 dB) and only when that is at
/// least the receiver's sensitivity, −85 dBm (so the mean reading reaches the sensitivity at
/// about 11 m). Positions come once a second as the truth plus N(0, 0.7²) per axis, with
/// accuracy 1 m. Dropouts of 2–`maximumDropout` s start every 30 s on average; inside one
/// nothing arrives, neither sightings nor positions.
struct CorridorWalk {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let model = PathLossModel(measuredPower: -59, exponent: 2.5, sigma: 4)
    static let sensitivity = -85.0
    static let beaconX: [Double] = [30, 90, 150]
    static let circle = CircleCondition(center: Point2D(x: 60, y: 2), radius: 3, level: 0)
    /// Zone `shop`: x 115…125 across the corridor.
    static let shop = Polygon([
        Point2D(x: 115, y: -2), Point2D(x: 125, y: -2), Point2D(x: 125, y: 6), Point2D(x: 115, y: 6)
    ])

    /// Distance at which the mean RSSI equals the sensitivity, metres (the true hearing range).
    static var hearingRange: Double { model.medianDistance(forRSSI: sensitivity) }

    static func identity(_ index: Int) -> BeaconIdentity {
        BeaconIdentity(uuid: uuid, major: 1, minor: UInt16(index + 1))
    }

    static let plan: FloorPlan = {
        let beacons = beaconX.indices.map {
            Beacon(
                identity: identity($0), position: Point3D(x: beaconX[$0], y: 0, z: 1.2),
                measuredPower: model.measuredPower, pathLossExponent: model.exponent)
        }
        return try! FloorPlan(
            name: "corridor", defaults: PlanDefaults(measuredPower: -59, pathLossExponent: 2.5, receiverHeight: 1.2),
            floors: [Floor(level: 0, zones: [Zone(id: "shop", polygon: shop)], beacons: beacons)])
    }()

    enum Input {
        case sighting(BeaconSighting)
        case position(PositionObservation)
        var time: Double {
            switch self {
            case .sighting(let s): return s.time
            case .position(let p): return p.time
            }
        }
    }

    let legs: [(t0: Double, t1: Double, x0: Double, x1: Double)]
    let dropouts: [ClosedRange<Double>]
    let inputs: [Input]
    var duration: Double { legs.last!.t1 }

    /// - Parameter transmitters: where the beacons really are (x, metres); the plan says
    ///   ``beaconX``. A different value simulates a moved or spoofed beacon.
    init(seed: UInt64, maximumDropout: Double = 10, transmitters: [Double] = CorridorWalk.beaconX) {
        var rng = SeededGenerator(seed: seed)
        var legs: [(Double, Double, Double, Double)] = []
        var t = 0.0, x = 0.0
        while x < 200 {
            let next = min(200, x + Double.random(in: 5...15, using: &rng))
            let dt = (next - x) / Double.random(in: 1.0...1.3, using: &rng)
            legs.append((t, t + dt, x, next))
            t += dt
            x = next
            if Double.random(in: 0..<1, using: &rng) < 0.2 {
                let pause = Double.random(in: 2...6, using: &rng)
                legs.append((t, t + pause, x, x))
                t += pause
            }
        }
        self.legs = legs
        var dropouts: [ClosedRange<Double>] = []
        var d = Double.random(in: 0...30, using: &rng)
        while d < t {
            let length = Double.random(in: 2...max(2, maximumDropout), using: &rng)
            dropouts.append(d...(d + length))
            d += length + -30 * log(Double.random(in: 1e-9..<1, using: &rng))
        }
        self.dropouts = dropouts
        func dropped(_ time: Double) -> Bool { dropouts.contains { $0.contains(time) } }

        var inputs: [Input] = []
        for (index, bx) in transmitters.enumerated() {
            var ts = Double.random(in: 0..<0.25, using: &rng)
            while ts < t {
                let p = Self.position(at: ts, legs: legs)
                let distance = Point3D(x: p.x - bx, y: p.y, z: 0).distance(to: .init(x: 0, y: 0, z: 0))
                let rssi =
                    Self.model.expectedRSSI(atDistance: max(distance, 0.1)) + rng.gaussian(sigma: Self.model.sigma)
                if rssi >= Self.sensitivity && !dropped(ts) {
                    inputs.append(.sighting(BeaconSighting(time: ts, identity: Self.identity(index), rssi: rssi)))
                }
                ts += 0.25 * Double.random(in: 0.7...1.3, using: &rng)
            }
        }
        var tp = 1.0
        while tp < t {
            let p = Self.position(at: tp, legs: legs)
            let noisy = Point2D(x: p.x + rng.gaussian(sigma: 0.7), y: p.y + rng.gaussian(sigma: 0.7))
            if !dropped(tp) {
                inputs.append(.position(PositionObservation(time: tp, position: noisy, level: 0, accuracy: 1)))
            }
            tp += 1
        }
        self.inputs = inputs.sorted { $0.time < $1.time }
    }

    func position(at time: Double) -> Point2D { Self.position(at: time, legs: legs) }

    static func position(at time: Double, legs: [(t0: Double, t1: Double, x0: Double, x1: Double)]) -> Point2D {
        guard let leg = legs.first(where: { time < $0.t1 }) ?? legs.last else { return Point2D(x: 0, y: 2) }
        let f = leg.t1 > leg.t0 ? min(1, max(0, (time - leg.t0) / (leg.t1 - leg.t0))) : 0
        return Point2D(x: leg.x0 + f * (leg.x1 - leg.x0), y: 2)
    }

    /// The intervals during which `inside` holds for the truth, sampled every 0.05 s.
    func trueVisits(_ inside: (Point2D) -> Bool) -> [ClosedRange<Double>] {
        var visits: [ClosedRange<Double>] = []
        var start: Double?
        var time = 0.0
        while time <= duration {
            let now = inside(position(at: time))
            if now, start == nil { start = time }
            if !now, let s = start {
                visits.append(s...time)
                start = nil
            }
            time += 0.05
        }
        if let s = start { visits.append(s...duration) }
        return visits
    }

    /// Feeds every input to `monitor`, then advances to the end plus `tail` seconds.
    func run(_ monitor: inout RegionMonitor, tail: Double = 60) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        for input in inputs { events += feed(input, to: &monitor) }
        events += monitor.advance(to: duration + tail)
        return events
    }

    func feed(_ input: Input, to monitor: inout RegionMonitor) -> [MonitorEvent] {
        switch input {
        case .sighting(let s): return monitor.observe(s)
        case .position(let p): return monitor.observe(p)
        }
    }
}
