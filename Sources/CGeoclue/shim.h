#pragma once
// GLib's headers are not modular: every Clang module that includes them textually gets its own copy
// of each GLib declaration, and Swift then shows an enumerator or function only through the module
// whose copy won the merge (with CLibnotify and CGeoclue both including <gio/gio.h>,
// LibnotifyConnection.swift lost G_BUS_TYPE_SESSION). So GLib comes in through the CLibnotify
// module: this include becomes an import of it, whose include guards keep geoclue.h from pulling
// GLib in a second time, and ChimeDesktop sees one GLib whichever of the two a file imports.
#include "../CLibnotify/shim.h"
// libgeoclue-2 (Debian libgeoclue-2-dev); pkg-config adds /usr/include/libgeoclue-2.0 to the path.
#include <geoclue.h>
