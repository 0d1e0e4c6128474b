import Foundation
import StoredSettings
import StoredSettingsCommandLine

/// `daybook follow`: a long-running daybook that prints one line per settings change, such as
/// `pageSize = 5`, and re-reads the settings file only when it receives `SIGHUP`.
///
/// The file is opened with change detection off (``FileStore/Options/changeCheckInterval``
/// `nil`: no `inotify`, no `kqueue`, no polling), so nothing wakes the process until someone
/// sends `SIGHUP` (`kill -HUP <pid>`, `systemctl reload`); then ``FileStore/reload()`` reads the
/// file and every setting whose value changed is printed. A file that does not parse is
/// reported on standard error and the last good values stay.
///
/// It stops, with status 0, on `SIGTERM` or `SIGINT` (Ctrl-C). It does not stop when standard
/// input closes: a service manager starts it with standard input on `/dev/null`, which is
/// closed from the start.
enum DaybookFollow {
    /// What the signal handlers and the change stream tell the main thread.
    enum Event: Sendable {
        case changed(key: String)
        case problem(String)
        case stop
    }

    /// A queue of events that the main thread waits on.
    ///
    /// `@unchecked Sendable`: `pending` is only read and written while `lock` is held, and the
    /// semaphore counts the events in it, so `next()` never takes an event that is not there.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private let available = DispatchSemaphore(value: 0)
        private var pending: [Event] = []

        func post(_ event: Event) {
            lock.withLock { pending.append(event) }
            available.signal()
        }

        /// The next event, waiting (without a timeout) until one is posted.
        func next() -> Event {
            available.wait()
            return lock.withLock { pending.removeFirst() }
        }
    }

    /// Runs `daybook follow`; `arguments` are what follows the word `follow`, and
    /// `daybookArguments` all of daybook's arguments, which are read again with the settings
    /// file opened with its change detection off.
    static func run(
        arguments: [String],
        daybookArguments: [String],
        environment: [String: String]?,
        fleet: [any Storable],
        output: inout some TextOutputStream,
        error: inout some TextOutputStream
    ) -> SettingsCommand.ExitCode {
        if let extra = arguments.first {
            error.write("daybook: follow takes no arguments, got '\(extra)'. See 'daybook --help'.\n")
            return .usage
        }
        let file: FileStore
        do {
            file = try FileStore(application: "daybook", options: FileStore.Options(changeCheckInterval: nil))
        } catch let problem {
            error.write("daybook: \(problem)\n")
            return (problem as? StorageError)?.code == .dataCorrupted ? .dataError : .ioError
        }
        // The arguments were checked once already: this second reading only puts the file
        // that does not watch under the same layers.
        let daybook: CommandLineSettings<DaybookSettings>
        do {
            daybook = try CommandLineSettings(
                toolName: "daybook", arguments: daybookArguments, environment: environment, file: file,
                fallbacks: fleet, otherVariables: DaybookFleet.variables, messages: &error)
        } catch let problem {
            error.write("\(problem)\n")
            return problem.exitCode
        }
        let store = daybook.store
        let settings = daybook.settings
        let events = Events()

        // Subscribe before saying "ready", so no change after that line is missed.
        let changes = store.changes()
        let forwarder = Task {
            for await change in changes { events.post(.changed(key: change.key)) }
        }
        // The signals' default actions are turned off first; Dispatch then delivers them on a
        // queue, where reloading is safe (a plain signal handler may call almost nothing).
        // Dispatch installs its handler for a signal on its own thread some time after
        // `resume()` returns, and until then the signal is ignored, so lost: the ready line
        // waits for every source's registration.
        let queue = DispatchQueue(label: "daybook.follow.signals")
        let registered = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGHUP, SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                guard number == SIGHUP else { return events.post(.stop) }
                do { try file.reload() } catch let problem { events.post(.problem("\(problem)")) }
            }
            source.setRegistrationHandler { registered.signal() }
            // A source Dispatch cannot register (no descriptor free) is cancelled instead.
            source.setCancelHandler { registered.signal() }
            source.resume()
            sources.append(source)
        }
        for _ in sources { registered.wait() }
        defer {
            forwarder.cancel()
            for source in sources { source.cancel() }
        }

        output.write("daybook: following \(file.url.path); send SIGHUP to reload it\n")
        while true {
            switch events.next() {
            case .changed(let key):
                // Undeclared keys in the file are no setting of daybook's: not printed.
                guard let setting = settings.settingDescriptions().first(where: { $0.key == key }) else { continue }
                output.write("\(key) = \(setting.displayValue)\n")
                // `(invalid)` says what is wrong on standard error, as `config list` does.
                if let problem = setting.problem { error.write("daybook: \(problem)\n") }
            case .problem(let text):
                error.write("daybook: \(text)\n")
            case .stop:
                return .success
            }
        }
    }
}
