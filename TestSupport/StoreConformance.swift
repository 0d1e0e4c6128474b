import Foundation
public import StoredSettings

/// The checks every ``Storable`` backend must pass: the type table (every supported value type
/// round-trips exactly, also across a relaunch) and the behaviour rules of the ``Storable``
/// contract (missing keys, removal, read after write, no change for an identical write, atomic
/// updates, key validation, ordered change delivery, and what an `update` body may do: read
/// the store, write another store, but not write its own store, which must throw rather than
/// hang). A store that hangs is reported as a failure after a generous guard, never a hung
/// test.
///
/// Every backend this package ships runs these checks in its tests. Run them on your own
/// backend from any test framework; failures come back as values:
///
/// ```swift
/// // In a Swift Testing test (or XCTest: XCTAssertEqual(failures, [])):
/// let conformance = StoreConformance {
///     StoreConformance.Subject(store: InMemoryStore())   // a fresh store of yours
/// }
/// let failures = await conformance.run()
/// // #expect(failures.isEmpty, "\(failures)")
/// ```
///
/// The factory is called once per check, so each check starts from an empty store. Give the
/// subject a `reopen` closure to test what survives a relaunch (a new instance on the same
/// medium), and a `tearDown` closure to clean the medium up. Declare what your medium cannot
/// hold (``Limitations``): for those values, a write must throw
/// ``StorageError/Code/encodingFailed`` and leave the previous value in place.
///
/// This library imports neither Testing nor XCTest, so the checks run anywhere.
///
/// Thread-safety: a `StoreConformance` is `Sendable`; its checks may run concurrently.
public struct StoreConformance: Sendable {
    /// One store to check, with what it takes to relaunch it and clean it up.
    public struct Subject: Sendable {
        /// The store under test; empty when handed over.
        public var store: any Storable
        /// Opens a new instance on the same medium (a relaunch); `nil` when the store keeps
        /// nothing beyond its own lifetime.
        public var reopen: (@Sendable () throws -> any Storable)?
        /// Called when the check is done, to remove files or UserDefaults domains.
        public var tearDown: @Sendable () -> Void

        /// Creates a subject.
        ///
        /// - Parameters:
        ///   - store: A fresh, empty store.
        ///   - reopen: Opens a new instance on the same medium, or `nil`.
        ///   - tearDown: Cleans the medium up after the check.
        public init(
            store: any Storable,
            reopen: (@Sendable () throws -> any Storable)? = nil,
            tearDown: @escaping @Sendable () -> Void = {}
        ) {
            self.store = store
            self.reopen = reopen
            self.tearDown = tearDown
        }
    }

    /// Values a medium cannot hold. For a value that needs one of these, a backend that
    /// declares it may throw ``StorageError/Code/encodingFailed`` from the write instead of
    /// keeping the value, and must then keep the previous value.
    public struct Limitations: OptionSet, Sendable, Hashable {
        /// The set's bits, one per limitation.
        public let rawValue: Int
        /// Creates a set from its raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// NaN and infinities (JSON has no form for them).
        public static let nonFiniteNumbers = Limitations(rawValue: 1 << 0)
        /// The characters XML 1.0 cannot hold, in strings and dictionary keys: NUL, the other
        /// control characters U+0001–U+001F except tab, newline and carriage return, U+FFFE and
        /// U+FFFF (XML property lists and `UserDefaults` refuse them).
        public static let controlCharactersInStrings = Limitations(rawValue: 1 << 1)
    }

    /// A check that did not pass: which check, and what went wrong.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The check's name: a value case (`Double -0.0`) or a behaviour rule.
        public var check: String
        /// What went wrong.
        public var message: String

        /// Creates a failure record.
        public init(check: String, message: String) {
            self.check = check
            self.message = message
        }

