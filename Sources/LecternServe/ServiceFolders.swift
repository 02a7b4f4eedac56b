import Foundation
import LecternCore

/// The service's data folder: `jobs/ID/input/` (the uploaded files and the manifest the service
/// wrote), `jobs/ID/output/` (what runs write), `staging/` (uploads still arriving: a job's
/// folder appears in `jobs/` by one rename once its upload is complete and its manifest valid)
/// and `auditions/` (voice samples). Every path served is resolved and checked to lie inside
/// the folder it belongs to, links included.
struct ServiceFolders: Sendable {
    let root: URL
    var jobs: URL { root.appendingPathComponent("jobs") }
    var staging: URL { root.appendingPathComponent("staging") }
    var auditions: URL { root.appendingPathComponent("auditions") }

    init(root: URL) { self.root = root.standardizedFileURL.resolvingSymlinksInPath() }

    func create() throws {
        for folder in [jobs, staging, auditions] {
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw ServeError(.internalServerError, "cannot create the folder \(folder.path): \(FileError.reason(error))")
            }
        }
    }

    func job(_ folder: String) -> URL { jobs.appendingPathComponent(folder) }
    func input(_ folder: String) -> URL { job(folder).appendingPathComponent("input") }
    func output(_ folder: String) -> URL { job(folder).appendingPathComponent("output") }

    /// Removes what a crash left: uploads in `staging/` that nothing wrote to for ten minutes
    /// (another `serve` on the same folder may be receiving one), and job folders older than ten
    /// minutes that no served job names.
    func sweep(known: Set<String>) {
        let manager = FileManager.default
        let now = Date()
        /// Seconds since anything in the folder last changed.
        func idle(_ url: URL) -> TimeInterval {
            var newest = (try? manager.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? now
            for name in manager.enumerator(atPath: url.path)?.allObjects as? [String] ?? [] {
                if let date = try? manager.attributesOfItem(atPath: url.appendingPathComponent(name).path)[.modificationDate] as? Date {
                    newest = max(newest, date)
                }
            }
            return now.timeIntervalSince(newest)
        }
        for name in (try? manager.contentsOfDirectory(atPath: staging.path)) ?? [] {
            let url = staging.appendingPathComponent(name)
            if idle(url) > 600 { try? manager.removeItem(at: url) }
        }
        for name in (try? manager.contentsOfDirectory(atPath: jobs.path)) ?? [] where !known.contains(name) {
            let url = jobs.appendingPathComponent(name)
            if idle(url) > 600 { try? manager.removeItem(at: url) }
        }
    }

    /// The file `relative` (components from a request) inside `folder`, or nil when it would lie
    /// outside it — by `..`, an absolute component, or a link that leads out — or is not a file.
    static func file(_ relative: [Substring], inside folder: URL) -> URL? {
        guard !relative.isEmpty, relative.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") && !$0.contains("/") && !$0.hasPrefix(".") }) else {
            return nil
        }
        let base = folder.resolvingSymlinksInPath().path
        var url = URL(fileURLWithPath: base)
        for component in relative { url.appendPathComponent(String(component)) }
        let resolved = url.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(base + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return URL(fileURLWithPath: resolved)
    }

    /// Every regular file below `folder` (not following links out of it), as paths relative to it.
    static func files(below folder: URL) -> [String] {
        let base = folder.resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let components = relative.split(separator: "/")
            guard !components.contains(where: { $0.hasPrefix(".") }), file(components, inside: folder) != nil else { continue }
            found.append(relative)
        }
        return found.sorted()
    }

    /// The media type of a file by its extension.
    static func mediaType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "mp3": return "audio/mpeg"
        case "m4b", "m4a": return "audio/mp4"
        case "opus", "ogg": return "audio/ogg"
        case "wav": return "audio/wav"
        case "flac": return "audio/flac"
        case "json": return "application/json"
        case "vtt": return "text/vtt; charset=utf-8"
        case "srt": return "application/x-subrip"
        case "html", "htm", "xhtml": return "text/html; charset=utf-8"
        case "epub": return "application/epub+zip"
        case "m3u8": return "application/vnd.apple.mpegurl"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "yml", "yaml": return "application/yaml"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "xml", "rss": return "application/rss+xml; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
