import Foundation
import Testing

@testable import BeaconModel

@Suite("BeaconIdentity")
struct BeaconIdentityTests {
    static let uuidText = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"

    @Test("parses UUID:major:minor and prints it back with the UUID in upper case")
    func parseAndPrint() throws {
        let identity = try #require(BeaconIdentity("\(Self.uuidText):1:7"))
        #expect(identity.uuid == UUID(uuidString: Self.uuidText))
        #expect(identity.major == 1)
        #expect(identity.minor == 7)
        #expect(identity.description == "\(Self.uuidText):1:7")
        #expect(BeaconIdentity(identity.description) == identity)
    }

    @Test("the UUID is case-insensitive; the printed form is canonical upper case")
    func caseInsensitive() throws {
        let lower = try #require(BeaconIdentity("\(Self.uuidText.lowercased()):65535:0"))
        let upper = try #require(BeaconIdentity("\(Self.uuidText):65535:0"))
        #expect(lower == upper)
        #expect(lower.hashValue == upper.hashValue)
        #expect(lower.description == "\(Self.uuidText):65535:0")
    }

    @Test(
        "malformed or out-of-range strings give nil",
        arguments: [
            "", "abc", "\(uuidText)", "\(uuidText):1", "\(uuidText):1:2:3", "\(uuidText):-1:2",
            "\(uuidText):65536:0", "\(uuidText):0:65536", "\(uuidText):1.5:2", "\(uuidText): 1:2",
            "\(uuidText):1:", ":1:2", "F7826DA6-4FA2-4E98-8024-BC5B71E0893:1:2",
            "F7826DA64FA24E988024BC5B71E0893E:1:2", "\(uuidText):0x10:2", "\(uuidText):1:7 "
        ])
    func rejects(_ text: String) {
        #expect(BeaconIdentity(text) == nil)
    }

    @Test("extreme valid values parse")
    func extremes() throws {
        let identity = try #require(BeaconIdentity("00000000-0000-0000-0000-000000000000:0:65535"))
        #expect(identity.major == 0)
        #expect(identity.minor == UInt16.max)
    }

    @Test("Codable round trip keeps the identity")
    func codable() throws {
        let identity = try #require(BeaconIdentity("\(Self.uuidText):3:9"))
        let data = try JSONEncoder().encode(identity)
        #expect(try JSONDecoder().decode(BeaconIdentity.self, from: data) == identity)
    }

    @Test("ordering is by UUID, then major, then minor")
    func ordering() throws {
        let a = try #require(BeaconIdentity("\(Self.uuidText):1:9"))
        let b = try #require(BeaconIdentity("\(Self.uuidText):2:0"))
        let c = try #require(BeaconIdentity("\(Self.uuidText):2:1"))
        let other = try #require(BeaconIdentity("00000000-0000-0000-0000-000000000001:9:9"))
        #expect([c, other, b, a].sorted() == [other, a, b, c])
    }
}
