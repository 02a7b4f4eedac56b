import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// A `multipart/form-data` request body received part by part into a staging folder: each file
/// part streamed to a file of its own as it arrives (memory stays bounded whatever the upload),
/// text fields kept in memory up to a small limit. The whole body may not exceed `limit` bytes.
struct UploadReceiver {
    /// A file part as stored.
    struct File: Sendable {
        /// The form field it came in (`document`, `manifest`, `cover`, `lexicon`).
        let field: String
        /// Its name as sent, made safe (``SafeName``).
        let name: String
        let url: URL
        let size: Int
    }

    /// What the form held.
    struct Upload: Sendable {
        var fields: [String: String] = [:]
        var files: [File] = []

        func files(_ field: String) -> [File] { files.filter { $0.field == field } }
    }

    let limit: Int
    /// Files, and text fields, a form may hold: every part counts, empty ones too.
    static let maxFields = 64
    static let maxFieldBytes = 256 << 10

    /// Receives the request's form into `folder` (which exists and is empty).
    ///
    /// - throws: ``ServeError`` 413 over the limit; 415 when the body is not multipart/form-data;
    ///   400 when the form is malformed (naming the part), a part has no name, a file's name
    ///   is not usable or taken by an earlier part, or there are more than ``maxFields`` files
    ///   or text fields.
    func receive(_ request: Request, into folder: URL) async throws -> Upload {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data") else {
            throw ServeError(.unsupportedMediaType, "a job is created from a form: Content-Type multipart/form-data", field: "Content-Type")
        }
        guard let boundary = Self.boundary(of: type) else {
            throw ServeError.badRequest("the Content-Type multipart/form-data has no boundary", field: "Content-Type")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw ServeError(.contentTooLarge, "the upload is \(length) bytes; the limit is \(limit) bytes", field: "body")
        }
        let state = PartState(folder: folder)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in state.header(name, value) }
        parser.onBody = { buffer in state.body(&buffer) }
        parser.onPartComplete = { state.complete() }
        var received = 0
        // The end of the stream, to see the closing boundary: a body cut short is malformed.
        var tail: [UInt8] = []
        let closing = Array("--\(boundary)--".utf8)
        defer { state.closeFile() }
        for try await buffer in request.body {
            received += buffer.readableBytes
            if received > limit {
                throw ServeError(.contentTooLarge, "the upload is larger than the limit of \(limit) bytes", field: "body")
            }
            tail.append(contentsOf: buffer.readableBytesView.suffix(closing.count + 4))
            if tail.count > 2 * (closing.count + 4) { tail.removeFirst(tail.count - (closing.count + 4)) }
            do { try parser.execute(buffer) } catch {
                throw ServeError.badRequest("the multipart form is malformed: \(error)", field: state.currentField ?? "body")
            }
            if let problem = state.problem { throw problem }
        }
        if let problem = state.problem { throw problem }
        guard Self.contains(tail, closing) else {
            throw ServeError.badRequest("the multipart form ends before its closing boundary (the upload was cut short?)",
                                        field: state.currentField ?? "body")
        }
        return state.upload
    }

    /// The `boundary` parameter of a Content-Type.
    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return value.isEmpty || value.count > 200 ? nil : value
        }
        return nil
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}

/// The parser's callbacks' state: the part being received and where its bytes go.
private final class PartState {
    let folder: URL
    var upload = UploadReceiver.Upload()
    var problem: ServeError?
    private(set) var currentField: String?
    private var fileName: String?
    private var headerSeen = false
    private var handle: FileHandle?
    private var fileURL: URL?
    private var size = 0
    private var text: [UInt8] = []
    private var fieldBytes = 0

    init(folder: URL) { self.folder = folder }

    func header(_ name: String, _ value: String) {
        guard problem == nil else { return }
        headerSeen = true
        guard name.lowercased() == "content-disposition" else { return }
        let parameters = Self.parameters(value)
        currentField = parameters["name"]
        fileName = parameters["filename"]
    }

