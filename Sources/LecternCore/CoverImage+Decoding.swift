import Foundation
internal import CImageDecoding

extension CoverImage {
    /// The most pixels a cover may have, 10,000 × 10,000: decoding is bounded by it (one row at a
    /// time for PNG and baseline JPEG; a progressive JPEG's coefficients in ``maxDecodingMemory``).
    public static let maxPixels = 100_000_000
    /// The most working memory libjpeg may take for one cover (a progressive JPEG keeps every
    /// coefficient until its last scan).
    static let maxDecodingMemory = 256 << 20

    /// Decodes every row of the picture, so that a file whose header is sound but whose data is
    /// truncated or corrupt (a bad CRC, bad Huffman codes, a premature end) is refused, not embedded.
    /// - throws: ``Rejection`` with libpng's or libjpeg's reason.
    func requireDecodable(_ data: Data) throws(Rejection) {
        guard width * height <= Self.maxPixels else {
            throw Rejection(reason: "it is \(width)×\(height) pixels; a cover may have at most \(Self.maxPixels) pixels "
                            + "(10,000 × 10,000): scale it down")
        }
        var result = lectern_image_result()
        data.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            switch format {
            case .png: lectern_image_decode_png(base, raw.count, UInt(Self.maxPixels), &result)
            case .jpeg: lectern_image_decode_jpeg(base, raw.count, UInt(Self.maxPixels), Int(Self.maxDecodingMemory), &result)
            }
        }
        guard result.ok == 0 else { return }
        let message = withUnsafeBytes(of: result.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let kind = format == .png ? "PNG" : "JPEG"
        throw Rejection(reason: "its \(kind) data does not decode (\(kind == "PNG" ? "libpng" : "libjpeg"): \(message)): "
                        + "the file is truncated or damaged; export the picture again")
    }
}
