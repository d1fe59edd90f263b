import Foundation
import IndoorPositioning
import TestSupport
import Testing

@Suite("Positioning session (async)")
struct PositioningSessionTests {
    static let walk = SimulatedSite.walk(duration: 40)

    static func sites(_ count: Int) throws -> [SimulatedSite] {
        try (0..<count).map { try SimulatedSite(seed: 100 + UInt64($0), configuration: walk, device: "phone-\($0)") }
    }

    /// Collects a stream until it ends.
    static func collect(_ stream: AsyncStream<PositionReport>) async -> [PositionReport] {
        var reports: [PositionReport] = []
        for await report in stream { reports.append(report) }
        return reports
    }

    static func byDevice(_ reports: [PositionReport]) -> [String: [PositionReport]] {
        Dictionary(grouping: reports, by: { $0.device ?? "" })
    }

    @Test(
        "six devices pushed from six tasks, read by three consumers: each device's reports are exactly its batch result"
    )
    func manyTasks() async throws {
        let sites = try Self.sites(6)
        let plan = sites[0].plan
        let session = try PositioningSession(plan: plan)
        let streams = [await session.reports(), await session.reports(), await session.reports()]
        let consumers = streams.map { stream in Task { await Self.collect(stream) } }
        await withTaskGroup(of: Void.self) { group in
            for site in sites {
                group.addTask {
                    for sample in site.samples.sorted(by: { $0.timestamp < $1.timestamp }) {
                        await session.push(sample)
                    }
                }
            }
            // Readers of the actor's state while it is being fed.
            group.addTask {
                for _ in 0..<50 {
                    _ = await session.statistics.accepted
                    await Task.yield()
                }
            }
        }
        await session.finish()
        var received: [[PositionReport]] = []
        for consumer in consumers { received.append(await consumer.value) }
        let expected = try sites.map { try PositioningEngine.locate($0.samples, plan: plan) }
        let total = expected.map(\.count).reduce(0, +)
        #expect(total > 6 * 35)
        for reports in received {
            #expect(reports.count == total)
            let grouped = Self.byDevice(reports)
            for (site, batch) in zip(sites, expected) {
                #expect(grouped[site.samples[0].device!] == batch)
            }
        }
        #expect(await session.statistics.accepted == sites.map(\.samples.count).reduce(0, +))
    }

    @Test("submit from ranging callbacks on many threads keeps each device's order")
    func submitFromCallbacks() async throws {
        let sites = try Self.sites(4)
        let plan = sites[0].plan
        let session = try PositioningSession(plan: plan)
        let consumer = Task { [stream = await session.reports()] in await Self.collect(stream) }
        // Each "callback thread" delivers one device's samples in one-second batches, as ranging does.
        DispatchQueue.concurrentPerform(iterations: sites.count) { index in
            let samples = sites[index].samples.sorted { $0.timestamp < $1.timestamp }
            let batches = Dictionary(grouping: samples, by: { $0.timestamp.rounded(.down) })
            for key in batches.keys.sorted() { session.submit(batches[key]!) }
        }
        await session.finish()
        let grouped = Self.byDevice(await consumer.value)
        for site in sites {
            #expect(grouped[site.samples[0].device!] == (try PositioningEngine.locate(site.samples, plan: plan)))
        }
    }

    @Test("the event stream interleaves every sample (with its outcome) and the reports it completed")
    func events() async throws {
        let site = try SimulatedSite(seed: 9, configuration: Self.walk)
        let session = try PositioningSession(plan: site.plan)
        let events = Task { [stream = await session.events()] in
            var all: [PositioningSession.Event] = []
            for await event in stream { all.append(event) }
            return all
        }
        let reports = Task { [stream = await session.reports()] in await Self.collect(stream) }
        let stranger = RSSISample(timestamp: 0.5, identity: BeaconIdentity(uuid: UUID(), major: 1, minor: 1), rssi: -70)
        let sorted = site.samples.sorted { $0.timestamp < $1.timestamp }
        session.submit([stranger] + sorted)
        await session.finish()
        let all = await events.value
        var samples: [RSSISample] = [], published: [PositionReport] = [], latest = -Double.infinity
        for event in all {
            switch event {
            case .sample(let sample, let outcome):
                samples.append(sample)
                latest = sample.timestamp
                #expect(outcome == (sample == stranger ? .unknownBeacon : .accepted))
            case .setApart:
                continue
            case .report(let report):
                published.append(report)
                // A report comes after the sample that closed its epoch (or at finish()).
                #expect(
                    latest >= report.timestamp
                        || report == all.last.flatMap { if case .report(let r) = $0 { r } else { nil } })
            }
        }
        #expect(samples == [stranger] + sorted)
        #expect(published == (await reports.value))
        #expect(published.count >= 35)
    }

    @Test("a queued advance publishes predictions behind the samples submitted before it")
    func advance() async throws {
        let site = try SimulatedSite(seed: 7, configuration: Self.walk)
        let t0 = site.samples.map(\.timestamp).min()!
        let session = try PositioningSession(plan: site.plan)
        let consumer = Task { [stream = await session.reports()] in await Self.collect(stream) }
        session.submit(site.samples.filter { $0.timestamp < t0 + 10 }.sorted { $0.timestamp < $1.timestamp })
        session.submitAdvance(to: t0 + 13)
        await session.drain()
        await session.finish()
        let reports = await consumer.value
        #expect(reports.filter(\.isPredicted).map { ($0.timestamp - t0).rounded() } == [11, 12, 13])
        #expect(reports.count == 13)
    }

    @Test("after finish, pushes are refused and new streams end at once")
    func afterFinish() async throws {
        let site = try SimulatedSite(seed: 8, configuration: Self.walk)
        let session = try PositioningSession(plan: site.plan)
        await session.finish()
        #expect(await session.push(site.samples[0]) == nil)
        session.submit([site.samples[0]])
        #expect(await Self.collect(session.reports()).isEmpty)
        #expect(await session.statistics.accepted == 0)
    }
}
