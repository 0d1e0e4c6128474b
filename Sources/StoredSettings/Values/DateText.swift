package import Foundation

/// Exact text for dates where a backend has no native date (JSON, UserDefaults on Linux): ISO 8601
/// in UTC, proleptic Gregorian for every year, with the fewest fraction digits that give back the
/// same `Date` to the bit (`2026-11-30T02:15:18.123456Z`).
package enum DateText {
    /// Seconds from 1970-01-01 to 2001-01-01, the reference date of `Date`.
    private static let referenceOffset: Int64 = 978_307_200

    /// The exact ISO 8601 text of `date`; `nil` for non-finite dates and dates whose seconds do
    /// not fit in `Int64`.
    package static func string(from date: Date) -> String? {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite else { return nil }
        // -0.0 is the instant of 0.0 but another `Date`: RFC 3339's `-00:00` offset still means
        // UTC to other readers, and ``date(from:)`` reads it back as -0.0.
        if interval == 0, interval.sign == .minus { return "2001-01-01T00:00:00-00:00" }
        guard let decimal = PlainDecimal(interval) else { return nil }
        // Split into whole seconds (rounded down) and a fraction in [0, 1) in decimal digits.
        var whole = decimal.integerPart
        var fraction = decimal.fractionDigits
        if decimal.isNegative && !fraction.isEmpty {
            whole = -whole - 1
            fraction = PlainDecimal.complement(fraction)
        } else if decimal.isNegative {
            whole = -whole
        }
        let (unix, overflow) = whole.addingReportingOverflow(referenceOffset)
        guard !overflow else { return nil }
        let days = unix.floorDivided(by: 86_400)
        let seconds = unix - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
        text += "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        if !fraction.isEmpty { text += "." + fraction }
        return text + "Z"
    }

    /// Parses ISO 8601 `YYYY-MM-DDThh:mm:ss` (seconds optional; `.` or `,` fraction; `Z`, `±hh:mm`,
    /// `±hhmm` or `±hh`; `t`, `z` or a space for `T`; surrounding white space ignored; years of
    /// four or more digits, signed). Text from ``string(from:)`` gives back its date to the bit;
    /// impossible dates and times (February 30th, 25:00) are `nil`, never moved to a nearby date.
    package static func date(from text: String) -> Date? {
        var scanner = DateScanner(text.trimmingWhitespace)
        guard let fields = scanner.fields(), scanner.isAtEnd else { return nil }
        guard (1...12).contains(fields.month), fields.day >= 1,
            fields.day <= daysInMonth(year: fields.year, month: fields.month),
            fields.hour < 24, fields.minute < 60, fields.second < 60,
            fields.offsetMinutes.magnitude < 24 * 60
        else { return nil }
        let days = days(fromCivil: fields.year, fields.month, fields.day)
        let (daySeconds, overflow) = days.multipliedReportingOverflow(by: 86_400)
        guard !overflow else { return nil }
        let timeOfDay = fields.hour * 3600 + fields.minute * 60 + fields.second - fields.offsetMinutes * 60
        let (unix, overflow2) = daySeconds.addingReportingOverflow(timeOfDay)
        let (whole, overflow3) = unix.subtractingReportingOverflow(referenceOffset)
        guard !overflow2, !overflow3 else { return nil }
        let trimmedFraction = String(fields.fraction.reversed().drop(while: { $0 == "0" }).reversed())
        if trimmedFraction.isEmpty {
            // The reference date written with the offset `-00:00` is the interval -0.0, as
            // ``string(from:)`` writes it.
            if whole == 0, fields.negativeZeroOffset { return Date(timeIntervalSinceReferenceDate: -0.0) }
            return Date(timeIntervalSinceReferenceDate: Double(whole))
        }
        // whole + 0.fraction, written as one decimal and converted once.
        let decimalText: String
        if whole >= 0 {
            decimalText = "\(whole).\(trimmedFraction)"
        } else {
            decimalText = "-\(-(whole + 1)).\(PlainDecimal.complement(trimmedFraction))"
        }
        guard let interval = Double(decimalText), interval.isFinite else { return nil }
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, days from 1970-01-01)

    /// The year, month and day of `days` after 1970-01-01.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The days from 1970-01-01 to the given date.
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear.floorDivided(by: 400)
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2:
            let leap = year.isMultiple(of: 4) && (!year.isMultiple(of: 100) || year.isMultiple(of: 400))
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// The fields of ISO 8601 date-and-time text, read strictly left to right.
private struct DateScanner {
    struct Fields {
        var year: Int64, month: Int64, day: Int64
        var hour: Int64, minute: Int64, second: Int64
        var fraction: Substring
        var offsetMinutes: Int64
        /// The offset was written `-00:00` (RFC 3339's "unknown local offset"; the time is UTC).
        var negativeZeroOffset = false
    }

    private var rest: Substring.UTF8View

    init(_ text: String) { rest = Substring(text).utf8 }

    var isAtEnd: Bool { rest.isEmpty }

    mutating func fields() -> Fields? {
        var negativeYear = false
        if take("-") { negativeYear = true } else { _ = take("+") }
        guard let yearDigits = number(minimum: 4, maximum: 12), take("-"),
            let month = number(exactly: 2), take("-"), let day = number(exactly: 2)
        else { return nil }
        guard take("T") || take("t") || take(" ") else { return nil }
        guard let hour = number(exactly: 2), take(":"), let minute = number(exactly: 2) else { return nil }
        var second: Int64 = 0
        var fraction: Substring = ""
        if take(":") {
            guard let parsed = number(exactly: 2) else { return nil }
            second = parsed
            if take(".") || take(",") {
                let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                guard !digits.isEmpty else { return nil }
                fraction = Substring(digits)
                rest = rest.dropFirst(digits.count)
            }
        }
        let offset: Int64
        var negativeZeroOffset = false
        if take("Z") || take("z") {
            offset = 0
        } else if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            rest = rest.dropFirst()
            guard let hours = number(exactly: 2) else { return nil }
            var minutes: Int64 = 0
            if take(":") {
                guard let parsed = number(exactly: 2) else { return nil }
                minutes = parsed
            } else if let parsed = number(exactly: 2) {
                minutes = parsed
            }
            guard minutes < 60 else { return nil }
            offset = (hours * 60 + minutes) * (sign == UInt8(ascii: "-") ? -1 : 1)
            negativeZeroOffset = sign == UInt8(ascii: "-") && offset == 0
        } else {
            return nil
        }
        return Fields(
            year: negativeYear ? -yearDigits : yearDigits, month: month, day: day,
            hour: hour, minute: minute, second: second, fraction: fraction, offsetMinutes: offset,
            negativeZeroOffset: negativeZeroOffset
        )
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard rest.first == UInt8(ascii: character) else { return false }
        rest = rest.dropFirst()
        return true
    }

    private mutating func number(exactly count: Int) -> Int64? { number(minimum: count, maximum: count) }

    private mutating func number(minimum: Int, maximum: Int) -> Int64? {
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard digits.count >= minimum, digits.count <= maximum else { return nil }
        rest = rest.dropFirst(digits.count)
        return digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
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
            if value < 0 {
                value += 10
                borrow = 1
            }
            result.append(UInt8(value) + UInt8(ascii: "0"))
        }
        let text = String(decoding: result.reversed(), as: UTF8.self)
        return String(text.reversed().drop(while: { $0 == "0" }).reversed())
    }
}

extension Int64 {
    /// The quotient rounded toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
