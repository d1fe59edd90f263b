// The CoreLocation adapter: CLBeacon → RSSISample, and ranging commands → CLLocationManager.
//
// NOT COMPILED ON LINUX, and not compiled by the project's own checks either: the manifest
// declares this target only on Apple hosts, and the code below only exists where CoreLocation
// ranges beacons (iOS, iPadOS, Mac Catalyst, macOS). It is written against Apple's documented
// signatures, quoted in the comments; keep it small so that a reader can check it by eye.
#if canImport(CoreLocation) && (os(iOS) || os(macOS))
import CoreLocation
import Foundation
import IndoorPositioning

extension RSSISample {
    /// A sample from one beacon of a ranging callback; nil when it carries no reading (RSSI 0,
    /// which iOS reports for a beacon not measured in the last interval) or an identity outside
    /// 0…65535.
    ///
    /// Apple's `CLBeacon` (iOS 7+, macOS 10.15+) documents:
    /// `var uuid: UUID { get }` (iOS 13+), `@NSCopying var major: NSNumber { get }`,
    /// `@NSCopying var minor: NSNumber { get }`, `var rssi: Int { get }` ("the average signal
    /// strength of the samples received since Core Location last reported the range"),
    /// `var timestamp: Date { get }` (iOS 13+).
    /// - Parameters:
    ///   - beacon: one element of the `beacons` array of a ranging callback.
    ///   - device: the device name, when one engine serves several phones.
    public init?(_ beacon: CLBeacon, device: String? = nil) {
        guard beacon.rssi != 0,
            let major = UInt16(exactly: beacon.major.intValue),
            let minor = UInt16(exactly: beacon.minor.intValue)
        else { return nil }
        self.init(
            timestamp: beacon.timestamp.timeIntervalSince1970,
            identity: BeaconIdentity(uuid: beacon.uuid, major: major, minor: minor),
            rssi: Double(beacon.rssi), device: device)
    }
}

extension BeaconCondition {
    /// The same wildcard rule as a CoreLocation constraint. Apple's `CLBeaconIdentityConstraint`
    /// (iOS 13+, macOS 10.15+): `init(uuid: UUID)`, `init(uuid: UUID, major: CLBeaconMajorValue)`,
    /// `init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue)`, where both
    /// value types are `UInt16`.
    public var beaconIdentityConstraint: CLBeaconIdentityConstraint {
        switch (major, minor) {
        case let (major?, minor?): return CLBeaconIdentityConstraint(uuid: uuid, major: major, minor: minor)
        case let (major?, nil): return CLBeaconIdentityConstraint(uuid: uuid, major: major)
        default: return CLBeaconIdentityConstraint(uuid: uuid)
        }
    }
}

/// Runs ranging on a `CLLocationManager` and feeds every ranged beacon to a
/// ``PositioningSession`` (read its reports with `session.reports()`).
///
/// The app asks for location authorisation itself (`requestWhenInUseAuthorization()`) before
/// ``startRanging(_:)``. Create it on the main actor: Core Location calls the delegate on the
/// run loop of the thread that created the manager.
@MainActor
public final class BeaconRanging: NSObject, CLLocationManagerDelegate {
    /// The manager whose delegate this object is.
    public let manager: CLLocationManager
    /// Where the ranged samples go.
    public nonisolated let session: PositioningSession
    /// The device name put on every sample (nil for a single phone).
    public nonisolated let device: String?

    /// Ranging into `session`; becomes `manager`'s delegate.
    public init(session: PositioningSession, device: String? = nil, manager: CLLocationManager = CLLocationManager()) {
        self.manager = manager
        self.session = session
        self.device = device
        super.init()
        manager.delegate = self
    }

    /// A ranging command's "start": Apple's
    /// `func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint)` (iOS 13+).
    public func startRanging(_ condition: BeaconCondition) {
        manager.startRangingBeacons(satisfying: condition.beaconIdentityConstraint)
    }

    /// A ranging command's "stop": Apple's
    /// `func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint)` (iOS 13+).
    public func stopRanging(_ condition: BeaconCondition) {
        manager.stopRangingBeacons(satisfying: condition.beaconIdentityConstraint)
    }

    /// Executes a monitor's ranging command (see `RangingPolicy`): start or stop ranging its
    /// beacon condition.
    public func execute(_ command: RangingPolicy.Command) {
        switch command {
        case .start(let condition): startRanging(condition)
        case .stop(let condition): stopRanging(condition)
        }
    }

    /// Apple's `optional func locationManager(_ manager: CLLocationManager, didRange beacons:
    /// [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint)` (iOS 13+): about
    /// once a second per constraint. The samples are queued in call order with
    /// ``PositioningSession/submit(_:)``, which never blocks.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint
    ) {
        session.submit(beacons.compactMap { RSSISample($0, device: device) })
    }
}
#endif
