/// Scratch space that the trackers of one engine share: one set of epoch-update buffers per
/// bank member, lent to a ``TrackerBank`` for one epoch (``TrackerBank/borrowScratch(_:)``,
/// ``TrackerBank/returnScratch(_:)``).
///
/// Every epoch update fills its scratch before reading it, so whose buffers an update runs in
/// does not change a result. An engine closes one device's epoch at a time, so one set serves
/// all its devices: a device between epochs then holds no scratch (about 19 KB less per
/// device with 8 bias states), and the buffers an update works in stay in the processor's
/// cache instead of being fetched from each device's own.
package struct TrackerScratch: Sendable {
    /// Member k's buffers (empty: none held).
    var members: [AugmentedTracker.Scratch] = []

    /// An empty set; it takes the buffers of the first bank returned to it.
    package init() {}
}

extension AugmentedTracker.Scratch {
    /// Buffers of no size: what a tracker holds while another holds its scratch, or after
    /// ``AugmentedTracker/releaseScratch()``.
    static var none: Self { Self(size: 0, slots: 0, reserving: 0) }

    /// Whether these are buffers of no size.
    var isEmpty: Bool { xPrior.isEmpty }
}
