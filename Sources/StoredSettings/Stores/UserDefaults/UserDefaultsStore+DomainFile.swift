package import Foundation

extension UserDefaultsStore {
    /// Why the bytes of a domain file are not a property-list dictionary, in words; `nil` when
    /// they are. Parsed with ``FileStore``'s checks.
    package static func domainFileProblem(_ data: Data) -> String? {
        do {
            _ = try FileStore.parseContents(data, format: .propertyList)
            return nil
        } catch let error as StorageError {
            return error.message ?? error.code.summary
        } catch {
            return StorageError.readableText(of: error)
        }
    }
}

extension UserDefaultsStore {
    /// Where the domain's property list is: an absolute suite name plus `.plist`; on Linux in
    /// the configuration folder (throwing, naming `key`, for a variable that is not UTF-8); on
    /// Apple platforms in `Library/Preferences` of the suite's App Group container, else home.
    func domainFilePath(forKey key: String?) throws -> String {
        if domainName.hasPrefix("/") { return domainName + ".plist" }
        #if canImport(Darwin)
        if let suiteName,
            let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: suiteName)
        {
            return container.appendingPathComponent("Library/Preferences/\(suiteName).plist").path
        }
        return NSHomeDirectory() + "/Library/Preferences/\(domainName).plist"
        #else
        let (variables, notUTF8) = ProcessEnvironment.variables(named: ["XDG_CONFIG_HOME", "HOME"])
        return try FileStore.configurationFolder(environment: variables, notUTF8: notUTF8, key: key) + "/"
            + domainName + ".plist"
        #endif
    }
}

// Linux only: on Apple platforms `cfprefsd` owns the domain files.
#if !canImport(Darwin)

extension UserDefaultsStore {
    /// Throws when the domain file exists but is not a property-list dictionary: Foundation
    /// reads it as empty, and `synchronize()` would replace it, losing its keys.
    func checkDomainFile(forKey key: String?) throws {
        let path = try domainFilePath(forKey: key)
        let contents: Data?
        do {
            contents = try FileSystem.readFile(atPath: path, maximumSize: FileStore.Options.defaultMaximumFileSize)?
                .data
        } catch let error as StorageError {
            throw StorageError(
                error.code, key: key, location: location,
                message: "\(path): \(error.message ?? error.code.name); the change was not saved")
        }
        guard let data = contents, let problem = Self.domainFileProblem(data) else { return }
        throw StorageError(
            .dataCorrupted, key: key, location: location,
            message: "\(path) does not parse as a property list (\(problem)); the change was not saved")
    }
}

#endif
