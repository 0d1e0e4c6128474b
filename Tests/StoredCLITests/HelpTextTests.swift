import StoredCLI
import Testing

/// The help text, compared byte for byte.
@Suite(.timeLimit(.hangGuard))
struct HelpTextTests {
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

        EXIT STATUS:
          0 success, 1 key not found, 64 usage error, 65 bad data,
          66 input file missing, 74 I/O error.

        See 'stored help COMMAND' for the details of a command.

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

        A VALUE that does not fit TYPE exits with 65 and changes nothing.

        EXAMPLES:
          stored write ./demo.json autoReload -bool true
          stored write ./demo.json profile -json '{"name": "Ada", "level": 3}'
          echo '["a.txt", "b.txt"]' | stored write ./demo.json recent -json -

        """

    static let read = """
        USAGE: stored read TARGET [KEY]

        Prints the value of KEY as JSON: true, 42, 0.5, "text", or a pretty-printed
        array or object. Dates print as ISO 8601 text and data as Base64 text, as in
        JSON settings files; NaN and infinities, which JSON has no form for, print as
        the text "nan", "inf" and "-inf", which -float reads back. Without KEY,
        prints the whole store as one JSON object with sorted keys.

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

        Exits with 1 when KEY holds no value.

        EXAMPLES:
          stored read ./demo.json
          stored read ./demo.json autoReload
          stored read --domain com.example.app launchCount

        """

    @Test(arguments: [["help"], ["--help"], ["-h"]])
    func printsTheOverview(_ arguments: [String]) {
        expectSuccess(stored(arguments: arguments), output: Self.overview)
    }

    @Test(arguments: [["help", "write"], ["write", "--help"], ["write", "./demo.json", "k", "-h"]])
    func printsTheHelpOfWrite(_ arguments: [String]) {
        expectSuccess(stored(arguments: arguments), output: Self.write)
    }

    @Test func printsTheHelpOfRead() {
        expectSuccess(stored("read", "--help"), output: Self.read)
    }

    @Test(arguments: Verb.allCases)
    func everyVerbHasTheSameHelpBothWays(_ verb: Verb) {
        let viaHelp = stored("help", verb.rawValue)
        expectSuccess(viaHelp)
        expectSuccess(stored(verb.rawValue, "--help"), output: viaHelp.output)
        #expect(viaHelp.output.hasPrefix("USAGE: stored \(verb.rawValue)"))
        #expect(viaHelp.output.hasSuffix("\n"))
        #expect(viaHelp.output != Self.overview)
    }

    @Test(arguments: [nil] + Verb.allCases.map(Optional.some))
    func helpFitsEightyColumns(_ verb: Verb?) {
        let lines = HelpText.text(for: verb).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
    }
}