    func body(_ buffer: inout ByteBuffer) {
        guard problem == nil else { return }
        guard let field = currentField, !field.isEmpty else {
            problem = .badRequest("a part of the form has no name (Content-Disposition: form-data; name=\"…\")", field: "Content-Disposition")
            return
        }
        if fileName != nil {
            if handle == nil { startFile(field: field) }
            guard let fileName = self.fileName, problem == nil else { return }
            size += buffer.readableBytes
            do { try handle?.write(contentsOf: buffer.readableBytesView) } catch {
                problem = ServeError(ServeError.insufficientStorage, "cannot store the upload \(fileName): \(error.localizedDescription)")
            }
        } else {
            fieldBytes += buffer.readableBytes
            guard fieldBytes <= UploadReceiver.maxFieldBytes else {
                problem = ServeError(.contentTooLarge, "the form's text fields are larger than \(UploadReceiver.maxFieldBytes) bytes", field: field)
                return
            }
            text.append(contentsOf: buffer.readableBytesView)
        }
    }

    func complete() {
        guard problem == nil else { return }
        guard let field = currentField, !field.isEmpty else {
            problem = .badRequest("a part of the form has no name (Content-Disposition: form-data; name=\"…\")", field: "Content-Disposition")
            return
        }
        if fileName != nil {
            // An empty file has had no body callback: it counts and is checked all the same.
            if handle == nil { startFile(field: field) }
            guard let fileName, let fileURL, problem == nil else { return }
            closeFile()
            upload.files.append(.init(field: field, name: fileName, url: fileURL, size: size))
        } else {
            guard let value = String(validating: text, as: UTF8.self) else {
                problem = .badRequest("the form field \(field) is not UTF-8 text", field: field)
                return
            }
            guard upload.fields.count < UploadReceiver.maxFields else {
                problem = .badRequest("the form has more than \(UploadReceiver.maxFields) text fields", field: field)
                return
            }
            guard upload.fields[field] == nil else {
                problem = .badRequest("the form has the field \(field) twice", field: field)
                return
            }
            upload.fields[field] = value
        }
        text = []
        fileName = nil
        fileURL = nil
        currentField = nil
        headerSeen = false
    }

    /// Opens the file of the part that begins (``fileName`` as sent): counted against the limit
    /// of files, its name made safe and unused by an earlier part. Sets ``problem`` when not.
    private func startFile(field: String) {
        guard let sent = fileName else { return }
        guard upload.files.count < UploadReceiver.maxFields else {
            problem = .badRequest("the form has more than \(UploadReceiver.maxFields) files", field: field)
            return
        }
        let name: String
        do { name = try SafeName.file(sent, field: field) } catch let error as ServeError { problem = error; return } catch { return }
        if upload.files.contains(where: { $0.name == name }) {
            problem = .badRequest("two files of the form are named \(UserTextEcho.quoted(name)): give each file a name of its own", field: field)
            return
        }
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let opened = try? FileHandle(forWritingTo: url) else {
            problem = ServeError(.internalServerError, "cannot store the upload \(name)")
            return
        }
        handle = opened
        fileURL = url
        fileName = name
        size = 0
    }

    func closeFile() {
        try? handle?.close()
        handle = nil
    }

    /// `form-data; name="a"; filename="b.txt"` as a dictionary (quotes removed, `\"` and `\\`
    /// unescaped; any other backslash kept, as browsers send a Windows path's `C:\Users\x.txt`).
    static func parameters(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(value)
        while let semicolon = rest.firstIndex(of: ";") {
            rest = rest[rest.index(after: semicolon)...].drop { $0 == " " }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...]
            var parsed = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let c = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        if c != "\"" && c != "\\" { parsed.append("\\") }
                        parsed.append(c)
                        escaped = false
                    } else if c == "\\" { escaped = true } else if c == "\"" { break } else { parsed.append(c) }
                }
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                parsed = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            result[key] = parsed
        }
        return result
    }
}
