import Foundation

/// `Codable` through the plan's own JSON format (`FORMATS.md`), so that a plan has one JSON
/// shape whether it is saved with ``FloorPlan/save(to:)`` or embedded in a document of yours
/// with `JSONEncoder`. Decoding is as strict as ``FloorPlan/init(jsonData:)``: a bad plan is a
/// `DecodingError.dataCorrupted` whose description is the ``FloorPlanError`` message, with the
/// path inside the plan (for example `floors[0].beacons[2].major: 70000 is out of range
/// 0...65535`).
extension FloorPlan: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue.Coded(from: decoder).value
        do {
            self = try FloorPlan(jsonData: Data(JSONWriter.write(value)))
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: error.description, underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try JSONValue.Coded(jsonValue).encode(to: encoder)
    }
}

extension JSONValue {
    /// A JSON value carried through `Codable` containers: numbers as `Int` when integral
    /// literals, otherwise `Double`; objects keep their keys (the plan reader does not depend on
    /// member order).
    struct Coded: Codable {
        let value: JSONValue

        init(_ value: JSONValue) { self.value = value }

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let b = try? single.decode(Bool.self) {
                value = .bool(b)
            } else if let i = try? single.decode(Int.self) {
                value = .number(i)
            } else if let d = try? single.decode(Double.self) {
                value = .number(d)
            } else if let s = try? single.decode(String.self) {
                value = .string(s)
            } else if let array = try? single.decode([Coded].self) {
                value = .array(array.map(\.value))
            } else {
                let object = try single.decode([String: Coded].self)
                value = .object(object.keys.sorted().map { ($0, object[$0]!.value) })
            }
        }

        func encode(to encoder: any Encoder) throws {
            if case .object(let members) = value {
                var keyed = encoder.container(keyedBy: Key.self)
                for (key, member) in members { try keyed.encode(Coded(member), forKey: Key(key)) }
                return
            }
            var single = encoder.singleValueContainer()
            switch value {
            case .null: try single.encodeNil()
            case .bool(let b): try single.encode(b)
            case .number(let text):
                // The plan writer only makes numbers from finite Doubles and Ints.
                if let i = Int(text) { try single.encode(i) } else { try single.encode(Double(text) ?? .nan) }
            case .string(let s): try single.encode(s)
            case .array(let items): try single.encode(items.map(Coded.init))
            case .object: break
            }
        }
    }

    /// A coding key from any member name.
    struct Key: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
