#pragma once
// libsecret (Debian libsecret-1-0): CalDAV passwords in the desktop's Secret Service (GNOME
// Keyring, KeePassXC, KWallet's Secret Service).
//
// It is opened with dlopen on the first password call, not linked: linked, it and libgcrypt were
// loaded by every chime command and resident in the daemon, though only CalDAV accounts use them.
// So its headers are not used: the schema type and the four calls Chime makes are declared here
// as libsecret declares them (secret-schema.h, secret-password.h; unchanged since libsecret 0.18).
// Swift cannot call libsecret's variadic attribute lists, so each call is one fixed-signature
// function here.
#include <gio/gio.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef struct {
    const gchar *name;
    int type;  // SecretSchemaAttributeType: 0 = string
} ChimeSecretSchemaAttribute;

typedef struct {
    const gchar *name;
    int flags;  // SecretSchemaFlags: 0 = none
    ChimeSecretSchemaAttribute attributes[32];
    gint reserved;
    gpointer reserved1, reserved2, reserved3, reserved4, reserved5, reserved6, reserved7;
} ChimeSecretSchema;

static struct {
    gchar *(*lookup)(const ChimeSecretSchema *, GCancellable *, GError **, ...);
    gboolean (*store)(const ChimeSecretSchema *, const gchar *collection, const gchar *label, const gchar *password,
                      GCancellable *, GError **, ...);
    gboolean (*clear)(const ChimeSecretSchema *, GCancellable *, GError **, ...);
    void (*free)(gchar *);
    const char *problem;
    char problemText[512];
} chime_secret_library = { .problem = "libsecret was not loaded" };

static pthread_once_t chime_secret_library_once = PTHREAD_ONCE_INIT;

static void chime_secret_library_load(void) {
    void *library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(chime_secret_library.problemText, sizeof chime_secret_library.problemText,
                 "libsecret could not be loaded (%s); install the libsecret-1-0 package", dlerror());
        chime_secret_library.problem = chime_secret_library.problemText;
        return;
    }
    *(void **)&chime_secret_library.lookup = dlsym(library, "secret_password_lookup_sync");
    *(void **)&chime_secret_library.store = dlsym(library, "secret_password_store_sync");
    *(void **)&chime_secret_library.clear = dlsym(library, "secret_password_clear_sync");
    *(void **)&chime_secret_library.free = dlsym(library, "secret_password_free");
    if (!chime_secret_library.lookup || !chime_secret_library.store || !chime_secret_library.clear
        || !chime_secret_library.free) {
        chime_secret_library.problem = "libsecret-1.so.0 lacks the password calls: libsecret is too old";
        return;
    }
    chime_secret_library.problem = NULL;
}

// Opens libsecret, once. NULL when it is ready (the calls below may be made), else why it is not.
static inline const char *chime_secret_library_problem(void) {
    pthread_once(&chime_secret_library_once, chime_secret_library_load);
    return chime_secret_library.problem;
}

// The schema of Chime's entries: one per CalDAV account, found by its name, URL and user.
static inline const ChimeSecretSchema *chime_caldav_schema(void) {
    static const ChimeSecretSchema schema = {
        "io.github.chime.CalDAV", 0,
        {
            { "account", 0 },
            { "url", 0 },
            { "user", 0 },
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
    return chime_secret_library.lookup(chime_caldav_schema(), cancellable, error,
                                       "account", account, "url", url, "user", user, NULL);
}

static inline gboolean chime_secret_store(const char *account, const char *url, const char *user,
                                          const char *label, const char *password,
                                          GCancellable *cancellable, GError **error) {
    return chime_secret_library.store(chime_caldav_schema(), "default" /* SECRET_COLLECTION_DEFAULT */, label, password,
                                      cancellable, error, "account", account, "url", url, "user", user, NULL);
}

static inline gboolean chime_secret_clear(const char *account, const char *url, const char *user,
                                          GCancellable *cancellable, GError **error) {
    return chime_secret_library.clear(chime_caldav_schema(), cancellable, error,
                                      "account", account, "url", url, "user", user, NULL);
}

// Frees a password lookup returned (libsecret wipes the memory first).
static inline void chime_secret_password_free(gchar *password) {
    chime_secret_library.free(password);
}
