@_exported import IndoorPositioning
