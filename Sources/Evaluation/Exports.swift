// Scoring and reading of result files (fixes, truth) on top of the file formats.
@_exported import PositioningIO
