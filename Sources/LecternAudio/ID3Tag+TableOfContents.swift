import Foundation

extension ID3Tag {
    /// The CTOC frames for chapters whose CHAP frames have the ids `chapterIDs`: one ordered
    /// top-level table `toc`, titled `title`, listing in order a table per part (`part1`,
    /// `part2` …, ordered, titled with the part's title, listing its chapters) and the chapters
    /// outside any part. A table with more than 255 entries lists ordered sub-tables of at most
    /// 255 instead (`toc1`, `toc2` … for the top level, `part1.1`, `part1.2` … for a part).
    static func tablesOfContents(chapterIDs: [String], parts: [String?], title: String) -> Data {
        var frames = Data()
        var entries: [String] = []
        var partCount = 0
        var first = 0
        while first < chapterIDs.count {
            guard let part = parts[first] else {
                entries.append(chapterIDs[first])
                first += 1
                continue
            }
            var end = first + 1
            while end < chapterIDs.count && parts[end] == part { end += 1 }
            partCount += 1
            let id = "part\(partCount)"
            frames += table(id: id, topLevel: false, entries: Array(chapterIDs[first..<end]), title: part) { "\(id).\($0)" }
            entries.append(id)
            first = end
        }
        return frames + table(id: "toc", topLevel: true, entries: entries, title: title) { "toc\($0)" }
    }

    /// One table, or with more than 255 entries the sub-tables (named by `subTableID` from 1 on)
    /// followed by the table listing them.
    private static func table(id: String, topLevel: Bool, entries: [String], title: String?, subTableID: (Int) -> String) -> Data {
        guard entries.count > maxEntriesPerTOC else { return toc(id: id, topLevel: topLevel, children: entries, title: title) }
        let groups = stride(from: 0, to: entries.count, by: maxEntriesPerTOC).map { Array(entries[$0..<min($0 + maxEntriesPerTOC, entries.count)]) }
        let subIDs = groups.indices.map { subTableID($0 + 1) }
        var frames = Data()
        for (subID, group) in zip(subIDs, groups) { frames += toc(id: subID, topLevel: false, children: group, title: nil) }
        return frames + toc(id: id, topLevel: topLevel, children: subIDs, title: title)
    }

    private static func toc(id: String, topLevel: Bool, children: [String], title: String?) -> Data {
        var body = Data(id.utf8) + Data([0])
        body += Data([(topLevel ? 0x02 : 0) | 0x01, UInt8(children.count)])  // top-level flag, ordered flag
        for child in children { body += Data(child.utf8) + Data([0]) }
        if let title { body += textFrame("TIT2", title) }
        return frame("CTOC", body)
    }
}
