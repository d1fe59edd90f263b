import Foundation

/// The shards of one slice of a ``ShardedPositioningEngine``, handed out one at a time to the
/// threads that work on the slice: each thread takes the next shard nobody has taken, runs its
/// worker's job, and comes back until none is left. A thread that is done early takes more, so
/// the threads finish together whatever each shard and the reading cost.
///
/// The engine's own thread takes shards too (``finish()``) and then waits only for the shards
/// other threads took: the slice completes even when no other thread ever starts (a thread
/// pool that is busy or cannot grow), and a thread that starts late finds nothing to take.
///
/// What is shared, under a lock, is the index of the next shard and the number of shards being
/// run; a worker is run by the one thread that took it (see ``ShardWorker`` for why that is safe).
final class ShardQueue: @unchecked Sendable {
    private let workers: [ShardWorker]
    private let condition = NSCondition()
    private var next = 0
    /// Shards taken whose jobs have not ended.
    private var running = 0

    init(workers: [ShardWorker]) {
        self.workers = workers
    }

    /// Runs the jobs of shards not yet taken, one after another, until every shard is taken.
    func work() {
        while let k = take() {
            workers[k].process()
            condition.lock()
            running -= 1
            if running == 0 { condition.broadcast() }
            condition.unlock()
        }
    }

    /// Works until every shard is taken, then waits until every job has ended.
    func finish() {
        work()
        condition.lock()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    /// Waits until no job is running (the shards not taken stay so): for an engine dropped mid-slice.
    func waitForRunning() {
        condition.lock()
        next = workers.count
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    /// The next shard not yet taken, if any.
    private func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < workers.count else { return nil }
        next += 1
        running += 1
        return next - 1
    }
}
