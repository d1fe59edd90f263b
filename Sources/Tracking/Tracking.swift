@_exported import Trilateration
