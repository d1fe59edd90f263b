import Foundation
import IndoorPositioning
import TestSupport
import Testing

@testable import PositioningIO

/// The one-pass order check: each device's latest time, kept while rows of many devices come
/// interleaved or grouped.
@Suite("Sample order: each device's latest time")
struct SampleOrderTests {
    static let beacon = BeaconIdentity(
        uuid: UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, major: 1, minor: 1)

    static func sample(_ row: (String, Double)) -> RSSISample {
        RSSISample(timestamp: row.1, identity: beacon, rssi: -60, device: row.0)
    }

    /// Whether each row (device, time) is admitted, the largest step back, and how many times
    /// the check read the earlier rows again (and how many rows in all).
    static func check(
        _ rows: [(String, Double)], idleRelease: Double? = nil
    ) throws -> (
        [Bool], Double, rereads: Int, reread: Int
    ) {
        var rereads = 0, reread = 0
        var order = SampleOrder(pass: .stream(stepBack: 0), idleRelease: idleRelease) { count, body in
            rereads += 1
            for row in rows.prefix(count) {
                reread += 1
                body(sample(row))
            }
        }
        let admitted = try rows.map { try order.admits(sample($0)) }
        return (admitted, order.largestStepBack, rereads, reread)
    }

    @Test("a device's run of rows, then another device: a return behind the run's last row is a step back")
    func grouped() throws {
        // A's latest is 5 s (the last row of its run), not 0 s (its first).
        let (admitted, stepBack, _, _) = try Self.check([("A", 0), ("A", 5), ("B", 1), ("B", 2), ("A", 3)])
        #expect(admitted == [true, true, true, true, false])
        #expect(stepBack == 2)
    }

    @Test("devices interleaved row by row, each checked against its own latest")
    func interleaved() throws {
        let (admitted, stepBack, _, _) = try Self.check([("A", 2), ("B", 1), ("A", 3), ("B", 0.5), ("A", 3), ("B", 1)])
        #expect(admitted == [true, true, true, false, true, true])
        #expect(stepBack == 0.5)
    }

    @Test("with idle release, a device silent for 1.5 × its time is forgotten; one still heard is not")
    func forgetting() throws {
        // Idle release 10 s: forgotten after 15 s, swept every 7.5 s of input time.
        let (admitted, _, _, _) = try Self.check(
            [("A", 0), ("A", 4), ("B", 1), ("B", 19), ("B", 30), ("A", 3), ("B", 29)], idleRelease: 10)
        // A (latest 4 s) was forgotten by 30 s: its row at 3 s starts it anew; B's step back counts.
        #expect(admitted == [true, true, true, true, true, true, false])
    }

    /// The check's rule written plainly: every device's latest time in a dictionary, updated by
    /// each row that does not step back; with idle release, swept as `SampleOrder` sweeps.
    static func reference(_ rows: [(String, Double)], idleRelease: Double?) -> ([Bool], Double) {
        var latest: [String: Double] = [:]
        var clock = -Double.infinity
        var nextSweep = -Double.infinity
        var largest = 0.0
        var admitted: [Bool] = []
        for (device, time) in rows {
            if let stored = latest[device], time < stored {
                largest = max(largest, stored - time)
                admitted.append(false)
                continue
            }
            latest[device] = time
            if time > clock {
                clock = time
                if let idleRelease, clock >= nextSweep {
                    nextSweep = clock + 0.75 * idleRelease
                    latest = latest.filter { $0.value >= clock - 1.5 * idleRelease }
                }
            }
            admitted.append(true)
        }
        return (admitted, largest)
    }

    @Test(
        "thousands of devices, runs and interleaving, with and without idle release, in time order at first or not: as the plain rule",
        arguments: [nil, 3.0], [0, 20_000])
    func manyDevices(idleRelease: Double?, inOrderFirst: Int) throws {
        var random = SeededGenerator(seed: 7)
        var rows: [(String, Double)] = []
        var time = 0.0
        while rows.count < inOrderFirst {
            time += Double(random.next() % 100) / 1_000
            rows.append(("phone-\(random.next() % 3_000)", time))
        }
        for _ in 0..<30_000 {
            // Mostly forward in time, with runs of one device and jumps back of up to 2 s.
            time += Double(random.next() % 100) / 1_000
            let device = "phone-\(random.next() % 3_000)"
            let run = 1 + Int(random.next() % 3)
            for step in 0..<run {
                let back = random.next() % 10 == 0 ? Double(random.next() % 2_000) / 1_000 : 0
                rows.append((device, time + Double(step) * 0.01 - back))
            }
        }
        let (admitted, stepBack, rereads, reread) = try Self.check(rows, idleRelease: idleRelease)
        let (expected, expectedStepBack) = Self.reference(rows, idleRelease: idleRelease)
        // Compared row by row (a failure names the first row that differs, not 60,000 flags).
        #expect(admitted.count == expected.count)
        #expect(admitted.indices.first { $0 < expected.count && admitted[$0] != expected[$0] } == nil)
        #expect(stepBack == expectedStepBack)
        #expect(admitted.contains(false))
        // The rows before the first one out of time order were read again, once.
        var latestSoFar = -Double.infinity
        var firstOutOfOrder = rows.count
        for (index, row) in rows.enumerated() {
            if row.1 < latestSoFar {
                firstOutOfOrder = index
                break
            }
            latestSoFar = row.1
        }
        #expect(firstOutOfOrder >= inOrderFirst)
        #expect(rereads == 1)
        #expect(reread == firstOutOfOrder)
    }

    @Test("rows in time order keep nothing per device and are never read again; equal times are in order")
    func inTimeOrder() throws {
        let rows = (0..<5_000).map { ("phone-\($0 % 700)", Double($0 / 3)) }
        let (admitted, stepBack, rereads, _) = try Self.check(rows, idleRelease: nil)
        #expect(admitted.allSatisfy { $0 })
        #expect(stepBack == 0)
        #expect(rereads == 0)
        // One row behind the clock but not behind its own device: admitted, after one reread.
        let late = rows + [("phone-new", 1.0), ("phone-1", 1_700)]
        let (lateAdmitted, lateStepBack, lateRereads, lateReread) = try Self.check(late, idleRelease: nil)
        #expect(lateAdmitted.allSatisfy { $0 })
        #expect(lateStepBack == 0)
        #expect(lateRereads == 1 && lateReread == rows.count)
        // A row behind its own device's latest (phone-1 was last heard at row 4901, 1633 s).
        let back = rows + [("phone-1", 1_000)]
        let (backAdmitted, backStepBack, _, _) = try Self.check(back, idleRelease: nil)
        #expect(backAdmitted.last == false)
        #expect(backStepBack == 633)
    }
}
