import Foundation
import LecternRunner

/// SIGINT and SIGTERM stop a run cleanly: the first one cancels it (workers are killed, the run
/// is recorded as cancelled, temporary files are removed, previous outputs stay); a second one
/// exits at once.
final class SignalHandlers: @unchecked Sendable {
    // @unchecked Sendable is safe: `signal` is only touched while holding `lock`; the sources
    // are set up once in init.
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var signal: Int32?

    /// The signal that stopped the run, if one did.
    var received: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return signal
    }

    init(control: RunControl) {
        for number in [SIGINT, SIGTERM] {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                lock.lock()
                let first = signal == nil
                if first { signal = number }
                lock.unlock()
                guard first else { _exit(128 + number) }
                control.cancel(number == SIGINT ? "interrupted by SIGINT" : "stopped by SIGTERM")
            }
            source.resume()
            sources.append(source)
        }
        // A file size limit makes writes fail with an error we report, instead of killing us.
        Foundation.signal(SIGXFSZ, SIG_IGN)
    }
}
