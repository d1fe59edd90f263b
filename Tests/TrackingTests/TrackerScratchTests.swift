import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import Tracking

/// Banks that lend one engine's scratch space from epoch to epoch give exactly what banks with
/// their own give, and hold none between epochs.
@Suite("TrackerScratch: the epoch update's buffers shared by an engine's trackers")
struct TrackerScratchTests {
    static func bank(_ walk: WalkSimulator) throws -> TrackerBank {
        try TrackerBank(
            first: AugmentedTrackerTests.first(walk), configuration: TrackerConfiguration(),
            offset: DeviceOffsetModel(), shadowing: TrackerBankTests.models, floorElevation: 0)
    }

    @Test("Two walks updated in turn in one shared scratch: every estimate bit for bit as with their own")
    func sharedMatchesOwn() throws {
        // Different walks, so that anything carried in a buffer from one bank's epoch into the
        // other's would show; the second walk's epochs lose up to two samples, so that the
        // epochs' sizes differ too.
        let (walkA, epochsA) = AugmentedTrackerTests.epochs(seed: 11)
        let (walkB, epochsB) = AugmentedTrackerTests.epochs(seed: 12)
        var ownA = try Self.bank(walkA), ownB = try Self.bank(walkB)
        var lentA = try Self.bank(walkA), lentB = try Self.bank(walkB)
        var shared = TrackerScratch()
        lentA.returnScratch(&shared)
        lentB.returnScratch(&shared)
        let count = min(epochsA.count, epochsB.count, 60)
        #expect(count >= 40)
        for k in 0..<count {
            let time = Double(k) + 2
            let samplesB = Array(epochsB[k].dropLast(k % 3))
            try ownA.update(epochsA[k], at: time)
            try ownB.update(samplesB, at: time)
            lentA.borrowScratch(&shared)
            try lentA.update(epochsA[k], at: time)
            lentA.returnScratch(&shared)
            lentB.borrowScratch(&shared)
            try lentB.update(samplesB, at: time)
            lentB.returnScratch(&shared)
            for (own, lent) in [(ownA, lentA), (ownB, lentB)] {
                #expect(own.estimate == lent.estimate, "epoch \(k)")
                #expect(own.weights == lent.weights && own.deviceOffset == lent.deviceOffset, "epoch \(k)")
                for m in lent.members.indices {
                    #expect(own.members[m].state == lent.members[m].state)
                    #expect(own.members[m].covariance == lent.members[m].covariance)
                    // Between epochs the lent bank holds no buffers of its own.
                    #expect(lent.members[m].scratch.isEmpty)
                }
            }
        }
        // The shared set holds one member's buffers per bank member, sized for its state.
        #expect(shared.members.count == 2)
        for m in shared.members.indices { #expect(shared.members[m].xPrior.count == lentA.members[m].state.count) }
    }

    @Test("A bank that borrows from an empty set keeps its own buffers, and gives them to the set")
    func emptySetTakesTheFirstBuffers() throws {
        let (walk, epochs) = AugmentedTrackerTests.epochs(seed: 13)
        var bank = try Self.bank(walk)
        var shared = TrackerScratch()
        bank.borrowScratch(&shared)
        #expect(bank.members.allSatisfy { !$0.scratch.isEmpty })
        try bank.update(epochs[0], at: 2)
        bank.returnScratch(&shared)
        #expect(bank.members.allSatisfy { $0.scratch.isEmpty })
        #expect(shared.members.count == 2 && shared.members.allSatisfy { !$0.isEmpty })
        // A bank updated without borrowing allocates its buffers again and still works.
        try bank.update(epochs[1], at: 3)
        #expect(bank.members.allSatisfy { !$0.scratch.isEmpty })
    }
}
