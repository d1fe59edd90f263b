import BeaconModel

/// What one engine's epochs did to state that all devices share, written down instead of
/// applied: the beacon-consistency watch's scores and the online learner's samples, each under
/// the tag of the input row (or end-of-input step) that closed the epoch.
///
/// A sharded run (``ShardedPositioningEngine``) gives each worker's engine one of these. At the
/// end of a slice of rows the coordinator merges every worker's effects by tag, which is the
/// order one engine would have applied them in, and applies them to the site-wide watch and
/// learner; so the shared state after a slice does not depend on how devices were sharded.
struct CrossDeviceEffects: Sendable {
    /// One beacon's normalised squared residual from a tracked epoch, or (``decides``) the end
    /// of that epoch's scores, where the watch re-decides.
    struct Score: Sendable {
        var tag: Int
        var slot: Int
        var normalizedSquaredResidual: Double
        /// The watch re-decides here (`slot` and the residual are unused).
        var decides: Bool { slot < 0 }
    }

    /// One sample taught to the online learner at its epoch's position.
    struct Lesson: Sendable {
        var tag: Int
        var slot: Int
        var rssi: Double
        var receiver: Point3D
        var xx: Double
        var xy: Double
        var yy: Double
        var deviceOffset: Double
    }

    /// The tag the next effects are recorded under (set by the coordinator before each row).
    var tag = 0
    private(set) var scores: [Score] = []
    private(set) var lessons: [Lesson] = []

    var isEmpty: Bool { scores.isEmpty && lessons.isEmpty }

    mutating func score(slot: Int, normalizedSquaredResidual u: Double) {
        scores.append(Score(tag: tag, slot: slot, normalizedSquaredResidual: u))
    }

    mutating func decide() {
        scores.append(Score(tag: tag, slot: -1, normalizedSquaredResidual: 0))
    }

    mutating func learn(
        slot: Int, rssi: Double, receiver: Point3D, xx: Double, xy: Double, yy: Double, deviceOffset: Double
    ) {
        lessons.append(
            Lesson(
                tag: tag, slot: slot, rssi: rssi, receiver: receiver, xx: xx, xy: xy, yy: yy, deviceOffset: deviceOffset
            ))
    }

    /// Forgets what was recorded, keeping the storage.
    mutating func clear() {
        scores.removeAll(keepingCapacity: true)
        lessons.removeAll(keepingCapacity: true)
    }

    /// Applies the effects of several engines to `context` in tag order (each engine's effects
    /// are in tag order already, and no tag is shared between engines): the order one engine
    /// would have made them in.
    static func apply(_ effects: [CrossDeviceEffects], to context: inout EpochContext) {
        var next = Array(repeating: 0, count: effects.count)
        while let k = firstInMerge(
            of: effects.count, key: { next[$0] < effects[$0].scores.count ? effects[$0].scores[next[$0]].tag : nil })
        {
            let score = effects[k].scores[next[k]]
            next[k] += 1
            if score.decides {
                context.decideConsistency()
            } else {
                context.consistency.record(slot: score.slot, normalizedSquaredResidual: score.normalizedSquaredResidual)
            }
        }
        guard context.learner != nil else { return }
        for k in next.indices { next[k] = 0 }
        while let k = firstInMerge(
            of: effects.count, key: { next[$0] < effects[$0].lessons.count ? effects[$0].lessons[next[$0]].tag : nil })
        {
            context.observe(effects[k].lessons[next[k]])
            next[k] += 1
        }
    }
}
