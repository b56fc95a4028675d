#pragma once
// libsecret (Debian libsecret-1-dev): CalDAV passwords in the desktop's Secret Service
// (GNOME Keyring, KeePassXC, KWallet's Secret Service). Swift cannot call libsecret's variadic
// attribute lists, so each call Chime makes is one fixed-signature function here.
#include <libsecret/secret.h>

// The schema of Chime's entries: one per CalDAV account, found by its name, URL and user.
static inline const SecretSchema *chime_caldav_schema(void) {
    static const SecretSchema schema = {
        "io.github.chime.CalDAV", SECRET_SCHEMA_NONE,
        {
            { "account", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

// Whether org.freedesktop.secrets is on the session bus, started by D-Bus activation if need be,
// answered within timeout_ms. libsecret itself would wait for an activation as long as the bus
// allows (25 s) and has no timeout of its own: this answers "is there a Secret Service?" quickly.
// NameHasOwner first: dbus-daemon answers StartServiceByName with ServiceUnknown for a name that
// is owned but has no .service file (a gnome-keyring-daemon started by hand).
static inline gboolean chime_secret_service_start(gint timeout_ms, GError **error) {
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, error);
    if (bus == NULL) return FALSE;
    gboolean running = FALSE;
    GVariant *owned = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus", "NameHasOwner", g_variant_new("(s)", "org.freedesktop.secrets"),
        G_VARIANT_TYPE("(b)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms, NULL, error);
    if (owned != NULL) {
        g_variant_get(owned, "(b)", &running);
        g_variant_unref(owned);
        if (!running) {
            GVariant *started = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus", "StartServiceByName", g_variant_new("(su)", "org.freedesktop.secrets", 0),
                G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms, NULL, error);
            if (started != NULL) { running = TRUE; g_variant_unref(started); }
        }
    }
    g_object_unref(bus);
    return running;
}

static inline gchar *chime_secret_lookup(const char *account, const char *url, const char *user,
                                         GCancellable *cancellable, GError **error) {
    return secret_password_lookup_sync(chime_caldav_schema(), cancellable, error,
                                       "account", account, "url", url, "user", user, NULL);
}

static inline gboolean chime_secret_store(const char *account, const char *url, const char *user,
                                          const char *label, const char *password,
                                          GCancellable *cancellable, GError **error) {
    return secret_password_store_sync(chime_caldav_schema(), SECRET_COLLECTION_DEFAULT, label, password,
                                      cancellable, error, "account", account, "url", url, "user", user, NULL);
}

static inline gboolean chime_secret_clear(const char *account, const char *url, const char *user,
                                          GCancellable *cancellable, GError **error) {
    return secret_password_clear_sync(chime_caldav_schema(), cancellable, error,
                                      "account", account, "url", url, "user", user, NULL);
}
