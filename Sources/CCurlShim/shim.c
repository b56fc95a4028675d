#include "CCurlShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The soname of libcurl 7.16 and later (Debian's libcurl4 and libcurl3-gnutls both provide it).
#define CHIME_LIBCURL "libcurl.so.4"

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_problem = "libcurl was not loaded";
static char problem_text[512];

static void load(void) {
    void *library = dlopen(CHIME_LIBCURL, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem_text, sizeof problem_text, "libcurl could not be loaded (%s); install the libcurl4 package",
                 dlerror());
        load_problem = problem_text;
        return;
    }
#define FIND(field, name)                                                                                 \
    if (!(*(void **)&curl.field = dlsym(library, name))) {                                                \
        snprintf(problem_text, sizeof problem_text, "%s has no %s: libcurl is too old", CHIME_LIBCURL, name); \
        load_problem = problem_text;                                                                      \
        return;                                                                                           \
    }
    FIND(global_init, "curl_global_init")
    FIND(easy_init, "curl_easy_init")
    FIND(easy_reset, "curl_easy_reset")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_perform, "curl_easy_perform")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
#undef FIND
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        load_problem = "libcurl could not initialise (curl_global_init failed)";
        return;
    }
    load_problem = NULL;
}

const char *chime_curl_load(void) {
    pthread_once(&load_once, load);
    return load_problem;
}

// The calls below are made only after chime_curl_load returned NULL.

CURL *chime_curl_easy_init(void) { return curl.easy_init(); }
void chime_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
void chime_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode chime_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *chime_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *chime_curl_slist_append(struct curl_slist *list, const char *text) { return curl.slist_append(list, text); }
void chime_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode chime_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode chime_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode chime_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode chime_curl_setopt_write(CURL *handle, CURLoption option,
                                 size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl.easy_setopt(handle, option, callback);
}

CURLcode chime_curl_response_code(CURL *handle, long *code) {
    return curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
