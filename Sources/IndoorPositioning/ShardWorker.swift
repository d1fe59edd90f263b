/// One worker of a ``ShardedPositioningEngine``: an engine for the devices of one shard, the
/// rows of the slice it is given, and what it made of them (reports and effects, each under the
/// tag of the row or end-of-input step that made it).
///
/// Thread confinement, not locks, keeps it safe: the coordinator fills ``input`` and reads the
/// results only while no job of this worker is running: a job is run by the one thread that
/// took its shard from the slice's ``ShardQueue``, and the coordinator waits until every job taken
/// has ended (the queue's lock, taken by both sides, orders the memory) before it touches the
/// worker again. Hence `@unchecked Sendable`: the compiler cannot see that protocol.
final class ShardWorker: @unchecked Sendable {
    var engine: PositioningEngine
    /// The rows of the slice to process.
    var input = ShardRows()
    /// The reports made, in order, with their tags (or their bytes).
    var output = ShardOutput()
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

    /// Whether a job or a release ran since the coordinator last collected: only then can the
    /// output and the recorded effects hold anything.
    var ran = false

    /// Whether a job has anything to do: rows, finishing steps or a listing.
    var hasInput: Bool { !input.samples.isEmpty || !finishing.isEmpty || listsHeld }

    /// Pushes the slice's rows, then runs the finishing steps; clears both. Nothing to do (a
    /// shard without rows in this slice) returns at once.
    func process() {
        guard hasInput else { return }
        ran = true
        Self.push(input, into: &engine, output: &output, encoder: encoder)
        input.removeAll()
        for (tag, device) in finishing {
            engine.context.recording?.tag = tag
            if finishingReleases {
                engine.finishReleasing(device)
            } else {
                engine.finishKeeping(device)
            }
            output.collect(from: &engine, tag: tag, encoder: encoder)
        }
        finishing.removeAll(keepingCapacity: true)
        if listsHeld {
            held = engine.devices.allHeldInNameOrder()
            listsHeld = false
        }
    }

    /// Pushes `rows` into `engine`, each under its tag, and collects the reports into `output`:
    /// a function of its arguments, so that the engine and the output are each accessed once for
    /// the whole slice rather than once per row (each access of a class's property is checked
    /// for exclusivity at run time).
    private static func push(
        _ rows: ShardRows, into engine: inout PositioningEngine, output: inout ShardOutput,
        encoder: ShardedPositioningEngine.ReportEncoder?
    ) {
        for i in rows.samples.indices {
            engine.context.recording?.tag = rows.tags[i]
            engine.push(rows.samples[i], deviceHash: rows.hashes[i])
            output.collect(from: &engine, tag: rows.tags[i], encoder: encoder)
        }
    }

    /// Finishes and forgets the devices in `slots` (idle release), each under its tag.
    func release(_ slots: [(tag: Int, slot: Int)]) {
        ran = true
        for (tag, slot) in slots {
            engine.context.recording?.tag = tag
            engine.release([slot])
            output.collect(from: &engine, tag: tag, encoder: encoder)
        }
    }

    /// Hands over the effects recorded since the last call.
    func takeEffects() -> CrossDeviceEffects {
        let effects = engine.context.recording ?? CrossDeviceEffects()
        engine.context.recording?.clear()
        return effects
    }
}
