import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension OutputFile {
    /// An output at `path` (standard output when nil or "-") that is refused when it is one of
    /// `inputs`, so a command never writes over what it reads.
    /// - Throws: ``FileError/unwritable(path:detail:)`` naming the input when the output is the
    ///   same regular file as an input (compared by device and inode, so also through symbolic
    ///   and hard links, and for standard output redirected into an input); otherwise as
    ///   ``init(path:)``.
    public convenience init(path: String?, notOverwriting inputs: [String]) throws(FileError) {
        try Self.refuseOverwriting(path, inputs: inputs)
        try self.init(path: path)
    }

    /// Throws unless the output at `path` (standard output when nil or "-") is a different file
    /// from every one of `inputs`: the check of ``init(path:notOverwriting:)``, for a command
    /// that wants to refuse before it reads anything.
    /// - Throws: ``FileError/unwritable(path:detail:)`` naming the input.
    public static func refuseOverwriting(_ path: String?, inputs: [String]) throws(FileError) {
        let output = (path == nil || path == "-") ? nil : path
        if let target = regularFileIdentity(output),
            let input = inputs.first(where: { regularFileIdentity($0) == target })
        {
            throw .unwritable(
                path: output ?? "standard output",
                detail: "it is the input '\(input)'; write the output to another file")
        }
    }

    /// Throws when two of `outputs` (standard output for nil or "-") are the same file, before
    /// anything is written: an existing file compared by device and inode (so also through links
    /// and for standard output redirected into it), a new one by its path with links resolved.
    /// - Throws: ``FileError/unwritable(path:detail:)`` naming both.
    public static func refuseSameOutputs(_ outputs: [(option: String, path: String?)]) throws(FileError) {
        func key(_ path: String?) -> String {
            let output = (path == nil || path == "-") ? nil : path
            if let identity = regularFileIdentity(output) { return "inode \(identity)" }
            guard let output else { return "standard output" }
            return "path " + URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path
        }
        var seen: [String: String] = [:]
        for output in outputs {
            let name = output.path.flatMap { $0 == "-" ? nil : $0 } ?? "standard output"
            if let earlier = seen.updateValue(output.option, forKey: key(output.path)) {
                throw .unwritable(
                    path: name,
                    detail: "\(earlier) and \(output.option) name the same file; give them different files")
            }
        }
    }

    /// Device and inode of the regular file at `path` (nil: standard output), after links.
    static func regularFileIdentity(_ path: String?) -> [UInt64]? {
        var info = stat()
        let found = path.map { stat($0, &info) } ?? fstat(STDOUT_FILENO, &info)
        guard found == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
