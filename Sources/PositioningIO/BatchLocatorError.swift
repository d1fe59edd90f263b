/// Why a ``BatchLocator`` run stopped although its inputs were readable.
public enum BatchLocatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The output could not be emptied to start over after rows out of time order were found.
    case cannotStartOver(path: String)
    /// No sample of the input could be used; `detail` says what was skipped and why.
    case noUsableSample(path: String, detail: String)

    /// One line naming the file and what to do.
    public var description: String {
        switch self {
        case .cannotStartOver(let path):
            return "\(path): the RSSI rows are out of time order and the output written so far could not be "
                + "emptied to start over from a sorted copy; sort the file by device and timestamp first"
        case .noUsableSample(let path, let detail):
            return "\(path): no sample could be used (\(detail)); check that the file's beacons "
                + "(uuid, major, minor) are the plan's and its rssi values are readings in dBm"
        }
    }
}
