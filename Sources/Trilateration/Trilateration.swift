@_exported import BeaconModel
@_exported import Ranging
