import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private enum Key: String, StorageKey { case count }

@Suite(.timeLimit(.hangGuard))
struct ReportedErrorsTests {
    @Test func capturesReportsOfTheOperation() {
        let settings = Stored(Key.count, default: 0, store: InMemoryStore(["count": .string("three")]))
        let reported = ReportedErrors()
        let value = reported.capture { settings.wrappedValue }
        #expect(value == 0)
        #expect(reported.codes == [.typeMismatch])
        #expect(reported.errors.first?.key == "count")
    }

    @Test func capturesNothingOutsideTheOperation() {
        let outer = ReportedErrors()
        let inner = ReportedErrors()
        outer.capture {
            inner.capture { StorageErrorReporter.report(StorageError(.readOnly)) }
            StorageErrorReporter.report(StorageError(.io))
        }
        #expect(inner.codes == [.readOnly])
        #expect(outer.codes == [.io])
    }

    @Test func capturesReportsOfChildTasks() async {
        let reported = ReportedErrors()
        await reported.capture {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { StorageErrorReporter.report(StorageError(.io)) }
                }
            }
        }
        #expect(reported.codes == [.io, .io, .io, .io])
        reported.removeAll()
        #expect(reported.isEmpty)
    }

    @Test func parallelCapturesSeeOnlyTheirOwnReports() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let reported = ReportedErrors()
                    await reported.capture {
                        for _ in 0...index { StorageErrorReporter.report(StorageError(.io, key: "k\(index)")) }
                        await Task.yield()
                    }
                    return reported.errors.count == index + 1 && reported.errors.allSatisfy { $0.key == "k\(index)" }
                }
            }
            for await isolated in group { #expect(isolated) }
        }
    }

    @Test func handlerCollectsWhereverItIsInstalled() {
        let reported = ReportedErrors()
        StorageErrorReporter.withHandler(reported.handler) {
            StorageErrorReporter.report(StorageError(.readOnly))
        }
        #expect(reported.codes == [.readOnly])
    }
}
