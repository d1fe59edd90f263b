// Names of the first round, kept so that code written against them still builds (see
// CHANGELOG.md). Each is deprecated with its new name.

/// The error of every input and output file, not only CSV.
@available(*, deprecated, renamed: "FileError")
public typealias CSVError = FileError

/// It writes `PositionReport`s.
@available(*, deprecated, renamed: "ReportWriter")
public typealias FixWriter = ReportWriter

/// The formats of `PositionReport` output.
@available(*, deprecated, renamed: "ReportFormat")
public typealias FixFormat = ReportFormat
