import StoreSimulator
import Testing

@Suite("Identified queue")
struct IdentifiedQueueTests {
    /// A queue holding `"e<id>"` under each identifier, appended in the order given.
    private func queue(_ ids: [UInt64]) -> IdentifiedQueue<String> {
        var queue = IdentifiedQueue<String>()
        for id in ids { queue.append("e\(id)", id: id) }
        return queue
    }

    @Test("Elements keep their arrival order and are found by identifier")
    func findsInOrder() throws {
        let queue = queue([3, 5, 8, 13, 21])
        #expect(Array(queue) == ["e3", "e5", "e8", "e13", "e21"])
        #expect(queue.count == 5)
        for id: UInt64 in [3, 5, 8, 13, 21] {
            let position = try #require(queue.position(of: id))
            #expect(queue[position] == "e\(id)")
        }
        for id: UInt64 in [0, 4, 9, 22] { #expect(queue.position(of: id) == nil) }
    }

    @Test("Removing from the front, the back and the middle leaves the rest in order")
    func removes() throws {
        var queue = queue(Array(1...10))
        #expect(queue.remove(at: try #require(queue.position(of: 1))) == "e1")
        #expect(queue.remove(at: try #require(queue.position(of: 10))) == "e10")
        #expect(queue.remove(at: try #require(queue.position(of: 5))) == "e5")
        #expect(Array(queue) == ["e2", "e3", "e4", "e6", "e7", "e8", "e9"])
        #expect(queue.count == 7)
        #expect(queue.position(of: 5) == nil, "a removed identifier is not found again")
        #expect(queue.position(of: 1) == nil)
        queue.append("e11", id: 11)
        #expect(Array(queue).last == "e11")
    }

    @Test("Emptied by removals, a queue takes identifiers in any order again")
    func emptiesAndRefills() throws {
        var queue = queue([7, 8])
        queue.remove(at: try #require(queue.position(of: 8)))
        queue.remove(at: try #require(queue.position(of: 7)))
        #expect(queue.isEmpty)
        #expect(Array(queue).isEmpty)
        queue.append("e2", id: 2)
        queue.append("e1", id: 1)
        #expect(Array(queue) == ["e2", "e1"])
        #expect(queue.position(of: 1).map { queue[$0] } == "e1")
    }

    @Test("Identifiers out of order, or repeated, are still found: the first one that arrived")
    func outOfOrder() throws {
        var queue = queue([10, 4, 12, 4, 7])
        #expect(Array(queue) == ["e10", "e4", "e12", "e4", "e7"])
        queue[try #require(queue.position(of: 4))] = "first 4"
        #expect(Array(queue) == ["e10", "first 4", "e12", "e4", "e7"])
        queue.remove(at: try #require(queue.position(of: 4)))
        #expect(queue.position(of: 4).map { queue[$0] } == "e4", "the second 4 is found once the first is gone")
        for id: UInt64 in [10, 12, 7] { #expect(queue.position(of: id).map { queue[$0] } == "e\(id)") }
    }

    @Test("A large queue finished in arrival order, in reverse or from the middle stays consistent")
    func largeQueues() throws {
        let count: UInt64 = 3_000
        let orders: [[UInt64]] = [
            Array(1...count),
            Array((1...count).reversed()),
            (1...count).sorted { ($0 * 7_919) % count < ($1 * 7_919) % count },
        ]
        for order in orders {
            var queue = queue(Array(1...count))
            var left = Set(1...count)
            for (done, id) in order.enumerated() {
                #expect(queue.remove(at: try #require(queue.position(of: id))) == "e\(id)")
                left.remove(id)
                if done % 500 == 0 {
                    #expect(Array(queue) == left.sorted().map { "e\($0)" })
                    #expect(queue.count == left.count)
                }
            }
            #expect(queue.isEmpty)
        }
    }

    @Test("removeAll(where:) keeps the others in order; updateEach changes elements in place")
    func bulk() {
        var queue = queue(Array(1...9))
        queue.removeAll { $0.hasSuffix("3") || $0 == "e1" || $0 == "e9" }
        #expect(Array(queue) == ["e2", "e4", "e5", "e6", "e7", "e8"])
        queue.updateEach { $0 += "!" }
        #expect(Array(queue) == ["e2!", "e4!", "e5!", "e6!", "e7!", "e8!"])
        #expect(queue.position(of: 5).map { queue[$0] } == "e5!")
        queue.removeAll()
        #expect(queue.isEmpty)
    }
}
