import AtpadCore
import FoundationEssentials
import Glibc

/// What the message line says when atpad starts without a FILE and unnamed drafts of
/// atpads that are gone are waiting (docs/drafts.md): how many, when the newest was
/// written, and the key that recovers it — never a question, so typing goes on at once.
struct DraftNotice: Equatable, Sendable {
    /// The newest of them: the one the key recovers.
    var draft: Draft
    /// How many unnamed drafts of the last 24 hours were left by atpads no longer running.
    var count: Int
    /// When the newest was written, on the person's clock (`10:32`, `yesterday 23:05`).
    var time: String

    /// `1 unsaved draft from 10:32 — Alt-D recovers it`; with more than one, the newest.
    var line: String {
        let key = Keymap.keys(for: .recoverDraft, in: .draftNotice).first?.name ?? "Alt-D"
        let which = count == 1 ? "1 unsaved draft from \(time)" : "\(count) unsaved drafts, the newest from \(time)"
        return "\(which) — \(key) recovers it"
    }

    /// The notice for `drafts` (newest first), nil when there are none.
    init?(drafts: [Draft], now: Date = Date()) {
        guard let newest = drafts.first else { return nil }
        self.init(draft: newest, count: drafts.count,
                  time: DraftNotice.clock(newest.written ?? newest.modified, now: now))
    }

    init(draft: Draft, count: Int, time: String) {
        self.draft = draft
        self.count = count
        self.time = time
    }

    /// `date` as local `hh:mm` (the time zone of `TZ`, else the system's), with
    /// `yesterday` in front when it was not today.
    static func clock(_ date: Date, now: Date = Date()) -> String {
        guard let then = localTime(date), let today = localTime(now) else { return "" }
        let hhmm = (then.tm_hour < 10 ? "0" : "") + "\(then.tm_hour):" + (then.tm_min < 10 ? "0" : "") + "\(then.tm_min)"
        let sameDay = then.tm_year == today.tm_year && then.tm_yday == today.tm_yday
        return sameDay ? hhmm : "yesterday " + hhmm
    }

    private static func localTime(_ date: Date) -> tm? {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        tzset()
        return localtime_r(&seconds, &parts) == nil ? nil : parts
    }
}
