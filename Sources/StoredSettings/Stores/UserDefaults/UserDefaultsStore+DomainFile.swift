package import Foundation

extension UserDefaultsStore {
    /// Why the bytes of a domain file are not a domain, in words; `nil` when they are a
    /// property-list dictionary. They are parsed as a ``FileStore`` parses a property list,
    /// with its checks, so that no kind Foundation's bridging cannot take reaches it.
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
    /// Where the domain's property list is: an absolute suite name is its path without the
    /// extension. Otherwise, on Linux, `$XDG_CONFIG_HOME/<domain>.plist` when `XDG_CONFIG_HOME`
    /// is an absolute path, else `~/.config/<domain>.plist`
    /// (``FileStore/configurationFolder(environment:notUTF8:key:passwordDatabaseHome:)``, which
    /// throws for a variable that is not UTF-8, naming `key`); on Apple platforms the
    /// `Library/Preferences` folder of the App Group container named by the suite, else of the
    /// app's home (its container when sandboxed).
    func domainFilePath(forKey key: String?) throws -> String {
        // An absolute suite name is the domain file's path without its extension.
        if domainName.hasPrefix("/") { return domainName + ".plist" }
        #if canImport(Darwin)
        if let suiteName,
            let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: suiteName)
        {
            return container.appendingPathComponent("Library/Preferences/\(suiteName).plist").path
        }
        return NSHomeDirectory() + "/Library/Preferences/\(domainName).plist"
        #else
        let (variables, notUTF8) = EnvironmentStore.processVariables(named: ["XDG_CONFIG_HOME", "HOME"])
        return try FileStore.configurationFolder(environment: variables, notUTF8: notUTF8, key: key) + "/"
            + domainName + ".plist"
        #endif
    }
}

// Linux only: on Apple platforms `cfprefsd` owns the domain files.
#if !canImport(Darwin)

extension UserDefaultsStore {
    /// Throws when this store's domain file (``domainFilePath(forKey:)``) exists but is not a
    /// property-list dictionary. Foundation on Linux reads such a file as an empty domain, and
    /// `synchronize()` would replace it with this process's copy, which holds none of its keys.
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
