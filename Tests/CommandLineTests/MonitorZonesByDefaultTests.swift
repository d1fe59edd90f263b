import Foundation
import Testing

/// `monitor` without `--regions` watches every zone of the plan, as if each were listed with its
/// own id (FORMATS.md); a plan without zones needs a regions file.
@Suite("indoorpos monitor: every zone by default")
struct MonitorZonesByDefaultTests {
    @Test("without --regions: the events of a regions file listing the plan's three zones")
    func everyZone() throws {
        let folder = try ScratchFolder("zones")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let listed = try folder.file(
            "zones.json",
            #"{ "regions": [ { "id": "west", "zone": "west" }, { "id": "centre", "zone": "centre" }, { "id": "east", "zone": "east" } ] }"#
        )
        let plan = LocateCommandTests.plan, rssi = LocateCommandTests.rssi
        let byDefault = try Tool.run(["monitor", "--plan", plan, "--rssi", rssi])
        let explicit = try Tool.run(["monitor", "--plan", plan, "--regions", listed, "--rssi", rssi])
        #expect(byDefault.status == 0 && explicit.status == 0)
        #expect(byDefault.stdout == explicit.stdout)
        #expect(byDefault.stdout.split(separator: "\n").count > 6)
        #expect(byDefault.stderr.contains("3 regions"))
    }

    @Test("a plan without zones and no --regions: one line that says what to give, exit 1")
    func noZones() throws {
        let plan = Tool.sharedData.appendingPathComponent("danis-office/plan.json").path
        let run = try Tool.run(["monitor", "--plan", plan, "--rssi", LocateCommandTests.rssi])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr
                == "indoorpos: --regions is needed: the plan has no zones to watch (give a regions JSON with beacon or circle regions)\n"
        )
    }
}
