/// Output formats of `indoorpos locate`.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// The fixes CSV of `FORMATS.md`: `timestamp,x,y,floor,accuracy` then `device` (when the
    /// input has devices), `z`, `zone`, `source`, `beacons`.
    case csv
    /// One JSON object per line with the same fields.
    case jsonl
    /// A GeoJSON (RFC 7946) FeatureCollection in WGS 84 longitude/latitude: the floor outlines,
    /// a Point feature per fix with the CSV's columns as properties, and each device's track as
    /// a LineString. Needs the plan's `Georeference`.
    case geojson
}
