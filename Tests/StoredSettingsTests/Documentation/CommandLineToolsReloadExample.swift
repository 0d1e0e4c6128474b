import Foundation
import StoredSettings

// The "Reload on SIGHUP" code of the "Configuration for command-line tools" article, word for
// word, so the compiler checks it. It is never called here (it changes how the whole process
// treats SIGHUP); `daybook follow` runs the same pattern in DaybookFollowTests.

func reloadOnHangup(_ file: FileStore) -> any DispatchSourceSignal {
    signal(SIGHUP, SIG_IGN) // Dispatch delivers the signal instead of it ending the process
    let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
    hangup.setEventHandler {
        do {
            try file.reload()
        } catch {
            print("notes: \(error)") // the last good settings stay
        }
    }
    hangup.resume()
    return hangup // keep it: a released source stops delivering
}

func followNotes() async throws {
    let file = try FileStore(application: "notes", options: FileStore.Options(changeCheckInterval: nil))
    let hangup = reloadOnHangup(file)
    defer { hangup.cancel() }
    for await column in NotesSettings(store: file).$wrapColumn.updates {
        print("wrapping at \(column)") // now, then after each reload that changed it
    }
}
