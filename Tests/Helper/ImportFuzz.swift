import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine

/// `fuzz-import SEED COUNT`: gives COUNT generated files to `stored import`'s reader
/// (`ImportFile.read` of standard input, whose format is guessed from the bytes), in this
/// process so a crash ends it: a third each binary property lists, XML property lists and
/// JSON texts, of the kinds ``fuzzPropertyListsCommand(seed:count:)`` makes and JSON of every
/// shape, some damaged.
///
/// Each must be read or refused with a `CommandFailure` of exit code 65; a file that is read
/// must have keys and nesting a store accepts. Prints `read R refused F` and exits 0, or prints
/// `unexpected <index> <what>; input <base64>` and exits 1.
func fuzzImportCommand(seed: UInt64, count: Int) {
    var random = SplitMix(state: seed)
    var read = 0
    var refused = 0
    for index in 0..<count {
        let data =
            switch index % 3 {
            case 0: binaryPropertyList(&random)
            case 1: xmlPropertyList(&random)
            default: jsonText(&random)
            }
        func unexpected(_ what: String) -> Never {
            say("unexpected \(index) \(what); input \(data.base64EncodedString())")
            exit(1)
        }
        do {
            let values = try ImportFile.read("-", input: { data })
            read += 1
            if StoredValue.dictionary(values).depth > StoredValueJSON.maximumDepth {
                unexpected("a file nested deeper than the limit was read")
            }
            for key in values.keys where (try? StorageError.validate(key: key)) == nil {
                unexpected("an invalid key was read")
            }
        } catch let failure as CommandFailure {
            guard failure.exitCode == .dataError else { unexpected("exit code \(failure.exitCode): \(failure.line)") }
            refused += 1
        } catch {
            unexpected("\(type(of: error)): \(error)")
        }
    }
    say("read \(read) refused \(refused)")
}

/// A JSON text of random values, including what stored values lack (`null`) and keys that
/// stores refuse, some with bytes changed or cut off.
private func jsonText(_ random: inout SplitMix) -> Data {
    let strings = [
        "\"x\"", "\"\\u0001\"", "\"\\ud800\"", "\"\"", "\"caf\\u00e9\"", "\"cafe\\u0301\"", "\"\u{212B}\"",
        "\"a\\\"b\"",
    ]
    let scalars = [
        "1", "-0", "1e400", "9223372036854775808", "-9223372036854775809", "0.1", "true", "false", "null", "1.",
        "01", "\"2024-02-30T10:00:00Z\"",
    ]
    func element(_ depth: Int) -> String {
        switch Int.random(in: 0...(depth > 3 ? 5 : 9), using: &random) {
        case 0, 1, 2: return scalars.randomElement(using: &random)!
        case 3, 4, 5: return strings.randomElement(using: &random)!
        case 6, 7:
            let body = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                strings.randomElement(using: &random)! + ":" + element(depth + 1)
            }
            return "{" + body.joined(separator: ",") + "}"
        default:
            let body = (0..<Int.random(in: 0...4, using: &random)).map { _ in element(depth + 1) }
            return "[" + body.joined(separator: ",") + "]"
        }
    }
    let levels = Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 60...70, using: &random) : 0
    var text = String(repeating: "{\"d\":", count: levels) + element(0) + String(repeating: "}", count: levels)
    if Bool.random(using: &random) {
        text = "{" + strings.randomElement(using: &random)! + ":" + text + "}"
    }
    return Data(mutated(Array(text.utf8), &random, keepingPrefix: 0))
}
