import Foundation

/// A podcast feed as RSS 2.0 with Apple's iTunes namespace and Podcasting 2.0's `podcast:`
/// namespace, rendered from plain values: a channel (the book) and its items (the episodes).
///
/// Every user string is escaped for XML (`&`, `<`, `>` and both quotes), and characters XML 1.0
/// cannot hold (control characters other than tab and line breaks, U+FFFE, U+FFFF) are left out.
public struct PodcastFeedXML: Sendable {
    /// The podcast: one book.
    public struct Channel: Sendable {
        public var title: String
        public var description: String
        /// A BCP 47 language tag (`en`, `en-GB`).
        public var language: String
        /// The podcast's web page (`link`).
        public var link: URL
        /// The feed's own address (`atom:link rel="self"`).
        public var feedURL: URL
        public var author: String?
        public var image: URL?
        /// Apple's category and subcategory (`Arts` › `Books`).
        public var category: String
        public var subcategory: String?
        /// `podcast:guid`: the podcast's permanent identity.
        public var guid: String
        /// `itunes:type`: `serial` (episodes in order, as a book's chapters) or `episodic`.
        public var type: String
        public var copyright: String?

        public init(title: String, description: String, language: String, link: URL, feedURL: URL, author: String? = nil,
                    image: URL? = nil, category: String = "Arts", subcategory: String? = "Books", guid: String,
                    type: String = "serial", copyright: String? = nil) {
            self.title = title
            self.description = description
            self.language = language
            self.link = link
            self.feedURL = feedURL
            self.author = author
            self.image = image
            self.category = category
            self.subcategory = subcategory
            self.guid = guid
            self.type = type
            self.copyright = copyright
        }
    }

    /// An episode: one audio file.
    public struct Item: Sendable {
        public var title: String
        /// A permanent identity, not a URL (`isPermaLink="false"`).
        public var guid: String
        public var published: Date
        public var enclosure: URL
        /// The audio file's exact size in bytes.
        public var length: Int
        public var mediaType: String
        public var durationMs: Int
        /// `itunes:episode`, from 1.
        public var episode: Int
        /// The Podcasting 2.0 chapters (`application/json+chapters`), if any.
        public var chapters: URL?
        /// The WebVTT transcript, if any.
        public var transcript: URL?
        public var description: String?

        public init(title: String, guid: String, published: Date, enclosure: URL, length: Int, mediaType: String, durationMs: Int,
                    episode: Int, chapters: URL? = nil, transcript: URL? = nil, description: String? = nil) {
            self.title = title
            self.guid = guid
            self.published = published
            self.enclosure = enclosure
            self.length = length
            self.mediaType = mediaType
            self.durationMs = durationMs
            self.episode = episode
            self.chapters = chapters
            self.transcript = transcript
            self.description = description
        }
    }

    public var channel: Channel
    public var items: [Item]

    public init(channel: Channel, items: [Item]) {
        self.channel = channel
        self.items = items
    }

    /// The feed as an XML document (UTF-8 declared).
    public func render() -> String {
        let c = channel
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
            xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>

            """
        out += "<atom:link href=\"\(Self.escape(c.feedURL.absoluteString))\" rel=\"self\" type=\"application/rss+xml\"/>\n"
        out += element("title", c.title) + element("link", c.link.absoluteString) + element("description", c.description)
        out += element("language", c.language)
        if let copyright = c.copyright { out += element("copyright", copyright) }
        out += element("generator", "Lectern")
        if let author = c.author { out += element("itunes:author", author) }
        out += element("itunes:summary", c.description)
        if let image = c.image {
            out += "<image>\n" + element("url", image.absoluteString) + element("title", c.title) + element("link", c.link.absoluteString)
                + "</image>\n"
            out += "<itunes:image href=\"\(Self.escape(image.absoluteString))\"/>\n"
        }
        out += "<itunes:category text=\"\(Self.escape(c.category))\">"
        if let sub = c.subcategory { out += "<itunes:category text=\"\(Self.escape(sub))\"/>" }
        out += "</itunes:category>\n"
        out += element("itunes:explicit", "false") + element("itunes:type", c.type)
        out += element("podcast:guid", c.guid) + element("podcast:locked", "yes")
        for item in items { out += render(item) }
        out += "</channel>\n</rss>\n"
        return out
    }

    private func render(_ item: Item) -> String {
        var out = "<item>\n" + element("title", item.title) + element("itunes:title", item.title)
        out += "<guid isPermaLink=\"false\">\(Self.escape(item.guid))</guid>\n"
        out += element("pubDate", Self.rfc822(item.published))
        if let description = item.description { out += element("description", description) }
        out += "<enclosure url=\"\(Self.escape(item.enclosure.absoluteString))\" length=\"\(item.length)\" type=\"\(Self.escape(item.mediaType))\"/>\n"
        out += element("itunes:duration", String(Int((Double(item.durationMs) / 1000).rounded())))
        out += element("itunes:episode", String(item.episode)) + element("itunes:episodeType", "full")
        if let chapters = item.chapters {
            out += "<podcast:chapters url=\"\(Self.escape(chapters.absoluteString))\" type=\"application/json+chapters\"/>\n"
        }
        if let transcript = item.transcript {
            out += "<podcast:transcript url=\"\(Self.escape(transcript.absoluteString))\" type=\"text/vtt\" "
                + "language=\"\(Self.escape(channel.language))\" rel=\"captions\"/>\n"
        }
        return out + "</item>\n"
    }

    private func element(_ name: String, _ text: String) -> String {
        "<\(name)>\(Self.escape(text))</\(name)>\n"
    }

    /// `text` as XML character data or an attribute value: the five special characters as
    /// entities, characters XML 1.0 cannot hold left out.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An RFC 822 date as RSS 2.0 writes it, in UTC: `Thu, 26 Nov 2026 23:54:02 +0000`.
    public static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
