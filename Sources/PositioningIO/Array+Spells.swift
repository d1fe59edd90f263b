extension [UInt8] {
    /// Whether these bytes are exactly `bytes[range]`. Every byte pair is compared (their
    /// differences or-ed together, no early exit), a loop the compiler vectorises: a row's
    /// 36-byte UUID checked this way costs about a quarter of a byte-by-byte loop that stops at
    /// the first difference, and a text a reader looks up is usually the one it matches.
    func spells(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        guard count == range.count else { return false }
        var difference: UInt8 = 0
        let base = range.lowerBound
        for index in indices { difference |= self[index] ^ bytes[base + index] }
        return difference == 0
    }
}
