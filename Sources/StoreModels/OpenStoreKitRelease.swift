/// The release of OpenStoreKit, kept in this one place.
///
/// `openstorekit --version` prints it, and `CHANGELOG.md`'s newest release is this number.
public enum OpenStoreKitRelease {
    /// The release number, in Semantic Versioning's `MAJOR.MINOR.PATCH` form.
    public static let version = "0.1.0"
}
