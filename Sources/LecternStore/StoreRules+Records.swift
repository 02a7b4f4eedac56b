import Foundation

// The rules of single records that do not depend on SQL, for ``StoreRules`` and the backends.

extension LeaseRecord {
    /// Whether `holder` may take this lease at `now`: it holds it already, or the lease has
    /// expired, or its holder is not a live process (dead, or not one this host can judge alive).
    package func mayBeTaken(by holder: ProcessIdentity, at now: Date) -> Bool {
        self.holder == holder.description || expiresAt <= now || !(ProcessIdentity(self.holder)?.isAlive ?? false)
    }

    /// Whether the holder may be alive (a holder this host cannot judge is taken to be).
    package var holderMayBeAlive: Bool { ProcessIdentity(holder)?.isAlive ?? true }
}

extension RunRecord {
    /// The run as it ended when its process is gone: failed with the message its process left
    /// in its ``FailureNote`` (it could not reach the store), else interrupted.
    package func settled(note message: String?, at now: Date) -> RunRecord {
        var run = self
        if let message {
            run.state = .failed
            run.error = message
        } else {
            run.state = .interrupted
            run.error = error ?? "the process running it (pid \(pid)) stopped without finishing"
        }
        run.endedAt = now
        return run
    }

    /// Whether a daemon starting up resumes this run, the job's latest: a daemon started it
    /// (`schedule` or `watch`), it stopped before it ended (its process died, or it was
    /// interrupted or cancelled), and it is not `resumed`, the run a daemon last resumed.
    package func isResumable(resumed: Int64?) -> Bool {
        guard ["schedule", "watch"].contains(trigger), resumed != id else { return false }
        switch state {
        case .interrupted, .cancelled: return true
        case .running: return isOrphaned
        default: return false
        }
    }
}

extension ScheduleRecord {
    /// The row with its watched change given back, when the daemon that claimed the change died
    /// before a run rendered it (a change is served only by a success); nil when there is none
    /// to give back.
    package var reopeningUnservedChange: ScheduleRecord? {
        guard watchVersion != servedVersion, servedVersion != nil,
              !(watchClaimant.flatMap(ProcessIdentity.init)?.isAlive ?? false) else { return nil }
        var row = self
        row.watchVersion = servedVersion
        row.watchClaimant = nil
        return row
    }
}
