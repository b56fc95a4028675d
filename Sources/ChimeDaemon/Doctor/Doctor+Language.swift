import ChimeCore
import ChimeLanguage

extension Doctor {
    /// What the user's language is found to be, and why Chime may still speak English: no
    /// language set, a locale this machine does not have (gettext then translates nothing), no
    /// catalog found, or a language not translated yet.
    ///
    /// ```swift
    /// Doctor.languageCheck(environment: ["LANG": "ru_RU.UTF-8"], folder: MessageCatalog.folder())
    /// ```
    public static func languageCheck(environment: [String: String], folder: String?, messages: Messages = .english) -> DoctorCheck {
        let check = messages("language", context: "doctor check")
        let locale = LocaleEnvironment(environment)
        guard let name = locale.messages else {
            return DoctorCheck(name: check, status: .ok, detail: messages("English (LANG is unset, C or POSIX)"))
        }
        guard let folder else {
            return DoctorCheck(
                name: check, status: .warn,
                detail: messages(
                    "{locale}, but no translation catalog was found beside chime (share/locale): messages and typed dates are English",
                    ["locale": name]),
                fix: messages("reinstall with make install, or set CHIME_LOCALEDIR to the folder holding LANG/LC_MESSAGES/chime.mo"))
        }
        let catalog = MessageCatalog(locale: name, folder: folder)
        guard catalog.isOpen else {
            let base = name.prefix { $0 != "." && $0 != "@" }
            return DoctorCheck(
                name: check, status: .warn,
                detail: messages(
                    "{locale} is set, but this machine has no such locale, so nothing is translated (as for every gettext program)",
                    ["locale": name]),
                fix: messages(
                    "sudo dpkg-reconfigure locales (tick {locale}), or: {command}",
                    ["locale": "\(base).UTF-8", "command": "sudo localedef -i \(base) -f UTF-8 \(base).UTF-8"]))
        }
        guard catalog.text(DatePhrases.exampleTemplate, context: "date examples") != nil else {
            return DoctorCheck(
                name: check, status: .ok,
                detail: messages("{locale}: not translated yet, so English (see docs/languages.md to add it)", ["locale": name]))
        }
        return DoctorCheck(
            name: check, status: .ok,
            detail: messages("{locale}: messages and typed dates in this language (catalogs in {folder})", ["locale": name, "folder": folder]))
    }
}
