/// An object that puts work on a ``StoreLane`` without a closure: the lane keeps the object, an operation and an
/// identifier, and calls ``runOnLane(_:_:)`` with them when the work's turn comes.
///
/// A payment queue makes a few lane items for every purchase; naming them this way spares the allocation of a closure
/// context per item. The lane holds the object strongly until the work has run, as a closure capturing it would.
package protocol LaneTask: AnyObject, Sendable {
    /// Runs one piece of work this object enqueued with ``StoreLane/enqueue(_:_:_:)``.
    func runOnLane(_ operation: Int, _ id: UInt64)
}
