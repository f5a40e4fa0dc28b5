public import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only when ``SharedData`` is present; otherwise Swift Testing reports it skipped with
    /// ``SharedData/skipReason``, which names the folder searched and how to provide it.
    public static var requiresSharedData: Self {
        .enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason))
    }
}
