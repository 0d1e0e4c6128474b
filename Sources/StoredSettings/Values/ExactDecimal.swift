/// A number in plain decimal notation, held exactly: its significant digits and a power of ten.
///
/// The value layer uses it where a `Double` would round: to tell whether number text is a whole
/// number, and whether it lies in an integer type's range, from the digits themselves. `-9223372036854775808.5`
/// is not whole and lies below `Int64.min`, although the nearest `Double` is exactly `Int64.min`.
struct ExactDecimal: Sendable, Equatable {
    /// Whether a minus sign was written (also for zero).
    var isNegative: Bool
    /// The significant digits, 0...9, without leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    /// The power of ten: the value is `digits × 10^exponent`.
    var exponent: Int

    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` in ASCII, with at least one digit before or
    /// after the point (the text ``isPlainDecimalText(_:)`` accepts); `nil` for anything else.
    init?(_ text: some StringProtocol) {
        var bytes = text.utf8[...]
        isNegative = bytes.first == UInt8(ascii: "-")
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        var mantissa: [UInt8] = []
        var fractionCount = 0
        var seenPoint = false
        while let byte = bytes.first {
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                mantissa.append(byte - UInt8(ascii: "0"))
                if seenPoint { fractionCount += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard !mantissa.isEmpty else { return nil }
        var power = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            let negativePower = bytes.first == UInt8(ascii: "-")
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            var count = 0
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                // Saturate: beyond a million, every number is far outside every integer type
                // (or rounds to zero), so the exact power no longer matters.
                power = min(power * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                count += 1
                bytes = bytes.dropFirst()
            }
            guard count > 0 else { return nil }
            if negativePower { power = -power }
        }
        guard bytes.isEmpty else { return nil }
        let leadingZeros = mantissa.prefix { $0 == 0 }.count
        mantissa.removeFirst(leadingZeros)
        let trailingZeros = mantissa.reversed().prefix { $0 == 0 }.count
        mantissa.removeLast(trailingZeros)
        digits = mantissa
        exponent = mantissa.isEmpty ? 0 : power - fractionCount + trailingZeros
    }

    /// Whether the number has no fractional part.
    var isWhole: Bool { exponent >= 0 }

    /// The magnitude of the integer part (the number rounded toward zero); `nil` when it is
    /// beyond `UInt64.max`.
    var integerMagnitude: UInt64? {
        let integerDigits = digits.count + exponent
        guard integerDigits <= 20 else { return nil }
        var result: UInt64 = 0
        for position in 0..<max(integerDigits, 0) {
            let digit = position < digits.count ? UInt64(digits[position]) : 0
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            result = sum
        }
        return result
    }

    /// The outcome of reading the number as an integer type.
    enum IntegerReading<T: FixedWidthInteger> {
        case value(T)
        case outOfRange
        case notWhole
    }

    /// The number as a `T`: its value when whole and in range; ``IntegerReading/outOfRange``
    /// when it lies outside `T.min...T.max` (fraction included); else ``IntegerReading/notWhole``.
    func integer<T: FixedWidthInteger>(as type: T.Type = T.self) -> IntegerReading<T> {
        if digits.isEmpty { return .value(0) }
        guard let magnitude = integerMagnitude else { return .outOfRange }
        let bound: UInt64
        if isNegative {
            guard T.isSigned else { return .outOfRange }
            bound = UInt64(clamping: T.min.magnitude)
        } else {
            bound = UInt64(clamping: T.max)
        }
        if magnitude > bound || (magnitude == bound && !isWhole) { return .outOfRange }
        if !isWhole { return .notWhole }
        // In range, so the two's complement of the magnitude truncates to the value.
        return .value(isNegative ? T(truncatingIfNeeded: 0 &- magnitude) : T(truncatingIfNeeded: magnitude))
    }
}
