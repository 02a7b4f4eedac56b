import Foundation
import Hummingbird
import HTTPTypes
import LecternCore
import LecternRunner
import LecternStore
import ServiceLifecycle

/// Runs: started, listed, shown, cancelled, and a job's progress as Server-Sent Events.
extension LecternService {
    func addRunRoutes(to api: RouterGroup<ServeContext>) {
        api.get("jobs/:id/runs") { _, context in
            let (job, _) = try await accessibleJob(context)
            return try await store.runs(jobId: job.id!, limit: 50).map { API.Run($0, hiding: hiding) }
        }
        api.post("jobs/:id/runs") { _, context in
            let caller = try context.requireCaller()
            let (job, served) = try await accessibleJob(context)
            if let wait = jobLimiter.take("run:" + caller.owner) {
                var error = ServeError(.tooManyRequests, "too many runs started; try again in \(Int(wait.rounded(.up))) s")
                error.headers[.retryAfter] = "\(Int(wait.rounded(.up)))"
                throw error
            }
            do {
                _ = try await supervisor.start(jobId: job.id!)
            } catch let error as ServeError {
                throw error
            } catch {
                // The run could not start: another process holds the job, or the store failed.
                let held = (error as? RunError)?.isHeldElsewhere ?? false
                throw ServeError(held ? .conflict : .serviceUnavailable, hidingPaths(FileError.describe(error)))
            }
            return EditedResponse(status: .accepted, headers: [.location: "/api/v1/jobs/\(job.id!)"],
                                  response: try await representation(job, served))
        }
        api.post("jobs/:id/cancel") { _, context in
            let caller = try context.requireCaller()
            let (job, served) = try await accessibleJob(context)
            try await cancel(job: job, by: caller)
            return EditedResponse(status: .accepted, response: try await representation(job, served))
        }
        api.get("runs/:run") { _, context in
            let run = try await accessibleRun(context)
            return API.Run(run, hiding: hiding)
        }
        api.post("runs/:run/cancel") { _, context in
            let caller = try context.requireCaller()
            let run = try await accessibleRun(context)
            guard run.state == .running || run.state == .queued else { throw ServeError.conflict("run \(run.id!) has ended (\(run.state.rawValue))") }
            if try await !supervisor.cancel(jobId: run.jobId, reason: "cancelled by \(caller.owner)") {
                try await store.requestCancel(runId: run.id!, reason: "cancelled by \(caller.owner)")
            }
            return EditedResponse(status: .accepted, response: API.Run(run, hiding: hiding))
        }
        api.get("jobs/:id/events") { request, context in
            let (job, _) = try await accessibleJob(context)
            return events(jobId: job.id!, lastEventId: request.headers[.init("Last-Event-ID")!])
        }
    }

    private func accessibleRun(_ context: ServeContext) async throws -> RunRecord {
        let caller = try context.requireCaller()
        let id = try Self.id(context, "run")
        guard let run = try await store.run(id: id), let served = try await store.servedJob(jobId: run.jobId),
              caller.mayAccess(owner: served.owner) else { throw ServeError.notFound("run \(id)") }
        return run
    }

    /// Cancels the job's queued or running run, wherever it renders.
    private func cancel(job: JobRecord, by caller: Caller) async throws {
        if try await supervisor.cancel(jobId: job.id!, reason: "cancelled by \(caller.owner)") { return }
        guard let run = try await store.latestRun(jobId: job.id!, states: [.running]) else {
            throw ServeError.conflict("the job has no run to cancel")
        }
        try await store.requestCancel(runId: run.id!, reason: "cancelled by \(caller.owner)")
    }

    /// The job's latest run as it changes, as `event: run` with the run's JSON (its `id:` the
    /// run's id and progress, so a reconnecting client that sends `Last-Event-ID` gets only news),
    /// an empty comment line every second, so a client that left is noticed within two (the
    /// write after its connection closed fails) and proxies keep the stream open. Read from the store twice a second: a run rendered by another `serve` shows too. The
    /// stream ends when the service stops (a graceful shutdown waits for no open stream).
    func events(jobId: Int64, lastEventId: String?) -> Response {
        let store = self.store
        let body = ResponseBody { writer in
            var last = lastEventId
            var quiet = 0
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                if let run = try? await store.runs(jobId: jobId, limit: 1).first {
                    let eventId = "\(run.id ?? 0)-\(run.state.rawValue)-\(run.wordsDone)-\(run.audioMsDone)"
                    if eventId != last {
                        let data = try JSONBody.encoder.encode(API.Run(run, hiding: hiding))
                        try await writer.write(ByteBuffer(string: "event: run\nid: \(eventId)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"))
                        last = eventId
                        quiet = 0
                    }
                }
                quiet += 1
                if quiet >= 2 {
                    try await writer.write(ByteBuffer(string: ":\n"))
                    quiet = 0
                }
                try await Task.sleep(for: .milliseconds(500))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                                               .init("X-Accel-Buffering")!: "no"], body: body)
    }
}
