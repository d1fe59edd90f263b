import Foundation
import Testing

@testable import PositioningIO

/// The fixes CSV's `accuracy` column against each report's covariance, on the bundled sample.
@Suite("Accuracy column")
struct AccuracyColumnTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/Examples")

    @Test("every row's accuracy is √trace of its report's covariance (to the column's 1 mm rounding)")
    func accuracyIsTrace() throws {
        let plan = try FloorPlan.load(path: Self.examples.appendingPathComponent("office-plan.json").path)
        let reader = try RSSISampleReader(path: Self.examples.appendingPathComponent("office-rssi.csv").path)
        var samples: [RSSISample] = []
        while let sample = try reader.next() { samples.append(sample) }
        let reports = try PositioningEngine.locate(samples, plan: plan, configuration: .init(reorderDelay: 1))
        #expect(reports.count > 150)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fixes-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try ReportWriter(output: try OutputFile(path: url.path), format: .csv, includeDevice: true)
        for report in reports { writer.write(report) }
        try writer.finish()

        let csv = try CSVReader(path: url.path)
        let column = try csv.requireColumn("accuracy")
        var rows = 0
        while let row = try csv.next() {
            let report = reports[rows]
            let written = try csv.double(row, column)
            let trace = report.covariance.xx + report.covariance.yy
            #expect(abs(written * written - trace) <= 2 * 0.0005 * written + 1e-6, "row \(rows + 1)")
            #expect(abs(written - hypot(report.ellipse.semiMajor, report.ellipse.semiMinor)) <= 0.0005 + 1e-9)
            rows += 1
        }
        #expect(rows == reports.count)
    }
}
