import ChimeLanguage
import ChimeTestSupport
import Testing

extension CatalogSandbox {
    /// The catalog for a locale such as `ru_RU.UTF-8`, from the sandbox's folders.
    static func catalog(_ locale: String) -> MessageCatalog {
        let catalog = MessageCatalog(locale: locale, folder: folders.catalogs)
        #expect(catalog.isOpen, "the locale \(locale) was not generated")
        return catalog
    }
}
