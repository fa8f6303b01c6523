import FoundationEssentials
import Glibc

/// UTC times as drafts write them: `2025-06-01T12:00:05.123Z` in a draft's header and
/// `20250601T120005Z` in an unnamed draft's file name (sortable, no characters a shell or
/// a file system minds).
///
/// Written by hand with `gmtime_r`/`timegm` rather than with a date formatter so that it
/// is a pure function, safe on any thread, and reads back exactly what it wrote.
enum UTCTimestamp {
    /// `2025-06-01T12:00:05.123Z`: milliseconds, for a draft's header.
    static func extended(_ date: Date) -> String {
        let (fields, millis) = split(date)
        return self.date(fields, "-") + "T" + time(fields, ":") + "." + digits(millis, 3) + "Z"
    }

    /// `20250601T120005Z`: whole seconds, for a file name.
    static func compact(_ date: Date) -> String {
        let (fields, _) = split(date)
        return self.date(fields, "") + "T" + time(fields, "") + "Z"
    }

    /// `2025-06-01 12:00:05 UTC`, for people.
    static func readable(_ date: Date) -> String {
        let (fields, _) = split(date)
        return self.date(fields, "-") + " " + time(fields, ":") + " UTC"
    }

    /// The year, month and day of `fields`, `separator` between them.
    private static func date(_ fields: tm, _ separator: String) -> String {
        [digits(fields.tm_year + 1900, 4), digits(fields.tm_mon + 1, 2), digits(fields.tm_mday, 2)].joined(separator: separator)
    }

    /// The hours, minutes and seconds of `fields`, `separator` between them.
    private static func time(_ fields: tm, _ separator: String) -> String {
        [digits(fields.tm_hour, 2), digits(fields.tm_min, 2), digits(fields.tm_sec, 2)].joined(separator: separator)
    }

    /// `n` (not negative) in decimal, zero-padded to `width` digits.
    static func digits(_ n: some BinaryInteger, _ width: Int) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Reads what `extended` writes (the milliseconds are optional); nil for anything else.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        // YYYY-MM-DDTHH:MM:SS then an optional .mmm, then Z.
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var n: Int32 = 0
            for i in range {
                guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { return nil }
                n = n * 10 + Int32(bytes[i] - 0x30)
            }
            return n
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (i, c) in separators where bytes[i] != c.asciiValue { return nil }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var millis: Int32 = 0
        if bytes.count == 24, bytes[19] == UInt8(ascii: "."), let m = number(20..<23) {
            millis = m
        } else if bytes.count != 20 {
            return nil
        }
        var fields = tm()
        fields.tm_year = year - 1900
        fields.tm_mon = month - 1
        fields.tm_mday = day
        fields.tm_hour = hour
        fields.tm_min = minute
        fields.tm_sec = second
        let seconds = timegm(&fields)
        return Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
    }

    private static func split(_ date: Date) -> (tm, Int32) {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let millis = Int32(((interval - Double(seconds)) * 1000).rounded(.down))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        return (fields, min(max(millis, 0), 999))
    }
}
