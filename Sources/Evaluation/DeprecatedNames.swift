// Names of the first round, kept so that code written against them still builds (see
// CHANGELOG.md).

/// The score of a track against its truth; the module is named Evaluation, the type no longer.
@available(*, deprecated, renamed: "TrackScore")
public typealias Evaluation = TrackScore
