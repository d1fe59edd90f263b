import Foundation
import Testing

/// Fixes whose accuracy or variances no engine writes (1e200, negative) are refused by
/// `evaluate` and `render` with the column that holds them, instead of a 200-digit SVG radius or
/// a blame on the wrong column.
@Suite("Huge and negative accuracies and variances in a fixes file")
struct HugeNumberCommandTests {
    static let truth = LocateCommandTests.examples.appendingPathComponent("office-truth.csv").path

    @Test(
        "evaluate and render name the column and the line",
        arguments: [
            ("timestamp,x,y,floor,accuracy\n1581252412,3,4,0,1e200\n", "column 'accuracy'", "at most 1e7"),
            ("timestamp,x,y,floor,accuracy\n1581252412,3,4,0,-2\n", "column 'accuracy'", "negative"),
            ("timestamp,x,y,floor,var_x,var_y,cov_xy\n1581252412,3,4,0,-1,1,0\n", "column 'var_x'", "variance"),
            ("timestamp,x,y,floor,var_x,var_y,cov_xy\n1581252412,3,4,0,1,1e200,0\n", "column 'var_y'", "variance"),
            ("timestamp,x,y,floor,var_x,var_y,cov_xy\n1581252412,3,4,0,1,1,5\n", "column 'cov_xy'", "covariance")
        ])
    func refused(fixes: String, column: String, reason: String) throws {
        let folder = try ScratchFolder("huge")
        let path = try folder.file("fixes.csv", fixes)
        for arguments in [
            ["evaluate", "--fixes", path, "--truth", Self.truth],
            ["render", "--plan", LocateCommandTests.plan, "--fixes", path]
        ] {
            let run = try Tool.run(arguments)
            #expect(run.status != 0, "\(arguments[0])")
            #expect(run.stderr.contains(column) && run.stderr.contains(reason), "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.contains(":2"), "\(arguments[0]) names the line: \(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
    }
}
