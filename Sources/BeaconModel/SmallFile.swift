import Foundation

/// Reading a whole small input file (a floor plan, a regions file): a regular file or a pipe
/// such as `/dev/stdin`, read in 1 MiB chunks up to a limit, so that a device such as
/// `/dev/zero` or a wrong, huge file cannot stall loading. Each file format turns the failures
/// into its own messages.
public enum SmallFile {
    /// Why a file could not be read.
    public enum ReadError: Error, Sendable, Hashable {
        /// No file at the path.
        case missing
        /// The path is a directory.
        case directory
        /// The file exists but cannot be opened.
        case unopenable
        /// Reading failed; `reason` is the system's short reason (for example "permission denied").
        case unreadable(reason: String)
        /// The file is larger than `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// The whole content of the file at `path`, at most `limit` bytes.
    public static func read(path: String, limit: Int) throws(ReadError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing }
        guard !isDirectory.boolValue else { throw .directory }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unopenable }
        defer { try? handle.close() }
        var data = Data()
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw .unreadable(reason: reason(error))
            }
            if chunk.isEmpty { break }
            data.append(chunk)
            if data.count > limit { throw .tooLarge(limit: limit) }
        }
        return data
    }

    /// A short reason for a Foundation file error.
    static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file or folder"
            case .fileWriteOutOfSpace: return "no space left on the device"
            case .fileWriteVolumeReadOnly: return "read-only file system"
            default: break
            }
        }
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            posix.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(posix.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        return (error as NSError).localizedDescription
    }
}
