/// One worker of a ``ShardedPositioningEngine``: an engine for the devices of one shard, the
/// rows of the slice it is given, and what it made of them (reports and effects, each under the
/// tag of the row or end-of-input step that made it).
///
/// Thread confinement, not locks, keeps it safe: the coordinator fills ``rows`` and reads the
/// results only while no job of this worker is running; a job is run by the one thread that
/// took its shard from the slice's ``ShardQueue`` (whose lock orders the memory of the hand-over),
/// and the coordinator waits for every thread (a `DispatchGroup`, whose wait orders the memory
/// too) before it touches the worker again. Hence `@unchecked Sendable`: the compiler cannot see that protocol.
final class ShardWorker: @unchecked Sendable {
    var engine: PositioningEngine
    /// The rows of the slice to process and their tags.
    var rows: [RSSISample] = []
    var rowTags: [Int] = []
    /// The rows' device name hashes, when known.
    var rowHashes: [UInt64?] = []
    /// The reports made, in order, with their tags (with an encoder: their bytes, one after the
    /// other, and where each ends, in place of the reports).
    var reports: [PositionReport] = []
    var reportTags: [Int] = []
    var encoded: [UInt8] = []
    var encodedEnds: [Int] = []
    /// The engine's ``ShardedPositioningEngine/ReportEncoder``, if any.
    let encoder: ShardedPositioningEngine.ReportEncoder?
    /// End-of-input steps to run instead of rows (devices to finish, with their tags).
    var finishing: [(tag: Int, device: DeviceTable.Held)] = []
    /// Whether the finishing steps free the devices (``PositioningEngine/finishReleasing(_:)``)
    /// or keep them for smoothing (``PositioningEngine/finish()``).
    var finishingReleases = true
    /// Whether the next job lists the engine's devices in name order into ``held`` (the end of
    /// the input: each worker sorts its own devices, while the coordinator writes).
    var listsHeld = false
    /// The devices held, in name order, as the last listing job found them.
    var held: [(name: String, device: DeviceTable.Held)] = []

    init(engine: PositioningEngine, encoder: ShardedPositioningEngine.ReportEncoder? = nil) {
        self.encoder = encoder
        var engine = engine
        engine.coordinated = true
        engine.context.recording = CrossDeviceEffects()
        self.engine = engine
    }

    /// Pushes the slice's rows, then runs the finishing steps; clears both.
    func process() {
        for i in rows.indices {
            engine.context.recording?.tag = rowTags[i]
            engine.push(rows[i], deviceHash: rowHashes[i])
            collect(tag: rowTags[i])
        }
        rows.removeAll(keepingCapacity: true)
        rowTags.removeAll(keepingCapacity: true)
        rowHashes.removeAll(keepingCapacity: true)
        for (tag, device) in finishing {
            engine.context.recording?.tag = tag
            if finishingReleases {
                engine.finishReleasing(device)
            } else {
                engine.finishKeeping(device)
            }
            collect(tag: tag)
        }
        finishing.removeAll(keepingCapacity: true)
        if listsHeld {
            held = engine.devices.allHeldInNameOrder()
            listsHeld = false
        }
    }

    /// Finishes and forgets the devices in `slots` (idle release), each under its tag.
    func release(_ slots: [(tag: Int, slot: Int)]) {
        for (tag, slot) in slots {
            engine.context.recording?.tag = tag
            engine.release([slot])
            collect(tag: tag)
        }
    }

    /// Takes the engine's reports (or their bytes) under `tag`.
    private func collect(tag: Int) {
        guard !engine.ready.isEmpty else { return }
        if let encoder {
            for report in engine.ready {
                encoder(report, &encoded)
                encodedEnds.append(encoded.count)
            }
        } else {
            reports.append(contentsOf: engine.ready)
        }
        reportTags.append(contentsOf: repeatElement(tag, count: engine.ready.count))
        engine.ready.removeAll(keepingCapacity: true)
    }

    /// Hands over the effects recorded since the last call.
    func takeEffects() -> CrossDeviceEffects {
        let effects = engine.context.recording ?? CrossDeviceEffects()
        engine.context.recording?.clear()
        return effects
    }
}