        /// `check: message`.
        public var description: String { "\(check): \(message)" }
    }

    /// Every failure of a run, thrown by ``validate()``.
    public struct Failures: Error, Sendable, CustomStringConvertible {
        /// The failures, in the order the checks ran.
        public var failures: [Failure]
        /// One failure per line.
        public var description: String {
            "\(failures.count) conformance check(s) failed:\n" + failures.map { "- \($0)" }.joined(separator: "\n")
        }
    }

    /// What the medium cannot hold.
    public let limitations: Limitations
    /// Makes a fresh subject for each check.
    public let makeSubject: @Sendable () throws -> Subject

    /// Creates the checks for the stores `makeSubject` makes.
    ///
    /// - Parameters:
    ///   - limitations: Values the medium cannot hold.
    ///   - makeSubject: Returns a fresh, empty store each time it is called.
    public init(limitations: Limitations = [], makeSubject: @escaping @Sendable () throws -> Subject) {
        self.limitations = limitations
        self.makeSubject = makeSubject
    }

    /// Runs every check: each case of ``valueCases``, then each ``Rule``.
    ///
    /// - Returns: The failures; empty when the store conforms.
    public func run() async -> [Failure] {
        var failures: [Failure] = []
        for valueCase in Self.valueCases {
            failures += check(valueCase)
        }
        for rule in Rule.allCases {
            failures += await check(rule)
        }
        return failures
    }

    /// Runs every check and throws when one fails.
    ///
    /// - Throws: ``Failures`` listing every failure.
    public func validate() async throws {
        let failures = await run()
        if !failures.isEmpty { throw Failures(failures: failures) }
    }

    /// Calls `body` with a fresh subject, tearing it down after; a thrown error is a failure.
    func withSubject(_ name: String, _ body: (Subject) async throws -> [Failure]) async -> [Failure] {
        let subject: Subject
        switch makeSubject(for: name) {
        case .success(let made): subject = made
        case .failure(let failure): return [failure]
        }
        defer { subject.tearDown() }
        do {
            return try await body(subject)
        } catch {
            return [Failure(check: name, message: "unexpected error: \(error)")]
        }
    }

    /// The synchronous form of ``withSubject(_:_:)-async``.
    func withSubject(_ name: String, _ body: (Subject) throws -> [Failure]) -> [Failure] {
        let subject: Subject
        switch makeSubject(for: name) {
        case .success(let made): subject = made
        case .failure(let failure): return [failure]
        }
        defer { subject.tearDown() }
        do {
            return try body(subject)
        } catch {
            return [Failure(check: name, message: "unexpected error: \(error)")]
        }
    }

    /// A fresh subject, or the failure of check `name` when it cannot be made.
    private func makeSubject(for name: String) -> Result<Subject, Failure> {
        do {
            return .success(try makeSubject())
        } catch {
            return .failure(Failure(check: name, message: "the store could not be created: \(error)"))
        }
    }
}

// MARK: - The shipped backends

extension StoreConformance {
    /// The checks for ``InMemoryStore``.
    public static var inMemory: StoreConformance {
        StoreConformance { Subject(store: InMemoryStore()) }
    }

    /// The checks for a `FileStore` on a fresh temporary file (``TemporaryFileStore``), with
    /// ``TemporaryFileStore/reopened()`` as the relaunch.
    ///
    /// - Parameter format: `.json` (which cannot hold NaN or infinities) or `.propertyList`
    ///   (XML, which cannot hold NUL and most other control characters).
    public static func fileStore(format: FileStore.Format) -> StoreConformance {
        let limitations: Limitations = format == .json ? [.nonFiniteNumbers] : [.controlCharactersInStrings]
        return StoreConformance(limitations: limitations) {
            let store = try TemporaryFileStore(
                fileName: format == .json ? "settings.json" : "settings.plist", format: format)
            return Subject(store: store, reopen: { try store.reopened() })
        }
    }

    /// The checks for a ``LayeredStore`` of an empty ``InMemoryStore`` over a
    /// ``TemporaryFileStore`` that receives the writes, with a new `LayeredStore` over
    /// ``TemporaryFileStore/reopened()`` as the relaunch.
    ///
    /// The layers above the file hold nothing, so every rule of the ``Storable`` contract
    /// applies as for the file alone (the one exception of `LayeredStore`, a higher layer
    /// that still wins after a write, is covered by its own tests). The limitations are the
    /// JSON file's.
    public static var layeredStore: StoreConformance {
        StoreConformance(limitations: [.nonFiniteNumbers]) {
            let file = try TemporaryFileStore()
            let upper = InMemoryStore()
            return Subject(
                store: LayeredStore([upper, file], writingTo: file),
                reopen: {
                    let reopened = try file.reopened()
                    return LayeredStore([upper, reopened], writingTo: reopened)
                }
            )
        }
    }

    /// The checks for `UserDefaultsStore` on a new suite per check (a UUID-named domain file in
    /// the temporary folder, never in the user's preferences;
    /// removed after), with a new store instance on the same suite as the relaunch.
    public static var userDefaults: StoreConformance {
        StoreConformance(limitations: [.controlCharactersInStrings]) {
            let name = FileManager.default.temporaryDirectory.appendingPathComponent(
                "StoreConformance-\(UUID().uuidString)"
            ).path
            let store = try UserDefaultsStore(suiteAtPath: name)
            return Subject(
                store: store,
                reopen: { try UserDefaultsStore(suiteAtPath: name) },
                tearDown: { store.defaults.removePersistentDomain(forName: name) }
            )
        }
    }
}
