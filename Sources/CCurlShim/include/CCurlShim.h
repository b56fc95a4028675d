// libcurl's easy interface for Swift, loaded on first use.
//
// libcurl is opened with dlopen by chime_curl_load, not linked: linked, it and the two dozen
// libraries it needs (TLS, Kerberos, LDAP, SSH, HTTP/2…) were loaded by every chime command and
// stayed resident in the daemon, though only CalDAV uses them. curl.h is used for its types
// and constants only. curl_easy_setopt is variadic, which Swift cannot call, so each value type
// has a typed wrapper here.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

// Opens libcurl and runs curl_global_init, once. NULL when it is ready, else why it is not.
const char *chime_curl_load(void);

CURL *chime_curl_easy_init(void);
void chime_curl_easy_reset(CURL *handle);
void chime_curl_easy_cleanup(CURL *handle);
CURLcode chime_curl_easy_perform(CURL *handle);
const char *chime_curl_easy_strerror(CURLcode code);
struct curl_slist *chime_curl_slist_append(struct curl_slist *list, const char *text);
void chime_curl_slist_free_all(struct curl_slist *list);

CURLcode chime_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode chime_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode chime_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode chime_curl_setopt_write(CURL *handle, CURLoption option,
                                 size_t (*callback)(char *, size_t, size_t, void *));
CURLcode chime_curl_response_code(CURL *handle, long *code);

#endif
