/// The exact help text of `stored` and of each verb; tests compare it byte for byte.
package enum HelpText {
    /// The help of `verb`, or the overview for `nil`. Ends with a newline.
    package static func text(for verb: Verb?) -> String {
        guard let verb else { return overview }
        switch verb {
        case .read: return read
        case .write: return write
        case .delete: return delete
        case .keys: return keys
        case .export: return export
        case .import: return importText
        case .domains: return domains
        case .help: return help
        }
    }

    static let targetSection = """
        TARGET:
          PATH.json, PATH.plist    A settings file; a missing file is an empty store,
                                   created with its folders on the first write.
          --domain NAME            A UserDefaults suite of this user.
          etcd://HOST:PORT[,HOST:PORT...]/PREFIX
                                   Keys under PREFIX/ on an etcd cluster; etcds:// for
                                   TLS. Set from the environment:
            STORED_ETCD_USER, STORED_ETCD_PASSWORD   the etcd user and password
            STORED_ETCD_CA_FILE      PEM file of the CAs members' certificates need
            STORED_ETCD_CERT_FILE, STORED_ETCD_KEY_FILE
                                     the client certificate and key (PEM)
            STORED_ETCD_SERVER_NAME  the name members' certificates must carry
            STORED_ETCD_CONNECTION_TIMEOUT, STORED_ETCD_REQUEST_TIMEOUT,
            STORED_ETCD_PROGRESS_NOTIFY_INTERVAL
                                     seconds (default 5, 5, and none)
        """

    static let exitSection = """
        EXIT STATUS:
          0 success, 1 key not found, 64 usage error, 65 bad data,
          66 input file missing, 74 I/O error.
        """

    static let overview = """
        OVERVIEW: Read and write settings in JSON and property-list files and
        UserDefaults suites.

        USAGE: stored COMMAND [ARGUMENTS]

        COMMANDS:
          read TARGET [KEY]              Print one value, or the whole store, as JSON.
          write TARGET KEY [TYPE] VALUE  Store a value; a string unless TYPE is given.
          delete TARGET [KEY]            Remove one key, or every key.
          keys TARGET                    Print the keys, one per line.
          export TARGET [--format json|plist]
                                         Print the whole store as a settings file.
          import TARGET FILE             Merge in the keys of a JSON or plist file.
          domains                        List the UserDefaults suites of this user.
          help [COMMAND]                 Show this help, or the help of a command.

        \(targetSection)

        \(exitSection)

        See 'stored help COMMAND' for the details of a command.

        """

    static let read = """
        USAGE: stored read TARGET [KEY]

        Prints the value of KEY as JSON: true, 42, 0.5, "text", or a pretty-printed
        array or object. Dates print as ISO 8601 text and data as Base64 text, as in
        JSON settings files; NaN and infinities, which JSON has no form for, print as
        the text "nan", "inf" and "-inf", which -float reads back. Without KEY,
        prints the whole store as one JSON object with sorted keys.

        \(targetSection)

        Exits with 1 when KEY holds no value.

        EXAMPLES:
          stored read ./demo.json
          stored read ./demo.json autoReload
          stored read --domain com.example.app launchCount

        """

    static let write = """
        USAGE: stored write TARGET KEY [TYPE] VALUE

        Stores VALUE under KEY, replacing any value there. Without TYPE, VALUE is
        stored as a string, as with 'defaults write'.

        TYPE:
          -bool      true, false, yes, no, on, off, 1 or 0
          -int       a whole number
          -float     a number, such as 0.5 or 1e-3
          -string    any text (the default)
          -date      ISO 8601 date and time, such as 2026-03-01T09:30:00Z
          -data      hex digits, such as 48656c6c6f; or base64: then Base64 text
          -json      any JSON value but null; - reads it from standard input

        \(targetSection)

        A VALUE that does not fit TYPE exits with 65 and changes nothing.

        EXAMPLES:
          stored write ./demo.json autoReload -bool true
          stored write ./demo.json profile -json '{"name": "Ada", "level": 3}'
          echo '["a.txt", "b.txt"]' | stored write ./demo.json recent -json -

        """

    static let delete = """
        USAGE: stored delete TARGET [KEY]

        Removes KEY, or every key when KEY is not given.

        \(targetSection)

        Exits with 1 when KEY holds no value.

        EXAMPLES:
          stored delete ./demo.json autoReload
          stored delete --domain com.example.app

        """

    static let keys = """
        USAGE: stored keys TARGET

        Prints every key of the store, one per line, sorted. Line breaks and other
        control characters in a key are printed as escapes (\\n, \\u{1B}).

        \(targetSection)

        EXAMPLES:
          stored keys ./demo.json

        """

    static let export = """
        USAGE: stored export TARGET [--format json|plist]

        Prints the whole store to standard output as a settings file: JSON
        pretty-printed with sorted keys (the default), or an XML property list.
        JSON shows NaN and infinities as text, as read does; a property list keeps
        them as numbers.

        \(targetSection)

        EXAMPLES:
          stored export --domain com.example.app > backup.json
          stored export ./demo.json --format plist > demo.plist

        """

    static let importText = """
        USAGE: stored import TARGET FILE

        Merges the keys of FILE into TARGET: keys in FILE replace the same keys in
        TARGET, other keys stay. FILE is a JSON object, or a property list when its
        name ends in .plist or its text starts like one; - reads standard input.
        FILE is read as a settings file is: a pipe, device or folder is refused
        (74), and so is more than 16 MiB, from FILE or standard input (65).
        Every key and value is checked first and a settings file is written once,
        atomically: on any error, TARGET is left unchanged.

        \(targetSection)

        EXAMPLES:
          stored import ./demo.json backup.json
          stored export ./old.plist | stored import ./new.json -

        """

    static let domains = """
        USAGE: stored domains

        Lists the UserDefaults suites of this user, one per line: the .plist files
        in $XDG_CONFIG_HOME (else ~/.config) on Linux, in ~/Library/Preferences on
        Apple platforms. Control characters in a name are printed as escapes.

        """

    static let help = """
        USAGE: stored help [COMMAND]

        Shows the overview, or the help of COMMAND. 'stored --help' and
        'stored COMMAND --help' do the same.

        """
}
