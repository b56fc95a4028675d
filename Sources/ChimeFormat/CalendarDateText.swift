import ChimeCore

/// A day written in a calendar's own terms, for `chime show`: `八月十五` (Chinese, in Chinese),
/// `8 Adar I 5786`, `1 Ramadan 1447`. Month names are the calendars' usual English
/// transliterations; the Chinese calendar is written in Chinese numerals for Chinese and
/// Japanese readers and in Korean for Korean ones (the way those readers see it on a wall calendar).
///
/// ```swift
/// CalendarDateText.text(CivilDate(year: 2026, month: 9, day: 25), in: .chinese, language: "zh")   // "八月十五"
/// CalendarDateText.text(CivilDate(year: 2026, month: 9, day: 25), in: .chinese, language: "en")   // "month 8, day 15"
/// ```
public enum CalendarDateText {
    public static func text(_ day: CivilDate, in calendar: RecurrenceCalendar, language: String) -> String? {
        guard let d = calendar.date(of: day) else { return nil }
        switch calendar {
        case .gregorian:
            return nil
        case .chinese, .dangi:
            if language.hasPrefix("zh") || language.hasPrefix("ja") { return chineseText(d) }
            if language.hasPrefix("ko") { return "음력 \(d.isLeapMonth ? "윤" : "")\(d.month)월 \(d.day)일" }
            return "\(d.isLeapMonth ? "leap " : "")month \(d.month), day \(d.day)"
        default:
            let names = monthNames(calendar)
            let name: String
            if calendar == .hebrew {
                // Adar is Adar II in a year that has Adar I (5L).
                name = d.isLeapMonth ? "Adar I" : (d.month == 6 && d.yearHasLeapMonth ? "Adar II" : names[d.month - 1])
            } else {
                name = d.month <= names.count ? names[d.month - 1] : "month \(d.month)"
            }
            return "\(d.day) \(name) \(d.year)"
        }
    }

    private static func chineseText(_ d: CalendarSystemDate) -> String {
        let digits = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"]
        let months = ["正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "冬", "腊"]
        let day: String
        switch d.day {
        case 1...10: day = "初" + digits[d.day]
        case 11...19: day = "十" + digits[d.day - 10]
        case 20: day = "二十"
        case 21...29: day = "廿" + digits[d.day - 20]
        default: day = "三十"
        }
        return (d.isLeapMonth ? "闰" : "") + months[max(0, min(11, d.month - 1))] + "月" + day
    }

    private static func monthNames(_ calendar: RecurrenceCalendar) -> [String] {
        switch calendar {
        case .hebrew:
            return ["Tishrei", "Cheshvan", "Kislev", "Tevet", "Shevat", "Adar", "Nisan", "Iyar", "Sivan", "Tammuz", "Av", "Elul"]
        case .islamic, .islamicCivil, .islamicTabular, .islamicUmmAlQura:
            return [
                "Muharram", "Safar", "Rabi al-Awwal", "Rabi al-Thani", "Jumada al-Ula", "Jumada al-Akhirah", "Rajab",
                "Sha'ban", "Ramadan", "Shawwal", "Dhu al-Qadah", "Dhu al-Hijjah"
            ]
        case .persian:
            return ["Farvardin", "Ordibehesht", "Khordad", "Tir", "Mordad", "Shahrivar", "Mehr", "Aban", "Azar", "Dey", "Bahman", "Esfand"]
        case .ethiopic, .ethiopicAmeteAlem:
            return ["Meskerem", "Tikimt", "Hidar", "Tahsas", "Tir", "Yekatit", "Megabit", "Miazia", "Genbot", "Sene", "Hamle", "Nehase", "Pagume"]
        case .coptic:
            return ["Thout", "Paopi", "Hathor", "Koiak", "Tobi", "Meshir", "Paremhat", "Parmouti", "Pashons", "Paoni", "Epip", "Mesori", "Nasie"]
        case .indian:
            return ["Chaitra", "Vaishakha", "Jyeshtha", "Ashadha", "Shravana", "Bhadra", "Ashvin", "Kartika", "Agrahayana", "Pausha", "Magha", "Phalguna"]
        case .gregorian, .chinese, .dangi:
            return []
        }
    }
}
