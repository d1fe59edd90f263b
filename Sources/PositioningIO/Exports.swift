// File formats of FORMATS.md (CSV, calibration JSON, fixes output) on top of the library.
@_exported import IndoorPositioning
