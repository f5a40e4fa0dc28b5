#if Server
    /// What the Retention Messaging API checks of an uploaded image: that it is a PNG, its size from its `IHDR` chunk,
    /// and whether it can be transparent (a color type with alpha, or a `tRNS` chunk).
    struct PNGImage: Sendable, Equatable {
        /// The width in pixels.
        let width: Int
        /// The height in pixels.
        let height: Int
        /// Whether the image has an alpha channel or a transparent color.
        let hasTransparency: Bool

        /// Reads a PNG's header and chunk list; nil with why when `bytes` are not a well-formed PNG.
        static func read(_ bytes: [UInt8]) -> Result<PNGImage, Problem> {
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
                return .failure(Problem(description: "the body is not a PNG (no PNG signature)"))
            }
            func uint32(_ offset: Int) -> Int {
                bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            }
            var offset = 8
            var header: (width: Int, height: Int, colorType: UInt8)?
            var transparentColor = false
            while offset + 8 <= bytes.count {
                let length = uint32(offset)
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                guard length <= bytes.count - offset - 12 else {
                    return .failure(Problem(description: "the PNG chunk \(type) at byte \(offset) is cut short"))
                }
                if header == nil {
                    guard type == "IHDR", length == 13 else {
                        return .failure(Problem(description: "the PNG does not begin with its IHDR chunk"))
                    }
                    header = (uint32(offset + 8), uint32(offset + 12), bytes[offset + 17])
                }
                if type == "tRNS" { transparentColor = true }
                if type == "IEND" { break }
                offset += 12 + length
            }
            guard let header, header.width > 0, header.height > 0 else {
                return .failure(Problem(description: "the PNG has no valid IHDR chunk"))
            }
            return .success(
                PNGImage(
                    width: header.width, height: header.height,
                    hasTransparency: transparentColor || header.colorType == 4 || header.colorType == 6))
        }

        /// Why bytes are not a PNG.
        struct Problem: Error, Equatable, CustomStringConvertible {
            let description: String
        }
    }
#endif
