import StoreModels

extension SimulatedStore {
    /// Tells `observer` every time the store's clock moves (see ``StoreClockObserver``), until it is removed or gone.
    /// Adding an observer twice adds it once.
    public func addClockObserver(_ observer: any StoreClockObserver) {
        clockObservers.add(observer)
    }

    /// Stops telling `observer` that the clock moved.
    public func removeClockObserver(_ observer: any StoreClockObserver) {
        clockObservers.remove(observer)
    }

    /// Tells the clock observers, on the lane, the time the clock shows when they hear of it. Costs nothing without
    /// observers.
    func clockDidMove() {
        guard !clockObservers.current.isEmpty else { return }
        lane.enqueue { [self] in
            let date = clock.now
            for observer in clockObservers.current { observer.store(self, clockDidMoveTo: date) }
        }
    }
}
