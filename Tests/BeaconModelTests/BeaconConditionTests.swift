import Foundation
import Testing

@testable import BeaconModel

@Suite("BeaconCondition wildcards")
struct BeaconConditionTests {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let otherUUID = UUID(uuidString: "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C")!

    static func id(_ uuid: UUID, _ major: UInt16, _ minor: UInt16) -> BeaconIdentity {
        BeaconIdentity(uuid: uuid, major: major, minor: minor)
    }

    static func id(_ major: UInt16, _ minor: UInt16) -> BeaconIdentity {
        id(uuid, major, minor)
    }

    @Test("uuid alone matches every major and minor of that uuid, nothing else")
    func uuidOnly() {
        let condition = BeaconCondition(uuid: Self.uuid)
        #expect(condition.matches(Self.id(0, 0)))
        #expect(condition.matches(Self.id(65535, 65535)))
        #expect(!condition.matches(Self.id(Self.otherUUID, 0, 0)))
        #expect(condition.description == "F7826DA6-4FA2-4E98-8024-BC5B71E0893E:*:*")
    }

    @Test("uuid + major matches every minor under that major")
    func uuidAndMajor() {
        let condition = BeaconCondition(uuid: Self.uuid, major: 2)
        #expect(condition.matches(Self.id(2, 0)))
        #expect(condition.matches(Self.id(2, 999)))
        #expect(!condition.matches(Self.id(3, 0)))
        #expect(!condition.matches(Self.id(Self.otherUUID, 2, 0)))
        #expect(condition.description == "F7826DA6-4FA2-4E98-8024-BC5B71E0893E:2:*")
    }

    @Test("all three match exactly one identity")
    func exact() {
        let condition = BeaconCondition(Self.id(2, 7))
        #expect(condition.matches(Self.id(2, 7)))
        #expect(!condition.matches(Self.id(2, 8)))
        #expect(!condition.matches(Self.id(1, 7)))
        #expect(!condition.matches(Self.id(Self.otherUUID, 2, 7)))
        #expect(condition.description == "F7826DA6-4FA2-4E98-8024-BC5B71E0893E:2:7")
    }

    @Test(
        "JSON with uuid, uuid+major, all three decodes to the matching wildcard",
        arguments: [
            (#"{"uuid": "f7826da6-4fa2-4e98-8024-bc5b71e0893e"}"#, nil, nil),
            (#"{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 4}"#, 4, nil),
            (#"{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 4, "minor": 5}"#, 4, 5)
        ] as [(String, UInt16?, UInt16?)])
    func decodes(_ json: String, major: UInt16?, minor: UInt16?) throws {
        let condition = try JSONDecoder().decode(BeaconCondition.self, from: Data(json.utf8))
        #expect(condition.uuid == Self.uuid)
        #expect(condition.major == major)
        #expect(condition.minor == minor)
        let again = try JSONDecoder().decode(BeaconCondition.self, from: JSONEncoder().encode(condition))
        #expect(again == condition)
    }

    @Test(
        "JSON with a minor but no major is rejected",
        arguments: [
            #"{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "minor": 5}"#
        ])
    func minorWithoutMajor(_ json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BeaconCondition.self, from: Data(json.utf8))
        }
    }

    @Test(
        "JSON with a bad uuid or an out-of-range major is rejected",
        arguments: [
            #"{"uuid": "not-a-uuid"}"#,
            #"{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 70000}"#,
            #"{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": -1}"#,
            #"{"major": 1}"#
        ])
    func rejects(_ json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BeaconCondition.self, from: Data(json.utf8))
        }
    }
}
