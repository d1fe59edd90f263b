import ArgumentParser
import Evaluation
import PositioningIO

// The library's own enums are the command-line values (their raw values are the spellings).
extension PositioningEngine.TrackingMode: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}
extension EvaluationFormat: ExpressibleByArgument {}
