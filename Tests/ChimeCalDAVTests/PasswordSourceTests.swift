@testable import ChimeCalDAV
import Foundation
import Testing

/// The order PasswordSource tries: the account's password command, then the Secret Service, then
/// a prompt (only with a terminal; the tests have none, so that step is an error naming why).
@Suite struct PasswordSourceTests {
    struct Account: SyncAccountCredentials {
        var name = "home", url = "https://dav.example.org/", username = "ana"
        var passwordCommand: String?
    }

    /// A Secret Service stand-in: the passwords it holds, or the error every call throws.
    final class Vault: SecretStore, @unchecked Sendable {
        var kept: [SecretKey: String] = [:]
        var failure: SecretStoreError?
        var lookups = 0
        func lookup(_ key: SecretKey) throws(SecretStoreError) -> String? {
            lookups += 1
            if let failure { throw failure }
            return kept[key]
        }
        func store(_ password: String, for key: SecretKey) throws(SecretStoreError) { kept[key] = password }
        func clear(_ key: SecretKey) throws(SecretStoreError) -> Bool { kept.removeValue(forKey: key) != nil }
    }

    @Test func theAccountsPasswordCommandWinsOverTheSecretService() throws {
        let vault = Vault()
        let account = Account(passwordCommand: "echo from-command")
        vault.kept[account.secretKey] = "from-vault"
        #expect(try PasswordSource.password(for: account, interactive: false, secrets: vault) == "from-command")
        #expect(vault.lookups == 0)
    }

    @Test func withoutACommandTheSecretServiceEntryOfThisAccountIsUsed() throws {
        let vault = Vault()
        vault.kept[SecretKey(account: "home", url: "https://dav.example.org/", user: "ana")] = "from-vault"
        vault.kept[SecretKey(account: "home", url: "https://other.example.org/", user: "ana")] = "other-server"
        #expect(try PasswordSource.password(for: Account(), interactive: false, secrets: vault) == "from-vault")
    }

    @Test func noCommandNoEntryAndNoTerminalIsAnErrorThatSaysWhy() {
        let vault = Vault()
        do {
            _ = try PasswordSource.password(for: Account(), interactive: false, secrets: vault)
            Issue.record("a password without a command, an entry or a terminal")
        } catch {
            #expect("\(error)".contains("no password for it in the Secret Service"), "\(error)")
            #expect("\(error)".contains("--password-command"), "\(error)")
        }
        vault.failure = .unavailable("no session bus")
        do {
            _ = try PasswordSource.password(for: Account(), interactive: false, secrets: vault)
            Issue.record("a password without a command, a vault or a terminal")
        } catch {
            #expect("\(error)".contains("no Secret Service: no session bus"), "\(error)")
        }
    }

    @Test func theEntryIsFoundByAccountURLAndUserWithALabelAKeyringShows() {
        let key = Account().secretKey
        #expect(key == SecretKey(account: "home", url: "https://dav.example.org/", user: "ana"))
        #expect(key.label == "Chime CalDAV account home (ana at https://dav.example.org/)")
    }
}
