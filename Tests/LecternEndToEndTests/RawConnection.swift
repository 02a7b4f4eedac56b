import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a local server made with the socket calls themselves, from a chosen
/// loopback address (any of 127.0.0.0/8 reaches 127.0.0.1 on Linux), so that a test can send
/// half a request, send it slowly, or hold hundreds of connections at once as a careless or
/// hostile client does.
final class RawConnection {
    let fd: Int32

    /// Connects from `source` (port chosen by the system) to 127.0.0.1:`port`.
    init(port: Int, from source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeFailure("socket: \(String(cString: strerror(errno)))") }
        var local = Self.address(source, port: 0)
        var remote = Self.address("127.0.0.1", port: port)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = bound == 0 ? withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } : -1
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServeFailure("connect from \(source): \(reason)")
        }
    }

    deinit { close(fd) }

    static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    /// Sends all of `text`; false if the connection is closed.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// What the server sends within `timeout` seconds, until it closes the connection or the time
    /// is up; `closed` tells which.
    func receive(timeout: TimeInterval) -> (text: String, closed: Bool) {
        var data = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (String(decoding: data, as: UTF8.self), false) }
            var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&polled, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (String(decoding: data, as: UTF8.self), true) }
            data += buffer[..<n]
        }
    }

    /// True if the server has closed the connection (nothing is waiting to be read otherwise).
    var isClosedByServer: Bool {
        var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&polled, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }
}
