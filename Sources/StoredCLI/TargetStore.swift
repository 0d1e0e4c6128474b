import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsEtcd

/// A ``Target`` opened for one command: the store, the name errors give it, and the writes
/// that touch many keys at once.
struct TargetStore {
    /// How the target is kept.
    enum Backend {
        case file(FileStore)
        case domain(UserDefaultsStore)
        case etcd(EtcdStore)
    }

    let backend: Backend
    /// The target as the user spelled it (`./demo.json`), or `UserDefaults domain NAME`.
    let name: String
    /// For a domain, the lock on the domains folder, held while this value lives.
    private let lock: DomainLock?

    /// Opens `target`. A missing file is an empty store.
    ///
    /// A domain is opened under a ``DomainLock`` on its folder (created first when `writing`),
    /// and only after its `.plist` file, when there is one, parses as a property-list
    /// dictionary: `UserDefaults` would read a file that does not as an empty domain, and its
    /// next save would write over every key in it.
    ///
    /// - Parameters:
    ///   - target: The file or domain.
    ///   - writing: Whether the command will change the target.
    ///   - environment: Where a domain's folder is found (`XDG_CONFIG_HOME`, `HOME`).
    /// - Throws: ``CommandFailure`` naming the target: bad data (65) for a file or domain file
    ///   that does not parse, an I/O error (74) for one that cannot be read or locked, a usage
    ///   error (64) for a suite name UserDefaults does not allow.
    init(
        opening target: Target, writing: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        switch target {
        case .file(let path):
            name = path
            lock = nil
            try Self.checkIsRegularFileOrMissing(path)
            do {
                backend = .file(try FileStore(url: URL(fileURLWithPath: path)))
            } catch let error as StorageError {
                throw CommandFailure(
                    Self.relabel(error, storePath: FileStore.absolutePath(of: URL(fileURLWithPath: path)), name: path))
            }
        case .domain(let suite):
            let name = "UserDefaults domain \(suite)"
            self.name = name
            let folder: URL
            do {
                folder = try Domains.folder(environment: environment)
            } catch let error as StorageError {
                throw CommandFailure(error)
            }
            // The lock comes before `UserDefaults` reads the domain, so this command starts
            // from what the previous one saved.
            do {
                lock = try Self.lockDomains(in: folder, domain: name, creating: writing)
            } catch let error as StorageError {
                throw CommandFailure(error)
            }
            let store: UserDefaultsStore
            do {
                store = try UserDefaultsStore(suiteName: suite)
            } catch let error as StorageError {
                let usage = UsageError(
                    "'\(suite)' is not a valid domain name: \(error.message ?? error.code.name)", verb: nil)
                throw CommandFailure(.usage, "stored: \(usage)")
            }
            do {
                try Self.checkDomainFileParses(folder.appendingPathComponent(suite + ".plist").path, domain: name)
            } catch let error as StorageError {
                throw CommandFailure(error)
            }
            backend = .domain(store)
        case .etcd(let address):
            name = address
            lock = nil
            backend = .etcd(try Self.openEtcd(address, environment: environment))
        }
    }

