import Foundation
import StoredSettings

/// `fuzz-property-lists SEED COUNT`: parses COUNT generated binary and XML property lists
/// (half each) with `PropertyListValue.parseFile`, in this process so a crash ends it.
///
/// Inputs are random object graphs of every kind a property list can encode (sets, UIDs,
/// `null`, 16-byte integers, lone surrogates, cycles, unknown markers, bad references), some
/// with bytes flipped or cut off afterwards. Each must parse or throw a `StorageError`; a parsed
/// value must write back (or be refused as `encodingFailed`) and read back the same. Prints
/// `parsed P refused R` and exits 0, or prints `unexpected <index> <what>; input <base64>` and
/// exits 1.
func fuzzPropertyListsCommand(seed: UInt64, count: Int) {
    var random = SplitMix(state: seed)
    var parsed = 0
    var refused = 0
    for index in 0..<count {
        let data = index % 2 == 0 ? binaryPropertyList(&random) : xmlPropertyList(&random)
        do {
            let (value, encoding) = try PropertyListValue.parseFile(data)
            parsed += 1
            let written: Data
            do {
                written = try PropertyListValue.fileData(from: value, encoding: encoding)
            } catch let error as StorageError where error.code == .encodingFailed {
                continue
            }
            let reread = try PropertyListValue.parseFile(written).value
            guard readsTheSame(reread, value) else {
                say(
                    "unexpected \(index) the value changed when written back: \(value) became \(reread); input \(data.base64EncodedString())"
                )
                exit(1)
            }
        } catch is StorageError {
            refused += 1
        } catch {
            say("unexpected \(index) \(type(of: error)): \(error); input \(data.base64EncodedString())")
            exit(1)
        }
    }
    say("parsed \(parsed) refused \(refused)")
}

/// Whether `reread` holds what `value` held: identical, except that the XML writer keeps a
/// date before 1900 or with fractional seconds as its exact ISO 8601 text, which reads back as
/// the same `Date`.
private func readsTheSame(_ reread: StoredValue, _ value: StoredValue) -> Bool {
    switch (reread, value) {
    case (.string(let text), .date(let date)): DateText.date(from: text) == date
    case (.array(let first), .array(let second)):
        first.count == second.count && zip(first, second).allSatisfy { readsTheSame($0, $1) }
    case (.dictionary(let first), .dictionary(let second)):
        first.count == second.count
            && first.allSatisfy { key, item in second[key].map { readsTheSame(item, $0) } ?? false }
    default: reread.isIdentical(to: value)
    }
}

