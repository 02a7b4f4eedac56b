import Foundation
import LecternSchedule

// The rules of single records that do not depend on SQL, for ``StoreRules`` and both backends
// (each used to write them out itself).

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
        guard trigger.isDaemon, resumed != id else { return false }
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

extension ScheduleRecord {
    /// The row as the manifest now asks (changed `updatedAt` at `now`), nil when it asks for what
    /// the row has: the schedule and the watch; what has been claimed and served stays.
    package func registering(expression: String?, timeZone: String?, watch: Bool, now: Date) -> ScheduleRecord? {
        guard self.expression != expression || self.timeZone != timeZone || self.watch != watch else { return nil }
        var row = self
        row.expression = expression
        row.timeZone = timeZone
        row.watch = watch
        row.updatedAt = now
        return row
    }
}

extension JobRecord {
    /// The job named and titled as its manifest now says (a manifest without a title keeps the
    /// one the job has), nil when nothing changed.
    package func renamed(_ name: String, title: String?) -> JobRecord? {
        guard self.name != name || (title != nil && self.title != title) else { return nil }
        var job = self
        job.name = name
        job.title = title ?? job.title
        return job
    }
}

extension RunRecord {
    /// The run as it stands once one more later run found its outputs current at `date`.
    package func confirmedUpToDate(at date: Date) -> RunRecord {
        var run = self
        run.upToDateRuns += 1
        run.lastUpToDateAt = max(date, run.lastUpToDateAt ?? date)
        return run
    }
}
