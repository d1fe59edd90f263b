import Foundation
import Testing

@Suite("indoorpos describe and --version")
struct DescribeCommandTests {
    @Test("describe lists floors, zones, beacons, bounds and the calibration state")
    func describe() throws {
        let plain = try Tool.run(["describe", "--plan", LocateCommandTests.plan])
        #expect(plain.status == 0)
        let text = plain.stdout
        #expect(text.contains("1 floor(s), 12 beacon(s), 3 zone(s)"))
        #expect(text.contains("level 0: elevation 0.00 m"))
        #expect(text.contains("outline: 4 points, 364.4 m², x 0.00…20.66 m, y 0.00…17.64 m"))
        #expect(text.contains("zone west \"West bay\""))
        #expect(text.contains("georeference: none"))
        #expect(text.contains("1:12 at (12.76, 0.27, 2.30) m, -61.0 dBm, n = 1.50 (plan defaults)"))
        #expect(text.contains("no calibration file given"))
        let calibrated = try Tool.run([
            "describe", "--plan", LocateCommandTests.plan, "--calibration", LocateCommandTests.calibration
        ])
        #expect(calibrated.stdout.contains("the calibration file fits 12 of them individually"))
        #expect(calibrated.stdout.split(separator: "\n").filter { $0.hasSuffix("(calibrated)") }.count == 12)
    }

    @Test("--version prints the version")
    func version() throws {
        let result = try Tool.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }
}
