#pragma once
#include <glib.h>
#include <glib-object.h>
#include <libnotify/notify.h>
// GDBus (GIO) for the D-Bus service: declared here so that ChimeDesktop sees one GLib (see CGeoclue's shim).
#include <gio/gio.h>

// Swift sees neither G_VARIANT_TYPE nor variadic constructors: the few fixed types, as static strings.
static inline const GVariantType *chime_type_string(void) { return G_VARIANT_TYPE_STRING; }
static inline const GVariantType *chime_type_vardict_entry(void) { return G_VARIANT_TYPE("{sv}"); }
static inline const GVariantType *chime_type_string_entry(void) { return G_VARIANT_TYPE("{ss}"); }
static inline const GVariantType *chime_type_credentials_reply(void) { return G_VARIANT_TYPE("(a{sv})"); }
