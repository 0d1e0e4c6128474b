public import Foundation
import StoredSettings
public import StoredSettingsCommandLine

/// The `stored` command: reads and writes settings in JSON and property-list files and in
/// UserDefaults suites, like `defaults` on macOS, on every platform.
///
/// ``run(arguments:input:output:error:environment:)`` does all the work and returns the exit
/// code, so tests run the command in-process with strings for its streams:
///
/// ```swift
/// var output = "", errors = ""
/// let code = StoredCLI.run(
///     arguments: ["write", "demo.json", "autoReload", "-bool", "true"],
///     output: &output, error: &errors
/// )
/// ```
///
/// The `stored` executable is a thin `main` over it. See `stored help` for the syntax.
public enum StoredCLI {
    /// Runs one `stored` command.
    ///
    /// Results go to `output`; a failure is one line on `error`, naming the file or domain and
    /// the key, and nothing is changed then. Help asked for goes to `output` with exit code 0.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name, such as `["read", "demo.json"]`.
    ///   - input: Reads standard input to its end; called only for `-json -` and `import … -`.
    ///   - output: Standard output.
    ///   - error: Standard error.
    ///   - environment: The environment variables; `domains` reads `XDG_CONFIG_HOME` and
    ///     `HOME` from it.
    /// - Returns: The exit code (see ``ExitCode``). Never traps on any input.
    ///
    /// Thread-safety: safe to call from several threads at once on different targets; two
    /// calls on the same file are serialized by ``FileStore`` only per key.
    public static func run(
        arguments: [String],
        input: () throws -> Data = { Data() },
        output: inout some TextOutputStream,
        error: inout some TextOutputStream,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ExitCode {
        let failure: CommandFailure
        do {
            let command = try CommandParser.parse(arguments)
            try execute(command, input: input, output: &output, environment: environment)
            return .success
        } catch let usage as UsageError {
            failure = CommandFailure(.usage, "stored: \(usage)")
        } catch let commandFailure as CommandFailure {
            failure = commandFailure
        } catch let storageError as StorageError {
            failure = CommandFailure(storageError)
        } catch let other {
            failure = CommandFailure(.ioError, "stored: \(StorageError.readableText(of: other)).")
        }
        // One line, whatever the arguments, paths or parser messages it quotes hold: a line
        // break or a terminal escape in them is written as an escape (`\n`, `\u{1B}`).
        error.write(StorageError.escapingControlCharacters(failure.line) + "\n")
        return failure.exitCode
    }

    /// The status the `stored` executable exits with after ``run(arguments:input:output:error:environment:)``
    /// returned `code`: `code`, unless the command succeeded but its output was lost (standard
    /// output is a closed pipe, as in `stored help | true`, or a full disk). Then one line
    /// names the stream on `error` and the status is ``ExitCode/ioError`` (74): a command whose
    /// result did not arrive never reports success. A command that failed keeps its own
    /// status.
    ///
    /// - Parameters:
    ///   - code: What `run` returned.
    ///   - output: The standard output `run` wrote to.
    ///   - error: Standard error.
    /// - Returns: The exit status.
    public static func exitCode(_ code: ExitCode, output: StandardStream, error: inout StandardStream) -> ExitCode {
        guard code == .success, let failure = output.failure else { return code }
        error.write(StorageError.escapingControlCharacters("stored: \(failure).") + "\n")
        return .ioError
    }

    private static func execute(
        _ command: Command,
        input: () throws -> Data,
        output: inout some TextOutputStream,
        environment: [String: String]
    ) throws {
        switch command {
        case .help(let verb):
            output.write(HelpText.text(for: verb))
        case .domains:
            // One line per name, as for `keys`.
            for name in try Domains.list(environment: environment) {
                output.write(StorageError.escapingControlCharacters(name) + "\n")
            }
        case .read(let target, let key):
            let store = try TargetStore(opening: target, environment: environment)
            try perform(on: store) {
                let value: StoredValue
                if let key {
                    guard let found = store.store.value(forKey: key) else {
                        throw StorageError(.notFound, key: key, location: store.name)
                    }
                    value = found
                } else {
                    value = .dictionary(store.allValues())
                }
                output.write(try StoredValueJSON.string(from: showingNonFiniteAsText(value)))
            }
        case .write(let target, let key, let argument):
            let text = argument.readsStandardInput ? try standardInputText(input) : argument.text
            let store = try TargetStore(opening: target, writing: true, environment: environment)
            try perform(on: store) {
                let value: StoredValue
                do {
                    value = try argument.type.storedValue(from: text)
                } catch let error as StorageError {
                    throw error.adding(key: key, location: store.name)
                }
                try store.setValue(value, forKey: key)
            }
        case .delete(let target, let key):
            let store = try TargetStore(opening: target, writing: true, environment: environment)
            try perform(on: store) {
                if let key {
                    guard store.store.value(forKey: key) != nil else {
                        throw StorageError(.notFound, key: key, location: store.name)
                    }
                    try store.setValue(nil, forKey: key)
                } else {
                    try store.merge(Dictionary(uniqueKeysWithValues: store.store.keys().map { ($0, nil) }))
                }
            }
        case .keys(let target):
            let store = try TargetStore(opening: target, environment: environment)
            // One line per key, whatever it holds: a line break or a terminal escape in a key
            // (written by another program) is printed as an escape (`\n`, `\u{1B}`).
            for key in store.sortedKeys() { output.write(StorageError.escapingControlCharacters(key) + "\n") }
        case .export(let target, let format):
            let store = try TargetStore(opening: target, environment: environment)
            try perform(on: store) {
                let all = StoredValue.dictionary(store.allValues())
                switch format {
                case .json: output.write(try StoredValueJSON.string(from: showingNonFiniteAsText(all)))
                case .plist: output.write(String(decoding: try TargetStore.propertyListData(all), as: UTF8.self))
                }
            }
        case .import(let target, let file):
            let values = try ImportFile.read(file, input: input)
            let store = try TargetStore(opening: target, writing: true, environment: environment)
            try perform(on: store) {
                try store.merge(values.mapValues { Optional($0) })
            }
        }
    }

    /// Runs `body`, turning its ``StorageError``s into failures that name the target as the
    /// user spelled it.
    private static func perform(on store: TargetStore, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as StorageError {
            throw CommandFailure(store.relabel(error))
        }
    }

    /// `value` with each NaN and infinity, which JSON has no form for, as the text `-float`
    /// reads back (`nan`, `inf`, `-inf`), as dates and data print as their text.
    private static func showingNonFiniteAsText(_ value: StoredValue) -> StoredValue {
        switch value {
        case .double(let number) where !number.isFinite: .string(number.isNaN ? "nan" : number.description)
        case .array(let items): .array(items.map(showingNonFiniteAsText))
        case .dictionary(let items): .dictionary(items.mapValues(showingNonFiniteAsText))
        default: value
        }
    }

    private static func standardInputText(_ input: () throws -> Data) throws -> String {
        let data: Data
        do {
            data = try input()
        } catch {
            throw CommandFailure(
                .ioError, "stored: standard input: cannot read: \(StorageError.readableText(of: error)).")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(.dataError, "stored: standard input: the text is not UTF-8.")
        }
        return text
    }
}