    /// Refuses a TARGET path that exists but is not a regular file (after following symbolic
    /// links): a folder, a FIFO (which would block the command until someone writes to it),
    /// a device such as `/dev/null`, a socket. Uses `stat(2)`, which opens nothing.
    ///
    /// - Throws: ``CommandFailure`` with ``ExitCode/ioError`` (74) naming the path and what it is.
    static func checkIsRegularFileOrMissing(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            // Missing (an empty store), or not reachable: FileStore reports that with its errno text.
            return
        }
        guard let kind = FileSystem.kindOfSpecialFile(info) else { return }
        throw CommandFailure(.ioError, "stored: \(path): the settings file is \(kind), not a regular file.")
    }

    /// The lock on `folder`, created first when `creating`; `nil` when the folder does not
    /// exist and is not to be created (there is no domain file to protect then).
    private static func lockDomains(in folder: URL, domain: String, creating: Bool) throws -> DomainLock? {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard creating else { return nil }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw StorageError(
                    .io, location: domain,
                    message: "\(folder.path): cannot create the folder: \(StorageError.readableText(of: error))")
            }
        }
        return try DomainLock(folder: folder.path, domain: domain)
    }

    /// Refuses a domain file that exists but is not a property-list dictionary.
    ///
    /// The file is read as FileStore reads its files: opened non-blocking and checked to be a
    /// regular file, so a FIFO in its place is an error, not a hang.
    ///
    /// - Throws: ``StorageError/Code/dataCorrupted`` naming the domain and the file;
    ///   ``StorageError/Code/io`` when it is not a regular file or cannot be read.
    static func checkDomainFileParses(_ path: String, domain: String) throws {
        let contents: Data?
        do {
            contents = try FileSystem.readFile(atPath: path, maximumSize: FileStore.Options.defaultMaximumFileSize)?
                .data
        } catch let error as StorageError {
            throw StorageError(error.code, location: domain, message: "\(path): \(error.message ?? error.code.name)")
        }
        guard let data = contents, let problem = UserDefaultsStore.domainFileProblem(data) else { return }
        throw StorageError(
            .dataCorrupted, location: domain,
            message: "\(path) does not parse as a property list (\(problem)); nothing was changed")
    }

    var store: any Storable {
        switch backend {
        case .file(let store): store
        case .domain(let store): store
        case .etcd(let store): store
        }
    }

    /// Every key and value of the store.
    func allValues() -> [String: StoredValue] {
        var values: [String: StoredValue] = [:]
        for key in store.keys() {
            if let value = store.value(forKey: key) { values[key] = value }
        }
        return values
    }

    /// The keys, sorted by their UTF-8 bytes like the keys of a JSON settings file.
    func sortedKeys() -> [String] {
        store.keys().sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Stores `value` under `key` (removes the key for `nil`), and makes it last.
    func setValue(_ value: StoredValue?, forKey key: String) throws {
        try store.setValue(value, forKey: key)
        try persist()
    }

    /// Sets every key of `values` (removing the keys whose value is `nil`) as one change.
    ///
    /// Every value is checked for this target before anything is written. A file is written
    /// once, atomically, in the format ``FileStore`` writes, or not at all; a UserDefaults
    /// suite gets every key, then `synchronize()`.
    func merge(_ values: [String: StoredValue?]) throws {
        switch backend {
        case .file(let store):
            // One lock, one write, or nothing: FileStore's batch.
            try store.batch { batch in
                for (key, value) in values { try batch.setValue(value, forKey: key) }
            }
        case .domain(let store):
            for (key, value) in values {
                try StorageError.validate(key: key, location: store.location)
                if let value {
                    do {
                        _ = try PropertyListValue.object(from: value)
                    } catch let error as StorageError {
                        throw error.adding(key: key, location: store.location)
                    }
                }
            }
            for (key, value) in values { try store.setValue(value, forKey: key) }
            try persist()
        case .etcd(let store):
            try Self.mergeIntoEtcd(values, store: store)
        }
    }

    /// The XML property-list bytes of `value`, exactly as a `.plist` ``FileStore`` writes them
    /// (exact doubles and dates, sorted keys).
    ///
    /// - Throws: ``StorageError/Code/encodingFailed`` for a character XML 1.0 cannot carry.
    static func propertyListData(_ value: StoredValue) throws -> Data {
        try PropertyListValue.fileData(from: value, encoding: .xml)
    }

    /// For a UserDefaults suite, `synchronize()`, so the next process sees the change.
    private func persist() throws {
        guard case .domain(let store) = backend else { return }
        if !store.defaults.synchronize() {
            throw StorageError(.io, location: store.location, message: "UserDefaults could not save the domain")
        }
    }

    /// `error` naming the target as the user spelled it, with the first coding-path component
    /// as the key when the error has none.
    func relabel(_ error: StorageError) -> StorageError {
        switch backend {
        case .file(let store): Self.relabel(error, storePath: store.url.path, name: name)
        case .domain, .etcd: Self.relabel(error, storePath: nil, name: name)
        }
    }

    static func relabel(_ error: StorageError, storePath: String?, name: String) -> StorageError {
        var error = error
        if let path = error.location, let storePath, path != storePath, storePath.hasPrefix(path + "/") {
            // A folder on the way to the file: name the file, and the folder in the message.
            error.message = "\(path): " + (error.message ?? error.code.name)
            error.location = name
        }
        if error.location == nil || error.location == storePath { error.location = name }
        // The description ends the sentence itself; parser messages often end with a period.
        while let message = error.message, message.hasSuffix(".") { error.message = String(message.dropLast()) }
        if let key = error.key, error.codingPath.first == key {
            error.codingPath.removeFirst()
        } else if error.key == nil, let first = error.codingPath.first {
            error.key = first
            error.codingPath.removeFirst()
        }
        return error
    }
}
