import Foundation
import StoredSettings
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct WhitespaceTrimmingTests {
    @Test func trimsTheScalarsFoundationTrims() {
        let foundation = CharacterSet.whitespacesAndNewlines
        var differing: [String] = []
        for code in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(code) else { continue }
            if scalar.isTrimmableWhitespace != foundation.contains(scalar) {
                differing.append(String(code, radix: 16))
            }
        }
        #expect(differing.isEmpty, "differs for \(differing.prefix(20))")
    }

    @Test(arguments: [
        "", " ", "42", " 42", "42\n", "\u{3000}x\u{2028}", "\t\r\n", "é", " a b ", "\u{85}1", "\u{200B}7\u{200B}",
        "x\u{A0}", "\u{7F}", "\u{1}1",
    ])
    func trimsLikeFoundation(text: String) {
        #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