/// A small, fast, seedable generator (SplitMix64), so a failing index can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// A binary property list of 1 to 12 random objects, object 0 at the top.
func binaryPropertyList(_ random: inout SplitMix) -> Data {
    let objectCount = Int.random(in: 1...12, using: &random)
    func reference() -> UInt8 {
        // Now and then a reference past the table, or to an object that contains it.
        UInt8(Int.random(in: 0..<(objectCount + (Bool.random(using: &random) ? 0 : 1)), using: &random))
    }
    func lengthMarker(_ kind: UInt8, _ length: Int) -> [UInt8] {
        length < 15 ? [kind << 4 | UInt8(length)] : [kind << 4 | 0x0F, 0x10, UInt8(length)]
    }
    var objects: [[UInt8]] = []
    for index in 0..<objectCount {
        let containerKinds: [UInt8] = [0xA, 0xB, 0xC, 0xD]
        let choice = index == 0 && Bool.random(using: &random) ? 13 : Int.random(in: 0...16, using: &random)
        var bytes: [UInt8]
        switch choice {
        case 0: bytes = [[0x00, 0x08, 0x09, 0x0F, 0x0C].randomElement(using: &random)!]
        case 1:
            let width = Int.random(in: 0...5, using: &random)
            bytes = [0x10 | UInt8(width)] + (0..<(1 << width)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 2:
            let width = Int.random(in: 1...4, using: &random)
            bytes = [0x20 | UInt8(width)] + (0..<(1 << width)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 3: bytes = [0x33] + (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 4:
            let length = Int.random(in: 0...20, using: &random)
            bytes = lengthMarker(0x4, length) + (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 5, 6:
            let length = Int.random(in: 0...18, using: &random)
            let alphabet = Array("abkx\u{7F}".utf8) + [0x80, 0xC3, 0xE2]
            bytes = lengthMarker(0x5, length) + (0..<length).map { _ in alphabet.randomElement(using: &random)! }
        case 7, 8:
            let length = Int.random(in: 0...8, using: &random)
            let units: [UInt16] = [0x61, 0xC5, 0x212B, 0xD800, 0xDC00, 0xD83D, 0xDE00, 0xFFFE, 0x0000]
            bytes = lengthMarker(0x6, length)
            for _ in 0..<length {
                let unit = units.randomElement(using: &random)!
                bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            }
        case 9: bytes = [0x80 | UInt8.random(in: 0...3, using: &random), UInt8.random(in: 0...255, using: &random)]
        case 10: bytes = [[0x70, 0x91, 0xE1, 0xF0].randomElement(using: &random)!, 0x61]
        default:
            let kind = choice == 13 ? 0xD : containerKinds.randomElement(using: &random)!
            let length = Int.random(in: 0...4, using: &random)
            bytes = lengthMarker(kind, length) + (0..<(kind == 0xD ? 2 * length : length)).map { _ in reference() }
        }
        objects.append(bytes)
    }
    var output = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
        offsets.append(output.count)
        output += object
    }
    let table = output.count
    let offsetSize = table > 255 ? 2 : 1
    for offset in offsets { output += offsetSize == 2 ? [UInt8(offset >> 8), UInt8(offset & 0xFF)] : [UInt8(offset)] }
    output += [UInt8](repeating: 0, count: 6) + [UInt8(offsetSize), 1]
    for field in [UInt64(objectCount), 0, UInt64(table)] {
        output += (0..<8).reversed().map { UInt8(field >> ($0 * 8) & 0xFF) }
    }
    return Data(mutated(output, &random, keepingPrefix: 8))
}

/// An XML property list of random elements, including some that property lists do not have.
func xmlPropertyList(_ random: inout SplitMix) -> Data {
    let texts = [
        "x", "\u{00C5}", "\u{212B}", "&#xD800;", "&#x1;", "&amp;", "&#xFEFF;k", "1e400", "-0", "12",
        "9223372036854775808", "18446744073709551616", "0x1F", "2024-02-30T10:00:00Z", "2001-01-01T00:00:00Z", "AAEC",
        "!!", "",
    ]
    func element(_ depth: Int) -> String {
        let text = texts.randomElement(using: &random)!
        switch Int.random(in: 0...(depth > 3 ? 9 : 13), using: &random) {
        case 0: return "<string>\(text)</string>"
        case 1: return "<integer>\(text)</integer>"
        case 2: return "<real>\(text)</real>"
        case 3: return "<date>\(text)</date>"
        case 4: return "<data>\(text)</data>"
        case 5: return Bool.random(using: &random) ? "<true/>" : "<false/>"
        case 6: return "<key>\(text)</key>"
        case 7: return ["<null/>", "<uid>1</uid>", "<set/>", "<string/>", "<dict/>"].randomElement(using: &random)!
        case 8: return "<string>\(text)<!-- c --></string>"
        case 9: return "<![CDATA[\(text)]]>"
        case 10, 11:
            let body = (0..<Int.random(in: 0...4, using: &random)).map { _ in "<key>\(text)</key>" + element(depth + 1)
            }
            return "<dict>" + body.joined() + "</dict>"
        default:
            let body = (0..<Int.random(in: 0...4, using: &random)).map { _ in element(depth + 1) }
            return "<array>" + body.joined() + "</array>"
        }
    }
    let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">" + element(0) + "</plist>\n"
    return Data(mutated(Array(text.utf8), &random, keepingPrefix: 0))
}

/// `bytes`, or one time in three `bytes` with a few bytes changed, or cut short.
func mutated(_ bytes: [UInt8], _ random: inout SplitMix, keepingPrefix prefix: Int) -> [UInt8] {
    guard Int.random(in: 0..<3, using: &random) == 0, bytes.count > prefix + 1 else { return bytes }
    var result = bytes
    if Bool.random(using: &random) {
        result.removeLast(Int.random(in: 1..<(result.count - prefix), using: &random))
    } else {
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            result[Int.random(in: prefix..<result.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
    }
    return result
}
