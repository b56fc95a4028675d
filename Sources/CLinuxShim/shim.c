#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include "CLinuxShim.h"

int chime_set_current_thread_name(const char *name) {
    char shortName[16];
    strncpy(shortName, name, sizeof shortName - 1);
    shortName[sizeof shortName - 1] = '\0';
    return pthread_setname_np(pthread_self(), shortName);
}

#include <sqlite3.h>

int chime_sqlite_without_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
