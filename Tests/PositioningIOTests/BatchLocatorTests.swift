import Foundation
import Testing

@testable import PositioningIO

/// The batch logic of `indoorpos locate` as a library type: reading order, starting over,
/// sorting, smoothing and idle release, checked against the engine run on the same samples.
@Suite("BatchLocator: positions a samples file as locate does")
struct BatchLocatorTests {
    let directory: URL
    let plan: FloorPlan
    let lines: [Substring]

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/Examples")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        plan = try FloorPlan.load(path: Self.examples.appendingPathComponent("office-plan.json").path)
        lines = try String(
            contentsOfFile: Self.examples.appendingPathComponent("office-rssi.csv").path, encoding: .utf8
        ).split(whereSeparator: \.isNewline)
    }

    func write(_ rows: [Substring], _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try (([lines[0]] + rows).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The reports of a run of `locator` on `path`, and its result; `restarts` counts the calls
    /// of the restart callback (which empties the reports, as a writer would).
    func locate(
        _ locator: BatchLocator, _ path: String
    ) throws -> (reports: [PositionReport], result: BatchResult, restarts: Int) {
        var reports: [PositionReport] = []
        var restarts = 0
        let result = try locator.run(
            path: path, write: { reports.append($0) },
            restart: {
                restarts += 1
                reports.removeAll()
            })
        return (reports, result, restarts)
    }

    /// The engine's reports for every sample of `path` pushed in batch order (devices in name
    /// order, each in time order) without a reorder delay, then finished.
    func engineReports(_ path: String) throws -> [PositionReport] {
        var configuration = PositioningEngine.Configuration()
        configuration.reorderDelay = 0
        let reader = try RSSISampleReader(path: path)
        var samples: [RSSISample] = []
        while let sample = try reader.next() { samples.append(sample) }
        var engine = try PositioningEngine(plan: plan, configuration: configuration)
        var reports: [PositionReport] = []
        for sample in PositioningEngine.inBatchOrder(samples) {
            engine.push(sample)
            reports += engine.pull()
        }
        return reports + engine.finish()
    }

    /// The bundled sample's rows sorted by device, then time (as recorded it steps back by a few
    /// milliseconds here and there).
    func rowsInOrder() -> [Substring] {
        lines.dropFirst().sorted { a, b in
            let x = a.split(separator: ","), y = b.split(separator: ",")
            return (x[1], Double(x[0])!) < (y[1], Double(y[0])!)
        }
    }

    @Test("an in-order file streams in one pass; a row 30 rows late starts over sorted with the same reports")
    func orderAndSorting() throws {
        let rows = rowsInOrder()
        let inOrder = try locate(BatchLocator(plan: plan), try write(rows, "in-order.csv"))
        #expect(inOrder.restarts == 0 && !inOrder.result.sorted)
        #expect(inOrder.result.counts.read == rows.count)
        #expect(inOrder.reports.count == inOrder.result.statistics.reports && inOrder.reports.count > 100)
        // Devices one after another, each in time order: batch order.
        #expect(inOrder.reports == (try engineReports(try write(rows, "copy.csv"))))

        var late = rows
        let moved = late.remove(at: 100)
        late.insert(moved, at: 130)
        let shuffled = try locate(BatchLocator(plan: plan), try write(late, "late.csv"))
        #expect(shuffled.restarts == 1 && shuffled.result.sorted)
        #expect(shuffled.reports == inOrder.reports)
        #expect(shuffled.reports == (try engineReports(try write(late, "late-copy.csv"))))
    }

    @Test(
        "a file in time order across devices streams without keeping any device's time; a row late in its device, far down, reads the rows before it again and starts over sorted, bad rows skipped alike"
    )
    func timeOrderThenLate() throws {
        // The walks' rows interleaved by time; their own times are 1.58e9 s apart from each
        // other, so shift each device to start at 0 s.
        let fields = rowsInOrder().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        var starts: [Substring: Double] = [:]
        for field in fields { starts[field[1]] = min(starts[field[1]] ?? .infinity, Double(field[0])!) }
        let timed = fields.map { field -> (time: Double, row: Substring) in
            let time = Double(field[0])! - starts[field[1]]!
            return (
                time,
                Substring(([String(format: "%.4f", time)] + field.dropFirst().map(String.init)).joined(separator: ","))
            )
        }.sorted { $0.time < $1.time }
        let rows = timed.map(\.row)
        let inOrder = try locate(BatchLocator(plan: plan), try write(rows, "time-order.csv"))
        #expect(inOrder.restarts == 0 && !inOrder.result.sorted)
        // Interleaved, the devices' reports come out interleaved: the same reports by device.
        let byDevice = { (reports: [PositionReport]) in
            reports.sorted { ($0.device ?? "", $0.timestamp) < ($1.device ?? "", $1.timestamp) }
        }
        #expect(byDevice(inOrder.reports) == byDevice(try engineReports(try write(rows, "time-order-copy.csv"))))

        // Three quarters down, a row moved after its own device's row 2 s later (a step back of
        // 2 s: sorted), with bad rows before it that the reading again must skip as the first
        // reading did.
        let device = { (row: Substring) in row.split(separator: ",")[1] }
        let index = rows.count * 3 / 4
        let target = try #require(
            rows.indices.first {
                $0 > index && device(rows[$0]) == device(rows[index]) && timed[$0].time > timed[index].time + 2
            })
        var late = rows
        late.insert(late.remove(at: index), at: target)
        late.insert("not,a,row", at: 10)
        late.insert("1.0,\(device(rows[0])),B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,1,loud", at: 500)
        let path = try write(late, "time-order-late.csv")
        let shuffled = try locate(BatchLocator(plan: plan, skipBadRows: true), path)
        #expect(shuffled.restarts == 1 && shuffled.result.sorted)
        #expect(shuffled.result.counts.read == late.count - 2 && shuffled.result.counts.badRows == 2)
        late.removeAll { $0 == "not,a,row" || $0.hasSuffix(",loud") }
        #expect(shuffled.reports == (try engineReports(try write(late, "time-order-late-clean.csv"))))
    }

    @Test("reports encoded on the worker threads give the file of reports written one by one, starting over included")
    func encodedOutput() throws {
        // In order (by device, then time), and with a row 30 rows late (a start over, sorted):
        // written report by report on one thread, and encoded on one and on two.
        let rows = rowsInOrder()
        var late = rows
        late.insert(late.remove(at: 100), at: 130)
        for (index, rows) in [rows, late].enumerated() {
            let path = try write(rows, "encoded-\(index).csv")
            var texts: [String] = []
            for (encoded, jobs) in [(false, 1), (true, 1), (true, 2)] {
                let out = directory.appendingPathComponent("out-\(index)-\(encoded)-\(jobs).csv").path
                var writer: ReportWriter?
                var restarts = 0
                _ = try BatchLocator(plan: plan, jobs: jobs).run(
                    path: path,
                    hasDevices: {
                        writer = try ReportWriter(
                            output: try OutputFile(path: out), format: .csv, includeDevice: $0)
                    },
                    write: { writer?.write($0) }, encoder: { encoded ? writer?.encoder : nil },
                    writeEncoded: { writer?.write(encoded: $0, reports: $1) },
                    restart: {
                        restarts += 1
                        #expect(writer?.restart() == true)
                    })
                #expect(restarts == index)
                try writer?.finish()
                texts.append(try String(contentsOfFile: out, encoding: .utf8))
            }
            #expect(texts[0].split(separator: "\n").count > 100)
            #expect(texts.allSatisfy { $0 == texts[0] })
        }
    }

    @Test("smoothing writes one smoothed report per causal one, at the same times, with smaller uncertainty overall")
    func smoothing() throws {
        let path = try write(Array(lines.dropFirst()), "smooth.csv")
        let causal = try locate(BatchLocator(plan: plan), path).reports
        let smoothed = try locate(BatchLocator(plan: plan, smooth: true), path).reports
        #expect(smoothed.count == causal.count)
        #expect(zip(smoothed, causal).allSatisfy { $0.timestamp == $1.timestamp && $0.device == $1.device })
        #expect(smoothed.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite && $0.accuracy.isFinite })
        let mean = { (reports: [PositionReport]) in reports.reduce(0.0) { $0 + $1.accuracy } / Double(reports.count) }
        #expect(mean(smoothed) < mean(causal))
    }

    @Test("idle release finishes devices on the way and gives the same reports")
    func idleRelease() throws {
        let path = try write(Array(lines.dropFirst()), "idle.csv")
        var configuration = PositioningEngine.Configuration()
        configuration.idleRelease = 5
        let released = try locate(BatchLocator(plan: plan, configuration: configuration), path)
        let kept = try locate(BatchLocator(plan: plan), path)
        #expect(released.reports.count == kept.reports.count)
        #expect(
            Set(released.reports.map { "\($0.device ?? "")@\($0.timestamp)" })
                == Set(kept.reports.map { "\($0.device ?? "")@\($0.timestamp)" }))
    }

    @Test("no usable sample is an error that says what was read and skipped; a refused restart stops the run")
    func badRuns() throws {
        let unknown = lines.dropFirst().prefix(20).map { line -> Substring in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false)
            fields[3] = "9999"
            return Substring(fields.joined(separator: ","))
        }
        let path = try write(Array(unknown), "unknown.csv")
        #expect(
            throws: BatchLocatorError.noUsableSample(
                path: path, detail: "20 samples read; skipped 20 of beacons not in the plan")
        ) {
            _ = try locate(BatchLocator(plan: plan), path)
        }
        var late = Array(lines.dropFirst())
        late.insert(late.remove(at: 100), at: 130)
        let latePath = try write(late, "late.csv")
        #expect(throws: BatchLocatorError.cannotStartOver(path: "out.csv")) {
            _ = try BatchLocator(plan: plan).run(
                path: latePath, write: { _ in },
                restart: { throw BatchLocatorError.cannotStartOver(path: "out.csv") })
        }
    }
}
