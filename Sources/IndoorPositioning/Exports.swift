// The one module users import: it re-exports every stage of the pipeline.
@_exported import StrictJSON
@_exported import BeaconModel
@_exported import LinearAlgebra
@_exported import Ranging
@_exported import Trilateration
@_exported import Tracking
@_exported import Monitoring
