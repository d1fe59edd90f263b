import Foundation

/// The shards of one slice of a ``ShardedPositioningEngine``, handed out one at a time to the
/// threads that work on the slice: each thread takes the next shard nobody has taken, runs its
/// worker's job, and comes back until none is left. A thread that is done early takes more, so
/// the threads finish together whatever each shard and the reading cost.
///
/// Only the index of the next shard is shared, under a lock; a worker is run by the one thread
/// that took it (see ``ShardWorker`` for why that is safe).
final class ShardQueue: @unchecked Sendable {
    private let workers: [ShardWorker]
    private let lock = NSLock()
    private var next = 0

    init(workers: [ShardWorker]) {
        self.workers = workers
    }

    /// Runs the jobs of shards not yet taken, one after another, until every shard is taken.
    func work() {
        while let k = take() { workers[k].process() }
    }

    /// The next shard not yet taken, if any.
    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < workers.count else { return nil }
        next += 1
        return next - 1
    }
}
