import Foundation
import Testing

@testable import LinearAlgebra

@Suite struct GaussHermiteTests {
    @Test("two nodes are ±1/√2 with weights √π/2")
    func twoNodes() {
        let rule = GaussHermite(order: 2)
        #expect(abs(rule.nodes[0] + 0.5.squareRoot()) < 1e-14)
        #expect(abs(rule.nodes[1] - 0.5.squareRoot()) < 1e-14)
        for w in rule.weights { #expect(abs(w - Double.pi.squareRoot() / 2) < 1e-14) }
    }

    /// E Z^2k = (2k − 1)!! for Z ~ N(0, 1), exact up to degree 2n − 1.
    @Test("normal moments are exact up to degree 2n − 1", arguments: [3, 9, 12])
    func normalMoments(order: Int) {
        let rule = GaussHermite(order: order)
        var doubleFactorial = 1.0
        for k in 0..<order {
            if k > 0 { doubleFactorial *= Double(2 * k - 1) }
            var moment = 0.0
            for q in rule.nodes.indices {
                moment += exp(rule.normalLogWeights[q]) * pow(2.0.squareRoot() * rule.nodes[q], Double(2 * k))
            }
            #expect(abs(moment - doubleFactorial) < 1e-10 * doubleFactorial)
        }
    }
}
