import BeaconModel
import Foundation

/// The detection posterior's miss maps, shared by every solver of the process.
///
/// A map (Σ over a level's beacons of log(1 − P(heard)) per grid cell and propensity node; see
/// `OutlinePosterior`) takes about 0.2 billion instructions to build for a floor of twenty beacons
/// on the detection grid and depends only on the detection curve's a and b, the beacons, the
/// receiver plane and the grid. A sharded engine has a solver per level in every worker, and engines copy their
/// state, so without sharing each copy would build the same map again (eight times on uji-geo).
/// The store builds each map once, under its lock (a second solver asking meanwhile waits and
/// takes the same map), and keeps the last ``capacity``. Maps are arrays: handing one out shares
/// its storage, which nobody writes.
final class MissMapStore: @unchecked Sendable {
    /// What a map is for: the curve's a and b (a map does not depend on c or ψ), the floor's
    /// beacons, the receiver plane, and the grid (its outline and number of cells).
    struct Key: Hashable, Sendable {
        var intercept: Double
        var slope: Double
        var beacons: [Point3D]
        var planeZ: Double
        var outline: [Point2D]
        var cells: Int
    }

    /// The store of the process.
    static let shared = MissMapStore()
    /// Maps kept.
    static let capacity = 8

    private let lock = NSLock()
    private var maps: [Key: [Double]] = [:]
    private var order: [Key] = []

    /// The map for `key`, built by `build` if the store does not hold it.
    func map(for key: Key, build: () -> [Double]) -> [Double] {
        lock.lock()
        defer { lock.unlock() }
        if let map = maps[key] { return map }
        let map = build()
        maps[key] = map
        order.append(key)
        if order.count > Self.capacity { maps[order.removeFirst()] = nil }
        return map
    }
}
