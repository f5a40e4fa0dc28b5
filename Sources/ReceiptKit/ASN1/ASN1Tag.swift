/// The identifier of an ASN.1 element: its class, its number and whether it is constructed.
public struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
    /// The four ASN.1 tag classes.
    public enum TagClass: UInt8, Sendable, Hashable {
        /// Types defined by X.680 (INTEGER, SEQUENCE, ...).
        case universal = 0
        /// Application-wide types.
        case application = 1
        /// Context-specific tags, written `[n]`.
        case contextSpecific = 2
        /// Private-use tags.
        case `private` = 3
    }

    /// The tag class.
    public var tagClass: TagClass
    /// The tag number.
    public var number: UInt32
    /// Whether the element is constructed (holds elements) rather than primitive (holds bytes).
    public var isConstructed: Bool

    /// Creates a tag.
    ///
    /// - Parameters:
    ///   - tagClass: The tag class.
    ///   - number: The tag number.
    ///   - isConstructed: Whether the element is constructed.
    public init(_ tagClass: TagClass, _ number: UInt32, isConstructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = isConstructed
    }

    /// Creates a tag from an identifier octet with a low tag number (0...30).
    init(identifier: UInt8, number: UInt32) {
        self.tagClass = TagClass(rawValue: identifier >> 6) ?? .universal
        self.number = number
        self.isConstructed = identifier & 0x20 != 0
    }

    /// BOOLEAN.
    public static let boolean = ASN1Tag(.universal, 1, isConstructed: false)
    /// INTEGER.
    public static let integer = ASN1Tag(.universal, 2, isConstructed: false)
    /// BIT STRING (primitive form).
    public static let bitString = ASN1Tag(.universal, 3, isConstructed: false)
    /// OCTET STRING (primitive form).
    public static let octetString = ASN1Tag(.universal, 4, isConstructed: false)
    /// NULL.
    public static let null = ASN1Tag(.universal, 5, isConstructed: false)
    /// OBJECT IDENTIFIER.
    public static let objectIdentifier = ASN1Tag(.universal, 6, isConstructed: false)
    /// UTF8String (primitive form).
    public static let utf8String = ASN1Tag(.universal, 12, isConstructed: false)
    /// PrintableString (primitive form).
    public static let printableString = ASN1Tag(.universal, 19, isConstructed: false)
    /// IA5String (primitive form).
    public static let ia5String = ASN1Tag(.universal, 22, isConstructed: false)
    /// SEQUENCE and SEQUENCE OF.
    public static let sequence = ASN1Tag(.universal, 16, isConstructed: true)
    /// SET and SET OF.
    public static let set = ASN1Tag(.universal, 17, isConstructed: true)

    /// A context-specific tag `[number]`.
    ///
    /// - Parameters:
    ///   - number: The tag number.
    ///   - isConstructed: Whether the element is constructed (always true for EXPLICIT tagging).
    /// - Returns: The tag.
    public static func contextSpecific(_ number: UInt32, isConstructed: Bool = true) -> ASN1Tag {
        ASN1Tag(.contextSpecific, number, isConstructed: isConstructed)
    }

    /// The identifier octets that encode this tag.
    public var identifierOctets: [UInt8] {
        let head = tagClass.rawValue << 6 | (isConstructed ? 0x20 : 0)
        if number < 31 { return [head | UInt8(number)] }
        var groups: [UInt8] = [UInt8(number & 0x7F)]
        var rest = number >> 7
        while rest > 0 {
            groups.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        return [head | 0x1F] + groups.reversed()
    }

    /// Whether this is a universal string type whose BER encoding may be constructed from segments.
    var isUniversalStringType: Bool {
        guard tagClass == .universal else { return false }
        switch number {
        case 3, 4, 12, 18...22, 25...30: return true
        default: return false
        }
    }

    /// The tag in ASN.1 notation, for example `SEQUENCE` or `[0] constructed`.
    public var description: String {
        let form = isConstructed ? " constructed" : ""
        switch tagClass {
        case .universal:
            let names: [UInt32: String] = [
                0: "end-of-contents", 1: "BOOLEAN", 2: "INTEGER", 3: "BIT STRING", 4: "OCTET STRING", 5: "NULL",
                6: "OBJECT IDENTIFIER", 12: "UTF8String", 16: "SEQUENCE", 17: "SET", 19: "PrintableString",
                22: "IA5String", 23: "UTCTime", 24: "GeneralizedTime",
            ]
            let name = names[number] ?? "UNIVERSAL \(number)"
            return number == 16 || number == 17 ? name : name + form
        case .application: return "[APPLICATION \(number)]" + form
        case .contextSpecific: return "[\(number)]" + form
        case .private: return "[PRIVATE \(number)]" + form
        }
    }
}
