@_exported import BeaconModel
@_exported import LinearAlgebra
@_exported import Monitoring
@_exported import Ranging
// The one module users import: it re-exports every stage of the pipeline.
@_exported import StrictJSON
@_exported import Tracking
@_exported import Trilateration
