import Foundation
import Testing

/// A narrated EPUB as tools we did not write see it: epubcheck's verdict, and the media
/// overlays, ids and audio files as Python's zipfile and ElementTree read them.
struct EPUBInspection: Decodable {
    /// One `par` of an overlay: the content document and id it points at, the audio file, the
    /// clip in milliseconds, and the `epub:textref` of the `seq` around it (the sentence).
    struct Par: Decodable {
        var document: String
        var id: String
        var audio: String
        var begin: Double
        var end: Double
        var parent: String
        /// The par's `epub:type` (`z3998:word` for a word).
        var kind: String
    }

    /// Every par of every overlay, in spine order.
    var pars: [Par]
    /// The ids in each content document (paths inside the archive).
    var ids: [String: [String]]
    /// `media:duration` per overlay (by its path) and in total, in milliseconds.
    var durations: [String: Double]
    var totalDuration: Double
    /// Content documents in spine order with the overlay each names (or "").
    var spine: [[String]]

    static let script = #"""
        import sys, json, zipfile, posixpath, re
        import xml.etree.ElementTree as ET
        SMIL = '{http://www.w3.org/ns/SMIL}'
        EPUB = '{http://www.idpf.org/2007/ops}'
        OPF = '{http://www.idpf.org/2007/opf}'
        def clock(v):
            if v.endswith('ms'): return float(v[:-2])
            if v.endswith('s'): return float(v[:-1]) * 1000
            parts = [float(p) for p in v.split(':')]
            s = 0.0
            for p in parts: s = s * 60 + p
            return s * 1000
        z = zipfile.ZipFile(sys.argv[1])
        container = ET.fromstring(z.read('META-INF/container.xml'))
        opf_path = container.find('.//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile').get('full-path')
        base = posixpath.dirname(opf_path)
        opf = ET.fromstring(z.read(opf_path))
        items = {}
        for item in opf.find(OPF + 'manifest'):
            items[item.get('id')] = (posixpath.normpath(posixpath.join(base, item.get('href'))), item.get('media-type'), item.get('media-overlay'))
        durations, total = {}, None
        for meta in opf.find(OPF + 'metadata').iter(OPF + 'meta'):
            if meta.get('property') == 'media:duration':
                if meta.get('refines'): durations[items[meta.get('refines')[1:]][0]] = clock(meta.text.strip())
                else: total = clock(meta.text.strip())
        spine, pars, ids = [], [], {}
        for ref in opf.find(OPF + 'spine'):
            path, kind, overlay = items[ref.get('idref')]
            spine.append([path, items[overlay][0] if overlay else ''])
        for path, kind, overlay in items.values():
            if kind == 'application/xhtml+xml':
                ids[path] = [e.get('id') for e in ET.fromstring(z.read(path)).iter() if e.get('id')]
        for path, overlay in spine:
            if not overlay: continue
            folder = posixpath.dirname(overlay)
            def walk(node, parent):
                for child in node:
                    if child.tag == SMIL + 'seq':
                        walk(child, child.get(EPUB + 'textref') or parent)
                    elif child.tag == SMIL + 'par':
                        text = child.find(SMIL + 'text').get('src')
                        audio = child.find(SMIL + 'audio')
                        doc, _, frag = text.partition('#')
                        pars.append(dict(document=posixpath.normpath(posixpath.join(folder, doc)), id=frag,
                                         audio=posixpath.normpath(posixpath.join(folder, audio.get('src'))),
                                         begin=clock(audio.get('clipBegin')), end=clock(audio.get('clipEnd')),
                                         parent=parent.partition('#')[2], kind=child.get(EPUB + 'type') or ''))
            walk(ET.fromstring(z.read(overlay)).find(SMIL + 'body'), '')
        print(json.dumps(dict(pars=pars, ids=ids, durations=durations, totalDuration=total, spine=spine)))
        """#

    static func read(_ epub: URL) throws -> EPUBInspection {
        let out = try Tool.run("/usr/bin/python3", ["-c", script, epub.path])
        try #require(out.status == 0, "\(out.stderr)")
        return try JSONDecoder().decode(EPUBInspection.self, from: Data(out.stdout.utf8))
    }

    /// Each spine document's text (whitespace collapsed) and its stylesheet links, by path, as
    /// ElementTree reads them — to compare a narrated EPUB's documents with the original's.
    static func documents(_ epub: URL) throws -> [String: (text: String, stylesheets: [String])] {
        let script = #"""
            import sys, json, zipfile, posixpath
            import xml.etree.ElementTree as ET
            OPF = '{http://www.idpf.org/2007/opf}'
            XHTML = '{http://www.w3.org/1999/xhtml}'
            z = zipfile.ZipFile(sys.argv[1])
            opf_path = ET.fromstring(z.read('META-INF/container.xml')).find('.//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile').get('full-path')
            opf = ET.fromstring(z.read(opf_path))
            items = {i.get('id'): posixpath.normpath(posixpath.join(posixpath.dirname(opf_path), i.get('href'))) for i in opf.find(OPF + 'manifest')}
            out = {}
            for ref in opf.find(OPF + 'spine'):
                path = items[ref.get('idref')]
                root = ET.fromstring(z.read(path))
                body = root.find(XHTML + 'body')
                text = ' '.join(''.join(body.itertext()).split()) if body is not None else ''
                links = [l.get('href') for l in root.iter(XHTML + 'link') if 'stylesheet' in (l.get('rel') or '')]
                out[path] = [text, links]
            print(json.dumps(out))
            """#
        let out = try Tool.run("/usr/bin/python3", ["-c", script, epub.path])
        try #require(out.status == 0, "\(out.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: [Any]] ?? [:]
        return json.mapValues { ($0[0] as? String ?? "", $0[1] as? [String] ?? []) }
    }

    /// Extracts `paths` from the archive into `folder` (with unzip), returning their URLs.
    static func extract(_ epub: URL, _ paths: [String], into folder: URL) throws -> [String: URL] {
        let out = try Tool.run("unzip", ["-o", "-q", epub.path] + paths + ["-d", folder.path])
        try #require(out.status == 0, "\(out.stderr)")
        return Dictionary(uniqueKeysWithValues: paths.map { ($0, folder.appendingPathComponent($0)) })
    }

    /// What epubcheck said: its messages (`--json`) as (severity, id, message, location), and its stderr.
    struct EPUBCheckReport {
        var messages: [(severity: String, id: String, message: String, location: String)]
        var stderr: String
    }

    /// Runs epubcheck (it may run on another thread: it records no test issue itself).
    static func epubcheck(_ epub: URL) throws -> EPUBCheckReport {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("epubcheck-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: report) }
        // epubcheck walks an overlay's references recursively; a chapter of word-level pars needs more than Java's default stack.
        let out = try Tool.run("java", ["-Xss512m", "-jar", "/usr/share/java/epubcheck.jar", epub.path, "--json", report.path])
        let json = (try? JSONSerialization.jsonObject(with: Data(contentsOf: report))) as? [String: Any] ?? [:]
        let messages = (json["messages"] as? [[String: Any]] ?? []).map { m in
            let locations = (m["locations"] as? [[String: Any]] ?? []).prefix(3).map { "\($0["path"] ?? "")(\($0["line"] ?? ""))" }
            return ("\(m["severity"] ?? "")", "\(m["ID"] ?? "")", "\(m["message"] ?? "")", locations.joined(separator: ", "))
        }
        return EPUBCheckReport(messages: messages, stderr: out.stderr + (json.isEmpty ? "\nno JSON report (exit \(out.status))" : ""))
    }
}
