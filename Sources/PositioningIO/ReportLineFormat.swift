import IndoorPositioning

/// How one `PositionReport` is spelled as a line of CSV or JSON Lines: the columns a run writes
/// and their formatting, with nothing else (no output, no state between reports), so that any
/// thread can format its own reports (``encoder``).
struct ReportLineFormat: Sendable {
    let format: ReportFormat
    let includeDevice: Bool
    let includeDeviceOffset: Bool
    let includeCovariance: Bool
    let includeMotion: Bool
    /// Whether the plan has zones: the last column (or JSON member) is `zone_probability`.
    let includeZoneProbability: Bool

    /// One report's line in CSV or JSON Lines, with its line end (nothing for GeoJSON, whose
    /// features ``ReportWriter`` writes itself).
    func appendLine(_ report: PositionReport, to line: inout LineBytes) {
        switch format {
        case .csv:
            line.append(fixed: report.timestamp, digits: 3)
            line.append(byte: UInt8(ascii: ","))
            line.append(fixed: report.position.x, digits: 3)
            line.append(byte: UInt8(ascii: ","))
            line.append(fixed: report.position.y, digits: 3)
            line.append(byte: UInt8(ascii: ","))
            line.append(integer: report.level)
            line.append(byte: UInt8(ascii: ","))
            line.append(fixed: report.accuracy, digits: 3)
            if includeDevice {
                line.append(byte: UInt8(ascii: ","))
                line.append(csvField: report.device ?? "")
            }
            line.append(byte: UInt8(ascii: ","))
            line.append(fixed: report.position.z, digits: 3)
            line.append(byte: UInt8(ascii: ","))
            line.append(csvField: report.zone ?? "")
            line.append(byte: UInt8(ascii: ","))
            line.append(string: report.source.rawValue)
            line.append(byte: UInt8(ascii: ","))
            line.append(integer: report.beaconCount)
            if includeCovariance {
                line.append(byte: UInt8(ascii: ","))
                line.append(fixed: report.covariance.xx, digits: 6)
                line.append(byte: UInt8(ascii: ","))
                line.append(fixed: report.covariance.yy, digits: 6)
                line.append(byte: UInt8(ascii: ","))
                line.append(fixed: report.covariance.xy, digits: 6)
            }
            if includeDeviceOffset {
                line.append(byte: UInt8(ascii: ","))
                if let offset = report.deviceOffset { line.append(fixed: offset, digits: 2) }
            }
            if includeMotion {
                for mode in MotionMode.allCases {
                    line.append(byte: UInt8(ascii: ","))
                    if let motion = report.motion { line.append(fixed: motion[mode], digits: 3) }
                }
            }
            if includeZoneProbability {
                line.append(byte: UInt8(ascii: ","))
                if let p = report.zoneProbability { line.append(fixed: p, digits: 3) }
            }
            line.append(byte: UInt8(ascii: "\n"))
        case .jsonl:
            appendProperties(report, to: &line)
            line.append(byte: UInt8(ascii: "\n"))
        case .geojson:
            break
        }
    }

    /// The report as a JSON object (JSON Lines, and GeoJSON properties), without a line end.
    func appendProperties(_ report: PositionReport, to line: inout LineBytes) {
        line.append("{\"timestamp\":")
        line.append(fixed: report.timestamp, digits: 3)
        if includeDevice {
            line.append(",\"device\":")
            line.append(jsonString: report.device ?? "")
        }
        line.append(",\"x\":")
        line.append(fixed: report.position.x, digits: 3)
        line.append(",\"y\":")
        line.append(fixed: report.position.y, digits: 3)
        line.append(",\"z\":")
        line.append(fixed: report.position.z, digits: 3)
        line.append(",\"floor\":")
        line.append(integer: report.level)
        line.append(",\"accuracy\":")
        line.append(fixed: report.accuracy, digits: 3)
        line.append(",\"zone\":")
        if let zone = report.zone { line.append(jsonString: zone) } else { line.append("null") }
        line.append(",\"source\":\"")
        line.append(string: report.source.rawValue)
        line.append("\",\"beacons\":")
        line.append(integer: report.beaconCount)
        if includeCovariance {
            line.append(",\"var_x\":")
            line.append(fixed: report.covariance.xx, digits: 6)
            line.append(",\"var_y\":")
            line.append(fixed: report.covariance.yy, digits: 6)
            line.append(",\"cov_xy\":")
            line.append(fixed: report.covariance.xy, digits: 6)
        }
        if includeDeviceOffset {
            line.append(",\"device_offset\":")
            if let offset = report.deviceOffset { line.append(fixed: offset, digits: 2) } else { line.append("null") }
        }
        if includeMotion {
            for mode in MotionMode.allCases {
                line.append(string: ",\"p_\(mode)\":")
                if let motion = report.motion {
                    line.append(fixed: motion[mode], digits: 3)
                } else {
                    line.append("null")
                }
            }
        }
        if includeZoneProbability {
            line.append(",\"zone_probability\":")
            if let p = report.zoneProbability { line.append(fixed: p, digits: 3) } else { line.append("null") }
        }
        line.append("}")
    }

    /// A ``ShardedPositioningEngine/ReportEncoder`` that appends ``appendLine(_:to:)``'s bytes,
    /// or nil for GeoJSON (its features are separated by commas: written in order by one writer).
    var encoder: ShardedPositioningEngine.ReportEncoder? {
        guard format != .geojson else { return nil }
        let format = self
        return { report, bytes in
            // The caller's buffer is borrowed (swapped in and back): nothing is allocated.
            var line = LineBytes(reserving: 0)
            swap(&line.bytes, &bytes)
            format.appendLine(report, to: &line)
            swap(&line.bytes, &bytes)
        }
    }
}
