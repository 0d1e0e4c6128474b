import Foundation

/// Exact text for dates: ISO 8601 in UTC with as many fractional-second digits as it takes to
/// give back the same `Date` to the bit.
///
/// Used wherever a backend cannot hold a native date: JSON files, and UserDefaults on Linux
/// (which drops fractional seconds). `2026-11-30T02:15:18Z` for whole seconds,
/// `2026-11-30T02:15:18.123456Z` otherwise.
///
/// The digits come from the shortest decimal form of `timeIntervalSinceReferenceDate`, so
/// parsing reassembles that decimal and converts it once: no floating-point sum loses a bit.
package enum DateText {
    /// The exact ISO 8601 text of `date`; `nil` for non-finite dates.
    package static func string(from date: Date) -> String? {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite else { return nil }
        guard var decimal = PlainDecimal(interval) else { return nil }
        // Split into whole seconds (rounded down) and a fraction in [0, 1) in decimal digits.
        var whole = decimal.integerPart
        var fraction = decimal.fractionDigits
        if decimal.isNegative && !fraction.isEmpty {
            whole = -whole - 1
            fraction = PlainDecimal.complement(fraction)
        } else if decimal.isNegative {
            whole = -whole
        }
        decimal = PlainDecimal(isNegative: false, integerPart: 0, fractionDigits: fraction)
        let wholeDate = Date(timeIntervalSinceReferenceDate: TimeInterval(whole))
        var text = Date.ISO8601FormatStyle().format(wholeDate)
        if text.hasSuffix("Z") { text.removeLast() }
        if !decimal.fractionDigits.isEmpty { text += "." + decimal.fractionDigits }
        return text + "Z"
    }

    /// Parses ISO 8601 text with or without fractional seconds and a `Z` or `±hh:mm` offset.
    /// Text written by ``string(from:)`` gives back the same date to the bit.
    package static func date(from text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // Separate the fraction so the whole-second part parses with the standard style.
        guard let tIndex = trimmed.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }) else {
            return nil
        }
        var wholePart = trimmed
        var fraction = ""
        if let dot = trimmed[tIndex...].firstIndex(where: { $0 == "." || $0 == "," }) {
            let afterDot = trimmed[trimmed.index(after: dot)...]
            let digits = afterDot.prefix(while: \.isASCIIDigit)
            guard !digits.isEmpty else { return nil }
            fraction = String(digits)
            wholePart = String(trimmed[..<dot]) + String(afterDot.dropFirst(digits.count))
        }
        var normalized = wholePart.replacingOccurrences(of: " ", with: "T")
        if normalized.hasSuffix("z") { normalized = String(normalized.dropLast()) + "Z" }
        guard let wholeDate = try? Date.ISO8601FormatStyle().parse(normalized) else { return nil }
        let whole = wholeDate.timeIntervalSinceReferenceDate
        guard whole == whole.rounded(.down), let wholeInteger = Int64(exactly: whole) else { return nil }
        let trimmedFraction = String(fraction.reversed().drop(while: { $0 == "0" }).reversed())
        if trimmedFraction.isEmpty { return wholeDate }
        // whole + 0.fraction, written as one decimal and converted once.
        let decimalText: String
        if wholeInteger >= 0 {
            decimalText = "\(wholeInteger).\(trimmedFraction)"
        } else {
            decimalText = "-\(-(wholeInteger + 1)).\(PlainDecimal.complement(trimmedFraction))"
        }
        guard let interval = Double(decimalText) else { return nil }
        return Date(timeIntervalSinceReferenceDate: interval)
    }
}

/// A finite `Double` in plain decimal notation: sign, integer part and fraction digits, from
/// the shortest digits that convert back to the same `Double`.
private struct PlainDecimal {
    var isNegative: Bool
    var integerPart: Int64
    var fractionDigits: String

    init(isNegative: Bool, integerPart: Int64, fractionDigits: String) {
        self.isNegative = isNegative
        self.integerPart = integerPart
        self.fractionDigits = fractionDigits
    }

    init?(_ value: Double) {
        // `description` gives the shortest round-trip digits, possibly with an exponent.
        var text = value.magnitude.description.lowercased()
        var exponent = 0
        if let e = text.firstIndex(of: "e") {
            guard let parsed = Int(text[text.index(after: e)...]) else { return nil }
            exponent = parsed
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(parts[0])
        var pointPosition = digits.count
        if parts.count > 1 { digits += parts[1] }
        pointPosition += exponent
        if pointPosition <= 0 {
            digits = String(repeating: "0", count: -pointPosition + 1) + digits
            pointPosition = 1
        } else if pointPosition > digits.count {
            digits += String(repeating: "0", count: pointPosition - digits.count)
        }
        let integerDigits = digits.prefix(pointPosition)
        let fraction = digits.dropFirst(pointPosition).reversed().drop(while: { $0 == "0" }).reversed()
        guard let integer = Int64(integerDigits) else { return nil }
        self.isNegative = value.sign == .minus
        self.integerPart = integer
        self.fractionDigits = String(fraction)
    }

    /// The digits of `1 - 0.digits`, with the same number of digits (trailing zeros removed).
    static func complement(_ digits: String) -> String {
        var result: [UInt8] = []
        var borrow = 0
        for (index, character) in digits.utf8.reversed().enumerated() {
            let digit = Int(character - UInt8(ascii: "0"))
            let minuend = index == 0 ? 10 : 9
            var value = minuend - digit - borrow
            borrow = 0
            if value < 0 { value += 10; borrow = 1 }
            result.append(UInt8(value) + UInt8(ascii: "0"))
        }
        let text = String(decoding: result.reversed(), as: UTF8.self)
        return String(text.reversed().drop(while: { $0 == "0" }).reversed())
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
