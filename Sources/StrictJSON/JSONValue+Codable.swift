import Foundation

extension JSONValue {
    /// A JSON value carried through `Codable` containers: numbers as `Int` when integral
    /// literals, otherwise `Double`; objects keep their keys (the plan reader does not depend on
    /// member order).
    package struct Coded: Codable {
        package let value: JSONValue

        package init(_ value: JSONValue) { self.value = value }

        package init(from decoder: any Decoder) throws {
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

        package func encode(to encoder: any Encoder) throws {
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
