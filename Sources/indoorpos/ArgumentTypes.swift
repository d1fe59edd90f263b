import ArgumentParser
import PositioningIO
import Evaluation

// The library's own enums are the command-line values (their raw values are the spellings).
extension PositioningEngine.TrackingMode: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}
extension EvaluationFormat: ExpressibleByArgument {}
